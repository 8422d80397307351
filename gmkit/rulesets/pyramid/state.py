"""Pyramid Power Wars' state tables, their schemas, the set-up of round 0 and shared reads.

Tables (every count is whole units):

* ``players``: stores (food, stone), population totals (serfs, priests; troops live in
  ``troops``), the standing orders for births and starvation, counters numbering nobles and
  pyramids, and status;
* ``spaces``: the land spaces: kind (food or stone), holder, serfs the holder assigned, and the
  position used to draw the board;
* ``borders``: adjacent pairs of spaces, both ways;
* ``nobles``: living nobles with glory and position; ``moved_from`` is set between the movement
  and contest steps of a round;
* ``troops``: stacks of troops by player and space (``moved_from`` as for nobles);
* ``pyramids``: by owner, number and size, with stone and glory paid, whether built, the priests
  staffing it and its position;
* ``dead``: DEAD held, each a defeated noble with the glory it had.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from gmkit.core.boards import Board
from gmkit.core.params import LIMIT, Params
from gmkit.core.parts import Context
from gmkit.core.playable import (PLAYERS, OneOf, Playable, Range, Refers, Required,
                                 StateProblem, Unique, row_problems)
from gmkit.core.playable import Rows as RowCount
from gmkit.core.players import PlayerInfo
from gmkit.core.tables import Schema, State, frame as core_frame
from gmkit.rulesets.pyramid.board import LandBoard
from gmkit.rulesets.pyramid.rules import (COLOURS, CONSTRUCTION, FOOD, FOOD_LAND, LAND,
                                          LAND_KINDS, MOVEMENT, NOBLE_NAMES, NOBLES, POPULATION,
                                          SERFS, SIZES, START, size_stone)

SCHEMAS: dict[str, Schema] = {
    "players": {"id": pl.String, "name": pl.String, "home": pl.String, "status": pl.String,
                "food": pl.Int64, "stone": pl.Int64, "serfs": pl.Int64, "priests": pl.Int64,
                "births": pl.String, "starve": pl.String, "nobles_made": pl.Int64,
                "pyramids_made": pl.Int64, "eliminated_round": pl.Int64},
    "spaces": {"name": pl.String, "kind": pl.String, "holder": pl.String, "serfs": pl.Int64,
               "x": pl.Float64, "y": pl.Float64},
    "borders": {"a": pl.String, "b": pl.String},
    "nobles": {"player": pl.String, "number": pl.Int64, "name": pl.String, "glory": pl.Int64,
               "space": pl.String, "moved_from": pl.String},
    "troops": {"player": pl.String, "space": pl.String, "count": pl.Int64,
               "moved_from": pl.String},
    "pyramids": {"player": pl.String, "number": pl.Int64, "size": pl.String, "space": pl.String,
                 "stone": pl.Int64, "glory": pl.Int64, "built": pl.Boolean, "priests": pl.Int64,
                 "moved_from": pl.String},
    "dead": {"name": pl.String, "glory": pl.Int64, "held_by": pl.String,
             "from_player": pl.String, "died_round": pl.Int64},
}

ACTIVE, ELIMINATED = "active", "eliminated"

Rows = list[dict[str, Any]]


class SetupError(ValueError):
    """A player list or board that cannot start a game of Pyramid Power Wars."""


def rows(state: State, name: str) -> Rows:
    """A table as a list of row dictionaries (steps edit copies, never the frames)."""
    return state[name].to_dicts()


def frame(table_rows: Rows, name: str) -> pl.DataFrame:
    """Rows back into a frame of the schema of the table ``name`` (the steps' rows come from
    frames of that schema, so polars converts them without a check of each value)."""
    return core_frame(table_rows, SCHEMAS[name], table=name, strict=False)


def adjacency(state: State) -> dict[str, frozenset[str]]:
    """Each space's neighbours."""
    out: dict[str, set[str]] = {n: set() for n in state["spaces"]["name"].to_list()}
    for a, b in state["borders"].iter_rows():
        out[a].add(b)
        out[b].add(a)
    return {k: frozenset(v) for k, v in out.items()}


def holders(state: State) -> dict[str, str | None]:
    """Each space's holder (None when no one holds it)."""
    return dict(state["spaces"].select("name", "holder").iter_rows())


def lands_of(state: State, player: str) -> list[str]:
    """The spaces a player holds, in board order."""
    return state["spaces"].filter(pl.col("holder") == player)["name"].to_list()


def troops_of(state: State, player: str) -> int:
    """A player's troops, all stacks together."""
    return int(state["troops"].filter(pl.col("player") == player)["count"].sum())


def population(state: State, player: str) -> dict[str, int]:
    """A player's population by kind."""
    me = state["players"].filter(pl.col("id") == player).row(0, named=True)
    return {"serfs": int(me["serfs"]), "priests": int(me["priests"]),
            "troops": troops_of(state, player)}


def functioning(pyramid: Mapping[str, Any], rules: Params) -> bool:
    """A pyramid functions (moves and fights) when built and staffed by priests equal to its
    stone cost (PYRAMIDS)."""
    return bool(pyramid["built"]) and int(pyramid["priests"]) >= size_stone(pyramid["size"], rules)


def noble_name(used: set[str]) -> str:
    """The first name of :data:`NOBLE_NAMES` not in ``used`` (with a numeral once all are)."""
    for numeral in ("", " II", " III", " IV", " V", " VI", " VII", " VIII", " IX", " X"):
        for name in NOBLE_NAMES:
            if name + numeral not in used:
                return name + numeral
    n = len(used) + 1
    while f"Noble {n}" in used:
        n += 1
    return f"Noble {n}"


def names_in_use(state: State) -> set[str]:
    """Names of living nobles and DEAD."""
    return set(state["nobles"]["name"].to_list()) | set(state["dead"]["name"].to_list())


def parse_births(text: str) -> list[tuple[str, int]]:
    """A stored births pattern (``"priests:2,troops:1"``) as (kind, count) pairs."""
    out = []
    for part in (p for p in text.split(",") if p.strip()):
        kind, _, n = part.partition(":")
        out.append((kind.strip(), int(n or 1)))
    return out


def births_text(pattern: Sequence[tuple[str, int]]) -> str:
    """A births pattern as stored."""
    return ",".join(f"{k}:{n}" for k, n in pattern)


def setup_tables(player_ids: Sequence[tuple[str, str]], spaces: Sequence[Mapping[str, Any]],
                 borders: Sequence[tuple[str, str]], areas: Sequence[Sequence[str]],
                 rules: Params) -> State:
    """Round 0 from plain board data.

    ``player_ids`` are (id, name) pairs; ``spaces`` rows with name, kind, x and y; ``borders``
    adjacent pairs (one way suffices); ``areas`` one start area per player (home first). Each
    player holds the first ``start_lands`` spaces of its area, with its first noble and its
    troops at home and its serfs assigned one to a land (food first), then second units on food.
    """
    if len(player_ids) > rules.max_players:
        raise SetupError(f"at most {rules.max_players} players, not {len(player_ids)}")
    if len(areas) < len(player_ids):
        raise SetupError(f"the board has {len(areas)} start areas for {len(player_ids)} players")
    ids = [pid for pid, _ in player_ids]
    if len(set(ids)) != len(ids):
        raise SetupError("a player id is given twice")
    names = {s["name"] for s in spaces}
    kinds = {s["name"]: s["kind"] for s in spaces}
    for s in spaces:
        if s["kind"] not in LAND_KINDS:
            raise SetupError(f"space {s['name']!r}: kind {s['kind']!r} is not food or stone")
    held: dict[str, str] = {}
    space_serfs: dict[str, int] = {}
    player_rows, noble_rows, troop_rows = [], [], []
    used: set[str] = set()
    for (pid, name), area in zip(player_ids, areas):
        mine = list(area)[: int(rules.start_lands)]
        for n in mine:
            if n not in names:
                raise SetupError(f"start area of {pid}: no space {n!r}")
            if n in held:
                raise SetupError(f"start area of {pid}: {n} is {held[n]}'s already")
            held[n] = pid
        if not mine:
            raise SetupError(f"start area of {pid} is empty")
        home = mine[0]
        order = sorted(mine, key=lambda n: kinds[n] != FOOD_LAND)
        left = int(rules.start_serfs)
        for pass_ in (1, 2):
            for n in order:
                if left and (pass_ == 1 or kinds[n] == FOOD_LAND):
                    space_serfs[n] = space_serfs.get(n, 0) + 1
                    left -= 1
        noble = noble_name(used)
        used.add(noble)
        noble_rows.append({"player": pid, "number": 1, "name": noble, "glory": 0,
                           "space": home, "moved_from": None})
        if rules.start_troops > 0:
            troop_rows.append({"player": pid, "space": home, "count": int(rules.start_troops),
                               "moved_from": None})
        player_rows.append({"id": pid, "name": name, "home": home, "status": ACTIVE,
                            "food": int(rules.start_food), "stone": int(rules.start_stone),
                            "serfs": int(rules.start_serfs), "priests": int(rules.start_priests),
                            "births": births_text([(rules.births_default, 1)]), "starve": "",
                            "nobles_made": 1, "pyramids_made": 0, "eliminated_round": None})
    space_rows = [{"name": s["name"], "kind": s["kind"], "holder": held.get(s["name"]),
                   "serfs": space_serfs.get(s["name"], 0), "x": float(s.get("x", 0.0)),
                   "y": float(s.get("y", 0.0))} for s in spaces]
    pairs = {tuple(sorted(p)) for p in borders}
    border_rows = [{"a": a, "b": b} for x, y in sorted(pairs) for a, b in ((x, y), (y, x))]
    return State(0, {"players": frame(player_rows, "players"),
                     "spaces": frame(space_rows, "spaces"),
                     "borders": frame(border_rows, "borders"),
                     "nobles": frame(noble_rows, "nobles"),
                     "troops": frame(troop_rows, "troops"),
                     "pyramids": frame([], "pyramids"), "dead": frame([], "dead")})


def setup(player_ids: Sequence[tuple[str, str]], land: LandBoard, rules: Params) -> State:
    """Round 0 on a land board: the board's start areas for this many players, in order."""
    if not 2 <= len(player_ids) <= rules.max_players:
        raise SetupError(f"2 to {rules.max_players} players, not {len(player_ids)}")
    return setup_tables(player_ids, land.spaces(), land.board.edges(), land.areas(len(player_ids)),
                        rules)


def _births_problem(text: str) -> str | None:
    """What is wrong with a stored births pattern (None: nothing)."""
    for part in (p for p in text.split(",") if p.strip()):
        kind, _, n = part.partition(":")
        if kind.strip() not in POPULATION:
            return f"{kind.strip()!r} is no kind of population ({', '.join(POPULATION)})"
        if n and not (n.strip().isdigit() and int(n) <= LIMIT):
            return f"{n.strip()!r} is not a whole number of births"
    return None


def playable(state: State, ctx: Context) -> list[StateProblem]:
    """What the data cannot say of a playable state of Pyramid Power Wars: borders both ways,
    never from a space to itself (WAR); serfs only on land their player holds (RESOURCES:
    serfs are assigned to a land); a name for each noble and DEAD used once (RESOURCES:
    nobles); births written as kinds of population with counts (RESOURCES: food)."""
    out: list[StateProblem] = []
    borders = state["borders"]
    pairs = borders.rows()
    both = set(pairs)
    out += row_problems("borders", borders, [i for i, (a, b) in enumerate(pairs) if a == b], "b",
                        lambda i: f"{pairs[i][0]} borders itself ({MOVEMENT})")
    out += row_problems("borders", borders,
                        [i for i, (a, b) in enumerate(pairs) if a != b and (b, a) not in both],
                        "b", lambda i: f"{pairs[i][0]} borders {pairs[i][1]} but not the other "
                        f"way round: a border is both ways ({MOVEMENT})")
    players = state["players"]
    spaces = state["spaces"]
    held, on = spaces["holder"].to_list(), spaces["serfs"].to_list()
    out += row_problems("spaces", spaces, [i for i, (h, n) in enumerate(zip(held, on))
                                           if h is None and n], "serfs",
                        lambda i: f"{on[i]} serfs on land nobody holds ({SERFS}: serfs work "
                        "their player's land)")
    nobles, dead = state["nobles"]["name"].to_list(), set(state["dead"]["name"].to_list())
    out += row_problems("nobles", state["nobles"], [i for i, n in enumerate(nobles)
                                                    if n in dead], "name",
                        lambda i: f"{nobles[i]!r} is the name of one of the DEAD too ({NOBLES})")
    births = players["births"].to_list()
    out += row_problems("players", players, [i for i, b in enumerate(births)
                                             if _births_problem(b)], "births",
                        lambda i: f"{_births_problem(births[i])} ({FOOD})")
    return out


_COUNTS = ("food", "stone", "serfs", "priests", "nobles_made", "pyramids_made")

#: A state of Pyramid Power Wars the rules can play: each player, space, border, noble, stack
#: and pyramid once, a single noble to a space, every name resolving, no count below nothing.
PLAYABLE = Playable(
    unique=(Unique("players", "id"), Unique("spaces", "name"), Unique("borders", "a", "b"),
            Unique("nobles", "player", "number"), Unique("nobles", "name"),
            Unique("nobles", "space"), Unique("troops", "player", "space"),
            Unique("pyramids", "player", "number"), Unique("dead", "name")),
    required=(Required("players", "home", "status", "births", "starve", *_COUNTS),
              Required("spaces", "kind", "serfs", "x", "y"), Required("borders", "a", "b"),
              Required("nobles", "player", "glory", "space"),
              Required("troops", "count"),
              Required("pyramids", "size", "stone", "glory", "built", "priests"),
              Required("dead", "glory", "held_by")),
    refers=(Refers("players.id", PLAYERS, every=True),
            Refers("players.home", "spaces.name", what="space"),
            Refers("spaces.holder", "players.id", what="player"),
            Refers("borders.a", "spaces.name", what="space"),
            Refers("borders.b", "spaces.name", what="space"),
            Refers("nobles.player", "players.id", what="player"),
            Refers("nobles.space", "spaces.name", what="space"),
            Refers("nobles.moved_from", "spaces.name", what="space"),
            Refers("troops.player", "players.id", what="player"),
            Refers("troops.space", "spaces.name", what="space"),
            Refers("troops.moved_from", "spaces.name", what="space"),
            Refers("pyramids.player", "players.id", what="player"),
            Refers("pyramids.space", "spaces.name", what="space"),
            Refers("pyramids.moved_from", "spaces.name", what="space"),
            Refers("dead.held_by", "players.id", what="player"),
            Refers("dead.from_player", "players.id", what="player")),
    ranges=(*(Range(f"players.{c}", 0) for c in _COUNTS), Range("players.eliminated_round", 0),
            Range("spaces.serfs", 0, rule=SERFS), Range("nobles.number", 1),
            Range("nobles.glory", 0, rule=NOBLES), Range("troops.count", 1),
            Range("pyramids.number", 1), Range("pyramids.stone", 0, rule=CONSTRUCTION),
            Range("pyramids.glory", 0, rule=CONSTRUCTION), Range("pyramids.priests", 0),
            Range("dead.glory", 0, rule=NOBLES), Range("dead.died_round", 0)),
    one_of=(OneOf("players.status", (ACTIVE, ELIMINATED)),
            OneOf("spaces.kind", LAND_KINDS, LAND), OneOf("pyramids.size", SIZES, CONSTRUCTION)),
    rows=(RowCount("players", 2, "max_players", START),),
    check=playable,
)


def check_players(players: Sequence[PlayerInfo], board: Board[Any] | None) -> list[str]:
    """Two to eight players (the board's start areas), each id once."""
    problems = []
    if not 2 <= len(players) <= 8:
        problems.append(f"Pyramid Power Wars takes 2 to 8 players, not {len(players)}")
    seen: set[str] = set()
    for i, p in enumerate(players, 1):
        if p.id.casefold() in seen:
            problems.append(f"player {i} '{p.name}': id '{p.id}' is given twice")
        seen.add(p.id.casefold())
    return problems


def example_players(board: Board[Any] | None) -> list[dict[str, Any]]:
    """Five houses, named by their colours."""
    names = ("House of Ra", "House of Isis", "House of Horus", "House of Set",
             "House of Thoth")
    return [{"id": c, "name": n} for c, n in zip(COLOURS, names)]


def to_move(state: State) -> list[str]:
    """The players still in the game, who post for the coming round."""
    return state["players"].filter(pl.col("status") == ACTIVE)["id"].to_list()


__all__ = ["ACTIVE", "ELIMINATED", "PLAYABLE", "POPULATION", "SCHEMAS", "SetupError",
           "adjacency", "check_players", "example_players", "frame", "functioning", "holders",
           "lands_of", "noble_name", "population", "rows", "setup", "setup_tables", "to_move"]
