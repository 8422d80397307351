"""Three Hills' state tables, their schemas and the set-up of turn 0."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from gmkit.core.boards import Board, BoardError
from gmkit.core.boards.graph import GraphBoard
from gmkit.core.params import Params
from gmkit.core.parts import Context
from gmkit.core.playable import (PLAYERS, Playable, Range, Refers, Required, Rows,
                                 StateProblem, Unique, row_problems)
from gmkit.core.players import PlayerInfo
from gmkit.core.tables import Schema, State
from gmkit.rulesets.example.rules import CAMP_KIND, CROWDING, DIGGERS, HILL, board

SCHEMAS: dict[str, Schema] = {
    # arrived: the turn the digger reached its place (the order of digging); gold is secret.
    "diggers": {"id": pl.String, "name": pl.String, "place": pl.String,
                "arrived": pl.Int64, "gold": pl.Int64},
    "hills": {"place": pl.String, "gold_left": pl.Int64},
    # the game's board (the shipped one or the GM's own): its places and their routes
    "places": {"place": pl.String, "kind": pl.String, "x": pl.Float64, "y": pl.Float64},
    "routes": {"a": pl.String, "b": pl.String},
}

_BOARDS: dict[tuple[Any, ...], GraphBoard] = {}


def playable_board(state: State, ctx: Context) -> list[StateProblem]:
    """What the data cannot say of a playable Three Hills state: its places and routes make a
    board the rules can be played on (1. one camp, a hill to dig, every place reachable, no
    route from a place to itself), the hills table holds each hill of it, and no hill holds
    two diggers (3. Crowding: a hill holds one digger)."""
    try:
        game_board = GraphBoard.from_frames(state["places"], state["routes"],
                                            source="the game's board")
    except BoardError as e:
        return [StateProblem("routes", None, None, p) for p in e.problems]
    out = [StateProblem("places", None, "kind", p) for p in check_board(game_board)]
    hills = set(game_board.of_kind(HILL))
    listed = state["hills"]["place"].to_list()
    out += row_problems("hills", state["hills"], [i for i, h in enumerate(listed)
                                                  if h not in hills], "place",
                        lambda i: f"{listed[i]!r} is no place of kind {HILL!r}")
    out += [StateProblem("hills", None, "place", f"hill {h!r} has no row (its gold left)")
            for h in sorted(hills - set(listed))]
    diggers = state["diggers"]
    at = diggers["place"].to_list()
    crowded = [i for i, p in enumerate(at) if p in hills and at.index(p) != i]
    out += row_problems("diggers", diggers, crowded, "place",
                        lambda i: f"{at[i]} holds a digger already ({CROWDING}: a hill holds "
                        "one digger)")
    return out


#: 1. The diggers: who they are, where, and the gold of each and of each hill; the board kept
#: in the state (places, routes) is a board the game can be played on.
PLAYABLE = Playable(
    unique=(Unique("diggers", "id"), Unique("hills", "place"), Unique("places", "place"),
            Unique("routes", "a", "b")),
    required=(Required("diggers", "place", "arrived", "gold"), Required("hills", "gold_left"),
              Required("places", "kind"), Required("routes", "a", "b")),
    refers=(Refers("diggers.id", PLAYERS, every=True), Refers("diggers.place", "places.place"),
            Refers("hills.place", "places.place"), Refers("routes.a", "places.place"),
            Refers("routes.b", "places.place")),
    ranges=(Range("diggers.gold", 0), Range("diggers.arrived", 0),
            Range("hills.gold_left", 0)),
    rows=(Rows("diggers", 2, "max_players", DIGGERS),),
    check=playable_board,
)


class SetupError(ValueError):
    """A player list that cannot start a game of Three Hills."""


def check_board(game_board: Board[Any] | None) -> list[str]:
    """1. The diggers: a graph board with one camp to start from and at least one hill to
    dig."""
    if game_board is None:
        return []
    if not isinstance(game_board, GraphBoard):
        return [f"a {game_board.kind} board: Three Hills plays on a graph board"]
    camps = game_board.of_kind(CAMP_KIND)
    problems = [] if len(camps) == 1 else [
        f"one place of kind {CAMP_KIND!r} is needed for the diggers to start from, not "
        f"{len(camps)}" + (f" ({', '.join(camps)})" if camps else "")]
    if not game_board.of_kind(HILL):
        problems.append(f"no place of kind {HILL!r}: there is nothing to dig")
    return problems


def board_tables(game_board: GraphBoard) -> dict[str, pl.DataFrame]:
    """The ``places`` and ``routes`` tables of a board, as the state keeps them."""
    places = [{"place": p.id, "kind": p.kind, "x": p.pos[0] if p.pos else None,
               "y": p.pos[1] if p.pos else None} for p in game_board.places.values()]
    return {"places": pl.DataFrame(places, schema=dict(SCHEMAS["places"])),
            "routes": pl.DataFrame([{"a": a, "b": b} for a, b in game_board.edges()],
                                   schema=dict(SCHEMAS["routes"]))}


def board_of(state: State) -> GraphBoard:
    """The board the game is played on, as its state keeps it (the shipped board for a state
    written before the board was kept in it)."""
    if "places" not in state.tables or state["places"].height == 0:
        return board()
    places, routes = state["places"], state["routes"]
    key = (tuple(places.iter_rows()), tuple(routes.iter_rows()))
    found = _BOARDS.get(key)
    if found is None:
        found = GraphBoard.from_frames(places, routes, source="the game's board")
        if len(_BOARDS) > 16:
            _BOARDS.clear()
        _BOARDS[key] = found
    return found


def camp(state: State) -> str:
    """The place the diggers start from and are sent back to."""
    return board_of(state).of_kind(CAMP_KIND)[0]


def setup(players: Sequence[PlayerInfo], rules: Params,
          on: Board[Any] | None = None) -> State:
    """Turn 0 on the graph board ``on`` (the shipped board by default): every digger at the
    Camp with no gold, every hill full."""
    game_board = on if isinstance(on, GraphBoard) else board()
    problems = check_board(game_board)
    if problems:
        raise SetupError(f"{game_board.source}: {'; '.join(problems)}")
    ids = [p.id for p in players]
    if not 2 <= len(ids) <= rules.max_players:
        raise SetupError(f"two to {rules.max_players} diggers, not {len(ids)}")
    if len(set(ids)) != len(ids):
        raise SetupError(f"a digger is listed twice: {', '.join(sorted(ids))}")
    diggers = pl.DataFrame({"id": ids, "name": [p.name for p in players],
                            "place": [game_board.of_kind(CAMP_KIND)[0]] * len(ids),
                            "arrived": [0] * len(ids),
                            "gold": [0] * len(ids)}, schema=dict(SCHEMAS["diggers"]))
    hills = list(game_board.of_kind(HILL))
    return State(0, {"diggers": diggers,
                     "hills": pl.DataFrame({"place": hills,
                                            "gold_left": [rules.hill_gold] * len(hills)},
                                           schema=dict(SCHEMAS["hills"])),
                     **board_tables(game_board)})


def digger(state: State, pid: str) -> dict[str, Any]:
    """One digger's row."""
    return state["diggers"].filter(pl.col("id") == pid).row(0, named=True)


def gold_left(state: State) -> dict[str, int]:
    """Gold left in each hill."""
    return dict(state["hills"].select("place", "gold_left").iter_rows())


def example_players(game_board: Board[Any] | None) -> list[dict[str, Any]]:
    """Three diggers, for samples and playouts."""
    return [{"id": pid, "name": f"{pid} the digger"} for pid in ("Amber", "Birch", "Cedar")]


def to_move(state: State) -> list[str]:
    """Every digger posts each turn."""
    return [str(pid) for pid in state["diggers"]["id"].to_list()]
