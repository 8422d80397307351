"""Drawing a polygon board in tests the way a ruleset's scene does: every region labelled (its
name unless given), the board's kind fills, army tokens and arrows as scene marks."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.drawing.polygon_svg import (DEFAULT_LAND_FILL, KIND_FILLS, polygon_svg,
                                            region_labels)
from gmkit.core.drawing.scene import Arrow, ArrowKind, LegendEntry, Mark, Outline, Scene

ARMY = "army"


def army(region: str, count: int, colour: str, title: str = "") -> Mark:
    """``count`` armies in ``region``, drawn as tokens below its label."""
    return Mark(region, ARMY, colour, count, title)


def polygon_scene(board: PolygonBoard, fills: Mapping[str, str] | None = None, *,
                  labels: Mapping[str, str] | None = None, title: str | None = None,
                  legend: Sequence[tuple[str, str]] = (), stacks: Sequence[Mark] = (),
                  arrows: Sequence[Arrow] = (), outlines: Sequence[Sequence[str]] = (),
                  arrow_kinds: Sequence[ArrowKind] = ()) -> Scene:
    """The scene of a polygon board with these fills, labels and marks."""
    place_fills: dict[Hashable, str] = dict(fills or {})
    return Scene(fills=place_fills, kind_fills=KIND_FILLS, default_fill=DEFAULT_LAND_FILL,
                 labels=region_labels(board, labels), marks=tuple(stacks),
                 arrows=tuple(arrows), arrow_kinds=tuple(arrow_kinds),
                 outlines=tuple(Outline(tuple(g), "#4a4a4a", 3.2) for g in outlines),
                 legend=tuple(LegendEntry(label, colour) for label, colour in legend),
                 title=title or "")


def draw(board: PolygonBoard, fills: Mapping[str, str] | None = None, *,
         width: int = 900, highlight: Iterable[str] = (), **scene: object) -> str:
    """The SVG of :func:`polygon_scene` on ``board``."""
    return polygon_svg(board, polygon_scene(board, fills, **scene),  # type: ignore[arg-type]
                       width=width, highlight=highlight)
