"""SPEND and GAME DECISIONS: SPENDING GOLD: a Tlatoani's limit for a council session."""

from __future__ import annotations

from typing import Any

import pytest

from gmkit.core.tables import State
from gmkit.rulesets.jungle.edit import update
from gmkit.rulesets.jungle.action_lines import parse
from gmkit.rulesets.jungle.resolve import resolve_part
from tests.jungle.helpers import char, city_row, drawn, rules, world


def _empire(gold: int) -> State:
    """Gualpa rules Tenochtitlan (5 of the empire's 10 citizens); the treasury holds ``gold``."""
    s = world([char("Gualpa", "Red", fame=16, **{"class": "tlatoani"})],
              cities=[city_row("Tenochtitlan", tlatoani="Gualpa", citizens=5),
                      city_row("Texcoco", citizens=5)])
    return update(s, "session", "session", 1, gold=gold)


def _round(state: State, post: str, slot: int, params: Any) -> tuple[State, list[Any]]:
    actions = [a for _, a in parse(post, state, "Red", slot, params).orders]
    return resolve_part(state, actions, drawn(), params, slot)


@pytest.mark.parametrize("first,second", [(30, 20), (20, 30), (50, 0)])
def test_spend_limit_is_one_limit_for_the_whole_council_session(first: int, second: int):
    """SPEND: "The limit to how much gold a Tlatoani may spend in a single council session is
    equal to (Total Gold)*(Citizen's in City)/(Total Aztec Citizens)": 100 gold x 5 / 10 = 50,
    from the gold at the session's start, so 30 then 20 is allowed as 50 at once is."""
    params = rules()
    s, ev1 = _round(_empire(100), f"[b]Gualpa: Spend {first} on roads[/b]", 1, params)
    events = ev1
    if second:
        s, ev2 = _round(s, f"[b]Gualpa: Spend {second} on walls[/b]", 2, params)
        events = ev1 + ev2
    assert [e for e in events if e.kind == "void"] == []
    assert int(s["session"]["gold"][0]) == 50


def test_spend_beyond_the_session_limit_is_void():
    """SPEND: the limit holds across the session's two actions: 30 then 21 of a 50 limit."""
    s, _ = _round(_empire(100), "[b]Gualpa: Spend 30 on roads[/b]", 1, rules())
    s, events = _round(s, "[b]Gualpa: Spend 21 on walls[/b]", 2, rules())
    (void,) = [e for e in events if e.kind == "void"]
    assert "may spend 50 gold this session; 30 spent already" in void.text
    assert int(s["session"]["gold"][0]) == 70


def test_option_spend_limit_each_spend_takes_the_gold_at_each_spend():
    """``spend_limit = each_spend``: the Total Gold is the treasury at the moment of the spend:
    after 30 of 100 the limit is 70 x 5 / 10 = 35, so 20 more is void (gmkit's first reading)."""
    params = rules(spend_limit="each_spend")
    s, _ = _round(_empire(100), "[b]Gualpa: Spend 30 on roads[/b]", 1, params)
    s, events = _round(s, "[b]Gualpa: Spend 20 on walls[/b]", 2, params)
    (void,) = [e for e in events if e.kind == "void"]
    assert "may spend 35 gold this session" in void.text
