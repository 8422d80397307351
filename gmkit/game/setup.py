"""Where a game's board and starting position come from, and what a turn's manifest records of
them: the board a ruleset ships or the game folder's copy, a position given as tables, the rules,
players and board a turn is resolved with."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any

import polars as pl

from gmkit.core.boards import Board
from gmkit.core.parts import Context
from gmkit.core.playable import StateProblem
from gmkit.core.ruleset import Ruleset
from gmkit.core.tables import State
from gmkit.game.changes import GameError


#: What a turn's manifest records of the game it was resolved in.
RECORD_KEYS = ("ruleset", "rules", "players", "board")


#: The polygon map of a game folder.
MAP_FILE = "map.geojson"


def board_copy_name(ruleset: Ruleset[Any], source: str | None = None) -> str | None:
    """The name, in a game folder, of the copy of a board that is not a polygon map: ``board``
    plus the suffix of ``source`` (the file the board came from), else of the board the
    ruleset ships (``board.toml``); None when there is neither."""
    name = source or ruleset.board.packaged
    if not name:
        return None
    return "board" + PurePosixPath(name).suffix.lower()


def board_path(root: Path, ruleset: Ruleset[Any]) -> Path | None:
    """The file of a game folder holding the board the game is played on: its ``map.geojson``,
    else its copy of the board (``board.toml``, ``board.parquet``...); None when there is
    neither."""
    if (root / MAP_FILE).exists():
        return root / MAP_FILE
    from gmkit.core.boards import files  # the readers of every kind, loaded when needed

    candidates = [f"board{suffix}" for suffix in
                  dict.fromkeys(files.SUFFIXES.get(ruleset.board.kind, ()))]
    for name in candidates:
        if (root / name).exists():
            return root / name
    return None


def starting_board(ruleset: Ruleset[Any], board_file_path: str | Path | None = None
                   ) -> tuple[Board[Any] | None, bytes | None, str | None]:
    """The board a new game of ``ruleset`` is played on, its bytes, and the name its copy
    takes in the game folder: the file a GM names (of the ruleset's board kind), else the board
    the ruleset ships; ``(None, None, None)`` for a ruleset that needs no board file, or when
    ``board_file_path`` is ``""`` (a game without a board)."""
    if board_file_path is not None and not str(board_file_path):
        return None, None, None
    from gmkit.core.boards import files  # the readers of every kind, loaded when needed
    from gmkit.core.boards.resources import board_file, package_resource, ruleset_package

    if board_file_path is not None:
        path = Path(board_file_path)
        board = files.load_board(ruleset.board.kind, path)
        name = MAP_FILE if ruleset.board.kind == "polygon" else board_copy_name(ruleset, path.name)
        return board, path.read_bytes(), name
    if not ruleset.board.packaged:
        return None, None, None
    if ruleset.board.kind == "polygon":
        with board_file(ruleset) as found:
            assert found is not None
            return files.load_board("polygon", found), found.read_bytes(), MAP_FILE
    data = package_resource(ruleset_package(ruleset), ruleset.board.packaged).read_bytes()
    source = f"{ruleset_package(ruleset).replace('.', '/')}/{ruleset.board.packaged}"
    board = files.read_board(ruleset.board.kind, data, ruleset.board.packaged, source)
    return board, data, board_copy_name(ruleset)


def resolved_with(config: Mapping[str, Any], board: bytes | None,
                  version: str | None = None) -> dict[str, Any]:
    """The rules, players and board a turn is resolved with, as its manifest records them (with
    ``version``, the ruleset version that resolves it)."""
    out = {"ruleset": str(config.get("ruleset", "")),
           "rules": dict(config.get("rules", {})),
           "players": [dict(p) for p in config.get("players", [])],
           "board": hashlib.sha256(board).hexdigest() if board is not None else None}
    if config.get("dice"):
        out["dice"] = dict(config["dice"])  # how the game guards its dice (gmkit.game.fairdice)
    if version is not None:
        out["ruleset_version"] = version
    return out


def given_position(ruleset: Ruleset[Any], state: State | Mapping[str, pl.DataFrame] | str | Path,
                   turn: int = 0, ctx: Context | None = None) -> State:
    """A given starting position (a folder of tables, a state, or its tables) as the state
    after ``turn``, checked against ``ruleset``'s schemas and then against what its rules can
    play with ``ctx`` (the game's rules, board and players; raises
    :class:`gmkit.game.position.PositionError` naming every problem)."""
    from gmkit.game.position import check_tables, read_position

    if isinstance(turn, bool) or not isinstance(turn, int) or turn < 0:
        raise GameError(f"the starting turn must be a whole number from 0, not {turn!r}")
    context = ctx if ctx is not None else Context(ruleset.rules(), turn=turn + 1)

    def check(given: State) -> list[StateProblem]:
        return ruleset.state_problems(given, context)

    if isinstance(state, (str, Path)):
        return read_position(state, ruleset.schemas, turn, check)
    tables = state.tables if isinstance(state, State) else state
    return check_tables(tables, ruleset.schemas, turn, check=check)
