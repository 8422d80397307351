"""What each action (but attacks and sacrifices) does when its turn comes.

Each effect takes ``(state, action, dice, rules)`` and returns the new state and its events, or
raises :class:`Void` with the reason the action is not valid at the moment of resolution ("Actions
that are not valid at the moment of resolution will be considered void").
"""

from __future__ import annotations

from collections.abc import Callable

from gmkit.core.dice import Dice
from gmkit.core.params import Params
from gmkit.core.steps import Event
from gmkit.core.tables import State
import gmkit.rulesets.jungle.actions as A
from gmkit.rulesets.jungle.rules import ACTIONS, ORDERS, POLICIES, SPENDING
from gmkit.rulesets.jungle.rules import CITIZEN as CITIZEN_RULE
from gmkit.rulesets.jungle.rules import TLATOANI as TLATOANI_RULE
from gmkit.rulesets.jungle.edit import add_to, add_to_house, append, char, house, members, update
from gmkit.rulesets.jungle.lifecycle import (TENANT, add_title, end_tenancy, enslave,
                                             make_tlatoani, promote_captain, set_captain)
from gmkit.rulesets.jungle.orders import word_limit
from gmkit.rulesets.jungle.places import Places, hex_row, hex_distance, workable
from gmkit.rulesets.jungle.state import (CITIZEN, PEASANT, SOLDIER, SPECIALIST, TLATOANI,
                                         character_row, frame, landlord_of, owner_of, rows)

Result = tuple[State, list[Event]]


class Void(Exception):
    """An action not valid when its turn comes; the message is the reason."""


def _need(ok: bool, reason: str) -> None:
    if not ok:
        raise Void(reason)


def _ev(a: A.Action, text: str, rule: str = ACTIONS, **data: object) -> Event:
    return Event(a.keyword.lower(), rule, text, a.by, data={"character": a.who, **data})


def _house_gaining(state: State, a: A.Action) -> str:
    """The house that gets what an action gains: a slave obeying his owner's demand works for
    the owner's house."""
    return a.by or str(char(state, a.who)["house"])


def _settle(state: State, name: str, city: str, q: int | None, r: int | None, dice: Dice,
            key: str) -> State:
    """A character becomes a peasant on a hex of ``city`` (drawn when none is named); he leaves
    any land, unit and tenancy."""
    hexes = workable(state, city)
    _need(bool(hexes), f"{city} has no workable hex")
    if q is None or r is None:
        h = dice.choice([f"{x['q']},{x['r']}" for x in hexes], purpose=f"the hex {name} settles "
                        f"on in {city}", rule=ACTIONS, key=f"hex/{key}")
        q, r = (int(v) for v in h.split(","))
    _need(hex_row(state, city, q, r) is not None, f"{q},{r} is not a workable hex of {city}")
    state = _leave_land(state, name)
    me = char(state, name)
    if me["unit"]:
        units = {u["unit"]: u for u in rows(state, "units")}
        state = update(state, "units", "unit", me["unit"],
                       enlisted=max(0, units[me["unit"]]["enlisted"] - 1))
    state = update(state, "characters", "name", name, city=city, q=q, r=r, unit=None,
                   **{"class": PEASANT})
    return _tenancy(state, name)


def _leave_land(state: State, name: str) -> State:
    out = rows(state, "hexes")
    for h in out:
        if h["citizen"] == name:
            h["citizen"] = None
    return end_tenancy(state.replace(hexes=frame(out, "hexes")), name)


def _tenancy(state: State, name: str) -> State:
    """A peasant on a citizen's hex (or the Tlatoani's city hex) becomes his tenant."""
    me = char(state, name)
    if me["class"] != PEASANT or me["city"] is None:
        return state
    h = hex_row(state, me["city"], me["q"], me["r"])
    landlord = h["citizen"] if h else None
    if landlord is None:
        city = next(c for c in rows(state, "cities") if c["city"] == me["city"])
        if (city["q"], city["r"]) == (me["q"], me["r"]):
            landlord = city["tlatoani"]
    if landlord is None or landlord == name:
        return state
    state = append(state, "tenants", {"tenant": name, "landlord": landlord})
    return add_title(state, name, TENANT, landlord)


def toil(state: State, a: A.Action, dice: Dice, rules: Params) -> Result:
    """TOIL: "Only peasants may toil"; the hex's output goes to the house (a tenant's to the
    citizen owning the land)."""
    me = char(state, a.who)
    _need(me["class"] == PEASANT and me["city"] is not None, f"{a.who} is not a peasant on a hex")
    h = hex_row(state, me["city"], me["q"], me["r"])
    _need(h is not None, f"{a.who} does not live on a workable hex")
    assert h is not None
    landlord = landlord_of(state, a.who)
    gets = str(char(state, landlord)["house"]) if landlord else _house_gaining(state, a)
    state = add_to_house(state, gets, food=h["food"], gold=h["gold"])
    state = add_to(state, landlord or a.who, hammers=h["hammers"])
    return state, [_ev(a, f"{a.who} toils: {h['food']} food, {h['gold']} gold, {h['hammers']} "
                      f"hammers for {'his landlord ' + landlord if landlord else 'house ' + gets}.")]


def move(state: State, a: A.Move, dice: Dice, rules: Params) -> Result:
    """MOVE: "Peasants and Citizens may move to another workable hex tile within the same city"
    (a citizen's land moves with him; tenancy is lost)."""
    me = char(state, a.who)
    _need(me["class"] in (PEASANT, CITIZEN) and me["city"] is not None,
          f"{a.who} is a {me['class']}: only peasants and citizens move")
    h = hex_row(state, me["city"], a.q, a.r)
    _need(h is not None, f"{a.q},{a.r} is not a workable hex of {me['city']}")
    _need((me["q"], me["r"]) != (a.q, a.r), f"{a.who} already lives on {a.q},{a.r}")
    assert h is not None
    if me["class"] == CITIZEN:
        _need(h["citizen"] is None, f"{a.q},{a.r} is the land of citizen {h['citizen']}")
        state = _leave_land(state, a.who)
        state = update(state, "characters", "name", a.who, q=a.q, r=a.r)
        out = rows(state, "hexes")
        for x in out:
            if (x["city"], x["q"], x["r"]) == (me["city"], a.q, a.r):
                x["citizen"] = a.who
        state = state.replace(hexes=frame(out, "hexes"))
    else:
        state = end_tenancy(state, a.who)
        state = update(state, "characters", "name", a.who, q=a.q, r=a.r)
        state = _tenancy(state, a.who)
    return state, [_ev(a, f"{a.who} moves to {a.q},{a.r} in {me['city']}.")]


def travel(state: State, a: A.Travel, dice: Dice, rules: Params) -> Result:
    """TRAVEL: "Characters become a peasant in the destination city ... If the cities are not
    connected by trade routes, traveling ... requires both of a character's actions"."""
    here = Places(state).city_of(a.who)
    _need(here != a.city, f"{a.who} is in {a.city} already")
    routes: list[str] = next((c["trade_routes"] for c in rows(state, "cities")
                              if c["city"] == here), [])
    _need(a.both or a.city in (routes or []),
          f"{here} and {a.city} are not connected by a trade route: travel takes both actions")
    me = char(state, a.who)
    if me["class"] == TLATOANI:
        for c in rows(state, "cities"):
            if c["tlatoani"] == a.who:
                state = make_tlatoani(state, c["city"], None)
    state = _settle(state, a.who, a.city, a.q, a.r, dice, a.who)
    return state, [_ev(a, f"{a.who} travels to {a.city} and becomes a peasant there.")]


def enlist(state: State, a: A.Enlist, dice: Dice, rules: Params) -> Result:
    """ENLIST: "Characters may only enlist in a unit in which the number of currently enlisted
    characters is less than the unit's health" (the unit must be at the character's location)."""
    unit = next(u for u in rows(state, "units") if u["unit"] == a.unit)
    me = char(state, a.who)
    _need(me["unit"] != a.unit, f"{a.who} is in {a.unit} already")
    _need(unit["enlisted"] < unit["health"], f"{a.unit} is full: {unit['enlisted']} enlisted, "
          f"health {unit['health']}")
    places = Places(state)
    if me["unit"] is None:
        _need(unit["city"] is not None and unit["city"] == me["city"],
              f"{a.unit} is not in {me['city']}")
    else:
        here = places.units[me["unit"]]
        _need(hex_distance(here["q"], here["r"], unit["q"], unit["r"]) <= 2,
              f"{a.unit} is not within 2 hexes of {me['unit']}")
    old = me["unit"]
    state = _leave_land(state, a.who)
    if me["class"] == TLATOANI:  # a soldier rules no city (as one who travels away)
        for c in rows(state, "cities"):
            if c["tlatoani"] == a.who:
                state = make_tlatoani(state, c["city"], None)
    if old:
        state = update(state, "units", "unit", old, enlisted=max(0, places.units[old]["enlisted"]
                                                                 - 1))
    state = update(state, "units", "unit", a.unit, enlisted=unit["enlisted"] + 1)
    state = update(state, "characters", "name", a.who, unit=a.unit, city=None, q=None, r=None,
                   **{"class": SOLDIER})
    if old and places.units[old]["captain"] == a.who:
        state, _ = promote_captain(state, old, dice)
    return state, [_ev(a, f"{a.who} enlists in {a.unit}.")]


def order(state: State, a: A.Order, dice: Dice, rules: Params) -> Result:
    """ORDER / CONTROLLING UNITS: only the Captain; over the word limit the unit "will become
    confused and will fortify"; new orders discard the old."""
    unit = next(u for u in rows(state, "units") if u["unit"] == a.unit)
    _need(unit["captain"] == a.who, f"{a.who} is not the Captain of {a.unit}")
    limit = word_limit(unit["level"], a.both, rules)
    confused = a.words > limit
    state = update(state, "units", "unit", a.unit,
                   standing_orders="fortify" if confused else a.text, words=a.words)
    text = (f"{a.unit} is confused by {a.words} words (limit {limit}) and fortifies."
            if confused else f"{a.who} gives {a.unit} new orders ({a.words} of {limit} words).")
    return state, [Event("order", ORDERS, text, a.by, public=False,
                         data={"unit": a.unit, "orders": a.text, "confused": confused})]


def desert(state: State, a: A.Desert, dice: Dice, rules: Params) -> Result:
    """DESERT: "Upon deserting a character's Fame is reduced by half, rounded down"."""
    me = char(state, a.who)
    _need(me["unit"] is not None, f"{a.who} is not in a unit")
    unit = me["unit"]
    captain = next(u for u in rows(state, "units") if u["unit"] == unit)["captain"] == a.who
    state = _settle(state, a.who, a.city, a.q, a.r, dice, a.who)
    state = update(state, "characters", "name", a.who,
                   fame=me["fame"] // int(rules.desert_fame_divisor))
    if captain:
        state, _ = promote_captain(state, unit, dice)
    return state, [_ev(a, f"{a.who} deserts {unit}; his Fame falls to "
                      f"{me['fame'] // int(rules.desert_fame_divisor)}.")]


def retire(state: State, a: A.Retire, dice: Dice, rules: Params) -> Result:
    """RETIRE: only the Captain; "a bonus of 50% of their Fame"; he moves to any workable hex."""
    me = char(state, a.who)
    unit = me["unit"]
    _need(unit is not None and any(u["unit"] == unit and u["captain"] == a.who
                                   for u in rows(state, "units")),
          f"{a.who} is not the Captain of a unit")
    bonus = int(me["fame"] * float(rules.retire_fame_bonus))
    state = _settle(state, a.who, a.city, a.q, a.r, dice, a.who)
    state = update(state, "characters", "name", a.who, fame=me["fame"] + bonus)
    state = set_captain(state, unit, None)
    state, more = promote_captain(state, unit, dice)
    return state, [_ev(a, f"{a.who} retires from {unit} with {bonus} Fame.")] + more


def disband(state: State, a: A.Disband, dice: Dice, rules: Params) -> Result:
    """DISBAND: "Characters from the disbanded unit become peasants on randomly selected hexes
    within the nearest city"."""
    me = char(state, a.who)
    unit = a.unit or me["unit"]
    row = next((u for u in rows(state, "units") if u["unit"] == unit), None)
    _need(row is not None and row["captain"] == a.who, f"{a.who} is not the Captain of {unit}")
    state, nearest = disband_unit(state, unit, dice)
    return state, [_ev(a, f"{a.who} disbands {unit}; its characters settle in {nearest}.")]


def disband_unit(state: State, unit: str, dice: Dice) -> tuple[State, str]:
    """A unit is gone: its living characters become peasants on drawn hexes of the nearest
    city (returned)."""
    row = next(u for u in rows(state, "units") if u["unit"] == unit)
    cities = rows(state, "cities")
    _need(bool(cities), "there is no city to go to")
    nearest = min(cities, key=lambda c: (hex_distance(c["q"], c["r"], row["q"], row["r"]),
                                         c["city"]))["city"]
    crew = [c["name"] for c in rows(state, "characters") if c["unit"] == unit and c["alive"]]
    for name in crew:
        state = _settle(state, name, nearest, None, None, dice, f"{unit}/{name}")
    state = set_captain(state, unit, None)
    state = state.replace(units=state["units"].filter(state["units"]["unit"] != unit))
    return state, nearest


def evict(state: State, a: A.Evict, dice: Dice, rules: Params) -> Result:
    """EVICT: "A citizen may evict a tenant from his land, forcing the tenant to move to another
    tile of the citizen's choice within the city"."""
    _need(landlord_of(state, a.tenant) == a.who, f"{a.tenant} is not a tenant of {a.who}")
    t = char(state, a.tenant)
    _need(hex_row(state, t["city"], a.q, a.r) is not None,
          f"{a.q},{a.r} is not a workable hex of {t['city']}")
    _need((t["q"], t["r"]) != (a.q, a.r), f"{a.tenant} lives on {a.q},{a.r} already")
    state = end_tenancy(state, a.tenant)
    state = update(state, "characters", "name", a.tenant, q=a.q, r=a.r)
    return _tenancy(state, a.tenant), [_ev(a, f"{a.who} evicts {a.tenant} to {a.q},{a.r}.")]


def _newcomer(state: State, a: A.Action, name: str, rules: Params) -> State:
    me = char(state, a.who)
    taken = set(state["characters"]["name"].to_list())
    base = name or f"{a.who}'s heir"
    new, i = base, 2
    while new in taken:
        new, i = f"{base} {i}", i + 1
    if me["unit"] is not None:
        row = character_row(new, me["house"], rules, unit=me["unit"], may_act=False)
        n = next(u for u in rows(state, "units") if u["unit"] == me["unit"])["enlisted"]
        state = update(state, "units", "unit", me["unit"], enlisted=n + 1)
    else:
        row = character_row(new, me["house"], rules, city=me["city"], q=me["q"], r=me["r"],
                            may_act=False)
    state = append(state, "characters", row)
    return _tenancy(state, new)


def procreate(state: State, a: A.Procreate, dice: Dice, rules: Params) -> Result:
    """PROCREATE: within Aztec territory; food (Current Characters + 1)^2; a new peasant on the
    same hex who may not act until the next council session."""
    me = char(state, a.who)
    _need(Places(state).city_of(a.who) is not None, f"{a.who} is not within Aztec territory")
    cost = (len(members(state, me["house"])) + 1) ** 2
    h = house(state, me["house"])
    _need(h["food"] >= cost, f"a child costs {cost} food; house {h['house']} has {h['food']}")
    state = add_to_house(state, me["house"], food=-cost)
    return _newcomer(state, a, a.child, rules), [_ev(a, f"{a.who} raises a child for {cost} "
                                                        "food.", cost=cost)]


def recruit(state: State, a: A.Recruit, dice: Dice, rules: Params) -> Result:
    """RECRUIT: Fame (Current Characters + 1)^2 from the character; a new peasant on his hex."""
    me = char(state, a.who)
    cost = (len(members(state, me["house"])) + 1) ** 2
    _need(me["fame"] >= cost, f"recruiting costs {cost} Fame; {a.who} has {me['fame']}")
    state = add_to(state, a.who, fame=-cost)
    return _newcomer(state, a, a.recruit, rules), [_ev(a, f"{a.who} recruits a character for "
                                                          f"{cost} Fame.", cost=cost)]


def defend(state: State, a: A.Action, dice: Dice, rules: Params) -> Result:
    """DEFEND: "attributes are doubled for the purpose of defense strength" from the moment the
    action resolves; both actions double twice."""
    me = char(state, a.who)
    times = 2 if a.both else 1
    state = update(state, "characters", "name", a.who, defending=me["defending"] + times)
    return state, [_ev(a, f"{a.who} prepares to defend.")]


def _tlatoani_city(state: State, who: str) -> dict[str, object]:
    city = next((c for c in rows(state, "cities") if c["tlatoani"] == who), None)
    _need(city is not None, f"{who} is not a Tlatoani")
    assert city is not None
    return city


def propose(state: State, a: A.Propose, dice: Dice, rules: Params) -> Result:
    """PROPOSE: only Tlatoani; the GM makes the proposal in the game."""
    city = _tlatoani_city(state, a.who)
    return state, [_ev(a, f"{a.who}, Tlatoani of {city['city']}, proposes: {a.text}",
                       TLATOANI_RULE, proposal=a.text)]


def spend(state: State, a: A.Spend, dice: Dice, rules: Params) -> Result:
    """SPEND: "The limit to how much gold a Tlatoani may spend in a single council session is
    equal to (Total Gold)*(Citizen's in City)/(Total Aztec Citizens)": one limit for the whole
    session, from the gold at its start (the treasury now with what the cities spent this
    session given back), so spending it in two actions allows the same total as at once; with
    ``spend_limit = each_spend`` the Total Gold is the treasury at the moment of each spend."""
    city = _tlatoani_city(state, a.who)
    total_gold = int(state["session"]["gold"][0])
    cities = rows(state, "cities")
    citizens = sum(int(c["citizens"]) for c in cities)
    base = total_gold if rules.spend_limit == "each_spend" else \
        total_gold + sum(int(c["spent"]) for c in cities)
    limit = base * int(city["citizens"]) // max(1, citizens)  # type: ignore[call-overload]
    spent = int(city["spent"])  # type: ignore[call-overload]
    _need(spent + a.gold <= limit, f"{city['city']} may spend {limit} gold this session; "
          f"{spent} spent already")
    state = update(state, "cities", "city", city["city"], spent=spent + a.gold)
    state = update(state, "session", "session", int(state["session"]["session"][0]),
                   gold=total_gold - a.gold)
    return state, [_ev(a, f"{a.who} spends {a.gold} gold on {a.text}.", SPENDING, gold=a.gold)]


def research(state: State, a: A.Research, dice: Dice, rules: Params) -> Result:
    """RESEARCH X: "Any character with one or more science beakers" (drawn over the gameturns)."""
    me = char(state, a.who)
    _need(me["beakers"] >= 1, f"{a.who} has no science beakers")
    state = append(state, "projects", {"character": a.who, "kind": "research", "item": a.tech,
                                       "city": None})
    return state, [_ev(a, f"{a.who} researches {a.tech}.")]


def produce(state: State, a: A.Produce, dice: Dice, rules: Params) -> Result:
    """PRODUCE X: "Any character with one or more production hammers ... within their city"."""
    me = char(state, a.who)
    _need(me["hammers"] >= 1, f"{a.who} has no production hammers")
    city = Places(state).city_of(a.who)
    _need(city is not None, f"{a.who} is not in a city")
    state = append(state, "projects", {"character": a.who, "kind": "produce", "item": a.item,
                                       "city": city})
    return state, [_ev(a, f"{a.who} works to produce {a.item} in {city}.")]


def give(state: State, a: A.Give, dice: Dice, rules: Params) -> Result:
    """GIVE X: Fame, food, gold, a slave, a captaincy, land or a city, to a character in the same
    location."""
    _need(char(state, a.to)["alive"], f"{a.to} is dead")
    _need(Places(state).same(a.who, a.to), f"{a.to} is not in the same location as {a.who}")
    me, them = char(state, a.who), char(state, a.to)
    if a.thing == "fame":
        _need(me["fame"] >= a.amount, f"{a.who} has only {me['fame']} Fame")
        state = add_to(add_to(state, a.who, fame=-a.amount), a.to, fame=a.amount)
    elif a.thing in ("food", "gold"):
        h = house(state, me["house"])
        _need(h[a.thing] >= a.amount, f"house {h['house']} has only {h[a.thing]} {a.thing}")
        state = add_to_house(state, me["house"], **{a.thing: -a.amount})
        state = add_to_house(state, them["house"], **{a.thing: a.amount})
    elif a.thing == "slave":
        _need(owner_of(state, a.subject or "") == a.who, f"{a.subject} is not {a.who}'s slave")
        state = enslave(state, a.subject or "", a.to)
    elif a.thing == "captaincy":
        _need(any(u["unit"] == a.subject and u["captain"] == a.who for u in rows(state, "units")),
              f"{a.who} is not the Captain of {a.subject}")
        _need(them["unit"] == a.subject, f"{a.to} is not in {a.subject}")
        state = set_captain(state, a.subject or "", a.to)
    elif a.thing == "land":
        _need(me["class"] == CITIZEN, f"{a.who} is not a citizen with land")
        _need(them["city"] == me["city"] and them["unit"] is None, f"{a.to} is not in the city")
        state = _give_land(state, a.who, a.to)
    else:
        city = a.subject or ""
        _need(any(c["city"] == city and c["tlatoani"] == a.who for c in rows(state, "cities")),
              f"{a.who} does not rule {city}")
        _need(them["city"] == city and them["unit"] is None, f"{a.to} is not in {city}")
        state = update(state, "characters", "name", a.who, **{"class": PEASANT})
        state = make_tlatoani(state, city, a.to)
        state = _tenancy(state, a.who)
    what = f"{a.amount} {a.thing}" if a.amount else f"{a.thing} {a.subject or ''}".strip()
    return state, [_ev(a, f"{a.who} gives {what} to {a.to}.")]


def _give_land(state: State, giver: str, to: str) -> State:
    """Citizenship over the giver's tile passes to ``to``: he becomes a citizen on it, the giver a
    peasant (the new citizen's tenant)."""
    g = char(state, giver)
    state = _leave_land(state, to)
    state = _leave_land(state, giver)
    out = rows(state, "hexes")
    for h in out:
        if (h["city"], h["q"], h["r"]) == (g["city"], g["q"], g["r"]):
            h["citizen"] = to
    state = state.replace(hexes=frame(out, "hexes"))
    state = update(state, "characters", "name", to, q=g["q"], r=g["r"], **{"class": CITIZEN})
    state = update(state, "characters", "name", giver, **{"class": PEASANT})
    return _tenancy(state, giver)


def train(state: State, a: A.Train, dice: Dice, rules: Params) -> Result:
    """TRAIN: +1 to an attribute for (Current Level + 1)^2 gold from the house."""
    me = char(state, a.who)
    cost = (me[a.attribute] + 1) ** 2
    h = house(state, me["house"])
    _need(h["gold"] >= cost, f"training {a.attribute} costs {cost} gold; house {h['house']} has "
          f"{h['gold']}")
    state = add_to_house(state, me["house"], gold=-cost)
    return add_to(state, a.who, **{a.attribute: 1}), [_ev(a, f"{a.who} trains {a.attribute} for "
                                                             f"{cost} gold.", cost=cost)]


def purchase(state: State, a: A.Purchase, dice: Dice, rules: Params) -> Result:
    """PURCHASE: X beakers, hammers or food at 3X gold."""
    me = char(state, a.who)
    cost = int(rules.purchase_cost) * a.amount
    h = house(state, me["house"])
    _need(a.amount > 0, "buy at least 1")
    _need(h["gold"] >= cost, f"{a.amount} {a.what} cost {cost} gold; house {h['house']} has "
          f"{h['gold']}")
    state = add_to_house(state, me["house"], gold=-cost)
    if a.what == "food":
        state = add_to_house(state, me["house"], food=a.amount)
    else:
        state = add_to(state, a.who, **{a.what: a.amount})
    return state, [_ev(a, f"{a.who} buys {a.amount} {a.what} for {cost} gold.")]


def head_of(state: State, house_name: str) -> str | None:
    """The highest-Fame character of a house (None when tied at the top or when it has none)."""
    ms = sorted(members(state, house_name), key=lambda c: -c["fame"])
    if not ms or (len(ms) > 1 and ms[0]["fame"] == ms[1]["fame"]):
        return ms[0]["name"] if len(ms) == 1 else None
    return str(ms[0]["name"])


def join_houses(state: State, a: A.JoinHouses, dice: Dice, rules: Params,
                pending: set[tuple[str, str]]) -> Result:
    """JOIN HOUSES: "a Join House action is required by the highest Fame character of BOTH
    houses"; the houses merge when the second of the two resolves: the first to offer keeps its
    name, the other's characters, food and gold join it (each character's house of origin is
    kept for a later split) and its player orders the joined house's characters."""
    me, other = char(state, a.who), char(state, a.other)
    _need(me["house"] != other["house"], f"{a.other} is of house {me['house']} already")
    _need(head_of(state, me["house"]) == a.who,
          f"{a.who} is not the highest-Fame character of house {me['house']}")
    if (a.other, a.who) not in pending:
        pending.add((a.who, a.other))
        return state, [_ev(a, f"{a.who} offers to join houses with {a.other}'s house.")]
    pending.discard((a.other, a.who))
    keep, gone = house(state, other["house"]), house(state, me["house"])
    moved = [c["name"] for c in rows(state, "characters") if c["house"] == gone["house"]]
    state = append(state, "origins", *({"character": n, "house": gone["house"]} for n in moved))
    state = update(state, "characters", "house", gone["house"], house=keep["house"])
    state = add_to_house(state, keep["house"], food=gone["food"], gold=gone["gold"])
    state = update(state, "houses", "house", gone["house"], food=0, gold=0,
                   joined_to=keep["house"])
    return state, [_ev(a, f"Houses {keep['house']} and {gone['house']} are joined.")]


def split_houses(state: State, a: A.Action, dice: Dice, rules: Params) -> Result:
    """SPLIT HOUSES: "a Split House action is required by the highest Fame character of either
    house. The leaving house takes with it (Random Number) percent of the house's Food and Gold
    stores" (rounded down); its characters go back to it. The leaving house is the splitter's
    own house of origin, or, when the head of the house they joined splits, the one house
    joined into it."""
    me = char(state, a.who)
    here = str(me["house"])
    origins = {o["character"]: o["house"] for o in rows(state, "origins")}
    joined = sorted(h["house"] for h in rows(state, "houses") if h["joined_to"] == here)
    _need(bool(joined), f"house {here} is not a joined house")
    if a.who in origins:
        leaving = origins[a.who]
        mine = [c for c in members(state, here) if origins.get(c["name"]) == leaving]
        _need(max(c["fame"] for c in mine) == me["fame"],
              f"{a.who} is not the highest-Fame character of house {leaving}")
    else:
        _need(head_of(state, here) == a.who,
              f"{a.who} is not the highest-Fame character of house {here}")
        _need(len(joined) == 1, f"houses {', '.join(joined)} were joined into {here}: the "
              "head of the leaving one splits")
        leaving = joined[0]
    u = dice.uniform(purpose=f"share of house {here}'s food and gold house {leaving} takes",
                     rule=ACTIONS, key=f"split/{here}")
    stores = house(state, here)
    food, gold = int(stores["food"] * u), int(stores["gold"] * u)
    back = [n for n, h in origins.items() if h == leaving]
    for n in back:
        state = update(state, "characters", "name", n, house=leaving)
    state = state.replace(origins=frame([o for o in rows(state, "origins")
                                         if o["house"] != leaving], "origins"))
    state = add_to_house(state, here, food=-food, gold=-gold)
    state = update(state, "houses", "house", leaving, food=food, gold=gold, joined_to=None)
    return state, [_ev(a, f"House {leaving} splits from house {here}, taking {u:.0%} of its "
                      f"stores: {food} food and {gold} gold.", share=u, food=food, gold=gold)]


def annex(state: State, a: A.Action, dice: Dice, rules: Params) -> Result:
    """ANNEX: "A citizen in a puppet city may annex the city, becoming Tlatoani"."""
    me = char(state, a.who)
    _need(me["class"] in (CITIZEN, SPECIALIST), f"{a.who} is not a citizen")
    city = next((c for c in rows(state, "cities") if c["city"] == me["city"]), None)
    _need(city is not None and city["puppet"], f"{me['city']} is not a puppet city")
    state = update(state, "cities", "city", me["city"], puppet=False)
    return make_tlatoani(state, me["city"], a.who), [
        _ev(a, f"{a.who} annexes {me['city']} and becomes its Tlatoani.", CITIZEN_RULE)]


def support(state: State, a: A.Support, dice: Dice, rules: Params) -> Result:
    """DETERMINING SOCIAL POLICIES: spend Fame in support of a policy."""
    me = char(state, a.who)
    _need(0 < a.fame <= me["fame"], f"{a.who} has {me['fame']} Fame to spend")
    state = add_to(state, a.who, fame=-a.fame)
    state = append(state, "policy_support", {"character": a.who, "policy": a.policy,
                                             "fame": a.fame})
    return state, [_ev(a, f"{a.who} spends {a.fame} Fame in support of {a.policy}.", POLICIES)]


EFFECTS: dict[type[A.Action], Callable[..., Result]] = {
    A.Toil: toil, A.Move: move, A.Travel: travel, A.Enlist: enlist, A.Order: order,
    A.Desert: desert, A.Retire: retire, A.Disband: disband, A.Evict: evict,
    A.Procreate: procreate, A.Recruit: recruit, A.Defend: defend, A.Propose: propose,
    A.Spend: spend, A.Research: research, A.Produce: produce, A.Give: give, A.Train: train,
    A.Purchase: purchase, A.SplitHouses: split_houses, A.Annex: annex, A.Support: support,
}
