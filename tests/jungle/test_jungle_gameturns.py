"""DETERMINING RESEARCH and DETERMINING PRODUCTION over the ten gameturns."""

from __future__ import annotations

import polars as pl

from gmkit.rulesets.jungle.gameturns import credit, draws
from gmkit.rulesets.jungle.state import FIGURE_SCHEMAS
from tests.jungle.helpers import RULES, char, char_of, dice, world


def lab():
    return world([char("A", "Red", beakers=2, wisdom=3), char("B", "Blue", beakers=1, wisdom=1)],
                 projects=[{"character": "A", "kind": "research", "item": "Writing",
                            "city": None},
                           {"character": "B", "kind": "research", "item": "Bronze Working",
                            "city": None}])


def test_research_is_weighted_by_beakers_times_wisdom_and_uses_a_beaker():
    """DETERMINING RESEARCH: "weighted ... (Beakers)*(Wisdom). The selected character ... earns 1
    point of wisdom. The selection uses up one of the character's science beakers"."""
    roll = dice(**{"research/empire/1": "A: Writing"})
    after, picks, _ = draws(lab(), roll, RULES)
    assert roll.log[0].expression == "choice(A: Writing:6, B: Bronze Working:1)"
    assert roll.log[1].expression == "choice(A: Writing:4, B: Bronze Working:1)"  # 1 beaker, W 4
    assert len([p for p in picks if p.kind == "research"]) == 10
    assert sum(p.character == "A" for p in picks) + 3 == char_of(after, "A")["wisdom"]


def test_when_every_beaker_is_used_the_picks_are_unweighted():
    """DETERMINING RESEARCH: "If all of the science beakers ... are used up, the remaining
    selections are made randomly (unweighted)"."""
    roll = dice(**{"research/empire/1": "A: Writing", "research/empire/2": "A: Writing",
                   "research/empire/3": "B: Bronze Working"})
    draws(lab(), roll, RULES)
    assert roll.log[3].expression == "choice(A: Writing:1, B: Bronze Working:1)"


def test_the_final_breakthrough_makes_the_inventor():
    """DETERMINING RESEARCH: "The character that makes the final breakthrough ... receives the
    title Inventor of Technology X" with the era as N."""
    roll = dice(**{"research/empire/1": "B: Bronze Working", "research/empire/2": "A: Writing",
                   "research/empire/3": "A: Writing", "research/empire/4": "B: Bronze Working"})
    after, picks, _ = draws(lab(), roll, RULES)
    done = pl.DataFrame([{"line": 1, "kind": "tech", "item": "Bronze Working", "city": None,
                          "era": 1, "gameturn": 4}], schema=dict(FIGURE_SCHEMAS["completions"]))
    after, _ = credit(after, picks, done, RULES)
    assert after["titles"].to_dicts() == [{"character": "B", "title": "inventor_of",
                                           "subject": "Bronze Working", "value": 1}]
