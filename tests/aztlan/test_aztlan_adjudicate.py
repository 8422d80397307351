"""AZTLAN combat (rules 3.5, 4.1, 5.2-5.7): every ruling checked on small pieces of
the real board, each scenario's adjacency read from the map first."""

from __future__ import annotations

import functools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.rulesets.aztlan.adjudicate import Adjudication, Capture, Code
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
)
from tests.aztlan.conftest import adjacent, run
from tests.cases import Cases
from gmkit.rulesets.aztlan.board.geography import load_map

AZ, TL, CH = "Aztecs", "Tlaxcalans", "Chalcans"
TEN, TEX, TTL, TLP, TLA, ZEM = ("Tenochtitlan", "Texcoco", "Toltoltepec", "Tlapacoya",
                                "Tlaxcala", "Zempoala")


def attack(origin: str, target: str, count: int = 1, retreat: tuple[str, ...] = ()) -> Attack:
    return Attack(origin, count, target, retreat)


def supports(origin: str, *cases: tuple[str, str, str | None], count: int = 1) -> Support:
    return Support(origin, count, tuple(Contingency(s, a, t) for s, a, t in cases))  # type: ignore[arg-type]


def code(adj: Adjudication, sector: str) -> Code:
    return adj.result(sector).code


# ---------------------------------------------------------------------------
# 5.6.1: the five examples, word for word
# ---------------------------------------------------------------------------


def test_5_6_1_example_1(board: PolygonBoard) -> None:
    """A, a single unit, attacks B, a single unit which is Holding; no support for
    either side: A is eliminated, B is unchanged."""
    adjacent(board, (TEX, TEN))
    adj = run(board, {TEX: (AZ, 1), TEN: (TL, 1)},
              {AZ: [attack(TEX, TEN)], TL: [Hold(TEN, 1)]})
    assert code(adj, TEX) is Code.ANNIHILATED
    assert adj.result(TEX).reason == ("annihilated: attacked the Holding armies in Tenochtitlan "
                                      "with weight 1 against 1 (5.6)")
    assert code(adj, TEN) is Code.SUCCEEDS
    assert adj.armies == {TEN: (TL, 1)}
    assert adj.lost == {AZ: 1}
    assert adj.captures == ()
    assert adj.cities[TEN] == TL


def test_5_6_1_example_2(board: PolygonBoard) -> None:
    """A, a double unit, attacks B, a single Holding unit, no other supports: A takes
    the sector and becomes a single unit; B is wiped out."""
    adjacent(board, (TEX, TEN))
    adj = run(board, {TEX: (AZ, 2), TEN: (TL, 1)},
              {AZ: [attack(TEX, TEN, 2)], TL: [Hold(TEN, 1)]})
    assert code(adj, TEX) is Code.SUCCEEDS
    assert code(adj, TEN) is Code.SLAUGHTERED
    assert adj.armies == {TEN: (AZ, 1)}
    assert adj.lost == {AZ: 1, TL: 1}
    assert adj.captures == ()
    assert adj.cities[TEN] == AZ


def test_5_6_1_example_3(board: PolygonBoard) -> None:
    """A, a single, supported by B, a single, attacks C, a single Holding unit: A and C
    are wiped out; B takes A's place and occupies the conquered sector."""
    adjacent(board, (TEX, TEN), (TTL, TEN), (TTL, TEX))
    adj = run(board, {TEX: (AZ, 1), TTL: (AZ, 1), TEN: (TL, 1)},
              {AZ: [attack(TEX, TEN), supports(TTL, (TEX, "attack", TEN))],
               TL: [Hold(TEN, 1)]})
    assert code(adj, TEX) is Code.SLAUGHTERED
    assert code(adj, TEN) is Code.SLAUGHTERED
    assert code(adj, TTL) is Code.SUCCEEDS
    assert adj.result(TTL).reason.endswith("1 army moved into Tenochtitlan to fill the gap (5.6.1)")
    assert adj.armies == {TEN: (AZ, 1)}
    assert adj.lost == {AZ: 1, TL: 1}
    assert adj.cities[TEN] == AZ


def test_5_6_1_example_4(board: PolygonBoard) -> None:
    """Same, but B suffers a Cut Support: A is eliminated while B and C are unchanged."""
    adjacent(board, (TEX, TEN), (TTL, TEN), (TTL, TEX), ("Tula", TTL))
    adj = run(board, {TEX: (AZ, 1), TTL: (AZ, 1), TEN: (TL, 1), "Tula": (CH, 1)},
              {AZ: [attack(TEX, TEN), supports(TTL, (TEX, "attack", TEN))],
               TL: [Hold(TEN, 1)], CH: [CutSupport("Tula", 1, TTL)]})
    assert code(adj, TEX) is Code.ANNIHILATED
    assert code(adj, TTL) is Code.CUT
    assert code(adj, TEN) is Code.SUCCEEDS
    assert code(adj, "Tula") is Code.SUCCEEDS
    assert adj.armies == {TEN: (TL, 1), TTL: (AZ, 1), "Tula": (CH, 1)}
    assert adj.lost == {AZ: 1}


def test_5_6_1_example_4_supporter_dislodged_from_elsewhere(board: PolygonBoard) -> None:
    """Same, but B is dislodged from elsewhere: A is eliminated, C unchanged, and B,
    beaten while Supporting (so Standing), retreats to its ordered sector."""
    adjacent(board, (TTL, "Tula"), (TTL, "Tacuba"))
    adj = run(board, {TEX: (AZ, 1), TTL: (AZ, 1), TEN: (TL, 1), "Tula": (CH, 2)},
              {AZ: [attack(TEX, TEN),
                    Support(TTL, 1, (Contingency(TEX, "attack", TEN),), retreat=("Tacuba",))],
               TL: [Hold(TEN, 1)], CH: [attack("Tula", TTL, 2)]},
              cities={"Tacuba": AZ})
    assert code(adj, TEX) is Code.ANNIHILATED
    assert code(adj, TTL) is Code.RETREATED
    assert code(adj, TEN) is Code.SUCCEEDS
    assert code(adj, "Tula") is Code.SUCCEEDS
    assert adj.armies == {TEN: (TL, 1), TTL: (CH, 2), "Tacuba": (AZ, 1)}
    assert adj.lost == {AZ: 1}
    assert adj.cities[TTL] == CH


def test_5_6_1_example_5(board: PolygonBoard) -> None:
    """A, a single, supported by B, a single, attacks C, a single Holding unit supported
    by D: A is eliminated while B, C and D are unhurt."""
    adjacent(board, (TEX, TEN), (TTL, TEN), (TTL, TEX), (TLP, TEN))
    for d_count in (1, 2):
        adj = run(board, {TEX: (AZ, 1), TTL: (AZ, 1), TEN: (TL, 1), TLP: (TL, d_count)},
                  {AZ: [attack(TEX, TEN), supports(TTL, (TEX, "attack", TEN))],
                   TL: [Hold(TEN, 1), supports(TLP, (TEN, "hold", None), count=d_count)]})
        assert code(adj, TEX) is Code.ANNIHILATED
        assert code(adj, TTL) is Code.SUCCEEDS
        assert code(adj, TEN) is Code.SUCCEEDS
        assert code(adj, TLP) is Code.SUCCEEDS
        assert adj.armies == {TEN: (TL, 1), TTL: (AZ, 1), TLP: (TL, d_count)}
        assert adj.lost == {AZ: 1}


# ---------------------------------------------------------------------------
# 5.6 and 3.5.1: the odds against Holding armies
# ---------------------------------------------------------------------------


def test_hold_attack_below_1_to_1_is_annihilated(board: PolygonBoard) -> None:
    adj = run(board, {TEX: (AZ, 1), TEN: (TL, 2)}, {AZ: [attack(TEX, TEN)], TL: [Hold(TEN, 2)]})
    assert code(adj, TEX) is Code.ANNIHILATED
    assert adj.armies == {TEN: (TL, 2)}
    assert adj.lost == {AZ: 1}


def test_hold_3_to_1_captures(board: PolygonBoard) -> None:
    adj = run(board, {TEX: (AZ, 3), TEN: (TL, 1)}, {AZ: [attack(TEX, TEN, 3)], TL: [Hold(TEN, 1)]})
    assert code(adj, TEX) is Code.SUCCEEDS
    assert code(adj, TEN) is Code.CAPTURED
    assert adj.armies == {TEN: (AZ, 3)}
    assert adj.captures == (Capture(AZ, 1, TEN, TL, TEN),)
    assert adj.lost == {TL: 1}


def test_hold_3_to_1_with_supports_captures_and_supporters_stay(board: PolygonBoard) -> None:
    adjacent(board, (TTL, TEN), (TTL, TEX))
    adj = run(board, {TEX: (AZ, 1), TTL: (AZ, 2), TEN: (TL, 1)},
              {AZ: [attack(TEX, TEN), supports(TTL, (TEX, "attack", TEN), count=2)],
               TL: [Hold(TEN, 1)]})
    assert code(adj, TEX) is Code.SUCCEEDS
    assert code(adj, TEN) is Code.CAPTURED
    assert adj.armies == {TEN: (AZ, 1), TTL: (AZ, 2)}
    assert adj.captures == (Capture(AZ, 1, TEN, TL, TEN),)


def test_hold_mutual_slaughter_falls_on_attacker_then_supporters(board: PolygonBoard) -> None:
    """Weight 3 against 2 Holding armies: 1.5 to 1, two attacking armies die for the
    two holders, the attacking single first, then one of the supporting double; the
    supporter's last army moves in."""
    adj = run(board, {TEX: (AZ, 1), TTL: (AZ, 2), TEN: (TL, 2)},
              {AZ: [attack(TEX, TEN), supports(TTL, (TEX, "attack", TEN), count=2)],
               TL: [Hold(TEN, 2)]})
    assert code(adj, TEX) is Code.SLAUGHTERED
    assert code(adj, TEN) is Code.SLAUGHTERED
    assert code(adj, TTL) is Code.SUCCEEDS
    assert adj.armies == {TEN: (AZ, 1)}
    assert adj.lost == {AZ: 2, TL: 2}


def test_hold_mutual_slaughter_survivors_occupy(board: PolygonBoard) -> None:
    adj = run(board, {TEX: (AZ, 3), TEN: (TL, 2)}, {AZ: [attack(TEX, TEN, 3)], TL: [Hold(TEN, 2)]})
    assert code(adj, TEX) is Code.SUCCEEDS
    assert adj.result(TEX).reason == ("takes Tenochtitlan with weight 3 against 2, losing 2 "
                                      "armies in the mutual slaughter (5.6)")
    assert adj.armies == {TEN: (AZ, 1)}
    assert adj.lost == {AZ: 2, TL: 2}


# ---------------------------------------------------------------------------
# 5.3, 5.7, 3.5, 2.2: Attack and Stand
# ---------------------------------------------------------------------------


def test_datc_6a_basic_attack_bounces_on_equal_weight(board: PolygonBoard) -> None:
    adj = run(board, {TEX: (AZ, 2), TEN: (TL, 2)}, {AZ: [attack(TEX, TEN, 2)]})
    assert code(adj, TEX) is Code.BOUNCED
    assert adj.result(TEX).reason == ("bounced: the Tlaxcalan double army in Tenochtitlan had "
                                      "equal weight (2 against 2) (5.7)")
    assert code(adj, TEN) is Code.SUCCEEDS
    assert adj.armies == {TEX: (AZ, 2), TEN: (TL, 2)}
    assert adj.lost == {}
    assert adj.peace_reset == frozenset({TEN})


def test_datc_6a_stand_beaten_retreats_to_ordered_sector(board: PolygonBoard) -> None:
    adjacent(board, (TEN, "Tacuba"), (TEN, "Coyoacan"))
    adj = run(board, {TEX: (AZ, 2), TEN: (TL, 1)},
              {AZ: [attack(TEX, TEN, 2)], TL: [Stand(TEN, 1, ("Coyoacan",))]},
              cities={"Tacuba": TL, "Coyoacan": TL})
    assert code(adj, TEX) is Code.SUCCEEDS
    assert code(adj, TEN) is Code.RETREATED
    assert adj.armies == {TEN: (AZ, 2), "Coyoacan": (TL, 1)}
    assert adj.cities[TEN] == AZ
    assert adj.lost == {}


def test_datc_6a_stand_retreats_away_from_the_attacker(board: PolygonBoard) -> None:
    """No retreat ordered (5.7.2): of its two friendly cities, the one more nearly opposite the
    attack (here also the farther from the attacking sector)."""
    adjacent(board, (TEN, "Tacuba"), (TEN, TLP))
    centre = board.regions[TEX].geometry.centroid
    far = max(("Tacuba", TLP), key=lambda s: board.regions[s].geometry.centroid.distance(centre))
    adj = run(board, {TEX: (AZ, 2), TEN: (TL, 1)}, {AZ: [attack(TEX, TEN, 2)]},
              cities={"Tacuba": TL, TLP: TL})
    assert far == "Tacuba"
    assert code(adj, TEN) is Code.RETREATED
    assert adj.armies == {TEN: (AZ, 2), "Tacuba": (TL, 1)}


def test_5_7_1_retreat_into_an_allys_sector_only_as_a_gift(board: PolygonBoard) -> None:
    """5.7.1: a beaten army may retreat into a sector its ally holds only by giving him the
    army; the gift is part of the retreat order, and the army is the ally's from then on."""
    adjacent(board, (TEX, TEN), (TEN, "Tacuba"))
    armies = {TEX: (AZ, 2), TEN: (TL, 1), "Tacuba": (CH, 1)}
    cities = {"Tacuba": CH}
    given = Stand(TEN, 1, ("Tacuba",), retreat_gifts=(("Tacuba", CH),))
    adj = run(board, armies, {AZ: [attack(TEX, TEN, 2)], TL: [given]}, cities=cities)
    r = adj.result(TEN)
    assert r.code is Code.RETREATED and (r.to, r.given_to) == ("Tacuba", CH)
    assert "given to the Chalcans (5.7.1)" in r.reason
    assert adj.armies["Tacuba"] == (CH, 2)
    plain = Stand(TEN, 1, ("Tacuba",))
    adj = run(board, armies, {AZ: [attack(TEX, TEN, 2)], TL: [plain]}, cities=cities)
    assert adj.result(TEN).to != "Tacuba" and adj.armies["Tacuba"] == (CH, 1)


def test_datc_6a_stand_without_retreat_is_captured(board: PolygonBoard) -> None:
    """Every neighbour of Tenochtitlan is a city; none is the Tlaxcalans'."""
    assert all(board.regions[s].props.get("city") for s in board.land_neighbours(TEN))
    adj = run(board, {TEX: (AZ, 2), TEN: (TL, 1)}, {AZ: [attack(TEX, TEN, 2)]})
    assert code(adj, TEN) is Code.CAPTURED
    assert adj.armies == {TEN: (AZ, 2)}
    assert adj.captures == (Capture(AZ, 1, TEN, TL, TEN),)
    assert adj.lost == {TL: 1}


def test_datc_6a_retreat_needs_room_for_the_force(board: PolygonBoard) -> None:
    """Three Tlaxcalan armies in their only free neighbour leave no room (4.1)."""
    adj = run(board, {TEX: (AZ, 3), TEN: (TL, 2), "Tacuba": (TL, 2)}, {AZ: [attack(TEX, TEN, 3)]})
    assert code(adj, TEN) is Code.CAPTURED
    assert adj.armies == {TEN: (AZ, 3), "Tacuba": (TL, 2)}
    assert adj.captures == (Capture(AZ, 2, TEN, TL, TEN),)


def test_2_2_neutral_garrison_disbands_when_it_could_retreat(board: PolygonBoard) -> None:
    adjacent(board, (TEN, TTL), (TTL, "14"))
    assert not board.regions["14"].props.get("city")
    adj = run(board, {TEN: (AZ, 2), TTL: (NEUTRAL, 1)},
              {AZ: [attack(TEN, TTL, 2)], NEUTRAL: [Hold(TTL, 1)]})
    assert code(adj, TTL) is Code.DISBANDED
    assert code(adj, TEN) is Code.SUCCEEDS
    assert adj.armies == {TTL: (AZ, 2)}
    assert adj.cities[TTL] == AZ
    assert adj.captures == ()
    assert adj.lost == {NEUTRAL: 1}


def test_2_2_neutral_garrison_captured_when_it_cannot_retreat(board: PolygonBoard) -> None:
    adj = run(board, {TEN: (AZ, 2), TTL: (NEUTRAL, 1), "14": (CH, 1)}, {AZ: [attack(TEN, TTL, 2)]})
    assert code(adj, TTL) is Code.CAPTURED
    assert adj.armies == {TTL: (AZ, 2), "14": (CH, 1)}
    assert adj.captures == (Capture(AZ, 1, TTL, NEUTRAL, TTL),)


def test_2_4_empty_hostile_city_is_taken_by_attack(board: PolygonBoard) -> None:
    adj = run(board, {TEX: (AZ, 1)}, {AZ: [attack(TEX, TEN)]}, cities={TEN: TL})
    assert code(adj, TEX) is Code.SUCCEEDS
    assert adj.armies == {TEN: (AZ, 1)}
    assert adj.cities[TEN] == AZ
    assert adj.peace_reset == frozenset({TEN})


def test_datc_6e_head_to_head_greater_weight_wins(board: PolygonBoard) -> None:
    """The weights meet; the beaten force's home is gone, so it retreats."""
    adjacent(board, (TEX, TLA), (TLA, "Cholula"))
    adj = run(board, {TEX: (AZ, 2), TLA: (TL, 1)},
              {AZ: [attack(TEX, TLA, 2)], TL: [attack(TLA, TEX, 1, retreat=("Cholula",))]},
              cities={"Cholula": TL})
    assert code(adj, TEX) is Code.SUCCEEDS
    assert code(adj, TLA) is Code.RETREATED
    assert adj.armies == {TLA: (AZ, 2), "Cholula": (TL, 1)}
    assert adj.peace_reset == frozenset({TEX, TLA})


def test_datc_6e_head_to_head_equal_weight_both_bounce(board: PolygonBoard) -> None:
    adj = run(board, {TEX: (AZ, 1), TLA: (TL, 1)},
              {AZ: [attack(TEX, TLA)], TL: [attack(TLA, TEX)]})
    assert code(adj, TEX) is Code.BOUNCED
    assert code(adj, TLA) is Code.BOUNCED
    assert adj.armies == {TEX: (AZ, 1), TLA: (TL, 1)}


def test_datc_6a_two_attackers_of_equal_weight_stand_off(board: PolygonBoard) -> None:
    adjacent(board, (TEX, TLP), ("Chalco", TLP))
    adj = run(board, {TEX: (AZ, 1), "Chalco": (CH, 1)},
              {AZ: [attack(TEX, TLP)], CH: [attack("Chalco", TLP)]}, cities={TLP: TL})
    assert code(adj, TEX) is Code.BOUNCED
    assert code(adj, "Chalco") is Code.BOUNCED
    assert adj.result(TEX).reason == ("bounced: the Chalcan single army in Chalco attacked "
                                      "Tlapacoya with equal weight")
    assert adj.armies == {TEX: (AZ, 1), "Chalco": (CH, 1)}
    assert adj.cities[TLP] == TL


def test_void_attack_on_a_sector_not_adjacent_stands(board: PolygonBoard) -> None:
    assert TLA not in board.land_neighbours(TEN)
    adj = run(board, {TEN: (AZ, 1), TLA: (TL, 1)}, {AZ: [attack(TEN, TLA)]})
    assert code(adj, TEN) is Code.VOID
    assert adj.armies == {TEN: (AZ, 1), TLA: (TL, 1)}
    assert adj.peace_reset == frozenset()


def test_void_order_for_armies_the_player_does_not_have(board: PolygonBoard) -> None:
    adj = run(board, {TEX: (AZ, 1), TEN: (TL, 1)}, {AZ: [attack(TEX, TEN, 2)]})
    assert [r.code for r in adj.results] == [Code.VOID, Code.SUCCEEDS, Code.SUCCEEDS]
    assert adj.results[0].reason == "void: no double army of the Aztecs left to order in Texcoco"
    assert adj.armies == {TEX: (AZ, 1), TEN: (TL, 1)}
    assert adj.peace_reset == frozenset()


def test_5_8_move_army_moves_to_an_own_city(board: PolygonBoard) -> None:
    adjacent(board, (TEN, "Tacuba"))
    adj = run(board, {TEN: (AZ, 1)}, {AZ: [Move(TEN, 1, ("Tacuba",))]},
              cities={"Tacuba": AZ})
    assert code(adj, TEN) is Code.SUCCEEDS
    assert adj.result(TEN).reason == "moves to Tacuba (5.8)"
    assert adj.armies == {"Tacuba": (AZ, 1)}
    assert adj.cities[TEN] == AZ


# ---------------------------------------------------------------------------
# 5.4, 5.5, 5.5.1: Support and Cut Support
# ---------------------------------------------------------------------------

def _support_scene(board: PolygonBoard) -> dict[str, tuple[str, int]]:
    """Aztecs in Ten attack the Chalcan single in Tlapacoya, supported from Tex."""
    adjacent(board, (TEN, TLP), (TEX, TLP), (TLA, TEX), (ZEM, TLA), (TLP, "Chalco"))
    return {TEN: (AZ, 1), TEX: (AZ, 1), TLP: (CH, 1)}


def _support_orders() -> list[Order]:
    return [attack(TEN, TLP), supports(TEX, (TEN, "attack", TLP))]


def test_5_5_1_one_to_one_attack_on_supporter_neither_dislodges_nor_cuts(board: PolygonBoard) -> None:
    armies = {**_support_scene(board), TLA: (TL, 1)}
    adj = run(board, armies, {AZ: _support_orders(), TL: [attack(TLA, TEX)]},
              cities={"Chalco": CH})
    assert code(adj, TLA) is Code.BOUNCED
    assert code(adj, TEX) is Code.SUCCEEDS
    assert adj.result(TEX).reason == ("supports the Aztec single army in Tenochtitlan attacking "
                                      "Tlapacoya")
    assert code(adj, TEN) is Code.SUCCEEDS
    assert code(adj, TLP) is Code.RETREATED
    assert adj.armies == {TLP: (AZ, 1), TEX: (AZ, 1), TLA: (TL, 1), "Chalco": (CH, 1)}
    assert adj.peace_reset == frozenset({TLP, TEX})


def test_datc_6d_support_cut_by_attack_from_elsewhere(board: PolygonBoard) -> None:
    """A 2:1 attack dislodges the supporter: its support is cut (5.5.1), the supported
    attack bounces, and the supporter retreats into its own Tenochtitlan."""
    armies = {**_support_scene(board), TLA: (TL, 2)}
    adj = run(board, armies, {AZ: _support_orders(), TL: [attack(TLA, TEX, 2)]})
    assert code(adj, TEN) is Code.BOUNCED
    assert code(adj, TEX) is Code.RETREATED
    assert code(adj, TLA) is Code.SUCCEEDS
    assert adj.armies == {TEN: (AZ, 2), TEX: (TL, 2), TLP: (CH, 1)}
    assert adj.cities[TEX] == TL


def test_datc_6d_support_cut_by_cut_support_order(board: PolygonBoard) -> None:
    armies = {**_support_scene(board), TLA: (TL, 1)}
    adj = run(board, armies, {AZ: _support_orders(), TL: [CutSupport(TLA, 1, TEX)]})
    assert code(adj, TLA) is Code.SUCCEEDS
    assert code(adj, TEX) is Code.CUT
    assert adj.result(TEX).reason == (
        "cut: its support of the Aztec single army in Tenochtitlan attacking Tlapacoya failed, "
        "cut by the Tlaxcalan single army in Tlaxcala (5.4)")
    assert code(adj, TEN) is Code.BOUNCED
    assert adj.armies == {TEN: (AZ, 1), TEX: (AZ, 1), TLP: (CH, 1), TLA: (TL, 1)}
    # 3.2.2: a Cut Support is no Attack; only Tlapacoya's peace is broken.
    assert adj.peace_reset == frozenset({TLP})


def test_5_4_cut_support_fails_when_the_cutter_is_dislodged(board: PolygonBoard) -> None:
    adjacent(board, (TLA, "Cholula"))
    armies = {**_support_scene(board), TLA: (TL, 1), ZEM: (CH, 2)}
    adj = run(board, armies, {AZ: _support_orders(),
                              TL: [CutSupport(TLA, 1, TEX, retreat=("Cholula",))],
                              CH: [attack(ZEM, TLA, 2)]},
              cities={"Cholula": TL, "Chalco": CH})
    assert code(adj, TLA) is Code.RETREATED
    assert code(adj, TEX) is Code.SUCCEEDS
    assert code(adj, TEN) is Code.SUCCEEDS
    assert code(adj, TLP) is Code.RETREATED
    assert code(adj, ZEM) is Code.SUCCEEDS
    assert adj.armies == {TLP: (AZ, 1), TEX: (AZ, 1), TLA: (CH, 2), "Cholula": (TL, 1),
                          "Chalco": (CH, 1)}


def test_5_4_cut_support_against_a_non_supporter_is_a_stand(board: PolygonBoard) -> None:
    adj = run(board, {TLA: (TL, 1), TEX: (AZ, 1)},
              {TL: [CutSupport(TLA, 1, TEX)], AZ: [Hold(TEX, 1)]})
    assert code(adj, TLA) is Code.VOID
    assert adj.result(TLA).reason == ("void: the army in Texcoco is not supporting; the cutter "
                                      "just stands (5.4)")
    assert code(adj, TEX) is Code.SUCCEEDS
    assert adj.armies == {TLA: (TL, 1), TEX: (AZ, 1)}
    assert adj.lost == {}
    assert adj.peace_reset == frozenset()


def test_5_4_cut_support_against_a_cut_support_is_meaningless(board: PolygonBoard) -> None:
    adj = run(board, {TLA: (TL, 1), TEX: (AZ, 1)},
              {TL: [CutSupport(TLA, 1, TEX)], AZ: [CutSupport(TEX, 1, TLA)]})
    assert code(adj, TLA) is Code.VOID
    assert code(adj, TEX) is Code.VOID
    assert adj.result(TLA).reason == ("void: the army in Texcoco cuts support itself, so nothing "
                                      "happens; the cutter just stands (5.4)")
    assert adj.armies == {TLA: (TL, 1), TEX: (AZ, 1)}


def test_5_4_cut_supporter_under_attack_stands(board: PolygonBoard) -> None:
    """A cutter that is attacked is treated as Standing: beaten, it retreats."""
    adj = run(board, {TLA: (TL, 1), TEX: (AZ, 2)},
              {TL: [CutSupport(TLA, 1, TEX, retreat=("Cholula",))], AZ: [attack(TEX, TLA, 2)]},
              cities={"Cholula": TL})
    assert code(adj, TLA) is Code.RETREATED
    assert adj.armies == {TLA: (AZ, 2), "Cholula": (TL, 1)}


def test_5_5_support_contingencies_in_priority_order(board: PolygonBoard) -> None:
    """Texcoco supports Zempoala, then Tenochtitlan, then Tlapacoya; Zempoala is not
    attacked, the other two are: the support goes to Tenochtitlan, which holds, while
    Tlapacoya falls."""
    adjacent(board, (TEX, ZEM), (TEX, TEN), (TEX, TLP), ("Coyoacan", TEN), ("Chalco", TLP))
    armies = {TEX: (AZ, 1), ZEM: (AZ, 1), TEN: (AZ, 1), TLP: (AZ, 1),
              "Coyoacan": (CH, 2), "Chalco": (CH, 2)}
    adj = run(board, armies, {
        AZ: [supports(TEX, (ZEM, "stand", None), (TEN, "stand", None), (TLP, "stand", None)),
             Stand(TLP, 1, (TEX,))],
        CH: [attack("Coyoacan", TEN, 2), attack("Chalco", TLP, 2)]})
    assert code(adj, TEX) is Code.SUCCEEDS
    assert adj.result(TEX).reason == "supports the armies in Tenochtitlan"
    assert code(adj, "Coyoacan") is Code.BOUNCED
    assert code(adj, "Chalco") is Code.SUCCEEDS
    assert code(adj, TLP) is Code.RETREATED
    assert adj.armies == {TEX: (AZ, 2), ZEM: (AZ, 1), TEN: (AZ, 1), TLP: (CH, 2),
                          "Coyoacan": (CH, 2)}


def test_5_5_attack_contingency_applies_only_to_that_attack(board: PolygonBoard) -> None:
    """The supported army attacks elsewhere: the first contingency does not happen,
    the second (support its attack, whatever it is) does."""
    adjacent(board, (TEN, TEX), (TTL, TEX), (TTL, TEN))
    adj = run(board, {TEN: (AZ, 1), TTL: (AZ, 1), TEX: (TL, 1)},
              {AZ: [attack(TEN, TEX), supports(TTL, (TEN, "attack", "Tacuba"), (TEN, "any", None))]})
    assert code(adj, TTL) is Code.SUCCEEDS
    assert code(adj, TEN) is Code.SUCCEEDS
    assert adj.armies == {TEX: (AZ, 1), TTL: (AZ, 1)}


def test_5_5_support_with_no_contingency_happening_is_void(board: PolygonBoard) -> None:
    adj = run(board, {TEN: (AZ, 1), TTL: (AZ, 1)}, {AZ: [supports(TTL, (TEN, "hold", None))]})
    assert code(adj, TTL) is Code.VOID
    assert adj.armies == {TEN: (AZ, 1), TTL: (AZ, 1)}


def test_2_3_players_may_support_neutral_garrisons(board: PolygonBoard) -> None:
    adj = run(board, {TEN: (AZ, 2), TTL: (NEUTRAL, 1), "Tula": (CH, 1)},
              {AZ: [attack(TEN, TTL, 2)], CH: [supports("Tula", (TTL, "stand", None))]})
    assert code(adj, TEN) is Code.BOUNCED
    assert code(adj, TTL) is Code.SUCCEEDS
    assert adj.armies == {TEN: (AZ, 2), TTL: (NEUTRAL, 1), "Tula": (CH, 1)}


# ---------------------------------------------------------------------------
# Cycles and the backup rule
# ---------------------------------------------------------------------------


def test_circular_cut_supports_backup_rule(board: PolygonBoard) -> None:
    """Toltoltepec supports Tenochtitlan's attack on Texcoco, whose army cuts that
    support.  If the cut counts, the attack (1 against 1) fails and the cutter stays,
    so the cut counts; if the support counts, the cutter is dislodged and its cut
    fails (5.4).  Both are consistent: the backup rule says the cut fails."""
    adjacent(board, (TEN, TEX), (TTL, TEX), (TEX, TTL))
    adj = run(board, {TEN: (AZ, 1), TTL: (AZ, 1), TEX: (TL, 1)},
              {AZ: [attack(TEN, TEX), supports(TTL, (TEN, "attack", TEX))],
               TL: [CutSupport(TEX, 1, TTL)]})
    assert code(adj, TTL) is Code.SUCCEEDS
    assert code(adj, TEN) is Code.SUCCEEDS
    assert code(adj, TEX) is Code.CAPTURED
    assert adj.armies == {TEX: (AZ, 1), TTL: (AZ, 1)}
    assert adj.captures == (Capture(AZ, 1, TEX, TL, TEX),)


def test_circular_cut_supports_three_players(board: PolygonBoard) -> None:
    """Two such cycles chained: each side's cutter sits in the sector the other's
    support helps attack.  The backup rule keeps both supports; both attacks win."""
    adjacent(board, (TEN, TEX), (TTL, TEX), (TLA, ZEM), ("15", ZEM), ("15", TLA))
    adj = run(board, {TEN: (AZ, 1), TTL: (AZ, 1), TEX: (TL, 1),
                      TLA: (CH, 1), "15": (CH, 1), ZEM: (TL, 1)},
              {AZ: [attack(TEN, TEX), supports(TTL, (TEN, "attack", TEX))],
               TL: [CutSupport(TEX, 1, TTL), CutSupport(ZEM, 1, "15")],
               CH: [attack(TLA, ZEM), supports("15", (TLA, "attack", ZEM))]},
              cities={"Xaltocan": TL})
    assert code(adj, TTL) is Code.SUCCEEDS
    assert code(adj, "15") is Code.SUCCEEDS
    assert code(adj, TEN) is Code.SUCCEEDS
    assert code(adj, TLA) is Code.SUCCEEDS
    assert code(adj, TEX) is Code.RETREATED
    assert code(adj, ZEM) is Code.RETREATED
    assert adj.armies == {TEX: (AZ, 1), TTL: (AZ, 1), ZEM: (CH, 1), "15": (CH, 1),
                          "Xaltocan": (TL, 2)}


# ---------------------------------------------------------------------------
# Any orders at all: the resolver ends, and no army appears or vanishes unaccounted
# ---------------------------------------------------------------------------

CLUSTER = (TEN, TEX, TTL, TLP, "Tacuba", "Xaltocan", ZEM, TLA)
PLAYERS = (AZ, TL, CH, NEUTRAL)


@functools.lru_cache(maxsize=1)
def _board() -> PolygonBoard:
    return load_map()


@st.composite
def scenes(draw: st.DrawFn) -> tuple[dict[str, tuple[str, int]], dict[str, list[Order]]]:
    board = _board()
    armies: dict[str, tuple[str, int]] = {}
    for sector in CLUSTER:
        if draw(st.booleans()):
            armies[sector] = (draw(st.sampled_from(PLAYERS)), draw(st.integers(1, 3)))
    orders: dict[str, list[Order]] = {}
    for sector, (player, n) in armies.items():
        near = sorted(s for s in board.land_neighbours(sector) if s in CLUSTER)
        kind = draw(st.sampled_from(("attack", "cut", "support", "hold", "stand", "move")))
        order: Order
        if kind == "attack":
            order = Attack(sector, n, draw(st.sampled_from(near)))
        elif kind == "cut":
            order = CutSupport(sector, n, draw(st.sampled_from(near)))
        elif kind == "support":
            cases = draw(st.lists(st.tuples(st.sampled_from(near),
                                            st.sampled_from(("attack", "hold", "stand", "any",
                                                             "move")),
                                            st.sampled_from(CLUSTER)), min_size=1, max_size=3))
            order = Support(sector, n, tuple(
                Contingency(s, a, t if a in ("attack", "move") else None)  # type: ignore[arg-type]
                for s, a, t in cases))
        elif kind == "move":
            path = [draw(st.sampled_from(near))]
            for _ in range(draw(st.integers(0, 2))):
                path.append(draw(st.sampled_from(sorted(
                    s for s in board.land_neighbours(path[-1]) if s in CLUSTER))))
            order = Move(sector, n, tuple(path))
        elif kind == "hold":
            order = Hold(sector, n)
        else:
            order = Stand(sector, n)
        orders.setdefault(player, []).append(order)
    return armies, orders


def test_any_orders_resolve_and_every_army_is_accounted_for() -> None:
    """Any orders resolve; every army is still on the board or lost, no more captured than
    lost, a result for every army. The run meets the cases the accounting is about: armies
    lost, and armies captured."""
    cases = Cases("an army lost", "an army captured")

    @settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(scenes())
    def check(scene: tuple[dict[str, tuple[str, int]], dict[str, list[Order]]]) -> None:
        cases.example()
        board = _board()
        armies, orders = scene
        adj = run(board, armies, orders)
        assert all(1 <= n <= 3 for _, n in adj.armies.values())
        before = sum(n for _, n in armies.values())
        assert sum(n for _, n in adj.armies.values()) + sum(adj.lost.values()) == before
        assert sum(c.count for c in adj.captures) <= sum(adj.lost.values())
        assert len(adj.results) == len(armies)
        cases.met("an army lost", sum(adj.lost.values()) > 0)
        cases.met("an army captured", bool(adj.captures))

    check()
    cases.check()


def test_paradox_cut_support_cycle_without_solution_backup_rule(board: PolygonBoard) -> None:
    """Toltoltepec supports Texcoco's defence and is cut from Tenochtitlan; Tenochtitlan
    falls only with the support from Tlapacoya, which Texcoco cuts; Texcoco falls only
    if Toltoltepec's support is cut.  Each answer contradicts itself (no consistent
    outcome): by the backup rule both cuts fail and both supports stand."""
    adjacent(board, (TTL, TEX), (TTL, TEN), (TLP, TEX), (TLP, TEN), ("Coyoacan", TEN),
             (ZEM, TEX), (TEN, "Xochimilco"))
    adj = run(board, {TEN: (CH, 1), TTL: (TL, 1), TEX: (TL, 1), TLP: (AZ, 1),
                      "Coyoacan": (AZ, 1), ZEM: (AZ, 2)},
              {CH: [CutSupport(TEN, 1, TTL, retreat=("Xochimilco",))],
               TL: [supports(TTL, (TEX, "stand", None)), CutSupport(TEX, 1, TLP)],
               AZ: [supports(TLP, ("Coyoacan", "attack", TEN)), attack("Coyoacan", TEN),
                    attack(ZEM, TEX, 2)]},
              cities={"Xochimilco": CH})
    assert code(adj, TTL) is Code.SUCCEEDS
    assert code(adj, TLP) is Code.SUCCEEDS
    assert code(adj, TEX) is Code.VOID
    assert adj.result(TEX).reason == (
        "void: the cut and the support of the army in Tlapacoya depend on each other in a "
        "cycle; by the backup rule the support stands")
    assert code(adj, "Coyoacan") is Code.SUCCEEDS
    assert code(adj, ZEM) is Code.BOUNCED
    assert code(adj, TEN) is Code.RETREATED
    assert adj.armies == {TEN: (AZ, 1), TLP: (AZ, 1), TTL: (TL, 1), TEX: (TL, 1), ZEM: (AZ, 2),
                          "Xochimilco": (CH, 1)}
    assert adj.peace_reset == frozenset({TEN, TEX})
