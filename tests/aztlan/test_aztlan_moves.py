"""AZTLAN Moves (rules 2.4, 4.1, 4.2, 5.8, 5.8.1, 7.5): each scenario on real sectors
of the board, its adjacency read from the map first."""

from __future__ import annotations



from gmkit.core.boards.polygon import PolygonBoard
from gmkit.rulesets.aztlan.adjudicate import Code
from gmkit.rulesets.aztlan.orders import (
    NEUTRAL,
    Attack,
    Contingency,
    CutSupport,
    Move,
    Permit,
    Support,
)
from tests.aztlan.conftest import adjacent, run
from gmkit.rulesets.aztlan.board.geography import DESERT

AZ, TL, CHI = "Aztecs", "Tlaxcalans", "Chichimecs"
TEN, TTL, TEX, TUL, TOL, ZIM, XAL = ("Tenochtitlan", "Toltoltepec", "Texcoco", "Tula",
                                     "Toluca", "Zimapan", "Xaltocan")


def move(origin: str, *path: str, count: int = 1) -> Move:
    return Move(origin, count, path)


def test_5_8_move_three_sectors_through_friendly_country(board: PolygonBoard) -> None:
    """A Ten M Ttl, 14, 7: through an own city and two vacant sectors."""
    adjacent(board, (TEN, TTL), (TTL, "14"), ("14", "7"))
    adj = run(board, {TEN: (AZ, 1), TTL: (AZ, 1)}, {AZ: [move(TEN, TTL, "14", "7")]})
    r = adj.result(TEN)
    assert r.code is Code.SUCCEEDS
    assert r.reason == "moves to 7 by Toltoltepec, 14, 7 (5.8)"
    assert adj.armies == {TTL: (AZ, 1), "7": (AZ, 1)}
    assert adj.lost == {}


def test_5_8_cannot_move_into_neutral_city(board: PolygonBoard) -> None:
    adjacent(board, (TEX, XAL))
    adj = run(board, {TEX: (AZ, 1), XAL: (NEUTRAL, 1)}, {AZ: [move(TEX, XAL)]})
    assert adj.result(TEX).code is Code.BOUNCED
    assert adj.result(TEX).reason == (
        "bounced: Xaltocan is an independent city, never friendly: only an Attack takes it "
        "(2.4, 5.3, 5.8); it stays in Texcoco")
    assert adj.armies == {TEX: (AZ, 1), XAL: (NEUTRAL, 1)}


def test_5_8_move_stops_before_a_neutral_city_on_its_way(board: PolygonBoard) -> None:
    adjacent(board, (TEN, TTL), (TTL, TUL), (TUL, "7"))
    adj = run(board, {TEN: (AZ, 1), TTL: (AZ, 1), TUL: (NEUTRAL, 1)},
              {AZ: [move(TEN, TTL, TUL, "7")]})
    assert adj.result(TEN).code is Code.STOPPED
    assert adj.result(TEN).reason.startswith("stopped in Toltoltepec: Tula is an independent city")
    assert adj.armies == {TTL: (AZ, 2), TUL: (NEUTRAL, 1)}


def test_2_4_cannot_move_into_an_empty_hostile_city(board: PolygonBoard) -> None:
    adjacent(board, (TEN, TEX))
    adj = run(board, {TEN: (AZ, 1)}, {AZ: [move(TEN, TEX)]}, cities={TEX: TL})
    assert adj.result(TEN).code is Code.BOUNCED
    assert "Texcoco is a city of the Tlaxcalans" in adj.result(TEN).reason
    assert adj.armies == {TEN: (AZ, 1)}


def test_4_2_ally_city_with_permission_can_be_passed(board: PolygonBoard) -> None:
    adjacent(board, (TEN, TEX), (TEX, XAL))
    adj = run(board, {TEN: (AZ, 1)}, {AZ: [move(TEN, TEX, XAL)], TL: [Permit(AZ, (TEX,))]},
              cities={TEX: TL, XAL: AZ})
    assert adj.result(TEN).code is Code.SUCCEEDS
    assert adj.armies == {XAL: (AZ, 1)}
    assert adj.cities[TEX] == TL


def test_4_1_move_through_other_players_sector_needs_permission(board: PolygonBoard) -> None:
    adjacent(board, (TTL, "14"), ("14", "7"))
    armies = {TTL: (AZ, 1), "14": (TL, 1)}
    adj = run(board, armies, {AZ: [move(TTL, "14", "7")]})
    assert adj.result(TTL).code is Code.BOUNCED
    assert adj.result(TTL).reason == (
        "bounced: 14 is held by the Tlaxcalans, who gave no permission to pass (4.1); "
        "it stays in Toltoltepec")
    assert adj.armies == {TTL: (AZ, 1), "14": (TL, 1)}
    adj = run(board, armies, {AZ: [move(TTL, "14", "7")], TL: [Permit(AZ, ("14",))]})
    assert adj.result(TTL).code is Code.SUCCEEDS
    assert adj.armies == {"7": (AZ, 1), "14": (TL, 1)}


def test_4_1_move_may_not_end_in_an_allys_sector(board: PolygonBoard) -> None:
    adjacent(board, (TTL, "14"))
    adj = run(board, {TTL: (AZ, 1), "14": (TL, 1)},
              {AZ: [move(TTL, "14")], TL: [Permit(AZ)]})
    assert adj.result(TTL).code is Code.BOUNCED
    assert "one player's armies per sector (4.1)" in adj.result(TTL).reason
    assert adj.armies == {TTL: (AZ, 1), "14": (TL, 1)}


def test_4_1_move_that_would_stack_four_armies_stops_before(board: PolygonBoard) -> None:
    adjacent(board, (TTL, "14"), ("14", "7"))
    adj = run(board, {TTL: (AZ, 2), "14": (AZ, 2)}, {AZ: [move(TTL, "14", count=2)]})
    assert adj.result(TTL).code is Code.BOUNCED
    assert "4 armies would end the turn in 14" in adj.result(TTL).reason
    assert adj.armies == {TTL: (AZ, 2), "14": (AZ, 2)}
    adj = run(board, {TTL: (AZ, 2), "14": (AZ, 2)}, {AZ: [move(TTL, "14", "7", count=2)]})
    assert adj.result(TTL).code is Code.SUCCEEDS
    assert adj.armies == {"7": (AZ, 2), "14": (AZ, 2)}


def test_5_8_1_scouts_stop_both_unsupported_moves(board: PolygonBoard) -> None:
    adjacent(board, (TTL, "14"), ("14", "7"), (ZIM, "7"), ("7", "13"))
    adj = run(board, {TTL: (AZ, 1), ZIM: (TL, 1)},
              {AZ: [move(TTL, "14", "7")], TL: [move(ZIM, "7", "13")]})
    assert adj.result(TTL).code is Code.STOPPED
    assert adj.result(TTL).reason == (
        "stopped in 14: its scouts met those of the Tlaxcalan single army in Zimapan moving "
        "into 7; neither was supported more strongly, so it stops before 7 (5.8.1)")
    assert adj.result(ZIM).code is Code.BOUNCED
    assert adj.armies == {"14": (AZ, 1), ZIM: (TL, 1)}


def test_5_8_1_supported_move_gains_the_sector(board: PolygonBoard) -> None:
    adjacent(board, (TTL, "14"), ("14", "7"), (ZIM, "7"), ("7", "13"), (TUL, "7"))
    adj = run(board, {TTL: (AZ, 1), ZIM: (TL, 1), TUL: (AZ, 1)},
              {AZ: [move(TTL, "14", "7"),
                    Support(TUL, 1, (Contingency(TTL, "move", "7"),))],
               TL: [move(ZIM, "7", "13")]})
    assert adj.result(TTL).code is Code.SUCCEEDS
    assert adj.result(TUL).code is Code.SUCCEEDS
    assert adj.result(TUL).reason == (
        "supports the Aztec single army in Toltoltepec moving into 7")
    assert adj.result(ZIM).code is Code.BOUNCED
    assert "the Aztec single army in Toltoltepec was supported there with 1 army" in (
        adj.result(ZIM).reason)
    assert adj.armies == {"7": (AZ, 1), TUL: (AZ, 1), ZIM: (TL, 1)}


def test_5_8_move_into_a_sector_vacated_by_a_move(board: PolygonBoard) -> None:
    adjacent(board, (TOL, "14"), ("14", "13"))
    adj = run(board, {TOL: (TL, 1), "14": (AZ, 1)},
              {TL: [move(TOL, "14")], AZ: [move("14", "13")]})
    assert adj.result(TOL).code is Code.SUCCEEDS
    assert adj.result("14").code is Code.SUCCEEDS
    assert adj.armies == {"14": (TL, 1), "13": (AZ, 1)}


def test_5_8_move_into_a_sector_vacated_by_a_successful_attack(board: PolygonBoard) -> None:
    adjacent(board, ("7", "14"), (ZIM, "7"))
    adj = run(board, {"7": (AZ, 2), "14": (TL, 1), ZIM: (TL, 1)},
              {AZ: [Attack("7", 2, "14")], TL: [move(ZIM, "7")]})
    assert adj.result("7").code is Code.SUCCEEDS
    assert adj.result(ZIM).code is Code.SUCCEEDS
    assert adj.result("14").code is Code.RETREATED
    assert adj.armies["7"] == (TL, 1)
    assert adj.armies["14"] == (AZ, 2)


def test_5_8_moving_force_defends_its_origin_then_moves(board: PolygonBoard) -> None:
    """Attacks are aimed where armies start: the moving force stands there first."""
    adjacent(board, (TOL, "14"), ("14", "13"))
    adj = run(board, {TOL: (TL, 1), "14": (AZ, 1)},
              {TL: [Attack(TOL, 1, "14")], AZ: [move("14", "13")]})
    assert adj.result(TOL).code is Code.BOUNCED
    assert adj.result("14").code is Code.SUCCEEDS
    assert adj.armies == {TOL: (TL, 1), "13": (AZ, 1)}
    adj = run(board, {TOL: (TL, 2), "14": (AZ, 1)},
              {TL: [Attack(TOL, 2, "14")], AZ: [Move("14", 1, ("13",), retreat=("13",))]})
    assert adj.result(TOL).code is Code.SUCCEEDS
    assert adj.result("14").code is Code.RETREATED
    assert adj.result("14").reason.startswith("retreated to 13: beaten by the Tlaxcalan double")
    assert adj.armies == {"14": (TL, 2), "13": (AZ, 1)}


def test_5_8_move_into_a_sector_taken_by_an_attack_fails(board: PolygonBoard) -> None:
    adjacent(board, ("14", "7"), (ZIM, "7"))
    adj = run(board, {"14": (AZ, 1), ZIM: (TL, 2)},
              {AZ: [move("14", "7")], TL: [Attack(ZIM, 2, "7")]})
    assert adj.result(ZIM).code is Code.SUCCEEDS
    assert adj.result("14").code is Code.BOUNCED
    assert adj.armies == {"14": (AZ, 1), "7": (TL, 2)}


def test_7_5_1_outnumbered_desert_crossing_is_eaten(board: PolygonBoard) -> None:
    adjacent(board, ("7", DESERT), (DESERT, "8"))
    adj = run(board, {"7": (AZ, 2), DESERT: (CHI, 2)}, {AZ: [move("7", DESERT, "8", count=2)]})
    assert adj.result("7").code is Code.EATEN
    assert adj.result("7").reason == (
        "eaten: 2 armies entering the Chichimec Desert did not outnumber the 2 armies of the "
        "Chichimecs there (7.5, 7.5.1)")
    assert adj.armies == {DESERT: (CHI, 2)}
    assert adj.lost == {AZ: 2}


def test_7_5_2_superior_numbers_drive_chichimecs_off(board: PolygonBoard) -> None:
    adjacent(board, ("7", DESERT), (DESERT, "8"))
    adj = run(board, {"7": (AZ, 3), DESERT: (CHI, 2)}, {AZ: [move("7", DESERT, "8", count=3)]})
    assert adj.result("7").code is Code.SUCCEEDS
    assert adj.result("7").reason == (
        "moves to 8 by Chichimec Desert, 8 (5.8); the 2 armies of the Chichimecs in the "
        "Chichimec Desert leave the board (7.5.2)")
    assert adj.armies == {"8": (AZ, 3)}
    assert adj.lost == {CHI: 2}


def test_5_8_void_move_along_a_path_not_adjacent_stands(board: PolygonBoard) -> None:
    assert "7" not in board.land_neighbours(TEN)
    adj = run(board, {TEN: (AZ, 1)}, {AZ: [move(TEN, "7")]})
    assert adj.result(TEN).code is Code.VOID
    assert adj.armies == {TEN: (AZ, 1)}


def test_5_8_1_cut_support_leaves_the_scouts_to_stop_both(board: PolygonBoard) -> None:
    adjacent(board, (TTL, "14"), ("14", "7"), (ZIM, "7"), ("7", "13"), (TUL, "7"),
             ("Ixmiquilpan", TUL))
    adj = run(board, {TTL: (AZ, 1), ZIM: (TL, 1), TUL: (AZ, 1), "Ixmiquilpan": (TL, 1)},
              {AZ: [move(TTL, "14", "7"),
                    Support(TUL, 1, (Contingency(TTL, "move", "7"),))],
               TL: [move(ZIM, "7", "13"), CutSupport("Ixmiquilpan", 1, TUL)]})
    assert adj.result(TUL).code is Code.CUT
    assert adj.result("Ixmiquilpan").code is Code.SUCCEEDS
    assert adj.result(TTL).code is Code.STOPPED
    assert adj.result(ZIM).code is Code.BOUNCED
    assert adj.armies == {"14": (AZ, 1), TUL: (AZ, 1), ZIM: (TL, 1), "Ixmiquilpan": (TL, 1)}


def test_5_8_1_scouts_do_not_stop_moves_of_one_player(board: PolygonBoard) -> None:
    adjacent(board, (TTL, "14"), ("14", "7"), (ZIM, "7"), ("7", "13"))
    adj = run(board, {TTL: (AZ, 1), ZIM: (AZ, 1)},
              {AZ: [move(TTL, "14", "7"), move(ZIM, "7", "13")]})
    assert adj.result(TTL).code is Code.SUCCEEDS
    assert adj.result(ZIM).code is Code.SUCCEEDS
    assert adj.armies == {"7": (AZ, 1), "13": (AZ, 1)}


def test_5_8_hostile_moves_may_swap_sectors(board: PolygonBoard) -> None:
    """Reading: 5.8.1 stops moves into the same sector; two moves into each other's
    vacated sectors do not share one, and both succeed."""
    adjacent(board, ("14", "7"))
    adj = run(board, {"14": (AZ, 1), "7": (TL, 2)},
              {AZ: [move("14", "7")], TL: [move("7", "14", count=2)]})
    assert adj.result("14").code is Code.SUCCEEDS
    assert adj.result("7").code is Code.SUCCEEDS
    assert adj.armies == {"7": (AZ, 1), "14": (TL, 2)}


def test_4_1_move_into_a_sector_whose_army_stays_fails_and_chain_backs_off(
        board: PolygonBoard) -> None:
    """The Tlaxcalans in 14 try to leave into Toltoltepec, an Aztec city, and stay;
    the Aztec move into 14 then stops before it."""
    adjacent(board, ("7", "14"), ("14", TTL))
    adj = run(board, {"7": (AZ, 1), "14": (TL, 1), TTL: (AZ, 1)},
              {AZ: [move("7", "14")], TL: [move("14", TTL)]})
    assert adj.result("14").code is Code.BOUNCED
    assert adj.result("7").code is Code.BOUNCED
    assert "14 is held by the Tlaxcalans" in adj.result("7").reason
    assert adj.armies == {"7": (AZ, 1), "14": (TL, 1), TTL: (AZ, 1)}
