"""Corrections between turns: a GM's erratum or ruling on the state, without a rollback.

A correction sets one cell of a state table (``KEY: COLUMN=VALUE``) in the state the coming turn
starts from. It is recorded with the rule and player changes in ``pending/changes.json`` (kind
``correction``, with the turn it applies to, the old value and why), applied before the turn
resolves (after a player change has been brought in), kept in that turn's manifest so ``verify``
replays it, and shown in the turn's GM report, and in its public report where the ruleset's
public view shows the cell. Nothing committed is rewritten.

A row is named by the value of its table's first column (``Red: gold=12``), by ``COLUMN=VALUE``
pairs where that is not enough (``q=3,r=-1: biome=lake``), or not at all in a table of one row
(``: emperor_alive=false``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from typing import Any

import polars as pl

from gmkit.game.changes import GameError
from gmkit.core.parts import Context
from gmkit.core.playable import StateProblem
from gmkit.core.ruleset import Ruleset
from gmkit.core.tables import State
from gmkit.core.views import Viewer
from gmkit.game.position import nested

_SETTING = re.compile(r"^(?P<key>.*?):\s*(?P<column>[A-Za-z_][A-Za-z0-9_]*)\s*=(?P<value>.*)$",
                      re.DOTALL)
_PAIR = re.compile(r"^\s*(?P<column>[A-Za-z_][A-Za-z0-9_]*)\s*=(?P<value>.*)$")


def parse_setting(text: str) -> tuple[str, str, str]:
    """``KEY: COLUMN=VALUE`` as its key, column and value texts (each stripped)."""
    m = _SETTING.match(text.strip())
    if m is None:
        raise GameError(f"--set {text!r}: write 'KEY: COLUMN=VALUE' (e.g. 'Red: gold=12', or "
                        "'q=3,r=-1: biome=lake')")
    return m["key"].strip(), m["column"], m["value"].strip()


def cell_value(raw: str, dtype: Any, where: str) -> Any:
    """``raw`` read as a value of ``dtype`` (JSON for a list or record column; empty or
    ``null`` for null), as plain Python."""
    if raw == "" or raw.lower() == "null":
        return None
    if nested(dtype):
        try:
            parsed = json.loads(raw)
            return pl.Series("v", [parsed], dtype=dtype).to_list()[0]
        except (ValueError, TypeError, pl.exceptions.PolarsError) as e:
            raise GameError(f"{where}: {raw!r} is not a {dtype} (write it as JSON, e.g. "
                            f"[\"a\", \"b\"]): {e}") from None
    if dtype == pl.String:
        return raw
    if dtype == pl.Boolean:
        low = raw.lower()
        if low in ("true", "false"):
            return low == "true"
        raise GameError(f"{where}: {raw!r} is not true or false")
    cast = pl.Series("v", [raw]).cast(dtype, strict=False)
    if cast[0] is None:
        words = "a whole number" if dtype.is_integer() else "a number" if dtype.is_float() \
            else f"a {dtype}"
        raise GameError(f"{where}: {raw!r} is not {words}")
    return cast.to_list()[0]


def _key(ruleset: Ruleset[Any], table: str, key: str) -> dict[str, Any]:
    """The columns and values naming a row, from the key text."""
    schema = ruleset.schemas[table]
    if not key:
        return {}
    if "=" not in key:
        first = next(iter(schema))
        return {first: cell_value(key, schema[first], f"table '{table}', key")}
    out: dict[str, Any] = {}
    for part in key.split(","):
        m = _PAIR.match(part)
        if m is None or m["column"] not in schema:
            raise GameError(f"table '{table}': {part.strip()!r} names no column of it (columns: "
                            f"{', '.join(schema)})")
        out[m["column"]] = cell_value(m["value"].strip(), schema[m["column"]],
                                      f"table '{table}', key column '{m['column']}'")
    return out


def _row(frame: pl.DataFrame, key: Mapping[str, Any], table: str) -> int:
    """The index of the one row of ``frame`` that ``key`` names."""
    rows = _matching(frame, key).arg_true().to_list()
    named = ", ".join(f"{c}={v}" for c, v in key.items()) or "(no key)"
    if not rows:
        first = frame.columns[0] if frame.columns else ""
        some = ", ".join(str(v) for v in frame[first].head(8).to_list()) if first else ""
        raise GameError(f"table '{table}' has no row {named}" +
                        (f" (its rows by {first}: {some}{', ...' if frame.height > 8 else ''})"
                         if some else " (it is empty)"))
    if len(rows) > 1:
        raise GameError(f"table '{table}': {named} names {len(rows)} rows; name one by more "
                        f"columns, e.g. '{', '.join(f'{c}=...' for c in frame.columns[:2])}: "
                        "COLUMN=VALUE'")
    return int(rows[0])


def _set(state: State, table: str, row: int, column: str, value: Any) -> State:
    frame = state[table]
    values = frame[column].to_list()
    values[row] = value
    return State(state.turn, {**state.tables, table: frame.with_columns(
        pl.Series(column, values, dtype=frame.schema[column]))})


def apply_correction(ruleset: Ruleset[Any], state: State, correction: Mapping[str, Any]
                     ) -> State:
    """``state`` with one recorded correction applied (raises GameError when its row is no
    longer there)."""
    table, column = str(correction.get("table")), str(correction.get("column"))
    if table not in state.tables or column not in state[table].columns:
        raise GameError(f"the correction of {table}.{column} names no table or column of the "
                        "state")
    key = dict(correction.get("key") or {})
    row = _row(state[table], key, table)
    return _set(state, table, row, column, correction.get("value"))


def apply_corrections(ruleset: Ruleset[Any], state: State,
                      corrections: Sequence[Mapping[str, Any]]) -> State:
    """``state`` with ``corrections`` (records of kind ``correction``, others passed over)
    applied in order."""
    for c in corrections:
        if isinstance(c, Mapping) and c.get("kind") == "correction":
            state = apply_correction(ruleset, state, c)
    return state


def make_correction(ruleset: Ruleset[Any], state: State, table: str, setting: str, why: str,
                    turn: int, ctx: Context | None = None) -> dict[str, Any]:
    """The record of a correction of ``state`` (the coming turn's start, earlier corrections
    applied) for turn ``turn``: checked against the table's rows and columns, its value read
    as the column's type, the corrected state checked against what the rules can play with
    ``ctx`` (the game's rules, board and players: a problem the correction brings is refused,
    one per line naming table, row and column), with the old value and whether the public
    sees the cell."""
    if not why.strip():
        raise GameError("say why the state is corrected (--why): it is shown in the report")
    if table not in ruleset.schemas:
        raise GameError(f"no table '{table}' in {ruleset.title}'s state (tables: "
                        f"{', '.join(sorted(ruleset.schemas))})")
    key_text, column, raw = parse_setting(setting)
    schema = ruleset.schemas[table]
    if column not in schema:
        raise GameError(f"table '{table}' has no column '{column}' (columns: "
                        f"{', '.join(schema)})")
    key = _key(ruleset, table, key_text)
    value = cell_value(raw, schema[column], f"{table}.{column}")
    frame = state[table]
    row = _row(frame, key, table)
    old = frame[column].to_list()[row]
    after = _set(state, table, row, column, value)
    context = ctx if ctx is not None else Context(ruleset.rules(), turn=turn)
    brought = _brought(ruleset.state_problems(state, context),
                       ruleset.state_problems(after, context))
    if brought:
        raise GameError("\n".join([f"the correction of {table} '{setting.strip()}' would leave "
                                    "a state the rules cannot play; nothing is recorded:",
                                    *(f"  {p.line()}" for p in brought)]))
    return {"kind": "correction", "table": table, "key": key, "column": column,
            "value": value, "old": old, "from_turn": turn, "why": why.strip(),
            "public": _public(ruleset, after, table, key, column, value, row),
            "at": datetime.now(timezone.utc).isoformat(timespec="seconds")}


def _brought(before: Sequence[StateProblem], after: Sequence[StateProblem]
             ) -> list[StateProblem]:
    """The problems of ``after`` that ``before`` did not have (a correction is refused for what
    it breaks, never for what was already wrong, which it may be meant to mend)."""
    had = {(p.table, p.row, p.column, p.text) for p in before}
    return [p for p in after if (p.table, p.row, p.column, p.text) not in had]


def _public(ruleset: Ruleset[Any], state: State, table: str, key: Mapping[str, Any],
            column: str, value: Any, row: int) -> bool:
    """Whether the ruleset's public view of ``state`` (the corrected state) shows the corrected
    cell, ``row`` of ``table``, with its value. The row is found in the view by its key, the
    new one when the correction changed it; where that names several rows (a coast named by
    its province alone), by the row's other cells the view shows too."""
    seen = ruleset.view(state, Viewer.public()).tables.get(table)
    if seen is None or column not in seen.columns or any(c not in seen.columns for c in key):
        return False
    key = {**key, column: value} if column in key else dict(key)
    mask = _matching(seen, key)
    mine = state[table].row(row, named=True)
    for other in seen.columns:
        if mask.sum() <= 1:
            break
        if nested(seen.schema[other]):
            continue
        narrower = mask & _matching(seen, {other: mine[other]})
        if narrower.any():
            mask = narrower
    found = mask.arg_true().to_list()
    if len(found) != 1:
        return False
    shown = seen[column].to_list()[found[0]]
    return bool(shown == value and (value is not None or state[table].height == seen.height))


def _matching(frame: pl.DataFrame, key: Mapping[str, Any]) -> pl.Series:
    """Which rows of ``frame`` hold ``key``'s values (null matching null)."""
    mask = pl.Series([True] * frame.height, dtype=pl.Boolean)
    for column, value in key.items():
        mask = mask & (frame[column].is_null() if value is None else
                       (frame[column] == value).fill_null(False))
    return mask


def correction_words(c: Mapping[str, Any]) -> str:
    """A correction in words, for reports and the command's answer."""
    key = ", ".join(f"{k}={v}" for k, v in dict(c.get("key") or {}).items())
    return (f"correction of {c.get('table')}{' ' + key if key else ''}: {c.get('column')} "
            f"{c.get('old')!r} -> {c.get('value')!r}: {c.get('why')}")
