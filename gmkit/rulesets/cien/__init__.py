"""The Crown of Cien: simultaneous grain allocation on 51 provinces under a mad Emperor.

Rules: the GM Haspen's text. See ``docs/rules-notes/cien.md`` for how each ambiguous passage is
read and the named options that choose the other reading. Each module has one job:

- ``rules.py``: the rules table, its sections, the colours the players are;
- ``state.py``: the state's schemas, the set-up of turn 0, the board and players it takes;
- ``orders.py``: orders parsed and validated line by line;
- ``steps.py``: the turn's resolution, with ``battle.py`` (a battle and the defence's split),
  ``geography.py`` (who borders whom, who holds what) and ``outcome.py`` (victory);
- ``odds.py``: the exact odds of every conquest before the dice are rolled;
- ``views.py``: what each viewer may see, the standings, the holdings;
- ``drawing.py``: the map drawn for a state, the players' colours;
- ``orders_map.py``: a turn's orders drawn on the map (conquests, defences, investments);
- ``roster.py``: a player list checked before set-up;
- ``bot.py``: a seeded random player;
- ``board/``: the map it ships and its builder.
"""

from __future__ import annotations

import polars as pl

from gmkit.core.boards.polygon import polygon_board
from gmkit.core.envelope import Orders
from gmkit.core.orders import ParseResult
from gmkit.core.parts import (BoardSpec, Bot, Context, Headline, LifeCycle, PlaceTable,
                              Presentation, Views)
from gmkit.core.ruleset import Problems, Ruleset, register
from gmkit.core.steps import Outcome, Step
from gmkit.core.tables import State
from gmkit.rulesets.cien import drawing, orders, orders_map, rules, state as tables, views as seen
from gmkit.rulesets.cien.bot import random_post
from gmkit.rulesets.cien.odds import conquest_odds
from gmkit.rulesets.cien.outcome import game_outcome
from gmkit.rulesets.cien.roster import check_players
from gmkit.rulesets.cien.steps import STEPS


@register
class Cien(Ruleset[orders.Order]):
    """The Crown of Cien."""

    name = "cien"
    title = "The Crown of Cien"
    aliases = ("crown-of-cien", "the-crown-of-cien")
    params = rules.PARAMS
    schemas = tables.SCHEMAS
    playable = tables.PLAYABLE
    board = BoardSpec(kind="polygon", packaged="board/cien.geojson", check=tables.check_board)
    # a free colour is kept in the players table for a newcomer to take: no one's row
    views = Views(hidden=seen.HIDDEN, vacant={"players": pl.col("status") == tables.FREE})
    words = orders.WORDS
    presentation = Presentation(
        colours=drawing.palette, scene=drawing.scene, orders=orders_map.drawn_orders,
        describe=orders.describe,
        headline=Headline("provinces", "provinces held", ("income",)), labels=seen.LABELS,
        holdings=seen.holdings, places=drawing.place_properties, links=seen.links,
        place_tables=(PlaceTable("provinces", ("name",), (
            "owner", "output", "capital", "conquered_turn", "conquered_from")),))
    lifecycle = LifeCycle(to_move=tables.to_move, example_players=tables.example_players,
                          check_players=check_players, counted=rules.counted,
                          place_fields=("state",))
    bot = Bot(random_post)

    def setup(self, ctx: Context) -> State:
        """INTRODUCTION: every player on their chosen state of the map, everything else
        independent."""
        return tables.setup(ctx.players, polygon_board(ctx.board), ctx.rules)

    def parse_post(self, post: str, player: str, state: State, ctx: Context, *,
                   secret: bool = False) -> ParseResult[orders.Order]:
        return orders.parse(post, state, secret=secret, player=player,
                            plain_lines=ctx.rules.get("orders_format") == "bold_or_plain")

    def validate(self, state: State, sent: Orders[orders.Order], ctx: Context) -> Problems:
        return orders.validate(state, sent, ctx)

    def steps(self, ctx: Context) -> list[Step]:
        return list(STEPS)

    def outcome(self, state: State, ctx: Context) -> Outcome | None:
        """CONDITIONS DE VICTORIE: whoever the victory step found has won."""
        return game_outcome(state)

    def standings(self, state: State, ctx: Context) -> pl.DataFrame:
        return seen.standings(state)

    def odds(self, state: State, sent: Orders[orders.Order], ctx: Context) -> pl.DataFrame:
        """LES DEMANDES, LA DÉFENSE ET LES DÉS DE GUERRE: each conquest's exact chances."""
        return conquest_odds(state, sent, ctx.rules)
