"""Pyramid Power Wars' round as pure steps, in order, each citing its rule.

Every step takes ``(state, orders, dice, rules)`` and returns the new state and its events.
Orders are validated before they get here; a step still skips (with an event) whatever can no
longer be done when the round reaches it (a build on land lost this round, say).

1. ``assign``: serfs to land, priests to pyramids, births and starvation orders (standing).
2. ``move``: nobles lead troops and pyramids; forces without a noble move through own land.
3. ``contest``: each space entered by another player's forces is decided by the ladder.
4. ``build``: stone and DEAD given to pyramids; a pyramid complete in both is built.
5. ``harvest``: serfs produce food or stone on the land their player still holds.
6. ``upkeep``: food keeps population; excess food becomes new population.
7. ``nobles``: more than 4 land per noble gives a new noble.
8. ``end``: unspent DEAD (option), players with neither land nor noble are eliminated.

With ``harvest_feeds = next_round`` the upkeep runs before the harvest, so the food eaten is the
food stored by the previous round's harvest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from gmkit.core.dice import Dice
from gmkit.core.orders import OrderError
from gmkit.core.params import Params
from gmkit.core.envelope import Orders as Envelopes
from gmkit.core.steps import Event, Step, StepFn
from gmkit.core.tables import State
from gmkit.rulesets.pyramid.rules import (CONFLICT, CONSTRUCTION, CONTEST, FOOD, FOOD_LAND,
                                              LAND, MOVEMENT, PRIESTS, SERFS, STAFFING, size_glory,
                                              size_stone)
from gmkit.rulesets.pyramid.allocation import (build_orders, new_pyramids, plan_priests,
                                               plan_serfs, priest_orders, serf_orders)
from gmkit.rulesets.pyramid.economy import Tables, land_output
from gmkit.rulesets.pyramid.movement import path_problem, scout_move
from gmkit.rulesets.pyramid.orders import (AssignSerfs, Births, Build, Lead, Move, Order,
                                           StaffPyramid, Starve, numbered)
from gmkit.rulesets.pyramid.refs import build_target, find_noble, find_pyramid
from gmkit.rulesets.pyramid.contested import contest
from gmkit.rulesets.pyramid.phase import Orders, Result, of_kind, players_by_id, told_void
from gmkit.rulesets.pyramid.state import (ACTIVE, ELIMINATED, Rows, adjacency, births_text,
                                          frame, functioning, names_in_use, noble_name, rows)

# -- 1. assignments ---------------------------------------------------------------------------

def assign(state: State, orders: Orders, dice: Dice, rules: Params) -> Result:
    """Serfs go to land the player holds (RESOURCES: Serfs); priests to pyramids, at most its
    stone cost each (RESOURCES: Priests); a post's assignments act together (see
    :mod:`gmkit.rulesets.pyramid.allocation`); births and starvation orders stand until
    changed."""
    if rules.assignments != "together":
        return _assign_in_line_order(state, orders, dice, rules)
    players = players_by_id(state)
    spaces = rows(state, "spaces")
    pyramids = rows(state, "pyramids")
    events: list[Event] = []
    for pid in sorted(orders):
        me = players.get(pid)
        mine = list(orders[pid])
        if me is None:
            continue
        serfs, priests = serf_orders(mine), priest_orders(mine)
        if serfs:
            plan = plan_serfs(me, spaces, serfs)
            for o, reason in plan.refused:
                events += told_void(rules, pid, o, reason, SERFS)
            for o in serfs:
                if plan.lines.get(o.space) == o.line and o.space in plan.counts:
                    space = next(s for s in spaces if s["name"] == o.space)
                    space["serfs"] = o.count
                    events.append(Event("serfs", SERFS, f"{pid} sets {o.count} serfs to work "
                                        f"{o.space}.", pid, o.space, public=False,
                                        data={"serfs": o.count}))
        if priests:
            held = {s["name"] for s in spaces if s["holder"] == pid}
            new = new_pyramids(me, pyramids, held, build_orders(mine)) \
                if rules.staff_new == "same_post" else []
            plan = plan_priests(me, pyramids, priests, rules, new)
            for o, reason in plan.refused:
                events += told_void(rules, pid, o, reason, PRIESTS)
            numbers = {line: num for num, line in plan.lines.items() if num in plan.counts}
            for o in priests:
                num = numbers.get(o.line)
                p = next((q for q in pyramids if q["player"] == pid and q["number"] == num),
                         None)
                if p is None:  # a pyramid this post begins: staffed when the build begins it
                    continue
                p["priests"] = count = plan.counts[num]
                need = size_stone(p["size"], rules)
                events.append(Event("priests", PRIESTS, f"{pid} sets {count} priests to "
                                    f"{p['size']} pyramid {num} ("
                                    + ("staffed" if count >= need else f"needs {need}") + ").",
                                    pid, p["space"], data={"priests": count}))
    for pid, o in of_kind(orders, Births):
        players[pid]["births"] = births_text(o.pattern)
    for pid, o in of_kind(orders, Starve):
        players[pid]["starve"] = ",".join(o.kinds)
    return state.replace(players=frame(list(players.values()), "players"),
                         spaces=frame(spaces, "spaces"),
                         pyramids=frame(pyramids, "pyramids")), events


def _assign_in_line_order(state: State, orders: Orders, dice: Dice, rules: Params) -> Result:
    """``assignments = line_order``: each line applied in turn against the allocation the lines
    before it left; a line that no longer fits is skipped."""
    players = players_by_id(state)
    spaces = rows(state, "spaces")
    pyramids = rows(state, "pyramids")
    events: list[Event] = []
    for pid, o in of_kind(orders, AssignSerfs):
        me = players[pid]
        space = next(s for s in spaces if s["name"] == o.space)
        others = sum(s["serfs"] for s in spaces if s["holder"] == pid and s is not space)
        if space["holder"] != pid or others + o.count > me["serfs"]:
            events.append(Event("skipped", SERFS, f"{pid}: {o.count} serfs to {o.space} cannot "
                                "be done.", pid, o.space, public=False))
            continue
        space["serfs"] = o.count
        events.append(Event("serfs", SERFS, f"{pid} sets {o.count} serfs to work {o.space}.",
                            pid, o.space, public=False, data={"serfs": o.count}))
    for pid, o in of_kind(orders, StaffPyramid):
        me = players[pid]
        try:
            p = find_pyramid(o.pyramid, pyramids, pid)
        except OrderError:
            continue
        others = sum(q["priests"] for q in pyramids if q["player"] == pid and q is not p)
        count = min(o.count, size_stone(p["size"], rules), max(0, me["priests"] - others))
        p["priests"] = count
        need = size_stone(p["size"], rules)
        events.append(Event("priests", PRIESTS, f"{pid} sets {count} priests to {p['size']} "
                            f"pyramid {p['number']} ({'staffed' if count >= need else 'needs ' + str(need)}).",
                            pid, p["space"], data={"priests": count}))
    for pid, o in of_kind(orders, Births):
        players[pid]["births"] = births_text(o.pattern)
    for pid, o in of_kind(orders, Starve):
        players[pid]["starve"] = ",".join(o.kinds)
    return state.replace(players=frame(list(players.values()), "players"),
                         spaces=frame(spaces, "spaces"),
                         pyramids=frame(pyramids, "pyramids")), events


# -- 2. movement ------------------------------------------------------------------------------

def _take_troops(troops: Rows, pid: str, origin: str, count: int) -> int:
    taken = 0
    for t in troops:
        if t["player"] == pid and t["space"] == origin and t["moved_from"] is None:
            n = min(count - taken, t["count"])
            t["count"] -= n
            taken += n
    return taken


def move(state: State, orders: Orders, dice: Dice, rules: Params) -> Result:
    """Nobles lead troops and pyramids 1 space, 2 if both are already controlled, one more with
    a scout pyramid; forces without a noble move only through friendly territory (WAR)."""
    held = {s["name"]: s["holder"] for s in rows(state, "spaces")}
    adj = adjacency(state)
    nobles = rows(state, "nobles")
    troops = rows(state, "troops")
    pyramids = rows(state, "pyramids")
    events: list[Event] = []
    arrivals: Rows = []
    for pid, o in of_kind(orders, Lead) + of_kind(orders, Move):
        mine = {n for n, h in held.items() if h == pid}
        noble = None
        if isinstance(o, Lead):
            try:
                noble = find_noble(o.noble, nobles, pid)
            except OrderError as err:
                events += told_void(rules, pid, o, err.reason, MOVEMENT)
                continue
            if noble["moved_from"] is not None:
                events += told_void(rules, pid, o, f"{noble['name']} has moved already this round",
                                MOVEMENT)
                continue
            origin = str(noble["space"])
        else:
            origin = o.origin
        moving = []
        for ref in o.pyramids:
            try:
                p = find_pyramid(ref, pyramids, pid, space=origin, built=True)
            except OrderError as err:
                events += told_void(rules, pid, o, f"{err.reason}; the rest of the order stands",
                                MOVEMENT)
                continue
            need = size_stone(p["size"], rules)
            if not functioning(p, rules):
                events += told_void(rules, pid, o, f"{p['size']} pyramid {p['number']} has "
                                f"{p['priests']} of the {need} priests it needs to move or "
                                "fight, so it stays; the rest of the order stands", STAFFING)
            elif p["moved_from"] is not None:
                events += told_void(rules, pid, o, f"{p['size']} pyramid {p['number']} has moved "
                                "already this round; the rest of the order stands", MOVEMENT)
            else:
                moving.append(p)
        sizes = [str(p["size"]) for p in moving]
        why = path_problem(origin, o.path, adj, mine, rules, led=noble is not None,
                           scout=scout_move(o.troops, sizes, rules))
        if why:
            events += told_void(rules, pid, o, f"the move from {origin} cannot be made ({why})",
                            MOVEMENT, Event("skipped", MOVEMENT, f"{pid}: the move from "
                                            f"{origin} cannot be made ({why}).", pid, origin),
                            origin)
            continue
        dest = o.path[-1]
        count = _take_troops(troops, pid, origin, o.troops)
        if count:
            arrivals.append({"player": pid, "space": dest, "count": count, "moved_from": origin})
        for p in moving:
            p.update(space=dest, moved_from=origin)
        who = f"{noble['name']} leads" if noble else "without a noble,"
        if noble:
            noble.update(space=dest, moved_from=origin)
        what = " and ".join(([f"{count} troops"] if count else [])
                            + [f"{p['size']} pyramid {p['number']}" for p in moving]) or "no one"
        events.append(Event("move", MOVEMENT, f"{pid}: {who} {what} from {origin} to "
                            f"{' then '.join(o.path)}.", pid, dest,
                            data={"from": origin, "path": list(o.path), "troops": count,
                                  "noble": noble["name"] if noble else None}))
    troops = [t for t in troops if t["count"] > 0] + arrivals
    return state.replace(nobles=frame(nobles, "nobles"), troops=frame(troops, "troops"),
                         pyramids=frame(pyramids, "pyramids")), events


# -- 4. construction --------------------------------------------------------------------------

def build(state: State, orders: Orders, dice: Dice, rules: Params) -> Result:
    """Stone (over one or more rounds) and DEAD totalling the minimum glory raise a pyramid
    (PYRAMIDS: Construction)."""
    round_ = state.turn + 1
    players = players_by_id(state)
    pyramids = rows(state, "pyramids")
    dead = rows(state, "dead")
    held_by: dict[str, set[str]] = {}
    for s in rows(state, "spaces"):
        if s["holder"] is not None:
            held_by.setdefault(s["holder"], set()).add(s["name"])
    events: list[Event] = []
    begun: dict[str, Rows] = {}
    for pid, o in of_kind(orders, Build):
        me = players[pid]
        try:
            row, space = build_target(o.size, o.number, o.space, pyramids, pid, me["home"],
                                      held_by.get(pid, set()))
        except OrderError as err:
            events += told_void(rules, pid, o, f"{o.size} pyramid not built ({err.reason})",
                            CONSTRUCTION, Event("skipped", CONSTRUCTION, f"{pid}: {o.size} "
                                                f"pyramid not built ({err.reason}).", pid,
                                                public=False))
            continue
        if row is None:
            me["pyramids_made"] += 1
            row = {"player": pid, "number": me["pyramids_made"], "size": o.size, "space": space,
                   "stone": 0, "glory": 0, "built": False, "priests": 0, "moved_from": None}
            pyramids.append(row)
            begun.setdefault(pid, []).append(row)
        cost, need = size_stone(o.size, rules), size_glory(o.size, rules)
        stone = min(o.stone, me["stone"], cost - row["stone"])
        me["stone"] -= stone
        row["stone"] += stone
        given = [d for d in dead if d["held_by"] == pid and d["name"] in o.dead]
        dead = [d for d in dead if not any(d is g for g in given)]
        row["glory"] += sum(int(d["glory"]) for d in given)
        done = row["stone"] >= cost and row["glory"] >= need
        if done:
            row["built"] = True
        text = (f"{pid} gives {stone} stone" + (f" and the DEAD {', '.join(d['name'] for d in given)}"
                                                 if given else "")
                + f" to {o.size} pyramid {row['number']} at {space}: stone {row['stone']}/{cost},"
                f" glory {row['glory']}/{need}" + ("; it is built." if done else "."))
        # pending construction is the builder's own business; a finished pyramid stands
        events.append(Event("built" if done else "build", CONSTRUCTION, text, pid, space,
                            public=done, data={"round": round_, "stone": row["stone"],
                                  "glory": row["glory"]}))
    if rules.staff_new == "same_post":
        for pid, new in sorted(begun.items()):
            events += _staff_begun(pid, players[pid], pyramids, new, orders[pid], rules)
    return state.replace(players=frame(list(players.values()), "players"),
                         pyramids=frame(pyramids, "pyramids"), dead=frame(dead, "dead")), events


def _staff_begun(pid: str, me: dict[str, Any], pyramids: Rows, new: Rows, orders: Sequence[Order],
                 rules: Params) -> list[Event]:
    """A pyramid begun this round takes the priests its player's post gave it ("A pyramid
    built in a post can be staffed in the same post"), from the idle priests."""
    events: list[Event] = []
    older = [p for p in pyramids if p["player"] == pid and not any(p is q for q in new)]
    for o in priest_orders(orders):
        try:
            p = find_pyramid(o.pyramid, older + new, pid)
        except OrderError:
            continue  # named nothing then: the assign step told the player
        if not any(p is q for q in new):
            continue  # an older pyramid, staffed by the assign step
        need = size_stone(p["size"], rules)
        idle = int(me["priests"]) - sum(int(q["priests"]) for q in pyramids
                                        if q["player"] == pid)
        count = max(0, min(o.count, need, idle + int(p["priests"])))
        p["priests"] = count
        events.append(Event("priests", PRIESTS, f"{pid} sets {count} priests to {p['size']} "
                            f"pyramid {p['number']} ("
                            + ("staffed" if count >= need else f"needs {need}") + ").",
                            pid, p["space"], data={"priests": count}))
        if count < o.count:
            events += told_void(rules, pid, o, f"only {count} of the {o.count} priests were idle",
                            PRIESTS)
    return events


# -- 5. harvest -------------------------------------------------------------------------------

def harvest(state: State, orders: Orders, dice: Dice, rules: Params) -> Result:
    """A unit of serfs on a land produces 4 food or 2 stone by its kind, a second unit half
    that, further units nothing; only on land the player holds (RESOURCES: Serfs)."""
    players = players_by_id(state)
    events: list[Event] = []
    made: dict[str, dict[str, int]] = {}
    for s in rows(state, "spaces"):
        if s["holder"] is None or not s["serfs"]:
            continue
        out = land_output(s["kind"], int(s["serfs"]), rules)
        key = "food" if s["kind"] == FOOD_LAND else "stone"
        players[s["holder"]][key] += out
        tally = made.setdefault(s["holder"], {"food": 0, "stone": 0})
        tally[key] += out
    for pid, tally in sorted(made.items()):
        events.append(Event("harvest", SERFS, f"{pid}'s serfs produce {tally['food']} food and "
                            f"{tally['stone']} stone.", pid, public=False, data=tally))
    return state.replace(players=frame(list(players.values()), "players")), events


# -- 6. upkeep --------------------------------------------------------------------------------

def upkeep(state: State, orders: Orders, dice: Dice, rules: Params) -> Result:
    """Every food keeps two population from vanishing, the player choosing which; excess food
    becomes new population of the kinds ordered (RESOURCES: Food)."""
    events: list[Event] = []
    tables = Tables.of(state)
    for pid in [r["id"] for r in tables.players if r["status"] == ACTIVE]:
        text, data = tables.feed(pid, rules)
        events.append(Event("upkeep", FOOD, text, pid, public=False, data=data))
    return tables.state(state), events


# -- 7. new nobles ----------------------------------------------------------------------------

def new_nobles(state: State, orders: Orders, dice: Dice, rules: Params) -> Result:
    """A player controlling more than 4 land per noble gains a single new noble (RESOURCES:
    Land), placed at home, or on a land of theirs without a noble chosen by dice."""
    players = players_by_id(state)
    nobles = rows(state, "nobles")
    spaces = rows(state, "spaces")
    used = names_in_use(state)
    events: list[Event] = []
    for pid, me in players.items():
        if me["status"] != ACTIVE:
            continue
        for _ in range(int(rules.new_nobles_per_round)):
            lands = [s["name"] for s in spaces if s["holder"] == pid]
            living = sum(1 for n in nobles if n["player"] == pid)
            if len(lands) <= int(rules.land_per_noble) * living:
                break
            taken = {n["space"] for n in nobles}
            free = [n for n in lands if n not in taken]
            if not free:
                break
            where = me["home"] if me["home"] in free else dice.choice(
                free, purpose=f"where {pid}'s new noble appears", rule=LAND, key=f"noble/{pid}")
            name = noble_name(used)
            used.add(name)
            me["nobles_made"] += 1
            nobles.append({"player": pid, "number": me["nobles_made"], "name": name, "glory": 0,
                           "space": where, "moved_from": None})
            events.append(Event("noble", LAND, f"{pid} controls {len(lands)} lands with "
                                f"{living} noble(s): a new noble, {name} (noble "
                                f"{me['nobles_made']}), rises at {where}.", pid, where))
    return state.replace(players=frame(list(players.values()), "players"),
                         nobles=frame(nobles, "nobles")), events


# -- 8. end of round --------------------------------------------------------------------------

def end(state: State, orders: Orders, dice: Dice, rules: Params) -> Result:
    """Unspent DEAD are kept or lost (option ``dead_unspent``); a player with neither land nor a
    living noble is eliminated."""
    events: list[Event] = []
    dead = rows(state, "dead")
    if rules.dead_unspent == "lost" and dead:
        events.append(Event("dead_lost", CONSTRUCTION, "Unspent DEAD are lost: "
                            + ", ".join(f"{d['name']} ({d['held_by']})" for d in dead) + "."))
        dead = []
    players = players_by_id(state)
    holders = set(state["spaces"]["holder"].drop_nulls().to_list())
    with_nobles = set(state["nobles"]["player"].to_list())
    for pid, me in players.items():
        if me["status"] == ACTIVE and pid not in holders and pid not in with_nobles:
            me.update(status=ELIMINATED, eliminated_round=state.turn + 1)
            events.append(Event("eliminated", LAND, f"{pid} has neither land nor noble and is "
                                "eliminated.", pid))
    return state.replace(players=frame(list(players.values()), "players"),
                         dead=frame(dead, "dead")), events


ASSIGN = Step("assign", "Serfs and priests at work", f"{SERFS}; {PRIESTS}", assign)
MOVE = Step("move", "Movement", MOVEMENT, move)
CONTEST_STEP = Step("contest", "Contested land", f"{CONTEST}; {CONFLICT}", contest)
BUILD = Step("build", "Pyramid construction", CONSTRUCTION, build)
HARVEST = Step("harvest", "Serfs' output", SERFS, harvest)
UPKEEP = Step("upkeep", "Food keeps population; births", FOOD, upkeep)
NOBLES_STEP = Step("nobles", "New nobles", LAND, new_nobles)
END = Step("end", "End of round", CONSTRUCTION, end)


def steps_for(rules: Params) -> list[Step]:
    """The ordered steps of a round under these rules, each reading the orders' lines as the
    rules number them (:func:`~gmkit.rulesets.pyramid.orders.numbered`)."""
    eat = [HARVEST, UPKEEP] if rules.harvest_feeds == "this_round" else [UPKEEP, HARVEST]
    return [replace(step, fn=_numbered(step.fn))
            for step in (ASSIGN, MOVE, CONTEST_STEP, BUILD, *eat, NOBLES_STEP, END)]


def _numbered(fn: StepFn) -> StepFn:
    def step(state: State, orders: Envelopes[Any], dice: Dice, rules: Params
             ) -> tuple[State, list[Event]]:
        return fn(state, numbered(orders, rules), dice, rules)

    step.__doc__, step.__name__ = fn.__doc__, getattr(fn, "__name__", "step")
    return step


__all__ = ["ASSIGN", "BUILD", "CONTEST_STEP", "END", "HARVEST", "MOVE", "NOBLES_STEP", "UPKEEP",
           "steps_for"]
