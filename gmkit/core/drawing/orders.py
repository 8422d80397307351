"""A turn's orders as they are drawn on a map, said once for every game.

A ruleset declares how its orders are drawn (:attr:`gmkit.core.parts.Presentation.orders`): a
function of a viewer's state before the turn, the orders that viewer may see and the events
so far, returning :class:`DrawnOrders`: arrows (an order from one place to another: a move, an
attack, a conquest) and marks (an order that stays on its place: a defence, an investment, an
action there), with the kinds they use. :func:`on_scene` puts them on the scene of the same
state, with a legend entry per kind shown, so any renderer draws them like the rest of the
map. What the drawing is given is already narrowed to its viewer
(:func:`gmkit.game.orders_drawn.drawn_orders`), so a map of orders holds no secret order.

Each arrow and mark names the orders it draws (:func:`order_ref`, written into the SVG as
``data-orders``): which order is which, for a reader's tooltip and for the tests that check a
public map shows every public order and no secret one.
"""

from __future__ import annotations

import dataclasses
import json
from urllib.parse import quote, unquote
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from gmkit.core.drawing.scene import Arrow, ArrowKind, LegendEntry, Mark, MarkKind, Scene
from gmkit.core.envelope import Envelope

__all__ = ["LEGEND_INK", "DrawnOrders", "merged", "on_scene", "order_ref", "ref_parts",
           "void_lines"]

#: The colour of the legend's order symbols: a kind's look, not a player's colour.
LEGEND_INK = "#555555"


def order_ref(envelope: Envelope[Any]) -> str:
    """An order's name on a map: ``player/post/line/index`` (its envelope's key), unique in
    its turn; the player's id is percent-encoded, so a name holds no space or slash (a map
    lists several names in one attribute, space-separated).

    >>> order_ref(Envelope("dig", "Amber", 12, 3))
    'Amber/12/3/0'
    >>> order_ref(Envelope("A Tla", "Hot Country", 7, 2))
    'Hot%20Country/7/2/0'
    """
    player, post, line, index = envelope.key
    return f"{quote(player, safe='')}/{post}/{line}/{index}"


def ref_parts(ref: str) -> tuple[str, int, int, int]:
    """The envelope key an order's name stands for (see :func:`order_ref`).

    >>> ref_parts('Hot%20Country/7/2/0')
    ('Hot Country', 7, 2, 0)
    """
    player, post, line, index = ref.rsplit("/", 3)
    return unquote(player), int(post), int(line), int(index)


@dataclass(frozen=True)
class DrawnOrders:
    """A turn's orders drawn for a map: ``arrows`` and ``marks`` and the kinds they use
    (``arrow_kinds``, ``mark_kinds``: each kind's look and the words of its legend entry).

    A drawing with neither arrows nor marks is false (nothing of the orders shows on a map)."""

    arrows: tuple[Arrow, ...] = ()
    marks: tuple[Mark, ...] = ()
    arrow_kinds: tuple[ArrowKind, ...] = ()
    mark_kinds: tuple[MarkKind, ...] = ()

    def __post_init__(self) -> None:
        for name in ("arrows", "marks", "arrow_kinds", "mark_kinds"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        arrows = {k.name for k in self.arrow_kinds}
        unknown = sorted({a.kind for a in self.arrows} - arrows)
        if unknown:
            raise ValueError(f"arrows of undeclared kind(s) {', '.join(map(repr, unknown))}")
        pieces = {k.name for k in self.mark_kinds}
        loose = sorted({m.piece for m in self.marks} - pieces)
        if loose:
            raise ValueError(f"order marks of undeclared kind(s) {', '.join(map(repr, loose))}"
                             ": declare each kind, so its shape has a legend entry")

    def __bool__(self) -> bool:
        return bool(self.arrows or self.marks)

    def refs(self) -> set[str]:
        """Every order drawn (see :func:`order_ref`)."""
        return {r for a in self.arrows for r in a.orders} | {
            r for m in self.marks for r in m.orders}

    def legend(self) -> tuple[LegendEntry, ...]:
        """A legend entry per kind drawn, in the order the kinds are declared: each arrow kind
        as a short arrow, each mark kind as its shape, in :data:`LEGEND_INK`."""
        used_arrows = {a.kind for a in self.arrows}
        used_marks = {m.piece for m in self.marks}
        out = [LegendEntry(k.label or k.name, LEGEND_INK, arrow=k.name)
               for k in self.arrow_kinds if k.name in used_arrows]
        out += [LegendEntry(k.label or k.name, LEGEND_INK, shape=k.shape)
                for k in self.mark_kinds if k.name in used_marks]
        return tuple(out)

    def only(self, refs: Iterable[str]) -> DrawnOrders:
        """The arrows and marks drawing only orders among ``refs`` (a mark drawing several
        orders is kept when all of them are)."""
        kept = set(refs)
        return dataclasses.replace(
            self, arrows=tuple(a for a in self.arrows if set(a.orders) <= kept),
            marks=tuple(m for m in self.marks if set(m.orders) <= kept))


def _merged(mine: Sequence[Any], more: Sequence[Any], what: str) -> tuple[Any, ...]:
    """Kinds of the scene and of the orders, each name once (a name declared twice must look
    the same)."""
    out = list(mine)
    names = {k.name: k for k in mine}
    for kind in more:
        if kind.name in names:
            if names[kind.name] != kind:
                raise ValueError(f"{what} {kind.name!r} is declared twice with two looks")
            continue
        names[kind.name] = kind
        out.append(kind)
    return tuple(out)


def on_scene(scene: Scene, drawn: DrawnOrders | None) -> Scene:
    """``scene`` with the orders ``drawn`` on it: their arrows and marks added, their kinds
    declared, and a legend entry per kind drawn after the scene's own."""
    if not drawn:
        return scene
    legend = [*scene.legend]
    legend += [e for e in drawn.legend() if e not in legend]
    return dataclasses.replace(
        scene, arrows=(*scene.arrows, *drawn.arrows), marks=(*scene.marks, *drawn.marks),
        arrow_kinds=_merged(scene.arrow_kinds, drawn.arrow_kinds, "arrow kind"),
        mark_kinds=_merged(scene.mark_kinds, drawn.mark_kinds, "mark kind"),
        legend=tuple(legend))


def merged(arrows: Iterable[Arrow]) -> tuple[Arrow, ...]:
    """Arrows drawn once where several orders draw the same (the same places, kind, colour,
    outcome and text: a character attacking the same rival in the Morning and the
    Afternoon): one arrow naming every order, its tooltips joined, ``×n`` after its text."""
    groups: dict[tuple[Any, ...], list[Arrow]] = {}
    for a in arrows:
        key = (a.src, a.dst, a.via, a.onto, a.kind, a.colour, a.ok, a.text)
        groups.setdefault(key, []).append(a)
    out = []
    for same in groups.values():
        first = same[0]
        if len(same) == 1:
            out.append(first)
            continue
        count = f"\u00d7{len(same)}"
        text = (first.text + count) if len(first.text + count) <= 8 else first.text
        out.append(dataclasses.replace(
            first, text=text, title="; ".join(a.title for a in same if a.title),
            orders=tuple(r for a in same for r in a.orders)))
    return tuple(out)


def void_lines(events: Sequence[Any]) -> set[tuple[str, int]]:
    """``(player, line)`` of every order the events so far say is void (a
    :func:`~gmkit.core.steps.void_event`), for drawing it as failed."""
    out: set[tuple[str, int]] = set()
    for e in events:
        if getattr(e, "kind", None) != "void" or not getattr(e, "player", None):
            continue
        data = getattr(e, "data", {}) or {}
        if isinstance(data, str):
            data = json.loads(data)
        line = data.get("line")
        if isinstance(line, int):
            out.add((str(e.player), line))
    return out
