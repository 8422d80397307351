"""Placing labels and pieces on a map so that no two overlap, as a cartographer would.

Every text and every group of pieces of a drawing is a box (its width and height in pixels)
wanted at an anchor, the point of its place. :func:`place_boxes` puts the boxes one by one, in
the order given (pieces and the most important names first): each at its anchor when that spot
is free, else at the nearest free spot around it, searched on rings of growing radius, the
directions tried from the one pointing away from the crowd. A box is never placed over one
already placed, nor across the edge of the picture. A box moved off its anchor gets a leader
line back to its place (:func:`leader_svg`), so a reader still sees which place it names. What a
board shows over its places is placed this way together with its arrows
(:mod:`gmkit.core.drawing.overlay`), so no label or piece lies on an arrow.

Text widths are estimated from per-character widths a little wider than DejaVu Sans, the font
the drawings name first, so an estimated box holds the real text.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from gmkit.core.drawing.svg_text import text_width

__all__ = ["Box", "Placed", "leader_svg", "place_boxes", "text_width"]

Point = tuple[float, float]

@dataclass(frozen=True)
class Box:
    """A box wanted centred on ``anchor``: ``width`` by ``height`` pixels."""

    anchor: Point
    width: float
    height: float


@dataclass(frozen=True)
class Placed:
    """Where a box went: its centre, and whether it left its anchor (then it needs a leader)."""

    centre: Point
    moved: bool

    def bounds(self, box: Box) -> tuple[float, float, float, float]:
        """The placed box as ``x0, y0, x1, y1``."""
        x, y = self.centre
        return (x - box.width / 2, y - box.height / 2, x + box.width / 2, y + box.height / 2)


_ANGLES = np.radians(np.arange(0, 360, 22.5))


def place_boxes(boxes: Sequence[Box], area: tuple[float, float, float, float], *,
                gap: float = 1.0, reach: float | None = None,
                fixed: Sequence[tuple[float, float, float, float]] = ()) -> list[Placed]:
    """Each box placed without overlapping one placed before it (``gap`` pixels apart) and
    inside ``area`` (``x0, y0, x1, y1``): at its anchor when it can, else at the nearest free
    spot within ``reach`` pixels (a quarter of the area's larger side by default). A box that
    finds no free spot goes where it overlaps least. ``fixed`` boxes (``x0, y0, x1, y1``) are
    kept clear like placed ones."""
    x0, y0, x1, y1 = area
    reach = reach if reach is not None else max(x1 - x0, y1 - y0) / 4
    taken = np.array(list(fixed), dtype=float).reshape(-1, 4)
    out: list[Placed] = []
    for box in boxes:
        hw, hh = box.width / 2 + gap / 2, box.height / 2 + gap / 2
        ax, ay = box.anchor
        cx = min(max(ax, x0 + hw), x1 - hw) if x1 - x0 > 2 * hw else (x0 + x1) / 2
        cy = min(max(ay, y0 + hh), y1 - hh) if y1 - y0 > 2 * hh else (y0 + y1) / 2
        step = max(min(box.height, box.width) / 2, 2.0, reach / 40)
        radii = np.arange(0.0, reach + step, step)
        # only the boxes a candidate could touch count (a map's arrows make many small ones)
        rx, ry = reach + step + hw, reach + step + hh
        near = taken[(taken[:, 2] > cx - rx) & (taken[:, 0] < cx + rx)
                     & (taken[:, 3] > cy - ry) & (taken[:, 1] < cy + ry)]
        # candidates: the clamped anchor first, then rings around it, nearest first, tried a
        # few rings at a time so that a box free at its anchor costs one test
        best_x, best_y, least = cx, cy, math.inf
        for start in range(0, len(radii), 4):
            chunk = radii[start:start + 4]
            ring_x = np.outer(chunk, np.cos(_ANGLES)).ravel()
            ring_y = np.outer(chunk, np.sin(_ANGLES)).ravel() * 0.8
            if start == 0:
                ring_x, ring_y = ring_x[len(_ANGLES) - 1:], ring_y[len(_ANGLES) - 1:]
            cand_x = np.clip(cx + ring_x, x0 + hw, max(x0 + hw, x1 - hw))
            cand_y = np.clip(cy + ring_y, y0 + hh, max(y0 + hh, y1 - hh))
            if not near.shape[0]:
                best_x, best_y, least = float(cand_x[0]), float(cand_y[0]), 0.0
                break
            ox = (np.minimum(cand_x[:, None] + hw, near[None, :, 2])
                  - np.maximum(cand_x[:, None] - hw, near[None, :, 0]))
            oy = (np.minimum(cand_y[:, None] + hh, near[None, :, 3])
                  - np.maximum(cand_y[:, None] - hh, near[None, :, 1]))
            overlap = (np.clip(ox, 0, None) * np.clip(oy, 0, None)).sum(axis=1)
            free = np.flatnonzero(overlap <= 1e-9)
            pick = int(free[0]) if free.size else int(np.argmin(overlap))
            if overlap[pick] < least:
                best_x, best_y, least = float(cand_x[pick]), float(cand_y[pick]), overlap[pick]
            if free.size:
                break
        bx, by = best_x, best_y
        taken = np.vstack([taken, [bx - hw, by - hh, bx + hw, by + hh]])
        moved = math.hypot(bx - ax, by - ay) > max(box.height, 2.0) * 0.6
        out.append(Placed((bx, by), moved))
    return out


def leader_svg(anchor: Point, placed: Placed, box: Box, colour: str = "#333333",
               width: float = 0.8) -> str:
    """A thin line from a place's point to the edge of its moved box, and a dot on the place."""
    ax, ay = anchor
    x0, y0, x1, y1 = placed.bounds(box)
    ex, ey = min(max(ax, x0), x1), min(max(ay, y0), y1)
    return (f'<path d="M{ax:.1f} {ay:.1f}L{ex:.1f} {ey:.1f}" stroke="{colour}" '
            f'stroke-width="{width:g}" fill="none" data-leader="1"/>'
            f'<circle cx="{ax:.1f}" cy="{ay:.1f}" r="{max(width * 1.6, 1.2):.1f}" '
            f'fill="{colour}"/>')
