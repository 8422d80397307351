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
from gmkit.core.views import STANDINGS, Private, PrivateRows

#: Standings figures only the GM and the player themself may see.
PRIVATE_FIGURES = ("population", "serfs", "food", "stone", "dead_held")
#: Columns of the ``players`` table that are a player's own business.
PRIVATE_PLAYER_COLUMNS = ("food", "stone", "serfs", "priests", "births", "starve")

#: What only the GM and its owner see: a player's stores, population and standing orders, the
#: serfs working a land (its holder's), a pyramid still being built (once built, everyone sees
#: it stand, but not the stone and glory paid into it), the DEAD a player holds, and the
#: standings' figures of them.
HIDDEN: tuple[Private | PrivateRows, ...] = (
    Private("players", "id", PRIVATE_PLAYER_COLUMNS),
    Private("spaces", "holder", ("serfs",)),
    PrivateRows("pyramids", "player", shown=pl.col("built")),
    Private("pyramids", "player", ("stone", "glory")),
    PrivateRows("dead", "held_by"),
    Private(STANDINGS, "player", PRIVATE_FIGURES),
)


__all__ = ["HIDDEN", "PRIVATE_FIGURES", "PRIVATE_PLAYER_COLUMNS"]
