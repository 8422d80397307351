"""What is drawn over a hex or graph board, placed together: arrows, pieces, labels and the
arrows' texts, so that no label or piece lies on an arrow and no two of them overlap.

The arrows are drawn first: each joins its places' points and is cut where it leaves the
place's own pieces (a box around the point, and the box its pieces want), so it starts and ends
beside them (:func:`gmkit.core.drawing.arrows.arrow_shafts`). What each arrow then covers is a
row of small boxes (:func:`gmkit.core.drawing.arrows.shaft_boxes`) that the placement keeps
clear (:func:`gmkit.core.drawing.placement.place_boxes`): the pieces first, nearest their
places, then the labels, then each arrow's text near the middle of its own shaft. A box moved
off its place gets a leader line back to it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from gmkit.core.drawing.arrows import (
    Anchor,
    ArrowPen,
    Bounds,
    Point,
    arrow_shafts,
    arrow_text_svg,
    arrows_svg,
    casing,
    cut_at_boxes,
    point_along,
    polyline_length,
    shaft_boxes,
    text_size,
    trim_polyline,
)
from gmkit.core.drawing.placement import Box, Placed, leader_svg, place_boxes
from gmkit.core.drawing.scene import Label, Mark, Scene
from gmkit.core.drawing.svg_parts import labels_svg, mark_row_width, mark_svg
from gmkit.core.drawing.svg_text import text_width

__all__ = ["overlay_svg", "place_arrow_texts"]


def _box_bounds(box: Box) -> Bounds:
    x, y = box.anchor
    return (x - box.width / 2, y - box.height / 2, x + box.width / 2, y + box.height / 2)


def place_arrow_texts(scene: Scene, shafts: Sequence[Sequence[Point]],
                      obstacles: Sequence[Sequence[Bounds]], taken: Sequence[Bounds],
                      area: Bounds, font: float, spacing: float
                      ) -> list[tuple[int, Box, Placed]]:
    """Where each arrow's text goes: on its own shaft near the middle, clear of ``taken``
    (labels and pieces placed), of the other arrows (``obstacles``, one list per arrow) and of
    the texts placed before it. Returns ``(arrow index, box, placed)`` per text."""
    out: list[tuple[int, Box, Placed]] = []
    done: list[Bounds] = []
    for k, arrow in enumerate(scene.arrows):
        shaft = shafts[k]
        if not arrow.text or not shaft:
            continue
        middle, _ = point_along(shaft, polyline_length(shaft) / 2)
        w, h = text_size(arrow.text, font)
        box = Box(middle, w, h)
        others = [b for j, boxes in enumerate(obstacles) if j != k for b in boxes]
        (where,) = place_boxes([box], area, gap=spacing, fixed=[*taken, *others, *done])
        done.append(where.bounds(box))
        out.append((k, box, where))
    return out


def overlay_svg(scene: Scene, labels: Sequence[Label], anchor: Anchor, font: float,
                token: float, area: Bounds, *, clear: float, mark_dy: float = 0.0,
                label_dy: Callable[[Hashable], float] = lambda place: 0.0,
                fixed: Sequence[Bounds] = (), leader: str = "#333333",
                pen: ArrowPen = ArrowPen(), arrow_font: float | None = None) -> str:
    """The scene's arrows, marks and ``labels`` and the arrows' texts, placed so that none
    overlaps another, lies on an arrow or leaves ``area``: each place's marks side by side
    ``mark_dy`` below its point, each label ``label_dy(place)`` from it, moved to the nearest
    free spot with a leader line where that spot is taken. Arrows leave ``clear`` pixels
    around the points they join, and their places' marks. Labels also keep clear of the
    ``fixed`` boxes (the places' own symbols). Arrows are sized to ``arrow_font`` (the labels'
    ``font`` by default)."""
    by_place: dict[Hashable, list[Mark]] = {}
    for mark in scene.marks:
        by_place.setdefault(mark.place, []).append(mark)
    gap = token * 0.15
    spacing = max(1.0, font * 0.1)
    mark_boxes: list[Box] = []
    for place, marks in by_place.items():
        x, y = anchor(place)
        mark_boxes.append(Box((x, y + mark_dy), mark_row_width(marks, token) + 1, token + 1))
    shown = [label for label in labels if label.text.strip()]
    label_boxes = []
    for label in shown:
        x, y = anchor(label.place)
        lines = label.text.split("\n")
        label_boxes.append(Box((x, y + label_dy(label.place)),
                               max(text_width(line, font) for line in lines) + 2,
                               len(lines) * font * 1.2 + 1))

    # the arrows: cut where they leave their places' own marks
    wanted = {place: _box_bounds(box) for place, box in zip(by_place, mark_boxes)}

    def region(place: Hashable) -> list[Bounds]:
        x, y = anchor(place)
        own = [(x - clear, y - clear, x + clear, y + clear)]
        return own + ([wanted[place]] if place in wanted else [])

    arrow_font = font if arrow_font is None else arrow_font
    # a shaft stops far enough from its places' marks that what it covers leaves them clear
    clearance = max((casing(k, arrow_font, pen, spacing) for k in scene.arrow_kinds),
                    default=0.0) + spacing

    def trim(path: Sequence[Point], src: Hashable, dst: Hashable | None) -> list[Point]:
        least = arrow_font * 1.2
        if dst is None:  # onto another order's arrow
            cut = cut_at_boxes(path, region(src), [], gap=clearance, least=least)
            return trim_polyline(cut, 0.0, arrow_font * 0.15)
        return cut_at_boxes(path, region(src), region(dst), gap=clearance, least=least)

    shafts = arrow_shafts(scene, anchor, arrow_font, trim) if scene.arrows else []
    obstacles = [shaft_boxes(a, scene.arrow_kind(a.kind), s, arrow_font, pen, spacing,
                             exclude=[*region(a.src), *(region(a.dst) if a.onto is None
                                                        else ())])
                 for a, s in zip(scene.arrows, shafts)]
    covered = [b for boxes in obstacles for b in boxes]

    placed = place_boxes(mark_boxes, area, gap=spacing, fixed=covered)
    taken = [*fixed, *covered, *(p.bounds(b) for p, b in zip(placed, mark_boxes))]
    placed += place_boxes(label_boxes, area, gap=spacing, fixed=taken)
    boxes = [*mark_boxes, *label_boxes]
    text_font = font * 0.85  # a text on an arrow, a little smaller than a place's name
    texts = place_arrow_texts(scene, shafts, obstacles,
                              [*fixed, *(p.bounds(b) for p, b in zip(placed, boxes))],
                              area, text_font, spacing)

    out = []
    if scene.arrows:
        out.append(arrows_svg(scene, anchor, arrow_font, clear, pen=pen, shafts=shafts))
    out.append('<g data-layer="leaders">')
    for box, where in [*zip(boxes, placed), *((b, p) for _, b, p in texts)]:
        if where.moved:
            out.append(leader_svg(box.anchor, where, box, leader, max(0.6, font / 14)))
    out.append("</g>")
    if by_place:
        out.append('<g data-layer="marks">')
        for (place, marks), where in zip(by_place.items(), placed):
            cx, cy = where.centre
            left = cx - mark_row_width(marks, token) / 2
            for mark in marks:
                out.append(mark_svg(mark, scene.mark_shape(mark.piece), left + token / 2, cy,
                                    token))
                left += mark_row_width([mark], token) + gap
        out.append("</g>")
    spots = {id(label): where.centre for label, where in zip(shown, placed[len(by_place):])}
    out.append(labels_svg(shown, lambda place: (0.0, 0.0), font,
                          at=lambda label: spots[id(label)]))
    if texts:
        out.append('<g data-layer="arrow-texts">' + "".join(
            arrow_text_svg(scene.arrows[k], k, where.centre, text_font)
            for k, _, where in texts)
            + "</g>")
    return "".join(out)
