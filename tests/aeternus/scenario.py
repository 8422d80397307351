"""Compact Aeternus scenarios: a few hexes in the rules' coordinates, players on them, their
inventories, the lines they post (each a minute after the one before), and dice as the GM would
enter them."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

import polars as pl

from gmkit.core.parts import Context
from gmkit.core.dice import Dice, Roll
from gmkit.core.envelope import Envelope, Orders
from gmkit.core.orders import PostLine
from gmkit.core.params import Params
from gmkit.core.ruleset import find_ruleset
from gmkit.core.steps import Driver, Event
from gmkit.core.tables import State
from gmkit.rulesets.aeternus.coords import from_axial, to_axial
from gmkit.rulesets.aeternus.orders import parse_line
from gmkit.rulesets.aeternus.rules import PARAMS
from gmkit.rulesets.aeternus.state import Table
from gmkit.rulesets.aeternus.steps import STEPS
from gmkit.rulesets.aeternus.world import WORLD_SCHEMA, World

SEED = "a7" * 32
#: A Monday of phase 0 of a cycle that began on Sunday 2026-01-04.
START = "2026-01-04T00:00:00+00:00"
MONDAY = datetime(2026, 1, 5, 10, tzinfo=timezone.utc)

Coord = tuple[int, int, int]


def rules(**overrides: Any) -> Params:
    return Params(PARAMS, {"cycle_start": START, **overrides})


def world_frame(cells: dict[Coord, str], landmarks: dict[Coord, str] | None = None,
                features: dict[Coord, tuple[str, ...]] | None = None,
                corrupted: set[Coord] | None = None) -> pl.DataFrame:
    """The world of the given hexes (rules coordinates) and biomes, generated in that order."""
    axials = [to_axial(*c) for c in cells]
    coords = [from_axial(q, r) for q, r in axials]
    n = len(cells)
    return pl.DataFrame({
        "q": [q for q, _ in axials], "r": [r for _, r in axials],
        "s": [-q - r for q, r in axials],
        "x": [c.x for c in coords], "y": [c.y for c in coords], "z": [c.z for c in coords],
        "biome": list(cells.values()), "mass": [0] * n, "mass_size": [1] * n,
        "landmark": [(landmarks or {}).get(c, "Barren") for c in cells],
        "features": [list((features or {}).get(c, ())) for c in cells],
        "corrupted": [c in (corrupted or set()) for c in cells],
        "generated_order": list(range(n)), "generated_turn": [0] * n,
        "cause": ["origin"] + ["generate"] * (n - 1),
    }, schema=WORLD_SCHEMA)


def scenario(cells: dict[Coord, str], players: dict[str, Coord], *,
             items: dict[str, dict[str, int]] | None = None,
             landmarks: dict[Coord, str] | None = None,
             features: dict[Coord, tuple[str, ...]] | None = None,
             corrupted: set[Coord] | None = None, flags: dict[Coord, str] | None = None,
             fish: list[tuple[str, str, int]] = (),  # type: ignore[assignment]
             joined: dict[str, str] | None = None, **overrides: Any) -> State:
    """A state of the given world and players (each their own faction, joined at the start)."""
    r = rules(**overrides)
    world = World.from_frame(world_frame(cells, landmarks, features, corrupted), r)
    t = Table(world=world, rules=r)
    for pid, where in players.items():
        q, rr = to_axial(*where)
        t.players[pid] = {"id": pid, "name": pid, "faction": pid, "q": q, "r": rr,
                          "active": True, "joined": (joined or {}).get(pid, START),
                          "left_at": None, "declared": [], "ap": 0, "ap_phase": -1,
                          "stag_phase": -1}
    for pid, inv in (items or {}).items():
        for item, n in inv.items():
            t.gain(pid, item, n)
    for c, faction in (flags or {}).items():
        t.flags[to_axial(*c)] = faction
    t.fish = [{"player": p, "fish": f, "quality": q, "caught_turn": 0} for p, f, q in fish]
    t.qualities = {i: (n, "") for i, n in enumerate(
        ("Garbage", "Bronze", "Silver", "Gold", "Platinum", "Morbium", "Karkalicious"), 1)}
    t.clock = {"now": START, "phase": 0}
    t.judge = {"judge": r.first_judge or None, "since": START}
    return t.state(0)


def play(state: State, lines: list[tuple[str, str]], *, entered: dict[str, Any] | None = None,
         at: datetime = MONDAY, seed: str = SEED, turn: int = 1, **overrides: Any
         ) -> tuple[State, list[Event], list[Roll]]:
    """Resolve ``lines`` (player, text), posted a minute apart from ``at``."""
    envelopes = []
    for i, (pid, text) in enumerate(lines):
        order = parse_line(PostLine(1, text, False))
        when = (at + timedelta(minutes=i)).isoformat()
        envelopes.append(Envelope(order, pid, i + 1, 1, posted=when))
    ruleset, params = find_ruleset("aeternus"), rules(**overrides)
    # each action with the rules in force when it comes (a proposal may enact one at once)
    driver = Driver(STEPS, state, Orders(envelopes), Dice(seed, turn, entered=entered or {}),
                    params, lambda start, now: ruleset.rules_at(start, now, Context(params)))
    driver.run_all()
    return driver.state, driver.events, driver.rolls


def table(state: State, **overrides: Any) -> Table:
    return Table.of(state, rules(**overrides))


def where(state: State, pid: str) -> Coord:
    row = state["players"].filter(pl.col("id") == pid).row(0, named=True)
    return tuple(from_axial(row["q"], row["r"]))  # type: ignore[return-value]


def ap(state: State, pid: str) -> int:
    return int(state["players"].filter(pl.col("id") == pid)["ap"][0])


def inventory(state: State, pid: str) -> dict[str, int]:
    rows = state["items"].filter(pl.col("player") == pid)
    return dict(zip(rows["item"].to_list(), rows["count"].to_list()))


def failed(events: list[Event]) -> list[str]:
    return [e.text for e in events if e.kind == "failed"]


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events if e.kind not in ("order of play", "ap")]
