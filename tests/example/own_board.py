"""A board of this game a GM might write, for the tests that play a game on a board of its own
(``tests/test_own_board.py`` finds it here): the board's file, and a place name only it has
(empty where the board names no place)."""

from __future__ import annotations

from pathlib import Path

from tests.boards import packaged_text, renamed_graph


def own_board(tmp_path: Path) -> tuple[Path, str]:
    """Three Hills on hills of a GM's own naming."""
    rename = {"Camp": "Base", "West Hill": "Ash Hill", "North Hill": "Oak Hill",
              "East Hill": "Elm Hill", "Ford": "Bridge"}
    path = tmp_path / "hills.toml"
    path.write_text(renamed_graph(packaged_text("example"), rename))
    return path, "Oak Hill"
