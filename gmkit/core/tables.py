"""State tables: the frames a ruleset keeps per turn, and the schemas they are checked against.

A :class:`State` is a value: a turn number and a mapping of table name to polars frame. Steps
return new states; nothing mutates one in place. Every table has a declared schema, checked on
write and on read, so a malformed file is reported rather than half-read.

What every ruleset needs around its tables is here once:

* :func:`frame`: rows (dicts or tuples) as a typed frame of a schema (empty rows: an empty
  typed frame);
* :func:`row`, :func:`rows_by` and :func:`update_rows`: a row read by its key, every row by
  its key, rows changed by key, the schema's types kept;
* :meth:`State.derived`: a structure derived from a state's tables (an adjacency, a world),
  built once per state and returned again after; :meth:`State.with_derived` hands a structure
  made for the next state to it, and :meth:`State.claim` takes one to change it in place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar
from types import MappingProxyType

import polars as pl

Schema = Mapping[str, pl.DataType | type[pl.DataType]]


class SchemaError(ValueError):
    """A table that does not have the columns and types its schema declares."""


def check_frame(df: pl.DataFrame, schema: Schema, source: str) -> pl.DataFrame:
    """Return ``df`` with its columns in schema order, or raise naming ``source`` and the fault."""
    have = dict(df.schema)
    missing = [c for c in schema if c not in have]
    extra = [c for c in have if c not in schema]
    if missing or extra:
        parts = []
        if missing:
            parts.append("missing column(s) " + ", ".join(missing))
        if extra:
            parts.append("unexpected column(s) " + ", ".join(extra))
        raise SchemaError(f"{source}: {'; '.join(parts)}")
    wrong = [f"{c} is {have[c]} not {schema[c]}" for c in schema if have[c] != schema[c]]
    if wrong:
        raise SchemaError(f"{source}: wrong type: {'; '.join(wrong)}")
    return df.select(list(schema))


def empty(schema: Schema) -> pl.DataFrame:
    """An empty frame with the schema's columns."""
    return pl.DataFrame(schema=dict(schema))


T = TypeVar("T")
Row = dict[str, Any]


def frame(rows: Iterable[Mapping[str, Any] | Sequence[Any]], schema: Schema, *,
          table: str = "table", strict: bool = True) -> pl.DataFrame:
    """Rows as a frame of ``schema``: its columns in schema order, of the schema's types.

    A row is a mapping (a key the schema lacks is ignored, a column the row lacks is null) or
    a tuple of every column's value in schema order. No rows give an empty frame of the
    schema's types. A value that is not of its column's type (``1.5`` in an integer column,
    ``"3"`` in a number column) raises :class:`SchemaError` naming ``table``, the column and
    the value; nothing is converted silently. ``strict=False`` lets polars convert such a
    value as it can (``1.5`` becomes ``1``) and is about twice as fast, for a hot path whose
    rows come from frames of the same schema.

    >>> frame([{"id": "Red", "gold": 3}], {"id": pl.String, "gold": pl.Int64})["gold"][0]
    3
    >>> dict(frame([], {"id": pl.String}).schema)
    {'id': String}
    """
    listed = list(rows)
    names = list(schema)
    if not listed:
        return pl.DataFrame(schema=dict(schema))
    if not strict:
        return pl.DataFrame(listed, schema=dict(schema), orient="row")
    columns: dict[str, list[Any]] = {c: [] for c in names}
    for n, r in enumerate(listed):
        if isinstance(r, Mapping):
            for c in names:
                columns[c].append(r.get(c))
        else:
            if len(r) != len(names):
                raise SchemaError(f"{table}: row {n + 1} has {len(r)} value(s) for "
                                  f"{len(names)} column(s) ({', '.join(names)})")
            for c, v in zip(names, r):
                columns[c].append(v)
    series = []
    for c in names:
        try:
            series.append(pl.Series(c, columns[c], dtype=schema[c], strict=True))
        except (TypeError, ValueError, OverflowError, pl.exceptions.PolarsError):
            bad = _first_misfit(columns[c], schema[c])
            raise SchemaError(f"{table}: column {c} is {schema[c]} and cannot hold "
                              f"{bad!r}") from None
    return pl.DataFrame(series)


def _first_misfit(values: list[Any], dtype: pl.DataType | type[pl.DataType]) -> Any:
    """The first of ``values`` that is not of ``dtype`` (for an error message)."""
    for v in values:
        try:
            pl.Series([v], dtype=dtype, strict=True)
        except (TypeError, ValueError, OverflowError, pl.exceptions.PolarsError):
            return v
    return values[:5]


class MissingRow(LookupError):
    """A row looked up by a key the table does not hold (or holds twice)."""


def _positions(df: pl.DataFrame, key_col: str, table: str) -> dict[Any, list[int]]:
    if key_col not in df.columns:
        raise SchemaError(f"{table}: no column {key_col} to look rows up by")
    out: dict[Any, list[int]] = {}
    for i, k in enumerate(df.get_column(key_col).to_list()):
        out.setdefault(k, []).append(i)
    return out


def row(df: pl.DataFrame, key_col: str, key: Any, *, table: str = "table") -> Row:
    """The one row of ``df`` whose ``key_col`` is ``key``, as a dict (a copy: changing it
    changes no frame). Raises :class:`MissingRow` naming ``table`` and the key when no row
    or several rows have it.

    >>> players = frame([("Red", 3)], {"id": pl.String, "gold": pl.Int64})
    >>> row(players, "id", "Red", table="players")["gold"]
    3
    """
    if key_col not in df.columns:
        raise SchemaError(f"{table}: no column {key_col} to look rows up by")
    hits = [i for i, k in enumerate(df.get_column(key_col).to_list()) if k == key]
    if len(hits) != 1:
        raise MissingRow(f"{table}: {'no' if not hits else len(hits)} row(s) with "
                         f"{key_col} {key!r}")
    return df.row(hits[0], named=True)


def rows_by(df: pl.DataFrame, key_col: str, *, table: str = "table") -> dict[Any, Row]:
    """Every row of ``df`` as a dict (a copy), keyed by its ``key_col``, in the frame's order.
    A key on two rows raises :class:`SchemaError` naming ``table`` and the key.

    >>> players = frame([("Red", 3), ("Blue", 5)], {"id": pl.String, "gold": pl.Int64})
    >>> rows_by(players, "id")["Blue"]
    {'id': 'Blue', 'gold': 5}
    """
    if key_col not in df.columns:
        raise SchemaError(f"{table}: no column {key_col} to look rows up by")
    out: dict[Any, Row] = {}
    for r in df.iter_rows(named=True):
        k = r[key_col]
        if k in out:
            raise SchemaError(f"{table}: {key_col} {k!r} is on more than one row")
        out[k] = r
    return out


def update_rows(df: pl.DataFrame, key_col: str, changes: Mapping[Any, Mapping[str, Any]], *,
                table: str = "table", must_exist: bool = True) -> pl.DataFrame:
    """A new frame: ``df`` with, for each ``key: {column: value}`` of ``changes``, the rows
    whose ``key_col`` is ``key`` set to those values; rows keep their order and columns their
    types (a value not of its column's type raises :class:`SchemaError`). A key no row has
    raises :class:`MissingRow` naming ``table`` and the key, unless ``must_exist=False``
    (then it changes nothing). ``df`` itself is never changed.

    >>> players = frame([("Red", 3), ("Blue", 5)], {"id": pl.String, "gold": pl.Int64})
    >>> update_rows(players, "id", {"Blue": {"gold": 7}})["gold"].to_list()
    [3, 7]
    """
    at = _positions(df, key_col, table)
    missing = [k for k in changes if k not in at]
    if missing and must_exist:
        raise MissingRow(f"{table}: no row with {key_col} {missing[0]!r}")
    edits: dict[str, dict[int, Any]] = {}
    for k, cols in changes.items():
        for c, v in cols.items():
            if c not in df.columns:
                raise SchemaError(f"{table}: no column {c} to set (row {key_col} {k!r})")
            for i in at.get(k, ()):
                edits.setdefault(c, {})[i] = v
    out = df
    for c, by_index in edits.items():
        dtype = df.schema[c]
        values = df.get_column(c).to_list()
        for i, v in by_index.items():
            values[i] = v
        try:
            new = pl.Series(c, values, dtype=dtype, strict=True)
        except (TypeError, ValueError, OverflowError, pl.exceptions.PolarsError):
            bad = _first_misfit(list(by_index.values()), dtype)
            raise SchemaError(f"{table}: column {c} is {dtype} and cannot hold "
                              f"{bad!r}") from None
        out = out.with_columns(new)
    return out


@dataclass(frozen=True)
class _Derived:
    """A value derived from a state, and the frames it was derived from when it names them
    (then a state made by :meth:`State.replace` that keeps those frames keeps the value)."""

    value: Any
    frames: tuple[tuple[str, pl.DataFrame], ...] | None = None


@dataclass(frozen=True)
class State:
    """A game's state at one point of a turn: ``turn`` and its named tables.

    A structure derived from the tables (an adjacency, a lookup by id, a world) is asked of
    the state by :meth:`derived`, handed to the next state by :meth:`with_derived`, taken to be
    changed in place by :meth:`claim`."""

    turn: int
    tables: Mapping[str, pl.DataFrame] = field(default_factory=dict)
    #: What :meth:`derived` built from these tables (a cache: never compared, shown or stored).
    _derived: dict[str, _Derived] = field(default_factory=dict, init=False, compare=False,
                                          repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tables", MappingProxyType(dict(self.tables)))

    # -- structures derived from the tables ------------------------------------------------------
    def derived(self, key: str, build: Callable[[State], T], *,
                tables: Sequence[str] | None = None) -> T:
        """The structure ``build(self)`` derives from this state's tables (an adjacency, a
        lookup by id, a world): built the first time it is asked for under ``key``, the same
        object after. Treat it as read-only; to change one in place, :meth:`claim` it.

        A state made by :meth:`replace` derives afresh, unless ``tables`` names the only
        tables ``build`` reads: then a state whose frames of those tables are the very same
        objects (a step that left them alone) keeps the value.

        >>> s = State(1, {"borders": pl.DataFrame({"a": ["X"], "b": ["Y"]})})
        >>> def neighbours(s): return {a: b for a, b in s["borders"].iter_rows()}
        >>> s.derived("borders", neighbours) is s.derived("borders", neighbours)
        True
        """
        got = self._derived.get(key)
        if got is None:
            frames = None if tables is None else tuple((n, self.tables[n]) for n in tables)
            got = self._derived[key] = _Derived(build(self), frames)
        return got.value  # type: ignore[no-any-return]

    def with_derived(self, key: str, value: Any) -> State:
        """A new state, equal to this one (same turn, same tables), whose :meth:`derived` or
        :meth:`claim` of ``key`` returns ``value`` without building it: a step that kept a
        structure up to date while it changed the tables hands it to the state it returns.
        ``value`` must be what building it from these tables would give. Nothing else derived
        from this state is handed on, and this state is not changed.

        >>> s = State(1, {}).with_derived("lookup", {"Red": 3})
        >>> s.derived("lookup", lambda s: {})
        {'Red': 3}
        """
        out = State(self.turn, self.tables)
        out._derived[key] = _Derived(value)
        return out

    def claim(self, key: str, build: Callable[[State], T]) -> T:
        """The structure derived under ``key`` for the caller to own and change in place: the
        one this state holds (handed to it by :meth:`with_derived`, or derived before), which
        the state then no longer holds, or else a fresh ``build(self)``. A state resolved from
        again (after a step back) thus builds afresh, never reusing a structure already
        changed. A key is either read (:meth:`derived`) or claimed, not both.

        >>> s = State(1, {}).with_derived("world", [1, 2])
        >>> s.claim("world", lambda s: []), s.claim("world", lambda s: [])
        ([1, 2], [])
        """
        got = self._derived.pop(key, None)
        return got.value if got is not None else build(self)  # type: ignore[no-any-return]

    def __getitem__(self, name: str) -> pl.DataFrame:
        return self.tables[name]

    def replace(self, turn: int | None = None, **tables: pl.DataFrame) -> State:
        """A new state with some tables (or the turn number) replaced. What was derived from
        this state is not handed on, but for a value :meth:`derived` with ``tables`` all of
        whose frames the new state keeps."""
        out = State(self.turn if turn is None else turn, {**self.tables, **tables})
        for key, got in self._derived.items():
            if got.frames is not None and all(out.tables.get(n) is f for n, f in got.frames):
                out._derived[key] = got
        return out

    def checked(self, schemas: Mapping[str, Schema], source: str = "state") -> State:
        """This state with every table checked against ``schemas`` (all declared, none extra)."""
        missing = [n for n in schemas if n not in self.tables]
        extra = [n for n in self.tables if n not in schemas]
        if missing or extra:
            raise SchemaError(f"{source}: tables missing {missing} / unexpected {extra}")
        return State(self.turn, {n: check_frame(self.tables[n], s, f"{source}/{n}")
                                 for n, s in schemas.items()})

    def equals(self, other: State) -> bool:
        """Same turn and the same tables, row for row."""
        return (self.turn == other.turn and self.tables.keys() == other.tables.keys()
                and all(self.tables[n].equals(other.tables[n]) for n in self.tables))


# -- the logs of a committed turn: the posts read, every draw, every event -------------------
ORDERS_SCHEMA: Schema = {"seq": pl.Int64, "player": pl.String, "secret": pl.Boolean,
                         "received": pl.String, "text": pl.String, "posted": pl.String}
#: Columns added to a log after games were written without them, and their value in an older
#: file (read as if it had the column; the file itself, whose hash is history, is never changed).
ADDED_COLUMNS: Mapping[str, pl.Expr] = {"posted": pl.lit(None, pl.String),
                                         "shared_with": pl.lit(None, pl.List(pl.String))}
ROLLS_SCHEMA: Schema = {"step": pl.String, "draw_id": pl.String, "purpose": pl.String,
                        "rule": pl.String, "expression": pl.String, "result": pl.String,
                        "total": pl.Float64, "source": pl.String, "public": pl.Boolean,
                        "player": pl.String, "shared_with": pl.List(pl.String)}
EVENTS_SCHEMA: Schema = {"step": pl.String, "kind": pl.String, "rule": pl.String,
                         "text": pl.String, "player": pl.String, "region": pl.String,
                         "public": pl.Boolean, "data": pl.String,
                         "shared_with": pl.List(pl.String)}
LOG_SCHEMAS: Mapping[str, Schema] = {"orders": ORDERS_SCHEMA, "rolls": ROLLS_SCHEMA,
                                     "events": EVENTS_SCHEMA}
