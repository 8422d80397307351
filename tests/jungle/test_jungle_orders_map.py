"""The Law of the Jungle's actions drawn on the map: moves, journeys and attacks elsewhere as
arrows, actions on the spot as marks, each in the house's colour with its initial."""

from __future__ import annotations

from gmkit.core.boards.hexgrid import Hex
from gmkit.core.envelope import Orders
from gmkit.core.parts import Context
from gmkit.core.steps import void_event
from gmkit.rulesets.jungle.drawing import colours
from gmkit.rulesets.jungle.orders import parse
from gmkit.rulesets.jungle.orders_map import drawn_orders
from tests.jungle.helpers import RULES, char, city_row, world

POSTS = {
    "Ocelotl": "[b]Morning[/b]\n[b]Gualpa: Move 0,1[/b]\n[b]Afternoon[/b]\n"
               "[b]Gualpa: Attack (Duel) Xoco[/b]",
    "Tochtli": "[b]Xoco: Toil[/b]\n[b]Xoco: Defend[/b]",
    "Quetzal": "[b]Itzel: Attack (Duel) Mixtli[/b]\n[b]Itzel: Travel Tlatelolco[/b]",
}


def _session():
    state = world([char("Gualpa", "Ocelotl"), char("Xoco", "Tochtli", q=1, r=0),
                   char("Itzel", "Quetzal"), char("Mixtli", "Coyotl")],
                  cities=[city_row("Tenochtitlan"), city_row("Tlatelolco", q=4, r=-1)],
                  hexes=[("Tenochtitlan", 0, 0, None), ("Tenochtitlan", 1, 0, None),
                         ("Tenochtitlan", 0, 1, None), ("Tlatelolco", 4, -1, None)])
    parsed = {house: parse(post, house, state, RULES) for house, post in POSTS.items()}
    assert not any(p.errors for p in parsed.values())
    return state, Orders.parsed(parsed)


def test_moves_and_journeys_are_arrows_the_afternoon_from_where_the_morning_left():
    """CHARACTER ACTIONS: Move to a hex of the city is a solid arrow; Travel to another city a
    dashed one to its centre; the Afternoon's attack starts where the Morning's move left
    Gualpa (0,1), not where he stood; each in its house's colour with its initial."""
    state, orders = _session()
    drawn = drawn_orders(state, orders, [], Context(RULES))
    arrows = {(a.kind, a.src, a.dst): a for a in drawn.arrows}
    assert set(arrows) == {("move", Hex(0, 0), Hex(0, 1)), ("attack", Hex(0, 1), Hex(1, 0)),
                           ("travel", Hex(0, 0), Hex(4, -1))}
    move = arrows[("move", Hex(0, 0), Hex(0, 1))]
    assert move.colour == colours(state)["Ocelotl"] and move.text == "O"
    assert move.orders == ("Ocelotl/0/2/0",)


def test_attacks_on_the_same_hex_and_other_actions_are_marks_there():
    """LOCATIONS: an attack on a character on the same hex is a star on it; Toil is a diamond
    and Defend a hexagon where the character acts, with the house's initial; the tooltip names
    the character and the action."""
    state, orders = _session()
    drawn = drawn_orders(state, orders, [], Context(RULES))
    marks = {(m.piece, m.place): m for m in drawn.marks}
    assert set(marks) == {("attack here", Hex(0, 0)), ("action", Hex(1, 0)),
                          ("defend", Hex(1, 0))}
    assert marks[("attack here", Hex(0, 0))].text == "Q"
    assert "Xoco: Toil" in marks[("action", Hex(1, 0))].title
    assert {k.name for k in drawn.mark_kinds} >= {m.piece for m in drawn.marks}


def test_a_void_action_is_drawn_failed_and_moves_no_one():
    """CHARACTER ACTIONS: "Actions that are not valid at the moment of resolution will be
    considered void": a void Move is drawn failed, and the Afternoon's attack starts where
    Gualpa still stands."""
    state, orders = _session()
    void = void_event("Ocelotl", "CHARACTER ACTIONS", "the hex is taken", line=2)
    drawn = drawn_orders(state, orders, [void], Context(RULES))
    arrows = {a.kind: a for a in drawn.arrows}
    assert arrows["move"].ok is False
    assert (arrows["attack"].src, arrows["attack"].dst) == (Hex(0, 0), Hex(1, 0))


def test_a_secret_house_s_actions_are_not_drawn_when_not_given():
    """What the drawing is not given it does not draw: without Quetzal's (secret) post, no
    journey and no attack of Itzel's shows."""
    state, orders = _session()
    public = Orders(e for e in orders.envelopes if e.player != "Quetzal")
    drawn = drawn_orders(state, public, [], Context(RULES))
    assert not any(r.startswith("Quetzal/") for r in drawn.refs())
    assert {a.kind for a in drawn.arrows} == {"move", "attack"}
