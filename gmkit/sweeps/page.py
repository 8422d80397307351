"""The page of a balance sweep: one offline HTML file of charts and tables drawn from a sweep's
two tables (see :mod:`gmkit.sweeps.sweep`).

Three charts, as static sanitized SVG (:func:`gmkit.core.reports.chart_svg`): the win rate by
seat and variant, the length of the games, and the leader's margin over the rounds; and the
same figures as tables. Every text (player names, rule values) goes through Jinja2's
autoescaping (:func:`gmkit.core.reports.html_environment`); the page makes no request and runs
no script.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import altair as alt
import polars as pl

from gmkit.core.cells import DASH, cell_text
from gmkit.core.reports import CSP, chart_svg, html_environment

if TYPE_CHECKING:
    from gmkit.sweeps.spec import Sweep

PAGE = html_environment().from_string("""\
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{ csp }}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ title }}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:1100px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}
h1{margin-bottom:.2em} .sub{color:#666;margin-top:0} table{border-collapse:collapse;margin:1em 0}
td,th{border-bottom:1px solid #ddd;padding:.3em .8em;text-align:left;white-space:nowrap}
.figure{margin:1.5em 0;overflow-x:auto} .scroll{overflow-x:auto;max-width:100%}
</style></head><body>
<h1>{{ title }}</h1>
<p class="sub">{{ games }} game(s) per variant, at most {{ rounds }} round(s) each, seed
{{ seed }}; game k of every variant plays from the same seed.</p>
<h2>Variants</h2>{{ table(variants) }}
<h2>Who wins, by seat</h2>
<p>A win is a game its outcome gives to the seat (a shared win counts for each); a lead,
a game that stopped at the round limit with the seat first in the standings.</p>
<div class="figure">{{ win_chart|safe }}</div>{{ table(wins) }}
<h2>How long the games last</h2>
<div class="figure">{{ length_chart|safe }}</div>{{ table(lengths) }}
<h2>The leader's margin over the rounds</h2>
<p>The leader's lead over the runner-up in {{ figure }}, averaged over the games still going.</p>
<div class="figure">{{ margin_chart|safe }}</div>
</body></html>
""")

TABLE = html_environment().from_string(
    '<div class="scroll"><table><tr>{% for k in rows[0] %}<th>{{ k }}</th>{% endfor %}</tr>'
    "{% for r in rows %}<tr>{% for v in r.values() %}<td>{{ cell(v, 3) }}</td>"
    "{% endfor %}</tr>{% endfor %}</table></div>")


def _table(rows: list[dict[str, Any]]) -> Any:
    import markupsafe

    return markupsafe.Markup(TABLE.render(rows=rows, cell=cell_text)) if rows else DASH


def win_rates(games: pl.DataFrame) -> pl.DataFrame:
    """Per variant and seat: games, wins (the outcome's winners; a shared win counts for each)
    and leads (leading the standings when a game stopped at the round limit), with their
    rates."""
    who = "player" if "player" in games.columns else "seat"
    limit = pl.col("winner").is_null()
    return (games.group_by(["variant", "seat"], maintain_order=True)
            .agg(pl.col(who).first().cast(pl.String).alias("player"), pl.len().alias("games"),
                 pl.col("won").sum().cast(pl.Int64).alias("wins"),
                 (limit & (pl.col("rank") == 1)).sum().cast(pl.Int64).alias("leads"))
            .with_columns((pl.col("wins") / pl.col("games")).round(3).alias("win_rate"),
                          (pl.col("leads") / pl.col("games")).round(3).alias("lead_rate"),
                          pl.format("{}: {}", pl.col("seat"), pl.col("player")).alias("seat_label"))
            .sort([_in_order(games), "seat"], maintain_order=True))


def _in_order(games: pl.DataFrame) -> pl.Expr:
    """The variant column ordered as the sweep's blocks of games are."""
    return pl.col("variant").cast(pl.Enum(_variant_order(games)))


def lengths(games: pl.DataFrame) -> pl.DataFrame:
    """Per variant and number of rounds: how many games lasted that long, and how they ended."""
    one = games.unique("game", keep="first", maintain_order=True)
    return (one.group_by(["variant", "rounds", "ended"], maintain_order=True)
            .agg(pl.len().alias("games")).sort([_in_order(one), "rounds", "ended"],
                                               maintain_order=True))


def mean_margins(margins: pl.DataFrame) -> pl.DataFrame:
    """Per variant and round: the mean margin of the leader over the games still going."""
    return (margins.group_by(["variant", "round"], maintain_order=True)
            .agg(pl.col("margin").mean().round(3).alias("mean_margin"),
                 pl.len().alias("games_going"))
            .sort([_in_order(margins), "round"], maintain_order=True))


def _variant_order(games: pl.DataFrame) -> list[str]:
    return games["variant"].unique(maintain_order=True).to_list()


def win_chart(rates: pl.DataFrame, order: list[str]) -> alt.Chart:
    """Win rate by seat, bars side by side per variant; on top, paler, the share of games the
    seat led when they stopped at the round limit."""
    seats = rates["seat_label"].unique(maintain_order=True).to_list()
    kinds = ["won", "led at the round limit"]
    data = pl.concat([
        rates.select("variant", "seat_label", "games", pl.lit(kinds[0]).alias("kind"),
                     pl.lit(0).alias("stacked"), pl.col("win_rate").alias("rate")),
        rates.select("variant", "seat_label", "games", pl.lit(kinds[1]).alias("kind"),
                     pl.lit(1).alias("stacked"), pl.col("lead_rate").alias("rate"))])
    return alt.Chart(data, title="Win rate by seat and variant").mark_bar().encode(
        x=alt.X("seat_label:N", title="seat", sort=seats, axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("variant:N", sort=order),
        y=alt.Y("rate:Q", title="share of games", stack="zero"),
        color=alt.Color("variant:N", sort=order),
        opacity=alt.Opacity("kind:N", sort=kinds, scale=alt.Scale(domain=kinds,
                                                                   range=[1.0, 0.4]),
                            legend=alt.Legend(title=None)),
        order=alt.Order("stacked:Q", sort="ascending"),
        tooltip=["variant:N", "seat_label:N", "kind:N", "rate:Q", "games:Q"],
    ).properties(width=max(360, 90 * len(seats)), height=240)


def length_chart(table: pl.DataFrame, order: list[str]) -> alt.Chart:
    """How many games lasted how many rounds, per variant."""
    return alt.Chart(table, title="Game length").mark_bar().encode(
        x=alt.X("rounds:O", title="rounds played", axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("variant:N", sort=order),
        y=alt.Y("sum(games):Q", title="games"),
        color=alt.Color("variant:N", sort=order),
        tooltip=["variant:N", "rounds:O", "sum(games):Q"],
    ).properties(width=480, height=220)


def margin_chart(table: pl.DataFrame, order: list[str], figure: str) -> alt.Chart:
    """The mean leader's margin per round, a line per variant."""
    return alt.Chart(table, title=f"The leader's margin in {figure}").mark_line(
        point=True).encode(
        x=alt.X("round:Q", title="round", axis=alt.Axis(tickMinStep=1, format="d")),
        y=alt.Y("mean_margin:Q", title=f"mean margin ({figure})"),
        color=alt.Color("variant:N", sort=order),
        tooltip=["variant:N", "round:Q", "mean_margin:Q", "games_going:Q"],
    ).properties(width=480, height=240)


def render_page(sweep: Sweep) -> str:
    """The sweep's page: offline HTML, every text escaped."""
    from gmkit.core.ruleset import find_ruleset

    spec = sweep.spec
    order = [v.label for v in spec.variants]
    rates = win_rates(sweep.games)
    length_table = lengths(sweep.games)
    margin_table = mean_margins(sweep.margins)
    figures = sweep.margins["figure"].drop_nulls().unique(maintain_order=True).to_list()
    figure = figures[0] if figures else "the headline figure"
    variants = [{"variant": v.label, "rules": ", ".join(f"{k} = {val!r}"
                                                        for k, val in v.rules.items()) or
                 "the ruleset's defaults"} for v in spec.variants]
    return str(PAGE.render(
        csp=CSP, title=f"Balance sweep: {find_ruleset(spec.ruleset).title}", games=spec.games,
        rounds=spec.rounds, seed=spec.seed, table=_table, variants=variants,
        win_chart=chart_svg(win_chart(rates, order)),
        wins=rates.select("variant", "seat", "player", "games", "wins", "win_rate", "leads",
                          "lead_rate").to_dicts(),
        length_chart=chart_svg(length_chart(length_table, order)),
        lengths=length_table.to_dicts(), figure=figure,
        margin_chart=chart_svg(margin_chart(margin_table, order, figure))
        if margin_table.height else "<p>No round was played.</p>"))
