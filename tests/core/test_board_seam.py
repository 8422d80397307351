"""The board seam: a game is drawn on the board its ruleset plays on (its polygon map, graph
board or hex grid), from the ruleset's ``scene``, and the board a game is played on is recorded
by every turn, whatever its kind."""

from __future__ import annotations

import dataclasses
import hashlib
import shutil
from pathlib import Path

import polars as pl
import pytest

from gmkit.core.boards.graph import GraphBoard
from gmkit.core.boards.hexgrid import HexBoard
from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.boards.resources import package_resource, ruleset_package
from gmkit.core.drawing.board_svg import scene_svg
from gmkit.core.drawing.graph_svg import graph_svg
from gmkit.core.drawing.polygon_svg import polygon_svg
from gmkit.core.drawing.scene import Label, Scene
from gmkit.core.ruleset import find_ruleset
from gmkit.desk import Desk
from gmkit.game import Game

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = [ROOT / "data" / "sample-cien", ROOT / "data" / "sample-aztlan"]


@pytest.fixture
def hills(tmp_path: Path) -> Game:
    """A game of Three Hills with one turn played."""
    rs = find_ruleset("example")
    game = Game.new(tmp_path / "hills", "example", rs.example_players(None))
    game.receive_post("Amber", "Move to the Ford")
    game.receive_post("Birch", "Go to West Hill")
    game.commit(game.start())
    return game


def test_a_graph_ruleset_map_is_its_board_drawn_from_its_scene(hills: Game) -> None:
    """Three Hills plays on a graph board: the game's map is that board, drawn by the graph
    renderer from the ruleset's scene for the state."""
    rs = hills.ruleset
    board = rs.default_board()
    assert rs.board.kind == "graph" and isinstance(board, GraphBoard)
    state = hills.state()
    svg = hills.map_svg(state)
    assert svg is not None and svg.startswith("<svg")
    scene = rs.presentation.scene(state, hills.rules)
    assert scene is not None
    assert svg == graph_svg(board, scene)
    for place in ("Camp", "Ford", "West Hill", "North Hill", "East Hill"):
        assert place in svg


def test_a_title_given_to_the_map_replaces_the_scene_title(hills: Game) -> None:
    """Reports title the map themselves ("After turn 1"); the drawing takes their title."""
    svg = hills.map_svg(hills.state(), title="After turn 1")
    assert svg is not None and 'aria-label="After turn 1"' in svg


def test_the_desk_shows_the_board_of_a_graph_ruleset(hills: Game) -> None:
    """The GM's desk draws the same board the game does."""
    desk = Desk(hills)
    assert desk.map_svg() == hills.map_svg(hills.state())


def test_a_new_game_keeps_a_copy_of_its_packaged_board(hills: Game) -> None:
    """A ruleset shipping a board that is not a polygon map: the game folder keeps a copy
    (``board.toml``), and each turn's manifest records its hash as the game's board."""
    rs = hills.ruleset
    shipped = package_resource(ruleset_package(rs), "board.toml").read_bytes()
    copy = hills.root / "board.toml"
    assert copy.read_bytes() == shipped
    assert not (hills.root / "map.geojson").exists()
    assert hills.board_path == copy
    digest = hashlib.sha256(shipped).hexdigest()
    assert [hills.store.manifest(t)["board"] for t in (0, 1)] == [digest, digest]
    assert hills.verify() == []


def test_a_changed_board_toml_is_reported_by_verify(hills: Game) -> None:
    """A board edited by hand after the turns were played on it is reported, as a changed
    ``map.geojson`` is."""
    copy = hills.root / "board.toml"
    copy.write_text(copy.read_text(encoding="utf-8").replace("pos = [0, 100]", "pos = [0, 90]"),
                    encoding="utf-8")
    problems = hills.verify()
    assert any("board.toml" in p and "not the one turn 1 was resolved on" in p for p in problems)


def test_a_removed_board_toml_is_reported_by_verify(hills: Game) -> None:
    """A board copy that is gone is reported under its own name."""
    (hills.root / "board.toml").unlink()
    problems = hills.verify()
    assert any("board.toml" in p and "board is not the one" in p for p in problems)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_polygon_maps_are_their_scene_drawn_on_the_game_map(sample: Path, tmp_path: Path) -> None:
    """Cien and AZTLAN describe their maps as a scene like every ruleset: the game's map is that
    scene drawn on the game's own polygon map (its ``map.geojson``)."""
    root = tmp_path / sample.name
    shutil.copytree(sample, root)
    game = Game.open(root)
    assert game.ruleset.board.kind == "polygon" and game.ruleset.board.packaged
    assert isinstance(game.board, PolygonBoard) and game.board_path == root / "map.geojson"
    for turn in sorted({0, game.latest_turn // 2, game.latest_turn}):
        state = game.state(turn)
        scene = game.ruleset.presentation.scene(state, game.rules)
        assert scene is not None
        want = polygon_svg(game.board, dataclasses.replace(scene, title=f"T{turn}"))
        assert game.map_svg(state, title=f"T{turn}") == want


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_polygon_games_record_their_map_as_the_board(sample: Path, tmp_path: Path) -> None:
    """The board a polygon game records is its ``map.geojson``, as before."""
    root = tmp_path / sample.name
    shutil.copytree(sample, root)
    game = Game.open(root)
    digest = hashlib.sha256((root / "map.geojson").read_bytes()).hexdigest()
    assert game.record()["board"] == digest


def test_a_scene_on_a_hex_board_is_drawn_by_the_hex_renderer() -> None:
    """A hex board's scene goes to the hex renderer."""
    board = HexBoard(pl.DataFrame({"q": [0, 1, 0], "r": [0, 0, 1]}))
    svg = scene_svg(board, Scene(labels=(Label(next(iter(board)), "here"),)))
    assert svg.startswith("<svg") and "here" in svg


def test_a_board_no_renderer_draws_is_an_error() -> None:
    """Only polygon, graph and hex boards are drawn."""
    with pytest.raises(TypeError, match="no drawing"):
        scene_svg(object(), Scene())  # type: ignore[arg-type]
