"""The Diplomacy Adjudicator Test Cases (DATC, Lucas Kruijswijk) adapted to AZTLAN.

Each test names the DATC case it adapts and the AZTLAN rule it relies on.  AZTLAN has no
fleets and no convoys (those cases are left out); armies form stacks of one to three
(5.3, 5.9); an Attack is not a Move (only an Attack dislodges, 5.3, 5.8); Hold is not
Stand (5.6, 5.7); a plain Attack never cuts a support, only a Cut Support order or a
dislodgement does (5.4, 5.5.1); and the gods' magical supports need no sector and are
never cut (3.5.3).  Where the AZTLAN rules or the adjudicator's stated rulings give
another result than the DATC, the test says so.  Every scenario is on the real board,
its adjacency read from the map first.
"""

from __future__ import annotations

import pytest

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.envelope import Orders
from gmkit.rulesets.aztlan.adjudicate import GODS, Adjudication, Capture, Code
from gmkit.rulesets.aztlan.orders import (
    NEUTRAL,
    Action,
    Attack,
    Contingency,
    CutSupport,
    DivineSupport,
    Hold,
    Move,
    Order,
    Position,
    Stand,
    Support,
    parse,
    check,
)
from tests.aztlan.conftest import adjacent, run

AZ, TL, CH, TA, ME = "Aztecs", "Tlaxcalans", "Chalcans", "Tarascans", "Meztitlans"
TEN, TEX, TTL, TLP, TLA, ZEM = ("Tenochtitlan", "Texcoco", "Toltoltepec", "Tlapacoya",
                                "Tlaxcala", "Zempoala")
XAL, TAC, COY, XOC, HUE, TUL = ("Xaltocan", "Tacuba", "Coyoacan", "Xochimilco",
                                "Huexotzingo", "Tula")

Case = tuple[str, Action, str | None]


def attack(origin: str, target: str, count: int = 1,
           retreat: tuple[str, ...] = ()) -> Attack:
    """``count`` armies in ``origin`` attack ``target``."""
    return Attack(origin, count, target, retreat)


def supports(origin: str, *cases: Case, count: int = 1,
             retreat: tuple[str, ...] = ()) -> Support:
    """``count`` armies in ``origin`` support the first of ``cases`` that happens."""
    return Support(origin, count, tuple(Contingency(s, a, t) for s, a, t in cases), retreat)


def gods(*cases: Case, count: int = 1) -> DivineSupport:
    """``count`` magical supports of the gods (3.5.3) for the first of ``cases``."""
    return DivineSupport(count, tuple(Contingency(s, a, t) for s, a, t in cases))


def code(adj: Adjudication, sector: str) -> Code:
    """The outcome code of the one force ordered from (or standing in) ``sector``."""
    return adj.result(sector).code


def problems(board: PolygonBoard, position: Position, **posts: str) -> dict[str, list[str]]:
    """Every player's orders read with :func:`parse` and judged by :func:`check`."""
    parsed = {}
    for player, post in posts.items():
        result = parse(post, board, player)
        assert result.ok, result.report()
        parsed[player] = result
    found = check(position, Orders.parsed(parsed), board)
    return {p: [str(e) for e in errs] for p, errs in found.items()}


# ---------------------------------------------------------------------------
# 6.A Basic checks
# ---------------------------------------------------------------------------


def test_6a1_attack_move_or_cut_to_a_sector_not_adjacent_is_void(board: PolygonBoard) -> None:
    """DATC 6.A.1 moving to an area that is not a neighbour: an Attack (5.3), a Cut
    Support (5.4) or a Move step (5.8) into a sector not adjacent is void; the army
    stands, nothing is attacked and no peace is broken."""
    assert TLA not in board.land_neighbours(TEN)
    assert "7" not in board.land_neighbours(TTL)
    assert TLA not in board.land_neighbours(TLP)
    adj = run(board, {TEN: (AZ, 1), TTL: (AZ, 1), TLP: (AZ, 1), TLA: (TL, 1), HUE: (TL, 1)},
              {AZ: [attack(TEN, TLA), Move(TTL, 1, ("7",)), CutSupport(TLP, 1, TLA)],
               TL: [supports(HUE, (TLA, "stand", None))]})
    assert code(adj, TEN) is Code.VOID
    assert adj.result(TEN).reason == ("void: Tlaxcala is not adjacent to Tenochtitlan; the "
                                      "army stands (5.3, 5.4)")
    assert code(adj, TTL) is Code.VOID
    assert adj.result(TTL).reason == "void: 7 is not adjacent to Toltoltepec; the army stands (5.8)"
    assert code(adj, TLP) is Code.VOID
    assert code(adj, HUE) is Code.VOID  # Tlaxcala was never attacked: nothing to support
    assert adj.armies == {TEN: (AZ, 1), TTL: (AZ, 1), TLP: (AZ, 1), TLA: (TL, 1), HUE: (TL, 1)}
    assert adj.peace_reset == frozenset()
    found = problems(board, Position({TEN: (AZ, 1), TLA: (TL, 1)}, {TEN: AZ, TLA: TL}),
                     Aztecs="A Ten A Tla")
    assert any("Tlaxcala is not adjacent to Tenochtitlan" in p for p in found[AZ])


def test_6a4_attack_or_move_to_own_sector_is_void(board: PolygonBoard) -> None:
    """DATC 6.A.4 move to own sector: an Attack on the army's own sector is not an attack
    on an adjacent sector (5.3), a Move that ends where it began passes its sector twice
    (5.8); both are void and the armies stand."""
    adj = run(board, {TEN: (AZ, 1), TEX: (AZ, 2)},
              {AZ: [attack(TEN, TEN), Move(TEX, 2, (TEX,))]})
    assert code(adj, TEN) is Code.VOID
    assert adj.result(TEN).reason.startswith("void: Tenochtitlan is not adjacent to Tenochtitlan")
    assert code(adj, TEX) is Code.VOID
    assert adj.result(TEX).reason == ("void: the Move passes Texcoco twice; the army stands "
                                      "(5.8)")
    assert adj.armies == {TEN: (AZ, 1), TEX: (AZ, 2)}
    assert adj.peace_reset == frozenset()
    found = problems(board, Position({TEN: (AZ, 1)}, {TEN: AZ}), Aztecs="A Ten A Ten")
    assert "line 1: Tenochtitlan cannot attack itself" in found[AZ]


def test_6a5_support_of_an_attack_on_own_sector_is_void_and_the_army_falls(
        board: PolygonBoard) -> None:
    """DATC 6.A.5 move to own sector with convoy (the part without fleets): the Aztec
    attack of Tenochtitlan on itself is void, so the support of Toltoltepec finds no
    attack to support (5.5); the Tlaxcalan attack, supported, takes Tenochtitlan (5.3)
    and the beaten Aztec army retreats into its own Toltoltepec (5.7)."""
    adjacent(board, (TEX, TEN), (TLP, TEN), (TTL, TEN))
    adj = run(board, {TEN: (AZ, 1), TTL: (AZ, 1), TEX: (TL, 1), TLP: (TL, 1)},
              {AZ: [attack(TEN, TEN, retreat=(TTL,)), supports(TTL, (TEN, "attack", TEN))],
               TL: [attack(TEX, TEN), supports(TLP, (TEX, "attack", TEN))]})
    assert code(adj, TTL) is Code.VOID
    assert adj.result(TTL).reason == "void: none of its contingencies happened (5.5)"
    assert code(adj, TEX) is Code.SUCCEEDS
    assert adj.result(TEX).reason == ("takes Tenochtitlan with weight 2 against a defence of 1 "
                                      "(5.3, 5.7)")
    assert code(adj, TEN) is Code.RETREATED
    assert adj.result(TEN).to == TTL
    assert adj.armies == {TEN: (TL, 1), TTL: (AZ, 2), TLP: (TL, 1)}
    assert adj.cities[TEN] == TL
    assert adj.lost == {}


def test_6a6_ordering_an_army_of_another_player_is_void(board: PolygonBoard) -> None:
    """DATC 6.A.6 ordering a unit of another country: the Tlaxcalans order the Aztec army
    in Tenochtitlan; the order is void, the army obeys its own player's orders (here it
    stands, 5.7) and nothing is attacked.  Validation names the owner."""
    adjacent(board, (TEN, TEX))
    adj = run(board, {TEN: (AZ, 1), TEX: (AZ, 1)}, {TL: [attack(TEN, TEX)]})
    assert [r.code for r in adj.results] == [Code.VOID, Code.SUCCEEDS, Code.SUCCEEDS]
    assert adj.results[0].player == TL
    assert adj.results[0].reason == ("void: no single army of the Tlaxcalans left to order in "
                                     "Tenochtitlan")
    assert adj.result(TEX).reason == "was not attacked (5.7)"
    assert adj.armies == {TEN: (AZ, 1), TEX: (AZ, 1)}
    assert adj.peace_reset == frozenset()
    found = problems(board, Position({TEN: (AZ, 1), TEX: (TL, 1)}, {TEN: AZ, TEX: TL}),
                     Tlaxcalans="A Ten A Tex")
    assert "line 1: no army of yours in Tenochtitlan: the armies there are the Aztecs'" in (
        found[TL])


def test_6a8_support_of_ones_own_sector_is_void(board: PolygonBoard) -> None:
    """DATC 6.A.8 support to hold yourself is not possible: of the Tlaxcalan double in
    Texcoco one army stands and one supports Texcoco standing; a support is given from a
    neighbouring sector only (5.5), so it is void.  The supporter still stands there
    (defence 2) and the Aztec weight 3 takes Texcoco; had the self-support counted, 3
    against 3 would have bounced."""
    adjacent(board, (TEN, TEX), (TTL, TEX), (TEX, TLA))
    adj = run(board, {TEN: (AZ, 2), TTL: (AZ, 1), TEX: (TL, 2)},
              {AZ: [attack(TEN, TEX, 2), supports(TTL, (TEN, "attack", TEX))],
               TL: [Stand(TEX, 1, (TLA,)), supports(TEX, (TEX, "stand", None), retreat=(TLA,))]},
              cities={TLA: TL})
    [stand, support] = [r for r in adj.results if r.sector == TEX]
    assert support.code is Code.RETREATED and stand.code is Code.RETREATED
    assert "none of its contingencies happened (5.5)" in support.reason
    assert code(adj, TEN) is Code.SUCCEEDS
    assert adj.result(TEN).reason == ("takes Texcoco with weight 3 against a defence of 2 "
                                      "(5.3, 5.7)")
    assert adj.armies == {TEX: (AZ, 2), TTL: (AZ, 1), TLA: (TL, 2)}
    found = problems(board, Position({TEX: (TL, 2)}, {TEX: TL}), Tlaxcalans="A Tex S Tex St")
    assert any("an army does not support its own sector" in p for p in found[TL])


def test_6a10_support_into_a_sector_the_supporter_does_not_border_is_void(
        board: PolygonBoard) -> None:
    """DATC 6.A.10 support on unreachable destination not possible: Tacuba borders the
    attacking army in Toltoltepec but not Texcoco, so it cannot support the attack on it
    (5.5); the attack bounces 1 against 1 (5.7)."""
    adjacent(board, (TTL, TEX), (TAC, TTL))
    assert TEX not in board.land_neighbours(TAC)
    adj = run(board, {TTL: (AZ, 1), TAC: (AZ, 1), TEX: (TL, 1)},
              {AZ: [attack(TTL, TEX), supports(TAC, (TTL, "attack", TEX))]})
    assert code(adj, TAC) is Code.VOID
    assert code(adj, TTL) is Code.BOUNCED
    assert adj.armies == {TTL: (AZ, 1), TAC: (AZ, 1), TEX: (TL, 1)}
    found = problems(board, Position({TTL: (AZ, 1), TAC: (AZ, 1), TEX: (TL, 1)},
                                     {TTL: AZ, TAC: AZ, TEX: TL}),
                     Aztecs="A Ttl A Tex\nA Tac S Ttl A Tex")
    assert any("Texcoco is not adjacent to Tacuba" in p for p in found[AZ])


def test_6a12_three_attacks_of_equal_weight_all_bounce(board: PolygonBoard) -> None:
    """DATC 6.A.12 bounce of three units: three players attack the independent garrison
    of Xaltocan with double armies; each beats its defence (2 against 1) but none beats
    the others (5.3), so none enters and the garrison stays.  The failed attacks still
    break the city's peace (3.2.1)."""
    adjacent(board, (TEX, XAL), (ZEM, XAL), (TTL, XAL))
    adj = run(board, {TEX: (AZ, 2), ZEM: (TL, 2), TTL: (CH, 2), XAL: (NEUTRAL, 1)},
              {AZ: [attack(TEX, XAL, 2)], TL: [attack(ZEM, XAL, 2)],
               CH: [attack(TTL, XAL, 2)]})
    assert [code(adj, s) for s in (TEX, ZEM, TTL)] == [Code.BOUNCED] * 3
    assert adj.result(TEX).reason.endswith("attacked Xaltocan with equal weight")
    assert code(adj, XAL) is Code.SUCCEEDS
    assert adj.armies == {TEX: (AZ, 2), ZEM: (TL, 2), TTL: (CH, 2), XAL: (NEUTRAL, 1)}
    assert adj.cities[XAL] is None
    assert adj.peace_reset == frozenset({XAL})


# ---------------------------------------------------------------------------
# 6.C Circular movement
# ---------------------------------------------------------------------------

CIRCLE = {TEN: (AZ, 1), TEX: (TL, 1), TLP: (CH, 1)}


def _circle() -> dict[str, list[Order]]:
    """Tenochtitlan attacks Texcoco, Texcoco attacks Tlapacoya, Tlapacoya attacks
    Tenochtitlan, each a different player's."""
    return {AZ: [attack(TEN, TEX)], TL: [attack(TEX, TLP)], CH: [attack(TLP, TEN)]}


def test_6c1_three_attacks_in_a_circle_all_succeed(board: PolygonBoard) -> None:
    """DATC 6.C.1 three army circular movement: attacking forces do not defend the
    sectors they leave (5.7), so each attack of weight 1 meets no defence and all three
    take their targets; each city changes hands (4.2)."""
    adjacent(board, (TEN, TEX), (TEX, TLP), (TLP, TEN))
    adj = run(board, CIRCLE, _circle())
    assert [code(adj, s) for s in (TEN, TEX, TLP)] == [Code.SUCCEEDS] * 3
    assert adj.result(TEN).reason == ("takes Texcoco with weight 1 against a defence of 0 "
                                      "(5.3, 5.7)")
    assert adj.armies == {TEX: (AZ, 1), TLP: (TL, 1), TEN: (CH, 1)}
    assert (adj.cities[TEX], adj.cities[TLP], adj.cities[TEN]) == (AZ, TL, CH)
    assert adj.peace_reset == frozenset({TEN, TEX, TLP})
    assert adj.lost == {}


def test_6c1_one_players_circle_is_made_by_moves(board: PolygonBoard) -> None:
    """DATC 6.C.1 for one player: an Attack on one's own armies is void (5.3), so the
    Aztecs turn their three stacks round with Moves through their own cities (5.8);
    chains of moves into sectors being vacated succeed."""
    adjacent(board, (TEN, TEX), (TEX, TTL), (TTL, TEN))
    adj = run(board, {TEN: (AZ, 1), TEX: (AZ, 2), TTL: (AZ, 3)},
              {AZ: [Move(TEN, 1, (TEX,)), Move(TEX, 2, (TTL,)), Move(TTL, 3, (TEN,))]})
    assert [code(adj, s) for s in (TEN, TEX, TTL)] == [Code.SUCCEEDS] * 3
    assert adj.armies == {TEX: (AZ, 1), TTL: (AZ, 2), TEN: (AZ, 3)}
    assert adj.peace_reset == frozenset()


def test_6c2_three_attacks_in_a_circle_with_support(board: PolygonBoard) -> None:
    """DATC 6.C.2 three army circular movement with support: a support given to one of
    the attacks (5.5) changes nothing; all three succeed."""
    adjacent(board, (TTL, TEX), (TTL, TEN))
    orders = _circle()
    orders[AZ].append(supports(TTL, (TEN, "attack", TEX)))
    adj = run(board, {**CIRCLE, TTL: (AZ, 1)}, orders)
    assert [code(adj, s) for s in (TEN, TEX, TLP, TTL)] == [Code.SUCCEEDS] * 4
    assert adj.result(TEN).reason == ("takes Texcoco with weight 2 against a defence of 0 "
                                      "(5.3, 5.7)")
    assert adj.armies == {TEX: (AZ, 1), TLP: (TL, 1), TEN: (CH, 1), TTL: (AZ, 1)}


def test_6c3_disrupted_circle_the_bounced_attacker_loses_its_home(board: PolygonBoard) -> None:
    """DATC 6.C.3 a disrupted three army circular movement.  In Diplomacy every unit keeps
    its place.  In AZTLAN attacks are aimed where the armies start and attacking forces
    do not defend the sector they leave (5.7, the adjudicator's ruling): the Aztec attack
    bounces on an equal Tarascan one, the other two still succeed, and the Aztec army,
    back in a Tenochtitlan now Chalcan with no friendly sector round it, is captured
    (3.5)."""
    adjacent(board, (XAL, TEX))
    orders = _circle()
    orders[TA] = [attack(XAL, TEX)]
    adj = run(board, {**CIRCLE, XAL: (TA, 1)}, orders)
    assert code(adj, XAL) is Code.BOUNCED
    assert code(adj, TEX) is Code.SUCCEEDS
    assert code(adj, TLP) is Code.SUCCEEDS
    assert code(adj, TEN) is Code.CAPTURED
    assert "bounced: the Tarascan single army in Xaltocan attacked Texcoco with equal weight" in (
        adj.result(TEN).reason)
    assert adj.armies == {TLP: (TL, 1), TEN: (CH, 1), XAL: (TA, 1)}
    assert adj.captures == (Capture(CH, 1, TEN, AZ, TEN),)
    assert adj.lost == {AZ: 1}
    assert adj.cities[TEX] == TL  # empty, still the Tlaxcalans' city (4.2)


def test_6c3_disrupted_circle_of_moves(board: PolygonBoard) -> None:
    """DATC 6.C.3 for a circle of Moves: the Tlaxcalans take Texcoco, whose Aztec army
    counts as Standing there and retreats to its ordered Toltoltepec (5.7).  Texcoco is
    now a Tlaxcalan city, so the move into it bounces (2.4, 4.2); the move from
    Toltoltepec into the Aztecs' own Tenochtitlan still goes (5.8)."""
    adjacent(board, (TEN, TEX), (TEX, TTL), (TTL, TEN), (TLA, TEX))
    adj = run(board, {TEN: (AZ, 1), TEX: (AZ, 1), TTL: (AZ, 1), TLA: (TL, 2)},
              {AZ: [Move(TEN, 1, (TEX,)), Move(TEX, 1, (TTL,), retreat=(TTL,)),
                    Move(TTL, 1, (TEN,))],
               TL: [attack(TLA, TEX, 2)]})
    assert code(adj, TLA) is Code.SUCCEEDS
    assert code(adj, TEX) is Code.RETREATED
    assert code(adj, TEN) is Code.BOUNCED
    assert "Texcoco is a city of the Tlaxcalans" in adj.result(TEN).reason
    assert code(adj, TTL) is Code.SUCCEEDS
    assert adj.armies == {TEN: (AZ, 2), TEX: (TL, 2), TTL: (AZ, 1)}
    assert adj.cities[TEX] == TL


def test_6c_four_attacks_in_a_circle_all_succeed(board: PolygonBoard) -> None:
    """DATC 6.C.1 with four forces: Tenochtitlan, Texcoco, Huexotzingo and Tlapacoya of
    four players attack round the circle; all succeed (5.3, 5.7)."""
    adjacent(board, (TEN, TEX), (TEX, HUE), (HUE, TLP), (TLP, TEN))
    adj = run(board, {TEN: (AZ, 1), TEX: (TL, 2), HUE: (CH, 1), TLP: (TA, 3)},
              {AZ: [attack(TEN, TEX)], TL: [attack(TEX, HUE, 2)], CH: [attack(HUE, TLP)],
               TA: [attack(TLP, TEN, 3)]})
    assert [code(adj, s) for s in (TEN, TEX, HUE, TLP)] == [Code.SUCCEEDS] * 4
    assert adj.armies == {TEX: (AZ, 1), HUE: (TL, 2), TLP: (CH, 1), TEN: (TA, 3)}


def test_6c6_two_moves_swap_sectors(board: PolygonBoard) -> None:
    """DATC 6.C.6 two armies swap (without convoys): two Attacks into each other's
    sectors are a head-to-head battle (6.E), but two hostile Moves into each other's
    vacated sectors share no sector, so their scouts never meet (5.8.1): both go."""
    adjacent(board, ("14", "7"))
    adj = run(board, {"14": (AZ, 2), "7": (TL, 1)},
              {AZ: [Move("14", 2, ("7",))], TL: [Move("7", 1, ("14",))]})
    assert code(adj, "14") is Code.SUCCEEDS
    assert code(adj, "7") is Code.SUCCEEDS
    assert adj.armies == {"7": (AZ, 2), "14": (TL, 1)}


def test_6c7_disrupted_swap_nobody_moves(board: PolygonBoard) -> None:
    """DATC 6.C.7 disrupted unit swap: a Chalcan move into 14 meets the Tlaxcalan one
    there; neither is supported, so both stop before 14 (5.8.1).  The Tlaxcalans stay in
    7, and the Aztecs may not pass a sector another player holds (4.1): nobody moves."""
    adjacent(board, ("14", "7"), ("13", "14"))
    adj = run(board, {"14": (AZ, 1), "7": (TL, 1), "13": (CH, 1)},
              {AZ: [Move("14", 1, ("7",))], TL: [Move("7", 1, ("14",))],
               CH: [Move("13", 1, ("14",))]})
    assert [code(adj, s) for s in ("14", "7", "13")] == [Code.BOUNCED] * 3
    assert "scouts met" in adj.result("7").reason
    assert "scouts met" in adj.result("13").reason
    assert adj.result("14").reason == ("bounced: 7 is held by the Tlaxcalans, who gave no "
                                       "permission to pass (4.1); it stays in 14")
    assert adj.armies == {"14": (AZ, 1), "7": (TL, 1), "13": (CH, 1)}


# ---------------------------------------------------------------------------
# 6.D Supports and dislodges
# ---------------------------------------------------------------------------


def _supported_defence(board: PolygonBoard) -> dict[str, tuple[str, int]]:
    """The Aztecs in Tenochtitlan attack Texcoco with Toltoltepec's support; the
    Tlaxcalans in Zempoala may support Texcoco."""
    adjacent(board, (TEN, TEX), (TTL, TEX), (ZEM, TEX), (XAL, ZEM), (TEX, TLA))
    return {TEN: (AZ, 1), TTL: (AZ, 1), TEX: (TL, 1), ZEM: (TL, 1)}


@pytest.mark.parametrize(("defend", "action", "attacker"),
                         [(Stand, "stand", Code.BOUNCED), (Hold, "hold", Code.ANNIHILATED)])
def test_6d1_supported_defence_prevents_dislodgement(
        board: PolygonBoard, defend: type[Stand | Hold], action: Action,
        attacker: Code) -> None:
    """DATC 6.D.1 supported hold can prevent dislodgement: weight 2 against a defence of
    2 fails (5.3).  Against Standing armies the attack bounces (5.7); against Holding
    ones it is annihilated, its supporter unhurt (5.6, 5.6.1 example 5)."""
    armies = _supported_defence(board)
    adj = run(board, armies,
              {AZ: [attack(TEN, TEX), supports(TTL, (TEN, "attack", TEX))],
               TL: [defend(TEX, 1), supports(ZEM, (TEX, action, None))]})
    assert code(adj, TEN) is attacker
    assert code(adj, TEX) is Code.SUCCEEDS
    assert code(adj, ZEM) is Code.SUCCEEDS
    assert code(adj, TTL) is Code.SUCCEEDS
    lost = attacker is Code.ANNIHILATED
    expected = dict(armies)
    if lost:
        del expected[TEN]
    assert adj.armies == expected
    assert adj.lost == ({AZ: 1} if lost else {})


def test_6d2_a_cut_support_cuts_a_defensive_support_a_plain_attack_does_not(
        board: PolygonBoard) -> None:
    """DATC 6.D.2 a move cuts support on hold.  In AZTLAN a 1 to 1 Attack on a supporter
    neither dislodges it nor cuts its support (5.5.1): Texcoco holds.  A Cut Support
    order does cut it (5.4): Texcoco falls to weight 2 against 1."""
    armies = {**_supported_defence(board), XAL: (AZ, 1)}
    base: list[Order] = [attack(TEN, TEX), supports(TTL, (TEN, "attack", TEX))]
    tl: list[Order] = [Stand(TEX, 1, (TLA,)), supports(ZEM, (TEX, "stand", None))]
    cities = {TLA: TL}
    adj = run(board, armies, {AZ: [*base, attack(XAL, ZEM)], TL: tl}, cities)
    assert code(adj, XAL) is Code.BOUNCED
    assert code(adj, ZEM) is Code.SUCCEEDS
    assert code(adj, TEN) is Code.BOUNCED
    assert adj.armies == armies
    adj = run(board, armies, {AZ: [*base, CutSupport(XAL, 1, ZEM)], TL: tl}, cities)
    assert code(adj, XAL) is Code.SUCCEEDS
    assert code(adj, ZEM) is Code.CUT
    assert code(adj, TEN) is Code.SUCCEEDS
    assert code(adj, TEX) is Code.RETREATED
    assert adj.armies == {TEX: (AZ, 1), TTL: (AZ, 1), ZEM: (TL, 1), XAL: (AZ, 1),
                          TLA: (TL, 1)}
    assert adj.peace_reset == frozenset({TEX})  # a Cut Support is no Attack (3.2.2)


def test_6d3_a_dislodged_supporter_gives_no_support(board: PolygonBoard) -> None:
    """DATC 6.D.3 a move cuts support on move: the Tlaxcalan double from Xaltocan
    dislodges the supporter in Toltoltepec, so its support is cut (5.5.1) and the attack
    on Texcoco bounces; the supporter, treated as Standing, retreats as ordered (5.7)."""
    adjacent(board, (XAL, TTL), (TTL, TAC))
    armies = {TEN: (AZ, 1), TTL: (AZ, 1), TEX: (TL, 1), XAL: (TL, 2)}
    adj = run(board, armies,
              {AZ: [attack(TEN, TEX), supports(TTL, (TEN, "attack", TEX), retreat=(TAC,))],
               TL: [attack(XAL, TTL, 2)]},
              cities={TAC: AZ})
    assert code(adj, XAL) is Code.SUCCEEDS
    assert code(adj, TTL) is Code.RETREATED
    assert "its support of the Aztec single army in Tenochtitlan attacking Texcoco failed, " \
        "Toltoltepec was taken (5.5.1)" in adj.result(TTL).reason
    assert code(adj, TEN) is Code.BOUNCED
    assert adj.armies == {TEN: (AZ, 1), TEX: (TL, 1), TTL: (TL, 2), TAC: (AZ, 1)}
    assert adj.cities[TTL] == TL


def test_6d5_a_supporting_army_cannot_be_supported(board: PolygonBoard) -> None:
    """DATC 6.D.4/6.D.5 support to hold on a unit supporting is allowed in Diplomacy; in
    AZTLAN "armies may not be ordered to Support another army that is also Supporting"
    (5.5).  Toltoltepec's support of Texcoco standing is not given, the Tlaxcalan double
    dislodges the supporter in Texcoco, its support is cut (5.5.1) and the Aztec attack
    on Tlapacoya bounces."""
    adjacent(board, (TEN, TLP), (TEX, TLP), (TTL, TEX), (TLA, TEX))
    adj = run(board, {TEN: (AZ, 1), TEX: (AZ, 1), TTL: (AZ, 1), TLP: (CH, 1), TLA: (TL, 2)},
              {AZ: [attack(TEN, TLP), supports(TEX, (TEN, "attack", TLP), retreat=(TTL,)),
                    supports(TTL, (TEX, "stand", None))],
               TL: [attack(TLA, TEX, 2)]})
    assert code(adj, TTL) is Code.VOID
    assert code(adj, TLA) is Code.SUCCEEDS
    assert code(adj, TEX) is Code.RETREATED
    assert code(adj, TEN) is Code.BOUNCED
    assert adj.armies == {TEN: (AZ, 1), TTL: (AZ, 2), TLP: (CH, 1), TEX: (TL, 2)}


def test_6d6_a_cutter_under_attack_stands_and_may_be_supported(board: PolygonBoard) -> None:
    """DATC 6.D.6 support to hold on a convoying unit allowed, adapted to the other order
    that is not a defence: a force ordered to Cut Support is treated as Standing when it
    comes under attack (5.4), and 5.5 forbids supporting only a Supporting army, so
    Toltoltepec's support of Texcoco standing is given: 2 against 2, Texcoco holds."""
    adjacent(board, (TEX, ZEM), (TTL, TEX), (TLA, TEX), (ZEM, TLA))
    adj = run(board, {TEX: (AZ, 1), TTL: (AZ, 1), TLA: (TL, 1), ZEM: (TL, 1)},
              {AZ: [CutSupport(TEX, 1, ZEM), supports(TTL, (TEX, "stand", None))],
               TL: [attack(TLA, TEX), supports(ZEM, (TLA, "attack", TEX))]})
    assert code(adj, TTL) is Code.SUCCEEDS
    assert adj.result(TTL).reason == "supports the armies in Texcoco"
    assert code(adj, TEX) is Code.SUCCEEDS  # the cutter held its sector
    assert code(adj, ZEM) is Code.CUT
    assert code(adj, TLA) is Code.BOUNCED
    assert adj.armies == {TEX: (AZ, 1), TTL: (AZ, 1), TLA: (TL, 1), ZEM: (TL, 1)}


def test_6d6_validation_accepts_a_stand_support_of_a_cutter(board: PolygonBoard) -> None:
    """DATC 6.D.6 adapted, as orders: "A Ten S Tex St" while Texcoco cuts support is a
    legal order (5.4, 5.5), as the adjudicator reads it; a support of an army that is
    itself Supporting is still refused."""
    position = Position({TEN: (AZ, 1), TEX: (AZ, 1), TLA: (TL, 2), ZEM: (TL, 1)},
                        {TEN: AZ, TEX: AZ, TLA: TL, ZEM: TL})
    found = problems(board, position, Aztecs="A Tex CS Zem\nA Ten S Tex St",
                     Tlaxcalans="2A Tla A Tex\nA Zem S Tla A Tex")
    assert found.get(AZ, []) == []
    found = problems(board, position, Aztecs="A Tex S Ten St\nA Ten S Tex St",
                     Tlaxcalans="2A Tla A Tex")
    assert any("an army that supports cannot be supported (5.5)" in p for p in found[AZ])


def test_6d7_a_stand_support_is_not_given_to_an_attacking_army(board: PolygonBoard) -> None:
    """DATC 6.D.7 support to hold on moving unit not allowed: the Aztec army attacks out
    of Tenochtitlan, so it neither stands nor holds there and Toltoltepec's support does
    not apply (5.5).  It bounces on Tlapacoya; Tenochtitlan, undefended, falls to a
    single Tlaxcalan army; the returning Aztec army retreats (5.7)."""
    adjacent(board, (TEN, TLP), (TTL, TEN), (TEX, TEN))
    adj = run(board, {TEN: (AZ, 1), TTL: (AZ, 1), TLP: (CH, 2), TEX: (TL, 1)},
              {AZ: [attack(TEN, TLP, retreat=(TTL,)), supports(TTL, (TEN, "stand", None))],
               TL: [attack(TEX, TEN)]})
    assert code(adj, TTL) is Code.VOID
    assert code(adj, TEX) is Code.SUCCEEDS
    assert adj.result(TEX).reason == ("takes Tenochtitlan with weight 1 against a defence of 0 "
                                      "(5.3, 5.7)")
    assert code(adj, TEN) is Code.RETREATED
    assert adj.armies == {TEN: (TL, 1), TTL: (AZ, 2), TLP: (CH, 2)}


def test_6d7_a_moving_army_stands_where_it_starts_and_may_be_supported(
        board: PolygonBoard) -> None:
    """DATC 6.D.7 turned round for the Move: a moving force counts as Standing in its own
    sector during combat (5.7, 5.8), so a stand support is given to it; the Tlaxcalan
    double bounces (2 against 2) and the Aztec army then moves to Tacuba."""
    adjacent(board, (TEN, TAC), (TTL, TEN), (TEX, TEN))
    adj = run(board, {TEN: (AZ, 1), TTL: (AZ, 1), TEX: (TL, 2)},
              {AZ: [Move(TEN, 1, (TAC,)), supports(TTL, (TEN, "stand", None))],
               TL: [attack(TEX, TEN, 2)]},
              cities={TAC: AZ})
    assert code(adj, TTL) is Code.SUCCEEDS
    assert code(adj, TEX) is Code.BOUNCED
    assert code(adj, TEN) is Code.SUCCEEDS
    assert adj.armies == {TAC: (AZ, 1), TTL: (AZ, 1), TEX: (TL, 2)}
    assert adj.cities[TEN] == AZ


def test_6d9_an_attack_support_is_not_given_to_a_holding_army(board: PolygonBoard) -> None:
    """DATC 6.D.9 support to move on holding unit not allowed: Toltoltepec supports
    Tenochtitlan attacking Texcoco, but Tenochtitlan holds (5.5); the support is void.
    The Tlaxcalans take Tenochtitlan at 2 to 1: mutual slaughter, the supporter from
    Tlapacoya fills the gap (5.6, 5.6.1 example 3)."""
    adjacent(board, (TEX, TEN), (TLP, TEN), (TTL, TEX))
    adj = run(board, {TEN: (AZ, 1), TTL: (AZ, 1), TEX: (TL, 1), TLP: (TL, 1)},
              {AZ: [Hold(TEN, 1), supports(TTL, (TEN, "attack", TEX))],
               TL: [attack(TEX, TEN), supports(TLP, (TEX, "attack", TEN))]})
    assert code(adj, TTL) is Code.VOID
    assert code(adj, TEN) is Code.SLAUGHTERED
    assert code(adj, TEX) is Code.SLAUGHTERED
    assert code(adj, TLP) is Code.SUCCEEDS
    assert adj.armies == {TEN: (TL, 1), TTL: (AZ, 1)}
    assert adj.lost == {AZ: 1, TL: 1}
    assert adj.cities[TEN] == TL


def test_6d10_an_attack_on_ones_own_army_is_void(board: PolygonBoard) -> None:
    """DATC 6.D.10 self dislodgment prohibited: an Attack is an assault on enemy-held
    territory (5.3); the Aztec attack on their own Tenochtitlan is void, and so the
    support of it finds nothing to support."""
    adjacent(board, (TEX, TEN), (TTL, TEN), (TTL, TEX))
    adj = run(board, {TEN: (AZ, 1), TEX: (AZ, 2), TTL: (AZ, 1)},
              {AZ: [Hold(TEN, 1), attack(TEX, TEN, 2), supports(TTL, (TEX, "attack", TEN))]})
    assert code(adj, TEX) is Code.VOID
    assert adj.result(TEX).reason == ("void: Tenochtitlan is held by the Aztecs themselves; the "
                                      "army stands (5.3)")
    assert code(adj, TTL) is Code.VOID
    assert code(adj, TEN) is Code.SUCCEEDS
    assert adj.armies == {TEN: (AZ, 1), TEX: (AZ, 2), TTL: (AZ, 1)}
    assert adj.lost == {}
    assert adj.peace_reset == frozenset()


def test_6d11_no_self_dislodgement_of_a_returning_army(board: PolygonBoard) -> None:
    """DATC 6.D.11 no self dislodgment of returning unit: attacks are aimed where armies
    start; Tenochtitlan holds Aztec armies, so the Aztec attack on it is void (5.3) even
    though its own army attacks out; that army bounces and comes home unharmed."""
    adjacent(board, (TEN, TLP), (TEX, TEN))
    adj = run(board, {TEN: (AZ, 1), TEX: (AZ, 2), TLP: (CH, 2)},
              {AZ: [attack(TEN, TLP), attack(TEX, TEN, 2)]})
    assert code(adj, TEX) is Code.VOID
    assert code(adj, TEN) is Code.BOUNCED
    assert adj.armies == {TEN: (AZ, 1), TEX: (AZ, 2), TLP: (CH, 2)}
    assert adj.lost == {}


def test_6d15_a_defender_cannot_cut_the_support_of_the_attack_on_itself(
        board: PolygonBoard) -> None:
    """DATC 6.D.15 defender can not cut support for attack on itself.  The Tlaxcalan
    double in Texcoco cuts the support of the attack on it: if the cut counts, 2 against
    2 bounces and the cutter stays; if not, 3 against 2 dislodges the cutter, whose cut
    fails (5.4).  The backup rule keeps the support: Texcoco falls and the cutter
    retreats as ordered."""
    adjacent(board, (TEN, TEX), (TTL, TEX), (TEX, TTL), (TEX, TLA))
    adj = run(board, {TEN: (AZ, 2), TTL: (AZ, 1), TEX: (TL, 2)},
              {AZ: [attack(TEN, TEX, 2), supports(TTL, (TEN, "attack", TEX))],
               TL: [CutSupport(TEX, 2, TTL, retreat=(TLA,))]},
              cities={TLA: TL})
    assert code(adj, TTL) is Code.SUCCEEDS
    assert code(adj, TEN) is Code.SUCCEEDS
    assert adj.result(TEN).reason == ("takes Texcoco with weight 3 against a defence of 2 "
                                      "(5.3, 5.7)")
    assert code(adj, TEX) is Code.RETREATED
    assert "the cutter was dislodged from Texcoco" in adj.result(TEX).reason
    assert adj.armies == {TEX: (AZ, 2), TTL: (AZ, 1), TLA: (TL, 2)}


def _dislodge_rule(board: PolygonBoard, supporters: int) -> Adjudication:
    """DATC 6.D.17/6.D.18 on the board: the Aztecs in Toltoltepec support Xaltocan
    attacking Texcoco; the Tlaxcalans in Texcoco attack Toltoltepec, supported from
    Tacuba; the Chalcans in Zempoala attack Texcoco too."""
    adjacent(board, (XAL, TEX), (TTL, TEX), (TEX, TTL), (TAC, TTL), (ZEM, TEX),
             (TTL, "14"), (TEX, TLA))
    return run(board, {TTL: (AZ, supporters), XAL: (AZ, 1), TEX: (TL, 1), TAC: (TL, 1),
                       ZEM: (CH, 1)},
               {AZ: [supports(TTL, (XAL, "attack", TEX), count=supporters, retreat=("14",)),
                     attack(XAL, TEX)],
                TL: [attack(TEX, TTL, retreat=(TLA,)), supports(TAC, (TEX, "attack", TTL))],
                CH: [attack(ZEM, TEX)]},
               cities={TLA: TL})


def test_6d17_dislodgement_cuts_supports(board: PolygonBoard) -> None:
    """DATC 6.D.17 dislodgement cuts supports: the Tlaxcalan attack dislodges the single
    Aztec supporter (2 against 1), so its support is cut (5.5.1); the Aztec attack on
    Texcoco then bounces on the equal Chalcan one, and Texcoco, left by its army, stays
    empty."""
    adj = _dislodge_rule(board, 1)
    assert code(adj, TEX) is Code.SUCCEEDS
    assert code(adj, TTL) is Code.RETREATED
    assert adj.result(TTL).to == "14"
    assert code(adj, XAL) is Code.BOUNCED
    assert code(adj, ZEM) is Code.BOUNCED
    assert adj.armies == {TTL: (TL, 1), TAC: (TL, 1), XAL: (AZ, 1), ZEM: (CH, 1),
                          "14": (AZ, 1)}
    assert adj.cities[TTL] == TL
    assert adj.cities[TEX] == TL


def test_6d18_a_surviving_supporter_sustains_its_support(board: PolygonBoard) -> None:
    """DATC 6.D.18 a surviving unit will sustain support.  A supporter cannot be supported
    in AZTLAN (5.5); here it survives by its own weight: the double army in Toltoltepec
    is attacked 2 against 2, keeps its sector and its support (5.5.1), and the Aztec
    attack of weight 3 takes Texcoco.  The Tlaxcalan army, bounced, finds its home taken
    and retreats (5.7)."""
    adj = _dislodge_rule(board, 2)
    assert code(adj, TTL) is Code.SUCCEEDS
    assert code(adj, TEX) is Code.RETREATED
    assert adj.result(TEX).to == TLA
    assert code(adj, XAL) is Code.SUCCEEDS
    assert adj.result(XAL).reason == ("takes Texcoco with weight 3 against a defence of 0 "
                                      "(5.3, 5.7)")
    assert code(adj, ZEM) is Code.BOUNCED
    assert adj.armies == {TTL: (AZ, 2), TEX: (AZ, 1), TAC: (TL, 1), ZEM: (CH, 1),
                          TLA: (TL, 1)}
    assert adj.cities[TEX] == AZ


def test_6d20_a_player_cannot_cut_his_own_support(board: PolygonBoard) -> None:
    """DATC 6.D.20 unit can not cut support of its own country: the Aztec Cut Support on
    their own supporter is void (5.4 cuts "an enemy unit"); the supported attack wins."""
    adjacent(board, (TAC, TTL))
    adj = run(board, {**_supported_defence(board), TAC: (AZ, 1)},
              {AZ: [attack(TEN, TEX), supports(TTL, (TEN, "attack", TEX)),
                    CutSupport(TAC, 1, TTL)],
               TL: [Stand(TEX, 1, (TLA,))]},
              cities={TLA: TL})
    assert code(adj, TAC) is Code.VOID
    assert adj.result(TAC).reason == ("void: Toltoltepec is held by the Aztecs themselves; "
                                      "the army stands (5.3)")
    assert code(adj, TTL) is Code.SUCCEEDS
    assert code(adj, TEN) is Code.SUCCEEDS
    assert adj.armies == {TEX: (AZ, 1), TTL: (AZ, 1), TAC: (AZ, 1), ZEM: (TL, 1),
                          TLA: (TL, 1)}


def test_6d21_a_dislodged_cutter_cuts_nothing(board: PolygonBoard) -> None:
    """DATC 6.D.21 dislodging does not cancel a support cut, in Diplomacy.  AZTLAN rules
    the other way: "a Cut Support will fail to cut support when the unit is attacked and
    dislodged by other forces" (5.4).  The Chalcans dislodge the Tlaxcalan cutter in
    Xaltocan, Toltoltepec's support stands and Texcoco falls."""
    adjacent(board, (XAL, TTL), (TUL, XAL), (XAL, ZEM))
    armies = {TEN: (AZ, 1), TTL: (AZ, 1), TEX: (TL, 1), XAL: (TL, 1), TUL: (CH, 2)}
    orders: dict[str, list[Order]] = {
        AZ: [attack(TEN, TEX), supports(TTL, (TEN, "attack", TEX))],
        TL: [Stand(TEX, 1, (TLA,)), CutSupport(XAL, 1, TTL, retreat=(ZEM,))],
        CH: [attack(TUL, XAL, 2)]}
    adj = run(board, armies, orders, cities={TLA: TL, ZEM: TL})
    assert code(adj, TUL) is Code.SUCCEEDS
    assert code(adj, XAL) is Code.RETREATED
    assert "the cutter was dislodged from Xaltocan, so the support stands (5.4)" in (
        adj.result(XAL).reason)
    assert code(adj, TTL) is Code.SUCCEEDS
    assert code(adj, TEN) is Code.SUCCEEDS
    assert adj.armies == {TEX: (AZ, 1), TTL: (AZ, 1), XAL: (CH, 2), ZEM: (TL, 1),
                          TLA: (TL, 1)}
    del orders[CH]
    adj = run(board, armies, orders, cities={TLA: TL, ZEM: TL})
    assert code(adj, TTL) is Code.CUT
    assert code(adj, TEN) is Code.BOUNCED


def test_6d33_unwanted_support_breaks_a_stand_off(board: PolygonBoard) -> None:
    """DATC 6.D.33 unwanted support allowed: the Aztec and Tlaxcalan attacks on the empty
    Chalcan Tlapacoya would stand off; the Tarascans support the Aztec one, which wins
    (5.3, 5.5); its empty home falls to a single Meztitlan army (5.7)."""
    adjacent(board, (TEN, TLP), (HUE, TLP), (XOC, TLP), (TAC, TEN))
    adj = run(board, {TEN: (AZ, 1), HUE: (TL, 1), XOC: (TA, 1), TAC: (ME, 1)},
              {AZ: [attack(TEN, TLP)], TL: [attack(HUE, TLP)],
               TA: [supports(XOC, (TEN, "attack", TLP))], ME: [attack(TAC, TEN)]},
              cities={TLP: CH})
    assert code(adj, XOC) is Code.SUCCEEDS
    assert code(adj, TEN) is Code.SUCCEEDS
    assert code(adj, HUE) is Code.BOUNCED
    assert adj.result(HUE).reason == ("bounced: the Aztec single army in Tenochtitlan attacked "
                                      "Tlapacoya with greater weight")
    assert code(adj, TAC) is Code.SUCCEEDS
    assert adj.armies == {TLP: (AZ, 1), HUE: (TL, 1), XOC: (TA, 1), TEN: (ME, 1)}
    assert (adj.cities[TLP], adj.cities[TEN]) == (AZ, ME)


def test_6d34_support_into_the_supporters_own_sector_is_void(board: PolygonBoard) -> None:
    """DATC 6.D.34 support targeting own area not allowed: the Tlaxcalan army in Texcoco
    supports the Chalcan attack on Texcoco itself; a supporter must border the sector it
    supports into (5.5), so the support is void.  The Aztec weight 3 beats the Chalcan
    weight 2 (it would have tied with 3) and takes Texcoco."""
    adjacent(board, (TEN, TEX), (TTL, TEX), (HUE, TEX), (TLP, TEX))
    adj = run(board, {TEN: (AZ, 2), TTL: (AZ, 1), HUE: (CH, 1), TLP: (CH, 1), TEX: (TL, 1)},
              {AZ: [attack(TEN, TEX, 2), supports(TTL, (TEN, "attack", TEX))],
               CH: [attack(HUE, TEX), supports(TLP, (HUE, "attack", TEX))],
               TL: [supports(TEX, (HUE, "attack", TEX))]})
    assert code(adj, TEX) is Code.CAPTURED
    assert "none of its contingencies happened (5.5)" in adj.result(TEX).reason
    assert code(adj, TEN) is Code.SUCCEEDS
    assert code(adj, HUE) is Code.BOUNCED
    assert adj.armies == {TEX: (AZ, 2), TTL: (AZ, 1), HUE: (CH, 1), TLP: (CH, 1)}
    assert adj.captures == (Capture(AZ, 1, TEX, TL, TEX),)


# ---------------------------------------------------------------------------
# 6.E Head-to-head battles and beleaguered garrisons
# ---------------------------------------------------------------------------


def test_6e1_a_force_beaten_head_to_head_has_no_effect_on_the_winners_sector(
        board: PolygonBoard) -> None:
    """DATC 6.E.1 dislodged unit has no effect on attacker's area: the Aztecs from
    Tenochtitlan beat the Tlaxcalan attack coming the other way (2 against 1) and take
    Texcoco.  The beaten Tlaxcalan army never reached Tenochtitlan, so it cannot stand
    off the Chalcan attack on the sector the Aztecs left: the Chalcans take it."""
    adjacent(board, (TEN, TEX), (TTL, TEX), (COY, TEN))
    adj = run(board, {TEN: (AZ, 1), TTL: (AZ, 1), TEX: (TL, 1), COY: (CH, 1)},
              {AZ: [attack(TEN, TEX), supports(TTL, (TEN, "attack", TEX))],
               TL: [attack(TEX, TEN)], CH: [attack(COY, TEN)]})
    assert code(adj, TEN) is Code.SUCCEEDS
    assert code(adj, TEX) is Code.CAPTURED
    assert code(adj, COY) is Code.SUCCEEDS
    assert adj.armies == {TEX: (AZ, 1), TTL: (AZ, 1), TEN: (CH, 1)}
    assert adj.cities[TEN] == CH


def test_6e_head_to_head_equal_weights_bounce_then_a_cut_decides(board: PolygonBoard) -> None:
    """DATC 6.E (head-to-head battle): two attacks into each other meet with their
    weights (the adjudicator's ruling); 2 against 2 bounces.  An Aztec Cut Support on the
    Tlaxcalan supporter (5.4) leaves 2 against 1: the Aztecs take Texcoco and the
    Tlaxcalan force retreats as ordered (5.7)."""
    adjacent(board, (TEN, TEX), (TTL, TEX), (TLP, TEN), (XOC, TLP), (TEX, TLA))
    armies = {TEN: (AZ, 1), TTL: (AZ, 1), TEX: (TL, 1), TLP: (TL, 1), XOC: (AZ, 1)}
    base: dict[str, list[Order]] = {
        AZ: [attack(TEN, TEX), supports(TTL, (TEN, "attack", TEX))],
        TL: [attack(TEX, TEN, retreat=(TLA,)), supports(TLP, (TEX, "attack", TEN))]}
    adj = run(board, armies, base, cities={TLA: TL})
    assert code(adj, TEN) is Code.BOUNCED
    assert adj.result(TEN).reason == ("bounced: the defence of Texcoco had equal weight "
                                      "(2 against 2) (5.7)")
    assert code(adj, TEX) is Code.BOUNCED
    assert adj.armies == armies
    adj = run(board, armies, {**base, AZ: [*base[AZ], CutSupport(XOC, 1, TLP)]},
              cities={TLA: TL})
    assert code(adj, TLP) is Code.CUT
    assert code(adj, TEN) is Code.SUCCEEDS
    assert code(adj, TEX) is Code.RETREATED
    assert adj.armies == {TEX: (AZ, 1), TTL: (AZ, 1), TLP: (TL, 1), XOC: (AZ, 1),
                          TLA: (TL, 1)}


def _head_to_head_with_third_parties(board: PolygonBoard, chalcans: int) -> Adjudication:
    """The Aztec double in Tenochtitlan and the Tlaxcalan single in Texcoco attack each
    other; ``chalcans`` armies from Zempoala attack Texcoco; a Tarascan single from Tacuba
    attacks Tenochtitlan."""
    adjacent(board, (TEN, TEX), (ZEM, TEX), (TAC, TEN), (TEX, TLA))
    return run(board, {TEN: (AZ, 2), TEX: (TL, 1), ZEM: (CH, chalcans), TAC: (TA, 1)},
               {AZ: [attack(TEN, TEX, 2)], TL: [attack(TEX, TEN, retreat=(TLA,))],
                CH: [attack(ZEM, TEX, chalcans)], TA: [attack(TAC, TEN)]},
               cities={TLA: TL})


def test_6e4_a_loser_not_dislodged_still_has_effect(board: PolygonBoard) -> None:
    """DATC 6.E.4 non-dislodged loser has still effect: the Aztecs beat the Tlaxcalans
    head to head but bounce on the equal Chalcan attack (5.3); the Tlaxcalans are not
    dislodged, and their attack on Tenochtitlan, though lost, stands off the Tarascan
    one.  Nobody moves."""
    adj = _head_to_head_with_third_parties(board, 2)
    assert [code(adj, s) for s in (TEN, TEX, ZEM, TAC)] == [Code.BOUNCED] * 4
    assert adj.result(TAC).reason == ("bounced: the Tlaxcalan single army in Texcoco attacked "
                                      "Tenochtitlan with equal weight")
    assert adj.armies == {TEN: (AZ, 2), TEX: (TL, 1), ZEM: (CH, 2), TAC: (TA, 1)}


def test_6e5_a_loser_dislodged_by_another_army_still_has_effect(board: PolygonBoard) -> None:
    """DATC 6.E.5 loser dislodged by another army has still effect: the Chalcan triple
    takes Texcoco; the Tlaxcalan force, beaten by the Chalcans and not by the Aztecs,
    still stands off the Tarascan attack on Tenochtitlan, whose Aztec army bounces home
    (5.3, 5.7)."""
    adj = _head_to_head_with_third_parties(board, 3)
    assert code(adj, ZEM) is Code.SUCCEEDS
    assert code(adj, TEN) is Code.BOUNCED
    assert code(adj, TAC) is Code.BOUNCED
    assert code(adj, TEX) is Code.RETREATED
    assert adj.result(TEX).to == TLA
    assert adj.armies == {TEN: (AZ, 2), TEX: (CH, 3), TAC: (TA, 1), TLA: (TL, 1)}


def test_6e_beleaguered_garrison_attacked_from_two_sides_with_equal_weight_stays(
        board: PolygonBoard) -> None:
    """DATC 6.E beleaguered garrison: two double armies attack the single Tlaxcalan army
    in Texcoco from two sides; each beats its defence but not the other (5.3), so the
    garrison stays.  Make one of them a triple and it wins."""
    adjacent(board, (TEN, TEX), (ZEM, TEX), (TEX, TLA))
    armies = {TEN: (AZ, 2), ZEM: (CH, 2), TEX: (TL, 1)}
    adj = run(board, armies, {AZ: [attack(TEN, TEX, 2)], CH: [attack(ZEM, TEX, 2)]})
    assert code(adj, TEN) is Code.BOUNCED
    assert code(adj, ZEM) is Code.BOUNCED
    assert code(adj, TEX) is Code.SUCCEEDS
    assert adj.result(TEX).reason == "held its ground (5.7)"
    assert adj.armies == armies
    adj = run(board, {**armies, TEN: (AZ, 3)},
              {AZ: [attack(TEN, TEX, 3)], CH: [attack(ZEM, TEX, 2)],
               TL: [Stand(TEX, 1, (TLA,))]},
              cities={TLA: TL})
    assert code(adj, TEN) is Code.SUCCEEDS
    assert code(adj, ZEM) is Code.BOUNCED
    assert code(adj, TEX) is Code.RETREATED
    assert adj.armies == {TEX: (AZ, 3), ZEM: (CH, 2), TLA: (TL, 1)}


def test_6e13_three_way_beleaguered_holding_garrison(board: PolygonBoard) -> None:
    """DATC 6.E.13 three way beleaguered garrison, with a Holding garrison: three double
    armies each beat the single Holding army (2 against 1) but tie with each other, so
    all bounce; none is annihilated, as none failed against the holders (5.6)."""
    adjacent(board, (TEX, XAL), (ZEM, XAL), (TTL, XAL))
    armies = {TEX: (AZ, 2), ZEM: (TL, 2), TTL: (CH, 2), XAL: (ME, 1)}
    adj = run(board, armies,
              {AZ: [attack(TEX, XAL, 2)], TL: [attack(ZEM, XAL, 2)],
               CH: [attack(TTL, XAL, 2)], ME: [Hold(XAL, 1)]})
    assert [code(adj, s) for s in (TEX, ZEM, TTL)] == [Code.BOUNCED] * 3
    assert code(adj, XAL) is Code.SUCCEEDS
    assert adj.result(XAL).reason == "held its ground (5.6)"
    assert adj.armies == armies
    assert adj.lost == {}


def test_6e14_an_attack_that_is_void_still_defends(board: PolygonBoard) -> None:
    """DATC 6.E.14 illegal head to head battle can still defend: the Tlaxcalan attack
    from Texcoco on Chalco (not adjacent) is void, so the army stands (5.3) and bounces
    the Aztec attack 1 against 1."""
    assert "Chalco" not in board.land_neighbours(TEX)
    adj = run(board, {TEN: (AZ, 1), TEX: (TL, 1)},
              {AZ: [attack(TEN, TEX)], TL: [attack(TEX, "Chalco")]})
    assert code(adj, TEX) is Code.VOID
    assert code(adj, TEN) is Code.BOUNCED
    assert adj.result(TEN).reason == ("bounced: the Tlaxcalan single army in Texcoco had equal "
                                      "weight (1 against 1) (5.7)")
    assert adj.armies == {TEN: (AZ, 1), TEX: (TL, 1)}


# ---------------------------------------------------------------------------
# Stacks (4.1, 5.3, 5.9)
# ---------------------------------------------------------------------------


def test_5_9_a_triple_split_into_attack_support_and_move(board: PolygonBoard) -> None:
    """5.9: "1A Attacks, 1A Supports and 1A Moves": of the Aztec triple in Tenochtitlan
    one army attacks Texcoco, one supports that attack from home (weight 2 against 1)
    and one moves to Tacuba.  Only the supporter is left in Tenochtitlan."""
    adjacent(board, (TEN, TEX), (TEN, TAC), (TEX, TLA))
    adj = run(board, {TEN: (AZ, 3), TEX: (TL, 1)},
              {AZ: [attack(TEN, TEX), supports(TEN, (TEN, "attack", TEX)),
                    Move(TEN, 1, (TAC,))],
               TL: [Stand(TEX, 1, (TLA,))]},
              cities={TAC: AZ, TLA: TL})
    assert [(r.order.__class__, r.code) for r in adj.results if r.sector == TEN] == [
        (Attack, Code.SUCCEEDS), (Support, Code.SUCCEEDS), (Move, Code.SUCCEEDS)]
    assert code(adj, TEX) is Code.RETREATED
    assert adj.armies == {TEN: (AZ, 1), TEX: (AZ, 1), TAC: (AZ, 1), TLA: (TL, 1)}
    assert adj.cities[TEX] == AZ


def test_5_9_the_armies_left_behind_by_a_split_defend_their_sector(board: PolygonBoard) -> None:
    """5.7, 5.9: of the Aztec double in Tenochtitlan one army attacks out; the one that
    stays defends alone and the Tlaxcalan double takes Tenochtitlan (2 against 1).  The
    whole double, standing, holds it."""
    adjacent(board, (TEN, TLP), (TEX, TEN), (TEN, TTL))
    armies = {TEN: (AZ, 2), TEX: (TL, 2), TLP: (CH, 1)}
    adj = run(board, armies,
              {AZ: [attack(TEN, TLP, retreat=(TTL,)), Stand(TEN, 1, (TTL,))],
               TL: [attack(TEX, TEN, 2)]},
              cities={TTL: AZ})
    assert code(adj, TEX) is Code.SUCCEEDS
    assert adj.result(TEX).reason == ("takes Tenochtitlan with weight 2 against a defence of 1 "
                                      "(5.3, 5.7)")
    assert adj.armies == {TEN: (TL, 2), TLP: (CH, 1), TTL: (AZ, 2)}
    adj = run(board, armies, {TL: [attack(TEX, TEN, 2)]})
    assert code(adj, TEX) is Code.BOUNCED
    assert adj.armies == armies


def test_5_3_one_force_per_player_per_attacked_sector(board: PolygonBoard) -> None:
    """5.3: "in any given sector, one player may attack with only 1 force": the second
    Aztec attack on Texcoco, from Toltoltepec, is void and that army stands; the first,
    a single army alone, bounces on Texcoco's single (5.7)."""
    adjacent(board, (TEN, TEX), (TTL, TEX))
    adj = run(board, {TEN: (AZ, 1), TTL: (AZ, 1), TEX: (TL, 1)},
              {AZ: [attack(TEN, TEX), attack(TTL, TEX)]})
    assert code(adj, TTL) is Code.VOID
    assert adj.result(TTL).reason == ("void: the Aztecs already attack Texcoco: one force per "
                                      "sector (5.3); the army stands")
    assert code(adj, TEN) is Code.BOUNCED
    assert adj.armies == {TEN: (AZ, 1), TTL: (AZ, 1), TEX: (TL, 1)}


def test_4_1_three_armies_per_sector_stop_a_move_into_a_conquered_sector(
        board: PolygonBoard) -> None:
    """4.1: at most three armies in a sector.  The Aztec triple takes Texcoco; the single
    army moving in after it would make four, so it stops before (here: stays home)."""
    adjacent(board, (TEN, TEX), (TTL, TEX), (TEX, TLA))
    adj = run(board, {TEN: (AZ, 3), TTL: (AZ, 1), TEX: (TL, 1)},
              {AZ: [attack(TEN, TEX, 3), Move(TTL, 1, (TEX,))],
               TL: [Stand(TEX, 1, (TLA,))]},
              cities={TLA: TL})
    assert code(adj, TEN) is Code.SUCCEEDS
    assert code(adj, TTL) is Code.BOUNCED
    assert "4 armies would end the turn in Texcoco: at most three per sector (4.1)" in (
        adj.result(TTL).reason)
    assert adj.armies == {TEX: (AZ, 3), TTL: (AZ, 1), TLA: (TL, 1)}


# ---------------------------------------------------------------------------
# The gods' magical supports (3.5.3)
# ---------------------------------------------------------------------------


def test_3_5_3_a_magical_support_adds_weight_to_an_attack(board: PolygonBoard) -> None:
    """DATC 6.D (support of an attack) with the gods: 1 army + 1 magical support against
    a single Standing army is 2 against 1 (3.5.3, 5.3); the gods need no sector, so no
    supporting army need border Tlapacoya."""
    adjacent(board, (TEX, TLP))
    adj = run(board, {TEX: (AZ, 1), TLP: (CH, 1)},
              {AZ: [attack(TEX, TLP), gods((TEX, "attack", TLP))]})
    assert code(adj, TEX) is Code.SUCCEEDS
    assert adj.result(GODS).code is Code.SUCCEEDS
    assert adj.result(GODS).reason == ("the gods add 1 to the weight of the Aztec single army "
                                       "in Texcoco attacking Tlapacoya (3.5.3)")
    assert code(adj, TLP) is Code.CAPTURED  # no Chalcan sector round Tlapacoya
    assert adj.armies == {TLP: (AZ, 1)}
    assert adj.captures == (Capture(AZ, 1, TLP, CH, TLP),)


def test_3_5_3_a_magical_support_adds_weight_to_a_defence(board: PolygonBoard) -> None:
    """DATC 6.D.1 with the gods: a magical support of Texcoco standing makes its defence
    2, and the Tlaxcalan double bounces (3.5.3, 5.7)."""
    adjacent(board, (TLA, TEX))
    adj = run(board, {TEX: (AZ, 1), TLA: (TL, 2)},
              {AZ: [gods((TEX, "stand", None))], TL: [attack(TLA, TEX, 2)]})
    assert adj.result(GODS).code is Code.SUCCEEDS
    assert code(adj, TLA) is Code.BOUNCED
    assert adj.result(TLA).reason == "bounced: the defence of Texcoco had equal weight (2 against 2) (5.7)"
    assert adj.armies == {TEX: (AZ, 1), TLA: (TL, 2)}


def test_3_5_3_a_magical_support_is_never_cut(board: PolygonBoard) -> None:
    """DATC 6.D.2 with the gods: the Tlaxcalans cut the support of the army in
    Toltoltepec (5.4), but the gods have no army to cut: their two magical supports still
    count, and 1 + 2 against 2 takes Texcoco.  Without the gods the attack bounces."""
    adjacent(board, (TEN, TEX), (TTL, TEX), (XAL, TTL), (TEX, TLA))
    armies = {TEN: (AZ, 1), TTL: (AZ, 1), TEX: (TL, 2), XAL: (TL, 1)}
    aztecs: list[Order] = [attack(TEN, TEX), supports(TTL, (TEN, "attack", TEX))]
    tlaxcalans: list[Order] = [Stand(TEX, 2, (TLA,)), CutSupport(XAL, 1, TTL)]
    adj = run(board, armies, {AZ: [*aztecs, gods((TEN, "attack", TEX), count=2)],
                              TL: tlaxcalans}, cities={TLA: TL})
    assert code(adj, TTL) is Code.CUT
    assert adj.result(GODS).code is Code.SUCCEEDS
    assert code(adj, TEN) is Code.SUCCEEDS
    assert adj.result(TEN).reason == ("takes Texcoco with weight 3 against a defence of 2 "
                                      "(5.3, 5.7)")
    assert adj.armies == {TEX: (AZ, 1), TTL: (AZ, 1), XAL: (TL, 1), TLA: (TL, 2)}
    adj = run(board, armies, {AZ: aztecs, TL: tlaxcalans}, cities={TLA: TL})
    assert code(adj, TEN) is Code.BOUNCED


def test_3_5_3_magical_contingencies_in_priority_order(board: PolygonBoard) -> None:
    """5.5 for the gods: the magical support names Tenochtitlan attacking Tlaxcala (not
    ordered), then Texcoco standing, then Tlapacoya standing.  Both are attacked; the
    first that happens, Texcoco, gets it and holds; Tlapacoya falls."""
    adjacent(board, (TLA, TEX), ("Chalco", TLP), (TLP, XOC))
    adj = run(board, {TEN: (AZ, 1), TEX: (AZ, 1), TLP: (AZ, 1), TLA: (TL, 2),
                      "Chalco": (CH, 2)},
              {AZ: [Stand(TLP, 1, (XOC,)),
                    gods((TEN, "attack", TLA), (TEX, "stand", None), (TLP, "stand", None))],
               TL: [attack(TLA, TEX, 2)], CH: [attack("Chalco", TLP, 2)]},
              cities={XOC: AZ})
    assert adj.result(GODS).reason == "the gods add 1 to the weight of the armies in Texcoco (3.5.3)"
    assert code(adj, TLA) is Code.BOUNCED
    assert code(adj, "Chalco") is Code.SUCCEEDS
    assert code(adj, TLP) is Code.RETREATED
    assert adj.armies == {TEN: (AZ, 1), TEX: (AZ, 1), TLP: (CH, 2), XOC: (AZ, 1),
                          TLA: (TL, 2)}


def test_3_5_3_a_magically_supported_attack_that_fails_on_holders_is_annihilated(
        board: PolygonBoard) -> None:
    """DATC 6.D.1 with Hold and the gods: 1 army + 1 magical support against a Holding
    double is 2 against 2; the attack fails and the attacking army is annihilated (5.6);
    the gods lose nothing (they still gave their support)."""
    adjacent(board, (TEX, TLP))
    adj = run(board, {TEX: (AZ, 1), TLP: (CH, 2)},
              {AZ: [attack(TEX, TLP), gods((TEX, "attack", TLP))], CH: [Hold(TLP, 2)]})
    assert adj.result(GODS).code is Code.SUCCEEDS
    assert code(adj, TEX) is Code.ANNIHILATED
    assert adj.result(TEX).reason == ("annihilated: attacked the Holding armies in Tlapacoya "
                                      "with weight 2 against 2 (5.6)")
    assert adj.armies == {TLP: (CH, 2)}
    assert adj.lost == {AZ: 1}


def test_3_5_3_magic_bounces_on_a_standing_double(board: PolygonBoard) -> None:
    """A magical support of an attack that bounces: 2 against a Standing double bounces
    (5.7); the attacking army goes home unhurt."""
    adjacent(board, (TEX, TLP))
    adj = run(board, {TEX: (AZ, 1), TLP: (CH, 2)},
              {AZ: [attack(TEX, TLP), gods((TEX, "attack", TLP))]})
    assert code(adj, TEX) is Code.BOUNCED
    assert adj.result(GODS).code is Code.SUCCEEDS
    assert adj.armies == {TEX: (AZ, 1), TLP: (CH, 2)}
    assert adj.lost == {}
    assert adj.peace_reset == frozenset({TLP})


def test_3_5_3_magical_supports_give_the_3_to_1_odds_of_a_capture(board: PolygonBoard) -> None:
    """3.5.1 with the gods: 1 army + 2 magical supports against 1 Holding army is 3 to 1:
    the holder is captured and the attacker takes the sector whole."""
    adjacent(board, (TEX, TLP))
    adj = run(board, {TEX: (AZ, 1), TLP: (CH, 1)},
              {AZ: [attack(TEX, TLP), gods((TEX, "attack", TLP), count=2)],
               CH: [Hold(TLP, 1)]})
    assert code(adj, TEX) is Code.SUCCEEDS
    assert code(adj, TLP) is Code.CAPTURED
    assert adj.armies == {TLP: (AZ, 1)}
    assert adj.captures == (Capture(AZ, 1, TLP, CH, TLP),)
    assert adj.lost == {CH: 1}


def test_3_5_3_the_gods_never_fill_the_gap_of_a_slaughter(board: PolygonBoard) -> None:
    """5.6, 5.6.1 with the gods: 1 army + 1 magical support against 1 Holding army is
    2 to 1: mutual slaughter.  The attacking army dies with the holder, and no army of
    the gods moves in: Tlapacoya is left empty and stays the Chalcans' city."""
    adjacent(board, (TEX, TLP))
    adj = run(board, {TEX: (AZ, 1), TLP: (CH, 1)},
              {AZ: [attack(TEX, TLP), gods((TEX, "attack", TLP))], CH: [Hold(TLP, 1)]})
    assert code(adj, TEX) is Code.SLAUGHTERED
    assert code(adj, TLP) is Code.SLAUGHTERED
    assert adj.armies == {}
    assert adj.lost == {AZ: 1, CH: 1}
    assert adj.cities[TLP] == CH


# ---------------------------------------------------------------------------
# Contingent supports (5.5)
# ---------------------------------------------------------------------------


def test_5_5_the_first_contingency_that_happens_is_given_even_if_in_vain(
        board: PolygonBoard) -> None:
    """5.5: "only 1 contingency may be supported": Toltoltepec's first contingency, the
    attack from Tenochtitlan on Texcoco, happens (though 2 against the triple fails), so
    the second, the attack from Tula on Xaltocan that it would have won, gets nothing."""
    adjacent(board, (TEN, TEX), (TTL, TEX), (TUL, XAL), (TTL, XAL))
    adj = run(board, {TEN: (AZ, 1), TTL: (AZ, 1), TUL: (AZ, 1), TEX: (TL, 3),
                      XAL: (NEUTRAL, 1)},
              {AZ: [attack(TEN, TEX), attack(TUL, XAL),
                    supports(TTL, (TEN, "attack", TEX), (TUL, "attack", XAL))]})
    assert code(adj, TTL) is Code.SUCCEEDS
    assert adj.result(TTL).reason == ("supports the Aztec single army in Tenochtitlan attacking "
                                      "Texcoco")
    assert code(adj, TEN) is Code.BOUNCED
    assert code(adj, TUL) is Code.BOUNCED
    assert adj.armies == {TEN: (AZ, 1), TTL: (AZ, 1), TUL: (AZ, 1), TEX: (TL, 3),
                          XAL: (NEUTRAL, 1)}


def test_5_5_a_contingency_that_does_not_happen_passes_to_the_next(board: PolygonBoard) -> None:
    """5.5: Toltoltepec supports Tenochtitlan attacking Tlaxcala, then Tenochtitlan
    attacking Texcoco, then Tula attacking Xaltocan.  The first attack is ordered but void
    (Tlaxcala is not adjacent), the second is not ordered: neither happens, and the
    support goes to Tula, which takes Xaltocan (2 against 1).  The
    independent garrison, with only cities not its own round it, is captured (2.2, 3.5)."""
    adjacent(board, (TTL, TEX), (TUL, XAL), (TTL, XAL))
    assert TLA not in board.land_neighbours(TEN)
    adj = run(board, {TEN: (AZ, 1), TTL: (AZ, 1), TUL: (AZ, 1), TLA: (TL, 1),
                      XAL: (NEUTRAL, 1)},
              {AZ: [attack(TEN, TLA), attack(TUL, XAL),
                    supports(TTL, (TEN, "attack", TLA), (TEN, "attack", TEX),
                             (TUL, "attack", XAL))]})
    assert code(adj, TEN) is Code.VOID
    assert code(adj, TTL) is Code.SUCCEEDS
    assert adj.result(TTL).reason == "supports the Aztec single army in Tula attacking Xaltocan"
    assert code(adj, TUL) is Code.SUCCEEDS
    assert code(adj, XAL) is Code.CAPTURED
    assert adj.armies == {TEN: (AZ, 1), TTL: (AZ, 1), XAL: (AZ, 1), TLA: (TL, 1)}
    assert adj.captures == (Capture(AZ, 1, XAL, NEUTRAL, XAL),)


def test_5_5_a_cut_contingent_support_does_not_fall_to_the_next_contingency(
        board: PolygonBoard) -> None:
    """5.4, 5.5: the support goes to its first contingency that happens and a Cut
    Support cuts it there; it is not handed on to the next one.  Both attacks bounce."""
    adjacent(board, (TEN, TEX), (TTL, TEX), (TUL, XAL), (TTL, XAL), (TAC, TTL))
    adj = run(board, {TEN: (AZ, 1), TTL: (AZ, 1), TUL: (AZ, 1), TEX: (TL, 1),
                      XAL: (NEUTRAL, 1), TAC: (TL, 1)},
              {AZ: [attack(TEN, TEX), attack(TUL, XAL),
                    supports(TTL, (TEN, "attack", TEX), (TUL, "attack", XAL))],
               TL: [CutSupport(TAC, 1, TTL)]})
    assert code(adj, TTL) is Code.CUT
    assert code(adj, TEN) is Code.BOUNCED
    assert code(adj, TUL) is Code.BOUNCED
    assert adj.armies == {TEN: (AZ, 1), TTL: (AZ, 1), TUL: (AZ, 1), TEX: (TL, 1),
                          XAL: (NEUTRAL, 1), TAC: (TL, 1)}


def test_5_5_any_contingency_supports_whatever_the_army_does(board: PolygonBoard) -> None:
    """5.5: a contingency without an action supports the named army whatever it does:
    its attack when it attacks (Texcoco, 2 against 1), its defence when it stands and is
    attacked (Tenochtitlan, 2 against 2)."""
    adjacent(board, (TEN, TEX), (TTL, TEX), (TTL, TEN), (TLP, TEN))
    armies = {TEN: (AZ, 1), TTL: (AZ, 1), TEX: (TL, 1), TLP: (CH, 2)}
    whatever = supports(TTL, (TEN, "any", None))
    adj = run(board, armies, {AZ: [attack(TEN, TEX), whatever], TL: [Stand(TEX, 1, (TLA,))]},
              cities={TLA: TL})
    assert code(adj, TEN) is Code.SUCCEEDS
    assert adj.armies[TEX] == (AZ, 1)
    adj = run(board, armies, {AZ: [whatever], CH: [attack(TLP, TEN, 2)]})
    assert adj.result(TTL).reason == "supports the armies in Tenochtitlan"
    assert code(adj, TLP) is Code.BOUNCED
    assert adj.armies == armies
