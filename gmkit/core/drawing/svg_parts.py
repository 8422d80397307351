"""SVG pieces shared by the board renderers: escaping, arrows, marks, labels, title and legend.

A renderer places the board's places in pixels and hands this module an ``anchor`` function
(place -> centre point) with the scene; everything drawn on top of the board is the same
whatever the board's kind. All text and attribute values go through :func:`xml_text` and
:func:`xml_attr`; colours were checked when the scene was made.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from gmkit.core.drawing.scene import Arrow, ArrowKind, Label, LegendEntry, Mark, MarkShape, Scene

__all__ = [
    "Anchor",
    "ArrowPen",
    "Point",
    "Trim",
    "arrow_svg",
    "arrows_svg",
    "labels_svg",
    "framed_svg",
    "legend_svg",
    "text_width",
    "marks_svg",
    "point_along",
    "polyline_length",
    "title_svg",
    "trim_polyline",
    "xml_attr",
    "xml_text",
]

Point = tuple[float, float]
Anchor = Callable[[Hashable], Point]
#: Where a shaft starts and ends: ``(path, src, dst)`` -> the trimmed path (``dst`` is ``None``
#: for an arrow ending on another order's arrow).
Trim = Callable[[Sequence[Point], Hashable, "Hashable | None"], list[Point]]


@dataclass(frozen=True)
class ArrowPen:
    """How a renderer sizes its arrows against its font.

    Attributes:
        min_unit: the smallest unit of widths and dashes (the unit is a tenth of the font).
        bar_floor: keep a kind's bar at least half a font back from the tip and 0.3 font long
            each side, even on short arrows.
        bar_mark: the bar's ``data-mark``; ``None`` for the arrow kind's name.
    """

    min_unit: float = 0.5
    bar_floor: bool = True
    bar_mark: str | None = "bar"

# Characters that XML 1.0 does not allow at all, even escaped.
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_INK = "#1a1a1a"
_HALO = "#ffffff"
_FAILED_OPACITY = "0.55"


def xml_text(value: object) -> str:
    """``value`` escaped as XML character data."""
    return escape(_XML_INVALID.sub("", str(value)))


def xml_attr(value: object) -> str:
    """``value`` quoted and escaped as an XML attribute value (quotes included)."""
    entities = {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}
    return quoteattr(_XML_INVALID.sub("", str(value)), entities)


def _f(v: float) -> str:
    return f"{v:.1f}"


def _pt(p: Point) -> str:
    return f"{p[0]:.1f},{p[1]:.1f}"


# -- polylines --------------------------------------------------------------------------------


def _length(points: Sequence[Point]) -> float:
    return sum(math.dist(a, b) for a, b in itertools.pairwise(points))


def _along(points: Sequence[Point], distance: float) -> tuple[Point, Point]:
    """The point ``distance`` along a polyline and the unit direction there."""
    last = (1.0, 0.0)
    for a, b in itertools.pairwise(points):
        seg = math.dist(a, b)
        if seg <= 1e-9:
            continue
        last = ((b[0] - a[0]) / seg, (b[1] - a[1]) / seg)
        if distance <= seg:
            return (a[0] + last[0] * distance, a[1] + last[1] * distance), last
        distance -= seg
    return points[-1], last


def _trim(points: Sequence[Point], start: float, end: float) -> list[Point]:
    """The polyline without its first ``start`` and last ``end`` pixels (both cuts shrink so
    that at least half of the line is left)."""
    length = _length(points)
    if length <= 1e-9:
        return list(points[:1])
    if start + end > length / 2:
        shrink = length / 2 / (start + end)
        start, end = start * shrink, end * shrink
    head, _ = _along(points, start)
    tail, _ = _along(points, length - end)
    kept = [head]
    walked = 0.0
    for a, b in itertools.pairwise(points):
        walked += math.dist(a, b)
        if start < walked < length - end:
            kept.append(b)
    kept.append(tail)
    return kept


#: The polyline helpers under their public names, for renderers that place arrows themselves.
polyline_length = _length
point_along = _along
trim_polyline = _trim


# -- arrows -----------------------------------------------------------------------------------


def arrow_svg(arrow: Arrow, kind: ArrowKind, points: Sequence[Point], font: float,
              pen: ArrowPen = ArrowPen()) -> str:
    """One arrow along the pixel polyline ``points`` as an SVG group: a white casing, the shaft
    in the kind's width and dashes, its head, its bar, and a cross when it failed."""
    unit = max(pen.min_unit, font / 10)
    width = kind.width * unit
    dash = (f' stroke-dasharray="{" ".join(_f(d * unit) for d in kind.dash)}"'
            if kind.dash else "")
    ok = "none" if arrow.ok is None else str(arrow.ok).lower()
    faded = f' opacity="{_FAILED_OPACITY}"' if arrow.ok is False else ""
    parts = [f"<g data-kind={xml_attr(kind.name)} data-src={xml_attr(arrow.src)} "
             f'data-dst={xml_attr(arrow.dst)} data-ok="{ok}">']
    if arrow.title:
        parts.append(f"<title>{xml_text(arrow.title)}</title>")
    colour = arrow.colour
    length = _length(points)
    if length < 1.0:  # nothing to point along: a ring on the spot
        x, y = points[0]
        parts.append(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(font * 0.4)}" fill="none" '
                     f'stroke="{colour}" stroke-width="{_f(width)}"{faded}/></g>')
        return "".join(parts)
    head_len = min(2.2 * width + font * 0.5, length * 0.6) if kind.head == "arrow" else 0.0
    half = head_len * 0.5
    tip, (dx, dy) = _along(points, length)
    shaft = _trim(points, 0.0, head_len * 0.8) if head_len else list(points)
    line = " ".join(_pt(p) for p in shaft)
    parts.append(f"<g{faded}>")
    parts.append(f'<polyline points="{line}" fill="none" stroke="{_HALO}" stroke-opacity="0.6" '
                 f'stroke-width="{_f(width + 2 * unit)}" stroke-linejoin="round"/>')
    parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" '
                 f'stroke-width="{_f(width)}" stroke-linejoin="round"{dash}/>')
    if kind.head == "arrow":
        base = (tip[0] - dx * head_len, tip[1] - dy * head_len)
        head = (tip, (base[0] - dy * half, base[1] + dx * half),
                (base[0] + dy * half, base[1] - dx * half))
        parts.append(f'<polygon points="{" ".join(_pt(p) for p in head)}" fill="{colour}" '
                     f'stroke="{_HALO}" stroke-opacity="0.6" stroke-width="{_f(unit)}" '
                     f'paint-order="stroke"/>')
    elif kind.head == "dot":
        parts.append(f'<circle cx="{_f(tip[0])}" cy="{_f(tip[1])}" r="{_f(width * 1.5)}" '
                     f'fill="{colour}"/>')
    if kind.bar:
        floor = 1.0 if pen.bar_floor else 0.0
        reach = max(half, font * 0.3 * floor) * 1.3
        bar, (bx, by) = _along(points,
                               max(0.0, length - max(head_len, font * 0.5 * floor) * 1.6))
        mark = kind.name if pen.bar_mark is None else pen.bar_mark
        parts.append(f'<line x1="{_f(bar[0] - by * reach)}" y1="{_f(bar[1] + bx * reach)}" '
                     f'x2="{_f(bar[0] + by * reach)}" y2="{_f(bar[1] - bx * reach)}" '
                     f'stroke="{colour}" stroke-width="{_f(2 * width)}" '
                     f"data-mark={xml_attr(mark)}/>")
    parts.append("</g>")
    if arrow.ok is False:
        (mx, my), _ = _along(points, length / 2)
        r = font * 0.4
        cross = (f"M{_f(mx - r)} {_f(my - r)}L{_f(mx + r)} {_f(my + r)}"
                 f"M{_f(mx - r)} {_f(my + r)}L{_f(mx + r)} {_f(my - r)}")
        parts.append(f'<path d="{cross}" fill="none" stroke="{_HALO}" '
                     f'stroke-width="{_f(3.5 * unit)}" stroke-linecap="round" '
                     f'data-mark="failed"/><path d="{cross}" fill="none" stroke="{_INK}" '
                     f'stroke-width="{_f(1.6 * unit)}" stroke-linecap="round"/>')
    parts.append("</g>")
    return "".join(parts)


def arrows_svg(scene: Scene, anchor: Anchor, font: float, clear: float, *,
               trim: Trim | None = None, pen: ArrowPen = ArrowPen(), attrs: str = "") -> str:
    """The scene's arrows as one SVG group; each shaft leaves ``clear`` pixels free around the
    centres it joins. Two arrows between the same places in opposite directions are drawn side
    by side; an arrow ``onto`` another order ends on the middle of that order's arrow.

    A renderer that knows better where a shaft should start and end (around a place's label
    and tokens) passes ``trim``, which then replaces ``clear``; ``pen`` sizes the arrows;
    ``attrs`` are extra attributes of the group (written before its ``data-layer``)."""
    if not scene.arrows:
        return ""
    if trim is None:
        def trim(path: Sequence[Point], src: Hashable, dst: Hashable | None) -> list[Point]:
            return _trim(path, clear, clear if dst is not None else font * 0.15)

    arrows = scene.arrows
    pairs = {(a.src, a.dst) for a in arrows if a.onto is None and not a.via}
    shift = font * 0.45
    drawn: dict[tuple[Hashable, Hashable], list[Point]] = {}
    shafts: list[list[Point]] = []
    for arrow in arrows:
        if arrow.onto is not None:
            shafts.append([])
            continue
        path = [anchor(p) for p in (arrow.src, *arrow.via, arrow.dst)]
        if not arrow.via and (arrow.dst, arrow.src) in pairs and arrow.src != arrow.dst:
            (x0, y0), (x1, y1) = path
            norm = math.dist(path[0], path[1]) or 1.0
            ox, oy = -(y1 - y0) / norm * shift, (x1 - x0) / norm * shift
            path = [(x0 + ox, y0 + oy), (x1 + ox, y1 + oy)]
        shaft = trim(path, arrow.src, arrow.dst)
        shafts.append(shaft)
        drawn.setdefault((arrow.src, arrow.dst), shaft)
    for k, arrow in enumerate(arrows):
        if arrow.onto is not None:
            target = drawn.get(arrow.onto) or [anchor(p) for p in arrow.onto]
            middle, _ = _along(target, _length(target) / 2)
            shafts[k] = trim([anchor(arrow.src), middle], arrow.src, None)
    body = "".join(arrow_svg(a, scene.arrow_kind(a.kind), s, font, pen)
                   for a, s in zip(arrows, shafts))
    return f'<g{attrs} data-layer="arrows">{body}</g>'


# -- marks ------------------------------------------------------------------------------------


def _shape_svg(shape: MarkShape, x: float, y: float, size: float, colour: str) -> str:
    h = size / 2
    style = f'fill="{colour}" stroke="{_INK}" stroke-width="{_f(max(0.5, size / 12))}"'
    if shape == "square":
        return f'<rect x="{_f(x - h)}" y="{_f(y - h)}" width="{_f(size)}" height="{_f(size)}" {style}/>'
    if shape == "triangle":
        tri: tuple[Point, ...] = ((x, y - h), (x + h, y + h * 0.8), (x - h, y + h * 0.8))
        return f'<polygon points="{" ".join(_pt(p) for p in tri)}" {style}/>'
    if shape == "diamond":
        pts = ((x, y - h), (x + h, y), (x, y + h), (x - h, y))
        return f'<polygon points="{" ".join(_pt(p) for p in pts)}" {style}/>'
    return f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(h)}" {style}/>'


def _readable_ink(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (named colours get white)."""
    c = colour.lstrip("#")
    if colour.startswith("#") and len(c) in (3, 4, 6, 8):
        if len(c) in (3, 4):
            c = "".join(ch * 2 for ch in c[:3])
        r, g, b = (int(c[i:i + 2], 16) for i in (0, 2, 4))
        return _INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else _HALO
    return _HALO


def marks_svg(scene: Scene, anchor: Anchor, size: float, dy: float = 0.0) -> str:
    """The scene's marks as one SVG group: the marks of a place side by side, centred
    ``dy`` pixels below its centre; a count above 1 is written on the token."""
    if not scene.marks:
        return ""
    by_place: dict[Hashable, list[Mark]] = {}
    for mark in scene.marks:
        by_place.setdefault(mark.place, []).append(mark)
    gap = size * 0.15
    out = ['<g data-layer="marks">']
    for place, marks in by_place.items():
        cx, cy = anchor(place)
        cy += dy
        x = cx - (len(marks) * size + (len(marks) - 1) * gap) / 2 + size / 2
        for mark in marks:
            out.append(f"<g data-piece={xml_attr(mark.piece)} data-place={xml_attr(place)} "
                       f'data-count="{mark.count}">')
            if mark.title:
                out.append(f"<title>{xml_text(mark.title)}</title>")
            out.append(_shape_svg(scene.mark_shape(mark.piece), x, cy, size, mark.colour))
            text = mark.text + (str(mark.count) if mark.count > 1 else "")
            if text:
                font = size * (0.7 if len(text) == 1 else 0.55 if len(text) == 2
                               else 1.3 / len(text))
                out.append(f'<text x="{_f(x)}" y="{_f(cy)}" font-size="{_f(font)}" '
                           f'text-anchor="middle" dominant-baseline="central" '
                           f'font-weight="bold" '
                           f'fill="{_readable_ink(mark.colour)}">{xml_text(text)}</text>')
            out.append("</g>")
            x += size + gap
    out.append("</g>")
    return "".join(out)


# -- labels, title, legend --------------------------------------------------------------------


def labels_svg(labels: Sequence[Label], anchor: Anchor, font: float,
               dy: Callable[[Hashable], float] = lambda place: 0.0,
               at: Callable[[Label], Point] | None = None) -> str:
    """Labels centred on their places (shifted by ``dy(place)``), or on ``at(label)`` when
    given, with a white halo."""
    if not labels:
        return ""
    out = [f'<g data-layer="labels" font-size="{_f(font)}" text-anchor="middle" '
           f'font-family="{FONT_FAMILY}" stroke="{_HALO}" stroke-width="{_f(font / 5)}" '
           f'paint-order="stroke" stroke-linejoin="round">']
    for label in labels:
        lines = label.text.split("\n")
        if at is not None:
            x, y = at(label)
        else:
            x, y = anchor(label.place)
            y += dy(label.place)
        y -= (len(lines) - 1) * font * 0.6
        title = f"<title>{xml_text(label.title)}</title>" if label.title else ""
        spans = "".join(
            f'<tspan x="{_f(x)}" dy="{_f(0 if i == 0 else font * 1.2)}">{xml_text(t)}</tspan>'
            for i, t in enumerate(lines))
        out.append(f'<text x="{_f(x)}" y="{_f(y)}" dominant-baseline="central" '
                   f'fill="{label.colour}">{title}{spans}</text>')
    out.append("</g>")
    return "".join(out)


#: The font the drawings ask for, first the one :func:`text_width` is made for.
FONT_FAMILY = "DejaVu Sans, Verdana, Arial, sans-serif"

_NARROW = set("iljtfrI.,:;'|!()[] ")
_WIDE = set("mwMWOQDGHNUC@%&")


def text_width(text: str, font: float) -> float:
    """A width in pixels that ``text`` set in ``font`` pixels does not exceed (one line)."""
    units = 0.0
    for ch in text:
        if ch in _NARROW:
            units += 0.40
        elif ch in _WIDE:
            units += 1.0
        elif ch.isupper() or ch.isdigit():
            units += 0.78
        else:
            units += 0.66
    return units * font


def title_svg(title: str, x: float, y: float, font: float) -> str:
    """The drawing's title, centred on ``x`` with its baseline at ``y``."""
    if not title:
        return ""
    return (f'<text x="{_f(x)}" y="{_f(y)}" font-size="{_f(font)}" font-family="{FONT_FAMILY}" '
            f'font-weight="bold" text-anchor="middle" fill="{_INK}" '
            f'data-layer="title">{xml_text(title)}</text>')


def _legend_cells(entries: Sequence[LegendEntry], font: float,
                  width: float | None) -> list[tuple[float, float]]:
    """Where each legend entry starts, relative to the legend's corner: side by side, a new
    row where the next entry would pass ``width`` (one entry a row without a width)."""
    cells: list[tuple[float, float]] = []
    x = y = 0.0
    for entry in entries:
        w = font * 1.4 + text_width(entry.label, font) + font * 1.2
        if width is None or (x > 0 and x + w > width):
            if cells:
                x, y = 0.0, y + font * 1.4
        cells.append((x, y))
        x += w
    return cells


def legend_svg(entries: Sequence[LegendEntry], x: float, y: float, font: float,
               width: float | None = None) -> str:
    """The legend from ``(x, y)``: a swatch and label per entry, side by side in rows no wider
    than ``width`` (one a line without it)."""
    if not entries:
        return ""
    out = [f'<g data-layer="legend" font-size="{_f(font)}" font-family="{FONT_FAMILY}">']
    for entry, (dx, dy) in zip(entries, _legend_cells(entries, font, width)):
        left, top = x + dx, y + dy
        swatch = (_shape_svg(entry.shape, left + font / 2, top + font / 2, font, entry.colour)
                  if entry.shape else
                  f'<rect x="{_f(left)}" y="{_f(top)}" width="{_f(font)}" '
                  f'height="{_f(font)}" fill="{entry.colour}" stroke="{_INK}" '
                  f'stroke-width="{_f(font / 16)}"/>')
        out.append(swatch +
                   f'<text x="{_f(left + font * 1.4)}" y="{_f(top + font * 0.5)}" '
                   f'dominant-baseline="central" fill="{_INK}">{xml_text(entry.label)}</text>')
    out.append("</g>")
    return "".join(out)


def legend_height(entries: Sequence[LegendEntry], font: float,
                  width: float | None = None) -> float:
    """The height :func:`legend_svg` takes."""
    if not entries:
        return 0.0
    return _legend_cells(entries, font, width)[-1][1] + font * 1.4


def _beside_width(entries: Sequence[LegendEntry], font: float, height: float) -> float:
    """The narrowest legend column (a whole number of entries wide) no taller than
    ``height``; as wide as every entry side by side at most."""
    widths = [font * 1.4 + text_width(e.label, font) + font * 1.2 for e in entries]
    width = max(widths)
    while legend_height(entries, font, width) > height and width < sum(widths):
        width += max(widths)
    return width


def framed_svg(body: Sequence[str], bounds: tuple[float, float, float, float], scene: Scene, *,
               px: float, aria: str, title_px: float = 18.0, legend_px: float = 13.0) -> str:
    """A whole SVG document: ``body`` (drawn in map units over ``bounds``, ``x0, y0, x1,
    y1``), the scene's title above it and its legend below it, both outside the drawing and
    set in ``title_px`` and ``legend_px`` pixels whatever the map's scale (``px`` pixels a
    unit); the picture is widened to hold a title longer than the map is wide, and the legend
    flows in rows as wide as the picture, or, where that would be taller than the map (many
    players on a small map), in a column beside it, as narrow as keeps it no taller."""
    minx, miny, maxx, maxy = bounds
    title_font, legend_font = title_px / px, legend_px / px
    pad = legend_font
    wide = text_width(scene.title, title_font) + 2 * pad if scene.title else 0.0
    if wide > maxx - minx:
        grow = (wide - (maxx - minx)) / 2
        minx, maxx = minx - grow, maxx + grow
    head = title_font * 1.8 if scene.title else 0.0
    flow = maxx - minx - 2 * pad
    under = legend_height(scene.legend, legend_font, flow) if scene.legend else 0.0
    beside = _beside_width(scene.legend, legend_font, maxy - miny) \
        if under > maxy - miny else None
    if beside is None:
        tail = under + legend_font if scene.legend else 0.0
        legend = legend_svg(scene.legend, minx + pad, maxy + legend_font * 0.5, legend_font,
                            flow)
    else:
        legend = legend_svg(scene.legend, maxx + pad, miny, legend_font, beside)
        maxx += beside + 2 * pad
        tail = max(0.0, legend_height(scene.legend, legend_font, beside) - (maxy - miny))
    map_w = maxx - minx
    parts = [title_svg(scene.title, (minx + maxx) / 2, miny - head * 0.4, title_font), legend]
    top, height = miny - head, maxy - miny + head + tail
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{minx:.1f} {top:.1f} '
            f'{map_w:.1f} {height:.1f}" width="{map_w * px:.0f}" height="{height * px:.0f}" '
            f'role="img" aria-label={xml_attr(aria)} font-family="{FONT_FAMILY}">'
            # the picture's own title first, so no piece's tooltip is taken for its caption
            f"<title>{xml_text(aria)}</title>"
            + "".join(body) + "".join(parts) + "</svg>")
