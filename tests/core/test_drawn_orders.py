"""A turn's orders drawn on a map, the same for every game: arrows and marks naming their
orders, a legend entry per kind drawn, and names and pieces placed clear of the arrows on hex,
graph and polygon boards."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from gmkit.core.boards.graph import GraphBoard
from gmkit.core.boards.hexgrid import Hex, HexBoard, Layout
from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.drawing.graph_svg import graph_svg
from gmkit.core.drawing.hex_svg import hex_svg
from gmkit.core.drawing.orders import DrawnOrders, merged, on_scene, order_ref, void_lines
from gmkit.core.drawing.polygon_svg import polygon_svg
from gmkit.core.drawing.scene import (Arrow, ArrowKind, Label, LegendEntry, Mark, MarkKind,
                                      Scene)
from gmkit.core.drawing.svg_text import text_width
from gmkit.core.envelope import Envelope
from gmkit.core.steps import Event, void_event

SVG = "{http://www.w3.org/2000/svg}"
ATTACK = ArrowKind("attack", width=2.6, label="an attack")
MOVE = ArrowKind("move", dash=(4.0, 2.0), label="a move")
DEFENCE = MarkKind("defence", "square", label="defence (grain beside it)")
ACTION = MarkKind("action", "star", label="an action there")


def _drawn(**kw: Any) -> DrawnOrders:
    return DrawnOrders(arrow_kinds=(ATTACK, MOVE), mark_kinds=(DEFENCE, ACTION), **kw)


def test_an_order_is_named_by_its_envelope_key() -> None:
    """Every order drawn names its order as player/post/line/index, unique in its turn."""
    assert order_ref(Envelope("x", "Red", 12, 3)) == "Red/12/3/0"
    assert order_ref(Envelope("x", "Red", 12, 3, index=1)) == "Red/12/3/1"


def test_drawn_orders_refuse_undeclared_kinds() -> None:
    """A kind must be declared, so that every shape and line drawn has its legend entry."""
    with pytest.raises(ValueError, match="undeclared kind.*'charge'"):
        _drawn(arrows=(Arrow("a", "b", "red", "charge"),))
    with pytest.raises(ValueError, match="order marks of undeclared kind.*'dig'"):
        _drawn(marks=(Mark("a", "dig", "red"),))


def test_nothing_drawn_is_false_and_has_no_legend() -> None:
    assert not _drawn() and _drawn().legend() == ()
    assert _drawn(marks=(Mark("a", "defence", "red"),))


def test_the_legend_has_an_entry_per_kind_drawn_and_none_for_kinds_unused() -> None:
    """A legend entry per kind of mark: an arrow kind as a short arrow, a mark kind as its
    shape, in the order declared; kinds declared but not drawn are left out."""
    drawn = _drawn(arrows=(Arrow("a", "b", "red", "move"),),
                   marks=(Mark("a", "action", "red"), Mark("b", "action", "blue")))
    assert drawn.legend() == (LegendEntry("a move", "#555555", arrow="move"),
                              LegendEntry("an action there", "#555555", shape="star"))


def test_orders_on_a_scene_add_their_arrows_marks_kinds_and_legend() -> None:
    base = Scene(labels=(Label("a", "A"),), legend=(LegendEntry("Red", "red"),),
                 arrow_kinds=(ATTACK,))
    drawn = _drawn(arrows=(Arrow("a", "b", "red", "attack", orders=("Red/1/1/0",)),),
                   marks=(Mark("b", "defence", "red", note="12", orders=("Red/1/2/0",)),))
    scene = on_scene(base, drawn)
    assert [a.kind for a in scene.arrows] == ["attack"]
    assert [m.piece for m in scene.marks] == ["defence"]
    assert [k.name for k in scene.arrow_kinds] == ["attack", "move"]  # declared once each
    assert scene.declared_shape("defence") == "square"
    assert [e.label for e in scene.legend] == ["Red", "an attack", "defence (grain beside it)"]
    assert on_scene(base, None) is base and on_scene(base, _drawn()) is base
    with pytest.raises(ValueError, match="declared twice with two looks"):
        on_scene(Scene(arrow_kinds=(ArrowKind("attack", width=9),)), drawn)


def test_the_same_arrow_twice_is_drawn_once_counting_its_orders() -> None:
    """A house attacking the same rival in the Morning and the Afternoon: one arrow, ``×2``
    after its text, naming both orders; a different outcome keeps its own arrow."""
    a = Arrow("x", "y", "red", "attack", text="R", title="Morning", orders=("R/1/1/0",))
    b = Arrow("x", "y", "red", "attack", text="R", title="Afternoon", orders=("R/1/2/0",))
    c = Arrow("x", "y", "red", "attack", text="R", ok=False, orders=("R/1/3/0",))
    out = merged([a, b, c])
    assert len(out) == 2
    assert out[0].text == "R\u00d72" and out[0].orders == ("R/1/1/0", "R/1/2/0")
    assert out[0].title == "Morning; Afternoon" and out[1] is c


def test_void_events_name_the_failed_lines() -> None:
    events = [void_event("Red", "4", "no grain", line=3), Event("move", "2", "x", "Red"),
              Event("void", "4", "y", None, data={"line": 2})]
    assert void_lines(events) == {("Red", 3)}


def test_texts_on_arrows_and_notes_beside_marks_are_short() -> None:
    """An arrow's text and a mark's note are a few characters (an initial, an amount)."""
    Arrow("a", "b", "red", text="12345678")
    with pytest.raises(ValueError, match="longer than 8"):
        Arrow("a", "b", "red", text="123456789")
    with pytest.raises(ValueError, match="longer than 8"):
        Mark("a", "defence", "red", note="a\nb")


def _texts(svg: str) -> list[tuple[str, float, float]]:
    """Every text of the drawing with its position (the label layer's own position, or a
    tspan's)."""
    root = ET.fromstring(svg)
    out = []
    for t in root.iter(f"{SVG}text"):
        span = t.find(f"{SVG}tspan")
        x = float((span if span is not None else t).get("x") or 0)
        y = float(t.get("y") or (span.get("y") if span is not None else 0) or 0)
        out.append(("".join(t.itertext()), x, y))
    return out


def _shafts(svg: str) -> list[list[tuple[float, float]]]:
    root = ET.fromstring(svg)
    out = []
    for g in root.iter(f"{SVG}g"):
        if g.get("data-kind") is None:
            continue
        line = next(g.iter(f"{SVG}polyline"))
        out.append([tuple(map(float, p.split(","))) for p in (line.get("points") or "").split()])
    return out


def _on(points: list[tuple[float, float]], box: tuple[float, float, float, float]) -> bool:
    """Whether a polyline passes through a box (checked every half unit)."""
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        n = max(1, int(math.dist((x0, y0), (x1, y1)) * 2))
        for k in range(n + 1):
            x, y = x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n
            if box[0] < x < box[2] and box[1] < y < box[3]:
                return True
    return False


def test_a_name_on_an_arrows_way_moves_off_it_on_a_hex_board() -> None:
    """The placement takes the arrows into it: a town's name on the hex an arrow passes is
    moved off the arrow (with a leader line back to its hex), never drawn over it."""
    scene = Scene(labels=(Label(Hex(1, 0), "Town"),),
                  arrows=(Arrow(Hex(0, 0), Hex(3, 0), "red", "attack"),), arrow_kinds=(ATTACK,))
    svg = hex_svg(HexBoard(), scene, Layout(), width=None)
    (shaft,) = _shafts(svg)
    (name,) = [t for t in _texts(svg) if t[0] == "Town"]
    font = 10 * 0.8 * 0.8
    w, h = text_width("Town", font) / 2, font * 0.6
    assert not _on(shaft, (name[1] - w, name[2] - h, name[1] + w, name[2] + h))
    assert 'data-leader="1"' in svg
    x, y = Layout().to_pixel(Hex(1, 0))
    assert _on(shaft, (x - 2, y - 2, x + 2, y + 2)), "the arrow runs where the name wanted to be"


def test_an_arrows_text_is_drawn_on_it_in_a_frame_of_its_colour_on_a_graph_board() -> None:
    """Colour is never the only cue: an arrow's text (its player's initial) is written on it,
    clear of the places' names."""
    board = GraphBoard.from_toml('[places.A]\nkind = "land"\npos = [0, 0]\nadjacent = ["B"]\n'
                                 '[places.B]\nkind = "land"\npos = [120, 0]\n'
                                 'adjacent = ["A"]\n')
    scene = Scene(arrows=(Arrow("A", "B", "#cc3333", "attack", text="R", orders=("R/1/1/0",)),),
                  arrow_kinds=(ATTACK,))
    root = ET.fromstring(graph_svg(board, scene))
    (text,) = [g for g in root.iter(f"{SVG}g") if g.get("data-arrow") == "0"]
    assert text.get("data-orders") == "R/1/1/0"
    assert text.find(f"{SVG}rect").get("stroke") == "#cc3333"  # type: ignore[union-attr]
    assert "".join(text.itertext()) == "R"


def test_order_marks_show_their_note_their_orders_and_a_cross_when_they_failed() -> None:
    """A mark of an order: its shape, the initial on it, the amount beside it, the orders it
    draws; a failed one faded and crossed out."""
    scene = on_scene(Scene(), _drawn(marks=(
        Mark(Hex(0, 0), "defence", "#cc3333", text="R", note="12", orders=("R/1/2/0",)),
        Mark(Hex(1, 0), "action", "#0000ff", text="B", ok=False, orders=("B/2/1/0",)))))
    root = ET.fromstring(hex_svg(HexBoard(), scene, Layout(), width=None))
    pieces = {g.get("data-piece"): g for g in root.iter(f"{SVG}g") if g.get("data-piece")}
    defence, action = pieces["defence"], pieces["action"]
    assert defence.get("data-orders") == "R/1/2/0" and defence.find(f"{SVG}rect") is not None
    assert [t.text for t in defence.iter(f"{SVG}text")] == ["R", "12"]
    assert action.get("data-ok") == "false"
    assert any(p.get("data-mark") == "failed" for p in action.iter(f"{SVG}path"))
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("data-layer") == "legend")
    assert [t.text for t in legend.iter(f"{SVG}text")] == ["defence (grain beside it)",
                                                          "an action there"]


def test_the_legend_draws_an_arrow_kind_as_a_short_arrow_of_its_look() -> None:
    scene = on_scene(Scene(), _drawn(arrows=(Arrow(Hex(0, 0), Hex(2, 0), "red", "move"),)))
    svg = hex_svg(HexBoard(), scene, Layout(), width=None)
    legend = re.search(r'<g data-layer="legend".*?</g></g>', svg)
    assert legend and 'data-swatch="move"' in legend.group(0)
    assert "stroke-dasharray" in legend.group(0), "the swatch is dashed like a move"
    assert svg.count("data-kind=") == 1, "the swatch is no order"


def _square(x: float, y: float, name: str, kind: str = "land") -> dict[str, Any]:
    ring = [[x, y], [x + 10, y], [x + 10, y + 10], [x, y + 10], [x, y]]
    return {"type": "Feature", "properties": {"name": name, "kind": kind},
            "geometry": {"type": "Polygon", "coordinates": [ring]}}


def test_a_route_across_a_sea_passes_inside_the_sea_on_a_polygon_map() -> None:
    """A conquest across a sea (an arrow ``via`` the sea) crosses the water: its bend lies
    inside the sea, not on the sea's name; the defence marks sit in a row under the name."""
    board = PolygonBoard.from_dict({"type": "FeatureCollection", "name": "bay", "features": [
        _square(0, 10, "West"), _square(20, 10, "East"), _square(10, 10, "Cape"),
        {"type": "Feature", "properties": {"name": "Bay", "kind": "sea"},
         "geometry": {"type": "Polygon",
                      "coordinates": [[[0, 0], [30, 0], [30, 10], [0, 10], [0, 0]]]}}]})
    scene = on_scene(Scene(labels=(Label("Bay", "Bay"), Label("West", "West"))), _drawn(
        arrows=(Arrow("West", "East", "red", "attack", via=("Bay",), text="8"),),
        marks=(Mark("West", "defence", "red", text="R", note="3"),)))
    svg = polygon_svg(board, scene, width=300)
    (shaft,) = _shafts(svg)
    assert len(shaft) == 3
    bend_y = shaft[1][1]
    sea_top = 4 + 10 * (290 / 30)  # the sea's upper edge in pixels (4 px margin)
    assert bend_y > sea_top, "the bend is in the sea, below the coast"
    assert 'data-piece="defence"' in svg and 'data-layer="arrow-texts"' in svg
