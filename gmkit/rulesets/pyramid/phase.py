"""What the steps of a Pyramid Power Wars round share: the orders by player, a step's result,
the orders of one kind, the players by id, and an accepted order void when the round reaches it
(told to its player)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gmkit.core.params import Params
from gmkit.core.steps import Event, void_event
from gmkit.core.tables import State, rows_by
from gmkit.rulesets.pyramid.orders import Order, describe

Orders = Mapping[str, Sequence[Order]]
Result = tuple[State, list[Event]]


def of_kind(orders: Orders, kind: type) -> list[tuple[str, Any]]:
    return [(pid, o) for pid in sorted(orders) for o in orders[pid] if isinstance(o, kind)]


def players_by_id(state: State) -> dict[str, dict[str, Any]]:
    """Every player's row (a copy a step may change), by id, in the table's order."""
    return rows_by(state["players"], "id", table="players")


def told_void(rules: Params, pid: str, order: Order, reason: str, rule: str,
          legacy: Event | None = None, region: str | None = None) -> list[Event]:
    """An accepted order that cannot be carried out when the round reaches it, told to its
    player (``void_report = told``); with ``legacy_skipped``, ``legacy`` (what gmkit first
    said, if anything)."""
    if rules.void_report != "told":
        return [legacy] if legacy is not None else []
    return [void_event(pid, rule, reason, line=order.line, order=describe(order),
                       region=region)]
