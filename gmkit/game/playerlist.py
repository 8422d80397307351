"""The player list a GM writes for ``gmkit new`` (``players.toml``): read, its places matched as
orders match names, and checked by the ruleset, every mistake named at once, one line each, so
the GM fixes the file in one go.

A field naming a place of the board (the ruleset's
:attr:`~gmkit.core.parts.LifeCycle.place_fields`: Cien's ``state``) that the ruleset
refuses as typed is matched as a player's order is (:class:`~gmkit.core.names.NameIndex`): case,
accents, apostrophes and dashes do not count, and an unambiguous prefix names its place
(``troys`` and ``Troy`` are ``Tróys``); the list is stored with the place's own spelling. A
place that matches several is a mistake naming them, one close to a place a mistake asking
"did you mean"; the ruleset's own words name one far from any (with the places it takes)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gmkit.core.names import NameIndex
from gmkit.core.orders import AmbiguousOrderError, UnknownNameError, join_alternatives
from gmkit.core.ruleset import Ruleset
from gmkit.game.changes import GameError

class PlayerListError(GameError):
    """A player list with mistakes: ``problems`` holds each, one line naming the player and the
    field; the message is one line for one mistake, else a headline and a line for each."""

    def __init__(self, source: str, problems: Sequence[str]) -> None:
        self.problems = [f"{source}: {p}" for p in problems]
        if len(self.problems) == 1:
            message = self.problems[0]
        else:
            message = "\n".join([f"{source}: {len(problems)} mistakes, no game was created:",
                                 *self.problems])
        super().__init__(message)


def who(i: int, player: Mapping[str, Any]) -> str:
    """A player as a mistake names them: their place in the list and their name."""
    return f"player {i} ({str(player.get('name', player.get('id', '?')))!r})"


def names_field(line: str, i: int, field: str, value: str) -> bool:
    """Whether the mistake ``line`` is about player ``i``'s ``field`` holding ``value``."""
    return line.startswith(f"player {i} ") and f"{field} {value!r}" in line


def match_places(players: Sequence[Mapping[str, Any]], names: NameIndex | None,
                 refused: Sequence[str], fields: Sequence[str]
                 ) -> tuple[list[dict[str, Any]], list[tuple[int, str, str, str]]]:
    """``players`` with each place field (``fields``) the ruleset ``refused`` as
    typed (a mistake in ``refused`` names it) written as the board's place it names, and the
    fields that name none or several: ``(player number, field, value, why)``. A field the
    ruleset accepts (or does not read) is left as it is, and so is every field without
    ``names`` (a board whose places have no names)."""
    out = [dict(p) for p in players]
    unmatched: list[tuple[int, str, str, str]] = []
    if names is None:
        return out, unmatched
    for i, player in enumerate(out, 1):
        for field in fields:
            value = player.get(field)
            if not isinstance(value, str) or not any(names_field(line, i, field, value)
                                                     for line in refused):
                continue
            try:
                player[field] = names.resolve(value)
            except AmbiguousOrderError as e:
                unmatched.append((i, field, value, f"could be "
                                  f"{join_alternatives(list(e.candidates)[:6])}"))
            except UnknownNameError as e:
                if e.suggestions:
                    unmatched.append((i, field, value, "is no place of the board; did you "
                                      f"mean {join_alternatives(e.suggestions)}?"))
    return out, unmatched


def check_player_list(listed: Mapping[str, Any], source: str, ruleset: Ruleset[Any],
                      board: Any) -> list[dict[str, Any]]:
    """The ``[[players]]`` of a parsed ``players.toml`` (``listed``), places matched, checked
    by ``ruleset`` against ``board``. Raises :class:`PlayerListError` naming every mistake
    (its player and field), and nothing else is checked until the list is a list of tables."""
    from gmkit.core.intake import player_id_problem
    from gmkit.game.game import Game

    players = listed.get("players")
    if players is None:
        other = [k for k, v in listed.items() if isinstance(v, list)]
        raise PlayerListError(source, ["no [[players]] table"
                                       + (f" (found [[{other[0]}]]: write [[players]])"
                                          if other else ": list each player as a [[players]] "
                                          "table")])
    if not isinstance(players, list) or not all(isinstance(x, dict) for x in players):
        raise PlayerListError(source, ["'players' must be a list of [[players]] tables"])
    problems = [f"{who(i, p)}: no id" for i, p in enumerate(players, 1) if "id" not in p]
    players = [p for p in players if "id" in p]

    def check(listed: Sequence[Mapping[str, Any]]) -> list[str]:
        checks = ruleset.lifecycle.check_players
        return checks(Game.players_from_config({"players": listed}, source), board) \
            if checks else []

    refused = check(players)
    matched, unmatched = match_places(players, getattr(board, "names", None), refused,
                                      ruleset.lifecycle.place_fields)
    problems += [f"{who(i, matched[i - 1])}: {field} {value!r} {why}"
                 for i, field, value, why in unmatched]
    # a place named above is not named twice (in the ruleset's words too)
    problems += [found for found in (check(matched) if matched != players else refused)
                 if not any(names_field(found, i, field, value)
                            for i, field, value, _ in unmatched)]
    ids = [str(p["id"]) for p in matched]
    problems += [found for found in map(player_id_problem, ids) if found]
    problems += [f"player id {pid!r} is listed {ids.count(pid)} times"
                 for pid in dict.fromkeys(ids) if ids.count(pid) > 1
                 and not any(f"id {pid!r}" in p for p in problems)]
    if problems:
        raise PlayerListError(source, problems)
    return matched


def read_player_list(path: Path, text: str, ruleset: Ruleset[Any], board: Any
                     ) -> list[dict[str, Any]]:
    """The players of ``players.toml`` (its ``text``), as :func:`check_player_list` gives
    them; malformed TOML is one mistake naming the file and the line."""
    import tomllib

    try:
        listed = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise GameError(f"{path}: malformed TOML: {e}") from None
    return check_player_list(listed, str(path), ruleset, board)
