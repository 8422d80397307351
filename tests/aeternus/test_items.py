"""Foraging (6.4), construction (5.3.4, 5.3.3.2 to 5.3.3.5), crafting (7.4), items in use
(7.1.2, 7.4.4, 7.4.5), trading (7.1.1) and players (2)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.aeternus.scenario import MONDAY, failed, inventory, play, scenario, table, where

from gmkit.rulesets.aeternus.actions import forage_row
from gmkit.rulesets.aeternus.coords import to_axial
from gmkit.rulesets.aeternus.rules import CONSTRUCTIBLE, FORAGE_TABLES, RECIPES

O = (0, 0, 0)
N = (0, 0, 1)
M = (1, 0, 0)


@pytest.mark.parametrize("biome", list(FORAGE_TABLES))
def test_6_4_forage_rewards_by_biome(biome):
    """6.4: a player rolls a 1d6 and receives rewards depending on the biome of their hex."""
    for row in range(1, 7):
        state, _, _ = play(scenario({O: biome}, {"Amber": O}), [("Amber", "Forage")],
                           entered={"actions:Amber.1/forage#0": row})
        assert inventory(state, "Amber") == {i: n for n, i in FORAGE_TABLES[biome][row - 1]}


def test_6_4_a_lake_forages_from_the_meadow_table():
    """6.4: ... or from Meadow if there are no specified rewards."""
    state, _, _ = play(scenario({O: "Lake"}, {"Amber": O}), [("Amber", "Forage")],
                       entered={"actions:Amber.1/forage#0": 6})
    assert inventory(state, "Amber") == {"Wood": 3}


@pytest.mark.parametrize("landmark,features,corrupt", [("Town", {}, set()),
                                                       ("Barren", {O: ("Flag",)}, set()),
                                                       ("Barren", {}, {O})])
def test_6_4_foraging_needs_a_barren_hex_with_no_features(landmark, features, corrupt):
    """6.4: A player may only forage if they are on a hex with the Barren landmark and no
    features (Corrupted is a feature, 5.3.3.1)."""
    state = scenario({O: "Meadow"}, {"Amber": O}, landmarks={O: landmark},
                     features=features, corrupted=corrupt)
    _, events, _ = play(state, [("Amber", "Forage")])
    assert failed(events)


def test_7_4_1_a_pouch_rolls_2d6_read_by_the_named_option():
    """7.4.1: If you use the foraging action, roll 2d6 instead; the six-row tables read
    ceil(2d6 / 2) (``half``) or 2d6 capped at 6 (``cap``)."""
    assert [forage_row(t, True, "half") for t in range(2, 13)] == \
        [1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
    assert [forage_row(t, True, "cap") for t in range(2, 13)] == [2, 3, 4, 5, 6, 6, 6, 6, 6, 6, 6]
    state = scenario({O: "Meadow"}, {"Amber": O}, items={"Amber": {"Foraging Pouch": 1}})
    state, _, rolls = play(state, [("Amber", "Forage")],
                           entered={"actions:Amber.1/forage": [6, 6]})
    assert [r.expression for r in rolls if "forage" in r.draw_id] == ["2d6"]
    assert inventory(state, "Amber")["Wood"] == 3


@pytest.mark.parametrize("item", list(RECIPES))
def test_7_4_crafting_spends_the_recipe(item):
    """7.4: Craftable items and their recipes."""
    state = scenario({O: "Meadow"}, {"Amber": O}, items={"Amber": dict(RECIPES[item])})
    state, events, _ = play(state, [("Amber", f"Craft {item}")])
    assert inventory(state, "Amber") == {item: 1}
    _, events, _ = play(state, [("Amber", f"Craft {item}")])
    assert failed(events)


@pytest.mark.parametrize("feature", list(CONSTRUCTIBLE))
def test_5_3_4_construction_for_its_cost_on_or_next_to_ones_hex(feature):
    """5.3.4: A player may construct a feature on or adjacent to their hex, requiring the
    relevant resource cost to be spent."""
    state = scenario({O: "Meadow", N: "Meadow"}, {"Amber": O},
                     items={"Amber": dict(CONSTRUCTIBLE[feature])})
    state, events, _ = play(state, [("Amber", f"Construct {feature} on North")])
    assert not failed(events) and inventory(state, "Amber") == {}
    assert feature in table(state).features(to_axial(*N))


def test_5_3_4_not_on_a_lake_or_a_corrupted_hex_but_a_boardwalk_on_a_lake():
    """5.3.4: Unless stated otherwise, features cannot be constructed on lake or corrupted
    hexes; 5.3.3.5: a Boardwalk can be constructed on all biomes (including lake)."""
    rich = {"Amber": {"Wood": 30, "Thread": 4}}
    state = scenario({O: "Meadow", N: "Lake", M: "Meadow"}, {"Amber": O}, items=rich,
                     corrupted={M})
    _, events, _ = play(state, [("Amber", "Construct Flag on North"),
                                ("Amber", "Construct Flag on Mouth"),
                                ("Amber", "Construct Boardwalk on Mouth")])
    assert len(failed(events)) == 3
    _, events, _ = play(state, [("Amber", "Construct Boardwalk on North")])
    assert not failed(events)


def test_5_3_3_2_one_flag_a_hex_owned_by_the_builders_faction():
    """5.3.3.2: Each hex can have a maximum of one flag; owned by the faction of the player
    who constructed it."""
    state = scenario({O: "Meadow"}, {"Amber": O, "Birch": O},
                     items={"Amber": {"Wood": 5, "Thread": 2}, "Birch": {"Wood": 5,
                                                                          "Thread": 2}})
    state, events, _ = play(state, [("Amber", "Construct Flag"), ("Birch", "Construct Flag")])
    assert len(failed(events)) == 1 and table(state).flags == {(0, 0): "Amber"}


def test_5_3_3_3_a_new_pylon_cleanses_its_neighbours():
    """5.3.3.3: If an adjacent hex ever is corrupted, it is no longer corrupted."""
    ashe = (0, 1, 0)  # next to North
    state = scenario({O: "Meadow", N: "Meadow", ashe: "Meadow"}, {"Amber": O},
                     corrupted={ashe}, items={"Amber": {"Wood": 30, "Steel": 5, "Gold": 2}})
    state, _, _ = play(state, [("Amber", "Construct Pylon of Purity on North")])
    assert not table(state).corrupted(to_axial(*ashe))


def test_7_4_4_a_torch_burns_a_flag_and_stays():
    """7.4.4: A player with a torch in their inventory may destroy a Flag or a Boardwalk."""
    state = scenario({O: "Meadow", N: "Meadow"}, {"Amber": O}, features={N: ("Flag",)},
                     flags={N: "Birch"}, items={"Amber": {"Torch": 1}})
    state, events, _ = play(state, [("Amber", "Burn Flag on North")])
    assert not table(state).flags and inventory(state, "Amber") == {"Torch": 1}


def test_7_4_5_explosives_destroy_every_landmark_and_feature_around():
    """7.4.5: A player may use 1 explosives to destroy every landmark and feature on or
    adjacent to their hex (7.1.2: the item is then destroyed)."""
    state = scenario({O: "Meadow", N: "Meadow", (0, 0, 2): "Meadow"}, {"Amber": O},
                     landmarks={N: "Town", (0, 0, 2): "Town"}, features={O: ("Boardwalk",)},
                     items={"Amber": {"Explosives": 1}})
    state, _, _ = play(state, [("Amber", "Use Explosives")])
    t = table(state)
    assert t.landmark(to_axial(*N)) == "Barren" and t.features(to_axial(*O)) == ()
    assert t.landmark(to_axial(0, 0, 2)) == "Town" and inventory(state, "Amber") == {}


def test_7_1_1_a_trade_takes_place_when_both_consent_within_seven_days():
    """7.1.1: a trade between two players takes place when both players explicitly consent to
    the trade in #trades within 7 days of each other."""
    items = {"Amber": {"Wood": 2}, "Birch": {"Steel": 1}}
    state = scenario({O: "Meadow"}, {"Amber": O, "Birch": O}, items=items)
    offer = ("Amber", "Trade with Birch: give 2 Wood; get 1 Steel")
    accept = ("Birch", "Trade with Amber: give 1 Steel; get 2 Wood")
    done, _, _ = play(state, [offer, accept])
    assert inventory(done, "Amber") == {"Steel": 1} and inventory(done, "Birch") == {"Wood": 2}
    late, _, _ = play(state, [offer])
    late, _, _ = play(late, [accept], at=MONDAY + timedelta(days=8))
    assert inventory(late, "Amber") == {"Wood": 2}


def test_7_only_reputable_players_trade():
    """7: Reputable players may trade items from their inventories."""
    state = scenario({O: "Meadow"}, {"Amber": O, "Birch": O},
                     joined={"Birch": "2026-01-05T09:00:00+00:00"},
                     cycle_start="2025-12-01T00:00:00+00:00")
    _, events, _ = play(state, [("Birch", "Trade with Amber: give nothing; get nothing")],
                        cycle_start="2025-12-01T00:00:00+00:00")
    assert failed(events) and "reputable" in failed(events)[0]


def test_2_two_reputable_players_declare_a_player_reputable():
    """2: If two reputable players publicly declare that an unreputable player is reputable
    then that unreputable player becomes reputable immediately."""
    late = "2025-12-01T00:00:00+00:00"
    state = scenario({O: "Meadow"}, {"Amber": O, "Birch": O, "Cedar": O},
                     joined={"Amber": late, "Birch": late, "Cedar": "2026-01-05T09:00:00+00:00"},
                     cycle_start=late)
    trade = ("Cedar", "Trade with Amber: give nothing; get nothing")
    _, events, _ = play(state, [("Amber", "Declare Cedar reputable"), trade], cycle_start=late)
    assert failed(events)
    _, events, _ = play(state, [("Amber", "Declare Cedar reputable"),
                                ("Birch", "Declare Cedar reputable"), trade], cycle_start=late)
    assert not failed(events)


def test_2_a_player_who_left_cannot_join_within_seven_days():
    """2: Any person may become a player ... provided they have not been a player at any point
    in the past seven days."""
    state = scenario({O: "Meadow"}, {"Amber": O})
    state, _, _ = play(state, [("Amber", "Leave")])
    _, events, _ = play(state, [("Amber", "Join")], at=MONDAY + timedelta(days=6))
    assert failed(events)
    state, events, _ = play(state, [("Amber", "Join")], at=MONDAY + timedelta(days=7))
    assert not failed(events) and where(state, "Amber") == O


def test_2_a_newcomer_joins_at_the_origin_in_a_faction_of_their_own():
    """2, 5, 2.1: a new player is on the origin, in a faction with their own name."""
    state = scenario({O: "Meadow"}, {"Amber": O})
    state, events, _ = play(state, [("Zoe", "Join"), ("Zoe", "Forage")])
    row = state["players"].filter(state["players"]["id"] == "Zoe").row(0, named=True)
    assert row["faction"] == "Zoe" and row["active"] and not failed(events)
