"""AZTLAN's orders: the lines players post, read into typed orders, and checked.

:func:`parse` and :func:`validate` are the ruleset's entries; the pieces live in modules of
their own, and are all importable from here:

* :mod:`~gmkit.rulesets.aztlan.order_types`: the orders as typed values (what an order says;
  who sent it, from which line and whether in secret is on its envelope);
* :mod:`~gmkit.rulesets.aztlan.names`: the empires' and sectors' names a player may write;
* :mod:`~gmkit.rulesets.aztlan.parse`: a post's lines read into orders (every accepted form);
* :mod:`~gmkit.rulesets.aztlan.words`: orders and forces in words;
* :mod:`~gmkit.rulesets.aztlan.position`: the board at the start of a turn;
* :mod:`~gmkit.rulesets.aztlan.legality`: every problem of every player's orders, by line.
"""

from __future__ import annotations

from gmkit.core.envelope import Orders
from gmkit.core.orders import OrderError
from gmkit.core.parts import Context
from gmkit.core.ruleset import Problems
from gmkit.core.tables import State
from gmkit.rulesets.aztlan.legality import check
from gmkit.rulesets.aztlan.names import player_index, sector_index
from gmkit.rulesets.aztlan.order_types import (
    ARMY_ORDERS,
    MAX_FORCE,
    MAX_MOVE,
    NEUTRAL,
    Action,
    ArmyOrder,
    Attack,
    Contingency,
    CutSupport,
    DivineSupport,
    Give,
    Hold,
    Move,
    Order,
    Permit,
    Sacrifice,
    Stand,
    Support,
)
from gmkit.rulesets.aztlan.parse import EXAMPLES, Mine, parse, parse_line
from gmkit.rulesets.aztlan.position import Position, homeless
from gmkit.rulesets.aztlan.state import active_players, board, position
from gmkit.rulesets.aztlan.words import armies_phrase, contingency_text, describe, possessive

__all__ = [
    "ARMY_ORDERS",
    "EXAMPLES",
    "Mine",
    "MAX_FORCE",
    "MAX_MOVE",
    "NEUTRAL",
    "Action",
    "ArmyOrder",
    "Attack",
    "Contingency",
    "CutSupport",
    "DivineSupport",
    "Give",
    "Hold",
    "Move",
    "Order",
    "Permit",
    "Position",
    "Sacrifice",
    "Stand",
    "Support",
    "armies_phrase",
    "contingency_text",
    "describe",
    "check",
    "homeless",
    "parse",
    "parse_line",
    "player_index",
    "possessive",
    "sector_index",
    "mine",
    "validate",
]


def mine(state: State, player: str) -> Mine:
    """What a rejection of ``player``'s lines may name as examples: the sectors of their armies
    (the largest first) and a city of theirs, by their designations (2.6)."""
    at = position(state)
    abbr = dict(zip(state["sectors"]["name"].to_list(), state["sectors"]["abbr"].to_list()))
    armies = sorted((s for s, (o, _) in at.armies.items() if o == player),
                    key=lambda s: (-at.armies[s][1], s))
    cities = sorted(c for c, o in at.cities.items() if o == player)
    return Mine.of([abbr.get(s) or s for s in armies], [abbr.get(c) or c for c in cities])


def validate(state: State, orders: Orders[Order], ctx: Context) -> Problems:
    """Every problem of the turn's orders against the state, by player, each naming its line
    (see :func:`~gmkit.rulesets.aztlan.legality.check`); the orders of an empire out of the
    game (3.4) or not played (2.1) are ignored, and its player told so first."""
    problems = check(position(state), orders, board(state))
    active = set(active_players(state))
    for pid in orders:
        if pid not in active:
            problems.setdefault(pid, []).insert(0, OrderError(
                f"the {pid} are not in the game (eliminated, 3.4, or not played, 2.1): "
                "their orders are ignored"))
    return problems
