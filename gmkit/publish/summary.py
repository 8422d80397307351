"""A committed turn as a :class:`~gmkit.core.reports.TurnReport`, derived from its logs.

Everything here is read from the turn's stored orders, rolls and events (the log is the history);
nothing is kept by hand beside them. A report is drawn for one viewer (the GM, the public or a
player, :class:`gmkit.core.views.Viewer`): its maps, standings and chart from the ruleset's view
of the state (:meth:`Ruleset.view`), its steps, rolls and posts from those that viewer may see;
the map before the turn shows the turn's orders that viewer may see
(:mod:`gmkit.game.orders_drawn`).
"""

from __future__ import annotations

from collections.abc import Mapping
import json
from typing import Any

import polars as pl

import gmkit.game.fairdice as fairdice
from gmkit.game.corrections import correction_words
from gmkit.core.cells import cell_text
from gmkit.core.parts import Headline
from gmkit.core.reports import (EventLine, OrderPost, RollLine, StepSection, TurnReport,
                                view_report)
from gmkit.core.views import Viewer, visible_events, visible_orders, visible_rolls
from gmkit.game import Game
from gmkit.game.orders_drawn import turn_orders


def _result_text(result: str, expression: str) -> str:
    value = json.loads(result)
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return str(value[0]) if len(value) == 1 else f"{' + '.join(map(str, value))} = {sum(value)}"
    if isinstance(value, float):
        return f"{value:.6f}"
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)


#: The Vega-Lite schema the standings chart is written against.
VEGA_LITE_SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json"


def _standings_template(column: str, label: str, subject: str,
                        tooltip: tuple[str, ...]) -> dict[str, Any]:
    """The standings bar chart as a Vega-Lite spec, written as the plain data it is (importing
    altair to build it would cost a GM more than drawing it); each turn swaps in its data."""
    return {
        "$schema": VEGA_LITE_SCHEMA,
        "config": {"view": {"continuousWidth": 300, "continuousHeight": 300}},
        "data": {"values": [{subject: "", column: 0, **{c: 0 for c in tooltip}}]},
        "mark": {"type": "bar", "stroke": "#333"},
        "encoding": {
            "color": {"field": subject, "type": "nominal", "legend": None,
                      "scale": {"domain": [""], "range": ["#000"]}},
            "tooltip": [{"field": subject, "type": "nominal"},
                        {"field": column, "type": "quantitative"},
                        *({"field": c, "type": "quantitative"} for c in tooltip)],
            "x": {"field": column, "type": "quantitative", "title": label},
            "y": {"field": subject, "type": "nominal", "sort": "-x", "title": None},
        },
        "title": "",
        "width": 420,
    }


def standings_chart(standings: pl.DataFrame, title: str,
                    colours: dict[str, str] | None = None, headline: Headline | None = None,
                    subject: str = "player") -> dict[str, Any] | None:
    """A bar chart of the ruleset's headline standings column per subject (player, house...),
    in the players' colours (a Vega-Lite spec); None when the ruleset charts none."""
    if headline is None or standings.is_empty() or headline.column not in standings.columns \
            or subject not in standings.columns:
        return None
    tooltip = tuple(c for c in headline.tooltip if c in standings.columns)
    data = standings.select(subject, headline.column, *tooltip).to_dicts()
    colours = colours or {}
    players = [row[subject] for row in data]
    spec = _standings_template(headline.column, headline.label, subject, tooltip)
    spec["data"] = {"values": data}
    spec["title"] = title
    spec["height"] = 24 * max(3, len(data))
    spec["encoding"]["color"]["scale"] = {
        "domain": players, "range": [colours.get(p, "#4c78a8") for p in players]}
    return spec


def step_titles(game: Game, *logs: pl.DataFrame) -> list[tuple[str, str, str]]:
    """The steps a turn's report lists, in order (name, title, rule): the ruleset's, then any
    other step its ``logs`` name (draws made outside the ruleset's steps, such as Aeternus's
    world generation), in the order they first appear, so that no roll is left off a page."""
    out = [(s.name, s.title, s.rule) for s in game.ruleset.steps(game.context())]
    known = {name for name, _, _ in out}
    for log in logs:
        if "step" not in log.columns:
            continue
        for name in log["step"].unique(maintain_order=True).to_list():
            if name is not None and name not in known:
                known.add(name)
                out.append((name, f"{str(name).replace('_', ' ').capitalize()} (draws made as "
                            "the turn resolved)", ""))
    return out


def turn_report(game: Game, turn: int | None = None, revision: int | None = None, *,
                viewer: Viewer | str = "gm") -> TurnReport:
    """The summary of a committed turn as ``viewer`` may see it (the GM by default).

    Maps (before and after), standings and chart are drawn from ``game.ruleset.view`` of the
    states; the steps' events and rolls and the posts are those the viewer may see; the
    problems found in a post are shown to the GM and to the post's sender only.
    """
    v = Viewer.parse(viewer)
    ruleset = game.ruleset
    data = game.turn(turn, revision)
    t = data.turn
    played = t > game.first_turn  # not the set-up (turn 0, or a given position)
    before_gm = game.start_of(t) if played else data.state
    before = game.viewed(before_gm, v)
    after = game.viewed(data.state, v)
    events = visible_events(data.events, v)
    rolls = visible_rolls(data.rolls, v)
    steps = []
    for name, title, rule in step_titles(game, events, rolls):
        ev = events.filter(pl.col("step") == name)
        ro = rolls.filter(pl.col("step") == name)
        if ev.is_empty() and ro.is_empty():
            continue
        steps.append(StepSection(
            name, title, rule,
            tuple(EventLine(e["kind"], e["rule"], e["text"], e["public"], e["player"],
                            tuple(e["shared_with"] or ()))
                  for e in ev.iter_rows(named=True)),
            tuple(RollLine(r["draw_id"], r["purpose"], r["rule"], r["expression"],
                           _result_text(r["result"], r["expression"]), r["source"], r["public"],
                           r["player"], tuple(r["shared_with"] or ()))
                  for r in ro.iter_rows(named=True))))
    problems: dict[str, list[str]] = {}
    accepted = None
    if played and not v.is_public:
        # read against the GM's state and every post, as resolution did; shown to the sender only
        read = game.reading_of(before_gm, data.orders, turn=t)  # once for every viewer
        accepted = read.orders
        for player in read.parsed:
            if v.is_gm or player == v.player_id:
                problems[player] = read.rejections(player)
    counted = set(game.effective_posts(data.orders)["seq"].to_list()) if played else set()
    orders = tuple(OrderPost(r["player"], r["secret"], r["text"],
                             tuple(problems.get(r["player"], [])) if r["seq"] in counted
                             else ("not counted: a later or earlier post of this player counts",))
                   for r in visible_orders(data.orders, v).sort("seq").iter_rows(named=True))
    hidden = ruleset.views.gm_only
    standings = ruleset.standings(after, game.context())
    if v.is_public:
        standings = standings.drop([c for c in hidden if c in standings.columns])
    seed = None
    if game.store.seed_path(t, revealed=True).exists():
        seed = game.store.read_seed(t)
    links = tuple(ruleset.presentation.links(after)) if ruleset.presentation.links else ()
    # the turn's orders the viewer may see, drawn on the map before it
    drawn = turn_orders(game, t, v, data.revision, orders=accepted).drawn if played else None
    report = TurnReport(
        game_title=game.title, ruleset_title=ruleset.title, turn=t,
        revision=data.revision, view="gm",
        # the two pictures share one extent
        map_before_svg=game.map_svg(before, title=f"Before turn {t}", along=(after,),
                                    orders=drawn)
        if played else None,
        map_after_svg=game.map_svg(after, title=f"After turn {t}",
                                   along=(before,) if played else ()),
        steps=tuple(steps), standings=standings,
        gm_only_columns=() if v.is_public else hidden,
        chart=_chart(ruleset, standings, after, game, t),
        orders=orders, seed_commitment=data.seed_commitment, seed=seed, outcome=data.outcome,
        record_hash=data.manifest_hash,
        previous_hash=game.store.manifest(t, data.revision).get("previous"), links=links,
        rules=_rules_rows(game, game.store.manifest(t, data.revision)),
        changes=_changes(game.store.manifest(t, data.revision),
                         {p.name: p.default for p in ruleset.params}),
        gm_notes=_hidden_corrections(game.store.manifest(t, data.revision)),
        **fairdice.report_fields(game.store, t, game.store.manifest(t, data.revision),
                                 data.orders, data.rolls))
    # built from what the viewer may see; narrowing it once more through the reports' door
    # keeps one rule for every report
    return report if v.is_gm else view_report(report, v)


def _chart(ruleset: Any, standings: pl.DataFrame, state: Any, game: Game, t: int
           ) -> dict[str, Any] | None:
    headline = ruleset.presentation.headline
    if headline is None:
        return None
    return standings_chart(standings, f"{headline.label.split()[0].title()} after turn {t}",
                           game.colours(state), headline,
                           ruleset.presentation.subject)


def _rules_rows(game: Game, manifest: Mapping[str, Any]) -> tuple[tuple[str, str, str, str], ...]:
    """The rules a turn was resolved with, as the GM report lists them."""
    overrides = manifest.get("rules") if isinstance(manifest.get("rules"), dict) else \
        game.config.get("rules", {})
    try:
        rules = game.ruleset.rules(overrides)
    except ValueError:
        return ()
    return tuple((r["name"], _rule_text(r["value"]), _rule_text(r["default"]), str(r["rule"]))
                 for r in rules.describe())


def _rule_text(value: Any) -> str:
    """A rule's value as the rules table shows it: yes or no, a dash when unset, any other value
    exactly as set (a fraction keeps every decimal)."""
    return cell_text(value) if value is None or isinstance(value, bool) else str(value)


def _hidden_corrections(manifest: Mapping[str, Any]) -> tuple[str, ...]:
    """The corrections of a turn's starting state that the public does not see (GM only)."""
    changes = manifest.get("changes") if isinstance(manifest.get("changes"), list) else []
    return tuple(f"{correction_words(c)} (not public)" for c in changes or []
                 if isinstance(c, dict) and c.get("kind") == "correction"
                 and c.get("public") is not True)


def _changes(manifest: Mapping[str, Any], defaults: Mapping[str, Any]) -> tuple[str, ...]:
    """The recorded changes that took effect with a turn, in words (a rule's former value, or
    its default)."""
    out = []
    for c in manifest.get("changes", []) if isinstance(manifest.get("changes"), list) else []:
        if not isinstance(c, dict):
            continue
        if c.get("kind") == "correction":
            if c.get("public") is True:  # a cell the public sees; others are the GM's notes
                out.append(correction_words(c))
            continue
        if c.get("kind") == "rules":
            what = (f"rule {c.get('name')} is now {c.get('value')!r}" if c.get("value") is not None
                    else f"rule {c.get('name')} is back to its default")
        else:
            what = str(c.get("what") or f"{c.get('kind')} change")
        was = f"was {c.get('old')!r}" if c.get("old") is not None else \
            f"was the default {defaults.get(str(c.get('name')))!r}"
        out.append(f"{what} ({was}): {c.get('why')}" if c.get("kind") == "rules"
                   else f"{what}: {c.get('why')}")
    return tuple(out)
