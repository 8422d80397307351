#!/usr/bin/env python3
"""Time the GM's clicks in the marimo turn notebook, in a real browser.

    python bench/notebook_clicks.py           # a readable table
    python bench/notebook_clicks.py --json    # one JSON object per line: name, value, unit, target, ok

The notebook (``notebooks/turn.py``) runs as an app (``marimo run``) on a working copy of each
bundled sample (all five); headless Chromium clicks Next step, Step back and Enter die, and Write the
summaries after committing the turn. Each figure is the time from the click to its result on
screen (the step's heading, the die's outcome, the written files), the median of repeated clicks.
Targets: a click's result under 0.4 s, the summaries under 2 s. Without Chromium and its driver
the benchmark says it was skipped and why.

:class:`NotebookApp` and :func:`browser` are also what the notebook's browser tests drive.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "turn.py"
CLICK_TARGET = 0.4
SUMMARY_TARGET = 2.0
REPEAT = 7

#: Finds elements through marimo's shadow roots (its buttons and inputs live in them).
_DEEP = """
window.__deep = function(sel) {
  const out = [];
  const walk = (root) => {
    out.push(...root.querySelectorAll(sel));
    for (const e of root.querySelectorAll('*')) if (e.shadowRoot) walk(e.shadowRoot);
  };
  walk(document);
  return out;
};
window.__text = function() {
  let text = document.body.innerText;
  for (const e of document.querySelectorAll('*')) {
    if (e.shadowRoot) text += ' ' + e.shadowRoot.textContent;
  }
  return text;
};
window.__button = function(label) {
  return window.__deep('button').find(b => b.innerText.trim() === label);
};
"""

#: Click a button, then wait (polling each frame) until ``expect`` shows in the page's text.
_CLICK_AND_WAIT = _DEEP + """
const [label, expect, timeout, done] = arguments;
const button = window.__button(label);
if (!button) { done({error: 'no button ' + label}); return; }
const t0 = performance.now();
button.click();
const poll = () => {
  const text = window.__text();
  if (text.includes(expect)) { done({seconds: (performance.now() - t0) / 1000}); return; }
  if (performance.now() - t0 > timeout * 1000) {
    done({error: 'timed out waiting for ' + expect, text: text.slice(0, 4000)}); return; }
  requestAnimationFrame(poll);
};
requestAnimationFrame(poll);
"""


#: Records the text of every notification marimo shows (its red "An internal error occurred"
#: when a cell fails), even one shown for a moment only; installed before any page loads.
_TOAST_WATCH = """
window.__toasts = [];
new MutationObserver(() => {
  for (const li of document.querySelectorAll('[aria-label^="Notifications"] li')) {
    if (!li.__seen) { li.__seen = true; window.__toasts.push(li.innerText); }
  }
}).observe(document, {childList: true, subtree: true});
"""


def watch_toasts(driver: Any) -> None:
    """From now on, every page ``driver`` loads records the notifications it shows."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _TOAST_WATCH})


def toasts(driver: Any) -> list[str]:
    """The notifications the page shown has raised so far (see :func:`watch_toasts`)."""
    return list(driver.execute_script("return window.__toasts || [];"))


class SkipBench(RuntimeError):
    """The browser or its driver is missing; the message says which."""


def samples() -> list[str]:
    """The bundled samples' names."""
    return sorted(p.name.removeprefix("sample-") for p in (ROOT / "data").glob("sample-*"))


def missing_browser() -> str | None:
    """Why the browser cannot run here, or None when it can."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed"
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        return "Debian's chromium is not installed"
    if not shutil.which("chromedriver"):
        return "Debian's chromium-driver (chromedriver) is not installed"
    return None


def browser() -> Any:
    """Headless Chromium driven by selenium."""
    why = missing_browser()
    if why:
        raise SkipBench(why)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or ""
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--no-first-run", "--disable-quic", "--disable-component-update",
                 "--disable-sync", "--window-size=1280,1800"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.set_script_timeout(120)
    return driver


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class NotebookApp:
    """The turn notebook served by ``marimo run`` on a game folder, opened in a browser."""

    def __init__(self, game: Path | None, driver: Any, args: list[str] | None = None,
                 port: int | None = None):
        """``game``: the folder to open (``--game``); else ``args``, the notebook's own
        arguments (``--sample NAME --work DIR``); ``port``: that of a server stopped before
        (a page left open on it reconnects), else a free one."""
        self.game, self.driver, self.args = game, driver, args
        self.port = port or _free_port()
        marimo = str(Path(sys.executable).with_name("marimo"))
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.server = subprocess.Popen(
            [marimo, "run", str(NOTEBOOK), "--headless", "--port", str(self.port),
             "--no-token", "--", *(["--game", str(game)] if game is not None else args or [])],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def open(self, expect: str = "Resolution", timeout: float = 90) -> None:
        """Load the page and wait until a button labelled ``expect`` is drawn."""
        end = time.monotonic() + timeout
        while True:
            try:
                self.driver.get(f"http://127.0.0.1:{self.port}/")
                break
            except Exception:  # noqa: BLE001 - the server is still starting
                if time.monotonic() > end:
                    raise
                time.sleep(0.5)
        while not self.has_button(expect):
            if time.monotonic() > end:
                raise TimeoutError(f"the notebook did not draw its '{expect}' button")
            time.sleep(0.3)

    def close(self) -> None:
        self.server.terminate()
        try:
            self.server.wait(10)
        except subprocess.TimeoutExpired:
            self.server.kill()

    def has_button(self, label: str) -> bool:
        return bool(self.driver.execute_script(_DEEP + "return !!window.__button(arguments[0]);",
                                               label))

    def text(self) -> str:
        """The page's text, with that inside the shadow roots of marimo's widgets."""
        return str(self.driver.execute_script(_DEEP + "return window.__text();"))

    def click(self, label: str, expect: str, timeout: float = 30) -> float:
        """Click the button ``label``; seconds until ``expect`` shows in the page."""
        got = self.driver.execute_async_script(_CLICK_AND_WAIT, label, expect, timeout)
        if "error" in got:
            raise AssertionError(f"{got['error']}\n{got.get('text', '')}")
        return float(got["seconds"])

    def tab(self, label: str, expect: str, timeout: float = 30) -> None:
        """Open the tab ``label`` (with a real mouse click: tabs switch on mouse down) and wait
        until ``expect`` shows."""
        tab = self.driver.execute_script(
            _DEEP + "return window.__deep('[role=tab]').find(t => t.innerText.trim() === "
            "arguments[0]);", label)
        if tab is None:
            raise AssertionError(f"no tab {label!r}")
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", tab)
        tab.click()
        self.wait_for(expect, timeout)

    def wait_for(self, expect: str, timeout: float = 30) -> None:
        """Wait until ``expect`` shows in the page."""
        end = time.monotonic() + timeout
        while expect not in self.text():
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {expect!r}\n{self.text()[:3000]}")
            time.sleep(0.1)

    def fill(self, placeholder: str, value: str) -> None:
        """Type ``value`` into the text field with this placeholder (as a GM would, then Tab)."""
        field = self.driver.execute_script(
            _DEEP + "return window.__deep('input,textarea').find("
            "e => e.placeholder === arguments[0]);", placeholder)
        if field is None:
            raise AssertionError(f"no field with placeholder {placeholder!r}")
        from selenium.webdriver.common.keys import Keys

        field.clear()
        field.send_keys(value + Keys.TAB)

    def field_value(self, placeholder: str) -> str:
        return str(self.driver.execute_script(
            _DEEP + "const f = window.__deep('input,textarea').find("
            "e => e.placeholder === arguments[0]); return f ? f.value : null;", placeholder))

    def choose(self, option: str) -> None:
        """Choose ``option`` in the drop-down list offering it."""
        from selenium.webdriver.support.ui import Select

        select = self.driver.execute_script(
            _DEEP + "return window.__deep('select').find(s => Array.from(s.options)"
            ".some(o => o.text === arguments[0]));", option)
        if select is None:
            raise AssertionError(f"no drop-down list offers {option!r}")
        Select(select).select_by_visible_text(option)

    def options(self, containing: str) -> list[str]:
        """The options of every drop-down list that contain ``containing``."""
        return list(self.driver.execute_script(
            _DEEP + "return window.__deep('select').flatMap(s => Array.from(s.options))"
            ".map(o => o.text).filter(t => t.includes(arguments[0]));", containing))


@contextlib.contextmanager
def running(sample: str, tmp: Path, driver: Any) -> Iterator[NotebookApp]:
    """The notebook on a fresh working copy of ``data/sample-<sample>``."""
    game = tmp / f"sample-{sample}"
    shutil.copytree(ROOT / "data" / f"sample-{sample}", game)
    app = NotebookApp(game, driver)
    try:
        app.open()
        yield app
    finally:
        app.close()


def _median(times: list[float]) -> float:
    return statistics.median(times)


def bench_sample(sample: str, tmp: Path, driver: Any) -> list[dict]:
    """Next step / Step back / Enter die / Write the summaries on one sample."""
    out: list[dict] = []
    with running(sample, tmp, driver) as app:
        nxt, back = [], []
        app.tab("Resolution", "Resolve turn")
        app.click("Next step", "Step 1 of")
        count = int(re.search(r"Step 1 of (\d+)", app.text()).group(1))
        for _ in range(REPEAT):
            nxt.append(app.click("Next step", f"Step 2 of {count}"))
            back.append(app.click("Step back", "back to Step 1 of"))
        enter = []
        app.click("Run all steps", f"Step {count} of {count}")
        draw = app.driver.execute_script(
            _DEEP + "const s = window.__deep('select').find(s => Array.from(s.options)"
            ".some(o => o.text.includes(':'))); return s ? Array.from(s.options)"
            ".map(o => o.text).filter(t => t.includes(':') && t.includes('#')) : [];")
        # a die (its id ends in #N: 1 and 2 fit any die), not a choice or a uniform draw
        if draw:
            app.choose(draw[0])
            for i in range(REPEAT):
                app.fill("7  (two dice: 3 5)", "1" if i % 2 == 0 else "2")
                enter.append(app.click("Enter die", f"{'1' if i % 2 == 0 else '2'} entered"))
        app.tab("Commit and publish", "Commit, reveal, publish")
        app.click("Commit the turn", "committed")
        summary = app.click("Write the summaries", "wrote ", timeout=120)
    for name, times in (("next step", nxt), ("step back", back), ("enter die", enter)):
        if times:
            out.append({"name": f"{sample}: {name} (click to result)", "value": _median(times),
                        "unit": "s", "target": f"< {CLICK_TARGET} s",
                        "ok": _median(times) < CLICK_TARGET})
    out.append({"name": f"{sample}: write the summaries", "value": summary, "unit": "s",
                "target": f"< {SUMMARY_TARGET} s", "ok": summary < SUMMARY_TARGET})
    return out


def bench_notebook_clicks() -> list[dict]:
    """Every figure, or one row saying why the benchmark was skipped."""
    why = missing_browser()
    if why:
        return [{"name": "notebook clicks", "value": None, "unit": "s",
                 "target": f"< {CLICK_TARGET} s", "ok": None, "skipped": why}]
    driver = browser()
    rows: list[dict] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for sample in samples():
                rows += bench_sample(sample, Path(tmp), driver)
    finally:
        driver.quit()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = bench_notebook_clicks()
    for row in rows:
        if args.json:
            print(json.dumps(row))
        elif row.get("skipped"):
            print(f"{row['name']}: skipped ({row['skipped']})")
        else:
            flag = "ok" if row["ok"] else "SLOW"
            print(f"{row['name']:<45} {row['value']:7.3f} {row['unit']}  target "
                  f"{row['target']:<8} {flag}")


if __name__ == "__main__":
    main()
