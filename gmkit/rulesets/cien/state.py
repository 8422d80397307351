"""The Crown of Cien's state tables, their schemas, the board and players it starts from, its
set-up, and the reads every step shares."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from gmkit.core.boards import Board
from gmkit.core.boards.polygon import PolygonBoard, polygon_board
from gmkit.core.params import Params
from gmkit.core.parts import Context
from gmkit.core.playable import (OneOf, Playable, Range, Refers, Required, Rows, StateProblem,
                                 Unique, row_problems)
from gmkit.core.players import PlayerInfo
from gmkit.core.tables import Schema, State, frame
from gmkit.rulesets.cien.rules import (CAPITAL, COLOURS, DIVISIONS, GRAIN, INTRO, MISSIONS,
                                       WAR)

SCHEMAS: dict[str, Schema] = {
    "provinces": {"name": pl.String, "owner": pl.String, "output": pl.Int64,
                  "capital": pl.Boolean, "conquered_turn": pl.Int64,
                  "conquered_from": pl.String},
    "borders": {"a": pl.String, "b": pl.String},
    "coasts": {"province": pl.String, "sea": pl.String},
    "players": {"id": pl.String, "name": pl.String, "lord": pl.String, "arms": pl.String,
                "government": pl.String, "status": pl.String, "rebel": pl.Boolean,
                "home": pl.String, "treasury": pl.Int64, "income": pl.Int64,
                "joined_turn": pl.Int64, "eliminated_turn": pl.Int64,
                "spent_defense": pl.Int64, "spent_invest": pl.Int64,
                "spent_conquest": pl.Int64, "gifts": pl.Int64},
    "missions": {"id": pl.Int64, "player": pl.String, "kind": pl.String, "target": pl.String,
                 "amount": pl.Int64, "progress": pl.Int64, "given_turn": pl.Int64,
                 "deadline_turn": pl.Int64, "status": pl.String, "ended_turn": pl.Int64},
    "empire": {"emperor_alive": pl.Boolean, "died_turn": pl.Int64, "killer": pl.String,
               "winners": pl.String},
}

ACTIVE, ELIMINATED, FREE = "active", "eliminated", "free"
#: The forms of government (LES DIVISIONS ADMINISTRATIVES DE L'EMPIRE).
GOVERNMENTS = ("city-state", "duchy", "republic", "kingdom")
#: The Emperor's missions and how one ends (SON ALTESSE IMPÉRIALE: Imperial Missions).
MISSION_KINDS = ("provision", "punishment", "subjugation")
MISSION_STATUSES = ("active", "fulfilled", "failed", "voided")


def playable(state: State, ctx: Context) -> list[StateProblem]:
    """What the data cannot say of a playable state of Cien: one Imperial City, the province
    named Cien (DIVISIONS); borders both ways and never from a province to itself (WAR: a
    state is attacked from a neighbour); every held state held by a player in the game
    (INTRO); an Imperial Mission's target as its kind needs (a province to punish, a Rebel
    to subjugate) and at most one mission at a time for each player (MISSIONS)."""
    out: list[StateProblem] = []
    provinces = state["provinces"]
    names = provinces["name"].to_list()
    capital = provinces["capital"].to_list()
    out += row_problems("provinces", provinces,
                        [i for i, (n, c) in enumerate(zip(names, capital)) if c != (n == CAPITAL)],
                        "capital", lambda i: f"only {CAPITAL}, the Imperial City, is the capital "
                        f"({DIVISIONS})")
    if CAPITAL not in names:
        out.append(StateProblem("provinces", None, "name", f"no province {CAPITAL!r}, the "
                                f"Imperial City ({DIVISIONS})"))
    borders = state["borders"]
    pairs = borders.rows()
    both = set(pairs)
    out += row_problems("borders", borders, [i for i, (a, b) in enumerate(pairs) if a == b], "b",
                        lambda i: f"{pairs[i][0]} borders itself ({WAR})")
    out += row_problems("borders", borders,
                        [i for i, (a, b) in enumerate(pairs) if a != b and (b, a) not in both],
                        "b", lambda i: f"{pairs[i][0]} borders {pairs[i][1]} but not the other "
                        f"way round: a border is both ways ({WAR})")
    players = state["players"]
    status = dict(zip(players["id"].to_list(), players["status"].to_list()))
    owners = provinces["owner"].to_list()
    out += row_problems("provinces", provinces,
                        [i for i, o in enumerate(owners) if o is not None and status[o] != ACTIVE],
                        "owner", lambda i: f"{owners[i]} is {status[owners[i]]}; only a player "
                        f"in the game holds a state ({INTRO})")
    missions = state["missions"]
    kinds, targets = missions["kind"].to_list(), missions["target"].to_list()
    who, live = missions["player"].to_list(), missions["status"].to_list()
    places = set(names)

    def wrong_target(i: int) -> bool:
        if kinds[i] == "punishment":
            return targets[i] not in places
        if kinds[i] == "subjugation":
            return targets[i] not in status or targets[i] == who[i]
        return False

    out += row_problems("missions", missions, [i for i in range(missions.height)
                                               if wrong_target(i)], "target",
                        lambda i: f"{targets[i]!r} is no "
                        f"{'province' if kinds[i] == 'punishment' else 'other colour'} for a "
                        f"{kinds[i]} ({MISSIONS})")
    busy = [i for i in range(missions.height) if live[i] == "active"]
    out += row_problems("missions", missions,
                        [i for n, i in enumerate(busy) if who[i] in {who[j] for j in busy[:n]}],
                        "status", lambda i: f"{who[i]} has an active mission already; the Emperor "
                        f"gives one at a time ({MISSIONS})")
    return out


_NUMBERS = {"players": ("treasury", "income", "joined_turn", "spent_defense", "spent_invest",
                        "spent_conquest", "gifts"),
            "missions": ("amount", "progress", "given_turn", "deadline_turn")}

#: A state of Cien the rules can play: each province, border, coast, colour and mission once,
#: every name resolving, grain never below nothing, the rules' words.
PLAYABLE = Playable(
    unique=(Unique("provinces", "name"), Unique("borders", "a", "b"),
            Unique("coasts", "province", "sea"), Unique("players", "id"),
            Unique("missions", "id")),
    required=(Required("provinces", "output", "capital"), Required("borders", "a", "b"),
              Required("coasts", "province", "sea"),
              Required("players", "government", "status", "rebel", *_NUMBERS["players"]),
              Required("missions", "player", "kind", "status", *_NUMBERS["missions"]),
              Required("empire", "emperor_alive")),
    refers=(Refers("provinces.owner", "players.id", what="colour"),
            Refers("provinces.conquered_from", "players.id", what="colour"),
            Refers("borders.a", "provinces.name", what="province"),
            Refers("borders.b", "provinces.name", what="province"),
            Refers("coasts.province", "provinces.name", what="province"),
            Refers("players.home", "provinces.name", what="province"),
            Refers("missions.player", "players.id", what="colour"),
            Refers("empire.killer", "players.id", what="colour")),
    ranges=(Range("provinces.output", 0, rule=GRAIN),
            Range("provinces.conquered_turn", 0),
            *(Range(f"players.{c}", 0) for c in _NUMBERS["players"]),
            Range("players.eliminated_turn", 0),
            *(Range(f"missions.{c}", 0) for c in _NUMBERS["missions"]),
            Range("missions.ended_turn", 0), Range("empire.died_turn", 0)),
    one_of=(OneOf("players.id", COLOURS, INTRO), OneOf("players.government", GOVERNMENTS,
                                                        DIVISIONS),
            OneOf("players.status", (ACTIVE, ELIMINATED, FREE)),
            OneOf("missions.kind", MISSION_KINDS, MISSIONS),
            OneOf("missions.status", MISSION_STATUSES, MISSIONS)),
    rows=(Rows("players", len(COLOURS), len(COLOURS), f"{INTRO}: one row per colour"),
          Rows("empire", 1, 1), Rows("provinces", 1)),
    check=playable,
)


class SetupError(ValueError):
    """A player list or map that cannot start a game of Cien."""


def bonus(government: str, rules: Params) -> int:
    """The income bonus of a form of government."""
    return int(rules[f"bonus_{government.replace('-', '_')}"])


def invest_cost(government: str, rules: Params) -> int:
    """Grain per +1 output for a form of government."""
    if government == "city-state":
        return int(rules.city_state_invest_cost)
    if government == "republic":
        return int(rules.republic_invest_cost)
    return int(rules.invest_cost)


def player_row(pid: str, name: str, government: str, home: str | None, turn: int,
               lord: str = "", arms: str = "", status: str = ACTIVE) -> dict[str, Any]:
    """A fresh row of the players table."""
    return {"id": pid, "name": name, "lord": lord, "arms": arms, "government": government,
            "status": status, "rebel": False, "home": home, "treasury": 0, "income": 0,
            "joined_turn": turn, "eliminated_turn": None, "spent_defense": 0,
            "spent_invest": 0, "spent_conquest": 0, "gifts": 0}


def income_of(state: State, rules: Params) -> dict[str, int]:
    """Each active player's income: outputs of held states, government bonus, mission support."""
    provinces = state["provinces"]
    outputs: dict[str, int] = {}
    for owner, out in zip(provinces["owner"].to_list(), provinces["output"].to_list()):
        if owner is not None:
            outputs[owner] = outputs.get(owner, 0) + out
    missions = state["missions"]
    extra: dict[str, int] = {}
    for pid, kind, status in zip(missions["player"].to_list(), missions["kind"].to_list(),
                                 missions["status"].to_list()):
        if status == "active" and kind == "subjugation":
            extra[pid] = extra.get(pid, 0) + int(rules.subjugation_support)
    players = state["players"]
    return {pid: outputs.get(pid, 0) + bonus(gov, rules) + extra.get(pid, 0)
            for pid, gov, status in zip(players["id"].to_list(), players["government"].to_list(),
                                        players["status"].to_list()) if status == ACTIVE}


def setup(players: Sequence[PlayerInfo], game_map: PolygonBoard | None, rules: Params) -> State:
    """Turn 0: every player on their chosen state; everything else independent."""
    if game_map is None:
        raise SetupError("The Crown of Cien needs a map")
    land = game_map.land()
    if CAPITAL not in land:
        raise SetupError(f"the map has no Imperial City '{CAPITAL}'")
    if len(players) > rules.max_players:
        raise SetupError(f"at most {rules.max_players} players, not {len(players)}")
    homes: dict[str, str] = {}
    rows: list[dict[str, Any]] = []
    for p in players:
        if p.id not in COLOURS:
            raise SetupError(f"player {p.name!r}: colour {p.id!r} is not one of "
                             f"{', '.join(COLOURS)}")
        if any(r["id"] == p.id for r in rows):
            raise SetupError(f"colour {p.id} taken twice")
        home = str(p.extra.get("state", ""))
        government = str(p.extra.get("government", "duchy")).lower()
        if home not in land or home == CAPITAL:
            raise SetupError(f"player {p.name!r}: no state {home!r} to start in")
        if home in homes.values():
            raise SetupError(f"player {p.name!r}: {home} is taken already")
        if government not in ("city-state", "duchy"):
            raise SetupError(f"player {p.name!r}: a game starts as a city-state or a duchy, "
                             f"not {government!r}")
        homes[p.id] = home
        rows.append(player_row(p.id, p.name, government, home, 0,
                               str(p.extra.get("lord", "")), str(p.extra.get("arms", ""))))
    owner_of = {v: k for k, v in homes.items()}
    for colour in COLOURS:
        if colour not in homes:
            rows.append(player_row(colour, "", "duchy", None, 0, status=FREE))
    provinces = frame([{"name": n, "owner": owner_of.get(n),
                        "output": int(rules.capital_output if n == CAPITAL
                                      else rules.base_output),
                        "capital": n == CAPITAL, "conquered_turn": None,
                        "conquered_from": None} for n in land],
                      SCHEMAS["provinces"], table="provinces")
    borders = frame([{"a": a, "b": b} for a in land for b in sorted(game_map.land_neighbours(a))],
                    SCHEMAS["borders"], table="borders")
    coasts = frame([{"province": a, "sea": s} for a in land for s in sorted(game_map.seas_of(a))],
                   SCHEMAS["coasts"], table="coasts")
    empire = frame([{"emperor_alive": True, "died_turn": None, "killer": None, "winners": None}],
                   SCHEMAS["empire"], table="empire")
    state = State(0, {"provinces": provinces, "borders": borders, "coasts": coasts,
                      "players": frame(rows, SCHEMAS["players"], table="players"),
                      "missions": frame([], SCHEMAS["missions"], table="missions"),
                      "empire": empire})
    income = income_of(state, rules)
    players_df = state["players"].with_columns(
        pl.col("id").replace_strict(income, default=0, return_dtype=pl.Int64).alias("income"))
    players_df = players_df.with_columns(pl.col("income").alias("treasury"))
    return state.replace(players=players_df)


def check_board(board: Board[Any] | None) -> list[str]:
    """A polygon map of land provinces holding the Imperial City."""
    if board is None:
        return []
    if not isinstance(board, PolygonBoard):
        return [f"a {board.kind} board: the Crown of Cien plays on a polygon map"]
    if CAPITAL not in board.land():
        return [f"no land province '{CAPITAL}' (the Imperial City)"]
    return []


def example_players(board: Board[Any] | None) -> list[dict[str, Any]]:
    """Six players on states spread over the map (the named states first)."""
    game_map = polygon_board(board)
    if game_map is None:
        return []
    named = ["Solsauvre", "Coyons", "Guicardie", "Tróys", "Sevoy"]
    land = [n for n in game_map.land() if n != CAPITAL]
    homes = [n for n in named if n in land]
    for n in land:
        if len(homes) >= 6:
            break
        if n not in homes and not game_map.land_neighbours(n) & set(homes):
            homes.append(n)
    colours = ["Red", "Gold", "Green", "Cyan", "Orange", "Purple"]
    return [{"id": c, "name": f"Lord {c}", "state": h,
             "government": "city-state" if i % 2 else "duchy"}
            for i, (c, h) in enumerate(zip(colours, homes))]


def to_move(state: State) -> list[str]:
    """Every active player posts each turn."""
    return state["players"].filter(pl.col("status") == ACTIVE)["id"].to_list()
