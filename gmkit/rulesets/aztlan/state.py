"""AZTLAN's state tables, their schemas, the set-up of Winter 1450 and the reads steps share.

The board itself is kept in the state (``sectors`` and ``borders``), so a turn can be resolved
and replayed from its snapshot alone; :func:`board` turns those two tables back into a
:class:`~gmkit.core.boards.polygon.PolygonBoard` for the adjudicator.

Tables:

* ``sectors``: every sector once: ``name``, ``abbr`` (2.6), ``city`` (a supply centre),
  ``home_of`` (the empire whose home centre it is, 2.5), ``x``/``y`` (its centre, for the
  retreat house rule of 5.7.2). Never changes.
* ``borders``: adjacency, both directions. Never changes.
* ``players``: one row per empire in play: ``id`` (the empire), ``name`` (who plays it),
  ``status`` (active or eliminated, 3.4), ``magic`` (magical supports for the coming turn,
  3.5.3), ``eliminated_turn``.
* ``cities``: the 79 cities: ``owner`` (``None``: independent, or destroyed and empty, 7.4),
  ``peace`` (turns in a row not attacked, 3.2), ``attacked_turn`` and ``taken_turn``.
* ``armies``: ``sector``, ``owner`` (an empire or ``neutral``), ``count``.
* ``captives``: ``holder``, ``owner`` (whose army it was), ``count``, ``taken_turn`` (3.5.2).
* ``retreats``: the retreats of the last turn (5.7): ``player``, ``origin``, ``to``, ``count``,
  and ``given_to``, the ally a retreat into his sector gave the army to (5.7.1).
* ``game``: one row: the ``year`` and ``season`` of the coming turn, ``winner`` and ``ended``
  (why the game ended) once it has.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

import polars as pl
from shapely.geometry import box

from gmkit.core.boards import Board
from gmkit.core.boards.polygon import PolygonBoard, Region
from gmkit.core.params import Params
from gmkit.core.parts import Context
from gmkit.core.playable import (PLAYERS, OneOf, Playable, Range, Refers, Required, Rows,
                                 StateProblem, Unique, row_problems)
from gmkit.core.players import PlayerInfo
from gmkit.core import tables
from gmkit.core.tables import Schema, State
from gmkit.rulesets.aztlan.forces import MAX_STACK
from gmkit.rulesets.aztlan.order_types import NEUTRAL
from gmkit.rulesets.aztlan.position import Position
from gmkit.rulesets.aztlan.board.geography import DESERT, EMPIRES, check_map, home_centres

SCHEMAS: dict[str, Schema] = {
    "sectors": {"name": pl.String, "abbr": pl.String, "city": pl.Boolean, "home_of": pl.String,
                "x": pl.Float64, "y": pl.Float64},
    "borders": {"a": pl.String, "b": pl.String},
    "players": {"id": pl.String, "name": pl.String, "status": pl.String, "magic": pl.Int64,
                "eliminated_turn": pl.Int64},
    "cities": {"name": pl.String, "owner": pl.String, "peace": pl.Int64,
               "attacked_turn": pl.Int64, "taken_turn": pl.Int64},
    "armies": {"sector": pl.String, "owner": pl.String, "count": pl.Int64},
    "captives": {"holder": pl.String, "owner": pl.String, "count": pl.Int64,
                 "taken_turn": pl.Int64},
    "retreats": {"player": pl.String, "origin": pl.String, "to": pl.String, "count": pl.Int64,
                 "given_to": pl.String},
    "game": {"year": pl.Int64, "season": pl.String, "winner": pl.String, "ended": pl.String},
}

ACTIVE, ELIMINATED = "active", "eliminated"
CHICHIMECS = "Chichimecs"
SEASONS = ("Winter", "Spring", "Summer", "Fall")
FIRST_YEAR = 1450
#: The empires in rule 2.1's order of importance.
ORDER_OF_IMPORTANCE = tuple(EMPIRES)


class SetupError(ValueError):
    """A player list or board that cannot start a game of AZTLAN."""


def playable(state: State, ctx: Context) -> list[StateProblem]:
    """What the data cannot say of a playable AZTLAN state: borders both ways, never from a
    sector to itself; a city for each city sector and for nothing else (1.4); at most three
    armies in a sector but the Chichimec Desert (4.1, 5.9, 7.2); a winner named by the
    empires in play once the game is won (1.4)."""
    out: list[StateProblem] = []
    borders = state["borders"]
    pairs = borders.rows()
    both = set(pairs)
    out += row_problems("borders", borders, [i for i, (a, b) in enumerate(pairs) if a == b], "b",
                        lambda i: f"{pairs[i][0]} borders itself")
    out += row_problems("borders", borders,
                        [i for i, (a, b) in enumerate(pairs) if a != b and (b, a) not in both],
                        "b", lambda i: f"{pairs[i][0]} borders {pairs[i][1]} but not the other "
                        "way round: a border is both ways")
    sectors = state["sectors"]
    city_sectors = set(sectors.filter(pl.col("city"))["name"].to_list())
    cities = state["cities"]
    named = cities["name"].to_list()
    out += row_problems("cities", cities, [i for i, c in enumerate(named)
                                           if c not in city_sectors], "name",
                        lambda i: f"{named[i]} is no city sector (1.4: the cities are the "
                        "supply centres of the board)")
    out += [StateProblem("cities", None, "name", f"city sector {c} has no row (its owner and "
                         "peace, 1.4)") for c in sorted(city_sectors - set(named))]
    armies = state["armies"]
    at, counts = armies["sector"].to_list(), armies["count"].to_list()
    out += row_problems("armies", armies, [i for i, (s, n) in enumerate(zip(at, counts))
                                           if s != DESERT and n > MAX_STACK], "count",
                        lambda i: f"{counts[i]} armies in {at[i]}: at most {MAX_STACK} in a "
                        "sector (4.1, 5.9)")
    game = state["game"].row(0, named=True)
    ids = set(state["players"]["id"].to_list())
    if game["ended"] == "victory":
        won = (game["winner"] or "").split(",")
        if not game["winner"] or any(w not in ids for w in won):
            out.append(StateProblem("game", 1, "winner", f"{game['winner']!r}: a victory names "
                                    "its winners, empires in the game, comma-separated (1.4)"))
    return out


#: A state of AZTLAN the rules can play: every sector, border, empire, city and stack once,
#: every name resolving, no stack empty, the year between 1450 and the Spaniards' landing.
PLAYABLE = Playable(
    unique=(Unique("sectors", "name"), Unique("sectors", "abbr"), Unique("borders", "a", "b"),
            Unique("players", "id"), Unique("cities", "name"), Unique("armies", "sector")),
    required=(Required("sectors", "city", "x", "y"), Required("players", "status", "magic"),
              Required("cities", "peace"), Required("armies", "owner", "count"),
              Required("captives", "holder", "owner", "count", "taken_turn"),
              Required("retreats", "player", "origin", "to", "count"),
              Required("game", "year", "season")),
    refers=(Refers("borders.a", "sectors.name", what="sector"),
            Refers("borders.b", "sectors.name", what="sector"),
            Refers("players.id", PLAYERS, every=True),
            Refers("cities.owner", "players.id", also=(CHICHIMECS,), what="empire in the game"),
            Refers("armies.sector", "sectors.name", what="sector"),
            Refers("armies.owner", "players.id", also=(NEUTRAL, CHICHIMECS),
                   what="empire in the game"),
            Refers("captives.holder", "players.id", also=(CHICHIMECS,),
                   what="empire in the game"),
            Refers("captives.owner", "players.id", also=(NEUTRAL, CHICHIMECS),
                   what="empire in the game"),
            Refers("retreats.player", "players.id", also=(CHICHIMECS,),
                   what="empire in the game"),
            Refers("retreats.origin", "sectors.name", what="sector"),
            Refers("retreats.to", "sectors.name", what="sector"),
            Refers("retreats.given_to", "players.id", what="empire in the game")),
    ranges=(Range("players.magic", 0, rule="3.5.3"), Range("players.eliminated_turn", 0),
            Range("cities.peace", 0, rule="3.2"), Range("cities.attacked_turn", 0),
            Range("cities.taken_turn", 0), Range("armies.count", 1, rule="4.1"),
            Range("captives.count", 1, rule="3.5.2"), Range("captives.taken_turn", 0),
            Range("retreats.count", 1, MAX_STACK, rule="5.7"),
            Range("game.year", FIRST_YEAR, "spanish_year", rule="1.3")),
    one_of=(OneOf("players.id", tuple(EMPIRES), "2.1"),
            OneOf("players.status", (ACTIVE, ELIMINATED)),
            OneOf("sectors.home_of", tuple(EMPIRES), "2.5"), OneOf("game.season", SEASONS, "1.3"),
            OneOf("game.ended", ("victory", "spanish"), "1.3, 1.4")),
    rows=(Rows("players", "min_players", len(EMPIRES), "2.1"), Rows("game", 1, 1)),
    check=playable,
)


def frame(rows: list[dict[str, Any]], name: str) -> pl.DataFrame:
    """Rows into the table ``name`` with its schema (the steps' rows come from frames of the
    same schema, so polars converts as it reads: see :func:`gmkit.core.tables.frame`)."""
    return tables.frame(rows, SCHEMAS[name], table=name, strict=False)


def check_board(board: Board[Any] | None) -> list[str]:
    """1.4, 2.5, 2.6: the 79 cities, every home centre, the Chichimec Desert and both seas
    (see :func:`~gmkit.rulesets.aztlan.board.geography.check_map`)."""
    if board is None:
        return []
    if not isinstance(board, PolygonBoard):
        return [f"a {board.kind} board: AZTLAN plays on a polygon map"]
    return check_map(board)


def season_of(turn: int) -> tuple[int, str]:
    """The year and season of turn ``turn`` (turn 1 is Winter 1450, 1.3)."""
    return FIRST_YEAR + (turn - 1) // 4, SEASONS[(turn - 1) % 4]


def turn_of(year: int, season: str) -> int:
    """The turn number of a season (the inverse of :func:`season_of`)."""
    return (year - FIRST_YEAR) * 4 + SEASONS.index(season) + 1


def setup(players: Sequence[PlayerInfo], game_map: PolygonBoard | None, rules: Params) -> State:
    """Winter 1450 (2.1, 2.2, 2.5): the empires in play on their home centres, every other city
    independent with one army (two in Tenochtitlan and Tzintzuntzan), two Chichimec armies in the
    desert when the Chichimecs are played."""
    if game_map is None:
        raise SetupError("AZTLAN needs its board (the aztlan.geojson gmkit ships, or a GM's own)")
    problems = check_map(game_map)
    if problems:
        raise SetupError("the board is not an AZTLAN board: " + "; ".join(problems[:5]))
    if not int(rules.min_players) <= len(players) <= len(EMPIRES):
        raise SetupError(f"AZTLAN is for {rules.min_players} to {len(EMPIRES)} players, "
                         f"not {len(players)} (1.2, 2.1)")
    ids = [p.id for p in players]
    for p in players:
        if p.id not in EMPIRES:
            raise SetupError(f"player {p.name!r}: {p.id!r} is no empire (one of "
                             f"{', '.join(EMPIRES)})")
    if len(set(ids)) != len(ids):
        raise SetupError("an empire is given to two players")
    if rules.assignment == "importance":
        due = set(ORDER_OF_IMPORTANCE[: len(ids)])
        if set(ids) != due:
            raise SetupError(f"with {len(ids)} players the empires are, in 2.1's order of "
                             f"importance, {', '.join(ORDER_OF_IMPORTANCE[: len(ids)])} "
                             "(or set the rule 'assignment' to 'free')")
    played = set(ids)
    homes = {c: e for c, e in home_centres().items() if e in played}
    sector_rows = []
    for name, region in game_map.regions.items():
        if not region.is_land:
            continue
        c = region.geometry.centroid
        sector_rows.append({"name": name, "abbr": str(region.props.get("abbr") or name),
                            "city": region.props.get("city") is True,
                            "home_of": home_centres().get(name), "x": c.x, "y": c.y})
    land = [r["name"] for r in sector_rows]
    borders = [{"a": a, "b": b} for a in land for b in sorted(game_map.land_neighbours(a))]
    cities = [r["name"] for r in sector_rows if r["city"]]
    armies = [{"sector": c, "owner": homes.get(c, NEUTRAL),
               "count": 2 if c in ("Tenochtitlan", "Tzintzuntzan") else 1} for c in cities]
    if chichimecs_in_play(played, rules):
        armies.append({"sector": DESERT, "owner": CHICHIMECS, "count": 2})
    order = {e: i for i, e in enumerate(ORDER_OF_IMPORTANCE)}
    year, season = season_of(1)
    return State(0, {
        "sectors": frame(sector_rows, "sectors"),
        "borders": frame(borders, "borders"),
        "players": frame([{"id": p.id, "name": p.name, "status": ACTIVE, "magic": 0,
                           "eliminated_turn": None}
                          for p in sorted(players, key=lambda p: order[p.id])], "players"),
        "cities": frame([{"name": c, "owner": homes.get(c), "peace": 0, "attacked_turn": None,
                          "taken_turn": None} for c in cities], "cities"),
        "armies": frame(armies, "armies"),
        "captives": frame([], "captives"),
        "retreats": frame([], "retreats"),
        "game": frame([{"year": year, "season": season, "winner": None, "ended": None}], "game"),
    })


@lru_cache(maxsize=8)
def _board(sectors: tuple[tuple[str, str, bool, float, float], ...],
           borders: tuple[tuple[str, str], ...]) -> PolygonBoard:
    regions = [Region(name, "land", box(x - 0.5, y - 0.5, x + 0.5, y + 0.5),
                      {"abbr": abbr, "city": city})
               for name, abbr, city, x, y in sectors]
    adjacency: dict[str, list[str]] = {name: [] for name, *_ in sectors}
    for a, b in borders:
        adjacency[a].append(b)
    return PolygonBoard("aztlan", regions, source="state", explicit_adjacency=adjacency)


def board(state: State) -> PolygonBoard:
    """The board kept in ``state``: sectors, cities, abbreviations and adjacency (cached)."""
    def make() -> PolygonBoard:
        s = state["sectors"]
        key = tuple(zip(s["name"].to_list(), s["abbr"].to_list(), s["city"].to_list(),
                        s["x"].to_list(), s["y"].to_list()))
        b = state["borders"]
        return _board(key, tuple(zip(b["a"].to_list(), b["b"].to_list())))

    return state.derived("board", lambda _: make(), tables=("sectors", "borders"))


def chichimecs_in_play(players: Iterable[str], rules: Params) -> bool:
    """Whether there are Chichimec hordes and a die for them: played, or rolled by the GM (7.0)."""
    return CHICHIMECS in players or rules.chichimecs_unplayed == "gm"


def year_season(state: State) -> tuple[int, str]:
    """The year and season of the coming turn."""
    g = state["game"]
    return int(g["year"][0]), str(g["season"][0])


def position(state: State) -> Position:
    """What validation and adjudication need of the state at the start of a turn (cached)."""
    def make() -> Position:
        a, c = state["armies"], state["cities"]
        armies = {s: (o, int(n)) for s, o, n in zip(a["sector"].to_list(), a["owner"].to_list(),
                                                     a["count"].to_list()) if n > 0}
        cities = dict(zip(c["name"].to_list(), c["owner"].to_list()))
        captives: dict[str, int] = {}
        k = state["captives"]
        for holder, n in zip(k["holder"].to_list(), k["count"].to_list()):
            captives[holder] = captives.get(holder, 0) + int(n)
        p = state["players"]
        magic = {pid: int(m) for pid, m in zip(p["id"].to_list(), p["magic"].to_list()) if m}
        year, season = year_season(state)
        return Position(armies, cities, captives, year, season, magic)

    return state.derived("position", lambda _: make(),
                         tables=("armies", "cities", "captives", "players", "game"))


def city_owners(state: State) -> dict[str, str | None]:
    """Each city's owner."""
    return dict(position(state).cities)


def active_players(state: State) -> list[str]:
    """The empires still in the game."""
    p = state["players"]
    return [pid for pid, s in zip(p["id"].to_list(), p["status"].to_list()) if s == ACTIVE]


def centres(state: State) -> dict[str, int]:
    """Cities held per owner."""
    counts: dict[str, int] = {}
    for owner in state["cities"]["owner"].to_list():
        if owner is not None:
            counts[owner] = counts.get(owner, 0) + 1
    return counts


def armies_of(state: State) -> dict[str, int]:
    """Armies on the board per owner (the desert included, 7.2)."""
    counts: dict[str, int] = {}
    a = state["armies"]
    for owner, n in zip(a["owner"].to_list(), a["count"].to_list()):
        counts[owner] = counts.get(owner, 0) + int(n)
    return counts
