"""Aeternus's actions on the map: each player's path along the hexes traversed, stagway
journeys, and the actions taken at a hex, in the player's faction colour with their initial.

A player's traverses (6.2) are followed from the hex they stand on, in the order posted, each
relative direction read from where the one before left them: the hexes traversed make one path
(an arrow through them), a traverse that did not move them (a Lake, a swamp held them, not
enough AP) its own arrow drawn failed, and a wind of the Deceased Dunes (5.3.1.2) the hop it
blew them. A stagway journey (5.3.3.4) is a dotted arrow from station to station. Scouting
(6.1) rings each hex scouted; fishing (6.3), foraging (6.4), building (5.3.4) and burning or
blasting (7.4.4, 7.1.2) are marks on the hex they concern (a player's marks of one kind on one
hex are one token counting them). Trades, votes, proposals and the rest have no place on the
map. Where the events so far tell (a failed action, where fishing happened, where the winds
blew), the drawing follows them; an action's events name its line, so for a player whose
actions share a line number (each posted apart) the actions are drawn as posted.

:func:`drawn_orders` is what the ruleset's presentation declares; it draws only the actions it
is given, on the state it is given (a viewer's), so a public map shows no secret action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gmkit.core.boards.hexgrid import Hex
from gmkit.core.drawing.orders import DrawnOrders, order_ref
from gmkit.core.drawing.scene import Arrow, ArrowKind, Mark, MarkKind, initials
from gmkit.core.envelope import Envelope, Orders
from gmkit.core.parts import Context
from gmkit.core.steps import Event
from gmkit.core.tables import State
from gmkit.rulesets.aeternus.coords import CoordError, parse_hex
from gmkit.rulesets.aeternus.drawing import faction_colours
from gmkit.rulesets.aeternus.orders import (Burn, Construct, Fish, Forage, Order, Scout, Stag,
                                           Timed, Traverse, Use, describe)
from gmkit.rulesets.aeternus.steps import posted_at

__all__ = ["BUILD", "BURN", "FISH", "FORAGE", "PATH", "SCOUT", "STAG", "drawn_orders"]

#: The hexes a player traversed, as one path.
PATH = ArrowKind("path", width=2.2, label="a path traversed (the player's initial on it)")
#: A journey along the stagways.
STAG = ArrowKind("stagway", width=1.8, dash=(2.0, 2.5), label="a stagway journey")
#: A hex scouted.
SCOUT = MarkKind("scout", "ring", label="a hex scouted")
#: A lake fished.
FISH = MarkKind("fish", "square", label="fishing")
#: A hex foraged.
FORAGE = MarkKind("forage", "hexagon", label="foraging")
#: A feature built.
BUILD = MarkKind("build", "diamond", label="building")
#: A feature burnt, or explosives used.
BURN = MarkKind("burn", "star", label="burning or blasting")

Axial = tuple[int, int]


def _hex(region: str | None) -> Axial | None:
    """An event's hex (the rules' coordinate it names) as axial ``(q, r)``."""
    if not region:
        return None
    try:
        h = parse_hex(region)
    except CoordError:
        return None
    return h.q, h.r


def _by_line(events: Sequence[Event], orders: Orders[Order]) -> dict[tuple[str, int],
                                                                    list[Event]]:
    """The events so far of each ``(player, line)``: an action's events name its line only,
    so a player whose actions share a line number (each posted apart) is left out, and their
    actions are drawn as posted."""
    lines: dict[str, list[int]] = {}
    for sent in orders.envelopes:
        lines.setdefault(sent.player, []).append(sent.line)
    shared = {p for p, seen in lines.items() if len(set(seen)) < len(seen)}
    out: dict[tuple[str, int], list[Event]] = {}
    for e in events:
        line = e.data.get("line") if e.player else None
        if isinstance(line, int) and e.player not in shared:
            out.setdefault((str(e.player), line), []).append(e)
    return out


def _failed(said: Sequence[Event]) -> bool:
    return any(e.kind in ("failed", "void") for e in said)


class _Walker:
    """One player's hex, followed through their actions: the path walked so far and the
    arrows and marks their actions make."""

    def __init__(self, player: str, here: Axial, tint: str, initial: str) -> None:
        self.player, self.here, self.tint, self.initial = player, here, tint, initial
        self.path: list[Axial] = [here]
        self.refs: list[str] = []
        self.words: list[str] = []
        self.arrows: list[Arrow] = []

    def close(self) -> None:
        """End the path walked so far as one arrow."""
        if len(self.path) > 1:
            self.arrows.append(Arrow(
                Hex(*self.path[0]), Hex(*self.path[-1]), self.tint, PATH.name,
                via=tuple(Hex(*h) for h in self.path[1:-1]), text=self.initial,
                title=f"{self.player}: " + "; ".join(self.words), orders=tuple(self.refs)))
        self.path, self.refs, self.words = [self.here], [], []

    def traverse(self, target: Axial, ref: str, words: str, said: Sequence[Event]) -> None:
        """A traverse: a step of the path, or, when it did not move the player, an arrow of
        its own drawn failed."""
        moved = [e for e in said if e.kind == "move" and e.data.get("moved")]
        if _failed(said) or (said and not moved):
            self.close()
            self.arrows.append(Arrow(Hex(*self.here), Hex(*target), self.tint, PATH.name,
                                     ok=False, text=self.initial, orders=(ref,),
                                     title=f"{self.player}: {words} (no move)"))
            return
        hops = [h for h in (_hex(e.region) for e in moved) if h is not None] or [target]
        for hop in hops:
            if hop != self.here:
                self.path.append(hop)
                self.here = hop
        self.refs.append(ref)
        self.words.append(words)


def _action(envelope: Envelope[Order]) -> Any:
    order = envelope.order
    return order.order if isinstance(order, Timed) else order


def drawn_orders(state: State, orders: Orders[Order], events: Sequence[Event],
                 ctx: Context) -> DrawnOrders:
    """6 and 5.3 on the map: paths, stagway journeys and actions at a hex (see the module's
    docstring)."""
    colour = faction_colours(state)
    players = {r["id"]: r for r in state["players"].iter_rows(named=True)}
    active = sorted(p for p, r in players.items() if r["active"])
    mark = initials(active)
    said = _by_line(events, orders)
    walkers: dict[str, _Walker] = {}
    spots: dict[tuple[Axial, str, str, bool], list[tuple[str, str]]] = {}
    for e in orders.received(posted_at):
        me = players.get(e.player)
        if me is None or me["q"] is None or me["r"] is None:
            continue
        walker = walkers.get(e.player)
        if walker is None:
            walker = walkers[e.player] = _Walker(
                e.player, (int(me["q"]), int(me["r"])), colour.get(me["faction"], "#000000"),
                mark.get(e.player, ""))
        action = _action(e)
        ref, words = order_ref(e), describe(action)
        these = said.get((e.player, e.line), [])
        here = walker.here
        if isinstance(action, Traverse):
            walker.traverse(action.target.resolve(here), ref, words, these)
            continue
        if isinstance(action, Stag):
            walker.close()
            target = action.target.resolve(here)
            failed = _failed(these)
            walker.arrows.append(Arrow(Hex(*here), Hex(*target), walker.tint, STAG.name,
                                       ok=False if failed else None, text=walker.initial,
                                       orders=(ref,), title=f"{e.player}: {words}"))
            if not failed:
                walker.here = target
                walker.path = [target]
            continue
        failed = _failed(these)
        at: list[Axial] = []
        if isinstance(action, Scout):
            kind, at = SCOUT.name, [p.resolve(here) for p in action.targets]
        elif isinstance(action, Fish):
            where = next((_hex(x.region) for x in these if x.kind == "fish"), None)
            kind = FISH.name
            at = [where or (action.target.resolve(here) if action.target else here)]
        elif isinstance(action, Forage):
            kind, at = FORAGE.name, [here]
        elif isinstance(action, Construct):
            kind, at = BUILD.name, [action.target.resolve(here) if action.target else here]
        elif isinstance(action, (Burn, Use)):
            place = getattr(action, "target", None)
            kind, at = BURN.name, [place.resolve(here) if place else here]
        for h in at:
            spots.setdefault((h, e.player, kind, failed), []).append(
                (ref, f"{e.player}: {words}"))
    arrows: list[Arrow] = []
    for walker in walkers.values():
        walker.close()
        arrows += walker.arrows
    marks = []
    for (h, pid, kind, failed), done in spots.items():
        me = players[pid]
        marks.append(Mark(Hex(*h), kind, colour.get(me["faction"], "#000000"), len(done),
                          text=mark.get(pid, ""), ok=False if failed else None,
                          orders=tuple(r for r, _ in done), title="; ".join(w for _, w in done)))
    return DrawnOrders(arrows=tuple(arrows), marks=tuple(marks), arrow_kinds=(PATH, STAG),
                       mark_kinds=(SCOUT, FISH, FORAGE, BUILD, BURN))
