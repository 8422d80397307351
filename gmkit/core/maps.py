"""Province maps: the names gmkit has always offered, kept working over the split modules.

A game map is a polygon board read from GeoJSON (:mod:`gmkit.core.boards.polygon`), drawn as SVG
by :mod:`gmkit.core.drawing.polygon_svg` from a :class:`~gmkit.core.drawing.scene.Scene` and as
an Altair chart by :mod:`gmkit.core.drawing.polygon_chart`.  This module keeps the older names
on top of them:

* :class:`GameMap`: a :class:`~gmkit.core.boards.polygon.PolygonBoard` that also draws itself
  (:meth:`GameMap.to_svg`, :meth:`GameMap.chart`, a notebook ``_repr_svg_``);
* :class:`Stack` and :class:`Arrow`: army tokens and orders as :meth:`GameMap.to_svg` takes
  them; :meth:`GameMap.to_svg` turns them into the scene's marks (piece ``"army"``) and arrows;
* :class:`Region`, :class:`MapError`, :func:`write_geojson`, :data:`KINDS`,
  :func:`check_colour`, :data:`DEFAULT_LAND_FILL`, :data:`DEFAULT_SEA_FILL`: re-exported.

New code should use the modules above directly, and declare its arrow kinds
(:class:`~gmkit.core.drawing.scene.ArrowKind`) in its ruleset.  Arrows given to
:meth:`GameMap.to_svg` without ``arrow_kinds`` are drawn in the looks this module has always
drawn (:data:`ARROW_KINDS`), for callers that do not declare kinds yet.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gmkit.core.boards.polygon import KINDS, MapError, PolygonBoard, Region, write_geojson
import gmkit.core.drawing.scene as sc
from gmkit.core.drawing.colours import check_colour
from gmkit.core.drawing.polygon_chart import polygon_chart
from gmkit.core.drawing.polygon_svg import (
    DEFAULT_LAND_FILL,
    DEFAULT_SEA_FILL,
    KIND_FILLS,
    SEA_INK,
    PolygonLayout,
    polygon_svg,
)

if TYPE_CHECKING:  # pragma: no cover - only for type checkers
    import altair

__all__ = [
    "DEFAULT_LAND_FILL",
    "DEFAULT_SEA_FILL",
    "KINDS",
    "Arrow",
    "GameMap",
    "MapError",
    "Region",
    "Stack",
    "check_colour",
    "polygon_map",
    "write_geojson",
]


_STROKE = "#4a4a4a"
_INK = "#1a1a1a"
#: The piece kind of the marks a :class:`Stack` becomes.
ARMY = "army"


@dataclass(frozen=True)
class Stack:
    """A stack of armies in a region, drawn as tokens by :meth:`GameMap.to_svg`.

    The tokens sit just below the region's label (at the label point when the
    region has no label): one to three tokens side by side, or a single token
    showing the number for more.  ``colour`` is a ``#hex`` or named colour;
    ``title`` is the tooltip.
    """

    region: str
    count: int
    colour: str
    title: str = ""


@dataclass(frozen=True)
class Arrow:
    """An order drawn as an arrow by :meth:`GameMap.to_svg`.

    Attributes:
        src: the region the order comes from.
        dst: the region it points at (for a move: the last region of its path).
        colour: a ``#hex`` or named colour (usually the player's).
        kind: the name of an arrow kind: one of the ``arrow_kinds`` given to
            :meth:`GameMap.to_svg`, else of :data:`ARROW_KINDS`.
        via: the regions a move passes before ``dst``, drawn as a polyline.
        onto: for a support of an attack or a move, that order's
            ``(src, dst)``: the arrow ends on the middle of that order's
            arrow (or of the straight line between the two regions when no
            such arrow is drawn) instead of at ``dst``.
        ok: the outcome: ``None`` while unknown, ``True`` for success,
            ``False`` for failure (drawn faded, crossed out).
        title: the tooltip.
    """

    src: str
    dst: str
    colour: str
    kind: str = "move"
    via: tuple[str, ...] = ()
    onto: tuple[str, str] | None = None
    ok: bool | None = None
    title: str = ""


class GameMap(PolygonBoard):
    """A polygon board that draws itself: :meth:`to_svg`, :meth:`chart` and ``_repr_svg_``.

    Everything about regions and adjacency is :class:`~gmkit.core.boards.polygon.PolygonBoard`'s;
    build one with :meth:`from_geojson` or :meth:`from_dict`.  The pixel layout of each width
    drawn is computed once and kept on the instance.
    """

    def __init__(
        self,
        name: str,
        regions: Iterable[Region],
        *,
        source: str = "<memory>",
        explicit_adjacency: Mapping[str, Iterable[str]] | None = None,
    ) -> None:
        super().__init__(name, regions, source=source, explicit_adjacency=explicit_adjacency)
        self._layouts: dict[int, PolygonLayout] = {}
        self._default_svg: str | None = None

    def _repr_svg_(self) -> str:
        """Default SVG rendering, for notebooks (computed once)."""
        if self._default_svg is None:
            self._default_svg = self.to_svg(title=self.name)
        return self._default_svg

    def scene(
        self,
        fills: Mapping[str, str] | None = None,
        *,
        labels: Mapping[str, str] | None = None,
        title: str | None = None,
        legend: Sequence[tuple[str, str]] = (),
        stacks: Sequence[Stack] = (),
        arrows: Sequence[Arrow] = (),
        outlines: Sequence[Sequence[str]] = (),
        arrow_kinds: Sequence[sc.ArrowKind] | None = None,
    ) -> sc.Scene:
        """The :class:`~gmkit.core.drawing.scene.Scene` that :meth:`to_svg` draws for these
        arguments (see there), after the same checks."""
        fills = dict(fills or {})
        labels = dict(labels or {})
        for what, names in (("fills", fills), ("labels", labels)):
            unknown = [n for n in names if n not in self.regions]
            if unknown:
                raise ValueError(f"{what}: unknown region(s) {', '.join(map(repr, unknown))}")
        for colour in fills.values():
            check_colour(colour)
        legend = list(legend)
        for _, colour in legend:
            check_colour(colour)
        kinds = tuple(arrow_kinds or ())
        stacks, arrows = list(stacks), list(arrows)
        self._check_marks(stacks, arrows, tuple(k.name for k in kinds))
        groups = [tuple(g) for g in outlines]
        for group in groups:
            unknown = [n for n in group if n not in self.regions]
            if unknown or not group:
                raise ValueError(f"outlines: unknown region(s) {', '.join(map(repr, unknown))}"
                                 if unknown else "outlines: an empty group")
        shown = []
        for name, region in self.regions.items():
            text = str(labels.get(name, name))
            if text and any(line.strip() for line in text.split("\n")):
                shown.append(sc.Label(name, text, SEA_INK if region.kind == "sea" else _INK))
        place_fills: dict[Hashable, str] = {name: colour for name, colour in fills.items()}
        return sc.Scene(
            fills=place_fills,
            kind_fills=KIND_FILLS,
            default_fill=DEFAULT_LAND_FILL,
            labels=tuple(shown),
            marks=tuple(sc.Mark(s.region, ARMY, s.colour, s.count, s.title) for s in stacks),
            arrows=tuple(sc.Arrow(a.src, a.dst, a.colour, a.kind, tuple(a.via),
                                  None if a.onto is None else (a.onto[0], a.onto[1]),
                                  a.ok, a.title) for a in arrows),
            arrow_kinds=kinds,
            outlines=tuple(sc.Outline(g, _STROKE, 3.2) for g in groups),
            legend=tuple(sc.LegendEntry(label, colour) for label, colour in legend),
            title=title or "",
        )

    def to_svg(
        self,
        fills: Mapping[str, str] | None = None,
        *,
        labels: Mapping[str, str] | None = None,
        title: str | None = None,
        width: int = 900,
        highlight: Iterable[str] = (),
        legend: Sequence[tuple[str, str]] = (),
        stacks: Sequence[Stack] = (),
        arrows: Sequence[Arrow] = (),
        outlines: Sequence[Sequence[str]] = (),
        arrow_kinds: Sequence[sc.ArrowKind] | None = None,
    ) -> str:
        """Draw the map as a static, self-contained SVG document string.

        Args:
            fills: colour per region name; unnamed regions get the default
                land or sea colour.  Colours must be ``#hex`` or named colours.
            labels: label text per region name (default: the region's name);
                newlines make multi-line labels, an empty string no label.
            title: a heading drawn above the map.
            width: the drawing's width in pixels.
            highlight: regions drawn with a thicker outline.
            legend: ``(label, colour)`` swatches drawn in the bottom-left
                corner, below the map.
            stacks: army tokens (:class:`Stack`), each below its region's
                label, drawn last.
            arrows: orders (:class:`Arrow`), drawn over the regions and the
                labels, under the stacks; they stop short of the labels and
                tokens of the regions they join.
            outlines: groups of regions (an empire, a country) each outlined
                as one shape with a heavy line, over the regions' own borders.
            arrow_kinds: the kinds the arrows may use (a ruleset's declared
                kinds); without them, the looks of :data:`ARROW_KINDS`.

        All text is XML-escaped.  Raises ``ValueError`` for an unsafe colour,
        an unknown region name, a bad stack or arrow, or a width that is not
        a positive integer.
        """
        if isinstance(width, bool) or not isinstance(width, int) or width < 50:
            raise ValueError(f"width must be an integer of at least 50, got {width!r}")
        highlighted = set(highlight)
        unknown = [n for n in highlighted if n not in self.regions]
        if unknown:
            raise ValueError(f"highlight: unknown region(s) {', '.join(map(repr, unknown))}")
        scene = self.scene(fills, labels=labels, title=title, legend=legend, stacks=stacks,
                           arrows=arrows, outlines=outlines, arrow_kinds=arrow_kinds)
        layout = self._layouts.get(width)
        if layout is None:
            layout = self._layouts[width] = PolygonLayout(self, width)
        return polygon_svg(self, scene, width=width, highlight=highlighted, layout=layout)

    def _check_marks(self, stacks: Sequence[Stack], arrows: Sequence[Arrow],
                     kinds: Sequence[str]) -> None:
        """Raise ``ValueError`` for a stack or an arrow that cannot be drawn."""
        unknown: list[str] = []
        for stack in stacks:
            if not isinstance(stack, Stack):
                raise TypeError(f"stacks: not a Stack: {stack!r}")
            if stack.region not in self.regions:
                unknown.append(stack.region)
            count = stack.count
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise ValueError(
                    f"stacks: {stack.region!r}: count must be a positive integer, got {count!r}"
                )
            check_colour(stack.colour)
        if unknown:
            raise ValueError(f"stacks: unknown region(s) {', '.join(map(repr, unknown))}")
        for arrow in arrows:
            if not isinstance(arrow, Arrow):
                raise TypeError(f"arrows: not an Arrow: {arrow!r}")
            if arrow.kind not in kinds:
                raise ValueError(
                    f"arrows: kind must be one of {', '.join(kinds)}, got {arrow.kind!r}"
                )
            if arrow.ok not in (None, True, False):
                raise ValueError(f"arrows: ok must be None, True or False, got {arrow.ok!r}")
            if arrow.onto is not None and len(arrow.onto) != 2:
                raise ValueError(f"arrows: onto must be a (src, dst) pair, got {arrow.onto!r}")
            names = (arrow.src, arrow.dst, *arrow.via, *(arrow.onto or ()))
            unknown.extend(n for n in names if n not in self.regions)
            check_colour(arrow.colour)
        if unknown:
            unknown = list(dict.fromkeys(unknown))
            raise ValueError(f"arrows: unknown region(s) {', '.join(map(repr, unknown))}")

    def chart(
        self,
        fills: Mapping[str, str] | None = None,
        tooltip: Mapping[str, Mapping[str, Any]] | None = None,
        title: str | None = None,
    ) -> altair.Chart:
        """The map as an Altair chart (see
        :func:`gmkit.core.drawing.polygon_chart.polygon_chart`)."""
        return polygon_chart(self, fills, tooltip, title)


def polygon_map(board: object) -> GameMap | None:
    """``board`` as the polygon map a polygon ruleset's set-up needs (None stays None).

    Raises:
        MapError: when ``board`` is a board of another kind.
    """
    if board is None or isinstance(board, GameMap):
        return board
    raise MapError(f"this ruleset plays on a polygon map (GeoJSON), not on a "
                   f"{getattr(board, 'kind', type(board).__name__)} board")
