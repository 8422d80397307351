"""DETERMINING RESEARCH and DETERMINING PRODUCTION: the draws over the ten gameturns.

"Each gameturn, a technology is randomly selected from among the research actions ... weighted
... (Beakers)*(Wisdom). The selected character ... earns 1 point of wisdom. The selection uses up
one of the character's science beakers ... If all of the science beakers ... are used up, the
remaining selections are made randomly (unweighted)." Production is the same in each city, with
hammers and Craftsmanship. Without any action the GM (NPCs) chooses and no one gains.

The draws make a schedule the GM follows in the game; the completions he then enters credit the
character picked on the gameturn an item was finished: "Inventor of Technology X (era)",
"Builder of Building X (era)", or a new character, "Captain of Unit X".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import polars as pl

from gmkit.core.dice import Dice
from gmkit.core.params import Params
from gmkit.core.steps import Event
from gmkit.core.tables import State
from gmkit.rulesets.jungle.rules import (CAPTAIN_NAMES, CIVILIAN_TYPES, NEW_UNITS,
                                             PRODUCTION, RESEARCH)
from gmkit.rulesets.jungle.edit import append, char, update
from gmkit.rulesets.jungle.lifecycle import CAPTAIN, add_title, set_captain
from gmkit.rulesets.jungle.state import by_name, character_row, frame, rows

INVENTOR, BUILDER = "inventor_of", "builder_of"


@dataclass(frozen=True)
class Pick:
    """One gameturn's pick: who (None for the NPCs), what, and in which city (production)."""

    gameturn: int
    kind: str
    character: str | None
    item: str | None
    city: str | None = None


def draws(state: State, dice: Dice, rules: Params) -> tuple[State, list[Pick], list[Event]]:
    """Every gameturn's research pick and each city's production pick, in gameturn order."""
    chars = rows(state, "characters")
    who = by_name(chars, "name")
    projects = rows(state, "projects")
    picks: list[Pick] = []
    events: list[Event] = []
    groups: list[tuple[str, str | None, list[dict[str, str]]]] = [
        ("research", None, [p for p in projects if p["kind"] == "research"])]
    for city in sorted(state["cities"]["city"].to_list()):
        groups.append(("produce", city, [p for p in projects if p["kind"] == "produce"
                                         and p["city"] == city]))
    for t in range(1, int(rules.gameturns) + 1):
        for kind, city, mine in groups:
            mine = [p for p in mine if who[p["character"]]["alive"]]
            if not mine:
                picks.append(Pick(t, kind, None, None, city))
                continue
            stock, skill = ("beakers", "wisdom") if kind == "research" else ("hammers",
                                                                            "craftsmanship")
            weights = [who[p["character"]][stock] * who[p["character"]][skill] for p in mine]
            if sum(weights) == 0:
                weights = [1] * len(mine)
            labels = [f"{p['character']}: {p['item']}" for p in mine]
            rule = RESEARCH if kind == "research" else PRODUCTION
            where = f" in {city}" if city else ""
            got = dice.choice(labels, weights=weights, rule=rule,
                              purpose=f"gameturn {t}: the {kind} pick{where}",
                              key=f"{kind}/{city or 'empire'}/{t}")
            p = mine[labels.index(got)]
            me = who[p["character"]]
            me[skill] += 1
            me[stock] = max(0, me[stock] - 1)
            picks.append(Pick(t, kind, p["character"], p["item"], city))
            events.append(Event(kind, rule, f"Gameturn {t}: {p['character']} works on "
                                f"{p['item']}{where} (+1 {skill}).", me["house"],
                                data={"gameturn": t, "character": p["character"],
                                      "item": p["item"]}))
    return state.replace(characters=frame(chars, "characters")), picks, events


def captain_name(taken: set[str]) -> str:
    """NEW UNITS: a name of his own for a new unit's Captain, the first of
    :data:`CAPTAIN_NAMES` not in ``taken`` (with a numeral once every name is)."""
    for numeral in ("", " II", " III", " IV", " V", " VI", " VII", " VIII", " IX", " X"):
        for name in CAPTAIN_NAMES:
            if name + numeral not in taken:
                return name + numeral
    n = len(taken) + 1
    while f"Captain {n}" in taken:
        n += 1
    return f"Captain {n}"


def names_in_use(state: State) -> set[str]:
    """The names of the game's characters, with those kept aside as captives (who come back
    as they were, so no newcomer may take their names)."""
    out = set(state["characters"]["name"].to_list())
    if "captives" in state.tables and "name" in state["captives"].columns:
        out |= set(state["captives"]["name"].to_list())
    return out


def unit_type_of(item: str) -> str:
    """A new unit's type when the GM gives none: its name without a trailing number
    ('Jaguar Warriors 2' is of type 'Jaguar Warriors')."""
    return re.sub(r"\s*\d+$", "", item).strip() or item


def new_unit(state: State, c: dict[str, Any], who: str | None, rules: Params,
             figures: Mapping[str, dict[str, Any]]) -> tuple[State, str]:
    """NEW UNITS: the completed unit ``c`` becomes a unit of the game in its city, with the
    type, health, level and strength its line (or a figure line of the same post) gives, else
    full health, no level and strength 0; the character credited with it (``who``) gives his
    house a new soldier with a name of his own, Captain of the unit. The event's sentence."""
    item = str(c["item"])
    fig = {k: v for k, v in figures.get(item, {}).items() if v is not None}
    city = next(x for x in rows(state, "cities") if x["city"] == c["city"])
    kind = c.get("unit_type") or unit_type_of(item)

    def given(key: str, default: Any) -> Any:
        return fig.get(key, c.get(key) if c.get(key) is not None else default)

    state = append(state, "units", {
        "unit": item, "unit_type": kind, "military": kind.lower() not in CIVILIAN_TYPES,
        "level": given("level", None), "health": int(given("health", rules.unit_full_health)),
        "melee_strength": float(given("melee_strength", 0.0)), "captain": None,
        "enlisted": 0, "standing_orders": "", "words": 0, "city": c["city"],
        "q": city["q"], "r": city["r"]})
    if who is None:
        return state, (f"{item} ({kind}) is completed by the NPCs in {c['city']}; it has no "
                       "Captain until the GM gives one.")
    house = char(state, who)["house"]
    name = c.get("captain") or captain_name(names_in_use(state))
    state = append(state, "characters", character_row(name, house, rules, unit=item,
                                                      may_act=False))
    state = update(state, "units", "unit", item, enlisted=1)
    state = set_captain(state, item, name)
    return state, (f"{who} completes {item} ({kind}) in {c['city']}: house {house} gains "
                   f"{name}, a new soldier, Captain of {item}.")


def credit(state: State, picks: list[Pick], completions: pl.DataFrame, rules: Params,
           unit_figures: Mapping[str, dict[str, Any]] | None = None
           ) -> tuple[State, list[Event]]:
    """Titles (and new units with their Captains) for the items the GM entered as completed;
    ``unit_figures``: the figure lines of the same post for the units it completes."""
    events: list[Event] = []
    made = rules.new_units == "unit_and_captain"
    for c in completions.to_dicts():
        kind = "research" if c["kind"] == "tech" else "produce"
        if c["kind"] == "policy":
            continue
        who = next((p.character for p in picks if p.gameturn == c["gameturn"] and p.kind == kind
                    and (kind == "research" or p.city == c["city"])), None)
        if made and c["kind"] == "unit":
            state, text = new_unit(state, c, who, rules, unit_figures or {})
            events.append(Event("credit" if who else "npc", NEW_UNITS, text,
                                data={"character": who, "item": c["item"]}))
            continue
        if who is None:
            events.append(Event("npc", RESEARCH if kind == "research" else PRODUCTION,
                                f"{c['item']} is completed by the NPCs."))
            continue
        if c["kind"] == "tech":
            state = add_title(state, who, INVENTOR, c["item"], c["era"])
            text = f"{who} is Inventor of {c['item']} ({c['era']})."
        elif c["kind"] in ("building", "wonder"):
            state = add_title(state, who, BUILDER, c["item"], c["era"])
            text = f"{who} is Builder of {c['item']} ({c['era']})."
        else:
            house = char(state, who)["house"]
            name = f"Captain of {c['item']}"
            taken = set(state["characters"]["name"].to_list())
            i = 2
            while name in taken:
                name, i = f"Captain of {c['item']} {i}", i + 1
            state = append(state, "characters", character_row(name, house, rules,
                                                              unit=c["item"], may_act=False))
            state = add_title(state, name, CAPTAIN, c["item"])
            text = f"{who}'s house gains {name}, a new soldier."
        events.append(Event("credit", RESEARCH if kind == "research" else PRODUCTION, text,
                            data={"character": who, "item": c["item"]}))
    return state, events
