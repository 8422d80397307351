"""Posts that arrive in bulk: what an importer (a chat export's reader) is told of the game and
what it gives back.

An importer never stores anything itself: it reads its files, matches each author to a player,
and returns the posts the files make (:class:`ImportedPost`), each with its ``source``, a key
such as ``discord:game-actions/1234`` under which it is received at most once, and the author's
account where the chat names one. gmkit then stores them all at once, or none when the files
hold any error (:class:`Imported.errors`). What is read but does not count (a stranger's message,
an edit the rules ignore) is a notice for the GM.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gmkit.core.params import Params
from gmkit.core.players import PlayerInfo
from gmkit.core.tables import State


def player_id_problem(pid: str) -> str | None:
    """Why a player id cannot be used (it names the player's folder of private pages, so it
    must be a plain folder name: not empty, no slash, no NUL, no leading or trailing space,
    not '.' or '..'); None when it can."""
    if not pid or pid in (".", "..") or any(c in pid for c in '/\\\0') or pid != pid.strip():
        return f"player id {pid!r} cannot name a folder of private pages; rename the player"
    return None


@dataclass(frozen=True)
class ImportedPost:
    """One post an import makes: its player, its text as posted, when it was posted, where it
    came from (received once under that key), the author's account, and whether it makes its
    author a player (a newcomer's message of intent)."""

    player: str
    text: str
    posted: str | None
    source: str
    account: str | None = None
    newcomer: bool = False
    #: Where the post came from, in words (``#game-actions message 1234``).
    where: str = ""


@dataclass
class Imported:
    """What an import gives: its posts, the errors that stop it (nothing is stored when there
    is any), and notices for the GM (read, but not counted)."""

    posts: list[ImportedPost] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Intake:
    """What an importer is told of the game: the coming state and rules, the players as
    ``game.toml`` lists them (with their chat accounts), and every post received before from a
    source, by source (pending, consumed or withdrawn)."""

    state: State
    rules: Params
    players: Sequence[PlayerInfo]
    received: Mapping[str, Mapping[str, Any]]

    def accounts(self) -> dict[str, str]:
        """The accounts posts were received from, each with its player (``discord:1234`` ->
        ``Amber``): a newcomer is known by the account they joined from."""
        return {str(r["account"]): str(r["player"]) for r in self.received.values()
                if r.get("account")}
