"""Boards of every kind read from files: the hex board from a table, the graph board from TOML,
the polygon map from GeoJSON, and a game played on a board the GM brings (the contract's
"a GM can still point a game at a board of their own")."""

from __future__ import annotations

import io

import polars as pl
import pytest

from gmkit.core.boards import BoardError
from gmkit.core.boards.files import load_board, read_board
from gmkit.core.boards.graph import GraphBoard
from gmkit.core.boards.hexgrid import Hex, HexBoard
from gmkit.core.boards.resources import package_resource
from gmkit.game import Game, GameError, board_path

HEXES = pl.DataFrame({"q": [0, 1, 0, -1], "r": [0, 0, 1, 1], "kind": ["land", "sea", "land", "hill"]})


def _parquet(frame: pl.DataFrame) -> bytes:
    out = io.BytesIO()
    frame.write_parquet(out)
    return out.getvalue()


@pytest.mark.parametrize("name,data", [
    ("world.parquet", _parquet(HEXES)),
    ("world.csv", HEXES.write_csv().encode()),
    ("world.toml", b"".join(f"[[hexes]]\nq = {q}\nr = {r}\nkind = \"{k}\"\n".encode()
                            for q, r, k in HEXES.iter_rows())),
])
def test_hex_board_file_holds_exactly_its_hexes_with_their_kinds(name, data):
    """A bounded hex board read from Parquet, CSV or TOML has its hexes, their kinds, and only
    neighbours on the board."""
    board = read_board("hex", data, name)
    assert isinstance(board, HexBoard) and board.bounded and len(board) == 4
    assert board.place_kind(Hex(1, 0)) == "sea" and board.place_kind(Hex(-1, 1)) == "hill"
    assert not board.contains(Hex(5, 5))
    assert board.neighbours(Hex(0, 0)) == frozenset({Hex(1, 0), Hex(0, 1), Hex(-1, 1)})


def test_hex_board_toml_unbounded_is_every_hex_of_the_default_kind():
    """``unbounded = true`` is the infinite grid: any hex is on it, of the kind the file names."""
    board = read_board("hex", b'unbounded = true\ndefault_kind = "indeterminate"\n', "w.toml")
    assert isinstance(board, HexBoard) and not board.bounded
    assert board.contains(Hex(1000, -4000)) and board.place_kind(Hex(7, 7)) == "indeterminate"


@pytest.mark.parametrize("kind,name,data,words", [
    ("hex", "w.csv", b"q,r\n0,0\n0,0\n", "0"),                 # a hex listed twice
    ("hex", "w.csv", b"x,y\n0,0\n", "q"),                      # no q/r columns
    ("hex", "w.parquet", b"not parquet", "cannot read"),
    ("hex", "w.toml", b"[[hexes]]\nq = 'a'\n", "w.toml"),
    ("graph", "b.toml", b"[places.A]\nkind = 'land'\nadjacent = ['B']\n", "B"),  # a neighbour not on the board
    ("graph", "b.geojson", b"{}", "a .toml file"),
    ("polygon", "m.geojson", b"{nope", "not valid JSON"),
    ("ring", "m.toml", b"", "unknown board kind"),
])
def test_bad_board_file_is_refused_naming_the_file_and_the_problem(kind, name, data, words):
    """A malformed board is reported with the file's name and what is wrong, never half-read."""
    with pytest.raises(BoardError) as e:
        read_board(kind, data, name)
    assert name in str(e.value) and words in str(e.value)


def test_missing_board_file_names_the_path(tmp_path):
    with pytest.raises(BoardError, match="nothing.toml"):
        load_board("graph", tmp_path / "nothing.toml")


def _redrawn_three_hills(tmp_path):
    """The Three Hills board with the places laid out anew, as a GM might redraw it."""
    text = package_resource("gmkit.rulesets.example", "board.toml").read_text("utf-8")
    text = text.replace("pos = [0, 100]", "pos = [0, 400]")
    path = tmp_path / "my-hills.toml"
    path.write_text(text, "utf-8")
    return path


def test_game_on_a_board_the_gm_brings_keeps_and_draws_that_board(tmp_path):
    """``Game.new(map_path=...)`` on a graph ruleset keeps the GM's board in the folder; the game
    plays and draws on it, and each turn records its hash."""
    mine = _redrawn_three_hills(tmp_path)
    game = Game.new(tmp_path / "g", "example", [{"id": "Amber"}, {"id": "Birch"}],
                    map_path=mine)
    assert board_path(game.root, game.ruleset) == game.root / "board.toml"
    assert (game.root / "board.toml").read_bytes() == mine.read_bytes()
    board = game.board
    assert isinstance(board, GraphBoard) and board.places["Camp"].pos == (0, 400)
    svg = game.map_svg(game.state())
    assert svg is not None and "400" in svg
    assert game.store.manifest(0)["board"] == game.record()["board"]


def test_board_of_the_wrong_kind_is_refused_at_new(tmp_path):
    """A polygon ruleset given a graph board, or a graph ruleset given GeoJSON, is refused
    with a one-line reason naming the file; no folder is left behind."""
    mine = _redrawn_three_hills(tmp_path)
    with pytest.raises(GameError, match="my-hills.toml"):
        Game.new(tmp_path / "c", "cien", [{"id": "Red", "state": "Tróys"}], map_path=mine)
    assert not (tmp_path / "c").exists()
    geo = tmp_path / "m.geojson"
    geo.write_text('{"type": "FeatureCollection", "features": []}', "utf-8")
    with pytest.raises(GameError, match="m.geojson"):
        Game.new(tmp_path / "e", "example", [{"id": "Amber"}], map_path=geo)


# -- board files read safely: hostile files are refused with their path, never a hang --------

_SQUARE = [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]]


def _feature(name: object, kind: object, coordinates: object = _SQUARE) -> dict:
    return {"type": "Feature", "properties": {"name": name, "kind": kind},
            "geometry": {"type": "Polygon", "coordinates": coordinates}}


def _collection(*features: dict) -> bytes:
    import json

    return json.dumps({"type": "FeatureCollection", "features": list(features)}).encode()


@pytest.mark.parametrize("kind,name,data,words", [
    ("polygon", "m.geojson", _collection(_feature("A", "land", [[[0, 0], [1e308, 0],
                                                                   [1e308, 1e308], [0, 0]]])),
     "coordinate 1e+308 is not a number within"),
    ("polygon", "m.geojson", b"[" * 200_000, "nested too deeply"),
    ("polygon", "m.geojson", b'{"a": ' + b"1" * 5000 + b"}", "not valid JSON"),
    ("polygon", "m.geojson", _collection(_feature("A", "land", [[["x", 0]]])),
     "coordinate x is not a number"),
    ("graph", "g.toml", b"a = " + b"[" * 200_000, "nested too deeply"),
    ("graph", "g.toml", b'[places.A]\nkind = "land"\nadjacent = ["B"]\npos = [1e308, 0]\n'
                        b'[places.B]\nkind = "land"\nadjacent = ["A"]\n', "two numbers within"),
    ("hex", "h.toml", b"a = " + b"{x = " * 50_000, "nested too deeply"),
    ("hex", "h.csv", b"q,r\n99999999999999999999999,0\n", "farther than"),
    ("hex", "h.toml", b"[[hexes]]\nq = 9223372036854775807\nr = 0\n", "farther than"),
])
def test_a_hostile_board_file_is_refused_naming_it(kind: str, name: str, data: bytes,
                                                   words: str) -> None:
    """Coordinates of 1e308, deep nesting, a 5000-digit number, hexes at the end of the
    integers: a BoardError naming the file, never a RecursionError, an overflow or a GEOS
    exception."""
    with pytest.raises(BoardError) as e:
        read_board(kind, data, name)
    assert str(e.value).startswith(f"{name}: ") and words in str(e.value)


def test_a_board_file_with_several_problems_lists_each_with_its_path_once() -> None:
    """Every bad feature is listed, each on its line; the file is named once."""
    data = _collection(_feature("A", "land"), _feature("", "land"), _feature("B", "swamp"),
                       _feature("C", "land", [[[0, 0], [float("inf"), 0], [0, 1], [0, 0]]]))
    with pytest.raises(BoardError) as e:
        read_board("polygon", data, "mine.geojson")
    lines = str(e.value).splitlines()
    assert lines[0] == "mine.geojson: 3 problems:"
    assert [line.split(":")[0].strip() for line in lines[1:]] == [
        "feature 1", "feature 2 ('B')", "feature 3 ('C')"]
    assert str(e.value).count("mine.geojson") == 1


@pytest.mark.parametrize("device", ["/dev/zero", "fifo"])
def test_a_board_that_is_a_device_or_a_pipe_is_refused_at_once(tmp_path, device: str) -> None:
    """A FIFO or /dev/zero given as a board is refused as not a regular file (never waited
    on, never read into memory)."""
    import os
    from pathlib import Path

    path = Path(device)
    if device == "fifo":
        path = tmp_path / "board.geojson"
        os.mkfifo(path)
    elif not path.exists():
        pytest.skip("no /dev/zero here")
    for kind in ("polygon", "graph", "hex"):
        with pytest.raises(BoardError, match="not a regular file"):
            load_board(kind, path)
    with pytest.raises(BoardError, match="not a regular file"):
        GraphBoard.from_file(path)


def _many_places(kind: str, count: int) -> tuple[str, bytes]:
    """A board of ``count`` places in a row, each touching the one before and the one
    after."""
    import json

    def adjacent(i: int) -> str:
        return ", ".join(f'"P{j}"' for j in (i - 1, i + 1) if 0 <= j < count)

    if kind == "graph":
        return "board.toml", "".join(
            f'[places.P{i}]\nkind = "hill"\npos = [{i}, 0]\nadjacent = [{adjacent(i)}]\n'
            for i in range(count)).encode()
    if kind == "graph-inline":  # no [places.X] header to count before parsing
        return "board.toml", ("[places]\n" + "".join(
            f'P{i} = {{ kind = "hill", adjacent = [{adjacent(i)}] }}\n'
            for i in range(count))).encode()
    features = [{"type": "Feature", "properties": {"name": f"P{i}", "kind": "land"},
                 "geometry": {"type": "Polygon", "coordinates": [
                     [[i, 0], [i + 1, 0], [i + 1, 1], [i, 1], [i, 0]]]}} for i in range(count)]
    return "map.geojson", json.dumps({"type": "FeatureCollection", "features": features}).encode()


@pytest.mark.parametrize("kind", ["graph", "graph-inline", "polygon"])
def test_a_board_of_more_places_than_a_board_may_have_is_refused_naming_the_count(
        kind: str) -> None:
    """A graph board or polygon map of more than ``MAX_PLACES`` places is refused, naming the
    file and the count, before it is built (``bench/board_limits.py`` times a 100,000-place
    one); one of exactly ``MAX_PLACES`` is not refused for its size."""
    from gmkit.core.boards import MAX_PLACES

    name, data = _many_places(kind, MAX_PLACES + 1)
    board_kind = "polygon" if kind == "polygon" else "graph"
    with pytest.raises(BoardError) as found:
        read_board(board_kind, data, name, "big board")
    assert str(found.value) == (f"big board: {MAX_PLACES + 1:,} places, more than the "
                                f"{MAX_PLACES:,} a board may have")
    if kind == "graph":
        name, data = _many_places(kind, MAX_PLACES)
        assert len(read_board(board_kind, data, name).places) == MAX_PLACES
