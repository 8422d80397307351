"""The extent of a hex map: an unbounded world shows its explored region with a margin of one
whole hex, and the pictures of one turn (before and after) share one extent; a bounded board
keeps its whole board."""

from __future__ import annotations

import dataclasses
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import polars as pl

from gmkit.core.boards.hexgrid import DIRECTIONS, Hex, HexBoard, Layout, spiral_frame
from gmkit.core.drawing.hex_svg import hex_svg, share_extent
from gmkit.core.drawing.scene import Label, LegendEntry, Scene
from gmkit.core.views import Viewer
from gmkit.desk import Desk, sample_working_copy
from gmkit.game import Game
from gmkit.publish.summary import turn_report

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample-aeternus"
#: the viewBox is written to a tenth of a unit
SLACK = 0.06


def _view_box(svg: str) -> tuple[float, float, float, float]:
    x, y, w, h = map(float, (ET.fromstring(svg).get("viewBox") or "").split())
    return x, y, x + w, y + h


def _corners(hexes: list[Hex], layout: Layout) -> tuple[float, float, float, float]:
    """The bounding box of the hexes' corners."""
    points = [c for h in hexes for c in layout.corners(h)]
    return (min(p.x for p in points), min(p.y for p in points),
            max(p.x for p in points), max(p.y for p in points))


def _ring_inside(hexes: list[Hex], box: tuple[float, float, float, float],
                 layout: Layout) -> list[Hex]:
    """The neighbours of ``hexes`` some corner of which lies outside ``box``."""
    x0, y0, x1, y1 = box
    out = []
    for h in hexes:
        for d in DIRECTIONS:
            n = h + d
            if any(not (x0 - SLACK <= c.x <= x1 + SLACK and y0 - SLACK <= c.y <= y1 + SLACK)
                   for c in layout.corners(n)):
                out.append(n)
    return out


def _explored(game: Game, turn: int) -> list[Hex]:
    world = game.state(turn)["world"]
    return [Hex(q, r) for q, r in world.select("q", "r").iter_rows()]


def test_an_unbounded_world_shows_its_explored_region_with_a_margin_of_one_hex() -> None:
    """Map requirement: "an unbounded world shows its explored region with a margin": every
    explored hex of the Aeternus sample has its whole ring of neighbours inside the picture,
    and the margin around the explored hexes is no wider than one and a half hexes."""
    game = Game.open(SAMPLE)
    board = game.board
    assert isinstance(board, HexBoard) and not board.bounded
    layout = Layout()
    turn = game.latest_turn
    explored = _explored(game, turn)
    assert len(explored) > 10
    state = game.ruleset.view(game.state(turn), Viewer.public())
    draw = game.ruleset.presentation.scene
    assert draw is not None
    scene = draw(state, game.context())
    assert scene is not None
    # the map alone (no title above it, no legend below it): its extent is the viewBox
    bare = hex_svg(board, dataclasses.replace(scene, title="", legend=()), layout, width=None)
    box = _view_box(bare)
    assert _ring_inside(explored, box, layout) == []
    hex_w, hex_h = math.sqrt(3) * layout.size.x, 2 * layout.size.y  # a pointy hex
    x0, y0, x1, y1 = _corners(explored, layout)
    margins = (x0 - box[0], box[2] - x1, y0 - box[1], box[3] - y1)
    assert all(m >= hex_h * 0.75 - SLACK for m in margins[2:]), "a whole row above and below"
    assert all(m >= hex_w - SLACK for m in margins[:2]), "a whole hex left and right"
    assert max(margins[:2]) <= 1.5 * hex_w and max(margins[2:]) <= 1.5 * hex_h, margins
    # the map as the game draws it, title and legend with it, holds the ring too
    assert _ring_inside(explored, _view_box(game.map_svg(state) or ""), layout) == []


def test_the_margin_of_one_hex_is_left_blank() -> None:
    """An unbounded world shows its explored region with a margin of one hex, not drawn (the
    world beyond is unknown): only the hexes the scene shows are filled."""
    layout = Layout()
    frame = pl.DataFrame({"q": [0, 1], "r": [0, 0], "fill": ["#9bd770", "#3f8f4a"]})
    scene = Scene(fill_frame=frame, labels=(Label(Hex(1, 0), "Town Pylon Stag Boardwalk"),))
    svg = hex_svg(HexBoard(), scene, layout, width=None)
    counts = [int(n) for n in re.findall(r'data-hexes="(\d+)"', svg)]
    assert sum(counts) == 2, "the margin's hexes are not drawn"
    assert _ring_inside([Hex(0, 0), Hex(1, 0)], _view_box(svg), layout) == []


def test_before_and_after_of_one_turn_share_one_extent() -> None:
    """Map requirement: "before/after pictures share one extent": the turn report of a turn
    that explored new hexes draws both maps over the union of both regions, with the margin."""
    game = Game.open(SAMPLE)
    turn = game.latest_turn
    before, after = _explored(game, turn - 1), _explored(game, turn)
    grown = set(after) - set(before)
    assert grown, "the sample's last turn explores new hexes"
    report = turn_report(game, turn, viewer="public")
    assert report.map_before_svg and report.map_after_svg
    box_before, box_after = _view_box(report.map_before_svg), _view_box(report.map_after_svg)
    # the map's extent and the title are the same; the map before the turn also shows the
    # turn's orders, whose kinds its legend adds below the map
    assert box_before[:3] == box_after[:3] and box_before[3] >= box_after[3]
    assert _ring_inside(sorted(set(before) | grown), box_before, Layout()) == []


def test_share_extent_takes_in_the_other_pictures_hexes_without_drawing_them() -> None:
    """Before/after share one extent: the smaller picture grows to the other's hexes, and
    draws only its own."""
    layout = Layout()
    small = Scene(fill_frame=pl.DataFrame({"q": [0], "r": [0], "fill": ["#9bd770"]}))
    big = Scene(fill_frame=spiral_frame(Hex(0, 0), 2).with_columns(fill=pl.lit("#3f8f4a")),
                labels=(Label(Hex(3, 0), "far"),))
    shared = share_extent(small, [big])
    a = hex_svg(HexBoard(), shared, layout, width=None)
    b = hex_svg(HexBoard(), share_extent(big, [small]), layout, width=None)
    assert _view_box(a) == _view_box(b)
    assert _view_box(hex_svg(HexBoard(), small, layout, width=None)) != _view_box(a)
    assert sum(int(n) for n in re.findall(r'data-hexes="(\d+)"', a)) == 1
    printed = hex_svg(HexBoard(), dataclasses.replace(shared, coordinates=True), layout)
    assert "(0, 0, 0)" in printed and "(3, 0, -3)" not in printed and "3,0,-3" not in printed, \
        "no coordinates on a hex of the extent alone"


def test_a_bounded_board_keeps_its_whole_board_as_its_extent() -> None:
    """A bounded hex board draws all its hexes, half a hex to spare around them, whatever
    the scene names."""
    layout = Layout()
    hexes = spiral_frame(Hex(0, 0), 2)
    board = HexBoard(hexes)
    svg = hex_svg(board, Scene(legend=(LegendEntry("land", "#9bd770"),)), layout, width=None)
    x0, y0, x1, y1 = _view_box(svg)
    cx0, cy0, cx1, cy1 = _corners([Hex(q, r) for q, r in hexes.iter_rows()], layout)
    half = layout.size.x * 0.5
    assert abs((cx0 - x0) - half) <= SLACK and abs((x1 - cx1) - half) <= SLACK
    assert abs((cy0 - y0) - half) <= SLACK, "no title: the board starts half a hex down"
    assert y1 > cy1 + half, "the legend below the board"


def test_the_turn_so_far_shows_before_and_after_over_one_extent(tmp_path: Path) -> None:
    """Before/after pictures share one extent in the turn notebook too: once a turn exploring
    new hexes has run, the map before it already takes in the hexes explored since, at the
    same scale (a longer title may only widen the picture around the same map)."""
    desk = Desk.open(sample_working_copy(ROOT, sample="aeternus", into=tmp_path / "ae"))
    desk.run_all()
    so_far = desk.turn_so_far()
    assert so_far.map_before and so_far.map_after
    session = desk._live_session()
    assert session is not None
    start, end = session.driver.start, session.driver.records[-1].after
    explored = {Hex(q, r) for q, r in end["world"].select("q", "r").iter_rows()}
    before = {Hex(q, r) for q, r in start["world"].select("q", "r").iter_rows()}
    assert explored - before, "the sample's next turn explores new hexes"
    for svg in (so_far.map_before, so_far.map_after):
        assert _ring_inside(sorted(explored | before), _view_box(svg), Layout()) == []
    scales = [float(ET.fromstring(s).get("width") or 0) / (_view_box(s)[2] - _view_box(s)[0])
              for s in (so_far.map_before, so_far.map_after)]
    assert abs(scales[0] - scales[1]) < 0.01 * scales[0]
    tops = [_view_box(s)[1::2] for s in (so_far.map_before, so_far.map_after)]
    assert tops[0] == tops[1]
