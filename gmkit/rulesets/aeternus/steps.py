"""Aeternus's resolution of a batch of actions: each action in the order posted, then the ledger.

A gmkit turn is a batch the GM resolves whenever it likes within a phase (rule 4 wants random
results as soon as possible); the phase, read from each action's posting time, is the clock for
AP and voting.

0. **Proposals ended before the batch** (3.1): those whose voting period ended before the
   batch's first action was posted take effect first.
1. **Actions** (6, 4): one unit per action, in the order posted (posting time, then post, then
   line), so the GM steps through them one at a time. The unit of the ``k``-th action a player
   posted in the batch is named ``<player>.<k>``, and its draws are keyed by that name (world
   generation's by the hex, which is generated once). Each action is checked against the state
   the ones before it left: at a player's first action of a phase their AP are replenished; an
   action that cannot be taken spends nothing and says why, naming its line.
   After each action, the proposals whose voting period ended before the next action was posted
   are counted and take effect (3.1: "At the end of its voting period, a proposal takes
   effect"): a rule they set is in force from that next action on.
2. **Ledger** (3.1, 2.1.1, 3.2): the proposals whose voting period ended by the latest action's
   time are counted and take effect in the order created; merge requests counted at a phase's
   end are settled; votes of confidence and the weekly Judge elections are counted.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from gmkit.core.dice import Dice
from gmkit.core.envelope import Envelope, Orders
from gmkit.core.params import Params
from gmkit.core.steps import Event, Step
from gmkit.core.tables import State
import gmkit.rulesets.aeternus.actions as actions
import gmkit.rulesets.aeternus.factions as factions
import gmkit.rulesets.aeternus.fishing as fishing
import gmkit.rulesets.aeternus.judge as judge
import gmkit.rulesets.aeternus.ledger as ledger
import gmkit.rulesets.aeternus.movement as movement
from gmkit.rulesets.aeternus.clock import parse_time, time_text
from gmkit.rulesets.aeternus.doing import ActionFailed, Doing, replenish
from gmkit.rulesets.aeternus.orders import (
    AP_ACTIONS,
    Action,
    Burn,
    Construct,
    Craft,
    Declare,
    Edited,
    Fish,
    Forage,
    Join,
    Leave,
    LeaveFaction,
    NameQuality,
    Order,
    Propose,
    RequestMerge,
    Scout,
    Stag,
    Timed,
    Trade,
    Traverse,
    Use,
    Vote,
    describe,
)
from gmkit.rulesets.aeternus.rules import ACTIONS, JUDGEMENT, PLAYERS, PROPOSALS, RANDOMNESS, STAG, VICTORY
from gmkit.rulesets.aeternus.state import Table

_DISPATCH: dict[type[Any], Callable[[Doing, Any], None]] = {
    Scout: movement.scout, Traverse: movement.traverse, Stag: movement.stag,
    Fish: fishing.fish, Forage: actions.forage, Construct: actions.construct,
    Craft: actions.craft, Use: actions.use, Burn: actions.burn, Trade: actions.trade,
    NameQuality: actions.name_quality, Declare: actions.declare, Join: actions.join,
    Leave: actions.leave, LeaveFaction: factions.leave_faction, Propose: ledger.propose,
    RequestMerge: factions.request_merge, Edited: ledger.edited,
    judge.RequestJustice: judge.request, judge.Ruling: judge.rule, judge.Overturn: judge.overturn,
    judge.CallConfidence: judge.call_confidence, judge.JudgeVote: judge.vote,
    judge.RemoveJudge: judge.remove, judge.Resign: judge.resign, judge.Stand: judge.stand,
}
#: Actions a stagway journey forbids for the rest of the phase (5.3.3.4).
_ACTS = (*AP_ACTIONS, Construct, Use, Burn, Stag)


def posted_at(envelope: Envelope[Order]) -> datetime:
    """When an action was posted: the time its line carries (a line pasted from Discord), else
    its post's."""
    order = envelope.order
    return parse_time(order.at) if isinstance(order, Timed) else envelope.when


def action_keys(orders: Orders[Order]) -> list[tuple[str, Envelope[Order]]]:
    """Every action of the batch in the order posted (posting time, then post, then line),
    with its unit's name."""
    number = {id(e): f"{e.player}.{k}" for p in orders for k, e in enumerate(orders.of(p), 1)}
    ordered = sorted(orders.envelopes, key=lambda e: (posted_at(e), e.post, e.line))
    return [(number[id(e)], e) for e in ordered]


_NEXT: list[tuple[Orders[Order], dict[str, datetime]]] = []


def _next_posted(orders: Orders[Order], unit: str) -> datetime | None:
    """When the action after ``unit`` in posting order was posted (None for the last): the
    batch's order, worked out once per batch."""
    if not _NEXT or _NEXT[0][0] is not orders:
        keys = action_keys(orders)
        _NEXT[:] = [(orders, {k: posted_at(e) for (k, _), (_, e) in zip(keys, keys[1:])})]
    return _NEXT[0][1].get(unit)


def _envelope(orders: Orders[Order], unit: str) -> Envelope[Order]:
    """The action a unit name of :func:`action_keys` names (``"Amber.3"``: Amber's third)."""
    player, _, k = unit.rpartition(".")
    return orders.of(player)[int(k) - 1]


def in_order_posted(state: State, orders: Orders[Order], dice: Dice,
                    rules: Params) -> tuple[list[str], list[Event]]:
    """The actions as units, in the order posted (4, 6)."""
    keys = [k for k, _ in action_keys(orders)]
    listed = ", ".join(keys) or "none"
    return keys, [Event("order of play", ACTIONS, f"Actions as posted: {listed}.",
                        data={"actors": keys})]


def resolve_action(state: State, orders: Orders[Order], dice: Dice, rules: Params,
                   actor: str) -> tuple[State, list[Event]]:
    """One action, checked against the state left by the actions before it."""
    envelope = _envelope(orders, actor)
    t = Table.of(state, rules, dice)
    when = max(posted_at(envelope), t.cycle_start)
    if when > t.now():
        t.clock = {"now": time_text(when), "phase": t.phase_of(when)}
    phase = t.phase_of(when)
    order = envelope.order.order if isinstance(envelope.order, Timed) else envelope.order
    d = Doing(t, envelope.player, when, phase, dice, rules, envelope.secret, envelope.line)
    won = factions.winner(t, rules.victory_hexes, rules.victory_ratio)
    if won is not None:
        d.event("void", VICTORY, f"The cycle is over ({won} won): {envelope.player}'s "
                f"'{describe(order)}' does not happen.", None)
        return t.state(state.turn), d.events
    try:
        _act(d, order)
    except ActionFailed as e:
        d.event("failed", e.rule, f"{envelope.player} cannot {describe(order)} (line "
                f"{envelope.line}): {e.reason}.", None, failed=True)
    following = _next_posted(orders, actor)
    if following is not None:
        d.events += ledger.close_due(t, following, rules)
    return t.state(state.turn), d.events


def _act(d: Doing, order: Action) -> None:
    me = d.table.players.get(d.player)
    if isinstance(order, Join):
        actions.join(d, order)
        return
    if me is None or not me["active"]:
        raise d.fail(PLAYERS, f"{d.player} is not a player")
    fresh = replenish(d.table, d.player, d.phase, d.rules)
    if fresh is not None:
        d.event("ap", ACTIONS, f"Phase {d.phase}: {d.player} has {fresh} AP.", None, ap=fresh)
    if isinstance(order, _ACTS) and me["stag_phase"] == d.phase:
        raise d.fail(STAG, f"{d.player} travelled the stagways and can act no more this phase")
    if isinstance(order, Vote):
        (factions.vote_merge if order.merge else ledger.vote)(d, order)
        return
    _DISPATCH[type(order)](d, order)


def close_before(state: State, orders: Orders[Order], dice: Dice,
                 rules: Params) -> tuple[State, list[Event]]:
    """3.1: the proposals whose voting period ended before the batch's first action was posted
    (between two batches) take effect before it, so it resolves under what they set; 3.2: the
    votes of confidence and the elections that ended so are counted before it too."""
    keys = action_keys(orders)
    if not keys:
        return state, []
    t = Table.of(state, rules, dice)
    first = posted_at(keys[0][1])
    events = ledger.close_due(t, first, rules)
    events += judge.settle(t, first)  # and the confidence votes and elections ended so
    return t.state(state.turn), events  # the world, made once, goes on to the first action


def close_ledger(state: State, orders: Orders[Order], dice: Dice,
                 rules: Params) -> tuple[State, list[Event]]:
    """The proposals whose voting period has ended, and merges counted at a phase's end."""
    t = Table.of(state, rules, dice)
    events = ledger.close_due(t, t.now(), rules)
    factions.settle_merges(t, int(t.clock["phase"]), rules.merge_vote, events)
    events += judge.settle(t, t.now())
    return t.state(state.turn), events


STEPS = (
    Step("due", "Proposals ended before the batch", PROPOSALS, close_before),
    Step("actions", "Actions", f"{ACTIONS}, {RANDOMNESS}", actors=in_order_posted,
         act=resolve_action),
    Step("ledger", "The ledger", f"{PROPOSALS}, {JUDGEMENT}", close_ledger),
)
