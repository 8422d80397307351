"""Reading a board of any kind from a file: the one door by which a game folder's board, or a
board a GM brings, becomes a :class:`~gmkit.core.boards.Board`.

* ``polygon``: a GeoJSON FeatureCollection (``.geojson`` or ``.json``), loaded as the drawable
  :class:`~gmkit.core.boards.polygon.PolygonBoard`;
* ``graph``: a TOML file of places and their neighbours (``.toml``), see
  :mod:`gmkit.core.boards.graph`;
* ``hex``: a table of hexes with integer columns ``q`` and ``r`` (an optional ``s`` that must
  agree) and any per-hex columns such as ``kind``: Parquet (``.parquet``), CSV (``.csv``) or
  TOML (``.toml``, an array of ``[[hexes]]`` tables). An empty table, or a TOML file with
  ``unbounded = true``, is the unbounded grid (every hex exists; its kind is
  ``default_kind``, ``"land"`` unless the file says otherwise).

Every problem raises :class:`~gmkit.core.boards.BoardError` naming the file, never a half-read
board.
"""

from __future__ import annotations

import io
import json
import tomllib
from pathlib import Path, PurePosixPath
from typing import Any

import polars as pl

from gmkit.core.boards import BOARD_KINDS, Board, BoardError, read_board_file
from gmkit.core.boards.graph import GraphBoard
from gmkit.core.boards.hexgrid import HexBoard
from gmkit.core.boards.polygon import MapError

#: The file suffixes each board kind is read from.
SUFFIXES: dict[str, tuple[str, ...]] = {
    "polygon": (".geojson", ".json"),
    "graph": (".toml",),
    "hex": (".parquet", ".csv", ".toml"),
}


def read_board(kind: str, data: bytes, name: str, source: str | None = None) -> Board[Any]:
    """The board of ``kind`` held in ``data``, the content of a file called ``name`` (its
    suffix says the format); ``source`` names it in errors (``name`` when not given)."""
    source = source or name
    if kind not in BOARD_KINDS:
        raise BoardError(source, [f"unknown board kind {kind!r} (one of "
                                  f"{', '.join(BOARD_KINDS)})"])
    suffix = PurePosixPath(name).suffix.lower()
    if suffix not in SUFFIXES[kind]:
        found = suffix or "a file without a suffix"
        raise BoardError(source, [f"a {kind} board is read from a "
                                  f"{' or '.join(SUFFIXES[kind])} file, not {found}"])
    if kind == "polygon":
        return _polygon(data, source)
    if kind == "graph":
        return GraphBoard.from_toml(_text(data, source), source=source)
    return _hex(data, suffix, source)


def load_board(kind: str, path: str | Path) -> Board[Any]:
    """The board of ``kind`` in the file at ``path`` (see :func:`read_board`)."""
    path = Path(path)
    return read_board(kind, read_board_file(path), path.name, str(path))


def _text(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BoardError(source, [f"not UTF-8 text (byte {e.start})"]) from None


def _polygon(data: bytes, source: str) -> Board[Any]:
    from gmkit.core.boards.polygon import PolygonBoard

    try:
        parsed = json.loads(_text(data, source))
    except ValueError as e:  # a decoding error, or a number of more digits than Python reads
        raise BoardError(source, [f"not valid JSON: {e}"]) from None
    except RecursionError:
        raise BoardError(source, [NESTED]) from None
    try:
        return PolygonBoard.from_dict(parsed, source=source)
    except MapError as e:
        raise BoardError(source, map_problems(e, source)) from None


#: Why a file nested deeper than Python's parsers go is refused.
NESTED = "nested too deeply to be a board"


def map_problems(error: MapError, source: str) -> list[str]:
    """The problems a :class:`MapError` lists, each without the file's name (which the
    :class:`BoardError` made of them names once)."""
    lines = str(error).split("\n")
    head = lines[0].removeprefix(f"{source}: ")
    if len(lines) > 1 and head.endswith("problems:"):
        return [line.strip().removeprefix(f"{source}: ") for line in lines[1:]]
    return [head]


def _hex(data: bytes, suffix: str, source: str) -> HexBoard:
    default_kind = "land"
    try:
        if suffix == ".parquet":
            frame = pl.read_parquet(io.BytesIO(data))
        elif suffix == ".csv":
            frame = pl.read_csv(io.BytesIO(data))
        else:
            table = tomllib.loads(_text(data, source))
            default_kind = str(table.get("default_kind", default_kind))
            if table.get("unbounded") is True:
                return HexBoard(default_kind=default_kind, source=source)
            rows = table.get("hexes")
            if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
                raise BoardError(source, ["a hex board in TOML lists its hexes as [[hexes]] "
                                          "tables with q and r, or says unbounded = true"])
            frame = pl.DataFrame(rows, infer_schema_length=None)
    except BoardError:
        raise
    except tomllib.TOMLDecodeError as e:
        raise BoardError(source, [f"not valid TOML: {e}"]) from None
    except RecursionError:
        raise BoardError(source, [NESTED]) from None
    except Exception as e:  # polars' readers raise several kinds for a malformed file
        raise BoardError(source, [f"cannot read the hex table: {e}"]) from None
    if frame.height == 0:
        return HexBoard(default_kind=default_kind, source=source)
    try:
        return HexBoard(frame, default_kind=default_kind, source=source)
    except BoardError:
        raise
    except Exception as e:  # polars refuses a column it cannot take (a 128-bit number, say)
        raise BoardError(source, [f"cannot read the hex table: {str(e).splitlines()[0]}"]) \
            from None
