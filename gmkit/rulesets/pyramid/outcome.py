"""Standings and the end of a game of Pyramid Power Wars (not in the text: option ``victory``),
with the standings' words and each player's holdings.

The text names no victory. The default ends the game after ``victory_rounds`` rounds, set by the
GM, and ranks the players by

1. *pyramid power*: the stone cost of the built pyramids a player holds. Pyramids top the
   contest ladder and are the game's name; each needs the economy (stone from serfs on stone
   land, priests fed by food) and the war (DEAD, i.e. nobles defeated), so the measure sums up
   every other resource;
2. land held: it feeds every other resource and makes new nobles;
3. glory of the living nobles: the record of attempts and victories;
4. population, last.

Alternatives: ``last_noble`` (the game ends when one player alone has a living noble) and
``land_share`` (a player holding ``victory_land_share`` percent of the land wins at once).
"""

from __future__ import annotations

from typing import Any

import polars as pl

from gmkit.core.params import Params
from gmkit.core.parts import Context, Headline
from gmkit.core.steps import Outcome, Termination
from gmkit.core.tables import State
from gmkit.rulesets.pyramid.rules import size_stone
from gmkit.rulesets.pyramid.state import ACTIVE

RANKING = ("pyramid_power", "lands", "glory", "population")
STANDINGS_SCHEMA = {"player": pl.String, "name": pl.String, "status": pl.String,
                    "pyramid_power": pl.Int64, "pyramids": pl.Int64, "lands": pl.Int64,
                    "nobles": pl.Int64, "glory": pl.Int64, "population": pl.Int64,
                    "serfs": pl.Int64, "troops": pl.Int64, "food": pl.Int64, "stone": pl.Int64,
                    "dead_held": pl.Int64}

#: The standings column a summary charts, and its tooltip.
HEADLINE = Headline("lands", "lands held", ("pyramid_power", "glory"))
#: Words for the standings' columns.
LABELS = {"pyramid_power": "pyramid power (stone of built pyramids)", "lands": "lands held",
          "glory": "glory of living nobles", "pyramids": "pyramids built",
          "dead_held": "DEAD held"}


def _known(value: Any) -> int | None:
    """A figure of the state, or None where the viewer's state hides it."""
    return None if value is None else int(value)


def standings(state: State, rules: Params) -> pl.DataFrame:
    """One row per player, ranked: pyramid power, lands, glory, population (then id).

    Drawn from a viewer's state (:meth:`~gmkit.core.ruleset.Ruleset.view`), the figures that
    state hides (another player's stores and population) are null."""
    out = []
    for me in state["players"].iter_rows(named=True):
        pid = me["id"]
        built = state["pyramids"].filter((pl.col("player") == pid) & pl.col("built"))
        nobles = state["nobles"].filter(pl.col("player") == pid)
        troops = int(state["troops"].filter(pl.col("player") == pid)["count"].sum())
        serfs, priests = _known(me["serfs"]), _known(me["priests"])
        out.append({
            "player": pid, "name": me["name"], "status": me["status"],
            "pyramid_power": sum(size_stone(s, rules) for s in built["size"].to_list()),
            "pyramids": built.height,
            "lands": state["spaces"].filter(pl.col("holder") == pid).height,
            "nobles": nobles.height, "glory": int(nobles["glory"].sum()),
            "population": None if serfs is None or priests is None else serfs + priests + troops,
            "serfs": serfs, "troops": troops,
            "food": _known(me["food"]), "stone": _known(me["stone"]),
            "dead_held": (state["dead"].filter(pl.col("held_by") == pid).height
                     if serfs is not None else None),
        })
    if not out:
        return pl.DataFrame(schema=STANDINGS_SCHEMA)
    frame = pl.DataFrame(out, schema=STANDINGS_SCHEMA, orient="row")
    return frame.sort([*RANKING, "player"], descending=[True] * len(RANKING) + [False],
                      nulls_last=True)


def outcome(state: State, rules: Params) -> Outcome | None:
    """The end of the game under the option ``victory``, or None while it goes on."""
    active = state["players"].filter(pl.col("status") == ACTIVE)["id"].to_list()
    if len(active) == 1:
        return Outcome(Termination.LAST_STANDING, (active[0],),
                       f"{active[0]} alone remains in the Two Lands.")
    if rules.victory == "last_noble":
        with_nobles = sorted(set(state["nobles"]["player"].to_list()))
        if len(with_nobles) == 1:
            return Outcome(Termination.LAST_STANDING, (with_nobles[0],),
                           f"{with_nobles[0]} has the last living noble.")
        return None
    if rules.victory == "land_share":
        total = state["spaces"].height
        held = state["spaces"].group_by("holder").len().drop_nulls("holder")
        winners = sorted(h for h, n in held.iter_rows()
                         if n * 100 >= int(rules.victory_land_share) * total)
        if winners:
            return Outcome(Termination.VICTORY, tuple(winners),
                           f"{' and '.join(winners)} holds {rules.victory_land_share}% of the "
                           "land.")
        return None
    if state.turn >= int(rules.victory_rounds):
        table = standings(state, rules).filter(pl.col("status") == ACTIVE)
        best = table.row(0, named=True)
        tied = tuple(r["player"] for r in table.iter_rows(named=True)
                     if all(r[k] == best[k] for k in RANKING))
        return Outcome(Termination.TIME_LIMIT, tied,
                       f"After {state.turn} rounds {' and '.join(tied)} leads: pyramid power "
                       f"{best['pyramid_power']}, {best['lands']} lands, glory {best['glory']}.")
    return None


def holdings(state: State, ctx: Context) -> pl.DataFrame:
    """Each player's lands (kind in brackets) and built pyramids, in words."""
    lands = (state["spaces"].filter(pl.col("holder").is_not_null()).sort("name")
             .group_by("holder", maintain_order=True)
             .agg(pl.format("{} ({})", pl.col("name"), pl.col("kind")).str.join(", ")
                  .alias("lands")).rename({"holder": "player"}))
    pyramids = (state["pyramids"].filter(pl.col("built")).sort("number")
                .group_by("player", maintain_order=True)
                .agg(pl.format("{} pyramid {} at {}", pl.col("size"), pl.col("number"),
                               pl.col("space")).str.join(", ").alias("pyramids")))
    out = lands.join(pyramids, on="player", how="left")
    return out.select("player", pl.when(pl.col("pyramids").is_null())
                      .then(pl.col("lands"))
                      .otherwise(pl.format("{}; {}", pl.col("lands"), pl.col("pyramids")))
                      .alias("holdings")).sort("player")
