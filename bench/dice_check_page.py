#!/usr/bin/env python3
"""Time the site's dice checker page on a 100-turn game, in a real browser with the network off.

    python bench/dice_check_page.py           # a readable table
    python bench/dice_check_page.py --json    # one JSON object per line: name, value, unit, target, ok

A six-player Crown of Cien game is played for 100 turns and published; headless Chromium opens
its ``check-dice.html`` from the file system with every request refused, and the figure is the
time from asking for the page to its result (every seed checked, every roll recomputed), the
median of several loads. That game prints few rolls, so the page is also timed on a heavy
document: 100 turns of 300 rolls each (every kind of draw, 30,000 rolls), drawn by gmkit's dice.
Target: each under 5 s. Without Chromium and its driver the benchmark says it was skipped and
why.

:func:`offline_browser` and :func:`check_result` are also what the checker's tests drive.
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
sys.path.insert(0, str(ROOT))

from bench.notebook_clicks import SkipBench, missing_browser  # noqa: E402

TURNS = 100
TARGET_S = 5.0
REPEAT = 3
#: Rolls per turn of the heavy document (a busy game: every kind of draw gmkit makes).
HEAVY_ROLLS = 300


def offline_browser() -> Any:
    """Headless Chromium that can reach nothing but files: no proxy, every host name resolves to
    nowhere, and the DevTools network emulation is offline. Its console is logged."""
    why = missing_browser()
    if why:
        raise SkipBench(why)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or ""
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-proxy-server",
                 "--host-resolver-rules=MAP * ~NOTFOUND", "--disable-background-networking",
                 "--no-first-run", "--disable-quic", "--disable-component-update",
                 "--disable-sync", "--window-size=1280,1800"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    return driver


def check_result(driver: Any, page: Path, timeout: float = 60.0) -> dict[str, str]:
    """Open a checker page and wait for its result: ``#verify-result``'s data attributes
    (``state``, ``draws``, ``seeds``, ``mismatches``...) and its text (``text``)."""
    driver.get(page.resolve().as_uri())
    end = time.perf_counter() + timeout
    while True:
        found = driver.execute_script(
            "const e = document.getElementById('verify-result');"
            "return e ? Object.assign({text: e.textContent}, e.dataset) : null;")
        if found and found.get("state") != "running":
            return dict(found)
        if time.perf_counter() > end:
            raise TimeoutError(f"{page.name}: no result after {timeout} s: {found}")
        time.sleep(0.02)


def heavy_document(turns: int = TURNS, rolls: int = HEAVY_ROLLS) -> dict[str, Any]:
    """A dice document of ``turns`` turns of ``rolls`` rolls each, drawn by gmkit's dice from
    revealed seeds (dice, several dice, choices, weighted choices, shuffles, uniform numbers),
    each turn's record linked to the last, as a site of a busy game carries it."""
    import hashlib

    from gmkit.core import dice as gdice
    from gmkit.core.views import Viewer
    from gmkit.publish.dicecheck import document
    from gmkit.publish.summary import _result_text

    entries = []
    record = hashlib.sha256(b"set-up").hexdigest()
    for turn in range(1, turns + 1):
        seed = hashlib.sha256(f"heavy {turn}".encode()).hexdigest()
        d = gdice.Dice(seed, turn, "battle")
        for i in range(rolls // 6):
            d.d(10, purpose="attack", rule="-", key=f"attack/{i}")
            d.roll(3, 6, purpose="melee", rule="-", key=f"melee/{i}")
            d.choice(["Red", "Gold", "Green", "Cyan"], purpose="who", rule="-", key=f"who/{i}")
            d.choice(["Barren", "Town"], weights=[20, 2], purpose="land", rule="-",
                     key=f"land/{i}")
            d.shuffle(["A", "B", "C", "D", "E"], purpose="order", rule="-", key=f"order/{i}")
            d.uniform(purpose="weather", rule="-", key=f"weather/{i}")
        previous, record = record, hashlib.sha256(f"record {turn}".encode()).hexdigest()
        entries.append({
            "turn": turn, "revision": 0, "commitment": gdice.commitment(seed), "seed": seed,
            "beacon": None, "deadline": None, "record": record, "previous": previous,
            "rolls": [{"step": "battle", "id": r.draw_id, "purpose": r.purpose,
                       "expression": r.expression,
                       "result": _result_text(json.dumps(r.result), r.expression),
                       "source": r.source} for r in d.log]})
    return document("Heavy game", "The Crown of Cien", Viewer.public(), entries)


def _timed(driver: Any, page: Path) -> tuple[float, dict[str, str]]:
    times, found = [], {}
    for _ in range(REPEAT):
        t = time.perf_counter()
        found = check_result(driver, page)
        times.append(time.perf_counter() - t)
    return statistics.median(times), found


def bench_dice_check_page(tmp: Path | None = None) -> list[dict]:
    """The checker page of a published 100-turn game, opened offline; or one row saying why
    the benchmark was skipped."""
    why = missing_browser()
    if why:
        return [{"name": f"dice_check_page_{TURNS}_turns_s", "value": None, "unit": "s",
                 "target": f"< {TARGET_S:g}", "ok": None, "skipped": why}]
    from bench.run import cien_board, ten_players
    from gmkit.publish.dicecheck import checker_page
    from gmkit.sweeps.playout import new_game
    from gmkit.publish.site import publish

    with tempfile.TemporaryDirectory() as scratch:
        base = Path(tmp or scratch)
        game = new_game(base / "hundred", "cien", ten_players(cien_board())[:6], TURNS,
                        master="dice-check", rules={"victory_provinces": 52})
        turns = len(game.store.turns()) - 1
        publish(game, base / "site")
        page = base / "site" / "check-dice.html"
        heavy = base / "heavy.html"
        heavy.write_text(checker_page(heavy_document()), "utf-8")
        driver = offline_browser()
        try:
            seconds, found = _timed(driver, page)
            heavy_s, heavy_found = _timed(driver, heavy)
        finally:
            driver.quit()
    clean = found.get("state") == "done" and found.get("mismatches") == "0"
    heavy_clean = heavy_found.get("state") == "done" and heavy_found.get("mismatches") == "0" \
        and heavy_found.get("draws") == str(TURNS * (HEAVY_ROLLS // 6) * 6)
    return [
        {"name": f"dice_check_page_{turns}_turns_s", "value": round(seconds, 3), "unit": "s",
         "target": f"< {TARGET_S:g}", "ok": seconds < TARGET_S and clean and turns >= TURNS},
        {"name": "dice_check_page_draws", "value": int(found.get("draws", 0)), "unit": "draws",
         "target": None, "ok": clean},
        {"name": "dice_check_page_seeds", "value": int(found.get("seeds", 0)), "unit": "seeds",
         "target": None, "ok": clean},
        {"name": f"dice_check_page_{TURNS}_turns_{HEAVY_ROLLS}_rolls_each_s",
         "value": round(heavy_s, 3), "unit": "s", "target": f"< {TARGET_S:g}",
         "ok": heavy_s < TARGET_S and heavy_clean},
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args()
    results = bench_dice_check_page()
    for r in results:
        if args.json:
            print(json.dumps(r))
        else:
            print(f"{r['name']:<40} {r['value']!s:>10} {r['unit']:<6} target "
                  f"{r['target'] or '-':<8} {'ok' if r['ok'] else 'MISSED'}"
                  + (f" (skipped: {r['skipped']})" if r.get("skipped") else ""))
    return 0 if all(r["ok"] is not False for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
