"""Exact band odds of CHARACTER ATTACKS: the closed form, checked against the resolution itself
over a fine grid of Random Numbers, and against hypothesis-drawn strengths."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gmkit.rulesets.jungle.attack import Attack, AttackType, Band, resolve_attack
from gmkit.rulesets.jungle.odds import attack_odds, band_odds, success_chance
from tests.jungle.helpers import RULES, dice, fighter

BOUNDS = (0.0, 0.33, 0.67, 1.0, 1.5, float("inf"))


def closed_form(a: float, d: float, loc: float) -> list[float]:
    """ATTACK RESULTS in closed form: P(lo <= u k < hi) = min(1, hi/k) - min(1, lo/k)."""
    k = (a + d + loc) / (d + loc)
    return [min(1.0, hi / k) - min(1.0, lo / k) for lo, hi in zip(BOUNDS, BOUNDS[1:])]


@given(st.floats(0, 50), st.floats(0.01, 50), st.floats(0, 50))
def test_band_odds_match_the_closed_form(a, d, loc):
    """The result is linear in one uniform number, so each band is an interval of it."""
    odds = band_odds(a, d, loc, RULES)
    assert sum(odds.values()) == pytest.approx(1.0)
    assert [odds[b] for b in Band] == pytest.approx(closed_form(a, d, loc), abs=1e-9)


def test_band_odds_agree_with_the_resolution_over_every_random_number():
    """The odds and the resolution are one rule: resolving at 10,000 evenly spaced Random
    Numbers lands in each band as often as the odds say."""
    att = Attack("a", AttackType.DUEL, (fighter("A", xp=9), fighter("C", xp=4)),
                 (fighter("B", xp=4),), 1.5)
    odds = attack_odds(att, RULES)
    n = 10_000
    counts = {b: 0 for b in Band}
    for i in range(n):
        u = (i + 0.5) / n
        out = resolve_attack(att, dice(**{"a/result": u, "a/gain": 0.0, "a/loss/A": 0.0,
                                          "a/loss/C": 0.0, "a/loss/B": 0.0}), RULES)
        counts[out.band] += 1
    for b in Band:
        assert counts[b] / n == pytest.approx(odds[b], abs=2 / n)


def test_an_attack_without_strength_never_succeeds():
    """With Attack Strength 0 the result is the Random Number itself, below 1."""
    assert success_chance(0.0, 3.0, 2.0, RULES) == 0.0


def test_equal_sides_without_location():
    """A = D, L = 0: k = 2, so success is u >= 0.5 (one half), all defenders never."""
    odds = band_odds(2.0, 2.0, 0.0, RULES)
    assert odds[Band.PRINCIPAL_DEFENDER_SUFFERS] == pytest.approx(0.25)
    assert odds[Band.ALL_DEFENDERS_SUFFER] == pytest.approx(0.25)
    assert odds[Band.ALL_ATTACKERS_FAIL] == pytest.approx(0.165)
