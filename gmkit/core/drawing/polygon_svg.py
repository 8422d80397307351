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

import numpy as np
import shapely
from shapely.geometry import MultiPolygon, Polygon

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.drawing.colours import check_colour
from gmkit.core.drawing.scene import Label, Mark, Scene
from gmkit.core.drawing.svg_parts import (
    ArrowPen,
    Point,
    arrows_svg,
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
    else:
        parts.append(f'<rect x="{x - total / 2:.1f}" y="{top:.1f}" width="{total:.1f}" {token}/>')
        parts.append(
            f'<text x="{x:.1f}" y="{top + size * 0.84:.1f}" text-anchor="middle" '
            f'font-size="{size:.1f}" font-weight="bold" fill="#ffffff" '
            f'stroke="{_TOKEN_STROKE}" stroke-width="{max(1.5, size / 5):.1f}" '
            f'paint-order="stroke">{mark.count}</text>'
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


def _marks_svg(scene: Scene, points: Mapping[str, Point], labels: Mapping[Hashable, str],
               font: int, top: int) -> str:
    """The arrows, then the marks, as SVG groups in pixel coordinates.

    Marks sit below their region's label.  Arrows join the regions' first marks (or label points
    where there is no mark), starting and ending where they leave the block of the region's
    label and tokens, so that the labels stay readable and the tokens and arrowheads stay
    visible (where regions are too small for that, at least half of each arrow is still drawn).
    """
    size, _ = _token_size(font)
    line_height = font * 1.15
    margin = 1.5
    blocks: dict[Hashable, list[float]] = {}  # x0, y0, x1, y1 of a region's label and tokens
    anchors: dict[Hashable, Point] = {}
    for name in {a for arrow in scene.arrows for a in (arrow.src, arrow.dst, *arrow.via)}:
        x, y = points[str(name)]
        text = labels.get(name, "")
        if _drawn(text):
            lines = text.split("\n")
            half_w = max(len(line) for line in lines) * font * 0.28 + margin
            spread = (len(lines) - 1) * line_height / 2
            blocks[name] = [x - half_w, y - spread - font * 0.45 - margin,
                            x + half_w, y + spread + font * 0.3 + margin]
    placed: list[tuple[Mark, float, float]] = []  # mark, centre x, top y
    rows: dict[Hashable, int] = {}
    for mark in scene.marks:
        x, y = points[str(mark.place)]
        text = labels.get(mark.place, "")
        if _drawn(text):
            y_top = y + (len(text.split("\n")) - 1) * line_height / 2 + font * 0.6
        else:
            y_top = y - size / 2
        row = rows.get(mark.place, 0)
        rows[mark.place] = row + 1
        y_top += row * (size + 2)
        placed.append((mark, x, y_top))
        half_w = _stack_width(mark.count, font) / 2 + margin
        box = [x - half_w, y_top - margin, x + half_w, y_top + size + margin]
        if row == 0:
            anchors[mark.place] = (x, y_top + size / 2)
        old = blocks.get(mark.place)
        if old is not None:
            box = [min(old[0], box[0]), min(old[1], box[1]),
                   max(old[2], box[2]), max(old[3], box[3])]
        blocks[mark.place] = box

    def anchor(name: Hashable) -> Point:
        return anchors.get(name) or points[str(name)]

    def gap(name: Hashable, direction: Point, end: bool) -> float:
        box = blocks.get(name)
        if box is None:
            return font * (0.9 if end else 0.6)
        if end:
            direction = (-direction[0], -direction[1])
        return _exit(anchor(name), direction, (box[0], box[1], box[2], box[3]))

    def trimmed(path: Sequence[Point], src: Hashable, dst: Hashable | None) -> list[Point]:
        length = polyline_length(path)
        if length <= 1e-9:
            return list(path[:1])
        _, first = point_along(path, 0.0)
        _, last = point_along(path, length)
        end = gap(dst, last, True) if dst is not None else font * 0.15
        return trim_polyline(path, gap(src, first, False), end)

    out: list[str] = []
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


def _label_svg(label: Label, point: Point, sea: bool, font: int) -> str:
    """One label on its region's label point."""
    lines = label.text.split("\n")
    line_height = font * 1.15
    x, y = point
    y0 = y - (len(lines) - 1) * line_height / 2 + font * 0.35
    style = (' font-style="italic"' if sea else "") + (
        f' fill="{label.colour}"' if label.colour != _INK else "")
    tip = f"<title>{xml_text(label.title)}</title>" if label.title else ""
    if len(lines) == 1:
        return f'<text x="{x:.1f}" y="{y0:.1f}"{style}>{tip}{xml_text(lines[0])}</text>'
    spans = "".join(
        f'<tspan x="{x:.1f}" y="{y0 + k * line_height:.1f}">{xml_text(line)}</tspan>'
        for k, line in enumerate(lines)
    )
    return f"<text{style}>{tip}{spans}</text>"


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
        layout = PolygonLayout(board, width)
    fills = _fills(board, scene)
    for colour in fills.values():
        check_colour(colour)
    title, legend = scene.title, scene.legend
    font = max(8, round(width / 90))
    top = round(font * 2.6) if title else 0
    row = round(font * 1.8)
    legend_height = (len(legend) * row + row // 2) if legend else 0
    total_height = math.ceil(top + layout.height + legend_height)

    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{total_height}" viewBox="0 0 {width} {total_height}" '
        f'font-family="sans-serif" role="img"'
        + (f" aria-label={xml_attr(title)}" if title else "")
        + ">"
    ]
    if title:
        out.append(f"<title>{xml_text(title)}</title>")
    out.append(f'<rect width="{width}" height="{total_height}" fill="#ffffff"/>')
    if title:
        out.append(
            f'<text x="{width / 2:.1f}" y="{font * 1.8:.1f}" text-anchor="middle" '
            f'font-size="{round(font * 1.6)}" font-weight="bold" fill="#222222">'
            f"{xml_text(title)}</text>"
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
    texts: dict[Hashable, str] = {}
    for label in scene.labels:
        if not _drawn(label.text):
            continue
        texts.setdefault(label.place, label.text)
        sea = board.place_kind(str(label.place)) == "sea"
        out.append(_label_svg(label, layout.points[str(label.place)], sea, font))
    out.append("</g>")
    if scene.arrows or scene.marks:
        out.append(_marks_svg(scene, layout.points, texts, font, top))

    if legend:
        base = top + layout.height + row // 4
        out.append(f'<g font-size="{font}" fill="{_INK}">')
        for k, entry in enumerate(legend):
            y = base + k * row
            out.append(
                f'<rect x="8" y="{y + (row - font * 1.2) / 2:.1f}" width="{font * 1.8:.1f}" '
                f'height="{font * 1.2:.1f}" fill="{entry.colour}" stroke="{_STROKE}" '
                f'stroke-width="0.8"/>'
                f'<text x="{14 + font * 1.8:.1f}" y="{y + row / 2 + font * 0.35:.1f}">'
                f"{xml_text(entry.label)}</text>"
            )
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)
