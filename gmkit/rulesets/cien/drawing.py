"""The Crown of Cien on its map: each province in its holder's colour and initial, with its
output, the Imperial City in gold while it is nobody's, the seas named, and a legend of the
players in play (an eliminated player struck out while a province still shows their colour) and
the independent provinces. :func:`scene` is what the ruleset's ``scene`` returns, drawn by
:func:`board_scene`; :func:`place_properties` is what the map's GeoJSON export says of each
province."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import polars as pl

from gmkit.core.drawing.polygon_svg import DEFAULT_LAND_FILL, KIND_FILLS, SEA_INK
from gmkit.core.drawing.scene import Label, LegendEntry, Scene, initials
from gmkit.core.parts import Context
from gmkit.core.tables import State
from gmkit.rulesets.cien.rules import COLOUR_HEX
from gmkit.rulesets.cien.state import ELIMINATED, FREE

#: An independent province.
NEUTRAL_FILL = DEFAULT_LAND_FILL
#: The Imperial City while no player holds it.
CAPITAL_FILL = "#f7dc6f"


def colours(state: State) -> dict[str, str]:
    """Each player's colour (Cien's players are colours), free colours left out."""
    players = state["players"].filter(pl.col("status") != FREE)
    return {pid: COLOUR_HEX[pid] for pid in players["id"].to_list() if pid in COLOUR_HEX}


def palette(state: State, ctx: Context) -> dict[str, str]:
    """Each player's colour: the colour their id names (Cien's players are colours)."""
    return colours(state)


def scene(state: State, ctx: Context) -> Scene:
    """Provinces in their holder's colour with their output, the seas named, the legend of the
    players in play and the independent provinces."""
    return board_scene(state)


def place_properties(state: State) -> dict[str, dict[str, Any]]:
    """Each province's holder and output as the state has them now."""
    return {name: {"owner": owner, "output": output}
            for name, owner, output in state["provinces"].select(
                "name", "owner", "output").iter_rows()}


def board_scene(state: State, title: str = "") -> Scene:
    """What the map shows for ``state``."""
    colour = colours(state)
    # colour is never the only cue: a held province names its holder's initial too
    mark = initials(list(colour))
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
        held = f" ({mark[owner]})" if owner in colour else ""
        labels.append(Label(name, f"{name}{held}\n{output}"))
    seas = sorted(set(state["coasts"]["sea"].to_list()))
    labels += [Label(sea, sea, SEA_INK) for sea in seas]
    status = dict(state["players"].select("id", "status").iter_rows())
    legend = [LegendEntry(f"{mark[pid]} {pid}" + (" (eliminated)" if status.get(pid) == ELIMINATED
                                                  else ""), c)
              for pid, c in colour.items()
              if status.get(pid) != ELIMINATED or pid in shown]
    legend.append(LegendEntry("independent", NEUTRAL_FILL))
    return Scene(fills=fills, kind_fills=KIND_FILLS, default_fill=NEUTRAL_FILL,
                 labels=tuple(labels), legend=tuple(legend), title=title)
