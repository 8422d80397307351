"""The seeded houses of sample games play for Fame, which wins the game (THE VICTORY: "The
player with the highest total Fame among all his characters will be the winner")."""

from __future__ import annotations

from pathlib import Path

import polars as pl

import gmkit.rulesets  # noqa: F401  (registers every ruleset)
from gmkit.core.dice import Dice
from gmkit.core.parts import Context
from gmkit.core.ruleset import find_ruleset
from gmkit.game import Game
from gmkit.rulesets.jungle.bot import random_post

RS = find_ruleset("jungle")
ROOT = Path(__file__).resolve().parents[2]


def test_a_house_with_gold_may_train_fame():
    """TRAIN: "Spend gold from your houses' stores to increase one of your character attributes
    (XP, Wisdom, Craftsmanship, Fame) by 1 point" at (level + 1)^2: a bot with the gold trains
    Fame among its choices."""
    players = [{"id": h, "name": h} for h in ("Ocelotl", "Quetzal")]
    state = RS.setup(Context(RS.rules(), players=tuple(Game.players_from_config({"players": players}))))
    rich = state.replace(houses=state["houses"].with_columns(pl.lit(50).alias("gold"),
                                                             pl.lit(20).alias("food")))
    posts = [random_post(rich, "Ocelotl", Context(RS.rules()), Dice("ab" * 32, 1, f"bot/{i}"))
             for i in range(40)]
    assert any("Train Fame" in p for p in posts)


def test_the_sample_games_houses_earn_fame():
    """The sample game's seeded houses earn Fame over its council sessions (a chart to follow)."""
    game = Game.open(ROOT / "data" / "sample-jungle")
    fame = RS.standings(game.state(), game.context())["fame"]
    assert fame.max() > 0 and (fame > 0).sum() >= 2
