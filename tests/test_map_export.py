"""A game's map exported as GeoJSON, read back with tools gmkit does not use to write it: a JSON
schema of RFC 7946's objects, and shapely on the polygons as a GIS tool reads them.

RFC 7946: positions are longitude and latitude (WGS84), no ``crs`` member, polygons follow the
right-hand rule (exteriors counter-clockwise). A border two regions share is one line drawn
with the same vertices on both sides, so that GIS tools find the borders gmkit finds: no two
regions overlap, no gap lies between them."""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import shapely
from click.testing import CliRunner
from shapely.geometry import Point, shape

from gmkit.cli import main
from gmkit.core.geoexport import FrameError, frame_of, to_rfc7946
from gmkit.core.boards.polygon import PolygonBoard
from gmkit.game import Game

ROOT = Path(__file__).resolve().parent.parent
AZTLAN_BOARD = ROOT / "gmkit" / "rulesets" / "aztlan" / "board" / "aztlan.geojson"

_POSITION = {"type": "array", "minItems": 2, "maxItems": 3, "items": {"type": "number"},
             "prefixItems": [{"type": "number", "minimum": -180, "maximum": 180},
                             {"type": "number", "minimum": -90, "maximum": 90}]}
_RING = {"type": "array", "minItems": 4, "items": _POSITION}
_POLYGON = {"type": "object", "required": ["type", "coordinates"],
            "properties": {"type": {"const": "Polygon"},
                           "coordinates": {"type": "array", "minItems": 1, "items": _RING}}}
_MULTI = {"type": "object", "required": ["type", "coordinates"],
          "properties": {"type": {"const": "MultiPolygon"},
                         "coordinates": {"type": "array", "items": {
                             "type": "array", "minItems": 1, "items": _RING}}}}
#: RFC 7946's FeatureCollection of polygons, as a JSON schema (2020-12).
RFC7946_POLYGONS = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object", "required": ["type", "features"],
    "not": {"required": ["crs"]},
    "properties": {
        "type": {"const": "FeatureCollection"},
        "bbox": {"type": "array", "minItems": 4, "maxItems": 4,
                 "prefixItems": [{"minimum": -180, "maximum": 180},
                                 {"minimum": -90, "maximum": 90},
                                 {"minimum": -180, "maximum": 180},
                                 {"minimum": -90, "maximum": 90}]},
        "features": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["type", "geometry", "properties"],
            "properties": {"type": {"const": "Feature"},
                           "properties": {"type": "object", "required": ["name"]},
                           "geometry": {"oneOf": [_POLYGON, _MULTI]}}}},
    },
}


def read_as_gis(data: dict[str, Any]) -> dict[str, Any]:
    """The regions as a GIS tool reads them (shapely on the raw coordinates)."""
    jsonschema.Draft202012Validator(RFC7946_POLYGONS).validate(data)
    return {f["properties"]["name"]: shape(f["geometry"]) for f in data["features"]}


def right_hand_rule(geom: Any) -> bool:
    polys = list(getattr(geom, "geoms", [geom]))
    return all(p.exterior.is_ccw and not any(h.is_ccw for h in p.interiors) for p in polys)


def borders(regions: dict[str, Any]) -> dict[str, set[str]]:
    """Each region's neighbours: the regions its outline shares a line with."""
    out: dict[str, set[str]] = {n: set() for n in regions}
    for a, b in itertools.combinations(regions, 2):
        if regions[a].intersects(regions[b]) and \
                regions[a].boundary.intersection(regions[b].boundary).length > 0:
            out[a].add(b)
            out[b].add(a)
    return out


def overlaps_and_gaps(regions: dict[str, Any]) -> tuple[int, int]:
    geoms = list(regions.values())
    overlaps = sum(1 for a, b in itertools.combinations(geoms, 2)
                   if a.intersects(b) and a.intersection(b).area > 1e-12)
    union = shapely.union_all(geoms)
    gaps = sum(len(p.interiors) for p in getattr(union, "geoms", [union]))
    return overlaps, gaps


def unshared_vertices(regions: dict[str, Any]) -> list[tuple[str, str]]:
    """Pairs of neighbours where a vertex of one lies on the other's outline without being one
    of its vertices (the border is drawn differently on its two sides)."""
    bad = []
    for a, b in itertools.combinations(regions, 2):
        ga, gb = regions[a], regions[b]
        if not ga.intersects(gb):
            continue
        vb = {tuple(c) for c in shapely.get_coordinates(gb)}
        line = gb.boundary
        for c in shapely.get_coordinates(ga):
            if tuple(c) not in vb and line.distance(Point(c)) < 1e-9:
                bad.append((a, b))
                break
    return bad


def aztlan_with_its_frame() -> dict[str, Any]:
    """AZTLAN's board with its equirectangular frame named, as its build script projects it."""
    from gmkit.rulesets.aztlan.board.geography import FRAME

    data = json.loads(AZTLAN_BOARD.read_text(encoding="utf-8"))
    data["frame"] = {"projection": "equirectangular", "west": FRAME[0], "south": FRAME[1],
                     "km_per_degree": 111.32, "true_at": 19.0}
    return data


@pytest.fixture
def cien_game(tmp_path: Path) -> Path:
    game = tmp_path / "cien"
    shutil.copytree(ROOT / "data" / "sample-cien", game)
    return game


def test_gmkit_map_writes_rfc7946_geojson_in_longitude_and_latitude(cien_game: Path,
                                                                    tmp_path: Path) -> None:
    """``gmkit map GAME --out map.geojson`` writes GeoJSON as RFC 7946 defines it: longitude and
    latitude, no crs, polygons following the right-hand rule; each region with its turn's fill
    and label."""
    out = tmp_path / "map.geojson"
    result = CliRunner().invoke(main, ["map", str(cien_game), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "longitude and latitude" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    regions = read_as_gis(data)
    game = Game.open(cien_game)
    assert set(regions) == set(game.board.regions)
    assert all(g.is_valid and right_hand_rule(g) for g in regions.values())
    west, south, east, north = data["bbox"]
    assert (west, south) == (0.0, 0.0) and 0 < east < 40 and 0 < north < 40
    assert data["gmkit_frame"]["kind"] == "local"
    props = {f["properties"]["name"]: f["properties"] for f in data["features"]}
    assert all(p["turn"] == game.latest_turn and p["fill"].startswith("#")
               for p in props.values() if p["kind"] == "land")


def test_cien_exported_borders_are_the_borders_gmkit_stores(cien_game: Path,
                                                            tmp_path: Path) -> None:
    """Every border is drawn with the same vertices on both sides: a GIS tool finds exactly the
    borders gmkit stores, no overlap and no gap."""
    out = tmp_path / "cien.geojson"
    assert CliRunner().invoke(main, ["map", str(cien_game), "--out", str(out)]).exit_code == 0
    regions = read_as_gis(json.loads(out.read_text(encoding="utf-8")))
    game_map = Game.open(cien_game).board
    assert overlaps_and_gaps(regions) == (0, 0)
    assert unshared_vertices(regions) == []
    assert borders(regions) == {n: set(a) for n, a in game_map.adjacency.items()}


def test_aztlan_with_its_frame_puts_every_city_at_its_real_place() -> None:
    """AZTLAN is a real map of Mexico: exported with its frame, each city's region holds the
    city's real longitude and latitude."""
    data = aztlan_with_its_frame()
    regions = read_as_gis(to_rfc7946(data))
    cities = [f["properties"] for f in data["features"] if "lon" in f["properties"]]
    assert len(cities) == 79
    for city in cities:
        assert regions[city["name"]].contains(Point(city["lon"], city["lat"])), city["name"]
    west, south, east, north = shapely.total_bounds(list(regions.values()))
    assert -104 < west < east < -91.9 and 14.2 < south < north < 23.5


def test_the_chichimec_desert_shares_its_borders_vertex_for_vertex() -> None:
    """The stored Chichimec Desert overlaps its neighbours (slivers) and leaves gaps; exported,
    no region overlaps another, no gap is left, every border has the same vertices on both
    sides, every border gmkit stores is found, and a border found beyond them only closes a
    gap of the stored map (two regions less than 50 m apart there)."""
    data = aztlan_with_its_frame()
    stored = PolygonBoard.from_dict(json.loads(AZTLAN_BOARD.read_text(encoding="utf-8")))
    before = {n: r.geometry for n, r in stored.regions.items()}
    assert overlaps_and_gaps(before) != (0, 0), "the stored board has slivers and gaps"
    regions = read_as_gis(to_rfc7946(data, adjacency=stored.adjacency))
    assert overlaps_and_gaps(regions) == (0, 0)
    assert unshared_vertices(regions) == []
    found = borders(regions)
    desert = "Chichimec Desert"
    assert {"1", "2", "5", "6", "7", "8", "11", "12", "13", "Zimapan"} <= found[desert]
    for name, neighbours in stored.adjacency.items():
        assert set(neighbours) <= found[name], name
        for extra in found[name] - set(neighbours):
            assert before[name].distance(before[extra]) < 0.05, (name, extra)


def test_a_map_names_its_frame_or_is_refused_plainly() -> None:
    """A map's frame is an equirectangular projection with numbers; anything else is refused
    with what is wrong."""
    bounds = (0.0, 0.0, 100.0, 100.0)
    assert frame_of({}, bounds).kind == "local"
    with pytest.raises(FrameError, match="equirectangular"):
        frame_of({"frame": {"projection": "mercator"}}, bounds)
    with pytest.raises(FrameError, match="west"):
        frame_of({"frame": {"projection": "equirectangular", "south": 1}}, bounds)
    far = {"type": "FeatureCollection", "frame": {"projection": "equirectangular",
                                                    "west": 179.5, "south": 0},
           "features": [{"type": "Feature", "properties": {"name": "A", "kind": "land"},
                         "geometry": {"type": "Polygon", "coordinates": [
                             [[0, 0], [500, 0], [500, 10], [0, 10], [0, 0]]]}}]}
    with pytest.raises(FrameError, match="outside longitude and latitude"):
        to_rfc7946(far)


def test_a_ruleset_frame_places_a_game_folder_whose_map_names_none(tmp_path: Path) -> None:
    """A game folder's copy of the map may name no frame (made before its board did); the
    frame its ruleset declares (``map_frame``, AZTLAN's central Mexico) places it, as ``gmkit
    map`` writes it."""
    from gmkit.rulesets.aztlan.board.geography import FRAME

    game = tmp_path / "aztlan"
    shutil.copytree(ROOT / "data" / "sample-aztlan", game)
    assert Game.open(game).ruleset.board.frame["west"] == FRAME[0]
    out = tmp_path / "aztlan.geojson"
    result = CliRunner().invoke(main, ["map", str(game), "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    regions = read_as_gis(data)
    assert data["gmkit_frame"]["kind"] == "declared"
    tenochtitlan = next(f["properties"] for f in data["features"]
                        if f["properties"]["name"] == "Tenochtitlan")
    assert regions["Tenochtitlan"].contains(Point(tenochtitlan["lon"], tenochtitlan["lat"]))
    assert overlaps_and_gaps(regions) == (0, 0)
