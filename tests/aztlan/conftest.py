"""Shared pieces of the AZTLAN adjudication scenarios: the real board, an adjacency check that
every scenario makes before it relies on the map, and one call to adjudicate a position."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.rulesets.aztlan.adjudicate import Adjudication, adjudicate
from gmkit.rulesets.aztlan.orders import NEUTRAL, Order, Position
from gmkit.rulesets.aztlan.board.geography import load_map


@pytest.fixture(scope="module")
def board() -> PolygonBoard:
    return load_map()


def adjacent(board: PolygonBoard, *pairs: tuple[str, str]) -> None:
    """Fail the scenario unless every pair borders on this board."""
    for a, b in pairs:
        assert b in board.land_neighbours(a), f"{a} and {b} are not adjacent"


def run(board: PolygonBoard, armies: Mapping[str, tuple[str, int]],
        orders: Mapping[str, Sequence[Order]],
        cities: Mapping[str, str | None] | None = None) -> Adjudication:
    """Adjudicate on the real board; each city is its garrison's (or independent)."""
    owners: dict[str, str | None] = {
        c: None for c in board.land() if board.regions[c].props.get("city") is True}
    for sector, (player, _) in armies.items():
        if sector in owners and player != NEUTRAL:
            owners[sector] = player
    owners.update(cities or {})
    return adjudicate(Position(dict(armies), owners), orders, board)
