"""Pyramid Power Wars, RESOURCES (Serfs, Priests) and PYRAMIDS (Staffing): a post's assignments
act together, priests staff a pyramid up to its stone cost and idle priests stay idle, and an
order void when the round reaches it is told to its player. Each docstring quotes the rule."""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest

from gmkit.core.dice import Dice
from gmkit.core.envelope import Envelope, Orders
from gmkit.core.steps import Driver
from gmkit.core.views import sees_event
from gmkit.rulesets.pyramid.drawing import order_arrows
from gmkit.rulesets.pyramid.orders import parse
from gmkit.rulesets.pyramid.steps import steps_for
from tests.pyramid.helpers import SEED, after, events, make, play, player, reasons, rules


def _serfs(state: Any) -> dict[str, int]:
    return dict(state["spaces"].select("name", "serfs").iter_rows())


def _priests(state: Any, pid: str) -> dict[int, int]:
    return dict(state["pyramids"].filter(pl.col("player") == pid)
                .select("number", "priests").iter_rows())


@pytest.mark.parametrize("post", ["3 serfs to A\n0 serfs to B", "0 serfs to B\n3 serfs to A"])
def test_resources_serfs_assignments_in_one_post_act_together(post: str) -> None:
    """RESOURCES: "Allocation is limited by available LAND": '3 serfs to Palm Grove' with '0
    serfs to Bull Pasture' gives the same result in either order; the post is checked against
    the allocation once all its lines apply."""
    s = make(holders={"A": "Red", "B": "Red"}, serfs_at={"B": 3})
    assert reasons(s, {"Red": post}) == []
    d = play(s, {"Red": post})
    assert {k: v for k, v in _serfs(after(d, "assign")).items() if k in "AB"} == {"A": 3, "B": 0}
    assert events(d, "skipped") == [] and events(d, "void") == []


def test_resources_serfs_a_post_that_cannot_fit_is_refused_by_line_in_any_order() -> None:
    """RESOURCES: "Allocation is limited by available LAND": 2 + 2 serfs of 3 do not fit;
    every line that raises a land's serfs is refused at validation, naming its line, whatever
    the order of the lines."""
    s = make(holders={"A": "Red", "B": "Red", "C": "Red"}, serfs_at={"C": 3})
    one = reasons(s, {"Red": "2 serfs to A\n2 serfs to B\n0 serfs to C"})
    two = reasons(s, {"Red": "0 serfs to C\n2 serfs to B\n2 serfs to A"})
    assert [r.split(":")[0] for r in one] == ["line 1", "line 2"]
    assert [r.split(":")[0] for r in two] == ["line 2", "line 3"]
    assert all("brings the serfs at work to 4, but Red has 3" in r for r in one + two)


@pytest.mark.parametrize("post", ["3 priests to pyramid 2\n0 priests to pyramid 1",
                                  "0 priests to pyramid 1\n3 priests to pyramid 2"])
def test_resources_priests_assignments_in_one_post_act_together(post: str) -> None:
    """RESOURCES: "A unit of PRIESTS allows use of ... a fifth of a WAR PYRAMID ... Allocation
    is limited by available PYRAMIDS": priests moved from one pyramid to another in one post,
    in either order."""
    s = make(holders={"A": "Red"}, pyramids=[("Red", "battle", "A", True, 2),
                                             ("Red", "war", "A", True, 0)],
             players={"Red": {"priests": 3}})
    d = play(s, {"Red": post})
    assert _priests(after(d, "assign"), "Red") == {1: 0, 2: 3}


@pytest.mark.parametrize("line_numbers", ["across_posts", "each_post"])
def test_resources_priests_assignments_in_two_posts_each_staff_their_own_pyramid(
        line_numbers: str) -> None:
    """RESOURCES: priests moved from one pyramid to another in two posts, each order the first
    line of its post: under ``line_numbers = across_posts`` each order keeps its own number
    through every step, so each staffs the pyramid it names; under ``each_post`` (versions 1
    and 2) the two share line 1, as gmkit first read them."""
    s = make(holders={"A": "Red"}, pyramids=[("Red", "battle", "A", True, 2),
                                             ("Red", "war", "A", True, 0)],
             players={"Red": {"priests": 3}})
    params = rules(line_numbers=line_numbers)
    sent = [Envelope(order, "Red", post, 1, number=number) for post, number, text in
            [(1, 1, "3 priests to pyramid 2"), (2, 2, "0 priests to pyramid 1")]
            for _, order in parse(text, s).orders]
    d = Driver(steps_for(params), s, Orders(sent), Dice(SEED, 1), params)
    d.run_all()
    staffed = _priests(after(d, "assign"), "Red")
    if line_numbers == "across_posts":
        assert staffed == {1: 0, 2: 3}
    else:
        assert staffed != {1: 0, 2: 3}, "the old reading confuses the two lines 1"


def test_pyramids_a_pyramid_never_takes_more_priests_than_its_stone_cost() -> None:
    """PYRAMIDS: "a PYRAMID must be staffed by a number of PRIESTS equal to its construction
    cost in STONE": a battle pyramid (2 stone) refuses a third priest."""
    s = make(holders={"A": "Red"}, pyramids=[("Red", "battle", "A", True, 0)],
             players={"Red": {"priests": 5}})
    assert reasons(s, {"Red": "3 priests to pyramid 1"}) == [
        "line 1: a battle pyramid takes at most 2 priests"]


def test_resources_priests_idle_priests_stay_idle_at_the_rounds_end() -> None:
    """RESOURCES: priests allow use of pyramids; a pyramid is staffed by as many as its stone
    cost and never takes more: the upkeep leaves 4 idle priests idle (a staffed scout pyramid
    keeps its 1)."""
    s = make(holders={"A": "Red"}, serfs_at={"A": 2}, pyramids=[("Red", "scout", "A")],
             players={"Red": {"priests": 5}})
    d = play(s, {"Red": "excess food: 1 serfs"})
    assert _priests(d.state, "Red") == {1: 1}
    assert player(d.state, "Red")["priests"] >= 5


def test_option_idle_priests_legacy_first_pyramid_reproduces_the_first_upkeep() -> None:
    """``idle_priests = legacy_first_pyramid``: what gmkit's first upkeep did (the first staffed
    pyramid took every idle priest), kept to resolve games recorded with it."""
    s = make(holders={"A": "Red"}, serfs_at={"A": 2}, pyramids=[("Red", "scout", "A")],
             players={"Red": {"priests": 5}})
    d = play(s, {"Red": "excess food: 1 serfs"}, rules(idle_priests="legacy_first_pyramid"))
    assert _priests(d.state, "Red") == {1: 5}


def test_pyramids_a_player_with_enough_priests_staffs_a_second_pyramid_in_a_later_round() -> None:
    """PYRAMIDS: a second pyramid is staffed once the player has the priests: round 1 keeps 3
    idle priests idle, round 2 puts 2 of them on the battle pyramid."""
    s = make(holders={"A": "Red"}, serfs_at={"A": 2},
             pyramids=[("Red", "scout", "A"), ("Red", "battle", "A", True, 0)],
             players={"Red": {"priests": 4}})
    d1 = play(s, {"Red": "excess food: 1 serfs"})
    assert _priests(d1.state, "Red") == {1: 1, 2: 0}
    d2 = play(d1.state, {"Red": "2 priests to pyramid 2"})
    assert _priests(after(d2, "assign"), "Red") == {1: 1, 2: 2}


def test_pyramids_a_pyramid_short_of_priests_can_neither_move_nor_fight() -> None:
    """PYRAMIDS: "A PYRAMID which lacks sufficient PRIESTS cannot move or fight": the order to
    move it is refused; in a contest it does not count."""
    s = make(holders={"A": "Red", "B": "Blue"}, nobles=[("Red", "Khufu", "A")],
             troops={("Red", "A"): 1, ("Blue", "B"): 2},
             pyramids=[("Red", "war", "A", True, 4)], players={"Red": {"priests": 4}})
    assert reasons(s, {"Red": "noble 1 with 1 troops and pyramid 1 to B"}) == [
        "line 1: war pyramid 1 has 4 of the 5 priests it needs to move or fight"]
    held = make(holders={"A": "Red", "B": "Blue"}, nobles=[("Blue", "Djoser", "B")],
                troops={("Red", "A"): 1, ("Blue", "B"): 2},
                pyramids=[("Red", "war", "A", True, 4)], players={"Red": {"priests": 4}})
    d = play(held, {"Blue": "noble 1 with 2 troops to A"})
    (c,) = events(d, "contest")
    assert c.data["victor"] == "Blue" and c.data["rungs"] == ["TROOPS"]


def test_pyramids_a_pyramid_built_in_a_post_can_be_staffed_in_the_same_post() -> None:
    """PYRAMIDS: "Once constructed, a PYRAMID must be staffed by a number of PRIESTS equal to
    its construction cost": a scout pyramid begun and built in a post takes the priest the same
    post gives it, and so functions from the next round."""
    s = make(holders={"A": "Red"}, players={"Red": {"stone": 1, "priests": 1}},
             dead=[("Amenhotep", 1, "Red")])
    post = "build scout pyramid: 1 stone, dead: Amenhotep\n1 priests to the scout pyramid"
    assert reasons(s, {"Red": post}) == []
    d = play(s, {"Red": post})
    pyr = after(d, "build")["pyramids"].row(0, named=True)
    assert (pyr["built"], pyr["priests"]) == (True, 1)
    assert reasons(s, {"Red": post}, rules(staff_new="next_round")) == [
        "line 2: you have no scout pyramid"]


def test_pyramids_staffing_a_new_pyramid_counts_with_the_posts_other_priests() -> None:
    """RESOURCES: priests are "limited by available PYRAMIDS" and by the priests a player has:
    1 priest cannot staff both the old scout pyramid and the new one."""
    s = make(holders={"A": "Red", "B": "Red"}, pyramids=[("Red", "scout", "A", True, 0)],
             players={"Red": {"stone": 1, "priests": 1}}, dead=[("Amenhotep", 1, "Red")])
    s2 = make(holders={"A": "Red", "B": "Red"}, pyramids=[("Red", "battle", "A", True, 0)],
              players={"Red": {"stone": 1, "priests": 1}}, dead=[("Amenhotep", 1, "Red")])
    post = ("build scout pyramid at B: 1 stone, dead: Amenhotep\n1 priests to pyramid 1\n"
            "1 priests to the scout pyramid")
    assert [r.split(":")[0] for r in reasons(s2, {"Red": post})] == ["line 2", "line 3"]
    assert "brings the priests at work to 2, but Red has 1" in reasons(s2, {"Red": post})[0]


def test_pyramids_a_pyramid_begun_in_the_post_is_named_by_its_size() -> None:
    """PYRAMIDS: a pyramid the post begins has no number until it is begun (a pyramid claimed
    in the same round would take it), so it is staffed by its size; two of that size are
    ambiguous and the line says which to name."""
    s = make(holders={"A": "Red", "B": "Red"}, pyramids=[("Red", "scout", "A", True, 0)],
             players={"Red": {"stone": 1, "priests": 1}}, dead=[("Amenhotep", 1, "Red")])
    build = "build scout pyramid at B: 1 stone, dead: Amenhotep\n"
    assert reasons(s, {"Red": build + "1 priests to pyramid 2"}) == [
        "line 2: pyramid 2 is not begun yet: name a pyramid this post begins by its size ('the "
        "scout pyramid'), its number is given when it is begun"]
    (ambiguous,) = reasons(s, {"Red": build + "1 priests to the scout pyramid"})
    assert ambiguous.startswith("line 2: you have 2 scout pyramids: say which")


def _resolve(state: Any, posts: dict[str, str]) -> Driver:
    """A round with the posts taken as accepted, unchecked (as if they were valid when they
    were received and the state changed since)."""
    orders = {p: [o for _, o in parse(t, state).orders] for p, t in posts.items()}
    driver = Driver(steps_for(rules()), state, orders, Dice(SEED, state.turn + 1), rules())
    driver.run_all()
    return driver


def test_war_a_move_void_at_resolution_is_told_to_its_player() -> None:
    """WAR: "TROOPS and/or PYRAMIDS led by a NOBLE can move 1 space each turn": a move that
    cannot be made when the round reaches it is void, and the player's own report says which
    line, why and under which rule; the public does not see it."""
    s = make("A B C D", holders={"A": "Red"}, nobles=[("Red", "Khufu", "A")],
             troops={("Red", "A"): 1})
    d = _resolve(s, {"Red": "noble 1 with 1 troops to C"})
    (v,) = events(d, "void")
    assert v.player == "Red" and v.data["line"] == 1 and v.rule == "WAR: Movement"
    assert "line 1" in v.text and "cannot be made" in v.text
    assert sees_event("player:Red", v) and not sees_event("public", v)
    orders = {"Red": [o for _, o in parse("noble 1 with 1 troops to C", s).orders]}
    assert [a.ok for a in order_arrows(s, orders, d.events)] == [False]  # drawn failed


def test_pyramids_a_build_void_at_resolution_is_told_to_its_player() -> None:
    """PYRAMIDS: a build at a land no longer held is void, told to its player with its line."""
    s = make("A B", holders={"A": "Red"}, players={"Red": {"stone": 1}})
    d = _resolve(s, {"Red": "build scout pyramid at B: 1 stone"})
    (v,) = events(d, "void")
    assert (v.player, v.data["line"], v.rule) == ("Red", 1, "PYRAMIDS: Construction")
    assert "you do not hold it" in v.text


def test_option_assignments_line_order_reproduces_the_first_reading() -> None:
    """``assignments = line_order`` (with ``void_report = legacy_skipped``): each line applied
    in turn, the line that no longer fits skipped with a note for the GM alone, as gmkit first
    resolved it."""
    s = make(holders={"A": "Red", "B": "Red"}, serfs_at={"B": 3})
    old = rules(assignments="line_order", void_report="legacy_skipped")
    d = play(s, {"Red": "3 serfs to A\n0 serfs to B"}, old)
    assert {k: v for k, v in _serfs(after(d, "assign")).items() if k in "AB"} == {"A": 0, "B": 0}
    (skip,) = events(d, "skipped")
    assert not skip.public


def test_pyramids_a_claim_on_land_not_taken_is_told_to_its_player() -> None:
    """PYRAMIDS: "if the LAND it occupies is taken by an opponent they may claim the PYRAMID":
    a claim on land the player did not take this round (the attack was repelled) is void, and
    the player is told with its line."""
    s = make(holders={"A": "Red", "B": "Blue"}, nobles=[("Red", "Khufu", "A"),
                                                        ("Blue", "Djoser", "B")],
             troops={("Red", "A"): 1, ("Blue", "B"): 3})
    d = play(s, {"Red": "noble 1 with 1 troops to B\nclaim pyramids at B"})
    (v,) = events(d, "void")
    assert (v.player, v.data["line"], v.rule) == ("Red", 2, "PYRAMIDS: Staffing")
    assert "did not take B this round" in v.text
