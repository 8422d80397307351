"""Three Hills: the smallest complete ruleset, a model to copy when writing a new one.

Two to four diggers walk a five-place board (a camp, a ford, three hills) and dig the hills for
gold; the first to hold 12 gold wins. It shows the whole contract of
:class:`gmkit.core.ruleset.Ruleset`: the six hooks (here), each given one
:class:`~gmkit.core.parts.Context`, and the parts declared as data. Each module has one job,
and every ruleset names its modules alike:

- ``rules.py``: the rules table (every rule with its default and range) and the rule sections;
- ``state.py``: the state's schemas, what a playable state is, the set-up of turn 0 and the
  board it keeps;
- ``orders.py``: orders parsed and validated line by line;
- ``steps.py``: the turn's resolution, plain and per-actor steps with dice;
- ``drawing.py``: the board drawn for a state, the players' colours, orders as arrows;
- ``bot.py``: a seeded random player;
- ``board.toml``: the board it ships.

``docs/adding-a-ruleset.md`` walks through it.
"""

from __future__ import annotations

import polars as pl

from gmkit.core.envelope import Orders
from gmkit.core.orders import ParseResult
from gmkit.core.parts import (BoardSpec, Bot, Context, LifeCycle, PlaceTable, Presentation,
                              Views)
from gmkit.core.ruleset import Problems, Ruleset, register
from gmkit.core.steps import Outcome, Step, Termination
from gmkit.core.tables import State
from gmkit.core.views import STANDINGS, Private
from gmkit.rulesets.example import drawing, orders, state as tables
from gmkit.rulesets.example.bot import random_post
from gmkit.rulesets.example.rules import PARAMS, board
from gmkit.rulesets.example.steps import STEPS


@register
class ThreeHills(Ruleset[orders.Order]):
    """Three Hills."""

    name = "example"
    title = "Three Hills"
    aliases = ("three-hills",)
    params = PARAMS
    schemas = tables.SCHEMAS
    playable = tables.PLAYABLE  # 1. what a state the rules can play holds
    # a new game keeps a copy of the shipped board, recorded by every turn
    board = BoardSpec(kind="graph", packaged="board.toml", default=board,
                      check=tables.check_board)
    # 1. a digger's gold is their own secret: hidden from all but the GM and its digger
    views = Views(hidden=(Private("diggers", "id", ("gold",)),
                          Private(STANDINGS, "player", ("gold",))))
    words = orders.WORDS
    presentation = Presentation(colours=drawing.palette, scene=drawing.scene,
                                orders=drawing.drawn_orders, describe=orders.describe,
                                place_tables=(
                                    PlaceTable("places", ("place",), (), kind="kind"),
                                    PlaceTable("hills", ("place",), ("gold_left",)),
                                    PlaceTable("diggers", ("place",), ("id", "name", "gold"),
                                               many="diggers")))
    lifecycle = LifeCycle(to_move=tables.to_move, example_players=tables.example_players)
    bot = Bot(random_post)

    def setup(self, ctx: Context) -> State:
        """1. The diggers, on the game's board (the shipped one unless the GM gave their own;
        the state keeps it, so every step plays on it)."""
        return tables.setup(ctx.players, ctx.rules, ctx.board)

    def parse_post(self, post: str, player: str, state: State, ctx: Context, *,
                   secret: bool = False) -> ParseResult[orders.Order]:
        return orders.parse(post, state)

    def validate(self, state: State, sent: Orders[orders.Order], ctx: Context) -> Problems:
        return orders.validate(state, sent, ctx)

    def steps(self, ctx: Context) -> list[Step]:
        return list(STEPS)

    def outcome(self, state: State, ctx: Context) -> Outcome | None:
        """5. Victory: whoever holds ``gold_to_win`` gold; after ``last_turn``, the richest."""
        rules = ctx.rules
        diggers = state["diggers"]
        rich = diggers.filter(pl.col("gold") >= rules.gold_to_win)["id"].to_list()
        if rich:
            return Outcome(Termination.VICTORY, tuple(rich),
                           f"{rich[0]} holds {rules.gold_to_win} gold first.")
        if state.turn >= rules.last_turn:
            top = diggers.filter(pl.col("gold") == pl.col("gold").max())["id"].to_list()
            return Outcome(Termination.TIME_LIMIT, tuple(top),
                           f"After turn {rules.last_turn}, {' and '.join(top)} "
                           f"{'is' if len(top) == 1 else 'are'} the richest.")
        return None

    def standings(self, state: State, ctx: Context) -> pl.DataFrame:
        return (state["diggers"].sort(["gold", "id"], descending=[True, False])
                .select(pl.col("id").alias("player"), "name", "place", "gold"))
