"""The ledger (3.1), factions (2.1) and victory (8)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from tests.aeternus.scenario import MONDAY, failed, play, rules, scenario, table

from gmkit.rulesets.aeternus import Aeternus
from gmkit.rulesets.aeternus.coords import to_axial
from gmkit.rulesets.aeternus.ledger import mark_edited

O = (0, 0, 0)
LATE = "2025-12-01T00:00:00+00:00"
FIVE = ("Amber", "Birch", "Cedar", "Dune", "Elm")


def _five(**kw):
    return scenario({O: "Meadow"}, {p: O for p in FIVE}, **kw)


def find_outcome(state):
    return Aeternus().outcome(state, rules())


def _status(state, pid=1):
    row = state["proposals"].filter(state["proposals"]["id"] == pid).row(0, named=True)
    return row["status"], row["votes_for"], row["votes_against"]


def test_3_1_2_a_standard_proposal_is_voted_in_the_next_phase_and_needs_more_for():
    """3.1.2: The voting period for a standard proposal is the phase that started after the
    proposal was submitted. A standard proposal is popular if it has more votes in favor than
    votes against."""
    state, _, _ = play(_five(), [("Amber", "Propose: set fish_percent = 75")])
    row = state["proposals"].row(0, named=True)
    assert row["ends"] == "2026-01-11T00:00:00+00:00"  # phase II of the week ends Sunday
    thursday = MONDAY + timedelta(days=3)
    state, _, _ = play(state, [("Birch", "Vote for 1"), ("Cedar", "Vote against 1")],
                       at=thursday)
    assert _status(state)[0] == "open"
    state, events, _ = play(state, [("Amber", "Vote for 1"), ("Dune", "Forage")],
                            at=thursday + timedelta(days=1))
    state, events, _ = play(state, [("Elm", "Forage")], at=datetime(2026, 1, 11, 1,
                                                                     tzinfo=timezone.utc))
    assert _status(state) == ("accepted", 2, 1)
    assert state["rule_changes"].rows() == [(1, "fish_percent", "75", 2)]


def test_3_1_an_accepted_proposal_sets_the_rule_it_names():
    """3.1: a popular proposal takes effect: its 'set RULE = VALUE' line, naming a rule of the
    rules table with a value it takes, is enacted (recorded with the batch, in force at once
    and in the batches after); a line naming no rule stays a note in the ledger."""
    from gmkit.core.parts import RuleChange

    before, _, _ = play(_five(), [("Amber", "Propose: set fish_percent = 75"),
                                  ("Birch", "Propose: set moon_phase = full")])
    state = before
    thursday = MONDAY + timedelta(days=3)
    state, _, _ = play(state, [("Birch", "Vote for 1"), ("Cedar", "Vote for 2")], at=thursday)
    state, _, _ = play(state, [("Elm", "Forage")], at=datetime(2026, 1, 11, 1,
                                                               tzinfo=timezone.utc))
    enacted = Aeternus().enacted(before, state, rules())
    assert enacted == [RuleChange("fish_percent", 75, "proposal 1 accepted", at_once=True)]
    assert Aeternus().enacted(state, state, rules()) == []  # once, in the batch it passed


def test_3_1_a_rule_takes_effect_at_the_end_of_the_voting_period_within_a_batch():
    """3.1: "At the end of its voting period, a proposal takes effect": in a batch whose actions
    straddle that moment, an action posted before it is resolved under the old rule and one
    posted after under the new, and the change is recorded for the batches after."""
    state, _, _ = play(_five(), [("Amber", "Propose urgent: set cost_forage = 2")])
    ends = MONDAY + timedelta(days=2)
    # Dune forages a minute before the end, Elm at the end: one batch
    state, events, _ = play(state, [("Dune", "Forage"), ("Elm", "Forage")],
                            at=ends - timedelta(minutes=1))
    ap = dict(state["players"].select("id", "ap").iter_rows())
    assert (ap["Dune"], ap["Elm"]) == (1, 0)  # 2 AP each: forage cost 1, then 2
    texts = [e.text for e in events]
    took = next(i for i, t in enumerate(texts) if "takes effect" in t)
    assert "cost_forage = 2" in texts[took]
    assert any("Dune" in t for t in texts[:took]) and any("Elm" in t for t in texts[took:])


def test_3_1_a_tie_is_not_popular_for_a_standard_proposal():
    """3.1.2: more votes in favor than against."""
    state, _, _ = play(_five(), [("Amber", "Propose: a note"), ("Birch", "Vote for 1"),
                                 ("Cedar", "Vote against 1")])
    state, _, _ = play(state, [("Elm", "Forage")], at=MONDAY + timedelta(days=7))
    assert _status(state) == ("rejected", 1, 1)


def test_3_1_an_unclear_vote_counts_against_and_the_latest_reaction_counts():
    """3.1: If a person's vote is unclear (excluding abstentions), it is considered to be
    against; a reaction counts as it stands when the voting period ends."""
    state, _, _ = play(_five(), [("Amber", "Propose: a note"), ("Birch", "Vote for 1"),
                                 ("Cedar", "Vote both 1"), ("Dune", "Vote against 1"),
                                 ("Dune", "Vote for 1")])
    state, _, _ = play(state, [("Elm", "Forage")], at=MONDAY + timedelta(days=7))
    # Birch for, Dune for (their latest), Cedar unclear = against
    assert _status(state) == ("accepted", 2, 1)


def test_3_1_1_urgent_proposal_ends_two_days_after_and_allows_two_against():
    """3.1.1: The voting period of an urgent proposal begins when it is submitted and ends two
    days after. An urgent proposal is popular if it has no more than two votes against it."""
    state, _, _ = play(_five(), [("Amber", "Propose urgent: fix the map"),
                                 ("Birch", "Vote against 1"), ("Cedar", "Vote against 1")])
    ends = MONDAY + timedelta(days=2)
    # a vote at the very end of the period is too late
    state, events, _ = play(state, [("Dune", "Vote against 1")], at=ends)
    assert failed(events)
    assert _status(state) == ("accepted", 0, 2)


def test_3_1_1_three_against_an_urgent_proposal_reject_it():
    """3.1.1: no more than two votes against."""
    state, _, _ = play(_five(), [("Amber", "Propose urgent: fix"), ("Birch", "Vote against 1"),
                                 ("Cedar", "Vote against 1"), ("Dune", "Vote against 1")])
    state, _, _ = play(state, [("Elm", "Forage")], at=MONDAY + timedelta(days=2))
    assert _status(state) == ("rejected", 0, 3)


def test_3_1_1_only_a_reputable_player_submits_an_urgent_proposal():
    """3.1.1: only a reputable player can submit an urgent proposal."""
    state = _five(joined={"Amber": "2026-01-05T09:00:00+00:00"}, cycle_start=LATE)
    _, events, _ = play(state, [("Amber", "Propose urgent: fix")], cycle_start=LATE)
    assert failed(events)


def test_3_1_an_edited_proposal_does_not_take_effect():
    """3.1: a proposal takes effect if popular and the message in which it was submitted has
    been neither deleted nor edited."""
    state, _, _ = play(_five(), [("Amber", "Propose urgent: fix")])
    t = table(state)
    mark_edited(t, 1)
    state, _, _ = play(t.state(1), [("Elm", "Forage")], at=MONDAY + timedelta(days=3))
    assert _status(state)[0] == "void"


def test_3_1_proposals_ending_together_take_effect_in_creation_order():
    """3.1: If more than one proposal would take effect simultaneously, they take effect in the
    order in which they were created."""
    state, _, _ = play(_five(), [("Birch", "Propose: set fish_percent = 60"),
                                 ("Amber", "Propose: set fish_percent = 90"),
                                 ("Cedar", "Vote for 1"), ("Cedar", "Vote for 2")])
    state, _, _ = play(state, [("Elm", "Forage")], at=MONDAY + timedelta(days=7))
    assert [r[:3] for r in state["rule_changes"].rows()] == [
        (1, "fish_percent", "60"), (2, "fish_percent", "90")]


def test_2_1_1_a_merge_is_accepted_by_the_members_and_takes_the_flags():
    """2.1.1: voted upon only by players of the concerned factions; accepted with more
    affirmative votes than against; all flags of either faction are the new faction's."""
    state = _five(features={O: ("Flag",)}, flags={O: "Birch"})
    state, events, _ = play(state, [("Amber", "Request merge with Birch as Stags"),
                                    ("Cedar", "Vote for merge 1"),
                                    ("Amber", "Vote for merge 1"),
                                    ("Birch", "Vote for merge 1")])
    assert len(failed(events)) == 1  # Cedar is not a member
    factions = dict(state["players"].select("id", "faction").rows())
    assert factions["Amber"] == factions["Birch"] == "Stags"
    assert table(state).flags == {(0, 0): "Stags"}


def test_2_1_2_the_last_member_leaving_deletes_the_faction_and_its_flags():
    """2.1.2: A player may leave a faction, creating a new faction with their own name. If
    there would be no members of the old faction, it is deleted and its flags destroyed."""
    state = _five(features={O: ("Flag",)}, flags={O: "Stags"})
    t = table(state)
    t.players["Amber"]["faction"] = "Stags"
    state, events, _ = play(t.state(0), [("Amber", "Leave faction")])
    assert not table(state).flags and "Flag" not in table(state).features((0, 0))


def test_8_victory_needs_ten_hexes_and_twice_any_other_influence():
    """8: The first faction to occupy at least 10 hexes and have at least twice the influence
    of any other influential faction wins the cycle."""
    cells = {(k, 0, 0): "Meadow" for k in range(14)}
    flags = {(k, 0, 0): "Amber" for k in range(10)}
    flags.update({(k, 0, 0): "Birch" for k in range(10, 13)})
    state = scenario(cells, {"Amber": O, "Birch": O}, flags=flags)
    outcome = find_outcome(state)
    assert outcome is not None and outcome.winners == ("Amber",)
    flags[(13, 0, 0)] = "Birch"
    flags[(9, 0, 0)] = "Birch"  # Amber 9 hexes
    assert find_outcome(scenario(cells, {"Amber": O, "Birch": O}, flags=flags)) is None
    flags[(9, 0, 0)] = "Amber"  # 10 against 5: exactly twice
    assert find_outcome(scenario(cells, {"Amber": O, "Birch": O}, flags=flags)) is not None
    flags[(0, 0, 0)] = "Birch"
    assert find_outcome(scenario(cells, {"Amber": O, "Birch": O}, flags=flags)) is None


def test_8_after_victory_no_action_takes_place():
    """8: The cycle then ends."""
    cells = {(k, 0, 0): "Meadow" for k in range(10)}
    state = scenario(cells, {"Amber": O}, flags={c: "Amber" for c in cells})
    state, events, _ = play(state, [("Amber", "Forage")])
    assert [e.kind for e in events if e.player == "Amber"] == ["void"]
    assert to_axial(0, 0, 0) == (0, 0)


def test_3_1_a_rule_whose_voting_ended_between_batches_holds_for_the_whole_next_batch():
    """3.1: a proposal whose voting period ended before a batch's first action takes effect
    before that action: every action of the batch resolves under the new rule."""
    state, _, _ = play(_five(), [("Amber", "Propose urgent: set cost_forage = 2")])
    ends = MONDAY + timedelta(days=2)
    state, events, _ = play(state, [("Dune", "Forage"), ("Elm", "Forage")],
                            at=ends + timedelta(minutes=1))
    ap = dict(state["players"].select("id", "ap").iter_rows())
    assert (ap["Dune"], ap["Elm"]) == (0, 0)
    assert "takes effect" in events[0].text
