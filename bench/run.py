#!/usr/bin/env python3
"""gmkit's benchmarks: each prints its figure beside its target.

    python bench/run.py           # a readable table
    python bench/run.py --json    # one JSON object per line: name, value, unit, target, ok
    python bench/run.py --only bench_turn   # only the benchmarks whose function name has this
    python bench/run.py --json > before.json   # before a change ...
    python bench/run.py --against before.json  # ... and after: names each figure >20% worse

Targets compare ratios measured in the same run where the target is relative, since the machines
that run this are shared and noisy. Each figure is the median of several repetitions.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.aeternus_import import bench_aeternus_import  # noqa: E402
from bench.aeternus_turn import bench_aeternus_batch  # noqa: E402
from bench.aztlan_adjudicate import bench_adjudicate, median_time  # noqa: E402
from bench.beacon import bench_beacon  # noqa: E402
from bench.board_limits import bench_board_limits  # noqa: E402
from bench.cli_startup import bench_cli_startup  # noqa: E402
from bench.dice_check_page import bench_dice_check_page  # noqa: E402
from bench.gm_first_page import bench_gm_first_page  # noqa: E402
from bench.hex_draw import bench_hex_draw  # noqa: E402
from bench.map_labels import bench_map_labels  # noqa: E402
from bench.notebook_clicks import bench_notebook_clicks  # noqa: E402
from bench.parse_limits import bench_parse_limits  # noqa: E402
from bench.position_limits import bench_position_limits  # noqa: E402
from bench.history_settle import bench_history_settle  # noqa: E402
from bench.aeternus_world import bench_world as bench_aeternus_world  # noqa: E402
from bench.jungle_scale import bench_big_session as bench_jungle_big_session  # noqa: E402
from bench.jungle_scale import bench_verify as bench_jungle_verify  # noqa: E402
from bench.jungle_session import bench_session as bench_jungle_session  # noqa: E402
from bench.pyramid_round import bench_pyramid_round  # noqa: E402
from bench.site_incremental import bench_site_incremental  # noqa: E402
from bench.sweep import bench_sweep  # noqa: E402
from bench.whatif import bench_whatif  # noqa: E402
from gmkit.core.boards.resources import load_package_map  # noqa: E402
from gmkit.core.boards.polygon import PolygonBoard  # noqa: E402
from gmkit.game import Game  # noqa: E402
from gmkit.sweeps.playout import derived_seed, new_game, receive_bot_posts  # noqa: E402

TEN = [{"id": c, "name": f"Player {c}", "state": s, "government": g} for c, s, g in [
    ("Red", "Solsauvre", "duchy"), ("Gold", "Coyons", "city-state"), ("Green", "Sevoy", "duchy"),
    ("Cyan", "Guicardie", "city-state"), ("Orange", "Tróys", "duchy"),
]]


def cien_board() -> PolygonBoard:
    """The Crown of Cien's board, as the ruleset ships it (package data)."""
    return load_package_map("gmkit.rulesets.cien.board", "cien.geojson")


def ten_players(game_map: PolygonBoard) -> list[dict]:
    """Ten players on spread-out states of the map."""
    named = [p["state"] for p in TEN]
    others = [n for n in game_map.land() if n not in named and n != "Cien"]
    colours = ["Silver", "Purple", "White", "Teal", "Lavender"]
    step = max(1, len(others) // len(colours))
    extra = [{"id": c, "name": f"Player {c}", "state": others[i * step], "government": "duchy"}
             for i, c in enumerate(colours)]
    return TEN + extra


def settle(folder: Path) -> None:
    """Sync everything under ``folder``, so that what was written before a timing is not
    flushed to disk inside it (the first sync of a commit would otherwise write out the game
    folder the setting-up copied, and the Parquet files the plain read and write left
    unsynced)."""
    for path in [folder, *folder.rglob("*")]:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def bench_turn(tmp: Path, reps: int = 15) -> list[dict]:
    """Resolve and commit one turn of a 10-player game (from opening the folder to the turn
    renamed into place, synced), against reading and writing the same tables as Parquet (not
    synced); the two are timed one after the other on the same folder, the commit after what
    was written before it was synced, and the ratio is the median of the pairs' ratios."""
    game_map = cien_board()
    base = tmp / "ten"
    new_game(base, "cien", ten_players(game_map), 3, master="bench")
    resolve_times, io_times = [], []
    for i in range(reps):
        work = tmp / f"ten-{i}"
        shutil.copytree(base, work)
        game = Game.open(work)
        game.store.write_seed(game.next_turn, derived_seed("bench", "turn", game.next_turn))
        game.commitment()  # shown before the orders, as `gmkit resolve` requires
        receive_bot_posts(game, "bench")
        folder = game.store.turn_path(game.latest_turn)
        files = sorted(folder.rglob("*.parquet"))
        out = tmp / f"io-{i}"
        out.mkdir()

        def io() -> None:
            for j, f in enumerate(files):
                pl.read_parquet(f).write_parquet(out / f"{j}.parquet")

        io_times.append(median_time(io, 1))
        settle(work)
        settle(out)
        t = time.perf_counter()
        game = Game.open(work)
        game.commit(game.start())
        resolve_times.append(time.perf_counter() - t)
    r, b = statistics.median(resolve_times), statistics.median(io_times)
    ratio = statistics.median(x / y for x, y in zip(resolve_times, io_times, strict=True))
    return [
        {"name": "cien_turn_resolve_commit_ms", "value": round(r * 1000, 2), "unit": "ms",
         "target": None, "ok": True},
        {"name": "cien_turn_parquet_io_ms", "value": round(b * 1000, 2), "unit": "ms",
         "target": None, "ok": True},
        {"name": "cien_turn_vs_parquet_io_ratio", "value": round(ratio, 2), "unit": "x",
         "target": "<= 1.5", "ok": ratio <= 1.5},
    ]


def bench_verify(tmp: Path) -> list[dict]:
    """``gmkit verify`` of a 100-turn game."""
    game_map = cien_board()
    game = new_game(tmp / "hundred", "cien", ten_players(game_map)[:6], 100, master="verify",
                    rules={"victory_provinces": 52})
    turns = len(game.store.turns()) - 1
    t = time.perf_counter()
    problems = Game.open(tmp / "hundred").verify()
    v = time.perf_counter() - t
    results = [{"name": f"cien_verify_{turns}_turns_s", "value": round(v, 3), "unit": "s",
                "target": "< 5", "ok": v < 5 and not problems and turns >= 100}]
    from gmkit.publish.site import publish

    t = time.perf_counter()
    pages = publish(Game.open(tmp / "hundred"), tmp / "hundred-site")
    p = time.perf_counter() - t
    results.append({"name": f"publish_{turns}_turns_s", "value": round(p, 3), "unit": "s",
                    "target": "< 20", "ok": p < 20 and len(pages) >= turns + 2})
    return results


def bench_aztlan_verify(tmp: Path) -> list[dict]:
    """``gmkit verify`` of a whole AZTLAN game, Winter 1450 to Fall 1519 (280 turns)."""
    from gmkit.rulesets import find_ruleset

    players = find_ruleset("aztlan").example_players(None)
    game = new_game(tmp / "aztlan", "aztlan", players, 300, master="aztlan-1450-1519",
                    rules={"victory_centres": 80, "spanish_season": "Fall"})
    turns = len(game.store.turns()) - 1
    t = time.perf_counter()
    problems = Game.open(tmp / "aztlan").verify()
    v = time.perf_counter() - t
    return [{"name": f"aztlan_verify_{turns}_turns_s", "value": round(v, 3), "unit": "s",
             "target": "< 15", "ok": v < 15 and not problems and turns == 280}]


def bench_map() -> list[dict]:
    """The province map to SVG."""
    game_map = cien_board()
    fills = {n: "#c0392b" if i % 3 == 0 else "#27ae60" for i, n in enumerate(game_map.land())}
    labels = {n: f"{n}\n{i}" for i, n in enumerate(game_map.land())}
    from gmkit.core.drawing.polygon_svg import KIND_FILLS, PolygonLayout, polygon_svg, region_labels
    from gmkit.core.drawing.scene import Scene

    def scene(board: PolygonBoard) -> Scene:
        return Scene(fills=dict(fills), kind_fills=KIND_FILLS,
                     labels=region_labels(board, labels))

    layout = PolygonLayout(game_map, 900)
    fresh = median_time(lambda: (lambda b: polygon_svg(b, scene(b)))(cien_board()), 5)
    warm = median_time(lambda: polygon_svg(game_map, scene(game_map), layout=layout), 9)
    return [{"name": "cien_map_svg_s", "value": round(warm, 4), "unit": "s", "target": "< 0.3",
             "ok": warm < 0.3},
            {"name": "cien_map_load_and_svg_s", "value": round(fresh, 4), "unit": "s",
             "target": None, "ok": True}]


def bench_notebook(tmp: Path) -> list[dict]:
    """The turn notebook run headless on the sample, against importing marimo, polars and altair
    alone; and the gmkit call behind "next step" in an open notebook."""
    import subprocess

    from gmkit.desk import Desk

    work = tmp / "nb-sample"
    shutil.copytree(ROOT / "data" / "sample-cien", work)

    def run(args: list[str]) -> float:
        t = time.perf_counter()
        subprocess.run([sys.executable, *args], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - t

    imports = statistics.median(run(["-c", "import marimo, polars, altair"]) for _ in range(3))
    notebook = statistics.median(run([str(ROOT / "notebooks" / "turn.py"), "--game", str(work)])
                                 for _ in range(3))
    desk = Desk.open(work)
    desk.begin()
    steps = []
    while True:
        t = time.perf_counter()
        view = desk.step()
        steps.append(time.perf_counter() - t)
        if view is None or desk.position >= desk.step_count:
            break
    step = statistics.median(steps)
    return [
        {"name": "turn_notebook_headless_s", "value": round(notebook, 3), "unit": "s",
         "target": None, "ok": True},
        {"name": "import_marimo_polars_altair_s", "value": round(imports, 3), "unit": "s",
         "target": None, "ok": True},
        {"name": "turn_notebook_vs_imports_ratio", "value": round(notebook / imports, 2),
         "unit": "x", "target": "<= 1.5", "ok": notebook / imports <= 1.5},
        {"name": "notebook_next_step_ms", "value": round(step * 1000, 2), "unit": "ms",
         "target": "< 100", "ok": step < 0.1},
        {"name": "notebook_next_step_max_ms", "value": round(max(steps) * 1000, 2), "unit": "ms",
         "target": None, "ok": True},
    ]


#: a figure more than this much worse than the earlier run's is named by ``--against``
WORSE = 0.20


def lower_is_better(row: dict) -> bool:
    """Whether a smaller figure is the better one: times, ratios to a floor, sizes; a count
    or a rate whose target is a floor (">= ...") is better larger."""
    target = str(row.get("target") or "")
    return not target.startswith((">", "\u2265"))


def worse_than(before: list[dict], after: list[dict], worse: float = WORSE) -> list[str]:
    """The figures of ``after`` more than ``worse`` (a share) worse than the same figures of
    ``before``, each in a line naming it with both values; figures either run skipped or did
    not give, and figures that are not numbers, are left out."""
    was = {r["name"]: r for r in before if isinstance(r.get("value"), (int, float))
           and not isinstance(r.get("value"), bool)}
    out = []
    for row in after:
        old, new = was.get(row["name"]), row.get("value")
        if old is None or not isinstance(new, (int, float)) or isinstance(new, bool):
            continue
        base = float(old["value"])
        if base == 0:
            continue
        change = (new - base) / abs(base)
        if (change > worse) if lower_is_better(row) else (change < -worse):
            out.append(f"{row['name']}: {base:g} -> {new:g} {row.get('unit', '')} "
                       f"({change:+.0%}; target {row.get('target') or '-'})")
    return out


def read_results(path: Path) -> list[dict]:
    """An earlier run's ``--json`` output (one object a line; lines that are not JSON, such
    as a benchmark's own notes, are skipped)."""
    rows = []
    for line in path.read_text("utf-8").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict) and "name" in row:
            rows.append(row)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--only", help="run only benchmarks whose function name contains this")
    parser.add_argument("--against", type=Path, metavar="FILE",
                        help="an earlier run's --json output: name each figure more than "
                             f"{WORSE:.0%} worse")
    args = parser.parse_args()
    earlier = read_results(args.against) if args.against else None
    results: list[dict] = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for fn in (bench_map, bench_hex_draw, bench_map_labels, bench_beacon, bench_board_limits,
                   bench_turn,
                   bench_verify, bench_dice_check_page, bench_notebook,
                   bench_notebook_clicks, bench_history_settle, bench_adjudicate,
                   bench_aztlan_verify, bench_pyramid_round, bench_jungle_session,
                   bench_jungle_big_session, bench_jungle_verify, bench_aeternus_world,
                   bench_aeternus_batch, bench_aeternus_import, bench_sweep, bench_whatif,
                   bench_parse_limits, bench_position_limits, bench_cli_startup,
                   bench_site_incremental, bench_gm_first_page):
            if args.only and args.only not in fn.__name__:
                continue
            # each benchmark's folders apart from the others'
            own = Path(tempfile.mkdtemp(prefix=f"{fn.__name__}-", dir=tmp))
            results.extend(fn() if fn in (bench_map, bench_hex_draw, bench_map_labels,
                                          bench_beacon, bench_board_limits,
                                          bench_notebook_clicks,
                                          bench_history_settle, bench_sweep,
                                          bench_aeternus_world, bench_aeternus_batch,
                                          bench_gm_first_page)
                           else fn(own))
    for r in results:
        if args.json:
            print(json.dumps(r, ensure_ascii=False))
        elif r.get("skipped"):  # the browser benchmark, where no browser can run
            print(f"{r['name']:<36} skipped: {r['skipped']}")
        else:
            target = r["target"] or "-"
            value = round(r["value"], 3) if isinstance(r["value"], float) else r["value"]
            print(f"{r['name']:<36} {value:>10} {r['unit']:<3} target {target:<6} "
                  f"{'ok' if r['ok'] else 'MISSED'}")
    if earlier is not None:
        worse = worse_than(earlier, results)
        print(f"against {args.against}: " + (f"{len(worse)} figure(s) more than {WORSE:.0%} "
                                              "worse" if worse else "nothing more than "
                                              f"{WORSE:.0%} worse"), file=sys.stderr)
        for line in worse:
            print(f"  worse: {line}", file=sys.stderr)
        if worse:
            return 1
    return 0 if all(r["ok"] is not False for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
