"""State tables: the frames a ruleset keeps per turn, and the schemas they are checked against.

A :class:`State` is a value: a turn number and a mapping of table name to polars frame. Steps
return new states; nothing mutates one in place. Every table has a declared schema, checked on
write and on read, so a malformed file is reported rather than half-read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
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


@dataclass(frozen=True)
class State:
    """A game's state at one point of a turn: ``turn`` and its named tables."""

    turn: int
    tables: Mapping[str, pl.DataFrame] = field(default_factory=dict)
    #: Structures derived from these tables, handed on to whatever resolves from this state next
    #: (see :meth:`carry`); never compared, shown or stored.
    _carried: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tables", MappingProxyType(dict(self.tables)))

    def carry(self, key: str, value: Any) -> State:
        """This state, carrying ``value``: a structure a ruleset derived from exactly these
        tables (Aeternus's world with its masses), so the next action resolved from this state
        takes it instead of rebuilding it from the tables. It is handed over once (:meth:`take`
        removes it): a state resolved from again, after a step back, rebuilds from its tables,
        and a state made by :meth:`replace` carries nothing."""
        self._carried[key] = value
        return self

    def take(self, key: str) -> Any | None:
        """What this state carries under ``key`` (see :meth:`carry`), handed over: None when it
        carries nothing or it was taken already."""
        return self._carried.pop(key, None)

    def __getitem__(self, name: str) -> pl.DataFrame:
        return self.tables[name]

    def replace(self, turn: int | None = None, **tables: pl.DataFrame) -> State:
        """A new state with some tables (or the turn number) replaced."""
        return State(self.turn if turn is None else turn, {**self.tables, **tables})

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
