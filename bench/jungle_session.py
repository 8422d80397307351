#!/usr/bin/env python3
"""The Law of the Jungle: one council session of the sample game's size, resolved and committed,
against reading and writing the same turn's tables as Parquet.

    python bench/jungle_session.py          # a readable table
    python bench/jungle_session.py --json   # one JSON object per line: name, value, unit, target, ok

The game is built as ``scripts/build_sample_jungle.py`` builds the sample (ten houses, the GM's
figures and every house's posts through the real workflow), five sessions in; the sixth session
is timed. The machines that run this are shared and noisy, so the figure is a ratio measured in
pairs: each pair times the Parquet round trip of the last committed session's tables, then the
session's resolve and commit on a fresh copy of the game; the ratio is the median of the pairs'
ratios.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gmkit.game import Game  # noqa: E402
from scripts.build_sample_jungle import build  # noqa: E402

PAIRS = 7
#: Committing writes and syncs each of the session's state tables (sixteen, against the cien
#: turn's handful), and resolving steps every character's two actions one at a time, each a unit
#: the GM can look at (its state, events and draws kept): a few Parquet round trips.
TARGET_RATIO = 5.0


def bench_session(tmp: Path, pairs: int = PAIRS) -> list[dict]:
    """Resolve and commit one council session of the sample's size, in pairs with the Parquet
    round trip of the same tables."""
    base = tmp / "base"
    build(base, master="bench jungle")
    ratios, resolves, ios = [], [], []
    characters = Game.open(base).state()["characters"].height
    for i in range(pairs):
        work = tmp / f"work-{i}"
        shutil.copytree(base, work)
        game = Game.open(work)
        files = sorted(game.store.turn_path(game.latest_turn).rglob("*.parquet"))
        out = tmp / f"io-{i}"
        out.mkdir()
        t = time.perf_counter()
        for j, f in enumerate(files):
            pl.read_parquet(f).write_parquet(out / f"{j}.parquet")
        io = time.perf_counter() - t
        t = time.perf_counter()
        game = Game.open(work)
        game.commit(game.start())
        resolve = time.perf_counter() - t
        ratios.append(resolve / io)
        resolves.append(resolve)
        ios.append(io)
    ratio = statistics.median(ratios)
    return [
        {"name": "jungle_session_characters", "value": characters, "unit": "characters",
         "target": None, "ok": True},
        {"name": "jungle_session_resolve_commit_ms", "value": round(statistics.median(resolves)
                                                                    * 1000, 2),
         "unit": "ms", "target": None, "ok": True},
        {"name": "jungle_session_parquet_io_ms", "value": round(statistics.median(ios) * 1000, 2),
         "unit": "ms", "target": None, "ok": True},
        {"name": "jungle_session_vs_parquet_io_ratio", "value": round(ratio, 2), "unit": "x",
         "target": f"<= {TARGET_RATIO:g}", "ok": ratio <= TARGET_RATIO},
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--pairs", type=int, default=PAIRS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as d:
        rows = bench_session(Path(d), args.pairs)
    for row in rows:
        if args.json:
            print(json.dumps(row))
        else:
            target = row["target"] or ""
            print(f"{row['name']:<40} {row['value']:>10} {row['unit']:<10} {target:<8} "
                  f"{'ok' if row['ok'] else 'MISSED'}")
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
