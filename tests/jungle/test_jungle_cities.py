"""KICKING OFF THE GAME, TLATOANI, CITIZEN, LIFE AND DEATH IN A UNIT, CHARACTER TITLES and
DETERMINING SOCIAL POLICIES: what happens as a council session opens, with the Random Numbers
entered as the GM would."""

from __future__ import annotations

import polars as pl

from gmkit.rulesets.jungle import cities
from gmkit.rulesets.jungle.gameturns import BUILDER, INVENTOR
from gmkit.rulesets.jungle.figures import check_figures, parse_figures
from gmkit.rulesets.jungle.titles import (CONQUEROR, MINISTER, adopt_policy, conquest_value,
                                          conquests, session_titles)
from gmkit.rulesets.jungle.units import lose_health, loss_weights, shared_gains, unit_events
from tests.jungle.helpers import RULES, char, char_of, city_row, dice, rules, unit_row, world


def test_kickoff_draws_the_first_tlatoani_and_citizen_by_fame():
    """KICKING OFF THE GAME: "two characters will be randomly selected to begin as the first
    Tlatoani and citizen. This character selection is weighted according to Fame"."""
    s = world([char("A", "Red", fame=3), char("B", "Blue", fame=1, q=1),
               char("C", "Green")], cities=[city_row("Tenochtitlan")])
    roll = dice(**{"kickoff/tlatoani": "B", "kickoff/citizen": "A"})
    after, events = cities.kickoff(s, roll, RULES)
    assert after["cities"]["tlatoani"].to_list() == ["B"]
    assert char_of(after, "B")["class"] == "tlatoani"
    assert char_of(after, "A")["class"] in ("citizen", "specialist")
    assert [r.expression for r in roll.log] == ["choice(A:3, B:1)"]  # C, Fame 0, cannot be
    # drawn, and A is then the only citizen left with Fame


def test_kickoff_is_unweighted_when_fewer_than_two_have_fame():
    """KICKING OFF THE GAME: "In the unlikely event that there are not at least 2 characters
    with some Fame ... the first Tlatoani and citizen selection will be unweighted"."""
    s = world([char("A", "Red", fame=5), char("B", "Blue"), char("C", "Green")])
    roll = dice(**{"kickoff/tlatoani": "C", "kickoff/citizen": "B"})
    after, _ = cities.kickoff(s, roll, RULES)
    assert after["cities"]["tlatoani"].to_list() == ["C"]
    assert roll.log[0].expression == "choice(A:1, B:1, C:1)"


def test_tlatoani_receives_net_food_and_gold_by_the_formula():
    """TLATOANI: food = the city's net food; gold = income - expenses - empire expenses x
    citizens in city / total citizens."""
    s = world([char("T", "Red", **{"class": "tlatoani"})],
              cities=[city_row("Tenochtitlan", tlatoani="T", citizens=3, net_food=4, income=12,
                               expenses=2),
                      city_row("Texcoco", citizens=1)],
              session=[{"session": 1, "part": "morning", "gold": 0, "empire_expenses": 8}])
    after, events = cities.output(s, RULES)
    red = after["houses"].to_dicts()[0]
    assert (red["food"], red["gold"]) == (4, 12 - 2 - 6)
    assert "4 food and 4 gold" in events[0].text


def test_tlatoani_never_loses_food_or_gold():
    """TLATOANI: "The Tlatoani does not lose food if the city's food production is less than 0
    ... does not lose gold if the gold value is less than 0"."""
    s = world([char("T", "Red", **{"class": "tlatoani"})],
              houses={"Red": (5, 5)},
              cities=[city_row("Tenochtitlan", tlatoani="T", net_food=-3, income=1,
                               expenses=4)])
    after, _ = cities.output(s, RULES)
    assert after["houses"].select("food", "gold").row(0) == (5, 5)


def test_revolt_chance_is_the_absolute_happiness_over_a_hundred():
    """TLATOANI: "The odds of being overthrown by the angry mob of NPC peasants is equal to
    abs|City Happiness/100|"; nothing happens at happiness 0 or more."""
    assert cities.revolt_chance(-25, RULES) == 0.25
    assert cities.revolt_chance(0, RULES) == 0.0 and cities.revolt_chance(7, RULES) == 0.0
    assert cities.revolt_chance(-250, RULES) == 1.0


def test_revolt_overthrows_the_tlatoani_and_crowns_a_character_by_fame():
    """TLATOANI: "A randomly selected character from the city, weighted by fame, becomes the new
    Tlatoani. The overthrown Tlatoani becomes a peasant on the hex the new Tlatoani came from"."""
    s = world([char("T", "Red", **{"class": "tlatoani"}), char("P", "Blue", fame=2, q=1),
               char("Q", "Blue", fame=1, q=0, r=1)],
              cities=[city_row("Tenochtitlan", tlatoani="T", happiness=-40)])
    calm, events = cities.revolts(s, dice(**{"revolt/Tenochtitlan": 0.5}), RULES)
    assert calm["cities"]["tlatoani"].to_list() == ["T"] and "keeps the throne" in events[0].text
    after, events = cities.revolts(s, dice(**{"revolt/Tenochtitlan": 0.3,
                                              "tlatoani/Tenochtitlan": "P"}), RULES)
    assert after["cities"]["tlatoani"].to_list() == ["P"]
    t = char_of(after, "T")
    assert (t["class"], t["q"], t["r"]) == ("peasant", 1, 0)


def test_new_citizens_are_drawn_by_fame():
    """CITIZEN: "The number of citizens in a city is equal to the number of citizens in the
    game ... New citizens are chosen at random, weighted by Fame"."""
    s = world([char("A", "Red", fame=2, q=1), char("B", "Blue", fame=1, q=0, r=1)],
              cities=[city_row("Tenochtitlan", citizens=1)])
    after, events = cities.new_citizens(s, dice(**{"citizen/Tenochtitlan/1": "B"}), RULES)
    assert char_of(after, "B")["class"] == "citizen" and char_of(after, "A")["class"] == "peasant"
    assert after["hexes"].filter(after["hexes"]["citizen"] == "B").height == 1


def test_citizens_receive_the_per_citizen_beakers():
    """CITIZEN: "citizens receive science beakers equal to the per citizen science beakers
    generated by the city"."""
    s = world([char("A", "Red", **{"class": "citizen"}), char("B", "Red")])
    after, _ = cities.beakers(s, {"Tenochtitlan": 3})
    assert (char_of(after, "A")["beakers"], char_of(after, "B")["beakers"]) == (3, 0)


def test_unit_health_losses_kill_characters_weighted_by_inverse_xp():
    """LIFE AND DEATH IN A UNIT: "When a unit loses health, some of those characters are killed.
    Killed characters are selected at random, weighted by 1/XP. NPC characters are considered to
    have a permanent XP = 1"."""
    assert loss_weights([2, 3], 8, 1) == [3, 2, 6 * 8]
    s = world([char("A", "Red", unit="W", xp=2), char("B", "Blue", unit="W", xp=3)],
              units=[unit_row("W", captain="A", health=10)])
    after, events = lose_health(s, "W", 8, dice(**{"unit/W/1": "A", "unit/W/2": "an NPC"}),
                                RULES)
    assert not char_of(after, "A")["alive"] and char_of(after, "B")["alive"]
    assert after["units"]["health"].to_list() == [8]
    assert after["units"]["captain"].to_list() == ["B"]  # the Captain's successor, by Fame


def test_a_unit_killed_kills_everyone_in_it():
    """LIFE AND DEATH IN A UNIT: "If a unit is killed, all characters within the unit are
    killed"."""
    s = world([char("A", "Red", unit="W"), char("B", "Blue", unit="W")],
              units=[unit_row("W", captain="A", health=6)])
    after, _ = lose_health(s, "W", 0, dice(), RULES)
    assert after["characters"]["alive"].to_list() == [False, False]


def test_title_bonuses_each_council_session():
    """CHARACTER TITLES: "Each council session, characters with the title of Inventor receive a
    science beaker bonus equal to (N)"; Builder hammers; Minister and Conqueror Fame."""
    s = world([char("A", "Red"), char("B", "Red")],
              titles=[{"character": "A", "title": INVENTOR, "subject": "Writing", "value": 2},
                      {"character": "A", "title": BUILDER, "subject": "Granary", "value": 1},
                      {"character": "B", "title": MINISTER, "subject": "Tradition", "value": 1},
                      {"character": "B", "title": CONQUEROR, "subject": "Cuzco", "value": 4}])
    after, events = session_titles(s, dice(), RULES)
    a, b = char_of(after, "A"), char_of(after, "B")
    assert (a["beakers"], a["hammers"], b["fame"]) == (2, 1, 5)
    assert len(events) == 4


def test_social_policy_drawn_by_fame_spent_makes_a_minister():
    """DETERMINING SOCIAL POLICIES: "a policy will be randomly selected. The selection is
    weighted, in which the strength of each character's support is equal to the fame spent. The
    character who's supported policy is adopted receives the title of Minister of Policy X"."""
    s = world([char("A", "Red"), char("B", "Blue")],
              policy_support=[{"character": "A", "policy": "Tradition", "fame": 3},
                              {"character": "B", "policy": "Liberty", "fame": 1}])
    roll = dice(**{"policy/1": "B: Liberty (1 Fame)"})
    after, events = adopt_policy(s, 1, roll, RULES, "policy/1")
    assert after["titles"].to_dicts() == [{"character": "B", "title": MINISTER,
                                           "subject": "Liberty", "value": 1}]
    assert after["policy_support"]["policy"].to_list() == ["Tradition"]
    assert roll.log[0].expression == ("choice(A: Tradition (3 Fame):3, "
                                      "B: Liberty (1 Fame):1)")


def test_no_support_defers_the_policy():
    """DETERMINING SOCIAL POLICIES: "In the event that no characters have supported adopting a
    social policy, then adopting a policy will be deferred to a future council session"."""
    s = world([char("A", "Red")])
    after, events = adopt_policy(s, 1, dice(), RULES, "policy/1")
    assert "deferred" in events[0].text and after["titles"].height == 0


def test_conqueror_hero_and_destroyer_values():
    """CONQUEROR OF CITY X (N): citizens AFTER the capture; HERO: citizens before, x2 if the city
    was previously Aztec, x3 if founded by the Aztecs; DESTROYER: citizens before x2, halved if
    previously Aztec, a third if founded by the Aztecs (round down)."""
    assert conquest_value("conquered", 3, None) == 3
    assert [conquest_value("liberated", 4, a) for a in (None, "previously", "founded")] == \
        [4, 8, 12]
    assert [conquest_value("razed", 5, a) for a in (None, "previously", "founded")] == \
        [10, 5, 3]


def test_the_gm_enters_a_conquest_and_the_units_characters_get_the_title():
    """CONQUEROR OF CITY X: "all characters in the military unit that captured the city receive
    the title"; the GM enters it with the session's figures."""
    s = world([char("A", "Red", unit="W"), char("B", "Blue", unit="W"), char("C", "Red")],
              units=[unit_row("W", captain="A")])
    figures = check_figures(s, parse_figures("conquered Cuzco by W citizens 3\n"
                                             "razed Tula by Jaguar citizens 2"), RULES)
    assert [e.line for e in figures.errors] == [2]
    after, events = conquests(s, figures["conquests"].to_dicts())
    assert sorted((t["character"], t["title"], t["subject"], t["value"])
                  for t in after["titles"].to_dicts()) == [
        ("A", CONQUEROR, "Cuzco", 3), ("B", CONQUEROR, "Cuzco", 3)]


def test_a_units_gains_are_shared_with_its_generals_unit():
    """LIFE AND DEATH IN A UNIT: "When a military unit gains XP, Fame or gold through any of its
    actions, all characters within the unit earn the same amount ... When a military unit
    receiveing the combat bonus from a nearby General gains XP, Fame or Gold ... all characters
    within the General's unit earn the same amount"."""
    s = world([char("A", "Red", unit="W"), char("B", "Blue", unit="W"),
               char("G", "Red", unit="General"), char("C", "Red")],
              units=[unit_row("W", captain="A"), unit_row("General", captain="G")])
    figures = check_figures(s, parse_figures("gains W with general General: xp 2, gold 3"),
                            RULES)
    assert figures.errors == []
    after, _ = shared_gains(s, figures["unit_gains"].to_dicts())
    xp = {c["name"]: c["xp"] for c in after["characters"].to_dicts()}
    assert xp == {"A": 3, "B": 3, "G": 3, "C": 1}
    gold = dict(after["houses"].select("house", "gold").iter_rows())
    assert gold == {"Blue": 3, "Red": 6}


def test_settling_consumes_the_captain_and_disbands_the_rest():
    """UNITS: "Settling a city, expending a Great Person, or using a work boat consumes the
    Captain of the unit. Any other characters within the unit are treated as if the unit had
    disbanded"."""
    s = world([char("A", "Red", unit="Settler"), char("B", "Blue", unit="Settler")],
              units=[unit_row("Settler", captain="A", military=False, level=None)])
    figures = check_figures(s, parse_figures("settled Settler"), RULES)
    after, events = unit_events(s, figures["unit_events"].to_dicts(), dice(), RULES)
    assert not char_of(after, "A")["alive"]
    b = char_of(after, "B")
    assert (b["alive"], b["class"], b["city"], b["unit"]) == (True, "peasant", "Tenochtitlan",
                                                              None)
    assert after["units"].height == 0


def test_a_captured_worker_gives_the_capturing_captains_house_a_character():
    """NEW UNITS: "If a worker is captured, the player controlling the Captain of the capturing
    unit receives the new character", a soldier with a name of his own, Captain of the worker."""
    s = world([char("A", "Red", unit="W")], units=[unit_row("W", captain="A")])
    figures = check_figures(s, parse_figures("captured worker Inca Worker by W"), RULES)
    after, _ = unit_events(s, figures["unit_events"].to_dicts(), dice(), RULES)
    new = char_of(after, "Acatl")
    assert (new["house"], new["class"], new["unit"], new["may_act"]) == (
        "Red", "soldier", "Inca Worker", False)
    assert after["units"].filter(after["units"]["unit"] == "Inca Worker")["captain"].item() == \
        "Acatl"
    old = rules(new_units="captain_only")
    after, _ = unit_events(s, figures["unit_events"].to_dicts(), dice(), old)
    assert char_of(after, "Captain of Inca Worker")["unit"] == "Inca Worker"


def test_a_captured_settler_removes_its_characters_until_rescued():
    """LIFE AND DEATH IN A UNIT: "If a settler or worker is captured, all characters within the
    unit are removed from the game, but will be returned if the unit is later rescued"."""
    settler = unit_row("Settler 1", unit_type="Settler", military=False, level=None,
                       captain="A", enlisted=2, city="Tenochtitlan")
    s = world([char("A", "Red", unit="Settler 1", fame=4), char("B", "Red", unit="Settler 1"),
               char("C", "Blue")], units=[settler], festival="Tlaloc")
    # A is a Priest of Tlaloc, C's slave is B, A supports a policy: rows that name them
    s = s.replace(titles=pl.concat([s["titles"], pl.DataFrame(
        [{"character": "A", "title": "priest_of", "subject": "Tlaloc", "value": 3},
         {"character": "C", "title": "owner_of", "subject": "B", "value": None}],
        schema=s["titles"].schema)]),
        slaves=pl.DataFrame({"slave": ["B"], "owner": ["C"]}, schema=s["slaves"].schema),
        policy_support=pl.DataFrame({"character": ["A"], "policy": ["Piety"], "fame": [1]},
                                    schema=s["policy_support"].schema))
    lost = check_figures(s, parse_figures("lost Settler 1"), RULES)
    assert not lost.errors
    after, events = unit_events(s, lost["unit_events"].to_dicts(), dice(), RULES)
    assert after["characters"]["name"].to_list() == ["C"]
    assert after["units"].is_empty() and after["captive_units"]["unit"].to_list() == ["Settler 1"]
    assert sorted(after["captives"]["name"].to_list()) == ["A", "B"]
    assert "A, B leave the game" in events[0].text
    # nothing left in the game names them: the festival's blessings and the policies go on
    assert after["titles"]["character"].to_list() == [] and after["slaves"].is_empty()
    assert after["policy_support"].is_empty()
    from gmkit.rulesets.jungle.gods import bless_priests
    assert bless_priests(after, dice(), RULES)[1] == []
    # nothing of theirs is seen by another house, as with any character's sheet
    from gmkit.rulesets import find_ruleset
    jungle = find_ruleset("jungle")
    seen = jungle.view(after, "player:Blue")
    assert seen["captives"]["wisdom"].null_count() == 2
    assert jungle.view(after, "player:Red")["captives"]["wisdom"].null_count() == 0
    # a captured unit takes no figures and cannot be lost twice; the rescue needs a captive
    again = check_figures(after, parse_figures("lost Settler 1\nrescued Settler 2"), RULES)
    assert [e.line for e in again.errors] == [1, 2]
    twice = check_figures(s, parse_figures("lost Settler 1\nsettled Settler 1"), RULES)
    assert [e.line for e in twice.errors] == [2] and "twice" in str(twice.errors[0])
    back = check_figures(after, parse_figures("rescued settler 1"), RULES)
    assert not back.errors
    home, events = unit_events(after, back["unit_events"].to_dicts(), dice(), RULES)
    assert sorted(home["characters"]["name"].to_list()) == ["A", "B", "C"]
    assert char_of(home, "A")["unit"] == "Settler 1" and char_of(home, "A")["fame"] == 4
    assert home["units"]["captain"].to_list() == ["A"] and home["captives"].is_empty()
    assert home["titles"].sort("character").equals(s["titles"].sort("character"))
    assert home["slaves"].equals(s["slaves"]) and home["policy_support"].equals(
        s["policy_support"]) and home["captive_rows"].is_empty()
    assert "return to the game" in events[0].text


def test_only_a_settler_or_worker_is_captured_with_its_characters():
    """LIFE AND DEATH IN A UNIT: a captured settler or worker takes its characters out of the
    game; a military unit is not captured so, it loses health ("If a unit is killed, all
    characters within the unit are killed")."""
    s = world([char("A", "Red", unit="Warrior 1")], units=[unit_row("Warrior 1", captain="A")])
    got = check_figures(s, parse_figures("lost Warrior 1"), RULES)
    assert "military unit" in str(got.errors[0]) and got["unit_events"].is_empty()


def test_rescuing_one_unit_keeps_aside_what_names_a_captive_of_another():
    """LIFE AND DEATH IN A UNIT: two captured units; rescuing one brings back its characters'
    rows, but a row that also names a character still held with the other unit (A owns B)
    stays aside with him until his own rescue."""
    units = [unit_row(n, unit_type="Settler", military=False, level=None, captain=c, enlisted=1,
                      city="Tenochtitlan") for n, c in (("S1", "A"), ("S2", "B"))]
    s = world([char("A", "Red", unit="S1"), char("B", "Blue", unit="S2")], units=units)
    s = s.replace(slaves=pl.DataFrame({"slave": ["B"], "owner": ["A"]}, schema=s["slaves"].schema))
    for line in ("lost S1", "lost S2", "rescued S1"):
        got = check_figures(s, parse_figures(line), RULES)
        s, _ = unit_events(s, got["unit_events"].to_dicts(), dice(), RULES)
    assert s["characters"]["name"].to_list() == ["A"] and s["slaves"].is_empty()
    assert s["captive_rows"]["unit"].to_list() == ["S2"]
    got = check_figures(s, parse_figures("rescued S2"), RULES)
    s, _ = unit_events(s, got["unit_events"].to_dicts(), dice(), RULES)
    assert s["slaves"].rows() == [("B", "A")] and s["captive_rows"].is_empty()
