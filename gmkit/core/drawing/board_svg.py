"""A :class:`~gmkit.core.drawing.scene.Scene` drawn on any board, with the renderer of the
board's kind: :func:`~gmkit.core.drawing.graph_svg.graph_svg` for a graph board,
:func:`~gmkit.core.drawing.hex_svg.hex_svg` for a hex grid,
:func:`~gmkit.core.drawing.polygon_svg.polygon_svg` for a polygon board.

    svg = scene_svg(game.board, ruleset.presentation.scene(state, ctx))
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

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

    Raises:
        TypeError: for a board no renderer draws.
    """
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
