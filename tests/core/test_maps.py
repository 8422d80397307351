"""Tests for polygon boards, their drawing, and the shipped Crown of Cien map."""

from __future__ import annotations

import json
import re
import unicodedata
import xml.etree.ElementTree as ET
from collections import deque
from pathlib import Path

import altair as alt
import pytest

from gmkit.core.boards.resources import load_package_map
from gmkit.core.boards.polygon import MapError, PolygonBoard, Region
from gmkit.core.drawing.colours import check_colour
from gmkit.core.drawing.polygon_chart import polygon_chart
from tests.drawing import draw

CIEN_BOARD = ("gmkit.rulesets.cien.board", "cien.geojson")
SEAS = [f"Great Sea {k}" for k in range(1, 6)]
SVG_NS = "{http://www.w3.org/2000/svg}"
BOWTIE = {"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]]}


@pytest.fixture(scope="module")
def cien() -> PolygonBoard:
    return load_package_map(*CIEN_BOARD)


def square(x: float, y: float, size: float = 1.0) -> dict:
    """GeoJSON Polygon geometry of an axis-aligned square."""
    return {
        "type": "Polygon",
        "coordinates": [
            [[x, y], [x + size, y], [x + size, y + size], [x, y + size], [x, y]]
        ],
    }


def feature(name: object, geometry: dict, kind: str = "land", **props: object) -> dict:
    properties = {"name": name, "kind": kind, **props}
    return {"type": "Feature", "properties": properties, "geometry": geometry}


def collection(*features: dict, name: str = "test") -> dict:
    return {"type": "FeatureCollection", "name": name, "features": list(features)}


def four_squares() -> PolygonBoard:
    """A 2 x 2 board: SW, SE, NW, NE; diagonal squares touch at one corner."""
    return PolygonBoard.from_dict(
        collection(
            feature("SW", square(0, 0)),
            feature("SE", square(1, 0)),
            feature("NW", square(0, 1)),
            feature("NE", square(1, 1), kind="sea"),
        )
    )


def fold(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if c.isalpha() and not unicodedata.combining(c))


# --------------------------------------------------------------- the Cien map


def test_cien_has_51_land_provinces_with_capital_and_5_seas(cien: PolygonBoard) -> None:
    assert cien.name == "cien"
    assert len(cien.land()) == 51
    assert cien.seas() == SEAS
    assert cien.capitals() == ["Cien"]
    capital = cien.regions["Cien"]
    assert isinstance(capital, Region)
    assert capital.kind == "land"
    assert capital.props["capital"] is True
    assert capital.props["output"] == 30
    for name in cien.land():
        region = cien.regions[name]
        assert region.geometry.geom_type == "Polygon"
        if name != "Cien":
            assert region.props["output"] == 10
            assert not region.is_capital


def test_cien_capital_is_inland(cien: PolygonBoard) -> None:
    assert not cien.seas_of("Cien")
    assert not cien.is_coastal("Cien")


def test_cien_names_are_unique_after_folding_and_include_the_rules_names(
    cien: PolygonBoard,
) -> None:
    for name in ["Coyons", "Tróys", "Solsauvre", "Sevoy", "Guicardie"]:
        assert name in cien
    folded = [fold(n) for n in cien.land()]
    assert len(set(folded)) == len(folded)


def test_cien_adjacency_is_symmetric(cien: PolygonBoard) -> None:
    for name, others in cien.adjacency.items():
        assert name not in others
        for other in others:
            assert name in cien.adjacency[other], (name, other)


def test_cien_every_land_province_is_reachable_over_land(cien: PolygonBoard) -> None:
    land = cien.land()
    seen = {land[0]}
    queue = deque([land[0]])
    while queue:
        for nxt in cien.land_neighbours(queue.popleft()):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    assert seen == set(land)
    for name in land:
        assert cien.land_neighbours(name), name


def test_cien_validates_clean(cien: PolygonBoard) -> None:
    assert cien.validate(land_count=51, sea_names=SEAS) == []


def test_cien_validate_reports_wrong_counts(cien: PolygonBoard) -> None:
    problems = cien.validate(land_count=50, sea_names=[*SEAS[:4], "Narrow Sea"])
    text = "\n".join(problems)
    assert "expected 50 land regions, found 51" in text
    assert "'Narrow Sea'" in text
    assert "'Great Sea 5'" in text


def test_coyons_borders_troys(cien: PolygonBoard) -> None:
    assert "Tróys" in cien.land_neighbours("Coyons")
    assert "Coyons" in cien.neighbours("Tróys")


def test_guicardie_and_troys_share_a_sea_but_not_a_border(cien: PolygonBoard) -> None:
    assert cien.seas_of("Guicardie") & cien.seas_of("Tróys")
    assert "Guicardie" not in cien.neighbours("Tróys")
    assert cien.border_length("Guicardie", "Tróys") == 0.0
    assert not cien.land_neighbours("Guicardie") & cien.land_neighbours("Tróys")


def test_sevoy_is_inland_and_borders_solsauvre(cien: PolygonBoard) -> None:
    assert not cien.seas_of("Sevoy")
    assert "Solsauvre" in cien.land_neighbours("Sevoy")


def test_great_seas_line_the_coast_west_to_east(cien: PolygonBoard) -> None:
    for k, sea in enumerate(SEAS):
        shore = cien.land_neighbours(sea)
        assert 3 <= len(shore) <= 7, (sea, sorted(shore))
        if k + 1 < len(SEAS):
            assert SEAS[k + 1] in cien.seas_of(sea)
        west, _, east, _ = cien.regions[sea].geometry.bounds
        if k:
            previous = cien.regions[SEAS[k - 1]].geometry.bounds
            assert previous[0] < west and previous[2] < east


# ----------------------------------------------------------------- adjacency


def test_point_touch_is_not_adjacency() -> None:
    board = four_squares()
    assert board.neighbours("SW") == {"SE", "NW"}
    assert board.neighbours("NE") == {"SE", "NW"}
    assert "NE" not in board.neighbours("SW")
    assert "NW" not in board.neighbours("SE")
    assert board.land_neighbours("SE") == {"SW"}
    assert board.seas_of("SE") == {"NE"}
    assert board.border_length("SW", "SE") == pytest.approx(1.0)
    assert board.border_length("SW", "NE") == 0.0
    assert board.land() == ["SW", "SE", "NW"]
    assert board.seas() == ["NE"]


def test_unknown_region_is_a_key_error() -> None:
    with pytest.raises(KeyError, match="Atlantis"):
        four_squares().neighbours("Atlantis")


def test_validate_reports_disconnected_and_isolated_land() -> None:
    board = PolygonBoard.from_dict(
        collection(
            feature("A", square(0, 0)), feature("B", square(1, 0)), feature("Isle", square(5, 5))
        )
    )
    problems = "\n".join(board.validate())
    assert "'Isle' has no neighbour" in problems
    assert "not all connected" in problems


def test_validate_reports_overlap() -> None:
    board = PolygonBoard.from_dict(
        collection(feature("A", square(0, 0, 2)), feature("B", square(1, 1, 2)))
    )
    problems = board.validate()
    assert any("overlap" in p and "'A'" in p and "'B'" in p for p in problems)


def test_explicit_adjacency_overrides_and_asymmetry_is_reported() -> None:
    board = PolygonBoard.from_dict(
        collection(
            feature("SW", square(0, 0)),
            feature("SE", square(1, 0)),
            feature("NW", square(0, 1)),
            feature("NE", square(1, 1), adjacent=["SW"]),
        )
    )
    assert board.neighbours("NE") == {"SW"}
    assert "NE" not in board.neighbours("SW")
    problems = board.validate()
    assert any("asymmetric" in p and "'NE'" in p and "'SW'" in p for p in problems)


def test_explicit_adjacency_to_unknown_region_is_an_error() -> None:
    with pytest.raises(MapError, match="Atlantis"):
        PolygonBoard.from_dict(
            collection(feature("A", square(0, 0), adjacent=["Atlantis"])), source="board.geojson"
        )


# ------------------------------------------------------------ malformed input


def write(tmp_path: Path, data: object, name: str = "broken.geojson") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_missing_name_names_file_and_feature(tmp_path: Path) -> None:
    bad = {"type": "Feature", "properties": {"kind": "land"}, "geometry": square(1, 0)}
    path = write(tmp_path, collection(feature("A", square(0, 0)), bad))
    with pytest.raises(MapError) as info:
        PolygonBoard.from_geojson(path)
    message = str(info.value)
    assert "broken.geojson" in message
    assert "feature 1" in message
    assert "name" in message


def test_duplicate_name_names_file_and_feature(tmp_path: Path) -> None:
    twins = collection(feature("Tróys", square(0, 0)), feature("Tróys", square(1, 0)))
    path = write(tmp_path, twins)
    with pytest.raises(MapError) as info:
        PolygonBoard.from_geojson(path)
    message = str(info.value)
    assert "broken.geojson" in message
    assert "feature 1" in message
    assert "'Tróys'" in message
    assert "duplicate" in message


def test_invalid_json_names_file(tmp_path: Path) -> None:
    path = write(tmp_path, '{"type": "FeatureCollection", "features": [', name="cut.geojson")
    with pytest.raises(MapError, match="cut.geojson") as info:
        PolygonBoard.from_geojson(path)
    assert "invalid JSON" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_missing_file_is_a_map_error(tmp_path: Path) -> None:
    with pytest.raises(MapError, match="nowhere.geojson"):
        PolygonBoard.from_geojson(tmp_path / "nowhere.geojson")


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        (feature("Bowtie", BOWTIE), "invalid geometry"),
        (feature("Spot", {"type": "Point", "coordinates": [0, 0]}), "Polygon or MultiPolygon"),
        (feature("Marsh", square(3, 3), kind="swamp"), "'kind'"),
        ({"type": "Feature", "properties": {"name": "Void", "kind": "land"}}, "missing geometry"),
        ({"type": "Feature", "geometry": square(3, 3)}, "'properties'"),
        (feature("", square(3, 3)), "'name'"),
    ],
)
def test_bad_features_name_file_and_feature(bad: dict, words: str) -> None:
    with pytest.raises(MapError) as info:
        PolygonBoard.from_dict(collection(feature("A", square(0, 0)), bad), source="board.geojson")
    message = str(info.value)
    assert message.startswith("board.geojson: feature 1")
    assert words in message


def test_not_a_feature_collection() -> None:
    with pytest.raises(MapError, match="FeatureCollection"):
        PolygonBoard.from_dict({"type": "Feature"}, source="board.geojson")
    with pytest.raises(MapError, match="no features"):
        PolygonBoard.from_dict(collection(), source="board.geojson")


# ------------------------------------------------------------------- drawing


def test_to_svg_is_xml_with_a_path_per_region(cien: PolygonBoard) -> None:
    svg = draw(cien)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG_NS}svg"
    paths = root.findall(f".//{SVG_NS}path")
    assert len(paths) == 56
    tooltips = {p.findtext(f"{SVG_NS}title") for p in paths}
    assert tooltips == set(cien.regions)
    fills = {p.get("data-name"): p.get("fill") for p in paths}
    assert fills["Cien"] == "#e8e0c8"
    assert fills["Great Sea 1"] == "#a9c9e6"
    texts = "".join(root.itertext())
    assert "Tróys" in texts and "Great Sea 3" in texts


def test_to_svg_fills_highlight_labels_and_legend(cien: PolygonBoard) -> None:
    svg = draw(cien, 
        {"Cien": "#d9534f", "Tróys": "gold"},
        labels={"Tróys": "Tróys\n12", "Coyons": ""},
        title="Turn 3",
        highlight=["Tróys"],
        legend=[("Empire", "#d9534f"), ("Ann", "gold")],
        width=600,
    )
    root = ET.fromstring(svg)
    assert root.get("width") == "600"
    fills = {p.get("data-name"): p for p in root.iter(f"{SVG_NS}path")}
    assert fills["Cien"].get("fill") == "#d9534f"
    assert fills["Tróys"].get("fill") == "gold"
    assert float(fills["Tróys"].get("stroke-width", "0")) > 1
    assert fills["Cien"].get("stroke-width") is None
    spans = [t.text for t in root.iter(f"{SVG_NS}tspan")]
    assert spans == ["Tróys", "12"]
    texts = [t.text for t in root.iter(f"{SVG_NS}text") if t.text]
    assert "Coyons" not in texts
    assert "Turn 3" in texts and "Empire" in texts and "Ann" in texts
    swatches = [r.get("fill") for r in root.iter(f"{SVG_NS}rect")]
    assert "#d9534f" in swatches and "gold" in swatches


def test_to_svg_escapes_hostile_text(cien: PolygonBoard) -> None:
    hostile = "<script>alert(1)</script>"
    svg = draw(cien, 
        labels={"Coyons": hostile, "Tróys": f'"{hostile}\n&amp'},
        title=hostile,
        legend=[(hostile, "red")],
    )
    assert hostile not in svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg
    root = ET.fromstring(svg)
    assert not list(root.iter("script")) and not list(root.iter(f"{SVG_NS}script"))
    assert hostile in "".join(root.itertext())


def test_hostile_region_names_are_escaped() -> None:
    board = PolygonBoard.from_dict(
        collection(
            feature('<img src=x onerror="alert(1)">', square(0, 0)), feature("B&B", square(1, 0))
        )
    )
    svg = draw(board, title="t")
    assert "<img" not in svg
    root = ET.fromstring(svg)
    names = {p.get("data-name") for p in root.iter(f"{SVG_NS}path")}
    assert names == {'<img src=x onerror="alert(1)">', "B&B"}


@pytest.mark.parametrize(
    "colour",
    ["red;background:url(x)", "url(#x)", '"><script>', "rgb(1,2,3)", "#12345", "", "#ggg"],
)
def test_to_svg_rejects_unsafe_colours(cien: PolygonBoard, colour: str) -> None:
    with pytest.raises(ValueError):
        draw(cien, {"Cien": colour})
    with pytest.raises(ValueError):
        draw(cien, legend=[("x", colour)])
    with pytest.raises(ValueError):
        check_colour(colour)


@pytest.mark.parametrize("colour", ["red", "SteelBlue", "#abc", "#abcd", "#a1b2c3", "#a1b2c3d4"])
def test_safe_colours_are_accepted(colour: str) -> None:
    assert check_colour(colour) == colour


def test_to_svg_rejects_unknown_regions(cien: PolygonBoard) -> None:
    with pytest.raises(ValueError, match="Atlantis"):
        draw(cien, {"Atlantis": "red"})
    with pytest.raises(ValueError, match="Atlantis"):
        draw(cien, highlight=["Atlantis"])


def test_to_svg_flips_the_y_axis() -> None:
    board = four_squares()
    root = ET.fromstring(draw(board, width=200))
    tops = {}
    for path in root.iter(f"{SVG_NS}path"):
        numbers = [float(v) for v in re.findall(r"-?[0-9.]+", path.get("d", ""))]
        tops[path.get("data-name")] = min(numbers[1::2])
    # North (larger y in map units) is drawn at the top (smaller y in SVG).
    assert tops["NW"] < tops["SW"]
    assert tops["NE"] < tops["SE"]


def test_to_svg_draws_the_same_map_twice() -> None:
    """Rendering caches what it derives, so a second drawing with other fills is the same map
    (its speed is measured in bench/run.py, not here)."""
    fresh = load_package_map(*CIEN_BOARD)
    first = draw(fresh, {"Cien": "red"}, labels={"Tróys": "Tróys\n12"}, title="t")
    again = draw(fresh, {"Cien": "blue"})
    assert first.count("<path") == again.count("<path") >= len(fresh.regions)
    assert 'fill="red"' in first and 'fill="blue"' in again


def test_chart_returns_altair_chart(cien: PolygonBoard) -> None:
    chart = polygon_chart(
        cien,
        {"Cien": "#d9534f"},
        tooltip={"Tróys": {"owner": "Ann", "troops": 3}, "Cien": {"owner": "Empire"}},
        title="Cien",
    )
    assert isinstance(chart, alt.Chart)
    spec = chart.to_dict()
    assert spec["mark"]["type"] == "geoshape"
    assert spec["projection"] == {"type": "identity", "reflectY": True}
    values = spec["data"]["values"]
    assert len(values) == 56
    by_name = {v["properties"]["name"]: v["properties"] for v in values}
    assert by_name["Cien"]["fill"] == "#d9534f"
    assert by_name["Great Sea 1"]["fill"] == "#a9c9e6"
    titles = [t["title"] for t in spec["encoding"]["tooltip"]]
    assert titles == ["name", "owner", "troops"]
    with pytest.raises(ValueError):
        polygon_chart(cien, {"Cien": "red;background:url(x)"})
