"""Weighted picks of characters, with exact integer weights for the dice.

The text picks characters "weighted by Fame" (new citizens and Tlatoani, a new Captain), "weighted
by 1/Fame" (the citizen demoted when a city starves) and "weighted by 1/XP" (who dies when a unit
loses health). :func:`gmkit.core.dice.Dice.choice` takes integer weights, so reciprocal weights
are scaled by the least common multiple of the denominators: 1/2 : 1/3 is 3 : 2, exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeVar

from gmkit.core.dice import Dice
from gmkit.core.params import Params

T = TypeVar("T")


def direct_weights(values: Sequence[int]) -> list[int]:
    """Weights proportional to the values; when they are all 0 the pick is unweighted (the text:
    "In the unlikely event that there are not at least 2 characters with some Fame ... the
    selection will be unweighted")."""
    clipped = [max(0, int(v)) for v in values]
    return clipped if sum(clipped) > 0 else [1] * len(values)


def inverse_weights(values: Sequence[int], zero: str = "certain") -> list[int]:
    """Integer weights proportional to 1/value. A value of 0 ("1/0") is read by ``zero``:
    ``certain`` makes the zero-valued characters infinitely likelier, so only they are drawn
    (equally); ``as_one`` counts 0 as 1."""
    vals = [max(0, int(v)) for v in values]
    if zero == "certain" and any(v == 0 for v in vals):
        return [1 if v == 0 else 0 for v in vals]
    vals = [max(1, v) for v in vals]
    scale = math.lcm(*vals) if vals else 1
    return [scale // v for v in vals]


def pick(options: Sequence[T], weights: Sequence[int], dice: Dice, *, purpose: str, rule: str,
         key: str) -> T:
    """One logged weighted pick (a single option is taken without a draw)."""
    live = [(o, w) for o, w in zip(options, weights) if w > 0]
    if len(live) == 1:
        return live[0][0]
    return dice.choice([o for o, _ in live], weights=[w for _, w in live], purpose=purpose,
                       rule=rule, key=key)


def by_fame(options: Sequence[T], fames: Sequence[int], dice: Dice, *, purpose: str, rule: str,
            key: str) -> T:
    """A pick weighted by Fame."""
    return pick(options, direct_weights(fames), dice, purpose=purpose, rule=rule, key=key)


def by_inverse(options: Sequence[T], values: Sequence[int], dice: Dice, rules: Params, *,
               purpose: str, rule: str, key: str) -> T:
    """A pick weighted by 1/value (``inverse_fame_zero`` reads a value of 0)."""
    return pick(options, inverse_weights(values, rules.inverse_fame_zero), dice,
                purpose=purpose, rule=rule, key=key)
