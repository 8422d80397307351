"""A starting position given as tables: a game begun on paper, a scenario, a tutorial.

A position is a folder with one file per state table of the ruleset, named after the table:
``<table>.parquet``, or ``<table>.csv`` for a table without list columns (a header line, then
one line per row; an empty field is null), each a regular file of at most
:data:`MAX_POSITION_BYTES` and :data:`MAX_POSITION_ROWS` rows. :func:`read_position` reads such a
folder and checks every table against the ruleset's schemas, then the state against what the
rules can play (``Ruleset.state_problems``, given as ``check``), reporting every problem at once,
each naming its file, row and column; :func:`write_position` writes a state out as one (to start
a scenario from a game's position, say).
"""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Callable, Mapping
from pathlib import Path

import polars as pl

from gmkit.game.changes import GameError
from gmkit.core.files import atomic_write, parquet_bytes
from gmkit.core.playable import StateProblem
from gmkit.core.tables import Schema, State

#: At most this many rows are named per column; the rest are counted.
ROWS_NAMED = 10

#: The largest file of a position gmkit reads: 32 MiB (an Aeternus world of 100,000 hexes is
#: about 1 MB as Parquet; ``bench/position_limits.py`` measures it).
MAX_POSITION_BYTES = 32 * 1024 * 1024

#: The most rows a table of a position may hold: a million (ten 100,000-hex worlds).
MAX_POSITION_ROWS = 1_000_000

#: What the rules say of a state: every reason they cannot play it (``Ruleset.state_problems``
#: with the game's context).
StateCheck = Callable[[State], list[StateProblem]]

_TRUE = {"true", "1", "yes", "t", "y"}
_FALSE = {"false", "0", "no", "f", "n"}


class PositionError(GameError):
    """A given position that does not fit the ruleset's schemas; ``problems`` holds one line per
    problem, each naming the file, and the row and column where there is one."""

    def __init__(self, problems: list[str]):
        super().__init__("\n".join(problems))
        self.problems = problems


def nested(dtype: pl.DataType | type[pl.DataType]) -> bool:
    """Whether a column of ``dtype`` holds lists or records (so its table needs Parquet)."""
    return isinstance(dtype, (pl.List, pl.Array, pl.Struct)) or dtype in (pl.List, pl.Array,
                                                                          pl.Struct)


def read_position(folder: str | Path, schemas: Mapping[str, Schema], turn: int = 0,
                  check: StateCheck | None = None) -> State:
    """The state given by the tables in ``folder``, as of ``turn``, checked against
    ``schemas`` and then by ``check`` (what the rules can play).

    Raises:
        PositionError: naming every problem: a table missing, given twice or unknown, a file
            too large or not a regular file, a column missing or unexpected, a cell that is
            not of its column's type, a state the rules cannot play (file, row, column).
    """
    root = Path(folder)
    if not root.is_dir():
        raise PositionError([f"{root}: no such folder (a position is a folder of tables, one "
                             "<table>.parquet or <table>.csv each)"])
    problems: list[str] = []
    frames: dict[str, pl.DataFrame] = {}
    files: dict[str, str] = {}
    names = sorted(schemas)
    for path in sorted(root.iterdir()):
        if path.suffix.lower() in (".parquet", ".csv") and path.stem not in schemas:
            problems.append(f"{path}: no table '{path.stem}' in this ruleset's state (tables: "
                            f"{', '.join(names)})")
    for name in names:
        found = [p for p in (root / f"{name}.parquet", root / f"{name}.csv") if p.exists()]
        if not found:
            problems.append(f"{root / name}.parquet: table '{name}' is missing (give it as "
                            f"{name}.parquet, or {name}.csv with its header line: "
                            f"{','.join(schemas[name])})")
            continue
        if len(found) > 1:
            problems.append(f"{found[1]}: table '{name}' is given twice (also {found[0].name})")
            continue
        frame = _read(found[0], schemas[name], problems)
        if frame is not None:
            frames[name] = frame
            files[name] = str(found[0])
    if problems:
        raise PositionError(problems)
    return _checked(State(turn, frames), files, check)


def _checked(state: State, sources: Mapping[str, str], check: StateCheck | None) -> State:
    """``state`` when ``check`` finds nothing wrong with it; else :class:`PositionError` with
    a line per problem, naming the file (``sources``) of its table."""
    found = check(state) if check is not None else []
    if found:
        raise PositionError([p.line(sources.get(p.table)) for p in found])
    return state


def check_tables(tables: Mapping[str, pl.DataFrame], schemas: Mapping[str, Schema],
                 turn: int = 0, source: str = "state", check: StateCheck | None = None
                 ) -> State:
    """``tables`` (frames given from Python) checked against ``schemas`` like a position
    folder's files, as the state of ``turn``, then by ``check`` (what the rules can play).

    Raises:
        PositionError: naming every problem (``source/<table>``, row and column).
    """
    problems: list[str] = []
    for name in tables:
        if name not in schemas:
            problems.append(f"{source}/{name}: no table '{name}' in this ruleset's state "
                            f"(tables: {', '.join(sorted(schemas))})")
    frames: dict[str, pl.DataFrame] = {}
    for name, schema in schemas.items():
        if name not in tables:
            problems.append(f"{source}/{name}: table '{name}' is missing")
            continue
        if tables[name].height > MAX_POSITION_ROWS:
            problems.append(f"{source}/{name}: {tables[name].height:,} rows, more than "
                            f"{MAX_POSITION_ROWS:,}, the most a table of a position may hold")
            continue
        frame = _fit(tables[name], schema, f"{source}/{name}", problems, csv=False)
        if frame is not None:
            frames[name] = frame
    if problems:
        raise PositionError(problems)
    return _checked(State(turn, frames), {n: f"{source}/{n}" for n in frames}, check)


def write_position(state: State, folder: str | Path) -> list[Path]:
    """Write ``state``'s tables into ``folder`` as a position: CSV for a table without list
    columns, Parquet otherwise. Returns the files written."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    out = []
    for name, frame in state.tables.items():
        if any(nested(t) for t in frame.schema.values()):
            path = root / f"{name}.parquet"
            atomic_write(path, parquet_bytes(frame))
        else:
            path = root / f"{name}.csv"
            atomic_write(path, frame.write_csv().encode("utf-8"))
        out.append(path)
    return out


def _read(path: Path, schema: Schema, problems: list[str]) -> pl.DataFrame | None:
    """One table file, fitted to ``schema``; its problems added to ``problems``."""
    csv = path.suffix.lower() == ".csv"
    data = _file_bytes(path, problems)
    if data is None:
        return None
    try:
        if csv:
            rows = data.count(b"\n") + (0 if data.endswith(b"\n") else 1) - 1
        else:
            rows = pl.scan_parquet(io.BytesIO(data)).select(pl.len()).collect().item()
        if rows > MAX_POSITION_ROWS:
            problems.append(f"{path}: {rows:,} rows, more than {MAX_POSITION_ROWS:,}, the most "
                            "a table of a position may hold")
            return None
        if csv:
            frame = pl.read_csv(io.BytesIO(data), infer_schema=False, raise_if_empty=False)
        else:
            frame = pl.read_parquet(io.BytesIO(data))
    except Exception as e:  # noqa: BLE001  (polars raises several kinds for an unreadable file)
        problems.append(f"{path}: cannot be read as {'CSV' if csv else 'Parquet'}: "
                        f"{str(e).splitlines()[0] if str(e) else type(e).__name__}")
        return None
    return _fit(frame, schema, str(path), problems, csv=csv)


def _file_bytes(path: Path, problems: list[str]) -> bytes | None:
    """The bytes of a position file: a regular file (never a pipe or a device) of at most
    :data:`MAX_POSITION_BYTES`; else None with the problem added to ``problems``."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            problems.append(f"{path}: not a regular file")
            return None
        if st.st_size > MAX_POSITION_BYTES:
            problems.append(f"{path}: {st.st_size:,} bytes, more than {MAX_POSITION_BYTES:,}, "
                            "the most a file of a position may be")
            return None
        with open(path, "rb") as f:
            data = f.read(MAX_POSITION_BYTES + 1)
    except OSError as e:
        problems.append(f"{path}: cannot be read: {e.strerror or e}")
        return None
    if len(data) > MAX_POSITION_BYTES:
        problems.append(f"{path}: more than {MAX_POSITION_BYTES:,} bytes, the most a file of a "
                        "position may be")
        return None
    return data


def _fit(frame: pl.DataFrame, schema: Schema, source: str, problems: list[str], *,
         csv: bool) -> pl.DataFrame | None:
    """``frame`` with its columns in schema order and of the schema's types, or None with every
    problem added to ``problems``."""
    before = len(problems)
    for column in frame.columns:
        if column not in schema:
            problems.append(f"{source}: column '{column}' is not one of the table's "
                            f"({', '.join(schema)})")
    columns: list[pl.Series] = []
    for column, dtype in schema.items():
        if column not in frame.columns:
            problems.append(f"{source}: column '{column}' is missing")
            continue
        have = frame[column]
        if csv and nested(dtype):
            problems.append(f"{source}: column '{column}' holds lists ({dtype}): give this "
                            "table as Parquet")
            continue
        fitted = _cast(have, dtype, source, problems)
        if fitted is not None:
            columns.append(fitted)
    if len(problems) > before:
        return None
    return pl.DataFrame(columns)


def _cast(values: pl.Series, dtype: pl.DataType | type[pl.DataType], source: str,
          problems: list[str]) -> pl.Series | None:
    """``values`` as ``dtype``: every cell that does not read as one named by row and
    column."""
    if values.dtype == dtype:
        return values
    column = values.name
    try:
        if dtype == pl.Boolean and values.dtype == pl.String:
            low = values.str.strip_chars().str.to_lowercase()
            cast = pl.Series(column, [None if v is None else (True if v in _TRUE else False
                                      if v in _FALSE else None) for v in low.to_list()],
                             dtype=pl.Boolean)
        elif values.dtype == pl.String and dtype != pl.String:
            cast = values.str.strip_chars().cast(dtype, strict=False)
        else:
            cast = values.cast(dtype, strict=False)
    except Exception:  # noqa: BLE001  (a cast polars does not offer)
        problems.append(f"{source}: column '{column}' is {values.dtype}, not {dtype}")
        return None
    lost = values.is_not_null() & cast.is_null()
    if values.dtype.is_float() and cast.dtype.is_integer():  # 2.5 is no whole number
        lost = lost | (values.is_not_null() & (cast.cast(pl.Float64) != values).fill_null(True))
    bad = lost.arg_true().to_list()
    for row in bad[:ROWS_NAMED]:
        problems.append(f"{source}: row {row + 1}, column '{column}': {values[row]!r} is not "
                        f"a {_type_words(dtype)}")
    if len(bad) > ROWS_NAMED:
        problems.append(f"{source}: column '{column}': {len(bad) - ROWS_NAMED} more row(s) are "
                        f"not a {_type_words(dtype)}")
    return None if bad else cast


def _type_words(dtype: pl.DataType | type[pl.DataType]) -> str:
    """A column type in a GM's words."""
    if dtype in (pl.Int8, pl.Int16, pl.Int32, pl.Int64, pl.UInt8, pl.UInt16, pl.UInt32,
                 pl.UInt64):
        return "whole number"
    if dtype in (pl.Float32, pl.Float64):
        return "number"
    if dtype == pl.Boolean:
        return "true or false"
    return str(dtype)
