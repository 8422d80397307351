"""How a table's cells read to a reader, the one rule of every table a report, the published site,
a command or the notebook shows: a boolean as "yes" or "no", a missing value as a dash, a
fraction with two decimals (a whole number without any), never ``False``, ``None`` or
``0.30000000000000004``::

    >>> [cell_text(v) for v in (True, False, None, 2.0, 0.1 + 0.2, "Red", ["a", "b"], [])]
    ['yes', 'no', '—', '2', '0.30', 'Red', 'a, b', '—']

Exports (CSV, JSON, Parquet, SQL) keep the values as they are; this is for reading.
"""

from __future__ import annotations

from typing import Any

import polars as pl

__all__ = ["DASH", "as_text", "cell_text", "readable"]

#: A missing value, as a table shows it.
DASH = "\u2014"


def cell_text(value: Any, decimals: int = 2) -> str:
    """One cell as a reader reads it (see the module's description); a fraction with
    ``decimals`` decimals."""
    if value is None:
        return DASH
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{int(value)}" if value.is_integer() else f"{value:.{decimals}f}"
    if isinstance(value, (list, tuple)):
        return ", ".join(cell_text(v, decimals) for v in value) or DASH
    return str(value)


def readable(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with its boolean columns as "yes"/"no" (a dash where missing) and its missing
    texts as a dash; numbers stay numbers, so a table still sorts by them."""
    return frame.with_columns(
        *(pl.when(pl.col(c)).then(pl.lit("yes")).when(pl.col(c).not_()).then(pl.lit("no"))
          .otherwise(pl.lit(DASH)).alias(c)
          for c, dtype in frame.schema.items() if dtype == pl.Boolean),
        *(pl.col(c).fill_null(DASH) for c, dtype in frame.schema.items()
          if dtype == pl.String))


def as_text(frame: pl.DataFrame) -> pl.DataFrame:
    """Every cell of ``frame`` as :func:`cell_text` writes it, for a table printed whole (a
    missing number a dash too)."""
    return pl.DataFrame({c: [cell_text(v) for v in frame[c].to_list()] for c in frame.columns},
                        schema={c: pl.String for c in frame.columns})
