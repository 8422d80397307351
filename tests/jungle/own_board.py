"""A board of this game a GM might write, for the tests that play a game on a board of its own
(``tests/test_own_board.py`` finds it here): the board's file, and a place name only it has
(empty where the board names no place)."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from gmkit.core.boards.hexgrid import Hex, spiral
from gmkit.rulesets.jungle.world import CITIES


def own_board(tmp_path: Path) -> tuple[Path, str]:
    """A valley of jungle hexes just around the Aztec cities (no place names on a hex map)."""
    hexes = {(h.q, h.r) for _, (q, r), *_ in CITIES for h in spiral(Hex(q, r), 2)}
    path = tmp_path / "valley.csv"
    pl.DataFrame({"q": [q for q, _ in sorted(hexes)], "r": [r for _, r in sorted(hexes)],
                  "kind": ["jungle"] * len(hexes)}).write_csv(path)
    return path, ""
