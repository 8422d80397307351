"""Hexagonal grids in cube coordinates, after Red Blob Games' guide to hexagonal grids.

A hex is a :class:`Hex` ``(q, r, s)`` with ``q + r + s == 0``; ``s`` is redundant and may be left
out (``Hex(2, -1)`` is ``Hex(2, -1, -1)``). The grid has no edges: every hex has six neighbours,
in the six :data:`DIRECTIONS` numbered 0 to 5 counter-clockwise from east (pointy-top) as in
the guide. A player writes a hex as ``q,r`` (:func:`hex_text`, :func:`parse_hex`).

Scalar functions work on one hex at a time: :func:`neighbour`, :func:`neighbours`,
:func:`distance`, :func:`ring`, :func:`spiral`, :func:`line`, :func:`cube_round`, and a
:class:`Layout` turning hexes into pixels and back for pointy- and flat-top drawings. Their
vectorised twins over integer ``q``, ``r`` columns of a polars frame (:func:`neighbours_frame`,
:func:`distance_expr`, :func:`to_pixel`...) live in :mod:`gmkit.core.boards.hexframe` and are
re-exported here, so tables of hexes are joined and filtered without a Python loop.

:class:`HexBoard` is the hex grid as a :class:`~gmkit.core.boards.Board`: unbounded, or limited
to the hexes of a frame that also carries per-hex columns (terrain, biome...).
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import total_ordering
from typing import Any, Literal, NamedTuple

import polars as pl

from gmkit.core.boards import BoardError
from gmkit.core.boards.hexframe import (
    DIRECTIONS_FRAME,
    distance_expr,
    from_pixel,
    neighbour_pairs,
    neighbours_frame,
    ring_frame,
    spiral_frame,
    to_pixel,
    to_pixel_exprs,
)
from gmkit.core.orders import UnknownNameError

__all__ = [
    "DIRECTIONS",
    "DIRECTIONS_FRAME",
    "FLAT",
    "POINTY",
    "Hex",
    "HexBoard",
    "Layout",
    "Orientation",
    "Point",
    "cube_round",
    "direction",
    "distance",
    "distance_expr",
    "from_pixel",
    "hex_text",
    "line",
    "neighbour",
    "neighbour_pairs",
    "neighbours",
    "neighbours_frame",
    "parse_hex",
    "ring",
    "ring_frame",
    "spiral",
    "spiral_frame",
    "to_pixel",
    "to_pixel_exprs",
]


@total_ordering
class Hex:
    """One hex in cube coordinates: ``q + r + s == 0``, all integers; immutable and hashable.

    ``Hex(q, r)`` computes ``s``; ``Hex(q, r, s)`` checks it. Hexes add and subtract as vectors
    and order by ``(q, r)``. ``str(h)`` is the canonical text ``"q,r"``.

    Raises:
        TypeError: a coordinate that is not an integer.
        ValueError: ``q + r + s != 0``.
    """

    __slots__ = ("q", "r", "s")
    q: int
    r: int
    s: int

    def __init__(self, q: int, r: int, s: int | None = None) -> None:
        q, r = _coord("q", q), _coord("r", r)
        s = -q - r if s is None else _coord("s", s)
        if q + r + s != 0:
            raise ValueError(f"not a hex: q + r + s must be 0, got ({q}, {r}, {s})")
        object.__setattr__(self, "q", q)
        object.__setattr__(self, "r", r)
        object.__setattr__(self, "s", s)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Hex is immutable: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Hex is immutable: cannot delete {name}")

    def __reduce__(self) -> tuple[type[Hex], tuple[int, int, int]]:
        return (Hex, (self.q, self.r, self.s))

    def __repr__(self) -> str:
        return f"Hex({self.q}, {self.r}, {self.s})"

    def __str__(self) -> str:
        return f"{self.q},{self.r}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hex):
            return NotImplemented
        return self.q == other.q and self.r == other.r

    def __lt__(self, other: Hex) -> bool:
        if not isinstance(other, Hex):
            return NotImplemented
        return (self.q, self.r) < (other.q, other.r)

    def __hash__(self) -> int:
        return hash((self.q, self.r))

    def __iter__(self) -> Iterator[int]:
        return iter((self.q, self.r, self.s))

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r, self.s + other.s)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r, self.s - other.s)

    def __mul__(self, k: int) -> Hex:
        return Hex(self.q * k, self.r * k, self.s * k)

    __rmul__ = __mul__

    def __neg__(self) -> Hex:
        return Hex(-self.q, -self.r, -self.s)

    def length(self) -> int:
        """The distance from the origin ``Hex(0, 0)``."""
        return (abs(self.q) + abs(self.r) + abs(self.s)) // 2


def _coord(name: str, value: object) -> int:
    """An integer coordinate (numpy integers too), never a bool or a float."""
    if not isinstance(value, bool):
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise TypeError(f"hex coordinate {name} must be an integer, got {value!r}")


#: The six unit steps, numbered 0 to 5 as in Red Blob Games' guide: (+q), (+q -r), (-r), (-q),
#: (-q +r), (+r). On a pointy-top layout 0 is east and they turn counter-clockwise.
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0, -1), Hex(1, -1, 0), Hex(0, -1, 1), Hex(-1, 0, 1), Hex(-1, 1, 0), Hex(0, 1, -1),
)


def direction(d: int) -> Hex:
    """The unit step of direction ``d`` (taken modulo 6)."""
    return DIRECTIONS[d % 6]


def neighbour(h: Hex, d: int) -> Hex:
    """The neighbour of ``h`` in direction ``d`` (0 to 5, taken modulo 6)."""
    step = DIRECTIONS[d % 6]
    return Hex(h.q + step.q, h.r + step.r, h.s + step.s)


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six neighbours of ``h``, in direction order."""
    return tuple(Hex(h.q + d.q, h.r + d.r, h.s + d.s) for d in DIRECTIONS)


def distance(a: Hex, b: Hex) -> int:
    """The number of steps between ``a`` and ``b``."""
    return (abs(a.q - b.q) + abs(a.r - b.r) + abs(a.s - b.s)) // 2


def ring(center: Hex, radius: int) -> list[Hex]:
    """The ``6 * radius`` hexes at exactly ``radius`` steps from ``center`` (``[center]`` for 0).

    The ring starts at ``center + radius * DIRECTIONS[4]`` and walks around through directions
    0 to 5, as in the guide.

    Raises:
        ValueError: a negative radius.
    """
    if radius < 0:
        raise ValueError(f"ring radius must be 0 or more, got {radius}")
    if radius == 0:
        return [center]
    out: list[Hex] = []
    h = center + DIRECTIONS[4] * radius
    for d in range(6):
        for _ in range(radius):
            out.append(h)
            h = neighbour(h, d)
    return out


def spiral(center: Hex, radius: int) -> list[Hex]:
    """The ``1 + 3 * radius * (radius + 1)`` hexes within ``radius``: the center, then ring 1,
    ring 2 ... each ring in :func:`ring` order.

    Raises:
        ValueError: a negative radius.
    """
    if radius < 0:
        raise ValueError(f"spiral radius must be 0 or more, got {radius}")
    out = [center]
    for k in range(1, radius + 1):
        out.extend(ring(center, k))
    return out


def _round_half_up(x: float) -> float:
    # The same rounding as the vectorised twin (floor(x + 0.5)), so both agree on ties.
    return math.floor(x + 0.5)


def cube_round(q: float, r: float, s: float | None = None) -> Hex:
    """The hex containing the fractional cube point ``(q, r, s)`` (``s`` defaults to ``-q-r``).

    Each coordinate is rounded, then the one that moved most is recomputed from the other two,
    so that ``q + r + s == 0`` holds.
    """
    if s is None:
        s = -q - r
    rq, rr, rs = _round_half_up(q), _round_half_up(r), _round_half_up(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    else:
        rs = -rq - rr
    return Hex(int(rq), int(rr), int(rs))


def line(a: Hex, b: Hex) -> list[Hex]:
    """The ``distance(a, b) + 1`` hexes on the straight line from ``a`` to ``b``, both included;
    each is a neighbour of the next.

    The line samples evenly spaced points between the two centres and rounds each to its hex;
    both ends are nudged by a tiny offset so that points on an edge always fall the same way.
    """
    n = distance(a, b)
    if n == 0:
        return [a]
    aq, ar, as_ = a.q + 1e-6, a.r + 2e-6, a.s - 3e-6
    bq, br, bs = b.q + 1e-6, b.r + 2e-6, b.s - 3e-6
    out = []
    for i in range(n + 1):
        t = i / n
        out.append(cube_round(aq + (bq - aq) * t, ar + (br - ar) * t, as_ + (bs - as_) * t))
    return out


# ---------------------------------------------------------------------------
# Layout: hexes to pixels and back
# ---------------------------------------------------------------------------


class Point(NamedTuple):
    """A point in pixels (``y`` grows downwards, as in SVG)."""

    x: float
    y: float


@dataclass(frozen=True)
class Orientation:
    """The forward (``f*``) and inverse (``b*``) matrices of a layout, and the angle of its
    first corner in sixths of a turn."""

    name: str
    f0: float
    f1: float
    f2: float
    f3: float
    b0: float
    b1: float
    b2: float
    b3: float
    start_angle: float


_SQRT3 = math.sqrt(3.0)

#: Hexes with a corner at the top: rows of hexes, ``r`` grows downwards.
POINTY = Orientation(
    "pointy", _SQRT3, _SQRT3 / 2.0, 0.0, 3.0 / 2.0, _SQRT3 / 3.0, -1.0 / 3.0, 0.0, 2.0 / 3.0, 0.5
)
#: Hexes with a flat top: columns of hexes, ``q`` grows rightwards.
FLAT = Orientation(
    "flat", 3.0 / 2.0, 0.0, _SQRT3 / 2.0, _SQRT3, 2.0 / 3.0, 0.0, -1.0 / 3.0, _SQRT3 / 3.0, 0.0
)


@dataclass(frozen=True)
class Layout:
    """How hexes are drawn: an orientation, the size of a hex (centre to corner, in pixels,
    possibly different along x and y) and the pixel of ``Hex(0, 0)``."""

    orientation: Orientation = POINTY
    size: Point = Point(10.0, 10.0)
    origin: Point = Point(0.0, 0.0)

    @classmethod
    def of(
        cls,
        orientation: Orientation | Literal["pointy", "flat"] = "pointy",
        size: float | tuple[float, float] = 10.0,
        origin: tuple[float, float] = (0.0, 0.0),
    ) -> Layout:
        """A layout from plain values: ``Layout.of("flat", 12)``."""
        if isinstance(orientation, str):
            named = {"pointy": POINTY, "flat": FLAT}
            if orientation not in named:
                raise ValueError(f"orientation must be 'pointy' or 'flat', got {orientation!r}")
            orientation = named[orientation]
        sx, sy = (size, size) if isinstance(size, (int, float)) else size
        return cls(orientation, Point(float(sx), float(sy)), Point(*map(float, origin)))

    def to_pixel(self, h: Hex) -> Point:
        """The centre of ``h`` in pixels."""
        m, size, origin = self.orientation, self.size, self.origin
        x = (m.f0 * h.q + m.f1 * h.r) * size.x
        y = (m.f2 * h.q + m.f3 * h.r) * size.y
        return Point(x + origin.x, y + origin.y)

    def fractional(self, x: float, y: float) -> tuple[float, float, float]:
        """The fractional cube coordinates ``(q, r, s)`` of a pixel."""
        m = self.orientation
        px = (x - self.origin.x) / self.size.x
        py = (y - self.origin.y) / self.size.y
        q = m.b0 * px + m.b1 * py
        r = m.b2 * px + m.b3 * py
        return q, r, -q - r

    def from_pixel(self, x: float, y: float) -> Hex:
        """The hex containing the pixel ``(x, y)``."""
        return cube_round(*self.fractional(x, y))

    def corner_offsets(self) -> tuple[Point, ...]:
        """The six corners of a hex relative to its centre."""
        out = []
        for corner in range(6):
            angle = 2.0 * math.pi * (self.orientation.start_angle + corner) / 6.0
            out.append(Point(self.size.x * math.cos(angle), self.size.y * math.sin(angle)))
        return tuple(out)

    def corners(self, h: Hex) -> tuple[Point, ...]:
        """The six corners of ``h`` in pixels."""
        cx, cy = self.to_pixel(h)
        return tuple(Point(cx + dx, cy + dy) for dx, dy in self.corner_offsets())


# ---------------------------------------------------------------------------
# Text form
# ---------------------------------------------------------------------------

_HEX_TEXT = re.compile(
    r"\s*\(?\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*(?:,\s*([+-]?\d+)\s*)?\)?\s*"
)


def hex_text(h: Hex) -> str:
    """The canonical text of a hex: ``"q,r"`` (``"3,-2"``)."""
    return f"{h.q},{h.r}"


def parse_hex(text: str) -> Hex:
    """The hex written as ``q,r`` (also ``q, r``, ``(q,r)`` or ``q,r,s``).

    Raises:
        ValueError: naming ``text`` when it is not two (or three summing to 0) integers.
    """
    m = _HEX_TEXT.fullmatch(text) if isinstance(text, str) else None
    if m is None:
        raise ValueError(f"not a hex: {text!r}; write it as q,r (two integers), e.g. 3,-2")
    q, r = int(m.group(1)), int(m.group(2))
    if m.group(3) is not None and q + r + int(m.group(3)) != 0:
        raise ValueError(f"not a hex: {text!r}; q + r + s must be 0")
    return Hex(q, r)


# ---------------------------------------------------------------------------
# The board
# ---------------------------------------------------------------------------


class HexBoard:
    """A hex grid as a :class:`~gmkit.core.boards.Board`; places are :class:`Hex` values.

    Without ``hexes`` the board is unbounded: every hex is on it, every hex has its six
    neighbours and its kind is ``default_kind``. With ``hexes`` (a polars frame with integer
    columns ``q`` and ``r``, an optional ``s`` that must agree, and any per-hex columns such as
    ``kind`` or ``biome``) only those hexes are on the board; a hex's kind is read from
    ``kind_column`` when the frame has it.

    Raises:
        BoardError: naming ``source`` and the hexes concerned, for a frame without integer
            ``q``/``r`` columns, with repeated or null hexes, or with a wrong ``s``.
    """

    def __init__(
        self,
        hexes: pl.DataFrame | None = None,
        *,
        kind_column: str = "kind",
        default_kind: str = "land",
        source: str = "hex board",
    ) -> None:
        self.default_kind = default_kind
        self.kind_column = kind_column
        self.source = source
        self._frame = None if hexes is None else _check_hexes(hexes, source)
        self._keys: frozenset[tuple[int, int]] | None = None
        self._kinds: dict[tuple[int, int], str] | None = None

    @property
    def kind(self) -> Literal["hex"]:
        """Always ``"hex"``."""
        return "hex"

    @property
    def names(self) -> None:
        """Hexes are written as coordinates, so there is no name index."""
        return None

    @property
    def bounded(self) -> bool:
        """Whether the board is limited to a known set of hexes."""
        return self._frame is not None

    @property
    def frame(self) -> pl.DataFrame | None:
        """The board's hexes and their columns (``None`` when unbounded)."""
        return self._frame

    def __len__(self) -> int:
        if self._frame is None:
            raise TypeError("an unbounded hex board has no size")
        return self._frame.height

    def __repr__(self) -> str:
        size = "unbounded" if self._frame is None else f"{self._frame.height} hexes"
        return f"HexBoard({size})"

    def _key_set(self) -> frozenset[tuple[int, int]]:
        if self._keys is None:
            assert self._frame is not None
            self._keys = frozenset(zip(self._frame["q"].to_list(), self._frame["r"].to_list()))
        return self._keys

    def contains(self, place: object) -> bool:
        """Whether ``place`` is a hex of the board (any hex, when unbounded)."""
        if not isinstance(place, Hex):
            return False
        return self._frame is None or (place.q, place.r) in self._key_set()

    def __contains__(self, place: object) -> bool:
        return self.contains(place)

    def __iter__(self) -> Iterator[Hex]:
        if self._frame is None:
            raise TypeError("an unbounded hex board cannot be listed")
        return (Hex(q, r) for q, r in zip(self._frame["q"].to_list(), self._frame["r"].to_list()))

    def neighbours(self, place: Hex) -> frozenset[Hex]:
        """The neighbours of ``place`` that are on the board."""
        around = neighbours(place)
        if self._frame is None:
            return frozenset(around)
        keys = self._key_set()
        return frozenset(h for h in around if (h.q, h.r) in keys)

    def place_kind(self, place: Hex) -> str:
        """The kind of ``place``: its ``kind_column`` value, else ``default_kind``.

        Raises:
            KeyError: ``place`` is not on a bounded board.
        """
        if self._frame is None:
            return self.default_kind
        if self._kinds is None:
            keys = zip(self._frame["q"].to_list(), self._frame["r"].to_list())
            if self.kind_column in self._frame.columns:
                values = self._frame[self.kind_column].cast(pl.String).to_list()
                self._kinds = {k: (v if v is not None else self.default_kind)
                               for k, v in zip(keys, values)}
            else:
                self._kinds = dict.fromkeys(keys, self.default_kind)
        try:
            return self._kinds[(place.q, place.r)]
        except KeyError:
            raise KeyError(f"{self.source}: no hex {place} on the board") from None

    def row(self, place: Hex) -> Mapping[str, Any]:
        """The frame's row of ``place`` as a dict (``{"q":..., "r":...}`` when unbounded)."""
        if self._frame is None:
            return {"q": place.q, "r": place.r}
        rows = self._frame.filter((pl.col("q") == place.q) & (pl.col("r") == place.r))
        if rows.height == 0:
            raise KeyError(f"{self.source}: no hex {place} on the board")
        return rows.row(0, named=True)

    def parse_place(self, text: str) -> Hex:
        """The hex written ``q,r`` in ``text``.

        Raises:
            UnknownNameError: (a ``ValueError``) naming ``text`` when it is not a hex or the hex
                is not on the board.
        """
        try:
            h = parse_hex(text)
        except ValueError as e:
            raise UnknownNameError(str(e), name=str(text), kind="hex") from None
        if not self.contains(h):
            raise UnknownNameError(f"no hex {h} on the board", name=str(text), kind="hex")
        return h

    def place_text(self, place: Hex) -> str:
        """``"q,r"``."""
        return hex_text(place)

    def edges(self) -> pl.DataFrame:
        """Every ordered pair of adjacent hexes of a bounded board: columns ``q``, ``r``,
        ``direction``, ``nq``, ``nr`` (a vectorised join)."""
        if self._frame is None:
            raise TypeError("an unbounded hex board has infinitely many edges")
        return neighbour_pairs(self._frame.select("q", "r"))


#: The farthest a listed hex may lie from the centre (q or r): a board of a few thousand hexes
#: a side, well within the integers any sum or distance of hexes uses.
MAX_HEX = 1_000_000


def _check_hexes(df: pl.DataFrame, source: str) -> pl.DataFrame:
    problems = []
    for c in ("q", "r"):
        if c not in df.columns:
            problems.append(f"missing column {c!r}")
        elif not df.schema[c].is_integer():
            problems.append(f"column {c!r} must be integers, is {df.schema[c]}")
    if problems:
        raise BoardError(source, problems)
    nulls = df.filter(pl.col("q").is_null() | pl.col("r").is_null())
    if nulls.height:
        problems.append(f"{nulls.height} row(s) without q or r")
    far = df.filter((pl.col("q").abs() > MAX_HEX) | (pl.col("r").abs() > MAX_HEX))
    if far.height:
        problems.append(f"{far.height} hex(es) farther than {MAX_HEX} from the centre, such as "
                        f"{far['q'][0]},{far['r'][0]}")
        raise BoardError(source, problems)  # no sum of coordinates so large is taken
    if "s" in df.columns:
        bad = df.filter(pl.col("q") + pl.col("r") + pl.col("s") != 0)
        if bad.height:
            shown = ", ".join(f"({q}, {r}, {s})" for q, r, s in bad.select("q", "r", "s").rows()[:5])
            problems.append(f"q + r + s must be 0: {shown}")
    dup = df.group_by("q", "r").len().filter(pl.col("len") > 1)
    if dup.height:
        shown = ", ".join(f"{q},{r}" for q, r, _ in dup.sort("q", "r").rows()[:5])
        problems.append(f"hex(es) listed more than once: {shown}")
    if problems:
        raise BoardError(source, problems)
    return df.with_columns(pl.col("q").cast(pl.Int64), pl.col("r").cast(pl.Int64))
