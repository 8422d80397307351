"""Fishing (6.3) and fish (7.3): the catch, the medallion chance, each of the fifteen medallion
conditions, quality, naming, and the rods (7.4.3)."""

from __future__ import annotations

import pytest

from tests.aeternus.scenario import failed, play, scenario, table

from gmkit.rulesets.aeternus.coords import to_axial
from gmkit.rulesets.aeternus.fishing import medallion_conditions
from gmkit.rulesets.aeternus.rules import MEDALLION_FISH

O = (0, 0, 0)
N = (0, 0, 1)
A = (0, 1, 0)
M = (1, 0, 0)
S = (0, 0, -1)
Z = (0, -1, 0)
W = (-1, 0, 0)
AWAY = (3, 0, 3)  # a hex off every axis through the origin, with its ring
RING = [(3, 0, 4), (3, 1, 3), (4, 0, 3), (3, 0, 2), (2, 0, 3), (2, 0, 4)]


def eligible(state, player="Amber", target=N, here=O, rod=None):
    t = table(state)
    return medallion_conditions(t, player, to_axial(*here), to_axial(*target), rod)


def _lake(**kw):
    """A Meadow origin with a lone Lake to its North."""
    return scenario({O: "Meadow", N: "Lake", **kw.pop("cells", {})}, kw.pop("players",
                    {"Amber": O}), **kw)


#: For each medallion fish, a scenario where its condition holds (7.3.2), the target fished
#: into and the fisher's hex.
def _holds(fish: str):
    if fish == "Goldfish":
        return _lake(), N, O, None
    if fish in ("Blue Whale", "Megalodon"):
        n = 5 if fish == "Blue Whale" else 19
        cells = {O: "Meadow", **{(0, 0, k): "Lake" for k in range(1, n + 1)}}
        return scenario(cells, {"Amber": O}), N, O, None
    if fish == "Pefisula":
        cells = {O: "Meadow", N: "Lake", A: "Lake", M: "Lake", S: "Lake", Z: "Lake",
                 W: "Meadow"}
        return scenario(cells, {"Amber": O}), N, O, None
    if fish == "Carcharias":
        return scenario({O: "Deceased Dunes", N: "Lake"}, {"Amber": O}), N, O, None
    if fish == "Flying Fish":
        return scenario({O: "Perilous Pass", N: "Lake"}, {"Amber": O}), N, O, None
    if fish == "Gudgeon":
        return scenario({O: "Forest", N: "Lake"}, {"Amber": O}), N, O, None
    if fish == "Mudskipper":
        return scenario({O: "Swamp", N: "Lake"}, {"Amber": O}), N, O, None
    if fish == "Fishy Fish":
        return scenario({O: "Lake"}, {"Amber": O}), O, O, None
    if fish == "SvGCMkWr_zQ":
        return _lake(corrupted={N}), N, O, None
    if fish == "Civilised Fish":
        return _lake(landmarks={O: "Town"}), N, O, None
    if fish == "Napoleon Fish":
        return _lake(flags={O: "Birch"}, features={O: ("Flag",)},
                     players={"Amber": O, "Birch": M}), N, O, None
    if fish == "Student Fish":
        return _lake(players={"Amber": O, "Birch": O}), N, O, None
    if fish == "Vanille":
        return _lake(), N, O, None
    if fish == "Aligned Fish":
        return _lake(), N, O, "Standard Rod"
    raise AssertionError(fish)


def _fails(fish: str):
    """The same kind of scenario where the condition does not hold."""
    away = {AWAY: "Meadow", **{h: "Meadow" for h in RING}}
    if fish == "Goldfish":
        return _lake(cells={(0, 0, 2): "Lake"}), N, O, None
    if fish in ("Blue Whale", "Megalodon"):
        n = 4 if fish == "Blue Whale" else 18
        cells = {O: "Meadow", **{(0, 0, k): "Lake" for k in range(1, n + 1)}}
        return scenario(cells, {"Amber": O}), N, O, None
    if fish == "Pefisula":
        cells = {O: "Meadow", N: "Lake", A: "Lake", M: "Lake", S: "Lake"}
        return scenario(cells, {"Amber": O}), N, O, None
    if fish in ("Carcharias", "Flying Fish", "Gudgeon", "Mudskipper", "Fishy Fish",
                "SvGCMkWr_zQ", "Civilised Fish", "Student Fish"):
        return _lake(), N, O, None
    if fish == "Napoleon Fish":
        return _lake(flags={O: "Amber"}, features={O: ("Flag",)}), N, O, None
    if fish == "Vanille":
        return _lake(), N, O, "Standard Rod"
    if fish == "Aligned Fish":
        cells = {O: "Meadow", **away, (3, 0, 4): "Lake"}
        return scenario(cells, {"Amber": AWAY}), (3, 0, 4), AWAY, None
    raise AssertionError(fish)


@pytest.mark.parametrize("fish", MEDALLION_FISH)
def test_7_3_2_medallion_condition(fish):
    """7.3.2: Each type of medallion fish has a set of conditions required for it to be
    possible to be caught when fishing (the table of fifteen conditions)."""
    state, target, here, rod = _holds(fish)
    assert fish in eligible(state, target=target, here=here, rod=rod)
    state, target, here, rod = _fails(fish)
    assert fish not in eligible(state, target=target, here=here, rod=rod)


def test_6_3_fishing_needs_a_lake_on_or_next_to_ones_hex():
    """6.3: A player may only fish if they are adjacent to or on a lake biome hex."""
    state, events, _ = play(scenario({O: "Meadow", N: "Meadow"}, {"Amber": O}),
                            [("Amber", "Fish")])
    assert failed(events)


def test_6_3_a_miss_on_71_with_no_rod():
    """6.3: a base 70% chance of catching a fish."""
    state, events, _ = play(_lake(), [("Amber", "Fish")],
                            entered={"actions:Amber.1/catch#0": 71})
    assert state["fish"].is_empty()
    state, events, _ = play(_lake(), [("Amber", "Fish")],
                            entered={"actions:Amber.1/catch#0": 70,
                                     "actions:Amber.1/medallion#0": 100,
                                     "actions:Amber.1/kind": "Trout"})
    assert state["fish"].rows() == [("Amber", "Trout", 0, 1)]


def test_7_3_medallion_chance_is_10_percent_per_eligible_fish_up_to_40():
    """7.3: The chance of catching a Medallion Fish is 0% + 10% for every Medallion Fish that
    the player is currently eligible to catch, capping at 40%."""
    # Goldfish, Vanille and Aligned Fish: 30%
    state = _lake()
    assert eligible(state) == ["Goldfish", "Vanille", "Aligned Fish"]
    _, _, rolls = play(state, [("Amber", "Fish")], entered={"actions:Amber.1/catch#0": 1,
                                                           "actions:Amber.1/medallion#0": 31})
    [medal] = [r for r in rolls if r.draw_id.endswith("medallion#0")]
    assert "30%" in medal.purpose
    # a Town, a corrupt lake, another player, a forest: capped at 40%
    crowded = scenario({O: "Forest", N: "Lake"}, {"Amber": O, "Birch": O},
                       landmarks={O: "Town"}, corrupted={N})
    _, _, rolls = play(crowded, [("Amber", "Fish")],
                       entered={"actions:Amber.1/catch#0": 1,
                                "actions:Amber.1/medallion#0": 41})
    [medal] = [r for r in rolls if r.draw_id.endswith("medallion#0")]
    assert "40%" in medal.purpose


def test_7_3_2_1_quality_is_the_number_of_d2_rolls_until_a_1():
    """7.3.2.1: its quality is calculated by repeatedly rolling d2 until the result is 1, with
    the number of rolls being the quality."""
    state, events, _ = play(_lake(), [("Amber", "Fish")], entered={
        "actions:Amber.1/catch#0": 1, "actions:Amber.1/medallion#0": 1,
        "actions:Amber.1/kind": "Goldfish", "actions:Amber.1/quality1#0": 2,
        "actions:Amber.1/quality2#0": 2, "actions:Amber.1/quality3#0": 1})
    assert state["fish"].rows() == [("Amber", "Goldfish", 3, 1)]


def test_7_3_2_1_a_higher_quality_than_named_must_have_the_qualities_below_named():
    """7.3.2.1: If someone catches a higher quality medallion fish than the one currently
    named, they must name all the unnamed qualities below the quality of fish they caught."""
    rolls = {f"actions:Amber.1/quality{k}#0": 2 for k in range(1, 9)}
    rolls["actions:Amber.1/quality9#0"] = 1
    state, events, _ = play(_lake(), [("Amber", "Fish")], entered={
        "actions:Amber.1/catch#0": 1, "actions:Amber.1/medallion#0": 1,
        "actions:Amber.1/kind": "Goldfish", **rolls})
    [naming] = [e for e in events if e.kind == "naming"]
    assert naming.data["unnamed"] == [8]
    state, events, _ = play(state, [("Amber", "Name quality 8 Diamond")])
    assert table(state).qualities[8] == ("Diamond", "Amber")
    state, events, _ = play(state, [("Amber", "Name quality 9 Nope")])
    assert failed(events)


def test_7_4_3_5_midas_rod_catches_on_20_percent_a_medallion_of_quality_4_or_more():
    """7.4.3.5: Reduces the odds of catching a fish to 20%, but a fish caught with it is always
    a Medallion Fish of quality 4 or higher if they are eligible."""
    state = _lake(items={"Amber": {"Midas' Rod": 1}})
    missed, _, _ = play(state, [("Amber", "Fish with Midas' Rod")],
                        entered={"actions:Amber.1/catch#0": 21})
    assert missed["fish"].is_empty()
    caught, _, rolls = play(state, [("Amber", "Fish with Midas")], entered={
        "actions:Amber.1/catch#0": 20, "actions:Amber.1/kind": "Goldfish",
        "actions:Amber.1/quality1#0": 1})
    assert caught["fish"].rows() == [("Amber", "Goldfish", 4, 1)]
    assert not any(r.draw_id.endswith("medallion#0") for r in rolls)


def test_7_4_3_4_classic_rod_adds_25_percent_and_catches_no_medallion():
    """7.4.3.4: increases the odds by 25% additively, but cannot be used to catch Medallion
    Fish."""
    state = _lake(items={"Amber": {"Classic Rod": 1}})
    caught, _, rolls = play(state, [("Amber", "Fish with Classic Rod")], entered={
        "actions:Amber.1/catch#0": 95, "actions:Amber.1/kind": "Eel"})
    assert caught["fish"].rows() == [("Amber", "Eel", 0, 1)]
    assert not any(r.draw_id.endswith("medallion#0") for r in rolls)


def test_6_3_a_rod_must_be_in_the_inventory():
    """6.3: They may use any fishing rod in their inventory."""
    state, events, _ = play(_lake(), [("Amber", "Fish with Advanced Rod")])
    assert failed(events)
