"""The board a game is made with (the shipped one, or the GM's own with ``gmkit new --map``) is
the board every part of the ruleset sees: set-up, orders, steps, the bot and the map. A game of
every ruleset is made on a board of its own (places renamed) and plays a turn; a board a ruleset
cannot play is refused at ``new`` with the reason."""

from __future__ import annotations

import importlib
import tomllib
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

from gmkit.core.boards.hexgrid import Hex, spiral
from gmkit.core.boards.resources import board_bytes
from gmkit.core.ruleset import find_ruleset, registered
from gmkit.game import Game, GameError, starting_board
from gmkit.sweeps.playout import play
from gmkit.rulesets.jungle.world import CITIES
from tests.boards import packaged_text, toml_text


def _own_board(tmp_path: Path, name: str) -> tuple[Path, str]:
    """A board of the ruleset's own kind written by a GM, and a place name only it has: the
    game's own builder, ``own_board(tmp_path)`` in ``tests/<game>/own_board.py``, where it
    keeps one; else its shipped board copied as a GM's file (no place renamed)."""
    builder = _builder(name)
    if builder is not None:
        return builder(tmp_path)
    rs = find_ruleset(name)
    blob = board_bytes(rs)
    assert blob is not None and rs.board.packaged, f"{name} ships no board to copy"
    path = tmp_path / Path(rs.board.packaged).name
    path.write_bytes(blob)
    return path, ""


def _builder(name: str) -> Callable[[Path], tuple[Path, str]] | None:
    """``own_board`` of ``tests/<name>/own_board.py``, if the game keeps one."""
    if not name.isidentifier() or not (Path(__file__).parent / name / "own_board.py").is_file():
        return None
    return getattr(importlib.import_module(f"tests.{name}.own_board"), "own_board")


@pytest.mark.parametrize("name", registered())
def test_a_game_on_a_board_of_its_own_plays_a_turn(tmp_path, name):
    """The GM's own board (places renamed) is the board of the state, the orders, the steps
    and the map: a game made on it plays a turn, verifies, and its map draws it."""
    rs = find_ruleset(name)
    path, own_place = _own_board(tmp_path, name)
    board = starting_board(rs, path)[0]
    assert rs.board.check(board) == []
    game = Game.new(tmp_path / "g", name, rs.example_players(board), map_path=path)
    play(game, 1, master="own board")
    assert game.store.turns()[-1] == 1
    assert game.verify() == []
    svg = game.map_svg(game.state())
    if own_place:
        assert own_place in svg, "the map draws the GM's board"
        state_text = " ".join(str(v) for t in game.state().tables.values()
                              for c in t.columns if t.schema[c] == pl.String
                              for v in t[c].to_list())
        assert own_place in state_text or name == "aztlan", "the state holds the GM's board"


def _refused(tmp_path: Path, name: str, text: str, suffix: str = ".toml") -> str:
    rs = find_ruleset(name)
    path = tmp_path / f"bad{suffix}"
    path.write_text(text)
    with pytest.raises(GameError) as e:
        Game.new(tmp_path / "g", name, rs.example_players(starting_board(rs)[0]),
                 map_path=path)
    assert not (tmp_path / "g").exists(), "nothing half-stored"
    return str(e.value)


def test_pyramid_refuses_start_areas_naming_unknown_or_shared_places(tmp_path):
    """SETUP: each player's start area lies on the board, one area per place."""
    data = tomllib.loads(packaged_text("pyramid"))
    areas = data["start_areas"]
    areas["2"] = [areas["2"][0], areas["2"][0]]
    areas["3"][0] = ["Atlantis", *areas["3"][0][1:]]
    message = _refused(tmp_path, "pyramid", toml_text(data))
    assert "cannot be played on this board" in message
    assert "'Atlantis'" in message and "is also in area 1" in message


def test_pyramid_refuses_a_board_without_start_areas(tmp_path):
    """SETUP: a board of land spaces alone gives the players no start area."""
    data = tomllib.loads(packaged_text("pyramid"))
    del data["start_areas"]
    assert "no [start_areas] table" in _refused(tmp_path, "pyramid", toml_text(data))


def test_jungle_refuses_a_bounded_board_where_the_cities_do_not_fit(tmp_path):
    """LOCATIONS: the Aztec cities and their workable hexes must lie on the board."""
    rows = "\n".join(f"[[hexes]]\nq = {h.q}\nr = {h.r}" for h in spiral(Hex(0, 0), 1))
    message = _refused(tmp_path, "jungle", rows + "\n")
    assert "does not fit" in message and CITIES[-1][0] in message


def test_aeternus_refuses_a_bounded_world(tmp_path):
    """5 - World: the grid is infinite and generated as it is explored."""
    rows = "\n".join(f"[[hexes]]\nq = {h.q}\nr = {h.r}" for h in spiral(Hex(0, 0), 2))
    assert "infinite grid" in _refused(tmp_path, "aeternus", rows + "\n")


def test_three_hills_refuses_a_board_without_a_camp(tmp_path):
    """1. The diggers start at the Camp: a board with no camp cannot start a game."""
    text = packaged_text("example").replace('kind = "camp"', 'kind = "ford"')
    assert "'camp'" in _refused(tmp_path, "example", text)
