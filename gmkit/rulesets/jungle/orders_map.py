"""The Law of the Jungle's actions on the map: moves and attacks as arrows, actions at a place
as marks, each in the house's colour with its initial.

A character's move to another hex (Move, Evict's tenant, Enlist into a unit elsewhere) is a
solid arrow; a journey to another city (Travel, Desert, Retire) a dashed one; an attack on a
character elsewhere in the same location (LOCATIONS: the same city) an arrow to the target's
hex, and an attack on a character on the same hex a star on it. Every other action (Toil,
Research, Defend, Sacrifice...) is a mark on the hex where the character acts: a diamond, a
hexagon for Defend; a house's marks of one kind on one hex are one token counting them, its
tooltip naming each character and action. The Afternoon's actions are drawn where the Morning
left the character. One arrow stands for a house's same action twice (an attack in the Morning
and again in the Afternoon: ``×2`` after the initial). An action the session found void is
drawn faded and crossed out.

:func:`drawn_orders` is what the ruleset's presentation declares; it draws only the actions it
is given, on the chart it is given (a viewer's), so a public map shows no secret action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gmkit.core.boards.hexgrid import Hex
from gmkit.core.drawing.orders import DrawnOrders, merged, order_ref, void_lines
from gmkit.core.drawing.scene import Arrow, ArrowKind, Mark, MarkKind, initials
from gmkit.core.envelope import Envelope, Orders
from gmkit.core.parts import Context
from gmkit.core.steps import Event
from gmkit.core.tables import State
import gmkit.rulesets.jungle.actions as A
from gmkit.rulesets.jungle.drawing import NPC, colours
from gmkit.rulesets.jungle.orders import JungleOrder, describe
from gmkit.rulesets.jungle.state import house_of_player

__all__ = ["ACTION", "ATTACK", "ATTACK_HERE", "DEFEND", "MOVE", "TRAVEL", "drawn_orders"]

#: A character moving to another hex of its city, or into a unit elsewhere.
MOVE = ArrowKind("move", width=2.0, label="a move (the house's initial on it)")
#: A journey to another city: Travel, Desert, Retire.
TRAVEL = ArrowKind("travel", width=2.0, dash=(5.0, 3.0), label="travel, desert or retire")
#: An attack on a character on another hex of the same location.
ATTACK = ArrowKind("attack", width=2.8, label="an attack")
#: An attack on a character on the same hex.
ATTACK_HERE = MarkKind("attack here", "star", label="an attack on the same hex")
#: Defend: attributes doubled for defence.
DEFEND = MarkKind("defend", "hexagon", label="defend")
#: Any other action, where the character acts.
ACTION = MarkKind("action", "diamond", label="another action there (tooltip: which)")

_MOVES = (A.Move, A.Enlist)
_JOURNEYS = (A.Travel, A.Desert, A.Retire)


class _Chart:
    """Where each character and unit is, as the chart given shows it, followed through the
    session's moves."""

    def __init__(self, state: State) -> None:
        self.units = {u["unit"]: Hex(u["q"], u["r"]) for u in state["units"].iter_rows(named=True)
                      if u["q"] is not None and u["r"] is not None}
        self.cities = {c["city"]: Hex(c["q"], c["r"]) for c in state["cities"].iter_rows(named=True)}
        self.where: dict[str, Hex] = {}
        self.house: dict[str, str] = {}
        for c in state["characters"].iter_rows(named=True):
            self.house[c["name"]] = c["house"]
            if not c["alive"]:
                continue
            if c["unit"] is not None and c["unit"] in self.units:
                self.where[c["name"]] = self.units[c["unit"]]
            elif c["q"] is not None and c["r"] is not None:
                self.where[c["name"]] = Hex(c["q"], c["r"])

    def destination(self, action: A.Action) -> Hex | None:
        """Where a move or a journey takes its character (None when the chart cannot say)."""
        if isinstance(action, A.Move):
            return Hex(action.q, action.r)
        if isinstance(action, A.Enlist):
            return self.units.get(action.unit)
        if isinstance(action, _JOURNEYS):
            if action.q is not None and action.r is not None:
                return Hex(action.q, action.r)
            return self.cities.get(action.city)
        return None


def _actions(orders: Orders[JungleOrder]) -> list[Envelope[Any]]:
    """The characters' actions, the Morning's first, each part in the order posted."""
    acts = [e for e in orders.envelopes if isinstance(e.order, A.Action)]
    return sorted(acts, key=lambda e: (e.order.slot, e.post, e.line, e.index))


def drawn_orders(state: State, orders: Orders[JungleOrder], events: Sequence[Event],
                 ctx: Context) -> DrawnOrders:
    """CHARACTER ACTIONS on the map: arrows for moves, journeys and attacks elsewhere, marks
    for everything done on the spot (see the module's docstring)."""
    colour = colours(state)
    mark = initials(list(colour))
    chart = _Chart(state)
    void = void_lines(events)
    arrows: list[Arrow] = []
    # (hex, house, kind, failed) -> the marks' orders and words
    spots: dict[tuple[Hex, str, str, bool], list[tuple[str, str]]] = {}
    for e in _actions(orders):
        action: A.Action = e.order
        house = action.by or house_of_player(state, e.player)
        tint, initial = colour.get(house, NPC), mark.get(house, "")
        failed = (e.player, e.line) in void or (e.player, e.number) in void
        ok = False if failed else None
        words = f"{house}: {describe(action)}"
        ref = order_ref(e)
        here = chart.where.get(action.who)
        if isinstance(action, A.Evict):  # the tenant is the one who moves
            start = chart.where.get(action.tenant)
            if start is not None and start != Hex(action.q, action.r):
                arrows.append(Arrow(start, Hex(action.q, action.r), tint, MOVE.name, ok=ok,
                                    title=words, text=initial, orders=(ref,)))
                if not failed:
                    chart.where[action.tenant] = Hex(action.q, action.r)
                continue
        elif isinstance(action, (*_MOVES, *_JOURNEYS)):
            goal = chart.destination(action)
            if here is not None and goal is not None and goal != here:
                line = TRAVEL if isinstance(action, _JOURNEYS) else MOVE
                arrows.append(Arrow(here, goal, tint, line.name, ok=ok, title=words,
                                    text=initial, orders=(ref,)))
                if not failed:
                    chart.where[action.who] = goal
                continue
        elif isinstance(action, A.Attack):
            there = chart.where.get(action.target)
            if here is not None and there is not None and there != here:
                arrows.append(Arrow(here, there, tint, ATTACK.name, ok=ok, title=words,
                                    text=initial, orders=(ref,)))
                continue
            if here is not None:
                spots.setdefault((here, house, ATTACK_HERE.name, failed), []).append(
                    (ref, words))
                continue
        if here is None:
            continue
        piece = DEFEND if isinstance(action, A.Defend) else ACTION
        spots.setdefault((here, house, piece.name, failed), []).append((ref, words))
    marks = [Mark(spot, kind, colour.get(house, NPC), len(done), text=mark.get(house, ""),
                  ok=False if failed else None, orders=tuple(r for r, _ in done),
                  title="; ".join(w for _, w in done))
             for (spot, house, kind, failed), done in spots.items()]
    return DrawnOrders(arrows=merged(arrows), marks=tuple(marks),
                       arrow_kinds=(MOVE, TRAVEL, ATTACK),
                       mark_kinds=(ATTACK_HERE, DEFEND, ACTION))
