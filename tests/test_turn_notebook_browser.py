"""The marimo turn notebook served as an app and driven in headless Chromium, as a GM uses it:
each action says its outcome where the GM acted, the views follow what changed, the preview
follows typing, and the whole turn shows before it is committed.

Skipped, with the reason, where Debian's chromium and chromium-driver are not installed."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from bench.notebook_clicks import NotebookApp, browser, missing_browser

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [pytest.mark.skipif(missing_browser() is not None,
                                 reason=str(missing_browser())),
              # one notebook server for the module: kept on one worker (``--dist loadgroup``)
              pytest.mark.xdist_group("turn-notebook-browser")]


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """The notebook on a working copy of the Cien sample, open in Chromium."""
    game = tmp_path_factory.mktemp("turn-browser") / "sample-cien"
    shutil.copytree(ROOT / "data" / "sample-cien", game)
    driver = browser()
    notebook = NotebookApp(game, driver)
    try:
        notebook.open("Resolution")
        yield notebook
    finally:
        notebook.close()
        driver.quit()


def _rect(app: NotebookApp, script: str) -> dict:
    return dict(app.driver.execute_script(
        "const __e = (() => {" + script + "})(); const r = __e.getBoundingClientRect(); "
        "return {top: r.top + window.scrollY, bottom: r.bottom + window.scrollY};"))


def _said(app: NotebookApp, section: str) -> tuple[str, dict]:
    """The message of a section's last action and where it is on the page."""
    text = app.driver.execute_script(
        "const e = document.querySelector(`.gmkit-said[data-section='${arguments[0]}']`);"
        "return e ? e.innerText : null;", section)
    assert text is not None, f"no message area for {section}"
    return text, _rect(app, f"return document.querySelector(\".gmkit-said[data-section="
                       f"'{section}']\");")


def _button_rect(app: NotebookApp, label: str) -> dict:
    from bench.notebook_clicks import _DEEP

    return _rect(app, _DEEP +
                 f"return window.__button({label!r});")


def test_the_title_and_sections_are_headings(app):
    """The game's title and each section are headings, not body text."""
    app.tab("The game", "Standings (GM view)")
    heads = app.driver.execute_script(
        "return Array.from(document.querySelectorAll('h1,h2,h3')).map(h => h.innerText)")
    assert "The Crown of Cien \u2014 sample game" in heads, heads
    assert any(h.startswith("Turn 7: the game after turn 6") for h in heads), heads


def test_the_preview_follows_the_typing(app):
    """A pasted post reads at once: the preview shows while the GM is still in the field."""
    app.tab("Orders", "how it reads shows here")
    field = app.driver.execute_script(
        "return Array.from(document.querySelectorAll('*')).filter(e => e.shadowRoot)"
        ".flatMap(e => Array.from(e.shadowRoot.querySelectorAll('textarea')))"
        ".find(t => t.placeholder.startsWith(\"Paste the player's post\"));")
    field.send_keys("[b]10 Grain for Conquest of Troies[/b]")  # no Tab: the field keeps focus
    app.wait_for("did you mean Tróys?", timeout=10)


def test_a_withdrawn_post_leaves_the_table_and_the_choice(app):
    """After Withdraw the post is gone from the posts table and from the withdraw choice."""
    app.tab("Orders", "Posts for turn 7")
    first = app.options("#")[0]  # e.g. "#37 Red"
    app.choose(first)
    app.fill("why: e.g. posted under the wrong player", "a duplicate")
    app.click("Withdraw", f"post {first.split()[0]} withdrawn: a duplicate")
    text, where = _said(app, "withdraw")
    assert "withdrawn" in text
    app.wait_for("Rejected lines")
    deadline = time.monotonic() + 15  # the choice is redrawn once marimo re-runs its cell
    while first in app.options("#") and time.monotonic() < deadline:
        time.sleep(0.2)
    assert first not in app.options("#"), "the withdrawn post is still offered"
    seqs = app.driver.execute_script(
        "return Array.from(document.querySelectorAll('table')).filter(t => t.innerText"
        ".startsWith('seq')).flatMap(t => Array.from(t.querySelectorAll('tbody tr'))"
        ".map(r => r.cells[0].innerText));")
    assert first.split()[0].lstrip("#") not in seqs, seqs


def test_a_step_says_its_outcome_beside_the_step_buttons(app):
    """Next step: the step's heading shows beside the buttons the GM clicked."""
    app.tab("Resolution", "Resolve turn 7")
    app.click("Next step", "Step 1 of 11")
    text, where = _said(app, "resolve")
    assert text.startswith("Step 1 of 11")
    button = _button_rect(app, "Next step")
    assert abs(where["top"] - button["top"]) < 80, (where, button)


def test_a_refused_die_is_explained_beside_the_button_and_keeps_its_value(app):
    """An 11 on a die that shows less is refused: the reason shows beside Enter die, and the
    11 stays in its field for the GM to correct."""
    app.tab("Resolution", "Dice rolled elsewhere")
    draw = next(o for o in app.options(":") if o.startswith("conquest:attack"))  # a d10
    app.choose(draw)
    app.fill("7  (two dice: 3 5)", "11")
    app.click("Enter die", "does not fit")
    text, where = _said(app, "dice")
    assert "11 does not fit" in text and draw in text
    button = _button_rect(app, "Enter die")
    assert abs(where["top"] - button["bottom"]) < 120, (where, button)
    assert app.field_value("7  (two dice: 3 5)") == "11"


def test_run_all_shows_the_whole_turn_before_committing(app):
    """After Run all steps the GM sees every step's events and dice and the map before and
    after the turn, in the resolution and in the commit tab."""
    app.tab("Resolution", "Resolve turn 7")
    app.click("Run all steps", "Turn 7 so far: every step has run")
    for tab, expect in (("Resolution", "Resolve turn 7"),
                        ("Commit and publish", "Commit, reveal, publish")):
        app.tab(tab, expect)
        text = app.text()
        for k in range(1, 12):
            assert f"Step {k} of 11" in text, (tab, k)
        assert "Turn 7: before the turn" in text and "Turn 7, after step 11: Victory" in text
