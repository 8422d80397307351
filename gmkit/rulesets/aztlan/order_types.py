"""AZTLAN's orders as typed values: what each order says, and nothing of how it came in.

Who sent an order, from which post and line, and whether in secret, is on its
:class:`~gmkit.core.envelope.Envelope`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Union

__all__ = [
    "ARMY_ORDERS",
    "MAX_FORCE",
    "MAX_MOVE",
    "NEUTRAL",
    "Action",
    "ArmyOrder",
    "Attack",
    "Contingency",
    "CutSupport",
    "DivineSupport",
    "Give",
    "Hold",
    "Move",
    "Order",
    "Permit",
    "Sacrifice",
    "Stand",
    "Support",
]

#: The owner of the armies of independent cities (2.2, 3.4) in
#: :attr:`~gmkit.rulesets.aztlan.position.Position.armies`.
NEUTRAL = "neutral"

#: The most armies in one force and in one sector (4.1, 5.9).
MAX_FORCE = 3
#: The most sectors a Move passes (5.8).
MAX_MOVE = 3

Action = Literal["attack", "hold", "stand", "move", "any"]


@dataclass(frozen=True)
class Contingency:
    """One case of a Support (5.5): the force in ``supported`` doing ``action``.

    ``target`` is the sector attacked or moved into (``attack``/``move``),
    ``None`` for ``hold``, ``stand`` and ``any`` (whatever it does).
    """

    supported: str
    action: Action
    target: str | None = None


@dataclass(frozen=True)
class Attack:
    """``count`` armies in ``origin`` attack the adjacent ``target`` (5.3)."""

    origin: str
    count: int
    target: str
    retreat: tuple[str, ...] = ()
    #: Retreats into an ally's sector by giving him the army: (sector, ally) (5.7.1).
    retreat_gifts: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class CutSupport:
    """``count`` armies in ``origin`` cut the support of the army in ``target`` (5.4)."""

    origin: str
    count: int
    target: str
    retreat: tuple[str, ...] = ()
    #: Retreats into an ally's sector by giving him the army: (sector, ally) (5.7.1).
    retreat_gifts: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Support:
    """``count`` armies in ``origin`` support the first contingency that happens (5.5)."""

    origin: str
    count: int
    contingencies: tuple[Contingency, ...]
    retreat: tuple[str, ...] = ()
    #: Retreats into an ally's sector by giving him the army: (sector, ally) (5.7.1).
    retreat_gifts: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class DivineSupport:
    """``count`` of the player's magical supports (3.5.3) given to the first contingency that
    happens; the gods need no sector and cannot be cut."""

    count: int
    contingencies: tuple[Contingency, ...]


@dataclass(frozen=True)
class Hold:
    """``count`` armies in ``origin`` hold to the death, never retreating (5.6)."""

    origin: str
    count: int


@dataclass(frozen=True)
class Stand:
    """``count`` armies in ``origin`` stand; ``retreat`` in order of preference (5.7)."""

    origin: str
    count: int
    retreat: tuple[str, ...] = ()
    #: Retreats into an ally's sector by giving him the army: (sector, ally) (5.7.1).
    retreat_gifts: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Move:
    """``count`` armies in ``origin`` move along ``path``, one to three sectors (5.8)."""

    origin: str
    count: int
    path: tuple[str, ...]
    retreat: tuple[str, ...] = ()
    #: Retreats into an ally's sector by giving him the army: (sector, ally) (5.7.1).
    retreat_gifts: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Sacrifice:
    """``city`` sacrifices ``count`` captives (3.5.3, 3.5.4)."""

    city: str
    count: int


@dataclass(frozen=True)
class Give:
    """``count`` armies in ``origin`` are given to ``to_player`` for good (4.1.1)."""

    origin: str
    count: int
    to_player: str


@dataclass(frozen=True)
class Permit:
    """``to_player`` may pass through ``sectors`` of the player's (all when ``None``) (4.1)."""

    to_player: str
    sectors: tuple[str, ...] | None = None


Order = Union[Attack, CutSupport, Support, DivineSupport, Hold, Stand, Move, Sacrifice, Give,
              Permit]
ArmyOrder = Union[Attack, CutSupport, Support, Hold, Stand, Move, Give]
#: The orders given to armies in a sector (all but the gods' supports, sacrifices and permits).
ARMY_ORDERS = (Attack, CutSupport, Support, Hold, Stand, Move, Give)
