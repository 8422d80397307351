#!/usr/bin/env python3
"""Aeternus: one batch of actions resolved action by action, as the GM's desk resolves a turn.

A world of ``--hexes`` generated hexes (a spiral around the origin), ``--players`` players spread
over it, and ``--actions`` actions in the order posted (traverses, scouts at the world's edge,
forages, crafts), resolved through the real steps (:data:`gmkit.rulesets.aeternus.steps.STEPS`)
with seeded dice, then the resulting state written as Parquet (what a commit stores).

    python bench/aeternus_turn.py                      # the target's size: 2,000 x 50 on 20,000
    python bench/aeternus_turn.py --actions 200        # a smaller batch

Target: a batch of 2,000 actions by 50 players on a world of 20,000 generated hexes, resolved
and committed in under 3 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gmkit.core.parts import Context
from gmkit.core.boards.hexgrid import Hex, spiral  # noqa: E402
from gmkit.core.dice import Dice  # noqa: E402
from gmkit.core.envelope import Envelope, Orders  # noqa: E402
from gmkit.core.orders import PostLine  # noqa: E402
from gmkit.core.params import Params  # noqa: E402
from gmkit.core.ruleset import find_ruleset  # noqa: E402
from gmkit.core.steps import Driver  # noqa: E402
from gmkit.core.files import parquet_bytes  # noqa: E402
from gmkit.rulesets.aeternus.orders import parse_line  # noqa: E402
from gmkit.rulesets.aeternus.rules import PARAMS  # noqa: E402
from gmkit.rulesets.aeternus.state import Table  # noqa: E402
from gmkit.rulesets.aeternus.steps import STEPS  # noqa: E402
from gmkit.rulesets.aeternus.world import World  # noqa: E402

SEED = "be" * 32
START = "2026-01-04T00:00:00+00:00"
LINES = ("Traverse North", "Traverse Mouth", "Forage", "Traverse South", "Scout Ashe and Zest",
         "Traverse Weast", "Craft Torch")


def build(hexes: int, players: int):  # type: ignore[no-untyped-def]
    rules = Params(PARAMS, {"cycle_start": START})
    radius = 0
    while 3 * radius * (radius + 1) + 1 < hexes:
        radius += 1
    world = World.new(rules)
    for h in spiral(Hex(0, 0), radius)[1:hexes]:
        world.generate(h, seed=SEED, turn=0)
    t = Table(world=world, rules=rules)
    spots = [(world.q[i], world.r[i]) for i in range(0, len(world), max(1, len(world) // players))]
    for k in range(players):
        q, r = spots[k % len(spots)]
        pid = f"P{k:02d}"
        t.players[pid] = {"id": pid, "name": pid, "faction": pid, "q": q, "r": r,
                          "active": True, "joined": START, "left_at": None, "declared": [],
                          "ap": 0, "ap_phase": -1, "stag_phase": -1}
        t.gain(pid, "Wood", 40)
        t.gain(pid, "Resin", 20)
    t.clock = {"now": START, "phase": 0}
    t.judge = {"judge": None, "since": START}
    return t.state(0), rules


def batch(hexes: int = 20_000, players: int = 50, actions: int = 2_000
          ) -> tuple[float, float, float, int, int]:
    """Build the world, then resolve the batch and write its tables: the seconds each took,
    the state's size in bytes and the world's hexes."""
    t0 = time.perf_counter()
    state, rules = build(hexes, players)
    built = time.perf_counter() - t0
    at = datetime(2026, 1, 5, tzinfo=timezone.utc)
    envelopes = []
    for i in range(actions):
        pid = f"P{i % players:02d}"
        order = parse_line(PostLine(1, LINES[(i // players) % len(LINES)], False))
        envelopes.append(Envelope(order, pid, i + 1, 1,
                                  posted=(at + timedelta(seconds=i)).isoformat()))
    t1 = time.perf_counter()
    aeternus = find_ruleset("aeternus")  # each action's rules as the game gives them
    driver = Driver(STEPS, state, Orders(envelopes), Dice(SEED, 1), rules,
                    lambda start, now: aeternus.rules_at(start, now, Context(rules)))
    driver.run_all()
    resolved = time.perf_counter() - t1
    t2 = time.perf_counter()
    size = sum(len(parquet_bytes(f)) for f in driver.state.tables.values())
    written = time.perf_counter() - t2
    return built, resolved, written, size, state["world"].height


def bench_aeternus_batch() -> list[dict]:
    """For ``bench/run.py``: the target's batch, resolved and written once."""
    _, resolved, written, _, _ = batch()
    total = resolved + written
    return [{"name": "aeternus_batch_2000_actions_s", "value": round(total, 3), "unit": "s",
             "target": "< 3", "ok": total < 3}]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hexes", type=int, default=20_000)
    ap.add_argument("--players", type=int, default=50)
    ap.add_argument("--actions", type=int, default=2_000)
    args = ap.parse_args()
    built, resolved, written, size, hexes = batch(args.hexes, args.players, args.actions)
    total = resolved + written
    print(f"world of {hexes} hexes, {args.players} players built in {built:.2f} s")
    print(f"{args.actions} actions resolved one by one in {resolved:.2f} s "
          f"({1000 * resolved / max(1, args.actions):.1f} ms an action); state written "
          f"({size // 1024} KiB) in {written:.2f} s")
    print(f"resolved and committed: {total:.2f} s (target: under 3 s for 2,000 actions by 50 "
          f"players on 20,000 hexes)")


if __name__ == "__main__":
    main()
