"""The Crown of Cien on its map: each province in its holder's colour with its output, the
Imperial City in gold while it is nobody's, the seas named, and a legend of the players in play
(an eliminated player struck out while a province still shows their colour) and the independent
provinces. :func:`scene` is what the ruleset's ``scene`` returns."""

from __future__ import annotations

from collections.abc import Hashable

import polars as pl

from gmkit.core.drawing.polygon_svg import DEFAULT_LAND_FILL, KIND_FILLS, SEA_INK
from gmkit.core.drawing.scene import Label, LegendEntry, Scene
from gmkit.core.tables import State
from gmkit.rulesets.cien.constants import COLOUR_HEX
from gmkit.rulesets.cien.state import ELIMINATED, FREE

#: An independent province.
NEUTRAL_FILL = DEFAULT_LAND_FILL
#: The Imperial City while no player holds it.
CAPITAL_FILL = "#f7dc6f"


def colours(state: State) -> dict[str, str]:
    """Each player's colour (Cien's players are colours), free colours left out."""
    players = state["players"].filter(pl.col("status") != FREE)
    return {pid: COLOUR_HEX[pid] for pid in players["id"].to_list() if pid in COLOUR_HEX}


def scene(state: State, title: str = "") -> Scene:
    """What the map shows for ``state``."""
    colour = colours(state)
    fills: dict[Hashable, str] = {}
    labels = []
    shown: set[str] = set()
    for name, owner, output, capital in state["provinces"].select(
            "name", "owner", "output", "capital").iter_rows():
        if owner in colour:
            fills[name] = colour[owner]
            shown.add(owner)
        else:
            fills[name] = CAPITAL_FILL if capital else NEUTRAL_FILL
        labels.append(Label(name, f"{name}\n{output}"))
    seas = sorted(set(state["coasts"]["sea"].to_list()))
    labels += [Label(sea, sea, SEA_INK) for sea in seas]
    status = dict(state["players"].select("id", "status").iter_rows())
    legend = [LegendEntry(f"{pid} (eliminated)" if status.get(pid) == ELIMINATED else pid, c)
              for pid, c in colour.items()
              if status.get(pid) != ELIMINATED or pid in shown]
    legend.append(LegendEntry("independent", NEUTRAL_FILL))
    return Scene(fills=fills, kind_fills=KIND_FILLS, default_fill=NEUTRAL_FILL,
                 labels=tuple(labels), legend=tuple(legend), title=title)
