"""Cien's victory conditions: 26 provinces with Cien, 100 income, the right government; or being
the last player standing. :func:`winners_of` is what the victory step records in the state,
:func:`game_outcome` the game's outcome read from it."""

from __future__ import annotations

import polars as pl

from gmkit.core.params import Params
from gmkit.core.steps import Outcome, Termination
from gmkit.core.tables import State
from gmkit.rulesets.cien.rules import CAPITAL
from gmkit.rulesets.cien.geography import holdings
from gmkit.rulesets.cien.state import ACTIVE, income_of

GOVERNMENTS_THAT_WIN = {"republic_or_duchy": ("republic", "duchy"),
                        "republic_or_kingdom": ("republic", "kingdom")}


def winners_of(state: State, rules: Params) -> tuple[list[str], str]:
    """Who has won at the start of the coming turn, and why in words (empty when nobody)."""
    players = state["players"]
    active = players.filter(pl.col("status") == ACTIVE)
    income = income_of(state, rules)
    allowed = GOVERNMENTS_THAT_WIN[rules.victory_government]
    held = holdings(state)
    won = []
    for pid, government in zip(active["id"].to_list(), active["government"].to_list()):
        mine = held.get(pid, frozenset())
        if (len(mine) >= rules.victory_provinces and CAPITAL in mine
                and income.get(pid, 0) >= rules.victory_income and government in allowed):
            won.append(pid)
    if won:
        return won, (f"{' and '.join(won)} hold{'s' if len(won) == 1 else ''} "
                     f"{rules.victory_provinces}+ provinces including Cien, "
                     f"{rules.victory_income}+ income and the right government: victory.")
    ever = players.filter(pl.col("status") != "free")
    if active.height == 1 and ever.height > 1:
        pid = active["id"][0]
        return [pid], f"{pid} has wiped every other player from the map: victory."
    return [], ""


def game_outcome(state: State) -> Outcome | None:
    """The winners the victory step recorded (None while there are none): the last standing
    when the one winner is the only active player and does not hold Cien, else a victory."""
    winners = state["empire"]["winners"][0]
    if not winners:
        return None
    won = tuple(winners.split(","))
    active = state["players"].filter(pl.col("status") == ACTIVE).height
    how = Termination.LAST_STANDING if active == 1 and CAPITAL not in state["provinces"].filter(
        pl.col("owner") == won[0])["name"].to_list() else Termination.VICTORY
    return Outcome(how, won, f"{' and '.join(won)} won the Crown of Cien.")
