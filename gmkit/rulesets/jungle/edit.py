"""Small value-returning edits of a state's rows, shared by the action effects."""

from __future__ import annotations

from typing import Any

import polars as pl

from gmkit.core.tables import State
from gmkit.rulesets.jungle.state import SCHEMAS, Row, frame, rows


def update(state: State, table: str, key: str, value: Any, **changes: Any) -> State:
    """The state with the rows of ``table`` whose ``key`` is ``value`` changed."""
    df, schema = state[table], SCHEMAS[table]
    if value is not None and dict(df.schema) == dict(schema) \
            and not any(isinstance(schema[k], pl.List) for k in changes):
        # the common case, column by column (a session edits its 300 characters' rows
        # thousands of times): the rows found in the key column as a list, each changed
        # column copied and set there; the row-by-row path below is the same edit
        try:
            hits = [i for i, x in enumerate(df.get_column(key).to_list()) if x == value]
            out_df = df.clone()
            for k, v in changes.items():
                column = df.get_column(k).clone()
                if hits:
                    column.scatter(hits, pl.Series([v] * len(hits), dtype=schema[k]))
                out_df.replace_column(df.get_column_index(k), column)
            return State(state.turn, {**state.tables, table: out_df})
        except (pl.exceptions.PolarsError, TypeError, ValueError, OverflowError):
            pass
    out = rows(state, table)
    for r in out:
        if r[key] == value:
            r.update(changes)
    return State(state.turn, {**state.tables, table: frame(out, table)})


def append(state: State, table: str, *new: Row) -> State:
    """The state with rows added to ``table``."""
    return State(state.turn, {**state.tables, table: frame(rows(state, table) + list(new), table)})


def _row(df: pl.DataFrame, key: str, value: str) -> Row:
    """The first row of ``df`` whose ``key`` is ``value`` (a copy), found in the key column
    as a list: a session looks characters up thousands of times, and a filter costs a query
    each time."""
    try:
        return df.row(df.get_column(key).to_list().index(value), named=True)
    except ValueError:
        raise StopIteration(value) from None


def char(state: State, name: str) -> Row:
    """One character's row (a copy)."""
    return _row(state["characters"], "name", name)


def house(state: State, name: str) -> Row:
    """One house's row (a copy)."""
    return _row(state["houses"], "house", name)


def add_to(state: State, character: str, **deltas: int) -> State:
    """Add to a character's attributes, never below zero."""
    me = char(state, character)
    return update(state, "characters", "name", character,
                  **{k: max(0, me[k] + v) for k, v in deltas.items()})


def add_to_house(state: State, name: str, **deltas: int) -> State:
    """Add to a house's food or gold, never below zero."""
    h = house(state, name)
    return update(state, "houses", "house", name, **{k: max(0, h[k] + v) for k, v in deltas.items()})


def members(state: State, house_name: str) -> list[Row]:
    """The living characters of a house."""
    return state["characters"].filter((pl.col("house") == house_name)
                                      & pl.col("alive")).to_dicts()
