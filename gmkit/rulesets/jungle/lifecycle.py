"""Death and its consequences, and the changes of rank that other rules share.

"A character with 0 XP immediately dies." A dead character stays in the table (``alive`` False)
so the history can name him, but leaves his unit, his land and his bonds: his slaves are free ("If
a slave's owner is killed ... the title of slave is removed"), his tenants are tenants no more, a
dead Captain is replaced by a unit member drawn by Fame, a dead Tlatoani by a character of the
city drawn by Fame.
"""

from __future__ import annotations

from gmkit.core.dice import Dice
from gmkit.core.params import Params
from gmkit.core.steps import Event
from gmkit.core.tables import State
from gmkit.rulesets.jungle.rules import ATTRIBUTES, LIFE, SLAVES, TLATOANI
from gmkit.rulesets.jungle.picks import by_fame
from gmkit.rulesets.jungle.state import by_name, frame, rows

CAPTAIN = "captain_of"
SLAVE = "slave_of"
OWNER = "owner_of"
TENANT = "tenant_of"


def drop_titles(state: State, *, character: str | None = None, title: str,
                subject: str | None = None) -> State:
    """Remove the titles of one kind that match a character and/or a subject."""
    kept = [t for t in rows(state, "titles")
            if not (t["title"] == title and (character is None or t["character"] == character)
                    and (subject is None or t["subject"] == subject))]
    return state.replace(titles=frame(kept, "titles"))


def add_title(state: State, character: str, title: str, subject: str, n: int | None = None,
              *, add: bool = False) -> State:
    """Give a title; with ``add`` an existing one of the same subject has ``n`` added to its N
    ("Priest of God X (N1+N2)"), otherwise it is replaced."""
    titles = rows(state, "titles")
    for t in titles:
        if t["character"] == character and t["title"] == title and t["subject"] == subject:
            t["value"] = (t["value"] or 0) + (n or 0) if add else n
            return state.replace(titles=frame(titles, "titles"))
    titles.append({"character": character, "title": title, "subject": subject, "value": n})
    return state.replace(titles=frame(titles, "titles"))


def free_slave(state: State, slave: str) -> State:
    """The title of slave is removed (and the owner's title of Owner)."""
    state = state.replace(slaves=frame([s for s in rows(state, "slaves") if s["slave"] != slave],
                                       "slaves"))
    state = drop_titles(state, character=slave, title=SLAVE)
    return drop_titles(state, title=OWNER, subject=slave)


def enslave(state: State, slave: str, owner: str) -> State:
    """A character captured becomes the slave of ``owner`` (a former owner loses him)."""
    state = free_slave(state, slave)
    state = state.replace(slaves=frame(rows(state, "slaves") + [{"slave": slave, "owner": owner}],
                                       "slaves"))
    state = add_title(state, slave, SLAVE, owner)
    return add_title(state, owner, OWNER, slave)


def end_tenancy(state: State, name: str) -> State:
    """``name`` is no longer anyone's tenant nor anyone's landlord."""
    kept = [t for t in rows(state, "tenants") if name not in (t["tenant"], t["landlord"])]
    state = state.replace(tenants=frame(kept, "tenants"))
    state = drop_titles(state, character=name, title=TENANT)
    return drop_titles(state, title=TENANT, subject=name)


def set_captain(state: State, unit: str, captain: str | None) -> State:
    """The Captain of a unit changes (the title moves with the captaincy)."""
    state = drop_titles(state, title=CAPTAIN, subject=unit)
    units = rows(state, "units")
    for u in units:
        if u["unit"] == unit:
            u["captain"] = captain
    state = state.replace(units=frame(units, "units"))
    return state if captain is None else add_title(state, captain, CAPTAIN, unit)


def promote_captain(state: State, unit: str, dice: Dice) -> tuple[State, list[Event]]:
    """"If the Captain is killed, a randomly selected character, weighted by Fame, is promoted
    to Captain" (a unit of NPCs only has no Captain and is controlled by the GM)."""
    crew = sorted((c for c in rows(state, "characters") if c["alive"] and c["unit"] == unit),
                  key=lambda c: c["name"])
    if not crew:
        return set_captain(state, unit, None), []
    who = by_fame([c["name"] for c in crew], [c["fame"] for c in crew], dice,
                  purpose=f"the new Captain of {unit} (weighted by Fame)", rule=LIFE,
                  key=f"captain/{unit}")
    return set_captain(state, unit, who), [Event("captain", LIFE, f"{who} is promoted to "
                                                 f"Captain of {unit}.", data={"unit": unit,
                                                                              "captain": who})]


def crown(state: State, city: str, dice: Dice, *, exclude: str | None = None,
          key: str = "") -> tuple[State, str | None, list[Event]]:
    """"New Tlatoani are chosen at random, weighted by Fame" among the living free characters
    of the city (not in a unit)."""
    pool = sorted((c for c in rows(state, "characters") if c["alive"] and c["city"] == city
                   and c["unit"] is None and c["name"] != exclude),
                  key=lambda c: c["name"])
    slaves = set(state["slaves"]["slave"].to_list())
    pool = [c for c in pool if c["name"] not in slaves] or pool
    if not pool:
        return state, None, []
    who = by_fame([c["name"] for c in pool], [c["fame"] for c in pool], dice,
                  purpose=f"the new Tlatoani of {city} (weighted by Fame)", rule=TLATOANI,
                  key=f"tlatoani/{city}{key}")
    return (make_tlatoani(state, city, who), who,
            [Event("tlatoani", TLATOANI, f"{who} becomes Tlatoani of {city}.", region=city,
                   data={"character": who})])


def make_tlatoani(state: State, city: str, who: str | None) -> State:
    """``who`` rules ``city`` (leaving any land he held as a citizen)."""
    chars = rows(state, "characters")
    cities = rows(state, "cities")
    for c in cities:
        if c["city"] == city:
            c["tlatoani"] = who
    if who is not None:
        me = by_name(chars, "name")[who]
        me["class"], me["city"] = "tlatoani", city
    hexes = rows(state, "hexes")
    for h in hexes:
        if h["citizen"] == who and who is not None:
            h["citizen"] = None
    state = state.replace(characters=frame(chars, "characters"), cities=frame(cities, "cities"),
                          hexes=frame(hexes, "hexes"))
    return state if who is None else end_tenancy(state, who)


def kill(state: State, name: str, cause: str, dice: Dice, rules: Params
         ) -> tuple[State, list[Event]]:
    """A character dies: he leaves his unit, land and bonds; a Captain or Tlatoani is replaced."""
    chars = rows(state, "characters")
    me = by_name(chars, "name")[name]
    if not me["alive"]:
        return state, []
    unit, city, klass = me["unit"], me["city"], me["class"]
    me.update(alive=False, may_act=False, unit=None)
    units = rows(state, "units")
    for u in units:
        if u["unit"] == unit:
            u["enlisted"] = max(0, u["enlisted"] - 1)
    hexes = rows(state, "hexes")
    for h in hexes:
        if h["citizen"] == name:
            h["citizen"] = None
    state = state.replace(characters=frame(chars, "characters"), units=frame(units, "units"),
                          hexes=frame(hexes, "hexes"))
    events = [Event("death", ATTRIBUTES, f"{name} {cause}.", me["house"], city,
                    data={"character": name, "cause": cause})]
    for s in rows(state, "slaves"):
        if s["owner"] == name:
            state = free_slave(state, s["slave"])
            events.append(Event("freed", SLAVES, f"{s['slave']} is a slave no more: his owner "
                                f"{name} is dead.", data={"character": s["slave"]}))
    state = free_slave(state, name)
    state = end_tenancy(state, name)
    captains = [u["unit"] for u in rows(state, "units") if u["captain"] == name]
    for u in captains:
        state, more = promote_captain(state, u, dice)
        events.extend(more)
    if klass == "tlatoani":
        ruled = [c["city"] for c in rows(state, "cities") if c["tlatoani"] == name]
        for c in ruled:
            state = make_tlatoani(state, c, None)
            state, _, more = crown(state, c, dice)
            events.extend(more)
    return state, events
