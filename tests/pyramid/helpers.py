"""Compact fixtures for Pyramid Power Wars scenarios: a board as a chain of names, a state in a
few lines, orders as players post them, and the round run through every step."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from gmkit.core.dice import Dice
from gmkit.core.envelope import Orders
from gmkit.core.orders import OrderError
from gmkit.core.params import Params
from gmkit.core.parts import Context
from gmkit.core.steps import Driver
from gmkit.core.tables import State
from gmkit.rulesets.pyramid.rules import PARAMS, size_stone
from gmkit.rulesets.pyramid.orders import parse, validate
from gmkit.rulesets.pyramid.state import SCHEMAS, frame
from gmkit.rulesets.pyramid.steps import steps_for

SEED = "00" * 32


def rules(**overrides: Any) -> Params:
    """The rules with some options changed."""
    return Params(PARAMS, overrides)


def make(chain: str = "A B C D E", *, stone: str = "", edges: Sequence[tuple[str, str]] = (),
         holders: Mapping[str, str] | None = None, serfs_at: Mapping[str, int] | None = None,
         players: Mapping[str, Mapping[str, Any]] | None = None,
         nobles: Sequence[tuple[Any, ...]] = (), troops: Mapping[tuple[str, str], int] | None = None,
         pyramids: Sequence[tuple[Any, ...]] = (), dead: Sequence[tuple[str, int, str]] = (),
         turn: int = 0, params: Params | None = None) -> State:
    """A state: ``chain`` names spaces joined in a row (``stone`` lists the stone lands),
    ``edges`` adds more joins; ``nobles`` are (player, name, space[, glory]); ``pyramids`` are
    (player, size, space[, built[, priests]]) with full staffing by default; ``dead`` are (name,
    glory, held_by)."""
    params = params or rules()
    names = chain.split()
    stones = set(stone.split())
    holders = dict(holders or {})
    spaces = [{"name": n, "kind": "stone" if n in stones else "food", "holder": holders.get(n),
               "serfs": (serfs_at or {}).get(n, 0), "x": float(i), "y": 0.0}
              for i, n in enumerate(names)]
    pairs = list(zip(names, names[1:])) + list(edges)
    borders = [{"a": a, "b": b} for x, y in pairs for a, b in ((x, y), (y, x))]
    pids = sorted(set(holders.values()) | set(players or {}) | {n[0] for n in nobles})
    player_rows = []
    for pid in pids:
        row = {"id": pid, "name": pid, "home": next((n for n, h in holders.items() if h == pid),
                                                   names[0]),
               "status": "active", "food": 0, "stone": 0, "serfs": 0, "priests": 0,
               "births": "serfs:1", "starve": "", "nobles_made": 0, "pyramids_made": 0,
               "eliminated_round": None}
        row.update((players or {}).get(pid, {}))
        player_rows.append(row)
    by = {r["id"]: r for r in player_rows}
    noble_rows = []
    for n in nobles:
        by[n[0]]["nobles_made"] += 1
        noble_rows.append({"player": n[0], "number": by[n[0]]["nobles_made"], "name": n[1],
                           "space": n[2], "glory": n[3] if len(n) > 3 else 0,
                           "moved_from": None})
    pyramid_rows = []
    for p in pyramids:
        by[p[0]]["pyramids_made"] += 1
        built = p[3] if len(p) > 3 else True
        cost = size_stone(p[1], params)
        pyramid_rows.append({"player": p[0], "number": by[p[0]]["pyramids_made"], "size": p[1],
                             "space": p[2], "stone": cost if built else 0,
                             "glory": 99 if built else 0, "built": built,
                             "priests": p[4] if len(p) > 4 else (cost if built else 0),
                             "moved_from": None})
    for p in pyramid_rows:
        by[p["player"]]["priests"] = max(by[p["player"]]["priests"], sum(
            q["priests"] for q in pyramid_rows if q["player"] == p["player"]))
    for pid, total in {h: sum(s["serfs"] for s in spaces if s["holder"] == h)
                       for h in pids}.items():
        by[pid]["serfs"] = max(by[pid]["serfs"], total)
    troop_rows = [{"player": p, "space": s, "count": c, "moved_from": None}
                  for (p, s), c in (troops or {}).items()]
    dead_rows = [{"name": d[0], "glory": d[1], "held_by": d[2], "from_player": "X",
                  "died_round": 0} for d in dead]
    return State(turn, {"players": frame(player_rows, "players"), "spaces": frame(spaces, "spaces"),
                        "borders": frame(borders, "borders"), "nobles": frame(noble_rows, "nobles"),
                        "troops": frame(troop_rows, "troops"),
                        "pyramids": frame(pyramid_rows, "pyramids"),
                        "dead": frame(dead_rows, "dead")}).checked(SCHEMAS)


def problems(state: State, posts: Mapping[str, str], params: Params | None = None
             ) -> dict[str, list[OrderError]]:
    """Parse (which must succeed) and validate posts."""
    params = params or rules()
    parsed = {p: parse(t, state) for p, t in posts.items()}
    for p, res in parsed.items():
        assert res.ok, f"{p}: {res.report()}"
    return validate(state, Orders.parsed(parsed), Context(params))


def reasons(state: State, posts: Mapping[str, str], params: Params | None = None) -> list[str]:
    """Every problem as text, 'line N: reason'."""
    return [str(e) for errs in problems(state, posts, params).values() for e in errs]


def play(state: State, posts: Mapping[str, str], params: Params | None = None,
         entered: Mapping[str, Any] | None = None, seed: str = SEED) -> Driver:
    """Run a round; the posts must parse and validate."""
    params = params or rules()
    found = problems(state, posts, params)
    assert not found, found
    orders = {p: [o for _, o in parse(t, state).orders] for p, t in posts.items()}
    driver = Driver(steps_for(params), state, orders,
                    Dice(seed, state.turn + 1, entered=dict(entered or {})), params)
    driver.run_all()
    driver.state.checked(SCHEMAS)
    return driver


def holder(state: State, space: str) -> str | None:
    return state["spaces"].filter(pl.col("name") == space)["holder"].item()


def player(state: State, pid: str) -> dict[str, Any]:
    return state["players"].filter(pl.col("id") == pid).row(0, named=True)


def troops_at(state: State, pid: str, space: str) -> int:
    return int(state["troops"].filter((pl.col("player") == pid) & (pl.col("space") == space))
               ["count"].sum())


def noble(state: State, name: str) -> dict[str, Any] | None:
    found = state["nobles"].filter(pl.col("name") == name)
    return found.row(0, named=True) if found.height else None


def events(driver: Driver, kind: str) -> list[Any]:
    return [e for e in driver.events if e.kind == kind]


def after(driver: Driver, step: str) -> State:
    """The state right after one step of the round."""
    return next(r.after for r in driver.records if r.step.name == step)
