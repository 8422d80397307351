#!/usr/bin/env python3
"""Time a balance sweep of 200 games with a round limit on 2 local workers against 1.

    python bench/sweep.py           # a readable table
    python bench/sweep.py --json    # one JSON object per line: name, value, unit, target, ok

The sweep is Three Hills (the example ruleset), 200 games of at most 5 rounds, each worker
holding polars to one thread; the same sweep on one worker and on two, interleaved, each timed
from the start of its worker processes to the last game's result. The figure is the median of
the repetitions. Target: two workers at least 1.5x faster than one. (Both runs also give the
same tables, which is checked.)
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gmkit.sweeps import sweep  # noqa: E402

GAMES = 200
ROUNDS = 5
REPEAT = 2


def bench_sweep() -> list[dict]:
    """200 games of Three Hills, 5 rounds at most: 1 worker against 2, interleaved."""
    spec = sweep.plan("example", GAMES, rounds=ROUNDS, seed="bench")
    times: dict[int, list[float]] = {1: [], 2: []}
    tables: dict[int, sweep.Sweep] = {}
    for _ in range(REPEAT):
        for workers in (1, 2):
            t = time.perf_counter()
            tables[workers] = sweep.run(spec, workers=workers)
            times[workers].append(time.perf_counter() - t)
    one, two = statistics.median(times[1]), statistics.median(times[2])
    same = tables[1].games.equals(tables[2].games) and tables[1].margins.equals(tables[2].margins)
    return [
        {"name": "sweep_200_games_1_worker_s", "value": round(one, 2), "unit": "s",
         "target": None, "ok": True},
        {"name": "sweep_200_games_2_workers_s", "value": round(two, 2), "unit": "s",
         "target": None, "ok": True},
        {"name": "sweep_2_vs_1_workers_speedup", "value": round(one / two, 2), "unit": "x",
         "target": ">= 1.5", "ok": one / two >= 1.5 and same},
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args()
    results = bench_sweep()
    for r in results:
        if args.json:
            print(json.dumps(r))
        else:
            target = r["target"] or "-"
            print(f"{r['name']:<36} {r['value']:>10} {r['unit']:<3} target {target:<6} "
                  f"{'ok' if r['ok'] else 'MISSED'}")
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
