"""Moving through Aeternus: phases and AP (1.2, 6), scouting (6.1), traversing (6.2) and the
biomes' effects (5.3.1.2 to 5.3.1.6), corruption (5.3.3.1), pylons (5.3.3.3), stagways
(5.3.3.4) and boardwalks (5.3.3.5)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from tests.aeternus.scenario import (
    MONDAY,
    ap,
    failed,
    kinds,
    play,
    scenario,
    table,
    where,
)

from gmkit.rulesets.aeternus.clock import action_points, phase_name, phase_number
from gmkit.rulesets.aeternus.coords import to_axial

O = (0, 0, 0)
N = (0, 0, 1)
A = (0, 1, 0)
M = (1, 0, 0)
S = (0, 0, -1)
Z = (0, -1, 0)
W = (-1, 0, 0)


def test_1_2_phase_one_is_sunday_to_wednesday_and_two_thursday_to_saturday():
    """1.2: Phase I: Sunday, Monday, Tuesday and Wednesday; Phase II: Thursday, Friday and
    Saturday. The Phase Number counts phases since the cycle began, from 0."""
    start = datetime(2026, 1, 6, 12, tzinfo=timezone.utc)  # a Tuesday
    day = timedelta(days=1)
    assert [phase_name(start + k * day) for k in range(-2, 5)] == \
        ["I", "I", "I", "I", "II", "II", "II"]
    assert phase_number(start, start) == 0
    assert phase_number(datetime(2026, 1, 8, tzinfo=timezone.utc), start) == 1  # Thursday
    assert phase_number(datetime(2026, 1, 11, tzinfo=timezone.utc), start) == 2  # Sunday
    assert phase_number(datetime(2026, 1, 10, 23, 59, 59, tzinfo=timezone.utc), start) == 1


def test_6_action_points_are_two_plus_the_cube_root_of_the_quality_score():
    """6: Each player has 2 + ⌊∛(S)⌋ action points."""
    assert [action_points(s) for s in (0, 1, 7, 8, 26, 27, 63, 64)] == [2, 3, 3, 4, 4, 5, 5, 6]


def test_6_ap_are_replenished_at_the_start_of_each_phase_and_never_go_below_zero():
    """6: AP replenished at the start of each phase, spent to perform actions."""
    state = scenario({O: "Meadow", N: "Meadow", S: "Meadow"}, {"Amber": O})
    state, events, _ = play(state, [("Amber", "Traverse North"), ("Amber", "Traverse South"),
                                    ("Amber", "Traverse South")])
    assert ap(state, "Amber") == 0 and where(state, "Amber") == O
    assert len(failed(events)) == 1 and "has 0 left" in failed(events)[0]
    thursday = MONDAY + timedelta(days=3)
    state, events, _ = play(state, [("Amber", "Traverse South")], at=thursday)
    assert where(state, "Amber") == S and ap(state, "Amber") == 1


def test_6_quality_score_counts_unique_medallion_fish():
    """7.3.2.1: S is the sum of the qualities of all unique Medallion Fish in the inventory
    (different qualities of the same fish are unique), so S = 3 + 3 + 2 = 8 gives 4 AP."""
    state = scenario({O: "Meadow"}, {"Amber": O}, fish=[
        ("Amber", "Goldfish", 3), ("Amber", "Goldfish", 3), ("Amber", "Vanille", 3),
        ("Amber", "Goldfish", 2), ("Amber", "Eel", 0)])
    state, _, _ = play(state, [("Amber", "Forage")])
    assert ap(state, "Amber") == 3


def test_6_2_traverse_moves_into_an_adjacent_hex_generating_it():
    """6.2: Move into an adjacent hex and generate it if indeterminate."""
    state = scenario({O: "Meadow"}, {"Amber": O})
    state, events, rolls = play(state, [("Amber", "Traverse Mouth")])
    assert where(state, "Amber") == M
    assert table(state).index(to_axial(*M)) is not None
    assert any(r.draw_id == "generate:(1,0,0)/landmark" for r in rolls)
    assert "move" in kinds(events)


def test_6_2_traverse_to_a_hex_not_adjacent_fails_and_spends_nothing():
    """6.2: an adjacent hex only."""
    state = scenario({O: "Meadow"}, {"Amber": O})
    state, events, _ = play(state, [("Amber", "Traverse (2, 0, 0)")])
    assert failed(events) and where(state, "Amber") == O and ap(state, "Amber") == 2


def test_5_3_1_4_perilous_pass_costs_one_more_ap_to_traverse_from():
    """5.3.1.4: The traverse action costs 1 additional action point to use if the player is on
    a Perilous Pass hex."""
    state = scenario({O: "Perilous Pass", N: "Meadow"}, {"Amber": O})
    state, _, _ = play(state, [("Amber", "Traverse North")])
    assert where(state, "Amber") == N and ap(state, "Amber") == 0


def test_5_3_3_5_boardwalk_cancels_the_pass_cost():
    """5.3.3.5: Any impacts on movement of the hex this feature is placed on do not occur."""
    state = scenario({O: "Perilous Pass", N: "Meadow"}, {"Amber": O},
                     features={O: ("Boardwalk",)})
    state, _, _ = play(state, [("Amber", "Traverse North")])
    assert ap(state, "Amber") == 1


def test_5_3_1_6_a_player_does_not_move_onto_a_lake():
    """5.3.1.6: If a player would move or be moved onto a Lake hex, they do not move."""
    state = scenario({O: "Meadow", N: "Lake"}, {"Amber": O})
    state, events, _ = play(state, [("Amber", "Traverse North")])
    assert where(state, "Amber") == O and "lake" in kinds(events)


def test_5_3_3_5_a_boardwalk_on_a_lake_can_be_walked():
    """5.3.3.5: Can be constructed on all biomes (including lake); movement impacts of its hex
    do not occur."""
    state = scenario({O: "Meadow", N: "Lake"}, {"Amber": O}, features={N: ("Boardwalk",)})
    state, _, _ = play(state, [("Amber", "Traverse North")])
    assert where(state, "Amber") == N


def test_5_3_1_5_leaving_a_swamp_for_another_mass_succeeds_on_15_percent():
    """5.3.1.5: If a player on a swamp hex attempts to move to a different mass, they have a
    15% chance to move."""
    cells = {O: "Swamp", N: "Meadow", S: "Swamp"}
    stuck, events, _ = play(scenario(cells, {"Amber": O}), [("Amber", "Traverse North")],
                            entered={"actions:Amber.1/swamp#0": 16})
    assert where(stuck, "Amber") == O and "stuck" in kinds(events) and ap(stuck, "Amber") == 1
    out, _, _ = play(scenario(cells, {"Amber": O}), [("Amber", "Traverse North")],
                     entered={"actions:Amber.1/swamp#0": 15})
    assert where(out, "Amber") == N
    same, _, rolls = play(scenario(cells, {"Amber": O}), [("Amber", "Traverse South")])
    assert where(same, "Amber") == S and not any("swamp" in r.draw_id for r in rolls)


def test_5_3_1_5_the_hex_attempted_is_generated_even_when_stuck():
    """5.3.1.5: The hex they attempted to move to is generated if indeterminate."""
    state = scenario({O: "Swamp"}, {"Amber": O})
    state, _, _ = play(state, [("Amber", "Traverse North")],
                       entered={"actions:Amber.1/swamp#0": 100})
    assert table(state).index(to_axial(*N)) is not None


def test_5_3_1_2_the_winds_blow_a_player_into_a_random_adjacent_hex_on_20_percent():
    """5.3.1.2: When a player moves into a Deceased Dunes hex, there is a 20% chance that they
    are moved by the buffeting winds into a random adjacent hex (generating it) for no
    additional action point cost."""
    cells = {O: "Meadow", N: "Deceased Dunes"}
    blown, events, _ = play(scenario(cells, {"Amber": O}), [("Amber", "Traverse North")],
                            entered={"actions:Amber.1/dunes#0": 20,
                                     "actions:Amber.1/wind": "North"})
    assert where(blown, "Amber") == (0, 0, 2) and ap(blown, "Amber") == 1
    calm, _, _ = play(scenario(cells, {"Amber": O}), [("Amber", "Traverse North")],
                      entered={"actions:Amber.1/dunes#0": 21})
    assert where(calm, "Amber") == N


def test_5_3_1_2_blown_towards_a_lake_the_player_stays():
    """5.3.1.2 with 5.3.1.6: moved onto a Lake hex, they do not move."""
    cells = {O: "Meadow", N: "Deceased Dunes", (0, 0, 2): "Lake"}
    state, _, _ = play(scenario(cells, {"Amber": O}), [("Amber", "Traverse North")],
                       entered={"actions:Amber.1/dunes#0": 1, "actions:Amber.1/wind": "North"})
    assert where(state, "Amber") == N


def test_5_3_3_1_moving_onto_a_corrupted_hex_corrupts_the_hex_left():
    """5.3.3.1: When a player moves to a corrupted hex, the hex they moved from is corrupted
    if not already; its landmark is set to barren and its features removed."""
    state = scenario({O: "Meadow", N: "Meadow"}, {"Amber": O}, corrupted={N},
                     landmarks={O: "Town"}, features={O: ("Flag",)}, flags={O: "Amber"})
    state, events, _ = play(state, [("Amber", "Traverse North")])
    t = table(state)
    assert t.corrupted(to_axial(*O)) and t.landmark(to_axial(*O)) == "Barren"
    assert t.features(to_axial(*O)) == () and not t.flags
    assert "corruption" in kinds(events)


def test_5_3_3_3_a_pylon_keeps_itself_and_its_neighbours_clean():
    """5.3.3.3: Any adjacent hex and the hex of the pylon of purity cannot be corrupted.
    Attempts to do so fail."""
    state = scenario({O: "Meadow", N: "Meadow", M: "Meadow"}, {"Amber": O}, corrupted={N},
                     features={M: ("Pylon of Purity",)})
    state, _, _ = play(state, [("Amber", "Traverse North")])
    assert not table(state).corrupted(to_axial(*O))


def test_6_1_scout_generates_two_adjacent_hexes():
    """6.1: Select two hexes adjacent to your location and generate them if indeterminate."""
    state = scenario({O: "Meadow"}, {"Amber": O})
    state, _, _ = play(state, [("Amber", "Scout North and Ashe")])
    t = table(state)
    assert t.index(to_axial(*N)) is not None and t.index(to_axial(*A)) is not None
    assert ap(state, "Amber") == 1 and where(state, "Amber") == O
    seen = state["seen"].filter(state["seen"]["player"] == "Amber")
    assert seen.height == 2  # the origin is not in this scenario's record; the two scouted


def test_7_4_2_binoculars_reach_two_hexes():
    """7.4.2: If you use the scout action, you may target a hex within two hexes."""
    far = "Scout (0, 0, 2)"
    state, events, _ = play(scenario({O: "Meadow"}, {"Amber": O}), [("Amber", far)])
    assert failed(events)
    state, events, _ = play(scenario({O: "Meadow"}, {"Amber": O},
                                     items={"Amber": {"Binoculars": 1}}), [("Amber", far)])
    assert not failed(events) and table(state).index(to_axial(0, 0, 2)) is not None


def test_5_3_3_4_stagways_teleport_and_end_the_phase():
    """5.3.3.4: A player on a stag station may travel to any hex with a stag station. This does
    not act as moving into that hex. They cannot perform any more actions for the phase."""
    far = (5, 0, 0)
    cells = {O: "Meadow", N: "Meadow", far: "Meadow"}
    state = scenario(cells, {"Amber": O}, features={O: ("Stag Station",),
                                                    far: ("Stag Station",)})
    state, events, _ = play(state, [("Amber", "Stag to (5, 0, 0)"), ("Amber", "Forage")])
    assert where(state, "Amber") == far
    assert len(failed(events)) == 1 and "stagways" in failed(events)[0]
    state, events, _ = play(state, [("Amber", "Traverse Weast")],
                            at=MONDAY + timedelta(days=3))
    assert not failed(events)
