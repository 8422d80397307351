"""Who acts in what order: the orders of play a per-actor step can use.

A per-actor :class:`~gmkit.core.steps.Step` takes an ``actors`` function that fixes, when the
step begins, who acts and in what order, and says so in a logged event. The orders here are the
common ones:

* :func:`by_column`: by a column of a state table (Fame, initiative), highest or lowest first,
  read from the state as it stands when the step begins; actors tied on the column are put in
  order by a logged draw (a shuffle of each tied group), so the GM can enter it instead;
* :func:`by_time_posted`: by when each actor's first order was posted (as received);
* :func:`actions_as_posted`: each order is an actor of its own, in the order posted (a game
  resolved action by action); the act function finds its order by
  :meth:`~gmkit.core.envelope.Orders.acting`.

Each returns an ``actors`` function ``(state, orders, dice, rules) -> (actors, events)``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from itertools import groupby
from typing import Any

import polars as pl

from gmkit.core.dice import Dice
from gmkit.core.envelope import Envelope, Orders
from gmkit.core.params import Params
from gmkit.core.steps import ActorsFn, Event
from gmkit.core.tables import State

#: Which actors take part: all rows of the table (None), or those a function of the state, the
#: orders and the rules in force keeps (for instance, the characters who have an action this
#: round).
Who = Callable[[State, Orders[Any], Params], pl.Expr] | None


def _ordering_event(rule: str, what: str, actors: list[str], values: dict[str, Any]) -> Event:
    listed = ", ".join(f"{a} ({values[a]})" if a in values else a for a in actors)
    return Event("order of play", rule, f"{what}: {listed or 'nobody acts'}.",
                 data={"actors": actors})


def by_column(table: str, column: str, *, id_column: str = "id", descending: bool = True,
              rule: str, who: Who = None, what: str = "Order of play",
              show_values: bool = True) -> ActorsFn:
    """Actors (rows of ``table``, named by ``id_column``) ordered by ``column`` as the state
    stands when the step begins, highest first (``descending``) or lowest first; each group of
    actors tied on the column is ordered by a logged shuffle (draw key ``ties/<value>``).

    The order of play is a public event; ``show_values=False`` leaves the column's values out
    of it, for a column the players may not see (the order itself still shows who outranks
    whom, as the table would at the table)."""

    def actors(state: State, orders: Orders[Any], dice: Dice,
               rules: Params) -> tuple[list[str], list[Event]]:
        frame = state[table]
        if who is not None:
            frame = frame.filter(who(state, orders, rules))
        rows = sorted(((r[id_column], r[column]) for r in
                       frame.select(id_column, column).iter_rows(named=True)),
                      key=lambda r: (-r[1] if descending else r[1], str(r[0])))
        out: list[str] = []
        for n, (value, group) in enumerate(groupby(rows, key=lambda r: r[1]), 1):
            ids = [str(r[0]) for r in group]
            if len(ids) > 1:
                tied, key = (f"tied at {column} {value}", f"ties/{value}") if show_values \
                    else (f"tied on {column}", f"ties/rank-{n}")
                ids = dice.shuffle(ids, purpose=f"the order among {', '.join(ids)}, {tied}",
                                   rule=rule, key=key)
            out += ids
        values = {str(r[0]): r[1] for r in rows} if show_values else {}
        return out, [_ordering_event(rule, f"{what}, by {column} "
                                     f"{'highest' if descending else 'lowest'} first", out,
                                     values)]

    return actors


def by_time_posted(*, rule: str, what: str = "Order of play") -> ActorsFn:
    """The players who sent orders, in the order their first order was received (posting
    time, then post number, then line)."""

    def actors(state: State, orders: Orders[Any], dice: Dice,
               rules: Params) -> tuple[list[str], list[Event]]:
        out: list[str] = []
        for e in orders.received():
            if e.player not in out:
                out.append(e.player)
        return out, [_ordering_event(rule, f"{what}, as posted", out, {})]

    return actors


def actions_as_posted(*, rule: str, what: str = "Actions as posted", none: str = "none",
                      when: Callable[[Envelope[Any]], datetime] | None = None) -> ActorsFn:
    """Every order as an actor of its own, in the order received (:meth:`Orders.received`,
    with ``when`` giving an order's time if not its post's), each named by
    :meth:`Orders.actor` (``"Amber.3"``); the public event lists them (``"<what>: Amber.1,
    Blue.1."``, or ``none`` when there is no order). The step's act function gets the order
    back with ``orders.acting(actor)``.

    >>> from gmkit.core.envelope import Envelope
    >>> orders = Orders([Envelope("dig", "Amber", 2, 1), Envelope("fish", "Blue", 1, 1)])
    >>> actors, events = actions_as_posted(rule="4")(State(1), orders, None, None)
    >>> actors, events[0].text
    (['Blue.1', 'Amber.1'], 'Actions as posted: Blue.1, Amber.1.')
    """

    def actors(state: State, orders: Orders[Any], dice: Dice,
               rules: Params) -> tuple[list[str], list[Event]]:
        keys = [orders.actor(e) for e in orders.received(when)]
        return keys, [Event("order of play", rule, f"{what}: {', '.join(keys) or none}.",
                            data={"actors": keys})]

    return actors
