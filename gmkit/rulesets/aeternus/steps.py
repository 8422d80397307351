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
from dataclasses import replace
from datetime import datetime
from typing import Any

from gmkit.core.dice import Dice
from gmkit.core.dispatch import Dispatch, VoidAction
from gmkit.core.envelope import Envelope, Orders
from gmkit.core.flow import actions_as_posted
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
from gmkit.rulesets.aeternus.doing import Doing, replenish
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


def posted_at(envelope: Envelope[Order]) -> datetime:
    """When an action was posted: the time its line carries (a line pasted from Discord), else
    its post's."""
    order = envelope.order
    return parse_time(order.at) if isinstance(order, Timed) else envelope.when


def failed(d: Doing, envelope: Envelope[Action], void: VoidAction) -> None:
    """An action that cannot be taken: it spends nothing, and its event says why, naming the
    line it came from (6)."""
    d.event("failed", void.rule, f"{envelope.player} cannot {describe(envelope.order)} (line "
            f"{envelope.line}): {void.reason}.", None, failed=True)


def as_player(effect: Callable[[Doing, Any], None]) -> Callable[[Doing, Any], None]:
    """``effect`` as a player's action (2, 6, 5.3.3.4): only a player acts; their first action
    of a phase replenishes their AP; after a stagway journey, none of :data:`_ACTS` for the
    rest of the phase."""

    def act(d: Doing, order: Action) -> None:
        me = d.table.players.get(d.player)
        if me is None or not me["active"]:
            raise d.fail(PLAYERS, f"{d.player} is not a player")
        fresh = replenish(d.table, d.player, d.phase, d.rules)
        if fresh is not None:
            d.event("ap", ACTIONS, f"Phase {d.phase}: {d.player} has {fresh} AP.", None,
                    ap=fresh)
        if isinstance(order, _ACTS) and me["stag_phase"] == d.phase:
            raise d.fail(STAG, f"{d.player} travelled the stagways and can act no more this "
                         "phase")
        effect(d, order)

    return act


def vote(d: Doing, order: Vote) -> None:
    """A vote on a merge request (2.1.1) or on a proposal (3.1)."""
    (factions.vote_merge if order.merge else ledger.vote)(d, order)


#: Actions a stagway journey forbids for the rest of the phase (5.3.3.4).
_ACTS = (*AP_ACTIONS, Construct, Use, Burn, Stag)

#: Each player's action and its effect on the action under way (see :func:`as_player`).
_EFFECTS: dict[type[Any], Callable[[Doing, Any], None]] = {
    Scout: movement.scout, Traverse: movement.traverse, Stag: movement.stag,
    Fish: fishing.fish, Forage: actions.forage, Construct: actions.construct,
    Craft: actions.craft, Use: actions.use, Burn: actions.burn, Trade: actions.trade,
    NameQuality: actions.name_quality, Declare: actions.declare, Vote: vote,
    Leave: actions.leave, LeaveFaction: factions.leave_faction, Propose: ledger.propose,
    RequestMerge: factions.request_merge, Edited: ledger.edited,
    judge.RequestJustice: judge.request, judge.Ruling: judge.rule, judge.Overturn: judge.overturn,
    judge.CallConfidence: judge.call_confidence, judge.JudgeVote: judge.vote,
    judge.RemoveJudge: judge.remove, judge.Resign: judge.resign, judge.Stand: judge.stand,
}
#: Every action's effect: a join needs no player (2); one that cannot be taken is
#: :func:`failed`.
ACT: Dispatch[Doing, None] = Dispatch(
    {Join: actions.join, **{cls: as_player(effect) for cls, effect in _EFFECTS.items()}},
    on_void=failed)


def resolve_action(state: State, orders: Orders[Order], dice: Dice, rules: Params,
                   actor: str) -> tuple[State, list[Event]]:
    """One action, checked against the state left by the actions before it."""
    envelope = orders.acting(actor)
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
    ACT(d, envelope if order is envelope.order else replace(envelope, order=order))
    following = orders.following(envelope, posted_at)
    if following is not None:
        d.events += ledger.close_due(t, posted_at(following), rules)
    return t.state(state.turn), d.events


def close_before(state: State, orders: Orders[Order], dice: Dice,
                 rules: Params) -> tuple[State, list[Event]]:
    """3.1: the proposals whose voting period ended before the batch's first action was posted
    (between two batches) take effect before it, so it resolves under what they set; 3.2: the
    votes of confidence and the elections that ended so are counted before it too."""
    ordered = orders.received(posted_at)
    if not ordered:
        return state, []
    t = Table.of(state, rules, dice)
    first = posted_at(ordered[0])
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
    Step("actions", "Actions", f"{ACTIONS}, {RANDOMNESS}",
         actors=actions_as_posted(rule=ACTIONS, when=posted_at), act=resolve_action),
    Step("ledger", "The ledger", f"{PROPOSALS}, {JUDGEMENT}", close_ledger),
)
