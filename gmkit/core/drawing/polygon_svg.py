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
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import MultiPolygon, Polygon

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.drawing.colours import check_colour
from gmkit.core.drawing.placement import Box, Placed, leader_svg, place_boxes, text_width
from gmkit.core.drawing.scene import Label, Mark, Scene
from gmkit.core.drawing.svg_parts import (
    FONT_FAMILY,
    ArrowPen,
    Point,
    arrows_svg,
    legend_height,
    legend_svg,
    point_along,
    polyline_length,
    trim_polyline,
    xml_attr,
    xml_text,
)

__all__ = [
    "DEFAULT_LAND_FILL",
    "DEFAULT_SEA_FILL",
    "KIND_FILLS",
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
_TOKEN_STROKE = "#1a1a1a"
_MARGIN = 4.0
#: Arrows on polygon maps: at least a pixel per unit, and the bar of a kind drawn close to the
#: head and marked with the kind's name.
PEN = ArrowPen(min_unit=1.0, bar_floor=False, bar_mark=None)


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

    def outline_path(self, places: Iterable[Hashable]) -> str:
        """SVG path data of the union of the regions ``places``."""
        regions = self.board.regions
        return self.path(shapely.union_all([regions[str(n)].geometry for n in places]))


# -- tokens -----------------------------------------------------------------------------------


def _token_size(font: int) -> tuple[float, float]:
    """The side of one army token and the gap between tokens, in pixels."""
    size = font * 0.8
    return size, max(1.0, size * 0.15)


def _stack_width(count: int, font: int) -> float:
    """The width of a stack's tokens: up to three side by side, one wide token for more."""
    size, gap = _token_size(font)
    return count * size + (count - 1) * gap if count <= 3 else size * 2


def _ink_on(colour: str) -> str:
    """Black or white, whichever reads on ``colour`` (a ``#rrggbb``; black otherwise)."""
    if colour.startswith("#") and len(colour) == 7:
        r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
        return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"
    return "#000000"


def _stack_svg(mark: Mark, x: float, top: float, font: int) -> str:
    """One mark as an SVG group of tokens whose top edge is at ``top``, centred on ``x``."""
    size, gap = _token_size(font)
    parts = [f"<g data-region={xml_attr(mark.place)} data-count=\"{mark.count}\">"]
    if mark.title:
        parts.append(f"<title>{xml_text(mark.title)}</title>")
    token = (f'height="{size:.1f}" rx="{size * 0.2:.1f}" fill="{mark.colour}" '
             f'stroke="{_TOKEN_STROKE}" stroke-width="0.8"')
    total = _stack_width(mark.count, font)
    if mark.count <= 3:
        for k in range(mark.count):
            left = x - total / 2 + k * (size + gap)
            parts.append(f'<rect x="{left:.1f}" y="{top:.1f}" width="{size:.1f}" {token}/>')
            if mark.text:
                parts.append(
                    f'<text x="{left + size / 2:.1f}" y="{top + size * 0.78:.1f}" '
                    f'text-anchor="middle" '
                    f'font-size="{size * (0.8 if len(mark.text) == 1 else 0.55):.1f}" '
                    f'font-weight="bold" fill="{_ink_on(mark.colour)}">{xml_text(mark.text)}</text>')
    else:
        parts.append(f'<rect x="{x - total / 2:.1f}" y="{top:.1f}" width="{total:.1f}" {token}/>')
        parts.append(
            f'<text x="{x:.1f}" y="{top + size * 0.84:.1f}" text-anchor="middle" '
            f'font-size="{size:.1f}" font-weight="bold" fill="#ffffff" '
            f'stroke="{_TOKEN_STROKE}" stroke-width="{max(1.5, size / 5):.1f}" '
            f'paint-order="stroke">{xml_text(mark.text)}{mark.count}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def _exit(origin: Point, direction: Point, box: tuple[float, float, float, float]) -> float:
    """How far a ray from ``origin`` (inside ``box``: x0, y0, x1, y1) goes along the unit
    ``direction`` before it leaves the box."""
    reach: list[float] = []
    for axis, (low, high) in enumerate(((box[0], box[2]), (box[1], box[3]))):
        step = direction[axis]
        if step > 1e-9:
            reach.append((high - origin[axis]) / step)
        elif step < -1e-9:
            reach.append((low - origin[axis]) / step)
    return max(0.0, min(reach, default=0.0))


def _drawn(text: str) -> bool:
    """Whether a label text shows anything."""
    return bool(text) and any(line.strip() for line in text.split("\n"))


@dataclass
class _Block:
    """What is drawn for one place: its label's lines and its stacks, as one box placed on the
    map (:func:`gmkit.core.drawing.placement.place_boxes`)."""

    place: Hashable
    lines: list[str]
    label: Label | None
    marks: list[Mark]
    box: Box
    placed: Placed | None = None

    def top(self) -> float:
        assert self.placed is not None
        return self.placed.centre[1] - self.box.height / 2


def _blocks(scene: Scene, points: Mapping[str, Point], font: int) -> list[_Block]:
    """The label and stacks of every place, each as a box wanted on the place's label point:
    places with pieces first, then the others as listed."""
    size, _ = _token_size(font)
    line_height = font * 1.15
    labels: dict[Hashable, Label] = {}
    for label in scene.labels:
        if _drawn(label.text):
            labels.setdefault(label.place, label)
    marks: dict[Hashable, list[Mark]] = {}
    for mark in scene.marks:
        marks.setdefault(mark.place, []).append(mark)
    out = []
    for place in [*marks, *(p for p in labels if p not in marks)]:
        given = labels.get(place)
        lines = given.text.split("\n") if given is not None else []
        stacks = marks.get(place, [])
        width = max([text_width(line, font) for line in lines]
                    + [_stack_width(m.count, font) for m in stacks])
        height = len(lines) * line_height + len(stacks) * (size + 2)
        out.append(_Block(place, lines, given, stacks,
                          Box(points[str(place)], width + 2, height + 2)))
    return out


def _block_svg(block: _Block, sea: bool, font: int) -> str:
    """A block's label lines, at the top of its placed box."""
    if block.label is None:
        return ""
    line_height = font * 1.15
    x = block.placed.centre[0] if block.placed is not None else 0.0
    y0 = block.top() + 1 + font * 0.9
    label = block.label
    style = (' font-style="italic"' if sea else "") + (
        f' fill="{label.colour}"' if label.colour != _INK else "")
    tip = f"<title>{xml_text(label.title)}</title>" if label.title else ""
    if len(block.lines) == 1:
        return f'<text x="{x:.1f}" y="{y0:.1f}"{style}>{tip}{xml_text(block.lines[0])}</text>'
    spans = "".join(
        f'<tspan x="{x:.1f}" y="{y0 + k * line_height:.1f}">{xml_text(line)}</tspan>'
        for k, line in enumerate(block.lines)
    )
    return f"<text{style}>{tip}{spans}</text>"


def _marks_svg(scene: Scene, points: Mapping[str, Point], blocks: Sequence[_Block],
               font: int, top: int) -> str:
    """The arrows, then the marks, as SVG groups in pixel coordinates.

    Marks sit below their place's label, in the block placed for the place.  Arrows join the
    places' first marks (or their blocks, or label points where a place has neither), starting
    and ending where they leave the block of the place's label and tokens, so that the labels
    stay readable and the tokens and arrowheads stay visible.
    """
    size, _ = _token_size(font)
    line_height = font * 1.15
    bounds: dict[Hashable, tuple[float, float, float, float]] = {}
    anchors: dict[Hashable, Point] = {}
    placed: list[tuple[Mark, float, float]] = []  # mark, centre x, top y
    for block in blocks:
        assert block.placed is not None
        bounds[block.place] = block.placed.bounds(block.box)
        x = block.placed.centre[0]
        y_top = block.top() + 1 + len(block.lines) * line_height
        anchors[block.place] = (x, y_top + size / 2) if block.marks else block.placed.centre
        for row, mark in enumerate(block.marks):
            placed.append((mark, x, y_top + row * (size + 2)))

    def anchor(name: Hashable) -> Point:
        return anchors.get(name) or points[str(name)]

    def gap(name: Hashable, direction: Point, end: bool) -> float:
        box = bounds.get(name)
        if box is None:
            return font * (0.9 if end else 0.6)
        if end:
            direction = (-direction[0], -direction[1])
        return _exit(anchor(name), direction, box)

    def trimmed(path: Sequence[Point], src: Hashable, dst: Hashable | None) -> list[Point]:
        length = polyline_length(path)
        if length <= 1e-9:
            return list(path[:1])
        _, first = point_along(path, 0.0)
        _, last = point_along(path, length)
        end = gap(dst, last, True) if dst is not None else font * 0.15
        return trim_polyline(path, gap(src, first, False), end)

    out: list[str] = []
    if scene.arrows:
        out.append(arrows_svg(scene, anchor, font, 0.0, trim=trimmed, pen=PEN,
                              attrs=f' transform="translate(0 {top})"'))
    if placed:
        out.append(f'<g transform="translate(0 {top})" data-layer="stacks">')
        out.extend(_stack_svg(mark, x, y_top, font) for mark, x, y_top in placed)
        out.append("</g>")
    return "".join(out)


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

    out.append(
        f'<g transform="translate(0 {top})" font-size="{font}" text-anchor="middle" '
        f'fill="{_INK}" stroke="#ffffff" stroke-width="{max(1.5, font / 5):.1f}" '
        f'stroke-opacity="0.8" paint-order="stroke" pointer-events="none">'
    )
    # the smallest regions choose first: a large region has room for its label elsewhere in it
    area = {name: region.geometry.area for name, region in board.regions.items()}
    blocks = sorted(_blocks(scene, layout.points, font), key=lambda b: area[str(b.place)])
    for block, where in zip(blocks, place_boxes([b.box for b in blocks],
                                                (0.0, 0.0, float(width), layout.height))):
        block.placed = where
    for block in blocks:
        if block.placed is not None and block.placed.moved:
            out.append(leader_svg(block.box.anchor, block.placed, block.box))
    for block in blocks:
        sea = board.place_kind(str(block.place)) == "sea"
        out.append(_block_svg(block, sea, font))
    out.append("</g>")
    if scene.arrows or scene.marks:
        out.append(_marks_svg(scene, layout.points, blocks, font, top))

    if legend:
        out.append(legend_svg(legend, 8, top + layout.height + font * 0.5, font, width - 16))
    out.append("</svg>")
    return "".join(out)
