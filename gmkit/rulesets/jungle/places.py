"""LOCATIONS: where characters are, and when two of them count as being in the same place.

"Both characters in the same city; both characters in the same unit; characters in two different
units within 2 hexes of each other; characters in a city and characters in a unit within the
city." Hexes are axial ``(q, r)``; the distance is the usual hex distance.
"""

from __future__ import annotations

from typing import Any

from gmkit.core.tables import State
from gmkit.rulesets.jungle.state import Row, by_name, rows


def hex_distance(q1: int, r1: int, q2: int, r2: int) -> int:
    """Steps between two axial hexes."""
    dq, dr = q1 - q2, r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


class Places:
    """The characters, units and cities of a state, for location questions."""

    def __init__(self, state: State):
        self.chars = by_name(rows(state, "characters"), "name")
        self.units = by_name(rows(state, "units"), "unit")
        self.cities = by_name(rows(state, "cities"), "city")

    def same(self, a: str, b: str) -> bool:
        """True when characters ``a`` and ``b`` count as being in the same location."""
        ca, cb = self.chars[a], self.chars[b]
        ua, ub = ca["unit"], cb["unit"]
        if ua is None and ub is None:
            return ca["city"] is not None and ca["city"] == cb["city"]
        if ua is not None and ub is not None:
            if ua == ub:
                return True
            x, y = self.units[ua], self.units[ub]
            return None not in (x["q"], y["q"]) and hex_distance(x["q"], x["r"], y["q"],
                                                                 y["r"]) <= 2
        city = ca["city"] if ua is None else cb["city"]
        unit = self.units[ub if ua is None else ua]
        return city is not None and unit["city"] == city

    def strength(self, name: str) -> float:
        """The location strength where a character stands: his unit's melee strength, or his
        city's strength."""
        me = self.chars[name]
        if me["unit"] is not None:
            return float(self.units[me["unit"]]["melee_strength"])
        city = self.cities.get(me["city"])
        return float(city["strength"]) if city else 0.0

    def city_of(self, name: str) -> str | None:
        """The city a character is in (a soldier: the city his unit stands in)."""
        me = self.chars[name]
        return me["city"] if me["unit"] is None else self.units[me["unit"]]["city"]


def workable(state: State, city: str) -> list[Row]:
    """The workable hexes of a city."""
    return [h for h in rows(state, "hexes") if h["city"] == city]


def hex_row(state: State, city: str, q: int, r: int) -> dict[str, Any] | None:
    """One workable hex of a city, or None."""
    return next((h for h in workable(state, city) if h["q"] == q and h["r"] == r), None)
