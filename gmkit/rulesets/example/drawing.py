"""The board of Three Hills drawn for a state: hills by the gold left in them, a mark per digger
in its colour, and a turn's moves as arrows. :func:`board_scene` is what the ruleset's ``scene``
returns (so a game's map is this drawing); :func:`board_svg` draws it as SVG; :func:`drawn_orders`
is how the ruleset's orders are drawn."""

from __future__ import annotations

from collections.abc import Sequence

from gmkit.core.drawing.graph_svg import graph_svg
from gmkit.core.drawing.orders import DrawnOrders, order_ref
from gmkit.core.drawing.palette import assign
from gmkit.core.drawing.scene import Arrow, ArrowKind, Label, LegendEntry, Mark, Scene, initials
from gmkit.core.envelope import Orders
from gmkit.core.parts import Context
from gmkit.core.steps import Event
from gmkit.core.tables import State
from gmkit.rulesets.example.orders import Move, Order
from gmkit.rulesets.example.state import board_of

KIND_FILLS = {"camp": "#d9c8a0", "ford": "#a9c9e6", "hill": "#9bd770"}
DUG_OUT = "#c8c2b4"
PALETTE = ("#cc3333", "#00ccff", "#9900cc", "#ff9900")  # told apart by colour-blind readers
#: A digger's move: a solid arrow to the place it walks to.
MOVE = ArrowKind("move", label="move (the digger's initial)")


def colours(state: State) -> dict[str, str]:
    """Each digger's colour, in the order the players were listed, every two told apart."""
    return assign(state["diggers"]["id"].to_list(), PALETTE)


def board_scene(state: State, title: str = "") -> Scene:
    """What the board shows for ``state``: what the public may see (no digger's gold)."""
    colour = colours(state)
    mark = initials(list(colour))
    hills = state["hills"].to_dicts()
    return Scene(
        kind_fills=KIND_FILLS,
        fills={h["place"]: DUG_OUT for h in hills if h["gold_left"] == 0},
        labels=tuple(Label(h["place"], f"{h['place']}\n{h['gold_left']} gold") for h in hills),
        marks=tuple(Mark(d["place"], "digger", colour[d["id"]], title=d["id"],
                         text=mark[d["id"]])
                    for d in state["diggers"].iter_rows(named=True)),
        legend=tuple(LegendEntry(f"{mark[pid]} {pid}", c) for pid, c in colour.items()),
        arrow_kinds=(MOVE,),
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


def drawn_orders(state: State, orders: Orders[Order], events: Sequence[Event],
                 ctx: Context) -> DrawnOrders:
    """2. Moving: each move as an arrow from where the digger stands to where it walks, in
    its colour with its initial."""
    colour = colours(state)
    mark = initials(list(colour))
    here = dict(state["diggers"].select("id", "place").iter_rows())
    arrows = []
    for e in orders.of_kind(Move):
        order = e.order
        if isinstance(order, Move) and e.player in here:
            arrows.append(Arrow(here[e.player], order.place, colour[e.player], MOVE.name,
                                title=f"{e.player}: move to {order.place}",
                                text=mark[e.player], orders=(order_ref(e),)))
    return DrawnOrders(arrows=tuple(arrows), arrow_kinds=(MOVE,))
