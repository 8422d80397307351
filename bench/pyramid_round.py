#!/usr/bin/env python3
"""One round of an 8-player game of Pyramid Power Wars, resolved and committed, against the
Parquet read and write of the same tables.

    python bench/pyramid_round.py           # a readable table
    python bench/pyramid_round.py --json    # one JSON object per line (name, value, unit, ...)

Eight houses play four rounds on the largest board the ruleset ships (seeded bots through the
real workflow); then round 5 is timed: each repetition copies that game, receives the bots'
posts, reads and writes every Parquet table of the last committed turn (the yardstick), and
resolves and commits the round (``Game.start`` then ``Game.commit``). The two are interleaved
in each repetition, so a slow moment of a shared machine hits both; the figure is the median of
the repetitions' ratios. Target: at most 2x the Parquet round trip, as for a Cien turn.
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
from typing import Any

import polars as pl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gmkit.game import Game  # noqa: E402
from gmkit.sweeps.playout import derived_seed, new_game, receive_bot_posts  # noqa: E402
from gmkit.rulesets import find_ruleset  # noqa: E402
from gmkit.rulesets.pyramid.rules import COLOURS  # noqa: E402

MASTER = "bench pyramid"
ROUNDS_BEFORE = 4
REPEAT = 9


def largest_board_spaces() -> int:
    """The lands of the largest board the ruleset ships (the one a new game is played on)."""
    return len(find_ruleset("pyramid").default_board() or ())


def eight_players() -> list[dict[str, Any]]:
    """Eight houses, one per start area."""
    return [{"id": c, "name": f"House {c}"} for c in COLOURS]


def bench_pyramid_round(tmp: Path, repeat: int = REPEAT) -> list[dict[str, Any]]:
    """Resolve and commit one round of an 8-player game, as a ratio to reading and writing the
    turn's tables as Parquet (interleaved; median of the pairs' ratios)."""
    base = tmp / "pyramid-eight"
    new_game(base, "pyramid", eight_players(), ROUNDS_BEFORE, master=MASTER)
    ratios, resolves, ios = [], [], []
    for i in range(repeat):
        work = tmp / f"pyramid-eight-{i}"
        shutil.copytree(base, work)
        game = Game.open(work)
        game.store.write_seed(game.next_turn, derived_seed(MASTER, "turn", game.next_turn))
        receive_bot_posts(game, MASTER)
        files = sorted(game.store.turn_path(game.latest_turn).rglob("*.parquet"))
        out = tmp / f"pyramid-io-{i}"
        out.mkdir()
        t = time.perf_counter()
        for j, f in enumerate(files):
            pl.read_parquet(f).write_parquet(out / f"{j}.parquet")
        io = time.perf_counter() - t
        t = time.perf_counter()
        game = Game.open(work)
        game.commit(game.start())
        resolve = time.perf_counter() - t
        ios.append(io)
        resolves.append(resolve)
        ratios.append(resolve / io)
        shutil.rmtree(work)
        shutil.rmtree(out)
    ratio = statistics.median(ratios)
    spaces = largest_board_spaces()
    return [
        {"name": f"pyramid_round_8p_{spaces}_lands_resolve_commit_ms",
         "value": round(statistics.median(resolves) * 1000, 2), "unit": "ms", "target": None,
         "ok": True},
        {"name": "pyramid_round_parquet_io_ms", "value": round(statistics.median(ios) * 1000, 2),
         "unit": "ms", "target": None, "ok": True},
        {"name": "pyramid_round_vs_parquet_io_ratio", "value": round(ratio, 2), "unit": "x",
         "target": "<= 2", "ok": ratio <= 2},
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--repeat", type=int, default=REPEAT)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as d:
        results = bench_pyramid_round(Path(d), args.repeat)
    for r in results:
        if args.json:
            print(json.dumps(r))
        else:
            mark = "" if r["target"] is None else ("  ok" if r["ok"] else "  MISSED")
            target = f"  (target {r['target']})" if r["target"] else ""
            print(f"{r['name']:<52} {r['value']:>10} {r['unit']}{target}{mark}")
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
