"""A seeded random house and a seeded GM's desk: plausible posts for sample games, playouts and
benchmarks. Every choice goes through gmkit's dice, so the same seed writes the same posts.

The houses play for Fame, which wins the game: they train Fame when their gold allows it
(TRAIN: (level + 1)^2 gold a point), attack with Discredit (Fame won from the loser's Wisdom)
as well as Duels, and their soldiers share what their unit wins."""

from __future__ import annotations

from typing import Any

import polars as pl

from gmkit.core.dice import Dice
from gmkit.core.params import Params
from gmkit.core.tables import State
from gmkit.rulesets.jungle.attack import AttackType
from gmkit.rulesets.jungle.rules import ACTIONS, GOD_NAMES, STRUCTURE
from gmkit.rulesets.jungle.state import (CITIZEN, PEASANT, SOLDIER, SPECIALIST, TLATOANI,
                                         house_of_player)

TECHS = ("Bronze Working", "Pottery", "Writing", "Archery", "Mining", "Calendar", "Masonry")
BUILDINGS = ("Granary", "Monument", "Shrine", "Walls", "Warrior", "Worker")
POLICIES = ("Tradition", "Liberty", "Honor", "Piety")
#: Cities of the other civilizations the GM's units may take
FOREIGN = ("Tula", "Mayapan", "Cuzco", "Tikal", "Zaachila", "Tzintzuntzan")


def _options(me: dict[str, Any], state: State, house: dict[str, Any],
             rivals: list[str], slot: int, size: int) -> list[tuple[str, int]]:
    """(action text, weight) a character may sensibly take."""
    minister = not state["titles"].filter((pl.col("character") == me["name"])
                                          & (pl.col("title") == "minister_of")).is_empty()
    out: list[tuple[str, int]] = [("Defend", 1)]
    klass = me["class"]
    if klass == PEASANT:
        out.append(("Toil", 6))
        if me["city"] == "Tenochtitlan":
            out.append(("Enlist Warrior 1", 3))  # soldiers share the unit's gains and titles
    if klass in (CITIZEN, SPECIALIST):
        out.append((f"Research {TECHS[len(me['name']) % len(TECHS)]}", 3))
    if me["hammers"] > 0:
        out.append((f"Produce {BUILDINGS[len(me['name']) % len(BUILDINGS)]}", 3))
    if klass == TLATOANI:
        out += [("Propose open borders with the Maya", 1), ("Spend 1 gold on roads", 1)]
    if klass == SOLDIER and me["unit"]:
        out.append((f"Order {me['unit']}: fortify and guard the capital", 2))
    if house["gold"] >= 3:
        out.append(("Purchase 1 food", 2))
    if house["gold"] >= (me["wisdom"] + 1) ** 2:
        out.append(("Train Wisdom", 2))
    if house["gold"] >= (me["xp"] + 1) ** 2:
        out.append(("Train XP", 3))
    if house["gold"] >= (me["fame"] + 1) ** 2:
        out.append(("Train Fame", 6))  # TRAIN: Fame is what wins the game
    if house["food"] >= (size + 1) ** 2 + size:
        out.append(("Procreate", 4))
    if me["fame"] >= 1 and not minister:  # a Minister's title pays Fame each session
        out.append((f"Support {POLICIES[len(me['name']) % len(POLICIES)]} with 1 Fame", 3))
    if me["xp"] >= 3:
        out.append((f"Offering 1 to {GOD_NAMES[(len(me['name']) + slot) % 4]}", 1))
    if house["food"] < 2 and klass == PEASANT:
        return [("Toil", 1)]  # a hungry house's peasant toils
    for target in rivals[:3] if me["xp"] >= 2 or me["wisdom"] >= 3 else []:
        # Discredit wins Fame from the loser's Wisdom (a learned character's weapon); a Duel, XP
        kind = AttackType.DISCREDIT if me["wisdom"] > me["xp"] else AttackType.DUEL
        out.append((f"Attack ({kind.value}) {target}", 3 if me["wisdom"] >= 3 else 1))
    return out


def random_post(state: State, player: str, rules: Params, dice: Dice) -> str:
    """Each character of the player's house that may act posts a Morning and an Afternoon
    action."""
    house_id = house_of_player(state, player)
    houses = {h["house"]: h for h in state["houses"].iter_rows(named=True)}
    if house_id not in houses:
        return ""
    chars = state["characters"].filter(pl.col("alive")).sort("name").to_dicts()
    mine = [c for c in chars if c["house"] == house_id and c["may_act"]]
    lines: dict[int, list[str]] = {1: [], 2: []}
    for me in mine:
        rivals = [c["name"] for c in chars if c["house"] != house_id
                  and c["city"] == me["city"] and c["unit"] is None and me["unit"] is None]
        for slot in (1, 2):
            options = _options(me, state, houses[house_id], rivals, slot, len(mine))
            text = dice.choice([o for o, _ in options], weights=[w for _, w in options],
                               rule=ACTIONS, purpose=f"{house_id} bot: {me['name']}'s "
                               f"{'first' if slot == 1 else 'second'} action",
                               key=f"{me['name']}/{slot}")
            lines[slot].append(f"[b]{me['name']}: {text}[/b]")
    if not mine:
        return "Our house waits this session."
    return "\n".join(["[b]Morning[/b]", *lines[1], "[b]Afternoon[/b]", *lines[2]])


def civ_post(state: State, dice: Dice) -> str:
    """The GM's desk: each city's figures moved a little, the Warrior's health and, when it has
    soldiers, now and then the XP, Fame and gold its fights won them; now and then a technology
    or a building completed on a drawn gameturn."""
    out = []
    for c in state["cities"].sort("city").iter_rows(named=True):
        food = int(c["net_food"]) + dice.choice([-1, 0, 1], rule=STRUCTURE,
                                                 purpose=f"GM bot: {c['city']}'s food",
                                                 key=f"food/{c['city']}")
        happiness = dice.choice([-20, -5, 0, 3], weights=[1, 2, 4, 2], rule=STRUCTURE,
                                purpose=f"GM bot: {c['city']}'s happiness",
                                key=f"happy/{c['city']}")
        out.append(f"city {c['city']}: citizens {c['citizens']}, food {food}, income "
                   f"{c['income']}, expenses {c['expenses']}, beakers 2, happiness {happiness}")
    for u in state["units"].sort("unit").iter_rows(named=True):
        health = dice.choice([10, 9, 7], weights=[4, 2, 1], rule=STRUCTURE,
                             purpose=f"GM bot: {u['unit']}'s health", key=f"health/{u['unit']}")
        out.append(f"unit {u['unit']}: health {health}, level {u['level'] or 1}")
        if u["enlisted"]:  # the unit fought in the civilization game: its gains, shared
            fame = dice.choice([0, 1, 2], weights=[2, 2, 1], rule=STRUCTURE,
                               purpose=f"GM bot: {u['unit']}'s gains", key=f"gains/{u['unit']}")
            if fame:
                out.append(f"gains {u['unit']}: xp 1, fame {fame}, gold 1")
            if dice.d(6, rule=STRUCTURE, purpose=f"GM bot: does {u['unit']} take a city",
                      key=f"conquest/{u['unit']}") == 1:
                city = FOREIGN[int(state["session"]["session"][0]) % len(FOREIGN)]
                out.append(f"conquered {city} by {u['unit']} citizens 2")
    out.append("empire: gold 60, expenses 3")
    turn = dice.d(10, rule=STRUCTURE, purpose="GM bot: a gameturn", key="gameturn")
    tech = TECHS[dice.d(len(TECHS), rule=STRUCTURE, purpose="GM bot: a tech", key="tech") - 1]
    out.append(f"tech {tech} era 1 gameturn {turn}")
    out.append(f"building Granary in Tenochtitlan era 1 gameturn {11 - turn}")
    if turn % 3 == 0 or not state["policy_support"].is_empty():  # supported: adopted
        out.append(f"policy any era 1 gameturn {turn}")
    return "\n".join(out)
