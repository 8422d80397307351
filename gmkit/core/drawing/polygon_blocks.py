"""What a polygon map draws over its regions: each region's label and pieces as one block, the
arrows between them, and the arrows' texts, placed so that none lies on another.

A block holds a region's label lines, then a row per stack of army tokens (one to three tokens
side by side, or one wide token showing the number for more), then one row of order marks (the
marks of kinds the scene declares: a shape, the player's initial on it and a note beside it,
such as a defence's grain). Arrows join the blocks' first rows (or their label points), starting
and ending where they leave their blocks, so labels stay readable and tokens and arrowheads
stay visible; a route through a region (a sea crossed) passes where the map says. The blocks are then placed
clear of what the arrows cover (:func:`gmkit.core.drawing.arrows.shaft_boxes`), the smallest
regions first, each at its label point when it can (:mod:`gmkit.core.drawing.placement`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from gmkit.core.drawing.arrows import (
    ArrowPen,
    Bounds,
    Passing,
    Point,
    arrow_shafts,
    arrow_text_svg,
    arrows_svg,
    casing,
    point_along,
    polyline_length,
    shaft_boxes,
    trim_polyline,
)
from gmkit.core.drawing.overlay import place_arrow_texts
from gmkit.core.drawing.placement import Box, Placed, leader_svg, place_boxes
from gmkit.core.drawing.scene import Label, Mark, Scene
from gmkit.core.drawing.svg_parts import mark_row_width, mark_svg
from gmkit.core.drawing.svg_text import text_width, xml_attr, xml_text

__all__ = ["PEN", "blocks_svg"]

_INK = "#1a1a1a"
_TOKEN_STROKE = "#1a1a1a"
#: Arrows on polygon maps: at least a pixel per unit, and the bar of a kind drawn close to the
#: head and marked with the kind's name.
PEN = ArrowPen(min_unit=1.0, bar_floor=False, bar_mark=None)


def _token_size(font: int) -> tuple[float, float]:
    """The side of one army token and the gap between tokens, in pixels."""
    size = font * 0.8
    return size, max(1.0, size * 0.15)


def _order_size(font: int) -> float:
    """The side of an order mark's token: a little larger than an army's, so the initial and
    the note beside it read."""
    return font * 1.0


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


def _exit(origin: Point, direction: Point, box: Bounds) -> float:
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
    """What is drawn for one place: its label's lines, its stacks and its row of order
    marks, as one box placed on the map."""

    place: Hashable
    lines: list[str]
    label: Label | None
    stacks: list[Mark]
    orders: list[Mark]
    box: Box
    placed: Placed | None = None

    def top(self, placed: bool = True) -> float:
        """The top of the block: where it was placed, or where it wants to be."""
        y = self.placed.centre[1] if placed and self.placed is not None else self.box.anchor[1]
        return y - self.box.height / 2

    def first_row(self, font: int, placed: bool = True) -> Point | None:
        """The centre of its first row of pieces (None for a block of a label alone)."""
        if not (self.stacks or self.orders):
            return None
        size = _token_size(font)[0] if self.stacks else _order_size(font)
        x = self.placed.centre[0] if placed and self.placed is not None else self.box.anchor[0]
        return x, self.top(placed) + 1 + len(self.lines) * font * 1.15 + size / 2


def _blocks(scene: Scene, points: Mapping[str, Point], font: int) -> list[_Block]:
    """The label and pieces of every place, each as a box wanted on the place's label point:
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
        here = marks.get(place, [])
        orders = [m for m in here if scene.declared_shape(m.piece) is not None]
        stacks = [m for m in here if scene.declared_shape(m.piece) is None]
        width = max([text_width(line, font) for line in lines]
                    + [_stack_width(m.count, font) for m in stacks]
                    + [mark_row_width(orders, _order_size(font))])
        height = (len(lines) * line_height + len(stacks) * (size + 2)
                  + (_order_size(font) + 2 if orders else 0))
        out.append(_Block(place, lines, given, stacks, orders,
                          Box(points[str(place)], width + 2, height + 2)))
    return out


def _label_svg(block: _Block, sea: bool, font: int) -> str:
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


def _pieces_svg(scene: Scene, block: _Block, font: int) -> list[str]:
    """A placed block's stacks, a row each, then its row of order marks."""
    size, gap = _token_size(font)
    assert block.placed is not None
    x = block.placed.centre[0]
    y = block.top() + 1 + len(block.lines) * font * 1.15
    out = []
    for mark in block.stacks:
        out.append(_stack_svg(mark, x, y, font))
        y += size + 2
    if block.orders:
        side = _order_size(font)
        left = x - mark_row_width(block.orders, side) / 2
        for mark in block.orders:
            shape = scene.declared_shape(mark.piece) or "circle"
            out.append(mark_svg(mark, shape, left + side / 2, y + side / 2, side))
            left += mark_row_width([mark], side) + side * 0.15
    return out


def blocks_svg(scene: Scene, points: Mapping[str, Point], area: Mapping[str, float],
               sea: Mapping[str, bool], font: int, size: Bounds, top: int,
               passing: Passing | None = None) -> str:
    """Everything drawn over a polygon map's regions, as SVG groups shifted ``top`` pixels
    down: the arrows, then the labels (in the halo the map's labels share), then the stacks
    and order marks, then the arrows' texts.

    ``points``: each region's label point; ``area``: each region's area, the smallest placed
    first (a large region has room for its label elsewhere in it); ``sea``: whether a region
    is a sea (its name in italics); ``size``: the map's pixel box, nothing leaves it;
    ``passing``: where a route crosses a region it passes (see
    :func:`gmkit.core.drawing.arrows.arrow_shafts`)."""
    blocks = sorted(_blocks(scene, points, font), key=lambda b: area[str(b.place)])
    by_place = {b.place: b for b in blocks}
    spacing = 1.0
    wanted = {b.place: (b.box.anchor[0] - b.box.width / 2, b.box.anchor[1] - b.box.height / 2,
                        b.box.anchor[0] + b.box.width / 2, b.box.anchor[1] + b.box.height / 2)
              for b in blocks}

    def anchor(name: Hashable) -> Point:
        block = by_place.get(name)
        if block is None:
            return points[str(name)]
        return block.first_row(font, placed=False) or block.box.anchor

    clearance = max((casing(k, font, PEN, spacing) for k in scene.arrow_kinds),
                    default=0.0) + spacing

    def gap(name: Hashable, direction: Point, end: bool) -> float:
        box = wanted.get(name)
        if box is None:
            return font * (0.9 if end else 0.6)
        if end:
            direction = (-direction[0], -direction[1])
        return _exit(anchor(name), direction, box) + clearance

    def trimmed(path: Sequence[Point], src: Hashable, dst: Hashable | None) -> list[Point]:
        length = polyline_length(path)
        if length <= 1e-9:
            return list(path[:1])
        _, first = point_along(path, 0.0)
        _, last = point_along(path, length)
        end = gap(dst, last, True) if dst is not None else font * 0.15
        return trim_polyline(path, gap(src, first, False), end)

    shafts = arrow_shafts(scene, anchor, font, trimmed, passing=passing) \
        if scene.arrows else []
    # a shaft squeezed between two near blocks moves them off it: a name is never under one
    obstacles = [shaft_boxes(a, scene.arrow_kind(a.kind), s, font, PEN, spacing)
                 for a, s in zip(scene.arrows, shafts)]
    covered = [b for boxes in obstacles for b in boxes]
    for block, where in zip(blocks, place_boxes([b.box for b in blocks], size,
                                                fixed=covered)):
        block.placed = where
    texts = place_arrow_texts(scene, shafts, obstacles,
                              [b.placed.bounds(b.box) for b in blocks if b.placed is not None],
                              size, font * 0.9, spacing)

    shift = f' transform="translate(0 {top})"'
    out: list[str] = []
    if scene.arrows:
        out.append(arrows_svg(scene, anchor, font, 0.0, pen=PEN, attrs=shift, shafts=shafts))
    out.append(
        f'<g{shift} font-size="{font}" text-anchor="middle" '
        f'fill="{_INK}" stroke="#ffffff" stroke-width="{max(1.5, font / 5):.1f}" '
        f'stroke-opacity="0.8" paint-order="stroke" pointer-events="none">'
    )
    for block in blocks:
        if block.placed is not None and block.placed.moved:
            out.append(leader_svg(block.box.anchor, block.placed, block.box))
    for _, box, where in texts:
        if where.moved:
            out.append(leader_svg(box.anchor, where, box))
    for block in blocks:
        out.append(_label_svg(block, sea.get(str(block.place), False), font))
    out.append("</g>")
    pieces = [svg for block in blocks for svg in _pieces_svg(scene, block, font)]
    if pieces:
        out.append(f'<g{shift} data-layer="stacks">' + "".join(pieces) + "</g>")
    if texts:
        out.append(f'<g{shift} data-layer="arrow-texts">' + "".join(
            arrow_text_svg(scene.arrows[k], k, where.centre, font * 0.9)
            for k, _, where in texts) + "</g>")
    return "".join(out)
