"""A polygon map as GeoJSON other tools read as RFC 7946 defines it: longitude and latitude
(WGS84) and every border two regions share drawn with the same vertices on both sides.

gmkit stores a polygon map in planar coordinates (map units, x east and y north), which is what
it draws. GIS tools and web maps want longitude and latitude, and find a border between two
regions only where both polygons run through the same vertices. :func:`to_rfc7946` gives them
both:

* **the frame**: how map units become longitude and latitude. A map file names its own in a
  ``"frame"`` member of its FeatureCollection, or its ruleset does (a ``map_frame`` attribute
  of the same form, for game folders whose copy of the map names none), read by
  :func:`frame_of`; a real map such as AZTLAN's Mexico needs one::

      "frame": {"projection": "equirectangular", "west": -103.8, "south": 14.3,
                "km_per_degree": 111.32, "true_at": 19.0}

  that is, a map unit is a kilometre, ``x = (lon - west) * km_per_degree * cos(true_at)`` and
  ``y = (lat - south) * km_per_degree``. A map that names none (a fictional land: Cien) is
  placed in the **local frame** (:func:`local_frame`): the same projection with its south-west
  corner at 0° N 0° E, true at the equator, a map unit a kilometre (a map more than 4,400 units
  across is shrunk to fit 40 degrees). The frame used is written into the file as the foreign
  member ``"gmkit_frame"``, so a reader can go back to map units.
* **shared borders** (:func:`shared_borders`): the regions are cut along every line any of them
  draws; a sliver two regions both claim, or a small gap none claims (under :data:`GAP_SHARE`
  of the map's area), goes to the region along it that it gives the least border gmkit does not
  store (none, where one can take it so), and every vertex lying on a neighbour's edge is added
  to that edge. Each region thus keeps its place, and tools find the borders gmkit finds; a
  border is added only where the stored map leaves a gap between two regions that every
  region along it would close.

A graph or hex board has no place on the Earth either: it is drawn in its own plane
(:mod:`gmkit.core.drawing.board_geojson`) and placed by :func:`plane_to_rfc7946` in the
**plane frame** (:func:`plane_frame`): the plane's origin at 0° N 0° E, a plane unit a kilometre
at the equator, unless the board reaches farther than :data:`LOCAL_SPAN` degrees from the
origin at that scale (then shrunk to fit). The frame depends on the board alone, never on the
turn or on what a turn shows, so the maps of every turn of a game line up; ``"gmkit_frame"``
holds it, with the plane it undoes to (``"plane"``).

Polygons follow the right-hand rule (exteriors counter-clockwise) and coordinates have seven
decimals (about a centimetre). Nothing here changes the stored map or its hashes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

__all__ = ["GAP_SHARE", "Frame", "frame_of", "local_frame", "plane_extent", "plane_frame",
           "plane_to_rfc7946", "shared_borders", "to_rfc7946"]

#: Kilometres in a degree of latitude (and of longitude at the equator).
KM_PER_DEGREE = 111.32
#: A gap no region claims is filled when smaller than this share of the map's area.
GAP_SHARE = 1e-4
#: Decimals of a written longitude or latitude (1e-7 degree: about a centimetre).
DECIMALS = 7
#: The most degrees a map in the local frame spans.
LOCAL_SPAN = 40.0


class FrameError(ValueError):
    """A map's ``"frame"`` member cannot be read."""


@dataclass(frozen=True)
class Frame:
    """An equirectangular frame: map units (kilometres) east and north of ``(west, south)``,
    true at latitude ``true_at``."""

    west: float
    south: float
    km_per_degree: float = KM_PER_DEGREE
    true_at: float = 0.0
    kind: str = "declared"  # "declared" by the map file, or "local"

    @property
    def km_per_degree_east(self) -> float:
        return self.km_per_degree * math.cos(math.radians(self.true_at))

    def lonlat(self, xy: np.ndarray) -> np.ndarray:
        """Map coordinates (an ``(n, 2)`` array) as longitudes and latitudes."""
        out = np.empty_like(xy, dtype=float)
        out[:, 0] = self.west + xy[:, 0] / self.km_per_degree_east
        out[:, 1] = self.south + xy[:, 1] / self.km_per_degree
        return np.round(out, DECIMALS)

    def member(self) -> dict[str, Any]:
        """The frame as written into an exported file."""
        return {"projection": "equirectangular", "west": self.west, "south": self.south,
                "km_per_degree": self.km_per_degree, "true_at": self.true_at,
                "kind": self.kind}


def local_frame(bounds: tuple[float, float, float, float]) -> Frame:
    """The frame of a map that names none: its south-west corner at 0° N 0° E, a map unit a
    kilometre, unless the map is more than :data:`LOCAL_SPAN` degrees across at that scale."""
    minx, miny, maxx, maxy = bounds
    span = max(maxx - minx, maxy - miny, 1e-9)
    km = max(KM_PER_DEGREE, span / LOCAL_SPAN)
    # shift so that the map's own south-west corner lands on 0° N 0° E
    return Frame(west=-minx / km + 0.0, south=-miny / km + 0.0, km_per_degree=km, true_at=0.0,
                 kind="local")


def frame_of(data: Mapping[str, Any], bounds: tuple[float, float, float, float],
             default: Mapping[str, Any] | None = None) -> Frame:
    """The frame a map file declares in its ``"frame"`` member, else ``default`` (written the
    same way), else the local frame."""
    raw = data.get("frame", default)
    if raw is None:
        return local_frame(bounds)
    if not isinstance(raw, Mapping) or raw.get("projection") != "equirectangular":
        raise FrameError("the map's 'frame' must be an object with \"projection\": "
                         "\"equirectangular\"")
    try:
        frame = Frame(west=float(raw["west"]), south=float(raw["south"]),
                      km_per_degree=float(raw.get("km_per_degree", KM_PER_DEGREE)),
                      true_at=float(raw.get("true_at", 0.0)))
    except (KeyError, TypeError, ValueError) as e:
        raise FrameError(f"the map's 'frame' needs numbers 'west' and 'south': {e}") from None
    if frame.km_per_degree <= 0 or not -89 < frame.true_at < 89:
        raise FrameError("the map's 'frame' needs a positive 'km_per_degree' and a "
                         "'true_at' latitude between -89 and 89")
    return frame


# -------------------------------------------------------------------------- shared borders


def _polygons(geom: BaseGeometry) -> list[Polygon]:
    if isinstance(geom, Polygon):
        return [geom] if not geom.is_empty else []
    return [g for part in getattr(geom, "geoms", []) for g in _polygons(part)]


def shared_borders(geoms: Mapping[str, BaseGeometry],
                   adjacency: Mapping[str, Iterable[str]] | None = None
                   ) -> dict[str, BaseGeometry]:
    """The regions cut into one coverage where neighbours share their borders vertex for vertex
    (see the module's docstring); the names and their order are kept.

    ``adjacency`` is the borders gmkit stores (:attr:`PolygonBoard.adjacency`): a sliver or gap
    goes to the region it gives the least border gmkit does not store (none, where it can), so
    that tools find the same borders as gmkit; then to a region claiming it, then to the one
    along most of its outline."""
    names = list(geoms)
    stored = {n: set(adjacency.get(n, ())) for n in names} if adjacency is not None else None
    shapes = np.array([geoms[n] for n in names], dtype=object)
    minx, miny, maxx, maxy = shapely.total_bounds(shapes)
    diag = math.hypot(maxx - minx, maxy - miny) or 1.0
    eps, tol = diag * 1e-9, diag * 1e-7
    # every line any region draws, noded where lines cross, and the faces between them
    lines = shapely.union_all(shapely.boundary(shapes))
    faces = list(shapely.get_parts(shapely.polygonize([lines])))
    tree = shapely.STRtree(shapes)
    points = shapely.point_on_surface(np.array(faces, dtype=object))
    face_idx, owner_idx = tree.query(points, predicate="within")
    owners: dict[int, list[int]] = {}
    for f, o in zip(face_idx.tolist(), owner_idx.tolist()):
        owners.setdefault(f, []).append(o)
    total = float(shapely.area(shapely.union_all(shapes)))
    boundaries = shapely.boundary(shapes)
    parts: dict[int, list[BaseGeometry]] = {i: [] for i in range(len(names))}
    for f, face in enumerate(faces):
        claim = owners.get(f, [])
        if len(claim) == 1:
            parts[claim[0]].append(face)
            continue
        if not claim and face.area >= GAP_SHARE * total:
            continue  # a real hole (a lake no region holds)
        near = tree.query(face, predicate="intersects").tolist()
        # noding moves a crossing by a rounding error: measure within a tolerance
        along = shapely.length(shapely.intersection(
            face.boundary, shapely.buffer(boundaries[near], tol, quad_segs=1)))
        touching = {i: float(a) for i, a in zip(near, along.tolist()) if a > eps}
        if not touching:
            continue

        def new_border(i: int) -> float:
            """How much border gmkit does not store the face would give region i."""
            return 0.0 if stored is None else sum(
                length for j, length in touching.items()
                if j != i and names[j] not in stored[names[i]])

        best = min(touching, key=lambda i: (new_border(i), i not in claim, -touching[i]))
        parts[best].append(face)
    merged = [shapely.union_all(parts[i]) if parts[i] else shapes[i] for i in range(len(names))]
    noded = _insert_shared_vertices(merged, eps)
    return {n: noded[i] for i, n in enumerate(names)}


def _insert_shared_vertices(shapes: list[BaseGeometry], eps: float) -> list[BaseGeometry]:
    """Each ring with every other vertex of the map that lies on one of its edges inserted
    into that edge, so that two regions along one border run through the same vertices."""
    coords = np.unique(np.concatenate(
        [shapely.get_coordinates(s) for s in shapes]), axis=0)
    tree = shapely.STRtree(shapely.points(coords))

    def ring(xy: np.ndarray) -> np.ndarray:
        starts, ends = xy[:-1], xy[1:]
        segments = shapely.linestrings(np.stack([starts, ends], axis=1))
        seg_idx, pt_idx = tree.query(segments, predicate="dwithin", distance=eps)
        out: list[np.ndarray] = []
        extra: dict[int, list[tuple[float, int]]] = {}
        for s, p in zip(seg_idx.tolist(), pt_idx.tolist()):
            a, b, v = starts[s], ends[s], coords[p]
            d = b - a
            length2 = float(d @ d)
            if length2 == 0:
                continue
            t = float((v - a) @ d) / length2
            if 0 < t < 1 and not (np.array_equal(v, a) or np.array_equal(v, b)):
                extra.setdefault(s, []).append((t, p))
        for s in range(len(starts)):
            out.append(starts[s][None, :])
            for _, p in sorted(extra.get(s, [])):
                out.append(coords[p][None, :])
        out.append(ends[-1][None, :])
        return np.concatenate(out)

    def polygon(p: Polygon) -> Polygon:
        shell = ring(np.asarray(p.exterior.coords)[:, :2])
        holes = [ring(np.asarray(h.coords)[:, :2]) for h in p.interiors]
        return Polygon(shell, holes)

    out = []
    for s in shapes:
        polys = [polygon(p) for p in _polygons(s)]
        out.append(polys[0] if len(polys) == 1 else MultiPolygon(polys))
    return out


# -------------------------------------------------------------------------- the file


def _to_lonlat(geom: BaseGeometry, frame: Frame) -> BaseGeometry:
    oriented = shapely.orient_polygons(geom, exterior_cw=False)
    return shapely.transform(oriented, frame.lonlat)


def to_rfc7946(data: Mapping[str, Any], properties: Mapping[str, Mapping[str, Any]] | None = None,
               *, adjacency: Mapping[str, Iterable[str]] | None = None,
               frame: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The map file ``data`` (a gmkit GeoJSON FeatureCollection) as RFC 7946 GeoJSON: each
    region's polygon in longitude and latitude with shared borders, its stored properties, and
    ``properties[name]`` added (a turn's owner and fill, say). ``adjacency`` is the borders
    gmkit stores for the map (see :func:`shared_borders`); ``frame`` the frame of a map whose
    file names none (a ruleset's, for the game folders made before its board named it). The
    frame used is the foreign member
    ``"gmkit_frame"``; ``"bbox"`` gives the map's extent."""
    from shapely.geometry import shape

    features = [f for f in data.get("features", []) if isinstance(f, Mapping)]
    geoms = {str(f["properties"]["name"]): shape(f["geometry"]) for f in features}
    bounds = tuple(float(v) for v in shapely.total_bounds(np.array(list(geoms.values()),
                                                                   dtype=object)))
    used = frame_of(data, bounds, frame)  # type: ignore[arg-type]
    fixed = shared_borders(geoms, adjacency)
    out_features = []
    all_lonlat = []
    for f in features:
        name = str(f["properties"]["name"])
        geom = _to_lonlat(fixed[name], used)
        all_lonlat.append(geom)
        props = {k: v for k, v in f["properties"].items()}
        props.update((properties or {}).get(name, {}))
        out_features.append({"type": "Feature", "properties": props,
                             "geometry": json.loads(shapely.to_geojson(geom))})
    lo = shapely.total_bounds(np.array(all_lonlat, dtype=object))
    west, south, east, north = (round(float(v), DECIMALS) for v in lo)
    if not (-180 <= west <= east <= 180 and -90 <= south <= north <= 90):
        raise FrameError(f"the map's frame puts it outside longitude and latitude "
                         f"({west}, {south}, {east}, {north})")
    return {"type": "FeatureCollection", "name": data.get("name", "map"),
            "bbox": [west, south, east, north], "gmkit_frame": used.member(),
            "features": out_features}


# -------------------------------------------------------------------------- boards in a plane


def plane_frame(extent: float | None) -> Frame:
    """The frame of a board drawn in its own plane (a graph or hex board): the origin at 0° N
    0° E, a plane unit a kilometre, shrunk so that the board fits within :data:`LOCAL_SPAN`
    degrees of the origin; ``extent`` is the farthest any place lies from the origin along
    either axis, None for an unbounded board (a unit stays a kilometre)."""
    km = KM_PER_DEGREE if extent is None else max(KM_PER_DEGREE, extent / LOCAL_SPAN)
    return Frame(west=0.0, south=0.0, km_per_degree=km, true_at=0.0, kind="plane")


def plane_extent(board: Any) -> float | None:
    """How far a graph or hex board reaches from its plane's origin along either axis, as
    :mod:`gmkit.core.drawing.board_geojson` draws it (a place's position, a hex's corners);
    None for an unbounded hex grid."""
    from gmkit.core.boards.graph import GraphBoard

    if isinstance(board, GraphBoard):
        return max((abs(v) for p in board.places.values() for v in (p.pos or (0.0, 0.0))),
                   default=0.0)
    if board.frame is None:
        return None
    far = 0.0
    for q, r in board.frame.select("q", "r").iter_rows():
        far = max(far, abs(math.sqrt(3) * (q + r / 2)) + 1, abs(1.5 * r) + 1)
    return far


def _placed(coords: Any, frame: Frame) -> Any:
    """GeoJSON coordinates (a position or nested lists of them) in longitude and latitude."""
    if coords and isinstance(coords[0], (int, float)):
        lon, lat = frame.lonlat(np.array([coords[:2]], dtype=float))[0]
        return [float(lon), float(lat)]
    return [_placed(c, frame) for c in coords]


def plane_to_rfc7946(collection: Mapping[str, Any], frame: Frame) -> dict[str, Any]:
    """A FeatureCollection drawn in a board's plane placed in longitude and latitude by
    ``frame``: every coordinate moved, ``"bbox"`` the extent, and ``"gmkit_frame"`` the frame
    with the plane the collection named (``"plane"``), so a reader can go back to it. Raises
    :class:`FrameError` when a place falls outside longitude and latitude."""
    features = []
    for f in collection.get("features", []):
        geometry = dict(f["geometry"])
        geometry["coordinates"] = _placed(geometry["coordinates"], frame)
        features.append({**f, "geometry": geometry})
    points = [pt for f in features for pt in _positions(f["geometry"]["coordinates"])]
    if points:
        lons, lats = [p[0] for p in points], [p[1] for p in points]
        west, south, east, north = min(lons), min(lats), max(lons), max(lats)
    else:
        west = south = east = north = 0.0
    if not (-180 <= west <= east <= 180 and -90 <= south <= north <= 90):
        raise FrameError(f"the board reaches outside longitude and latitude at a kilometre a "
                         f"unit ({west}, {south}, {east}, {north})")
    member = {**frame.member(), "plane": dict(collection.get("gmkit_frame", {}))}
    return {"type": "FeatureCollection", "bbox": [west, south, east, north],
            "gmkit_frame": member, "features": features}


def _positions(coords: Any) -> list[list[float]]:
    if coords and isinstance(coords[0], (int, float)):
        return [coords]
    return [p for c in coords for p in _positions(c)]
