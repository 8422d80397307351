"""A board of this game a GM might write, for the tests that play a game on a board of its own
(``tests/test_own_board.py`` finds it here): the board's file, and a place name only it has
(empty where the board names no place)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from tests.boards import packaged_text, renamed_graph


def own_board(tmp_path: Path) -> tuple[Path, str]:
    """The Two Lands with every space renamed a nome."""
    text = packaged_text("pyramid")
    rename = {p: f"{p} Nome" for p in tomllib.loads(text)["places"]}
    path = tmp_path / "nile.toml"
    path.write_text(renamed_graph(text, rename))
    return path, next(iter(rename.values()))
