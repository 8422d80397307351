"""A seeded random Aeternus player: plausible posts for sample games, playouts and benchmarks.

Every choice goes through gmkit's dice, so the same seed writes the same posts. The bot reads
the state as it stands before the batch (it cannot know what its earlier lines will do): it
walks, scouts, fishes next to a lake, forages a Barren hex, crafts and builds flags when it
can, votes on open proposals and merges, and now and then proposes, asks to merge or asks the
Judge, who answers.
"""

from __future__ import annotations

from datetime import timedelta

import polars as pl

from gmkit.core.dice import Dice
from gmkit.core.parts import Context
from gmkit.core.tables import State
from gmkit.rulesets.aeternus.clock import parse_time, phase_bounds, time_text
from gmkit.rulesets.aeternus.coords import AXIAL_STEPS, DIRECTION_NAMES
from gmkit.rulesets.aeternus.rules import ACTIONS, CONSTRUCTIBLE, FLAG_F, RECIPES

_CRAFTS = ("Standard Rod", "Foraging Pouch", "Torch", "Binoculars", "Advanced Rod")


def random_post(state: State, pid: str, ctx: Context, dice: Dice) -> str:
    """A post of two to four lines (see the module docstring)."""
    rules = ctx.rules
    players = state["players"]
    me_rows = players.filter(pl.col("id") == pid)
    if me_rows.is_empty() or not me_rows["active"][0]:
        return "Join"
    me = me_rows.row(0, named=True)
    here = (me["q"], me["r"])
    world = {(q, r): (b, lm, f, c) for q, r, b, lm, f, c in state["world"].select(
        "q", "r", "biome", "landmark", "features", "corrupted").iter_rows()}
    inv = {r["item"]: r["count"] for r in
           state["items"].filter(pl.col("player") == pid).iter_rows(named=True)}

    def pick(options: list[str], what: str, weights: list[int] | None = None) -> str:
        return dice.choice(options, weights=weights, rule=ACTIONS, purpose=f"{pid} bot: {what}")

    lines: list[str] = []
    for n in range(int(pick(["2", "3", "4"], "how many actions"))):
        near = [(name, (here[0] + dq, here[1] + dr)) for name, (dq, dr)
                in zip(DIRECTION_NAMES, AXIAL_STEPS)]
        lake = any(world.get(h, ("",))[0] == "Lake" for _, h in near) or \
            world[here][0] == "Lake"
        cell = world[here]
        can_forage = cell[1] == "Barren" and not cell[2] and not cell[3]
        options = ["traverse", "scout"] + (["fish"] if lake else []) + \
            (["forage"] if can_forage else [])
        weights = [3, 2] + ([4] if lake else []) + ([4] if can_forage else [])
        what = pick(options, f"action {n + 1}", weights)
        if what == "traverse":
            lines.append(f"Traverse {pick(list(DIRECTION_NAMES), 'direction')}")
        elif what == "scout":
            a, b = dice.shuffle(list(DIRECTION_NAMES), rule=ACTIONS,
                                purpose=f"{pid} bot: where to scout")[:2]
            lines.append(f"Scout {a} and {b}")
        elif what == "fish":
            rods = [r for r in ("Advanced Rod", "Standard Rod") if inv.get(r)]
            lines.append("Fish" + (f" with {rods[0]}" if rods else ""))
        else:
            lines.append("Forage")
    for item in _CRAFTS:
        if not inv.get(item) and all(inv.get(i, 0) >= k for i, k in RECIPES[item].items()):
            lines.append(f"Craft {item}")
            break
    if all(inv.get(i, 0) >= k for i, k in CONSTRUCTIBLE[FLAG_F].items()):
        lines.append("Construct Flag")
    lines += _ledger_lines(state, pid, me["faction"], pick)
    lines += _court_lines(state, pid, pick)
    # the bot posts early in the phase numbered like the coming turn, each line a minute
    # apart, as lines pasted from Discord with their times
    start = phase_bounds(state.turn, parse_time(rules.cycle_start))[0]
    index = players["id"].to_list().index(pid)
    stamps = [time_text(start + timedelta(hours=1, minutes=10 * index + k))
              for k in range(len(lines))]
    return "\n".join(f"[b][{at}] {line}[/b]" for at, line in zip(stamps, lines))


def _ledger_lines(state: State, pid: str, faction: str, pick) -> list[str]:  # type: ignore[no-untyped-def]
    out: list[str] = []
    open_props = state["proposals"].filter(pl.col("status") == "open")["id"].to_list()
    if open_props:
        target = pick([str(i) for i in open_props], "proposal to vote on")
        out.append(f"Vote {pick(['for', 'against'], 'vote', [3, 2])} {target}")
    elif pick(["yes", "no"], "propose", [1, 5]) == "yes":
        value = pick(["65", "75", "80"], "proposed catch chance")
        out.append(f"Propose: set fish_percent = {value}")
    merges = state["merges"].filter((pl.col("status") == "open") & (
        (pl.col("faction_a") == faction) | (pl.col("faction_b") == faction)))
    for mid in merges["id"].to_list():
        out.append(f"Vote {pick(['for', 'against'], 'merge vote', [4, 1])} merge {mid}")
    others = sorted(set(state["players"].filter(pl.col("active"))["faction"].to_list())
                    - {faction})
    if others and merges.is_empty() and pick(["yes", "no"], "ask to merge", [1, 8]) == "yes":
        other = pick(others, "faction to merge with")
        out.append(f"Request merge with {other} as {faction}-{other}")
    return out


def _court_lines(state: State, pid: str, pick) -> list[str]:  # type: ignore[no-untyped-def]
    """The Judge answers open requests of others; now and then a player asks one (3.2)."""
    judge = state["judge"]["judge"].to_list()
    if judge and judge[0] == pid:
        open_requests = state["requests"].filter(pl.col("ruling").is_null()
                                                 & (pl.col("player") != pid))
        return [f"Ruling on {n}: {pick(['yes', 'no'], 'ruling')}"
                for n in open_requests["id"].to_list()]
    if pick(["yes", "no"], "ask the Judge", [1, 6]) == "yes":
        what = pick(["a boardwalk on a lake a feature", "scouting the own hex allowed",
                     "a torch used up"], "the question")
        return [f"Request: is {what}?"]
    return []
