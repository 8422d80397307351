"""Exact odds of an attack's five bands before the Random Number is drawn.

The result is ``u x k`` with ``u`` uniform on [0, 1) and ``k = (A + D + L) / (D + L)``, so each
band is an interval of ``u`` and its probability is that interval's length: in closed form
``P(t_lo <= u k < t_hi) = min(1, t_hi / k) - min(1, t_lo / k)``. Nothing of the rule is written
again here: the interval ends come from the band bounds of :func:`attack.thresholds` divided by
``attack_result(1, ...)`` (the slope), and each interval is named by running
:func:`attack.band_of` over :func:`attack.attack_result` at its midpoint, the same two functions
that resolve the attack.
"""

from __future__ import annotations

import math

from gmkit.core.params import Params
from gmkit.rulesets.jungle.attack import Attack, Band, attack_result, band_of, thresholds


def band_odds(attack: float, defense: float, location: float, rules: Params) -> dict[Band, float]:
    """The probability of each band for these strengths (the five sum to 1)."""
    slope = attack_result(1.0, attack, defense, location)
    cuts = [0.0, 1.0]
    for t in thresholds(rules):
        if math.isfinite(slope) and slope > 0:
            cuts.append(min(1.0, max(0.0, t / slope)))
    cuts = sorted(set(cuts))
    odds = {b: 0.0 for b in Band}
    for lo, hi in zip(cuts, cuts[1:]):
        if hi > lo:
            odds[band_of(attack_result((lo + hi) / 2, attack, defense, location), rules)] += hi - lo
    return odds


def attack_odds(attack: Attack, rules: Params) -> dict[Band, float]:
    """The band odds of a prepared attack (strengths as :func:`attack.resolve_attack` sees them)."""
    a, d = attack.strengths()
    return band_odds(a, d, attack.location, rules)


def success_chance(attack: float, defense: float, location: float, rules: Params) -> float:
    """The chance that the attack succeeds (the principal defender or all defenders suffer)."""
    odds = band_odds(attack, defense, location, rules)
    return odds[Band.PRINCIPAL_DEFENDER_SUFFERS] + odds[Band.ALL_DEFENDERS_SUFFER]
