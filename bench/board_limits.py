#!/usr/bin/env python3
"""How long a board far beyond the size gmkit takes is refused in (``MAX_PLACES``).

    python bench/board_limits.py           # a readable table
    python bench/board_limits.py --json    # one JSON object per line: name, value, unit, target, ok

A graph board (TOML, one ``[places.X]`` table a place) and a polygon map (GeoJSON, one square a
province) of 100,000 places each, read as ``gmkit new --map`` reads a GM's board
(:func:`gmkit.core.boards.files.read_board`): the figure is the median of three reads until the
refusal (before this limit, such a board was built whole and refused after a minute or more).
The target is relative, the machines being shared: the refusal takes no longer than parsing the
file's text alone (a graph board is refused before its TOML is parsed, at most a fifth of the
parse; a polygon map right after its JSON is, at most 1.5 times the parse: no polygon is built).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gmkit.core.boards import BoardError  # noqa: E402
from gmkit.core.boards.files import read_board  # noqa: E402

PLACES = 100_000


def boards(count: int = PLACES) -> dict[str, tuple[str, str, bytes]]:
    """The boards of ``count`` places, by name: (kind, file name, bytes)."""
    toml = "".join(f'[places.P{i}]\nkind = "hill"\npos = [{i % 1000}, {i // 1000}]\n'
                   f'adjacent = ["P{i + 1 if i + 1 < count else i - 1}"]\n' for i in range(count))
    features = [{"type": "Feature", "properties": {"name": f"P{i}", "kind": "land"},
                 "geometry": {"type": "Polygon", "coordinates": [[
                     [i % 316, i // 316], [i % 316 + 1, i // 316], [i % 316 + 1, i // 316 + 1],
                     [i % 316, i // 316]]]}} for i in range(count)]
    geojson = json.dumps({"type": "FeatureCollection", "features": features},
                         separators=(",", ":"))
    return {"graph": ("graph", "board.toml", toml.encode()),
            "polygon": ("polygon", "map.geojson", geojson.encode())}


def _refused(kind: str, name: str, data: bytes) -> float:
    start = time.perf_counter()
    try:
        read_board(kind, data, name)
    except BoardError:
        return time.perf_counter() - start
    raise AssertionError(f"a {PLACES:,}-place {kind} board was not refused")


def _parsed(kind: str, data: bytes) -> float:
    start = time.perf_counter()
    text = data.decode("utf-8")
    (tomllib.loads if kind == "graph" else json.loads)(text)
    return time.perf_counter() - start


#: The most the refusal may take, as a share of parsing the file's text alone.
RATIO = {"graph": 0.2, "polygon": 1.5}


def bench_board_limits() -> list[dict[str, Any]]:
    """The time to refuse a 100,000-place board, per kind, against parsing its text."""
    out = []
    for label, (kind, name, data) in boards().items():
        value = statistics.median(_refused(kind, name, data) for _ in range(3))
        parse = statistics.median(_parsed(kind, data) for _ in range(3))
        out.append({"name": f"refuse_{PLACES // 1000}k_place_{label}_board_s",
                    "value": round(value, 3), "unit": "s",
                    "target": f"< {RATIO[kind]:g} x {parse:.2f} s (the parse)",
                    "ok": value < RATIO[kind] * parse, "bytes": len(data)})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args()
    results = bench_board_limits()
    for r in results:
        if args.json:
            print(json.dumps(r, ensure_ascii=False))
        else:
            print(f"{r['name']:<36} {r['value']:>8} s  target {r['target']} "
                  f"{'ok' if r['ok'] else 'MISSED'}  ({r['bytes']:,} bytes)")
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
