"""One player's Pyramid Power Wars orders checked against the state: every problem at once,
each naming its line, so the GM can paste the whole list back to the player (the turn's orders
are checked by :func:`gmkit.rulesets.pyramid.orders.validate`, player by player).

Standing assignments count: serfs and priests stay where they were unless an order moves them,
so ``4 serfs to Redsand`` is checked against the serfs still working other lands; a post's
assignments are checked together (:mod:`gmkit.rulesets.pyramid.allocation`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gmkit.core.orders import IllegalOrderError, OrderError
from gmkit.core.params import Params
from gmkit.core.tables import State, rows_by
from gmkit.rulesets.pyramid.allocation import (build_orders, new_pyramids, plan_priests,
                                               plan_serfs, priest_orders, serf_orders)
from gmkit.rulesets.pyramid.rules import size_stone
from gmkit.rulesets.pyramid.movement import path_problem, scout_move
from gmkit.rulesets.pyramid.order_types import (AssignSerfs, Births, Build, Claim, Lead, Move,
                                                Order, StaffPyramid, Starve)
from gmkit.rulesets.pyramid.refs import build_target, find_noble, find_pyramid
from gmkit.rulesets.pyramid.state import ACTIVE, adjacency, rows


def staffing_after(state: State, player: str, orders: Sequence[Order],
                   rules: Params) -> dict[int, int]:
    """Priests on each of the player's pyramids (by number) once this round's staffing orders
    apply (orders that cannot apply are skipped)."""
    pyramids = rows(state, "pyramids")
    out = {int(p["number"]): int(p["priests"]) for p in pyramids if p["player"] == player}
    if rules.assignments == "together":
        me = next((r for r in rows(state, "players") if r["id"] == player), None)
        if me is not None:
            out.update(plan_priests(me, pyramids, priest_orders(orders), rules).counts)
        return out
    for o in orders:
        if isinstance(o, StaffPyramid):
            try:
                p = find_pyramid(o.pyramid, pyramids, player)
            except OrderError:
                continue
            out[int(p["number"])] = min(o.count, size_stone(p["size"], rules))
    return out


def check_orders(state: State, pid: str, orders: Sequence[Order],
                 rules: Params) -> list[OrderError]:
    """The problems of one player's orders, in line order."""
    players = rows_by(state["players"], "id", table="players")
    me = players.get(pid)
    errs: list[OrderError] = []

    def bad(order: Order, reason: str) -> None:
        errs.append(IllegalOrderError(reason, line=order.line))

    if me is None:
        return [IllegalOrderError(f"no player '{pid}' (players: {', '.join(players)})")]
    if me["status"] != ACTIVE:
        for o in orders:
            bad(o, f"{pid} is {me['status']} and gives no orders")
        return errs
    spaces = rows(state, "spaces")
    held = {s["name"] for s in spaces if s["holder"] == pid}
    adj = adjacency(state)
    nobles = rows(state, "nobles")
    pyramids = rows(state, "pyramids")
    dead_held = {d["name"] for d in rows(state, "dead") if d["held_by"] == pid}
    stacks: dict[str, int] = {}
    for t in rows(state, "troops"):
        if t["player"] == pid:
            stacks[t["space"]] = stacks.get(t["space"], 0) + int(t["count"])

    if rules.assignments == "together":
        plan = plan_serfs(me, spaces, serf_orders(orders))
        new = new_pyramids(me, pyramids, held, build_orders(orders)) \
            if rules.staff_new == "same_post" else []
        staffing = plan_priests(me, pyramids, priest_orders(orders), rules, new)
        for o, reason in plan.refused + staffing.refused:
            bad(o, reason)
    else:
        _check_serfs(me, spaces, held, serf_orders(orders), bad)
        _check_priests(me, pyramids, priest_orders(orders), rules, bad)
    staffed = staffing_after(state, pid, orders, rules)

    leaving: dict[str, int] = {}
    moved_pyramids: dict[int, int] = {}

    def take_forces(order: Lead | Move, origin: str) -> list[str] | None:
        """Check the troops and pyramids an order takes from ``origin``; their sizes."""
        sizes = []
        for ref in order.pyramids:
            try:
                p = find_pyramid(ref, pyramids, pid, space=origin, built=True)
            except OrderError as err:
                bad(order, err.reason)
                return None
            num = int(p["number"])
            if num in moved_pyramids:
                bad(order, f"{ref} is already moved on line {moved_pyramids[num]}")
                return None
            need = size_stone(p["size"], rules)
            if staffed.get(num, 0) < need:
                bad(order, f"{p['size']} pyramid {num} has {staffed.get(num, 0)} of the {need} "
                           "priests it needs to move or fight")
                return None
            moved_pyramids[num] = order.line
            sizes.append(str(p["size"]))
        if order.troops:
            leaving[origin] = leaving.get(origin, 0) + order.troops
            if leaving[origin] > stacks.get(origin, 0):
                bad(order, f"only {stacks.get(origin, 0)} troops stand at {origin}; the orders "
                           f"move {leaving[origin]} from there")
                return None
        if sizes and not order.troops and rules.pyramids_move == "with_troops":
            bad(order, "a pyramid moves only with at least one unit of troops")
            return None
        return sizes

    leads = [o for o in orders if isinstance(o, Lead)]
    leading: dict[int, int] = {}
    found: dict[int, dict[str, Any]] = {}
    for o in leads:
        try:
            noble = find_noble(o.noble, nobles, pid)
        except OrderError as err:
            bad(o, err.reason)
            continue
        num = int(noble["number"])
        if num in leading:
            bad(o, f"{noble['name']} is already ordered on line {leading[num]}")
            continue
        leading[num] = o.line
        found[o.line] = noble
    staying = {n["space"]: n["name"] for n in nobles
               if n["player"] == pid and int(n["number"]) not in leading}
    arriving: dict[str, int] = {}
    for o in leads:
        if o.line not in found:
            continue
        noble = found[o.line]
        origin = str(noble["space"])
        if o.origin is not None and o.origin != origin:
            bad(o, f"{noble['name']} stands at {origin}, not {o.origin}")
            continue
        sizes = take_forces(o, origin)
        if sizes is None:
            continue
        dest = o.path[-1] if o.path else origin
        if not o.troops and not sizes and dest not in held:
            bad(o, f"{noble['name']} alone cannot take {dest}: lead troops or a pyramid")
            continue
        why = path_problem(origin, o.path, adj, held, rules, led=True,
                           scout=scout_move(o.troops, sizes, rules))
        if why:
            bad(o, why)
            continue
        if dest in arriving:
            bad(o, f"a second noble into {dest} (line {arriving[dest]}): only a single noble "
                   "may occupy a space")
            continue
        if dest in staying:
            bad(o, f"{staying[dest]} stays at {dest}: only a single noble may occupy a space")
            continue
        arriving[dest] = o.line
    for o in orders:
        if isinstance(o, Move):
            if o.origin not in held:
                bad(o, f"you do not hold {o.origin}")
                continue
            if not o.troops and not o.pyramids:
                bad(o, "nothing to move")
                continue
            if take_forces(o, o.origin) is None:
                continue
            why = path_problem(o.origin, o.path, adj, held, rules, led=False)
            if why:
                bad(o, why)
    _check_builds(me, pyramids, held, dead_held, [o for o in orders if isinstance(o, Build)],
                  rules, bad)
    for kind in (Births, Starve):
        first = None
        for o in orders:
            if isinstance(o, kind):
                if first is not None:
                    bad(o, f"repeats line {first}: one such order a round")
                first = first or o.line
    for o in orders:
        if isinstance(o, Claim) and o.space in held:
            bad(o, f"{o.space} is yours already: claims are for land taken this round")
    errs.sort(key=lambda e: e.line or 0)
    return errs


def _check_serfs(me: dict[str, Any], spaces: list[dict[str, Any]], held: set[str],
                 orders: list[AssignSerfs], bad: Any) -> None:
    ordered: dict[str, int] = {}
    for o in orders:
        if o.space not in held:
            bad(o, f"you do not hold {o.space}: serfs work only land you hold")
        elif o.space in ordered:
            bad(o, f"serfs to {o.space} are ordered twice")
        else:
            ordered[o.space] = o.line
    standing = {s["name"]: int(s["serfs"]) for s in spaces
                if s["name"] in held and s["name"] not in ordered}
    total = sum(standing.values())
    for o in orders:
        if ordered.get(o.space) != o.line:
            continue
        total += o.count
        if total > me["serfs"]:
            kept = ", ".join(f"{n} {c}" for n, c in standing.items() if c)
            bad(o, f"more serfs than you have: this brings the serfs at work to {total}, but "
                   f"{me['id']} has {me['serfs']}" + (f" (still working: {kept})" if kept else ""))


def _check_priests(me: dict[str, Any], pyramids: list[dict[str, Any]],
                   orders: list[StaffPyramid], rules: Params, bad: Any) -> None:
    pid = me["id"]
    ordered: dict[int, int] = {}
    counts: dict[int, int] = {}
    for o in orders:
        try:
            p = find_pyramid(o.pyramid, pyramids, pid)
        except OrderError as err:
            bad(o, err.reason)
            continue
        num, need = int(p["number"]), size_stone(p["size"], rules)
        if num in ordered:
            bad(o, f"priests to pyramid {num} are ordered twice")
            continue
        if o.count > need:
            bad(o, f"a {p['size']} pyramid takes at most {need} priests")
            continue
        ordered[num] = o.line
        counts[num] = o.count
    total = sum(int(p["priests"]) for p in pyramids
                if p["player"] == pid and int(p["number"]) not in ordered)
    for o in orders:
        for num, line in ordered.items():
            if line == o.line:
                total += counts[num]
                if total > me["priests"]:
                    bad(o, f"more priests than you have: this brings the priests at work to "
                           f"{total}, but {pid} has {me['priests']}")


def _check_builds(me: dict[str, Any], pyramids: list[dict[str, Any]], held: set[str],
                  dead_held: set[str], orders: list[Build], rules: Params, bad: Any) -> None:
    pid = me["id"]
    stone = 0
    used_dead: dict[str, int] = {}
    targets: dict[tuple[Any, ...], int] = {}
    for o in orders:
        try:
            row, space = build_target(o.size, o.number, o.space, pyramids, pid, me["home"], held)
        except OrderError as err:
            bad(o, err.reason)
            continue
        key = ("begun", row["number"]) if row else ("new", o.size, space)
        if key in targets:
            bad(o, f"the same pyramid is built on line {targets[key]}")
            continue
        targets[key] = o.line
        need = size_stone(o.size, rules) - (int(row["stone"]) if row else 0)
        if o.stone > need:
            bad(o, f"the {o.size} pyramid needs only {need} more stone")
            continue
        if stone + o.stone > me["stone"]:
            bad(o, f"not enough stone: the orders spend {stone + o.stone}, {pid} has "
                   f"{me['stone']}")
            continue
        stone += o.stone
        for d in o.dead:
            if d not in dead_held:
                bad(o, f"{d} is not one of your DEAD")
            elif d in used_dead:
                bad(o, f"{d} is already given on line {used_dead[d]}")
            else:
                used_dead[d] = o.line
