"""Hex grids over polars columns: the vectorised twins of :mod:`gmkit.core.boards.hexgrid`.

A table of hexes is a polars frame with integer columns ``q`` and ``r`` (``s`` is ``-q - r``
and is never needed). The functions here compute neighbours, distances, rings, spirals and
pixel positions for whole columns at once, so that moving, fighting or drawing over a hundred
thousand hexes is a join or a filter rather than a Python loop::

    near = units.join(cities, how="cross").filter(distance_expr("q", "r", "q_right", "r_right") <= 2)

Column names are parameters everywhere; a column may also be given as a polars expression.
Every function agrees with its scalar twin (the test suite checks it).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import polars as pl


class _Matrices(Protocol):
    """A layout's forward (``f*``) and inverse (``b*``) matrices."""

    @property
    def f0(self) -> float: ...
    @property
    def f1(self) -> float: ...
    @property
    def f2(self) -> float: ...
    @property
    def f3(self) -> float: ...
    @property
    def b0(self) -> float: ...
    @property
    def b1(self) -> float: ...
    @property
    def b2(self) -> float: ...
    @property
    def b3(self) -> float: ...


class _Point(Protocol):
    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...


class Layout(Protocol):
    """What the frames read of a :class:`gmkit.core.boards.hexgrid.Layout` (named by what it
    offers, so that this module sits below the grid that uses it)."""

    @property
    def orientation(self) -> _Matrices: ...
    @property
    def size(self) -> _Point: ...
    @property
    def origin(self) -> _Point: ...

__all__ = [
    "DIRECTIONS_FRAME",
    "cube_round_exprs",
    "distance_expr",
    "from_pixel",
    "neighbour_pairs",
    "neighbours_frame",
    "ring_frame",
    "s_expr",
    "spiral_frame",
    "to_pixel",
    "to_pixel_exprs",
]

_DQ = np.array([1, 1, 0, -1, -1, 0], dtype=np.int64)
_DR = np.array([0, -1, -1, 0, 1, 1], dtype=np.int64)
# Where each side of a ring starts, in units of the radius: DIRECTIONS[4] then turning 0..5.
_CQ = np.array([-1, 0, 1, 1, 0, -1], dtype=np.int64)
_CR = np.array([1, 1, 0, -1, -1, 0], dtype=np.int64)

#: The six directions as a frame: ``direction`` (0 to 5), ``dq``, ``dr``.
DIRECTIONS_FRAME = pl.DataFrame(
    {"direction": np.arange(6, dtype=np.int8), "dq": _DQ, "dr": _DR}
)


class _HasQR(Protocol):
    @property
    def q(self) -> int: ...

    @property
    def r(self) -> int: ...


ColumnLike = str | pl.Expr


def _col(c: ColumnLike) -> pl.Expr:
    return pl.col(c) if isinstance(c, str) else c


def s_expr(q: ColumnLike = "q", r: ColumnLike = "r") -> pl.Expr:
    """The ``s`` coordinate, ``-q - r``."""
    return -_col(q) - _col(r)


def distance_expr(
    q1: ColumnLike, r1: ColumnLike, q2: ColumnLike, r2: ColumnLike
) -> pl.Expr:
    """The hex distance between ``(q1, r1)`` and ``(q2, r2)``, as an integer expression."""
    dq = _col(q1) - _col(q2)
    dr = _col(r1) - _col(r2)
    return (dq.abs() + dr.abs() + (dq + dr).abs()) // 2


def neighbours_frame(
    df: pl.DataFrame, q: str = "q", r: str = "r", *, out: tuple[str, str] = ("nq", "nr")
) -> pl.DataFrame:
    """Six rows per row of ``df``: its columns, ``direction`` (0 to 5) and the neighbour's
    coordinates in the columns named by ``out`` (``nq``, ``nr``).

    Rows come in ``df`` order, then direction order.
    """
    n = df.height
    idx = np.repeat(np.arange(n, dtype=np.int64), 6)
    d = np.tile(np.arange(6, dtype=np.int8), n)
    qs = df[q].cast(pl.Int64).to_numpy()
    rs = df[r].cast(pl.Int64).to_numpy()
    nq = np.repeat(qs, 6) + np.tile(_DQ, n)
    nr = np.repeat(rs, 6) + np.tile(_DR, n)
    return df[idx].with_columns(
        pl.Series("direction", d), pl.Series(out[0], nq), pl.Series(out[1], nr)
    )


def neighbour_pairs(df: pl.DataFrame, q: str = "q", r: str = "r") -> pl.DataFrame:
    """Every ordered pair of hexes of ``df`` that are neighbours: columns ``q``, ``r``,
    ``direction``, ``nq``, ``nr`` (a semi-join of :func:`neighbours_frame` on ``df``)."""
    hexes = df.select(pl.col(q).cast(pl.Int64).alias("q"), pl.col(r).cast(pl.Int64).alias("r"))
    return neighbours_frame(hexes).join(
        hexes, left_on=["nq", "nr"], right_on=["q", "r"], how="semi"
    )


def to_pixel_exprs(
    layout: Layout, q: ColumnLike = "q", r: ColumnLike = "r"
) -> tuple[pl.Expr, pl.Expr]:
    """The ``x`` and ``y`` expressions of hex centres (the same arithmetic as
    :meth:`Layout.to_pixel`)."""
    m, size, origin = layout.orientation, layout.size, layout.origin
    qe, re_ = _col(q).cast(pl.Float64), _col(r).cast(pl.Float64)
    x = (m.f0 * qe + m.f1 * re_) * size.x + origin.x
    y = (m.f2 * qe + m.f3 * re_) * size.y + origin.y
    return x, y


def to_pixel(
    df: pl.DataFrame, layout: Layout, q: str = "q", r: str = "r", *, x: str = "x", y: str = "y"
) -> pl.DataFrame:
    """``df`` with the pixel centre of each hex in columns ``x`` and ``y``."""
    xe, ye = to_pixel_exprs(layout, q, r)
    return df.with_columns(xe.alias(x), ye.alias(y))


def cube_round_exprs(fq: ColumnLike, fr: ColumnLike) -> tuple[pl.Expr, pl.Expr]:
    """The ``q`` and ``r`` (Int64) of the hexes containing fractional points ``(fq, fr)``
    (the same rounding as :func:`~gmkit.core.boards.hexgrid.cube_round`)."""
    q, r = _col(fq), _col(fr)
    s = -q - r
    rq, rr, rs = (q + 0.5).floor(), (r + 0.5).floor(), (s + 0.5).floor()
    dq, dr, ds = (rq - q).abs(), (rr - r).abs(), (rs - s).abs()
    q_moved = (dq > dr) & (dq > ds)
    r_moved = ~q_moved & (dr > ds)
    out_q = pl.when(q_moved).then(-rr - rs).otherwise(rq).cast(pl.Int64)
    out_r = pl.when(r_moved).then(-rq - rs).otherwise(rr).cast(pl.Int64)
    return out_q, out_r


def from_pixel(
    df: pl.DataFrame, layout: Layout, x: str = "x", y: str = "y", *, q: str = "q", r: str = "r"
) -> pl.DataFrame:
    """``df`` with the hex containing each pixel ``(x, y)`` in columns ``q`` and ``r``."""
    m = layout.orientation
    px = (pl.col(x) - layout.origin.x) / layout.size.x
    py = (pl.col(y) - layout.origin.y) / layout.size.y
    fq = m.b0 * px + m.b1 * py
    fr = m.b2 * px + m.b3 * py
    oq, or_ = cube_round_exprs(fq, fr)
    return df.with_columns(oq.alias(q), or_.alias(r))


def _rings(center: _HasQR, radii: np.ndarray) -> pl.DataFrame:
    counts = 6 * radii
    k = np.repeat(radii, counts)
    starts = np.repeat(np.cumsum(counts) - counts, counts)
    i = np.arange(k.size, dtype=np.int64) - starts
    side = i // np.maximum(k, 1)
    step = i % np.maximum(k, 1)
    q = center.q + _CQ[side] * k + _DQ[side] * step
    r = center.r + _CR[side] * k + _DR[side] * step
    return pl.DataFrame({"q": q.astype(np.int64), "r": r.astype(np.int64)})


def ring_frame(center: _HasQR, radius: int) -> pl.DataFrame:
    """The hexes of :func:`~gmkit.core.boards.hexgrid.ring` as a frame (``q``, ``r``), in the
    same order."""
    if radius < 0:
        raise ValueError(f"ring radius must be 0 or more, got {radius}")
    if radius == 0:
        return pl.DataFrame({"q": [center.q], "r": [center.r]}, schema={"q": pl.Int64, "r": pl.Int64})
    return _rings(center, np.array([radius], dtype=np.int64))


def spiral_frame(center: _HasQR, radius: int) -> pl.DataFrame:
    """The hexes of :func:`~gmkit.core.boards.hexgrid.spiral` as a frame (``q``, ``r``), in the
    same order: ``1 + 3 * radius * (radius + 1)`` rows."""
    if radius < 0:
        raise ValueError(f"spiral radius must be 0 or more, got {radius}")
    middle = pl.DataFrame({"q": [center.q], "r": [center.r]}, schema={"q": pl.Int64, "r": pl.Int64})
    if radius == 0:
        return middle
    return pl.concat([middle, _rings(center, np.arange(1, radius + 1, dtype=np.int64))])
