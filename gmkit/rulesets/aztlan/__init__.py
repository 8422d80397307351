"""AZTLAN (Ken St. Andre, 1977): the ruleset is in progress.

So far only the orders (:mod:`gmkit.rulesets.aztlan.orders`) are written; the
board lives in :mod:`gmkit.rulesets.aztlan_map`.  Nothing is registered yet.
"""
