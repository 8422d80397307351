"""What a state of Aeternus the rules can play is (:data:`PLAYABLE`, see
:mod:`gmkit.core.playable`): the keys, references, ranges and words of its tables as data, and
one cross-row check for the rest (the world's coordinates, its order of generation, times).
"""

from __future__ import annotations

from datetime import datetime

import polars as pl

from gmkit.core.boards.hexgrid import MAX_HEX
from gmkit.core.parts import Context
from gmkit.core.playable import (OneOf, Playable, Range, Refers, Required, Rows, StateProblem,
                                 Unique, row_problems)
from gmkit.core.tables import State
from gmkit.rulesets.aeternus.records import CAUSES
from gmkit.rulesets.aeternus.rules import (ACTIONS, BIOME_ORDER, CONSTRUCTIBLE, FISH_CLASS,
                                           HEXES, ITEMS, JUDGEMENT, LANDMARK_ORDER,
                                           MEDALLION_FISH, MERGING, PARAMS, PHASES, PROPOSALS,
                                           STANDARD_FISH, TRADING)

#: The features a hex may hold (5.3.3): those players construct.
FEATURES = tuple(CONSTRUCTIBLE)

#: The columns holding a time (ISO 8601), by table.
TIMES = {"players": ("joined", "left_at"), "proposals": ("posted_at", "ends"),
         "votes": ("posted_at",), "merges": ("posted_at",), "trades": ("posted_at",),
         "clock": ("now",), "judge": ("since",), "requests": ("posted_at",),
         "rulings": ("posted_at",), "confidence": ("posted_at", "ends"),
         "candidacies": ("posted_at",), "judge_votes": ("posted_at",)}


def _not_a_time(text: str | None) -> bool:
    if text is None:
        return False
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return True
    return False


def playable(state: State, ctx: Context) -> list[StateProblem]:
    """What the data cannot say of a playable state of Aeternus: every hex of the world where
    its coordinates say (5.1: ``s`` is ``-q-r``, ``x, y, z`` its rules' coordinate) and the
    world generated in an order without gaps (5.3: hex ``n`` is the ``n``-th generated); every
    time a time (1: ISO 8601)."""
    out: list[StateProblem] = []
    world = state["world"]
    if world.height:
        q, r = pl.col("q"), pl.col("r")
        y = pl.max_horizontal(pl.min_horizontal(q, -r), pl.min_horizontal(
            pl.max_horizontal(q, -r), pl.lit(0)))
        checks = world.select(
            (pl.col("s") != -q - r).alias("s"),
            ((pl.col("x") != q - y) | (pl.col("y") != y) | (pl.col("z") != -r - y)).alias("x"))
        for column in ("s", "x"):
            bad = checks[column].arg_true().to_list()
            out += row_problems("world", world, bad, column,
                                lambda i: f"hex ({world['q'][i]}, {world['r'][i]}) is not where "
                                f"its {'s' if column == 's' else 'x, y and z'} say ({HEXES})")
        low, high = world["generated_order"].min(), world["generated_order"].max()
        if low != 0 or high != world.height - 1:
            out.append(StateProblem("world", None, "generated_order",
                                    f"the hexes are numbered {low!r} to {high!r}; "
                                    f"{world.height} hexes are numbered 0 to {world.height - 1} "
                                    "in the order they were generated (5.3)"))
    for table, columns in TIMES.items():
        frame = state[table]
        for column in columns:
            values: list[str | None] = frame[column].to_list()

            def say(i: int, v: list[str | None] = values) -> str:
                return f"{v[i]!r} is not a time such as 2026-01-01T00:00:00+00:00 (1)"

            out += row_problems(table, frame, [i for i, v in enumerate(values) if _not_a_time(v)],
                                column, say)
    return out


#: A state of Aeternus the rules can play: each player, hex, flag and ledger entry once, every
#: name and hex resolving (a player stands on a generated hex), the rules' words, no count
#: below nothing and no hex beyond a million from the origin.
PLAYABLE = Playable(
    unique=(Unique("players", "id"), Unique("items", "player", "item"),
            Unique("world", "q", "r"), Unique("world", "generated_order"),
            Unique("flags", "q", "r"), Unique("seen", "player", "q", "r"),
            Unique("qualities", "quality"), Unique("proposals", "id"), Unique("merges", "id"),
            Unique("trades", "id"), Unique("requests", "id"), Unique("rulings", "id"),
            Unique("confidence", "id"), Unique("candidacies", "id")),
    required=(Required("players", "faction", "q", "r", "active", "joined", "ap", "ap_phase",
                       "stag_phase"),
              Required("items", "count"), Required("fish", "player", "fish", "quality"),
              Required("world", "s", "x", "y", "z", "biome", "landmark", "mass", "mass_size",
                       "corrupted", "generated_turn", "cause"),
              Required("flags", "faction"), Required("qualities", "name"),
              Required("proposals", "author", "posted_at", "ends", "status", "votes_for",
                       "votes_against"),
              Required("votes", "proposal", "player", "vote", "posted_at"),
              Required("rule_changes", "proposal", "rule_name"),
              Required("merges", "requester", "faction_a", "faction_b", "posted_at", "status"),
              Required("merge_votes", "merge", "player", "vote"),
              Required("trades", "player", "partner", "posted_at", "status"),
              Required("clock", "now", "phase"), Required("judge", "since"),
              Required("requests", "player", "posted_at"),
              Required("rulings", "request", "judge", "posted_at", "status"),
              Required("confidence", "ruling", "posted_at", "ends", "status", "affirm",
                       "overturn"),
              Required("candidacies", "player", "posted_at", "week", "status"),
              Required("judge_votes", "kind", "target", "player", "vote", "posted_at")),
    refers=(Refers("players.q,r", "world.q,r", what="generated hex"),
            Refers("players.declared", "players.id", what="player"),
            Refers("items.player", "players.id", what="player"),
            Refers("fish.player", "players.id", what="player"),
            Refers("flags.q,r", "world.q,r", what="generated hex"),
            Refers("seen.player", "players.id", what="player"),
            Refers("proposals.author", "players.id", what="player"),
            Refers("votes.proposal", "proposals.id", what="proposal"),
            Refers("votes.player", "players.id", what="player"),
            Refers("rule_changes.proposal", "proposals.id", what="proposal"),
            Refers("merges.requester", "players.id", what="player"),
            Refers("merge_votes.merge", "merges.id", what="merge request"),
            Refers("merge_votes.player", "players.id", what="player"),
            Refers("trades.player", "players.id", what="player"),
            Refers("trades.partner", "players.id", what="player"),
            Refers("judge.judge", "players.id", what="player"),
            Refers("requests.player", "players.id", what="player"),
            Refers("requests.ruling", "rulings.id", what="ruling"),
            Refers("rulings.request", "requests.id", what="request"),
            Refers("rulings.judge", "players.id", what="player"),
            Refers("confidence.ruling", "rulings.id", what="ruling"),
            Refers("candidacies.player", "players.id", what="player"),
            Refers("judge_votes.player", "players.id", what="player")),
    ranges=(*(Range(f"{t}.{c}", -MAX_HEX, MAX_HEX, rule=HEXES)
              for t in ("players", "world", "flags", "seen") for c in ("q", "r")),
            *(Range(f"world.{c}", -2 * MAX_HEX, 2 * MAX_HEX, rule=HEXES)
              for c in ("s", "x", "y", "z")),
            Range("players.ap", 0, rule=ACTIONS), Range("players.ap_phase", -1, rule=PHASES),
            Range("players.stag_phase", -1, rule=PHASES),
            Range("items.count", 1, rule="7"), Range("fish.quality", 0, rule=FISH_CLASS),
            Range("fish.caught_turn", 0), Range("world.mass", 0), Range("world.mass_size", 1),
            Range("world.generated_order", 0), Range("world.generated_turn", 0),
            Range("qualities.quality", 1, rule="7.3.2.1"),
            Range("proposals.votes_for", 0), Range("proposals.votes_against", 0),
            Range("rule_changes.from_phase", 0), Range("clock.phase", 0, rule=PHASES),
            Range("candidacies.week", 0), Range("confidence.affirm", 0),
            Range("confidence.overturn", 0)),
    one_of=(OneOf("items.item", ITEMS, "7"),
            OneOf("fish.fish", (*STANDARD_FISH, *MEDALLION_FISH), FISH_CLASS),
            OneOf("world.biome", BIOME_ORDER, "5.3.1"),
            OneOf("world.landmark", LANDMARK_ORDER, "5.3.2"),
            OneOf("world.features", FEATURES, "5.3.3"), OneOf("world.cause", CAUSES),
            OneOf("proposals.status", ("open", "accepted", "rejected", "void"), PROPOSALS),
            OneOf("votes.vote", ("for", "against"), PROPOSALS),
            OneOf("rule_changes.rule_name", tuple(p.name for p in PARAMS), PROPOSALS),
            OneOf("merges.status", ("open", "accepted", "refused", "void"), MERGING),
            OneOf("merge_votes.vote", ("for", "against"), MERGING),
            OneOf("trades.status", ("open", "done", "failed"), TRADING),
            OneOf("rulings.status", ("standing", "overturned"), JUDGEMENT),
            OneOf("confidence.status", ("open", "affirmed", "overturned"), JUDGEMENT),
            OneOf("candidacies.status", ("open", "popular", "unpopular", "elected"),
                  JUDGEMENT)),
    rows=(Rows("clock", 1, 1), Rows("judge", 1, 1), Rows("world", 1, rule=HEXES)),
    check=playable,
)
