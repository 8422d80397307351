#!/usr/bin/env python3
"""Aeternus's Discord import: 1,000 messages of #game-actions from 50 players, imported into a
game (a post per message, each stored once, all at once), and the same export imported again
(nothing new). Each figure is the median of several runs, each into a fresh copy of the game.

    python bench/aeternus_import.py           # a readable table
    python bench/aeternus_import.py --json    # one JSON object per line

Target: 1,000 messages imported in under 3 s.
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

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gmkit.game import Game  # noqa: E402

MESSAGES = 1_000
PLAYERS = 50
ACTIONS = ("Forage", "Scout North and Ashe", "Traverse Mouth", "Fish", "Craft Binoculars")


def _export(n: int) -> dict[str, Any]:
    messages = []
    for k in range(n):
        p = k % PLAYERS
        minute = k % 60
        hour = 8 + (k // 60) % 12
        day = 5 + k // 720
        messages.append({
            "id": str(10_000 + k), "type": "Default",
            "timestamp": f"2026-01-{day:02d}T{hour:02d}:{minute:02d}:00+00:00",
            "timestampEdited": None, "content": ACTIONS[k % len(ACTIONS)],
            "author": {"id": str(5000 + p), "name": f"p{p}", "nickname": f"Player {p}"},
            "reactions": []})
    return {"channel": {"name": "game-actions"}, "exportedAt": "2026-01-20T00:00:00+00:00",
            "dateRange": {"after": None, "before": None}, "messages": messages}


def bench_aeternus_import(tmp: Path, runs: int = 3) -> list[dict[str, Any]]:
    """Import 1,000 messages, then the same export again."""
    base = Game.new(tmp / "base", "aeternus", [
        {"id": f"P{p}", "name": f"P{p}", "discord": str(5000 + p)} for p in range(PLAYERS)]).root
    path = tmp / "game-actions.json"
    path.write_text(json.dumps(_export(MESSAGES)), "utf-8")
    first, again = [], []
    for k in range(runs):
        folder = tmp / f"g{k}"
        shutil.copytree(base, folder)
        game = Game.open(folder)
        t = time.perf_counter()
        stored = len(game.import_posts([path]).stored)
        first.append(time.perf_counter() - t)
        assert stored == MESSAGES, stored
        t = time.perf_counter()
        assert game.import_posts([path]).stored == []
        again.append(time.perf_counter() - t)
    return [
        {"name": f"aeternus import {MESSAGES} messages", "value": statistics.median(first),
         "unit": "s", "target": "< 3", "ok": statistics.median(first) < 3},
        {"name": "aeternus import again (nothing new)", "value": statistics.median(again),
         "unit": "s", "target": "", "ok": True},
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as d:
        results = bench_aeternus_import(Path(d))
    for r in results:
        print(json.dumps(r) if args.json else
              f"{r['name']:<40} {r['value']:>8.3f} {r['unit']}  target {r['target'] or '-'}")
    return 0 if all(r["ok"] is not False for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
