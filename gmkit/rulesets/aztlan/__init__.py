"""AZTLAN (Ken St. Andre, 1977): the ruleset is in progress and not registered yet.

Written so far: the orders and their validation (:mod:`gmkit.rulesets.aztlan.orders`) and the
adjudication of a movement turn (:mod:`gmkit.rulesets.aztlan.adjudicate`: Attack, Cut Support,
Support, Hold and Stand as decisions resolved with cycle detection, then Moves with scouts and
the desert crossing). Sacrifices, builds, gifts, the other Chichimec rules and the turn sequence
are not yet written. The board lives in
:mod:`gmkit.rulesets.aztlan_map`.
"""
