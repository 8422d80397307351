#!/usr/bin/env python3
"""Build cien.geojson, the province map gmkit ships for The Crown of Cien.

The game has no public map, so gmkit draws its own.  This script generated it
once; the result is kept in the repository as data and is not regenerated
at run time.  It is deterministic: every random choice comes from a local
generator seeded with ``SEED``, so running it again rewrites the same file.

How the map is made:

* the known world is a 1000 x 620 rectangle, north up;
* an irregular coastline (a few long waves, a peninsula, a bay and fractal
  detail) splits it into land in the north and the Great Sea in the south;
* 51 seed points are scattered on the land and spread evenly by weighted
  Lloyd relaxation (slightly denser near the shore, so that more provinces
  are coastal); their Voronoi cells clipped to the land become the
  provinces (stray pieces cut off by the coastline are merged into the
  neighbour they share most border with);
* the sea is cut into five sectors, Great Sea 1 to 5 from west to east, each
  cut passing through the middle of a coastal province's shore so that
  every sea touches 3 to 7 provinces and neighbouring seas touch;
* names are then given: the Imperial City Cien on an inland cell near the
  centre-north, the provinces the rules' examples name (Coyons, Tróys,
  Solsauvre, Sevoy, Guicardie) where the examples need them, and the other
  invented names at random.

Every coordinate is snapped to a 0.1 grid during the overlay operations, so
neighbouring regions share their border vertices exactly.  The script checks
its constraints with assertions and prints a short summary.

Usage: ``python maps/build_cien_board.py [output.geojson]``; the default
output is ``cien.geojson`` beside this module.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import sys
import unicodedata
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import MultiPoint, Polygon, box, mapping

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from board_shapes import GRID, areal, single_polygons  # noqa: E402
from gmkit.core.boards.polygon import PolygonBoard, write_geojson  # noqa: E402

SEED = 27
WIDTH = 1000.0
HEIGHT = 620.0
N_LAND = 51
N_SEAS = 5
LLOYD_ROUNDS = 8
COAST_DENSITY = 2.0
COAST_REACH = 60.0
ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "gmkit" / "rulesets" / "cien" / "board" / "cien.geojson"

CAPITAL = "Cien"
REQUIRED = ["Coyons", "Tróys", "Solsauvre", "Sevoy", "Guicardie"]
# Invented names in a French style; the first 45 are used.
INVENTED = [
    "Bellemarche", "Vauclerc", "Montaubre", "Ardennoy", "Lorvenne",
    "Saint-Aubrac", "Aigremont", "Castelnoir", "Durandelle", "Éclusaine",
    "Fontebrune", "Gaverne", "Haudrelle", "Isembart", "Joncières",
    "Lusignac", "Marmonde", "Noirval", "Orbeval", "Pérollac",
    "Quercenay", "Roquefière", "Tarascoin", "Ursanne", "Valmorin",
    "Verdelais", "Ysarne", "Chantebrie", "Dombrecy", "Esterlin",
    "Florimont", "Grandpré", "Hautessart", "Ivrenne", "Lamberval",
    "Mireval", "Nantelle", "Ostrelles", "Pontaulier", "Rochebrune",
    "Sarrevienne", "Thiévanne", "Vézelac", "Brévanne", "Cormelin",
]
SEA_NAMES = [f"Great Sea {k}" for k in range(1, N_SEAS + 1)]
LAND_OUTPUT = 10
CAPITAL_OUTPUT = 30


def fold(name: str) -> str:
    """Lower-case letters of ``name`` without accents (for clash checks)."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if c.isalpha() and not unicodedata.combining(c))


def snap(geom):
    """Snap a geometry to the 0.1 grid."""
    return shapely.set_precision(geom, GRID)


def coastline(rng: np.random.Generator) -> np.ndarray:
    """The coast as (x, y) points from west to east; land lies north of it."""
    xs = np.linspace(0.0, WIDTH, 401)
    t = xs / WIDTH
    ys = np.full_like(xs, 190.0)
    for amplitude, frequency in ((32.0, 1.3), (18.0, 2.9), (9.0, 6.7)):
        ys += amplitude * np.sin(2 * math.pi * frequency * t + rng.uniform(0, 2 * math.pi))
    # A peninsula reaching south and a deep bay.
    peninsula = rng.uniform(560, 700)
    ys -= 95.0 * np.exp(-(((xs - peninsula) / 38.0) ** 2))
    bay = rng.uniform(220, 360)
    ys += 60.0 * np.exp(-(((xs - bay) / 42.0) ** 2))
    # Fractal detail: noise at several scales, each smoothed to its scale.
    for step, amplitude in ((40, 10.0), (12, 5.0), (4, 2.5)):
        knots = np.arange(0.0, WIDTH + step, step)
        ys += np.interp(xs, knots, rng.normal(0.0, amplitude, len(knots)))
    ys = np.clip(ys, 70.0, 330.0)
    return np.round(np.column_stack([xs, ys]), 1)


def seed_points(rng: np.random.Generator, land: Polygon, coast: np.ndarray) -> np.ndarray:
    """N_LAND well spread points on the land, denser near the coast.

    Dart throwing gives the start; weighted Lloyd relaxation (k-means over
    a dense random sample of the land, weighted by a density that is higher
    near the shore) evens the spacing and makes coastal provinces a little
    smaller, so that more of them line the shore.
    """
    minx, miny, maxx, maxy = land.bounds
    xs = rng.uniform(minx, maxx, 20000)
    ys = rng.uniform(miny, maxy, 20000)
    inside = shapely.contains_xy(land, xs, ys)
    samples = np.column_stack([xs[inside], ys[inside]])
    shore = shapely.LineString(coast)
    distance = shapely.distance(shore, shapely.points(samples))
    weight = 1.0 + COAST_DENSITY * np.exp(-distance / COAST_REACH)

    points: list[tuple[float, float]] = []
    min_distance = 70.0
    while len(points) < N_LAND:
        x, y = samples[rng.integers(len(samples))]
        if all(math.hypot(x - px, y - py) >= min_distance for px, py in points):
            points.append((float(x), float(y)))
        else:
            min_distance *= 0.995
    pts = np.array(points)
    for _ in range(LLOYD_ROUNDS):
        d2 = ((samples[:, None, :] - pts[None, :, :]) ** 2).sum(axis=2)
        nearest = d2.argmin(axis=1)
        total = np.bincount(nearest, weights=weight, minlength=N_LAND)
        pts = np.column_stack(
            [
                np.bincount(nearest, weights=weight * samples[:, 0], minlength=N_LAND) / total,
                np.bincount(nearest, weights=weight * samples[:, 1], minlength=N_LAND) / total,
            ]
        )
    return pts


def choose_cuts(shore: list[int], xs: list[float], land_map: PolygonBoard) -> list[int]:
    """Where to cut the sea, as positions in the west-to-east ``shore`` list.

    ``xs`` gives the middle of each coastal province's shore.  The seas
    are cut through the shore of coastal provinces number
    k_1 < k_2 < k_3 < k_4, so sea j touches provinces k_(j-1) to k_j (with
    k_0 the first and k_5 the last): neighbouring seas share a province and
    touch each other.  Each sea must touch 3 to 7 provinces, and one sea
    must offer two provinces for the Tróys and Guicardie example (no common
    border, no common land neighbour).  The most even choice (in numbers of
    provinces and in widths) wins.
    """
    m = len(shore)
    names = [f"r{i}" for i in shore]
    neighbours = {n: land_map.land_neighbours(n) for n in names}

    def fits(first: int, last: int) -> bool:
        group = names[first : last + 1]
        return any(
            b not in neighbours[a] and not neighbours[a] & neighbours[b]
            for a in group
            for b in group
            if a < b
        )

    best = None
    for inner in itertools.combinations(range(1, m - 1), N_SEAS - 1):
        ks = [0, *inner, m - 1]
        counts = [ks[j + 1] - ks[j] + 1 for j in range(N_SEAS)]
        if not all(3 <= c <= 7 for c in counts):
            continue
        if not any(fits(ks[j], ks[j + 1]) for j in range(N_SEAS)):
            continue
        edges = [0.0, *(xs[k] for k in inner), WIDTH]
        widths = np.diff(edges) / 100.0
        score = float(np.var(counts) + np.var(widths))
        if best is None or score < best[0]:
            best = (score, list(inner))
    assert best is not None, "no way to cut the sea into fitting sectors"
    return best[1]


def build(seed: int) -> tuple[dict, PolygonBoard]:
    """Generate the map for ``seed``; return the GeoJSON data and the loaded map."""
    rng = np.random.default_rng(seed)
    pick = random.Random(seed)
    frame = box(0.0, 0.0, WIDTH, HEIGHT)
    coast = coastline(rng)
    land = Polygon([*coast.tolist(), (WIDTH, HEIGHT), (0.0, HEIGHT)])
    assert land.is_valid

    points = seed_points(rng, land, coast)
    voronoi = shapely.voronoi_polygons(MultiPoint(points), extend_to=frame, ordered=True)
    cells = [shapely.intersection(c, land, grid_size=GRID) for c in voronoi.geoms]
    cells = single_polygons(cells, what="province")
    land_union = shapely.union_all(cells, grid_size=GRID)
    sea_area = shapely.difference(frame, land_union, grid_size=GRID)

    # Order the coastal provinces west to east by the middle of their shore.
    shore = land_union.boundary.intersection(sea_area.boundary)
    coastal = []
    for i, cell in enumerate(cells):
        piece = cell.boundary.intersection(shore)
        if piece.length > 1.0:
            coastal.append((piece.centroid.x, i, piece))
    coastal.sort()
    m = len(coastal)
    assert m >= 3 * N_SEAS - 4, f"only {m} coastal provinces"
    cut_indices = choose_cuts(
        [i for _, i, _ in coastal], [x for x, _, _ in coastal], _provisional_map(cells)
    )
    cut_lines = []
    for k in cut_indices:
        # Cut at a shore vertex of the province (near the middle of its
        # shore), so the cut adds no vertex that the province lacks.
        _, _, piece = coastal[k]
        vertices = shapely.get_coordinates(piece)
        middle = np.array(piece.centroid.coords[0])
        x0, y0 = vertices[np.argmin(((vertices - middle) ** 2).sum(axis=1))]
        # A slight slant looks less man-made; the cut must not cross land.
        for slant in (rng.uniform(-40.0, 40.0), 0.0):
            below = shapely.LineString([(x0, y0), (x0 + slant, 0.0)])
            if shapely.intersection(below, land_union).length == 0:
                break
        else:
            raise AssertionError(f"cannot cut the sea at x={x0}")
        cut_lines.append(((x0, HEIGHT), (x0, y0), (x0 + slant, 0.0)))
    # Each cut runs from the top of the frame to the shore point and on to
    # the bottom; a sector is bounded by its west cut (top to bottom) and
    # its east cut (bottom to top).  The land is removed afterwards.
    sectors = []
    west: tuple = ((0.0, HEIGHT), (0.0, 0.0))
    for east in [*cut_lines, ((WIDTH, HEIGHT), (WIDTH, 0.0))]:
        sectors.append(Polygon([*west, *reversed(east)]))
        west = east
    seas = []
    for sector in sectors:
        sea = areal(shapely.intersection(sector, sea_area, grid_size=GRID))
        assert sea.geom_type == "Polygon", f"a sea sector is in {len(sea.geoms)} pieces"
        seas.append(sea)

    regions = [*cells, *seas]
    pm = _provisional_map(regions)
    names = _assign_names(pm, cells, seas, pick)
    features = []
    order = sorted(range(len(cells)), key=lambda i: fold(names[i]))
    for i in order:
        props: dict = {"name": names[i], "kind": "land"}
        if names[i] == CAPITAL:
            props["capital"] = True
        props["output"] = CAPITAL_OUTPUT if names[i] == CAPITAL else LAND_OUTPUT
        features.append(_feature(cells[i], props))
    for k, sea in enumerate(seas):
        features.append(_feature(sea, {"name": SEA_NAMES[k], "kind": "sea"}))
    data = {"type": "FeatureCollection", "name": "cien", "features": features}
    return data, PolygonBoard.from_dict(json.loads(json.dumps(data)), source=f"seed {seed}")


def _feature(geom: Polygon, props: dict) -> dict:
    geom = shapely.normalize(snap(geom))
    geom = shapely.orient_polygons(geom)  # GeoJSON right-hand rule
    coords = mapping(geom)["coordinates"]
    rounded = [[[round(x, 1), round(y, 1)] for x, y in ring] for ring in coords]
    return {
        "type": "Feature",
        "properties": props,
        "geometry": {"type": "Polygon", "coordinates": rounded},
    }


def _provisional_map(regions: list) -> PolygonBoard:
    """A map with placeholder names ``r0``, ``r1``... to read adjacency."""
    features = []
    for i, geom in enumerate(regions):
        kind = "land" if i < N_LAND else "sea"
        features.append(_feature(geom, {"name": f"r{i}", "kind": kind}))
    return PolygonBoard.from_dict({"type": "FeatureCollection", "name": "draft", "features": features})


def _assign_names(pm: PolygonBoard, cells: list, seas: list, pick: random.Random) -> list[str]:
    """Choose which cell gets which name; returns names by cell index."""
    idx = {f"r{i}": i for i in range(len(cells))}
    land = [f"r{i}" for i in range(len(cells))]
    coastal = {r for r in land if pm.seas_of(r)}
    near_coast = {r for r in land if pm.land_neighbours(r) & coastal} | coastal
    chosen: dict[str, str] = {}

    # Cien: inland, not next to a coastal province, close to the centre-north.
    target = (WIDTH / 2, HEIGHT * 0.68)
    points = pm.label_points()
    inland = [r for r in land if r not in near_coast]
    capital = min(inland, key=lambda r: math.dist(points[r], target))
    chosen[CAPITAL] = capital

    # Tróys and Guicardie: on the same sea, no common border, no common
    # land neighbour; prefer them close to each other along the shore.
    best = None
    for s in pm.seas():
        shore = sorted(pm.land_neighbours(s), key=lambda r: points[r][0])
        for a in shore:
            for b in shore:
                if a == b or b in pm.land_neighbours(a) or capital in (a, b):
                    continue
                if pm.land_neighbours(a) & pm.land_neighbours(b):
                    continue
                score = (math.dist(points[a], points[b]), points[a][0])
                if best is None or score < best[0]:
                    best = (score, a, b)
    assert best is not None, "no pair of coastal provinces fits Tróys and Guicardie"
    _, troys, guicardie = best
    chosen["Tróys"] = troys
    chosen["Guicardie"] = guicardie

    # Coyons: an inland land neighbour of Tróys.
    taken = set(chosen.values())
    options = sorted(
        (r for r in pm.land_neighbours(troys) if r not in taken),
        key=lambda r: (r in coastal, -points[r][1]),
    )
    chosen["Coyons"] = options[0]
    taken.add(options[0])

    # Sevoy: inland (not coastal, not next to the coast, off the edge of the
    # map, not next to the capital), with a free neighbour for Solsauvre;
    # as far from both Cien and Tróys as possible, to spread the examples.
    def on_edge(r: str) -> bool:
        x0, y0, x1, y1 = pm.regions[r].geometry.bounds
        return x0 <= 0.0 or x1 >= WIDTH or y1 >= HEIGHT

    pairs = []
    for r in inland:
        if r in taken or on_edge(r) or capital in pm.land_neighbours(r):
            continue
        spread = min(math.dist(points[r], points[capital]), math.dist(points[r], points[troys]))
        for q in sorted(pm.land_neighbours(r), key=lambda q: int(q[1:])):
            if q not in taken:
                pairs.append((-spread, int(r[1:]), int(q[1:]), r, q))
    pairs.sort()
    *_, sevoy, solsauvre = pairs[0]
    chosen["Sevoy"] = sevoy
    chosen["Solsauvre"] = solsauvre
    taken |= {sevoy, solsauvre}

    rest = [r for r in land if r not in taken]
    others = INVENTED[: len(rest)]
    assert len(others) == len(rest), "not enough invented names"
    pick.shuffle(others)
    names = [""] * len(cells)
    for name, r in chosen.items():
        names[idx[r]] = name
    for name, r in zip(others, rest):
        names[idx[r]] = name
    return names


def check(data: dict, gm: PolygonBoard) -> None:
    """Assert every constraint the map must meet."""
    land = gm.land()
    assert len(land) == N_LAND, len(land)
    assert gm.seas() == SEA_NAMES, gm.seas()
    assert gm.capitals() == [CAPITAL]
    assert all(f["geometry"]["type"] == "Polygon" for f in data["features"])
    folded = [fold(n) for n in land]
    assert len(set(folded)) == len(folded), "names clash after case/accent folding"
    prefixes = [f[:4] for f in folded]
    assert len(set(prefixes)) == len(prefixes), "two names share a 4-letter prefix"
    for name in [CAPITAL, *REQUIRED]:
        assert name in gm.regions, name
    problems = gm.validate(land_count=N_LAND, sea_names=SEA_NAMES)
    assert not problems, problems
    for name in land:
        assert gm.land_neighbours(name), f"{name} has no land neighbour"
    # Land alone is connected.
    start = land[0]
    seen, todo = {start}, [start]
    while todo:
        for n in gm.land_neighbours(todo.pop()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(land), "land is not connected over land"
    # Seas: 3 to 7 coastal provinces each, neighbouring seas touch.
    for k, sea in enumerate(SEA_NAMES):
        shore = gm.land_neighbours(sea)
        assert 3 <= len(shore) <= 7, (sea, sorted(shore))
        if k + 1 < N_SEAS:
            assert SEA_NAMES[k + 1] in gm.seas_of(sea), (sea, "does not touch the next sea")
    # The capital is inland, near the centre-north.
    assert not gm.seas_of(CAPITAL)
    x, y = gm.label_points()[CAPITAL]
    assert 300 < x < 700 and y > 0.55 * HEIGHT, (x, y)
    # The rules' examples.
    assert "Tróys" in gm.land_neighbours("Coyons")
    shared = gm.seas_of("Guicardie") & gm.seas_of("Tróys")
    assert shared, "Guicardie and Tróys share no sea"
    assert "Guicardie" not in gm.land_neighbours("Tróys")
    assert not gm.land_neighbours("Guicardie") & gm.land_neighbours("Tróys")
    assert not gm.seas_of("Sevoy")
    assert "Solsauvre" in gm.land_neighbours("Sevoy")
    # Borders are clear: every shared border is at least a few units long,
    # and the borders account for every region's whole outline.
    frame = box(0.0, 0.0, WIDTH, HEIGHT).boundary
    for name, region in gm.regions.items():
        total = sum(gm.border_length(name, other) for other in gm.neighbours(name))
        total += region.geometry.boundary.intersection(frame).length
        perimeter = region.geometry.length
        assert abs(total - perimeter) < 0.01 * perimeter, (name, total, perimeter)
        for other in gm.neighbours(name):
            assert gm.border_length(name, other) >= 5.0, (name, other)


def summary(gm: PolygonBoard) -> str:
    """A few lines describing the map."""
    lines = [
        f"{gm.name}: {len(gm.land())} land provinces (capital {', '.join(gm.capitals())}), "
        f"{len(gm.seas())} seas"
    ]
    coastal = [n for n in gm.land() if gm.seas_of(n)]
    lines.append(f"coastal provinces: {len(coastal)}, inland: {len(gm.land()) - len(coastal)}")
    points = gm.label_points()
    for sea in gm.seas():
        shore = sorted(gm.land_neighbours(sea), key=lambda n: points[n][0])
        lines.append(f"{sea} ({len(shore)}): {', '.join(shore)}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """Build, check and write the map."""
    output = Path(argv[1]) if len(argv) > 1 else OUTPUT
    data, gm = build(SEED)
    check(data, gm)
    write_geojson(data, output)
    reloaded = PolygonBoard.from_geojson(output)
    assert reloaded.adjacency == {
        n: frozenset(v) for n, v in gm.adjacency.items()
    }, "the written file does not reload to the same map"
    print(summary(reloaded))
    print(f"written to {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
