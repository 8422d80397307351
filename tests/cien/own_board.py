"""A board of this game a GM might write, for the tests that play a game on a board of its own
(``tests/test_own_board.py`` finds it here): the board's file, and a place name only it has
(empty where the board names no place)."""

from __future__ import annotations

from pathlib import Path

from tests.boards import renamed_geojson


def own_board(tmp_path: Path) -> tuple[Path, str]:
    """The Crown of Cien's map with a province renamed."""
    path = tmp_path / "cien.geojson"
    path.write_text(renamed_geojson("cien", {"Brévanne": "Brevania"}))
    return path, "Brevania"
