"""A part of the council session (Morning or Afternoon) resolved one action at a time.

Before the order is drawn, the actions that will be taken are settled: a slave's Morning action
is his own or his owner's demand ("If BOTH the slave AND the slave's owner submit an action, then
the slave's action is followed and the slave gains the title Defiant Slave"); a tenant's
Afternoon action is always Toil; a character who claimed both actions has no second one. Then each
action resolves against the state the previous one left ("Actions that are not valid at the
moment of resolution will be considered void"): a void action is an event with its reason, and a
dead character never acts.

JOINT ATTACKS: every participant must post a matching attack naming all the others (same type,
target and principal); otherwise each of their actions is void "amid the confusion of
miscoordination". A coordinated attack occurs on the action of the slowest participant, who is
also the principal attacker unless one is designated.
"""

from __future__ import annotations

from collections.abc import Sequence

from gmkit.core.dice import Dice
from gmkit.core.params import Params
from gmkit.core.steps import Event
from gmkit.core.tables import State
from gmkit.rulesets.jungle import actions as A
from gmkit.rulesets.jungle.constants import ACTIONS, JOINT, SLAVES
from gmkit.rulesets.jungle.edit import char, update
from gmkit.rulesets.jungle.effects import EFFECTS, Void, join_houses
from gmkit.rulesets.jungle.fight import fight
from gmkit.rulesets.jungle.gods import DEFIANT, offering, sacrifice
from gmkit.rulesets.jungle.lifecycle import add_title
from gmkit.rulesets.jungle.state import frame, owner_of, rows


def _void(a: A.Action, reason: str, rule: str = ACTIONS) -> Event:
    return Event("void", rule, f"{a.who}'s {a.keyword} is void: {reason}.", a.by,
                 data={"character": a.who, "line": a.line, "reason": reason})


def settle(state: State, actions: Sequence[A.Action], slot: int
           ) -> tuple[State, list[A.Action], list[Event]]:
    """The actions that will be taken this part, after slaves' demands, tenants' toil and
    claims of both actions."""
    houses = {c["name"]: c["house"] for c in rows(state, "characters")}
    alive = {c["name"] for c in rows(state, "characters") if c["alive"]}
    busy = {c["name"] for c in rows(state, "characters") if c["busy"]}
    events: list[Event] = []
    mine = [a for a in actions if a.slot == slot]
    for a in mine:
        if a.who not in alive:
            events.append(_void(a, f"{a.who} is dead"))
    mine = [a for a in mine if a.who in alive]
    chosen: dict[str, A.Action] = {}
    for a in mine:
        own = houses[a.who] == a.by
        other = chosen.get(a.who)
        if other is None:
            chosen[a.who] = a
            continue
        slave_own, demand = (a, other) if own else (other, a)
        chosen[a.who] = slave_own
        owner = owner_of(state, a.who)
        if slot == 1 and owner is not None:
            defies_owner = isinstance(slave_own, A.Attack) and slave_own.target == owner
            n = 2 if defies_owner else 1
            state = add_title(state, a.who, DEFIANT, owner, n, add=True)
            events.append(_void(demand, f"the slave {a.who} defies his owner {owner}", SLAVES))
    if slot == 2:
        tenants = set(state["tenants"]["tenant"].to_list())
        for who in sorted(tenants & alive):
            mine_now = chosen.get(who)
            if not isinstance(mine_now, A.Toil):
                if mine_now is not None:
                    events.append(_void(mine_now, f"{who} is a tenant and must toil"))
                chosen[who] = A.Toil(who=who, slot=2, by=houses[who])
        for who in sorted(busy & set(chosen)):
            events.append(_void(chosen.pop(who), f"{who} used both actions in the Morning"))
    return state, sorted(chosen.values(), key=lambda a: a.who), events


def _joint_groups(actions: Sequence[A.Action]) -> tuple[dict[str, frozenset[str]], list[Event]]:
    """Each joint participant's group, and the void events of miscoordinated attacks."""
    attacks = {a.who: a for a in actions if isinstance(a, A.Attack)}
    group: dict[str, frozenset[str]] = {}
    events: list[Event] = []
    for who, a in attacks.items():
        if not a.joint:
            continue
        names = a.participants
        wrong = [n for n in sorted(names) if n not in attacks
                 or attacks[n].participants != names or attacks[n].kind != a.kind
                 or attacks[n].target != a.target or attacks[n].principal != a.principal]
        if wrong:
            events.append(_void(a, "the joint attack fails amid the confusion of "
                                f"miscoordination ({', '.join(wrong)} did not post a matching "
                                "attack)", JOINT))
            group[who] = frozenset()
        else:
            group[who] = names
    return group, events


def resolve_part(state: State, actions: Sequence[A.Action], dice: Dice, rules: Params,
                 slot: int) -> tuple[State, list[Event]]:
    """Resolve one part's actions in order, each against the state the previous one left."""
    state, chosen, events = settle(state, actions, slot)
    fame = {c["name"]: c["fame"] for c in rows(state, "characters")}
    order = A.resolution_order(chosen, fame, slot, dice)
    position = {a.who: i for i, a in enumerate(order)}
    groups, more = _joint_groups(order)
    events += more
    by_who = {a.who: a for a in order}
    pending: set[tuple[str, str]] = set()
    for a in order:
        g = groups.get(a.who)
        if g is not None and not g:
            continue  # a miscoordinated joint attack, voided above
        if g:
            slowest = _slowest(g, position, fame, rules)
            if a.who != slowest:
                events.append(Event("joint", JOINT, f"{a.who} waits to attack with {slowest}.",
                                    a.by, data={"character": a.who}))
                continue
        if not char(state, a.who)["alive"]:
            events.append(_void(a, f"{a.who} is dead"))
            continue
        try:
            if isinstance(a, A.Attack):
                members = [by_who[n] for n in sorted(g)] if g else [a]
                lead = a.principal or (_slowest(g, position, fame, rules) if g else a.who)
                state, ev = fight(state, members, lead, dice, rules)  # type: ignore[arg-type]
            elif isinstance(a, A.Sacrifice):
                state, ev = sacrifice(state, a, dice, rules)
            elif isinstance(a, A.Offering):
                state, ev = offering(state, a, dice, rules)
            elif isinstance(a, A.JoinHouses):
                state, ev = join_houses(state, a, dice, rules, pending)
            else:
                state, ev = EFFECTS[type(a)](state, a, dice, rules)
        except Void as v:
            events.append(_void(a, str(v)))
            continue
        if a.both and slot == 1:
            state = update(state, "characters", "name", a.who, busy=True)
        events += ev
    return state, events


def _slowest(group: frozenset[str], position: dict[str, int], fame: dict[str, int],
             rules: Params) -> str:
    """The slowest participant: the last to act (or the lowest Fame, ``slowest``)."""
    if rules.slowest == "lowest_fame":
        return min(group, key=lambda n: (fame.get(n, 0), -position[n]))
    return max(group, key=lambda n: position[n])


def new_session(state: State, rules: Params) -> State:
    """A council session opens: every living character may act; Defend doublings and claims of
    both actions from the last session end; unspent beakers and hammers are lost."""
    chars = rows(state, "characters")
    for c in chars:
        c.update(may_act=c["alive"], defending=0, busy=False, beakers=0, hammers=0)
    cities = rows(state, "cities")
    for c in cities:
        c["spent"] = 0
    return state.replace(characters=frame(chars, "characters"), cities=frame(cities, "cities"),
                         projects=frame([], "projects"))
