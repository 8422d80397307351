"""What a map drawing shows, said once for every renderer.

A :class:`Scene` lists what to draw on a board, in the board's own places (province names on
polygon and graph boards, :class:`~gmkit.core.boards.hexgrid.Hex` values on hex grids), and
nothing about how: fills per place, labels, marks (pieces such as armies, nobles or pyramids),
arrows (orders), outlines around groups of places, a legend and a title. A renderer
(:mod:`gmkit.core.drawing.hex_svg`, :mod:`gmkit.core.drawing.graph_svg`) turns a scene and a
board into a picture; the same scene can be drawn by any renderer of the board's kind.

The core ships no game's vocabulary: a ruleset declares the kinds of its arrows
(:class:`ArrowKind`: how an attack or a support looks) and of its pieces (:class:`MarkKind`)
and puts them in the scene. An :class:`Arrow` is an order: from ``src`` to ``dst`` through
``via``, or onto the middle of another order's arrow (``onto``), coloured by its player, faded
and crossed out when it failed (``ok=False``), with a short text on it (its player's initial, an
amount) so that colour is never the only cue. An order that stays on its place (a defence, an
action there) is a :class:`Mark` of a kind the ruleset declares, with a note beside it (the
amount). Both name the orders they draw (``orders``), so a reader can tell which order is which
and a test can tell which orders a map shows (:mod:`gmkit.core.drawing.orders`).

Every value here is a frozen dataclass; colours are checked when the value is made
(:func:`gmkit.core.drawing.colours.check_colour`: ``#hex`` or a plain colour name), so no
colour can smuggle markup into an SVG. Text is escaped by the renderers.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal, TypeVar

import polars as pl

from gmkit.core.drawing.colours import check_colour

__all__ = [
    "Arrow",
    "ArrowKind",
    "Label",
    "LegendEntry",
    "Mark",
    "MarkKind",
    "Outline",
    "Scene",
    "initials",
]

_K = TypeVar("_K", bound=Hashable)

#: How an arrow ends.
ArrowHead = Literal["arrow", "none", "dot"]
#: The shapes a renderer knows for marks (a ``ring`` is a hollow circle in the mark's colour).
MarkShape = Literal["circle", "square", "triangle", "diamond", "star", "hexagon", "ring"]
_SHAPES = ("circle", "square", "triangle", "diamond", "star", "hexagon", "ring")
#: The longest text written on an arrow or beside a mark (an initial, an amount).
SHORT_TEXT = 8


def _check_short(what: str, text: str) -> None:
    if len(text) > SHORT_TEXT or "\n" in text:
        raise ValueError(f"{what}: text {text!r} is longer than {SHORT_TEXT} characters "
                         "or has a line break")


@dataclass(frozen=True)
class ArrowKind:
    """How the arrows of one kind look, declared by a ruleset (``ArrowKind("support",
    width=1.3, dash=(2, 2.5))``).

    Attributes:
        name: the kind's name, what :attr:`Arrow.kind` refers to.
        width: the shaft's width, in tenths of the label font size.
        dash: the shaft's dash pattern in the same unit (``()`` for a solid line).
        head: ``"arrow"`` (a filled head), ``"dot"`` or ``"none"``.
        bar: a bar across the shaft just before the head (a cut support, a blocked move).
        label: what the kind means, in the legend ("conquest (grain)"); the name when empty.
    """

    name: str
    width: float = 2.0
    dash: tuple[float, ...] = ()
    head: ArrowHead = "arrow"
    bar: bool = False
    label: str = ""

    def __post_init__(self) -> None:
        if not self.name:
            raise ValueError("an arrow kind needs a name")
        if self.width <= 0 or any(d < 0 for d in self.dash):
            raise ValueError(f"arrow kind {self.name!r}: width and dashes must be positive")
        if self.head not in ("arrow", "none", "dot"):
            raise ValueError(f"arrow kind {self.name!r}: head must be arrow, dot or none")


@dataclass(frozen=True)
class MarkKind:
    """How the marks of one piece kind look, declared by a ruleset (``MarkKind("pyramid",
    "triangle")``). A piece kind no scene declares is drawn as a circle. ``label``: what the
    kind means, in the legend of a map of orders (the name when empty)."""

    name: str
    shape: MarkShape = "circle"
    label: str = ""

    def __post_init__(self) -> None:
        if self.shape not in _SHAPES:
            raise ValueError(f"mark kind {self.name!r}: unknown shape {self.shape!r}")


@dataclass(frozen=True)
class Label:
    """A text on a place (``"\\n"`` breaks lines); ``title`` is the tooltip."""

    place: Hashable
    text: str
    colour: str = "#1a1a1a"
    title: str = ""

    def __post_init__(self) -> None:
        check_colour(self.colour)


@dataclass(frozen=True)
class Mark:
    """A piece on a place: ``count`` pieces of kind ``piece`` (``"army"``, ``"noble"``...) in
    ``colour``; ``title`` is the tooltip; ``text`` (one to three characters: the owner's
    initial, see :func:`initials`) is written on the token, so colour is never the only cue.

    A mark can also draw an order that stays on its place (a defence, an action there):
    ``note`` is written beside the token (the amount, up to eight characters), ``orders`` names
    the orders it draws, ``ok`` is the outcome as for an :class:`Arrow` (failed: faded and
    crossed out)."""

    place: Hashable
    piece: str
    colour: str
    count: int = 1
    title: str = ""
    text: str = ""
    note: str = ""
    orders: tuple[str, ...] = ()
    ok: bool | None = None

    def __post_init__(self) -> None:
        check_colour(self.colour)
        if isinstance(self.count, bool) or not isinstance(self.count, int):
            raise ValueError(f"mark on {self.place!r}: count must be a whole number, got "
                             f"{self.count!r}")
        if self.count < 1:
            raise ValueError(f"mark on {self.place!r}: count must be 1 or more, got {self.count}")
        if len(self.text) > 3:
            raise ValueError(f"mark on {self.place!r}: text {self.text!r} is longer than 3")
        _check_short(f"mark on {self.place!r}", self.note)
        if self.ok not in (None, True, False):
            raise ValueError(f"mark on {self.place!r}: ok must be None, True or False")
        object.__setattr__(self, "orders", tuple(self.orders))


@dataclass(frozen=True)
class Arrow:
    """An order drawn as an arrow.

    Attributes:
        src: the place the order comes from.
        dst: the place it points at (for a move: the last place of its path).
        colour: a ``#hex`` or named colour (usually the player's).
        kind: the name of one of the scene's :class:`ArrowKind`.
        via: the places a move passes before ``dst``, drawn as a polyline.
        onto: for a support of an attack or a move, that order's ``(src, dst)``: the arrow
            ends on the middle of that order's arrow (or of the straight line between the two
            places when no such arrow is drawn) instead of at ``dst``.
        ok: the outcome: ``None`` while unknown, ``True`` for success, ``False`` for failure
            (drawn faded, crossed out).
        title: the tooltip.
        text: a short text written on the arrow (its player's initial, an amount: up to
            eight characters), so that colour is never the only cue.
        orders: the orders it draws (see :func:`gmkit.core.drawing.orders.order_ref`).
    """

    src: Hashable
    dst: Hashable
    colour: str
    kind: str = "move"
    via: tuple[Hashable, ...] = ()
    onto: tuple[Hashable, Hashable] | None = None
    ok: bool | None = None
    title: str = ""
    text: str = ""
    orders: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check_colour(self.colour)
        _check_short(f"arrow {self.src!r}->{self.dst!r}", self.text)
        object.__setattr__(self, "via", tuple(self.via))
        object.__setattr__(self, "orders", tuple(self.orders))
        if self.ok not in (None, True, False):
            raise ValueError(f"arrow {self.src!r}->{self.dst!r}: ok must be None, True or False")
        if self.onto is not None and len(self.onto) != 2:
            raise ValueError(f"arrow {self.src!r}->{self.dst!r}: onto must be a (src, dst) pair")

    def places(self) -> tuple[Hashable, ...]:
        """Every place the arrow names."""
        return (self.src, *self.via, self.dst, *(self.onto or ()))


@dataclass(frozen=True)
class Outline:
    """A line around a group of places (a realm, a region, a highlighted area)."""

    places: tuple[Hashable, ...]
    colour: str
    width: float = 2.0
    dash: tuple[float, ...] = ()
    title: str = ""

    def __post_init__(self) -> None:
        check_colour(self.colour)
        if not self.places:
            raise ValueError("outline: an empty group of places")


@dataclass(frozen=True)
class LegendEntry:
    """One line of the legend: a swatch of ``colour`` and its ``label``; with ``shape``, that
    piece's shape in ``colour`` instead of a swatch (what the board's symbols mean); with
    ``arrow``, a short arrow of that kind (one of the scene's :class:`ArrowKind`) in
    ``colour``."""

    label: str
    colour: str
    shape: MarkShape | None = None
    arrow: str | None = None

    def __post_init__(self) -> None:
        check_colour(self.colour)
        if self.shape is not None and self.shape not in _SHAPES:
            raise ValueError(f"legend entry {self.label!r}: unknown shape {self.shape!r}")


def initials(names: Sequence[str]) -> dict[str, str]:
    """A short mark for each name, told apart from the others: its first letter, else its
    first two, else its first and the letter after each word break, else its position."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for k, name in enumerate(names):
        words = [w for w in re.split(r"[^0-9A-Za-z]+", name) if w] or [str(k + 1)]
        tries = [words[0][:1].upper(), words[0][:2].title(),
                 (words[0][:1] + "".join(w[:1] for w in words[1:])).upper()[:3], str(k + 1)]
        out[name] = next((t for t in tries if t and t not in taken), str(k + 1))
        taken.add(out[name])
    return out


def _frozen_map(m: Mapping[_K, str]) -> Mapping[_K, str]:
    for colour in m.values():
        check_colour(colour)
    return MappingProxyType(dict(m))


@dataclass(frozen=True)
class Scene:
    """Everything one drawing of a board shows.

    A place's fill is, by priority: ``fills[place]``, its row of ``fill_frame``, the colour of
    its kind in ``kind_fills`` (the board's :meth:`~gmkit.core.boards.Board.place_kind`), then
    ``default_fill``.

    Attributes:
        fills: colour per place.
        fill_frame: colours of many places at once, for large boards: a polars frame with a
            ``fill`` column and the place's columns (``q``, ``r`` on a hex board, ``place`` on a
            graph board).
        kind_fills: colour per place kind (``{"sea": "#a9c9e6", "desert": "#e8d8a0"}``).
        default_fill: the colour of every other place.
        labels, marks, arrows, outlines: drawn on top, in that order of layers: outlines,
            arrows, marks, labels.
        arrow_kinds: the kinds the arrows may use; an arrow of an undeclared kind is an error.
        mark_kinds: shapes of piece kinds; an undeclared piece is a circle.
        legend: the legend's lines, in order.
        title: the drawing's title.
    """

    fills: Mapping[Hashable, str] = field(default_factory=dict)
    fill_frame: pl.DataFrame | None = None
    kind_fills: Mapping[str, str] = field(default_factory=dict)
    default_fill: str = "#e8e0c8"
    labels: tuple[Label, ...] = ()
    marks: tuple[Mark, ...] = ()
    arrows: tuple[Arrow, ...] = ()
    arrow_kinds: tuple[ArrowKind, ...] = ()
    mark_kinds: tuple[MarkKind, ...] = ()
    outlines: tuple[Outline, ...] = ()
    legend: tuple[LegendEntry, ...] = ()
    title: str = ""
    #: More places the drawing must take in although it shows nothing on them (on an
    #: unbounded hex grid, the hexes of the picture after a turn, so before and after share
    #: one extent: :func:`gmkit.core.drawing.hex_svg.share_extent`).
    extent: tuple[Hashable, ...] = ()
    #: On a hex board, print each named hex's coordinates ``q,r,s`` in it (a GM asked where
    #: "Amber at (-3, 0, 3)" is); they are always its tooltip.
    coordinates: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "fills", _frozen_map(self.fills))
        object.__setattr__(self, "kind_fills", _frozen_map(self.kind_fills))
        for name in ("labels", "marks", "arrows", "arrow_kinds", "mark_kinds", "outlines",
                     "legend", "extent"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        check_colour(self.default_fill)
        for name, kind in (("labels", Label), ("marks", Mark), ("arrows", Arrow),
                           ("outlines", Outline), ("legend", LegendEntry)):
            wrong = [x for x in getattr(self, name) if not isinstance(x, kind)]
            if wrong:
                raise TypeError(f"{name}: not a {kind.__name__}: {wrong[0]!r}")
        if self.fill_frame is not None:
            if "fill" not in self.fill_frame.columns:
                raise ValueError("fill_frame needs a 'fill' column")
            bad = [c for c in self.fill_frame["fill"].unique().to_list()
                   if not isinstance(c, str)]
            if bad:
                raise ValueError(f"fill_frame: fill must be a colour, got {bad[0]!r}")
            for colour in self.fill_frame["fill"].unique().to_list():
                check_colour(colour)
        names = [k.name for k in self.arrow_kinds]
        if len(set(names)) != len(names):
            raise ValueError("arrow_kinds: a kind is declared twice")
        undeclared = sorted(({a.kind for a in self.arrows}
                             | {e.arrow for e in self.legend if e.arrow is not None})
                            - set(names))
        if undeclared:
            raise ValueError(
                f"arrows of undeclared kind(s) {', '.join(map(repr, undeclared))}; "
                f"declared: {', '.join(names) or 'none'}"
            )

    def arrow_kind(self, name: str) -> ArrowKind:
        """The declared kind ``name``."""
        for kind in self.arrow_kinds:
            if kind.name == name:
                return kind
        raise KeyError(f"no arrow kind {name!r}")

    def mark_shape(self, piece: str) -> MarkShape:
        """The shape of a piece kind (a circle when undeclared)."""
        return self.declared_shape(piece) or "circle"

    def declared_shape(self, piece: str) -> MarkShape | None:
        """The shape the scene declares for a piece kind, None when it declares none."""
        for kind in self.mark_kinds:
            if kind.name == piece:
                return kind.shape
        return None

    def places(self, *, extent: bool = True) -> set[Hashable]:
        """Every place the scene names outside ``fill_frame`` (without the hexes of ``extent``
        that nothing else names, unless ``extent``)."""
        out: set[Hashable] = set(self.fills)
        out.update(label.place for label in self.labels)
        out.update(mark.place for mark in self.marks)
        for arrow in self.arrows:
            out.update(arrow.places())
        for outline in self.outlines:
            out.update(outline.places)
        if extent:
            out.update(self.extent)
        return out
