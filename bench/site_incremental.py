"""``gmkit publish`` into a site it wrote before, against publishing the same game afresh.

A 100-turn Crown of Cien game (six bot players) is published once; a copy of it plays one more
turn. Each round times three ``gmkit publish`` commands, each a new process as a GM runs it, in
a rotating order: the 101-turn game into a new folder (the full publish), the 100-turn game
into a copy of its site (nothing new), and the 101-turn game into another copy of that site
(one new turn: its page, the page of the turn before, the index, the history and the dice
checker are drawn, the other 99 turn pages carried over). The copies are made before the
clock starts. Each figure is the median over the rounds of the ratio to the same round's full
publish, in wall time (the target) and, for the new turn, in processor time too (the full
publish draws its turn pages in two processes, so on a busy machine its wall time gains on the
new turn's single process: the processor time says how much work each does).

Targets: at most 0.2x the full publish, with nothing new and after one new turn.

    python bench/site_incremental.py        # this benchmark alone, as JSON lines
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TURNS = 100
ROUNDS = 3
TARGET = 0.2


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"]
                                      if env.get("PYTHONPATH") else "")
    return env


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _publish(game: Path, site: Path, env: dict[str, str], cpu: list[float] | None = None
             ) -> float:
    """The wall time of one ``gmkit publish``; its processor time (its worker processes'
    too) appended to ``cpu``."""
    before = _children_cpu()
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "gmkit.cli", "publish", str(game), "--out",
                    str(site)], env=env, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    wall = time.perf_counter() - t
    if cpu is not None:
        cpu.append(_children_cpu() - before)
    return wall


def bench_site_incremental(tmp: Path) -> list[dict]:
    """Publishing again with nothing new, and after one new turn, against a full publish."""
    from bench.run import cien_board, ten_players
    from gmkit.game import Game
    from gmkit.sweeps.playout import new_game, play

    before = tmp / "hundred"
    new_game(before, "cien", ten_players(cien_board())[:6], TURNS, master="site",
             rules={"victory_provinces": 52})
    after = tmp / "hundred-and-one"
    shutil.copytree(before, after)
    play(Game.open(after), 1, master="site")
    env = _env()
    site = tmp / "site"
    _publish(before, site, env)  # the site published before; bytecode written
    full, none, new = [], [], []
    cpu: dict[str, list[float]] = {"full": [], "none": [], "new": []}

    def full_publish() -> None:
        target = tmp / "fresh"
        shutil.rmtree(target, ignore_errors=True)
        full.append(_publish(after, target, env, cpu["full"]))

    def nothing_new() -> None:
        target = tmp / "again"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(site, target)
        none.append(_publish(before, target, env, cpu["none"]))

    def one_new_turn() -> None:
        target = tmp / "next"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(site, target)
        new.append(_publish(after, target, env, cpu["new"]))

    runs = [full_publish, nothing_new, one_new_turn]
    for i in range(ROUNDS):
        for run in runs[i % 3:] + runs[:i % 3]:
            run()
    pages = len(list((tmp / "next").glob("turn-*.html")))
    ratios = {name: statistics.median(t / f for t, f in zip(times, full))
              for name, times in (("nothing_new", none), ("new_turn", new))}
    cpu_ratio = statistics.median(n / f for n, f in zip(cpu["new"], cpu["full"]))
    return [
        {"name": f"publish_full_{TURNS + 1}_turns_cli_s",
         "value": round(statistics.median(full), 3), "unit": "s", "target": None, "ok": True},
        {"name": "publish_nothing_new_cli_s", "value": round(statistics.median(none), 3),
         "unit": "s", "target": None, "ok": True},
        {"name": "publish_new_turn_cli_s", "value": round(statistics.median(new), 3),
         "unit": "s", "target": None, "ok": True},
        {"name": "publish_nothing_new_vs_full_ratio", "value": round(ratios["nothing_new"], 3),
         "unit": "x", "target": f"<= {TARGET}", "ok": ratios["nothing_new"] <= TARGET},
        {"name": "publish_new_turn_vs_full_cpu_ratio", "value": round(cpu_ratio, 3),
         "unit": "x", "target": None, "ok": True},
        {"name": "publish_new_turn_vs_full_ratio", "value": round(ratios["new_turn"], 3),
         "unit": "x", "target": f"<= {TARGET}",
         "ok": ratios["new_turn"] <= TARGET and pages == TURNS + 1},
    ]


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as d:
        for r in bench_site_incremental(Path(d)):
            print(json.dumps(r))
