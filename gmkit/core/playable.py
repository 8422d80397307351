"""What a playable state is: declared by each ruleset as data, checked once by the core.

A state whose tables have the right columns and types (:mod:`gmkit.core.tables`) may still be
one the rules cannot play: two players with one id, a treasury of 2^63-1, a form of government
the rules never name, an owner who is no player. A ruleset declares what its rules allow as
:class:`Playable` (``Ruleset.playable``), the way it declares its rules table:

* :class:`Unique`: the columns that tell a table's rows apart (none empty, no two rows alike);
* :class:`Refers`: cells that name a row of another table (a province's owner is a player's
  id), or a player of the game (:data:`PLAYERS`); an empty cell names nothing;
* :class:`Range`: a number's least and greatest value, each a number or the name of a rule of
  the rules table (read from the rules in force);
* :class:`OneOf`: a text among the words the rules use (a form of government, a biome);
* :class:`Required`: cells never empty; :class:`Rows`: how many rows a table holds;
* ``check(state, ctx)``: the one cross-row check for what data cannot say (borders both ways,
  no more than three armies in a sector), run only on a state the data finds nothing wrong
  with, so it may rely on every declaration above.

Whatever a ruleset declares, no number in any table may be NaN or infinite, nor beyond
:data:`~gmkit.core.params.LIMIT` (10^9) unless a :class:`Range` of its column says otherwise.

:func:`state_problems` runs it all, vectorised (a 100,000-hex world is checked in well under a
second), and returns every problem as a :class:`StateProblem` naming its table, row (from 1,
as a position file counts them) and column; ``gmkit new --state`` and ``gmkit correct`` refuse
a state with any, before anything is written or recorded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import polars as pl

from gmkit.core.params import LIMIT, Params
from gmkit.core.tables import Schema, State

if TYPE_CHECKING:
    from gmkit.core.parts import Context

#: At most this many rows are named per declaration; the rest are counted.
ROWS_NAMED = 10

#: The target of a :class:`Refers` naming a player of the game (``game.toml``'s players, as the
#: context lists them; a context listing none, such as a test's, resolves nothing).
PLAYERS = "<players>"

Bound = int | float | str | None


@dataclass(frozen=True)
class StateProblem:
    """One reason the rules cannot play a state: its table, row (from 1; None for the table as
    a whole), the row's first cell (to find it by), its column (None for the row) and what is
    wrong, in words."""

    table: str
    row: int | None
    column: str | None
    text: str
    label: str | None = None

    def line(self, source: str | None = None) -> str:
        """The problem on one line, naming ``source`` (a file; the table by default), the row
        and the column."""
        at = []
        if self.row is not None:
            at.append(f"row {self.row}" + (f" ({self.label})" if self.label else ""))
        if self.column is not None:
            at.append(f"column '{self.column}'")
        return ": ".join([source or f"table '{self.table}'", *([", ".join(at)] if at else []),
                          self.text])


def _split(where: str) -> tuple[str, tuple[str, ...]]:
    """``"table.a,b"`` as the table and its columns."""
    table, _, columns = where.partition(".")
    cols = tuple(c.strip() for c in columns.split(",") if c.strip())
    if not table or not cols:
        raise ValueError(f"{where!r}: write 'table.column' (or 'table.a,b')")
    return table, cols


@dataclass(frozen=True, init=False)
class Unique:
    """The rows of ``table`` are told apart by ``columns``: none of them empty, no two rows with
    the same values (``Unique("players", "id")``, ``Unique("borders", "a", "b")``)."""

    table: str
    columns: tuple[str, ...]

    def __init__(self, table: str, *columns: str) -> None:
        object.__setattr__(self, "table", table)
        object.__setattr__(self, "columns", tuple(columns))


@dataclass(frozen=True, init=False)
class Required:
    """The cells of ``columns`` of ``table`` are never empty (null)."""

    table: str
    columns: tuple[str, ...]

    def __init__(self, table: str, *columns: str) -> None:
        object.__setattr__(self, "table", table)
        object.__setattr__(self, "columns", tuple(columns))


@dataclass(frozen=True)
class Refers:
    """Cells that name a row of another table: ``source`` is ``"table.column"`` (or
    ``"table.a,b"`` for a row named by several columns; a list column names one row per
    item), ``target`` the table and columns they name (``"players.id"``), or :data:`PLAYERS`
    for a player of the game. An empty cell names nothing; ``also`` are words it may hold
    besides (``"neutral"``)."""

    source: str
    target: str
    also: tuple[str, ...] = ()
    #: What a row of the target is, in words ("player", "province"): for the message.
    what: str = ""
    #: Every target is named by some cell too (each player of the game has a digger).
    every: bool = False


@dataclass(frozen=True)
class Range:
    """A number column's values from ``low`` to ``high`` (both included; None: no bound
    besides :data:`~gmkit.core.params.LIMIT`); a bound is a number or the name of a rule
    (``Range("armies.count", 1, "max_stack")``). An empty cell is no problem here (see
    :class:`Required`). ``rule``: the section that says so, for the message."""

    where: str
    low: Bound = None
    high: Bound = None
    rule: str = ""


@dataclass(frozen=True)
class OneOf:
    """A text column (or a list column's items) among ``choices``, the words the rules use."""

    where: str
    choices: tuple[str, ...]
    rule: str = ""


@dataclass(frozen=True)
class Rows:
    """``table`` holds from ``low`` to ``high`` rows (a bound may name a rule; None: any)."""

    table: str
    low: Bound = None
    high: Bound = None
    rule: str = ""


Check = Callable[[State, "Context"], list[StateProblem]]


@dataclass(frozen=True)
class Playable:
    """What a playable state of a ruleset is: its :class:`Unique` keys, :class:`Refers`
    references, :class:`Range` and :class:`OneOf` columns, :class:`Required` cells and
    :class:`Rows` counts, as data, and ``check(state, ctx)``, the one cross-row check for the
    rest (run only when the data finds nothing wrong). The default declares nothing: every
    state of the schemas' columns and types with finite numbers within
    :data:`~gmkit.core.params.LIMIT` is playable."""

    unique: tuple[Unique, ...] = ()
    refers: tuple[Refers, ...] = ()
    ranges: tuple[Range, ...] = ()
    one_of: tuple[OneOf, ...] = ()
    required: tuple[Required, ...] = ()
    rows: tuple[Rows, ...] = ()
    check: Check | None = None

    def declared(self) -> Iterable[tuple[str, str]]:
        """Every (table, column) a declaration names (to check declarations against the
        schemas)."""
        keyed: tuple[Unique | Required, ...] = (*self.unique, *self.required)
        for u in keyed:
            for c in u.columns:
                yield u.table, c
        for r in self.refers:
            table, cols = _split(r.source)
            for c in cols:
                yield table, c
            if r.target != PLAYERS:
                table, cols = _split(r.target)
                for c in cols:
                    yield table, c
        ranged: tuple[Range | OneOf, ...] = (*self.ranges, *self.one_of)
        for g in ranged:
            table, cols = _split(g.where)
            for c in cols:
                yield table, c
        for n in self.rows:
            yield n.table, ""


# -- running the declarations -------------------------------------------------------------------
class _Found:
    """Problems as they are found, at most :data:`ROWS_NAMED` named per declaration."""

    def __init__(self, tables: Mapping[str, pl.DataFrame]) -> None:
        self.tables = tables
        self.out: list[StateProblem] = []

    def rows(self, table: str, column: str | None, rows: Sequence[int],
             say: Callable[[int], str], more: str) -> None:
        """A problem on each of ``rows`` (0-based), ``say(row)`` its words; past
        :data:`ROWS_NAMED`, one line counting the rest (``more``: what they are)."""
        frame = self.tables[table]
        first = frame.columns[0] if frame.columns else None
        for i in rows[:ROWS_NAMED]:
            label = None
            if first is not None and first != column:
                value = frame[first][i]
                label = None if value is None else _short(value)
            self.out.append(StateProblem(table, i + 1, column, say(i), label))
        if len(rows) > ROWS_NAMED:
            self.out.append(StateProblem(table, None, column,
                                         f"{len(rows) - ROWS_NAMED} more row(s) {more}"))


def _short(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _show(value: Any) -> str:
    """A cell as a message shows it."""
    if isinstance(value, str):
        return repr(value if len(value) <= 60 else value[:57] + "...")
    return repr(value)


def _bound(bound: Bound, rules: Params) -> tuple[float | None, str]:
    """A bound's value and its words (``3`` or ``3 (rule max_stack)``)."""
    if bound is None:
        return None, ""
    if isinstance(bound, str):
        value = rules[bound]
        return float(value), f"{value} (rule '{bound}')"
    return float(bound), f"{bound:g}" if isinstance(bound, float) else str(bound)


def _listed(values: Iterable[Any], most: int = 12) -> str:
    shown = sorted({str(v) for v in values})
    return ", ".join(shown[:most]) + (", ..." if len(shown) > most else "")


def _is_list(dtype: Any) -> bool:
    return isinstance(dtype, (pl.List, pl.Array))


def _problems_of_schema(state: State, schemas: Mapping[str, Schema], declared: Playable,
                        found: _Found) -> None:
    """The defaults for every number column: finite, and within LIMIT unless a Range bounds
    it."""
    ranged = {_split(r.where) for r in declared.ranges}
    ranged_cols = {(t, c) for t, cols in ranged for c in cols}
    for table, schema in schemas.items():
        if table not in state.tables:
            continue
        frame = state[table]
        for column, dtype in schema.items():
            if column not in frame.columns or not (dtype.is_numeric()):
                continue
            values = frame[column]

            def odd(i: int, v: pl.Series = values) -> str:
                return f"{v[i]} is not a number a game can hold"

            def big(i: int, v: pl.Series = values) -> str:
                return f"{v[i]} is beyond {LIMIT:,}, the most any number of a game may be"

            if dtype.is_float():
                bad = (values.is_nan() | values.is_infinite()).fill_null(False)
                found.rows(table, column, bad.arg_true().to_list(), odd,
                           "are not finite numbers")
            if (table, column) in ranged_cols:
                continue
            beyond = (values.abs() > LIMIT).fill_null(False)
            if dtype.is_float():
                beyond = beyond & values.is_finite().fill_null(False)
            found.rows(table, column, beyond.arg_true().to_list(), big, f"are beyond {LIMIT:,}")


def _problems_required(state: State, declared: Playable, found: _Found) -> None:
    for req in declared.required:
        for column in req.columns:
            values = state[req.table][column]
            rows = values.is_null().arg_true().to_list()
            found.rows(req.table, column, rows, lambda i: "is empty; the rules need a value",
                       "are empty")


def _problems_unique(state: State, declared: Playable, found: _Found) -> None:
    for u in declared.unique:
        frame = state[u.table].select(u.columns)
        nulls = pl.any_horizontal(pl.col(c).is_null() for c in u.columns)
        for column in u.columns:
            rows = frame[column].is_null().arg_true().to_list()
            found.rows(u.table, column, rows,
                       lambda i: "is empty; each row of the table is named by it",
                       "are empty")
        dup = (frame.is_duplicated() & ~frame.select(nulls).to_series()).arg_true().to_list()
        if not dup:
            continue
        first: dict[tuple[Any, ...], int] = {}
        again: list[int] = []
        keys = frame.rows()
        for i in dup:
            if keys[i] in first:
                again.append(i)
            else:
                first[keys[i]] = i
        names = ", ".join(u.columns)

        def say(i: int) -> str:
            value = keys[i][0] if len(u.columns) == 1 else keys[i]
            return (f"{_show(value)} is on row {first[keys[i]] + 1} too; no two rows of "
                    f"'{u.table}' may share their {names}")

        found.rows(u.table, u.columns[0] if len(u.columns) == 1 else None, again, say,
                   f"repeat their {names}")


def _problems_refers(state: State, ctx: Context, declared: Playable, found: _Found) -> None:
    players = [p.id for p in ctx.players]
    for ref in declared.refers:
        table, cols = _split(ref.source)
        frame = state[table]
        if ref.target == PLAYERS and not players:
            continue  # a context that names no players (a scenario's): nothing to resolve
        if ref.target == PLAYERS:
            targets: set[tuple[Any, ...]] = {(p,) for p in players}
            what = ref.what or "player of the game"
            named = _listed(players)
        else:
            ttable, tcols = _split(ref.target)
            targets = set(state[ttable].select(tcols).unique().rows())
            what = ref.what or f"row of '{ttable}' ({', '.join(tcols)})"
            named = _listed(v[0] if len(v) == 1 else v for v in targets) if len(targets) <= 12 \
                else ""
        targets |= {(a,) for a in ref.also}
        src = frame.select(cols).with_row_index("_row")
        lists = [c for c in cols if _is_list(frame.schema[c])]
        if lists:
            src = src.explode(lists)
        src = src.drop_nulls(list(cols))
        if src.height == 0:
            bad = src
        elif len(targets) > 64 or len(cols) > 1:
            tframe = pl.DataFrame([list(t) for t in targets], schema=[
                (c, src.schema[c]) for c in cols], orient="row") if targets else \
                pl.DataFrame(schema={c: src.schema[c] for c in cols})
            bad = src.join(tframe, on=list(cols), how="anti", nulls_equal=False)
        else:
            bad = src.filter(~pl.col(cols[0]).is_in([t[0] for t in targets]))
        rows = sorted(set(bad["_row"].to_list()))
        values: dict[int, Any] = {}
        for r in bad.iter_rows(named=True):
            values.setdefault(r["_row"], r[cols[0]] if len(cols) == 1
                              else tuple(r[c] for c in cols))
        also = f" or {_listed(ref.also)}" if ref.also else ""
        hint = f" ({named}{also})" if named else ""
        found.rows(table, cols[0] if len(cols) == 1 else None, rows,
                   lambda i: f"{_show(values[i])} names no {what}{hint}",
                   f"name no {what}")
        if ref.every:
            have = set(src.select(cols).unique().rows())
            for missing in sorted(targets - have - {(a,) for a in ref.also}, key=str):
                value = missing[0] if len(missing) == 1 else missing
                found.out.append(StateProblem(table, None, cols[0] if len(cols) == 1 else None,
                                              f"no row names {_show(value)}, a {what}; each "
                                              "has its row"))


def _problems_ranges(state: State, ctx: Context, declared: Playable, found: _Found) -> None:
    for g in declared.ranges:
        table, cols = _split(g.where)
        low, low_words = _bound(g.low, ctx.rules)
        high, high_words = _bound(g.high, ctx.rules)
        low = -LIMIT if low is None else low
        high = LIMIT if high is None else high
        low_words = low_words or f"-{LIMIT:,}"
        high_words = high_words or f"{LIMIT:,}"
        rule = f" ({g.rule})" if g.rule else ""
        for column in cols:
            values = state[table][column]
            src = pl.DataFrame({"v": values}).with_row_index("_row")
            if _is_list(values.dtype):
                src = src.explode("v")
            v = pl.col("v")
            out = (v < low) | (v > high)
            if src.schema["v"].is_float():
                out = out & v.is_finite()
            bad = src.drop_nulls("v").filter(out)
            first: dict[int, Any] = {}
            for r, x in bad.iter_rows():
                first.setdefault(r, x)
            found.rows(table, column, sorted(first),
                       lambda i: f"{first[i]} is not from {low_words} to {high_words}{rule}",
                       f"are not from {low_words} to {high_words}")


def _problems_one_of(state: State, declared: Playable, found: _Found) -> None:
    for g in declared.one_of:
        table, cols = _split(g.where)
        rule = f" ({g.rule})" if g.rule else ""
        for column in cols:
            values = state[table][column]
            src = pl.DataFrame({"v": values}).with_row_index("_row")
            if _is_list(values.dtype):
                src = src.explode("v")
            bad = src.drop_nulls("v").filter(~pl.col("v").is_in(list(g.choices)))
            first: dict[int, Any] = {}
            for r, v in bad.iter_rows():
                first.setdefault(r, v)
            found.rows(table, column, sorted(first),
                       lambda i: f"{_show(first[i])} is not one of "
                       f"{', '.join(g.choices)}{rule}", "hold words the rules do not use")


def _problems_rows(state: State, ctx: Context, declared: Playable, found: _Found) -> None:
    for n in declared.rows:
        height = state[n.table].height
        low, low_words = _bound(n.low, ctx.rules)
        high, high_words = _bound(n.high, ctx.rules)
        rule = f" ({n.rule})" if n.rule else ""
        if low is not None and height < low:
            found.out.append(StateProblem(n.table, None, None, f"{height} row(s); the rules "
                                          f"need at least {low_words}{rule}"))
        if high is not None and height > high:
            found.out.append(StateProblem(n.table, None, None, f"{height} row(s); the rules "
                                          f"allow at most {high_words}{rule}"))


def state_problems(declared: Playable, state: State, ctx: Context,
                   schemas: Mapping[str, Schema]) -> list[StateProblem]:
    """Every reason the rules cannot play ``state`` (its tables already of ``schemas``'
    columns and types): the defaults for numbers, then ``declared``'s data, then, when those
    found nothing, its cross-row ``check``."""
    found = _Found(state.tables)
    _problems_of_schema(state, schemas, declared, found)
    _problems_required(state, declared, found)
    _problems_unique(state, declared, found)
    _problems_refers(state, ctx, declared, found)
    _problems_ranges(state, ctx, declared, found)
    _problems_one_of(state, declared, found)
    _problems_rows(state, ctx, declared, found)
    if not found.out and declared.check is not None:
        found.out.extend(declared.check(state, ctx))
    return found.out


def row_problems(table: str, frame: pl.DataFrame, rows: Iterable[int], column: str | None,
                 say: Callable[[int], str], more: str = "are alike") -> list[StateProblem]:
    """Problems on ``rows`` (0-based) of ``frame``, for a cross-row check: each named by its
    row and first cell, ``say(row)`` its words, at most :data:`ROWS_NAMED` named."""
    found = _Found({table: frame})
    found.rows(table, column, sorted(set(rows)), say, more)
    return found.out
