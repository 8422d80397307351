"""A seeded random player: writes a post as a player would, from the state, for sample games,
playouts and property tests. Every choice goes through gmkit dice; the post is read back through
the same parser and validation, and lines they reject are dropped, so the post is legal."""

from __future__ import annotations

import polars as pl

from gmkit.core.dice import Dice
from gmkit.core.params import Params
from gmkit.core.parts import Context
from gmkit.core.tables import State
from gmkit.rulesets.pyramid.rules import FOOD_LAND, SIZES, size_glory, size_stone
from gmkit.rulesets.pyramid.orders import check_orders, parse
from gmkit.rulesets.pyramid.state import ACTIVE, adjacency, functioning, rows

BOT = "(not in the text): bot"


def _serf_lines(state: State, pid: str, serfs: int) -> list[str]:
    spaces = [s for s in rows(state, "spaces") if s["holder"] == pid]
    spaces.sort(key=lambda s: (s["kind"] != FOOD_LAND, s["name"]))
    want = {s["name"]: 0 for s in spaces}
    left = serfs
    for second in (False, True):
        for s in spaces:
            if left and (not second or s["kind"] == FOOD_LAND):
                want[s["name"]] += 1
                left -= 1
    lines = [f"{n} serfs to {s['name']}" for s in spaces
             if (n := want[s["name"]]) != s["serfs"]]
    # lower assignments first, so the running total never exceeds the serfs
    lines.sort(key=lambda line: int(line.split()[0]) > 0)
    return lines


def _priest_lines(state: State, pid: str, priests: int, rules: Params) -> list[str]:
    mine = [p for p in rows(state, "pyramids") if p["player"] == pid and p["built"]]
    mine.sort(key=lambda p: (-size_stone(p["size"], rules), p["number"]))
    lines, left = [], priests
    for p in mine:
        n = min(left, size_stone(p["size"], rules))
        left -= n
        if n != p["priests"]:
            lines.append((n, f"{n} priests to pyramid {p['number']}"))
    return [line for _, line in sorted(lines)]


def _build_lines(state: State, pid: str, stone: int, rules: Params) -> list[str]:
    dead = sorted((d for d in rows(state, "dead") if d["held_by"] == pid),
                  key=lambda d: -d["glory"])
    begun = [p for p in rows(state, "pyramids") if p["player"] == pid and not p["built"]]
    lines = []
    for p in begun:
        give = min(stone, size_stone(p["size"], rules) - p["stone"])
        need = size_glory(p["size"], rules) - p["glory"]
        names = []
        while need > 0 and dead:
            d = dead.pop(0)
            names.append(d["name"])
            need -= d["glory"]
        if give or names:
            stone -= give
            lines.append(f"build {p['size']} pyramid {p['number']}: {give} stone"
                         + (f", dead: {', '.join(names)}" if names else ""))
    glory = sum(d["glory"] for d in dead)
    affordable = [s for s in SIZES if size_glory(s, rules) <= glory and stone > 0]
    if affordable and not begun:
        size = affordable[-1]
        names, need = [], size_glory(size, rules)
        while need > 0 and dead:
            d = dead.pop(0)
            names.append(d["name"])
            need -= d["glory"]
        lines.append(f"build {size} pyramid: {min(stone, size_stone(size, rules))} stone, "
                     f"dead: {', '.join(names)}")
    return lines


def _move_lines(state: State, pid: str, dice: Dice, rules: Params) -> list[str]:
    adj = adjacency(state)
    holder = dict(state["spaces"].select("name", "holder").iter_rows())
    troops = {t["space"]: t["count"] for t in rows(state, "troops") if t["player"] == pid}
    pyramids = [p for p in rows(state, "pyramids") if p["player"] == pid
                and functioning(p, rules)]
    nobles = sorted((n for n in rows(state, "nobles") if n["player"] == pid),
                    key=lambda n: n["number"])
    taken = {n["space"] for n in nobles}
    lines = []
    for n in nobles:
        here = n["space"]
        there = sorted(b for b in adj[here] if holder[b] != pid and b not in taken)
        have = troops.get(here, 0)
        here_pyr = [p for p in pyramids if p["space"] == here]
        if not there or (not have and not here_pyr):
            continue
        if dice.choice(["attack", "hold"], weights=[2, 1], purpose=f"{pid} bot: noble "
                       f"{n['number']}", rule=BOT) == "hold":
            continue
        dest = dice.choice(there, purpose=f"{pid} bot: noble {n['number']}'s target", rule=BOT)
        send = have - (1 if have > 2 else 0)
        what = ([f"{send} troops"] if send else []) + [f"pyramid {p['number']}" for p in here_pyr]
        if not what:
            continue
        taken.discard(here)
        taken.add(dest)
        lines.append(f"noble {n['number']} with {' and '.join(what)} to {dest}, claim pyramids")
    return lines


def random_post(state: State, pid: str, ctx: Context, dice: Dice) -> str:
    """A seeded random player's post for the coming round (only lines that validate)."""
    rules = ctx.rules
    players = state["players"].filter(pl.col("id") == pid)
    if players.is_empty() or players["status"][0] != ACTIVE:
        return ""
    me = players.row(0, named=True)
    lines = _serf_lines(state, pid, me["serfs"])
    lines += _priest_lines(state, pid, me["priests"], rules)
    lines += _move_lines(state, pid, dice, rules)
    lines += _build_lines(state, pid, me["stone"], rules)
    births = dice.choice(["1 serfs", "2 serfs, 1 troops", "1 priests, 1 serfs",
                          "1 troops, 1 priests, 1 serfs"], purpose=f"{pid} bot: births",
                         rule=BOT)
    lines.append(f"excess food: {births}")
    lines.append("starve: " + dice.choice(["troops, priests, serfs", "priests, troops, serfs"],
                                          purpose=f"{pid} bot: starvation", rule=BOT))
    body = "\n".join(f"[b]{line}[/b]" for line in lines)
    result = parse(body, state)
    problems = check_orders(state, pid, [o for _, o in result.orders], rules)
    bad = {e.line for e in result.errors} | {e.line for e in problems}
    kept = [line for number, line in enumerate(lines, 1) if number not in bad]
    return f"Orders of {pid}:\n" + "\n".join(f"[b]{line}[/b]" for line in kept) + \
        "\nGlory to the Two Lands!"
