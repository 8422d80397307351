"""Who takes a contested land (WAR): the ladder as a pure function of the sides.

"If two players both attempt to take control of a space of LAND, the victor is determined as
follows: First, the side with the single largest pyramid wins. If neither side has a larger
pyramid, the side with the most pyramids of the largest available size wins. If both sides have
exactly equal numbers and types of pyramids, the NOBLE with the most TROOPS wins. If both NOBLES
have equal TROOPS, the LAND does not shift in ownership. If one of the players already controlled
the LAND, they win. Otherwise, all forces retreat intact."

Only functioning pyramids count (built and fully staffed: "cannot move or fight"). The holder
of the land is always a side, with whatever it has there (possibly nothing). With more than two
sides the option ``contest_many`` decides; ``pyramid_tiebreak`` and ``holder_tie`` cover the
other gaps (see the rules notes).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from gmkit.core.params import Params
from gmkit.rulesets.pyramid.rules import SIZES


class Rung(enum.Enum):
    """The rung of the ladder that decided a contest."""

    UNOPPOSED = "unopposed"
    LARGEST_PYRAMID = "the single largest pyramid"
    MOST_OF_SIZE = "the most pyramids of the largest size"
    NEXT_SIZE = "the most pyramids of the next size down"
    TROOPS = "the noble with the most troops"
    HOLDER = "equal troops: the holder wins"
    REPELLED = "equal troops: the holder keeps the land, the attackers retreat"
    RETREAT = "equal troops: all forces retreat intact"


@dataclass(frozen=True)
class Side:
    """One player's forces on a contested space."""

    player: str
    troops: int = 0
    pyramids: tuple[str, ...] = ()
    noble: str | None = None
    holder: bool = False

    def largest(self) -> int:
        """Index in :data:`SIZES` of its largest pyramid (-1 without one)."""
        return max((SIZES.index(s) for s in self.pyramids), default=-1)


@dataclass(frozen=True)
class Verdict:
    """A contest's result: the player holding the land after it (None: no victor), the
    defeats as (victor, loser) pairs, the players whose forces retreat intact, and the rungs
    that decided, in order."""

    victor: str | None
    defeats: tuple[tuple[str, str], ...]
    retreat: tuple[str, ...]
    rungs: tuple[Rung, ...]


def _ladder(sides: Sequence[Side], rules: Params) -> tuple[list[Side], Rung | None]:
    """The sides left at the top of the ladder and the rung that left a single one."""
    if len(sides) == 1:
        return list(sides), Rung.UNOPPOSED
    top = max(s.largest() for s in sides)
    left = [s for s in sides if s.largest() == top]
    if len(left) == 1:
        return left, Rung.LARGEST_PYRAMID
    if top >= 0:
        sizes = range(top, -1, -1) if rules.pyramid_tiebreak == "next_size" else [top]
        for i, size in enumerate(sizes):
            most = max(s.pyramids.count(SIZES[size]) for s in left)
            left = [s for s in left if s.pyramids.count(SIZES[size]) == most]
            if len(left) == 1:
                return left, Rung.MOST_OF_SIZE if i == 0 else Rung.NEXT_SIZE
    most = max(s.troops for s in left)
    left = [s for s in left if s.troops == most]
    if len(left) == 1:
        return left, Rung.TROOPS
    return left, None


def _all_at_once(sides: Sequence[Side], rules: Params) -> Verdict:
    left, rung = _ladder(sides, rules)
    holder = next((s for s in sides if s.holder), None)
    attackers = tuple(s.player for s in sides if not s.holder)
    if rung is not None:
        victor = left[0].player
        return Verdict(victor, tuple((victor, s.player) for s in sides if s.player != victor),
                       (), (rung,))
    if holder is not None and holder in left:
        if rules.holder_tie == "holder_wins":
            return Verdict(holder.player, tuple((holder.player, p) for p in attackers), (),
                           (Rung.HOLDER,))
        return Verdict(holder.player, (), attackers, (Rung.REPELLED,))
    return Verdict(holder.player if holder else None, (), attackers, (Rung.RETREAT,))


def resolve(sides: Sequence[Side], rules: Params) -> Verdict:
    """The verdict on one contested space (``sides``: every player with forces there, and the
    holder, if any, even with nothing there)."""
    if not sides:
        raise ValueError("a contest needs at least one side")
    if rules.contest_many == "all_at_once" or len([s for s in sides if not s.holder]) < 2:
        return _all_at_once(sides, rules)
    attackers = [s for s in sides if not s.holder]
    holder = next((s for s in sides if s.holder), None)
    first = _all_at_once(attackers, rules)
    if first.victor is None:
        return Verdict(holder.player if holder else None, (), first.retreat, first.rungs)
    if holder is None:
        return first
    survivor = next(s for s in attackers if s.player == first.victor)
    second = _all_at_once([survivor, holder], rules)
    return Verdict(second.victor, first.defeats + second.defeats, second.retreat,
                   first.rungs + second.rungs)
