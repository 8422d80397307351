"""The explored world drawn on gmkit's hex board: hexes coloured by biome (corrupted ones dark),
towns and features labelled, flags in their faction's colour, players as marks.

:func:`scene` is what the ruleset's presentation draws (:func:`world_scene`) and :func:`colours`
each player's colour; the fills go in one polars frame so a world of a hundred thousand hexes
draws in one pass (:mod:`gmkit.core.drawing.hex_svg`).
"""

from __future__ import annotations

import polars as pl

from gmkit.core.boards.hexgrid import Hex
from gmkit.core.drawing.palette import DISTINCT, assign
from gmkit.core.drawing.scene import Label, LegendEntry, Mark, MarkKind, Scene, initials
from gmkit.core.parts import Context
from gmkit.core.tables import State

BIOME_FILLS: dict[str, str] = {
    "Meadow": "#9bd770", "Deceased Dunes": "#e3cf8f", "Forest": "#3f8f4a",
    "Perilous Pass": "#a39b8b", "Swamp": "#6d7f4f", "Lake": "#6fa8dc",
}
CORRUPTED_FILL = "#4b2a4f"
# the factions' colours: every two told apart by every reader (tests/test_player_colours)
PALETTE = DISTINCT
_SHORT = {"Flag": "F", "Pylon of Purity": "P", "Stag Station": "S", "Boardwalk": "B"}


def faction_colours(state: State) -> dict[str, str]:
    """Each faction's colour (its players' and its flags'), in a stable order, every two told
    apart."""
    names = sorted({*state["players"]["faction"].to_list(), *state["flags"]["faction"].to_list()})
    return assign(names, PALETTE)


def world_scene(state: State, title: str = "") -> Scene:
    """What the map shows for ``state`` (whatever view of it the caller passes)."""
    world = state["world"]
    fill = (pl.when(pl.col("corrupted")).then(pl.lit(CORRUPTED_FILL))
            .otherwise(pl.col("biome").replace_strict(BIOME_FILLS, default="#e8e0c8")))
    frame = world.select("q", "r", fill.alias("fill"))
    colour = faction_colours(state)
    labels = []
    marked = world.filter((pl.col("landmark") == "Town") | (pl.col("features").list.len() > 0))
    for row in marked.iter_rows(named=True):
        parts = (["Town"] if row["landmark"] == "Town" else []) + \
            [_SHORT.get(f, f[:1]) for f in row["features"]]
        labels.append(Label(Hex(row["q"], row["r"]), " ".join(parts),
                            title=", ".join([row["landmark"], *row["features"]])))
    marks = [Mark(Hex(row["q"], row["r"]), "flag", colour.get(row["faction"], "#000000"),
                  title=f"flag of {row['faction']}")
             for row in state["flags"].iter_rows(named=True)]
    players = state["players"].filter(pl.col("active"))
    mark = initials(sorted(players["id"].to_list()))
    for row in players.sort("q", "r", "id").iter_rows(named=True):
        marks.append(Mark(Hex(int(row["q"]), int(row["r"])), "player", colour[row["faction"]],
                          title=f"{row['id']} of {row['faction']}", text=mark[row["id"]]))
    # the legend lists what is shown: the biomes on the map, then each player by faction
    shown = set(world["biome"].to_list())
    legend = [LegendEntry(b, c) for b, c in BIOME_FILLS.items() if b in shown]
    if world["corrupted"].any():
        legend.append(LegendEntry("corrupted", CORRUPTED_FILL))
    legend += [LegendEntry(f"{mark[p]} {p} ({f})", colour[f])
               for p, f in sorted(players.select("id", "faction").iter_rows())]
    return Scene(fill_frame=frame, labels=tuple(labels), marks=tuple(marks),
                 mark_kinds=(MarkKind("flag", "triangle"), MarkKind("player", "circle")),
                 legend=tuple(legend),
                 title=title or f"Aeternus after turn {state.turn}")


def colours(state: State, ctx: Context) -> dict[str, str]:
    """Each player's colour: their faction's (see :func:`faction_colours`)."""
    colour = faction_colours(state)
    return {p: colour[f] for p, f in zip(state["players"]["id"], state["players"]["faction"])}


def scene(state: State, ctx: Context) -> Scene:
    """The explored world for ``state`` (see :func:`world_scene`)."""
    return world_scene(state)
