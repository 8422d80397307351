"""AZTLAN on the map: cities in their holder's colour, armies as stacks of tokens and orders as
arrows, in each empire's colour.

:func:`scene`, :func:`palette`, :func:`drawn_orders` and :func:`place_properties` are what the
ruleset's presentation declares; :func:`stacks` turns the armies on the
board (sector -> owner and count) into :class:`~gmkit.core.drawing.scene.Mark` tokens;
:func:`arrows` turns the players' typed orders (:mod:`gmkit.rulesets.aztlan.orders`) into
:class:`~gmkit.core.drawing.scene.Arrow` marks, coloured by the player and marked as succeeded
or failed once the adjudication's outcome codes are known.

:data:`ARROW_KINDS` declares how each kind of arrow looks (an attack solid and thick, a move
dashed, a support thin and dotted, a cut support thin with a bar across before the head).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from gmkit.core.drawing.orders import DrawnOrders, order_ref
from gmkit.core.drawing.polygon_svg import KIND_FILLS, SEA_INK
from gmkit.core.drawing.scene import (Arrow, ArrowKind, Label, LegendEntry, Mark, Outline, Scene,
                                      initials)
from gmkit.core.envelope import Orders
from gmkit.core.parts import Context
from gmkit.core.steps import Event
from gmkit.core.tables import State
from gmkit.rulesets.aztlan.orders import (
    NEUTRAL,
    Attack,
    Contingency,
    CutSupport,
    Hold,
    Move,
    Order,
    Stand,
    Support,
    armies_phrase,
    describe,
)
from gmkit.rulesets.aztlan.board.geography import EMPIRES

__all__ = [
    "ARROW_KINDS",
    "ATTACK",
    "CUT",
    "EMPIRE_COLOURS",
    "MOVE",
    "NEUTRAL_COLOUR",
    "SUPPORT",
    "arrows",
    "colour",
    "drawn_orders",
    "legend",
    "order_arrows",
    "palette",
    "place_properties",
    "scene",
    "stacks",
]

#: An Attack: a solid, thick arrow.
ATTACK = ArrowKind("attack", width=3.0, label="attack")
#: A Move along its path: a dashed arrow.
MOVE = ArrowKind("move", width=2.0, dash=(6.0, 4.0), label="move")
#: A Support: a thin, dotted arrow, onto the supported order's arrow.
SUPPORT = ArrowKind("support", width=1.3, dash=(2.0, 2.5), label="support")
#: A Cut Support: a thin arrow with a bar across before its head.
CUT = ArrowKind("cut", width=1.3, bar=True, label="cut support")
#: Every kind of arrow AZTLAN draws (holds, stands and the other orders draw none).
ARROW_KINDS: tuple[ArrowKind, ...] = (ATTACK, MOVE, SUPPORT, CUT)

#: The colour of the independent garrisons (2.2, 3.4).
NEUTRAL_COLOUR = "#9e9e9e"

#: Each empire's colour (rule 2.1's order), and ``"neutral"`` for the independent garrisons:
#: ten hues apart from one another and dark enough to read on the board's pale land.
# every two told apart by colour-blind readers too (tests/test_map_readability.py)
EMPIRE_COLOURS: dict[str, str] = {
    "Aztecs": "#cc0000",
    "Tlaxcalans": "#0000ff",
    "Chalcans": "#00cc66",
    "Tarascans": "#993399",
    "Meztitlans": "#ff9900",
    "Yopis": "#336666",
    "Totonacs": "#ff99ff",
    "Chichimecs": "#886644",
    "Soconuscans": "#ff00ff",
    "Hot Country": "#222222",
    NEUTRAL: NEUTRAL_COLOUR,
}

#: The mark on each empire's army tokens, beside its colour.
_INITIALS = initials([e for e in EMPIRE_COLOURS if e != NEUTRAL])

#: The outcome code (``Code`` of :mod:`gmkit.rulesets.aztlan.adjudicate`) of an order that worked.
SUCCEEDS = "succeeds"


def colour(owner: str) -> str:
    """The colour of an empire, or of ``"neutral"``; ``ValueError`` for anyone else."""
    try:
        return EMPIRE_COLOURS[owner]
    except KeyError:
        known = ", ".join(EMPIRE_COLOURS)
        raise ValueError(f"no colour for {owner!r} (known: {known})") from None


def palette(state: State, ctx: Context | None = None) -> dict[str, str]:
    """Each empire in the game's colour (2.1's order)."""
    return {pid: EMPIRE_COLOURS[pid] for pid in state["players"]["id"].to_list()
            if pid in EMPIRE_COLOURS}


def legend() -> list[tuple[str, str]]:
    """The map legend: each empire with its colour, then the independent garrisons."""
    return [(name, EMPIRE_COLOURS[name]) for name in EMPIRES] + [
        ("independent", NEUTRAL_COLOUR)]


#: The piece kind of an army token.
ARMY = "army"
#: A city nobody holds, and the land between the cities.
CITY_FILL = "#e8e0c8"
_OUTLINE = "#4a4a4a"


def lighter(colour: str, keep: float = 0.45) -> str:
    """A city's fill: its owner's colour washed towards white, so the stacks stand out."""
    if not (colour.startswith("#") and len(colour) == 7):
        return CITY_FILL
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - (255 - c) * keep):02x}" for c in rgb)


def scene(state: State, ctx: Context | None = None) -> Scene:
    """What the board shows for ``state``: each city washed in its holder's colour, the
    cities by their 2.6 designations and the numbered sectors by number, the armies as
    stacks, the empires' home lands outlined (1.5), the two seas named, and a legend of the
    empires in play, of every eliminated empire still on the board (marked so) and of the
    independent cities."""
    from gmkit.rulesets.aztlan.board.geography import EMPIRES, SEAS
    from gmkit.rulesets.aztlan.state import active_players

    labels = [Label(name, abbr if city else name)
              for name, abbr, city in state["sectors"].select("name", "abbr", "city").iter_rows()]
    labels += [Label(sea, sea, SEA_INK) for sea in SEAS]
    fills: dict[Hashable, str] = {}
    shown: set[str] = set()
    for name, owner in state["cities"].select("name", "owner").iter_rows():
        fills[name] = lighter(EMPIRE_COLOURS.get(owner or NEUTRAL, CITY_FILL))
        shown.add(owner or NEUTRAL)
    armies = {s: (o, int(n)) for s, o, n in state["armies"].iter_rows() if n > 0}
    shown.update(o for o, _ in armies.values())
    in_play = active_players(state)
    legend = [LegendEntry(pid, EMPIRE_COLOURS[pid]) for pid in in_play]
    legend += [LegendEntry(f"{pid} (eliminated)", EMPIRE_COLOURS[pid]) for pid in EMPIRE_COLOURS
               if pid in shown and pid not in in_play and pid != NEUTRAL]
    legend.append(LegendEntry("independent", NEUTRAL_COLOUR))
    sectors = set(state["sectors"]["name"].to_list())
    groups = [tuple(h for h in homes if h in sectors) for homes in EMPIRES.values()]
    outlines = [Outline(group, _OUTLINE, 3.2) for group in groups if group]
    return Scene(fills=fills, kind_fills=KIND_FILLS, default_fill=CITY_FILL,
                 labels=tuple(labels), marks=tuple(stacks(armies)),
                 outlines=tuple(outlines), legend=tuple(legend),
                 arrow_kinds=ARROW_KINDS)


def stacks(armies: Mapping[str, tuple[str, int]]) -> list[Mark]:
    """A stack of tokens for each occupied sector (sector -> owner and count, the owner
    ``"neutral"`` for an independent garrison), in the mapping's order; empty sectors are left
    out."""
    out = []
    for sector, (owner, count) in armies.items():
        if count <= 0:
            continue
        who = "Independent garrison" if owner == NEUTRAL else owner
        out.append(Mark(sector, ARMY, colour(owner), count,
                        f"{who}: {armies_phrase(count)} in {sector}",
                        "" if owner == NEUTRAL else _INITIALS.get(owner, "")))
    return out


def _happens(c: Contingency, orders: Mapping[str, list[Order]]) -> bool:
    """Whether the orders given to the force in ``c.supported`` make contingency ``c`` happen
    (as far as the orders alone tell: a hold or a stand also needs an attack on it)."""
    there = orders.get(c.supported, [])
    if c.action == "attack":
        return any(isinstance(o, Attack) and o.target == c.target for o in there)
    if c.action == "move":
        return any(isinstance(o, Move) and c.target in o.path for o in there)
    if c.action == "hold":
        return any(isinstance(o, Hold) for o in there)
    if c.action == "stand":
        return not there or any(isinstance(o, Stand) for o in there)
    return any(isinstance(o, (Attack, Hold, Stand)) for o in there)


def _support_arrow(order: Support, orders: Mapping[str, list[Order]], tint: str,
                   ok: bool | None, title: str, refs: tuple[str, ...] = ()) -> Arrow | None:
    """A support's arrow: to the first contingency the posted orders make happen (else the
    first); onto the supported arrow for an attack or a move, to the sector otherwise."""
    if not order.contingencies:
        return None
    chosen = next((c for c in order.contingencies if _happens(c, orders)),
                  order.contingencies[0])
    if chosen.action in ("attack", "move") and chosen.target is not None:
        return Arrow(order.origin, chosen.target, tint, SUPPORT.name,
                     onto=(chosen.supported, chosen.target), ok=ok, title=title, orders=refs)
    return Arrow(order.origin, chosen.supported, tint, SUPPORT.name, ok=ok, title=title,
                 orders=refs)


def arrows(orders_by_player: Mapping[str, Sequence[Order]],
           outcomes: Mapping[tuple[str, int], str] | None = None, *,
           secret: bool = True) -> list[Arrow]:
    """An arrow for each Attack, Move, Support and Cut Support, in each player's colour.

    ``outcomes`` maps ``(player, order line number)`` to the adjudication's code
    (``"succeeds"``, ``"bounced"``, ``"cut"``, ...): an order whose code is ``"succeeds"`` is
    drawn as done, any other code as failed, and an order with no code as not yet decided.
    A support points at the first of its contingencies that the posted orders make happen (the
    first when none does).  Other orders (hold, stand, sacrifice, gifts, permissions, and any
    order type this module does not know) draw no arrow.  ``secret=False`` leaves out the
    orders given in secret, for a map the players see.  Lines and secrecy are read from the
    orders' envelopes (:class:`~gmkit.core.envelope.Orders`); in a plain mapping each player's
    orders are on lines 1, 2, ... and none is secret.
    """
    outcomes = outcomes or {}
    envelopes = Orders.plain(orders_by_player)
    by_origin: dict[str, list[Order]] = defaultdict(list)
    for orders in orders_by_player.values():
        for o in orders:
            origin = getattr(o, "origin", None)
            if isinstance(origin, str):
                by_origin[origin].append(o)
    out: list[Arrow] = []
    for player in envelopes:
        for sent in envelopes.of(player):
            o = sent.order
            if not isinstance(o, (Attack, Move, Support, CutSupport)):
                continue
            if sent.secret and not secret:
                continue
            tint = colour(player)
            code = outcomes.get((player, sent.line))
            ok = None if code is None else code == SUCCEEDS
            title = f"{player}: {describe(o)}" + " (secret)" * sent.secret + (
                f": {code}" if code else "")
            refs = (order_ref(sent),)
            if isinstance(o, Attack):
                out.append(Arrow(o.origin, o.target, tint, ATTACK.name, ok=ok, title=title,
                                 orders=refs))
            elif isinstance(o, CutSupport):
                out.append(Arrow(o.origin, o.target, tint, CUT.name, ok=ok, title=title,
                                 orders=refs))
            elif isinstance(o, Move):
                if o.path:
                    out.append(Arrow(o.origin, o.path[-1], tint, MOVE.name, via=o.path[:-1],
                                     ok=ok, title=title, orders=refs))
            else:
                arrow = _support_arrow(o, by_origin, tint, ok, title, refs)
                if arrow is not None:
                    out.append(arrow)
    return out


def order_arrows(state: State, orders: Orders[Order], events: Sequence[Event],
                 ctx: Context) -> list[Arrow]:
    """A turn's orders as arrows, each marked by the outcome code the turn's events gave its
    line so far (see :func:`arrows`)."""
    outcomes = {(e.player, int(e.data["line"])): str(e.data["code"]) for e in events
                if e.kind == "order" and e.player and e.data.get("line")}
    return arrows(orders, outcomes or None)


def drawn_orders(state: State, orders: Orders[Order], events: Sequence[Event],
                 ctx: Context) -> DrawnOrders:
    """5. Orders: each Attack, Move, Support and Cut Support as an arrow in its empire's
    colour from its army's stack (which carries the empire's initial), marked by its outcome
    once adjudicated (see :func:`order_arrows`)."""
    return DrawnOrders(arrows=tuple(order_arrows(state, orders, events, ctx)),
                       arrow_kinds=ARROW_KINDS)


def place_properties(state: State) -> dict[str, dict[str, Any]]:
    """Each city's holder and each sector's armies now, for the map's GeoJSON export."""
    out: dict[str, dict[str, Any]] = {
        name: {"owner": owner} for name, owner in state["cities"].select("name", "owner")
        .iter_rows()}
    for sector, owner, count in state["armies"].iter_rows():
        if count > 0:
            out.setdefault(sector, {}).setdefault("armies", []).append(
                {"owner": owner, "count": count})
    return out
