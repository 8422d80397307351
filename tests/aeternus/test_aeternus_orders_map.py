"""Aeternus's actions drawn on the map: a player's path along the hexes traversed, a traverse
that did not move them drawn failed, and the actions taken at a hex as marks there."""

from __future__ import annotations

from datetime import timedelta

from gmkit.core.boards.hexgrid import Hex
from gmkit.core.dice import Dice
from gmkit.core.envelope import Envelope, Orders
from gmkit.core.orders import PostLine
from gmkit.core.parts import Context
from gmkit.core.steps import Driver
from gmkit.rulesets.aeternus.coords import to_axial
from gmkit.rulesets.aeternus.drawing import faction_colours
from gmkit.rulesets.aeternus.orders import parse_line
from gmkit.rulesets.aeternus.orders_map import drawn_orders
from gmkit.rulesets.aeternus.steps import STEPS
from tests.aeternus.scenario import MONDAY, SEED, rules, scenario

O, N, N2, LAKE = (0, 0, 0), (0, 0, 1), (0, 0, 2), (1, 0, 2)
LINES = ["Traverse North", "Traverse North", "Traverse Mouth", "Scout Ashe and Weast", "Forage"]


def _hex(c: tuple[int, int, int]) -> Hex:
    return Hex(*to_axial(*c))


def _turn(run: bool):
    """Amber's post, one line an action a minute apart, drawn before or after resolving it."""
    state = scenario({O: "Meadow", N: "Meadow", N2: "Meadow", LAKE: "Lake"}, {"Amber": O},
                     ap_base=8)
    envelopes = [Envelope(parse_line(PostLine(i, text, False)), "Amber", 1, i,
                          posted=(MONDAY + timedelta(minutes=i)).isoformat())
                 for i, text in enumerate(LINES, 1)]
    orders = Orders(envelopes)
    events = []
    if run:
        params = rules(ap_base=8)
        driver = Driver(STEPS, state, orders, Dice(SEED, 1), params)
        driver.run_all()
        events = list(driver.events)
    return state, drawn_orders(state, orders, events, Context(rules(ap_base=8)))


def test_6_2_the_hexes_traversed_make_one_path_from_where_the_player_stands():
    """6.2: "Move into an adjacent hex": two traverses North, each read from where the one
    before left Amber, are one path O, N, (0,0,2), in her faction's colour with her initial;
    the traverse into the Lake (5.3.1.6: "they do not move") is an arrow of its own, drawn
    failed once resolved."""
    state, drawn = _turn(run=True)
    paths = {a.ok: a for a in drawn.arrows if a.kind == "path"}
    walked, stopped = paths[None], paths[False]
    assert (walked.src, walked.via, walked.dst) == (_hex(O), (_hex(N),), _hex(N2))
    assert walked.text == "A" and walked.colour == faction_colours(state)["Amber"]
    assert walked.orders == ("Amber/1/1/0", "Amber/1/2/0")
    assert (stopped.src, stopped.dst) == (_hex(N2), _hex(LAKE))


def test_6_before_resolving_the_path_is_drawn_as_posted():
    """Before the batch resolves, every traverse posted is one path, to the Lake too."""
    _, drawn = _turn(run=False)
    (path,) = [a for a in drawn.arrows if a.kind == "path"]
    assert (path.src, path.via, path.dst) == (_hex(O), (_hex(N), _hex(N2)), _hex(LAKE))
    assert path.ok is None


def test_6_1_and_6_4_scouting_rings_each_hex_scouted_and_foraging_marks_the_players_hex():
    """6.1: "Select two hexes adjacent to one's location": each is ringed, read from where
    the traverses left Amber; 6.4: foraging marks the hex she forages."""
    _, drawn = _turn(run=True)
    marks = {(m.piece, m.place) for m in drawn.marks}
    assert marks == {("scout", _hex((0, 1, 2))), ("scout", _hex((-1, 0, 2))),
                     ("forage", _hex(N2))}
    assert all(m.text == "A" and m.orders for m in drawn.marks)
