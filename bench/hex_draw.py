#!/usr/bin/env python3
"""A hundred thousand hexes of ten terrains drawn as SVG.

    python bench/hex_draw.py           # a readable table
    python bench/hex_draw.py --json    # one JSON object per line: name, value, unit, target, ok

The board is a spiral of 100,000 hexes whose kind column holds ten terrains; the scene colours
them by kind, labels and marks a few, and carries a title and a legend. Each figure is the
median of several repetitions.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gmkit.core.boards.hexgrid import Hex, HexBoard, distance_expr, spiral_frame  # noqa: E402
from gmkit.core.drawing.hex_svg import hex_svg  # noqa: E402
from gmkit.core.drawing.scene import Label, LegendEntry, Mark, Scene  # noqa: E402

HEXES = 100_000
COLOURS = ["#a9c9e6", "#e8e0c8", "#27ae60", "#c0392b", "#f1c40f",
           "#8e44ad", "#16a085", "#d35400", "#7f8c8d", "#2c3e50"]


def hex_world(n: int = HEXES) -> HexBoard:
    """``n`` hexes of a spiral around the origin, each of one of ten terrains."""
    radius = 0
    while 1 + 3 * radius * (radius + 1) < n:
        radius += 1
    df = spiral_frame(Hex(0, 0), radius).head(n)
    ring = distance_expr("q", "r", pl.lit(0), pl.lit(0))
    return HexBoard(df.with_columns(kind=pl.format("t{}", (ring // 7 + pl.col("q") // 11) % 10)))


def hex_scene() -> Scene:
    return Scene(
        kind_fills={f"t{i}": c for i, c in enumerate(COLOURS)},
        labels=tuple(Label(Hex(8 * i, -4 * i), f"City {i}") for i in range(20)),
        marks=tuple(Mark(Hex(8 * i, -4 * i), "army", "#c0392b", i + 1) for i in range(20)),
        legend=tuple(LegendEntry(f"terrain {i}", c) for i, c in enumerate(COLOURS)),
        title="A hundred thousand hexes",
    )


def median_time(fn: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def bench_hex_draw(repeat: int = 7) -> list[dict]:
    """Drawing the world to SVG; building the board (vectorised spiral) alongside."""
    world = hex_world()
    scene = hex_scene()
    svg = hex_svg(world, scene)
    paths = svg.count('data-fill="')
    build = median_time(hex_world, repeat)
    draw = median_time(lambda: hex_svg(world, scene), repeat)
    return [
        {"name": f"hex_svg_{len(world)}_hexes_s", "value": round(draw, 4), "unit": "s",
         "target": "< 0.5", "ok": draw < 0.5 and paths == len(COLOURS)},
        {"name": "hex_svg_fill_paths", "value": paths, "unit": "", "target": "== 10",
         "ok": paths == len(COLOURS)},
        {"name": "hex_svg_size_mb", "value": round(len(svg) / 1e6, 2), "unit": "MB",
         "target": None, "ok": True},
        {"name": f"hex_world_{len(world)}_build_s", "value": round(build, 4), "unit": "s",
         "target": None, "ok": True},
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args()
    results = bench_hex_draw()
    for r in results:
        if args.json:
            print(json.dumps(r, ensure_ascii=False))
        else:
            target = r["target"] or "-"
            print(f"{r['name']:<36} {r['value']:>10} {r['unit']:<3} target {target:<6} "
                  f"{'ok' if r['ok'] else 'MISSED'}")
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
