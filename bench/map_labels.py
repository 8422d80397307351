#!/usr/bin/env python3
"""Maps with their labels placed: every sample's turn map, every sample's map of its latest
turn's orders (arrows and marks, labels kept clear of them), and a 10,000-hex explored Aeternus
region with a token per player.

    python bench/map_labels.py           # a readable table
    python bench/map_labels.py --json    # one JSON object per line: name, value, unit, target, ok

Each figure is the median of several repetitions of drawing the whole SVG (scene, label
placement and rendering) as ``gmkit map`` does; the 100,000-hex figure is bench/hex_draw.py's.
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

from gmkit.core.boards.hexgrid import Hex, HexBoard, spiral_frame  # noqa: E402
from gmkit.core.drawing.hex_svg import hex_svg  # noqa: E402
from gmkit.core.tables import State  # noqa: E402
from gmkit.game import Game  # noqa: E402
from gmkit.rulesets.aeternus.drawing import BIOME_FILLS, world_scene  # noqa: E402

REGION = 10_000
PLAYERS = 300


def median_time(fn: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def aeternus_region(sample: State, hexes: int = REGION, players: int = PLAYERS) -> State:
    """The sample's state with ``hexes`` explored hexes (a spiral, biomes in turn, a town
    every 97th hex) and ``players`` active players spread over them in three factions."""
    radius = 0
    while 1 + 3 * radius * (radius + 1) < hexes:
        radius += 1
    spiral = spiral_frame(Hex(0, 0), radius).head(hexes).select("q", "r")
    biomes = list(BIOME_FILLS)
    n = spiral.height
    world = spiral.with_columns(
        s=-pl.col("q") - pl.col("r"), x=pl.col("q"), y=pl.col("r"), z=-pl.col("q") - pl.col("r"),
        biome=pl.Series([biomes[i % len(biomes)] for i in range(n)]),
        mass=pl.lit(0), mass_size=pl.lit(1),
        landmark=pl.Series(["Town" if i % 97 == 0 else "Barren" for i in range(n)]),
        features=pl.Series([[] for _ in range(n)], dtype=pl.List(pl.String)),
        corrupted=pl.Series([i % 41 == 0 for i in range(n)]),
        generated_order=pl.int_range(n), generated_turn=pl.lit(1), cause=pl.lit("generate"),
    ).select(sample["world"].columns).cast(dict(sample["world"].schema))
    spots = spiral.gather([(i * 7919) % n for i in range(players)])
    template = sample["players"].row(0, named=True)
    rows = [{**template, "id": f"Player {i}", "name": f"Player {i}",
             "faction": f"Faction {i % 3}", "q": q, "r": r, "active": True}
            for i, (q, r) in enumerate(spots.iter_rows())]
    people = pl.DataFrame(rows, schema=dict(sample["players"].schema))
    return sample.replace(world=world, players=people)


def bench_map_labels(repeat: int = 5) -> list[dict]:
    """Every sample's latest map with its labels placed, and the 10,000-hex region."""
    out = []
    worst = 0.0
    for folder in sorted((ROOT / "data").glob("sample-*")):
        game = Game.open(folder)
        state = game.state()
        game.map_svg(state)  # the board's layout is computed once per game, as in the desk
        took = median_time(lambda: game.map_svg(state, title="bench"), repeat)
        worst = max(worst, took)
        out.append({"name": f"map_svg_{folder.name}_s", "value": round(took, 4), "unit": "s",
                    "target": "< 0.3", "ok": took < 0.3})
        # the latest turn's orders on the map before it, as the report and `gmkit map
        # --orders` draw them for the public (reading the orders apart)
        shown = game.turn_orders(game.latest_turn, "public")
        took = median_time(lambda: game.map_svg(shown.before, title="bench",
                                                orders=shown.drawn), repeat)
        out.append({"name": f"map_orders_svg_{folder.name}_s", "value": round(took, 4),
                    "unit": "s", "target": "< 0.3", "ok": took < 0.3 and bool(shown.drawn)})
        took = median_time(lambda: game.turn_orders(game.latest_turn, "public"), repeat)
        out.append({"name": f"turn_orders_{folder.name}_s", "value": round(took, 4),
                    "unit": "s", "target": "< 0.5", "ok": took < 0.5})
    region = aeternus_region(Game.open(ROOT / "data" / "sample-aeternus").state())
    board = HexBoard(default_kind="indeterminate")

    def draw() -> str:
        return hex_svg(board, world_scene(region))

    svg = draw()
    took = median_time(draw, repeat)
    out.append({"name": f"aeternus_{REGION}_hexes_{PLAYERS}_tokens_svg_s",
                "value": round(took, 4), "unit": "s", "target": "< 1",
                "ok": took < 1 and svg.count('data-piece="player"') == PLAYERS})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for r in bench_map_labels():
        if args.json:
            print(json.dumps(r))
        else:
            print(f"{r['name']:<48} {r['value']:>10} {r['unit']:<3} target {r['target']}"
                  f"  {'ok' if r['ok'] else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
