"""Drawing a :class:`~gmkit.core.drawing.scene.Scene` on a polygon board as a static SVG.

:func:`polygon_svg` takes the same scene the hex and graph renderers take and draws it on a
:class:`~gmkit.core.boards.polygon.PolygonBoard`, north up: every region filled (the scene's
fill, else its kind's fill, else the default), the scene's outlines as heavy lines around the
union of their regions, the labels on each region's label point (sea names in italics), then the
arrows and the marks.  Marks are drawn as army tokens below their region's label: one to three
tokens side by side, or one wide token showing the number for more.  Arrows are drawn by
:func:`gmkit.core.drawing.svg_parts.arrows_svg` like on every board, except that a shaft starts
and ends where it leaves the block of its region's label and tokens, so labels stay readable.

The pixel layout of a board (region paths, label points) depends only on the board and the
width; :class:`PolygonLayout` holds it so that a caller drawing many scenes on one board can
reuse it.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping

import numpy as np
import shapely
import shapely.ops
from shapely.geometry import MultiPolygon, Polygon

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.drawing.colours import check_colour
from gmkit.core.drawing.arrows import Point
from gmkit.core.drawing.polygon_blocks import PEN, blocks_svg
from gmkit.core.drawing.scene import Label, Scene
from gmkit.core.drawing.svg_parts import FONT_FAMILY, legend_height, legend_svg
from gmkit.core.drawing.svg_text import xml_attr, xml_text

__all__ = [
    "DEFAULT_LAND_FILL",
    "DEFAULT_SEA_FILL",
    "KIND_FILLS",
    "PEN",
    "SEA_INK",
    "PolygonLayout",
    "polygon_svg",
    "region_labels",
]

#: Fill used for land regions that are given no colour.
DEFAULT_LAND_FILL = "#e8e0c8"
#: Fill used for sea regions that are given no colour.
DEFAULT_SEA_FILL = "#a9c9e6"
#: The fills of the two region kinds, for :attr:`Scene.kind_fills`.
KIND_FILLS: Mapping[str, str] = {"land": DEFAULT_LAND_FILL, "sea": DEFAULT_SEA_FILL}
#: The colour of sea names.
SEA_INK = "#1f4e79"

_STROKE = "#4a4a4a"
_HIGHLIGHT_STROKE = "#000000"
_INK = "#1a1a1a"
_MARGIN = 4.0


def region_labels(board: PolygonBoard, texts: Mapping[str, str] | None = None
                  ) -> tuple[Label, ...]:
    """A label on every region of ``board``: its text in ``texts`` (newlines make more lines,
    an empty text no label), else its name; sea names in :data:`SEA_INK`.

    Raises:
        ValueError: for a text given to a region the board does not have.
    """
    texts = dict(texts or {})
    unknown = [n for n in texts if n not in board.regions]
    if unknown:
        raise ValueError(f"labels: unknown region(s) {', '.join(map(repr, unknown))}")
    out = []
    for name, region in board.regions.items():
        text = str(texts.get(name, name))
        if text and any(line.strip() for line in text.split("\n")):
            out.append(Label(name, text, SEA_INK if region.kind == "sea" else _INK))
    return tuple(out)


def _fmt(value: float) -> str:
    """Format a pixel coordinate compactly (one decimal, no trailing zero)."""
    text = f"{value:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


class PolygonLayout:
    """A board in the pixels of a drawing ``width`` wide, north up, with a 4 px margin.

    Attributes:
        width: the drawing's width in pixels.
        height: the map's height in pixels.
        paths: SVG path data of each region, in the board's order.
        points: each region's label point in pixels.
    """

    def __init__(self, board: PolygonBoard, width: int) -> None:
        self.board = board
        self.width = width
        minx, miny, maxx, maxy = board.bounds
        self._scale = (width - 2 * _MARGIN) / max(maxx - minx, 1e-12)
        self.height: float = max(maxy - miny, 1e-12) * self._scale + 2 * _MARGIN
        self.paths: list[str] = [self.path(r.geometry) for r in board.regions.values()]
        self.points: dict[str, Point] = {
            name: ((x - minx) * self._scale + _MARGIN, (maxy - y) * self._scale + _MARGIN)
            for name, (x, y) in board.label_points().items()
        }

    def path(self, geom: Polygon | MultiPolygon) -> str:
        """SVG path data of ``geom``'s rings in this layout's pixels, one decimal."""
        minx, _, _, maxy = self.board.bounds
        scale = self._scale
        parts: list[str] = []
        for polygon in getattr(geom, "geoms", (geom,)):
            if not isinstance(polygon, Polygon):
                continue
            for ring in (polygon.exterior, *polygon.interiors):
                xy = shapely.get_coordinates(ring)
                px = np.empty_like(xy)
                px[:, 0] = (xy[:, 0] - minx) * scale + _MARGIN
                px[:, 1] = (maxy - xy[:, 1]) * scale + _MARGIN
                coords = [f"{_fmt(x)} {_fmt(y)}" for x, y in np.round(px, 1)[:-1].tolist()]
                parts.append("M" + " ".join(coords[:1]) + "L" + " ".join(coords[1:]) + "Z")
        return "".join(parts)

    def through(self, name: Hashable, before: Point, after: Point) -> Point:
        """Where a route from ``before`` to ``after`` (pixels) passes region ``name``: a land
        region's label point (a move's path from sector to sector); in a sea, the point of the
        sea nearest the middle of the two, well inside it (a thirtieth of the drawing's width),
        so a route across a sea is seen to cross it."""
        if self.board.place_kind(str(name)) != "sea":
            return self.points[str(name)]
        minx, _, _, maxy = self.board.bounds
        scale = self._scale
        mx, my = (before[0] + after[0]) / 2, (before[1] + after[1]) / 2
        middle = shapely.Point((mx - _MARGIN) / scale + minx, maxy - (my - _MARGIN) / scale)
        region = self.board.regions[str(name)].geometry
        inner = region.buffer(-max(8.0, self.width / 30) / scale)
        shape = inner if not inner.is_empty else region
        x, y = shapely.ops.nearest_points(shape, middle)[0].coords[0]
        return (x - minx) * scale + _MARGIN, (maxy - y) * scale + _MARGIN

    def outline_path(self, places: Iterable[Hashable]) -> str:
        """SVG path data of the union of the regions ``places``."""
        regions = self.board.regions
        return self.path(shapely.union_all([regions[str(n)].geometry for n in places]))


# -- the drawing ------------------------------------------------------------------------------


def _fills(board: PolygonBoard, scene: Scene) -> dict[str, str]:
    """Each region's fill by the scene's priorities."""
    frame: dict[str, str] = {}
    if scene.fill_frame is not None:
        if "place" not in scene.fill_frame.columns:
            raise ValueError("fill_frame: a polygon board needs a 'place' column")
        frame = {str(p): str(c) for p, c in scene.fill_frame.select("place", "fill").iter_rows()}
    return {
        name: (scene.fills.get(name) or frame.get(name)
               or scene.kind_fills.get(region.kind) or scene.default_fill)
        for name, region in board.regions.items()
    }


#: the layouts made last, by board and width (oldest first): a board's paths in pixels are
#: the same for every picture of it
_LAYOUTS: dict[tuple[int, int], PolygonLayout] = {}


def _layout(board: PolygonBoard, width: int) -> PolygonLayout:
    found = _LAYOUTS.get((id(board), width))
    if found is None or found.board is not board:
        found = _LAYOUTS[(id(board), width)] = PolygonLayout(board, width)
        while len(_LAYOUTS) > 8:
            del _LAYOUTS[next(iter(_LAYOUTS))]
    return found


def polygon_svg(
    board: PolygonBoard,
    scene: Scene,
    *,
    width: int = 900,
    highlight: Iterable[str] = (),
    layout: PolygonLayout | None = None,
) -> str:
    """``scene`` drawn on ``board`` as a static, self-contained SVG document string.

    Args:
        board: the polygon board.
        scene: what to draw; its places are region names.  Only the scene's labels are written
            (a caller wanting every region named labels every region).
        width: the drawing's width in pixels (the height follows the map's shape, plus the
            title and the legend).
        highlight: regions drawn with a thicker outline, above the others.
        layout: the board's layout at ``width``, when the caller keeps one.

    All text is XML-escaped.

    Raises:
        ValueError: a width that is not an integer of at least 50, or a place of the scene or
            of ``highlight`` that is no region of the board.
    """
    if isinstance(width, bool) or not isinstance(width, int) or width < 50:
        raise ValueError(f"width must be an integer of at least 50, got {width!r}")
    highlighted = set(highlight)
    unknown = sorted(map(repr, {p for p in scene.places() | highlighted if p not in board}))
    if unknown:
        raise ValueError(f"{board.source}: unknown region(s) {', '.join(unknown[:5])}")
    if layout is None or layout.board is not board or layout.width != width:
        layout = _layout(board, width)
    fills = _fills(board, scene)
    for colour in fills.values():
        check_colour(colour)
    title, legend = scene.title, scene.legend
    font = max(8, round(width / 90))
    top = round(font * 2.6) if title else 0
    legend_tall = legend_height(legend, font, width - 16) + font if legend else 0
    total_height = math.ceil(top + layout.height + legend_tall)

    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{total_height}" viewBox="0 0 {width} {total_height}" '
        f'font-family="{FONT_FAMILY}" role="img"'
        + (f" aria-label={xml_attr(title)}" if title else "")
        + ">"
    ]
    if title:
        out.append(f"<title>{xml_text(title)}</title>")
    out.append(f'<rect width="{width}" height="{total_height}" fill="#ffffff"/>')
    if title:
        out.append(
            f'<text x="{width / 2:.1f}" y="{font * 1.8:.1f}" text-anchor="middle" '
            f'font-size="{round(font * 1.6)}" font-weight="bold" fill="#222222" '
            f'data-layer="title">{xml_text(title)}</text>'
        )
    out.append(
        f'<g transform="translate(0 {top})" stroke="{_STROKE}" stroke-width="0.8" '
        f'stroke-linejoin="round" fill-rule="evenodd">'
    )
    later: list[str] = []
    for name, d in zip(board.regions, layout.paths):
        extra = f' stroke="{_HIGHLIGHT_STROKE}" stroke-width="3"' if name in highlighted else ""
        element = (f'<path d="{d}" fill="{fills[name]}"{extra} data-name={xml_attr(name)}>'
                   f"<title>{xml_text(name)}</title></path>")
        (later if name in highlighted else out).append(element)
    out.extend(later)
    for outline in scene.outlines:
        dash = (f' stroke-dasharray="{" ".join(f"{d:g}" for d in outline.dash)}"'
                if outline.dash else "")
        end = f"><title>{xml_text(outline.title)}</title></path>" if outline.title else "/>"
        out.append(f'<path d="{layout.outline_path(outline.places)}" fill="none" '
                   f'stroke="{outline.colour}" stroke-width="{outline.width:g}"{dash} '
                   f'pointer-events="none"{end}')
    out.append("</g>")

    area = {name: region.geometry.area for name, region in board.regions.items()}
    sea = {name: region.kind == "sea" for name, region in board.regions.items()}
    out.append(blocks_svg(scene, layout.points, area, sea, font,
                          (0.0, 0.0, float(width), layout.height), top, layout.through))

    if legend:
        out.append(legend_svg(legend, 8, top + layout.height + font * 0.5, font, width - 16,
                              scene.arrow_kinds))
    out.append("</svg>")
    return "".join(out)
