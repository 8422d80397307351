"""The polygon work the board builders share (``build_cien_board.py``, ``build_aztlan_board.py``):
overlays rounded to one grid, and cells made single polygons."""

from __future__ import annotations

from collections.abc import Sequence

import shapely
from shapely.geometry import MultiPolygon, Point, Polygon

#: The grid every overlay is rounded to, so a board rebuilds byte for byte.
GRID = 0.1


def areal(geom):  # type: ignore[no-untyped-def]
    """``geom`` without the stray lines or points an overlay can leave."""
    parts = [g for g in shapely.get_parts(geom) if g.geom_type == "Polygon" and g.area > 0]
    return parts[0] if len(parts) == 1 else MultiPolygon(parts)


def single_polygons(cells: list, keep: Sequence[Point | None] | None = None,
                    what: str = "region") -> list[Polygon]:
    """Make every cell one polygon: a cell keeps the piece holding its ``keep`` point (a city's
    town), else its largest piece; every other piece goes to the neighbour it shares most
    border with. ``what`` names the cells in the messages."""
    cells = [areal(c) for c in cells]
    for _ in range(10):
        changed = False
        for i, cell in enumerate(cells):
            if cell.geom_type == "Polygon":
                continue
            parts = sorted(cell.geoms, key=lambda g: g.area, reverse=True)
            point = keep[i] if keep is not None else None
            if point is not None:
                parts.sort(key=lambda g: not g.contains(point))
            cells[i] = parts[0]
            for part in parts[1:]:
                best, best_len = None, 0.0
                for j, other in enumerate(cells):
                    if j == i:
                        continue
                    shared = part.boundary.intersection(other.boundary).length
                    if shared > best_len:
                        best, best_len = j, shared
                assert best is not None, f"a stray piece touches no other {what}"
                cells[best] = areal(shapely.union(cells[best], part, grid_size=GRID))
            changed = True
        if not changed:
            break
    for cell in cells:
        assert cell.geom_type == "Polygon", f"could not make every {what} one polygon"
    return cells
