"""Pyramid Power Wars, WAR: movement limits, every rung of the contest ladder, the fate of the
loser, claiming unstaffed pyramids, and glory. Each docstring quotes the rule it checks."""

from __future__ import annotations

import polars as pl
import pytest

from tests.pyramid.helpers import (after, events, holder, make, noble, play, player, reasons,
                                   rules, troops_at)

# Red holds A and B, Blue holds E; C and D are nobody's.
TWO = {"A": "Red", "B": "Red", "E": "Blue"}


# -- movement ---------------------------------------------------------------------------------

def test_noble_leads_troops_one_space_into_uncontrolled_land() -> None:
    """"TROOPS and/or PYRAMIDS led by a NOBLE can move 1 space each turn": into C, taking it."""
    s = make(holders=TWO, nobles=[("Red", "Khufu", "B")], troops={("Red", "B"): 2})
    d = play(s, {"Red": "noble 1 with 2 troops to C"})
    won = after(d, "contest")
    assert holder(won, "C") == "Red" and troops_at(won, "Red", "C") == 2
    assert noble(won, "Khufu")["space"] == "C"


def test_two_spaces_only_if_both_are_already_controlled() -> None:
    """"... or 2 spaces if both are already controlled": A to B to C is refused (C is not
    Red's); A to B within Red's land is fine, and so is 2 spaces through Red's own land."""
    s = make(holders={"A": "Red", "B": "Red", "C": "Red"}, nobles=[("Red", "Khufu", "A")],
             troops={("Red", "A"): 2})
    assert reasons(s, {"Red": "noble 1 with 2 troops to B then C"}) == []
    s = make(holders=TWO, nobles=[("Red", "Khufu", "A")], troops={("Red", "A"): 2})
    found = reasons(s, {"Red": "noble 1 with 2 troops to B then C"})
    assert len(found) == 1 and "line 1: moving 2 spaces" in found[0]


def test_moving_through_uncontrolled_land_is_refused() -> None:
    """Only the last space of a move may be uncontrolled: B (Red's) then C (nobody's) then D."""
    s = make(holders={"B": "Red", "E": "Blue"}, nobles=[("Red", "Khufu", "B")],
             troops={("Red", "B"): 1}, pyramids=[("Red", "scout", "B")])
    found = reasons(s, {"Red": "noble 1 with 1 troops and the scout pyramid to C then D"})
    assert len(found) == 1 and "passes through C, which you do not control" in found[0]


def test_without_a_noble_only_through_friendly_territory() -> None:
    """"Without a NOBLE they may still be moved but only through friendly territory.\""""
    s = make(holders=TWO, troops={("Red", "A"): 3}, players={"Red": {}})
    assert reasons(s, {"Red": "2 troops from A to B"}) == []
    found = reasons(s, {"Red": "2 troops from A to B then C"})
    assert found and "only through friendly territory" in found[0]


def test_only_a_single_noble_may_occupy_a_space() -> None:
    """"Only a single NOBLE may occupy any space": two nobles into B, or one into a space where
    another stays, are refused."""
    s = make("A B C", holders={"A": "Red", "B": "Red", "C": "Red"},
             nobles=[("Red", "Khufu", "A"), ("Red", "Tiye", "C")])
    found = reasons(s, {"Red": "noble 1 to B\nnoble 2 to B"})
    assert found == ["line 2: a second noble into B (line 1): only a single noble may occupy a "
                     "space"]
    found = reasons(s, {"Red": "noble 1 to B then C"})
    assert found == ["line 1: Tiye stays at C: only a single noble may occupy a space"]


def test_scout_pyramid_moves_an_additional_space_with_a_single_unit_of_troops() -> None:
    """The scout pyramid "may move an additional space per round with a single unit of TROOPS,
    if led by a NOBLE": A to B (Red's) then C (nobody's) is one space plus the extra one; with
    2 troops it is refused."""
    s = make(holders=TWO, nobles=[("Red", "Khufu", "A")], troops={("Red", "A"): 2},
             pyramids=[("Red", "scout", "A")])
    assert reasons(s, {"Red": "noble 1 with 1 troops and the scout pyramid to B then C"}) == []
    found = reasons(s, {"Red": "noble 1 with 2 troops and the scout pyramid to B then C"})
    assert found and "moving 2 spaces" in found[0]
    d = play(s, {"Red": "noble 1 with 1 troops and the scout pyramid to B then C"})
    assert holder(after(d, "contest"), "C") == "Red"


def test_a_noble_alone_cannot_take_land() -> None:
    """A noble gains land when it "leads TROOPS and/or PYRAMIDS to attempt to take LAND"."""
    s = make(holders=TWO, nobles=[("Red", "Khufu", "B")])
    assert reasons(s, {"Red": "noble 1 to C"}) == [
        "line 1: Khufu alone cannot take C: lead troops or a pyramid"]


def test_pyramids_move_with_troops_option() -> None:
    """Option pyramids_move = with_troops: a pyramid moves only alongside troops."""
    s = make(holders=TWO, nobles=[("Red", "Khufu", "B")], pyramids=[("Red", "battle", "B")])
    assert reasons(s, {"Red": "noble 1 with the battle pyramid to C"}) == []
    found = reasons(s, {"Red": "noble 1 with the battle pyramid to C"},
                    rules(pyramids_move="with_troops"))
    assert found == ["line 1: a pyramid moves only with at least one unit of troops"]


# -- staffing ---------------------------------------------------------------------------------

@pytest.mark.parametrize("size,cost", [("scout", 1), ("battle", 2), ("war", 5), ("doom", 10),
                                       ("legendary", 20)])
def test_staffing_fractions_a_pyramid_needs_priests_equal_to_its_stone(size: str,
                                                                      cost: int) -> None:
    """"A unit of PRIESTS allows use of a SCOUT PYRAMID, half a BATTLE PYRAMID, a fifth of a WAR
    PYRAMID, a tenth of a DOOM PYRAMID, or a twentieth of a LEGENDARY PYRAMID": one priest short
    and it cannot move; a priest more than it takes is refused."""
    short = make(holders=TWO, nobles=[("Red", "Khufu", "B")], troops={("Red", "B"): 1},
                 pyramids=[("Red", size, "B", True, cost - 1)])
    found = reasons(short, {"Red": f"noble 1 with 1 troops and the {size} pyramid to C"})
    assert found == [f"line 1: {size} pyramid 1 has {cost - 1} of the {cost} priests it needs "
                     "to move or fight"]
    full = make(holders=TWO, nobles=[("Red", "Khufu", "B")], troops={("Red", "B"): 1},
                pyramids=[("Red", size, "B", True, cost)], players={"Red": {"priests": cost + 1}})
    assert reasons(full, {"Red": f"noble 1 with 1 troops and the {size} pyramid to C"}) == []
    assert reasons(full, {"Red": f"{cost + 1} priests to pyramid 1"}) == [
        f"line 1: a {size} pyramid takes at most {cost} priests"]


def test_staffing_this_round_lets_a_pyramid_move() -> None:
    """Priests assigned this round staff the pyramid before it moves."""
    s = make(holders=TWO, nobles=[("Red", "Khufu", "B")], troops={("Red", "B"): 1},
             pyramids=[("Red", "battle", "B", True, 0)], players={"Red": {"priests": 2}})
    post = "2 priests to the battle pyramid\nnoble 1 with 1 troops and the battle pyramid to C"
    d = play(s, {"Red": post})
    assert after(d, "contest")["pyramids"]["space"].to_list() == ["C"]


# -- the contest ladder -----------------------------------------------------------------------

def contest(pyr_red: tuple[str, ...] = (), troops_red: int = 0, pyr_blue: tuple[str, ...] = (),
            troops_blue: int = 0, params=None, blue_holds: bool = True):
    """Red attacks C from B; Blue holds C (or, with blue_holds False, attacks it from D)."""
    holders = {"A": "Red", "B": "Red", "D": "Blue", "E": "Blue"}
    if blue_holds:
        holders["C"] = "Blue"
    blue_at = "C" if blue_holds else "D"
    s = make(holders=holders, nobles=[("Red", "Khufu", "B", 5), ("Blue", "Tiye", blue_at, 5)],
             troops={("Red", "B"): troops_red, ("Blue", blue_at): troops_blue},
             pyramids=[("Red", p, "B") for p in pyr_red] + [("Blue", p, blue_at)
                                                             for p in pyr_blue])
    what = " and ".join(([f"{troops_red} troops"] if troops_red else [])
                        + [f"pyramid {i + 1}" for i in range(len(pyr_red))])
    posts = {"Red": f"noble 1 with {what} to C"}
    if not blue_holds:
        what = " and ".join(([f"{troops_blue} troops"] if troops_blue else [])
                            + [f"pyramid {i + 1}" for i in range(len(pyr_blue))])
        posts["Blue"] = f"noble 1 with {what} to C"
    d = play(s, posts, params)
    (event,) = events(d, "contest")
    return d, after(d, "contest"), event.data


def test_the_side_with_the_single_largest_pyramid_wins() -> None:
    """"First, the side with the single largest pyramid wins" (a battle pyramid beats scouts
    and troops)."""
    d, s, data = contest(("battle",), 0, ("scout", "scout"), 9)
    assert data["rungs"] == ["LARGEST_PYRAMID"] and holder(s, "C") == "Red"


def test_the_most_pyramids_of_the_largest_size_wins() -> None:
    """"If neither side has a larger pyramid, the side with the most pyramids of the largest
    available size wins.\""""
    d, s, data = contest(("war",), 9, ("war", "war"), 0)
    assert data["rungs"] == ["MOST_OF_SIZE"] and holder(s, "C") == "Blue"


def test_equal_largest_pyramids_compare_the_next_size_down() -> None:
    """Rung 3 applies only to "exactly equal numbers and types": one war each, Red adds a
    battle pyramid and wins (next_size); with pyramid_tiebreak = troops, Blue's troops win."""
    d, s, data = contest(("war", "battle"), 1, ("war",), 3)
    assert data["rungs"] == ["NEXT_SIZE"] and holder(s, "C") == "Red"
    d, s, data = contest(("war", "battle"), 1, ("war",), 3, rules(pyramid_tiebreak="troops"))
    assert data["rungs"] == ["TROOPS"] and holder(s, "C") == "Blue"


def test_with_equal_pyramids_the_noble_with_the_most_troops_wins() -> None:
    """"If both sides have exactly equal numbers and types of pyramids, the NOBLE with the most
    TROOPS wins.\""""
    d, s, data = contest(("battle",), 3, ("battle",), 2)
    assert data["rungs"] == ["TROOPS"] and holder(s, "C") == "Red"


def test_equal_troops_the_holder_wins() -> None:
    """"If one of the players already controlled the LAND, they win": Red's attackers are
    destroyed and Khufu is Blue's DEAD. Option holder_tie = repelled: Red retreats intact."""
    d, s, data = contest((), 2, (), 2)
    assert data["rungs"] == ["HOLDER"] and holder(s, "C") == "Blue"
    assert troops_at(s, "Red", "B") == 0 and noble(s, "Khufu") is None
    d, s, data = contest((), 2, (), 2, rules(holder_tie="repelled"))
    assert data["rungs"] == ["REPELLED"] and troops_at(s, "Red", "B") == 2
    assert noble(s, "Khufu")["space"] == "B"


def test_equal_troops_on_land_no_one_held_all_forces_retreat_intact() -> None:
    """"Otherwise, all forces retreat intact.\""""
    d, s, data = contest((), 2, (), 2, blue_holds=False)
    assert data["rungs"] == ["RETREAT"] and holder(s, "C") is None
    assert troops_at(s, "Red", "B") == 2 and troops_at(s, "Blue", "D") == 2
    assert noble(s, "Khufu")["space"] == "B" and noble(s, "Tiye")["space"] == "D"


def test_the_losers_troops_and_pyramids_are_destroyed_and_its_noble_is_dead() -> None:
    """"In any conflict with a victor, all the loser's TROOPS and PYRAMIDS are destroyed and
    their NOBLE is claimed by the victor as DEAD.\""""
    d, s, data = contest(("war",), 1, ("battle",), 4)
    assert holder(s, "C") == "Red"
    assert troops_at(s, "Blue", "C") == 0
    assert s["pyramids"].filter(pl.col("player") == "Blue").height == 0
    assert s["dead"].row(0, named=True) | {"died_round": 1} == {
        "name": "Tiye", "glory": 5, "held_by": "Red", "from_player": "Blue", "died_round": 1}


def test_an_unstaffed_pyramid_does_not_fight() -> None:
    """"A PYRAMID which lacks sufficient PRIESTS cannot move or fight": Blue's war pyramid with
    4 priests counts for nothing, so Red's 2 troops beat Blue's 1."""
    s = make(holders={"B": "Red", "C": "Blue"}, nobles=[("Red", "Khufu", "B")],
             troops={("Red", "B"): 2, ("Blue", "C"): 1},
             pyramids=[("Blue", "war", "C", True, 4)])
    d = play(s, {"Red": "noble 1 with 2 troops to C"})
    (event,) = events(d, "contest")
    assert event.data["rungs"] == ["TROOPS"] and holder(after(d, "contest"), "C") == "Red"


def three_way(option: str):
    """Blue holds C with 3 troops; Red (3 troops, from B) and Gold (1 troop, from D) attack."""
    s = make(holders={"B": "Red", "C": "Blue", "D": "Gold"},
             nobles=[("Red", "Khufu", "B", 4), ("Blue", "Tiye", "C"), ("Gold", "Seti", "D", 6)],
             troops={("Red", "B"): 3, ("Blue", "C"): 3, ("Gold", "D"): 1})
    d = play(s, {"Red": "noble 1 with 3 troops to C", "Gold": "noble 1 with 1 troops to C"},
             rules(contest_many=option))
    return d, after(d, "contest")


def test_two_attackers_and_a_holder_all_at_once() -> None:
    """contest_many = all_at_once: Blue and Red tie on troops above Gold; the holder wins and
    defeats both, so both attacking nobles are Blue's DEAD."""
    d, s = three_way("all_at_once")
    assert holder(s, "C") == "Blue"
    assert dict(s["dead"].select("name", "held_by").iter_rows()) == {"Khufu": "Blue",
                                                                     "Seti": "Blue"}


def test_two_attackers_first_contest_each_other_then_the_holder() -> None:
    """contest_many = attackers_first: Red beats Gold (claiming Seti), then ties Blue, the
    holder, who wins and claims Khufu."""
    d, s = three_way("attackers_first")
    assert holder(s, "C") == "Blue"
    assert dict(s["dead"].select("name", "held_by").iter_rows()) == {"Khufu": "Blue",
                                                                     "Seti": "Red"}


# -- claiming an unstaffed pyramid -----------------------------------------------------------

def test_claiming_an_unstaffed_pyramid_on_taken_land() -> None:
    """"If the LAND it occupies is taken by an opponent they may claim the PYRAMID rather than
    destroying it, at their option": claimed with the order, it becomes Red's (unstaffed)."""
    s = make(holders={"B": "Red", "C": "Blue"}, nobles=[("Red", "Khufu", "B")],
             troops={("Red", "B"): 1}, pyramids=[("Blue", "war", "C", True, 0)])
    d = play(s, {"Red": "noble 1 with 1 troops to C, claim pyramids"})
    pyr = after(d, "contest")["pyramids"].row(0, named=True)
    assert (pyr["player"], pyr["number"], pyr["priests"], pyr["space"]) == ("Red", 1, 0, "C")
    d = play(s, {"Red": "noble 1 with 1 troops to C\nclaim pyramids at C"})
    assert after(d, "contest")["pyramids"]["player"].to_list() == ["Red"]


def test_an_unclaimed_unstaffed_pyramid_is_destroyed() -> None:
    """Without a claim the victor destroys it (option claim_unordered = claim keeps it)."""
    s = make(holders={"B": "Red", "C": "Blue"}, nobles=[("Red", "Khufu", "B")],
             troops={("Red", "B"): 1}, pyramids=[("Blue", "war", "C", True, 0)])
    d = play(s, {"Red": "noble 1 with 1 troops to C"})
    assert after(d, "contest")["pyramids"].height == 0 and events(d, "razed")
    d = play(s, {"Red": "noble 1 with 1 troops to C"}, rules(claim_unordered="claim"))
    assert after(d, "contest")["pyramids"]["player"].to_list() == ["Red"]


# -- glory ------------------------------------------------------------------------------------

def test_a_noble_gains_one_glory_for_each_attempt_to_take_land() -> None:
    """"Every turn a NOBLE leads TROOPS and/or PYRAMIDS to attempt to take LAND, they gain 1
    GLORY" (won or not)."""
    d, s, _ = contest((), 2, (), 2, rules(holder_tie="repelled"))
    assert noble(s, "Khufu")["glory"] == 6


def test_a_victor_gains_half_the_defeated_nobles_glory_rounded_down() -> None:
    """"Every turn they defeat another NOBLE, they gain half as much GLORY as that NOBLE
    possessed, rounded down": Tiye had 5, Khufu 5 + 1 (attempt) + 2."""
    d, s, _ = contest((), 3, (), 2)
    assert noble(s, "Khufu")["glory"] == 8


def test_moving_within_own_land_gains_no_glory() -> None:
    """Moving through one's own land is no attempt to take land."""
    s = make(holders=TWO, nobles=[("Red", "Khufu", "A")], troops={("Red", "A"): 1})
    d = play(s, {"Red": "noble 1 with 1 troops to B"})
    assert noble(after(d, "contest"), "Khufu")["glory"] == 0 and not events(d, "glory")


def test_player_eliminated_with_neither_land_nor_noble() -> None:
    """A player who lost every land and noble is out (end of round)."""
    blue = make(holders={"B": "Red", "C": "Blue"}, nobles=[("Red", "Khufu", "B")],
                troops={("Red", "B"): 2})
    d = play(blue, {"Red": "noble 1 with 2 troops to C"})
    assert player(d.state, "Blue")["status"] == "eliminated"
