"""LIFE AND DEATH IN A UNIT: the GM's unit figures applied, and the characters a unit loses.

"A unit at full health contains 10 characters (some player characters and some NPCs). When a
unit loses health, some of those characters are killed. Killed characters are selected at
random, weighted by 1/XP. NPC characters are considered to have a permanent XP = 1. If a unit is
killed, all characters within the unit are killed ... When a unit gains health, NPCs automatically
and immediately fill in the restored character spots. If the Captain is killed, a randomly
selected character, weighted by Fame, is promoted to Captain."
"""

from __future__ import annotations

import json
import math
from typing import Any

import polars as pl

from gmkit.core.dice import Dice
from gmkit.core.params import Params
from gmkit.core.steps import Event
from gmkit.core.tables import State
from gmkit.rulesets.jungle.rules import LIFE, UNITS
from gmkit.rulesets.jungle.edit import add_to, add_to_house, append, char, update
from gmkit.rulesets.jungle.effects import disband_unit
from gmkit.rulesets.jungle.gameturns import captain_name, names_in_use
from gmkit.rulesets.jungle.lifecycle import kill, set_captain
from gmkit.rulesets.jungle.state import character_row, frame, rows


NPC = "an NPC"


def crew(state: State, unit: str) -> list[dict[str, Any]]:
    """The living player characters of a unit, by name."""
    return sorted((c for c in rows(state, "characters") if c["alive"] and c["unit"] == unit),
                  key=lambda c: c["name"])


def loss_weights(xps: list[int], npcs: int, npc_xp: int) -> list[int]:
    """Integer weights proportional to 1/XP for each character, then for the NPCs together
    (``npcs`` of XP ``npc_xp``)."""
    values = [max(1, x) for x in xps] + [max(1, npc_xp)]
    scale = math.lcm(*values)
    return [scale // v for v in values[:-1]] + [scale // values[-1] * npcs]


def lose_health(state: State, unit: str, health: int, dice: Dice,
                rules: Params) -> tuple[State, list[Event]]:
    """The unit's health becomes ``health``: for each point lost one of its characters dies,
    drawn by 1/XP among its characters and NPCs (all of them when the unit is killed)."""
    u = next(x for x in rows(state, "units") if x["unit"] == unit)
    before = min(int(rules.unit_full_health), int(u["health"]))
    events: list[Event] = []
    if health >= before:
        state = update(state, "units", "unit", unit, health=health)
        if health > before:
            events.append(Event("unit", LIFE, f"{unit} heals to {health}; NPCs fill the "
                                "restored spots.", region=u["city"], data={"unit": unit}))
        return state, events
    npcs = max(0, before - len(crew(state, unit)))
    for i in range(before - health):
        mine = crew(state, unit)
        if not mine and npcs == 0:
            break
        if health == 0:
            victim = mine[0]["name"] if mine else NPC
        else:
            options = [c["name"] for c in mine] + [NPC]
            weights = loss_weights([c["xp"] for c in mine], npcs, int(rules.npc_xp))
            live = [(o, w) for o, w in zip(options, weights) if w > 0]
            victim = live[0][0] if len(live) == 1 else dice.choice(
                [o for o, _ in live], weights=[w for _, w in live], rule=LIFE,
                purpose=f"{unit} loses health: who dies (weighted by 1/XP)",
                key=f"unit/{unit}/{i + 1}")
        if victim == NPC:
            npcs -= 1
            continue
        state, more = kill(state, victim, f"falls with {unit}", dice, rules)
        events += more
    state = update(state, "units", "unit", unit, health=health)
    events.insert(0, Event("unit", LIFE, f"{unit} falls from health {before} to {health}.",
                           region=u["city"], data={"unit": unit, "health": health}))
    return state, events


def shared_gains(state: State, gains: list[dict[str, Any]]) -> tuple[State, list[Event]]:
    """"When a military unit gains XP, Fame or gold through any of its actions, all characters
    within the unit earn the same amount"; so do the characters of the General's unit whose
    combat bonus it had (a character's gold goes to his house)."""
    events: list[Event] = []
    for g in gains:
        units = [g["unit"]] + ([g["general"]] if g.get("general") else [])
        names: list[str] = []
        for unit in units:
            for c in crew(state, unit):
                state = add_to(state, c["name"], xp=int(g["xp"]), fame=int(g["fame"]))
                if g["gold"]:
                    state = add_to_house(state, c["house"], gold=int(g["gold"]))
                names.append(c["name"])
        events.append(Event("unit gains", LIFE, f"{' and '.join(units)} gain {g['xp']} XP, "
                            f"{g['fame']} Fame and {g['gold']} gold: "
                            f"{', '.join(names) or 'no character'} each.",
                            data={"unit": g["unit"], "characters": names}))
    return state, events


def unit_events(state: State, happened: list[dict[str, Any]], dice: Dice,
                rules: Params) -> tuple[State, list[Event]]:
    """"Settling a city, expending a Great Person, or using a work boat consumes the Captain of
    the unit. Any other characters within the unit are treated as if the unit had disbanded";
    "If a worker is captured, the player controlling the Captain of the capturing unit receives
    the new character" (a soldier, Captain of the worker); a settler or worker of ours the
    enemy captured (``lost``) or that was rescued."""
    events: list[Event] = []
    for h in happened:
        if h["kind"] in ("lost", "rescued"):
            state, more = (held if h["kind"] == "lost" else rescued)(state, h["unit"])
            events += more
            continue
        if h["kind"] == "consumed":
            u = next(x for x in rows(state, "units") if x["unit"] == h["unit"])
            captain = u["captain"]
            if captain is not None:
                state = set_captain(state, h["unit"], None)
                state, more = kill(state, captain, f"is consumed by {h['unit']}", dice, rules)
                events += more
            state, nearest = disband_unit(state, h["unit"], dice)
            events.append(Event("unit", UNITS, f"{h['unit']} is consumed with its Captain "
                                f"{captain or '(none)'}; its other characters settle in "
                                f"{nearest}.", data={"unit": h["unit"]}))
            continue
        by = next(x for x in rows(state, "units") if x["unit"] == h["by"])
        if by["captain"] is None:
            events.append(Event("unit", UNITS, f"{h['by']} captures {h['unit']}; with no "
                                "Captain, the GM gives its character.", data={"unit": h["unit"]}))
            continue
        house = char(state, by["captain"])["house"]
        name = f"Captain of {h['unit']}"
        if rules.new_units == "unit_and_captain":  # NEW UNITS: a new character of his own
            name = captain_name(names_in_use(state))
        state = append(state, "units", {
            "unit": h["unit"], "unit_type": "Worker", "military": False, "level": None,
            "health": int(rules.unit_full_health), "melee_strength": 0.0, "captain": None,
            "enlisted": 1, "standing_orders": "", "words": 0, "city": by["city"], "q": by["q"],
            "r": by["r"]})
        state = append(state, "characters", character_row(name, house, rules, unit=h["unit"],
                                                          may_act=False))
        state = set_captain(state, h["unit"], name)
        events.append(Event("unit", UNITS, f"{h['by']} captures the worker {h['unit']}: "
                            f"house {house} gains {name}.", house,
                            data={"unit": h["unit"], "character": name}))
    return state, events


#: The tables whose rows name characters, and the columns that do: a captive's rows are kept
#: aside with him, so nothing in the game refers to a character who is not in it.
NAMING = {"titles": ("character", "subject"), "policy_support": ("character",),
          "slaves": ("slave", "owner"), "tenants": ("tenant", "landlord"),
          "origins": ("character",), "projects": ("character",),
          "join_offers": ("offerer", "partner"), "picks": ("character",)}


def held(state: State, unit: str) -> tuple[State, list[Event]]:
    """"If a settler or worker is captured, all characters within the unit are removed from the
    game, but will be returned if the unit is later rescued": the unit and its living
    characters are kept aside (``captive_units``, ``captives``), with every row of another
    table that names them (``captive_rows``: their titles, bonds and choices)."""
    gone = state["characters"].filter(pl.col("alive") & (pl.col("unit") == unit))
    names = gone["name"].to_list()
    kept: list[dict[str, Any]] = []
    for table, columns in NAMING.items():
        df = state[table]
        theirs = pl.any_horizontal(pl.col(c).is_in(names) for c in columns)
        kept += [{"unit": unit, "from_table": table,
                  "kept_row": json.dumps(r, sort_keys=True)} for r in df.filter(theirs).to_dicts()]
        state = State(state.turn, {**state.tables, table: df.filter(~theirs)})
    state = state.replace(
        captive_rows=pl.concat([state["captive_rows"], frame(kept, "captive_rows")]),
        captive_units=pl.concat([state["captive_units"],
                                 state["units"].filter(pl.col("unit") == unit)]),
        units=state["units"].filter(pl.col("unit") != unit),
        captives=pl.concat([state["captives"], gone]),
        characters=state["characters"].filter(~pl.col("name").is_in(names)))
    return state, [Event("unit", LIFE, f"{unit} is captured by the enemy: "
                         f"{', '.join(names) or 'no character'} leave the game until it is "
                         "rescued.", data={"unit": unit, "characters": names})]


def rescued(state: State, unit: str) -> tuple[State, list[Event]]:
    """A captured settler or worker is rescued: it and its characters come back as they were
    (they may act in this session)."""
    back = state["captives"].filter(pl.col("unit") == unit).with_columns(
        may_act=pl.col("alive"))
    names = back["name"].to_list()
    rows_back = state["captive_rows"].filter(pl.col("unit") == unit)
    still = dict(state["captives"].filter(pl.col("unit") != unit).select("name", "unit")
                 .iter_rows())
    refiled: list[dict[str, Any]] = []  # rows that also name a character still held elsewhere
    for table, columns in NAMING.items():
        again = []
        for text in rows_back.filter(pl.col("from_table") == table)["kept_row"].to_list():
            row = json.loads(text)
            other = next((row[c] for c in columns if row.get(c) in still), None)
            if other is None:
                again.append(row)
            else:
                refiled.append({"unit": still[other], "from_table": table, "kept_row": text})
        if again:
            state = State(state.turn, {**state.tables,
                                       table: pl.concat([state[table], frame(again, table)])})
    state = state.replace(
        captive_rows=pl.concat([state["captive_rows"].filter(pl.col("unit") != unit),
                                frame(refiled, "captive_rows")]),
        units=pl.concat([state["units"], state["captive_units"].filter(pl.col("unit") == unit)]),
        captive_units=state["captive_units"].filter(pl.col("unit") != unit),
        characters=pl.concat([state["characters"], back]),
        captives=state["captives"].filter(pl.col("unit") != unit))
    return state, [Event("unit", LIFE, f"{unit} is rescued: "
                         f"{', '.join(names) or 'no character'} return to the game.",
                         data={"unit": unit, "characters": names})]


def apply_unit_figures(state: State, figures: list[dict[str, Any]], dice: Dice,
                       rules: Params) -> tuple[State, list[Event]]:
    """Each unit line the GM entered: its level and melee strength, and its health (with the
    deaths a loss brings)."""
    events: list[Event] = []
    for f in sorted(figures, key=lambda f: f["unit"]):
        changes = {k: f[k] for k in ("level", "melee_strength") if f.get(k) is not None}
        if changes:
            state = update(state, "units", "unit", f["unit"], **changes)
        if f.get("health") is not None:
            state, more = lose_health(state, f["unit"], int(f["health"]), dice, rules)
            events += more
    return state, events
