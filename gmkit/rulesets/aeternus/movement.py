"""Moving through Aeternus: scouting (6.1), traversing (6.2) with the biomes' effects, and the
stagways (5.3.3.4).

A traverse, in the order the rules apply (each skipped where a Boardwalk stands on the hex whose
effect it is, 5.3.3.5):

1. cost: 1 AP, 1 more to leave a Perilous Pass (5.3.1.4);
2. the target is generated if indeterminate (6.2);
3. leaving a Swamp for another mass: a 15% chance to move at all (5.3.1.5);
4. a Lake is not entered (5.3.1.6);
5. the player moves; onto a corrupted hex, the hex they left is corrupted (5.3.3.1);
6. entering Deceased Dunes: a 20% chance to be blown into a random adjacent hex, generated if
   need be, at no cost (5.3.1.2); not into a Lake; being blown is being moved, so a corrupted
   hex corrupts the Dunes hex left (the ``blown_corrupts`` option).
"""

from __future__ import annotations

from gmkit.core.boards.hexgrid import Hex, distance
from gmkit.rulesets.aeternus.coords import AXIAL_STEPS, DIRECTION_NAMES
from gmkit.rulesets.aeternus.doing import Doing, hex_name
from gmkit.rulesets.aeternus.orders import Scout, Stag, Traverse
from gmkit.rulesets.aeternus.rules import (
    BINOCULARS,
    BOARDWALK_F,
    CORRUPTION,
    DUNES,
    DUNES_RULE,
    LAKE_MOVE,
    PASS,
    PASS_RULE,
    SCOUT,
    STAG,
    STAG_F,
    SWAMP,
    SWAMP_RULE,
    TRAVERSE,
)
from gmkit.rulesets.aeternus.state import Axial


def _dist(a: Axial, b: Axial) -> int:
    return distance(Hex(*a), Hex(*b))


def _boardwalk(d: Doing, h: Axial) -> bool:
    return BOARDWALK_F in d.table.features(h)


def generate(d: Doing, h: Axial) -> None:
    """Generate ``h`` if indeterminate, and let the player see it and any lake it enclosed."""
    made = d.table.generate(h)
    w = d.table.world
    d.table.see(d.player, h, *((w.q[i], w.r[i]) for i in made))
    if made:
        d.event("generate", "5.3", f"{hex_name(h)} is generated: "
                f"{d.table.biome(h)}, {d.table.landmark(h)}"
                + (", corrupted" if d.table.corrupted(h) else "")
                + (f"; {len(made) - 1} enclosed hex(es) become Lake" if len(made) > 1 else ""),
                h, hexes=len(made))


def scout(d: Doing, order: Scout) -> None:
    """6.1: select two hexes adjacent to one's location (within two with binoculars, 7.4.2)
    and generate them if indeterminate."""
    here = d.here
    reach = d.rules.binocular_range if d.table.count(d.player, BINOCULARS) else 1
    targets = [p.resolve(here) for p in order.targets]
    for t in targets:
        if not 1 <= _dist(here, t) <= reach:
            raise d.fail(SCOUT, f"{hex_name(t)} is not within {reach} of {hex_name(here)}"
                         + ("" if reach > 1 else " (binoculars reach two, 7.4.2)"))
    d.spend_ap(d.rules.cost_scout, SCOUT, "scouting")
    for t in targets:
        generate(d, t)
    d.event("scout", SCOUT, f"{d.player} scouts {' and '.join(hex_name(t) for t in targets)}: "
            + "; ".join(f"{hex_name(t)} {d.table.biome(t)}" for t in targets), here)


def traverse(d: Doing, order: Traverse) -> None:
    """6.2 with 5.3.1.2 to 5.3.1.6 and 5.3.3.1 (see the module docstring)."""
    t = d.table
    here = d.here
    target = order.target.resolve(here)
    if _dist(here, target) != 1:
        raise d.fail(TRAVERSE, f"{hex_name(target)} is not adjacent to {hex_name(here)}")
    cost = d.rules.cost_traverse
    if t.biome(here) == PASS and not _boardwalk(d, here):
        cost += d.rules.pass_extra
    d.spend_ap(cost, PASS_RULE if cost > d.rules.cost_traverse else TRAVERSE, "this traverse")
    generate(d, target)
    if t.biome(here) == SWAMP and not _boardwalk(d, here) and t.mass(here) != t.mass(target):
        if not d.percent(d.rules.swamp_percent, f"{d.player} leaves the swamp for "
                         f"{hex_name(target)}", SWAMP_RULE, "swamp"):
            d.event("stuck", SWAMP_RULE, f"{d.player} cannot leave the swamp at "
                    f"{hex_name(here)} ({cost} AP spent).", here, moved=False)
            return
    if t.is_lake(target) and not _boardwalk(d, target):
        d.event("lake", LAKE_MOVE, f"{d.player} does not move: {hex_name(target)} is a Lake "
                f"({cost} AP spent).", target, moved=False)
        return
    _move(d, here, target, TRAVERSE, f"{d.player} traverses to {hex_name(target)} "
          f"({t.biome(target)}, {cost} AP)")
    if t.biome(target) == DUNES and not _boardwalk(d, target):
        if d.percent(d.rules.dunes_percent, f"{d.player} blown by the winds of "
                     f"{hex_name(target)}", DUNES_RULE, "dunes"):
            name = d.dice.choice(list(DIRECTION_NAMES), purpose=f"where the winds blow "
                                 f"{d.player}", rule=DUNES_RULE, key="wind",
                                 public=not d.secret, player=d.player)
            dq, dr = AXIAL_STEPS[DIRECTION_NAMES.index(name)]
            dest = (target[0] + dq, target[1] + dr)
            generate(d, dest)
            if t.is_lake(dest) and not _boardwalk(d, dest):
                d.event("lake", LAKE_MOVE, f"The winds blow {d.player} {name} but "
                        f"{hex_name(dest)} is a Lake: they stay.", dest, moved=False)
                return
            _move(d, target, dest, DUNES_RULE, f"The winds blow {d.player} {name} to "
                  f"{hex_name(dest)}", corrupts=d.rules.blown_corrupts)


def _move(d: Doing, src: Axial, dst: Axial, rule: str, text: str, *,
          corrupts: bool = True) -> None:
    """The player moves from ``src`` to ``dst``; a corrupted ``dst`` corrupts ``src``."""
    d.me["q"], d.me["r"] = dst
    d.table.see(d.player, dst)
    d.event("move", rule, text + ".", dst, moved=True, src=hex_name(src))
    if corrupts and d.table.corrupted(dst) and not d.table.corrupted(src):
        if d.table.corrupt(src):
            d.event("corruption", CORRUPTION, f"{hex_name(src)} is corrupted: {d.player} "
                    f"moved from it onto the corrupted {hex_name(dst)}.", src)
        else:
            d.event("corruption", "5.3.3.3", f"A Pylon of Purity keeps {hex_name(src)} "
                    "clean.", src)


def stag(d: Doing, order: Stag) -> None:
    """5.3.3.4: from a Stag Station to any other, not as moving into it; no more actions
    for the phase."""
    here = d.here
    target = order.target.resolve(here)
    t = d.table
    if STAG_F not in t.features(here):
        raise d.fail(STAG, f"there is no Stag Station on {hex_name(here)}")
    if target == here or t.index(target) is None or STAG_F not in t.features(target):
        raise d.fail(STAG, f"there is no other Stag Station on {hex_name(target)}")
    d.me["q"], d.me["r"] = target
    d.me["stag_phase"] = d.phase
    t.see(d.player, target)
    d.event("stag", STAG, f"{d.player} travels the stagways to {hex_name(target)} and can act "
            "no more this phase.", target, moved=True)
