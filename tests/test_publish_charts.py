"""The published site's history charts are written as plain Vega-Lite specs
(:mod:`gmkit.publish.chart_specs`), without altair, and converted in a process of their own
(:mod:`gmkit.publish.converter`): the specs are the very ones the notebooks' altair charts give
(so every chart on the site looks as before, byte for byte), publishing never imports altair,
and a chart converted in the converter's process is the SVG converted here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import gmkit.publish.chart_specs as specs
import gmkit.publish.charts as charts
import gmkit.publish.history as history
from gmkit.core.reports import chart_svg
from gmkit.core.views import Viewer
from gmkit.game import Game
from gmkit.publish.converter import ChartConverter
from gmkit.sweeps.playout import play

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = [{"id": "Red", "name": "Aldric", "state": "Solsauvre", "government": "duchy"},
           {"id": "Gold", "name": "Berengar", "state": "Coyons", "government": "city-state"},
           {"id": "Green", "name": "Clothilde", "state": "Guicardie", "government": "duchy"}]


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    game = Game.new(tmp_path_factory.mktemp("charts") / "game", "cien", PLAYERS,
                    title="Charts")
    return play(game, 4, master="charts")


def same(spec: dict[str, Any], chart: Any) -> None:
    """``spec`` is the altair chart's spec: the same keys in the same order, the same data
    under the same dataset name, the same ``$schema``."""
    assert json.dumps(spec) == json.dumps(chart.to_dict(validate=False))


@pytest.mark.parametrize("view", ["public", "gm", "player:Gold"])
def test_history_chart_specs_are_the_notebooks_altair_charts(game: Game, view: str) -> None:
    """Every chart of the history page (each metric's series, the timeline, the dice), as the
    site writes it without altair, is the spec the altair chart gives: the site's charts look
    as they did when altair built them."""
    viewer = Viewer.parse(view)
    series = history.player_series(game, view=viewer)
    colours = game.colours(game.state(viewer=viewer))
    labels = game.ruleset.presentation.labels
    metrics = history.metrics(series)
    assert len(metrics) >= 3
    for metric in metrics:
        same(specs.series_spec(series, metric, colours=colours, labels=labels),
             charts.series_chart(series, metric, colours=colours, labels=labels))
    same(specs.series_spec(series, metrics[0]), charts.series_chart(series, metrics[0]))
    timeline = history.timeline(game, view=viewer)
    assert timeline.height
    same(specs.timeline_spec(timeline, colours=colours),
         charts.timeline_chart(timeline, colours=colours))
    same(specs.timeline_spec(timeline.head(0)), charts.timeline_chart(timeline.head(0)))
    report = history.dice_report(game, view=viewer)
    assert report.height
    same(specs.dice_spec(report, colours=colours), charts.dice_chart(report, colours=colours))
    same(specs.dice_spec(report), charts.dice_chart(report))


def test_players_without_a_colour_get_one_told_apart_and_no_player_the_grey() -> None:
    """A player the colours do not name gets the first colour every reader tells apart from
    the named ones, the rolls of no player their grey, as the altair charts give them."""
    from gmkit.core.drawing.cvd import told_apart
    from gmkit.core.drawing.palette import DISTINCT

    report = pl.DataFrame(
        [{"player": p, "rolls": 1, "entered": 0, "dice": 1, "total": 4, "expected_total": 3.5,
          "total_minus_expected": 0.5, "mean_face": 4.0, "expected_face": 3.5, "luck": 58.3}
         for p in ("Red", "Blue", specs.NO_PLAYER)], schema=history.DICE_SCHEMA, orient="row")
    spec = specs.dice_spec(report, colours={"Red": "#4c78a8"})
    same(spec, charts.dice_chart(report, colours={"Red": "#4c78a8"}))
    red, blue, nobody = spec["layer"][0]["encoding"]["color"]["scale"]["range"]
    assert (red, nobody) == ("#4c78a8", "#9e9e9e")
    assert blue == next(c for c in DISTINCT if told_apart(c, red))


def test_the_specs_schema_is_the_one_altair_writes() -> None:
    import altair as alt

    assert specs.SCHEMA_URL == alt.SCHEMA_URL


def test_publishing_never_imports_altair(game: Game, tmp_path: Path) -> None:
    """The site's charts are drawn without importing altair (its import and its chart
    building cost a GM more than the charts' conversion)."""
    code = ("import sys\n"
            "from gmkit.game import Game\n"
            "from gmkit.publish.site import publish\n"
            f"publish(Game.open({str(game.root)!r}), {str(tmp_path / 'site')!r}, workers=1)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'altair'"
            " or m == 'gmkit.publish.charts'))\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]"
    assert "<svg" in (tmp_path / "site" / "history.html").read_text("utf-8")


def test_a_chart_converted_in_the_converter_process_is_the_one_converted_here(
        game: Game) -> None:
    series = history.player_series(game)
    spec = specs.series_spec(series, "provinces", colours=game.colours(game.state()))
    with ChartConverter() as converter:
        assert converter(spec) == chart_svg(spec)
        chart = charts.dice_chart(history.dice_report(game))  # an altair chart too
        assert converter(chart) == chart_svg(chart)


def test_a_chart_the_converter_cannot_convert_is_an_error_naming_why() -> None:
    with ChartConverter() as converter:
        with pytest.raises(ValueError, match="the chart could not be converted"):
            converter({"mark": "no-such-mark", "data": {"values": [{"a": 1}]}})
        assert converter(specs.dice_spec(pl.DataFrame(schema=history.DICE_SCHEMA))) \
            .startswith("<svg")  # the converter goes on after an error


def test_an_unused_converter_stops_at_once() -> None:
    """Publishing with nothing new draws no chart: the converter started before the game was
    read is stopped, loaded or not, without waiting for it."""
    converter = ChartConverter().start()
    assert converter.running
    converter.close()
    assert not converter.running
    converter.close()  # twice is harmless
    with converter:  # and it starts again when asked
        assert converter(specs.dice_spec(pl.DataFrame(schema=history.DICE_SCHEMA))) \
            .startswith("<svg")
