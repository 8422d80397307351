"""Polygon boards: provinces drawn as polygons, read from GeoJSON, adjacency from shared borders.

A polygon board is a GeoJSON ``FeatureCollection`` whose features are the regions of the board:
land provinces and sea regions, in planar coordinates with the y axis growing northwards (up).
Each feature needs the properties ``name`` (unique display name) and ``kind`` (``"land"`` or
``"sea"``); every other property is kept as-is in :attr:`Region.props` (for instance
``"capital": true`` or a ruleset's ``"output"``).

Which regions are neighbours is not written in the file: it is derived from the geometry.  Two
regions are adjacent when they share a border of positive length; regions that only touch at a
corner are not adjacent.  A feature may still carry an explicit ``"adjacent"`` property (a list
of region names) that replaces the derived neighbours of that region, for straits, canals or
deliberate exceptions; :meth:`PolygonBoard.validate` then reports any asymmetry.

:class:`PolygonBoard` loads and checks such a file and answers the questions of the
:class:`~gmkit.core.boards.Board` protocol (kind ``"polygon"``, places are region names) and the
polygon-only ones (land and seas, border lengths, reachability, label points).  It draws
nothing: :mod:`gmkit.core.drawing.polygon_svg` and :mod:`gmkit.core.drawing.polygon_chart` do.
"""

from __future__ import annotations

import json
import math
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, Self

import numpy as np
import shapely
from shapely.geometry import MultiPolygon, Polygon, mapping, shape
from shapely.ops import polylabel

from gmkit.core.boards import MAX_PLACES, too_many_places
from gmkit.core.names import NameIndex

__all__ = ["KINDS", "MapError", "PolygonBoard", "Region", "polygon_board", "write_geojson"]

#: The region kinds a map may contain.
KINDS: tuple[str, ...] = ("land", "sea")

# Two boundaries closer than this (relative to the map's diagonal) count as
# the same line when measuring shared borders; it absorbs floating-point noise.
_SNAP_REL = 1e-6
# A shared border shorter than this (relative to the map's diagonal) is a
# touch, not a border: at any sensible drawing size it is under a pixel long.
_MIN_BORDER_REL = 2e-4
# Overlaps with an area above this fraction of the map's area are reported.
_OVERLAP_REL = 1e-6

def write_geojson(data: Mapping[str, Any], path: str | Path) -> None:
    """Write a FeatureCollection with one feature per line (small, diff-friendly map files)."""
    head = {k: v for k, v in data.items() if k != "features"}
    lines = [json.dumps(head, ensure_ascii=False)[:-1] + ', "features": [']
    feats = [json.dumps(f, ensure_ascii=False, separators=(",", ":")) for f in data["features"]]
    lines.append(",\n".join(feats))
    lines.append("]}")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")

class MapError(ValueError):
    """A map file or map data is malformed.

    The message names the file (or the ``source`` given to
    :meth:`PolygonBoard.from_dict`), the feature or region concerned and what is
    wrong with it.
    """

#: The largest coordinate a map may have, east, west, north or south (far beyond any drawing,
#: and small enough that no area or length computed from it overflows).
MAX_COORDINATE = 1e9


def _coordinate_problem(geometry: Mapping[str, Any]) -> str | None:
    """What is wrong with a Polygon's or MultiPolygon's coordinates before shapely reads them:
    the nesting its type has, each position two or three finite numbers within
    :data:`MAX_COORDINATE`; None when they are fine."""
    depth = 3 if geometry.get("type") == "Polygon" else 4
    stack: list[tuple[Any, int]] = [(geometry.get("coordinates"), 1)]
    while stack:
        item, level = stack.pop()
        if not isinstance(item, (list, tuple)):
            return f"coordinates must be nested lists ({depth} deep for a {geometry.get('type')})"
        if level < depth:
            stack.extend((child, level + 1) for child in item)
            continue
        if len(item) not in (2, 3):
            return f"a position must be 2 or 3 numbers, not {str(item)[:40]}"
        for v in item:
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not \
                    -MAX_COORDINATE <= v <= MAX_COORDINATE:
                return (f"coordinate {str(v)[:30]} is not a number within "
                        f"±{MAX_COORDINATE:g}")
    return None


@dataclass(frozen=True)
class Region:
    """One region of a map: a land province or a sea.

    ``name`` is the display name, unique within its map; ``kind`` is
    ``"land"`` or ``"sea"`` (a capital is a land region whose
    ``props["capital"]`` is true); ``geometry`` is a shapely ``Polygon`` or
    ``MultiPolygon`` in planar coordinates with y growing northwards;
    ``props`` holds the remaining GeoJSON properties, read-only.
    """

    name: str
    kind: str
    geometry: Polygon | MultiPolygon
    props: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def is_land(self) -> bool:
        """Whether this region is a land province."""
        return self.kind == "land"

    @property
    def is_sea(self) -> bool:
        """Whether this region is a sea."""
        return self.kind == "sea"

    @property
    def is_capital(self) -> bool:
        """Whether this region is marked as a capital (``"capital": true``)."""
        return bool(self.props.get("capital", False))


class PolygonBoard:
    """A polygon board: named land and sea regions and their adjacency.

    Build one with :meth:`from_geojson` or :meth:`from_dict`.  A board is meant to be immutable
    once loaded: derived data (adjacency, label positions, GeoJSON features) is computed once and
    cached on the instance.  Places are region names; a region's
    :meth:`place_kind` is ``"land"`` or ``"sea"``.

    Attributes:
        name: the map's name (the FeatureCollection's ``"name"`` member, or
            the file name without extension).
        regions: the regions by name, in file order.  Do not modify.
        adjacency: each region's neighbours by name.  Derived from shared
            borders (positive length; a single-point touch does not count),
            land-land, land-sea and sea-sea, unless a feature's explicit
            ``"adjacent"`` property overrides it.
        source: the file (or label) the map was read from, used in messages.
    """

    def __init__(
        self,
        name: str,
        regions: Iterable[Region],
        *,
        source: str = "<memory>",
        explicit_adjacency: Mapping[str, Iterable[str]] | None = None,
    ) -> None:
        """Build a map from regions, deriving adjacency from their shapes.

        ``explicit_adjacency`` maps region names to neighbour lists that
        replace the derived ones.  Raises :class:`MapError` for an empty map,
        duplicate names or adjacency to unknown regions.
        """
        self.name: str = name
        self.source: str = source
        self.regions: dict[str, Region] = {}
        for region in regions:
            if region.name in self.regions:
                raise MapError(f"{source}: duplicate region name {region.name!r}")
            self.regions[region.name] = region
        if not self.regions:
            raise MapError(f"{source}: the map has no regions")
        self._names: list[str] = list(self.regions)
        self._geoms = np.array([r.geometry for r in self.regions.values()], dtype=object)
        minx, miny, maxx, maxy = shapely.total_bounds(self._geoms)
        self.bounds: tuple[float, float, float, float] = (
            float(minx),
            float(miny),
            float(maxx),
            float(maxy),
        )
        self._diag = math.hypot(maxx - minx, maxy - miny) or 1.0
        self._tree = shapely.STRtree(self._geoms)
        self._borders: dict[frozenset[str], float] = self._derive_borders()
        derived: dict[str, set[str]] = {n: set() for n in self._names}
        for pair in self._borders:
            a, b = tuple(pair)
            derived[a].add(b)
            derived[b].add(a)
        for rname, others in (explicit_adjacency or {}).items():
            if rname not in self.regions:
                raise MapError(f"{source}: adjacency given for unknown region {rname!r}")
            others = list(others)
            for other in others:
                if other not in self.regions:
                    raise MapError(
                        f"{source}: region {rname!r}: 'adjacent' names unknown region {other!r}"
                    )
                if other == rname:
                    raise MapError(f"{source}: region {rname!r}: 'adjacent' names itself")
            derived[rname] = set(others)
        self.adjacency: dict[str, frozenset[str]] = {
            n: frozenset(derived[n]) for n in self._names
        }
        self._label_points: dict[str, tuple[float, float]] | None = None
        self._features: list[dict[str, Any]] | None = None
        self._name_index: NameIndex | None = None

    # ------------------------------------------------------------------ loading

    @classmethod
    def from_geojson(cls, path: str | Path) -> Self:
        """Load a map from a GeoJSON FeatureCollection file.

        Each feature needs the properties ``name`` and ``kind`` and a valid
        Polygon or MultiPolygon geometry; names must be unique.  Any problem
        (unreadable file, invalid JSON, bad feature) raises :class:`MapError`
        naming the file and the feature.
        """
        from gmkit.core.boards import BoardError, read_board_file

        source = str(path)
        try:
            text = read_board_file(path).decode("utf-8")
        except BoardError as exc:
            raise MapError(str(exc)) from None
        except UnicodeDecodeError as exc:
            raise MapError(f"{source}: cannot read map file: {exc}") from exc
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise MapError(
                f"{source}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
            ) from exc
        except RecursionError:
            raise MapError(f"{source}: nested too deeply to be a map") from None
        except ValueError as exc:  # a number of more digits than Python reads
            raise MapError(f"{source}: invalid JSON: {exc}") from None
        if isinstance(data, dict) and "name" not in data:
            data = {**data, "name": Path(path).stem}
        return cls.from_dict(data, source=source)

    @classmethod
    def from_dict(cls, data: dict, source: str = "<memory>") -> Self:
        """Build a map from an already parsed GeoJSON FeatureCollection.

        ``source`` names the data in error messages.  Raises
        :class:`MapError` as :meth:`from_geojson` does.
        """
        if not isinstance(data, Mapping):
            raise MapError(f"{source}: expected a GeoJSON FeatureCollection object")
        if data.get("type") != "FeatureCollection":
            raise MapError(
                f"{source}: expected a GeoJSON FeatureCollection, got type {data.get('type')!r}"
            )
        features = data.get("features")
        if not isinstance(features, list):
            raise MapError(f"{source}: the FeatureCollection has no 'features' list")
        if len(features) > MAX_PLACES:  # refused before any polygon is built
            raise MapError(f"{source}: {too_many_places(len(features))}")
        name = data.get("name", "map")
        if not isinstance(name, str) or not name:
            raise MapError(f"{source}: the map's 'name' must be a non-empty string")

        regions: list[Region] = []
        explicit: dict[str, list[str]] = {}
        seen: dict[str, int] = {}
        problems: list[str] = []  # every feature's problem, each named, the file once
        for index, feature in enumerate(features):
            try:
                region, adjacent = cls._parse_feature(feature, index, source)
            except MapError as exc:
                problems.append(str(exc).removeprefix(f"{source}: "))
                continue
            if region.name in seen:
                problems.append(f"feature {index} ({region.name!r}): duplicate name, "
                                f"already used by feature {seen[region.name]}")
                continue
            seen[region.name] = index
            regions.append(region)
            if adjacent is not None:
                explicit[region.name] = adjacent
        if len(problems) == 1:
            raise MapError(f"{source}: {problems[0]}")
        if problems:
            raise MapError(f"{source}: {len(problems)} problems:\n"
                           + "\n".join(f"  {p}" for p in problems))
        if not regions:
            raise MapError(f"{source}: the FeatureCollection has no features")
        return cls(name, regions, source=source, explicit_adjacency=explicit)

    @staticmethod
    def _parse_feature(
        feature: Any, index: int, source: str
    ) -> tuple[Region, list[str] | None]:
        """Turn GeoJSON feature number ``index`` into a region (and its override)."""
        where = f"{source}: feature {index}"
        if not isinstance(feature, Mapping) or feature.get("type") != "Feature":
            raise MapError(f"{where}: not a GeoJSON Feature")
        props = feature.get("properties")
        if not isinstance(props, Mapping):
            raise MapError(f"{where}: missing 'properties'")
        name = props.get("name")
        if not isinstance(name, str) or not name.strip():
            raise MapError(f"{where}: missing or empty property 'name'")
        if name != name.strip():
            raise MapError(f"{where} ({name!r}): name has leading or trailing spaces")
        where = f"{source}: feature {index} ({name!r})"
        kind = props.get("kind")
        if kind not in KINDS:
            raise MapError(f"{where}: property 'kind' must be 'land' or 'sea', got {kind!r}")
        geometry = feature.get("geometry")
        if not isinstance(geometry, Mapping):
            raise MapError(f"{where}: missing geometry")
        if geometry.get("type") not in ("Polygon", "MultiPolygon"):
            raise MapError(
                f"{where}: geometry must be a Polygon or MultiPolygon, "
                f"got {geometry.get('type')!r}"
            )
        bad = _coordinate_problem(geometry)
        if bad:
            raise MapError(f"{where}: {bad}")
        try:
            geom = shape(geometry)
        except Exception as exc:  # shapely raises a variety of errors
            raise MapError(f"{where}: unreadable geometry: {exc}") from exc
        if not geom.is_valid:
            raise MapError(f"{where}: invalid geometry: {shapely.is_valid_reason(geom)}")
        if geom.is_empty or geom.area <= 0:
            raise MapError(f"{where}: empty geometry")
        adjacent = props.get("adjacent")
        if adjacent is not None:
            if not isinstance(adjacent, list) or not all(isinstance(a, str) for a in adjacent):
                raise MapError(f"{where}: property 'adjacent' must be a list of region names")
            adjacent = list(adjacent)
        rest = {k: v for k, v in props.items() if k not in ("name", "kind")}
        region = Region(name=name, kind=kind, geometry=geom, props=MappingProxyType(rest))
        return region, adjacent

    def _derive_borders(self) -> dict[frozenset[str], float]:
        """Find every pair of regions sharing a border, with its length."""
        snap = self._diag * _SNAP_REL
        min_border = self._diag * _MIN_BORDER_REL
        left, right = self._tree.query(self._geoms, predicate="dwithin", distance=snap)
        keep = left < right
        left, right = left[keep], right[keep]
        if len(left) == 0:
            return {}
        boundaries = shapely.boundary(self._geoms)
        # Exact shared lines when the borders match vertex for vertex; for
        # borders that only match up to rounding noise, the length of one
        # boundary lying within ``snap`` of the other.
        exact = shapely.length(shapely.intersection(boundaries[left], boundaries[right]))
        lengths = exact
        loose = exact <= min_border
        if loose.any():
            near = shapely.buffer(boundaries[right[loose]], snap, quad_segs=2)
            lengths = exact.copy()
            lengths[loose] = shapely.length(shapely.intersection(boundaries[left[loose]], near))
        return {
            frozenset((self._names[i], self._names[j])): float(length)
            for i, j, length in zip(left.tolist(), right.tolist(), lengths.tolist())
            if length > min_border
        }

    # ------------------------------------------------------------------ basics

    def __contains__(self, name: object) -> bool:
        return name in self.regions

    def __len__(self) -> int:
        return len(self.regions)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({self.name!r}: {len(self.land())} land, "
            f"{len(self.seas())} sea regions)"
        )

    # ------------------------------------------------------- the Board protocol

    @property
    def kind(self) -> Literal["polygon"]:
        """Always ``"polygon"``."""
        return "polygon"

    @property
    def names(self) -> NameIndex:
        """The index of region names (and of the names a region's ``"aliases"`` property lists),
        for order parsing."""
        if self._name_index is None:
            aliases: dict[str, str] = {}
            for name, region in self.regions.items():
                extra = region.props.get("aliases")
                if isinstance(extra, list):
                    aliases.update((a, name) for a in extra if isinstance(a, str))
            self._name_index = NameIndex(self._names, kind="region", aliases=aliases)
        return self._name_index

    def contains(self, place: object) -> bool:
        """Whether ``place`` is the name of a region of the board."""
        return isinstance(place, str) and place in self.regions

    def place_kind(self, place: str) -> str:
        """The region's kind: ``"land"`` or ``"sea"``.

        Raises ``KeyError`` for an unknown region.
        """
        return self._region(place).kind

    def parse_place(self, text: str) -> str:
        """The region a player means by ``text`` (its name, an alias or an unambiguous prefix).

        Raises:
            UnknownNameError, AmbiguousOrderError: both ``ValueError``, naming ``text``.
        """
        return self.names.resolve(text)

    def place_text(self, place: str) -> str:
        """The region's name, as a player types it."""
        return self._region(place).name

    # ------------------------------------------------------------------ queries

    def _region(self, name: str) -> Region:
        try:
            return self.regions[name]
        except KeyError:
            raise KeyError(f"map {self.name!r} has no region named {name!r}") from None

    def land(self) -> list[str]:
        """Names of the land regions, in file order."""
        return [n for n, r in self.regions.items() if r.kind == "land"]

    def seas(self) -> list[str]:
        """Names of the sea regions, in file order."""
        return [n for n, r in self.regions.items() if r.kind == "sea"]

    def capitals(self) -> list[str]:
        """Names of the regions marked ``"capital": true``, in file order."""
        return [n for n, r in self.regions.items() if r.is_capital]

    def neighbours(self, name: str) -> frozenset[str]:
        """All regions adjacent to ``name`` (land and sea).

        Raises ``KeyError`` for an unknown region.
        """
        self._region(name)
        return self.adjacency[name]

    def land_neighbours(self, name: str) -> frozenset[str]:
        """The land regions adjacent to ``name``."""
        return frozenset(n for n in self.neighbours(name) if self.regions[n].kind == "land")

    def seas_of(self, name: str) -> frozenset[str]:
        """The seas adjacent to ``name`` (for a land region: the seas it touches)."""
        return frozenset(n for n in self.neighbours(name) if self.regions[n].kind == "sea")

    def is_coastal(self, name: str) -> bool:
        """Whether land region ``name`` touches at least one sea."""
        return bool(self.seas_of(name))

    def border_length(self, a: str, b: str) -> float:
        """Length of the border shared by ``a`` and ``b`` (0.0 if none).

        Borders shorter than the map's touch tolerance count as 0.0.
        """
        self._region(a)
        self._region(b)
        return self._borders.get(frozenset((a, b)), 0.0)

    # --------------------------------------------------------------- validation

    def reachable(self, start: str, *, land_only: bool = False) -> set[str]:
        """Every region reachable from ``start`` over borders (over land borders only with
        ``land_only``), ``start`` included."""
        step = self.land_neighbours if land_only else self.neighbours
        reached = {start}
        queue = deque([start])
        while queue:
            for nxt in step(queue.popleft()):
                if nxt not in reached:
                    reached.add(nxt)
                    queue.append(nxt)
        return reached

    def validate(
        self,
        *,
        land_count: int | None = None,
        sea_names: Iterable[str] | None = None,
    ) -> list[str]:
        """Check the map and return its problems in words (empty if none).

        Checks that adjacency is symmetric (it always is when derived; an
        explicit ``"adjacent"`` property can break it), that every land region
        has a neighbour, that all land can be reached from any land region
        over land and sea, that regions do not overlap, and optionally that
        there are ``land_count`` land regions and exactly the seas
        ``sea_names``.
        """
        problems: list[str] = []
        where = f"{self.source}"
        for a in self._names:
            for b in sorted(self.adjacency[a]):
                if a not in self.adjacency[b]:
                    problems.append(
                        f"{where}: asymmetric adjacency: {a!r} lists {b!r} "
                        f"but {b!r} does not list {a!r}"
                    )
        land = self.land()
        for name in land:
            if not self.adjacency[name]:
                problems.append(f"{where}: land region {name!r} has no neighbour")
        if land:
            reached = self.reachable(land[0])
            cut_off = [n for n in land if n not in reached]
            if cut_off:
                problems.append(
                    f"{where}: land not all connected: cannot reach "
                    f"{', '.join(map(repr, cut_off))} from {land[0]!r}"
                )
        if land_count is not None and len(land) != land_count:
            problems.append(f"{where}: expected {land_count} land regions, found {len(land)}")
        if sea_names is not None:
            expected = list(sea_names)
            found = self.seas()
            missing = [s for s in expected if s not in found]
            extra = [s for s in found if s not in expected]
            if missing:
                problems.append(f"{where}: missing seas: {', '.join(map(repr, missing))}")
            if extra:
                problems.append(f"{where}: unexpected seas: {', '.join(map(repr, extra))}")
        minx, miny, maxx, maxy = self.bounds
        tolerance = max((maxx - minx) * (maxy - miny), 1e-12) * _OVERLAP_REL
        left, right = self._tree.query(self._geoms, predicate="intersects")
        keep = left < right
        left, right = left[keep], right[keep]
        if len(left):
            areas = shapely.area(shapely.intersection(self._geoms[left], self._geoms[right]))
            for i, j, area in zip(left.tolist(), right.tolist(), areas.tolist()):
                if area > tolerance:
                    problems.append(
                        f"{where}: regions {self._names[i]!r} and {self._names[j]!r} "
                        f"overlap (area {area:.6g})"
                    )
        return problems

    # ------------------------------------------------------------------ places

    def label_points(self) -> dict[str, tuple[float, float]]:
        """A good point inside each region for its label, in map coordinates.

        Uses the pole of inaccessibility of the region's largest part.
        """
        if self._label_points is None:
            tolerance = self._diag * 1e-3
            points: dict[str, tuple[float, float]] = {}
            for name, region in self.regions.items():
                geom = region.geometry
                if isinstance(geom, MultiPolygon):
                    geom = max(geom.geoms, key=lambda g: g.area)
                try:
                    point = polylabel(geom, tolerance=tolerance)
                except Exception:  # pragma: no cover - fall back on odd shapes
                    point = geom.representative_point()
                points[name] = (point.x, point.y)
            self._label_points = points
        return self._label_points

    def features(self) -> list[dict[str, Any]]:
        """The regions as GeoJSON Feature dicts (``name`` and ``kind`` only; cached).

        Coordinates are rounded to a millionth of the map's diagonal.
        """
        if self._features is None:
            digits = max(0, 6 - int(math.floor(math.log10(self._diag))))
            feats = []
            for name, region in self.regions.items():
                geom = shapely.set_precision(region.geometry, 10.0**-digits)
                feats.append(
                    {
                        "type": "Feature",
                        "geometry": mapping(geom),
                        "properties": {"name": name, "kind": region.kind},
                    }
                )
            self._features = feats
        return self._features


def polygon_board(board: object) -> PolygonBoard | None:
    """``board`` as the polygon board a polygon ruleset's set-up needs (None stays None).

    Raises:
        MapError: when ``board`` is a board of another kind.
    """
    if board is None or isinstance(board, PolygonBoard):
        return board
    raise MapError(f"this ruleset plays on a polygon map (GeoJSON), not on a "
                   f"{getattr(board, 'kind', type(board).__name__)} board")
