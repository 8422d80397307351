"""AZTLAN's orders and forces in words, as the GM reads them back and reports them."""

from __future__ import annotations

from gmkit.core.orders import join_alternatives
from gmkit.rulesets.aztlan.order_types import (
    Attack,
    Contingency,
    CutSupport,
    DivineSupport,
    Give,
    Hold,
    Move,
    Order,
    Sacrifice,
    Stand,
    Support,
)

__all__ = ["armies_phrase", "contingency_text", "describe", "possessive"]


def armies_phrase(n: int) -> str:
    """``1 army``, ``3 armies``."""
    return f"{n} arm{'y' if n == 1 else 'ies'}"


def possessive(player: str) -> str:
    """``Aztecs`` -> ``Aztecs'``, ``Hot Country`` -> ``Hot Country's``."""
    return f"{player}'" if player.endswith("s") else f"{player}'s"


def _force(count: int, origin: str) -> str:
    word = {1: "army", 2: "double army", 3: "triple army"}.get(count, f"{count} armies")
    return f"{word} in {origin}"


def contingency_text(c: Contingency) -> str:
    """One case of a support in words: ``Ten attacking Tla``, ``Ten holding``."""
    if c.action == "attack":
        return f"{c.supported} attacking {c.target}"
    if c.action == "move":
        return f"{c.supported} moving into {c.target}"
    if c.action == "any":
        return f"{c.supported} (whatever it does)"
    return f"{c.supported} {c.action}ing"


def describe(order: Order) -> str:
    """An order in words, as the GM reads it back to the player (a secret order's report adds
    " (secret)" from its envelope)."""
    retreat = getattr(order, "retreat", ())
    gifts = dict(getattr(order, "retreat_gifts", ()))
    then = (", retreating to " + join_alternatives(
        [f"{r} (given to the {gifts[r]})" if r in gifts else r for r in retreat])
        if retreat else "")
    if isinstance(order, Attack):
        return f"{_force(order.count, order.origin)} attacks {order.target}{then}"
    if isinstance(order, CutSupport):
        return f"{_force(order.count, order.origin)} cuts the support of {order.target}{then}"
    if isinstance(order, Support):
        cases = "; else ".join(contingency_text(c) for c in order.contingencies)
        return f"{_force(order.count, order.origin)} supports {cases}{then}"
    if isinstance(order, DivineSupport):
        cases = "; else ".join(contingency_text(c) for c in order.contingencies)
        gods = "a magical support" if order.count == 1 else f"{order.count} magical supports"
        return f"{gods} of the gods for {cases}"
    if isinstance(order, Hold):
        return f"{_force(order.count, order.origin)} holds"
    if isinstance(order, Stand):
        return f"{_force(order.count, order.origin)} stands{then}"
    if isinstance(order, Move):
        via = f" via {', '.join(order.path[:-1])}" if len(order.path) > 1 else ""
        return f"{_force(order.count, order.origin)} moves to {order.path[-1]}{via}{then}"
    if isinstance(order, Sacrifice):
        return f"{order.city} sacrifices {order.count} captive{'s' * (order.count != 1)}"
    if isinstance(order, Give):
        return f"{_force(order.count, order.origin)} is given to the {order.to_player}"
    where = "all their sectors" if order.sectors is None else ", ".join(order.sectors)
    return f"the {order.to_player} may pass through {where}"
