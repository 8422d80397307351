"""Orders drawn as arrows, the same on every board: where each shaft runs, what it keeps clear,
and how it looks.

A renderer places the board's places in pixels and gives an ``anchor`` function (place ->
point). :func:`arrow_shafts` turns the scene's arrows into pixel polylines: from place to place
through ``via``, two arrows between the same places in opposite directions side by side, an
arrow ``onto`` another order ending on the middle of that order's shaft, each cut where it
leaves the places it joins (a ``trim`` function the renderer gives). :func:`shaft_boxes` is
what a drawn arrow covers, as boxes the label placement keeps clear
(:mod:`gmkit.core.drawing.overlay`), so no label or piece is put on an arrow; an arrow's text
(:attr:`~gmkit.core.drawing.scene.Arrow.text`, its player's initial or an amount) is a box
placed like a label near the middle of its shaft and drawn by :func:`arrow_text_svg`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from gmkit.core.drawing.scene import Arrow, ArrowKind, Scene
from gmkit.core.drawing.svg_text import text_width, xml_attr, xml_text

__all__ = [
    "Anchor",
    "ArrowPen",
    "Bounds",
    "Passing",
    "Point",
    "Trim",
    "arrow_shafts",
    "arrow_svg",
    "arrow_text_svg",
    "arrows_svg",
    "casing",
    "cross_svg",
    "cut_at_boxes",
    "point_along",
    "polyline_length",
    "shaft_boxes",
    "text_size",
    "trim_polyline",
]

Point = tuple[float, float]
Anchor = Callable[[Hashable], Point]
#: A box as ``x0, y0, x1, y1``.
Bounds = tuple[float, float, float, float]
#: Where a shaft starts and ends: ``(path, src, dst)`` -> the trimmed path (``dst`` is ``None``
#: for an arrow ending on another order's arrow).
Trim = Callable[[Sequence[Point], Hashable, "Hashable | None"], list[Point]]
#: Where a route passes a place, given the points before and after it on the route.
Passing = Callable[[Hashable, Point, Point], Point]

_INK = "#1a1a1a"
_HALO = "#ffffff"
_FAILED_OPACITY = "0.55"


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

    def unit(self, font: float) -> float:
        """The unit of widths and dashes at ``font``."""
        return max(self.min_unit, font / 10)


def _f(v: float) -> str:
    return f"{v:.1f}"


def _pt(p: Point) -> str:
    return f"{p[0]:.1f},{p[1]:.1f}"


# -- polylines --------------------------------------------------------------------------------


def polyline_length(points: Sequence[Point]) -> float:
    """The length of a polyline."""
    return sum(math.dist(a, b) for a, b in itertools.pairwise(points))


def point_along(points: Sequence[Point], distance: float) -> tuple[Point, Point]:
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


def trim_polyline(points: Sequence[Point], start: float, end: float) -> list[Point]:
    """The polyline without its first ``start`` and last ``end`` pixels (both cuts shrink so
    that at least half of the line is left)."""
    length = polyline_length(points)
    if length <= 1e-9:
        return list(points[:1])
    if start + end > length / 2:
        shrink = length / 2 / (start + end)
        start, end = start * shrink, end * shrink
    head, _ = point_along(points, start)
    tail, _ = point_along(points, length - end)
    kept = [head]
    walked = 0.0
    for a, b in itertools.pairwise(points):
        walked += math.dist(a, b)
        if start < walked < length - end:
            kept.append(b)
    kept.append(tail)
    return kept


def _inside(p: Point, box: Bounds) -> bool:
    return box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3]


def _leave(points: Sequence[Point], boxes: Sequence[Bounds]) -> float:
    """How far along ``points`` the line first stands outside every box of ``boxes`` (0 when
    it starts outside them all), searched in steps of a tenth of a pixel's worth."""
    length = polyline_length(points)
    if not boxes or length <= 1e-9:
        return 0.0
    step = max(0.25, length / 2000)
    d = 0.0
    while d < length:
        p, _ = point_along(points, d)
        if not any(_inside(p, b) for b in boxes):
            return d
        d += step
    return length


def cut_at_boxes(points: Sequence[Point], start: Sequence[Bounds], end: Sequence[Bounds], *,
                 gap: float = 0.0, least: float = 0.0) -> list[Point]:
    """The polyline from where it leaves the ``start`` boxes to where it enters the ``end``
    boxes, ``gap`` pixels clear of each; at least ``least`` pixels of it are kept (a shaft
    between two crowded places still shows)."""
    length = polyline_length(points)
    if length <= 1e-9:
        return list(points[:1])
    a = _leave(points, start) + (gap if start else 0.0)
    b = _leave(list(reversed(points)), end) + (gap if end else 0.0)
    if length - a - b < least:
        spare = max(0.0, length - least)
        total = a + b
        a, b = (spare * a / total, spare * b / total) if total > 0 else (0.0, 0.0)
    head, _ = point_along(points, a)
    tail, _ = point_along(points, length - b)
    kept = [head]
    walked = 0.0
    for p, q in itertools.pairwise(points):
        walked += math.dist(p, q)
        if a < walked < length - b:
            kept.append(q)
    kept.append(tail)
    return kept


# -- where the shafts run ---------------------------------------------------------------------


def arrow_shafts(scene: Scene, anchor: Anchor, font: float, trim: Trim, *,
                 passing: Passing | None = None) -> list[list[Point]]:
    """Each of the scene's arrows as a pixel polyline, in the scene's order: from its places'
    anchors (for the places it passes, ``passing`` when the renderer chooses a point there
    from the route's points before and after it), cut by ``trim``; two arrows between the
    same places in opposite directions are drawn side by side; an arrow ``onto`` another order
    ends on the middle of that order's shaft (or of the line between its two places when no
    such arrow is drawn)."""
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
        if passing is not None:
            for i, p in enumerate(arrow.via, 1):
                path[i] = passing(p, path[i - 1], path[i + 1])
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
            middle, _ = point_along(target, polyline_length(target) / 2)
            shafts[k] = trim([anchor(arrow.src), middle], arrow.src, None)
    return shafts


def _sizes(kind: ArrowKind, length: float, font: float, pen: ArrowPen) -> tuple[float, float]:
    """The shaft's width and the head's length of an arrow of ``kind`` ``length`` long."""
    width = kind.width * pen.unit(font)
    head = min(2.2 * width + font * 0.5, length * 0.6) if kind.head == "arrow" else 0.0
    return width, head


def _head(points: Sequence[Point], head_len: float) -> tuple[Point, Point, Point]:
    """The tip and the two back corners of an arrow's head."""
    length = polyline_length(points)
    tip, (dx, dy) = point_along(points, length)
    half = head_len * 0.5
    base = (tip[0] - dx * head_len, tip[1] - dy * head_len)
    return (tip, (base[0] - dy * half, base[1] + dx * half),
            (base[0] + dy * half, base[1] - dx * half))


def _sampled(line: Sequence[Point], r: float) -> list[Bounds]:
    """Boxes ``r`` pixels each side, every ``r`` pixels along ``line``: together they cover
    every point of it with no gap."""
    length = polyline_length(line)
    steps = max(1, math.ceil(length / max(r, 1e-6)))
    out = []
    for i in range(steps + 1):
        (x, y), _ = point_along(line, length * i / steps)
        out.append((x - r, y - r, x + r, y + r))
    return out


def shaft_boxes(arrow: Arrow, kind: ArrowKind, shaft: Sequence[Point], font: float,
                pen: ArrowPen = ArrowPen(), gap: float = 1.0,
                exclude: Sequence[Bounds] = ()) -> list[Bounds]:
    """What a drawn arrow covers (its casing, the outline of its head, its dot or bar, its
    cross when it failed), as small boxes along each line, so that no box placed clear of them
    all touches the arrow; boxes touching ``exclude`` (the places the arrow joins, which it
    may have to cross where they crowd it) are left out."""
    out = _covered(arrow, kind, shaft, font, pen, gap)
    if exclude:
        out = [b for b in out if not any(b[0] < e[2] and e[0] < b[2] and b[1] < e[3]
                                          and e[1] < b[3] for e in exclude)]
    return out


def casing(kind: ArrowKind, font: float, pen: ArrowPen = ArrowPen(), gap: float = 1.0
           ) -> float:
    """How far an arrow's covered boxes reach either side of its shaft (see
    :func:`shaft_boxes`): where a shaft must stop to leave a box beside it untouched."""
    return kind.width * pen.unit(font) / 2 + pen.unit(font) + gap / 2


def _covered(arrow: Arrow, kind: ArrowKind, shaft: Sequence[Point], font: float,
             pen: ArrowPen, gap: float) -> list[Bounds]:
    if not shaft:
        return []
    length = polyline_length(shaft)
    unit = pen.unit(font)
    width, head = _sizes(kind, length, font, pen)
    r = width / 2 + unit + gap / 2
    out = _sampled(shaft, r)
    if length < 1.0 or arrow.ok is False:
        (x, y), _ = point_along(shaft, length / 2)
        c = font * 0.4 + unit * 1.8 + gap / 2
        out.append((x - c, y - c, x + c, y + c))
    if length < 1.0:
        return out
    if kind.head == "arrow":
        tip, left, right = _head(shaft, head)
        out += _sampled([tip, left, right, tip], unit + gap / 2)
    elif kind.head == "dot":
        (x, y), _ = point_along(shaft, length)
        c = width * 1.5 + gap / 2
        out.append((x - c, y - c, x + c, y + c))
    if kind.bar:
        floor = 1.0 if pen.bar_floor else 0.0
        reach = max(head * 0.5, font * 0.3 * floor) * 1.3
        (x, y), _ = point_along(shaft, max(0.0, length - max(head, font * 0.5 * floor) * 1.6))
        c = reach + width + gap / 2
        out.append((x - c, y - c, x + c, y + c))
    return out


# -- how an arrow looks -----------------------------------------------------------------------


def _orders_attr(orders: Sequence[str]) -> str:
    return f" data-orders={xml_attr(' '.join(orders))}" if orders else ""


def arrow_svg(arrow: Arrow, kind: ArrowKind, points: Sequence[Point], font: float,
              pen: ArrowPen = ArrowPen(), *, swatch: bool = False) -> str:
    """One arrow along the pixel polyline ``points`` as an SVG group: a white casing, the shaft
    in the kind's width and dashes, its head, its bar, and a cross when it failed. A legend's
    ``swatch`` says only its kind (it draws no order)."""
    unit = pen.unit(font)
    width = kind.width * unit
    dash = (f' stroke-dasharray="{" ".join(_f(d * unit) for d in kind.dash)}"'
            if kind.dash else "")
    ok = "none" if arrow.ok is None else str(arrow.ok).lower()
    faded = f' opacity="{_FAILED_OPACITY}"' if arrow.ok is False else ""
    parts = [f"<g data-swatch={xml_attr(kind.name)}>" if swatch else
             f"<g data-kind={xml_attr(kind.name)} data-src={xml_attr(arrow.src)} "
             f'data-dst={xml_attr(arrow.dst)} data-ok="{ok}"{_orders_attr(arrow.orders)}>']
    if arrow.title:
        parts.append(f"<title>{xml_text(arrow.title)}</title>")
    colour = arrow.colour
    length = polyline_length(points)
    if length < 1.0:  # nothing to point along: a ring on the spot
        x, y = points[0]
        parts.append(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(font * 0.4)}" fill="none" '
                     f'stroke="{colour}" stroke-width="{_f(width)}"{faded}/></g>')
        return "".join(parts)
    _, head_len = _sizes(kind, length, font, pen)
    half = head_len * 0.5
    tip, (dx, dy) = point_along(points, length)
    shaft = trim_polyline(points, 0.0, head_len * 0.8) if head_len else list(points)
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
        bar, (bx, by) = point_along(points,
                                    max(0.0, length - max(head_len, font * 0.5 * floor) * 1.6))
        mark = kind.name if pen.bar_mark is None else pen.bar_mark
        parts.append(f'<line x1="{_f(bar[0] - by * reach)}" y1="{_f(bar[1] + bx * reach)}" '
                     f'x2="{_f(bar[0] + by * reach)}" y2="{_f(bar[1] - bx * reach)}" '
                     f'stroke="{colour}" stroke-width="{_f(2 * width)}" '
                     f"data-mark={xml_attr(mark)}/>")
    parts.append("</g>")
    if arrow.ok is False:
        (mx, my), _ = point_along(points, length / 2)
        parts.append(cross_svg(mx, my, font * 0.4, unit))
    parts.append("</g>")
    return "".join(parts)


def cross_svg(x: float, y: float, r: float, unit: float) -> str:
    """The cross over a failed order: dark, on a white casing."""
    cross = (f"M{_f(x - r)} {_f(y - r)}L{_f(x + r)} {_f(y + r)}"
             f"M{_f(x - r)} {_f(y + r)}L{_f(x + r)} {_f(y - r)}")
    return (f'<path d="{cross}" fill="none" stroke="{_HALO}" '
            f'stroke-width="{_f(3.5 * unit)}" stroke-linecap="round" '
            f'data-mark="failed"/><path d="{cross}" fill="none" stroke="{_INK}" '
            f'stroke-width="{_f(1.6 * unit)}" stroke-linecap="round"/>')


def arrows_svg(scene: Scene, anchor: Anchor, font: float, clear: float, *,
               trim: Trim | None = None, pen: ArrowPen = ArrowPen(), attrs: str = "",
               shafts: Sequence[Sequence[Point]] | None = None) -> str:
    """The scene's arrows as one SVG group; each shaft leaves ``clear`` pixels free around the
    centres it joins (see :func:`arrow_shafts`).

    A renderer that knows better where a shaft should start and end (around a place's label
    and tokens) passes ``trim``, which then replaces ``clear``, or the ``shafts`` it worked out
    already; ``pen`` sizes the arrows; ``attrs`` are extra attributes of the group (written
    before its ``data-layer``)."""
    if not scene.arrows:
        return ""
    if shafts is None:
        if trim is None:
            def trim(path: Sequence[Point], src: Hashable, dst: Hashable | None) -> list[Point]:
                return trim_polyline(path, clear, clear if dst is not None else font * 0.15)

        shafts = arrow_shafts(scene, anchor, font, trim)
    body = "".join(arrow_svg(a, scene.arrow_kind(a.kind), s, font, pen)
                   for a, s in zip(scene.arrows, shafts))
    return f'<g{attrs} data-layer="arrows">{body}</g>'


# -- an arrow's text --------------------------------------------------------------------------


def text_size(text: str, font: float) -> tuple[float, float]:
    """The box an arrow's text takes (its frame included)."""
    return text_width(text, font) + font * 0.6, font * 1.35


def arrow_text_svg(arrow: Arrow, index: int, centre: Point, font: float) -> str:
    """An arrow's text in a small white frame of its colour, centred on ``centre``."""
    w, h = text_size(arrow.text, font)
    x, y = centre
    return (f'<g data-arrow="{index}"{_orders_attr(arrow.orders)}>'
            f'<rect x="{_f(x - w / 2)}" y="{_f(y - h / 2)}" width="{_f(w)}" height="{_f(h)}" '
            f'rx="{_f(font * 0.3)}" fill="{_HALO}" stroke="{arrow.colour}" '
            f'stroke-width="{_f(max(0.5, font / 9))}"/>'
            f'<text x="{_f(x)}" y="{_f(y)}" font-size="{_f(font)}" text-anchor="middle" '
            f'dominant-baseline="central" font-weight="bold" fill="{_INK}">'
            f"{xml_text(arrow.text)}</text></g>")
