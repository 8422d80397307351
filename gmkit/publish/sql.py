"""SQL over a game folder: every table across every turn as DuckDB views, read and checked once.

An analyst asks questions of a whole game in SQL without reading its files by hand::

    from gmkit.publish import sql
    sql.query("data/sample-cien", "SELECT turn, id, income FROM players ORDER BY turn, id")
    con = sql.views("data/sample-cien")          # an in-memory DuckDB connection to explore
    sql.export("data/sample-cien", "out/cien-sql")   # the same views as Parquet files

In the connection, every table of the game is a view across every committed turn: each state
table of the ruleset, and ``orders``, ``rolls`` and ``events``. Each has a ``turn`` and a
``revision`` column and holds the current (latest) revision of each turn only; ``revisions`` lists
every revision of every turn with the sha256 of its manifest. Stored values are decoded:
``rolls.result`` and ``events.data`` are DuckDB ``JSON`` (``data->>'gain'``), ``orders.received``
and ``orders.posted`` and every state column the ruleset declares a time
(:attr:`~gmkit.core.ruleset.Ruleset.times`: Aeternus's ``players.joined``, ``proposals.ends``...)
are ``TIMESTAMP WITH TIME ZONE`` (the connection's time zone is UTC). ``rolls`` and ``events``
also get ``position``, the row's place in its turn's log as this view shows it (from 1), so the
log's order survives any query.

The view is the public one unless ``gm=True`` or another ``view`` (``"player:Red"``) is asked
for: every state table passes through the ruleset's ``view`` (the one door for hidden
information), and the posts, rolls and events are those the viewer may see (the public sees no
secret post and no hidden roll or event; a player also their own). A value the viewer may not see
is never copied into the connection, so no query can bring it back.

Every file is read through the store's verified reading: each current revision's files are
checked against their manifest hashes and schemas before anything is loaded, and a tampered file
raises the store's error naming it; a connection is made only once every turn has been read, so
nothing is half-read. The game folder is never written: the views live in memory, and
:func:`export` refuses to write inside the game folder.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from gmkit.core.tables import LOG_SCHEMAS
from gmkit.core.files import StoreError
from gmkit.core.views import Viewer, visible_events, visible_orders, visible_rolls
from gmkit.game import Game, GameError

__all__ = ["LOGS", "SqlError", "export", "query", "read_tables", "views"]

#: The logs every game keeps beside its state tables.
LOGS = tuple(LOG_SCHEMAS)

#: The schema holding the loaded (decoded) rows; the views in ``main`` select from it.
_LOADED = "gmkit_loaded"

#: How a stored text column is decoded, per log: column -> (DuckDB type, what it must be).
_DECODE: Mapping[str, Mapping[str, tuple[str, str]]] = {
    "orders": {"received": ("TIMESTAMPTZ", "a timestamp"),
               "posted": ("TIMESTAMPTZ", "a timestamp")},
    "rolls": {"result": ("JSON", "JSON")},
    "events": {"data": ("JSON", "JSON")},
}

REVISIONS_SCHEMA = {"turn": pl.Int64, "revision": pl.Int64, "current": pl.Boolean,
                    "folder": pl.String, "manifest_hash": pl.String, "previous": pl.String,
                    "seed_commitment": pl.String, "outcome": pl.String}


class SqlError(GameError):
    """A query DuckDB cannot run (bad SQL, an unknown table or column); the message says why."""


class _Stream:
    """A polars frame offered to DuckDB through the Arrow stream interface (no pyarrow needed);
    it can be scanned more than once."""

    def __init__(self, frame: pl.DataFrame):
        self.frame = frame

    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        return self.frame.__arrow_c_stream__(requested_schema)


def _game(game: Game | str | Path) -> Game:
    return game if isinstance(game, Game) else Game.open(game)


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _numbered(log: pl.DataFrame) -> pl.DataFrame:
    """A log with ``position``, each row's place in it from 1 (counted in the view at hand, so
    the public view does not show where hidden rows were)."""
    return log.with_row_index("position", offset=1).with_columns(pl.col("position")
                                                                 .cast(pl.Int64))


def read_tables(game: Game | str | Path, *, gm: bool = False,
                view: str | Viewer | None = None,
                progress: Callable[[int, int], None] | None = None) -> dict[str, pl.DataFrame]:
    """Every table of the game across every turn as polars frames, as stored (text columns not
    yet decoded), in the public view unless ``gm``: the state tables, then ``orders``, ``rolls``,
    ``events`` (each with ``turn`` and ``revision`` first, current revisions only) and
    ``revisions``. Every current revision's files are checked before this returns.
    ``progress(done, total)`` is told of each turn read."""
    g = _game(game)
    viewer = Viewer.parse(view if view is not None else ("gm" if gm else "public"))
    names = [*g.ruleset.schemas, *LOGS]
    for name in g.ruleset.schemas:
        if name in LOGS or name == "revisions":
            raise StoreError(f"the ruleset's state table '{name}' has the name of a log or "
                             "of the revisions; it cannot be given a view of its own")
    parts: dict[str, list[pl.DataFrame]] = {name: [] for name in names}
    revisions = []
    turns = g.store.turns()
    for done, turn in enumerate(turns, 1):
        data = g.store.read_turn(turn)
        # the one door: the state, posts, rolls and events as the viewer may see them
        state = g.viewed(data.state, viewer)
        orders = visible_orders(data.orders, viewer)
        rolls, events = visible_rolls(data.rolls, viewer), visible_events(data.events, viewer)
        # each table's rows that stand for someone (not Cien's free colours, say)
        tables = {name: g.ruleset.views.occupied(name, t) for name, t in state.tables.items()}
        frames = {**tables, "orders": orders,
                  "rolls": _numbered(rolls), "events": _numbered(events)}
        for name in names:
            frame = frames[name]
            for column in ("turn", "revision"):
                if column in frame.columns:
                    raise StoreError(f"table '{name}' has a column '{column}' of its own; it "
                                     "cannot be shown across turns")
            parts[name].append(frame.select(pl.lit(turn, pl.Int64).alias("turn"),
                                            pl.lit(data.revision, pl.Int64).alias("revision"),
                                            pl.all()))
        for rev in g.store.revisions(turn):
            manifest = g.store.manifest(turn, rev)
            current = rev == data.revision
            revisions.append({
                "turn": turn, "revision": rev, "current": current,
                "folder": g.store.turn_path(turn, rev).relative_to(g.root).as_posix(),
                "manifest_hash": data.manifest_hash if current else
                g.store.manifest_hash(turn, rev),
                "previous": manifest.get("previous"),
                "seed_commitment": manifest.get("seed_commitment"),
                "outcome": manifest.get("outcome")})
        if progress is not None:
            progress(done, len(turns))
    out = {}
    for name in names:
        if parts[name]:
            out[name] = pl.concat(parts[name], how="vertical_relaxed")
        else:
            schema = {**g.ruleset.schemas, **LOG_SCHEMAS}[name]
            extra = {"position": pl.Int64} if name in ("rolls", "events") else {}
            out[name] = pl.DataFrame(schema={"turn": pl.Int64, "revision": pl.Int64, **extra,
                                             **schema})
    out["revisions"] = pl.DataFrame(revisions, schema=REVISIONS_SCHEMA, orient="row")
    return out


def _undecodable(con: duckdb.DuckDBPyConnection, column: str, kind: str) -> Any:
    """The first stored value of ``column`` that is not valid as ``kind``, with its turn."""
    test = (f"json_valid({_quote(column)}) IS NOT TRUE" if kind == "JSON"
            else f"TRY_CAST({_quote(column)} AS {kind}) IS NULL")
    return con.execute(f"SELECT turn, revision, {_quote(column)} FROM _source "
                       f"WHERE {_quote(column)} IS NOT NULL AND {test} "
                       "ORDER BY turn LIMIT 1").fetchone()


def _load(con: duckdb.DuckDBPyConnection, g: Game, name: str, frame: pl.DataFrame) -> None:
    """Load one table into the connection, decoding its stored text columns, and make its
    view."""
    decode = {**_DECODE.get(name, {}),
              **{c: ("TIMESTAMPTZ", "a timestamp") for c in g.ruleset.times.get(name, ())
                 if c in frame.columns}}
    con.register("_source", _Stream(frame))
    try:
        for column, (kind, meaning) in decode.items():
            bad = _undecodable(con, column, kind)
            if bad is not None:
                turn, revision, value = bad
                folder = g.store.turn_path(turn, revision)
                raise StoreError(f"{folder / f'{name}.parquet'}: {column} {value!r} is not "
                                 f"{meaning}")
        replace = ", ".join(f"CAST({_quote(c)} AS {kind}) AS {_quote(c)}"
                            for c, (kind, _) in decode.items())
        select = f"* REPLACE ({replace})" if replace else "*"
        con.execute(f"CREATE TABLE {_LOADED}.{_quote(name)} AS SELECT {select} FROM _source")
    finally:
        con.unregister("_source")
    con.execute(f"CREATE VIEW main.{_quote(name)} AS SELECT * FROM {_LOADED}.{_quote(name)}")


def views(game: Game | str | Path, *, gm: bool = False,
          view: str | Viewer | None = None,
          progress: Callable[[int, int], None] | None = None) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection in which every table of the game is a view across every
    turn (see the module's description), in the public view unless ``gm``. Raises the store's
    error, naming the file, when a file does not match its manifest; the game folder is only
    read."""
    g = _game(game)
    tables = read_tables(g, gm=gm, view=view, progress=progress)
    con = duckdb.connect(":memory:")
    try:
        con.execute("SET TimeZone = 'UTC'")
        con.execute(f"CREATE SCHEMA {_LOADED}")
        for name, frame in tables.items():
            _load(con, g, name, frame)
    except BaseException:
        con.close()
        raise
    return con


def query(game: Game | str | Path, sql: str, *, gm: bool = False,
          view: str | Viewer | None = None,
          progress: Callable[[int, int], None] | None = None) -> pl.DataFrame:
    """Run ``sql`` over the game's views (public unless ``gm``) and return the result.

    The query sees the views only: reading or writing files from SQL is switched off, so it can
    neither bypass the checked views nor touch the game folder. Raises :class:`SqlError` when
    DuckDB cannot run the query."""
    con = views(game, gm=gm, view=view, progress=progress)
    try:
        con.execute("SET enable_external_access = false")
        try:
            result = con.sql(sql)
            return pl.DataFrame() if result is None else pl.DataFrame(result)
        except duckdb.Error as e:
            raise SqlError(str(e).strip()) from None
    finally:
        con.close()


def export(game: Game | str | Path, out_dir: str | Path, *, gm: bool = False,
           view: str | Viewer | None = None,
           progress: Callable[[int, int], None] | None = None) -> list[Path]:
    """Write every view (public unless ``gm``) as a Parquet file ``<table>.parquet`` in
    ``out_dir`` and return their paths. Each file is written aside and renamed into place. The
    folder must lie outside the game folder."""
    g = _game(game)
    out = Path(out_dir)
    if out.resolve().is_relative_to(g.root.resolve()):
        raise GameError(f"{out}: inside the game folder, whose files are never touched; "
                        "export somewhere else")
    con = views(g, gm=gm, view=view, progress=progress)
    written = []
    try:
        out.mkdir(parents=True, exist_ok=True)
        names = [r[0] for r in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' "
            "AND table_type = 'VIEW'").fetchall()]
        order = [*g.ruleset.schemas, *LOGS, "revisions"]
        for name in sorted(names, key=order.index):
            target = out / f"{name}.parquet"
            staging = out / f".{name}.parquet.partial"
            try:
                con.execute(f"COPY (SELECT * FROM main.{_quote(name)}) TO "
                            f"{_literal(str(staging))} (FORMAT parquet)")
                os.replace(staging, target)
            except BaseException:
                with contextlib.suppress(FileNotFoundError):
                    staging.unlink()
                raise
            written.append(target)
    finally:
        con.close()
    return written
