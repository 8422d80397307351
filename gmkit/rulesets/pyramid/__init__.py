"""Pyramid Power Wars: serfs, priests and troops on a board of food and stone lands.

Nobles lead troops and pyramids to take land; the defeated become the victor's DEAD, whose glory
raises new pyramids. The pieces, named as in every ruleset:

- ``rules.py``: the rules table (every number and named option with its section);
- ``state.py``: the state tables, the set-up of round 0, who plays and who is to move;
- ``board/``: the shipped board, a seeded generator of others, and what a GM's own board needs;
- ``orders.py``: the orders read from a post and checked against the state (the orders as values
  in ``order_types.py``, one player's checks in ``validate.py``, a post's serf and priest
  assignments in ``allocation.py``);
- ``steps.py``: the round's resolution (with ``movement``, ``contested`` and ``contest``,
  ``economy``);
- ``outcome.py``: the standings and the end of the game;
- ``views.py``: what each viewer sees (the map for everyone, a player's own stores,
  population, DEAD and pending construction for that player alone);
- ``drawing.py``: the board drawn for a state, the players' colours, orders as arrows;
- ``bot.py``: a seeded random player.

``docs/rules-notes/pyramid-power-wars.md`` lists every reading of the text and the named option
that chooses another.
"""

from __future__ import annotations

import polars as pl

from gmkit.core.envelope import Orders
from gmkit.core.orders import ParseResult
from gmkit.core.parts import (BoardSpec, Bot, Context, LifeCycle, PlaceTable, Presentation,
                              Views)
from gmkit.core.ruleset import Problems, Ruleset, register
from gmkit.core.steps import Outcome, Step
from gmkit.core.tables import State
from gmkit.rulesets.pyramid import (board as land, drawing, orders, outcome as results,
                                    state as tables, views as viewers)
from gmkit.rulesets.pyramid.bot import random_post
from gmkit.rulesets.pyramid.rules import PARAMS
from gmkit.rulesets.pyramid.steps import steps_for


@register
class PyramidPowerWars(Ruleset[orders.Order]):
    """Pyramid Power Wars."""

    name = "pyramid"
    title = "Pyramid Power Wars"
    aliases = ("pyramid-power-wars", "ppw")
    version = "3"
    legacy = {"1": {"assignments": "line_order", "idle_priests": "legacy_first_pyramid",
                    "staff_new": "next_round", "void_report": "legacy_skipped",
                    "line_numbers": "each_post"},
              "2": {"line_numbers": "each_post"}}
    params = PARAMS
    schemas = tables.SCHEMAS
    playable = tables.PLAYABLE
    board = BoardSpec(kind="graph", packaged=f"board/{land.DEFAULT_BOARD}",
                      default=land.default_board, check=land.check_board)
    views = Views(hidden=viewers.HIDDEN)
    words = orders.WORDS
    presentation = Presentation(
        colours=drawing.palette, scene=drawing.scene, orders=drawing.drawn_orders,
        describe=orders.describe, headline=results.HEADLINE, labels=results.LABELS,
        holdings=results.holdings, places=drawing.places,
        place_tables=(PlaceTable("spaces", ("name",), ("kind", "holder", "serfs")),
                      PlaceTable("nobles", ("space",), ("player", "number", "name", "glory"),
                                 many="nobles"),
                      PlaceTable("troops", ("space",), ("player", "count"), many="troops"),
                      PlaceTable("pyramids", ("space",), (
                          "player", "number", "size", "stone", "glory", "built", "priests"),
                          many="pyramids")))
    # the rules roll no dice: draws only break rare ties
    lifecycle = LifeCycle(to_move=tables.to_move, example_players=tables.example_players,
                          check_players=tables.check_players, chance=False)
    bot = Bot(random_post)

    def setup(self, ctx: Context) -> State:
        """Round 0 on the game's board (the shipped one unless the GM gave their own): each
        player its start area (home first), a noble and troops at home, serfs at work (start
        values and options in the rules table)."""
        return tables.setup([(p.id, p.name) for p in ctx.players], land.land_of(ctx.board),
                            ctx.rules)

    def parse_post(self, post: str, player: str, state: State, ctx: Context, *,
                   secret: bool = False) -> ParseResult[orders.Order]:
        return orders.parse(post, state, player)

    def validate(self, state: State, sent: Orders[orders.Order], ctx: Context) -> Problems:
        return orders.validate(state, sent, ctx)

    def steps(self, ctx: Context) -> list[Step]:
        return steps_for(ctx.rules)

    def outcome(self, state: State, ctx: Context) -> Outcome | None:
        """The end under the option ``victory`` (rounds by default; see ``outcome.py``)."""
        return results.outcome(state, ctx.rules)

    def standings(self, state: State, ctx: Context) -> pl.DataFrame:
        """Ranked by pyramid power, then land, glory and population."""
        return results.standings(state, ctx.rules)


__all__ = ["PARAMS", "PyramidPowerWars"]
