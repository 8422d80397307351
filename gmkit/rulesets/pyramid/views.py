"""What each viewer sees of a game of Pyramid Power Wars (one door:
:meth:`gmkit.core.ruleset.Ruleset.view`).

The public sees what stands on the map: land by kind and holder, nobles and their glory, troops,
built pyramids and the priests staffing them. A player sees that plus their own population and
stores, their serfs at work, their DEAD and their pyramids with what was paid into them (built
or not). The GM sees everything. The hidden columns and rows are declared once
(:data:`PRIVATE`) and applied by :func:`gmkit.core.views.hide_private`.
"""

from __future__ import annotations

import polars as pl

from gmkit.core.parts import Context
from gmkit.core.tables import State
from gmkit.core.views import Private, PrivateRows, Viewer, hide_private

#: Standings figures only the GM and the player themself may see.
PRIVATE_FIGURES = ("population", "serfs", "food", "stone", "dead_held")
#: Columns of the ``players`` table that are a player's own business.
PRIVATE_PLAYER_COLUMNS = ("food", "stone", "serfs", "priests", "births", "starve")

#: What only the GM and its owner see: a player's stores, population and standing orders, the
#: serfs working a land (its holder's), a pyramid still being built (once built, everyone sees
#: it stand, but not the stone and glory paid into it) and the DEAD a player holds.
PRIVATE: tuple[Private | PrivateRows, ...] = (
    Private("players", "id", PRIVATE_PLAYER_COLUMNS),
    Private("spaces", "holder", ("serfs",)),
    PrivateRows("pyramids", "player", shown=pl.col("built")),
    Private("pyramids", "player", ("stone", "glory")),
    PrivateRows("dead", "held_by"),
)


def public(state: State, ctx: Context) -> State:
    """What stands on the map: no player's stores or population, no serfs at work, no DEAD,
    no pyramid still being built (nor what was paid into the built ones)."""
    return hide_private(state, PRIVATE, Viewer.public())


def player(state: State, public_view: State, pid: str, ctx: Context) -> State:
    """The public view plus the player's own: their population and stores, their serfs at
    work, their DEAD and their pyramids with what was paid into them (built or not); the
    pyramids by player and number."""
    seen = hide_private(state, PRIVATE, Viewer.player(pid))
    return seen.replace(pyramids=seen["pyramids"].sort("player", "number"))


__all__ = ["PRIVATE", "PRIVATE_FIGURES", "PRIVATE_PLAYER_COLUMNS", "player", "public"]
