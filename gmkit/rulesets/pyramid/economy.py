"""Serfs' output, and food keeping population alive and becoming new population (RESOURCES).

"A unit of SERFS assigned to a LAND produces four units of FOOD or two units of STONE at the end
of every round as appropriate to the LAND TYPE. A second unit of SERFS on the same LAND produces
half that amount of resources, and any further SERFS produce nothing."

"Every FOOD prevents two POPULATION of any type of your choice from vanishing at the end of the
round. Excess FOOD beyond that needed to maintain existing POPULATION is immediately converted
into new POPULATION of any type desired."
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gmkit.core.params import Params
from gmkit.core.tables import State
from gmkit.rulesets.pyramid.rules import FOOD_LAND, POPULATION, size_stone
from gmkit.rulesets.pyramid.state import Rows, frame, parse_births, rows


def land_output(kind: str, serfs: int, rules: Params) -> int:
    """What ``serfs`` units produce on one land of ``kind`` in a round."""
    first = int(rules.serf_food if kind == FOOD_LAND else rules.serf_stone)
    if serfs <= 0:
        return 0
    return first + (first // int(rules.second_serf_divisor) if serfs >= 2 else 0)


def births_of(pattern: Sequence[tuple[str, int]], count: int) -> dict[str, int]:
    """``count`` new population spread by ``pattern`` repeated in order (``2 priests, 1
    troops`` and 7 births: 5 priests, 2 troops)."""
    out = dict.fromkeys(POPULATION, 0)
    cycle = [k for k, n in pattern for _ in range(max(0, n)) if k in out] or ["serfs"]
    for i in range(count):
        out[cycle[i % len(cycle)]] += 1
    return out


def _starve_order(text: str, rules: Params) -> list[str]:
    chosen = [k for k in text.split(",") if k in POPULATION]
    default = [k for k in str(rules.starve_default).split(",") if k in POPULATION]
    return list(dict.fromkeys(chosen + default + list(POPULATION)))


def feed(state: State, pid: str, rules: Params) -> tuple[State, str, dict[str, Any]]:
    """One player's upkeep: the state after it, a sentence and the figures."""
    tables = Tables.of(state)
    text, data = tables.feed(pid, rules)
    return tables.state(state), text, data


@dataclass
class Tables:
    """The tables upkeep changes, as rows, so a round's upkeep reads and writes the frames once
    for all players."""

    players: Rows
    spaces: Rows
    pyramids: Rows
    troops: Rows
    nobles: Rows

    @classmethod
    def of(cls, state: State) -> Tables:
        """The rows of ``state``."""
        return cls(rows(state, "players"), rows(state, "spaces"), rows(state, "pyramids"),
                   rows(state, "troops"), rows(state, "nobles"))

    def state(self, state: State) -> State:
        """``state`` with these rows as its tables."""
        return state.replace(players=frame(self.players, "players"),
                             spaces=frame(self.spaces, "spaces"),
                             pyramids=frame(self.pyramids, "pyramids"),
                             troops=frame(self.troops, "troops"))

    def feed(self, pid: str, rules: Params) -> tuple[str, dict[str, Any]]:
        """One player's upkeep on these rows: a sentence and the figures."""
        text, data, self.troops = _feed(self.players, self.spaces, self.pyramids, self.troops,
                                        self.nobles, pid, rules)
        return text, data


def _feed(players: Rows, spaces: Rows, pyramids: Rows, troops: Rows, nobles: Rows, pid: str,
          rules: Params) -> tuple[str, dict[str, Any], Rows]:
    me = next(r for r in players if r["id"] == pid)
    nobles_at = {n["space"] for n in nobles if n["player"] == pid}
    pop = {"serfs": me["serfs"], "priests": me["priests"],
           "troops": sum(t["count"] for t in troops if t["player"] == pid)}
    total = sum(pop.values())
    food = int(me["food"])
    per = int(rules.population_per_food)
    need = -(-total // per)
    lost = dict.fromkeys(POPULATION, 0)
    born = dict.fromkeys(POPULATION, 0)
    if food >= need:
        born = births_of(parse_births(me["births"]), (food - need) * int(rules.births_per_food))
    else:
        vanish = total - food * per
        for kind in _starve_order(me["starve"], rules):
            n = min(vanish, pop[kind])
            lost[kind], vanish = n, vanish - n
    me["food"] = 0
    # vanishing: idle units of a kind first, then those at work
    me["serfs"] -= lost["serfs"]
    over = sum(s["serfs"] for s in spaces if s["holder"] == pid) - me["serfs"]
    for s in sorted((s for s in spaces if s["holder"] == pid and s["serfs"]),
                    key=lambda s: (-s["serfs"], s["kind"] == FOOD_LAND, s["name"])):
        while over > 0 and s["serfs"] > 0:
            s["serfs"] -= 1
            over -= 1
    me["priests"] -= lost["priests"]
    over = sum(p["priests"] for p in pyramids if p["player"] == pid) - me["priests"]
    for p in sorted((p for p in pyramids if p["player"] == pid and p["priests"]),
                    key=lambda p: (p["priests"] >= size_stone(p["size"], rules),
                                   size_stone(p["size"], rules), p["number"])):
        take = min(over, p["priests"])
        if rules.idle_priests == "idle":  # idle priests stay idle: no pyramid takes them
            take = max(0, take)
        p["priests"] -= take
        over -= take
    left = lost["troops"]
    for t in sorted((t for t in troops if t["player"] == pid),
                    key=lambda t: (t["space"] in nobles_at, t["count"], t["space"])):
        take = min(left, t["count"])
        t["count"] -= take
        left -= take
    troops = [t for t in troops if t["count"] > 0]
    # births
    me["serfs"] += born["serfs"]
    me["priests"] += born["priests"]
    if born["troops"]:
        held = [s["name"] for s in spaces if s["holder"] == pid]
        where = me["home"] if me["home"] in held else (held[0] if held else None)
        if where is None:
            me["serfs"] += born["troops"]
        else:
            stack = next((t for t in troops if t["player"] == pid and t["space"] == where), None)
            if stack is None:
                troops.append({"player": pid, "space": where, "count": born["troops"],
                               "moved_from": None})
            else:
                stack["count"] += born["troops"]
    kept = total - sum(lost.values())
    if sum(lost.values()):
        text = (f"{pid}: {food} food keeps {kept} of {total} population; "
                + ", ".join(f"{n} {k}" for k, n in lost.items() if n) + " vanish.")
    else:
        text = f"{pid}: {need} of {food} food keeps all {total} population"
        text += ("; " + ", ".join(f"{n} new {k}" for k, n in born.items() if n) + "."
                 if sum(born.values()) else ".")
    data = {"food": food, "population": total, "kept": kept, "lost": lost, "born": born}
    return text, data, troops
