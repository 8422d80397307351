"""6: an action a player posted that cannot be taken when its turn comes (no AP left) is told to
that player: the step shows it, and the player's own view names the line, the reason and the
rule, a secret action's included."""

from __future__ import annotations

from datetime import timedelta

from gmkit.core.parts import Context
from gmkit.core.dice import Dice
from gmkit.core.envelope import Envelope, Orders
from gmkit.core.orders import PostLine
from gmkit.core.ruleset import find_ruleset
from gmkit.core.steps import Driver
from gmkit.core.views import sees_event
from gmkit.rulesets.aeternus.orders import parse_line
from gmkit.rulesets.aeternus.rules import ACTIONS
from gmkit.rulesets.aeternus.steps import STEPS
from tests.aeternus.scenario import MONDAY, SEED, rules, scenario

O, N, S = (0, 0, 0), (0, 0, 1), (0, 0, -1)


def _resolve(lines: list[str], secret: bool) -> list:
    state = scenario({O: "Meadow", N: "Meadow", S: "Meadow"}, {"Amber": O})
    envelopes = [Envelope(parse_line(PostLine(i + 1, text, False)), "Amber", 1, i + 1, secret,
                          (MONDAY + timedelta(minutes=i)).isoformat())
                 for i, text in enumerate(lines)]
    params, ruleset = rules(), find_ruleset("aeternus")
    driver = Driver(STEPS, state, Orders(envelopes), Dice(SEED, 1), params,
                    lambda start, now: ruleset.rules_at(start, now, Context(params)))
    driver.run_all()
    return [e for r in driver.records for e in r.events]


def test_6_an_action_without_ap_is_told_to_its_player_with_line_reason_and_rule():
    """6: "AP ... spent to perform actions" and never below zero: Amber's third traverse (line
    3) finds no AP left; the event says so, with the line, and cites the rule; Amber sees it,
    a secret post's as well; the public does not see a secret one."""
    lines = ["Traverse North", "Traverse South", "Traverse South"]
    for secret in (False, True):
        events = _resolve(lines, secret)
        (failed,) = [e for e in events if e.kind == "failed"]
        assert failed.player == "Amber" and failed.rule.startswith(ACTIONS)  # 6.2: traverse
        assert "(line 3)" in failed.text and "has 0 left" in failed.text
        assert sees_event("player:Amber", failed)
        assert sees_event("public", failed) is not secret
