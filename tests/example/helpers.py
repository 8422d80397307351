"""Compact fixtures for Three Hills scenarios: diggers in one line each, orders as players post
them, dice as the GM enters them."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import polars as pl

from gmkit.core.dice import Dice
from gmkit.core.envelope import Envelope, Orders
from gmkit.core.orders import OrderError
from gmkit.core.params import Params
from gmkit.core.parts import Context
from gmkit.core.players import PlayerInfo
from gmkit.core.steps import Driver
from gmkit.core.tables import State
from gmkit.rulesets import find_ruleset

RULESET = find_ruleset("example")
SEED = "00" * 32


def scenario(diggers: Mapping[str, tuple[str, int, int]], *, hills: Mapping[str, int] | None = None,
             turn: int = 3, rules: Mapping[str, Any] | None = None) -> tuple[State, Params]:
    """A state after ``turn``: ``diggers`` maps a name to (place, turn arrived, gold);
    ``hills`` sets the gold left in some hills (the others are full)."""
    params = RULESET.rules(rules)
    state = RULESET.setup(Context(params, players=tuple(PlayerInfo(pid, pid) for pid in diggers)))
    rows = [{"id": pid, "name": pid, "place": place, "arrived": arrived, "gold": gold}
            for pid, (place, arrived, gold) in diggers.items()]
    left = state["hills"].with_columns(
        pl.col("place").replace_strict(dict(hills or {}), default=pl.col("gold_left"),
                                       return_dtype=pl.Int64).alias("gold_left"))
    return state.replace(turn=turn, diggers=pl.DataFrame(rows, schema=state["diggers"].schema),
                         hills=left), params


def problems_of(state: State, params: Params, posts: Mapping[str, str]) -> dict[str, list[str]]:
    """Every problem of the posts, parsed and validated, as the GM would paste them back."""
    parsed = {p: RULESET.parse_post(text, p, state, params) for p, text in posts.items()}
    problems: dict[str, list[OrderError]] = {p: list(r.errors) for p, r in parsed.items()
                                             if r.errors}
    for p, errs in RULESET.validate(state, Orders.parsed(parsed), Context(params)).items():
        problems.setdefault(p, []).extend(errs)
    return {p: [str(e) for e in errs] for p, errs in problems.items()}


def resolve(state: State, params: Params, posts: Mapping[str, str],
            dice: Mapping[str, Any] | None = None, secret: Collection[str] = ()) -> Driver:
    """Run the whole turn on valid posts (those of ``secret`` players sent in private)."""
    assert problems_of(state, params, posts) == {}
    envelopes = [Envelope(order, p, seq, line.number, secret=p in secret)
                 for seq, (p, text) in enumerate(posts.items(), 1)
                 for line, order in RULESET.parse_post(text, p, state, params).orders]
    driver = Driver(RULESET.steps(Context(params)), state, Orders(envelopes),
                    Dice(SEED, state.turn + 1, entered=dict(dice or {})), params)
    driver.run_all()
    return driver


def digger(state: State, pid: str) -> dict[str, Any]:
    """One digger's row."""
    return state["diggers"].filter(pl.col("id") == pid).row(0, named=True)
