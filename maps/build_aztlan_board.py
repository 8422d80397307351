#!/usr/bin/env python3
"""Build aztlan.geojson, the board gmkit ships for AZTLAN (Ken St. Andre, 1977).

No public map of AZTLAN survives, so gmkit digitises its own.  This script
generated it once; the result is kept in the repository as data and is not
regenerated at run time.  It is deterministic: every random choice comes
from a generator seeded with ``SEED``, so running it again rewrites the same
file.

How the map is made:

* longitude and latitude are projected with a plain equirectangular
  projection (:func:`gmkit.rulesets.aztlan.board.geography.project`):
  x = (lon - WEST) * 111.32 * cos(19 deg), y = (lat - SOUTH) * 111.32, in
  kilometres, north up; the frame spans WEST..EAST and SOUTH..NORTH;
* the Gulf coast (Tamaulipas, past Panuco and Veracruz, to Coatzacoalcos
  and Tabasco) and the Pacific coast (Colima, past Zacatula, Acapulco and
  Tehuantepec, to the mouth of the Suchiate by Soconusco) are polylines
  drawn by hand from the real coast at a few tenths of a degree; the
  frame beyond them is the Gulf of Mexico and the Pacific Ocean;
* the Chichimec Desert is the land north of a hand-drawn frontier that
  runs from the Tarascan north-west, north of the Otomi towns and the
  Sierra Gorda, to the Gulf north of Panuco;
* the 79 cities sit at their real places (``CITIES``); sector seed points
  are scattered over the rest of the civilised land by dart throwing and
  spread by Lloyd relaxation (the cities stay put); the Voronoi cells of
  all these points clipped to the civilised land become the regions
  (a stray piece cut off by the coast or the desert goes to the neighbour
  it shares most border with; each city keeps the piece holding its town);
* where a near four-way corner leaves two regions a border under MIN_BORDER
  km long, the seed points are nudged (a sector's freely, a city's at most
  CITY_NUDGE km from its town, which always stays inside its region) until
  none is left;
* sectors are numbered in rows from north to south, west to east.

Every coordinate is snapped to a 0.1 km grid during the overlay operations,
so neighbouring regions share their border vertices exactly.  The script
checks every constraint with assertions and
:func:`gmkit.rulesets.aztlan.board.geography.check_map`, and prints a
summary.

Usage: ``python maps/build_aztlan_board.py [output.geojson]``; the
default output is ``aztlan.geojson`` beside this module.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import MultiPoint, Point, Polygon, box, mapping

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from board_shapes import GRID, areal, single_polygons  # noqa: E402
from gmkit.core.boards.polygon import PolygonBoard, write_geojson  # noqa: E402
from gmkit.rulesets.aztlan.board.geography import (
    ABBREVIATION_EXCEPTIONS,
    CITY_COUNT,
    DESERT,
    DESERT_ABBR,
    EMPIRES,
    FRAME,
    SEAS,
    abbreviation,
    check_map,
    home_centres,
    project,
)

SEED = 1450
ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "gmkit" / "rulesets" / "aztlan" / "board" / "aztlan.geojson"

# The frame, in degrees (shared with the ruleset, which projects the same way).
WEST, SOUTH, EAST, NORTH = FRAME

# Sector seeding (km): a sector point keeps this far from any city and from
# any other sector point when it is thrown; Lloyd relaxation then evens out
# the spacing.
SECTOR_FROM_CITY = 45.0
SECTOR_FROM_SECTOR = 70.0
LLOYD_ROUNDS = 12
SAMPLES = 60000
# Shared borders shorter than this (km) are ambiguous on a printed board:
# the points are nudged until there are none between 0 and this length.
MIN_BORDER = 2.0
CITY_NUDGE = 4.0
ROW_HEIGHT = 90.0  # km, for numbering the sectors

# The 79 cities: name, longitude, latitude (the real place, to about 0.05
# degree).  Names follow the game's own spelling, without accents.  Home
# centres are listed first, empire by empire (rule 2.5); then the other
# cities of rule 2.6's exceptions; then the other cities, region by region.
CITIES: list[tuple[str, float, float]] = [
    # Aztecs
    ("Tenochtitlan", -99.133, 19.435),
    ("Texcoco", -98.882, 19.513),
    ("Tacuba", -99.188, 19.459),  # Tlacopan
    # Tlaxcalans
    ("Tlaxcala", -98.238, 19.318),
    ("Huexotzingo", -98.408, 19.159),
    ("Cholula", -98.303, 19.064),
    # Chalcans
    ("Chalco", -98.897, 19.263),
    ("Coyoacan", -99.162, 19.350),
    ("Amecameca", -98.766, 19.124),
    # Tarascans
    ("Tzintzuntzan", -101.578, 19.628),
    ("Patzcuaro", -101.609, 19.516),
    ("Apatzingan", -102.351, 19.088),
    # Meztitlans
    ("Meztitlan", -98.762, 20.595),
    ("Zimapan", -99.381, 20.737),
    ("Tototepectli", -98.200, 20.398),  # Tutotepec, in the Sierra Otomi
    # Yopis
    ("Yopitzingo", -99.530, 17.160),  # the Yopi country inland of Acapulco
    ("Acapulco", -99.882, 16.853),
    ("Ayotlan", -99.093, 16.964),  # Ayutla
    # Totonacs (the Tototepec kingdom of the Oaxaca coast)
    ("Tototepec", -97.605, 16.128),
    ("Icpatepec", -97.800, 16.450),
    ("Coatlan", -96.780, 16.220),
    # Soconuscans
    ("Soconusco", -92.680, 15.330),
    ("Huixtlan", -92.467, 15.140),
    ("Mazatlan", -92.450, 14.860),  # Mazatan
    ("Ayatlan", -92.150, 14.680),  # Ayutla on the Suchiate
    # Hot Country
    ("Veracruz", -96.140, 19.180),
    ("Cotaxtla", -96.400, 18.830),
    ("Mixtlan", -96.990, 18.600),
    # The other exceptions of rule 2.6
    ("Acaxochitlan", -98.201, 20.158),
    ("Tlapacoya", -98.912, 19.302),
    ("Toltoltepec", -99.128, 19.685),  # Tultepec
    ("Oaxtepec", -98.967, 18.906),
    ("Tlaxiaco", -97.680, 17.270),
    ("Xalapa", -96.920, 19.540),
    ("Quetzaltepec", -95.750, 16.980),
    # Valley of Mexico
    ("Xochimilco", -99.104, 19.262),
    ("Zempoala", -98.669, 19.915),  # the "Zem" of rule 5.8's example
    ("Xaltocan", -99.050, 19.720),
    # Toluca valley and Morelos
    ("Toluca", -99.660, 19.290),
    ("Malinalco", -99.496, 18.950),
    ("Cuauhnahuac", -99.234, 18.920),
    # Hidalgo
    ("Tula", -99.340, 20.060),
    ("Actopan", -98.944, 20.270),
    ("Ixmiquilpan", -99.218, 20.484),
    ("Huauchinango", -98.053, 20.177),
    # Huasteca and Totonacapan
    ("Panuco", -98.180, 22.050),
    ("Tochpan", -97.410, 20.950),
    ("Papantla", -97.320, 20.450),
    ("Teziutlan", -97.360, 19.820),
    ("Misantla", -96.850, 19.930),
    ("Cempoala", -96.410, 19.440),
    # Orizaba, the Papaloapan and Tabasco
    ("Orizaba", -97.100, 18.850),
    ("Tuxtepec", -96.120, 18.090),
    ("Jaltipan", -94.710, 17.970),
    ("Potonchan", -92.650, 18.450),
    # Puebla
    ("Tepeaca", -97.900, 18.970),
    ("Quecholac", -97.660, 18.950),
    ("Atlixco", -98.430, 18.910),
    ("Itzocan", -98.460, 18.600),  # Izucar
    # Guerrero
    ("Iguala", -99.540, 18.350),
    ("Ixcateopan", -99.790, 18.500),
    ("Oztuma", -100.070, 18.370),
    ("Tixtla", -99.400, 17.570),
    ("Ometepec", -98.410, 16.690),
    ("Cihuatlan", -101.550, 17.680),
    ("Zacatula", -102.180, 17.960),
    # Oaxaca
    ("Oaxaca", -96.720, 17.060),  # Huaxyacac
    ("Coixtlahuaca", -97.320, 17.720),
    ("Teotitlan", -97.070, 18.130),
    ("Mitla", -96.360, 16.920),
    ("Yanhuitlan", -97.350, 17.530),
    ("Tehuantepec", -95.240, 16.320),
    # Chiapas
    ("Zinacantan", -92.720, 16.760),
    ("Tonala", -93.750, 16.090),
    # Michoacan
    ("Taximaroa", -100.550, 19.690),
    ("Uruapan", -102.060, 19.420),
    ("Cuitzeo", -101.140, 19.970),
    ("Jiquilpan", -102.720, 19.990),
    ("Zitacuaro", -100.360, 19.440),
]

# The Pacific coast from west to east, (lon, lat).
PACIFIC_COAST: list[tuple[float, float]] = [
    (WEST, 18.80), (-103.50, 18.55), (-103.30, 18.28), (-103.00, 18.18),
    (-102.70, 18.05), (-102.40, 17.98), (-102.17, 17.88), (-101.90, 17.82),
    (-101.65, 17.62), (-101.50, 17.56), (-101.30, 17.46), (-101.05, 17.28),
    (-100.75, 17.15), (-100.45, 17.03), (-100.20, 16.94), (-99.90, 16.79),
    (-99.60, 16.71), (-99.30, 16.62), (-99.00, 16.57), (-98.75, 16.50),
    (-98.55, 16.32), (-98.25, 16.22), (-97.95, 16.11), (-97.65, 15.98),
    (-97.35, 15.92), (-97.05, 15.86), (-96.75, 15.72), (-96.50, 15.66),
    (-96.25, 15.70), (-96.00, 15.78), (-95.75, 15.92), (-95.45, 16.05),
    (-95.20, 16.15), (-94.95, 16.21), (-94.70, 16.22), (-94.40, 16.15),
    (-94.10, 16.05), (-93.85, 15.92), (-93.60, 15.75), (-93.35, 15.55),
    (-93.10, 15.35), (-92.85, 15.10), (-92.60, 14.85), (-92.40, 14.65),
    (-92.24, 14.53), (EAST, 14.40),
]

# The Gulf coast from north to south and on east, (lon, lat).
GULF_COAST: list[tuple[float, float]] = [
    (-97.72, NORTH), (-97.75, 22.90), (-97.82, 22.45), (-97.85, 22.25),
    (-97.75, 21.95), (-97.60, 21.80), (-97.38, 21.55), (-97.35, 21.20),
    (-97.28, 20.95), (-97.05, 20.62), (-96.80, 20.28), (-96.58, 19.98),
    (-96.42, 19.70), (-96.33, 19.42), (-96.20, 19.28), (-96.03, 19.12),
    (-95.85, 18.90), (-95.60, 18.75), (-95.30, 18.72), (-95.10, 18.68),
    (-94.80, 18.45), (-94.60, 18.25), (-94.42, 18.15), (-94.10, 18.20),
    (-93.70, 18.35), (-93.30, 18.43), (-93.00, 18.45), (-92.70, 18.60),
    (-92.35, 18.68), (EAST, 18.72),
]

# The frontier of the Chichimec Desert from west to east, (lon, lat): the
# desert is the land north of it.  It ends out in the Gulf.
DESERT_EDGE: list[tuple[float, float]] = [
    (WEST, 21.00), (-103.00, 20.80), (-102.20, 20.55), (-101.50, 20.45),
    (-100.80, 20.50), (-100.20, 20.65), (-99.75, 20.95), (-99.45, 21.20),
    (-99.10, 21.60), (-98.80, 22.20), (-98.50, 22.55), (-98.10, 22.75),
    (-97.70, 22.85), (-97.00, 22.85),
]

GULF, PACIFIC = SEAS


def project_all(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    return [project(lon, lat) for lon, lat in points]


def geography() -> tuple[Polygon, Polygon, Polygon, Polygon, Polygon]:
    """The frame, the two seas, the desert and the civilised land."""
    x1, y1 = project(EAST, NORTH)
    frame = box(0.0, 0.0, x1, y1)
    pacific = Polygon([*project_all(PACIFIC_COAST), (x1, 0.0), (0.0, 0.0)])
    gulf = Polygon([*project_all(GULF_COAST), (x1, y1)])
    assert pacific.is_valid and gulf.is_valid
    land = areal(shapely.difference(frame, shapely.union(pacific, gulf), grid_size=GRID))
    assert land.geom_type == "Polygon", "the land is in several pieces"
    north = Polygon([*project_all(DESERT_EDGE), (x1, y1), (0.0, y1)])
    assert north.is_valid
    desert = areal(shapely.intersection(land, north, grid_size=GRID))
    civilised = areal(shapely.difference(land, north, grid_size=GRID))
    assert desert.geom_type == "Polygon" and civilised.geom_type == "Polygon"
    return frame, gulf.intersection(frame), pacific.intersection(frame), desert, civilised


def sector_points(rng: np.random.Generator, civilised: Polygon,
                  cities: np.ndarray) -> np.ndarray:
    """Seed points for the sectors, spread over the land the cities leave."""
    minx, miny, maxx, maxy = civilised.bounds
    xs = rng.uniform(minx, maxx, SAMPLES)
    ys = rng.uniform(miny, maxy, SAMPLES)
    inside = shapely.contains_xy(civilised, xs, ys)
    samples = np.column_stack([xs[inside], ys[inside]])
    # Dart throwing over the samples, in random order.
    chosen: list[np.ndarray] = []
    for p in samples[rng.permutation(len(samples))]:
        if np.min(np.hypot(*(cities - p).T)) < SECTOR_FROM_CITY:
            continue
        if chosen and np.min(np.hypot(*(np.array(chosen) - p).T)) < SECTOR_FROM_SECTOR:
            continue
        chosen.append(p)
    sectors = np.array(chosen)
    # Lloyd relaxation: each sector moves to the centre of the land nearest
    # to it; the cities stay where they are.
    n_cities = len(cities)
    for _ in range(LLOYD_ROUNDS):
        pts = np.vstack([cities, sectors])
        d2 = ((samples[:, None, :] - pts[None, :, :]) ** 2).sum(axis=2)
        nearest = d2.argmin(axis=1)
        for k in range(len(sectors)):
            mine = samples[nearest == n_cities + k]
            if len(mine):
                sectors[k] = mine.mean(axis=0)
    return sectors


def cells_for(points: np.ndarray, frame: Polygon, civilised: Polygon,
              keep: list[Point | None]) -> list[Polygon]:
    voronoi = shapely.voronoi_polygons(MultiPoint(points), extend_to=frame, ordered=True)
    cells = [shapely.intersection(c, civilised, grid_size=GRID) for c in voronoi.geoms]
    return single_polygons(cells, keep)


def short_borders(cells: list[Polygon]) -> list[tuple[int, int, float]]:
    """Pairs of cells sharing a border shorter than MIN_BORDER (but not a point)."""
    tree = shapely.STRtree(cells)
    left, right = tree.query(cells, predicate="intersects")
    out = []
    for i, j in zip(left.tolist(), right.tolist()):
        if i < j:
            length = cells[i].boundary.intersection(cells[j].boundary).length
            if 0 < length < MIN_BORDER:
                out.append((i, j, length))
    return out


def build(seed: int = SEED) -> tuple[dict, PolygonBoard]:
    """Generate the map; return the GeoJSON data and the loaded map."""
    rng = np.random.default_rng(seed)
    frame, gulf, pacific, desert, civilised = geography()
    names = [name for name, _, _ in CITIES]
    cities = np.array([project(lon, lat) for _, lon, lat in CITIES])
    for name, (x, y) in zip(names, cities):
        assert civilised.contains(Point(x, y)), f"{name} is not on the civilised land"
    sectors = sector_points(rng, civilised, cities)
    n_cities = len(cities)

    # Nudge the seed points until no two regions share a border too short
    # to read (a near four-way corner).  A city's seed point may move up to
    # CITY_NUDGE km from its town, which always stays inside its region.
    sites = cities.copy()
    for _ in range(200):
        points = np.vstack([sites, sectors])
        keep = [Point(p) for p in cities] + [None] * len(sectors)
        cells = cells_for(points, frame, civilised, keep)
        short = short_borders(cells)
        if not short:
            break
        for i, j, _ in short:
            k = max(i, j) if max(i, j) >= n_cities else int(rng.choice([i, j]))
            if k >= n_cities:
                sectors[k - n_cities] += rng.normal(0.0, 3.0, 2)
            else:
                moved = sites[k] + rng.normal(0.0, 1.5, 2)
                offset = moved - cities[k]
                reach = np.hypot(*offset)
                if reach > CITY_NUDGE:
                    moved = cities[k] + offset * (CITY_NUDGE / reach)
                sites[k] = moved
    else:
        raise AssertionError(f"short borders remain: {short}")
    assert all(cell.area > 0 for cell in cells)
    # The seas are what the land leaves of the frame, so that they share the
    # land's coast vertex for vertex.
    land = shapely.union_all([*cells, desert], grid_size=GRID)
    water = shapely.get_parts(shapely.difference(frame, land, grid_size=GRID))
    water = [w for w in water if w.geom_type == "Polygon" and w.area > 1.0]
    assert len(water) == 2, f"the sea is in {len(water)} pieces"
    gulf = max(water, key=lambda w: w.intersection(gulf).area)
    pacific = max(water, key=lambda w: w.intersection(pacific).area)
    assert gulf is not pacific

    # Number the sectors in rows from north to south, west to east.
    top = civilised.bounds[3]
    order = sorted(
        range(len(sectors)),
        key=lambda k: (int((top - sectors[k][1]) // ROW_HEIGHT), sectors[k][0]),
    )
    number = {k: str(n + 1) for n, k in enumerate(order)}

    homes = home_centres()
    features = []
    for i in sorted(range(n_cities), key=lambda i: names[i]):
        name, lon, lat = CITIES[i]
        props: dict = {"name": name, "kind": "land", "city": True, "abbr": abbreviation(name)}
        if name in homes:
            props["home"] = homes[name]
            props["empire"] = homes[name]
        props["lon"] = lon
        props["lat"] = lat
        features.append(_feature(cells[i], props))
    features.append(
        _feature(desert, {"name": DESERT, "kind": "land", "city": False,
                          "abbr": DESERT_ABBR, "desert": True})
    )
    for k in order:
        label = number[k]
        features.append(_feature(cells[n_cities + k],
                                 {"name": label, "kind": "land", "city": False, "abbr": label}))
    features.append(_feature(gulf, {"name": GULF, "kind": "sea"}))
    features.append(_feature(pacific, {"name": PACIFIC, "kind": "sea"}))
    data = {"type": "FeatureCollection", "name": "aztlan", "features": features}
    return data, PolygonBoard.from_dict(json.loads(json.dumps(data)), source="aztlan")


def _feature(geom: Polygon, props: dict) -> dict:
    geom = shapely.normalize(shapely.set_precision(geom, GRID))
    geom = shapely.orient_polygons(geom)  # GeoJSON right-hand rule
    assert geom.geom_type == "Polygon", (props["name"], geom.geom_type)
    coords = mapping(geom)["coordinates"]
    rounded = [[[round(x, 1), round(y, 1)] for x, y in ring] for ring in coords]
    return {
        "type": "Feature",
        "properties": props,
        "geometry": {"type": "Polygon", "coordinates": rounded},
    }


def land_distance(gm: PolygonBoard, start: str) -> dict[str, int]:
    """Steps over land from ``start`` to every land region."""
    dist = {start: 0}
    todo = [start]
    while todo:
        nxt = []
        for a in todo:
            for b in gm.land_neighbours(a):
                if b not in dist:
                    dist[b] = dist[a] + 1
                    nxt.append(b)
        todo = nxt
    return dist


def check(data: dict, gm: PolygonBoard) -> None:
    """Assert every constraint the map must meet."""
    problems = check_map(gm)
    assert not problems, problems
    assert not gm.validate(sea_names=list(SEAS)), gm.validate(sea_names=list(SEAS))
    assert all(f["geometry"]["type"] == "Polygon" for f in data["features"])
    cities = [n for n in gm.land() if gm.regions[n].props["city"]]
    sectors = [n for n in gm.land() if n.isdigit()]
    assert len(cities) == CITY_COUNT == len(CITIES)
    assert 40 <= len(sectors) <= 90, len(sectors)
    assert sorted(sectors, key=int) == [str(k) for k in range(1, len(sectors) + 1)]
    abbrs = [abbreviation(n) for n in cities]
    assert len(set(a.casefold() for a in abbrs)) == CITY_COUNT, "abbreviations clash"
    assert DESERT_ABBR not in abbrs
    for name, code in ABBREVIATION_EXCEPTIONS.items():
        assert gm.regions[name].props["abbr"] == code
        # No other city is designated by an exception's code.
        assert abbrs.count(code) == 1, code
    for empire, homes in EMPIRES.items():
        for city in homes:
            assert gm.regions[city].props["empire"] == empire
    # Each city's region holds the city's real place.
    for name, lon, lat in CITIES:
        assert gm.regions[name].geometry.contains(Point(project(lon, lat))), name
    # Land and sea do not overlap; the land is one piece.
    land_union = shapely.union_all([gm.regions[n].geometry for n in gm.land()], grid_size=GRID)
    assert land_union.geom_type == "Polygon"
    for sea in SEAS:
        assert land_union.intersection(gm.regions[sea].geometry).area < 1.0, sea
        assert gm.land_neighbours(sea), f"{sea} touches no land"
    # The desert lies along the north: its centroid is north of every city
    # and it reaches the top of the frame.
    desert = gm.regions[DESERT].geometry
    assert all(desert.centroid.y > gm.regions[c].geometry.centroid.y for c in cities)
    assert desert.bounds[3] == gm.bounds[3]
    assert not gm.seas_of(DESERT) or GULF in gm.seas_of(DESERT)
    # Cities are not all adjacent to one another: most have a sector next door.
    with_sector = [c for c in cities if any(n.isdigit() for n in gm.land_neighbours(c))]
    assert len(with_sector) >= 0.6 * CITY_COUNT, len(with_sector)
    # The valley: Tenochtitlan borders Texcoco, or reaches it through one region.
    dist = land_distance(gm, "Tenochtitlan")
    assert dist["Texcoco"] <= 2
    assert "Soconusco" in dist
    # Neighbouring borders are long enough to read.
    for a in gm.regions:
        for b in gm.neighbours(a):
            assert gm.border_length(a, b) >= MIN_BORDER * 0.99, (a, b, gm.border_length(a, b))


def summary(gm: PolygonBoard) -> str:
    land = gm.land()
    cities = [n for n in land if gm.regions[n].props["city"]]
    sectors = [n for n in land if n.isdigit()]
    coastal = [n for n in land if gm.seas_of(n)]
    dist = land_distance(gm, "Tenochtitlan")
    lines = [
        f"{gm.name}: {len(cities)} cities, {len(sectors)} sectors, 1 desert, "
        f"{len(gm.seas())} seas; {len(coastal)} coastal land regions",
        f"Gulf coast: {len(gm.land_neighbours(GULF))} regions, "
        f"Pacific coast: {len(gm.land_neighbours(PACIFIC))} regions",
        f"desert borders {len(gm.land_neighbours(DESERT))} regions",
        f"steps from Tenochtitlan: Texcoco {dist['Texcoco']}, Tlaxcala {dist['Tlaxcala']}, "
        f"Tzintzuntzan {dist['Tzintzuntzan']}, Veracruz {dist['Veracruz']}, "
        f"Acapulco {dist['Acapulco']}, Soconusco {dist['Soconusco']}",
    ]
    for empire, homes in EMPIRES.items():
        if homes:
            lines.append(f"{empire}: " + ", ".join(
                f"{c} ({gm.regions[c].props['abbr']})" for c in homes))
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """Build, check and write the map."""
    output = Path(argv[1]) if len(argv) > 1 else OUTPUT
    data, gm = build(SEED)
    check(data, gm)
    write_geojson(data, output)
    reloaded = PolygonBoard.from_geojson(output)
    assert reloaded.adjacency == gm.adjacency, "the written file does not reload to the same map"
    print(summary(reloaded))
    print(f"written to {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
