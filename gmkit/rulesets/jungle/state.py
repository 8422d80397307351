"""The Law of the Jungle's state tables, their schemas, and the small reads every module shares.

A character lives in a city (on a hex ``q, r`` of it, or in a specialist slot with no hex) or in
a unit; ``class`` says peasant, soldier, citizen, specialist or tlatoani. Titles are rows of
``titles`` (character, title, subject and N as ``value``); slaves, owners and tenants are also kept as their own
small tables so a rule can join on them. The civilization figures the GM enters each session live
in :mod:`gmkit.rulesets.jungle.figures`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import polars as pl

from gmkit.core.params import Params
from gmkit.core.tables import Schema, State

SCHEMAS: dict[str, Schema] = {
    # joined_to: the house this one was joined into (its player orders that house's characters);
    # trapped: council sessions in a row that all its characters were Slave-Tenants
    "houses": {"house": pl.String, "player": pl.String, "food": pl.Int64, "gold": pl.Int64,
               "joined_to": pl.String, "trapped": pl.Int64},
    "characters": {"name": pl.String, "house": pl.String, "xp": pl.Int64, "fame": pl.Int64,
                   "craftsmanship": pl.Int64, "wisdom": pl.Int64, "class": pl.String,
                   "city": pl.String, "q": pl.Int64, "r": pl.Int64, "unit": pl.String,
                   "alive": pl.Boolean, "may_act": pl.Boolean, "beakers": pl.Int64,
                   "hammers": pl.Int64, "defending": pl.Int64, "busy": pl.Boolean,
                   "acted": pl.Int64},
    "titles": {"character": pl.String, "title": pl.String, "subject": pl.String,
               "value": pl.Int64},
    "slaves": {"slave": pl.String, "owner": pl.String},
    "tenants": {"tenant": pl.String, "landlord": pl.String},
    "units": {"unit": pl.String, "unit_type": pl.String, "military": pl.Boolean,
              "level": pl.Int64, "health": pl.Int64, "melee_strength": pl.Float64,
              "captain": pl.String, "enlisted": pl.Int64, "standing_orders": pl.String,
              "words": pl.Int64, "city": pl.String,
              "q": pl.Int64, "r": pl.Int64},
    "cities": {"city": pl.String, "tlatoani": pl.String, "citizens": pl.Int64,
               "happiness": pl.Int64, "net_food": pl.Int64, "income": pl.Int64,
               "expenses": pl.Int64, "strength": pl.Float64, "workable": pl.Int64,
               "puppet": pl.Boolean, "trade_routes": pl.List(pl.String), "q": pl.Int64,
               "r": pl.Int64, "spent": pl.Int64},
    "hexes": {"city": pl.String, "q": pl.Int64, "r": pl.Int64, "citizen": pl.String,
              "food": pl.Int64, "gold": pl.Int64, "hammers": pl.Int64},
    "gods": {"god": pl.String, "festival": pl.Boolean},
    "session": {"session": pl.Int64, "part": pl.String, "gold": pl.Int64,
                "empire_expenses": pl.Int64},
    "policy_support": {"character": pl.String, "policy": pl.String, "fame": pl.Int64},
    "projects": {"character": pl.String, "kind": pl.String, "item": pl.String,
                 "city": pl.String},
    # offers to join houses made this round, waiting for the other house's head
    "join_offers": {"offerer": pl.String, "partner": pl.String},
    # the research and production picks of the last gameturns, credited when the GM enters
    # what was completed on which gameturn
    "picks": {"gameturn": pl.Int64, "kind": pl.String, "character": pl.String,
              "item": pl.String, "city": pl.String},
    # the house each character of a joined house came from, for a later Split Houses
    "origins": {"character": pl.String, "house": pl.String},
    # LIFE AND DEATH IN A UNIT: a settler or worker the enemy captured, and its characters,
    # "removed from the game, but ... returned if the unit is later rescued"
    "captive_units": {},
    "captives": {},
    # and the rows of other tables naming them (titles, bonds, choices), as JSON, by unit
    "captive_rows": {"unit": pl.String, "from_table": pl.String, "kept_row": pl.String},
    # who may post: each house's player (the GM posts the civilization figures as the GM)
    "players": {"id": pl.String, "role": pl.String},
}

SCHEMAS["captive_units"] = dict(SCHEMAS["units"])
SCHEMAS["captives"] = dict(SCHEMAS["characters"])

#: The civilization figures the GM enters for a session, one row per line entered (``line``).
FIGURE_SCHEMAS: dict[str, Schema] = {
    "city_figures": {"line": pl.Int64, "city": pl.String, "citizens": pl.Int64,
                     "net_food": pl.Int64, "income": pl.Int64, "expenses": pl.Int64,
                     "beakers": pl.Int64, "hammers": pl.Int64, "happiness": pl.Int64,
                     "strength": pl.Float64, "starved": pl.Int64},
    "unit_figures": {"line": pl.Int64, "unit": pl.String, "health": pl.Int64,
                     "level": pl.Int64, "melee_strength": pl.Float64},
    # a unit completed may say its type, its Captain's name and its figures (NEW UNITS)
    "completions": {"line": pl.Int64, "kind": pl.String, "item": pl.String, "city": pl.String,
                    "era": pl.Int64, "gameturn": pl.Int64, "unit_type": pl.String,
                    "captain": pl.String, "health": pl.Int64, "level": pl.Int64,
                    "melee_strength": pl.Float64},
    "empire_figures": {"line": pl.Int64, "gold": pl.Int64, "expenses": pl.Int64},
    # what a military unit gained by its actions (and the General's unit that gave it a bonus)
    "unit_gains": {"line": pl.Int64, "unit": pl.String, "general": pl.String, "xp": pl.Int64,
                   "fame": pl.Int64, "gold": pl.Int64},
    # a player joining (a new house) or signing up again, with his first peasant
    "joins": {"line": pl.Int64, "house": pl.String, "name": pl.String, "city": pl.String,
              "q": pl.Int64, "r": pl.Int64, "gold": pl.Int64},
    # a unit that consumed its Captain (settled, expended, used), or a worker a unit captured
    "unit_events": {"line": pl.Int64, "kind": pl.String, "unit": pl.String, "by": pl.String},
    # a city captured, liberated or razed by a unit; aztec: previously (Aztec), founded or null
    "conquests": {"line": pl.Int64, "kind": pl.String, "city": pl.String, "unit": pl.String,
                  "citizens": pl.Int64, "aztec": pl.String},
}

PEASANT, SOLDIER, CITIZEN, SPECIALIST, TLATOANI = (
    "peasant", "soldier", "citizen", "specialist", "tlatoani")
MORNING, AFTERNOON, EVENING = "morning", "afternoon", "evening"

Row = dict[str, Any]


def frame(rows: Iterable[Row], name: str) -> pl.DataFrame:
    """Rows (dictionaries) as the frame of table ``name``, with its schema."""
    rows = list(rows)
    schema = dict(SCHEMAS[name] if name in SCHEMAS else FIGURE_SCHEMAS[name])
    return pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)


def rows(state: State, name: str) -> list[Row]:
    """The rows of a table as dictionaries (a copy: changing them changes no state)."""
    return state[name].to_dicts()


def character_row(name: str, house: str, rules: Params, *, city: str | None = None,
                  q: int | None = None, r: int | None = None, unit: str | None = None,
                  may_act: bool = True, **attrs: Any) -> Row:
    """A new character: XP 1, Fame 0, Craftsmanship 1, Wisdom 1 unless ``attrs`` say otherwise;
    a peasant in a city, or a soldier in a unit."""
    row: Row = {"name": name, "house": house, "xp": rules.start_xp, "fame": rules.start_fame,
                "craftsmanship": rules.start_craftsmanship, "wisdom": rules.start_wisdom,
                "class": SOLDIER if unit else PEASANT, "city": city, "q": q, "r": r,
                "unit": unit, "alive": True, "may_act": may_act, "beakers": 0, "hammers": 0,
                "defending": 0, "busy": False, "acted": 0}
    row.update(attrs)
    return row


def empty_state(session: int = 0, festival: str | None = None) -> State:
    """A state with every table empty but ``session`` and ``gods``."""
    from gmkit.rulesets.jungle.rules import GOD_NAMES
    tables = {name: frame([], name) for name in SCHEMAS}
    tables["session"] = frame([{"session": session, "part": MORNING, "gold": 0,
                                "empire_expenses": 0}], "session")
    tables["gods"] = frame([{"god": g, "festival": g == festival} for g in GOD_NAMES], "gods")
    return State(session, tables)


def festival(state: State) -> str | None:
    """The God whose festival is held this session (None before it is drawn)."""
    found = state["gods"].filter(pl.col("festival"))["god"].to_list()
    return found[0] if found else None


def by_name(table: list[Row], key: str) -> dict[str, Row]:
    """Rows keyed by one column."""
    return {r[key]: r for r in table}


def living(state: State) -> pl.DataFrame:
    """The characters still alive."""
    return state["characters"].filter(pl.col("alive"))


def titles_of(state: State, character: str, title: str | None = None) -> list[Row]:
    """A character's titles (of one kind when ``title`` is given)."""
    t = state["titles"].filter(pl.col("character") == character)
    if title is not None:
        t = t.filter(pl.col("title") == title)
    return t.to_dicts()


def owner_of(state: State, slave: str) -> str | None:
    """The owner of a slave, or None for a free character."""
    found = state["slaves"].filter(pl.col("slave") == slave)["owner"].to_list()
    return found[0] if found else None


def house_of_player(state: State, player: str) -> str:
    """The house a player's characters belong to now: his own, or the house it was joined
    into."""
    joined = dict(state["houses"].select("house", "joined_to").iter_rows())
    house, seen = player, set()
    while joined.get(house) and house not in seen:
        seen.add(house)
        house = str(joined[house])
    return house


def joined_players(state: State, house: str) -> tuple[str, ...]:
    """The players, other than the house's own, whose houses were joined into ``house`` (JOIN
    HOUSES): they order its characters and see what its secret actions did."""
    joined = dict(state["houses"].filter(pl.col("joined_to").is_not_null())
                  .select("house", "joined_to").iter_rows())
    if house not in joined.values():
        return ()
    return tuple(p for p in joined if house_of_player(state, p) == house)


def landlord_of(state: State, tenant: str) -> str | None:
    """The citizen or Tlatoani on whose land a tenant lives, or None."""
    found = state["tenants"].filter(pl.col("tenant") == tenant)["landlord"].to_list()
    return found[0] if found else None


def checked(state: State) -> State:
    """The state with every table checked against its schema."""
    return state.checked(SCHEMAS, "jungle")


def as_mapping(table: list[Row], key: str, value: str) -> Mapping[str, Any]:
    """One column keyed by another."""
    return {r[key]: r[value] for r in table}
