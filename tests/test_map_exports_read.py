"""The map files gmkit writes, read by tools it did not write: every GeoJSON export is RFC 7946
(GDAL, through pyogrio, reads it in longitude and latitude, EPSG:4326), whatever the board's
kind; a graph or hex board is placed by one frame per game (its plane's origin at 0° N 0° E,
one scale for every turn), which ``gmkit_frame`` records so it can be undone; every feature
carries the state it shows, the columns its ruleset declares for places, as that turn's tables
hold them; and every PNG map is opaque (Pillow), so its dark title and legend show on a dark
forum theme."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pyogrio
import pytest
import shapely
from PIL import Image

from gmkit.core.boards.hexgrid import HexBoard
from gmkit.core.placerows import json_value
from gmkit.core.views import Viewer
from gmkit.game import Game
from gmkit.publish.mapfile import map_geojson, map_png

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ["cien", "aztlan", "pyramid", "jungle", "aeternus"]


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Three Hills game played three turns by the bots (no sample ships for it)."""
    from gmkit.rulesets import find_ruleset
    from gmkit.sweeps.playout import sample_game

    root = tmp_path_factory.mktemp("example") / "g"
    sample_game(root, "example", find_ruleset("example").example_players(None), 3, "maps")
    return root


def _game(name: str, example: Path) -> Game:
    return Game.open(example if name == "example" else ROOT / "data" / f"sample-{name}")


@pytest.mark.parametrize("name", SAMPLES + ["example"])
def test_every_geojson_export_is_read_by_gdal_in_longitude_and_latitude(
        name: str, example: Path, tmp_path: Path) -> None:
    """RFC 7946: GDAL reads each export as EPSG:4326 with every coordinate a longitude and a
    latitude, every polygon valid and wound by the right-hand rule, and the ``bbox`` the
    extent."""
    path = tmp_path / "map.geojson"
    data = map_geojson(_game(name, example))
    path.write_text(json.dumps(data), "utf-8")
    meta, _, geometry, _ = pyogrio.raw.read(path)
    assert meta["crs"] == "EPSG:4326"
    shapes = shapely.from_wkb(geometry)
    west, south, east, north = shapely.total_bounds(shapes)
    assert -180 <= west <= east <= 180 and -90 <= south <= north <= 90
    assert [west, south, east, north] == pytest.approx(data["bbox"], abs=1e-6)
    polygons = [g for g in shapes if g.geom_type in ("Polygon", "MultiPolygon")]
    assert all(g.is_valid for g in polygons)
    assert all(shapely.is_ccw(p.exterior) for g in polygons
               for p in getattr(g, "geoms", [g]))
    assert data["gmkit_frame"]["projection"] == "equirectangular"


@pytest.mark.parametrize("name", ["pyramid", "jungle", "aeternus", "example"])
def test_a_board_in_its_own_plane_is_placed_by_one_frame_that_undoes(
        name: str, example: Path) -> None:
    """A graph or hex board: its plane's origin at 0° N 0° E and one scale for the game, so
    going back by ``gmkit_frame`` gives the plane's coordinates (a hex's centre, a place's
    position), and every turn's map has the same frame and puts a place at the same spot."""
    game = _game(name, example)
    turns = game.store.turns()
    first, last = map_geojson(game, turns[1]), map_geojson(game, turns[-1])
    assert first["gmkit_frame"] == last["gmkit_frame"]
    frame = last["gmkit_frame"]
    assert (frame["west"], frame["south"], frame["kind"]) == (0.0, 0.0, "plane")
    km = frame["km_per_degree"]

    def plane(lon: float, lat: float) -> tuple[float, float]:
        return (lon - frame["west"]) * km, (lat - frame["south"]) * km

    spots = {}
    for f in last["features"]:
        p = f["properties"]
        if isinstance(game.board, HexBoard):
            ring = np.array(f["geometry"]["coordinates"][0][:-1])
            x, y = plane(*ring.mean(axis=0))
            assert (x, y) == pytest.approx((math.sqrt(3) * (p["q"] + p["r"] / 2), -1.5 * p["r"]),
                                           abs=1e-3)
            spots[(p["q"], p["r"])] = f["geometry"]["coordinates"]
        elif f["geometry"]["type"] == "Point":
            pos = game.board.places[p["place"]].pos or (0.0, 0.0)
            assert plane(*f["geometry"]["coordinates"]) == pytest.approx((pos[0], -pos[1]),
                                                                          abs=1e-3)
            spots[p["place"]] = f["geometry"]["coordinates"]
    for f in first["features"]:
        p = f["properties"]
        key = (p.get("q"), p.get("r")) if isinstance(game.board, HexBoard) else p.get("place")
        if key in spots and f["geometry"]["type"] != "LineString":
            assert f["geometry"]["coordinates"] == spots[key]


def _feature_key(game: Game, f: dict[str, Any]) -> Any:
    p = f["properties"]
    if isinstance(game.board, HexBoard):
        return (p["q"], p["r"])
    return p.get("place", p.get("name"))


@pytest.mark.parametrize("name", SAMPLES + ["example"])
def test_every_feature_carries_that_turns_tables_as_its_ruleset_declares(
        name: str, example: Path) -> None:
    """Every ruleset declares the tables whose rows say something of its places
    (``Presentation.place_tables``); the GeoJSON of the sample's last turn gives each place
    those columns of its row (or its rows, as a list), as the public sees that turn's tables,
    and a declared kind column is the feature's ``kind``."""
    game = _game(name, example)
    specs = game.ruleset.presentation.place_tables
    assert specs, f"{name} declares no place tables"
    data = map_geojson(game, view="public")
    features = {_feature_key(game, f): f["properties"] for f in data["features"]
                if f["geometry"]["type"] != "LineString"}
    state = game.state(viewer=Viewer.public())
    for spec in specs:
        rows = state[spec.table].iter_rows(named=True)
        grouped: dict[Any, list[dict[str, Any]]] = {}
        for row in rows:
            key = tuple(row[k] for k in spec.key)
            grouped.setdefault(key if len(key) > 1 else key[0], []).append(row)
        matched = 0
        for key, group in grouped.items():
            if key not in features:
                assert not isinstance(game.board, HexBoard) or game.board.frame is None, \
                    f"{name}: {spec.table} row {key} has no feature"
                continue  # an unbounded world's map shows the explored hexes only
            props = features[key]
            want = [{c: json_value(r[c]) for c in spec.columns} for r in group]
            if spec.many:
                assert props[spec.many] == want, (name, spec.table, key)
            else:
                assert {c: props.get(c) for c in spec.columns} == want[0], \
                    (name, spec.table, key)
                if spec.kind:
                    assert props["kind"] == group[0][spec.kind]
            matched += 1
        assert matched or not grouped, f"{name}: no feature carries the rows of {spec.table}"


def test_a_token_never_names_another_member_of_its_faction() -> None:
    """Aeternus: the players of a faction share its colour; a token names its player through
    the declared ``players`` rows, never the first member of its colour."""
    data = map_geojson(Game.open(ROOT / "data" / "sample-aeternus"))
    tokens = 0
    for f in data["features"]:
        props = f["properties"]
        named = {p["id"] for p in props.get("players", [])}
        for piece in props.get("pieces", []):
            if piece["piece"] == "player":
                tokens += 1
                assert piece["who"] is None or piece["who"] in named
                assert piece["title"].split(" of ")[0] in named
    assert tokens >= 6


@pytest.mark.parametrize("name", SAMPLES + ["example"])
def test_every_png_map_is_opaque(name: str, example: Path) -> None:
    """A forum's dark theme shows a PNG's transparent pixels as black: every map PNG has an
    opaque background, so its dark title and legend show."""
    image = Image.open(io.BytesIO(map_png(_game(name, example), width=200)))
    alpha = image.convert("RGBA").getchannel("A")
    assert alpha.getextrema() == (255, 255)
