"""Three Hills: the smallest complete ruleset, a model to copy when writing a new one.

Two to four diggers walk a five-place board (a camp, a ford, three hills) and dig the hills for
gold; the first to hold 12 gold wins. It shows the whole contract of
:class:`gmkit.core.ruleset.Ruleset`: a rules table with a named option (``rules.py``), state
schemas and set-up on a graph board shipped with the package (``state.py``, ``board.toml``),
orders parsed and validated line by line (``orders.py``), plain and per-actor steps with dice
(``steps.py``), the outcome, standings and the public view (here), a seeded bot (``bot.py``)
and a drawing of the board (``drawing.py``). ``docs/adding-a-ruleset.md`` walks through it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from gmkit.core.boards.graph import GraphBoard
from gmkit.core.dice import Dice
from gmkit.core.drawing.scene import Scene
from gmkit.core.envelope import Orders
from gmkit.core.drawing.scene import Arrow
from gmkit.core.boards import Board
from gmkit.core.orders import OrderError, ParseResult
from gmkit.core.params import Params
from gmkit.core.ruleset import Ruleset, register
from gmkit.core.players import PlayerInfo
from gmkit.core.steps import Event, Outcome, Step, Termination
from gmkit.core.tables import State
import gmkit.rulesets.example.orders as example_orders
import gmkit.rulesets.example.state as example_state
from gmkit.rulesets.example.bot import random_post
from gmkit.rulesets.example.drawing import board_scene, colours
from gmkit.rulesets.example.rules import PARAMS, board
from gmkit.rulesets.example.steps import STEPS
from gmkit.rulesets.example.orders import Move, Order as DiggerOrder


@register
class ThreeHills(Ruleset[DiggerOrder]):
    """Three Hills."""

    name = "example"
    title = "Three Hills"
    aliases = ("three-hills",)
    params = PARAMS
    schemas = example_state.SCHEMAS
    board_kind = "graph"
    packaged_board = "board.toml"  # a new game keeps a copy, recorded by every turn

    def setup(self, players: Sequence[PlayerInfo], board: Board[Any] | None,
              rules: Params) -> State:
        """1. The diggers, on the game's board (the shipped one unless the GM gave their own;
        the state keeps it, so every step plays on it)."""
        return example_state.setup(players, rules,
                                   board if isinstance(board, GraphBoard) else None)

    def parse_post(self, post: str, player: str, state: State, rules: Params, *,
                   secret: bool = False) -> ParseResult[DiggerOrder]:
        return example_orders.parse(post, state)

    def validate(self, state: State, orders: Mapping[str, ParseResult[DiggerOrder]],
                 rules: Params) -> dict[str, list[OrderError]]:
        return example_orders.validate(state, orders, rules)

    def steps(self, rules: Params) -> list[Step]:
        return list(STEPS)

    def outcome(self, state: State, rules: Params) -> Outcome | None:
        """5. Victory: whoever holds ``gold_to_win`` gold; after ``last_turn``, the richest."""
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

    def standings(self, state: State, rules: Params) -> pl.DataFrame:
        return (state["diggers"].sort(["gold", "id"], descending=[True, False])
                .select(pl.col("id").alias("player"), "name", "place", "gold"))

    def gm_only_columns(self) -> tuple[str, ...]:
        return ("gold",)

    def public_state(self, state: State) -> State:
        return state.replace(diggers=state["diggers"].with_columns(
            pl.lit(None, pl.Int64).alias("gold")))


    def board(self) -> GraphBoard:
        """The graph board shipped with the ruleset (``board.toml``)."""
        return board()

    def player_colours(self, state: State, rules: Params) -> dict[str, str]:
        """Each digger's colour, in the order the players were listed."""
        return colours(state)

    def scene(self, state: State, rules: Params) -> Scene:
        """The board for ``state``: hills by the gold left, a mark per digger."""
        return board_scene(state)

    def order_arrows(self, state: State, orders: Orders[DiggerOrder],
                     events: Sequence[Event], rules: Params) -> list[Arrow]:
        """Each move as an arrow from where the digger stands to where it walks."""
        colour = colours(state)
        here = dict(state["diggers"].select("id", "place").iter_rows())
        moves = [(e.player, e.order) for e in orders.of_kind(Move) if e.player in here]
        return [Arrow(here[who], order.place, colour[who], "move",
                      title=f"{who}: move to {order.place}")
                for who, order in moves if isinstance(order, Move)]

    def bot_post(self, state: State, player: str, rules: Params, dice: Dice) -> str:
        return random_post(state, player, rules, dice)

    def check_board(self, board: Board[Any] | None) -> list[str]:
        """1. The diggers: a graph board with one camp and at least one hill."""
        if board is None:
            return []
        if not isinstance(board, GraphBoard):
            return [f"a {board.kind} board: Three Hills plays on a graph board"]
        return example_state.check_board(board)

    def example_players(self, board: Board[Any] | None) -> list[dict[str, Any]]:
        return [{"id": pid, "name": f"{pid} the digger"} for pid in ("Amber", "Birch", "Cedar")]

    def players_to_move(self, state: State) -> list[str]:
        return state["diggers"]["id"].to_list()

    def describe_order(self, order: DiggerOrder) -> str:
        return example_orders.describe(order)
