"""A table written for other tools: CSV a spreadsheet opens safely, JSON, or Parquet. The one
place that says how a cell is written, for ``gmkit history --out`` and ``gmkit sql --out``:

* a list or record cell is JSON (``["Coyons", "Sevoy"]``, ``{"gain": 3}``), never Python's
  repr text, and the same in CSV and JSON;
* a boolean is ``true`` or ``false`` in every format (as polars and DuckDB write and read
  them, and as a position given to ``gmkit new --state`` is read);
* a missing value is an empty CSV cell, JSON ``null``;
* a CSV text cell starting with ``= + - @`` (or a tab or carriage return) gets a leading
  apostrophe, so no cell is a live spreadsheet formula."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import polars as pl

__all__ = ["FORMATS", "FORMULA_START", "csv_text", "format_for", "json_text", "table_bytes"]

#: What a spreadsheet reads as the start of a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

#: The formats a table is written in, by name and file suffix.
FORMATS = ("csv", "json", "parquet")


def _nested(dtype: pl.DataType) -> bool:
    return isinstance(dtype, (pl.List, pl.Array, pl.Struct))


def _json_value(value: Any) -> Any:
    """A cell as plain JSON data (a date or time as ISO 8601 text)."""
    if isinstance(value, dict):
        return {k: _json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def _csv_cell(value: Any, nested: bool, text: bool) -> Any:
    if value is None:
        return ""
    if nested:
        return json.dumps(_json_value(value), ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    if text and isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def csv_text(df: pl.DataFrame) -> str:
    """``df`` as CSV: a header line, then a line a row (see the module's description)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(df.columns)
    nested = [_nested(t) for t in df.schema.values()]
    text = [t == pl.String for t in df.schema.values()]
    for row in df.iter_rows():
        writer.writerow([_csv_cell(v, n, t) for v, n, t in zip(row, nested, text)])
    return buf.getvalue()


def json_text(df: pl.DataFrame) -> str:
    """``df`` as a JSON array of objects keyed by column name, one row a line."""
    rows = [json.dumps({k: _json_value(v) for k, v in row.items()}, ensure_ascii=False)
            for row in df.iter_rows(named=True)]
    return "[\n" + ",\n".join(rows) + "\n]\n" if rows else "[]\n"


def table_bytes(df: pl.DataFrame, fmt: str) -> bytes:
    """``df`` written in ``fmt`` (one of :data:`FORMATS`)."""
    if fmt == "csv":
        return csv_text(df).encode("utf-8")
    if fmt == "json":
        return json_text(df).encode("utf-8")
    if fmt == "parquet":
        from gmkit.core.files import parquet_bytes

        return parquet_bytes(df)
    raise ValueError(f"no table format {fmt!r}; write one of {', '.join(FORMATS)}")


def format_for(path: Path | None, fmt: str | None) -> str | None:
    """The format a table is written in: ``fmt`` when given, else the suffix of ``path``
    (``.csv``, ``.json``, ``.parquet``); None for neither (a table printed as text). Raises
    ValueError naming the file for a suffix that is none of them."""
    if fmt is not None:
        return fmt
    if path is None:
        return None
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise ValueError(f"{path}: write .csv, .json or .parquet")
    return suffix
