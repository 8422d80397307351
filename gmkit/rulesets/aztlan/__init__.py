"""AZTLAN (Ken St. Andre, 1977): the ruleset is in progress and not registered yet.

Written so far: the orders and their validation (:mod:`gmkit.rulesets.aztlan.orders`) and the
combat core of a movement turn (:mod:`gmkit.rulesets.aztlan.adjudicate`: Attack, Cut Support,
Support, Hold and Stand as decisions resolved with cycle detection). Moves, sacrifices, builds,
the Chichimecs and the turn sequence are not yet adjudicated. The board lives in
:mod:`gmkit.rulesets.aztlan_map`.
"""
