"""Three Hills' resolution: moves, crowding, then digging one digger at a time.

Each step is a pure function of ``(state, orders, dice, rules)``; digging runs once per digger
(``act``), in an order fixed when the step begins (:func:`gmkit.core.flow.by_column`). The state
the steps see is the previous turn's: the turn being resolved is ``state.turn + 1``.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from gmkit.core.dice import Dice
from gmkit.core.envelope import Orders
from gmkit.core.flow import by_column
from gmkit.core.params import Params
from gmkit.core.steps import Event, Step
from gmkit.core.tables import State
from gmkit.rulesets.example.orders import Dig, Move, Order
from gmkit.rulesets.example.rules import CROWDING, DIGGING, HILL, MOVING, VICTORY
from gmkit.rulesets.example.state import board_of, camp, digger, gold_left


def _set(state: State, pid: str, **values: Any) -> State:
    """The state with some columns of one digger's row changed."""
    diggers = state["diggers"].with_columns(
        pl.when(pl.col("id") == pid).then(pl.lit(v, dtype=state["diggers"].schema[c]))
        .otherwise(pl.col(c)).alias(c) for c, v in values.items())
    return state.replace(diggers=diggers)


def move(state: State, orders: Orders[Order], dice: Dice,
         rules: Params) -> tuple[State, list[Event]]:
    """2. Moving: every move happens at once."""
    events = []
    for e in orders.envelopes:
        if isinstance(e.order, Move):
            state = _set(state, e.player, place=e.order.place, arrived=dice.turn)
            events.append(Event("move", MOVING, f"{e.player} walks to {e.order.place}.",
                                e.player, e.order.place))
    return state, events


def crowding(state: State, orders: Orders[Order], dice: Dice,
             rules: Params) -> tuple[State, list[Event]]:
    """3. Crowding: a hill holds one digger; a die decides who stays, the others go back to
    the Camp (with ``crowded_hill = "holder"``, the digger who held the hill keeps it)."""
    events = []
    back = camp(state)
    for hill in board_of(state).of_kind(HILL):
        here = state["diggers"].filter(pl.col("place") == hill).sort("id")
        if here.height < 2:
            continue
        holders = here.filter(pl.col("arrived") < dice.turn)["id"].to_list()
        if rules.crowded_hill == "holder" and holders:
            stays = holders[0]
        else:
            names = here["id"].to_list()
            faces = ", ".join(f"{i} {pid}" for i, pid in enumerate(names, 1))
            stays = names[dice.d(len(names), purpose=f"who stays on {hill} ({faces})",
                                 rule=CROWDING, key=hill) - 1]
        sent = [p for p in here["id"].to_list() if p != stays]
        events.append(Event("crowding", CROWDING, f"{stays} keeps {hill}; {', '.join(sent)} "
                            f"{'goes' if len(sent) == 1 else 'go'} back to the Camp.",
                            stays, hill, data={"sent_back": sent}))
        for pid in sent:
            state = _set(state, pid, place=back, arrived=dice.turn)
    return state, events


def _diggers(state: State, orders: Orders[Order], rules: Params) -> pl.Expr:
    """Who digs this turn: the diggers who ordered a dig."""
    return pl.col("id").is_in([p for p in orders if any(isinstance(o, Dig) for o in orders[p])])


def dig(state: State, orders: Orders[Order], dice: Dice, rules: Params,
        actor: str) -> tuple[State, list[Event]]:
    """4. Digging: one die of gold, no more than the hill has left; 5. Victory: the first to
    hold ``gold_to_win`` gold wins at once, and nobody digs after."""
    if state["diggers"].filter(pl.col("gold") >= rules.gold_to_win).height:
        return state, [Event("dig", VICTORY, f"The game is won: {actor} does not dig.", actor)]
    me = digger(state, actor)
    hill = str(me["place"])
    if board_of(state).place_kind(hill) != HILL:
        return state, [Event("dig", DIGGING, f"{actor} was sent back to the Camp and does not "
                             "dig.", actor, hill)]
    secret = any(e.secret for e in orders.of(actor) if isinstance(e.order, Dig))
    left = gold_left(state)[hill]
    found = min(left, dice.d(rules.dig_die, purpose=f"gold {actor} finds in {hill}",
                             rule=DIGGING, key="dig", public=not secret, player=actor))
    gold = int(me["gold"]) + found
    state = _set(state, actor, gold=gold).replace(hills=state["hills"].with_columns(
        pl.when(pl.col("place") == hill).then(left - found).otherwise(pl.col("gold_left"))
        .alias("gold_left")))
    events = [Event("dig", DIGGING, f"{actor} digs in {hill} and finds {found} gold.", actor,
                    hill, public=not secret, data={"found": found, "gold": gold})]
    if secret:
        events.append(Event("dig", DIGGING, f"{actor} digs in {hill} (a secret order: the find "
                            "stays secret).", actor, hill))
    if gold >= rules.gold_to_win:
        events.append(Event("victory", VICTORY, f"{actor} holds {gold} gold and wins.", actor))
    return state, events


STEPS = (
    Step("move", "Moving", MOVING, move),
    Step("crowding", "Crowding", CROWDING, crowding),
    Step("dig", "Digging", DIGGING, actors=by_column(
        "diggers", "arrived", descending=False, rule=DIGGING, who=_diggers,
        what="Order of digging"), act=dig),
)
