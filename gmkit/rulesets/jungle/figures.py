"""The civilization figures the GM enters each council session, read from text and checked.

The GM plays the Civilization game and types what it shows, one line per city, unit or completed
item (``#`` starts a comment)::

    city Tenochtitlan: citizens 4, food 3, income 12, expenses 4, beakers 2, hammers 5,
        happiness -2, strength 9.5, starved 1   (all on one line; any subset of the fields;
                                                 starved: citizens lost to starvation)
    unit Warrior 1: health 8, level 2, strength 6
    empire: gold 120, expenses 3
    tech Bronze Working era 1 gameturn 4
    gains Warrior 1 with general Great General: xp 2, fame 1, gold 3
    settled Settler 1                  (also 'expended Great Prophet', 'used Work Boat')
    captured worker Inca Worker by Warrior 1
    lost Settler 1                     (the enemy captured our settler or worker: its
    rescued Settler 1                   characters leave the game until it is rescued)
    join Coyotl: Nezahual in Texcoco -1,4, gold 12   (a new house or one signing up again;
                                                      the city, hex and gold are optional)
    conquered Cuzco by Warrior 1 citizens 3          (liberated ..., razed ...; add
    razed Tula by Warrior 1 citizens 4 previously aztec    'founded by Aztecs' as the case is)
    building Granary in Tenochtitlan era 1 gameturn 7
    unit Jaguar in Tenochtitlan gameturn 9
    unit Jaguar 2 in Tenochtitlan gameturn 9: type Archer, captain Tlaca, health 8, level 1
                                       (a new unit: its type, Captain's name and figures are
                                        optional; a 'unit Jaguar 2: ...' line of the same post
                                        gives its figures as well)
    policy Tradition era 1 gameturn 10

:func:`parse_figures` reads the lines into the frames of ``FIGURE_SCHEMAS`` (syntax only);
:func:`check_figures` checks them against the state (an unknown city, a unit that does not exist,
a negative health, a gameturn outside the session). Every error is one of the order errors of
:mod:`gmkit.core.orders` and names its line, so the whole list can be fixed at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from gmkit.core.orders import (IllegalOrderError, LimitError, OrderError, OrderSyntaxError,
                               extract_lines)
from gmkit.core.names import NameIndex
from gmkit.core.params import Params
from gmkit.core.tables import State, frame
from gmkit.rulesets.jungle.state import FIGURE_SCHEMAS, Row

CITY_FIELDS = {"citizens": "citizens", "food": "net_food", "net food": "net_food",
               "income": "income", "expenses": "expenses", "beakers": "beakers",
               "hammers": "hammers", "happiness": "happiness", "strength": "strength",
               "starved": "starved"}
UNIT_FIELDS = {"health": "health", "level": "level", "strength": "melee_strength",
               "melee strength": "melee_strength"}
EMPIRE_FIELDS = {"gold": "gold", "expenses": "expenses"}
COMPLETION_KINDS = ("tech", "building", "wonder", "unit", "policy")
NUMBER = r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?"
#: The largest figure gmkit reads (a gold, a citizen count, a coordinate...): a line with a
#: number beyond it is refused, so no later sum overflows.
FIGURE_LIMIT = 10**9

_FIGURES = re.compile(r"^(?P<kind>city|unit|empire)\s*(?P<name>[^:]*?)\s*:\s*(?P<rest>.*)$", re.I)
_CONQUEST = re.compile(
    r"^(?P<kind>conquered|liberated|razed)\s+(?P<city>.+?)\s+by\s+(?P<unit>.+?)\s+citizens\s+"
    r"(?P<n>\d+)(?:\s*,?\s*(?P<aztec>previously aztec|aztec previously|founded by (?:the )?"
    r"aztecs?|aztec founded))?$", re.I)
_GAINS = re.compile(r"^gains\s+(?P<unit>.+?)(?:\s+with\s+general\s+(?P<general>.+?))?\s*:"
                    r"\s*(?P<rest>.+)$", re.I)
GAIN_FIELDS = {"xp": "xp", "fame": "fame", "gold": "gold"}
_JOIN = re.compile(r"^join\s+(?P<house>[^:]+?)\s*:\s*(?P<name>[^,]+?)(?:\s+in\s+(?P<city>[^,]+?)"
                   r"(?:\s+(?P<q>-?\d+)\s*,\s*(?P<r>-?\d+))?)?(?:\s*,\s*gold\s+(?P<gold>\d+))?$",
                   re.I)
_UNIT_EVENT = re.compile(r"^(?:(?P<consumed>consumed|settled|expended|used|lost|rescued)\s+"
                         r"(?P<unit>.+)|captured\s+worker\s+(?P<worker>.+?)\s+by\s+(?P<by>.+))$",
                         re.I)
#: What a unit line's verb records: the unit consumed its Captain, or was lost or rescued.
_UNIT_VERBS = {"lost": "lost", "rescued": "rescued"}
_COMPLETION = re.compile(
    rf"^(?P<kind>{'|'.join(COMPLETION_KINDS)})\s+(?P<item>.+?)(?:\s+in\s+(?P<city>.+?))?"
    r"(?:\s+era\s+(?P<era>\d+))?\s+(?:game\s*turn|turn|gt)\s+(?P<gt>\d+)"
    r"(?:\s*:\s*(?P<rest>.*))?$", re.I)


@dataclass
class Figures:
    """The frames read from the GM's lines, and the lines that could not be read."""

    tables: dict[str, pl.DataFrame] = field(default_factory=dict)
    errors: list[OrderError] = field(default_factory=list)
    #: The text of each line read, by line number (for error messages).
    texts: dict[int, str] = field(default_factory=dict)

    def __getitem__(self, name: str) -> pl.DataFrame:
        return self.tables[name]


def _fields(text: str, known: dict[str, str], what: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in re.split(r"[,;]", text))):
        m = re.match(rf"^(?P<f>[a-z ]+?)\s*[:=]?\s*(?P<v>{NUMBER})$", part, re.I)
        if not m:
            raise OrderSyntaxError(f"cannot read '{part}': expected a {what} figure like "
                                   f"'{next(iter(known))} 3'")
        name = m["f"].strip().lower()
        if name not in known:
            raise OrderSyntaxError(f"no {what} figure '{name}' (known: {', '.join(known)})")
        if known[name] in out:
            raise OrderSyntaxError(f"{name} given twice")
        out[known[name]] = _bounded(m["v"], name)
    if not out:
        raise OrderSyntaxError(f"no figures after the colon (known: {', '.join(known)})")
    return out


NEW_UNIT_WORDS = ("type", "captain")


def _new_unit(kind: str, rest: str | None) -> Row:
    """What a completed unit's line says of it after a colon (NEW UNITS): ``type Archer,
    captain Tlaca, health 8, level 2, strength 5``; the rest is defaulted when the unit is
    made."""
    out: Row = {"unit_type": None, "captain": None, "health": None, "level": None,
                "melee_strength": None}
    if not rest or not rest.strip():
        return out
    if kind != "unit":
        raise OrderSyntaxError(f"only a completed unit takes figures after a colon, not a {kind}")
    numbers = []
    for part in filter(None, (p.strip() for p in re.split(r"[,;]", rest))):
        word, _, value = part.partition(" ")
        if word.lower() in NEW_UNIT_WORDS and value.strip():
            key = "unit_type" if word.lower() == "type" else "captain"
            if out[key] is not None:
                raise OrderSyntaxError(f"{word.lower()} given twice")
            out[key] = value.strip()
        else:
            numbers.append(part)
    if numbers:
        values = _fields(", ".join(numbers), UNIT_FIELDS, "unit")
        for k, v in values.items():
            out[k] = v if k == "melee_strength" else _whole(v, k)
    return out


def _bounded(text: str, name: str) -> float:
    """A figure's number, refused (the whole post with it) beyond :data:`FIGURE_LIMIT`."""
    value = float(text)
    if abs(value) > FIGURE_LIMIT:
        raise LimitError(f"{name} {text[:30]}{'…' if len(text) > 30 else ''} is beyond the "
                         f"{FIGURE_LIMIT} a figure may be")
    return value


def _int(text: str | None, name: str) -> int | None:
    """A whole number of a figure line (None when absent), within :data:`FIGURE_LIMIT`."""
    return None if not text else int(_bounded(text, name))


def _whole(value: float, name: str) -> int:
    if value != int(value):
        raise OrderSyntaxError(f"{name} must be a whole number, not {value}")
    return int(value)


def parse_figures(text: str) -> Figures:
    """Read the GM's lines into the figure frames; syntax errors name their line."""
    rows: dict[str, list[Row]] = {name: [] for name in FIGURE_SCHEMAS}
    out = Figures()
    for line in extract_lines(text.replace("[b]", "").replace("[/b]", "")):
        body = line.text.split("#", 1)[0].strip()
        if not body:
            continue
        out.texts[line.number] = line.text
        try:
            m = _CONQUEST.match(body)
            if m:
                aztec = (m["aztec"] or "").lower()
                rows["conquests"].append({
                    "line": line.number, "kind": m["kind"].lower(), "city": m["city"].strip(),
                    "unit": m["unit"].strip(), "citizens": _int(m["n"], "citizens"),
                    "aztec": "founded" if "found" in aztec else "previously" if aztec else None})
                continue
            m = _UNIT_EVENT.match(body)
            if m:
                rows["unit_events"].append(
                    {"line": line.number,
                     "kind": _UNIT_VERBS.get(m["consumed"].lower(), "consumed"),
                     "unit": m["unit"].strip(), "by": None} if m["consumed"] else
                    {"line": line.number, "kind": "captured", "unit": m["worker"].strip(),
                     "by": m["by"].strip()})
                continue
            m = _JOIN.match(body)
            if m:
                rows["joins"].append({
                    "line": line.number, "house": m["house"].strip(), "name": m["name"].strip(),
                    "city": m["city"].strip() if m["city"] else None,
                    "q": _int(m["q"], "q"), "r": _int(m["r"], "r"),
                    "gold": _int(m["gold"], "gold") or 0})
                continue
            m = _GAINS.match(body)
            if m:
                values = _fields(m["rest"], GAIN_FIELDS, "gain")
                rows["unit_gains"].append({
                    "line": line.number, "unit": m["unit"].strip(),
                    "general": m["general"].strip() if m["general"] else None,
                    **{k: _whole(values[k], k) if k in values else 0 for k in GAIN_FIELDS}})
                continue
            m = _COMPLETION.match(body)
            if m:
                rows["completions"].append({
                    "line": line.number, "kind": m["kind"].lower(), "item": m["item"].strip(),
                    "city": m["city"].strip() if m["city"] else None,
                    "era": _int(m["era"], "era"), "gameturn": _int(m["gt"], "gameturn"),
                    **_new_unit(m["kind"].lower(), m["rest"])})
                continue
            m = _FIGURES.match(body)
            if not m:
                raise OrderSyntaxError(
                    "not a figure line: try 'city <name>: citizens 3, food 2', 'unit <name>: "
                    "health 8, level 2', 'empire: gold 100, expenses 3' or 'tech <name> era 1 "
                    "gameturn 4'")
            kind = m["kind"].lower()
            if kind == "city":
                values = _fields(m["rest"], CITY_FIELDS, "city")
                row: Row = {"line": line.number, "city": m["name"]}
                for col in FIGURE_SCHEMAS["city_figures"]:
                    if col in ("line", "city"):
                        continue
                    v = values.get(col)
                    row[col] = None if v is None else (v if col == "strength" else _whole(v, col))
                rows["city_figures"].append(row)
            elif kind == "unit":
                values = _fields(m["rest"], UNIT_FIELDS, "unit")
                rows["unit_figures"].append({
                    "line": line.number, "unit": m["name"],
                    "health": None if "health" not in values else _whole(values["health"],
                                                                          "health"),
                    "level": None if "level" not in values else _whole(values["level"], "level"),
                    "melee_strength": values.get("melee_strength")})
            else:
                values = _fields(m["rest"], EMPIRE_FIELDS, "empire")
                rows["empire_figures"].append({
                    "line": line.number,
                    **{k: None if k not in values else _whole(values[k], k)
                       for k in ("gold", "expenses")}})
        except OrderError as err:
            out.errors.append(err.at(line.number, line.text))
    for name, schema in FIGURE_SCHEMAS.items():
        out.tables[name] = frame(rows[name], schema, table=name)
    return out


def check_figures(state: State, figures: Figures, rules: Params) -> Figures:
    """The figures with names resolved to the state's cities and units, and every problem found
    (syntax errors included), each naming its line."""
    cities = NameIndex(state["cities"]["city"].to_list(), kind="city")
    existing = state["units"]["unit"].to_list()
    # NEW UNITS: a unit completed in this post is a unit of the game, its figures entered
    # like any unit's
    made = [] if rules.new_units != "unit_and_captain" else \
        list(dict.fromkeys(r["item"] for r in figures["completions"].to_dicts()
                           if r["kind"] == "unit" and r["item"] not in existing))
    units = NameIndex(existing + made, kind="unit")
    errors = list(figures.errors)
    tables = dict(figures.tables)

    def bad(line: int, err: OrderError) -> None:
        errors.append(err.at(line, figures.texts.get(line, "")))

    def resolve(index: NameIndex, name: str | None, line: int) -> str | None:
        if name is None:
            return None
        try:
            return index.resolve(name)
        except OrderError as err:
            bad(line, err)
            return None

    seen: dict[tuple[str, str], int] = {}

    def once(kind: str, name: str, line: int) -> bool:
        if (kind, name) in seen:
            bad(line, IllegalOrderError(f"{kind} {name} entered twice (first on line "
                                        f"{seen[(kind, name)]})"))
            return False
        seen[(kind, name)] = line
        return True

    city_rows: list[Row] = []
    for r in figures["city_figures"].to_dicts():
        name = resolve(cities, r["city"], r["line"])
        if name is None or not once("city", name, r["line"]):
            continue
        for col in ("citizens", "expenses", "beakers", "hammers", "strength", "starved"):
            if r[col] is not None and r[col] < 0:
                bad(r["line"], IllegalOrderError(f"{name}: {col} cannot be negative ({r[col]})"))
        city_rows.append({**r, "city": name})
    unit_rows: list[Row] = []
    full = int(rules.unit_full_health)
    for r in figures["unit_figures"].to_dicts():
        name = resolve(units, r["unit"], r["line"])
        if name is None or not once("unit", name, r["line"]):
            continue
        if r["health"] is not None and not 0 <= r["health"] <= full:
            bad(r["line"], IllegalOrderError(f"{name}: health {r['health']} is not between 0 "
                                             f"and {full}"))
        if r["level"] is not None and r["level"] < 1:
            bad(r["line"], IllegalOrderError(f"{name}: a level starts at 1, not {r['level']}"))
        if r["melee_strength"] is not None and r["melee_strength"] < 0:
            bad(r["line"], IllegalOrderError(f"{name}: melee strength cannot be negative"))
        unit_rows.append({**r, "unit": name})
    done_rows: list[Row] = []
    last = int(rules.gameturns)
    taken = set(state["characters"]["name"].to_list())
    if "captives" in state.tables and "name" in state["captives"].columns:
        taken |= set(state["captives"]["name"].to_list())  # they come back as they were
    for r in figures["completions"].to_dicts():
        city = resolve(cities, r["city"], r["line"])
        if r["city"] is not None and city is None:
            continue
        if r["kind"] in ("building", "wonder", "unit") and city is None:
            bad(r["line"], IllegalOrderError(f"a {r['kind']} is completed in a city: add "
                                             f"'in <city>'"))
            continue
        if r["kind"] != "unit" and r["era"] is None:
            bad(r["line"], IllegalOrderError(f"the era of {r['item']} is needed for its title"))
            continue
        if not 1 <= r["gameturn"] <= last:
            bad(r["line"], IllegalOrderError(f"gameturn {r['gameturn']} is not one of the "
                                             f"session's gameturns 1 to {last}"))
            continue
        tail = any(r.get(k) is not None for k in ("unit_type", "captain", "health", "level",
                                                   "melee_strength"))
        if tail and rules.new_units != "unit_and_captain":
            bad(r["line"], IllegalOrderError("a completed unit's type, Captain and figures are "
                                             "read only with new_units = unit_and_captain"))
            continue
        if r["kind"] == "unit" and rules.new_units == "unit_and_captain":
            if r["item"] in existing:
                bad(r["line"], IllegalOrderError(f"{r['item']} is a unit of the game already: "
                                                 "give the new unit a name of its own"))
                continue
            if not once("completed unit", r["item"], r["line"]):
                continue
            if r["health"] is not None and not 0 < r["health"] <= full:
                bad(r["line"], IllegalOrderError(f"{r['item']}: health {r['health']} is not "
                                                 f"between 1 and {full}"))
                continue
            if r["level"] is not None and r["level"] < 1:
                bad(r["line"], IllegalOrderError(f"{r['item']}: a level starts at 1, not "
                                                 f"{r['level']}"))
                continue
            if r["captain"] is not None and r["captain"] in taken:
                bad(r["line"], IllegalOrderError(f"{r['captain']} is the name of a character "
                                                 "already: the Captain needs a name of his own"))
                continue
        done_rows.append({**r, "city": city})
    tables["city_figures"] = _frame(city_rows, "city_figures")
    tables["unit_figures"] = _frame(unit_rows, "unit_figures")
    tables["completions"] = _frame(done_rows, "completions")
    won: list[Row] = []
    for r in figures["conquests"].to_dicts():
        unit = resolve(units, r["unit"], r["line"])
        if unit is not None:
            won.append({**r, "unit": unit})
    tables["conquests"] = _frame(won, "conquests")
    gains: list[Row] = []
    for r in figures["unit_gains"].to_dicts():
        unit = resolve(units, r["unit"], r["line"])
        general = resolve(units, r["general"], r["line"])
        if unit is None or (r["general"] is not None and general is None):
            continue
        if min(r["xp"], r["fame"], r["gold"]) < 0:
            bad(r["line"], IllegalOrderError(f"{unit}: a gain cannot be negative"))
            continue
        gains.append({**r, "unit": unit, "general": general})
    tables["unit_gains"] = _frame(gains, "unit_gains")
    happened: list[Row] = []
    military = dict(state["units"].select("unit", "military").iter_rows())
    held = NameIndex(state["captive_units"]["unit"].to_list(), kind="captured unit")
    for r in figures["unit_events"].to_dicts():
        if r["kind"] == "rescued":
            unit = resolve(held, r["unit"], r["line"])
            if unit is not None and once("rescued", unit, r["line"]):
                happened.append({**r, "unit": unit})
        elif r["kind"] in ("consumed", "lost"):
            unit = resolve(units, r["unit"], r["line"])
            if unit is not None and r["kind"] == "lost" and military.get(unit):
                bad(r["line"], IllegalOrderError(
                    f"{unit} is a military unit: only a settler or worker is captured with its "
                    "characters (a military unit loses health)"))
            elif unit is not None and once("lost or consumed unit", unit, r["line"]):
                happened.append({**r, "unit": unit})
        else:
            by = resolve(units, r["by"], r["line"])
            if by is not None:
                happened.append({**r, "by": by})
    tables["unit_events"] = _frame(happened, "unit_events")
    tables["joins"] = _frame(_joins(state, figures, bad, lambda n, line: resolve(cities, n, line)),
                             "joins")
    errors.sort(key=lambda e: (e.line or 0))
    return Figures(tables, errors, dict(figures.texts))


def _joins(state: State, figures: Figures, bad: Any, city_of: Any) -> list[Row]:
    """JOINING THE GAME and SIGNING UP AGAIN: a new house, or a house that lost all its
    characters or has had them all trapped as Slave-Tenants for 3 council sessions."""
    from gmkit.rulesets.jungle.world import CIV
    houses = {h["house"]: h for h in state["houses"].iter_rows(named=True)}
    alive = {c["house"] for c in state["characters"].iter_rows(named=True) if c["alive"]}
    taken = set(state["characters"]["name"].to_list())
    out: list[Row] = []
    for r in figures["joins"].to_dicts():
        h = houses.get(r["house"])
        if r["house"].casefold() == CIV:
            bad(r["line"], IllegalOrderError(f"'{r['house']}' is the GM's desk, not a house"))
        elif h is not None and r["house"] in alive and (h["trapped"] or 0) < 3:
            bad(r["line"], IllegalOrderError(
                f"house {r['house']} still controls characters: a house signs up again when "
                "it has lost them all, or after 3 council sessions with all of them "
                "Slave-Tenants"))
        elif r["name"] in taken:
            bad(r["line"], IllegalOrderError(f"a character is named {r['name']} already"))
        elif r["gold"] < 0:
            bad(r["line"], IllegalOrderError("gold cannot be negative"))
        else:
            city = city_of(r["city"], r["line"]) if r["city"] else None
            if r["city"] is None or city is not None:
                out.append({**r, "city": city})
                taken.add(r["name"])
    return out


def _frame(rows: list[dict[str, Any]], name: str) -> pl.DataFrame:
    return frame(rows, FIGURE_SCHEMAS[name], table=name)
