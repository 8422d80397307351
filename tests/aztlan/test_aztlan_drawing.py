"""AZTLAN on the map (gmkit.rulesets.aztlan.drawing): the empires' colours, armies as stacks,
orders as arrows coloured by the adjudication's outcome, drawn on the real board."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

from gmkit.core.envelope import Envelope, Orders
from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.drawing.colours import check_colour
from gmkit.rulesets.aztlan import drawing
from gmkit.rulesets.aztlan import orders as az_orders
from gmkit.rulesets.aztlan.adjudicate import Code
from gmkit.rulesets.aztlan.drawing import ARROW_KINDS, EMPIRE_COLOURS, arrows, stacks
from gmkit.rulesets.aztlan.orders import (
    NEUTRAL,
    Attack,
    Contingency,
    CutSupport,
    Give,
    Hold,
    Move,
    Order,
    Permit,
    Sacrifice,
    Stand,
    Support,
)
from gmkit.rulesets.aztlan.board.geography import EMPIRES
from tests.drawing import draw
from tests.aztlan.conftest import adjacent, run

NS = "{http://www.w3.org/2000/svg}"
AZ, TL, CH = "Aztecs", "Tlaxcalans", "Chalcans"
TEN, TEX, TTL, TLA, ZEM = "Tenochtitlan", "Texcoco", "Toltoltepec", "Tlaxcala", "Zempoala"


def support(origin: str, *cases: tuple[str, str, str | None]) -> Support:
    return Support(origin, 1, tuple(Contingency(s, a, t)  # type: ignore[arg-type]
                                    for s, a, t in cases))


# -- colours -------------------------------------------------------------------------------------

def test_every_empire_and_the_independents_have_a_distinct_safe_colour() -> None:
    assert set(EMPIRE_COLOURS) == {*EMPIRES, NEUTRAL}
    assert len(set(EMPIRE_COLOURS.values())) == len(EMPIRE_COLOURS)
    for colour in EMPIRE_COLOURS.values():
        assert check_colour(colour) == colour
    assert EMPIRE_COLOURS[NEUTRAL] == drawing.NEUTRAL_COLOUR


def test_the_empires_colours_are_far_apart() -> None:
    def rgb(colour: str) -> tuple[int, ...]:
        return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))

    values = [rgb(c) for c in EMPIRE_COLOURS.values()]
    for i, a in enumerate(values):
        for b in values[i + 1:]:
            assert sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5 > 60


def test_colour_and_legend() -> None:
    assert drawing.colour(AZ) == EMPIRE_COLOURS[AZ]
    with pytest.raises(ValueError, match="no colour for 'Spaniards'"):
        drawing.colour("Spaniards")
    legend = drawing.legend()
    assert [name for name, _ in legend] == [*EMPIRES, "independent"]
    assert dict(legend)["independent"] == drawing.NEUTRAL_COLOUR


# -- stacks --------------------------------------------------------------------------------------

def test_stacks_of_armies_and_independent_garrisons() -> None:
    got = stacks({TEN: (AZ, 2), TLA: (NEUTRAL, 1), ZEM: (CH, 0), "Chichimec Desert": (
        "Chichimecs", 9)})
    assert [(s.place, s.count, s.colour) for s in got] == [
        (TEN, 2, EMPIRE_COLOURS[AZ]), (TLA, 1, drawing.NEUTRAL_COLOUR),
        ("Chichimec Desert", 9, EMPIRE_COLOURS["Chichimecs"])]
    assert got[0].title == "Aztecs: 2 armies in Tenochtitlan"
    assert got[1].title == "Independent garrison: 1 army in Tlaxcala"
    with pytest.raises(ValueError, match="Spaniards"):
        stacks({TEN: ("Spaniards", 1)})


# -- arrows --------------------------------------------------------------------------------------

def test_each_order_that_goes_somewhere_is_an_arrow() -> None:
    got = arrows({
        AZ: [Attack(TEX, 2, TEN), Move(TTL, 1, ("Tula", "14", "Toluca")),
             CutSupport("Xaltocan", 1, ZEM)],
        TL: [Hold(TLA, 1), Stand("Huexotzingo", 1), Sacrifice(TLA, 1),
             Give("Cholula", 1, AZ), Permit(AZ, None)],
    })
    assert [(a.kind, a.src, a.dst, a.via, a.colour, a.ok) for a in got] == [
        ("attack", TEX, TEN, (), EMPIRE_COLOURS[AZ], None),
        ("move", TTL, "Toluca", ("Tula", "14"), EMPIRE_COLOURS[AZ], None),
        ("cut", "Xaltocan", ZEM, (), EMPIRE_COLOURS[AZ], None)]
    assert got[0].title == f"Aztecs: {az_orders.describe(Attack(TEX, 2, TEN))}"


def test_orders_of_unknown_types_draw_nothing() -> None:
    @dataclass(frozen=True)
    class Pray:
        origin: str

    assert arrows({AZ: [Pray(TEN)]}) == []  # type: ignore[list-item]
    divine = getattr(az_orders, "DivineSupport", None)
    if divine is not None:
        gods = divine(1, (Contingency(TEN, "hold"),))
        assert arrows({AZ: [gods]}) == []


def test_a_support_of_an_attack_or_move_points_onto_that_order() -> None:
    got = arrows({AZ: [Attack(TEX, 1, TEN), support(TTL, (TEX, "attack", TEN)),
                       Move("Tula", 1, ("14", "Toluca")),
                       support("Tacuba", ("Tula", "move", "14"))]})
    attack_support, move_support = got[1], got[3]
    assert (attack_support.kind, attack_support.src, attack_support.dst,
            attack_support.onto) == ("support", TTL, TEN, (TEX, TEN))
    assert (move_support.src, move_support.dst, move_support.onto) == ("Tacuba", "14",
                                                                       ("Tula", "14"))


@pytest.mark.parametrize("action", ["hold", "stand", "any"])
def test_a_support_of_a_defence_points_at_the_supported_sector(action: str) -> None:
    (got,) = arrows({TL: [support(TLA, (ZEM, action, None))]})
    assert (got.kind, got.src, got.dst, got.onto) == ("support", TLA, ZEM, None)


def test_a_support_follows_the_first_contingency_the_posted_orders_make_happen() -> None:
    cases = ((TEX, "attack", ZEM), (TEN, "hold", None))
    first = arrows({AZ: [support(TTL, *cases)]})
    assert first[0].onto == (TEX, ZEM), "nothing posted for Texcoco: the first contingency"
    second = arrows({AZ: [support(TTL, *cases), Hold(TEN, 1)]})
    assert (second[0].dst, second[0].onto) == (TEN, None), "Tenochtitlan holds"
    both = arrows({AZ: [support(TTL, *cases), Hold(TEN, 1)],
                   TL: [Attack(TEX, 1, ZEM)]})
    assert both[0].onto == (TEX, ZEM), "the first that happens wins"
    assert arrows({AZ: [Support(TTL, 1, ())]}) == []


def test_outcomes_colour_the_arrows() -> None:
    orders: dict[str, list[Order]] = {
        AZ: [Attack(TEX, 1, TEN), support(TTL, (TEX, "attack", TEN)),
             CutSupport("Xaltocan", 1, ZEM), Move("Tula", 1, ("14",))]}
    got = arrows(orders, {(AZ, 1): "succeeds", (AZ, 2): "cut", (AZ, 3): "void"})
    assert [a.ok for a in got] == [True, False, False, None]
    assert got[0].title.endswith(": succeeds") and got[1].title.endswith(": cut")
    assert [a.ok for a in arrows(orders, {(TL, 1): "succeeds"})] == [None] * 4, \
        "outcomes are per player"


def test_secret_orders_can_be_left_out() -> None:
    """An order's secrecy is on its envelope: a map the players see leaves it out."""
    orders: Orders[Order] = Orders([Envelope(Attack(TEX, 1, TEN), AZ, 1, 1, secret=True),
                                    Envelope(Attack(TTL, 1, "Tula"), AZ, 2, 1)])
    assert len(arrows(orders)) == 2
    assert [a.src for a in arrows(orders, secret=False)] == [TTL]
    assert arrows(orders)[0].title.endswith("(secret)")


# -- on the real board, after a real adjudication ------------------------------------------------

def test_an_adjudicated_turn_drawn_on_the_board(board: PolygonBoard) -> None:
    adjacent(board, (TEX, TEN), (TTL, TEN), (TLA, ZEM))
    armies = {TEX: (AZ, 2), TTL: (AZ, 1), TEN: (TL, 1), TLA: (TL, 1), ZEM: (CH, 1),
              "Tula": (NEUTRAL, 1)}
    orders: dict[str, list[Order]] = {
        AZ: [Attack(TEX, 2, TEN), support(TTL, (TEX, "attack", TEN))],
        TL: [Stand(TEN, 1), Attack(TLA, 1, ZEM)],
        CH: [Hold(ZEM, 1)],
    }
    adj = run(board, armies, orders)
    lines = Orders.plain(orders)
    outcomes = {(r.player, lines.of(r.player)[r.written].line): r.code.value
                for r in adj.results if r.written is not None}
    got = arrows(orders, outcomes)
    assert [(a.src, a.kind) for a in got] == [(TEX, "attack"), (TTL, "support"),
                                              (TLA, "attack")]
    for arrow, (player, line) in zip(got, [(AZ, 1), (AZ, 2), (TL, 2)]):
        assert arrow.ok is (outcomes[player, line] == Code.SUCCEEDS.value)
    assert got[0].ok is True, "three against one standing army"
    assert got[2].ok is False, "one against one holding army"

    labels = {n: str(board.regions[n].props.get("abbr") or n) for n in board.regions}
    svg = draw(board, labels=labels, stacks=stacks(armies), arrows=got,
                       arrow_kinds=ARROW_KINDS,
                       legend=drawing.legend(), title="Turn 1")
    root = ET.fromstring(svg)
    drawn = [g for g in root.iter(f"{NS}g") if "data-kind" in g.attrib]
    assert [(g.attrib["data-src"], g.attrib["data-ok"]) for g in drawn] == [
        (TEX, "true"), (TTL, str(got[1].ok).lower()), (TLA, "false")]
    tokens = {g.attrib["data-region"]: g for g in root.iter(f"{NS}g") if "data-count" in g.attrib}
    assert set(tokens) == set(armies)
    assert {r.attrib["fill"] for r in tokens["Tula"].iter(f"{NS}rect")} == {
        drawing.NEUTRAL_COLOUR}
    assert len(list(tokens[TEX].iter(f"{NS}rect"))) == 2


def test_the_desk_shows_an_aztlan_turns_orders(tmp_path: Path) -> None:
    """A new AZTLAN game with the bots' orders: the orders map before the turn has arrows not
    yet decided; after the turn has run, the arrows show their outcomes."""
    from gmkit.core.ruleset import find_ruleset
    from gmkit.desk import Desk
    from gmkit.game import Game
    from gmkit.sweeps.playout import receive_bot_posts

    players = find_ruleset("aztlan").example_players(None)
    game = Game.new(tmp_path / "aztlan", "aztlan", players)
    receive_bot_posts(game, "drawing", secret_every=0)
    desk = Desk.open(tmp_path / "aztlan")
    before = desk.orders_svg()
    assert before is not None
    oks = [g.attrib["data-ok"] for g in ET.fromstring(before).iter(f"{NS}g")
           if "data-kind" in g.attrib]
    assert oks and set(oks) == {"none"}
    last = desk.run_all()
    assert last.orders_svg is not None and last.map_svg is not None
    oks = [g.attrib["data-ok"] for g in ET.fromstring(last.orders_svg).iter(f"{NS}g")
           if "data-kind" in g.attrib]
    assert {"true", "false"} & set(oks)
    assert last.to_html().count("<svg") == 2
