"""The board of Pyramid Power Wars drawn for a state, as a :class:`~gmkit.core.drawing.scene.Scene`.

Land by kind and holder (a held land is tinted with its holder's colour, darker for stone, and
each player's lands are joined by a band of their colour); a diamond per noble (its name and
glory in the tooltip), a square with the troops standing on a land, a triangle per size of
pyramid with the priests staffing them; orders as arrows (a noble leading forces, forces moved
without a noble). The scene draws whatever the state it is given holds: drawn from a viewer's
state (:meth:`~gmkit.core.ruleset.Ruleset.view`), it shows only what that viewer may see.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from gmkit.core.drawing.orders import DrawnOrders, order_ref
from gmkit.core.drawing.palette import assign
from gmkit.core.drawing.scene import (Arrow, ArrowKind, Label, LegendEntry, Mark, MarkKind,
                                      Outline, Scene, initials)
from gmkit.core.envelope import Orders
from gmkit.core.parts import Context
from gmkit.core.steps import Event
from gmkit.core.tables import State
from gmkit.rulesets.pyramid.rules import COLOUR_HEX, FOOD_LAND, SIZES, STONE_LAND
from gmkit.rulesets.pyramid.orders import Lead, Move, Order
from gmkit.rulesets.pyramid.state import ACTIVE

KIND_FILLS = {FOOD_LAND: "#cfe3a4", STONE_LAND: "#d8cdb4"}
#: The pieces on the board and their shapes.
MARK_KINDS = (MarkKind("noble", "diamond"), MarkKind("troops", "square"),
              *(MarkKind(f"{size} pyramid", "triangle") for size in SIZES))
#: The orders as arrows: a noble leading forces, forces moved through own land.
ARROW_KINDS = (ArrowKind("lead", width=2.4, label="a noble leads forces"),
               ArrowKind("move", width=1.6, dash=(3, 2), label="forces move without a noble"))


def colours(state: State) -> dict[str, str]:
    """Each player's colour: the named colour of an id that is one (``Red``), else the first of
    the named colours no other player has, in the order the players are listed; every two
    told apart."""
    ids = state["players"]["id"].to_list()
    return assign(ids, tuple(COLOUR_HEX.values()),
                  fixed={pid: COLOUR_HEX[pid] for pid in ids if pid in COLOUR_HEX})


def palette(state: State, ctx: Context) -> dict[str, str]:
    """Each player's colour (see :func:`colours`), the one palette of maps and charts."""
    return colours(state)


def _tint(colour: str, keep: float) -> str:
    """``colour`` mixed with white, keeping ``keep`` of it."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c * keep + 255 * (1 - keep)):02x}" for c in (r, g, b))


def land_fill(kind: str, holder_colour: str | None) -> str:
    """A land's fill: its kind's colour when no one holds it, else its holder's colour, light
    on food land and strong on stone land."""
    if holder_colour is None:
        return KIND_FILLS.get(kind, "#e8e0c8")
    return _tint(holder_colour, 0.35 if kind == FOOD_LAND else 0.7)


def board_scene(state: State, title: str = "") -> Scene:
    """What the board shows for ``state``: land by kind and holder, nobles, troops, pyramids
    by size and the priests staffing them."""
    colour = colours(state)
    mark = initials(list(colour))
    spaces = state["spaces"].to_dicts()
    fills = {s["name"]: land_fill(s["kind"], colour.get(s["holder"]) if s["holder"] else None)
             for s in spaces}
    marks: list[Mark] = []
    priests: dict[str, int] = {}
    for n in state["nobles"].iter_rows(named=True):
        marks.append(Mark(n["space"], "noble", colour.get(n["player"], "#444444"),
                          title=f"{n['name']} ({n['player']}), glory {n['glory']}",
                          text=mark.get(n["player"], "")))
    troops = (state["troops"].group_by("player", "space").agg(pl.col("count").sum())
              .sort("space", "player"))
    for pid, space, count in troops.iter_rows():
        if count > 0:
            marks.append(Mark(space, "troops", colour.get(pid, "#444444"), count,
                              title=f"{count} troops of {pid}", text=mark.get(pid, "")))
    pyramids = state["pyramids"].filter(pl.col("built")).sort("space", "player", "number")
    by_size: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for p in pyramids.iter_rows(named=True):
        by_size.setdefault((p["space"], p["player"], p["size"]), []).append(p)
        if p["priests"] is not None:
            priests[p["space"]] = priests.get(p["space"], 0) + int(p["priests"])
    for (space, pid, size), group in sorted(by_size.items(),
                                            key=lambda kv: (kv[0][0], -SIZES.index(kv[0][2]))):
        staffed = ", ".join(f"pyramid {p['number']}: "
                            + ("?" if p["priests"] is None else str(p["priests"])) + " priests"
                            for p in group)
        marks.append(Mark(space, f"{size} pyramid", colour.get(pid, "#444444"), len(group),
                          title=f"{pid}'s {size} pyramid(s): {staffed}",
                          text=mark.get(pid, "")))
    labels = []
    for s in spaces:
        text = s["name"]
        if s["name"] in priests:
            text += f"\n{priests[s['name']]} priests"
        holder = f", held by {s['holder']}" if s["holder"] else ", held by no one"
        labels.append(Label(s["name"], text, title=f"{s['name']}: {s['kind']} land{holder}"))
    outlines = []
    for pid, c in colour.items():
        lands = tuple(s["name"] for s in spaces if s["holder"] == pid)
        if lands:
            outlines.append(Outline(lands, c, width=3.0, title=f"lands of {pid}"))
    in_play = set(state["players"].filter(pl.col("status") == ACTIVE)["id"].to_list())
    legend = [LegendEntry(pid, c) for pid, c in colour.items() if pid in in_play]
    legend += [LegendEntry(f"{kind} land", fill) for kind, fill in KIND_FILLS.items()]
    shown = {m.piece for m in marks}
    legend += [LegendEntry(k.name, "#9e9e9e", k.shape) for k in MARK_KINDS if k.name in shown]
    return Scene(kind_fills=KIND_FILLS, fills=fills, labels=tuple(labels), marks=tuple(marks),
                 mark_kinds=MARK_KINDS, arrow_kinds=ARROW_KINDS, outlines=tuple(outlines),
                 legend=tuple(legend),
                 title=title or f"Pyramid Power Wars after round {state.turn}")


def scene(state: State, ctx: Context) -> Scene:
    """Land by kind and holder, nobles, troops, pyramids by size and their priests."""
    return board_scene(state)


def places(state: State) -> dict[str, dict[str, Any]]:
    """Each land's kind and holder now, for the map's GeoJSON export."""
    return {name: {"kind": kind, "owner": holder}
            for name, kind, holder in state["spaces"].select("name", "kind", "holder")
            .iter_rows()}


def drawn_orders(state: State, orders: Orders[Order], events: Sequence[Event],
                 ctx: Context) -> DrawnOrders:
    """WAR: nobles leading forces and forces moved without a noble, as arrows from where they
    stand (a noble's diamond and the troops' square carry the player's initial), failed once
    the movement step shows they did not move (see :func:`order_arrows`)."""
    return DrawnOrders(arrows=tuple(order_arrows(state, orders, events)),
                       arrow_kinds=ARROW_KINDS)


def order_arrows(state: State, orders: Mapping[str, Sequence[Order]],
                 events: Sequence[Event] = ()) -> list[Arrow]:
    """The movement orders of a round drawn on ``state`` (the state before the round): from
    where the noble or the forces stand along the path; once the movement step has run, an
    order that moved nothing is marked failed."""
    colour = colours(state)
    nobles = {(n["player"], n["number"]): n for n in state["nobles"].iter_rows(named=True)}
    by_name = {(n["player"], n["name"]): n for n in nobles.values()}
    moved = [e for e in events if e.kind == "move"]
    skipped = [e for e in events if e.kind in ("skipped", "void") and e.rule.startswith("WAR")]
    decided = bool(moved or skipped)
    out = []
    sent = Orders.plain(orders)
    for pid in sorted(orders):
        for envelope in sent.of(pid):
            o = envelope.order
            if isinstance(o, Lead):
                n = (nobles.get((pid, o.noble.number)) if o.noble.number is not None
                     else by_name.get((pid, o.noble.name)))
                if n is None or not o.path:
                    continue
                src, kind, who = str(n["space"]), "lead", str(n["name"])
            elif isinstance(o, Move) and o.path:
                src, kind, who = o.origin, "move", "without a noble"
            else:
                continue
            ok = None
            if decided:
                ok = any(e.player == pid and e.data.get("from") == src
                         and list(e.data.get("path", [])) == list(o.path) for e in moved)
            out.append(Arrow(src, o.path[-1], colour.get(pid, "#444444"), kind,
                             via=tuple(o.path[:-1]), ok=ok,
                             title=f"{pid}: {who}, {src} to {' then '.join(o.path)}",
                             orders=(order_ref(envelope),)))
    return out


def orders_scene(state: State, orders: Mapping[str, Sequence[Order]],
                 events: Sequence[Event] = (), title: str = "") -> Scene:
    """The board for ``state`` with the round's movement orders drawn on it."""
    base = board_scene(state, title or f"Orders of round {state.turn + 1}")
    arrows = tuple(order_arrows(state, orders, events))
    return Scene(kind_fills=base.kind_fills, fills=base.fills, labels=base.labels,
                 marks=base.marks, arrows=arrows, arrow_kinds=base.arrow_kinds,
                 mark_kinds=base.mark_kinds, outlines=base.outlines, legend=base.legend,
                 title=base.title)
