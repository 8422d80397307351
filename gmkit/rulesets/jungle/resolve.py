"""The two action rounds of a council session as per-actor steps of the core's flow.

A round (the Morning's first actions, the Afternoon's second) is a per-actor
:class:`~gmkit.core.steps.Step`: when it begins, :func:`gmkit.core.flow.by_column` fixes the
order of play from Fame as it then stands ("Every character's first action from highest to
lowest Fame; every character's second action from lowest to highest Fame"), characters tied on
Fame put in order by a logged shuffle; then each character's action resolves in turn against the
state the previous one left, so the GM can step action by action. "Actions that are not valid at
the moment of resolution will be considered void": a void action is an event with its reason,
and a dead character never acts. An action's effect is found by its type in :data:`ACTS` (a
:class:`~gmkit.core.dispatch.Dispatch`); an effect that finds the action void raises
:class:`~gmkit.core.dispatch.VoidAction`, and the dispatch tells the house which action, on which
line, is void and why.

Which action a character takes in a round is read from the accepted orders each time
(:func:`chosen_actions`): a slave's Morning action is his own, or his owner's demand when he
posted none ("If BOTH the slave AND the slave's owner submit an action, then the slave's action
is followed and the slave gains the title Defiant Slave", given by :func:`demands`); a tenant's
Afternoon action is always Toil; a character who claimed both actions has no second one.

JOINT ATTACKS: every participant must post a matching attack naming all the others (same type,
target and principal); otherwise each of their actions is void "amid the confusion of
miscoordination". A coordinated attack occurs on the action of the slowest participant (the last
of them to act, or with ``slowest = "lowest_fame"`` the one with the least Fame), who is also the
principal attacker unless one is designated.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from gmkit.core.dice import Dice
from gmkit.core.dispatch import Dispatch, VoidAction
from gmkit.core.envelope import Envelope, Orders
from gmkit.core.flow import by_column
from gmkit.core.params import Params
from gmkit.core.steps import ActFn, Driver, Event, Step, StepFn
from gmkit.core.tables import State
import gmkit.rulesets.jungle.actions as A
from gmkit.rulesets.jungle.rules import ACTIONS, JOINT, SLAVES
from gmkit.rulesets.jungle.edit import char, update
from gmkit.rulesets.jungle.effects import EFFECTS, Result, join_houses
from gmkit.rulesets.jungle.fight import fight
from gmkit.rulesets.jungle.gods import DEFIANT, offering, sacrifice
from gmkit.rulesets.jungle.lifecycle import add_title
from gmkit.rulesets.jungle.state import AFTERNOON, MORNING, frame, joined_players, owner_of, rows

FIRST, SECOND = "first-actions", "second-actions"
PHASES = {1: "Morning", 2: "Afternoon"}


def _void(a: A.Action, reason: str, rules: Params, rule: str = ACTIONS) -> Event:
    """An action void when its turn comes, told to the house that posted it: which line, why,
    and (as the event's rule) under which rule (``void_report = told``; ``legacy_text``:
    without the line, as gmkit first wrote it)."""
    line = f" (line {a.line})" if a.line and rules.void_report == "told" else ""
    return Event("void", rule, f"{a.who}'s {a.keyword}{line} is void: {reason}.", a.by,
                 data={"character": a.who, "line": a.line, "reason": reason})


def _actions(orders: Orders[Any], slot: int) -> list[A.Action]:
    return [o for player in orders for o in orders[player]
            if isinstance(o, A.Action) and o.slot == slot]


def _secret_actors(orders: Orders[Any], slot: int) -> set[str]:
    """The characters with an action of the round posted in secret (its events stay hidden)."""
    return {e.order.who for e in orders.envelopes
            if e.secret and isinstance(e.order, A.Action) and e.order.slot == slot}


def _by_who(orders: Orders[Any], slot: int) -> dict[str, list[A.Action]]:
    """The round's actions by the character they are for."""
    out: dict[str, list[A.Action]] = {}
    for a in _actions(orders, slot):
        out.setdefault(a.who, []).append(a)
    return out


def chosen_actions(state: State, orders: Orders[Any], slot: int,
                   only: Collection[str] | None = None,
                   by_who: dict[str, list[A.Action]] | None = None) -> dict[str, A.Action]:
    """The action each character takes this round: his own rather than his owner's demand;
    in the Afternoon a tenant's Toil (given when he posted none). With ``only``, just those
    characters' (each one's choice depends on his own lines alone); ``by_who``: the round's
    actions by character, when the caller has them already."""
    acts = _actions(orders, slot) if only is None else \
        [a for who in sorted(only) for a in (by_who or _by_who(orders, slot)).get(who, [])]
    chars = state["characters"]
    if only is not None:
        chars = chars.filter(pl.col("name").is_in(list(only)))
    houses = dict(chars.select("name", "house").iter_rows())
    chosen: dict[str, A.Action] = {}
    for a in sorted(acts, key=lambda a: (a.who, a.line)):
        other = chosen.get(a.who)
        if other is None or (houses.get(a.who) == a.by and houses.get(a.who) != other.by):
            chosen[a.who] = a
    if slot == 2:
        alive = set(chars.filter(pl.col("alive"))["name"].to_list())
        for who in sorted(set(state["tenants"]["tenant"].to_list()) & alive):
            if who not in chosen:
                chosen[who] = A.Toil(who=who, slot=2, by=houses[who])
    return chosen


def demands(state: State, orders: Orders[Any], dice: Dice,
            rules: Params) -> tuple[State, list[Event]]:
    """SLAVE OF CHARACTER X: when both the slave and his owner's house post his Morning action,
    the slave's is followed, the owner's demand is void and the slave is a Defiant Slave (N + 1;
    + 2 when his own action attacks the owner)."""
    houses = dict(state["characters"].select("name", "house").iter_rows())
    events: list[Event] = []
    by_who: dict[str, list[A.Action]] = {}
    for a in _actions(orders, 1):
        by_who.setdefault(a.who, []).append(a)
    for who, mine in sorted(by_who.items()):
        own = [a for a in mine if a.by == houses.get(who)]
        demanded = [a for a in mine if a.by != houses.get(who)]
        owner = owner_of(state, who)
        if not own or not demanded or owner is None:
            continue
        attacks_owner = isinstance(own[0], A.Attack) and own[0].target == owner
        state = add_title(state, who, DEFIANT, owner, 2 if attacks_owner else 1, add=True)
        for d in demanded:
            events.append(_void(d, f"the slave {who} defies his owner {owner}", rules, SLAVES))
    return state, events


def _joint(chosen: Mapping[str, A.Action], a: A.Attack) -> frozenset[str] | str:
    """The participants of a coordinated joint attack, or why it is miscoordinated."""
    names = a.participants
    wrong = [n for n in sorted(names) if not isinstance(chosen.get(n), A.Attack)
             or chosen[n].participants != names or chosen[n].kind != a.kind  # type: ignore
             or chosen[n].target != a.target or chosen[n].principal != a.principal]  # type: ignore
    if wrong:
        return (f"the joint attack fails amid the confusion of miscoordination "
                f"({', '.join(wrong)} did not post a matching attack)")
    return names


def _slowest(state: State, group: frozenset[str], slot: int, rules: Params) -> str | None:
    """The slowest participant when known: with ``lowest_fame``, the least Fame (the last of
    equals by name); otherwise None (the last of the group to act, found as they act)."""
    if rules.slowest != "lowest_fame":
        return None
    fame = {c["name"]: c["fame"] for c in rows(state, "characters") if c["name"] in group}
    return min(sorted(group, reverse=True), key=lambda n: fame.get(n, 0))


def _resolve(state: State, a: A.Action, chosen: dict[str, A.Action], slot: int, dice: Dice,
             rules: Params) -> Result:
    """One character's chosen action when his turn comes: void for a dead character, a second
    action after both were claimed, a slave's demand from a house that no longer owns him or a
    miscoordinated joint attack; a tenant's Afternoon action is Toil; a joint attack waits for
    its slowest participant; else the action's effect (:data:`ACTS`)."""
    asked = a
    me = char(state, a.who)
    if not me["alive"]:
        return state, [_void(a, f"{a.who} is dead", rules)]
    if slot == 2 and me["busy"]:
        return state, [_void(a, f"{a.who} used both actions in the Morning", rules)]
    events: list[Event] = []
    if slot == 2 and a.who in set(state["tenants"]["tenant"].to_list()) \
            and not isinstance(a, A.Toil):
        events.append(_void(a, f"{a.who} is a tenant and must toil", rules))
        a = A.Toil(who=a.who, slot=2, by=me["house"], line=a.line)
    if a.by != me["house"]:
        owner = owner_of(state, a.who)
        if owner is None or char(state, owner)["house"] != a.by:
            return state, events + [_void(a, f"{a.who} is no slave of house {a.by} any more",
                                          rules)]
    if isinstance(a, A.Attack) and a.joint:
        group = _joint(chosen, a)
        if isinstance(group, str):
            return state, events + [_void(a, group, rules, JOINT)]
        waiting = [n for n in sorted(group) if n != a.who and char(state, n)["acted"] < slot]
        slowest = _slowest(state, group, slot, rules)
        if (slowest is not None and slowest != a.who) or (slowest is None and waiting):
            return state, events + [Event("joint", JOINT, f"{a.who} waits to attack with "
                                          f"{slowest or ', '.join(waiting)}.", a.by,
                                          data={"character": a.who})]
    return ACTS(Acting(state, chosen, slot, asked, tuple(events)), Envelope(a, a.by, 0, a.line),
                dice, rules)


@dataclass(frozen=True)
class Acting:
    """A character's action under way when his turn comes: the state, the round's chosen
    actions and the round, the action as he chose it (named when it turns out void) and what
    the round told him before it resolves (a tenant made to toil)."""

    state: State
    chosen: Mapping[str, A.Action]
    slot: int
    asked: A.Action
    told: tuple[Event, ...] = ()


def _done(acting: Acting, a: A.Action, state: State, events: list[Event]) -> Result:
    """An action carried out: a claim of both actions in the Morning keeps the character busy
    in the Afternoon."""
    if a.both and acting.slot == 1:
        state = update(state, "characters", "name", a.who, busy=True)
    return state, [*acting.told, *events]


def _carried_out(effect: Callable[..., Result]) -> Callable[..., Result]:
    """An effect of :mod:`~gmkit.rulesets.jungle.effects` or of the Gods as one of the round's
    actions."""
    def run(acting: Acting, a: A.Action, dice: Dice, rules: Params) -> Result:
        return _done(acting, a, *effect(acting.state, a, dice, rules))
    run.__doc__ = effect.__doc__
    return run


def _attack(acting: Acting, a: A.Attack, dice: Dice, rules: Params) -> Result:
    """CHARACTER ATTACKS: a single attack, or a coordinated joint attack on the slowest
    participant's action (led by the principal, else by him)."""
    if not a.joint:
        return _done(acting, a, *fight(acting.state, [a], a.who, dice, rules))
    # every participant's chosen action is a matching attack (the round checked it)
    members = [m for n in sorted(a.participants)
               if isinstance(m := acting.chosen[n], A.Attack)]
    state, events = fight(acting.state, members, a.principal or a.who, dice, rules)
    return state, [*acting.told, *events]


def _join(acting: Acting, a: A.JoinHouses, dice: Dice, rules: Params) -> Result:
    """JOIN HOUSES: an offer waits in ``join_offers`` for the other house's head."""
    state = acting.state
    offers = {(o["offerer"], o["partner"]) for o in rows(state, "join_offers")}
    state, events = join_houses(state, a, dice, rules, offers)
    state = state.replace(join_offers=frame(
        [{"offerer": x, "partner": y} for x, y in sorted(offers)], "join_offers"))
    return _done(acting, a, state, events)


def _voided(acting: Acting, envelope: Envelope[A.Action], void: VoidAction, dice: Dice,
            rules: Params) -> Result:
    """"Actions that are not valid at the moment of resolution will be considered void": the
    state as it was, and the action as the character chose it told void with the reason."""
    return acting.state, [_void(acting.asked, void.reason, rules, void.rule)]


#: What each action does when its turn comes, or the event saying why it is void.
ACTS: Dispatch[Acting, Result] = Dispatch(
    {**{kind: _carried_out(effect) for kind, effect in EFFECTS.items()},
     A.Sacrifice: _carried_out(sacrifice), A.Offering: _carried_out(offering),
     A.Attack: _attack, A.JoinHouses: _join}, on_void=_voided)


def _hidden(events: list[Event], dice: Dice, by: str) -> list[Event]:
    """A secret order's events and draws, seen only by the GM and the house that posted it."""
    dice.log[:] = [dataclasses.replace(r, public=False, player=r.player or by) for r in dice.log]
    return [dataclasses.replace(e, public=False, player=e.player or by) for e in events]


def act_in(slot: int) -> ActFn:
    """The act function of a round: one character's action when his turn comes."""

    # the round's actions by character, read once per round's orders (the driver calls act
    # once per character with the same orders)
    read: list[tuple[Orders[Any], dict[str, list[A.Action]]]] = []

    def act(state: State, orders: Orders[Any], dice: Dice, rules: Params,
            actor: str) -> tuple[State, list[Event]]:
        if not read or read[0][0] is not orders:
            read[:] = [(orders, _by_who(orders, slot))]
        by_who = read[0][1]
        chosen = chosen_actions(state, orders, slot, {actor}, by_who)
        a = chosen.get(actor)
        if isinstance(a, A.Attack) and a.joint:  # the other participants' choices too
            chosen = chosen_actions(state, orders, slot, {actor, *a.participants}, by_who)
        state = update(state, "characters", "name", actor, acted=slot)
        if a is None:
            return state, [Event("no action", ACTIONS, f"{actor} has no action left this "
                                 f"{PHASES[slot].lower()}.", data={"character": actor})]
        state, events = _resolve(state, a, chosen, slot, dice, rules)
        if actor in orders.derived(f"secret actors {slot}", lambda o: _secret_actors(o, slot)):
            events = _hidden(events, dice, a.by)
        return state, events

    return act


def _who(slot: int) -> Any:
    def who(state: State, orders: Orders[Any], rules: Params) -> pl.Expr:
        return pl.col("name").is_in(sorted(chosen_actions(state, orders, slot)))
    return who


def _opens(part: str) -> StepFn:
    """A step that says which part of the session the state is in."""

    def opens(state: State, orders: Orders[Any], dice: Dice,
              rules: Params) -> tuple[State, list[Event]]:
        sess = rows(state, "session")
        for s in sess:
            s["part"] = part
        return state.replace(session=frame(sess, "session")), []

    return opens


def round_steps(slot: int) -> list[Step]:
    """The steps of one round: (Morning) the slaves' demands settled, then each character's
    action in the order of play."""
    phase = PHASES[slot]
    part = MORNING if slot == 1 else AFTERNOON
    out = [Step(f"{part}", f"The {phase} opens", ACTIONS,
                _opens(part), phase=phase)]
    if slot == 1:
        out.append(Step("demands", "Slaves' demands", SLAVES, demands, phase=phase))
    out.append(Step(
        FIRST if slot == 1 else SECOND, f"{'First' if slot == 1 else 'Second'} actions", ACTIONS,
        actors=by_column("characters", "fame", id_column="name", descending=slot == 1,
                         rule=ACTIONS, who=_who(slot),
                         what=f"Order of the {'first' if slot == 1 else 'second'} actions"),
        act=act_in(slot), phase=phase))
    return out


def _share(before: State, after: State, events: list[Event], dice: Dice) -> list[Event]:
    """JOIN HOUSES: the players of houses joined into another order its characters, so what
    only a house may see (its secret actions' results, its draws, its citizens' beakers) is
    shared with them: those joined into it before the step (a house splitting away sees what
    the split did) or after it."""
    def joined(state: State) -> bool:
        return state["houses"]["joined_to"].null_count() < state["houses"].height

    if not joined(before) and not joined(after):
        return events

    def shared(item: Any) -> tuple[str, ...]:
        if item.public or not item.player or item.shared_with:
            return tuple(item.shared_with)
        return tuple(dict.fromkeys((*joined_players(before, item.player),
                                    *joined_players(after, item.player))))

    dice.log[:] = [dataclasses.replace(r, shared_with=shared(r)) for r in dice.log]
    return [dataclasses.replace(e, shared_with=shared(e)) for e in events]


def shared(step: Step) -> Step:
    """``step``, sharing a house's private events with the houses joined into it."""
    if step.per_actor:
        act = step.act
        assert act is not None

        def acts(state: State, orders: Orders[Any], dice: Dice, rules: Params,
                 actor: str) -> tuple[State, list[Event]]:
            after, events = act(state, orders, dice, rules, actor)
            return after, _share(state, after, events, dice)
        return dataclasses.replace(step, act=acts)
    fn = step.fn

    def run(state: State, orders: Orders[Any], dice: Dice,
            rules: Params) -> tuple[State, list[Event]]:
        after, events = fn(state, orders, dice, rules)
        return after, _share(state, after, events, dice)
    return dataclasses.replace(step, fn=run)


def resolve_part(state: State, actions: Sequence[A.Action], dice: Dice, rules: Params,
                 slot: int) -> tuple[State, list[Event]]:
    """One round resolved through the core's driver, as a scenario sees it: the actions given
    (each house's under its ``by``), the dice's seed, turn and entered draws."""
    orders: dict[str, list[A.Action]] = {}
    for a in actions:
        orders.setdefault(a.by, []).append(a)
    driver = Driver([shared(s) for s in round_steps(slot)], state, orders,
                    Dice(dice.seed, dice.turn, entered=dict(dice.entered)), rules)
    driver.run_all()
    return driver.state, driver.events


def new_session(state: State, rules: Params) -> State:
    """A council session opens: every living character may act; Defend doublings and claims of
    both actions from the last session end; unspent beakers and hammers are lost."""
    chars = rows(state, "characters")
    for c in chars:
        c.update(may_act=c["alive"], defending=0, busy=False, beakers=0, hammers=0, acted=0)
    cities = rows(state, "cities")
    for c in cities:
        c["spent"] = 0
    return state.replace(characters=frame(chars, "characters"), cities=frame(cities, "cities"),
                         projects=frame([], "projects"), join_offers=frame([], "join_offers"))
