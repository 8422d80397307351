"""The forces of one AZTLAN movement turn: the players' orders read onto the armies on the
board, each force with what its order is and, once adjudicated, what became of it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.rulesets.aztlan.order_types import (
    MAX_MOVE,
    NEUTRAL,
    Attack,
    Contingency,
    CutSupport,
    DivineSupport,
    Hold,
    Move,
    Order,
    Stand,
    Support,
)
from gmkit.rulesets.aztlan.results import GODS, Code, CombatOrder
from gmkit.rulesets.aztlan.position import Position

__all__ = ["CHICHIMECS", "MAX_STACK", "Aim", "Force", "force_name", "is_city", "read_forces",
           "void"]

MAX_STACK = 3
CHICHIMECS = "Chichimecs"

#: What a support is given to: ("attack", attack's force id), ("move", move's force
#: id) or ("defend", sector).
Aim = tuple[str, int | str]


@dataclass
class Force:
    """Armies of one player in one sector under one order (or none: they stand)."""

    fid: int
    player: str
    sector: str
    count: int
    order: CombatOrder | None
    code: Code | None = None
    reason: str = ""
    # What the force supports: ("attack", attack force id) or ("defend", sector).
    supports: Aim | None = None
    contingency: Contingency | None = None
    #: A valid Attack: the force leaves its sector (5.7).
    attacks: bool = False
    #: An order for armies the player does not have: no force on the board.
    phantom: bool = False
    #: Magical supports of the gods (3.5.3): no sector, never cut, never hurt.
    divine: bool = False
    #: Where the force retreated to (5.7), and the ally it was given to there (5.7.1).
    to: str | None = None
    given_to: str | None = None
    #: Which of its player's orders (as given, from 0) the force carries out; None for armies
    #: with no order.
    written: int | None = None

    @property
    def target(self) -> str:
        assert isinstance(self.order, (Attack, CutSupport))
        return self.order.target

    @property
    def retreat(self) -> tuple[str, ...]:
        return getattr(self.order, "retreat", ()) if self.order is not None else ()


_SIZE = {1: "single army", 2: "double army", 3: "triple army"}


def _adj(player: str) -> str:
    if player == NEUTRAL:
        return "independent"
    return {"Aztecs": "Aztec", "Tlaxcalans": "Tlaxcalan", "Chalcans": "Chalcan",
            "Tarascans": "Tarascan", "Meztitlans": "Meztitlan", "Yopis": "Yopi",
            "Totonacs": "Totonac", "Chichimecs": "Chichimec",
            "Soconuscans": "Soconuscan"}.get(player, player)


def force_name(f: Force) -> str:
    """``the Aztec double army in Texcoco``."""
    size = _SIZE.get(f.count, f"{f.count} armies")
    return f"the {_adj(f.player)} {size} in {f.sector}"


def is_city(game_map: PolygonBoard, sector: str) -> bool:
    region = game_map.regions.get(sector)
    return region is not None and region.props.get("city") is True


def void(f: Force, why: str) -> None:
    """The force's order is void: the armies stand."""
    f.code, f.reason = Code.VOID, f"void: {why}"


def read_forces(position: Position, orders_by_player: Mapping[str, Sequence[Order]],
                game_map: PolygonBoard) -> list[Force]:
    """A force for every combat order (players by name, each in the order given; an order for
    armies the player does not have is a phantom, VOID), then one for the armies left with no
    order in each sector, by sector.  Orders that cannot be carried out are VOID."""
    forces: list[Force] = []
    left = {s: (p, n) for s, (p, n) in position.armies.items()}
    attacked_by: set[tuple[str, str]] = set()
    for player in sorted(orders_by_player):
        if player == NEUTRAL:
            continue
        for written, o in enumerate(orders_by_player[player]):
            if isinstance(o, DivineSupport):
                forces.append(Force(len(forces), player, GODS, o.count, o,
                                    phantom=True, divine=True, written=written))
                continue
            if not isinstance(o, (Attack, CutSupport, Support, Hold, Stand, Move)):
                continue
            owner, have = left.get(o.origin, ("", 0))
            if owner != player or not 1 <= o.count <= have:
                forces.append(Force(len(forces), player, o.origin, o.count, o,
                                    Code.VOID, f"void: no {_SIZE.get(o.count, 'force')}"
                                    f" of the {player} left to order in {o.origin}",
                                    phantom=True, written=written))
                continue
            left[o.origin] = (owner, have - o.count)
            f = Force(len(forces), player, o.origin, o.count, o, written=written)
            forces.append(f)
            if isinstance(o, Move):
                why = _bad_path(o, game_map)
                if why:
                    void(f, f"{why}; the army stands (5.8)")
            elif isinstance(o, (Attack, CutSupport)):
                why = _bad_target(o, player, position, game_map, attacked_by)
                if why:
                    void(f, why)
    for sector in sorted(left):
        owner, n = left[sector]
        if n > 0:
            forces.append(Force(len(forces), owner, sector, n, None))
    return forces


def _bad_target(o: Attack | CutSupport, player: str, position: Position, game_map: PolygonBoard,
                attacked_by: set[tuple[str, str]]) -> str | None:
    """Why an Attack or Cut Support cannot be carried out (5.3, 5.4), or ``None``; an attack
    that can is noted in ``attacked_by``."""
    if o.target not in game_map.land_neighbours(o.origin):
        return f"{o.target} is not adjacent to {o.origin}; the army stands (5.3, 5.4)"
    if position.armies.get(o.target, ("", 0))[0] == player:
        return f"{o.target} is held by the {player} themselves; the army stands (5.3)"
    if isinstance(o, Attack) and (player, o.target) in attacked_by:
        return (f"the {player} already attack {o.target}: one force per sector (5.3); the army "
                "stands")
    if isinstance(o, Attack):
        attacked_by.add((player, o.target))
    return None


def _bad_path(o: Move, game_map: PolygonBoard) -> str | None:
    if not 1 <= len(o.path) <= MAX_MOVE:
        return f"a Move passes one to three sectors, not {len(o.path)}"
    here, seen = o.origin, {o.origin}
    for step in o.path:
        if step in seen:
            return f"the Move passes {step} twice"
        if here not in game_map.regions or step not in game_map.land_neighbours(here):
            return f"{step} is not adjacent to {here}"
        seen.add(step)
        here = step
    return None
