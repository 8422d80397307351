"""The Crown of Cien: simultaneous grain allocation on 51 provinces under a mad Emperor.

Rules: the GM Haspen's text. See ``docs/rules-notes/cien.md`` for how each ambiguous passage is
read and the named options that choose the other reading.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from gmkit.core.dice import Dice
from gmkit.core.boards import Board
from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.boards.polygon import polygon_board
from gmkit.core.orders import OrderError, ParseResult
from gmkit.core.params import Params
from gmkit.core.drawing.scene import Scene
from gmkit.core.legacy import LegacyRuleset
from gmkit.core.parts import Headline
from gmkit.core.ruleset import register
import gmkit.rulesets.cien.drawing as cien_drawing
from gmkit.core.players import PlayerInfo
from gmkit.core.steps import Outcome, Step, Termination
from gmkit.core.tables import State
from gmkit.core.views import Viewer
import gmkit.rulesets.cien.orders as cien_orders
import gmkit.rulesets.cien.state as cien_state
from gmkit.rulesets.cien.constants import CAPITAL, COLOUR_HEX, PARAMS
from gmkit.rulesets.cien.bot import random_post
from gmkit.rulesets.cien.odds import conquest_odds
from gmkit.rulesets.cien.roster import check_players
from gmkit.rulesets.cien.steps import STEPS
from gmkit.rulesets.cien.orders import Order as CienOrder

#: The players' figures only the GM and the player themself see.
PRIVATE_FIGURES = ("treasury", "spent_defense", "spent_invest")


def _hide_figures(players: pl.DataFrame, keep: str | None) -> pl.DataFrame:
    """The players table with :data:`PRIVATE_FIGURES` blanked on every row but ``keep``'s."""
    mine = (pl.col("id") == keep).fill_null(False) if keep is not None else pl.lit(False)
    return players.with_columns(
        pl.when(mine).then(pl.col(c)).otherwise(pl.lit(None, players.schema[c])).alias(c)
        for c in PRIVATE_FIGURES)


@register
class Cien(LegacyRuleset[CienOrder]):
    """The Crown of Cien."""

    name = "cien"
    title = "The Crown of Cien"
    aliases = ("crown-of-cien", "the-crown-of-cien")
    params = PARAMS
    schemas = cien_state.SCHEMAS
    packaged_board = "board/cien.geojson"

    def setup(self, players: Sequence[PlayerInfo], board: Board[Any] | None,
              rules: Params) -> State:
        return cien_state.setup(players, polygon_board(board), rules)

    def headline(self) -> Headline:
        return Headline("provinces", "provinces held", ("income",))

    def metric_labels(self) -> Mapping[str, str]:
        return {"provinces": "provinces held", "spent_conquest": "spent on conquest",
                "spent_defense": "spent on defence", "spent_invest": "spent on investment"}

    def holdings(self, state: State) -> pl.DataFrame | None:
        provinces = state["provinces"]
        label = pl.format("{} ({})", pl.col("name"), pl.col("output"))
        return (provinces.filter(pl.col("owner").is_not_null())
                .sort("name")
                .group_by("owner", maintain_order=True)
                .agg(label.str.join(", ").alias("holdings"))
                .rename({"owner": "player"}))

    def links(self, state: State) -> list[tuple[str, str]]:
        return [(f"{r['id']}: coat of arms", r["arms"])
                for r in state["players"].iter_rows(named=True) if r.get("arms")]

    def counted_posts(self, rules: Params) -> str:
        """TOURNEZ LA COMMANDE (the ``orders_post`` rule): orders cannot be edited once sent, so a
        player's first post counts; a house rule may count the latest instead."""
        return str(rules.get("orders_post", "all"))

    def parse_post(self, post: str, player: str, state: State, rules: Params, *,
                   secret: bool = False) -> ParseResult[CienOrder]:
        return cien_orders.parse(post, state, secret=secret,
                                 plain_lines=rules.get("orders_format") == "bold_or_plain")

    def validate(self, state: State, orders: Mapping[str, ParseResult[CienOrder]],
                 rules: Params) -> dict[str, list[OrderError]]:
        return cien_orders.validate(state, orders, rules)

    def steps(self, rules: Params) -> list[Step]:
        return list(STEPS)

    def outcome(self, state: State, rules: Params) -> Outcome | None:
        winners = state["empire"]["winners"][0]
        if not winners:
            return None
        won = tuple(winners.split(","))
        active = state["players"].filter(pl.col("status") == cien_state.ACTIVE).height
        how = Termination.LAST_STANDING if active == 1 and CAPITAL not in state["provinces"].filter(
            pl.col("owner") == won[0])["name"].to_list() else Termination.VICTORY
        return Outcome(how, won, f"{' and '.join(won)} won the Crown of Cien.")

    def standings(self, state: State, rules: Params) -> pl.DataFrame:
        held = state["provinces"].filter(pl.col("owner").is_not_null()).group_by("owner").agg(
            pl.len().cast(pl.Int64).alias("provinces"), pl.col("output").sum().alias("output"))
        missions = state["missions"].filter(pl.col("status") == "active").select(
            pl.col("player").alias("id"), pl.col("kind").alias("mission"))
        return (state["players"].filter(pl.col("status") != cien_state.FREE)
                .join(held, left_on="id", right_on="owner", how="left")
                .join(missions, on="id", how="left")
                .with_columns(pl.col("provinces").fill_null(0), pl.col("output").fill_null(0))
                .select(pl.col("id").alias("player"), "name", "government", "status", "rebel",
                        "provinces", "income", "treasury", "mission", "spent_conquest",
                        "spent_defense", "spent_invest")
                .sort(["provinces", "income", "player"], descending=[True, True, False]))

    def gm_only_columns(self) -> tuple[str, ...]:
        return PRIVATE_FIGURES

    def public_state(self, state: State) -> State:
        """A lord's grain is his own business: the treasury and what was set aside for defence
        and investment (secret orders may spend it) are hidden; conquest spending shows in the
        battles and stays public."""
        return state.replace(players=_hide_figures(state["players"], keep=None))

    def player_state(self, state: State, player: str) -> State:
        """A player knows their own grain: the public view, with their own row's treasury and
        defence and investment spending."""
        public = self.view(state, Viewer.public())
        return public.replace(players=_hide_figures(state["players"], keep=player))

    def scene(self, state: State, rules: Params) -> Scene:
        """Provinces in their holder's colour with their output, the seas named, the legend of
        the players in play and the independent provinces."""
        return cien_drawing.scene(state)

    def place_properties(self, state: State) -> dict[str, dict[str, Any]]:
        """Each province's holder and output as the state has them now."""
        return {name: {"owner": owner, "output": output}
                for name, owner, output in state["provinces"].select(
                    "name", "owner", "output").iter_rows()}

    def player_colours(self, state: State, rules: Params) -> dict[str, str]:
        """Each player's colour: the colour their id names (Cien's players are colours)."""
        return cien_drawing.colours(state)

    def bot_post(self, state: State, player: str, rules: Params, dice: Dice) -> str:
        return random_post(state, player, rules, dice)

    def check_players(self, players: Sequence[PlayerInfo], board: Board[Any] | None
                      ) -> list[str]:
        return check_players(players, polygon_board(board))

    def check_board(self, board: Board[Any] | None) -> list[str]:
        """A polygon map of land provinces holding the Imperial City."""
        if board is None:
            return []
        if not isinstance(board, PolygonBoard):
            return [f"a {board.kind} board: the Crown of Cien plays on a polygon map"]
        if CAPITAL not in board.land():
            return [f"no land province '{CAPITAL}' (the Imperial City)"]
        return []

    def example_players(self, board: Board[Any] | None) -> list[dict[str, Any]]:
        """Six players on states spread over the map (the named states first)."""
        game_map = polygon_board(board)
        if game_map is None:
            return []
        named = ["Solsauvre", "Coyons", "Guicardie", "Tróys", "Sevoy"]
        land = [n for n in game_map.land() if n != CAPITAL]
        homes = [n for n in named if n in land]
        for n in land:
            if len(homes) >= 6:
                break
            if n not in homes and not game_map.land_neighbours(n) & set(homes):
                homes.append(n)
        colours = ["Red", "Gold", "Green", "Cyan", "Orange", "Purple"]
        return [{"id": c, "name": f"Lord {c}", "state": h,
                 "government": "city-state" if i % 2 else "duchy"}
                for i, (c, h) in enumerate(zip(colours, homes))]

    def players_to_move(self, state: State) -> list[str]:
        return state["players"].filter(pl.col("status") == cien_state.ACTIVE)["id"].to_list()

    def describe_order(self, order: CienOrder) -> str:
        return cien_orders.describe(order)

    def odds(self, state: State, orders: Mapping[str, Sequence[CienOrder]],
             rules: Params) -> pl.DataFrame:
        return conquest_odds(state, orders, rules)
