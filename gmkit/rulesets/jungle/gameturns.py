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

from dataclasses import dataclass

import polars as pl

from gmkit.core.dice import Dice
from gmkit.core.params import Params
from gmkit.core.steps import Event
from gmkit.core.tables import State
from gmkit.rulesets.jungle.constants import PRODUCTION, RESEARCH
from gmkit.rulesets.jungle.edit import append, char
from gmkit.rulesets.jungle.lifecycle import CAPTAIN, add_title
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


def credit(state: State, picks: list[Pick], completions: pl.DataFrame, rules: Params
           ) -> tuple[State, list[Event]]:
    """Titles (and new Captains) for the items the GM entered as completed."""
    events: list[Event] = []
    for c in completions.to_dicts():
        kind = "research" if c["kind"] == "tech" else "produce"
        if c["kind"] == "policy":
            continue
        who = next((p.character for p in picks if p.gameturn == c["gameturn"] and p.kind == kind
                    and (kind == "research" or p.city == c["city"])), None)
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
