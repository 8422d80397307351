"""The board of Three Hills drawn for a state: hills by the gold left in them, a mark per digger
in its colour. :func:`board_scene` is what the ruleset's ``scene`` returns (so a game's map is
this drawing); :func:`board_svg` draws it as SVG."""

from __future__ import annotations

from collections.abc import Sequence

from gmkit.core.drawing.graph_svg import graph_svg
from gmkit.core.drawing.palette import assign
from gmkit.core.drawing.scene import Arrow, ArrowKind, Label, LegendEntry, Mark, Scene
from gmkit.core.envelope import Orders
from gmkit.core.parts import Context
from gmkit.core.steps import Event
from gmkit.core.tables import State
from gmkit.rulesets.example.orders import Move, Order
from gmkit.rulesets.example.state import board_of

KIND_FILLS = {"camp": "#d9c8a0", "ford": "#a9c9e6", "hill": "#9bd770"}
DUG_OUT = "#c8c2b4"
PALETTE = ("#cc3333", "#00ccff", "#9900cc", "#ff9900")  # told apart by colour-blind readers


def colours(state: State) -> dict[str, str]:
    """Each digger's colour, in the order the players were listed, every two told apart."""
    return assign(state["diggers"]["id"].to_list(), PALETTE)


def board_scene(state: State, title: str = "") -> Scene:
    """What the board shows for ``state``: what the public may see (no digger's gold)."""
    colour = colours(state)
    hills = state["hills"].to_dicts()
    return Scene(
        kind_fills=KIND_FILLS,
        fills={h["place"]: DUG_OUT for h in hills if h["gold_left"] == 0},
        labels=tuple(Label(h["place"], f"{h['place']}\n{h['gold_left']} gold") for h in hills),
        marks=tuple(Mark(d["place"], "digger", colour[d["id"]], title=d["id"])
                    for d in state["diggers"].iter_rows(named=True)),
        legend=tuple(LegendEntry(pid, c) for pid, c in colour.items()),
        arrow_kinds=(ArrowKind("move"),),
        title=title or f"Three Hills after turn {state.turn}")


def board_svg(state: State, title: str = "") -> str:
    """The board for ``state`` as SVG (see :func:`board_scene`)."""
    return graph_svg(board_of(state), board_scene(state, title))


def scene(state: State, ctx: Context) -> Scene:
    """The board for ``state``: hills by the gold left, a mark per digger."""
    return board_scene(state)


def palette(state: State, ctx: Context) -> dict[str, str]:
    """Each digger's colour, in the order the players were listed."""
    return colours(state)


def move_arrows(state: State, orders: Orders[Order], events: Sequence[Event],
                ctx: Context) -> list[Arrow]:
    """Each move as an arrow from where the digger stands to where it walks."""
    colour = colours(state)
    here = dict(state["diggers"].select("id", "place").iter_rows())
    moves = [(e.player, e.order) for e in orders.of_kind(Move) if e.player in here]
    return [Arrow(here[who], order.place, colour[who], "move",
                  title=f"{who}: move to {order.place}")
            for who, order in moves if isinstance(order, Move)]
