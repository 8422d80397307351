"""The marimo history notebook on every bundled sample, served as an app and opened in headless
Chromium as a reader would: the page settles with every chart drawn, and its tables say yes/no
and a dash rather than False and null. (How fast it settles is a benchmark:
``bench/history_settle.py``.)

Skipped, with the reason, where Debian's chromium and chromium-driver are not installed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bench.history_settle import HistoryApp, samples
from gmkit.game import Game
from bench.notebook_clicks import _DEEP, browser, missing_browser

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(missing_browser() is not None,
                                reason=str(missing_browser()))


@pytest.fixture(scope="module")
def driver():
    d = browser()
    yield d
    d.quit()


@pytest.mark.parametrize("sample", samples())
def test_the_history_settles_with_every_chart_drawn_and_readable_tables(
        sample, driver, tmp_path):
    """Each chart of the page is drawn; the events table shows yes/no and a dash for a
    missing value, never False, True or null; the legend names each player whole."""
    game = tmp_path / f"sample-{sample}"
    shutil.copytree(ROOT / "data" / f"sample-{sample}", game)
    # the players' chart, the timeline and the dice, and the subjects' chart where the game
    # follows some (the Law of the Jungle's characters)
    expected = 3 + bool(Game(game).ruleset.presentation.series)
    app = HistoryApp(game, driver)
    try:
        app.open()
        app.wait_until_drawn(expected, cell="yes")  # what it checks, with a generous limit
        charts = driver.execute_script(_DEEP + "return window.__deep('.vega-embed').length;")
        assert charts >= expected, charts
        cells = driver.execute_script(
            _DEEP + "return window.__deep('td').map(c => c.innerText.trim());")
        assert cells, "no table shown"
        assert not {"False", "True", "false", "true", "null", "None"} & set(cells)
        assert "yes" in cells  # the events' public column
    finally:
        app.close()
