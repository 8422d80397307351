"""Three Hills, rule by rule: one scenario per rule, with the dice the GM enters.

Each test's docstring names the rule's section and says the rule in brief (the rules are in
``gmkit/rulesets/example/rules.py``). Draw ids: ``crowding:<hill>`` for the crowding die,
``dig:<digger>/dig`` for a dig, ``dig:ties/<turn>`` for the order among diggers who arrived
together.
"""

from __future__ import annotations

import pytest

from gmkit.core.params import ParamError
from gmkit.core.parts import Context
from gmkit.core.players import PlayerInfo
from gmkit.core.views import Viewer
from gmkit.core.steps import Termination
from gmkit.rulesets.example.drawing import board_svg
from gmkit.rulesets.example.rules import board
from gmkit.rulesets.example.state import SetupError
from tests.example.helpers import RULESET, digger, problems_of, resolve, scenario


# -- 1. The diggers -------------------------------------------------------------------------------

def test_diggers_start_at_the_camp_with_no_gold_and_every_hill_full():
    """1. The diggers: two to four diggers start at the Camp with no gold; each hill holds
    ``hill_gold`` gold."""
    params = RULESET.rules({"hill_gold": 7})
    state = RULESET.setup(Context(params, players=(PlayerInfo("Amber", "A"),
                                                   PlayerInfo("Birch", "B"))))
    assert state["diggers"].select("place", "gold").rows() == [("Camp", 0), ("Camp", 0)]
    assert dict(state["hills"].iter_rows()) == {"West Hill": 7, "North Hill": 7, "East Hill": 7}
    with pytest.raises(SetupError, match="two to 4 diggers"):
        RULESET.setup(Context(params, players=(PlayerInfo("Amber", "A"),)))


def test_the_board_is_five_places_shipped_with_the_ruleset():
    """1. The diggers: the board is a camp, a ford and three hills, adjacency listed both
    ways (checked when the board loads)."""
    assert len(board()) == 5 and board().of_kind("hill") == ("West Hill", "North Hill",
                                                             "East Hill")
    assert board().neighbours("Camp") == {"West Hill", "Ford"}


# -- 2. Moving ------------------------------------------------------------------------------------

def test_moving_a_digger_walks_to_an_adjacent_place_only():
    """2. Moving: move to an adjacent place; every problem names its line."""
    state, params = scenario({"Amber": ("Camp", 0, 0), "Birch": ("Camp", 0, 0)})
    assert problems_of(state, params, {"Amber": "[b]Move to East Hill[/b]",
                                       "Birch": "[b]Go to North Hil[/b]"}) == {
        "Amber": ["line 1: East Hill is not next to Camp (next to it: Ford, West Hill)"],
        "Birch": ["line 1: North Hill is not next to Camp (next to it: Ford, West Hill)"]}


def test_moving_an_unknown_place_is_refused_with_a_suggestion():
    """2. Moving: a place that is not on the board is refused, naming the line."""
    state, params = scenario({"Amber": ("Camp", 0, 0), "Birch": ("Camp", 0, 0)})
    problems = problems_of(state, params, {"Amber": "Hello all!\n[b]Move to Frod[/b]"})
    assert problems["Amber"][0].startswith("line 2: no place 'Frod'")


def test_moving_one_order_a_turn():
    """2. Moving: a digger posts one order a turn: move, or dig."""
    state, params = scenario({"Amber": ("West Hill", 1, 0), "Birch": ("Camp", 0, 0)})
    assert problems_of(state, params, {"Amber": "[b]Dig[/b]\n[b]Move to Camp[/b]"}) == {
        "Amber": ["line 2: one order a turn (the order on line 1 counts)"]}


def test_moves_happen_together():
    """2. Moving: moves happen together, and a digger who moves arrives this turn."""
    state, params = scenario({"Amber": ("Camp", 0, 0), "Birch": ("Ford", 1, 0)})
    after = resolve(state, params, {"Amber": "Move to Ford", "Birch": "Move to Camp"}).state
    assert (digger(after, "Amber")["place"], digger(after, "Birch")["place"]) == ("Ford", "Camp")
    assert digger(after, "Amber")["arrived"] == state.turn + 1


# -- 3. Crowding ----------------------------------------------------------------------------------

def test_crowding_a_die_decides_who_stays_and_the_others_go_back_to_the_camp():
    """3. Crowding: a hill holds one digger; when diggers meet on a hill, a die decides who
    stays (one die per crowded hill, its faces the diggers by name); the others go back to the
    Camp."""
    state, params = scenario({"Amber": ("North Hill", 1, 0), "Birch": ("Ford", 1, 0),
                              "Cedar": ("West Hill", 2, 0)})
    driver = resolve(state, params, {"Birch": "Move to North Hill", "Cedar": "Go to North"},
                     dice={"crowding:North Hill": 2})
    [roll] = driver.rolls
    assert (roll.expression, roll.source) == ("1d3", "entered")
    assert "(1 Amber, 2 Birch, 3 Cedar)" in roll.purpose
    places = {pid: digger(driver.state, pid)["place"] for pid in ("Amber", "Birch", "Cedar")}
    assert places == {"Amber": "Camp", "Birch": "North Hill", "Cedar": "Camp"}


def test_crowding_with_the_holder_option_the_digger_who_held_the_hill_keeps_it():
    """3. Crowding, named option ``crowded_hill = "holder"``: the digger who held the hill
    keeps it and no die is rolled; newcomers go back to the Camp."""
    state, params = scenario({"Amber": ("North Hill", 1, 0), "Birch": ("Ford", 1, 0)},
                             rules={"crowded_hill": "holder"})
    driver = resolve(state, params, {"Birch": "Move to North Hill"})
    assert driver.rolls == []
    assert digger(driver.state, "Amber")["place"] == "North Hill"
    assert digger(driver.state, "Birch")["place"] == "Camp"
    with pytest.raises(ParamError):
        RULESET.rules({"crowded_hill": "share"})


# -- 4. Digging -----------------------------------------------------------------------------------

def test_digging_only_on_a_hill_with_gold_left():
    """4. Digging: a digger digs the hill it stands on; a dug-out hill cannot be dug."""
    state, params = scenario({"Amber": ("Ford", 1, 0), "Birch": ("East Hill", 1, 0)},
                             hills={"East Hill": 0})
    assert problems_of(state, params, {"Amber": "Dig", "Birch": "Dig here"}) == {
        "Amber": ["line 1: Amber stands on Ford, not on a hill"],
        "Birch": ["line 1: East Hill is dug out"]}


def test_digging_finds_one_die_of_gold_no_more_than_the_hill_has_left():
    """4. Digging: a dig finds one die of gold, no more than the hill has left."""
    state, params = scenario({"Amber": ("West Hill", 1, 2), "Birch": ("East Hill", 1, 0)},
                             hills={"East Hill": 3})
    driver = resolve(state, params, {"Amber": "Dig", "Birch": "Dig"},
                     dice={"dig:ties/1": ["Amber", "Birch"], "dig:Amber/dig": 5,
                           "dig:Birch/dig": 6})
    assert digger(driver.state, "Amber")["gold"] == 7
    assert digger(driver.state, "Birch")["gold"] == 3
    assert dict(driver.state["hills"].iter_rows())["East Hill"] == 0


def test_digging_order_is_earliest_arrival_first_ties_by_a_logged_draw():
    """4. Digging: diggers dig in the order they reached their hill, earliest first; diggers
    who arrived the same turn are put in order by a draw, logged and open to the GM."""
    state, params = scenario({"Amber": ("West Hill", 2, 0), "Birch": ("East Hill", 2, 0),
                              "Cedar": ("North Hill", 1, 0)})
    posts = {"Amber": "Dig", "Birch": "Dig", "Cedar": "Dig"}
    seeded = resolve(state, params, posts)
    draw = next(r for r in seeded.rolls if r.draw_id == "dig:ties/2")
    assert [r.actor for r in seeded.records if r.actor] == ["Cedar", *draw.result]
    entered = resolve(state, params, posts, dice={"dig:ties/2": ["Birch", "Amber"]})
    assert [r.actor for r in entered.records if r.actor] == ["Cedar", "Birch", "Amber"]


def test_a_secret_dig_keeps_its_find_from_the_public():
    """4. Digging: a dig ordered in a private message shows the public that the digger dug,
    not what was found; the GM and the digger see the roll."""
    state, params = scenario({"Amber": ("West Hill", 1, 0), "Birch": ("Camp", 0, 0)})
    driver = resolve(state, params, {"Amber": "Dig"}, dice={"dig:Amber/dig": 4},
                     secret={"Amber"})
    [roll] = driver.rolls
    assert (roll.public, roll.player) == (False, "Amber")
    public = [e.text for e in driver.events if e.kind == "dig" and e.public]
    assert public == ["Amber digs in West Hill (a secret order: the find stays secret)."]
    assert not any("4 gold" in e.text for e in driver.events if e.public)


# -- 5. Victory -----------------------------------------------------------------------------------

def test_victory_the_first_digger_in_order_to_hold_the_gold_wins_and_nobody_digs_after():
    """5. Victory: the first digger, in the order of digging, to hold ``gold_to_win`` gold
    wins at once; nobody digs after."""
    state, params = scenario({"Amber": ("West Hill", 1, 10), "Birch": ("East Hill", 2, 11)})
    driver = resolve(state, params, {"Amber": "Dig", "Birch": "Dig"},
                     dice={"dig:Amber/dig": 2})
    assert [r.draw_id for r in driver.rolls] == ["dig:Amber/dig#0"]
    assert digger(driver.state, "Birch")["gold"] == 11
    outcome = RULESET.outcome(driver.state, Context(params))
    assert outcome is not None and outcome.termination is Termination.VICTORY
    assert outcome.winners == ("Amber",)


def test_victory_after_the_last_turn_the_richest_wins():
    """5. Victory: after ``last_turn`` turns the richest digger wins (ties share it)."""
    state, params = scenario({"Amber": ("Camp", 1, 5), "Birch": ("Ford", 1, 5),
                              "Cedar": ("Ford", 1, 2)}, turn=10)
    outcome = RULESET.outcome(state, Context(params))
    assert outcome is not None and outcome.termination is Termination.TIME_LIMIT
    assert outcome.winners == ("Amber", "Birch")
    assert RULESET.outcome(state.replace(turn=9), Context(params)) is None


# -- views ----------------------------------------------------------------------------------------

def test_the_public_sees_no_diggers_gold():
    """Views: every digger's gold is the GM's alone (public state and standings)."""
    state, params = scenario({"Amber": ("West Hill", 1, 4), "Birch": ("Camp", 0, 1)})
    assert RULESET.view(state, Viewer.public())["diggers"]["gold"].null_count() == 2
    assert RULESET.views.gm_only == ("gold",)
    assert RULESET.standings(state, Context(params))["player"].to_list() == ["Amber", "Birch"]


def test_the_board_drawing_shows_every_digger_and_the_gold_left():
    """Views: the board is drawn with a mark per digger and the gold left in each hill."""
    state, _ = scenario({"Amber": ("West Hill", 1, 4), "Birch": ("Camp", 0, 1)},
                        hills={"West Hill": 6})
    svg = board_svg(state)
    assert svg.count('data-piece="digger"') == 2 and "6 gold" in svg


def test_orders_are_drawn_as_arrows_on_a_graph_board(tmp_path):
    """The desk draws a turn's orders on a board that is not a polygon map: each move of
    Three Hills an arrow from the digger's place to where it walks."""
    from gmkit.desk import Desk
    from gmkit.game import Game

    game = Game.new(tmp_path / "g", "example", [{"id": "Amber"}, {"id": "Birch"}])
    game.receive_post("Amber", "Move to the Ford")
    desk = Desk(game)
    desk.begin()
    svg = desk.orders_svg()
    assert svg is not None and "Amber: move to Ford" in svg
