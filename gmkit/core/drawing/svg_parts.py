"""SVG pieces shared by the board renderers: marks, labels, title, legend and the frame.

A renderer places the board's places in pixels and hands this module an ``anchor`` function
(place -> centre point) with the scene; everything drawn on top of the board is the same
whatever the board's kind (arrows: :mod:`gmkit.core.drawing.arrows`). All text and attribute
values go through :func:`~gmkit.core.drawing.svg_text.xml_text` and
:func:`~gmkit.core.drawing.svg_text.xml_attr`; colours were checked when the scene was made.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence

from gmkit.core.drawing.arrows import (Anchor, ArrowPen, Point, arrow_svg, cross_svg)
from gmkit.core.drawing.scene import Arrow, ArrowKind, Label, LegendEntry, Mark, MarkShape, Scene
from gmkit.core.drawing.svg_text import FONT_FAMILY, text_width, xml_attr, xml_text

__all__ = [
    "Anchor",
    "FONT_FAMILY",
    "Point",
    "framed_svg",
    "labels_svg",
    "legend_height",
    "legend_svg",
    "mark_row_width",
    "mark_svg",
    "marks_svg",
    "shape_svg",
    "text_width",
    "title_svg",
    "xml_attr",
    "xml_text",
]

_INK = "#1a1a1a"
_HALO = "#ffffff"
_FAILED_OPACITY = "0.55"


def _f(v: float) -> str:
    return f"{v:.1f}"


def _pt(p: Point) -> str:
    return f"{p[0]:.1f},{p[1]:.1f}"


# -- marks ------------------------------------------------------------------------------------


def _star(x: float, y: float, h: float) -> tuple[Point, ...]:
    out = []
    for k in range(10):
        r = h if k % 2 == 0 else h * 0.45
        angle = math.pi * k / 5 - math.pi / 2
        out.append((x + r * math.cos(angle), y + r * math.sin(angle)))
    return tuple(out)


def shape_svg(shape: MarkShape, x: float, y: float, size: float, colour: str) -> str:
    """A piece's shape ``size`` pixels across, centred on ``(x, y)``, in ``colour`` with a
    dark edge (a ring: a thick circle of ``colour`` on white)."""
    h = size / 2
    style = f'fill="{colour}" stroke="{_INK}" stroke-width="{_f(max(0.5, size / 12))}"'
    if shape == "square":
        return f'<rect x="{_f(x - h)}" y="{_f(y - h)}" width="{_f(size)}" height="{_f(size)}" {style}/>'
    if shape == "ring":
        return (f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(h * 0.84)}" fill="{_HALO}" '
                f'stroke="{colour}" stroke-width="{_f(size * 0.16)}"/>'
                f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(h)}" fill="none" stroke="{_INK}" '
                f'stroke-width="{_f(max(0.4, size / 16))}"/>')
    points: tuple[Point, ...] = ()
    if shape == "triangle":
        points = ((x, y - h), (x + h, y + h * 0.8), (x - h, y + h * 0.8))
    elif shape == "diamond":
        points = ((x, y - h), (x + h, y), (x, y + h), (x - h, y))
    elif shape == "star":
        points = _star(x, y, h * 1.1)
    elif shape == "hexagon":
        points = tuple((x + h * math.cos(math.pi / 3 * k), y + h * math.sin(math.pi / 3 * k))
                       for k in range(6))
    if points:
        return f'<polygon points="{" ".join(_pt(p) for p in points)}" {style}/>'
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


def _note_font(size: float) -> float:
    return size * 0.85


def _mark_width(mark: Mark, size: float) -> float:
    """A mark's width in a row: its token, and its note beside it."""
    if not mark.note:
        return size
    return size + size * 0.2 + text_width(mark.note, _note_font(size))


def mark_row_width(marks: Sequence[Mark], size: float) -> float:
    """The width of marks drawn side by side (tokens ``size`` across, notes beside them)."""
    if not marks:
        return 0.0
    return sum(_mark_width(m, size) for m in marks) + size * 0.15 * (len(marks) - 1)


def _orders_attr(orders: Sequence[str]) -> str:
    return f" data-orders={xml_attr(' '.join(orders))}" if orders else ""


def mark_svg(mark: Mark, shape: MarkShape, x: float, y: float, size: float,
             attrs: str = "") -> str:
    """One mark as an SVG group: its token centred on ``(x, y)`` with its text (and its count
    above 1) on it, its note beside it, faded and crossed out when its order failed."""
    ok = "" if mark.ok is None else f' data-ok="{str(mark.ok).lower()}"'
    out = [f"<g data-piece={xml_attr(mark.piece)} data-place={xml_attr(mark.place)} "
           f'data-count="{mark.count}"{ok}{_orders_attr(mark.orders)}{attrs}>']
    if mark.title:
        out.append(f"<title>{xml_text(mark.title)}</title>")
    if mark.ok is False:
        out.append(f'<g opacity="{_FAILED_OPACITY}">')
    out.append(shape_svg(shape, x, y, size, mark.colour))
    text = mark.text + (str(mark.count) if mark.count > 1 else "")
    if text:
        font = size * (0.7 if len(text) == 1 else 0.55 if len(text) == 2 else 1.3 / len(text))
        ink = _INK if shape == "ring" else _readable_ink(mark.colour)
        out.append(f'<text x="{_f(x)}" y="{_f(y)}" font-size="{_f(font)}" '
                   f'text-anchor="middle" dominant-baseline="central" font-weight="bold" '
                   f'fill="{ink}">{xml_text(text)}</text>')
    if mark.note:
        font = _note_font(size)
        left = x + size / 2 + size * 0.2
        width = text_width(mark.note, font)
        # the note's box, drawn empty, is part of the piece a label must keep clear of
        out.append(f'<rect x="{_f(left)}" y="{_f(y - font * 0.6)}" width="{_f(width)}" '
                   f'height="{_f(font * 1.2)}" fill="none" stroke="none" data-note="1"/>'
                   f'<text x="{_f(left)}" y="{_f(y)}" font-size="{_f(font)}" '
                   f'dominant-baseline="central" font-weight="bold" fill="{_INK}" '
                   f'stroke="{_HALO}" stroke-width="{_f(font / 5)}" paint-order="stroke" '
                   f'font-family="{FONT_FAMILY}">{xml_text(mark.note)}</text>')
    if mark.ok is False:
        out.append("</g>")
        out.append(cross_svg(x, y, size * 0.45, max(0.3, size / 14)))
    out.append("</g>")
    return "".join(out)


def marks_svg(scene: Scene, anchor: Anchor, size: float, dy: float = 0.0) -> str:
    """The scene's marks as one SVG group: the marks of a place side by side, centred
    ``dy`` pixels below its centre; a count above 1 is written on the token, a note beside
    it."""
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
        left = cx - mark_row_width(marks, size) / 2
        for mark in marks:
            out.append(mark_svg(mark, scene.mark_shape(mark.piece), left + size / 2, cy, size))
            left += _mark_width(mark, size) + gap
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


def title_svg(title: str, x: float, y: float, font: float) -> str:
    """The drawing's title, centred on ``x`` with its baseline at ``y``."""
    if not title:
        return ""
    return (f'<text x="{_f(x)}" y="{_f(y)}" font-size="{_f(font)}" font-family="{FONT_FAMILY}" '
            f'font-weight="bold" text-anchor="middle" fill="{_INK}" '
            f'data-layer="title">{xml_text(title)}</text>')


def _swatch(entry: LegendEntry, font: float) -> float:
    """The width of an entry's swatch and the space after it (an arrow's swatch is longer)."""
    return font * (2.8 if entry.arrow is not None else 1.4)


def _entry_width(entry: LegendEntry, font: float) -> float:
    return _swatch(entry, font) + text_width(entry.label, font) + font * 1.2


def _legend_cells(entries: Sequence[LegendEntry], font: float,
                  width: float | None) -> list[tuple[float, float]]:
    """Where each legend entry starts, relative to the legend's corner: side by side, a new
    row where the next entry would pass ``width`` (one entry a row without a width)."""
    cells: list[tuple[float, float]] = []
    x = y = 0.0
    for entry in entries:
        w = _entry_width(entry, font)
        if width is None or (x > 0 and x + w > width):
            if cells:
                x, y = 0.0, y + font * 1.4
        cells.append((x, y))
        x += w
    return cells


def _legend_arrow(entry: LegendEntry, kinds: Sequence[ArrowKind], left: float, top: float,
                  font: float) -> str:
    """A short arrow of the entry's kind, as the legend's swatch."""
    kind = next((k for k in kinds if k.name == entry.arrow), ArrowKind(str(entry.arrow)))
    arrow = Arrow("legend", "legend", entry.colour, kind.name)
    y = top + font / 2
    line = [(left, y), (left + font * 2.2, y)]
    return arrow_svg(arrow, kind, line, font, ArrowPen(min_unit=font / 12), swatch=True)


def legend_svg(entries: Sequence[LegendEntry], x: float, y: float, font: float,
               width: float | None = None, kinds: Sequence[ArrowKind] = ()) -> str:
    """The legend from ``(x, y)``: a swatch and label per entry, side by side in rows no wider
    than ``width`` (one a line without it); an entry of an arrow kind shows a short arrow of
    that kind (looked up in ``kinds``)."""
    if not entries:
        return ""
    out = [f'<g data-layer="legend" font-size="{_f(font)}" font-family="{FONT_FAMILY}">']
    for entry, (dx, dy) in zip(entries, _legend_cells(entries, font, width)):
        left, top = x + dx, y + dy
        if entry.arrow is not None:
            swatch = _legend_arrow(entry, kinds, left, top, font)
        elif entry.shape:
            swatch = shape_svg(entry.shape, left + font / 2, top + font / 2, font, entry.colour)
        else:
            swatch = (f'<rect x="{_f(left)}" y="{_f(top)}" width="{_f(font)}" '
                      f'height="{_f(font)}" fill="{entry.colour}" stroke="{_INK}" '
                      f'stroke-width="{_f(font / 16)}"/>')
        out.append(swatch +
                   f'<text x="{_f(left + _swatch(entry, font))}" y="{_f(top + font * 0.5)}" '
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
    widths = [_entry_width(e, font) for e in entries]
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
                            flow, scene.arrow_kinds)
    else:
        legend = legend_svg(scene.legend, maxx + pad, miny, legend_font, beside,
                            scene.arrow_kinds)
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
