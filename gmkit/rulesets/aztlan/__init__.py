"""AZTLAN (Ken St. Andre, 1977): a Diplomacy variant of the warring empires of central Mexico.

* :mod:`~gmkit.rulesets.aztlan.orders`: the orders as the rules write them, and validation;
* :mod:`~gmkit.rulesets.aztlan.adjudicate`: one movement turn as decisions resolved with cycle
  detection (Attack, Cut Support, Support, Hold, Stand, Move, the gods' supports);
* :mod:`~gmkit.rulesets.aztlan.state`: the tables and Winter 1450;
* :mod:`~gmkit.rulesets.aztlan.steps`: the turn, step by step: combat, retreats, sacrifices,
  gifts, eliminations, new armies, the Chichimecs, victory and the seasons;
* :mod:`~gmkit.rulesets.aztlan.bot`: a seeded random player.

The board lives in :mod:`gmkit.rulesets.aztlan.board`; how each ambiguous passage is read, and
the named options for the other readings, in ``docs/rules-notes/aztlan.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from gmkit.core.dice import Dice
from gmkit.core.envelope import Orders
from gmkit.core.boards import Board
from gmkit.rulesets.aztlan.board.geography import check_map
from gmkit.rulesets.aztlan.board.geography import FRAME
from gmkit.core.boards.polygon import PolygonBoard, polygon_board
from gmkit.core.orders import OrderError, ParseResult
from gmkit.core.params import Param, Params
from gmkit.core.drawing.scene import Scene
from gmkit.core.legacy import LegacyRuleset
from gmkit.core.parts import Headline
from gmkit.core.ruleset import register
from gmkit.core.players import PlayerInfo
from gmkit.core.steps import Event, Outcome, Step, Termination
from gmkit.core.tables import State
from gmkit.core.views import Viewer
import gmkit.rulesets.aztlan.orders as az_orders
import gmkit.rulesets.aztlan.state as az_state
from gmkit.rulesets.aztlan.bot import random_post
from gmkit.rulesets.aztlan.state import ACTIVE, SEASONS, board, position
from gmkit.rulesets.aztlan.roster import check_players
from gmkit.rulesets.aztlan.steps import STEPS
from gmkit.rulesets.aztlan.board.geography import EMPIRES
from gmkit.rulesets.aztlan.order_types import Order as AztlanOrder

PARAMS = (
    Param("min_players", 3, "2.1", "fewest players (1.2, 2.1)", low=1, high=10),
    Param("assignment", "importance", "2.1",
          "which empires are played: the first ones in 2.1's order of importance (importance), "
          "or any the GM chooses (free)", choices=("importance", "free")),
    Param("chichimecs_unplayed", "absent", "7.0",
          "with no Chichimec player: no hordes at all (absent), or the GM rolls 7.0's die and "
          "the hordes stand in the desert and where they took cities (gm)",
          choices=("absent", "gm")),
    Param("peace_turns", 4, "3.2", "turns of peace for a city to yield a new army",
          low=0, high=100),
    Param("captive_turns", 4, "3.5.2", "turns captives may be held before they are lost",
          low=0, high=100),
    Param("void_report", "told", "3.5.3",
          "a sacrifice left with fewer captives than ordered when the sacrifices come: told to "
          "its player with its line, the reason and the rule (told), or passed over in silence "
          "(legacy_silent, gmkit's first reading)", choices=("told", "legacy_silent")),
    Param("hordes_per_city", 2, "7.3.1", "Chichimec armies drawn by each city they take",
          low=0, high=100),
    Param("victory_centres", 41, "1.4", "cities to hold for victory (with the rival's centres)",
          low=1, high=1000),
    Param("spanish_year", 1519, "1.3", "the year the Spanish land", low=1450, high=10000),
    Param("spanish_season", "Spring", "1.3",
          "the last season played: the Spanish land when it ends with no winner (Spring, "
          "literally 'by Spring of 1519'); Winter ends the game before Spring is played, Fall "
          "plays the whole of 1519", choices=SEASONS),
)


@register
class Aztlan(LegacyRuleset[AztlanOrder]):
    """AZTLAN."""

    name = "aztlan"
    version = "2"
    legacy = {"1": {"void_report": "legacy_silent"}}
    title = "AZTLAN"
    aliases = ("smoking-mirror", "smoking mirror")
    params = PARAMS
    schemas = az_state.SCHEMAS
    packaged_board = "board/aztlan.geojson"
    #: The board is central Mexico in kilometres east and north of 103.8° W, 14.3° N: its
    #: GeoJSON export lies where the real places are.
    map_frame = {"projection": "equirectangular", "west": FRAME[0], "south": FRAME[1],
                 "km_per_degree": 111.32, "true_at": 19.0}

    def setup(self, players: Sequence[PlayerInfo], board: Board[Any] | None,
              rules: Params) -> State:
        return az_state.setup(players, polygon_board(board), rules)

    def parse_post(self, post: str, player: str, state: State, rules: Params, *,
                   secret: bool = False) -> ParseResult[AztlanOrder]:
        return az_orders.parse(post, board(state), player, secret=secret)

    def validate(self, state: State, orders: Mapping[str, ParseResult[AztlanOrder]],
                 rules: Params) -> dict[str, list[OrderError]]:
        problems = az_orders.validate(position(state), orders, board(state))
        active = set(az_state.active_players(state))
        for pid in orders:
            if pid not in active:
                problems.setdefault(pid, []).insert(0, OrderError(
                    f"the {pid} are not in the game (eliminated, 3.4, or not played, 2.1): "
                    "their orders are ignored"))
        return problems

    def steps(self, rules: Params) -> list[Step]:
        return list(STEPS)

    def outcome(self, state: State, rules: Params) -> Outcome | None:
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

    def standings(self, state: State, rules: Params) -> pl.DataFrame:
        held = az_state.centres(state)
        armies = az_state.armies_of(state)
        owners = az_state.city_owners(state)
        captives = position(state).captives
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

    def player_state(self, state: State, player: str) -> State:
        """The board is open, as in Diplomacy: every army, city, captive and retreat is
        on the table for all to see, so a player sees the public state; what is their own alone
        are their secret orders and the results of them (events, not state)."""
        return self.view(state, Viewer.public())

    def scene(self, state: State, rules: Params) -> Scene:
        """Cities by holder, armies as stacks, the empires outlined (see
        :func:`gmkit.rulesets.aztlan.drawing.scene`)."""
        import gmkit.rulesets.aztlan.drawing as drawing

        return drawing.scene(state)

    def place_properties(self, state: State) -> dict[str, dict[str, Any]]:
        """Each city's holder and each sector's armies now."""
        out: dict[str, dict[str, Any]] = {
            name: {"owner": owner} for name, owner in state["cities"].select("name", "owner")
            .iter_rows()}
        for sector, owner, count in state["armies"].iter_rows():
            if count > 0:
                out.setdefault(sector, {}).setdefault("armies", []).append(
                    {"owner": owner, "count": count})
        return out

    def player_colours(self, state: State, rules: Params) -> dict[str, str]:
        """Each empire's colour (2.1's order)."""
        from gmkit.rulesets.aztlan import drawing

        return {pid: drawing.EMPIRE_COLOURS[pid] for pid in state["players"]["id"].to_list()
                if pid in drawing.EMPIRE_COLOURS}

    def order_arrows(self, state: State, orders: Orders[AztlanOrder],
                     events: Sequence[Event], rules: Params) -> list[Any]:
        import gmkit.rulesets.aztlan.drawing as drawing

        outcomes = {(e.player, int(e.data["line"])): str(e.data["code"]) for e in events
                    if e.kind == "order" and e.player and e.data.get("line")}
        return list(drawing.arrows(orders, outcomes or None))

    def odds(self, state: State, orders: Mapping[str, Sequence[AztlanOrder]],
             rules: Params) -> pl.DataFrame:
        """The one roll of a turn: the Chichimec die (7.0)."""
        if not az_state.chichimecs_in_play(state["players"]["id"].to_list(), rules):
            return pl.DataFrame()
        return pl.DataFrame({"roll": ["Chichimec die (7.0)"] * 3,
                             "outcome": ["no new horde (2-5)", "1 army appears (1)",
                                         "2 armies appear (6)"],
                             "probability": [4 / 6, 1 / 6, 1 / 6]})

    def bot_post(self, state: State, player: str, rules: Params, dice: Dice) -> str:
        return random_post(state, player, rules, dice)

    def check_players(self, players: Sequence[PlayerInfo], board: Board[Any] | None
                      ) -> list[str]:
        return check_players(players, polygon_board(board))

    def check_board(self, board: Board[Any] | None) -> list[str]:
        """1.4, 2.5, 2.6: the 79 cities, every home centre, the Chichimec Desert and both seas
        (see :func:`~gmkit.rulesets.aztlan.board.geography.check_map`)."""
        if board is None:
            return []
        if not isinstance(board, PolygonBoard):
            return [f"a {board.kind} board: AZTLAN plays on a polygon map"]
        return check_map(board)

    def example_players(self, board: Board[Any] | None) -> list[dict[str, Any]]:
        """All ten empires, played in 2.1's order of importance."""
        names = ["Itzcoatl", "Xicotencatl", "Cacama", "Tariacuri", "Ixtlil", "Yopi Tecuhtli",
                 "Tlatoani", "Xolotl", "Ah Kin", "Cempoal"]
        return [{"id": e, "name": n} for e, n in zip(EMPIRES, names)]

    def players_to_move(self, state: State) -> list[str]:
        return az_state.active_players(state)

    def describe_order(self, order: AztlanOrder) -> str:
        return az_orders.describe(order)


__all__ = ["ACTIVE", "PARAMS", "Aztlan"]
