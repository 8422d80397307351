"""AZTLAN (Ken St. Andre, 1977): a Diplomacy variant of the warring empires of central Mexico.

Every ruleset names its modules alike:

* :mod:`~gmkit.rulesets.aztlan.rules`: the rules table;
* :mod:`~gmkit.rulesets.aztlan.state`: the tables, Winter 1450 and the board they keep;
* :mod:`~gmkit.rulesets.aztlan.orders`: the orders as the rules write them, parsed and validated
  (the pieces in :mod:`~gmkit.rulesets.aztlan.order_types`, :mod:`~gmkit.rulesets.aztlan.parse`
  and :mod:`~gmkit.rulesets.aztlan.legality`);
* :mod:`~gmkit.rulesets.aztlan.steps`: the turn, step by step: combat, retreats, sacrifices,
  gifts, eliminations, new armies, the Chichimecs, victory and the seasons;
* :mod:`~gmkit.rulesets.aztlan.drawing`: the board drawn, the empires' colours, orders as
  arrows;
* :mod:`~gmkit.rulesets.aztlan.bot`: a seeded random player;
* :mod:`gmkit.rulesets.aztlan.board`: the board it ships, and its builder.

One movement turn is adjudicated in :mod:`~gmkit.rulesets.aztlan.adjudicate` (decisions resolved
with cycle detection by :mod:`~gmkit.rulesets.aztlan.resolver`; what it says in
:mod:`~gmkit.rulesets.aztlan.results`). How each ambiguous passage is read, and the named options
for the other readings, in ``docs/rules-notes/aztlan.md``.
"""

from __future__ import annotations

import polars as pl

from gmkit.core.boards.polygon import polygon_board
from gmkit.core.envelope import Orders
from gmkit.core.orders import ParseResult
from gmkit.core.parts import BoardSpec, Bot, Context, LifeCycle, PlaceTable, Presentation
from gmkit.core.ruleset import Problems, Ruleset, register
from gmkit.core.steps import Outcome, Step, Termination
from gmkit.core.tables import State
from gmkit.rulesets.aztlan import drawing, orders, parse, roster, state as tables
from gmkit.rulesets.aztlan.board.geography import EMPIRES, FRAME
from gmkit.rulesets.aztlan.bot import random_post
from gmkit.rulesets.aztlan.rules import PARAMS
from gmkit.rulesets.aztlan.state import ACTIVE
from gmkit.rulesets.aztlan.steps import STEPS, routine


@register
class Aztlan(Ruleset[orders.Order]):
    """AZTLAN. The board is open, as in Diplomacy: every army, city, captive and retreat is on
    the table for all to see, so a player sees the public state (the default :attr:`views`);
    what is their own alone are their secret orders and the results of them (events, not
    state)."""

    name = "aztlan"
    title = "AZTLAN"
    aliases = ("smoking-mirror", "smoking mirror")
    version = "2"
    legacy = {"1": {"void_report": "legacy_silent"}}
    params = PARAMS
    schemas = tables.SCHEMAS
    playable = tables.PLAYABLE
    # the board is central Mexico in kilometres east and north of 103.8° W, 14.3° N: its
    # GeoJSON export lies where the real places are
    board = BoardSpec(packaged="board/aztlan.geojson", check=tables.check_board,
                      frame={"projection": "equirectangular", "west": FRAME[0],
                             "south": FRAME[1], "km_per_degree": 111.32, "true_at": 19.0})
    words = parse.WORDS
    presentation = Presentation(colours=drawing.palette, scene=drawing.scene,
                                orders=drawing.drawn_orders, describe=orders.describe,
                                places=drawing.place_properties, routine=routine,
                                place_tables=(
                                    PlaceTable("sectors", ("name",), ("abbr", "city", "home_of")),
                                    PlaceTable("cities", ("name",), (
                                        "owner", "peace", "attacked_turn", "taken_turn"))))
    lifecycle = LifeCycle(to_move=tables.active_players, example_players=roster.example_players,
                          check_players=roster.check_players)
    bot = Bot(random_post)

    def setup(self, ctx: Context) -> State:
        return tables.setup(ctx.players, polygon_board(ctx.board), ctx.rules)

    def parse_post(self, post: str, player: str, state: State, ctx: Context, *,
                   secret: bool = False) -> ParseResult[orders.Order]:
        return orders.parse(post, tables.board(state), player, secret=secret,
                            mine=orders.mine(state, player))

    def validate(self, state: State, sent: Orders[orders.Order], ctx: Context) -> Problems:
        return orders.validate(state, sent, ctx)

    def steps(self, ctx: Context) -> list[Step]:
        return list(STEPS)

    def outcome(self, state: State, ctx: Context) -> Outcome | None:
        """1.3, 1.4: a victory, or the Spanish landing with no winner."""
        game = state["game"].row(0, named=True)
        if game["ended"] == "victory":
            won = tuple(game["winner"].split(","))
            return Outcome(Termination.VICTORY, won,
                           f"{' and '.join('the ' + w for w in won)} won AZTLAN.")
        if game["ended"] == "spanish":
            return Outcome(Termination.TIME_LIMIT, (),
                           "No one won by Spring 1519: the Spanish landed and conquered "
                           "everybody (1.3).")
        return None

    def standings(self, state: State, ctx: Context) -> pl.DataFrame:
        held = tables.centres(state)
        armies = tables.armies_of(state)
        owners = tables.city_owners(state)
        captives = tables.position(state).captives
        rows = []
        for p in state["players"].iter_rows(named=True):
            pid = p["id"]
            rows.append({"player": pid, "name": p["name"], "status": p["status"],
                         "centres": held.get(pid, 0), "armies": armies.get(pid, 0),
                         "homes": sum(owners.get(c) == pid for c in EMPIRES[pid]),
                         "captives": captives.get(pid, 0), "magic": int(p["magic"])})
        schema = {"player": pl.String, "name": pl.String, "status": pl.String,
                  "centres": pl.Int64, "armies": pl.Int64, "homes": pl.Int64,
                  "captives": pl.Int64, "magic": pl.Int64}
        return pl.DataFrame(rows, schema=schema, orient="row").sort(
            ["centres", "armies", "player"], descending=[True, True, False])

    def odds(self, state: State, sent: Orders[orders.Order], ctx: Context) -> pl.DataFrame:
        """The one roll of a turn: the Chichimec die (7.0)."""
        if not tables.chichimecs_in_play(state["players"]["id"].to_list(), ctx.rules):
            return pl.DataFrame()
        return pl.DataFrame({"roll": ["Chichimec die (7.0)"] * 3,
                             "outcome": ["no new horde (2-5)", "1 army appears (1)",
                                         "2 armies appear (6)"],
                             "probability": [4 / 6, 1 / 6, 1 / 6]})


__all__ = ["ACTIVE", "PARAMS", "Aztlan"]
