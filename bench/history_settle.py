#!/usr/bin/env python3
"""Time the history notebook until it settles, in a real browser, on every bundled sample.

    python bench/history_settle.py           # a readable table
    python bench/history_settle.py --json    # one JSON object per line: name, value, unit, target, ok

The notebook (``notebooks/history.py``) runs as an app (``marimo run``) on a copy of each sample;
headless Chromium loads the page, and the figure is the time from the request to the moment the
page settles: every chart drawn and the page's text unchanged for a second since. Target: under
10 s. Without Chromium and its driver the benchmark says it was skipped and why.

:class:`HistoryApp` is also what the history notebook's browser tests drive.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.notebook_clicks import (_DEEP, _free_port, browser, missing_browser,  # noqa: E402
                                   samples)

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "history.py"
SETTLE_TARGET = 10.0
QUIET = 1.0  # seconds without change that count as settled

_STATE = _DEEP + """
const embeds = window.__deep('.vega-embed');
return {charts: embeds.length,
        drawn: embeds.filter(e => e.querySelector('canvas, svg.marks')).length,
        text: window.__text().length,
        tables: window.__deep('td').length,
        cells: window.__deep('td').map(c => c.innerText.trim()),
        problem: document.body.innerText.includes('Cannot open this game folder')};
"""


class HistoryApp:
    """The history notebook served by ``marimo run`` on a game folder."""

    def __init__(self, game: Path, driver: Any):
        self.game, self.driver = game, driver
        self.port = _free_port()
        marimo = str(Path(sys.executable).with_name("marimo"))
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.server = subprocess.Popen(
            [marimo, "run", str(NOTEBOOK), "--headless", "--port", str(self.port),
             "--no-token", "--", "--game", str(game)],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def serving(self, timeout: float = 60) -> None:
        """Wait until the server answers (not timed: the GM starts it once)."""
        import urllib.request

        end = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=5):
                    return
            except OSError:
                if time.monotonic() > end:
                    raise
                time.sleep(0.3)

    def open(self) -> float:
        """Request the page once the server answers; returns the time of the request."""
        self.serving()
        t0 = time.monotonic()
        self.driver.get(f"http://127.0.0.1:{self.port}/")
        return t0

    def wait_until_drawn(self, charts: int, cell: str = "", timeout: float = 300
                         ) -> dict[str, Any]:
        """Wait until at least ``charts`` charts are drawn and a table shows (with a cell
        reading ``cell``, if given): what the tests check, however busy the machine; returns
        the page's state then."""
        end = time.monotonic() + timeout
        while True:
            state = self.driver.execute_script(_STATE)
            if state["problem"]:
                raise AssertionError(f"the notebook could not open {self.game}")
            if state["drawn"] >= charts and state["tables"] and (
                    not cell or cell in state["cells"]):
                return dict(state)
            if time.monotonic() > end:
                raise TimeoutError(f"the history notebook drew {state['drawn']} of {charts} "
                                   f"charts in {timeout:.0f} s: {state}")
            time.sleep(0.2)

    def load(self, timeout: float = 120) -> float:
        """Load the page; seconds until it settles (every chart drawn, the text still): the
        benchmark's figure, where a quiet second is the end of the work to time."""
        t0 = self.open()
        last, changed = None, time.monotonic()
        while True:
            now = time.monotonic()
            state = self.driver.execute_script(_STATE)
            if state["problem"]:
                raise AssertionError(f"the notebook could not open {self.game}")
            key = (state["charts"], state["drawn"], state["text"])
            if key != last:
                last, changed = key, now
            elif state["charts"] and state["drawn"] == state["charts"] and now - changed >= QUIET:
                return changed - t0
            if now - t0 > timeout:
                raise TimeoutError(f"the history notebook did not settle: {state}")
            time.sleep(0.1)

    def close(self) -> None:
        self.server.terminate()
        try:
            self.server.wait(10)
        except subprocess.TimeoutExpired:
            self.server.kill()


def bench_history_settle() -> list[dict]:
    """One figure per sample, or one row saying why the benchmark was skipped."""
    why = missing_browser()
    if why:
        return [{"name": "history notebook settles", "value": None, "unit": "s",
                 "target": f"< {SETTLE_TARGET} s", "ok": None, "skipped": why}]
    driver = browser()
    rows: list[dict] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for sample in samples():
                game = Path(tmp) / f"sample-{sample}"
                shutil.copytree(ROOT / "data" / f"sample-{sample}", game)
                app = HistoryApp(game, driver)
                try:
                    seconds = app.load()
                finally:
                    app.close()
                rows.append({"name": f"{sample}: history notebook settles", "value": seconds,
                             "unit": "s", "target": f"< {SETTLE_TARGET} s",
                             "ok": seconds < SETTLE_TARGET})
    finally:
        driver.quit()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for row in bench_history_settle():
        if args.json:
            print(json.dumps(row))
        elif row.get("skipped"):
            print(f"{row['name']}: skipped ({row['skipped']})")
        else:
            print(f"{row['name']:<45} {row['value']:7.3f} {row['unit']}  target "
                  f"{row['target']:<8} {'ok' if row['ok'] else 'SLOW'}")


if __name__ == "__main__":
    main()
