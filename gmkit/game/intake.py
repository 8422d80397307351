"""What gmkit refuses at the door, before anything is stored: a post beyond the size limits or
with an absurd number, a post in which no line is an order (unless the GM allows it), a title
that is not one line of text, a player id that cannot name a folder or is listed twice."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from gmkit.game.changes import GameError
from gmkit.core.intake import player_id_problem
from gmkit.core.orders import LimitError, ParseResult

__all__ = ["config_problems", "player_id_problem", "refuse_unread"]

#: The longest title a game may have.
MAX_TITLE = 200


def config_problems(config: Mapping[str, Any], source: str = "game.toml") -> list[str]:
    """What is wrong with a game's title and player ids: a title that is not one line of
    text of at most :data:`MAX_TITLE` characters, a player id that cannot name a folder, an
    id listed twice. Each names ``source`` and the value."""
    out = []
    title = config.get("title", "")
    if not isinstance(title, str) or len(title) > MAX_TITLE or any(
            unicodedata.category(c) == "Cc" for c in title):
        out.append(f"{source}: the title must be one line of text of at most {MAX_TITLE} "
                   f"characters, not {str(title)[:60]!r}")
    players = config.get("players", [])
    ids = [str(p.get("id")) for p in players if isinstance(p, Mapping) and "id" in p] \
        if isinstance(players, list) else []
    out += [f"{source}: {found}" for found in map(player_id_problem, ids) if found]
    out += [f"{source}: player id {pid!r} is listed {ids.count(pid)} times"
            for pid in dict.fromkeys(ids) if ids.count(pid) > 1]
    return out


def refuse_unread(player: str, parsed: ParseResult[Any], allow_empty: bool) -> None:
    """Refuse a post beyond gmkit's limits (each problem on a line of its own), or one in which
    no line is an order unless ``allow_empty``: nothing is stored."""
    beyond = [e for e in parsed.errors if isinstance(e, LimitError)]
    if beyond:
        raise GameError(f"{player}'s post is refused, nothing was stored:\n"
                        + "\n".join(f"  {e}" for e in beyond))
    if not allow_empty and not parsed.orders:
        first = parsed.errors[0] if parsed.errors else None
        why = "nothing in it reads as an order" if first is None else str(first)
        more = len(parsed.errors) - 1
        raise GameError(f"no line of {player}'s post is an order ({why}"
                        + (f", and {more} more rejected line(s)" if more > 0 else "")
                        + "); nothing was stored (--allow-empty stores it all the same)")
