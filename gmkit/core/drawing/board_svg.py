"""A :class:`~gmkit.core.drawing.scene.Scene` drawn on any board, with the renderer of the
board's kind: :func:`~gmkit.core.drawing.graph_svg.graph_svg` for a graph board,
:func:`~gmkit.core.drawing.hex_svg.hex_svg` for a hex grid,
:func:`~gmkit.core.drawing.polygon_svg.polygon_svg` for a polygon board.

    svg = scene_svg(game.board, ruleset.presentation.scene(state, ctx))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Iterable
from typing import Any

import numpy as np

from gmkit.core.boards import Board
from gmkit.core.boards.graph import GraphBoard
from gmkit.core.boards.hexgrid import HexBoard
from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.drawing.graph_svg import graph_svg
from gmkit.core.drawing.hex_svg import HEX_PX, HEX_WIDTH, hex_svg
from gmkit.core.drawing.polygon_svg import polygon_svg
from gmkit.core.drawing.scene import Scene

__all__ = ["scene_svg"]


def scene_svg(board: Board[Any], scene: Scene, *, highlight: Iterable[Hashable] = (),
              hex_px: float | None = None) -> str:
    """``scene`` drawn on ``board`` as an SVG document, by the renderer of the board's kind;
    ``highlight`` regions get a thicker outline on a polygon board (other boards ignore it);
    ``hex_px``: the widest a hex may be drawn on a hex board, in pixels (the renderer's
    default otherwise: a screen's page may want larger hexes than a report). The title and
    legend keep their size in pixels, so larger hexes leave the legend relatively less room.

    A picture drawn lately for the same board and an equal scene is not drawn again (the GM
    steps back and forth, enters a die that changes nothing on the map).

    Raises:
        TypeError: for a board no renderer draws.
    """
    highlight = tuple(highlight)
    key = (id(board), _scene_key(scene), highlight, hex_px)
    found = _DRAWN.get(key)
    if found is not None and found[0] is board:
        return found[1]
    svg = _draw(board, scene, highlight, hex_px)
    _DRAWN[key] = (board, svg)  # the board kept, so its id names it while the entry stays
    while len(_DRAWN) > _KEPT:
        del _DRAWN[next(iter(_DRAWN))]
    return svg


#: the pictures drawn last (oldest first): drawing is deterministic, so an equal scene on the
#: same board draws the same SVG
_DRAWN: dict[tuple[Any, ...], tuple[Board[Any], str]] = {}
_KEPT = 24


def _scene_key(scene: Scene) -> tuple[Any, ...]:
    """What tells two scenes apart: their whole text, a fill frame (whose text shows only some
    rows) by a hash of every row instead."""
    frame = scene.fill_frame
    if frame is None:
        return (repr(scene),)
    rows = frame.hash_rows().to_numpy()
    return (repr(dataclasses.replace(scene, fill_frame=None)), tuple(frame.columns), frame.height,
            int(rows.sum(dtype="uint64")), int(np.bitwise_xor.reduce(rows)) if len(rows) else 0)


def _draw(board: Board[Any], scene: Scene, highlight: tuple[Hashable, ...],
          hex_px: float | None) -> str:
    if isinstance(board, GraphBoard):
        return graph_svg(board, scene)
    if isinstance(board, HexBoard):
        if hex_px is None:
            return hex_svg(board, scene)
        # the widest picture grows with the hexes, so a large world is not squeezed back
        return hex_svg(board, scene, max_hex_px=hex_px,
                       width=HEX_WIDTH * hex_px / HEX_PX)
    if isinstance(board, PolygonBoard):
        return polygon_svg(board, scene, highlight=[str(h) for h in highlight])
    kind = getattr(board, "kind", "unknown")
    raise TypeError(f"no drawing for a board of kind {kind!r} ({type(board).__name__})")
