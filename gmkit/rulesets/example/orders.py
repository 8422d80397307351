"""Three Hills' orders: the lines a digger posts, read into typed orders and checked.

Forms accepted (case does not matter, places by name or unambiguous prefix)::

    Move to North Hill        Go to North        Walk to the Ford
    Dig                       Dig here
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gmkit.core.boards.graph import GraphBoard
from gmkit.core.envelope import Orders
from gmkit.core.orders import (IllegalOrderError, OrderError, OrderSyntaxError, ParseResult,
                               PostLine, parse_post)
from gmkit.core.parts import Context
from gmkit.core.ruleset import Problems
from gmkit.core.tables import State
from gmkit.core.words import OrderWords
from gmkit.rulesets.example.rules import HILL, board
from gmkit.rulesets.example.state import board_of, digger, gold_left


@dataclass(frozen=True)
class Move:
    """Walk to an adjacent place."""

    place: str


@dataclass(frozen=True)
class Dig:
    """Dig the hill the digger stands on."""


Order = Move | Dig

MOVE = re.compile(r"^(?:move|go|walk)\s+(?:to\s+)?(?:the\s+)?(?P<place>.+?)\.?$", re.I)
DIG = re.compile(r"^dig(?:\s+here)?\.?$", re.I)


def parse_line(line: PostLine, game_board: GraphBoard) -> Order:
    """One order line into an order on ``game_board``; raises :class:`OrderError` saying why
    it is none."""
    if DIG.match(line.text):
        return Dig()
    m = MOVE.match(line.text)
    if m:
        return Move(game_board.parse_place(m["place"]))
    raise WORDS.rejected(line.text, f"not an order: '{line.text}'", [game_board.names],
                         "'Move to North Hill' or 'Dig'")


#: The words of the orders: those an order starts with, so that a plain line starting with none
#: of them, nor with a place, is not read as an order ("Good luck all!"); and the others, each
#: misspelt one told what it may be.
WORDS = OrderWords(starts=("move", "go", "walk", "dig"), others=("to", "the", "here"))


def parse(post: str, state: State | None = None) -> ParseResult[Order]:
    """A whole post into orders and per-line errors, on the board of ``state`` (the shipped
    board without one)."""
    game_board = board_of(state) if state is not None else board()
    return parse_post(post, WORDS.reading(lambda line: parse_line(line, game_board),
                                          [game_board.names]))


def describe(order: Order) -> str:
    """An order in words, to read back to the player."""
    return f"move to {order.place}" if isinstance(order, Move) else "dig"


def validate(state: State, orders: Orders[Order], ctx: Context) -> Problems:
    """Every problem of every digger's orders, by digger, each naming its line (2. Moving)."""
    known = set(state["diggers"]["id"].to_list())
    left = gold_left(state)
    game_board = board_of(state)
    problems: Problems = {}
    for pid in orders:
        if pid not in known:
            problems[pid] = [IllegalOrderError(f"no digger '{pid}' (diggers: "
                                               f"{', '.join(sorted(known))})")]
            continue
        here = str(digger(state, pid)["place"])
        errs: list[OrderError] = []
        first: int | None = None
        for sent in orders.of(pid):
            order = sent.order

            def bad(reason: str) -> None:
                errs.append(sent.reject(reason))

            if first is not None:
                bad(f"one order a turn (the order on line {first} counts)")
            elif isinstance(order, Move) and order.place not in game_board.neighbours(here):
                bad(f"{order.place} is not next to {here} (next to it: "
                    f"{', '.join(sorted(game_board.neighbours(here)))})")
            elif isinstance(order, Dig) and game_board.place_kind(here) != HILL:
                bad(f"{pid} stands on {here}, not on a hill")
            elif isinstance(order, Dig) and left[here] == 0:
                bad(f"{here} is dug out")
            else:
                first = sent.number
        if errs:
            problems[pid] = errs
    return problems
