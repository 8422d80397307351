"""A GM's first evening in the marimo turn notebook, on every bundled sample, in headless
Chromium with a 1400 x 1000 window: the maps fit at first sight and zoom, a step's maps stack
at full width with that zoom, the tables read at a glance, the words match the page, and a
second tab follows a turn committed in the first.

One notebook server per sample; its tests share the page, in the order a GM goes (the last
commits the turn). Skipped, with the reason, where Chromium and its driver are not installed."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from bench.notebook_clicks import _DEEP, NotebookApp, browser, missing_browser

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted(p.name.removeprefix("sample-") for p in (ROOT / "data").glob("sample-*"))

pytestmark = pytest.mark.skipif(missing_browser() is not None,
                                reason=str(missing_browser()))

#: Every map frame on the page: the frame's and the map's boxes, the zoom, and for an inline
#: SVG the title's font size as drawn and the legend's height, in CSS pixels.
_MAPS = _DEEP + """
return window.__deep('.gmkit-map-frame').map(f => {
  const el = f.querySelector('svg, img'); const r = el.getBoundingClientRect();
  const fr = f.getBoundingClientRect();
  const out = {frame: [fr.width, fr.height], map: [r.width, r.height, r.top], zoom: +f.dataset.zoom,
               tag: el.tagName.toLowerCase(), natural: el.tagName === 'IMG' ? el.naturalWidth : null};
  if (out.tag === 'svg') {
    const vb = el.viewBox.baseVal;
    const scale = Math.min(r.width / vb.width, r.height / vb.height);
    const t = el.querySelector('[data-layer=title]');
    const lg = el.querySelector('[data-layer=legend]');
    out.title = t ? parseFloat(t.getAttribute('font-size')) * scale : null;
    out.legend = lg ? lg.getBoundingClientRect().height : 0;
    out.natural = parseFloat(el.getAttribute('width'));
  }
  return out;
});
"""


@pytest.fixture(scope="module")
def driver():
    d = browser()
    d.set_window_size(1400, 1000)
    yield d
    d.quit()


@pytest.fixture(scope="module", params=[
    pytest.param(s, marks=pytest.mark.xdist_group(f"evening-browser-{s}")) for s in SAMPLES])
def app(request, driver, tmp_path_factory):
    """The notebook opened with ``--sample NAME`` in a window of 1400 x 1000."""
    work = tmp_path_factory.mktemp(f"evening-{request.param}")
    notebook = NotebookApp(None, driver, args=["--sample", request.param, "--work", str(work)])
    notebook.sample, notebook.work = request.param, work
    try:
        notebook.open("Resolution", timeout=180)
        yield notebook
    finally:
        notebook.close()


def _js(app: NotebookApp, script: str, *args):
    return app.driver.execute_script(_DEEP + script, *args)


def _maps(app: NotebookApp, count: int = 1, timeout: float = 60) -> list[dict]:
    """The map frames, once at least ``count`` are drawn."""
    end = time.monotonic() + timeout
    while True:
        maps = app.driver.execute_script(_MAPS)
        if len(maps) >= count and all(m["map"][0] > 0 for m in maps):
            return maps
        assert time.monotonic() < end, f"{count} map(s) never drawn: {maps}"
        time.sleep(0.2)


def _set_zoom(app: NotebookApp, percent: int) -> None:
    """Move the page's zoom slider (steps of 25) to ``percent`` with the keyboard, as a GM
    would, and wait until the maps are drawn at it."""
    from selenium.webdriver.common.keys import Keys

    slider = _js(app, "return window.__deep('[role=slider]')[0];")
    assert slider is not None, "no zoom slider"
    now = int(float(slider.get_attribute("aria-valuenow")))
    key = Keys.ARROW_RIGHT if percent > now else Keys.ARROW_LEFT
    for _ in range(abs(percent - now) // 25):
        slider.send_keys(key)
    end = time.monotonic() + 60
    while not all(m["zoom"] == percent for m in app.driver.execute_script(_MAPS)):
        assert time.monotonic() < end, "the maps were never drawn at the new zoom"
        time.sleep(0.2)


def _wait_disabled(app: NotebookApp, label: str, timeout: float = 60) -> None:
    """Wait until the button ``label`` is drawn and cannot be pressed."""
    end = time.monotonic() + timeout
    while True:
        button = _js(app, "return window.__button(arguments[0]);", label)
        if button is not None and not button.is_enabled():
            return
        assert time.monotonic() < end, f"{label!r} can still be pressed"
        time.sleep(0.2)


def test_every_map_fits_at_first_sight_and_zooms(app):
    """The game tab's map is no wider than its box and no taller than the window, its title
    set in at most 20 px and its legend at most a quarter of the map's height; the zoom
    draws it larger, past the box, which scrolls."""
    app.tab("The game", "Standings (GM view)")
    height = app.driver.execute_script("return window.innerHeight;")
    maps = _maps(app)
    for m in maps:
        width, tall, _ = m["map"]
        assert width <= m["frame"][0] + 1, m
        assert tall <= height, (m, height)
        if m["title"] is not None:
            assert m["title"] <= 20, m
        assert m["legend"] <= tall / 4, m
    _set_zoom(app, 200)
    zoomed = app.driver.execute_script(_MAPS)
    for m in zoomed:
        assert abs(m["map"][0] - 2 * m["natural"]) <= 2, m  # twice its own width
    _set_zoom(app, 100)


def test_a_steps_maps_stack_at_full_width_with_the_zoom(app):
    """Resolution: the maps shown together (a step's orders and result, the turn before and
    after) stand one above the other, each as wide as the page allows (no longer two small
    maps side by side), and follow the zoom."""
    app.tab("Resolution", "Resolve turn")
    app.click("Run all steps", "every step has run", timeout=120)
    maps = _maps(app, count=2)
    steps = [m for m in maps if m["tag"] == "img"]
    assert len(steps) >= 2, maps
    for upper, lower in zip(steps, steps[1:]):
        assert lower["map"][2] >= upper["map"][2] + upper["map"][1] - 1, (upper, lower)
    for m in steps:  # each its own size, or the page's width, whichever is less
        assert m["map"][0] >= min(m["natural"], m["frame"][0]) - 2, m
    _set_zoom(app, 150)
    for m in [m for m in app.driver.execute_script(_MAPS) if m["tag"] == "img"]:
        assert abs(m["map"][0] - 1.5 * m["natural"]) <= 2, m
    _set_zoom(app, 100)
    app.click("Restart", "back at the start of the turn")


def test_the_tables_read_at_a_glance(app):
    """The standings: a row a player, none taller than three lines, each player's holdings in
    a table of their own, no cell cut; a step's changes name their rows, never an empty
    column nor a bare tuple."""
    app.tab("The game", "Standings (GM view)")
    tables = _js(app, """
        return Array.from(document.querySelectorAll('table')).filter(t => t.caption).map(t => ({
          caption: t.caption.innerText,
          rows: Array.from(t.tBodies[0].rows).map(r => r.getBoundingClientRect().height),
          cut: Array.from(t.querySelectorAll('td, th')).filter(c => c.scrollWidth > c.clientWidth + 1)
                 .map(c => c.innerText.slice(0, 30))}));""")
    standings = next(t for t in tables if t["caption"].startswith("Standings"))
    assert standings["rows"] and max(standings["rows"]) <= 70, standings
    for t in tables:
        assert not t["cut"], t
    holdings = [t for t in tables if t["caption"] == "Holdings"]
    if holdings:
        assert max(holdings[0]["rows"]) <= 70, holdings
    app.tab("Resolution", "Resolve turn")
    app.click("Next step", "Step 1 of ")
    count = int(re.search(r"Step 1 of (\d+)", app.text()).group(1))
    for index in range(1, count + 1):
        changes = _js(app, """
            return Array.from(document.querySelectorAll('table')).filter(t => t.caption &&
              t.caption.innerText.startsWith('Changes to')).map(t => ({
                heads: Array.from(t.tHead.rows[0].cells).map(c => c.innerText.trim()),
                cells: Array.from(t.tBodies[0].rows).map(r => Array.from(r.cells)
                  .map(c => c.innerText.trim()))}));""")
        for table in changes:
            assert all(table["heads"]), table["heads"]  # no column without a name
            for row in table["cells"]:
                assert all(row), (table["heads"], row)
                assert not any(re.fullmatch(r"\(.*,.*\)", c) for c in row), row
        if index < count:
            app.click("Next step", f"Step {index + 1} of ")
    app.click("Restart", "back at the start of the turn")


def test_the_words_match_the_page(app):
    """The introduction names the sample opened; the player list labels who is free,
    eliminated or the GM's; Commit cannot be pressed before every step has run."""
    text = app.text()
    assert f"bundled `{app.sample}` sample" in text or f"bundled {app.sample} sample" in text
    if app.sample != "cien":
        assert "bundled Cien sample" not in text and "bundled cien sample" not in text
    app.tab("Orders", "Posts for turn")
    labels = _js(app, "return window.__deep('select').flatMap(s => Array.from(s.options))"
                 ".map(o => o.text);")
    assert labels
    app.tab("Commit and publish", "Commit, reveal, publish")
    _wait_disabled(app, "Commit the turn")  # no step run yet
    assert "opens once every step has run" in app.text()


def test_a_second_tab_follows_a_turn_committed_in_the_first(app):
    """Two tabs share the game folder, not the resolution: the second resolves on its own;
    once the first commits, the second shows the folder's new turn and says that the turn was
    committed in another tab, and its Commit cannot be pressed on the old resolution. The
    first, after its commit, says what is left to do."""
    first = app.driver.current_window_handle
    app.tab("Resolution", "Resolve turn")
    turn = int(re.search(r"Resolve turn (\d+)", app.text()).group(1))
    app.driver.switch_to.new_window("tab")
    second = app.driver.current_window_handle
    try:
        app.open("Resolution", timeout=180)
        app.tab("Resolution", "Resolve turn")
        app.click("Run all steps", "every step has run", timeout=120)
        app.driver.switch_to.window(first)
        app.tab("Resolution", "Resolve turn")
        app.click("Run all steps", "every step has run", timeout=120)
        app.tab("Commit and publish", "Commit, reveal, publish")
        app.click("Commit the turn", "committed; next", timeout=120)
        committed = int(re.search(r"turn (\d+) committed; next", app.text()).group(1))
        assert committed == turn
        app.wait_for(f"Turn {committed} is committed. Next:", 60)
        _wait_disabled(app, "Commit the turn")
        app.driver.switch_to.window(second)
        app.wait_for(f"Turn {committed} was committed in another tab", 90)
        app.wait_for(f"turn {committed} committed; turn {committed + 1}", 30)
        app.tab("Commit and publish", "Commit, reveal, publish")
        _wait_disabled(app, "Commit the turn")
    finally:
        app.driver.switch_to.window(second)
        app.driver.close()
        app.driver.switch_to.window(first)
