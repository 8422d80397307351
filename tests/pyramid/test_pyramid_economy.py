"""Pyramid Power Wars, RESOURCES and PYRAMIDS: serfs' output, food and population, new nobles,
and pyramid construction. Each docstring quotes the rule it checks."""

from __future__ import annotations

import polars as pl
import pytest

from gmkit.rulesets.pyramid.economy import births_of, land_output
from tests.pyramid.helpers import after, events, make, play, player, reasons, rules, troops_at


# -- serfs ------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind,serfs,made", [("food", 1, 4), ("food", 2, 6), ("food", 3, 6),
                                             ("stone", 1, 2), ("stone", 2, 3), ("stone", 5, 3),
                                             ("food", 0, 0)])
def test_serf_output_first_unit_full_second_half_further_nothing(kind: str, serfs: int,
                                                                  made: int) -> None:
    """"A unit of SERFS assigned to a LAND produces four units of FOOD or two units of STONE
    ... A second unit of SERFS on the same LAND produces half that amount of resources, and any
    further SERFS produce nothing.\""""
    assert land_output(kind, serfs, rules()) == made


def test_serfs_produce_at_the_end_of_the_round_by_land_kind() -> None:
    """Two serfs on food land A and one on stone land B: 6 food and 2 stone."""
    s = make(stone="B", holders={"A": "Red", "B": "Red"}, serfs_at={"A": 2, "B": 1})
    d = play(s, {"Red": "starve: serfs"})
    red = player(after(d, "harvest"), "Red")
    assert (red["food"], red["stone"]) == (6, 2)


def test_serf_allocation_is_limited_by_land_held() -> None:
    """"Allocation is limited by available LAND": serfs only on land the player holds."""
    s = make(holders={"A": "Red"}, players={"Red": {"serfs": 3}})
    assert reasons(s, {"Red": "2 serfs to C"}) == [
        "line 1: you do not hold C: serfs work only land you hold"]


def test_more_serfs_than_population_is_refused() -> None:
    """Serfs already at work count: 2 on A stay, so 2 more on B makes 4 of 3."""
    s = make(holders={"A": "Red", "B": "Red"}, serfs_at={"A": 2}, players={"Red": {"serfs": 3}})
    assert reasons(s, {"Red": "2 serfs to B"}) == [
        "line 1: more serfs than you have: this brings the serfs at work to 4, but Red has 3 "
        "(still working: A 2)"]
    assert reasons(s, {"Red": "0 serfs to A\n3 serfs to B"}) == []


def test_serfs_on_land_lost_this_round_produce_nothing() -> None:
    """Output is limited by land held when the round ends: Blue loses C and its serfs there."""
    s = make(holders={"B": "Red", "C": "Blue"}, serfs_at={"C": 2},
             nobles=[("Red", "Khufu", "B")], troops={("Red", "B"): 1})
    d = play(s, {"Red": "noble 1 with 1 troops to C"})
    assert player(after(d, "harvest"), "Blue")["food"] == 0


# -- food -------------------------------------------------------------------------------------

def test_each_food_keeps_two_population_from_vanishing() -> None:
    """"Every FOOD prevents two POPULATION of any type of your choice from vanishing": one
    serf's 4 food keep 8 of 10 population; by default troops vanish first."""
    s = make(holders={"A": "Red"}, serfs_at={"A": 1}, players={"Red": {"priests": 2}},
             troops={("Red", "A"): 7})
    d = play(s, {})
    (up,) = events(d, "upkeep")
    assert up.data["kept"] == 8 and up.data["lost"] == {"serfs": 0, "priests": 0, "troops": 2}
    assert troops_at(d.state, "Red", "A") == 5


def test_the_player_chooses_which_population_vanishes() -> None:
    """"... of any type of your choice": 'starve: priests, serfs' loses both priests first."""
    s = make(holders={"A": "Red"}, serfs_at={"A": 1}, players={"Red": {"priests": 2}},
             troops={("Red", "A"): 7})
    d = play(s, {"Red": "starve: priests, serfs"})
    (up,) = events(d, "upkeep")
    assert up.data["lost"] == {"serfs": 0, "priests": 2, "troops": 0}
    assert player(d.state, "Red")["priests"] == 0


def test_excess_food_becomes_new_population_of_the_kinds_ordered() -> None:
    """"Excess FOOD ... is immediately converted into new POPULATION of any type desired":
    two serfs on two food lands make 8 food, 2 of them keep the 4 population, the 6 left make
    '2 priests, 1 troops' twice over."""
    s = make(holders={"A": "Red", "B": "Red"}, serfs_at={"A": 1, "B": 1},
             troops={("Red", "A"): 2})
    d = play(s, {"Red": "excess food: 2 priests, 1 troops"})
    red = player(d.state, "Red")
    assert (red["serfs"], red["priests"], troops_at(d.state, "Red", "A")) == (2, 4, 4)
    assert red["food"] == 0


def test_births_pattern_repeats_in_order() -> None:
    """The pattern is repeated until the excess is used: 7 births of '2 priests, 1 troops'."""
    assert births_of([("priests", 2), ("troops", 1)], 7) == {"serfs": 0, "priests": 5,
                                                             "troops": 2}


def test_option_one_excess_food_buys_two_population() -> None:
    """births_per_food = 2: each excess food becomes two new population."""
    s = make(holders={"A": "Red"}, serfs_at={"A": 1})
    d = play(s, {}, rules(births_per_food=2))
    assert player(d.state, "Red")["serfs"] == 1 + 2 * 3


def test_option_harvest_feeds_next_round() -> None:
    """harvest_feeds = next_round: the round's population eats the stored food, the harvest
    is kept for the next round."""
    s = make(holders={"A": "Red"}, serfs_at={"A": 1}, players={"Red": {"food": 1}})
    d = play(s, {}, rules(harvest_feeds="next_round"))
    red = player(d.state, "Red")
    assert red["food"] == 4 and red["serfs"] == 1
    assert [r.step.name for r in d.records][4:6] == ["upkeep", "harvest"]


# -- new nobles -------------------------------------------------------------------------------

@pytest.mark.parametrize("lands,new", [(4, 0), (5, 1), (10, 1)])
def test_more_than_four_land_per_noble_gives_a_single_new_noble(lands: int, new: int) -> None:
    """"If a player controls more than 4 land per NOBLE, they gain a single new NOBLE.\""""
    names = "A B C D E F G H I J".split()
    s = make(" ".join(names), holders={n: "Red" for n in names[:lands]},
             nobles=[("Red", "Khufu", "A")])
    d = play(s, {})
    assert d.state["nobles"].height == 1 + new
    if new:
        made = d.state["nobles"].row(1, named=True)
        assert made["number"] == 2 and made["space"] != "A" and made["glory"] == 0


# -- pyramids ---------------------------------------------------------------------------------

def test_pyramid_stone_over_several_rounds_and_dead_totalling_the_glory() -> None:
    """"Construction of a PYRAMID requires STONE, which may be allocated ... over the course of
    multiple rounds ..., and one or more DEAD totaling to a certain minimum GLORY": a war
    pyramid (5 stone, 4 glory) gets 3 stone, then 2 stone and DEAD of glory 3 and 1."""
    s = make(holders={"A": "Red"}, players={"Red": {"stone": 5}},
             dead=[("Seti", 3, "Red"), ("Tiye", 1, "Red")])
    d = play(s, {"Red": "build war pyramid: 3 stone"})
    pyr = d.state["pyramids"].row(0, named=True)
    assert (pyr["stone"], pyr["built"], pyr["space"]) == (3, False, "A")
    s2 = d.state.replace(turn=1)
    d = play(s2, {"Red": "build war pyramid: 2 stone, dead: Seti, Tiye"})
    pyr = d.state["pyramids"].row(0, named=True)
    assert (pyr["stone"], pyr["glory"], pyr["built"]) == (5, 4, True)
    assert d.state["dead"].height == 0 and player(d.state, "Red")["stone"] == 0


def test_a_pyramid_without_enough_glory_is_not_built() -> None:
    """Stone alone does not make a pyramid: a battle pyramid needs DEAD of glory 2."""
    s = make(holders={"A": "Red"}, players={"Red": {"stone": 2}}, dead=[("Seti", 1, "Red")])
    d = play(s, {"Red": "build battle pyramid at A: 2 stone, dead: Seti"})
    assert d.state["pyramids"]["built"].to_list() == [False]


def test_construction_orders_are_checked_against_stone_and_dead() -> None:
    """Too much stone, DEAD one does not hold, a DEAD given twice: every problem, by line."""
    s = make(holders={"A": "Red"}, players={"Red": {"stone": 3}},
             dead=[("Seti", 3, "Red"), ("Tiye", 1, "Blue")], nobles=[("Blue", "Ay", "E")])
    found = reasons(s, {"Red": "build scout pyramid: 2 stone\n"
                               "build war pyramid: 3 stone, dead: Tiye\n"
                               "build battle pyramid: dead: Seti\n"
                               "build doom pyramid: dead: Seti\n"
                               "build legendary pyramid: 1 stone"})
    assert found == ["line 1: the scout pyramid needs only 1 more stone",
                     "line 2: Tiye is not one of your DEAD",
                     "line 4: Seti is already given on line 3",
                     "line 5: not enough stone: the orders spend 4, Red has 3"]


def test_option_unspent_dead_are_lost() -> None:
    """dead_unspent = lost: DEAD not spent by the end of the round are gone; kept by default."""
    s = make(holders={"A": "Red"}, dead=[("Seti", 3, "Red")])
    assert play(s, {}).state["dead"].height == 1
    assert play(s, {}, rules(dead_unspent="lost")).state["dead"].height == 0


def test_priests_beyond_the_population_are_refused() -> None:
    """Priests are population: no more at work than the player has."""
    s = make(holders={"A": "Red"}, pyramids=[("Red", "war", "A", True, 0)],
             players={"Red": {"priests": 3}})
    assert reasons(s, {"Red": "5 priests to pyramid 1"}) == [
        "line 1: more priests than you have: this brings the priests at work to 5, but Red "
        "has 3"]
    d = play(s, {"Red": "3 priests to the war pyramid"})
    staffed = after(d, "assign")["pyramids"].filter(pl.col("number") == 1)["priests"].item()
    assert staffed == 3 and events(d, "priests")
