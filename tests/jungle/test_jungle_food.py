"""FOOD, SOLDIERS, SPECIALIST and CITIZEN: eating at the end of the council session."""

from __future__ import annotations

import pytest

from gmkit.rulesets.jungle.food import (demote_starved_citizens, eat, food_required,
                                        house_need, shortages)
from gmkit.rulesets.jungle.lifecycle import kill
from gmkit.rulesets.jungle.picks import inverse_weights
from tests.jungle.helpers import RULES, char, char_of, dice, rules, unit_row, world


@pytest.mark.parametrize("xp,fame,need", [(1, 0, 1), (10, 0, 1), (11, 0, 2), (40, 0, 2),
                                          (41, 0, 3), (30, 60, 3), (0, 0, 0), (1000, 0, 10)])
def test_food_required_is_sqrt_of_xp_plus_fame_over_ten_rounded_up(xp, fame, need):
    """FOOD: "The amount of food a character requires is equal to sqrt((XP+Fame)/10), rounded
    up"."""
    assert food_required(xp, fame, RULES) == need


def test_soldiers_get_one_ration_and_specialists_three():
    """SOLDIERS: "provide soldiers with food rations of 1 food. Soldiers that require more than 1
    food must receive the remainder from their houses." SPECIALIST: "provide specialists with 3
    food"."""
    soldier = char("S", "Red", unit="Warrior", xp=30)           # needs 2
    spec = char("P", "Red", xp=30, **{"class": "specialist"})    # needs 2, ration 3
    assert house_need(soldier, RULES) == 1
    assert house_need(spec, RULES) == 0


def test_a_fed_house_loses_its_food_and_nobody_starves():
    """FOOD: "At the end of every council session, all characters need to eat"."""
    s = world([char("A", "Red", xp=11), char("B", "Red")], houses={"Red": (5, 0)})
    after, events = eat(s, dice(), RULES)
    assert after["houses"]["food"].to_list() == [2]
    assert not [e for e in events if e.kind == "starve"]


def test_characters_short_of_food_lose_xp():
    """FOOD: "randomly determined characters will be short of food. These characters lose XP equal
    to (XP)*(Food Short)/(Food Required)*(1.5)*(Random Number)"."""
    s = world([char("A", "Red", xp=40), char("B", "Red", xp=40)], houses={"Red": (2, 0)})
    # both need 2; the shuffle feeds B first, A goes 2 short of 2: 40 * 2/2 * 1.5 * 0.5 = 30.
    after, events = eat(s, dice(**{"feed/Red": ["B", "A"], "starve/A": 0.5}), RULES)
    assert char_of(after, "A")["xp"] == 10 and char_of(after, "B")["xp"] == 40


def test_characters_that_drop_to_zero_xp_starve_to_death():
    """FOOD: "Characters that drop to 0 XP starve to death"."""
    s = world([char("A", "Red", xp=4)], houses={"Red": (0, 0)})
    after, events = eat(s, dice(**{"starve/A": 0.9}), RULES)
    assert not char_of(after, "A")["alive"]
    assert [e.kind for e in events][-1] == "death"


def test_shortage_per_food_draws_each_missing_food():
    """FOOD, option ``shortage_draw = per_food``: each missing food is drawn among those still
    owed food."""
    short = shortages(["A", "B"], {"A": 2, "B": 1}, 1, dice(**{"short/Red/1": "B",
                                                               "short/Red/2": "A"}),
                      rules(shortage_draw="per_food"), "Red")
    assert short == {"A": 1, "B": 1}


def test_inverse_fame_weights_are_exact_integers():
    """CITIZEN: "a random citizen is demoted to peasant, weighted by 1/Fame": 1/2 : 1/3 : 1/4 is
    6 : 4 : 3; Fame 0 is read as certain (or as 1 with ``inverse_fame_zero = as_one``)."""
    assert inverse_weights([2, 3, 4]) == [6, 4, 3]
    assert inverse_weights([0, 3, 0]) == [1, 0, 1]
    assert inverse_weights([0, 2], "as_one") == [2, 1]


def test_a_starving_city_demotes_a_citizen_drawn_by_inverse_fame():
    """CITIZEN: "If a citizen starves to death in game, a random citizen is demoted to peasant,
    weighted by 1/Fame"; his tenants are tenants no more."""
    s = world([char("A", "Red", fame=2, **{"class": "citizen"}),
               char("B", "Blue", fame=3, **{"class": "citizen"}), char("T", "Blue")],
              hexes=[("Tenochtitlan", 0, 0, "A")],
              tenants=[{"tenant": "T", "landlord": "A"}])
    after, _ = demote_starved_citizens(s, "Tenochtitlan", 1,
                                       dice(**{"demote/Tenochtitlan/1": "A"}), RULES)
    assert char_of(after, "A")["class"] == "peasant"
    assert after["tenants"].height == 0 and after["hexes"]["citizen"].to_list() == [None]
    roll = dice()
    demote_starved_citizens(s, "Tenochtitlan", 1, roll, RULES)
    assert roll.log[0].expression == "choice(A:3, B:2)"


def test_a_dead_captain_is_replaced_by_fame():
    """LIFE AND DEATH IN A UNIT: "If the Captain is killed, a randomly selected character,
    weighted by Fame, is promoted to Captain"."""
    s = world([char("C", "Red", unit="Warrior", xp=1), char("D", "Blue", unit="Warrior", fame=3)],
              houses={"Red": (0, 0), "Blue": (5, 0)},
              units=[unit_row("Warrior", captain="C")],
              titles=[{"character": "C", "title": "captain_of", "subject": "Warrior", "value": None}])
    after, _ = kill(s, "C", "falls", dice(), RULES)
    assert after["units"]["enlisted"].to_list() == [1]
    assert after["units"]["captain"].to_list() == ["D"]
    assert after["titles"]["character"].to_list() == ["D"]
