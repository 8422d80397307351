"""Drawing scenes on hex and graph boards: one path per fill colour, escaped text, valid XML."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import polars as pl
import pytest

from gmkit.core.boards.graph import GraphBoard
from gmkit.core.boards.hexgrid import Hex, HexBoard, Layout, spiral_frame
from gmkit.core.drawing.graph_svg import graph_svg
from gmkit.core.drawing.hex_svg import hex_svg
from gmkit.core.drawing.scene import (
    Arrow,
    ArrowKind,
    Label,
    LegendEntry,
    Mark,
    MarkKind,
    Outline,
    Scene,
)

SVG = "{http://www.w3.org/2000/svg}"
KINDS = (ArrowKind("attack", 3), ArrowKind("support", 1.3, (2, 2.5)),
         ArrowKind("cut", 1.3, bar=True))


def board(radius: int = 3) -> HexBoard:
    df = spiral_frame(Hex(0, 0), radius).with_columns(
        kind=pl.when(pl.col("q") > 0).then(pl.lit("sea")).otherwise(pl.lit("land")))
    return HexBoard(df)


def fill_paths(root: ET.Element) -> list[ET.Element]:
    layer = next(g for g in root.iter(f"{SVG}g") if g.get("data-layer") == "fills")
    return list(layer.iter(f"{SVG}path"))


def test_one_path_per_fill_colour() -> None:
    """All hexes of a colour share one <path>; its d has one move per hex."""
    b = board(4)
    scene = Scene(kind_fills={"sea": "#a9c9e6", "land": "#e8e0c8"},
                  fills={Hex(0, 0): "red", Hex(-1, 0): "red"})
    root = ET.fromstring(hex_svg(b, scene))
    paths = fill_paths(root)
    assert sorted(p.get("fill") or "" for p in paths) == ["#a9c9e6", "#e8e0c8", "red"]
    counts = {p.get("fill"): len(re.findall("M", p.get("d") or "")) for p in paths}
    assert counts["red"] == 2
    assert sum(counts.values()) == len(b) == 61
    assert counts["#a9c9e6"] == b.frame.filter(pl.col("kind") == "sea").height  # type: ignore[union-attr]


def test_fill_priority_fills_then_frame_then_kind_then_default() -> None:
    b = HexBoard(spiral_frame(Hex(0, 0), 1))
    frame = pl.DataFrame({"q": [0, 1], "r": [0, 0], "fill": ["blue", "blue"]})
    scene = Scene(fills={Hex(0, 0): "red"}, fill_frame=frame, default_fill="white")
    paths = {p.get("fill"): len(re.findall("M", p.get("d") or ""))
             for p in fill_paths(ET.fromstring(hex_svg(b, scene)))}
    assert paths == {"red": 1, "blue": 1, "white": 5}


def test_label_text_is_escaped() -> None:
    """A label, title or legend cannot inject markup: '<script>' comes out as text."""
    evil = "<script>alert('x')</script> & co"
    scene = Scene(labels=(Label(Hex(0, 0), evil, title=evil),), title=evil,
                  legend=(LegendEntry(evil, "#ffffff"),),
                  marks=(Mark(Hex(1, 0), "army", "#c0392b", 2, title=evil),))
    svg = hex_svg(board(), scene)
    assert "<script>" not in svg
    assert "&lt;script&gt;" in svg
    root = ET.fromstring(svg)
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert any(evil in t for t in texts)


def test_unsafe_colour_is_refused() -> None:
    with pytest.raises(ValueError, match="unsafe or invalid colour"):
        Scene(fills={Hex(0, 0): 'red" onload="x'})
    with pytest.raises(ValueError, match="unsafe or invalid colour"):
        Scene(fill_frame=pl.DataFrame({"q": [0], "r": [0], "fill": ["url(javascript:x)"]}))


def test_full_scene_parses_as_xml_with_every_layer() -> None:
    scene = Scene(
        kind_fills={"sea": "#a9c9e6"},
        labels=(Label(Hex(0, 0), "Rome\nCapital"),),
        marks=(Mark(Hex(0, 0), "army", "#c0392b", 3), Mark(Hex(0, 0), "pyramid", "#f1c40f")),
        mark_kinds=(MarkKind("pyramid", "triangle"),),
        arrows=(Arrow(Hex(0, 0), Hex(2, -1), "#c0392b", "attack"),
                Arrow(Hex(-2, 2), Hex(0, 0), "blue", "support", onto=(Hex(0, 0), Hex(2, -1)),
                      ok=False),
                Arrow(Hex(-3, 0), Hex(-1, -1), "green", "cut", via=(Hex(-2, -1),))),
        arrow_kinds=KINDS,
        outlines=(Outline((Hex(0, 0), Hex(1, 0)), "purple"),),
        legend=(LegendEntry("Sea", "#a9c9e6"),),
        title="Turn 3",
    )
    root = ET.fromstring(hex_svg(board(), scene, Layout.of("flat", 12)))
    layers = {e.get("data-layer") for e in root.iter()}
    assert {"fills", "outline", "arrows", "marks", "labels", "title", "legend"} <= layers
    assert [g.get("data-ok") for g in root.iter(f"{SVG}g") if g.get("data-ok")] == [
        "none", "false", "none"]
    outline = next(e for e in root.iter() if e.get("data-layer") == "outline")
    assert (outline.get("d") or "").count("M") == 10, "two hexes: 12 edges less the shared one"


def test_arrow_of_undeclared_kind_is_refused() -> None:
    """The core ships no arrow kinds: a ruleset declares them."""
    with pytest.raises(ValueError, match="undeclared kind.*'move'"):
        Scene(arrows=(Arrow(Hex(0, 0), Hex(1, 0), "red"),))


def test_viewbox_fits_the_hexes_drawn() -> None:
    """On an unbounded board only the hexes the scene names are drawn, and the viewBox
    holds them."""
    layout = Layout.of("pointy", 10)
    far = Hex(50, -20)
    svg = hex_svg(HexBoard(), Scene(fills={far: "red", Hex(0, 0): "blue"}), layout, width=None)
    root = ET.fromstring(svg)
    x, y, w, h = map(float, (root.get("viewBox") or "").split())
    for hx in (far, Hex(0, 0)):
        for cx, cy in layout.corners(hx):
            assert x <= cx <= x + w and y <= cy <= y + h
    assert w < 1000, "fitted, not the whole plane"


def test_place_off_the_board_is_named() -> None:
    with pytest.raises(ValueError, match="not on the board: 9,9"):
        hex_svg(board(), Scene(labels=(Label(Hex(9, 9), "x"),)))
    with pytest.raises(ValueError, match="not hexes"):
        hex_svg(board(), Scene(labels=(Label("Rome", "x"),)))


def test_graph_board_draws_places_edges_and_escaped_labels() -> None:
    b = GraphBoard.from_toml(
        '[places.A]\nkind="food"\npos=[0,0]\nadjacent=["B"]\n'
        '[places.B]\nkind="stone"\npos=[100,0]\nadjacent=["A","C"]\n'
        '[places.C]\nkind="food"\nadjacent=["B"]\n', "t.toml")
    scene = Scene(kind_fills={"food": "#9bd770"}, fills={"B": "#c0392b"},
                  labels=(Label("A", "<b>A</b>"),),
                  marks=(Mark("B", "noble", "#2980b9"),),
                  arrows=(Arrow("A", "B", "red", "attack"),), arrow_kinds=KINDS,
                  outlines=(Outline(("A", "B"), "purple"),), title="Nile & co")
    svg = graph_svg(b, scene, shape="rounded")
    root = ET.fromstring(svg)
    shapes = {e.get("data-place"): e.get("fill") for e in root.iter(f"{SVG}rect")
              if e.get("data-place")}
    assert shapes == {"A": "#9bd770", "B": "#c0392b", "C": "#9bd770"}
    edges = next(e for e in root.iter(f"{SVG}path") if e.get("data-layer") == "edges")
    assert (edges.get("d") or "").count("M") == 2
    assert "&lt;b&gt;A&lt;/b&gt;" in svg and "<b>" not in svg
    with pytest.raises(ValueError, match="t.toml: unknown place.*'Z'"):
        graph_svg(b, Scene(fills={"Z": "red"}))
