"""Province maps kept as GeoJSON data.

A game map is a GeoJSON ``FeatureCollection`` whose features are the regions
of the board: land provinces and sea regions, in planar coordinates with the
y axis growing northwards (up).  Each feature needs the properties ``name``
(unique display name) and ``kind`` (``"land"`` or ``"sea"``); every other
property is kept as-is in :attr:`Region.props` (for instance
``"capital": true`` or a ruleset's ``"output"``).

Which regions are neighbours is not written in the file: it is derived from
the geometry.  Two regions are adjacent when they share a border of positive
length; regions that only touch at a corner are not adjacent.  A feature may
still carry an explicit ``"adjacent"`` property (a list of region names) that
replaces the derived neighbours of that region, for straits, canals or
deliberate exceptions; :meth:`GameMap.validate` then reports any asymmetry.

:class:`GameMap` loads and checks such a file, answers adjacency questions,
and draws the map either as a static, self-contained SVG string (for forum
posts and reports) or as an Altair chart (for notebooks).  The module knows
nothing about any particular game: rulesets build on it.

On top of the regions an SVG may carry marks: :class:`Stack` (a stack of
army tokens in a region) and :class:`Arrow` (an order: an attack, a move, a
support or a cut support, coloured by its outcome once known).
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape, quoteattr

import numpy as np
import shapely
from shapely.geometry import MultiPolygon, Polygon, mapping, shape
from shapely.ops import polylabel

if TYPE_CHECKING:  # pragma: no cover - only for type checkers
    import altair

__all__ = [
    "ARROW_KINDS",
    "DEFAULT_LAND_FILL",
    "DEFAULT_SEA_FILL",
    "KINDS",
    "Arrow",
    "GameMap",
    "MapError",
    "Region",
    "Stack",
    "check_colour",
]

#: The region kinds a map may contain.
KINDS: tuple[str, ...] = ("land", "sea")

#: Fill used for land regions that are given no colour.
DEFAULT_LAND_FILL = "#e8e0c8"
#: Fill used for sea regions that are given no colour.
DEFAULT_SEA_FILL = "#a9c9e6"

# Two boundaries closer than this (relative to the map's diagonal) count as
# the same line when measuring shared borders; it absorbs floating-point noise.
_SNAP_REL = 1e-6
# A shared border shorter than this (relative to the map's diagonal) is a
# touch, not a border: at any sensible drawing size it is under a pixel long.
_MIN_BORDER_REL = 2e-4
# Overlaps with an area above this fraction of the map's area are reported.
_OVERLAP_REL = 1e-6

_HEX_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")
_NAMED_COLOUR = re.compile(r"[A-Za-z]{1,40}")
# Characters that XML 1.0 does not allow at all, even escaped.
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")

_STROKE = "#4a4a4a"
_HIGHLIGHT_STROKE = "#000000"

#: The kinds of :class:`Arrow`: ``"attack"`` (solid, thick), ``"move"``
#: (dashed), ``"support"`` (thin, dotted) and ``"cut"`` (thin, with a cross bar).
ARROW_KINDS: tuple[str, ...] = ("attack", "move", "support", "cut")

_TOKEN_STROKE = "#1a1a1a"
_FAILED_MARK = "#1a1a1a"
_FAILED_OPACITY = "0.55"


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
    :meth:`GameMap.from_dict`), the feature or region concerned and what is
    wrong with it.
    """


def check_colour(colour: str) -> str:
    """Return ``colour`` if it is a safe CSS colour, else raise ``ValueError``.

    Only ``#rgb``, ``#rgba``, ``#rrggbb`` and ``#rrggbbaa`` hex colours and
    plain named colours made of letters (``"red"``, ``"steelblue"``) are
    accepted, so that a colour can never smuggle markup or CSS into an SVG.
    """
    if not isinstance(colour, str) or not (
        _HEX_COLOUR.fullmatch(colour) or _NAMED_COLOUR.fullmatch(colour)
    ):
        raise ValueError(
            f"unsafe or invalid colour {colour!r}: use #hex or a named colour"
        )
    return colour


def _xml_text(value: object) -> str:
    """Escape ``value`` for use as XML character data."""
    return escape(_XML_INVALID.sub("", str(value)))


def _xml_attr(value: object) -> str:
    """Quote and escape ``value`` for use as an XML attribute value."""
    entities = {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}
    return quoteattr(_XML_INVALID.sub("", str(value)), entities)


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


@dataclass(frozen=True)
class Stack:
    """A stack of armies in a region, drawn as tokens by :meth:`GameMap.to_svg`.

    The tokens sit just below the region's label (at the label point when the
    region has no label): one to three tokens side by side, or a single token
    showing the number for more.  ``colour`` is a ``#hex`` or named colour;
    ``title`` is the tooltip.
    """

    region: str
    count: int
    colour: str
    title: str = ""


@dataclass(frozen=True)
class Arrow:
    """An order drawn as an arrow by :meth:`GameMap.to_svg`.

    Attributes:
        src: the region the order comes from.
        dst: the region it points at (for a move: the last region of its path).
        colour: a ``#hex`` or named colour (usually the player's).
        kind: one of :data:`ARROW_KINDS`.
        via: the regions a move passes before ``dst``, drawn as a polyline.
        onto: for a support of an attack or a move, that order's
            ``(src, dst)``: the arrow ends on the middle of that order's
            arrow (or of the straight line between the two regions when no
            such arrow is drawn) instead of at ``dst``.
        ok: the outcome: ``None`` while unknown, ``True`` for success,
            ``False`` for failure (drawn faded, crossed out).
        title: the tooltip.
    """

    src: str
    dst: str
    colour: str
    kind: str = "move"
    via: tuple[str, ...] = ()
    onto: tuple[str, str] | None = None
    ok: bool | None = None
    title: str = ""


_Point = tuple[float, float]


def _pt(point: _Point) -> str:
    """An SVG ``points`` entry."""
    return f"{point[0]:.1f},{point[1]:.1f}"


def _polyline_length(points: Sequence[_Point]) -> float:
    """The length of a polyline."""
    return sum(math.dist(a, b) for a, b in itertools.pairwise(points))


def _along(points: Sequence[_Point], distance: float) -> tuple[_Point, _Point]:
    """The point ``distance`` along a polyline and the unit direction there."""
    last = (1.0, 0.0)
    for a, b in itertools.pairwise(points):
        seg = math.dist(a, b)
        if seg <= 1e-9:
            continue
        last = ((b[0] - a[0]) / seg, (b[1] - a[1]) / seg)
        if distance <= seg:
            return (a[0] + last[0] * distance, a[1] + last[1] * distance), last
        distance -= seg
    return points[-1], last


def _trim(points: Sequence[_Point], start: float, end: float) -> list[_Point]:
    """The polyline without its first ``start`` and last ``end`` pixels.

    Both cuts shrink in proportion when the line is too short for them, so
    that at least half of it is left.
    """
    length = _polyline_length(points)
    if length <= 1e-9:
        return list(points[:1])
    if start + end > length / 2:
        shrink = length / 2 / (start + end)
        start, end = start * shrink, end * shrink
    head, _ = _along(points, start)
    tail, _ = _along(points, length - end)
    kept: list[_Point] = [head]
    walked = 0.0
    for a, b in itertools.pairwise(points):
        walked += math.dist(a, b)
        if start < walked < length - end:
            kept.append(b)
    kept.append(tail)
    return kept


def _arrow_style(kind: str, unit: float) -> tuple[float, str]:
    """Stroke width and extra SVG attributes of an arrow's shaft, by kind."""
    if kind == "attack":
        return 3 * unit, ""
    if kind == "move":
        return 2 * unit, f' stroke-dasharray="{6 * unit:.1f} {4 * unit:.1f}"'
    if kind == "support":
        return 1.3 * unit, f' stroke-dasharray="{2 * unit:.1f} {2.5 * unit:.1f}"'
    return 1.3 * unit, ""


def _arrow_svg(arrow: Arrow, points: Sequence[_Point], font: int) -> str:
    """One arrow as an SVG group: casing, shaft, head, and the marks of its kind and outcome."""
    unit = max(1.0, font / 10)
    width, dash = _arrow_style(arrow.kind, unit)
    ok = "none" if arrow.ok is None else str(arrow.ok).lower()
    faded = f' opacity="{_FAILED_OPACITY}"' if arrow.ok is False else ""
    opening = (
        f"<g data-kind={_xml_attr(arrow.kind)} data-src={_xml_attr(arrow.src)} "
        f"data-dst={_xml_attr(arrow.dst)} data-ok=\"{ok}\">"
    )
    parts = [opening]
    if arrow.title:
        parts.append(f"<title>{_xml_text(arrow.title)}</title>")
    colour = arrow.colour
    length = _polyline_length(points)
    if length < 1.0:  # nothing to point along: a ring on the spot
        x, y = points[0]
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{font * 0.4:.1f}" fill="none" '
            f'stroke="{colour}" stroke-width="{width:.1f}"{faded}/>'
        )
        parts.append("</g>")
        return "".join(parts)
    head_len = min(2.2 * width + font * 0.5, length * 0.6)
    half = head_len * 0.5
    tip, (dx, dy) = _along(points, length)
    shaft = _trim(points, 0.0, head_len * 0.8)
    base = (tip[0] - dx * head_len, tip[1] - dy * head_len)
    head = (tip, (base[0] - dy * half, base[1] + dx * half),
            (base[0] + dy * half, base[1] - dx * half))
    line = " ".join(_pt(p) for p in shaft)
    parts.append(f"<g{faded}>")
    parts.append(
        f'<polyline points="{line}" fill="none" stroke="#ffffff" stroke-opacity="0.6" '
        f'stroke-width="{width + 2 * unit:.1f}" stroke-linejoin="round"/>'
    )
    parts.append(
        f'<polyline points="{line}" fill="none" stroke="{colour}" '
        f'stroke-width="{width:.1f}" stroke-linejoin="round"{dash}/>'
    )
    parts.append(
        f'<polygon points="{" ".join(_pt(p) for p in head)}" fill="{colour}" '
        f'stroke="#ffffff" stroke-opacity="0.6" stroke-width="{unit:.1f}" '
        f'paint-order="stroke"/>'
    )
    if arrow.kind == "cut":
        bar, (bx, by) = _along(points, max(0.0, length - head_len * 1.6))
        reach = half * 1.3
        parts.append(
            f'<line x1="{bar[0] - by * reach:.1f}" y1="{bar[1] + bx * reach:.1f}" '
            f'x2="{bar[0] + by * reach:.1f}" y2="{bar[1] - bx * reach:.1f}" '
            f'stroke="{colour}" stroke-width="{2 * width:.1f}" data-mark="cut"/>'
        )
    parts.append("</g>")
    if arrow.ok is False:
        (mx, my), _ = _along(points, length / 2)
        r = font * 0.4
        cross = (f"M{mx - r:.1f} {my - r:.1f}L{mx + r:.1f} {my + r:.1f}"
                 f"M{mx - r:.1f} {my + r:.1f}L{mx + r:.1f} {my - r:.1f}")
        parts.append(
            f'<path d="{cross}" fill="none" stroke="#ffffff" stroke-width="{3.5 * unit:.1f}" '
            f'stroke-linecap="round" data-mark="failed"/>'
            f'<path d="{cross}" fill="none" stroke="{_FAILED_MARK}" '
            f'stroke-width="{1.6 * unit:.1f}" stroke-linecap="round"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def _token_size(font: int) -> tuple[float, float]:
    """The side of one army token and the gap between tokens, in pixels."""
    size = font * 0.8
    return size, max(1.0, size * 0.15)


def _stack_width(count: int, font: int) -> float:
    """The width of a stack's tokens: up to three side by side, one wide token for more."""
    size, gap = _token_size(font)
    return count * size + (count - 1) * gap if count <= 3 else size * 2


def _exit(origin: _Point, direction: _Point, box: tuple[float, float, float, float]) -> float:
    """How far a ray from ``origin`` (inside ``box``: x0, y0, x1, y1) goes along the unit
    ``direction`` before it leaves the box."""
    reach: list[float] = []
    for axis, (low, high) in enumerate(((box[0], box[2]), (box[1], box[3]))):
        step = direction[axis]
        if step > 1e-9:
            reach.append((high - origin[axis]) / step)
        elif step < -1e-9:
            reach.append((low - origin[axis]) / step)
    return max(0.0, min(reach, default=0.0))


def _stack_svg(stack: Stack, x: float, top: float, font: int) -> str:
    """One stack as an SVG group of tokens whose top edge is at ``top``, centred on ``x``."""
    size, gap = _token_size(font)
    opening = f"<g data-region={_xml_attr(stack.region)} data-count=\"{stack.count}\">"
    parts = [opening]
    if stack.title:
        parts.append(f"<title>{_xml_text(stack.title)}</title>")
    token = (f'height="{size:.1f}" rx="{size * 0.2:.1f}" fill="{stack.colour}" '
             f'stroke="{_TOKEN_STROKE}" stroke-width="0.8"')
    total = _stack_width(stack.count, font)
    if stack.count <= 3:
        for k in range(stack.count):
            left = x - total / 2 + k * (size + gap)
            parts.append(
                f'<rect x="{left:.1f}" y="{top:.1f}" width="{size:.1f}" {token}/>'
            )
    else:
        parts.append(f'<rect x="{x - total / 2:.1f}" y="{top:.1f}" width="{total:.1f}" {token}/>')
        parts.append(
            f'<text x="{x:.1f}" y="{top + size * 0.84:.1f}" text-anchor="middle" '
            f'font-size="{size:.1f}" font-weight="bold" fill="#ffffff" '
            f'stroke="{_TOKEN_STROKE}" stroke-width="{max(1.5, size / 5):.1f}" '
            f'paint-order="stroke">{stack.count}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def _fmt(value: float) -> str:
    """Format a pixel coordinate compactly (one decimal, no trailing zero)."""
    text = f"{value:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


class GameMap:
    """A game board: named land and sea regions and their adjacency.

    Build one with :meth:`from_geojson` or :meth:`from_dict`.  A map is meant
    to be immutable once loaded: derived data (adjacency, label positions,
    SVG paths) is computed once and cached on the instance.

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
        self._svg_cache: dict[int, tuple[float, list[str], dict[str, tuple[float, float]]]] = {}
        self._label_points: dict[str, tuple[float, float]] | None = None
        self._features: list[dict[str, Any]] | None = None
        self._default_svg: str | None = None

    # ------------------------------------------------------------------ loading

    @classmethod
    def from_geojson(cls, path: str | Path) -> GameMap:
        """Load a map from a GeoJSON FeatureCollection file.

        Each feature needs the properties ``name`` and ``kind`` and a valid
        Polygon or MultiPolygon geometry; names must be unique.  Any problem
        (unreadable file, invalid JSON, bad feature) raises :class:`MapError`
        naming the file and the feature.
        """
        source = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise MapError(f"{source}: cannot read map file: {exc}") from exc
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise MapError(
                f"{source}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
            ) from exc
        if isinstance(data, dict) and "name" not in data:
            data = {**data, "name": Path(path).stem}
        return cls.from_dict(data, source=source)

    @classmethod
    def from_dict(cls, data: dict, source: str = "<memory>") -> GameMap:
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
        name = data.get("name", "map")
        if not isinstance(name, str) or not name:
            raise MapError(f"{source}: the map's 'name' must be a non-empty string")

        regions: list[Region] = []
        explicit: dict[str, list[str]] = {}
        seen: dict[str, int] = {}
        for index, feature in enumerate(features):
            region, adjacent = cls._parse_feature(feature, index, source)
            if region.name in seen:
                raise MapError(
                    f"{source}: feature {index} ({region.name!r}): duplicate name, "
                    f"already used by feature {seen[region.name]}"
                )
            seen[region.name] = index
            regions.append(region)
            if adjacent is not None:
                explicit[region.name] = adjacent
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

    # ------------------------------------------------------------------ queries

    def __contains__(self, name: object) -> bool:
        return name in self.regions

    def __len__(self) -> int:
        return len(self.regions)

    def __repr__(self) -> str:
        return (
            f"GameMap({self.name!r}: {len(self.land())} land, "
            f"{len(self.seas())} sea regions)"
        )

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

    # ------------------------------------------------------------------ drawing

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

    def _layout(self, width: int) -> tuple[float, list[str], dict[str, tuple[float, float]]]:
        """Pixel height, SVG path data and label positions for ``width`` (cached)."""
        cached = self._svg_cache.get(width)
        if cached is not None:
            return cached
        margin = 4.0
        minx, miny, maxx, maxy = self.bounds
        scale = (width - 2 * margin) / max(maxx - minx, 1e-12)
        height = max(maxy - miny, 1e-12) * scale + 2 * margin
        paths = [self._svg_path(region.geometry, width) for region in self.regions.values()]
        labels = {
            name: ((x - minx) * scale + margin, (maxy - y) * scale + margin)
            for name, (x, y) in self.label_points().items()
        }
        result = (height, paths, labels)
        self._svg_cache[width] = result
        return result

    def _svg_path(self, geom: Polygon | MultiPolygon, width: int) -> str:
        """SVG path data of ``geom``'s rings in the pixels of a drawing ``width`` wide (north up,
        a 4 px margin), one decimal."""
        margin = 4.0
        minx, _, maxx, maxy = self.bounds
        scale = (width - 2 * margin) / max(maxx - minx, 1e-12)
        parts: list[str] = []
        for polygon in getattr(geom, "geoms", (geom,)):
            if not isinstance(polygon, Polygon):
                continue
            for ring in (polygon.exterior, *polygon.interiors):
                xy = shapely.get_coordinates(ring)
                px = np.empty_like(xy)
                px[:, 0] = (xy[:, 0] - minx) * scale + margin
                px[:, 1] = (maxy - xy[:, 1]) * scale + margin
                coords = [f"{_fmt(x)} {_fmt(y)}" for x, y in np.round(px, 1)[:-1].tolist()]
                parts.append("M" + " ".join(coords[:1]) + "L" + " ".join(coords[1:]) + "Z")
        return "".join(parts)

    def _outline_path(self, group: Sequence[str], width: int) -> str:
        """SVG path data of the union of ``group``'s regions, in the pixels of ``width``."""
        return self._svg_path(shapely.union_all([self.regions[n].geometry for n in group]),
                              width)

    def to_svg(
        self,
        fills: Mapping[str, str] | None = None,
        *,
        labels: Mapping[str, str] | None = None,
        title: str | None = None,
        width: int = 900,
        highlight: Iterable[str] = (),
        legend: Sequence[tuple[str, str]] = (),
        stacks: Sequence[Stack] = (),
        arrows: Sequence[Arrow] = (),
        outlines: Sequence[Sequence[str]] = (),
    ) -> str:
        """Draw the map as a static, self-contained SVG document string.

        Args:
            fills: colour per region name; unnamed regions get the default
                land or sea colour.  Colours must be ``#hex`` or named colours.
            labels: label text per region name (default: the region's name);
                newlines make multi-line labels, an empty string no label.
            title: a heading drawn above the map.
            width: the drawing's width in pixels.
            highlight: regions drawn with a thicker outline.
            legend: ``(label, colour)`` swatches drawn in the bottom-left
                corner, below the map.
            stacks: army tokens (:class:`Stack`), each below its region's
                label, drawn last.
            arrows: orders (:class:`Arrow`), drawn over the regions and the
                labels, under the stacks; they stop short of the labels and
                tokens of the regions they join.
            outlines: groups of regions (an empire, a country) each outlined
                as one shape with a heavy line, over the regions' own borders.

        All text is XML-escaped.  Raises ``ValueError`` for an unsafe colour,
        an unknown region name, a bad stack or arrow, or a width that is not
        a positive integer.
        """
        if isinstance(width, bool) or not isinstance(width, int) or width < 50:
            raise ValueError(f"width must be an integer of at least 50, got {width!r}")
        fills = dict(fills or {})
        labels = dict(labels or {})
        highlighted = set(highlight)
        for what, names in (("fills", fills), ("labels", labels), ("highlight", highlighted)):
            unknown = [n for n in names if n not in self.regions]
            if unknown:
                raise ValueError(f"{what}: unknown region(s) {', '.join(map(repr, unknown))}")
        for colour in fills.values():
            check_colour(colour)
        legend = list(legend)
        for _, colour in legend:
            check_colour(colour)
        stacks, arrows = list(stacks), list(arrows)
        self._check_marks(stacks, arrows)
        groups = [tuple(g) for g in outlines]
        for group in groups:
            unknown = [n for n in group if n not in self.regions]
            if unknown or not group:
                raise ValueError(f"outlines: unknown region(s) {', '.join(map(repr, unknown))}"
                                 if unknown else "outlines: an empty group")

        map_height, paths, points = self._layout(width)
        font = max(8, round(width / 90))
        top = round(font * 2.6) if title else 0
        row = round(font * 1.8)
        legend_height = (len(legend) * row + row // 2) if legend else 0
        total_height = math.ceil(top + map_height + legend_height)

        out: list[str] = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
            f'height="{total_height}" viewBox="0 0 {width} {total_height}" '
            f'font-family="sans-serif" role="img"'
            + (f" aria-label={_xml_attr(title)}" if title else "")
            + ">"
        ]
        if title:
            out.append(f"<title>{_xml_text(title)}</title>")
        out.append(f'<rect width="{width}" height="{total_height}" fill="#ffffff"/>')
        if title:
            out.append(
                f'<text x="{width / 2:.1f}" y="{font * 1.8:.1f}" text-anchor="middle" '
                f'font-size="{round(font * 1.6)}" font-weight="bold" fill="#222222">'
                f"{_xml_text(title)}</text>"
            )
        out.append(
            f'<g transform="translate(0 {top})" stroke="{_STROKE}" stroke-width="0.8" '
            f'stroke-linejoin="round" fill-rule="evenodd">'
        )
        later: list[str] = []
        for name, region, d in zip(self._names, self.regions.values(), paths):
            fill = fills.get(name) or (
                DEFAULT_SEA_FILL if region.kind == "sea" else DEFAULT_LAND_FILL
            )
            extra = (
                f' stroke="{_HIGHLIGHT_STROKE}" stroke-width="3"' if name in highlighted else ""
            )
            element = (
                f'<path d="{d}" fill="{fill}"{extra} data-name={_xml_attr(name)}>'
                f"<title>{_xml_text(name)}</title></path>"
            )
            (later if name in highlighted else out).append(element)
        out.extend(later)
        for group in groups:
            out.append(f'<path d="{self._outline_path(group, width)}" fill="none" '
                       f'stroke="{_STROKE}" stroke-width="3.2" pointer-events="none"/>')
        out.append("</g>")

        out.append(
            f'<g transform="translate(0 {top})" font-size="{font}" text-anchor="middle" '
            f'fill="#1a1a1a" stroke="#ffffff" stroke-width="{max(1.5, font / 5):.1f}" '
            f'stroke-opacity="0.8" paint-order="stroke" pointer-events="none">'
        )
        line_height = font * 1.15
        for name, region in self.regions.items():
            text = labels.get(name, name)
            lines = str(text).split("\n")
            if not text or not any(line.strip() for line in lines):
                continue
            x, y = points[name]
            y0 = y - (len(lines) - 1) * line_height / 2 + font * 0.35
            style = ' font-style="italic" fill="#1f4e79"' if region.kind == "sea" else ""
            if len(lines) == 1:
                out.append(
                    f'<text x="{x:.1f}" y="{y0:.1f}"{style}>{_xml_text(lines[0])}</text>'
                )
            else:
                spans = "".join(
                    f'<tspan x="{x:.1f}" y="{y0 + k * line_height:.1f}">{_xml_text(line)}</tspan>'
                    for k, line in enumerate(lines)
                )
                out.append(f"<text{style}>{spans}</text>")
        out.append("</g>")
        if arrows or stacks:
            out.append(self._marks_svg(stacks, arrows, points, labels, font, top))

        if legend:
            base = top + map_height + row // 4
            out.append(f'<g font-size="{font}" fill="#1a1a1a">')
            for k, (label, colour) in enumerate(legend):
                y = base + k * row
                out.append(
                    f'<rect x="8" y="{y + (row - font * 1.2) / 2:.1f}" width="{font * 1.8:.1f}" '
                    f'height="{font * 1.2:.1f}" fill="{colour}" stroke="{_STROKE}" '
                    f'stroke-width="0.8"/>'
                    f'<text x="{14 + font * 1.8:.1f}" y="{y + row / 2 + font * 0.35:.1f}">'
                    f"{_xml_text(label)}</text>"
                )
            out.append("</g>")
        out.append("</svg>")
        return "".join(out)

    def _check_marks(self, stacks: Sequence[Stack], arrows: Sequence[Arrow]) -> None:
        """Raise ``ValueError`` for a stack or an arrow that cannot be drawn."""
        unknown: list[str] = []
        for stack in stacks:
            if not isinstance(stack, Stack):
                raise TypeError(f"stacks: not a Stack: {stack!r}")
            if stack.region not in self.regions:
                unknown.append(stack.region)
            count = stack.count
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise ValueError(
                    f"stacks: {stack.region!r}: count must be a positive integer, got {count!r}"
                )
            check_colour(stack.colour)
        if unknown:
            raise ValueError(f"stacks: unknown region(s) {', '.join(map(repr, unknown))}")
        for arrow in arrows:
            if not isinstance(arrow, Arrow):
                raise TypeError(f"arrows: not an Arrow: {arrow!r}")
            if arrow.kind not in ARROW_KINDS:
                raise ValueError(
                    f"arrows: kind must be one of {', '.join(ARROW_KINDS)}, got {arrow.kind!r}"
                )
            if arrow.ok not in (None, True, False):
                raise ValueError(f"arrows: ok must be None, True or False, got {arrow.ok!r}")
            if arrow.onto is not None and len(arrow.onto) != 2:
                raise ValueError(f"arrows: onto must be a (src, dst) pair, got {arrow.onto!r}")
            names = (arrow.src, arrow.dst, *arrow.via, *(arrow.onto or ()))
            unknown.extend(n for n in names if n not in self.regions)
            check_colour(arrow.colour)
        if unknown:
            unknown = list(dict.fromkeys(unknown))
            raise ValueError(f"arrows: unknown region(s) {', '.join(map(repr, unknown))}")

    def _marks_svg(
        self,
        stacks: Sequence[Stack],
        arrows: Sequence[Arrow],
        points: Mapping[str, _Point],
        labels: Mapping[str, str],
        font: int,
        top: int,
    ) -> str:
        """The arrows, then the stacks, as SVG groups in pixel coordinates.

        Stacks sit below their region's label.  Arrows join the regions'
        first stacks (or label points where there is no stack), starting and
        ending where they leave the block of the region's label and tokens,
        so that the labels stay readable and the tokens and arrowheads stay
        visible (where regions are too small for that, at least half of each
        arrow is still drawn).
        """
        size, _ = _token_size(font)
        line_height = font * 1.15
        margin = 1.5
        blocks: dict[str, list[float]] = {}  # x0, y0, x1, y1 of a region's label and tokens
        anchors: dict[str, _Point] = {}
        for name in {a for arrow in arrows for a in (arrow.src, arrow.dst, *arrow.via)}:
            x, y = points[name]
            text = labels.get(name, name)
            lines = str(text).split("\n")
            if text and any(line.strip() for line in lines):
                half_w = max(len(line) for line in lines) * font * 0.28 + margin
                spread = (len(lines) - 1) * line_height / 2
                blocks[name] = [x - half_w, y - spread - font * 0.45 - margin,
                                x + half_w, y + spread + font * 0.3 + margin]
        placed: list[tuple[Stack, float, float]] = []  # stack, centre x, top y
        rows: dict[str, int] = {}
        for stack in stacks:
            x, y = points[stack.region]
            text = labels.get(stack.region, stack.region)
            lines = str(text).split("\n")
            if text and any(line.strip() for line in lines):
                y_top = y + (len(lines) - 1) * line_height / 2 + font * 0.6
            else:
                y_top = y - size / 2
            row = rows.get(stack.region, 0)
            rows[stack.region] = row + 1
            y_top += row * (size + 2)
            placed.append((stack, x, y_top))
            half_w = _stack_width(stack.count, font) / 2 + margin
            box = [x - half_w, y_top - margin, x + half_w, y_top + size + margin]
            if row == 0:
                anchors[stack.region] = (x, y_top + size / 2)
            old = blocks.get(stack.region)
            if old is not None:
                box = [min(old[0], box[0]), min(old[1], box[1]),
                       max(old[2], box[2]), max(old[3], box[3])]
            blocks[stack.region] = box

        def anchor(name: str) -> _Point:
            return anchors.get(name) or points[name]

        def gap(name: str, direction: _Point, end: bool) -> float:
            box = blocks.get(name)
            if box is None:
                return font * (0.9 if end else 0.6)
            origin = anchor(name)
            if end:
                direction = (-direction[0], -direction[1])
            return _exit(origin, direction, (box[0], box[1], box[2], box[3]))

        def trimmed(path: Sequence[_Point], src: str, dst: str | None) -> list[_Point]:
            length = _polyline_length(path)
            if length <= 1e-9:
                return list(path[:1])
            _, first = _along(path, 0.0)
            _, last = _along(path, length)
            end = gap(dst, last, True) if dst is not None else font * 0.15
            return _trim(path, gap(src, first, False), end)

        out: list[str] = []
        if arrows:
            pairs = {(a.src, a.dst) for a in arrows if a.onto is None and not a.via}
            shift = font * 0.45
            drawn: dict[tuple[str, str], list[_Point]] = {}
            shafts: list[list[_Point]] = []
            for arrow in arrows:
                if arrow.onto is not None:
                    shafts.append([])
                    continue
                path = [anchor(n) for n in (arrow.src, *arrow.via, arrow.dst)]
                if not arrow.via and (arrow.dst, arrow.src) in pairs and arrow.src != arrow.dst:
                    # two arrows between the same regions, opposite ways: side by side
                    (x0, y0), (x1, y1) = path
                    norm = math.dist(path[0], path[1]) or 1.0
                    ox, oy = -(y1 - y0) / norm * shift, (x1 - x0) / norm * shift
                    path = [(x0 + ox, y0 + oy), (x1 + ox, y1 + oy)]
                shaft = trimmed(path, arrow.src, arrow.dst)
                shafts.append(shaft)
                drawn.setdefault((arrow.src, arrow.dst), shaft)
            for k, arrow in enumerate(arrows):
                if arrow.onto is not None:
                    target = drawn.get(arrow.onto) or [anchor(n) for n in arrow.onto]
                    middle, _ = _along(target, _polyline_length(target) / 2)
                    shafts[k] = trimmed([anchor(arrow.src), middle], arrow.src, None)
            out.append(f'<g transform="translate(0 {top})" data-layer="arrows">')
            out.extend(_arrow_svg(a, shaft, font) for a, shaft in zip(arrows, shafts))
            out.append("</g>")
        if placed:
            out.append(f'<g transform="translate(0 {top})" data-layer="stacks">')
            out.extend(_stack_svg(stack, x, y_top, font) for stack, x, y_top in placed)
            out.append("</g>")
        return "".join(out)

    def _repr_svg_(self) -> str:
        """Default SVG rendering, for notebooks (computed once)."""
        if self._default_svg is None:
            self._default_svg = self.to_svg(title=self.name)
        return self._default_svg

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

    def chart(
        self,
        fills: Mapping[str, str] | None = None,
        tooltip: Mapping[str, Mapping[str, Any]] | None = None,
        title: str | None = None,
    ) -> altair.Chart:
        """The map as an Altair chart (geoshapes with an identity projection).

        Args:
            fills: colour per region name, as for :meth:`to_svg`.
            tooltip: extra tooltip fields per region name, e.g.
                ``{"Tróys": {"owner": "Ann", "troops": 3}}``; every field
                named anywhere is shown for every region.
            title: the chart's title.

        Raises ``ValueError`` for an unsafe colour or an unknown region.
        """
        import altair as alt

        fills = dict(fills or {})
        tooltip = {
            name: {str(k): v for k, v in extra.items()} for name, extra in (tooltip or {}).items()
        }
        for what, names in (("fills", fills), ("tooltip", tooltip)):
            unknown = [n for n in names if n not in self.regions]
            if unknown:
                raise ValueError(f"{what}: unknown region(s) {', '.join(map(repr, unknown))}")
        for colour in fills.values():
            check_colour(colour)
        # Extra fields get neutral keys so that any field name (dots, quotes,
        # brackets) is safe; the real name is shown as the tooltip's title.
        fields: list[str] = []
        for extra in tooltip.values():
            for key in extra:
                if key not in fields:
                    fields.append(key)
        keys = {f: f"field{k}" for k, f in enumerate(fields)}

        values = []
        for feature in self.features():
            props = feature["properties"]
            name, kind = props["name"], props["kind"]
            fill = fills.get(name) or (DEFAULT_SEA_FILL if kind == "sea" else DEFAULT_LAND_FILL)
            new_props: dict[str, Any] = {"name": name, "kind": kind, "fill": fill}
            for key, value in tooltip.get(name, {}).items():
                if value is not None and not isinstance(value, (str, int, float, bool)):
                    value = str(value)
                new_props[keys[key]] = value
            values.append({**feature, "properties": new_props})

        minx, miny, maxx, maxy = self.bounds
        width = 600
        height = round(width * (maxy - miny) / max(maxx - minx, 1e-12))
        tips = [alt.Tooltip("properties.name:N", title="name")]
        for f in fields:
            numeric = all(
                isinstance(extra[f], (int, float)) and not isinstance(extra[f], bool)
                for extra in tooltip.values()
                if f in extra and extra[f] is not None
            )
            field_ = f"properties.{keys[f]}"
            tips.append(
                alt.Tooltip(field_, type="quantitative", title=f)
                if numeric
                else alt.Tooltip(field_, type="nominal", title=f)
            )
        chart = (
            alt.Chart(alt.Data(values=values))
            .mark_geoshape(stroke=_STROKE, strokeWidth=0.6)
            .encode(color=alt.Color("properties.fill:N", scale=None), tooltip=tips)
            .project(type="identity", reflectY=True)
            .properties(width=width, height=height)
        )
        if title:
            chart = chart.properties(title=title)
        return chart
