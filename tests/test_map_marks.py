"""Marks drawn on the SVG maps: army stacks and order arrows (scene marks and arrows),
checked on a small board of squares and on the AZTLAN board; and how the game, the desk and the
Jupyter panel pass a ruleset's stacks and arrows through to the maps they show."""

from __future__ import annotations

import dataclasses

import hashlib
import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import FrozenInstanceError
from pathlib import Path
from typing import Any

import pytest

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.drawing.orders import DrawnOrders
from gmkit.core.drawing.scene import Arrow, ArrowKind, Scene
from gmkit.core.params import Params
from gmkit.core.steps import Event
from gmkit.core.tables import State
from gmkit.desk import Desk
from gmkit.game import Game
from gmkit.rulesets.aztlan.board.geography import load_map
from tests.drawing import army
from tests.drawing import draw as draw_polygon

KINDS = (ArrowKind("attack", width=3.0), ArrowKind("move", width=2.0, dash=(6.0, 4.0)),
         ArrowKind("support", width=1.3, dash=(2.0, 2.5)), ArrowKind("cut", width=1.3, bar=True))
ARROW_KINDS = tuple(k.name for k in KINDS)


def draw(board: PolygonBoard, *args, **kw) -> str:
    """The board drawn with the kinds this module declares."""
    return draw_polygon(board, *args, **{"arrow_kinds": KINDS, **kw})


NS = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample-cien"
SEED = hashlib.sha256(b"gmkit map marks tests").hexdigest()


def square(x: float, y: float) -> dict[str, Any]:
    ring = [[x, y], [x + 10, y], [x + 10, y + 10], [x, y + 10], [x, y]]
    return {"type": "Polygon", "coordinates": [ring]}


@pytest.fixture(scope="module")
def grid() -> PolygonBoard:
    """Nine 10 x 10 squares named by column (A-C, west to east) and row (1-3, south to north)."""
    features = [{"type": "Feature", "properties": {"name": f"{col}{row}", "kind": "land"},
                 "geometry": square(10 * c, 10 * (row - 1))}
                for c, col in enumerate("ABC") for row in (1, 2, 3)]
    return PolygonBoard.from_dict({"type": "FeatureCollection", "name": "grid",
                              "features": features})


@pytest.fixture(scope="module")
def aztlan() -> PolygonBoard:
    return load_map()


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def arrow_groups(svg: str) -> list[ET.Element]:
    return [g for g in parse(svg).iter(f"{NS}g") if "data-kind" in g.attrib]


def stack_groups(svg: str) -> list[ET.Element]:
    return [g for g in parse(svg).iter(f"{NS}g") if "data-count" in g.attrib]


def points(text: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in (p.split(",") for p in text.split())]


def shaft(group: ET.Element) -> list[tuple[float, float]]:
    """The coloured line of an arrow (the second polyline: the first is its white casing)."""
    lines = list(group.iter(f"{NS}polyline"))
    assert len(lines) == 2
    return points(lines[1].attrib["points"])


def tip(group: ET.Element) -> tuple[float, float]:
    head = next(group.iter(f"{NS}polygon"))
    return points(head.attrib["points"])[0]


# -- no marks, no change -------------------------------------------------------------------------

def test_without_marks_the_drawing_is_unchanged(grid: PolygonBoard, aztlan: PolygonBoard) -> None:
    for board in (grid, aztlan):
        kwargs: dict[str, Any] = {"title": "T", "legend": [("x", "red")],
                                  "highlight": [next(iter(board.regions))]}
        plain = draw(board, **kwargs)
        assert draw(board, stacks=(), arrows=(), **kwargs) == plain
        assert draw(board, stacks=[], arrows=[], **kwargs) == plain
        assert 'data-layer="stacks"' not in plain and "polygon" not in plain


def test_marks_are_frozen_values() -> None:
    arrow = Arrow("A1", "B1", "red", "attack")
    assert arrow == Arrow("A1", "B1", "red", "attack") and hash(arrow) == hash(
        Arrow("A1", "B1", "red", "attack"))
    with pytest.raises(FrozenInstanceError):
        arrow.ok = True  # type: ignore[misc]
    assert Arrow("A1", "B1", "red").kind == "move" and army("A1", 1, "red").title == ""
    assert ARROW_KINDS == ("attack", "move", "support", "cut")


# -- stacks --------------------------------------------------------------------------------------

@pytest.mark.parametrize("count, rects, number", [(1, 1, None), (2, 2, None), (3, 3, None),
                                                  (4, 1, "4"), (12, 1, "12")])
def test_a_stack_shows_one_to_three_tokens_or_a_number(grid: PolygonBoard, count: int, rects: int,
                                                       number: str | None) -> None:
    svg = draw(grid, stacks=[army("B2", count, "#c62828", "Aztecs")])
    (group,) = stack_groups(svg)
    assert group.attrib["data-region"] == "B2" and group.attrib["data-count"] == str(count)
    tokens = list(group.iter(f"{NS}rect"))
    assert len(tokens) == rects and all(t.attrib["fill"] == "#c62828" for t in tokens)
    texts = [t.text for t in group.iter(f"{NS}text")]
    assert texts == ([number] if number else [])
    assert group.find(f"{NS}title").text == "Aztecs"


def test_stacks_sit_below_their_label_and_side_by_side(grid: PolygonBoard) -> None:
    svg = draw(grid, stacks=[army("B2", 3, "red"), army("A1", 1, "blue")],
                      labels={"A1": ""})
    root = parse(svg)
    label_y = {t.text: float(t.attrib["y"]) for t in root.iter(f"{NS}text") if t.text == "B2"}
    b2, a1 = stack_groups(svg)
    rects = list(b2.iter(f"{NS}rect"))
    xs = [float(r.attrib["x"]) for r in rects]
    assert xs == sorted(xs) and len(set(xs)) == 3, "three tokens side by side"
    assert all(float(r.attrib["y"]) > label_y["B2"] for r in rects), "below the label"
    # A1 has no label: its token is centred on the label point instead
    (token,) = a1.iter(f"{NS}rect")
    label = next(t for t in parse(draw(grid)).iter(f"{NS}text") if t.text == "A1")
    x, baseline = float(label.attrib["x"]), float(label.attrib["y"])
    size = float(token.attrib["width"])
    assert abs(float(token.attrib["x"]) + size / 2 - x) < 0.2
    assert baseline - size < float(token.attrib["y"]) + size / 2 < baseline


def test_two_stacks_in_one_region_are_drawn_one_under_the_other(grid: PolygonBoard) -> None:
    svg = draw(grid, stacks=[army("B2", 1, "red"), army("B2", 2, "blue")])
    first, second = stack_groups(svg)
    y1 = float(next(first.iter(f"{NS}rect")).attrib["y"])
    y2 = float(next(second.iter(f"{NS}rect")).attrib["y"])
    assert y2 > y1


# -- arrows --------------------------------------------------------------------------------------

def test_each_kind_of_arrow_has_its_look(grid: PolygonBoard) -> None:
    arrows = [Arrow("A1", "B1", "red", "attack"), Arrow("A2", "B2", "blue", "move"),
              Arrow("A3", "B3", "green", "support"), Arrow("C1", "C2", "purple", "cut")]
    groups = {g.attrib["data-kind"]: g for g in arrow_groups(draw(grid, arrows=arrows))}
    assert set(groups) == set(ARROW_KINDS)
    width = {k: float(g.findall(f".//{NS}polyline")[1].attrib["stroke-width"])
             for k, g in groups.items()}
    dash = {k: g.findall(f".//{NS}polyline")[1].attrib.get("stroke-dasharray")
            for k, g in groups.items()}
    assert width["attack"] > width["move"] > width["support"] and width["cut"] < width["move"]
    assert dash["attack"] is None and dash["cut"] is None
    assert dash["move"] and dash["support"] and dash["move"] != dash["support"]
    for kind, group in groups.items():
        head = next(group.iter(f"{NS}polygon"))
        assert len(points(head.attrib["points"])) == 3, f"{kind}: a triangle for a head"
        assert head.attrib["fill"] == group.findall(f".//{NS}polyline")[1].attrib["stroke"]
    assert [m.attrib.get("data-mark") for m in groups["cut"].iter(f"{NS}line")] == ["cut"]
    assert not list(groups["attack"].iter(f"{NS}line"))
    assert "<marker" not in draw(grid, arrows=arrows), "no ids shared between SVGs in a page"


def test_an_arrow_points_from_its_source_to_its_destination(grid: PolygonBoard) -> None:
    (group,) = arrow_groups(draw(grid, arrows=[Arrow("A2", "C2", "red", "attack")]))
    line = shaft(group)
    end = tip(group)
    assert line[0][0] < line[-1][0] < end[0], "west to east"
    assert abs(line[0][1] - end[1]) < 1.0, "level: both on the middle row"
    assert group.attrib["data-src"] == "A2" and group.attrib["data-dst"] == "C2"


def test_a_move_is_a_polyline_through_its_path(grid: PolygonBoard) -> None:
    svg = draw(grid, arrows=[Arrow("A1", "C3", "red", "move", via=("A3", "B3"))])
    (group,) = arrow_groups(svg)
    line = shaft(group)
    assert len(line) == 4, "start, the two regions passed, and the end"
    xs, ys = [p[0] for p in line], [p[1] for p in line]
    assert ys[0] > ys[1] and abs(ys[1] - ys[2]) < 1e-6, "up to row 3, then along it"
    assert xs[1] < xs[2] < xs[3]


def test_a_support_ends_on_the_middle_of_the_arrow_it_supports(grid: PolygonBoard) -> None:
    svg = draw(grid, arrows=[Arrow("A1", "C1", "red", "attack"),
                              Arrow("B3", "C1", "blue", "support", onto=("A1", "C1"))])
    attack, support = arrow_groups(svg)
    start, end = shaft(attack)[0], tip(attack)
    middle = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
    assert math.dist(tip(support), middle) < 3.0


def test_a_support_of_an_order_not_drawn_ends_between_the_two_regions(grid: PolygonBoard) -> None:
    (support,) = arrow_groups(draw(grid, 
        arrows=[Arrow("B3", "C1", "blue", "support", onto=("A1", "C1"))]))
    assert tip(support)[1] > shaft(support)[0][1], "down towards the bottom row"
    assert abs(tip(support)[0] - shaft(support)[0][0]) < 3.0, "to the middle of A1-C1, below B3"


def test_opposite_arrows_between_two_regions_are_drawn_apart(grid: PolygonBoard) -> None:
    there, back = arrow_groups(draw(grid, arrows=[Arrow("A2", "C2", "red", "attack"),
                                                   Arrow("C2", "A2", "blue", "attack")]))
    assert abs(shaft(there)[0][1] - shaft(back)[0][1]) > 3.0


def test_an_arrow_to_its_own_region_is_a_ring(grid: PolygonBoard) -> None:
    (group,) = arrow_groups(draw(grid, arrows=[Arrow("B2", "B2", "red", "attack")]))
    assert len(list(group.iter(f"{NS}circle"))) == 1


def test_outcomes_solid_faded_and_crossed(grid: PolygonBoard) -> None:
    svg = draw(grid, arrows=[Arrow("A1", "B1", "red", "attack", ok=None),
                              Arrow("A2", "B2", "red", "attack", ok=True),
                              Arrow("A3", "B3", "red", "attack", ok=False)])
    pending, done, failed = arrow_groups(svg)
    assert [g.attrib["data-ok"] for g in (pending, done, failed)] == ["none", "true", "false"]

    def faded(group: ET.Element) -> bool:
        return any("opacity" in g.attrib for g in group.iter(f"{NS}g"))

    def crossed(group: ET.Element) -> bool:
        return any(p.attrib.get("data-mark") == "failed" for p in group.iter(f"{NS}path"))

    assert not faded(pending) and not crossed(pending)
    assert not faded(done) and not crossed(done)
    assert faded(failed) and crossed(failed)


def test_arrows_then_stacks_are_drawn_over_the_regions(grid: PolygonBoard) -> None:
    root = parse(draw(grid, stacks=[army("A1", 1, "red")],
                             arrows=[Arrow("A1", "B1", "red", "attack")]))
    layers = [g.attrib.get("data-layer") for g in root.findall(f"{NS}g")]
    assert layers.index("arrows") < layers.index("stacks")
    regions = next(i for i, g in enumerate(root.findall(f"{NS}g"))
                   if g.find(f"{NS}path") is not None)
    assert regions < layers.index("arrows")


def test_an_arrow_leaves_the_tokens_and_label_of_its_regions_clear(grid: PolygonBoard) -> None:
    svg = draw(grid, stacks=[army("A2", 3, "red")],
                      arrows=[Arrow("A2", "C2", "red", "attack")])
    (group,) = arrow_groups(svg)
    (stack,) = stack_groups(svg)
    right = max(float(r.attrib["x"]) + float(r.attrib["width"]) for r in stack.iter(f"{NS}rect"))
    assert shaft(group)[0][0] >= right, "the arrow starts beside the tokens, not under them"


# -- text and refusals ---------------------------------------------------------------------------

def test_titles_are_escaped(grid: PolygonBoard) -> None:
    hostile = '<script>alert("x")</script> & Co'
    svg = draw(grid, stacks=[army("A1", 2, "red", hostile)],
                      arrows=[Arrow("A1", "B1", "red", "attack", title=hostile)])
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    root = parse(svg)
    assert [t.text for t in root.iter(f"{NS}title")].count(hostile) == 2


def test_hostile_region_names_are_escaped_in_attributes() -> None:
    name = '"><script>x</script>'
    board = PolygonBoard.from_dict({"type": "FeatureCollection", "name": "odd", "features": [
        {"type": "Feature", "properties": {"name": name, "kind": "land"}, "geometry": square(0, 0)},
        {"type": "Feature", "properties": {"name": "B", "kind": "land"},
         "geometry": square(10, 0)}]})
    svg = draw(board, stacks=[army(name, 1, "red")], arrows=[Arrow(name, "B", "red")])
    assert "<script>" not in svg
    (group,) = arrow_groups(svg)
    assert group.attrib["data-src"] == name
    assert stack_groups(svg)[0].attrib["data-region"] == name


@pytest.mark.parametrize("marks", [
    {"stacks": [army("Atlantis", 1, "red")]},
    {"arrows": [Arrow("Atlantis", "A1", "red")]},
    {"arrows": [Arrow("A1", "Atlantis", "red")]},
    {"arrows": [Arrow("A1", "B2", "red", via=("Atlantis",))]},
    {"arrows": [Arrow("A1", "B2", "red", "support", onto=("A2", "Atlantis"))]},
])
def test_unknown_regions_are_refused(grid: PolygonBoard, marks: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="unknown region.*Atlantis"):
        draw(grid, **marks)


@pytest.mark.parametrize("colour", ["red;stroke:url(#x)", "url(#x)", "#12345", "", "rgb(1,2,3)"])
def test_unsafe_colours_are_refused(grid: PolygonBoard, colour: str) -> None:
    with pytest.raises(ValueError, match="colour"):
        draw(grid, stacks=[army("A1", 1, colour)])
    with pytest.raises(ValueError, match="colour"):
        draw(grid, arrows=[Arrow("A1", "B1", colour)])


@pytest.mark.parametrize("marks, message", [
    (lambda: {"stacks": [army("A1", 0, "red")]}, "count"),
    (lambda: {"stacks": [army("A1", -2, "red")]}, "count"),
    (lambda: {"stacks": [army("A1", True, "red")]}, "count"),
    (lambda: {"stacks": [army("A1", 1.5, "red")]}, "count"),  # type: ignore[arg-type]
    (lambda: {"arrows": [Arrow("A1", "B1", "red", "convoy")]}, "kind"),
    (lambda: {"arrows": [Arrow("A1", "B1", "red", ok="yes")]}, "ok"),  # type: ignore[arg-type]
])
def test_bad_marks_are_refused(grid: PolygonBoard, marks: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        draw(grid, **marks())


def test_marks_must_be_stacks_and_arrows(grid: PolygonBoard) -> None:
    with pytest.raises(TypeError):
        draw(grid, stacks=[("A1", 1, "red")])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        draw(grid, arrows=[("A1", "B1", "red")])  # type: ignore[list-item]


# -- the AZTLAN board ----------------------------------------------------------------------------

def test_marks_on_the_aztlan_board(aztlan: PolygonBoard) -> None:
    near = sorted(aztlan.land_neighbours("Tenochtitlan"))
    path = ["Tenochtitlan"]
    for _ in range(3):  # three steps away, never back
        path.append(next(n for n in sorted(aztlan.land_neighbours(path[-1])) if n not in path))
    stacks = [army("Tenochtitlan", 3, "#d62728", "Aztecs: 3 armies"),
              army("Tlaxcala", 1, "#1f77b4"), army("Chichimec Desert", 7, "#8c564b")]
    arrows = [Arrow("Tenochtitlan", near[0], "#d62728", "attack", ok=True),
              Arrow(near[1], near[0], "#d62728", "support", onto=("Tenochtitlan", near[0])),
              Arrow("Tenochtitlan", path[-1], "#d62728", "move", via=tuple(path[1:-1]), ok=False),
              Arrow("Tlaxcala", "Huexotzingo", "#1f77b4", "cut")]
    svg = draw(aztlan, labels={n: n[:3] for n in aztlan.regions}, stacks=stacks, arrows=arrows,
                        title="AZTLAN")
    root = parse(svg)
    assert len([p for p in root.findall(f"{NS}g/{NS}path") if "data-name" in p.attrib]) == len(
        aztlan.regions)
    assert [g.attrib["data-kind"] for g in arrow_groups(svg)] == [
        "attack", "support", "move", "cut"]
    assert [g.attrib["data-count"] for g in stack_groups(svg)] == ["3", "1", "7"]
    width, height = float(root.attrib["width"]), float(root.attrib["height"])
    for group in arrow_groups(svg):
        for x, y in [*shaft(group), tip(group)]:
            assert 0 <= x <= width and 0 <= y <= height


# -- the game, the desk and the panel ------------------------------------------------------------

class Calls:
    """What the desk asked of a ruleset's ``orders`` drawing."""

    def __init__(self) -> None:
        self.calls: list[tuple[State, dict[str, list[Any]], list[Event]]] = []

    def __call__(self, state: State, orders: Mapping[str, Sequence[Any]],
                 events: Sequence[Event], rules: Params) -> DrawnOrders:
        self.calls.append((state, {p: list(o) for p, o in orders.items()}, list(events)))
        return DrawnOrders(arrows=(Arrow("Solsauvre", "Vauclerc", "red", "attack",
                                         ok=None if not events else True,
                                         title="Red attacks Vauclerc"),),
                           arrow_kinds=KINDS)


def _draw_with(monkeypatch: pytest.MonkeyPatch, desk: Desk, calls: Calls | None) -> None:
    """The desk's ruleset drawing its orders with ``calls`` (none with None)."""
    shown = desk.game.ruleset.presentation
    monkeypatch.setattr(desk.game.ruleset, "presentation",
                        dataclasses.replace(shown, orders=calls))


@pytest.fixture
def desk(tmp_path: Path) -> Desk:
    game = Desk.working_copy(SAMPLE, tmp_path / "sample-cien")
    store = Game.open(game).store
    if store.read_seed(7) is None:  # a sample that commits ahead keeps turn 7's already
        store.write_seed(7, SEED)
    return Desk.open(game)


def test_a_ruleset_that_draws_no_orders_shows_no_orders_map(
        desk: Desk, monkeypatch: pytest.MonkeyPatch) -> None:
    _draw_with(monkeypatch, desk, None)
    assert desk.orders_svg() is None
    view = desk.step()
    assert view.orders_svg is None and view.to_html().count("<svg") == 1


def test_the_desk_draws_the_orders_before_and_during_the_turn(desk: Desk,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    calls = Calls()
    _draw_with(monkeypatch, desk, calls)
    before = desk.game.state()
    pending = desk.orders_svg()
    assert pending is not None and "Orders of turn 7" in pending
    (group,) = arrow_groups(pending)
    assert group.attrib["data-ok"] == "none"
    state, orders, events = calls.calls[-1]
    assert state.turn == before.turn and events == []
    assert set(orders) == set(desk.posts().filter("counts")["player"].to_list())

    first = desk.step()
    assert first.orders_svg is not None and "step 1 of" in first.orders_svg
    html = first.to_html()
    # each map whole in its zoom frame (its opening tag given the frame's size)
    body = [m.split(">", 1)[1] for m in (first.orders_svg, first.map_svg)]
    assert html.count("<svg") == 2 and html.index(body[0]) < html.index(body[1])
    state, _, events = calls.calls[-1]
    assert state is desk.session.driver.start
    assert events == list(desk.session.driver.records[0].events)

    last = desk.run_all()
    (group,) = arrow_groups(last.orders_svg)
    assert group.attrib["data-ok"] == ("true" if calls.calls[-1][2] else "none")
    assert calls.calls[-1][2] == [e for r in desk.session.driver.records for e in r.events]
    # once the turn is under way, the desk's orders map is the turn's, with what is decided
    assert desk.orders_svg() is not None and calls.calls[-1][0] is desk.session.driver.start


def test_the_game_and_the_desk_draw_the_rulesets_stacks_and_arrows(
        desk: Desk, monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset = desk.game.ruleset
    plain = ruleset.presentation.scene
    assert plain is not None

    def scene(state: State, rules: Params) -> Scene:
        return dataclasses.replace(plain(state, rules),
                                   marks=(army("Solsauvre", 2, "red", "Red: 2"),),
                                   arrows=(Arrow("Solsauvre", "Vauclerc", "red", "attack"),),
                                   arrow_kinds=KINDS)

    monkeypatch.setattr(ruleset, "presentation",
                        dataclasses.replace(ruleset.presentation, scene=scene))
    for svg in (desk.game.map_svg(desk.game.state(), title="t"), desk.map_svg()):
        assert svg is not None
        assert [g.attrib["data-count"] for g in stack_groups(svg)] == ["2"]
        assert [g.attrib["data-kind"] for g in arrow_groups(svg)] == ["attack"]
    extra = Arrow("Vauclerc", "Solsauvre", "blue", "cut")
    kinds = [g.attrib["data-kind"] for g in arrow_groups(desk.map_svg(arrows=[extra]))]
    assert kinds == ["attack", "cut"]
    kinds = [g.attrib["data-kind"] for g in arrow_groups(
        desk.game.map_svg(desk.game.state(), arrows=[extra]))]
    assert kinds == ["attack", "cut"]


def test_the_panel_shows_the_orders_map_when_there_are_arrows(
        desk: Desk, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("ipywidgets")
    from gmkit.desk.panel import DeskPanel

    _draw_with(monkeypatch, desk, None)
    panel = DeskPanel(desk)
    assert panel["orders_map"].value == ""
    _draw_with(monkeypatch, desk, Calls())
    panel.refresh()
    assert "data-kind=\"attack\"" in panel["orders_map"].value
    panel["next"].click()
    assert panel["step"].value.count("<svg") == 2


def test_outlines_draw_each_group_as_one_shape(grid: PolygonBoard) -> None:
    """A group of regions (an empire) is outlined as the one shape of their union: two squares
    side by side make one rectangle, not two squares; unknown names and empty groups are
    refused; without outlines nothing changes."""
    plain = draw(grid)
    assert draw(grid, outlines=()) == plain
    svg = draw(grid, outlines=[("A1", "B1")])
    root = ET.fromstring(svg)
    heavy = [p for p in root.iter(f"{NS}path") if p.get("fill") == "none"]
    assert len(heavy) == 1 and float(heavy[0].get("stroke-width", "0")) > 3
    d = heavy[0].get("d", "")
    assert d.count("M") == 1 and d.count("Z") == 1, "one ring around the union"
    with pytest.raises(ValueError, match="unknown region.*Atlantis"):
        draw(grid, outlines=[("A1", "Atlantis")])
    with pytest.raises(ValueError, match="empty group"):
        draw(grid, outlines=[()])


def test_aztlan_map_outlines_the_empires() -> None:
    """AZTLAN 1.5: the player empires are outlined with a heavy line: one group per empire with
    home centres (2.5), the Chichimecs having none."""
    game = Game.open(ROOT / "data" / "sample-aztlan")
    scene = game.ruleset.presentation.scene(game.state(), game.rules)
    assert scene is not None
    groups = {frozenset(o.places) for o in scene.outlines}
    assert frozenset({"Tenochtitlan", "Texcoco", "Tacuba"}) in groups
    assert len(groups) == 9
    svg = game.map_svg(game.state())
    assert svg is not None and svg.count('fill="none" stroke="#') >= 9


def test_a_picture_is_drawn_again_only_for_a_scene_that_differs():
    """A scene drawn lately on the same board gives the same picture without drawing it again;
    a scene differing anywhere, a fill in the middle of a large fill frame too, is drawn."""
    import polars as pl

    from gmkit.core.boards.hexgrid import HexBoard
    from gmkit.core.drawing import board_svg
    from gmkit.core.drawing.scene import Scene

    board = HexBoard()  # unbounded: the frame's hexes are drawn
    hexes = pl.DataFrame({"q": list(range(-20, 21)), "r": [0] * 41})
    frame = hexes.with_columns(pl.lit("#aaaaaa").alias("fill"))
    changed = frame.with_columns(pl.when(pl.col("q") == 0).then(pl.lit("#bb0000"))
                                 .otherwise(pl.col("fill")).alias("fill"))
    first = board_svg.scene_svg(board, Scene(fill_frame=frame))
    calls = []
    real = board_svg._draw
    try:
        board_svg._draw = lambda *a: calls.append(a) or real(*a)
        assert board_svg.scene_svg(board, Scene(fill_frame=frame.clone())) == first
        assert calls == []
        other = board_svg.scene_svg(board, Scene(fill_frame=changed))
        assert len(calls) == 1 and "#bb0000" in other and other != first
    finally:
        board_svg._draw = real
