"""What changed between two versions of a table, as rows a reader takes in at a glance: each
changed field of a row on a line of its own, the row named by its key (a province's name; a
hex's ``q, r``), a row that only one side has as its fields by name. The GM's step view and
the what-if both show changes this way.

    changes(before, after)   # -> province | field | before | after
"""

from __future__ import annotations

from typing import Any

import polars as pl

from gmkit.core.cells import DASH, cell_text

__all__ = ["changes", "row_key"]

def row_key(before: pl.DataFrame, after: pl.DataFrame, widest: int = 3) -> list[str] | None:
    """The fewest leading columns (up to ``widest``) that name one row on each side: no
    missing value, no two rows alike. None when no such columns lead the table."""
    cols = [c for c in before.columns if c in after.columns]
    for n in range(1, min(widest, len(cols)) + 1):
        key = cols[:n]
        if all(not any(df[c].null_count() for c in key) and
               df.select(key).unique().height == df.height for df in (before, after)):
            return key
    return None


def _fields(row: dict[str, Any], cols: list[str]) -> str:
    return ", ".join(f"{c}={cell_text(row[c])}" for c in cols)


def changes(before: pl.DataFrame, after: pl.DataFrame, *,
            sides: tuple[str, str] = ("before", "after"),
            whole: bool = True) -> pl.DataFrame | None:
    """What changed from ``before`` to ``after`` (None when nothing did), in text columns.

    A table of one row on each side: ``field`` and the two sides (no key). A table whose
    leading columns name its rows (:func:`row_key`): those columns as one (``q, r``), then
    ``field`` and the two sides, a changed field a line, a row only one side has as
    ``(new row)`` or ``(removed)`` with its fields by name. Otherwise each row only one side
    has, its fields by name. ``sides`` names the last two columns; ``whole`` is False where
    the two sides hold only the rows that differ (one such row is not a table of one row)."""
    if before is after or (before.schema == after.schema and before.equals(after)):
        return None
    cols = [c for c in after.columns if c in before.columns]
    was, now = sides
    rows: list[tuple[str, ...]] = []
    if whole and before.height == 1 and after.height == 1:
        b, a = before.row(0, named=True), after.row(0, named=True)
        rows = [(c, cell_text(b[c]), cell_text(a[c])) for c in cols if b[c] != a[c]]
        schema = ["field", was, now]
    elif (key := row_key(before, after)) is not None:
        rest = [c for c in cols if c not in key]

        def name(r: dict[str, Any]) -> tuple[Any, ...]:
            return tuple(r[c] for c in key)

        def text(k: tuple[Any, ...]) -> str:
            return ", ".join(map(cell_text, k))

        old = {name(r): r for r in before.iter_rows(named=True)}
        new = {name(r): r for r in after.iter_rows(named=True)}
        for k, r in new.items():
            if k not in old:  # a row of keys alone (a token on a hex) says them by name
                rows.append((text(k), "(new row)", DASH, _fields(r, rest or key)))
                continue
            o = old[k]
            rows += [(text(k), c, cell_text(o[c]), cell_text(r[c])) for c in rest
                     if o[c] != r[c]]
        rows += [(text(k), "(removed)", _fields(o, rest or key), DASH)
                 for k, o in old.items() if k not in new]
        schema = [", ".join(key), "field", was, now]
    else:
        old_rows = before.select(cols).rows(named=True)
        new_rows = after.select(cols).rows(named=True)
        rows = [("(removed)", _fields(r, cols), DASH) for r in old_rows if r not in new_rows]
        rows += [("(new row)", DASH, _fields(r, cols)) for r in new_rows if r not in old_rows]
        schema = ["field", was, now]
    if not rows:
        return None
    return pl.DataFrame(rows, schema=[(c, pl.String) for c in schema], orient="row")
