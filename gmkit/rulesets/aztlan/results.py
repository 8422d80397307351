"""What one AZTLAN movement turn's adjudication says: an outcome for every force, the armies
after combat and moves, the captives taken, the armies lost and the cities attacked."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from gmkit.rulesets.aztlan.order_types import (
    Attack,
    CutSupport,
    DivineSupport,
    Hold,
    Move,
    Stand,
    Support,
)

__all__ = ["GODS", "Adjudication", "Capture", "Code", "CombatOrder", "Result"]

CombatOrder = Attack | CutSupport | Support | DivineSupport | Hold | Stand | Move
#: Where the gods' magical supports (3.5.3) are reported: they have no sector.
GODS = "the gods"


class Code(enum.Enum):
    """What became of a force's order."""

    SUCCEEDS = "succeeds"
    BOUNCED = "bounced"
    CUT = "cut"
    ANNIHILATED = "annihilated"
    SLAUGHTERED = "slaughtered"
    CAPTURED = "captured"
    STOPPED = "stopped"
    EATEN = "eaten"
    RETREATED = "retreated"
    DISBANDED = "disbanded"
    VOID = "void"


@dataclass(frozen=True)
class Result:
    """The outcome of one force's order; ``order`` is ``None`` for armies
    that were given no order (they stand, 5.7)."""

    player: str
    sector: str
    count: int
    order: CombatOrder | None
    code: Code
    reason: str
    #: Where a RETREATED force went (5.7), and the ally it was given to there (5.7.1).
    to: str | None = None
    given_to: str | None = None
    #: Which of its player's orders (as given to the adjudicator, from 0) it carries out.
    written: int | None = None


@dataclass(frozen=True)
class Capture:
    """``count`` armies of ``owner`` captured in ``sector`` by ``captor``,
    held in ``held_in`` for sacrifice (3.5)."""

    captor: str
    count: int
    held_in: str
    owner: str
    sector: str


@dataclass(frozen=True)
class Adjudication:
    """The combat and moves of one movement turn.

    Attributes:
        results: every force's outcome: the players' orders (players by
            name, each in the order given), then the armies that had no
            order (they stand), by sector.
        armies: each occupied sector's ``(owner, count)`` after combat and moves.
        cities: each city's owner after combat (a city taken by an Attack
            is the attacker's, 4.2).
        captures: the armies captured for sacrifice (3.5, 3.5.1).
        lost: each player's armies gone from the board: annihilated,
            slaughtered, disbanded, captured, eaten in the desert or
            driven off it (7.5.1, 7.5.2).
        peace_reset: the cities attacked this turn, whose count of turns of
            peace starts again (3.2.1, 5.3); Cut Support does not count (3.2.2).
    """

    results: tuple[Result, ...]
    armies: dict[str, tuple[str, int]]
    cities: dict[str, str | None]
    captures: tuple[Capture, ...]
    lost: dict[str, int]
    peace_reset: frozenset[str]

    def result(self, sector: str) -> Result:
        """The result of the one force ordered from (or standing in) ``sector``."""
        found = [r for r in self.results if r.sector == sector]
        if len(found) != 1:
            raise KeyError(f"{len(found)} results for {sector}, not one")
        return found[0]

