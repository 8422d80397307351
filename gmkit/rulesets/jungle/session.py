"""A council session as the ordered steps of a turn, in three phases.

BASIC GAME STRUCTURE: "The council session is divided into three parts; Morning, Afternoon and
Evening. During the Morning the God's Festival is announced and each character may perform 1
action. During the Afternoon, the results of the Morning are announced and each character may
perform 1 action. During the Evening, the results of the Afternoon are announced, food is
consumed and the council session is ended."

* Morning: the session opens with the civilization figures the GM entered (cities, units,
  completions credited against the last gameturns' picks, citizens lost to starvation); the first
  Tlatoani and citizen at the kickoff; the festival (drawn when the last session closed; at the
  first session, now) and the Priests' blessings; the Tlatoani's output, the citizens' beakers,
  revolts and new citizens; the slaves' demands; then the first actions, one at a time.
* Afternoon: the second actions, one at a time.
* Evening: the research and production draws of the ten gameturns, food eaten, and the next
  session's festival drawn.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from gmkit.core.dice import Dice
from gmkit.core.envelope import Orders
from gmkit.core.params import Params
from gmkit.core.steps import Event, Step
from gmkit.core.tables import State
import gmkit.rulesets.jungle.cities as cities
from gmkit.rulesets.jungle.rules import FOOD, GODS, RESEARCH, STRUCTURE, TLATOANI
from gmkit.rulesets.jungle.edit import update
from gmkit.rulesets.jungle.figures import check_figures
from gmkit.rulesets.jungle.food import demote_starved_citizens, eat
from gmkit.rulesets.jungle.gameturns import Pick, credit, draws
from gmkit.rulesets.jungle.gods import bless_priests, draw_festival
from gmkit.rulesets.jungle.posts import figures_of
from gmkit.rulesets.jungle.proposals import PROPOSALS, proposals
from gmkit.rulesets.jungle.resolve import new_session, round_steps, shared
from gmkit.rulesets.jungle.state import EVENING, festival, frame, rows
from gmkit.rulesets.jungle.titles import adopt_policy, conquests, session_titles
from gmkit.rulesets.jungle.units import apply_unit_figures, shared_gains, unit_events
from gmkit.rulesets.jungle.world import CIV, count_trapped, join

Result = tuple[State, list[Event]]


def _figures(state: State, orders: Orders[Any], rules: Params) -> dict[str, list[dict[str, Any]]]:
    """The GM's accepted figure lines, names resolved, by table."""
    if CIV not in orders:
        return {}
    checked = check_figures(state, figures_of(orders[CIV]), rules)
    return {name: table.to_dicts() for name, table in checked.tables.items()}


def opening(state: State, orders: Orders[Any], dice: Dice, rules: Params) -> Result:
    """The session opens: every living character may act; the civilization figures the GM
    entered are applied, the items completed credited against the last gameturns' picks."""
    number = int(state["session"]["session"][0]) + 1
    state = new_session(state, rules)
    state = update(state, "session", "session", number - 1, session=number)
    figures = _figures(state, orders, rules)
    events = [Event("session", STRUCTURE, f"Council session {number} opens.")]
    if not figures:
        return state, events
    city_rows = figures.get("city_figures", [])
    for f in city_rows:
        changes = {k: f[k] for k in ("citizens", "net_food", "income", "expenses", "happiness",
                                     "strength") if f.get(k) is not None}
        state = update(state, "cities", "city", f["city"], **changes)
    for f in figures.get("empire_figures", []):
        changes = {k2: f[k] for k, k2 in (("gold", "gold"), ("expenses", "empire_expenses"))
                   if f.get(k) is not None}
        state = update(state, "session", "session", number, **changes)
    if city_rows or figures.get("empire_figures"):
        events.append(Event("figures", STRUCTURE, "The GM enters the civilization figures: "
                            + "; ".join(f"{f['city']} {_said(f)}" for f in city_rows) + "."))
    done = pl.DataFrame(figures.get("completions", []),
                        schema=dict(figures_of([]).tables["completions"].schema), orient="row")
    existing = set(state["units"]["unit"].to_list())
    fresh = {f["unit"]: f for f in figures.get("unit_figures", []) if f["unit"] not in existing}
    state, more = apply_unit_figures(state, [f for f in figures.get("unit_figures", [])
                                             if f["unit"] in existing], dice, rules)
    events += more
    picks = [Pick(p["gameturn"], p["kind"], p["character"], p["item"], p["city"])
             for p in rows(state, "picks")]
    state, more = credit(state, picks, done, rules, fresh)
    events += more
    state, more = join(state, figures.get("joins", []), dice, rules)
    events += more
    state, more = unit_events(state, figures.get("unit_events", []), dice, rules)
    events += more
    state, more = shared_gains(state, figures.get("unit_gains", []))
    events += more
    state, more = conquests(state, figures.get("conquests", []))
    events += more
    for c in done.filter(pl.col("kind") == "policy").to_dicts():
        state, more = adopt_policy(state, int(c["era"]), dice, rules, key=f"policy/{c['line']}")
        events += more
    for f in city_rows:
        if f.get("starved"):
            state, more = demote_starved_citizens(state, f["city"], int(f["starved"]), dice,
                                                  rules)
            events += more
    return state, events


def _said(f: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in f.items() if k not in ("line", "city")
                     and v is not None)


def festival_step(state: State, orders: Orders[Any], dice: Dice, rules: Params) -> Result:
    """AZTEC GODS: the festival announced (drawn now at the first session), the first Tlatoani
    and citizen at the kickoff, and the Priests of the festival's God blessed."""
    events: list[Event] = []
    state, more = cities.kickoff(state, dice, rules)
    events += more
    god = festival(state)
    if god is None:
        state, more = draw_festival(state, dice)
        events += more
    else:
        events.append(Event("festival", GODS, f"The festival of {god} is held.",
                            data={"god": god}))
    state, more = bless_priests(state, dice, rules)
    return state, events + more


def city_step(state: State, orders: Orders[Any], dice: Dice, rules: Params) -> Result:
    """TLATOANI and CITIZEN: revolts in unhappy cities, the Tlatoani's output, new citizens,
    the citizens' beakers, and the titles' bonuses of the session."""
    state, events = cities.revolts(state, dice, rules)
    state, more = cities.output(state, rules)
    events += more
    state, more = cities.new_citizens(state, dice, rules)
    events += more
    per = {f["city"]: int(f["beakers"]) for f in _figures(state, orders, rules)
           .get("city_figures", []) if f.get("beakers") is not None}
    state, more = cities.beakers(state, per)
    events += more
    state, more = session_titles(state, dice, rules)
    return state, events + more


def gameturns_step(state: State, orders: Orders[Any], dice: Dice, rules: Params) -> Result:
    """DETERMINING RESEARCH and PRODUCTION: each gameturn's picks, kept to credit the items the
    GM enters as completed with the next session."""
    state, picks, events = draws(state, dice, rules)
    state = state.replace(picks=frame([{"gameturn": p.gameturn, "kind": p.kind,
                                        "character": p.character, "item": p.item,
                                        "city": p.city} for p in picks], "picks"))
    return state, events


def food_step(state: State, orders: Orders[Any], dice: Dice, rules: Params) -> Result:
    """FOOD: every house feeds its characters."""
    return eat(state, dice, rules)


def closing(state: State, orders: Orders[Any], dice: Dice, rules: Params) -> Result:
    """The session ends: characters made this session may act from the next; a house whose
    characters are all Slave-Tenants counts one more such session; the next session's festival
    is drawn and announced."""
    chars = rows(state, "characters")
    for c in chars:
        c["may_act"] = c["alive"]
    sess = rows(state, "session")
    for s in sess:
        s["part"] = EVENING
    state = state.replace(characters=frame(chars, "characters"), session=frame(sess, "session"))
    state = count_trapped(state)
    state, events = draw_festival(state, dice)
    god = events[0].data["god"]
    return state, [Event("festival", GODS, f"The next council session will hold the festival "
                         f"of {god}.", data={"god": god, "next": True})]


def steps() -> list[Step]:
    """Every step of a council session, in order."""
    return [shared(s) for s in _steps()]


def _steps() -> list[Step]:
    morning = "Morning"
    return [
        Step("opening", "The council session opens", STRUCTURE, opening, phase=morning),
        Step("proposals", "Rule proposals and their offerings", PROPOSALS, proposals,
             phase=morning),
        Step("festival", "The festival", GODS, festival_step, phase=morning),
        Step("cities", "Cities: revolts, output, citizens", TLATOANI, city_step, phase=morning),
        *round_steps(1),
        *round_steps(2),
        Step("gameturns", "The gameturns' research and production", RESEARCH, gameturns_step,
             phase="Evening"),
        Step("food", "Food is eaten", FOOD, food_step, phase="Evening"),
        Step("closing", "The session ends", GODS, closing, phase="Evening"),
    ]

