"""A board of this game a GM might write, for the tests that play a game on a board of its own
(``tests/test_own_board.py`` finds it here): the board's file, and a place name only it has
(empty where the board names no place)."""

from __future__ import annotations

from pathlib import Path



def own_board(tmp_path: Path) -> tuple[Path, str]:
    """An unbounded world of a GM's own, generated as it is explored."""
    path = tmp_path / "world.toml"
    path.write_text('unbounded = true\ndefault_kind = "indeterminate"\n')
    return path, ""
