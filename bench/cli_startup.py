"""Commands that answer at once, against importing polars alone.

Each figure is a ``gmkit`` command run as a GM runs it (a new Python process, bytecode cached
as an installed package has it), timed against ``python -c "import polars"`` in the same
round: the five runs of a round follow each other in a rotating order, and each figure is the
median over the rounds of the command's time divided by the polars import's. The game is a copy
of the Crown of Cien sample (whose ruleset loads its polygon map's libraries, numpy and shapely,
and its drawing code on import); ``orders`` stores a post in a fresh copy each time.

Targets: ``--version`` and ``--help`` at most 0.5x the polars import; ``status`` and
``orders`` at most 2x.

    python bench/cli_startup.py        # this benchmark alone, as JSON lines
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ROUNDS = 9
POST = "[b]10 Grain for Conquest of Vauclerc.[/b]\n[b]2 Grain for Defense of Lorvenne.[/b]\n"
TARGETS = {"version": 0.5, "help": 0.5, "status": 2.0, "orders": 2.0}


def _env() -> dict[str, str]:
    """This process's environment with gmkit found from here and bytecode written (as an
    installed package has it cached)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"]
                                      if env.get("PYTHONPATH") else "")
    return env


def _time(args: list[str], env: dict[str, str], stdin: str | None = None) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, input=stdin, text=True, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    return time.perf_counter() - t


def bench_cli_startup(tmp: Path) -> list[dict]:
    """``gmkit --version``, ``--help``, ``status`` and ``orders`` against importing polars."""
    env = _env()
    base = tmp / "cien"
    shutil.copytree(ROOT / "data" / "sample-cien", base, ignore=shutil.ignore_patterns(".lock"))
    player = "Red"
    gmkit = ["-m", "gmkit.cli"]
    runs = {
        "polars": lambda: _time(["-c", "import polars"], env),
        "version": lambda: _time([*gmkit, "--version"], env),
        "help": lambda: _time([*gmkit, "--help"], env),
        "status": lambda: _time([*gmkit, "status", str(base)], env),
    }

    def orders() -> float:
        work = tmp / "orders"
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(base, work)
        return _time([*gmkit, "orders", str(work), "--player", player, "-"], env, POST)

    runs["orders"] = orders
    for run in runs.values():  # bytecode written, caches warm
        run()
    times: dict[str, list[float]] = {name: [] for name in runs}
    names = list(runs)
    for i in range(ROUNDS):
        for name in names[i % len(names):] + names[:i % len(names)]:
            times[name].append(runs[name]())
    results = [{"name": "import_polars_s", "value": round(statistics.median(times["polars"]), 3),
                "unit": "s", "target": None, "ok": True}]
    for name, target in TARGETS.items():
        ratio = statistics.median(t / p for t, p in zip(times[name], times["polars"]))
        results.append({"name": f"gmkit_{name}_s",
                        "value": round(statistics.median(times[name]), 3), "unit": "s",
                        "target": None, "ok": True})
        results.append({"name": f"gmkit_{name}_vs_import_polars_ratio",
                        "value": round(ratio, 2), "unit": "x", "target": f"<= {target}",
                        "ok": ratio <= target})
    return results


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as d:
        for r in bench_cli_startup(Path(d)):
            print(json.dumps(r))
