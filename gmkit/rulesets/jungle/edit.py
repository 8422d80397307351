"""Small value-returning edits of a state's rows, shared by the action effects."""

from __future__ import annotations

from typing import Any

from gmkit.core.tables import State
from gmkit.rulesets.jungle.state import Row, frame, rows


def update(state: State, table: str, key: str, value: Any, **changes: Any) -> State:
    """The state with the rows of ``table`` whose ``key`` is ``value`` changed."""
    out = rows(state, table)
    for r in out:
        if r[key] == value:
            r.update(changes)
    return State(state.turn, {**state.tables, table: frame(out, table)})


def append(state: State, table: str, *new: Row) -> State:
    """The state with rows added to ``table``."""
    return State(state.turn, {**state.tables, table: frame(rows(state, table) + list(new), table)})


def char(state: State, name: str) -> Row:
    """One character's row (a copy)."""
    return next(r for r in rows(state, "characters") if r["name"] == name)


def house(state: State, name: str) -> Row:
    """One house's row (a copy)."""
    return next(r for r in rows(state, "houses") if r["house"] == name)


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
    return [r for r in rows(state, "characters") if r["house"] == house_name and r["alive"]]
