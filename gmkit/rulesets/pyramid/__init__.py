"""Pyramid Power Wars: serfs, priests and troops on a board of food and stone lands.

Nobles lead troops and pyramids to take land; the defeated become the victor's DEAD, whose glory
raises new pyramids. The pieces: the rules table (``constants``), the state tables (``state``),
the board data and its seeded generator (``board``), the orders (``orders``, checked by
``validate``), the resolution steps (``steps``, with ``movement``, ``contest`` and
``economy``), the end of the game (``outcome``), a seeded random player (``bot``) and the
drawing (``drawing``); the ruleset below ties them to the core's contract.
``docs/rules-notes/pyramid-power-wars.md`` lists every reading of the text and the named option
that chooses another.

What each viewer sees (one door, :meth:`PyramidPowerWars.view`): the public sees what stands on
the map (land by kind and holder, nobles and their glory, troops, built pyramids and the priests
staffing them); a player sees that plus their own population, stores, serfs at work, DEAD and
pending construction.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from gmkit.core.boards.graph import GraphBoard
from gmkit.core.dice import Dice
from gmkit.core.drawing.scene import Scene
from gmkit.core.envelope import Orders
from gmkit.core.boards import Board, BoardError
from gmkit.core.drawing.scene import Arrow
from gmkit.core.orders import OrderError, ParseResult
from gmkit.core.params import Params
from gmkit.core.legacy import LegacyRuleset
from gmkit.core.parts import Headline
from gmkit.core.ruleset import register
from gmkit.core.players import PlayerInfo
from gmkit.core.steps import Event, Outcome, Step
from gmkit.core.tables import State
from gmkit.core.views import Viewer
import gmkit.rulesets.pyramid.board as land_board
import gmkit.rulesets.pyramid.drawing as drawing
import gmkit.rulesets.pyramid.orders as pyr_orders
import gmkit.rulesets.pyramid.outcome as pyr_outcome
import gmkit.rulesets.pyramid.state as pyr_state
from gmkit.rulesets.pyramid.board import LandBoard
from gmkit.rulesets.pyramid.bot import random_post
from gmkit.rulesets.pyramid.constants import COLOURS, PARAMS
from gmkit.rulesets.pyramid.orders import Order as PyramidOrder
from gmkit.rulesets.pyramid.steps import steps_for
from gmkit.rulesets.pyramid.validate import validate as validate_orders

#: Standings figures only the GM and the player themself may see.
PRIVATE_FIGURES = ("population", "serfs", "food", "stone", "dead_held")
#: Columns of the ``players`` table that are a player's own business.
PRIVATE_PLAYER_COLUMNS = ("food", "stone", "serfs", "priests", "births", "starve")


@functools.lru_cache(maxsize=4)
def shipped_board(filename: str = land_board.DEFAULT_BOARD) -> LandBoard:
    """A board shipped with the ruleset, read and checked once."""
    return land_board.load(filename)


def land_of(board: Board[Any] | None) -> LandBoard:
    """The land board of a game made on ``board`` (a graph board with start areas), else the
    shipped board when there is none.

    Raises:
        BoardError: naming the board and why the rules cannot be played on it.
    """
    if board is None:
        return shipped_board()
    if not isinstance(board, GraphBoard):
        raise BoardError(str(getattr(board, "source", "board")),
                         [f"a {board.kind} board: Pyramid Power Wars plays on a graph board "
                          "of land spaces"])
    return land_board.of_board(board)


def _hide_players(players: pl.DataFrame, keep: str | None) -> pl.DataFrame:
    """The players table with the private columns blanked on every row but ``keep``'s."""
    mine = pl.col("id") == keep if keep is not None else pl.lit(False)
    return players.with_columns(
        pl.when(mine).then(pl.col(c)).otherwise(pl.lit(None, players.schema[c])).alias(c)
        for c in PRIVATE_PLAYER_COLUMNS)


@register
class PyramidPowerWars(LegacyRuleset[PyramidOrder]):
    """Pyramid Power Wars."""

    name = "pyramid"
    version = "2"
    legacy = {"1": {"assignments": "line_order", "idle_priests": "legacy_first_pyramid",
                         "staff_new": "next_round", "void_report": "legacy_skipped"}}
    title = "Pyramid Power Wars"
    aliases = ("pyramid-power-wars", "ppw")
    params = PARAMS
    schemas = pyr_state.SCHEMAS
    board_kind = "graph"
    packaged_board = f"board/{land_board.DEFAULT_BOARD}"
    chance = False  # the rules roll no dice: draws only break rare ties

    # -- set-up, orders, resolution ------------------------------------------------------------
    def setup(self, players: Sequence[PlayerInfo], board: Board[Any] | None,
              rules: Params) -> State:
        """Round 0 on the game's board (the shipped one unless the GM gave their own): each
        player its start area (home first), a noble and troops at home, serfs at work (start
        values and options in the rules table)."""
        return pyr_state.setup([(p.id, p.name) for p in players], land_of(board), rules)

    def parse_post(self, post: str, player: str, state: State, rules: Params, *,
                   secret: bool = False) -> ParseResult[PyramidOrder]:
        return pyr_orders.parse(post, state)

    def validate(self, state: State, orders: Mapping[str, ParseResult[PyramidOrder]],
                 rules: Params) -> dict[str, list[OrderError]]:
        return validate_orders(state, orders, rules)

    def steps(self, rules: Params) -> list[Step]:
        return steps_for(rules)

    def outcome(self, state: State, rules: Params) -> Outcome | None:
        """The end under the option ``victory`` (rounds by default; see ``outcome``)."""
        return pyr_outcome.outcome(state, rules)

    def standings(self, state: State, rules: Params) -> pl.DataFrame:
        """Ranked by pyramid power, then land, glory and population."""
        return pyr_outcome.standings(state, rules)

    # -- views ---------------------------------------------------------------------------------
    def gm_only_columns(self) -> tuple[str, ...]:
        return PRIVATE_FIGURES

    def public_state(self, state: State) -> State:
        """What stands on the map: no player's stores or population, no serfs at work, no DEAD,
        no pyramid still being built (nor what was paid into the built ones)."""
        pyramids = state["pyramids"].filter(pl.col("built"))
        return state.replace(
            players=_hide_players(state["players"], None),
            spaces=state["spaces"].with_columns(pl.lit(None, pl.Int64).alias("serfs")),
            pyramids=pyramids.with_columns(pl.lit(None, pl.Int64).alias("stone"),
                                           pl.lit(None, pl.Int64).alias("glory")),
            dead=state["dead"].clear())

    def player_state(self, state: State, player: str) -> State:
        """The public view plus the player's own: their population and stores, their serfs at
        work, their DEAD and their pyramids with what was paid into them (built or not)."""
        public = self.view(state, Viewer.public())
        spaces = state["spaces"].with_columns(
            pl.when(pl.col("holder") == player).then(pl.col("serfs"))
            .otherwise(pl.lit(None, pl.Int64)).alias("serfs"))
        theirs = public["pyramids"].filter(pl.col("player") != player)
        pyramids = pl.concat([theirs, state["pyramids"].filter(pl.col("player") == player)])
        return public.replace(
            players=_hide_players(state["players"], player), spaces=spaces,
            pyramids=pyramids.sort("player", "number"),
            dead=state["dead"].filter(pl.col("held_by") == player))

    # -- the board -----------------------------------------------------------------------------
    def board(self) -> GraphBoard:
        """The graph board shipped with the ruleset (``board/two-lands.toml``)."""
        return shipped_board().board

    def scene(self, state: State, rules: Params) -> Scene:
        """Land by kind and holder, nobles, troops, pyramids by size and their priests."""
        return drawing.board_scene(state)

    def order_arrows(self, state: State, orders: Orders[PyramidOrder],
                     events: Sequence[Event], rules: Params) -> list[Arrow]:
        """Nobles leading forces and forces moved without a noble, failed once the movement
        step shows they did not move."""
        return drawing.order_arrows(state, orders, events)

    # -- presentation --------------------------------------------------------------------------
    def place_properties(self, state: State) -> dict[str, dict[str, Any]]:
        """Each land's kind and holder now."""
        return {name: {"kind": kind, "owner": holder}
                for name, kind, holder in state["spaces"].select("name", "kind", "holder")
                .iter_rows()}

    def player_colours(self, state: State, rules: Params) -> dict[str, str]:
        return drawing.colours(state)

    def headline(self) -> Headline:
        return Headline("lands", "lands held", ("pyramid_power", "glory"))

    def metric_labels(self) -> Mapping[str, str]:
        return {"pyramid_power": "pyramid power (stone of built pyramids)",
                "lands": "lands held", "glory": "glory of living nobles",
                "pyramids": "pyramids built", "dead_held": "DEAD held"}

    def holdings(self, state: State) -> pl.DataFrame | None:
        """Each player's lands (kind in brackets) and pyramids, in words."""
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

    # -- players -------------------------------------------------------------------------------
    def bot_post(self, state: State, player: str, rules: Params, dice: Dice) -> str:
        return random_post(state, player, rules, dice)

    def check_players(self, players: Sequence[PlayerInfo], board: Board[Any] | None
                      ) -> list[str]:
        """Two to eight players (the board's start areas), each id once."""
        problems = []
        if not 2 <= len(players) <= 8:
            problems.append(f"Pyramid Power Wars takes 2 to 8 players, not {len(players)}")
        seen: set[str] = set()
        for i, p in enumerate(players, 1):
            if p.id.casefold() in seen:
                problems.append(f"player {i} '{p.name}': id '{p.id}' is given twice")
            seen.add(p.id.casefold())
        return problems

    def check_board(self, board: Board[Any] | None) -> list[str]:
        """LAND and SETUP: every space food or stone land with a position, and start areas for
        2 to 8 players naming places of the board, each a home with a stone land next to it,
        no place in two areas."""
        try:
            land_of(board)
        except BoardError as e:
            return list(e.problems)
        return []

    def example_players(self, board: Board[Any] | None) -> list[dict[str, Any]]:
        """Five houses, named by their colours."""
        names = ("House of Ra", "House of Isis", "House of Horus", "House of Set",
                 "House of Thoth")
        return [{"id": c, "name": n} for c, n in zip(COLOURS, names)]

    def players_to_move(self, state: State) -> list[str]:
        return state["players"].filter(pl.col("status") == pyr_state.ACTIVE)["id"].to_list()

    def describe_order(self, order: PyramidOrder) -> str:
        return pyr_orders.describe(order)


__all__ = ["PARAMS", "PyramidPowerWars", "shipped_board"]
