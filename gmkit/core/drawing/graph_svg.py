"""A :class:`~gmkit.core.drawing.scene.Scene` on a graph board, as a self-contained SVG string.

Places are drawn as filled circles (or rounded squares) at their positions, routes as one path
of straight lines beneath them; outlines are soft bands joining the places of a group along
their routes; then arrows, marks and labels on top, placed together so that none lies on
another (:mod:`gmkit.core.drawing.overlay`). A place without a position is put on a
circle around the others, so a board with no drawing data still draws.

    svg = graph_svg(board, Scene(kind_fills={"food": "#9bd770"}, title="The Nile"))
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Literal

from gmkit.core.boards.graph import GraphBoard
from gmkit.core.drawing.overlay import overlay_svg
from gmkit.core.drawing.scene import Label, Scene
from gmkit.core.drawing.svg_parts import Point, framed_svg, xml_attr, xml_text
from gmkit.core.drawing.colours import check_colour

__all__ = ["graph_positions", "graph_svg"]

_EDGE = "#7a7a7a"
_STROKE = "#4a4a4a"


def graph_positions(board: GraphBoard) -> dict[str, Point]:
    """Where each place is drawn: its own position, or for places without one, evenly on a
    circle around the placed ones (around the origin when none is placed)."""
    placed = {p: pl.pos for p, pl in board.places.items() if pl.pos is not None}
    loose = [p for p in board.places if p not in placed]
    if not loose:
        return placed
    if placed:
        xs = [x for x, _ in placed.values()]
        ys = [y for _, y in placed.values()]
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        radius = max(max(xs) - min(xs), max(ys) - min(ys)) / 2 + 100
    else:
        cx, cy, radius = 0.0, 0.0, 40.0 * max(1, len(loose)) / math.pi
    out = dict(placed)
    for i, p in enumerate(loose):
        angle = 2 * math.pi * i / len(loose) - math.pi / 2
        out[p] = (cx + radius * math.cos(angle), cy + radius * math.sin(angle))
    return out


def _fills(board: GraphBoard, scene: Scene) -> dict[str, str]:
    out = {p: scene.kind_fills.get(board.place_kind(p), scene.default_fill) for p in board}
    if scene.fill_frame is not None:
        if "place" not in scene.fill_frame.columns:
            raise ValueError("fill_frame: a graph board needs a 'place' column")
        for place, fill in scene.fill_frame.select("place", "fill").iter_rows():
            out[place] = fill
    out.update({str(p): c for p, c in scene.fills.items()})
    return out


def graph_svg(
    board: GraphBoard,
    scene: Scene,
    *,
    scale: float = 1.0,
    radius: float = 14.0,
    shape: Literal["circle", "rounded"] = "circle",
    names: bool = True,
    width: float | None = None,
) -> str:
    """``scene`` drawn on ``board`` as an SVG document.

    Args:
        board: the graph board.
        scene: what to draw; its places are the board's place ids.
        scale: pixels per unit of the board's positions.
        radius: the radius of a place's shape, in pixels.
        shape: ``"circle"`` or ``"rounded"`` (a rounded square).
        names: write each place's name under it unless the scene labels that place.
        width: the SVG's ``width`` in pixels (``None`` for the natural size).

    Raises:
        ValueError: a place of the scene that is not on the board.
    """
    fill_places = (set(scene.fill_frame["place"].to_list())
                   if scene.fill_frame is not None and "place" in scene.fill_frame.columns
                   else set())
    unknown = sorted(map(repr, {p for p in scene.places() | fill_places if p not in board}))
    if unknown:
        raise ValueError(f"{board.source}: unknown place(s) {', '.join(unknown[:5])}")
    if shape not in ("circle", "rounded"):
        raise ValueError(f"shape must be 'circle' or 'rounded', got {shape!r}")
    pos = {p: (x * scale, y * scale) for p, (x, y) in graph_positions(board).items()}
    fills = _fills(board, scene)
    for colour in fills.values():
        check_colour(colour)
    font = radius * 0.85

    def anchor(place: Hashable) -> Point:
        return pos[place]  # type: ignore[index]

    out: list[str] = []
    for outline in scene.outlines:
        group = set(outline.places)
        d = "".join(f"M{pos[a][0]:.1f} {pos[a][1]:.1f}L{pos[b][0]:.1f} {pos[b][1]:.1f}"
                    for a, b in board.edges() if a in group and b in group)
        d += "".join(f"M{pos[p][0]:.1f} {pos[p][1]:.1f}h0" for p in outline.places)  # type: ignore[index]
        title = f"<title>{xml_text(outline.title)}</title>" if outline.title else ""
        out.append(f'<path data-layer="outline" d="{d}" fill="none" stroke="{outline.colour}" '
                   f'stroke-opacity="0.35" stroke-width="{radius * 2.8:.1f}" '
                   f'stroke-linecap="round" stroke-linejoin="round">{title}</path>')
    edges = "".join(f"M{pos[a][0]:.1f} {pos[a][1]:.1f}L{pos[b][0]:.1f} {pos[b][1]:.1f}"
                    for a, b in board.edges())
    if edges:
        out.append(f'<path data-layer="edges" d="{edges}" fill="none" stroke="{_EDGE}" '
                   f'stroke-width="{max(1.0, radius / 7):.1f}"/>')
    out.append(f'<g data-layer="places" stroke="{_STROKE}" stroke-width="{radius / 10:.1f}">')
    for place in board:
        x, y = pos[place]
        attrs = f'fill="{fills[place]}" data-place={xml_attr(place)}'
        tip = f"<title>{xml_text(board.place_text(place))}</title>"
        if shape == "circle":
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" {attrs}>{tip}</circle>')
        else:
            out.append(f'<rect x="{x - radius:.1f}" y="{y - radius:.1f}" width="{2 * radius:.1f}" '
                       f'height="{2 * radius:.1f}" rx="{radius * 0.35:.1f}" {attrs}>{tip}</rect>')
    out.append("</g>")
    labelled = {label.place for label in scene.labels}
    labels = list(scene.labels)
    if names:
        labels += [Label(p, board.place_text(p)) for p in board if p not in labelled]
    xs = [x for x, _ in pos.values()]
    ys = [y for _, y in pos.values()]
    margin = radius * 2 + font
    minx, maxx = min(xs) - margin, max(xs) + margin
    miny, maxy = min(ys) - margin, max(ys) + margin + font
    circles = [(x - radius, y - radius, x + radius, y + radius) for x, y in pos.values()]
    out.append(overlay_svg(scene, labels, anchor, font, radius * 0.9, (minx, miny, maxx, maxy),
                           clear=radius * 1.1, label_dy=lambda p: radius + font * 0.8,
                           fixed=circles))
    pixels = 1.0 if width is None else width / max(maxx - minx, 1e-9)
    return framed_svg(out, (minx, miny, maxx, maxy), scene, px=pixels,
                      aria=scene.title or board.name or "board",
                      title_px=max(18.0, font * 1.4 * pixels), legend_px=max(13.0, font * pixels))
