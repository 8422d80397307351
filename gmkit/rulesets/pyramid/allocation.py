"""A post's serf and priest assignments taken together (RESOURCES: Serfs, Priests).

"Allocation is limited by available LAND" and "by available PYRAMIDS": a post's assignments are
checked against the allocation they leave once all of them apply, so ``3 serfs to Palm Grove``
with ``0 serfs to Bull Pasture`` gives the same result in either order. When the post puts more
serfs (or priests) to work than the player has, every line that raises a land's (a pyramid's)
count is refused, whatever its place in the post: the lines that lower a count still apply.

Validation (:mod:`gmkit.rulesets.pyramid.validate`) rejects the lines :func:`plan_serfs` and
:func:`plan_priests` refuse; the ``assign`` step runs the same plan again and tells the player
of any line void by then. A pyramid begun by a build order of the same post may be staffed in
that post (``staff_new = same_post``), named by its size (``1 priests to the scout pyramid``): the
plan counts it and the ``build`` step gives it its priests when it begins it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gmkit.core.orders import OrderError
from gmkit.core.params import Params
from gmkit.rulesets.pyramid.rules import size_stone
from gmkit.rulesets.pyramid.order_types import AssignSerfs, Build, Order, StaffPyramid
from gmkit.rulesets.pyramid.refs import build_target, find_pyramid

Row = dict[str, Any]


@dataclass
class Plan:
    """What a post's assignments do: the new count of each land (by name) or pyramid (by
    number) they set, and each line refused with its reason."""

    counts: dict[Any, int] = field(default_factory=dict)
    lines: dict[Any, int] = field(default_factory=dict)
    refused: list[tuple[Order, str]] = field(default_factory=list)

    def refuse(self, order: Order, reason: str) -> None:
        """Refuse a line."""
        self.refused.append((order, reason))


def plan_serfs(me: Row, spaces: Sequence[Row], orders: Sequence[AssignSerfs]) -> Plan:
    """The serfs a post puts on each land, checked against the land held and the serfs the
    player has once every line applies."""
    pid = me["id"]
    held = {s["name"]: int(s["serfs"]) for s in spaces if s["holder"] == pid}
    plan = Plan()
    for o in orders:
        if o.space not in held:
            plan.refuse(o, f"you do not hold {o.space}: serfs work only land you hold")
        elif o.space in plan.lines:
            plan.refuse(o, f"serfs to {o.space} are ordered twice")
        else:
            plan.lines[o.space] = o.line
            plan.counts[o.space] = o.count
    total = sum({**held, **plan.counts}.values())
    if total > me["serfs"]:
        kept = ", ".join(f"{n} {c}" for n, c in held.items() if c and n not in plan.counts)
        for o in orders:
            if plan.lines.get(o.space) == o.line and o.count > held[o.space]:
                plan.refuse(o, f"more serfs than you have: this brings the serfs at work to "
                               f"{total}, but {pid} has {me['serfs']}"
                            + (f" (still working: {kept})" if kept else ""))
                del plan.counts[o.space]
    return plan


def new_pyramids(me: Row, pyramids: Sequence[Row], held: set[str],
                 builds: Sequence[Build]) -> list[Row]:
    """The pyramids the post's build orders begin, as rows numbered as the build step will
    number them (the orders that continue a pyramid, or cannot be carried out, begin none)."""
    out: list[Row] = []
    made = int(me["pyramids_made"])
    seen: set[tuple[str, str]] = set()
    for o in builds:
        try:
            row, space = build_target(o.size, o.number, o.space, [*pyramids, *out], me["id"],
                                      me["home"], held)
        except OrderError:
            continue
        if row is None and (o.size, space) not in seen:
            seen.add((o.size, space))
            made += 1
            out.append({"player": me["id"], "number": made, "size": o.size, "space": space,
                        "stone": 0, "glory": 0, "built": False, "priests": 0,
                        "moved_from": None, "new": True})
    return out


def plan_priests(me: Row, pyramids: Sequence[Row], orders: Sequence[StaffPyramid],
                 rules: Params, new: Sequence[Row] = ()) -> Plan:
    """The priests a post puts on each pyramid (by number), checked against the pyramid's
    stone cost ("never takes more") and the priests the player has once every line applies;
    ``new``: the pyramids the post's builds begin (:func:`new_pyramids`)."""
    pid = me["id"]
    mine = [p for p in pyramids if p["player"] == pid] + list(new)
    before = {int(p["number"]): int(p["priests"]) for p in mine}
    plan = Plan()
    for o in orders:
        try:
            p = find_pyramid(o.pyramid, mine, pid)
        except OrderError as err:
            plan.refuse(o, err.reason)
            continue
        num, need = int(p["number"]), size_stone(p["size"], rules)
        if p.get("new") and o.pyramid.number is not None:
            plan.refuse(o, f"pyramid {o.pyramid.number} is not begun yet: name a pyramid this "
                           f"post begins by its size ('the {p['size']} pyramid'), its number is "
                           "given when it is begun")
        elif num in plan.lines:
            plan.refuse(o, f"priests to pyramid {num} are ordered twice")
        elif o.count > need:
            plan.refuse(o, f"a {p['size']} pyramid takes at most {need} priests")
        else:
            plan.lines[num] = o.line
            plan.counts[num] = o.count
    total = sum({**before, **plan.counts}.values())
    if total > me["priests"]:
        numbers = {line: n for n, line in plan.lines.items()}
        for o in orders:
            found = numbers.get(o.line)
            if found is not None and found in plan.counts and plan.counts[found] > before[found]:
                plan.refuse(o, f"more priests than you have: this brings the priests at work to "
                               f"{total}, but {pid} has {me['priests']}")
                del plan.counts[found]
    return plan


def serf_orders(orders: Sequence[Order]) -> list[AssignSerfs]:
    """The serf assignments among a post's orders."""
    return [o for o in orders if isinstance(o, AssignSerfs)]


def priest_orders(orders: Sequence[Order]) -> list[StaffPyramid]:
    """The priest assignments among a post's orders."""
    return [o for o in orders if isinstance(o, StaffPyramid)]


def build_orders(orders: Sequence[Order]) -> list[Build]:
    """The build orders among a post's orders."""
    return [o for o in orders if isinstance(o, Build)]


__all__ = ["Plan", "build_orders", "new_pyramids", "plan_priests", "plan_serfs",
           "priest_orders", "serf_orders"]
