"""Compact fixtures for Cien scenarios: a map drawn as a grid of names, a state in a few lines,
orders as players post them, and dice as the GM enters them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gmkit.core.envelope import Orders

import polars as pl

from gmkit.core.dice import Dice
from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.players import PlayerInfo
from gmkit.core.steps import Driver
from gmkit.core.tables import State
from gmkit.rulesets import find_ruleset

RULESET = find_ruleset("cien")


def grid_map(text: str) -> PolygonBoard:
    """A map from rows of names; each name is a unit square, ``~N`` is Great Sea N.

    A name written in several cells makes one province of them (they must touch).
    """
    cells: dict[str, list[tuple[int, int]]] = {}
    rows = [r.split() for r in text.strip().splitlines()]
    for y, row in enumerate(rows):
        for x, name in enumerate(row):
            name = f"Great Sea {name[1:]}" if name.startswith("~") else name
            cells.setdefault(name, []).append((x, len(rows) - y))
    from shapely.geometry import box, mapping
    from shapely.ops import unary_union

    features = []
    for name, where in cells.items():
        shape = unary_union([box(x, y, x + 1, y + 1) for x, y in where])
        features.append({"type": "Feature", "geometry": mapping(shape),
                         "properties": {"name": name,
                                        "kind": "sea" if name.startswith("Great Sea") else "land",
                                        "capital": name == "Cien"}})
    return PolygonBoard.from_dict({"type": "FeatureCollection", "name": "grid",
                              "features": features})


def scenario(grid: str, players: Mapping[str, tuple[str, str]], *,
             owners: Mapping[str, str] | None = None, output: Mapping[str, int] | None = None,
             treasury: Mapping[str, int] | None = None, rebels: tuple[str, ...] = (),
             rules: Mapping[str, Any] | None = None, turn: int = 0):
    """A state: ``players`` maps colour -> (home, government); ``owners`` adds more holdings."""
    params = RULESET.rules(rules or {})
    infos = [PlayerInfo(c, c, {"state": home, "government": gov})
             for c, (home, gov) in players.items()]
    state = RULESET.setup(infos, grid_map(grid), params)
    prov = state["provinces"]
    for name, who in (owners or {}).items():
        prov = prov.with_columns(pl.when(pl.col("name") == name).then(pl.lit(who))
                                 .otherwise(pl.col("owner")).alias("owner"))
    for name, value in (output or {}).items():
        prov = prov.with_columns(pl.when(pl.col("name") == name).then(pl.lit(value))
                                 .otherwise(pl.col("output")).alias("output"))
    pls = state["players"]
    for colour, value in (treasury or {}).items():
        pls = pls.with_columns(pl.when(pl.col("id") == colour).then(pl.lit(value))
                               .otherwise(pl.col("treasury")).alias("treasury"))
    pls = pls.with_columns(pl.col("rebel") | pl.col("id").is_in(list(rebels)))
    state = state.replace(provinces=prov, players=pls, turn=turn)
    from gmkit.rulesets.cien.state import income_of
    inc = income_of(state, params)
    pls = state["players"].with_columns(
        pl.col("id").replace_strict(inc, default=0, return_dtype=pl.Int64).alias("income"))
    return state.replace(players=pls), params


def bold(post: str) -> str:
    """A post as a Cien player writes it: orders in bold (each line of a post written without
    any markup is bolded; line numbers stay)."""
    if "[b]" in post.lower():
        return post
    return "\n".join(f"[b]{line}[/b]" if line.strip() else line for line in post.split("\n"))


def orders_of(state: State, params, posts: Mapping[str, str], secret: bool = False):
    """Parse and validate posts (written plainly, or with their own bold); returns (accepted
    orders, problems by player)."""
    parsed = {p: RULESET.parse_post(bold(text), p, state, params, secret=secret)
              for p, text in posts.items()}
    for p, res in parsed.items():
        assert not res.errors, f"{p}: {res.report()}"
    problems = RULESET.validate(state, parsed, params)
    kept = Orders.parsed(parsed).accepted(problems)
    return {p: kept[p] if p in kept else [] for p in parsed}, problems


def resolve(state: State, params, posts: Mapping[str, str], dice: Mapping[str, Any] | None = None,
            seed: str = "00" * 32):
    """Run every step; returns the driver (state, events, rolls)."""
    orders, problems = orders_of(state, params, posts)
    assert not problems, problems
    driver = Driver(RULESET.steps(params), state, orders, Dice(seed, state.turn + 1,
                                                               entered=dict(dice or {})), params)
    driver.run_all()
    return driver


def owner(state: State, name: str) -> str | None:
    return state["provinces"].filter(pl.col("name") == name)["owner"].item()


def output(state: State, name: str) -> int:
    return state["provinces"].filter(pl.col("name") == name)["output"].item()


def player(state: State, colour: str) -> dict:
    return state["players"].filter(pl.col("id") == colour).row(0, named=True)
