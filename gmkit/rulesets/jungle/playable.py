"""What a state of the Law of the Jungle the rules can play is (:data:`PLAYABLE`, see
:mod:`gmkit.core.playable`): the keys, references, ranges and words of its tables as data, and
one cross-row check for the rest (a festival at a time, a house joined into one that exists).

A city's figures (net food, happiness, income) are the GM's from the civilization game and may
be below nothing; a character's attributes, a house's stores and a hex's yields may not.
"""

from __future__ import annotations

from gmkit.core.parts import Context
from gmkit.core.playable import (OneOf, Playable, Range, Refers, Required, Rows,
                                 StateProblem, Unique, row_problems)
from gmkit.core.tables import State
from gmkit.rulesets.jungle.rules import (ATTRIBUTES, CLASS_NAMES, GOD_NAMES, GODS, STRUCTURE,
                                         UNITS)
from gmkit.rulesets.jungle.state import AFTERNOON, EVENING, MORNING

#: The houses' players may post (each a house; the GM posts as the GM).
ROLES = ("house",)


def playable(state: State, ctx: Context) -> list[StateProblem]:
    """What the data cannot say of a playable Law of the Jungle state: one God's festival at
    a time (AZTEC GODS); no house joined into itself, round and round (JOIN HOUSES)."""
    out: list[StateProblem] = []
    gods = state["gods"]
    held = [i for i, f in enumerate(gods["festival"].to_list()) if f]
    out += row_problems("gods", gods, held[1:], "festival",
                        lambda i: f"a festival of {gods['god'][held[0]]} is held already; one "
                        f"God's festival a session ({GODS})")
    houses = state["houses"]
    joined = dict(zip(houses["house"].to_list(), houses["joined_to"].to_list()))

    def circle(house: str) -> bool:
        seen = {house}
        at = joined.get(house)
        while at is not None:
            if at in seen:
                return True
            seen.add(at)
            at = joined.get(at)
        return False

    names = houses["house"].to_list()
    out += row_problems("houses", houses, [i for i, h in enumerate(names) if circle(h)],
                        "joined_to", lambda i: f"{names[i]} is joined round and round into "
                        "itself (JOIN HOUSES)")
    return out


_ATTRIBUTES = ("xp", "fame", "craftsmanship", "wisdom")
_CHARACTER_COUNTS = ("beakers", "hammers", "defending", "acted")

#: A state of the Law of the Jungle the rules can play: each house, character, unit, city,
#: hex and God once, every name resolving, attributes and stores never below nothing, a
#: character's class and the session's part among the rules' words.
PLAYABLE = Playable(
    unique=(Unique("houses", "house"), Unique("characters", "name"), Unique("slaves", "slave"),
            Unique("tenants", "tenant"), Unique("units", "unit"), Unique("cities", "city"),
            Unique("hexes", "city", "q", "r"), Unique("gods", "god"), Unique("players", "id"),
            Unique("origins", "character"), Unique("captive_units", "unit")),
    required=(Required("houses", "food", "gold", "trapped"),
              Required("characters", "house", "class", "alive", "may_act", "busy",
                       *_ATTRIBUTES, *_CHARACTER_COUNTS),
              Required("titles", "character", "title"),
              Required("slaves", "owner"), Required("tenants", "landlord"),
              Required("units", "unit_type", "military", "health", "melee_strength",
                       "enlisted", "words"),
              Required("cities", "citizens", "happiness", "net_food", "income", "expenses",
                       "strength", "workable", "puppet", "spent"),
              Required("hexes", "food", "gold", "hammers"), Required("gods", "festival"),
              Required("session", "session", "part", "gold", "empire_expenses"),
              Required("policy_support", "character", "policy", "fame"),
              Required("projects", "character", "kind"),
              Required("join_offers", "offerer", "partner"),
              Required("picks", "gameturn", "kind"), Required("origins", "house"),
              Required("captive_rows", "unit", "from_table", "kept_row"),
              Required("players", "role")),
    refers=(Refers("houses.joined_to", "houses.house", what="house"),
            Refers("characters.house", "houses.house", what="house"),
            Refers("characters.city", "cities.city", what="city"),
            Refers("characters.unit", "units.unit", what="unit"),
            Refers("titles.character", "characters.name", what="character"),
            Refers("slaves.slave", "characters.name", what="character"),
            Refers("slaves.owner", "characters.name", what="character"),
            Refers("tenants.tenant", "characters.name", what="character"),
            Refers("tenants.landlord", "characters.name", what="character"),
            Refers("units.captain", "characters.name", what="character"),
            Refers("units.city", "cities.city", what="city"),
            Refers("cities.tlatoani", "characters.name", what="character"),
            Refers("hexes.city", "cities.city", what="city"),
            Refers("hexes.citizen", "characters.name", what="character"),
            Refers("policy_support.character", "characters.name", what="character"),
            Refers("projects.character", "characters.name", what="character"),
            Refers("projects.city", "cities.city", what="city"),
            Refers("join_offers.offerer", "houses.house", what="house"),
            Refers("join_offers.partner", "houses.house", what="house"),
            Refers("picks.city", "cities.city", what="city"),
            Refers("origins.house", "houses.house", what="house"),
            Refers("captive_rows.unit", "captive_units.unit", what="captured unit"),
            Refers("players.id", "houses.house", what="house")),
    ranges=(Range("houses.food", 0), Range("houses.gold", 0), Range("houses.trapped", 0),
            *(Range(f"characters.{a}", 0, rule=ATTRIBUTES) for a in _ATTRIBUTES),
            *(Range(f"characters.{c}", 0) for c in _CHARACTER_COUNTS),
            Range("units.level", 0, rule=UNITS), Range("units.health", 0, rule=UNITS),
            Range("units.melee_strength", 0, rule=UNITS), Range("units.enlisted", 0),
            Range("units.words", 0), Range("cities.citizens", 0), Range("cities.workable", 0),
            Range("cities.spent", 0), Range("cities.strength", 0),
            Range("hexes.food", 0), Range("hexes.gold", 0), Range("hexes.hammers", 0),
            Range("session.session", 0, rule=STRUCTURE), Range("session.gold", 0),
            Range("policy_support.fame", 0), Range("picks.gameturn", 0)),
    one_of=(OneOf("characters.class", CLASS_NAMES, "AZTEC CLASS STRUCTURE"),
            OneOf("gods.god", GOD_NAMES, GODS),
            OneOf("session.part", (MORNING, AFTERNOON, EVENING), STRUCTURE),
            OneOf("projects.kind", ("research", "produce")),
            OneOf("picks.kind", ("research", "produce")), OneOf("players.role", ROLES)),
    rows=(Rows("session", 1, 1, STRUCTURE), Rows("gods", len(GOD_NAMES), len(GOD_NAMES), GODS)),
    check=playable,
)
