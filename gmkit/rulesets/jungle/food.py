"""FOOD: what each character eats at the end of a council session, who goes short, and starving.

"The amount of food a character requires is equal to sqrt((XP+Fame)/10), rounded up." Soldiers
get a ration of 1 food and specialists 3 from the Aztec people; the house pays the rest. When a
house cannot feed everyone, randomly drawn characters go short and lose
``XP x (Food Short)/(Food Required) x 1.5 x Random Number``; at 0 XP they starve to death.
When a city starves in the Civilization game, a citizen drawn by 1/Fame is demoted to peasant.
"""

from __future__ import annotations

import math
from typing import Any

from gmkit.core.dice import Dice
from gmkit.core.params import Params
from gmkit.core.steps import Event
from gmkit.core.tables import State
from gmkit.rulesets.jungle.attack import round_loss
from gmkit.rulesets.jungle.rules import CITIZEN as CITIZEN_RULE
from gmkit.rulesets.jungle.rules import FOOD
from gmkit.rulesets.jungle.lifecycle import kill
from gmkit.rulesets.jungle.picks import by_inverse
from gmkit.rulesets.jungle.state import (CITIZEN, PEASANT, SOLDIER, SPECIALIST, by_name, frame,
                                         rows)


def food_required(xp: int, fame: int, rules: Params) -> int:
    """ceil(sqrt((XP + Fame) / 10)), exactly: the least n with 10 n^2 >= XP + Fame."""
    total, div = max(0, xp + fame), int(rules.food_divisor)
    n = math.isqrt(total // div)
    while div * n * n < total:
        n += 1
    return n


def ration(klass: str, rules: Params) -> int:
    """Food the Aztec people give a character of this class (soldier 1, specialist 3)."""
    if klass == SOLDIER:
        return int(rules.soldier_ration)
    if klass == SPECIALIST and rules.specialist_food == "ration":
        return int(rules.specialist_ration)
    return 0


def house_need(ch: dict[str, Any], rules: Params) -> int:
    """The food a character needs from the house: the requirement less the ration."""
    return max(0, food_required(ch["xp"], ch["fame"], rules) - ration(ch["class"], rules))


def shortages(names: list[str], needs: dict[str, int], food: int, dice: Dice, rules: Params,
              house: str) -> dict[str, int]:
    """How much food each character goes short when the house holds ``food`` (drawn at random
    by ``shortage_draw``)."""
    short = {n: 0 for n in names}
    if sum(needs[n] for n in names) <= food:
        return short
    if rules.shortage_draw == "per_food":
        owed = dict(needs)
        for i in range(sum(needs[n] for n in names) - food):
            who = dice.choice(names, weights=[owed[n] for n in names],
                              purpose=f"house {house}: who goes without food #{i + 1}",
                              rule=FOOD, key=f"short/{house}/{i + 1}")
            owed[who] -= 1
            short[who] += 1
        return short
    order = dice.shuffle(names, purpose=f"house {house}: the order its characters are fed",
                         rule=FOOD, key=f"feed/{house}")
    left = food
    for n in order:
        fed = min(left, needs[n])
        left -= fed
        short[n] = needs[n] - fed
    return short


def eat(state: State, dice: Dice, rules: Params) -> tuple[State, list[Event]]:
    """The Evening: every house feeds its characters; the short lose XP and may starve."""
    houses = rows(state, "houses")
    chars = rows(state, "characters")
    events: list[Event] = []
    starved: list[str] = []
    for h in sorted(houses, key=lambda h: h["house"]):
        mine = sorted((c for c in chars if c["house"] == h["house"] and c["alive"]),
                      key=lambda c: c["name"])
        if not mine:
            continue
        needs = {c["name"]: house_need(c, rules) for c in mine}
        total = sum(needs.values())
        short = shortages([c["name"] for c in mine], needs, h["food"], dice, rules, h["house"])
        before = h["food"]
        h["food"] = max(0, before - total)
        events.append(Event("eat", FOOD, f"House {h['house']} needs {total} food from its store "
                            f"of {before}; {sum(short.values())} short.", h["player"],
                            data={"need": total, "store": before,
                                  "short": sum(short.values())},
                            public=rules.store_report == "public"))
        for c in mine:
            s = short[c["name"]]
            if not s:
                continue
            required = food_required(c["xp"], c["fame"], rules)
            u = dice.uniform(purpose=f"{c['name']} starving ({s} of {required} food short)",
                             rule=FOOD, key=f"starve/{c['name']}")
            loss = min(c["xp"], round_loss(c["xp"] * s / required
                                           * float(rules.starvation_factor) * u, rules))
            c["xp"] -= loss
            events.append(Event("starve", FOOD, f"{c['name']} goes {s} food short of {required} "
                                f"and loses {loss} XP.", h["player"],
                                data={"character": c["name"], "short": s, "loss": loss}))
            if c["xp"] <= 0:
                starved.append(c["name"])
    state = state.replace(houses=frame(houses, "houses"), characters=frame(chars, "characters"))
    for name in starved:
        state, more = kill(state, name, "starved to death", dice, rules)
        events.extend(more)
    return state, events


def demote_starved_citizens(state: State, city: str, count: int, dice: Dice,
                            rules: Params) -> tuple[State, list[Event]]:
    """"If a citizen starves to death in game, a random citizen is demoted to peasant, weighted
    by 1/Fame": ``count`` citizens of ``city`` (citizens on land and specialists) are drawn."""
    events: list[Event] = []
    for i in range(count):
        chars = rows(state, "characters")
        pool = sorted((c for c in chars if c["alive"] and c["city"] == city
                       and c["class"] in (CITIZEN, SPECIALIST)), key=lambda c: c["name"])
        if not pool:
            break
        who = by_inverse([c["name"] for c in pool], [c["fame"] for c in pool], dice, rules,
                         purpose=f"{city} starves: the citizen demoted (weighted by 1/Fame)",
                         rule=CITIZEN_RULE, key=f"demote/{city}/{i + 1}")
        state, more = demote(state, who)
        events.extend(more)
    return state, events


def demote(state: State, name: str) -> tuple[State, list[Event]]:
    """A citizen or specialist becomes a peasant where he lives; his land has no citizen and
    its tenants are tenants no more."""
    chars = rows(state, "characters")
    me = by_name(chars, "name")[name]
    me["class"] = PEASANT
    hexes = rows(state, "hexes")
    for h in hexes:
        if h["citizen"] == name:
            h["citizen"] = None
    tenants = [t for t in rows(state, "tenants") if t["landlord"] != name]
    return (state.replace(characters=frame(chars, "characters"), hexes=frame(hexes, "hexes"),
                          tenants=frame(tenants, "tenants")),
            [Event("demote", CITIZEN_RULE, f"{name} is demoted to peasant.", me["house"],
                   me["city"], data={"character": name})])

