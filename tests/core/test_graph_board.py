"""Graph boards: loading from TOML and from tables, and validation naming the file and place."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from gmkit.core.boards import Board, BoardError
from gmkit.core.boards.graph import GraphBoard, load_package_board
from gmkit.core.orders import AmbiguousOrderError, UnknownNameError

NILE = """
name = "The Nile"
kinds = ["food", "stone"]
edges = [["Thebes", "Luxor"]]

[places.Memphis]
kind = "food"
aliases = ["Men-nefer"]
pos = [120, 80]
adjacent = ["Thebes", "Giza"]
capital = true

[places.Giza]
kind = "stone"
pos = [100, 60]
adjacent = ["Memphis"]

[places.Thebes]
kind = "food"
pos = [200, 300]
adjacent = ["Memphis"]

[places.Luxor]
kind = "food"
name = "Luxor Temple"
"""


def test_board_loads_places_kinds_positions_and_adjacency() -> None:
    board = GraphBoard.from_toml(NILE, "nile.toml")
    assert isinstance(board, Board) and board.kind == "graph"
    assert board.name == "The Nile" and len(board) == 4
    assert board.neighbours("Memphis") == {"Thebes", "Giza"}
    assert board.neighbours("Thebes") == {"Memphis", "Luxor"}, "edges join both ways"
    assert board.place_kind("Giza") == "stone"
    assert board.position("Memphis") == (120.0, 80.0) and board.position("Luxor") is None
    assert board.places["Memphis"].props["capital"] is True
    assert board.of_kind("food") == ("Memphis", "Thebes", "Luxor")
    assert board.edges() == [("Memphis", "Giza"), ("Memphis", "Thebes"), ("Thebes", "Luxor")]


def test_places_are_parsed_by_name_alias_or_prefix() -> None:
    """Order parsing goes through the board's name index: names, aliases, display names."""
    board = GraphBoard.from_toml(NILE, "nile.toml")
    assert board.parse_place("men-nefer") == "Memphis"
    assert board.parse_place("theb") == "Thebes"
    assert board.parse_place("Luxor Temple") == "Luxor"
    assert board.place_text("Luxor") == "Luxor Temple"
    with pytest.raises(UnknownNameError, match="Memfis"):
        board.parse_place("Memfis")
    assert "Memfis" not in board.names


def test_ambiguous_prefix_is_reported() -> None:
    board = GraphBoard.from_toml(
        '[places.Abydos]\nkind="food"\nadjacent=["Abu"]\n[places.Abu]\nkind="food"\n'
        'adjacent=["Abydos"]\n', "t.toml")
    with pytest.raises(AmbiguousOrderError):
        board.parse_place("Ab")


def test_asymmetric_adjacency_names_the_file_and_both_places(tmp_path: Path) -> None:
    """Adjacency must be listed both ways; the error says which place forgot which."""
    path = tmp_path / "nile.toml"
    path.write_text(NILE.replace('adjacent = ["Memphis"]\n\n[places.Thebes]',
                                 'adjacent = []\n\n[places.Thebes]'), encoding="utf-8")
    with pytest.raises(BoardError) as err:
        GraphBoard.from_file(path)
    message = str(err.value)
    assert str(path) in message
    assert "'Memphis' lists 'Giza'" in message and "'Giza' does not list 'Memphis'" in message


def test_unknown_place_names_the_file_and_the_place() -> None:
    text = NILE.replace('adjacent = ["Thebes", "Giza"]', 'adjacent = ["Thebes", "Giza", "Karnak"]')
    with pytest.raises(BoardError) as err:
        GraphBoard.from_toml(text, "nile.toml")
    assert str(err.value).startswith("nile.toml: ")
    assert "'Memphis': unknown adjacent place 'Karnak'" in str(err.value)


def test_unknown_place_in_an_edge_is_named() -> None:
    text = NILE.replace('[["Thebes", "Luxor"]]', '[["Thebes", "Luxor"], ["Aswan", "Luxor"]]')
    with pytest.raises(BoardError, match="'Aswan'"):
        GraphBoard.from_toml(text, "nile.toml")


def test_self_loop_and_unknown_kind_are_all_reported_at_once() -> None:
    text = NILE.replace('kind = "stone"\npos = [100, 60]\nadjacent = ["Memphis"]',
                        'kind = "gold"\npos = [100, 60]\nadjacent = ["Memphis", "Giza"]')
    with pytest.raises(BoardError) as err:
        GraphBoard.from_toml(text, "nile.toml")
    assert len(err.value.problems) == 2
    assert "'Giza' is adjacent to itself" in str(err.value)
    assert "'Giza': kind 'gold'" in str(err.value)


def test_unreachable_place_is_an_error_unless_allowed() -> None:
    """Every place must be reachable from the first, unless ``connected = false``."""
    text = NILE + '\n[places.Siwa]\nkind = "food"\n'
    with pytest.raises(BoardError, match="'Siwa' cannot be reached"):
        GraphBoard.from_toml(text, "nile.toml")
    board = GraphBoard.from_toml("connected = false\n" + text, "nile.toml")
    assert board.neighbours("Siwa") == frozenset()


def test_bad_toml_and_bad_fields_name_the_source() -> None:
    with pytest.raises(BoardError, match="^x.toml: not valid TOML"):
        GraphBoard.from_toml("[places", "x.toml")
    with pytest.raises(BoardError, match="^x.toml: place 'A': pos must be"):
        GraphBoard.from_toml('[places.A]\nkind = "food"\npos = [1]\n', "x.toml")
    with pytest.raises(BoardError, match="no \\[places\\] table"):
        GraphBoard.from_toml('name = "empty"\n', "x.toml")


def test_board_round_trips_through_tables() -> None:
    board = GraphBoard.from_toml(NILE, "nile.toml")
    places, edges = board.to_frames()
    again = GraphBoard.from_frames(places, edges, source="tables")
    assert again.edges() == board.edges()
    assert again.position("Giza") == (100.0, 60.0)
    assert again.parse_place("Luxor Temple") == "Luxor"


def test_directed_table_rows_must_be_mirrored() -> None:
    places = pl.DataFrame({"place": ["A", "B"], "kind": ["food", "food"]})
    edges = pl.DataFrame({"a": ["A"], "b": ["B"]})
    assert GraphBoard.from_frames(places, edges).neighbours("B") == {"A"}
    with pytest.raises(BoardError, match="'A' lists 'B' as adjacent but 'B' does not list 'A'"):
        GraphBoard.from_frames(places, edges, directed=True, source="edges.parquet")
    with pytest.raises(BoardError, match="missing column 'kind'"):
        GraphBoard.from_frames(places.drop("kind"), edges)


def test_package_board_loads_through_importlib_resources(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = tmp_path / "nilepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "nile.toml").write_text(NILE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    board = load_package_board("nilepkg", "nile.toml")
    assert board.source == "nilepkg/nile.toml" and len(board) == 4
    with pytest.raises(BoardError, match="^nilepkg/missing.toml: cannot read"):
        load_package_board("nilepkg", "missing.toml")
