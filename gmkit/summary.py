"""A committed turn as a :class:`~gmkit.core.reports.TurnReport`, derived from its logs.

Everything here is read from the turn's stored orders, rolls and events (the log is the history);
nothing is kept by hand beside them. The report holds the GM view; the reports module's
``public_view`` is the one door to what the public may see.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
import functools
import json
from typing import Any

import polars as pl

from gmkit import fairdice
from gmkit.core.reports import EventLine, OrderPost, RollLine, StepSection, TurnReport
from gmkit.game import Game


def _result_text(result: str, expression: str) -> str:
    value = json.loads(result)
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return str(value[0]) if len(value) == 1 else f"{' + '.join(map(str, value))} = {sum(value)}"
    if isinstance(value, float):
        return f"{value:.6f}"
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)


@functools.lru_cache(maxsize=1)
def _standings_template() -> dict[str, Any]:
    """The standings bar chart as a Vega-Lite spec, built with altair once per process (building
    altair objects costs more than drawing them; each turn only swaps in its data)."""
    import altair as alt

    return alt.Chart(alt.Data(values=[{"player": "", "provinces": 0, "income": 0}])).mark_bar(
        stroke="#333").encode(
        x=alt.X("provinces:Q", title="provinces held"),
        y=alt.Y("player:N", sort="-x", title=None),
        color=alt.Color("player:N", legend=None, scale=alt.Scale(domain=[""], range=["#000"])),
        tooltip=["player:N", "provinces:Q", "income:Q"],
    ).properties(width=420, title="").to_dict(validate=False)


def standings_chart(standings: pl.DataFrame, title: str,
                    colours: dict[str, str] | None = None) -> dict[str, Any] | None:
    """A bar chart of provinces held per player, in the players' colours (a Vega-Lite spec)."""
    if standings.is_empty() or "provinces" not in standings.columns:
        return None
    data = standings.select("player", "provinces", "income").to_dicts()
    colours = colours or {}
    players = [row["player"] for row in data]
    spec = copy.deepcopy(_standings_template())
    spec["data"] = {"values": data}
    spec["title"] = title
    spec["height"] = 24 * max(3, len(data))
    spec["encoding"]["color"]["scale"] = {
        "domain": players, "range": [colours.get(p, "#4c78a8") for p in players]}
    return spec


def turn_report(game: Game, turn: int | None = None, revision: int | None = None) -> TurnReport:
    """The GM-view summary of a committed turn."""
    data = game.turn(turn, revision)
    t = data.turn
    before = game.state(t - 1) if t > 0 else data.state
    steps = []
    titles = {s.name: s for s in game.ruleset.steps(game.rules)}
    for name, step in titles.items():
        ev = data.events.filter(pl.col("step") == name)
        ro = data.rolls.filter(pl.col("step") == name)
        if ev.is_empty() and ro.is_empty():
            continue
        steps.append(StepSection(
            name, step.title, step.rule,
            tuple(EventLine(e["kind"], e["rule"], e["text"], e["public"], e["player"])
                  for e in ev.iter_rows(named=True)),
            tuple(RollLine(r["draw_id"], r["purpose"], r["rule"], r["expression"],
                           _result_text(r["result"], r["expression"]), r["source"], r["public"])
                  for r in ro.iter_rows(named=True))))
    problems: dict[str, list[str]] = {}
    if t > 0:
        parsed, found, _ = game.read_orders(before, data.orders)
        for player, result in parsed.items():
            problems[player] = [str(e) for e in result.errors] + \
                [str(e) for e in found.get(player, [])]
    counted = set(game.effective_posts(data.orders)["seq"].to_list()) if t > 0 else set()
    orders = tuple(OrderPost(r["player"], r["secret"], r["text"],
                             tuple(problems.get(r["player"], [])) if r["seq"] in counted
                             else ("not counted: a later or earlier post of this player counts",))
                   for r in data.orders.sort("seq").iter_rows(named=True))
    standings = game.ruleset.standings(data.state, game.rules)
    seed = None
    if game.store.seed_path(t, revealed=True).exists():
        seed = game.store.read_seed(t)
    links = tuple((f"{r['id']}: coat of arms", r["arms"])
                  for r in data.state["players"].iter_rows(named=True)
                  if r.get("arms")) if "players" in data.state.tables and \
        "arms" in data.state["players"].columns else ()
    return TurnReport(
        game_title=game.title, ruleset_title=game.ruleset.title, turn=t,
        revision=data.revision, view="gm",
        map_before_svg=game.map_svg(before, title=f"Before turn {t}") if t > 0 else None,
        map_after_svg=game.map_svg(data.state, title=f"After turn {t}"),
        steps=tuple(steps), standings=standings,
        gm_only_columns=game.ruleset.gm_only_columns(),
        chart=standings_chart(standings, f"Provinces after turn {t}",
                              dict(game.ruleset.map_style(data.state, game.rules).legend)),
        orders=orders, seed_commitment=data.seed_commitment, seed=seed, outcome=data.outcome,
        record_hash=data.manifest_hash,
        previous_hash=game.store.manifest(t, data.revision).get("previous"), links=links,
        rules=_rules_rows(game, game.store.manifest(t, data.revision)),
        changes=_changes(game.store.manifest(t, data.revision)),
        **fairdice.report_fields(game.store, t, game.store.manifest(t, data.revision),
                                 data.orders, data.rolls))


def _rules_rows(game: Game, manifest: Mapping[str, Any]) -> tuple[tuple[str, str, str, str], ...]:
    """The rules a turn was resolved with, as the GM report lists them."""
    overrides = manifest.get("rules") if isinstance(manifest.get("rules"), dict) else \
        game.config.get("rules", {})
    try:
        rules = game.ruleset.rules(overrides)
    except ValueError:
        return ()
    return tuple((r["name"], str(r["value"]), str(r["default"]), str(r["rule"]))
                 for r in rules.describe())


def _changes(manifest: Mapping[str, Any]) -> tuple[str, ...]:
    """The recorded changes that took effect with a turn, in words."""
    out = []
    for c in manifest.get("changes", []) if isinstance(manifest.get("changes"), list) else []:
        if not isinstance(c, dict):
            continue
        if c.get("kind") == "rules":
            what = (f"rule {c.get('name')} is now {c.get('value')!r}" if c.get("value") is not None
                    else f"rule {c.get('name')} is back to its default")
        else:
            what = str(c.get("what") or f"{c.get('kind')} change")
        out.append(f"{what} (was {c.get('old')!r}): {c.get('why')}" if c.get("kind") == "rules"
                   else f"{what}: {c.get('why')}")
    return tuple(out)
