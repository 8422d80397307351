"""The history's charts and tables as a reader sees them, on every bundled sample: equal lines
stay visible, legends name each player whole, each player in their own colour, and tables say
yes/no and a dash rather than False and null."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

from gmkit import charts, history
from gmkit.core.reports import chart_svg

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted(p.name.removeprefix("sample-") for p in (ROOT / "data").glob("sample-*"))


@pytest.fixture(scope="module", params=SAMPLES)
def game(request):
    return history.open_game(ROOT / "data" / f"sample-{request.param}")


def _legend_labels(svg: str) -> list[str]:
    return re.findall(r'role-legend-label[^"]*"[^>]*><text[^>]*>([^<]*)</text>', svg)


def test_equal_lines_stay_visible_each_player_dashed_apart(game) -> None:
    """Two players with the same figures (Gold's line under Red's) both show: each player's
    line has its own dash pattern, so the lower one shows through the upper one's gaps."""
    series = history.player_series(game, view="public")
    metric = history.metrics(series)[0]
    spec = charts.series_chart(series, metric, colours=history.player_colours(game)).to_dict()
    dash = spec["layer"][0]["encoding"]["strokeDash"]
    players = dash["scale"]["domain"]
    patterns = [tuple(p) for p in dash["scale"]["range"]]
    assert len(players) == len(patterns)
    assert len(set(patterns)) == min(len(players), len(charts.DASHES))
    facets = charts.metrics_chart(series, colours=history.player_colours(game)).to_dict()
    assert facets["spec"]["encoding"]["strokeDash"]["scale"]["domain"] == players


def test_legends_name_every_player_whole(game) -> None:
    """No legend label is cut short ("Hot Cou" for Hot Country): the labels drawn are the
    players' names in full."""
    colours = history.player_colours(game)
    series = history.player_series(game, view="public")
    svg = chart_svg(charts.series_chart(series, history.metrics(series)[0], colours=colours))
    labels = _legend_labels(svg)
    assert labels, "no legend drawn"
    assert not [label for label in labels if label.endswith("\u2026")], labels
    assert set(labels) <= set(series["player"].unique().to_list())


def test_each_player_in_their_own_colour_in_every_chart(game) -> None:
    """Every chart colours a player as the ruleset does (the map's colour), not a palette's."""
    colours = history.player_colours(game)
    series = history.player_series(game, view="public")
    made = [charts.series_chart(series, history.metrics(series)[0], colours=colours),
            charts.metrics_chart(series, colours=colours),
            charts.timeline_chart(history.timeline(game), colours=colours),
            charts.dice_chart(history.dice_report(game, view="public"), colours=colours)]
    for chart in made:
        scales = list(_colour_scales(chart.to_dict()))
        assert scales, chart.to_dict().get("title")
        for scale in scales:
            for player, colour in zip(scale["domain"], scale["range"]):
                if player in colours:
                    assert colour == colours[player], (player, colour)


def _colour_scales(spec):
    """Every colour scale of a chart's spec, however deep (layers, facets)."""
    if isinstance(spec, dict):
        colour = spec.get("color")
        if isinstance(colour, dict) and isinstance(colour.get("scale"), dict) \
                and "range" in colour["scale"]:
            yield colour["scale"]
        for value in spec.values():
            yield from _colour_scales(value)
    elif isinstance(spec, list):
        for value in spec:
            yield from _colour_scales(value)


def test_public_tables_say_yes_no_and_a_dash(game) -> None:
    """The events table shows "yes"/"no" and a dash for a missing region or player, never
    False or null."""
    shown = history.readable(history.timeline(game, view="public"))
    assert set(shown["public"].unique().to_list()) <= {"yes", "no"}
    assert all(shown[c].null_count() == 0 for c in shown.columns if shown[c].dtype == pl.String)
    frame = pl.DataFrame({"a": [True, False, None], "b": ["x", None, "y"]})
    assert history.readable(frame).to_dicts() == [
        {"a": "yes", "b": "x"}, {"a": "no", "b": "\u2014"}, {"a": "\u2014", "b": "y"}]
