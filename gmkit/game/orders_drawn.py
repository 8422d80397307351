"""A turn's orders drawn on its map, for one viewer.

The ruleset says how its orders are drawn (:attr:`gmkit.core.parts.Presentation.orders`); this
module gives it what a viewer may see and nothing more: the state before the turn as that
viewer sees it, the orders of the posts that viewer may see (the public sees no secret post, a
player sees their own), and the events they may see (which tell which orders failed). So a map
of orders drawn here, for the public or a player, holds no order hidden from them: the turn
reports' maps, ``gmkit map --orders`` and the gallery all draw through :func:`turn_orders`; the
desk draws the turn being resolved for the GM through :func:`draw_orders`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import polars as pl

from gmkit.core.envelope import Orders
from gmkit.core.steps import Event
from gmkit.core.tables import State
from gmkit.core.views import Viewer, sees_post, visible_events

if TYPE_CHECKING:
    from gmkit.core.drawing.orders import DrawnOrders
    from gmkit.game.game import Game

__all__ = ["TurnOrders", "draw_orders", "stored_events", "turn_orders", "visible_to"]


def stored_events(frame: pl.DataFrame) -> list[Event]:
    """The rows of a stored events frame as :class:`~gmkit.core.steps.Event` values again."""
    out = []
    for row in frame.iter_rows(named=True):
        data = row.get("data")
        try:
            values = json.loads(data) if isinstance(data, str) and data else {}
        except ValueError:
            values = {}
        out.append(Event(row["kind"], row["rule"], row["text"], row["player"], row["region"],
                         bool(row["public"]), values if isinstance(values, dict) else {},
                         tuple(row.get("shared_with") or ())))
    return out


def visible_to(orders: Orders[Any], viewer: Viewer | str) -> Orders[Any]:
    """The orders of the posts ``viewer`` may see (see :func:`gmkit.core.views.sees_post`)."""
    v = Viewer.parse(viewer)
    if v.is_gm:
        return orders
    return Orders(e for e in orders.envelopes if sees_post(v, e.player, e.secret))


def draw_orders(game: Game, state: State, orders: Orders[Any],
                events: Sequence[Event] = ()) -> DrawnOrders | None:
    """The ruleset's drawing of ``orders`` on the map of ``state`` (None for a ruleset that
    draws no orders, or a game with no map)."""
    draw = game.ruleset.presentation.orders
    if draw is None or game.ruleset.presentation.scene is None or game.board is None:
        return None
    return draw(state, orders, events, game.context())


@dataclass(frozen=True)
class TurnOrders:
    """A committed turn's orders as one viewer may see them: the state before the turn
    (``before``, as they see it), the orders of the posts they may see, the events they may
    see, and the ruleset's drawing of those orders (``drawn``, None when it draws none)."""

    turn: int
    before: State
    orders: Orders[Any]
    events: tuple[Event, ...]
    drawn: DrawnOrders | None


def turn_orders(game: Game, turn: int, viewer: Viewer | str = "gm",
                revision: int | None = None, *, orders: Orders[Any] | None = None
                ) -> TurnOrders:
    """Turn ``turn``'s orders for ``viewer`` (see :class:`TurnOrders`); ``orders``: the
    turn's accepted orders when the caller read them already (the GM's, every post)."""
    v = Viewer.parse(viewer)
    data = game.turn(turn, revision)
    before_gm = game.start_of(turn)
    if orders is None:
        manifest = game.store.manifest(turn, data.revision)
        rules = game.ruleset.rules(manifest["rules"]) \
            if isinstance(manifest.get("rules"), dict) else game.rules
        _, _, orders = game.read_orders(before_gm, data.orders, rules)
    seen = visible_to(orders, v)
    events = tuple(stored_events(visible_events(data.events, v)))
    before = game.viewed(before_gm, v)
    return TurnOrders(turn, before, seen, events, draw_orders(game, before, seen, events))
