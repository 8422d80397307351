#!/usr/bin/env python3
"""Time a newcomer's first command: ``python3 bootstrap.py gm`` on a fresh clone, to the port
answering and to a usable page (the sample's map and standings drawn in headless Chromium).

    python bench/gm_first_page.py           # warm: the package caches as they are
    python bench/gm_first_page.py --cold    # cold: empty package caches of its own (downloads)
    python bench/gm_first_page.py --json    # one JSON object per line: name, value, unit, target, ok

The clone is of what is committed (``git clone`` of this checkout), so the figure is the one a
newcomer meets; the machine's load average is printed beside it. Target: a usable page under
60 s on a warm cache. Without Chromium and its driver only the time to the port is given.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.notebook_clicks import _DEEP, _free_port, browser, missing_browser  # noqa: E402

TARGET = 60.0

_USABLE = _DEEP + """
const wide = window.__deep('svg').filter(s => s.getBoundingClientRect().width > 200).length;
return window.__text().includes('Standings') && wide > 0;
"""


def first_page(cold: bool, timeout: float = 900) -> dict[str, float | None]:
    """Seconds from ``bootstrap.py gm`` to the port, and to a usable page (None without a
    browser)."""
    with tempfile.TemporaryDirectory() as tmp:
        clone = Path(tmp) / "gmkit"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        port = _free_port()
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
        env.update(GMKIT_HEADLESS="1", GMKIT_PORT=str(port))
        if cold:
            env.update(UV_CACHE_DIR=str(Path(tmp) / "uv-cache"),
                       PIP_CACHE_DIR=str(Path(tmp) / "pip-cache"))
        driver = browser() if missing_browser() is None else None
        t0 = time.monotonic()
        proc = subprocess.Popen(["python3", "bootstrap.py", "gm"], cwd=clone, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        try:
            url = f"http://127.0.0.1:{port}/"
            while True:
                try:
                    urllib.request.urlopen(url, timeout=5).close()
                    break
                except OSError:
                    if proc.poll() is not None or time.monotonic() - t0 > timeout:
                        raise RuntimeError("the notebook never answered") from None
                    time.sleep(0.2)
            to_port = time.monotonic() - t0
            usable = None
            if driver is not None:
                driver.get(url)
                while not driver.execute_script(_USABLE):
                    if time.monotonic() - t0 > timeout:
                        raise RuntimeError("the page never showed the map and standings")
                    time.sleep(0.2)
                usable = time.monotonic() - t0
            return {"port": to_port, "usable": usable}
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(60)
            if driver is not None:
                driver.quit()


def bench_gm_first_page(cold: bool = False) -> list[dict]:
    """The two figures, each with the load average of the minute before it ended."""
    got = first_page(cold)
    load = os.getloadavg()[0]
    cache = "cold" if cold else "warm"
    rows = [{"name": f"bootstrap.py gm to the port ({cache} cache, load {load:.1f})",
             "value": round(got["port"] or 0, 1), "unit": "s", "target": None, "ok": True}]
    if got["usable"] is None:
        rows.append({"name": "bootstrap.py gm to a usable page", "value": None, "unit": "s",
                     "target": f"< {TARGET:.0f} s", "ok": None,
                     "skipped": str(missing_browser())})
    else:
        rows.append({"name": f"bootstrap.py gm to a usable page ({cache} cache, load "
                             f"{load:.1f})", "value": round(got["usable"], 1), "unit": "s",
                     "target": f"< {TARGET:.0f} s", "ok": got["usable"] < TARGET})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold", action="store_true", help="empty package caches of its own")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for row in bench_gm_first_page(args.cold):
        if args.json:
            print(json.dumps(row))
        elif row.get("skipped"):
            print(f"{row['name']}: skipped ({row['skipped']})")
        else:
            target = row["target"] or "-"
            verdict = "" if row["target"] is None else ("ok" if row["ok"] else "SLOW")
            print(f"{row['name']:<62} {row['value']:6.1f} {row['unit']}  target {target:<7} "
                  f"{verdict}")


if __name__ == "__main__":
    main()
