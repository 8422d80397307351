"""Charts of a game's history: frames in, altair charts out (no game folder is read here).

The published site draws the series, timeline and dice charts from the same charts written as
plain Vega-Lite specs (:mod:`gmkit.publish.chart_specs`, which also holds the colours, dashes
and labels shared with this module), without importing altair.

The frames come from :mod:`gmkit.publish.history`; every chart renders in a notebook (interactive: click
a player in the legend to pick them out, hover a line to highlight it) and as static SVG through
:func:`gmkit.core.reports.chart_svg` (offline, for reports and the published site).

Colours are a mapping player -> CSS colour, usually the ruleset's map legend
(:func:`gmkit.publish.history.player_colours`); a player without one gets a colour from a fixed palette.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import altair as alt
import polars as pl

from gmkit.publish.chart_specs import (DASHES, NO_PLAYER, colour_scale, dash_scale, timeline_rows,
                                       metric_label, player_order)

__all__ = [
    "DASHES",
    "NO_PLAYER",
    "dice_chart",
    "metric_label",
    "metrics_chart",
    "series_chart",
    "subject_chart",
    "timeline_chart",
]


def _legend(**kw: Any) -> alt.Legend:
    """A legend that shows each player's name whole (no "Hot Cou")."""
    return alt.Legend(labelLimit=0, **kw)


def _dash(order: list[str]) -> alt.StrokeDash:
    """A dash pattern per player (no legend of its own: the colour's names them)."""
    return alt.StrokeDash("player:N", sort=order, legend=None,
                          scale=alt.Scale(**dash_scale(order)))


def _records(df: pl.DataFrame) -> pl.DataFrame:
    # altair takes the frame as a named dataset: much faster than inline records, which it
    # walks value by value when building the spec
    return df


def _colour_scale(players: Iterable[str], colours: Mapping[str, str] | None) -> alt.Scale:
    """A colour scale over ``players``: the given colours, a palette for the others."""
    return alt.Scale(**colour_scale(players, colours))


def _player_order(players: pl.Series, colours: Mapping[str, str] | None) -> list[str]:
    return player_order(players, colours)


def _player_selections() -> tuple[Any, Any]:
    pick = alt.selection_point(name="pick_player", fields=["player"], bind="legend")
    hover = alt.selection_point(name="hover_player", fields=["player"], on="pointerover",
                                clear="pointerout", empty=False)
    return pick, hover


def series_chart(series: pl.DataFrame, metric: str, *,
                 colours: Mapping[str, str] | None = None, title: str | None = None,
                 width: int = 520, height: int = 260,
                 labels: Mapping[str, str] | None = None) -> alt.LayerChart:
    """One metric of a :func:`gmkit.publish.history.player_series` frame: a line per player over the
    turns. Click a player in the legend to pick them out (shift-click for more); hovering a point
    highlights that player's line."""
    data = series.filter(pl.col("metric") == metric).sort(["player", "turn"])
    order = _player_order(data["player"], colours)
    pick, hover = _player_selections()
    label = metric_label(metric, labels)
    base = alt.Chart(_records(data)).encode(
        x=alt.X("turn:Q", title="turn", axis=alt.Axis(tickMinStep=1, format="d")),
        y=alt.Y("value:Q", title=label),
        color=alt.Color("player:N", scale=_colour_scale(order, colours), sort=order,
                        legend=_legend(title="player")),
        detail="player:N",
    )
    lines = base.mark_line(strokeWidth=2).encode(
        strokeDash=_dash(order),
        opacity=alt.when(pick).then(alt.value(1.0)).otherwise(alt.value(0.15)),
        strokeWidth=alt.when(hover).then(alt.value(4)).otherwise(alt.value(2)),
    ).add_params(pick).properties(name="series_lines")
    points = base.mark_point(filled=True, size=40).encode(
        opacity=alt.when(pick).then(alt.value(1.0)).otherwise(alt.value(0.15)),
        tooltip=[alt.Tooltip("player:N"), alt.Tooltip("turn:Q"),
                 alt.Tooltip("value:Q", title=label)],
    ).add_params(hover).properties(name="series_points")
    return alt.LayerChart(layer=[lines, points], width=width, height=height,
                          title=title or f"{label[0].upper()}{label[1:]} over the turns")


def subject_chart(series: pl.DataFrame, metric: str, *,
                  colours: Mapping[str, str] | None = None, subject: str = "entity",
                  width: int = 520, height: int = 260,
                  labels: Mapping[str, str] | None = None) -> alt.LayerChart:
    """One metric of a :func:`gmkit.publish.history.subject_series` frame: a line per subject (a
    character, say) in its player's colour over the turns; hovering a line names it."""
    data = series.filter(pl.col("metric") == metric).sort(["entity", "turn"])
    order = _player_order(data["player"], colours)
    label = metric_label(metric, labels)
    hover = alt.selection_point(fields=["entity"], on="pointerover", clear="pointerout")
    base = alt.Chart(_records(data)).encode(
        x=alt.X("turn:Q", title="turn", axis=alt.Axis(tickMinStep=1, format="d")),
        y=alt.Y("value:Q", title=label),
        color=alt.Color("player:N", scale=_colour_scale(order, colours), sort=order,
                        legend=_legend(title="player")),
        detail="entity:N",
    )
    lines = base.mark_line(strokeWidth=1.5).encode(
        strokeWidth=alt.when(hover).then(alt.value(4)).otherwise(alt.value(1.5)),
    ).properties(name="subject_lines")
    points = base.mark_point(filled=True, size=30).encode(
        tooltip=[alt.Tooltip("entity:N", title=subject), alt.Tooltip("player:N"),
                 alt.Tooltip("turn:Q"), alt.Tooltip("value:Q", title=label)],
    ).add_params(hover).properties(name="subject_points")
    return alt.LayerChart(layer=[lines, points], width=width, height=height,
                          title=f"{label[0].upper()}{label[1:]} of each {subject} over the turns")


def metrics_chart(series: pl.DataFrame, *, colours: Mapping[str, str] | None = None,
                  columns: int = 2, width: int = 260, height: int = 150,
                  labels: Mapping[str, str] | None = None) -> alt.FacetChart:
    """Every metric of a :func:`gmkit.publish.history.player_series` frame, one small chart each (each
    with its own scale), sharing the player legend."""
    order = _player_order(series["player"], colours)
    metric_order = series["metric"].unique(maintain_order=True).to_list()
    data = series.with_columns(
        pl.col("metric").map_elements(lambda m: metric_label(m, labels),
                                      return_dtype=pl.String).alias("label"))
    titles = [metric_label(m, labels) for m in metric_order]
    pick = alt.selection_point(name="pick_player", fields=["player"], bind="legend")
    chart = alt.Chart().mark_line(point=True).encode(
        x=alt.X("turn:Q", title="turn", axis=alt.Axis(tickMinStep=1, format="d")),
        y=alt.Y("value:Q", title=None),
        color=alt.Color("player:N", scale=_colour_scale(order, colours), sort=order,
                        legend=_legend()),
        strokeDash=_dash(order),
        opacity=alt.when(pick).then(alt.value(1.0)).otherwise(alt.value(0.15)),
        tooltip=[alt.Tooltip("player:N"), alt.Tooltip("turn:Q"),
                 alt.Tooltip("label:N", title="metric"), alt.Tooltip("value:Q")],
    ).add_params(pick).properties(width=width, height=height, name="metrics")
    return alt.FacetChart(
        data=_records(data), spec=chart,
        facet=alt.Facet("label:N", sort=titles, title=None),
        columns=columns,
    ).resolve_scale(y="independent").properties(title="The players over the turns")


def timeline_chart(timeline: pl.DataFrame, *, colours: Mapping[str, str] | None = None,
                   title: str = "What happened, turn by turn") -> alt.Chart:
    """The events of a :func:`gmkit.publish.history.timeline` frame: turns across, kinds of event down,
    one dot per event coloured by its player; the tooltip gives the event's text."""
    data, order, kinds, turns = timeline_rows(timeline, colours)
    width = max(320, 70 * max(len(turns), 1))
    return alt.Chart(_records(data), title=title).mark_circle(size=70, opacity=0.85).encode(
        x=alt.X("turn:O", title="turn", sort=turns, axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("n:O", sort="ascending"),
        y=alt.Y("kind:N", title=None, sort=kinds),
        color=alt.Color("player:N", scale=_colour_scale(order, colours), sort=order,
                        legend=_legend(title="player")),
        tooltip=[alt.Tooltip("turn:O"), alt.Tooltip("kind:N"), alt.Tooltip("player:N"),
                 alt.Tooltip("region:N"), alt.Tooltip("text:N")],
    ).properties(width=width, height=26 * max(len(kinds), 2))


def dice_chart(report: pl.DataFrame, *, colours: Mapping[str, str] | None = None,
               title: str = "How lucky each player has been") -> alt.LayerChart:
    """The luck of a :func:`gmkit.publish.history.dice_report` frame: one bar per player from 0 (the
    unluckiest possible) to 100 (the luckiest), with a rule at 50 (as lucky as expected)."""
    order = report["player"].to_list()
    data = report.with_columns(
        pl.col("luck").round(1).alias("luck_shown"),
        pl.col("mean_face").round(2).alias("mean"),
        pl.col("expected_face").round(2).alias("expected"),
    )
    height = 24 * max(len(order), 3)
    base = alt.Chart(_records(data))
    bars = base.mark_bar(stroke="#333", strokeWidth=0.5).encode(
        x=alt.X("luck:Q", title="luck (percentile: 50 is as expected)",
                scale=alt.Scale(domain=[0, 100])),
        y=alt.Y("player:N", sort=order, title=None),
        color=alt.Color("player:N", scale=_colour_scale(order, colours), sort=order,
                        legend=None),
        tooltip=[alt.Tooltip("player:N"), alt.Tooltip("rolls:Q"), alt.Tooltip("entered:Q"),
                 alt.Tooltip("dice:Q"), alt.Tooltip("mean:Q", title="mean face"),
                 alt.Tooltip("expected:Q", title="expected mean face"),
                 alt.Tooltip("total_minus_expected:Q", title="total minus expected"),
                 alt.Tooltip("luck_shown:Q", title="luck")],
    )
    labels = base.mark_text(align="left", dx=4, fontSize=11).encode(
        x="luck:Q", y=alt.Y("player:N", sort=order), text=alt.Text("luck_shown:Q", format=".1f"))
    rule = alt.Chart(alt.Data(values=[{"x": 50}])).mark_rule(
        strokeDash=[4, 3], color="#333").encode(x="x:Q")
    return alt.LayerChart(layer=[bars, labels, rule], title=title, width=420, height=height)
