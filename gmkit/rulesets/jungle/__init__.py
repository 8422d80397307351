"""The Law of the Jungle: houses of Aztec characters scheming inside a Civilization game.

Rules: the GM yahzuk's text. Players run houses of characters (peasants, soldiers, citizens,
specialists and Tlatoani); twice a council session each character acts, in an order set by Fame;
between sessions the GM plays ten gameturns of a Civilization game and enters what it shows. A
game's turn is one council session. See ``docs/rules-notes/law-of-the-jungle.md`` for how each
ambiguous passage is read and the named options that choose another reading.

The modules: ``rules`` (the rules table), ``state`` (schemas), ``world`` (the starting world
and the houses joining it), ``orders`` (a house's post for both rounds, read line by line by
``action_lines``, and the GM's civilization figures; validation), ``session`` (the steps of a council session in its three phases),
``resolve`` (the two action rounds on the core's per-actor flow), ``effects``, ``gods``,
``attack``, ``fight`` and ``odds`` (what each action does), ``forecast`` (the odds of the
attacks posted, and what would be void now), ``food``, ``cities``, ``units``, ``titles`` and
``gameturns`` (what happens at the session's opening and evening), ``views`` (who sees what,
standings by house), ``drawing`` (the hex map), ``orders_map`` (a session's actions drawn on
it) and ``bot`` (seeded posts).
"""

from __future__ import annotations

from typing import Any

import polars as pl

from gmkit.core.envelope import Orders
from gmkit.core.orders import ParseResult
from gmkit.core.parts import (BoardSpec, Bot, Context, LifeCycle, PlaceTable, Presentation,
                              Views)
from gmkit.core.ruleset import Problems, Ruleset, register
from gmkit.core.steps import Outcome, Step, Termination
from gmkit.core.tables import State
import gmkit.rulesets.jungle.forecast as forecast
import gmkit.rulesets.jungle.views as viewing
import gmkit.rulesets.jungle.world as world
from gmkit.rulesets.jungle import action_lines, drawing, orders, orders_map
from gmkit.rulesets.jungle.bot import random_post
from gmkit.rulesets.jungle.orders import JungleOrder
from gmkit.rulesets.jungle.playable import PLAYABLE
from gmkit.rulesets.jungle.rules import PARAMS
from gmkit.rulesets.jungle.session import steps
from gmkit.rulesets.jungle.state import SCHEMAS, to_move


@register
class LawOfTheJungle(Ruleset[JungleOrder]):
    """The Law of the Jungle."""

    name = "jungle"
    title = "The Law of the Jungle"
    aliases = ("law-of-the-jungle",)
    version = "2"
    legacy = {"1": {"spend_limit": "each_spend", "new_units": "captain_only",
                    "void_report": "legacy_text", "store_report": "public"}}
    params = PARAMS
    schemas = SCHEMAS
    playable = PLAYABLE
    # captured settlers and workers, kept aside until rescued
    added = {"captive_units": None, "captives": None, "captive_rows": None}
    board = BoardSpec(kind="hex", default=world.board, check=world.check_board)
    # the hexes' yields (their food and gold, names the houses' stores share) stay on the map
    views = Views(hidden=viewing.HIDDEN)
    words = action_lines.WORDS
    presentation = Presentation(
        colours=drawing.colours, scene=drawing.scene, orders=orders_map.drawn_orders,
        describe=orders.describe,
        headline=viewing.HEADLINE, labels=viewing.LABELS, subject="house", series=viewing.SERIES,
        subject_table=viewing.subject_table, holdings=viewing.holdings,
        place_tables=(PlaceTable("hexes", ("q", "r"), (
            "city", "citizen", "food", "gold", "hammers")),
            PlaceTable("cities", ("q", "r"), ("tlatoani", "citizens", "puppet"))))
    # the GM posts the civilization game's figures each session; JOINING THE GAME mid-game
    lifecycle = LifeCycle(to_move=to_move, example_players=world.example_players,
                          check_players=world.check_players, joined=world.joined,
                          gm_posts=True)
    bot = Bot(random_post)

    def setup(self, ctx: Context) -> State:
        return world.setup(ctx.players, ctx.rules)

    def parse_post(self, post: str, player: str, state: State, ctx: Context, *,
                   secret: bool = False) -> ParseResult[JungleOrder]:
        return orders.parse(post, player, state, ctx.rules)

    def validate(self, state: State, sent: Orders[JungleOrder], ctx: Context) -> Problems:
        return orders.validate(state, sent, ctx)

    def steps(self, ctx: Context) -> list[Step]:
        return steps()

    def outcome(self, state: State, ctx: Context) -> Outcome | None:
        """The victory: when the GM ends the game (``last_session``, 0 for never), the player
        whose characters hold the most total Fame."""
        last = int(ctx.rules.last_session)
        if not last or int(state["session"]["session"][0]) < last:
            return None
        table = viewing.standings(state)
        if table.is_empty():
            return None
        top = table.filter(pl.col("fame") == pl.col("fame").max())["player"].to_list()
        return Outcome(Termination.GM_DECLARED, tuple(top),
                       f"The GM ends the game after council session {last}: "
                       f"{' and '.join(top)} {'holds' if len(top) == 1 else 'hold'} the most "
                       "total Fame.")

    def standings(self, state: State, ctx: Context) -> pl.DataFrame:
        return viewing.standings(state)

    def odds(self, state: State, sent: Orders[JungleOrder], ctx: Context) -> pl.DataFrame:
        """Every attack's five bands with their exact probabilities, as the state stands before
        the session, or a ``void`` row saying why it would be void now."""
        return forecast.odds(state, sent, ctx)

    def void_now(self, state: State, sent: Orders[JungleOrder], ctx: Context) -> Problems:
        """The actions that would be void if they resolved as the state stands (CHARACTER
        ACTIONS: "Actions that are not valid at the moment of resolution will be considered
        void"), each naming its line and why."""
        return forecast.void_now(state, sent, ctx)

