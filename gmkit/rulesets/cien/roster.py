"""The Crown of Cien's player list checked before set-up: every mistake a GM is likely to make in
``players.toml`` (an unknown colour, a misspelt state, a government that is neither a duchy nor a
city-state, a missing field) named with its player and its field."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any

from gmkit.core.boards import Board
from gmkit.core.boards.polygon import polygon_board
from gmkit.core.players import PlayerInfo
from gmkit.rulesets.cien.rules import CAPITAL, COLOURS

#: A game starts as one of these (the rules' introduction).
GOVERNMENTS = ("duchy", "city-state")
#: The fields a player of Cien may have.
FIELDS = ("id", "name", "state", "government", "lord", "arms")


def who(i: int, p: PlayerInfo) -> str:
    """A player as a message names them: their place in the list and their name."""
    return f"player {i} ({p.name!r})"


def near(word: str, choices: Sequence[str]) -> str:
    """`` (did you mean X?)`` when ``word`` is close to one of ``choices``."""
    got = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    if not got:
        got = [c for c in choices if c.lower() == word.lower()]
    return f" (did you mean {got[0]!r}?)" if got else ""


def check_players(players: Sequence[PlayerInfo], board: Board[Any] | None) -> list[str]:
    """Every problem of a Cien player list: colour (``id``), ``state`` (a land province of the
    map, not the Imperial City, one player each) and ``government`` (duchy or city-state)."""
    game_map = polygon_board(board)
    if not players:
        return ["no player: list each as a [[players]] table with id, name, state and "
                "government"]
    land = [n for n in game_map.land() if n != CAPITAL] if game_map is not None else None
    problems: list[str] = []
    colours: dict[str, int] = {}
    homes: dict[str, int] = {}
    for i, p in enumerate(players, 1):
        for extra in sorted(set(p.extra) - set(FIELDS)):
            problems.append(f"{who(i, p)}: unknown field {extra!r}{near(extra, FIELDS)}; "
                            f"a player has {', '.join(FIELDS)}")
        if p.id not in COLOURS:
            problems.append(f"{who(i, p)}: id {p.id!r} is not a colour{near(p.id, COLOURS)}; "
                            f"the colours are {', '.join(COLOURS)}")
        elif p.id in colours:
            problems.append(f"{who(i, p)}: id {p.id!r} is player {colours[p.id]}'s colour "
                            "already")
        colours.setdefault(p.id, i)
        home = p.extra.get("state")
        if home is None or not str(home).strip():
            problems.append(f"{who(i, p)}: no state (the province they start in)")
        elif land is not None and str(home) not in land:
            what = "is the Imperial City, no one's to start in" if home == CAPITAL else \
                "is no state of the map"
            problems.append(f"{who(i, p)}: state {home!r} {what}{near(str(home), land)}; "
                            f"the states are {', '.join(sorted(land))}")
        elif str(home) in homes:
            problems.append(f"{who(i, p)}: state {home!r} is player {homes[str(home)]}'s "
                            "already")
        else:
            homes[str(home)] = i
        government = p.extra.get("government")
        if government is None:
            problems.append(f"{who(i, p)}: no government (one of {', '.join(GOVERNMENTS)})")
        elif str(government).lower() not in GOVERNMENTS:
            problems.append(f"{who(i, p)}: government {government!r} is neither "
                            f"{' nor '.join(GOVERNMENTS)}{near(str(government), GOVERNMENTS)}")
    return problems

