"""The polygon board and its drawing: the board answers the Board protocol, the renderer draws
a Scene, and AZTLAN's declared arrow kinds keep the looks polygon maps always had."""

from __future__ import annotations

from typing import Any

import pytest

from gmkit.core.boards import Board
from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.drawing.polygon_svg import KIND_FILLS, polygon_svg
from gmkit.core.drawing.scene import Arrow, ArrowKind, Label, Mark, Scene
from gmkit.core.orders import UnknownNameError
from gmkit.rulesets.aztlan import drawing
from tests.drawing import draw


def square(x: float, y: float) -> dict[str, Any]:
    ring = [[x, y], [x + 10, y], [x + 10, y + 10], [x, y + 10], [x, y]]
    return {"type": "Polygon", "coordinates": [ring]}


def collection() -> dict[str, Any]:
    """Three squares in a row: two lands and a sea to the east."""
    features = [{"type": "Feature", "properties": {"name": n, "kind": k},
                 "geometry": square(10 * i, 0)}
                for i, (n, k) in enumerate((("Ash", "land"), ("Birch", "land"), ("Cove", "sea")))]
    return {"type": "FeatureCollection", "name": "row", "features": features}


@pytest.fixture(scope="module")
def board() -> PolygonBoard:
    return PolygonBoard.from_dict(collection())


def test_polygon_board_answers_the_board_protocol(board: PolygonBoard) -> None:
    """A polygon board is a Board of kind "polygon" whose places are region names."""
    assert isinstance(board, Board) and board.kind == "polygon"
    assert board.neighbours("Birch") == frozenset({"Ash", "Cove"})
    assert board.place_kind("Cove") == "sea" and board.place_kind("Ash") == "land"
    assert board.contains("Ash") and not board.contains("Elm") and not board.contains(3)
    assert board.parse_place("bir") == "Birch" and board.place_text("Birch") == "Birch"
    assert board.names is not None and "Cove" in board.names.names
    with pytest.raises(UnknownNameError):
        board.parse_place("Elm")


def test_polygon_renderer_refuses_places_off_the_board(board: PolygonBoard) -> None:
    """A scene naming a region the board does not have is an error naming it."""
    with pytest.raises(ValueError, match="Elm"):
        polygon_svg(board, Scene(marks=(Mark("Elm", "army", "red"),)))


def test_scene_marks_become_tokens_and_labels_are_drawn(board: PolygonBoard) -> None:
    """Marks are drawn as army tokens with their count; only the scene's labels are written."""
    scene = Scene(kind_fills=KIND_FILLS, labels=(Label("Ash", "Ash <&>"),),
                  marks=(Mark("Birch", "army", "blue", 5),))
    svg = polygon_svg(board, scene, width=300)
    assert 'data-region="Birch" data-count="5"' in svg and ">5</text>" in svg
    assert "Ash &lt;&amp;&gt;</text>" in svg and ">Birch</text>" not in svg


def test_aztlan_arrow_kinds_look_like_the_undeclared_kinds() -> None:
    """AZTLAN declares its attack, move, support and cut; drawn through arrow_kinds they look
    exactly as polygon maps drew them before rulesets declared their own."""
    game_map = PolygonBoard.from_dict(collection())
    arrows = [Arrow("Ash", "Birch", "red", kind.name, ok=ok)
              for kind in drawing.ARROW_KINDS for ok in (None, False)]
    old_looks = (ArrowKind("attack", width=3.0), ArrowKind("move", width=2.0, dash=(6.0, 4.0)),
                 ArrowKind("support", width=1.3, dash=(2.0, 2.5)),
                 ArrowKind("cut", width=1.3, bar=True))
    assert draw(game_map, arrows=arrows, arrow_kinds=drawing.ARROW_KINDS) == draw(
        game_map, arrows=arrows, arrow_kinds=old_looks)


def test_declared_arrow_kinds_replace_the_undeclared_ones() -> None:
    """With arrow_kinds given, only those kinds may be drawn."""
    game_map = PolygonBoard.from_dict(collection())
    kinds = (ArrowKind("raid", width=4.0, head="dot"),)
    svg = draw(game_map, arrows=[Arrow("Ash", "Birch", "red", "raid")], arrow_kinds=kinds)
    assert 'data-kind="raid"' in svg
    with pytest.raises(ValueError, match="kind"):
        draw(game_map, arrows=[Arrow("Ash", "Birch", "red", "attack")], arrow_kinds=kinds)
    assert Arrow("Ash", "Birch", "red", "raid").kind == "raid"
