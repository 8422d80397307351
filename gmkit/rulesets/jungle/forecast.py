"""The odds of every attack the orders set up, as the state stands before the session.

CHARACTER ATTACKS are the contested actions: each one appears, a joint attack once for all its
participants (under its principal: the one designated, else the slowest participant as the
Fame now stands), with its five bands and their exact probabilities
(:func:`gmkit.rulesets.jungle.odds.band_odds`, the same functions that resolve it), or with one
row ``void`` and the reason it would be void if it resolved now ("Actions that are not valid at
the moment of resolution will be considered void": the attacker not in the target's location, a
dead character, a miscoordinated joint attack). An attack may still become valid or void before
its turn comes (a move in the Morning, a death); the odds say what the state says now.

:func:`void_now` lists, for a post's preview, every action that would be void if it resolved now:
those attacks, and each other action resolved alone on the state as it stands (its draws thrown
away), so that what the preview accepts is either carried out or shown void.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from gmkit.core.dice import Dice
from gmkit.core.dispatch import Dispatch, VoidAction
from gmkit.core.envelope import Orders
from gmkit.core.orders import IllegalOrderError
from gmkit.core.params import Params
from gmkit.core.parts import Context
from gmkit.core.ruleset import Problems
from gmkit.core.tables import State, frame
import gmkit.rulesets.jungle.actions as A
from gmkit.rulesets.jungle.edit import char
from gmkit.rulesets.jungle.effects import EFFECTS, Result
from gmkit.rulesets.jungle.fight import prepare
from gmkit.rulesets.jungle.gods import offering, sacrifice
from gmkit.rulesets.jungle.odds import band_odds
from gmkit.rulesets.jungle.resolve import _joint, _slowest

SCHEMA = {"player": pl.String, "line": pl.Int64, "attacker": pl.String, "target": pl.String,
          "kind": pl.String, "band": pl.String, "probability": pl.Float64, "void": pl.String}
VOID_BAND = "void"


def _principal(state: State, group: frozenset[str], slot: int, rules: Params) -> str:
    """The principal of a coordinated joint attack as things stand: the slowest participant,
    the last of the group in the order of play by Fame now (Morning: highest Fame first)."""
    slowest = _slowest(state, group, slot, rules)
    if slowest is not None:
        return slowest
    fame = {c["name"]: int(c["fame"]) for c in state["characters"].to_dicts()
            if c["name"] in group}
    ordered = sorted(group, key=lambda n: (fame.get(n, 0), n), reverse=slot == 1)
    return ordered[-1]


def odds(state: State, orders: Orders[Any], ctx: Context) -> pl.DataFrame:
    """Every attack's five bands with their exact probabilities, as the state stands before
    the session (a joint attack once, under its principal), or a ``void`` row saying why it
    would be void now (see the module docstring)."""
    return odds_table(state, orders, ctx.rules)


def odds_table(state: State, orders: Mapping[str, Sequence[Any]],
               rules: Params) -> pl.DataFrame:
    """Every attack of ``orders``: five rows (bands with their probabilities) or one ``void``
    row with its reason (see the module docstring)."""
    out: list[dict[str, Any]] = []
    attacks = [(player, o) for player, os in orders.items() for o in os
               if isinstance(o, A.Attack)]
    seen: set[tuple[Any, ...]] = set()
    for player, o in attacks:
        row = {"player": player, "line": o.line or None, "attacker": o.who, "target": o.target,
               "kind": o.kind.value}
        members, principal = [o], o.who
        if o.joint:
            key = (o.slot, o.participants, o.kind, o.target, o.principal)
            if key in seen:
                continue
            seen.add(key)
            chosen = {a.who: a for _, a in attacks if a.slot == o.slot and a.who in o.participants}
            group = _joint(chosen, o)
            if isinstance(group, str):
                out.append({**row, "band": VOID_BAND, "probability": 1.0, "void": group})
                continue
            members = [chosen[n] for n in sorted(group)]
            principal = o.principal or _principal(state, group, o.slot, rules)
            row["attacker"] = principal
        try:
            attack, _ = prepare(state, members, principal, f"odds/{principal}", rules)
        except VoidAction as v:
            out.append({**row, "band": VOID_BAND, "probability": 1.0, "void": v.reason})
            continue
        except StopIteration:
            out.append({**row, "band": VOID_BAND, "probability": 1.0,
                        "void": "a character it names is not in the game"})
            continue
        a, d = attack.strengths()
        for band, p in band_odds(a, d, attack.location, rules).items():
            out.append({**row, "band": band.name.lower(), "probability": p, "void": None})
    return frame(out, SCHEMA, table="odds")


#: The actions other than attacks and join offers a preview resolves alone, by type.
ALONE: Dispatch[State, Result] = Dispatch({**EFFECTS, A.Sacrifice: sacrifice,
                                           A.Offering: offering})


def _alone(state: State, a: A.Action, rules: Params) -> str | None:
    """Why an action other than an attack would be void if it resolved now, on ``state``
    alone (None when it would not be, or when only its turn can tell)."""
    if a not in ALONE:
        return None
    try:
        if not char(state, a.who)["alive"]:
            return f"{a.who} is dead"
        # a forecast, never a resolution: its draws are thrown away with these dice
        ALONE.effect(a)(state, a, Dice("0" * 64, state.turn + 1, "preview"), rules)
    except VoidAction as v:
        return v.reason
    except (StopIteration, KeyError, ValueError):
        return None
    return None


def void_now(state: State, orders: Orders[Any], ctx: Context) -> Problems:
    """The actions that would be void if they resolved now, by player, each naming its line:
    the attacks of :func:`odds_table`, and every other action resolved alone on ``state``
    ("would be void if it resolved now: <reason>"). Each may still be carried out if the state
    changes before its turn (the session's opening, the actions before it)."""
    rules = ctx.rules
    out: Problems = {}
    for row in odds_table(state, orders, rules).filter(pl.col("void").is_not_null()).to_dicts():
        out.setdefault(row["player"], []).append(IllegalOrderError(
            f"{row['attacker']}'s attack on {row['target']} would be void if it resolved now: "
            f"{row['void']}", line=row["line"]))
    for player, os in orders.items():
        for a in os:
            if isinstance(a, A.Action) and not isinstance(a, A.Attack):
                why = _alone(state, a, rules)
                if why is not None:
                    out.setdefault(player, []).append(IllegalOrderError(
                        f"{a.who}'s {a.keyword} would be void if it resolved now: {why}",
                        line=a.line or None))
    for errs in out.values():
        errs.sort(key=lambda e: e.line or 0)
    return out
