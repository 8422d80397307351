"""Compact fixtures for The Law of the Jungle: characters in a few words, dice as the GM enters
them, a small world of one city and one unit."""

from __future__ import annotations

from typing import Any

from gmkit.core.dice import Dice
from gmkit.core.params import Params
from gmkit.core.tables import State
from gmkit.rulesets.jungle.attack import Fighter
from gmkit.rulesets.jungle.rules import PARAMS
from gmkit.rulesets.jungle.state import character_row, checked, empty_state, frame

SEED = "00" * 32
RULES = Params(PARAMS)


def rules(**overrides: Any) -> Params:
    """The rules with some options changed."""
    return Params(PARAMS, overrides)


def dice(step: str = "t", **entered: Any) -> Dice:
    """Dice of one step; ``entered`` maps keys (without the step) to the values the GM rolled."""
    return Dice(SEED, 1, step, {f"{step}:{k}": v for k, v in entered.items()})


def drawn(**ids: Any) -> Dice:
    """Dice with draws entered under their full ids (``"<step>:<actor>/<key>"`` for a draw of
    one character's action in a round)."""
    return Dice(SEED, 1, "t", dict(ids))


def fighter(name: str, xp: int = 1, fame: int = 0, wisdom: int = 1, **kw: Any) -> Fighter:
    """A character in an attack."""
    return Fighter(name, {"xp": xp, "fame": fame, "wisdom": wisdom, "craftsmanship": 1}, **kw)


def city_row(name: str, **kw: Any) -> dict[str, Any]:
    """A city with plain figures."""
    row = {"city": name, "tlatoani": None, "citizens": 3, "happiness": 0, "net_food": 2,
           "income": 5, "expenses": 1, "strength": 4.0, "workable": 6, "puppet": False,
           "trade_routes": [], "q": 0, "r": 0, "spent": 0}
    row.update(kw)
    return row


def unit_row(name: str, **kw: Any) -> dict[str, Any]:
    """A military unit at full health."""
    row = {"unit": name, "unit_type": "Warrior", "military": True, "level": 1, "health": 10,
           "melee_strength": 6.0, "captain": None, "enlisted": 0, "standing_orders": "",
           "words": 0,
           "city": None, "q": 0, "r": 0}
    row.update(kw)
    return row


def world(chars: list[dict[str, Any]], *, houses: dict[str, tuple[int, int]] | None = None,
          cities: list[dict[str, Any]] | None = None, units: list[dict[str, Any]] | None = None,
          hexes: list[tuple[str, int, int, str | None]] | None = None, festival: str | None = None,
          **tables: list[dict[str, Any]]) -> State:
    """A state: ``chars`` made with :func:`char`; houses default to food 0, gold 0."""
    house_names = sorted({c["house"] for c in chars})
    hs = houses or {}
    state = empty_state(1, festival)
    units = units or []
    for u in units:
        u["enlisted"] = sum(1 for c in chars if c["unit"] == u["unit"])
    state = state.replace(
        houses=frame([{"house": h, "player": h, "food": hs.get(h, (0, 0))[0],
                       "gold": hs.get(h, (0, 0))[1], "joined_to": None, "trapped": 0}
                      for h in sorted(set(house_names) | set(hs))],
                     "houses"),
        characters=frame(chars, "characters"),
        cities=frame(cities if cities is not None else [city_row("Tenochtitlan")], "cities"),
        units=frame(units, "units"),
        hexes=frame([{"city": c, "q": q, "r": r, "citizen": o, "food": 2, "gold": 1, "hammers": 1}
                     for c, q, r, o in (hexes if hexes is not None else
                                        [("Tenochtitlan", 0, 0, None),
                                         ("Tenochtitlan", 1, 0, None),
                                         ("Tenochtitlan", 0, 1, None)])], "hexes"),
        **{n: frame(v, n) for n, v in tables.items()})
    return checked(state)


def char(name: str, house: str, *, city: str | None = "Tenochtitlan", unit: str | None = None,
         q: int = 0, r: int = 0, **attrs: Any) -> dict[str, Any]:
    """A character row (in Tenochtitlan on hex ``q, r``, 0,0 by default, unless in a unit)."""
    if unit is not None:
        city = None
    return character_row(name, house, RULES, city=city, q=q if city else None,
                         r=r if city else None, unit=unit, **attrs)


def char_of(state: State, name: str) -> dict[str, Any]:
    """One character's row."""
    return next(c for c in state["characters"].to_dicts() if c["name"] == name)
