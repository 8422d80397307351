"""The Judge (3.2): rulings, overturning by the Judge, votes of confidence, removal and
elections."""

from __future__ import annotations

from datetime import timedelta

from tests.aeternus.scenario import MONDAY, failed, play, scenario

O = (0, 0, 0)
FOUR = ("Amber", "Birch", "Cedar", "Dune")


def _court(**kw):
    return scenario({O: "Meadow"}, {p: O for p in FOUR}, first_judge="Amber", **kw)


def _go(state, lines, days=0.0, **kw):
    return play(state, lines, at=MONDAY + timedelta(days=days), first_judge="Amber", **kw)


def _ruling(state):
    return state["rulings"].row(0, named=True)


def test_3_2_the_judge_answers_a_request_by_another_person():
    """3.2: Upon formal submission of a request for justice by a person other than themself,
    the Judge shall issue a response."""
    state, events, _ = _go(_court(), [("Birch", "Request: Is a boardwalk a feature?"),
                                      ("Amber", "Ruling on 1: yes"),
                                      ("Amber", "Request: am I right?"),
                                      ("Amber", "Ruling on 2: yes"),
                                      ("Cedar", "Ruling on 1: no")])
    assert _ruling(state)["text"] == "yes" and state["rulings"].height == 1
    assert len(failed(events)) == 2


def test_3_2_the_judge_may_overturn_their_ruling_within_one_week():
    """3.2: A ruling may be overturned by the Judge who made it within one week; the Judge
    shall then issue a new ruling on the initial request."""
    state, _, _ = _go(_court(), [("Birch", "Request: x?"), ("Amber", "Ruling on 1: yes")])
    late, events, _ = _go(state, [("Amber", "Overturn ruling 1")], days=7.1)
    assert failed(events)
    state, events, _ = _go(state, [("Amber", "Overturn ruling 1"),
                                   ("Amber", "Ruling on 1: no")], days=6.9)
    assert state["rulings"]["status"].to_list() == ["overturned", "standing"]


def test_3_2_confidence_vote_overturns_only_with_strictly_more_and_unclear_affirms():
    """3.2: Within 4 days of a ruling a vote of confidence can be initiated; votes for 2 days;
    an unclear vote affirms; overturned if strictly more vote to overturn than to affirm."""
    state, _, _ = _go(_court(), [("Birch", "Request: x?"), ("Amber", "Ruling on 1: yes")])
    _, events, _ = _go(state, [("Birch", "Call confidence vote on ruling 1")], days=4.1)
    assert failed(events)
    state, _, _ = _go(state, [("Birch", "Call confidence vote on ruling 1"),
                              ("Birch", "Vote overturn confidence 1"),
                              ("Cedar", "Vote overturn confidence 1"),
                              ("Dune", "Vote both confidence 1"),
                              ("Amber", "Vote affirm confidence 1")], days=1)
    # the vote closes two days later: 2 to overturn, 2 to affirm (one unclear): it stands
    state, _, _ = _go(state, [("Amber", "Forage")], days=3.5)
    assert state["confidence"].row(0, named=True)["status"] == "affirmed"
    assert _ruling(state)["status"] == "standing"


def test_3_2_a_confidence_vote_with_more_to_overturn_overturns():
    """3.2: A ruling is overturned if strictly more players vote in favor of overturning."""
    state, _, _ = _go(_court(), [("Birch", "Request: x?"), ("Amber", "Ruling on 1: yes"),
                                 ("Birch", "Call confidence vote on ruling 1"),
                                 ("Birch", "Vote overturn confidence 1"),
                                 ("Cedar", "Vote overturn confidence 1"),
                                 ("Amber", "Vote affirm confidence 1")])
    state, _, _ = _go(state, [("Amber", "Forage")], days=2.5)
    assert _ruling(state)["status"] == "overturned"


def test_3_2_two_players_remove_the_judge():
    """3.2: An incumbent Judge can be removed with the assent of two players."""
    state, _, _ = _go(_court(), [("Birch", "Remove the Judge")])
    assert state["judge"]["judge"].to_list() == ["Amber"]
    state, _, _ = _go(state, [("Cedar", "Remove the Judge")])
    assert state["judge"]["judge"].to_list() == [None]


def test_3_2_the_popular_candidate_with_most_thumbs_up_becomes_judge_at_the_weeks_end():
    """3.2: the player whose message is both popular and has the most 👍 reactions from
    players becomes the Judge once that week ends; ties to the earliest message."""
    state, _, _ = _go(_court(), [("Birch", "Stand for Judge"), ("Cedar", "Stand for Judge"),
                                 ("Amber", "Vote for candidacy 1"),
                                 ("Dune", "Vote for candidacy 2"),
                                 ("Amber", "Vote for candidacy 2"),
                                 ("Birch", "Vote for candidacy 1")])
    assert state["judge"]["judge"].to_list() == ["Amber"]
    state, _, _ = _go(state, [("Dune", "Forage")], days=7)
    assert state["judge"]["judge"].to_list() == ["Birch"]  # tie 2-2: the earlier candidacy


def test_3_2_without_candidacies_the_incumbent_stays():
    """3.2: If no judge candidacies are put forward during a week, the incumbent judge retains
    their position."""
    state, _, _ = _go(_court(), [("Dune", "Forage")], days=14)
    assert state["judge"]["judge"].to_list() == ["Amber"]
