"""The AZTLAN board gmkit ships (``gmkit/rulesets/aztlan/board/aztlan.geojson``) against the
rules (1.4, 1.5, 2.5, 2.6, 7.x)."""

from __future__ import annotations

import copy
import importlib.resources
import json
from collections import deque

import pytest
import shapely

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.rulesets.aztlan.board.geography import (
    ABBREVIATION_EXCEPTIONS,
    CITY_COUNT,
    DEFAULT_MAP,
    DESERT,
    DESERT_ABBR,
    EMPIRES,
    SEAS,
    abbreviation,
    check_map,
    home_centres,
    load_map,
    project,
)
from tests.drawing import draw


@pytest.fixture(scope="module")
def board() -> PolygonBoard:
    return load_map()


@pytest.fixture(scope="module")
def data() -> dict:
    return json.loads(DEFAULT_MAP.read_text(encoding="utf-8"))


def cities(gm: PolygonBoard) -> list[str]:
    return [n for n in gm.land() if gm.regions[n].props.get("city") is True]


def land_steps(gm: PolygonBoard, start: str) -> dict[str, int]:
    steps = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in gm.land_neighbours(here):
            if there not in steps:
                steps[there] = steps[here] + 1
                queue.append(there)
    return steps


def test_empires_follow_rules_2_1_and_2_5() -> None:
    assert list(EMPIRES) == [
        "Aztecs", "Tlaxcalans", "Chalcans", "Tarascans", "Meztitlans",
        "Yopis", "Totonacs", "Chichimecs", "Soconuscans", "Hot Country",
    ]
    assert EMPIRES["Chichimecs"] == ()
    assert EMPIRES["Soconuscans"] == ("Soconusco", "Huixtlan", "Mazatlan", "Ayatlan")
    assert sum(len(c) for c in EMPIRES.values()) == 28
    assert len(home_centres()) == 28


def test_abbreviation() -> None:
    assert abbreviation("Tenochtitlan") == "Ten"
    assert abbreviation("Patzcuaro") == "Pat"
    assert abbreviation("Tototepec") == "Tto"
    assert abbreviation("Xalapa") == "Xlp"
    assert abbreviation("Tototepectli") == "Tot"
    assert len(ABBREVIATION_EXCEPTIONS) == 8


def test_loads_and_default_path(board: PolygonBoard) -> None:
    """The default board is ``aztlan.geojson``, package data of the ruleset's board package."""
    assert DEFAULT_MAP.name == "aztlan.geojson" and DEFAULT_MAP.is_file()
    assert board.name == "aztlan"
    with importlib.resources.as_file(DEFAULT_MAP) as path:
        assert path.parent.name == "board" and path.parent.parent.name == "aztlan"
        assert load_map(path).adjacency == board.adjacency


def test_check_map_passes(board: PolygonBoard) -> None:
    assert check_map(board) == []
    assert board.validate(sea_names=list(SEAS)) == []


def test_exactly_79_cities(board: PolygonBoard) -> None:
    assert len(cities(board)) == CITY_COUNT == 79


def test_home_centres_present(board: PolygonBoard) -> None:
    for empire, homes in EMPIRES.items():
        for city in homes:
            props = board.regions[city].props
            assert props["city"] is True
            assert props["home"] == empire
            assert props["empire"] == empire
    marked = {n for n in cities(board) if "home" in board.regions[n].props}
    assert marked == set(home_centres())


def test_exceptions_present_with_their_abbreviation(board: PolygonBoard) -> None:
    for city, abbr in ABBREVIATION_EXCEPTIONS.items():
        assert board.regions[city].props["city"] is True
        assert board.regions[city].props["abbr"] == abbr


def test_abbreviations_unique_and_first_three_letters(board: PolygonBoard) -> None:
    abbrs: dict[str, str] = {}
    for name in cities(board):
        abbr = board.regions[name].props["abbr"]
        if name in ABBREVIATION_EXCEPTIONS:
            assert abbr == ABBREVIATION_EXCEPTIONS[name]
        else:
            assert abbr == name[:3].capitalize(), name
        assert abbr.casefold() not in abbrs, (name, abbrs.get(abbr.casefold()))
        abbrs[abbr.casefold()] = name
    everything = [board.regions[n].props["abbr"] for n in board.land()]
    assert len(set(everything)) == len(everything)
    assert DESERT_ABBR.casefold() not in abbrs


def test_names_plain_ascii(board: PolygonBoard) -> None:
    for name in cities(board):
        assert name.isascii() and name.isalpha() and name[0].isupper(), name


def test_sectors_numbered(board: PolygonBoard) -> None:
    sectors = [n for n in board.land() if n.isdigit()]
    assert 40 <= len(sectors) <= 90
    assert sorted(map(int, sectors)) == list(range(1, len(sectors) + 1))
    for n in sectors:
        assert board.regions[n].props == {"city": False, "abbr": n}
    assert set(board.land()) == set(cities(board)) | set(sectors) | {DESERT}


def test_cities_not_all_adjacent(board: PolygonBoard) -> None:
    with_sector = [
        c for c in cities(board) if any(n.isdigit() for n in board.land_neighbours(c))
    ]
    assert len(with_sector) > CITY_COUNT // 2


def test_desert_along_the_north(board: PolygonBoard) -> None:
    desert = board.regions[DESERT]
    assert desert.is_land and desert.props["city"] is False
    assert desert.props["abbr"] == DESERT_ABBR
    cy = desert.geometry.centroid.y
    for name in cities(board):
        assert cy > board.regions[name].geometry.centroid.y, name
    assert desert.geometry.bounds[3] == board.bounds[3]
    assert len(board.land_neighbours(DESERT)) >= 5


def test_both_coasts(board: PolygonBoard) -> None:
    assert board.seas() == list(SEAS)
    land = shapely.union_all([board.regions[n].geometry for n in board.land()])
    for sea in SEAS:
        geom = board.regions[sea].geometry
        assert land.intersection(geom).area < 1e-6 * geom.area
        assert len(board.land_neighbours(sea)) >= 10
    assert "Pacific Ocean" not in board.seas_of("Gulf of Mexico")
    assert "Gulf of Mexico" in board.seas_of("Veracruz")
    assert "Pacific Ocean" in board.seas_of("Acapulco")
    assert not board.seas_of("Tenochtitlan")


def test_every_region_one_polygon(data: dict) -> None:
    assert all(f["geometry"]["type"] == "Polygon" for f in data["features"])


def test_cities_hold_their_real_place(board: PolygonBoard) -> None:
    for name in cities(board):
        props = board.regions[name].props
        assert 14.3 < props["lat"] < 23.4 and -103.8 < props["lon"] < -92.0
        x, y = project(props["lon"], props["lat"])
        assert board.regions[name].geometry.contains(shapely.Point(x, y)), name
    assert project(-103.8, 14.3) == (0.0, 0.0)
    x, y = project(-92.0, 23.4)
    assert (x, y) == pytest.approx(board.bounds[2:], abs=0.1)


def test_adjacency_symmetric_and_land_connected(board: PolygonBoard) -> None:
    for a, neighbours in board.adjacency.items():
        for b in neighbours:
            assert a in board.adjacency[b]
    steps = land_steps(board, "Tenochtitlan")
    assert set(steps) == set(board.land())


def test_valley_and_soconusco(board: PolygonBoard) -> None:
    steps = land_steps(board, "Tenochtitlan")
    assert steps["Texcoco"] <= 2
    assert "Tacuba" in board.land_neighbours("Tenochtitlan")
    assert steps["Soconusco"] > 6  # far away, but reachable over land
    # Rule 5.8's example move A Ten M Tex, Zem, ...
    assert "Zempoala" in board.land_neighbours("Texcoco")


def test_real_geography(board: PolygonBoard) -> None:
    def lonlat(name: str) -> tuple[float, float]:
        props = board.regions[name].props
        return props["lon"], props["lat"]

    def xy(name: str) -> tuple[float, float]:
        c = board.regions[name].geometry.centroid
        return c.x, c.y

    ten = xy("Tenochtitlan")
    assert xy("Veracruz")[0] > ten[0] + 200
    aca = xy("Acapulco")
    assert aca[0] < ten[0] and aca[1] < ten[1] - 200
    tzi = xy("Tzintzuntzan")
    assert tzi[0] < ten[0] - 200
    assert xy("Soconusco")[0] > xy("Tehuantepec")[0] > xy("Oaxaca")[0]
    assert xy("Panuco")[1] > xy("Meztitlan")[1]
    assert lonlat("Veracruz")[0] > lonlat("Tenochtitlan")[0]
    assert lonlat("Acapulco")[1] < lonlat("Tenochtitlan")[1]
    # Neighbours in the valley of Mexico are neighbours on the board.
    assert {"Coyoacan", "Texcoco"} <= board.land_neighbours("Tenochtitlan")
    assert "Patzcuaro" in board.land_neighbours("Tzintzuntzan")


def _broken(data: dict, change) -> PolygonBoard:
    broken = copy.deepcopy(data)
    change({f["properties"]["name"]: f for f in broken["features"]}, broken)
    return PolygonBoard.from_dict(broken, source="broken")


def test_check_map_detects_a_duplicate_abbreviation(data: dict) -> None:
    def change(features: dict, _: dict) -> None:
        features["Texcoco"]["properties"]["abbr"] = "Ten"

    problems = check_map(_broken(data, change))
    assert any("abbreviation 'Ten' used by both" in p for p in problems)
    assert any("Texcoco" in p and "rule 2.6 gives 'Tex'" in p for p in problems)


def test_check_map_detects_missing_city_and_desert(data: dict) -> None:
    def change(features: dict, broken: dict) -> None:
        features["Cholula"]["properties"]["city"] = False
        broken["features"].remove(features[DESERT])

    problems = check_map(_broken(data, change))
    assert any("expected 79 cities, found 78" in p for p in problems)
    assert any("Cholula" in p and "not a city" in p for p in problems)
    assert any("Chichimec Desert is missing" in p for p in problems)


def test_check_map_detects_wrong_home(data: dict) -> None:
    def change(features: dict, _: dict) -> None:
        features["Tlaxcala"]["properties"]["empire"] = "Aztecs"
        features["Tepeaca"]["properties"]["home"] = "Tlaxcalans"

    problems = check_map(_broken(data, change))
    assert any("Tlaxcala" in p and "'empire'" in p for p in problems)
    assert any("Tepeaca" in p and "'home'" in p for p in problems)


def test_check_map_detects_disconnected_land(data: dict) -> None:
    soconusco = EMPIRES["Soconuscans"]

    def change(features: dict, _: dict) -> None:
        # Carry the four Soconuscan cities far out to sea, together.
        for city in soconusco:
            rings = features[city]["geometry"]["coordinates"]
            features[city]["geometry"]["coordinates"] = [
                [[x + 5000.0, y] for x, y in ring] for ring in rings
            ]

    problems = check_map(_broken(data, change))
    assert any("land not connected" in p and "Soconusco" in p for p in problems)
    assert any("Soconusco" in p and "real place" in p for p in problems)


def test_check_map_detects_asymmetric_adjacency(data: dict) -> None:
    def change(features: dict, _: dict) -> None:
        features["Tenochtitlan"]["properties"]["adjacent"] = ["Texcoco", "Tlaxcala"]

    problems = check_map(_broken(data, change))
    assert any("asymmetric" in p and "Tlaxcala" in p for p in problems)


def test_check_map_detects_a_sector_without_number(data: dict) -> None:
    def change(features: dict, _: dict) -> None:
        features["7"]["properties"]["name"] = "Seven"

    problems = check_map(_broken(data, change))
    assert any("'Seven'" in p and "numbered sector" in p for p in problems)


def test_renders(board: PolygonBoard, tmp_path) -> None:
    svg = draw(
        board,         labels={n: board.regions[n].props.get("abbr", n) for n in board.land()},
        highlight=list(home_centres()),
        title="AZTLAN",
    )
    assert svg.startswith("<svg") and "Chichimec Desert" in svg
