"""Pyramid Power Wars' orders as typed values: what each order says, nothing of how it came in
but the line it was read from (``line``, which the allocation of a post's serfs and priests
tells its lines apart by). Parsed and checked in :mod:`gmkit.rulesets.pyramid.orders`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union


@dataclass(frozen=True)
class PyramidRef:
    """A pyramid as a player names it: by number (``pyramid 2``), by size (``the war
    pyramid``: the only one of that size where it matters), or both (``war pyramid 2``)."""

    size: str | None = None
    number: int | None = None

    def __str__(self) -> str:
        if self.number is not None:
            return f"{self.size + ' ' if self.size else ''}pyramid {self.number}"
        return f"the {self.size} pyramid"


@dataclass(frozen=True)
class NobleRef:
    """A noble as a player names it: its number among the player's nobles, or its name."""

    number: int | None = None
    name: str | None = None

    def __str__(self) -> str:
        return f"noble {self.number}" if self.number is not None else str(self.name)


@dataclass(frozen=True)
class AssignSerfs:
    """Serfs assigned to a land the player holds (RESOURCES: Serfs); stands until changed."""

    space: str
    count: int
    line: int = 0


@dataclass(frozen=True)
class StaffPyramid:
    """Priests assigned to a pyramid (RESOURCES: Priests); stands until changed."""

    pyramid: PyramidRef
    count: int
    line: int = 0


@dataclass(frozen=True)
class Lead:
    """A noble leading troops and pyramids from its space along ``path`` (WAR: Movement)."""

    noble: NobleRef
    troops: int
    pyramids: tuple[PyramidRef, ...]
    path: tuple[str, ...]
    claim: bool = False
    origin: str | None = None
    line: int = 0


@dataclass(frozen=True)
class Move:
    """Troops and pyramids moved without a noble, only through friendly territory."""

    origin: str
    troops: int
    pyramids: tuple[PyramidRef, ...]
    path: tuple[str, ...]
    line: int = 0


@dataclass(frozen=True)
class Build:
    """Stone and DEAD given to a pyramid (PYRAMIDS: Construction): a new one, or one already
    begun (by number, or the only unfinished one of the size)."""

    size: str
    stone: int
    dead: tuple[str, ...] = ()
    space: str | None = None
    number: int | None = None
    line: int = 0


@dataclass(frozen=True)
class Claim:
    """Claim rather than destroy unstaffed pyramids on a land taken this round."""

    space: str
    line: int = 0


@dataclass(frozen=True)
class Births:
    """What excess food becomes: a pattern of (kind, count) repeated until the food is used."""

    pattern: tuple[tuple[str, int], ...]
    line: int = 0


@dataclass(frozen=True)
class Starve:
    """Which kinds of population vanish first when food runs short."""

    kinds: tuple[str, ...]
    line: int = 0


Order = Union[AssignSerfs, StaffPyramid, Lead, Move, Build, Claim, Births, Starve]


__all__ = ["AssignSerfs", "Births", "Build", "Claim", "Lead", "Move", "NobleRef", "Order",
           "PyramidRef", "StaffPyramid", "Starve"]
