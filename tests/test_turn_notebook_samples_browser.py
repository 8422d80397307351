"""The marimo turn notebook on every bundled sample, served as an app and driven in headless
Chromium as a new GM would: open the sample (in two browser tabs), read the game, resolve step
by step, withdraw a post, commit and write the summaries.

One notebook server per sample; the tests of a sample share its page, in the order a GM goes.
Skipped, with the reason, where Debian's chromium and chromium-driver are not installed."""

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


@pytest.fixture(scope="module")
def driver():
    d = browser()
    yield d
    d.quit()


@pytest.fixture(scope="module", params=[
    # a sample's tests share one server: kept on one worker under ``--dist loadgroup``
    pytest.param(s, marks=pytest.mark.xdist_group(f"turn-browser-{s}")) for s in SAMPLES])
def app(request, driver, tmp_path_factory):
    """The notebook opened with ``--sample NAME``: its working copy made by the notebook."""
    work = tmp_path_factory.mktemp(f"work-{request.param}")
    notebook = NotebookApp(None, driver, args=["--sample", request.param, "--work", str(work)])
    notebook.sample, notebook.work = request.param, work
    try:
        notebook.open("Resolution")
        yield notebook
    finally:
        notebook.close()


def _js(app: NotebookApp, script: str, *args):
    return app.driver.execute_script(_DEEP + script, *args)


def _turn(app: NotebookApp) -> int:
    found = re.search(r"Orders for turn (\d+)|Resolve turn (\d+)", app.text())
    if found is None:
        app.tab("Resolution", "Resolve turn")
        found = re.search(r"Resolve turn (\d+)", app.text())
    assert found
    return int(next(g for g in found.groups() if g))


def test_a_second_tab_on_the_sample_opens_the_same_working_copy(app):
    """Two browser tabs on the sample (two sessions of one server, one process) open one
    working copy; neither shows an error, and no staging folder is left behind."""
    first = app.driver.current_window_handle
    app.driver.switch_to.new_window("tab")
    try:
        app.driver.get(f"http://127.0.0.1:{app.port}/")
        deadline = time.monotonic() + 90
        while not app.has_button("Resolution"):
            assert "No game opened" not in app.text(), app.text()[:2000]
            assert time.monotonic() < deadline, "the second tab did not draw the notebook"
            time.sleep(0.3)
        assert "No game opened" not in app.text()
    finally:
        app.driver.close()
        app.driver.switch_to.window(first)
    assert "No game opened" not in app.text()
    assert sorted(p.name for p in app.work.iterdir()) == [f"sample-{app.sample}"]
    assert (app.work / f"sample-{app.sample}" / "game.toml").is_file()


def test_a_tab_left_open_across_a_restart_reopens_the_working_copy(app):
    """The notebook server stopped and started again (same port, a new process): the page
    left open, reloaded, opens the same working copy with no error."""
    app.close()
    again = NotebookApp(None, app.driver, args=app.args, port=app.port)
    app.server = again.server  # the fixture stops this one
    app.driver.refresh()
    app.open("Resolution")
    assert "No game opened" not in app.text()
    assert sorted(p.name for p in app.work.iterdir()) == [f"sample-{app.sample}"]


def test_the_standings_read_as_tables_not_as_columns_of_words(app):
    """The game tab's standings: rows of a line or two (not wrapped to a few words a line), no
    column repeating another, booleans as yes/no and missing values as a dash."""
    app.tab("The game", "Standings (GM view)")
    table = _js(app, "return Array.from(document.querySelectorAll('table')).find(t => "
                "t.caption && t.caption.innerText.startsWith('Standings'));")
    assert table is not None
    heights = _js(app, "return Array.from(arguments[0].querySelectorAll('tbody tr'))"
                  ".map(r => r.getBoundingClientRect().height);", table)
    assert heights and max(heights) < 200, heights  # was ~400 px for Pyramid's holdings
    squeezed = _js(app, "return Array.from(arguments[0].querySelectorAll('td')).filter(c => "
                   "c.innerText.length > 40 && c.getBoundingClientRect().width < 250)"
                   ".map(c => c.innerText.slice(0, 40));", table)
    assert not squeezed, squeezed  # a long cell wraps at a readable width, not a few words
    columns = _js(app, "const t = arguments[0]; const n = t.tHead.rows[0].cells.length;"
                  "return Array.from({length: n}, (_, i) => Array.from(t.tBodies[0].rows)"
                  ".map(r => r.cells[i].innerText).join('|'));", table)
    heads = _js(app, "return Array.from(arguments[0].tHead.rows[0].cells)"
                ".map(c => c.innerText);", table)
    if "holdings" in heads:  # the holdings say what no other column says
        shown = columns[heads.index("holdings")]
        assert not [h for h, c in zip(heads, columns) if h != "holdings" and c == shown], heads
    cells = _js(app, "return Array.from(document.querySelectorAll('td')).map(c => c.innerText"
                ".trim());")
    assert not {"True", "False", "None", "null", "nan"} & set(cells)


def test_the_step_counter_counts_what_the_gm_steps_through(app):
    """Next step and Run all steps: 'Step k of n' never passes its count, the count is the same
    on every step, and the last step is 'n of n'."""
    app.tab("Resolution", "Resolve turn")
    app.click("Next step", "Step 1 of ")
    count = int(re.search(r"Step 1 of (\d+)", app.text()).group(1))
    assert f"(1 of {count} run)" in app.text()
    app.click("Run all steps", f"Step {count} of {count}")
    app.wait_for(f"({count} of {count} run)")
    pairs = {(int(k), int(n)) for k, n in re.findall(r"Step (\d+) of (\d+)", app.text())}
    assert {n for _, n in pairs} == {count}, pairs
    assert {k for k, _ in pairs} == set(range(1, count + 1)), pairs
    assert f"{count} of {count} steps run" in app.text() or "every step has run" in app.text()
    app.click("Restart", "back at the start of the turn")


def test_the_map_is_near_the_top_of_a_step(app):
    """A step's page shows its map(s) right under its heading, before the tables."""
    app.tab("Resolution", "Resolve turn")
    app.click("Next step", "Step 1 of ")
    where = _js(app, """
        const h = Array.from(document.querySelectorAll('h4')).find(
            e => e.innerText.startsWith('Step 1 of'));
        if (!h) return null;
        const maps = h.parentElement.querySelector('.gmkit-step-maps');
        const events = Array.from(h.parentElement.querySelectorAll('caption, b')).find(
            c => c.innerText.startsWith('Events'));
        const top = e => e ? e.getBoundingClientRect().top + window.scrollY : null;
        return {heading: top(h), map: top(maps), events: top(events)};""")
    assert where is not None and where["events"] is not None, where
    if where["map"] is not None:  # a sample with a map (or a drawn board)
        assert where["map"] - where["heading"] < 120, where
        assert where["map"] < where["events"], where
    app.click("Restart", "back at the start of the turn")


def test_a_withdrawal_asks_for_its_reason(app):
    """Withdraw with no reason is refused and the post stays; with a reason it is withdrawn and
    the reason is kept with it, as ``gmkit withdraw --why`` does."""
    app.tab("Orders", "Posts for turn")
    first = app.options("#")[0]
    app.choose(first)
    # the choice reaches the notebook's kernel in its own time: until it has, Withdraw asks
    # for a post to be chosen; wait for the question this test is about, with a generous limit
    deadline = time.monotonic() + 120
    while True:
        try:
            app.click("Withdraw", "say why post", timeout=10)
            break
        except AssertionError:
            assert time.monotonic() < deadline, app.text()[:3000]
            app.choose(first)
    assert first in app.options("#")
    app.fill("why: e.g. posted under the wrong player", "filed under the wrong player")
    app.click("Withdraw", "withdrawn: filed under the wrong player")
    seq = int(first.split()[0].lstrip("#"))
    kept = app.work / f"sample-{app.sample}" / "pending" / "withdrawn" / f"{seq:05d}.json"
    assert kept.is_file() and "filed under the wrong player" in kept.read_text("utf-8")


def test_the_commit_tab_writes_the_turn_just_committed(app):
    """Write the summaries before committing says there is nothing new to write; after Commit
    it writes the turn just committed, and only those summaries show. The buttons keep their
    size and the messages stay within the page."""
    turn = _turn(app)
    app.tab("Resolution", "Resolve turn")
    app.click("Run all steps", "every step has run")
    app.tab("Commit and publish", "Commit, reveal, publish")
    app.click("Write the summaries", "nothing new to write")
    assert "Summaries of turn" not in app.text()
    app.click("Commit the turn", f"turn {turn} committed")
    app.click("Write the summaries", f"wrote the summaries of turn {turn} into")
    app.wait_for(f"Summaries of turn {turn}")
    assert f"Summaries of turn {turn - 1}" not in app.text()
    boxes = _js(app, """
        const labels = ['Commit the turn', 'Reveal the seed', 'Write the summaries'];
        const said = document.querySelector(".gmkit-said[data-section='publish']");
        return {buttons: labels.map(l => { const b = window.__button(l);
                  const r = b.getBoundingClientRect();
                  return {top: r.top, height: r.height, clipped: b.scrollWidth > b.clientWidth + 1};
                }),
                said: said.getBoundingClientRect().right, page: document.documentElement.clientWidth,
                wide: document.documentElement.scrollWidth};""")
    tops = {round(b["top"]) for b in boxes["buttons"]}
    assert len(tops) == 1 and not any(b["clipped"] for b in boxes["buttons"]), boxes
    assert max(b["height"] for b in boxes["buttons"]) < 60, boxes
    assert boxes["said"] <= boxes["page"] and boxes["wide"] <= boxes["page"], boxes
    assert (app.work / f"sample-{app.sample}" / "reports" /
            f"turn-{turn:04d}-public.html").is_file()
    assert not (app.work / f"sample-{app.sample}" / "reports" /
                f"turn-{turn - 1:04d}-public.html").exists()
