#!/usr/bin/env python3
"""A given position at the size the limits must take: an Aeternus world of 100,000 hexes.

    python bench/position_limits.py           # a readable table
    python bench/position_limits.py --json    # one JSON object per line: name, value, unit, target, ok

The world is generated as play would generate it (``bench/aeternus_world.py``'s scouting order;
not timed), put in the state a new cycle starts with and written out as a position
(``write_position``: the world as Parquet, the other tables as CSV). Printed: the world file's
size and rows beside the limits on a position's files (``MAX_POSITION_BYTES``,
``MAX_POSITION_ROWS``, which must take it five times over), and the median time to read the
position and check it against what the rules can play (target: under 2 s).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.aeternus_world import grow, scouting_order, seeds, PER_TURN  # noqa: E402
from gmkit.core.parts import Context  # noqa: E402
from gmkit.core.players import PlayerInfo  # noqa: E402
from gmkit.core.ruleset import find_ruleset  # noqa: E402
from gmkit.game.position import (MAX_POSITION_BYTES, MAX_POSITION_ROWS, read_position,  # noqa: E402
                                 write_position)

HEXES = 100_000
TARGET_S = 2.0


def world_position(folder: Path, hexes: int = HEXES) -> tuple[Path, int, Context]:
    """A position of Aeternus whose world holds ``hexes`` generated hexes, written into
    ``folder``; returns the folder, the turn it is the state after and the context (the
    example players) to read it with."""
    rs = find_ruleset("aeternus")
    players = tuple(PlayerInfo(p["id"], p["name"]) for p in rs.example_players(None))
    ctx = Context(rs.rules(), players=players)
    order = scouting_order(hexes + hexes // 5)
    world = grow(order, hexes, seeds(len(order) // PER_TURN + 2))
    turn = int(world.frame()["generated_turn"].max() or 0)
    state = rs.setup(ctx)
    state = state.replace(turn=turn, world=world.frame())
    write_position(state, folder)
    return folder, turn, Context(rs.rules(), turn=turn + 1, players=players)


def bench_position_limits(tmp: Path, runs: int = 3) -> list[dict[str, Any]]:
    """The 100,000-hex world against the limits, and the time to read and check it."""
    rs = find_ruleset("aeternus")
    folder, turn, ctx = world_position(tmp / "position")
    world = folder / "world.parquet"
    size = world.stat().st_size

    def read() -> int:
        state = read_position(folder, rs.schemas, turn, lambda s: rs.state_problems(s, ctx))
        return state["world"].height

    times, rows = [], 0
    for _ in range(runs):
        t = time.perf_counter()
        rows = read()
        times.append(time.perf_counter() - t)
    took = statistics.median(times)
    return [
        {"name": "position_world_100k_bytes", "value": size, "unit": "B",
         "target": f"<= {MAX_POSITION_BYTES // 5}", "ok": size * 5 <= MAX_POSITION_BYTES},
        {"name": "position_world_100k_rows", "value": rows, "unit": "",
         "target": f"<= {MAX_POSITION_ROWS // 5}", "ok": rows * 5 <= MAX_POSITION_ROWS},
        {"name": "position_world_100k_read_check_s", "value": round(took, 3), "unit": "s",
         "target": f"< {TARGET_S:g}", "ok": took < TARGET_S},
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as d:
        results = bench_position_limits(Path(d))
    for r in results:
        if args.json:
            print(json.dumps(r))
        else:
            print(f"{r['name']:<36} {r['value']:>10} {r['unit']:<3} target {r['target']:<10} "
                  f"{'ok' if r['ok'] else 'MISSED'}")
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
