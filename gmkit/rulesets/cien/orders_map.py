"""The Crown of Cien's orders on its map: conquests as arrows, defences and investments as marks.

A conquest ("10 Grain for Conquest of Tróys") is an arrow in its lord's colour to the target
from the lord's nearest state that borders it, or, where none borders it, from the nearest
coastal state across the Great Sea they share (LES MER EFFRAYANTES DE LA CIEN), passing over
that sea; the grain dedicated is written on the arrow, and once the war has been fought the
arrow says whether the conquest took the state. A defence and an investment are marks on their
province (a square and a diamond in the lord's colour with the lord's initial) with the grain
beside them. Every other order (a petition, a gift, a declaration) has no place on the map.

:func:`drawn_orders` is what the ruleset's presentation declares; it draws only the orders it
is given, on the state it is given (a viewer's), so a public map shows no secret order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.drawing.orders import DrawnOrders, order_ref
from gmkit.core.drawing.scene import Arrow, ArrowKind, Mark, MarkKind, initials
from gmkit.core.envelope import Orders
from gmkit.core.parts import Context
from gmkit.core.steps import Event
from gmkit.core.tables import State
from gmkit.rulesets.cien.drawing import colours
from gmkit.rulesets.cien.geography import geography, holdings
from gmkit.rulesets.cien.orders import Conquer, Defend, Invest, Order

__all__ = ["CONQUEST", "DEFENCE", "INVESTMENT", "SEA_CONQUEST", "drawn_orders", "source"]

#: A conquest over land: a solid arrow, the grain written on it.
CONQUEST = ArrowKind("conquest", width=2.6, label="conquest (grain on the arrow)")
#: A conquest across a Great Sea: a dashed arrow over the sea.
SEA_CONQUEST = ArrowKind("sea conquest", width=2.6, dash=(5.0, 3.0),
                         label="conquest across a Great Sea")
#: Grain set aside to defend a state: a square, the grain beside it.
DEFENCE = MarkKind("defence", "square", label="defence (grain beside it)")
#: Grain invested in a state: a diamond, the grain beside it.
INVESTMENT = MarkKind("investment", "diamond", label="investment (grain beside it)")


def _nearest(board: PolygonBoard | None, target: str, choices: Sequence[str]) -> str:
    """The state among ``choices`` whose label point is nearest ``target``'s on ``board`` (the
    first by name without a board)."""
    ordered = sorted(choices)
    if board is None:
        return ordered[0]
    points = board.label_points()
    goal = points.get(target)
    if goal is None:
        return ordered[0]
    return min(ordered, key=lambda p: math.dist(points.get(p, goal), goal))


def source(state: State, player: str, target: str,
           board: PolygonBoard | None) -> tuple[str, str | None] | None:
    """Where a conquest of ``target`` by ``player`` comes from: the player's nearest state
    bordering it and no sea, else their nearest coastal state sharing a Great Sea with it and
    that sea; None when they reach it neither way."""
    held = holdings(state).get(player, frozenset())
    geo = geography(state)
    bordering = sorted(geo.neighbours.get(target, frozenset()) & held)
    if bordering:
        return _nearest(board, target, bordering), None
    seas = geo.seas.get(target, frozenset())
    coastal = [p for p in held if geo.seas.get(p, frozenset()) & seas]
    if not coastal:
        return None
    src = _nearest(board, target, coastal)
    return src, sorted(geo.seas[src] & seas)[0]


def _amount(grain: int) -> str:
    """Grain as written on the map (eight characters at most)."""
    text = str(grain)
    return text if len(text) <= 8 else "huge"


def _outcomes(events: Sequence[Event]) -> dict[tuple[str, str], bool]:
    """Each conquest the war decided so far, ``(player, target)`` -> whether it took the
    state."""
    fought = {(e.player, e.region) for e in events
              if e.kind in ("battle", "walkover") and e.player and e.region}
    won = {(e.player, e.region) for e in events
           if e.kind == "conquest" and e.player and e.region}
    return {(str(p), str(r)): (p, r) in won for p, r in fought | won}


def drawn_orders(state: State, orders: Orders[Order], events: Sequence[Event],
                 ctx: Context) -> DrawnOrders:
    """GRAIN ET INVESTISSEMENTS and LES DEMANDES, LA DÉFENSE ET LES DÉS DE GUERRE on the map:
    each conquest an arrow from where it comes (:func:`source`) with its grain, each defence
    and investment a mark on its province with its grain."""
    colour = colours(state)
    mark = initials(list(colour))
    board = ctx.board if isinstance(ctx.board, PolygonBoard) else None
    decided = _outcomes(events)
    arrows: list[Arrow] = []
    marks: list[Mark] = []
    for e in orders.envelopes:
        order, pid = e.order, e.player
        tint = colour.get(pid)
        if tint is None:
            continue
        ref = (order_ref(e),)
        if isinstance(order, Conquer):
            came = source(state, pid, order.province, board)
            if came is None:
                continue
            src, sea = came
            ok = decided.get((pid, order.province))
            how = f" across {sea}" if sea else ""
            result = "" if ok is None else (": the state is taken" if ok
                                            else ": the conquest fails")
            arrows.append(Arrow(
                src, order.province, tint, (SEA_CONQUEST if sea else CONQUEST).name,
                via=(sea,) if sea else (), ok=ok, text=_amount(order.grain), orders=ref,
                title=f"{pid}: {order.grain} grain for the conquest of {order.province} "
                      f"from {src}{how}{result}"))
        elif isinstance(order, (Defend, Invest)):
            kind, words = ((DEFENCE, "to defend") if isinstance(order, Defend)
                           else (INVESTMENT, "invested in"))
            marks.append(Mark(order.province, kind.name, tint, text=mark.get(pid, ""),
                              note=_amount(order.grain), orders=ref,
                              title=f"{pid}: {order.grain} grain {words} {order.province}"))
    return DrawnOrders(arrows=tuple(arrows), marks=tuple(marks),
                       arrow_kinds=(CONQUEST, SEA_CONQUEST), mark_kinds=(DEFENCE, INVESTMENT))
