"""Three Hills' state tables, their schemas and the set-up of turn 0."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from gmkit.core.params import Params
from gmkit.core.players import PlayerInfo
from gmkit.core.tables import Schema, State
from gmkit.rulesets.example.rules import CAMP, HILL, board

SCHEMAS: dict[str, Schema] = {
    # arrived: the turn the digger reached its place (the order of digging); gold is secret.
    "diggers": {"id": pl.String, "name": pl.String, "place": pl.String,
                "arrived": pl.Int64, "gold": pl.Int64},
    "hills": {"place": pl.String, "gold_left": pl.Int64},
}


class SetupError(ValueError):
    """A player list that cannot start a game of Three Hills."""


def setup(players: Sequence[PlayerInfo], rules: Params) -> State:
    """Turn 0: every digger at the Camp with no gold, every hill full."""
    ids = [p.id for p in players]
    if not 2 <= len(ids) <= rules.max_players:
        raise SetupError(f"two to {rules.max_players} diggers, not {len(ids)}")
    if len(set(ids)) != len(ids):
        raise SetupError(f"a digger is listed twice: {', '.join(sorted(ids))}")
    diggers = pl.DataFrame({"id": ids, "name": [p.name for p in players],
                            "place": [CAMP] * len(ids), "arrived": [0] * len(ids),
                            "gold": [0] * len(ids)}, schema=dict(SCHEMAS["diggers"]))
    hills = list(board().of_kind(HILL))
    return State(0, {"diggers": diggers,
                     "hills": pl.DataFrame({"place": hills,
                                            "gold_left": [rules.hill_gold] * len(hills)},
                                           schema=dict(SCHEMAS["hills"]))})


def digger(state: State, pid: str) -> dict[str, Any]:
    """One digger's row."""
    return state["diggers"].filter(pl.col("id") == pid).row(0, named=True)


def gold_left(state: State) -> dict[str, int]:
    """Gold left in each hill."""
    return dict(state["hills"].select("place", "gold_left").iter_rows())
