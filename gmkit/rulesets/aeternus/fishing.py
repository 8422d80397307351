"""Fishing (6.3) and the fish caught (7.3): the catch, standard or medallion fish, the fifteen
medallion conditions, and the quality of a medallion fish.

The order of the draws, each logged with the action:

1. ``catch``: a d100 against 70% (+10 / +15 / +25 for the Advanced, Reinforced and Classic rods;
   20% with Midas' Rod);
2. ``medallion``: a d100 against 10% per medallion fish the player is eligible to catch, at most
   40% (none with the Classic Rod; with Midas' Rod a catch is always a medallion fish when the
   player is eligible for one, so no draw);
3. ``kind``: which fish, uniformly among the eligible medallion fish or the five standard fish;
4. ``quality``: a d2 rolled until it gives 1, the number of rolls being the quality. With Midas'
   Rod the fish is "of quality 4 or higher": the rolls are counted from 4 (quality = 3 + rolls),
   which is exactly the quality distribution given that it is 4 or more, since the count of
   rolls is geometric.
"""

from __future__ import annotations

from gmkit.rulesets.aeternus.coords import from_axial
from gmkit.rulesets.aeternus.doing import Doing, hex_name
from gmkit.rulesets.aeternus.orders import Fish
from gmkit.rulesets.aeternus.rules import (
    ADVANCED_ROD,
    AXIS_ANY,
    CLASSIC_ROD,
    DUNES,
    FISH,
    FISH_CLASS,
    FOREST,
    LAKE,
    MEDALLION,
    MEDALLION_FISH,
    MIDAS_ROD,
    PASS,
    QUALITY,
    REINFORCED_ROD,
    STANDARD_FISH,
    SWAMP,
    TOWN,
)
from gmkit.rulesets.aeternus.state import Axial, Table, neighbours

#: The most d2 rolls a quality draw makes (a chance of 2^-64 to reach it).
_MAX_ROLLS = 64


def lakes_around(t: Table, here: Axial) -> list[Axial]:
    """The Lake hexes one may fish in from ``here``: it, then its neighbours in direction
    order (6.3)."""
    return [h for h in (here, *neighbours(here)) if t.index(h) is not None and t.is_lake(h)]


def medallion_conditions(t: Table, player: str, here: Axial, target: Axial, rod: str | None,
                         aligned_axis: str = "origin_axis") -> list[str]:
    """The medallion fish (7.3.2) ``player`` is eligible to catch fishing into ``target`` from
    ``here`` with ``rod``, in the rules' order."""
    biome = t.biome(here)
    _, size = t.mass(target)
    lakes_next = sum(1 for h in neighbours(here) if t.index(h) is not None and t.is_lake(h))
    faction = t.players[player]["faction"]
    flag = t.flags.get(here)
    others_here = any(p["id"] != player and p["active"] and (p["q"], p["r"]) == here
                      for p in t.players.values())
    x, y, z = from_axial(*target)
    on_axis = (target != here) if aligned_axis == AXIS_ANY else sum(1 for v in (x, y, z)
                                                                    if v) <= 1
    met = {
        "Goldfish": size == 1,
        "Blue Whale": size >= 5,
        "Megalodon": size >= 19,
        "Pefisula": lakes_next == 5,
        "Carcharias": biome == DUNES,
        "Flying Fish": biome == PASS,
        "Gudgeon": biome == FOREST,
        "Mudskipper": biome == SWAMP,
        "Fishy Fish": biome == LAKE,
        "SvGCMkWr_zQ": t.corrupted(target),
        "Civilised Fish": t.landmark(here) == TOWN,
        "Napoleon Fish": flag is not None and flag != faction,
        "Student Fish": others_here,
        "Vanille": rod is None,
        "Aligned Fish": on_axis,
    }
    return [f for f in MEDALLION_FISH if met[f]]


def catch_percent(rod: str | None, d: Doing) -> int:
    """The chance of catching a fish with ``rod`` (6.3, 7.4.3)."""
    r = d.rules
    if rod == MIDAS_ROD:
        return int(r.midas_percent)
    bonus = {ADVANCED_ROD: r.advanced_bonus, REINFORCED_ROD: r.reinforced_bonus,
             CLASSIC_ROD: r.classic_bonus}.get(rod or "", 0)
    return int(r.fish_percent + bonus)


def fish(d: Doing, order: Fish) -> None:
    """6.3 and 7.3 (see the module docstring)."""
    t = d.table
    here = d.here
    lakes = lakes_around(t, here)
    if order.target is not None:
        target = order.target.resolve(here)
        if target not in lakes:
            raise d.fail(FISH, f"{hex_name(target)} is not a Lake on or next to "
                         f"{hex_name(here)}")
    elif lakes:
        target = lakes[0]
    else:
        raise d.fail(FISH, f"there is no Lake on or next to {hex_name(here)}")
    rod = order.rod
    if rod is not None and not t.count(d.player, rod):
        raise d.fail(FISH, f"{d.player} has no {rod}")
    d.spend_ap(d.rules.cost_fish, FISH, "fishing")
    chance = catch_percent(rod, d)
    with_rod = f" with {rod}" if rod else ""
    if not d.percent(chance, f"{d.player} catches a fish{with_rod}", FISH, "catch"):
        d.event("fish", FISH, f"{d.player} fishes {hex_name(target)}{with_rod} and catches "
                "nothing.", target, caught=False)
        return
    eligible = medallion_conditions(t, d.player, here, target, rod, d.rules.aligned_axis)
    if rod == CLASSIC_ROD or not eligible:
        medallion = False
    elif rod == MIDAS_ROD:
        medallion = True
    else:
        chance = min(d.rules.medallion_cap, d.rules.medallion_step * len(eligible))
        medallion = d.percent(chance, f"the fish is a medallion fish ({len(eligible)} "
                              "eligible)", FISH_CLASS, "medallion")
    pub = not d.secret
    if not medallion:
        kind = d.dice.choice(list(STANDARD_FISH), purpose="which standard fish", rule="7.3.1",
                             key="kind", public=pub, player=d.player)
        t.fish.append({"player": d.player, "fish": kind, "quality": 0,
                       "caught_turn": d.dice.turn})
        d.event("fish", FISH, f"{d.player} fishes {hex_name(target)}{with_rod} and catches "
                f"a {kind}.", target, caught=True, fish=kind, quality=0)
        return
    kind = d.dice.choice(eligible, purpose="which medallion fish", rule=MEDALLION, key="kind",
                         public=pub, player=d.player)
    rolls = 1
    while rolls < _MAX_ROLLS and d.dice.d(2, purpose=f"quality: roll {rolls} (1 stops)",
                                          rule=QUALITY, key=f"quality{rolls}", public=pub,
                                          player=d.player) != 1:
        rolls += 1
    quality = rolls + (d.rules.midas_min_quality - 1 if rod == MIDAS_ROD else 0)
    t.fish.append({"player": d.player, "fish": kind, "quality": quality,
                   "caught_turn": d.dice.turn})
    named = t.qualities.get(quality, ("", ""))[0]
    d.event("fish", MEDALLION, f"{d.player} fishes {hex_name(target)}{with_rod} and catches "
            f"a medallion {kind} of quality {quality}" + (f" ({named})" if named else "")
            + ".", target, caught=True, fish=kind, quality=quality)
    unnamed = [q for q in range(1, quality) if not t.qualities.get(q, ("", ""))[0]]
    if unnamed:
        d.event("naming", QUALITY, f"{d.player} must name the qualities "
                f"{', '.join(map(str, unnamed))} ('Name quality N Name').", None,
                unnamed=unnamed)
