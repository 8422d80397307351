#!/usr/bin/env python3
"""The Law of the Jungle at scale: a council session of 300 characters in 40 houses (about 600
actions, ten gameturns of draws in 20 cities) resolved and committed, and ``verify`` of a
50-session game.

    python bench/jungle_scale.py          # a readable table
    python bench/jungle_scale.py --json   # one JSON object per line: name, value, unit, target, ok

The big world (:func:`big_world`) is the ruleset's own set-up for 40 houses, widened by a
documented generator: 17 more cities laid on the hex grid beside the three of the set-up (each
its centre and six workable hexes, with two to four citizens), and the houses' further
characters signed up through the ruleset's join path (``world.join``) with seeded gmkit dice,
as if they had all signed up before the kickoff (so they act at the first session). It is
committed as the game's turn 0 the way ``Game.new`` commits a set-up. Session 1 (the kickoff:
first Tlatoani and citizens) is played untimed; session 2 is timed: the GM's desk posts every
city's figures and each house's bot posts its characters' two actions, then the session is
resolved and committed. The verify figure re-resolves every session of a game of the sample's
size (``scripts/build_sample_jungle.py``) played 50 sessions in.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import polars as pl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gmkit.game import fairdice  # noqa: E402
from gmkit.core.boards.hexgrid import Hex, spiral  # noqa: E402
from gmkit.core.dice import Dice  # noqa: E402
from gmkit.core.ruleset import find_ruleset  # noqa: E402
from gmkit.core.store import GameStore  # noqa: E402
from gmkit.core.tables import State  # noqa: E402
from gmkit.core.tables import ORDERS_SCHEMA  # noqa: E402
from gmkit.core.store import TurnData  # noqa: E402
from gmkit.game import (Game, events_frame, resolved_with,  # noqa: E402
                        rolls_frame, starting_board)
from gmkit.sweeps.playout import derived_seed  # noqa: E402
from gmkit.rulesets.jungle import world  # noqa: E402
from gmkit.rulesets.jungle.world import CIV  # noqa: E402
from gmkit.rulesets.jungle.state import frame, rows  # noqa: E402
from scripts.build_sample_jungle import build, receive_session  # noqa: E402

HOUSES, CHARACTERS, CITIES = 40, 300, 20
VERIFY_SESSIONS = 50
SESSION_TARGET_S = 2.0
VERIFY_TARGET_S = 10.0
MASTER = "bench jungle scale"


def city_centres(n: int) -> list[tuple[int, int]]:
    """``n`` city centres on the lattice spanned by the set-up's Tlatelolco (4, -1) and Texcoco
    (-1, 4) from Tenochtitlan (0, 0): any two are 4 or more hexes apart, so no city's ring of
    workable hexes overlaps another's. The set-up's three come first."""
    lattice = sorted(((a, b) for a in range(-3, 4) for b in range(-3, 4)),
                     key=lambda ab: (abs(ab[0]) + abs(ab[1]), ab != (0, 0), ab != (1, 0), ab))
    return [(4 * a - b, -a + 4 * b) for a, b in lattice[:n]]


def big_world(houses: int = HOUSES, characters: int = CHARACTERS, cities: int = CITIES,
              master: str = MASTER) -> tuple[list[dict[str, Any]], State]:
    """The players and the turn-0 state of the big game (see the module docstring)."""
    players = [{"id": f"House{i:02d}", "name": f"House {i:02d}", "gold": 20}
               for i in range(houses)]
    infos = Game.players_from_config({"players": players})
    rules = find_ruleset("jungle").rules()
    state = world.setup(infos, rules)
    known = {c["city"] for c in rows(state, "cities")}
    city_rows, hex_rows = rows(state, "cities"), rows(state, "hexes")
    for i, (q, r) in enumerate(city_centres(cities)):
        name = f"Altepetl {i:02d}"
        if i < len(known):
            continue
        city_rows.append({"city": name, "tlatoani": None, "citizens": 2 + i % 3,
                          "happiness": 0, "net_food": 2, "income": 4 + i % 4, "expenses": 1,
                          "strength": 5.0, "workable": 7, "puppet": False,
                          "trade_routes": [world.CITIES[0][0]], "q": q, "r": r, "spent": 0})
        for j, h in enumerate(spiral(Hex(q, r), 1)):
            food, gold, hammers = world.YIELDS[j]
            hex_rows.append({"city": name, "q": h.q, "r": h.r, "citizen": None, "food": food,
                             "gold": gold, "hammers": hammers})
    state = state.replace(cities=frame(city_rows, "cities"), hexes=frame(hex_rows, "hexes"))
    dice = Dice(derived_seed(master, "world"), 0, "world")
    joins = [{"house": f"House{i % houses:02d}", "name": f"Character {i:03d}", "city": None,
              "q": None, "r": None, "gold": 0} for i in range(houses, characters)]
    state, _ = world.join(state, joins, dice, rules)
    chars = rows(state, "characters")
    for c in chars:
        c["may_act"] = True  # signed up before the kickoff
    return players, state.replace(characters=frame(chars, "characters"))


def new_big_game(root: Path, master: str = MASTER) -> Game:
    """The big game, its world committed as turn 0 as ``Game.new`` commits a set-up."""
    players, state = big_world(master=master)
    rs = find_ruleset("jungle")
    _, board_bytes, _ = starting_board(rs, None)
    config: dict[str, Any] = {"title": "The Law of the Jungle at scale", "ruleset": rs.name,
                              "rules": {}, "players": players}
    fairdice.dice_setting(config)
    turn0 = TurnData(0, state, pl.DataFrame(schema=dict(ORDERS_SCHEMA)), rolls_frame([]),
                     events_frame([]))
    GameStore.create(root, config, rs.schemas, turn0, None,
                     record=resolved_with(config, board_bytes))
    game = Game(root)
    game.seed_maker = lambda turn: derived_seed(master, "turn", turn)
    return game


def play_session(game: Game, master: str) -> tuple[float, int]:
    """Receive the GM's figures and every house's post, then resolve and commit; the seconds
    the resolve and commit took, and the characters' actions resolved."""
    turn = game.next_turn
    if game.store.read_seed(turn) is None:
        game.store.write_seed(turn, derived_seed(master, "turn", turn))
    receive_session(game, master)
    t = time.perf_counter()
    session = game.start()
    game.commit(session)
    elapsed = time.perf_counter() - t
    game.reveal(turn)
    actions = sum(1 for e in session.orders.envelopes if e.player != CIV)
    return elapsed, actions


def bench_big_session(tmp: Path, repeats: int = 3) -> list[dict]:
    """A council session of 300 characters in 40 houses, resolved and committed."""
    base = tmp / "big"
    game = new_big_game(base)
    play_session(game, MASTER)  # the kickoff
    times, actions = [], 0
    for i in range(repeats):
        work = tmp / f"big-{i}"
        shutil.copytree(base, work)
        game = Game.open(work)
        game.seed_maker = lambda turn: derived_seed(MASTER, "turn", turn)
        elapsed, actions = play_session(game, MASTER)
        times.append(elapsed)
    state = game.state()
    value = statistics.median(times)
    return [
        {"name": "jungle_scale_characters", "value": state["characters"].height,
         "unit": "characters", "target": None, "ok": True},
        {"name": "jungle_scale_houses", "value": state["houses"].height, "unit": "houses",
         "target": None, "ok": True},
        {"name": "jungle_scale_cities", "value": state["cities"].height, "unit": "cities",
         "target": None, "ok": True},
        {"name": "jungle_scale_actions", "value": actions, "unit": "actions", "target": None,
         "ok": True},
        {"name": "jungle_scale_session_s", "value": round(value, 3), "unit": "s",
         "target": f"< {SESSION_TARGET_S:g}", "ok": value < SESSION_TARGET_S},
    ]


def bench_verify(tmp: Path, sessions: int = VERIFY_SESSIONS) -> list[dict]:
    """``verify`` of a game of the sample's size ``sessions`` council sessions in."""
    game = build(tmp / "long", sessions=sessions, master=MASTER)
    t = time.perf_counter()
    problems = Game.open(game.root).verify()
    value = time.perf_counter() - t
    return [
        {"name": "jungle_verify_sessions", "value": game.latest_turn, "unit": "sessions",
         "target": None, "ok": True},
        {"name": "jungle_verify_problems", "value": len(problems), "unit": "problems",
         "target": "0", "ok": not problems},
        {"name": "jungle_verify_s", "value": round(value, 3), "unit": "s",
         "target": f"< {VERIFY_TARGET_S:g}", "ok": value < VERIFY_TARGET_S},
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sessions", type=int, default=VERIFY_SESSIONS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as d:
        rows_ = bench_big_session(Path(d), args.repeats) + bench_verify(Path(d), args.sessions)
    for row in rows_:
        if args.json:
            print(json.dumps(row))
        else:
            target = row["target"] or ""
            print(f"{row['name']:<32} {row['value']:>10} {row['unit']:<11} {target:<8} "
                  f"{'ok' if row['ok'] else 'MISSED'}")
    return 0 if all(r["ok"] for r in rows_) else 1


if __name__ == "__main__":
    sys.exit(main())
