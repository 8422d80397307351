"""The cities' hexes, units and characters of a state drawn on the hex board.

Each city's workable hexes are drawn (its centre darker, a citizen's land in his house's colour);
a label names each city and its Tlatoani; each house's characters on a hex are one mark in the
house's colour (counted), each unit a square mark in the colour of its Captain's house. The board
is an unbounded hex grid: the drawing frames the hexes the scene names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable

from gmkit.core.boards.hexgrid import Hex
from gmkit.core.drawing.palette import DISTINCT, assign
from gmkit.core.drawing.scene import Label, LegendEntry, Mark, MarkKind, Scene, initials
from gmkit.core.parts import Context
from gmkit.core.tables import State

# the houses' colours: every two told apart by every reader (tests/test_player_colours)
PALETTE = DISTINCT
CITY_HEX, LAND, HELD = "#b9a37a", "#dfe9c5", "#f3e3b0"
NPC = "#555555"


def colours(state: State, ctx: Context | None = None) -> dict[str, str]:
    """Each house's colour, in the order the houses were listed, every two told apart."""
    return assign(state["houses"]["house"].to_list(), PALETTE)


def _tint(colour: str) -> str:
    """A light tint of a colour, for land under it."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*(int(v + (255 - v) * 0.65) for v in (r, g, b)))


def scene(state: State, ctx: Context | None = None, title: str = "") -> Scene:
    """The hexes of every city, its units and its characters, for ``state`` as a viewer sees
    it."""
    colour = colours(state)
    chars = {c["name"]: c for c in state["characters"].iter_rows(named=True)}
    fills: dict[Hashable, str] = {}
    for h in state["hexes"].iter_rows(named=True):
        owner = chars.get(h["citizen"]) if h["citizen"] else None
        fills[Hex(h["q"], h["r"])] = (_tint(colour.get(owner["house"], NPC)) if owner
                                      else LAND)
    labels = []
    for c in state["cities"].iter_rows(named=True):
        fills[Hex(c["q"], c["r"])] = CITY_HEX
        ruler = c["tlatoani"] or ("puppet" if c["puppet"] else "no Tlatoani")
        labels.append(Label(Hex(c["q"], c["r"]), f"{c['city']}\n{ruler}",
                            title=f"{c['city']}: {c['citizens']} citizens, happiness "
                                  f"{c['happiness']}"))
    counts: Counter[tuple[Hex, str]] = Counter()
    names: dict[tuple[Hex, str], list[str]] = {}
    for c in chars.values():
        if not c["alive"] or c["unit"] is not None or c["q"] is None:
            continue
        key = (Hex(c["q"], c["r"]), c["house"])
        counts[key] += 1
        names.setdefault(key, []).append(f"{c['name']} ({c['class']}, Fame {c['fame']})")
    mark = initials(list(colour))
    marks = [Mark(h, "character", colour.get(house, NPC), n, title="; ".join(names[(h, house)]),
                  text=mark.get(house, ""))
             for (h, house), n in sorted(counts.items(), key=lambda kv: (kv[0][0], kv[0][1]))]
    for u in state["units"].iter_rows(named=True):
        if u["q"] is None:
            continue
        captain = chars.get(u["captain"]) if u["captain"] else None
        crew = sum(1 for c in chars.values() if c["alive"] and c["unit"] == u["unit"])
        marks.append(Mark(Hex(u["q"], u["r"]), "unit",
                          colour.get(captain["house"], NPC) if captain else NPC,
                          text=mark.get(captain["house"], "") if captain else "",
                          title=f"{u['unit']} ({u['unit_type']}, health {u['health']}, "
                                f"{crew} characters, Captain {u['captain'] or 'none'})"))
    return Scene(fills=fills, labels=tuple(labels), marks=tuple(marks),
                 mark_kinds=(MarkKind("unit", "square"), MarkKind("character", "circle")),
                 legend=tuple(LegendEntry(f"{mark[h]} {h}", c) for h, c in colour.items())
                 + ((LegendEntry("no house", NPC),) if any(m.colour == NPC for m in marks)
                    else ()),
                 title=title or f"Aztlan after council session {state.turn}")
