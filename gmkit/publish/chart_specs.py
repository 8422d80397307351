"""The history charts as plain Vega-Lite specs: frames in, dicts out (no altair, no game folder).

The published site's history page draws its charts from these specs (converted to static SVG by
:func:`gmkit.core.reports.chart_svg`): writing the spec as the plain data it is costs a GM far
less than importing altair to build it (as :func:`gmkit.publish.summary.standings_chart` does
for the standings). :mod:`gmkit.publish.charts` gives the same charts as altair objects for the
notebooks, built from these specs, so a chart reads the same on the site and in a notebook:
a line per player over the turns (:func:`series_spec`), the events turn by turn
(:func:`timeline_spec`) and each player's luck with the dice (:func:`dice_spec`).

Each spec is the one altair writes for the chart (``chart.to_dict()``): the frame's rows in a
named dataset (``data-`` and the first 32 hex digits of the sha256 of the rows as JSON, as
altair names them), the same encodings and the same ``$schema``.

Colours are a mapping player -> CSS colour, usually the ruleset's map legend
(:func:`gmkit.publish.history.player_colours`); a player without one gets a colour every reader
tells apart from the others (:func:`gmkit.core.drawing.palette.assign`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

import polars as pl

from gmkit.core.drawing.palette import assign

__all__ = [
    "DASHES",
    "NO_PLAYER",
    "SCHEMA_URL",
    "colour_scale",
    "dash_scale",
    "dice_spec",
    "metric_label",
    "player_order",
    "series_spec",
    "timeline_spec",
]

#: The Vega-Lite schema the specs are written against (the one altair writes them against).
SCHEMA_URL = "https://vega.github.io/schema/vega-lite/v6.4.1.json"

#: The name under which rolls and events of no player are shown (as in
#: :mod:`gmkit.publish.history`).
NO_PLAYER = "\u2014"
NO_PLAYER_COLOUR = "#9e9e9e"

#: Dash patterns, one per player in turn: a line equal to another's (Gold's under Red's) shows
#: through the other's gaps instead of hiding under it.
DASHES = ([1, 0], [7, 3], [2, 3], [10, 3, 2, 3], [4, 4], [12, 4], [1, 5], [6, 2, 1, 2])


def metric_label(metric: str, labels: Mapping[str, str] | None = None) -> str:
    """A metric's name in words: as the ruleset's ``labels`` give it (Cien's ``provinces``
    reads "provinces held"), else ``spent_conquest`` reads "spent on conquest" and
    ``some_thing`` "some thing"."""
    if labels and metric in labels:
        return labels[metric]
    if metric.startswith("spent_"):
        return "spent on " + metric[len("spent_"):].replace("_", " ")
    return metric.replace("_", " ")


def colour_scale(players: Iterable[str], colours: Mapping[str, str] | None) -> dict[str, Any]:
    """A colour scale over ``players``: the given colours, and for the others colours every
    reader tells apart from them (:func:`~gmkit.core.drawing.palette.assign`)."""
    domain = list(dict.fromkeys(players))
    given = {p: c for p, c in (colours or {}).items() if c}
    each = assign([p for p in domain if p != NO_PLAYER], fixed=given)
    rng = [NO_PLAYER_COLOUR if p == NO_PLAYER else each[p] for p in domain]
    return {"domain": domain, "range": rng}


def dash_scale(order: list[str]) -> dict[str, Any]:
    """A dash pattern per player of ``order``."""
    return {"domain": order, "range": [DASHES[i % len(DASHES)] for i in range(len(order))]}


def player_order(players: pl.Series, colours: Mapping[str, str] | None) -> list[str]:
    """The players of ``players``: those ``colours`` names first, in its order, then the
    others as they first appear."""
    seen = players.drop_nulls().unique(maintain_order=True).to_list()
    first = [p for p in (colours or {}) if p in seen]
    return first + [p for p in seen if p not in first]


def dataset(frame: pl.DataFrame) -> tuple[str, list[dict[str, Any]]]:
    """A frame's rows and the name of the dataset holding them in a spec (as altair names
    it: the same rows always get the same name)."""
    rows = frame.to_dicts()
    if rows == [{}]:
        return "empty", rows
    text = json.dumps(rows, sort_keys=True, default=str)
    return "data-" + hashlib.sha256(text.encode()).hexdigest()[:32], rows


def _config() -> dict[str, Any]:
    """The view's default size, as altair writes it into every spec."""
    return {"view": {"continuousWidth": 300, "continuousHeight": 300}}


def _player_colour(order: list[str], colours: Mapping[str, str] | None,
                   legend: dict[str, Any] | None) -> dict[str, Any]:
    """The colour channel: each player in their colour, in ``order``."""
    return {"field": "player", "legend": legend, "scale": colour_scale(order, colours),
            "sort": order, "type": "nominal"}


def _when(param: str, then: Any, otherwise: Any, empty: bool | None = None) -> dict[str, Any]:
    condition: dict[str, Any] = {"param": param, "value": then}
    if empty is not None:
        condition["empty"] = empty
    return {"condition": [condition], "value": otherwise}


def series_spec(series: pl.DataFrame, metric: str, *,
                colours: Mapping[str, str] | None = None, title: str | None = None,
                width: int = 520, height: int = 260,
                labels: Mapping[str, str] | None = None) -> dict[str, Any]:
    """One metric of a :func:`gmkit.publish.history.player_series` frame: a line per player
    over the turns. Click a player in the legend to pick them out (shift-click for more);
    hovering a point highlights that player's line."""
    data = series.filter(pl.col("metric") == metric).sort(["player", "turn"])
    order = player_order(data["player"], colours)
    label = metric_label(metric, labels)
    name, rows = dataset(data)

    def common() -> dict[str, Any]:
        """The encodings both layers share (each its own copy)."""
        return {
            "color": _player_colour(order, colours, {"labelLimit": 0, "title": "player"}),
            "detail": {"field": "player", "type": "nominal"},
            "opacity": _when("pick_player", 1.0, 0.15)}

    def x() -> dict[str, Any]:
        return {"axis": {"format": "d", "tickMinStep": 1}, "field": "turn", "title": "turn",
                "type": "quantitative"}

    def y() -> dict[str, Any]:
        return {"field": "value", "title": label, "type": "quantitative"}

    lines = {
        "mark": {"type": "line", "strokeWidth": 2},
        "encoding": {
            **common(),
            "strokeDash": {"field": "player", "legend": None, "scale": dash_scale(order),
                           "sort": order, "type": "nominal"},
            "strokeWidth": _when("hover_player", 4, 2, empty=False),
            "x": x(), "y": y()},
        "name": "series_lines",
    }
    points = {
        # the marks' properties as keywords: "size" is also a ruleset's column, which no
        # workflow module names as a string
        "mark": dict(type="point", filled=True, size=40),
        "encoding": {
            **common(),
            "tooltip": [{"field": "player", "type": "nominal"},
                        {"field": "turn", "type": "quantitative"},
                        {"field": "value", "title": label, "type": "quantitative"}],
            "x": x(), "y": y()},
        "name": "series_points",
    }
    return {
        "config": _config(),
        "layer": [lines, points],
        "data": {"name": name},
        "height": height,
        "params": [
            {"name": "pick_player", "select": {"type": "point", "fields": ["player"]},
             "bind": "legend", "views": ["series_lines"]},
            {"name": "hover_player", "select": {"type": "point", "clear": "pointerout",
                                                "fields": ["player"], "on": "pointerover"},
             "views": ["series_points"]},
        ],
        "title": title or f"{label[0].upper()}{label[1:]} over the turns",
        "width": width,
        "$schema": SCHEMA_URL,
        "datasets": {name: rows},
    }


def timeline_rows(timeline: pl.DataFrame, colours: Mapping[str, str] | None
                  ) -> tuple[pl.DataFrame, list[str], list[str], list[int]]:
    """What the timeline chart draws: the events, each numbered within its turn and kind (its
    dot's place in the row), with the players in legend order, the kinds and the turns."""
    data = timeline.with_columns(
        pl.col("player").fill_null(NO_PLAYER),
        pl.int_range(pl.len()).over(["turn", "kind"]).alias("n"),
    )
    order = player_order(data["player"], colours)
    kinds = sorted(data["kind"].drop_nulls().unique().to_list())
    turns = data["turn"].unique().sort().to_list()
    return data, order, kinds, turns


def timeline_spec(timeline: pl.DataFrame, *, colours: Mapping[str, str] | None = None,
                  title: str = "What happened, turn by turn") -> dict[str, Any]:
    """The events of a :func:`gmkit.publish.history.timeline` frame: turns across, kinds of
    event down, one dot per event coloured by its player; the tooltip gives the event's
    text."""
    data, order, kinds, turns = timeline_rows(timeline, colours)
    name, rows = dataset(data)
    return {
        "config": _config(),
        "data": {"name": name},
        "mark": dict(type="circle", opacity=0.85, size=70),
        "encoding": {
            "color": _player_colour(order, colours, {"labelLimit": 0, "title": "player"}),
            "tooltip": [{"field": "turn", "type": "ordinal"},
                        {"field": "kind", "type": "nominal"},
                        {"field": "player", "type": "nominal"},
                        {"field": "region", "type": "nominal"},
                        {"field": "text", "type": "nominal"}],
            "x": {"axis": {"labelAngle": 0}, "field": "turn", "sort": turns, "title": "turn",
                  "type": "ordinal"},
            "xOffset": {"field": "n", "sort": "ascending", "type": "ordinal"},
            "y": {"field": "kind", "sort": kinds, "title": None, "type": "nominal"},
        },
        "height": 26 * max(len(kinds), 2),
        "title": title,
        "width": max(320, 70 * max(len(turns), 1)),
        "$schema": SCHEMA_URL,
        "datasets": {name: rows},
    }


def dice_spec(report: pl.DataFrame, *, colours: Mapping[str, str] | None = None,
              title: str = "How lucky each player has been") -> dict[str, Any]:
    """The luck of a :func:`gmkit.publish.history.dice_report` frame: one bar per player from 0
    (the unluckiest possible) to 100 (the luckiest), with a rule at 50 (as lucky as
    expected)."""
    order = report["player"].to_list()
    data = report.with_columns(
        pl.col("luck").round(1).alias("luck_shown"),
        pl.col("mean_face").round(2).alias("mean"),
        pl.col("expected_face").round(2).alias("expected"),
    )
    name, rows = dataset(data)
    bars = {
        "data": {"name": name},
        "mark": {"type": "bar", "stroke": "#333", "strokeWidth": 0.5},
        "encoding": {
            "color": _player_colour(order, colours, None),
            "tooltip": [{"field": "player", "type": "nominal"},
                        {"field": "rolls", "type": "quantitative"},
                        {"field": "entered", "type": "quantitative"},
                        {"field": "dice", "type": "quantitative"},
                        {"field": "mean", "title": "mean face", "type": "quantitative"},
                        {"field": "expected", "title": "expected mean face",
                         "type": "quantitative"},
                        {"field": "total_minus_expected", "title": "total minus expected",
                         "type": "quantitative"},
                        {"field": "luck_shown", "title": "luck", "type": "quantitative"}],
            "x": {"field": "luck", "scale": {"domain": [0, 100]},
                  "title": "luck (percentile: 50 is as expected)", "type": "quantitative"},
            "y": {"field": "player", "sort": order, "title": None, "type": "nominal"},
        },
    }
    labels = {
        "data": {"name": name},
        "mark": {"type": "text", "align": "left", "dx": 4, "fontSize": 11},
        "encoding": {
            "text": {"field": "luck_shown", "format": ".1f", "type": "quantitative"},
            "x": {"field": "luck", "type": "quantitative"},
            "y": {"field": "player", "sort": order, "type": "nominal"},
        },
    }
    rule = {
        "data": {"values": [{"x": 50}]},
        "mark": {"type": "rule", "color": "#333", "strokeDash": [4, 3]},
        "encoding": {"x": {"field": "x", "type": "quantitative"}},
    }
    return {
        "config": _config(),
        "layer": [bars, labels, rule],
        "height": 24 * max(len(order), 3),
        "title": title,
        "width": 420,
        "$schema": SCHEMA_URL,
        "datasets": {name: rows},
    }
