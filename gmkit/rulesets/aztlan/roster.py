"""AZTLAN's player list checked before set-up: every player an empire (rule 2.1), each played
once, named with its player and its field; and the list sample games are played with."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any

from gmkit.core.boards import Board
from gmkit.core.players import PlayerInfo
from gmkit.rulesets.aztlan.board.geography import EMPIRES

#: The fields an AZTLAN player may have.
FIELDS = ("id", "name")


def who(i: int, p: PlayerInfo) -> str:
    """A player as a message names them: their place in the list and their name."""
    return f"player {i} ({p.name!r})"


def near(word: str, choices: Sequence[str]) -> str:
    """`` (did you mean X?)`` when ``word`` is close to one of ``choices``."""
    got = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {got[0]!r}?)" if got else ""


def check_players(players: Sequence[PlayerInfo], game_map: Board[Any] | None) -> list[str]:
    """Every problem of an AZTLAN player list: each ``id`` an empire, played once."""
    if not players:
        return ["no player: list each as a [[players]] table with id (the empire) and name"]
    problems: list[str] = []
    seen: dict[str, int] = {}
    for i, p in enumerate(players, 1):
        for extra in sorted(set(p.extra) - set(FIELDS)):
            problems.append(f"{who(i, p)}: unknown field {extra!r}; an AZTLAN player has "
                            f"{', '.join(FIELDS)}")
        if p.id not in EMPIRES:
            problems.append(f"{who(i, p)}: id {p.id!r} is no empire{near(p.id, list(EMPIRES))}; "
                            f"the empires are {', '.join(EMPIRES)}")
        elif p.id in seen:
            problems.append(f"{who(i, p)}: id {p.id!r} is player {seen[p.id]}'s empire already")
        seen.setdefault(p.id, i)
    return problems



def example_players(board: Board[Any] | None) -> list[dict[str, Any]]:
    """All ten empires, played in 2.1's order of importance."""
    names = ["Itzcoatl", "Xicotencatl", "Cacama", "Tariacuri", "Ixtlil", "Yopi Tecuhtli",
             "Tlatoani", "Xolotl", "Ah Kin", "Cempoal"]
    return [{"id": e, "name": n} for e, n in zip(EMPIRES, names)]
