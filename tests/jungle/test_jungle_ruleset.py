"""The Law of the Jungle as a registered ruleset: a house's post for both rounds, the GM's
civilization figures checked line by line and stored with the turn, the session's three phases
stepped action by action, and what each house may see."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import gmkit.rulesets  # noqa: F401  (registers every ruleset)
from gmkit.core.envelope import Orders
from gmkit.core.ruleset import find_ruleset
from gmkit.core.views import Viewer
from gmkit.game import Game
from gmkit.sweeps.playout import play
from gmkit.rulesets.jungle import actions as A
from gmkit.rulesets.jungle.orders import FigureLine
from gmkit.rulesets.jungle.world import CIV

RS = find_ruleset("jungle")
PLAYERS = [{"id": h, "name": f"House {h}"} for h in ("Ocelotl", "Quetzal", "Tochtli")]


@pytest.fixture
def game(tmp_path: Path) -> Game:
    return Game.new(tmp_path / "g", "jungle", PLAYERS)


def test_a_post_gives_each_character_a_morning_and_an_afternoon_action(game):
    """BASIC GAME STRUCTURE: "During the Morning ... each character may perform 1 action. During
    the Afternoon ... each character may perform 1 action": headings say which; without them a
    character's second line is his Afternoon action."""
    state = game.state()
    headed = RS.parse_post("[b]Morning[/b]\n[b]Gualpa: Defend[/b]\n[b]Afternoon[/b]\n"
                           "[b]Gualpa: Toil[/b]", "Ocelotl", state, game.context())
    plain = RS.parse_post("[b]Gualpa: Defend[/b]\n[b]Gualpa: Toil[/b]", "Ocelotl", state,
                          game.context())
    for result in (headed, plain):
        assert result.ok
        assert [(type(o), o.slot) for _, o in result.orders] == [(A.Defend, 1), (A.Toil, 2)]


def test_the_civilization_figures_are_checked_with_line_naming_errors(game):
    """The GM's figures: an unknown city, a negative health and a unit that does not exist are
    refused, each naming its line, as orders are."""
    post = ("city Tenochtitlan: citizens 3, food 2\ncity Atlantis: citizens 1\n"
            "unit Warrior 1: health -2\nunit Jaguar 9: health 5\n")
    game.receive_post(CIV, post)
    parsed, problems, orders = game.read_orders(game.state(), game.store.pending_posts(1))
    lines = sorted(e.line for e in problems[CIV])
    assert lines == [2, 3, 4]
    assert "Atlantis" in str(problems[CIV][0])
    assert [o.table for o in orders[CIV]] == ["city_figures"]
    assert all(isinstance(o, FigureLine) for o in orders[CIV])


def test_the_figures_entered_are_stored_with_the_turn_and_applied(game):
    """The figures are a post of the GM's desk, stored with the turn; the session opens with
    them: a city's food feeds its Tlatoani."""
    game.receive_post(CIV, "city Tenochtitlan: citizens 4, food 5, income 9, expenses 2")
    game.commit(game.start())
    assert CIV in game.turn(1).orders["player"].to_list()
    city = game.state()["cities"].filter(pl.col("city") == "Tenochtitlan").row(0, named=True)
    assert (city["citizens"], city["net_food"]) == (4, 5)


def test_the_session_has_three_phases_stepped_action_by_action(game):
    """CHARACTER ACTIONS: the GM steps action by action; the steps belong to the Morning,
    the Afternoon and the Evening."""
    assert [s.phase for s in RS.steps(game.context())][0] == "Morning"
    assert {s.phase for s in RS.steps(game.context())} == {"Morning", "Afternoon", "Evening"}
    game.receive_post("Ocelotl", "[b]Gualpa: Defend[/b]\n[b]Gualpa: Defend[/b]")
    game.receive_post("Quetzal", "[b]Itzel: Defend[/b]")
    session = game.start()
    driver = session.driver
    while driver.next_step is None or driver.next_step.name != "first-actions":
        driver.next()
    order = driver.next()
    assert order.actors == ("Gualpa", "Itzel") or order.actors == ("Itzel", "Gualpa")
    first = driver.next()
    assert first.actor == order.actors[0] and driver.next_actor == order.actors[1]
    assert driver.phase == "Morning"


def test_a_house_sees_its_own_sheets_and_only_the_public_chart_of_others(game):
    """Each house gets its characters' full sheets and stores; of others, the public chart."""
    play(game, 1, master="views")
    state = game.state()
    mine = RS.view(state, Viewer.player("Ocelotl"))
    chars = {c["name"]: c for c in mine["characters"].to_dicts()}
    assert chars["Gualpa"]["xp"] is not None and chars["Gualpa"]["wisdom"] is not None
    assert chars["Itzel"]["xp"] is None and chars["Itzel"]["wisdom"] is None
    assert chars["Itzel"]["fame"] is not None
    houses = {h["house"]: h for h in mine["houses"].to_dicts()}
    assert houses["Ocelotl"]["food"] is not None and houses["Quetzal"]["food"] is None
    public = RS.view(state, Viewer.public())
    assert public["characters"]["xp"].null_count() == public["characters"].height


def test_the_map_shows_every_hexs_yield_to_everyone(game):
    """The hexes' food and gold are the land's yields, on the public map: the houses' food and
    gold, GM-only columns of the same names, stay hidden (``Views.shown``)."""
    play(game, 1, master="views")
    state = game.state()
    for viewer in (Viewer.public(), Viewer.player("Ocelotl")):
        seen = RS.view(state, viewer)
        assert seen["hexes"].equals(state["hexes"]), viewer
        others = seen["houses"].filter(pl.col("house") != "Ocelotl")
        assert others["food"].null_count() == others.height > 0, viewer


def test_a_secret_actions_results_are_seen_by_its_house_alone(game):
    """Orders sent by PM stay secret: the events and draws of a secret action are seen by the
    GM and the house that posted it (the order of play names who acts, not what)."""
    game.receive_post("Ocelotl", "[b]Gualpa: Train Wisdom[/b]", secret=True)
    game.commit(game.start())
    events = game.turn(1).events
    # the order of play is public: it names who acts, not what
    trained = events.filter((pl.col("step") == "first-actions")
                            & (pl.col("kind") != "order of play"))
    mine = trained.filter(pl.col("text").str.contains("Gualpa"))
    assert mine.height and not any(mine["public"].to_list())
    assert set(mine["player"].to_list()) == {"Ocelotl"}


def test_the_odds_of_each_attack_are_shown_before_it_resolves(game):
    """CHARACTER ATTACKS: the exact odds of each attack's five bands, before it resolves; they
    add up to 1."""
    state = game.state().replace(characters=game.state()["characters"].with_columns(
        city=pl.lit("Tenochtitlan"), q=pl.lit(1), r=pl.lit(0)))
    result = RS.parse_post("[b]Gualpa: Attack (Duel) Itzel[/b]", "Ocelotl", state, game.context())
    odds = RS.odds(state, Orders.parsed({"Ocelotl": result}), game.context())
    assert odds["band"].to_list() == ["all_attackers_fail", "principal_attacker_fails", "draw",
                                      "principal_defender_suffers", "all_defenders_suffer"]
    assert abs(odds["probability"].sum() - 1) < 1e-9


def test_a_player_joins_through_the_gms_desk_and_acts_from_the_next_session(game):
    """JOINING THE GAME: "you receive one peasant with XP 1, Wisdom 1, Craftsmanship 1, Fame 0.
    You are head of your own house with food 0 and gold 0 ... choose a workable hex in any
    city"; the new house may post from then on, its peasant acting from the next session."""
    game.receive_post(CIV, "join Coyotl: Nezahual in Texcoco -1,4, gold 12")
    session = game.start()
    opened = session.driver.next()  # the opening: the GM's figures applied
    me = opened.after["characters"].filter(pl.col("name") == "Nezahual").row(0, named=True)
    assert (me["house"], me["city"], me["q"], me["r"], me["xp"], me["fame"], me["wisdom"],
            me["craftsmanship"], me["may_act"]) == ("Coyotl", "Texcoco", -1, 4, 1, 0, 1, 1,
                                                    False)
    house = opened.after["houses"].filter(pl.col("house") == "Coyotl").row(0, named=True)
    assert (house["food"], house["gold"]) == (0, 12)
    game.commit(session)
    assert "Coyotl" in game.state()["players"]["id"].to_list()
    # the new house may post (stored whether or not its order reads in the shared game)
    game.receive_post("Coyotl", "[b]Nezahual: Toil[/b]", allow_empty=True)


def test_signing_up_again_needs_every_character_lost_or_three_trapped_sessions(game):
    """SIGNING UP AGAIN: "If you lose all of your characters, you are welcome to sign back up
    ... if all of his characters are still trapped as Slave-Tenants [after 3 council sessions],
    the player will be allowed to sign up again"."""
    game.receive_post(CIV, "join Ocelotl: Nezahual")
    _, problems, _ = game.read_orders(game.state(), game.store.pending_posts(1))
    assert "still controls characters" in str(problems[CIV][0])
    state = game.state()
    trapped = state.replace(
        slaves=pl.DataFrame({"slave": ["Gualpa"], "owner": ["Itzel"]}),
        tenants=pl.DataFrame({"tenant": ["Gualpa"], "landlord": ["Itzel"]}))
    from gmkit.rulesets.jungle.world import count_trapped
    for _ in range(3):
        trapped = count_trapped(trapped)
    assert trapped["houses"].filter(pl.col("house") == "Ocelotl")["trapped"].item() == 3
    result = RS.parse_post("join Ocelotl: Nezahual", CIV, trapped, game.context())
    assert RS.validate(trapped, Orders.parsed({CIV: result}), game.context()) == {}


def test_a_rule_proposal_takes_its_25_point_offering(game):
    """PROPOSING CHANGES TO THE RULES: "Include with your proposal an offering of 25 points of
    XP, Wisdom, Craftsmanship and/or Fame from one or more of your non-slave characters ...
    without it Yahzuk will not consider your words"."""
    state = game.state().replace(characters=game.state()["characters"].with_columns(
        xp=pl.lit(30)))
    post = ("[b]Rule proposal: Tlatoani may spend twice their limit; offering Gualpa 20 XP, "
            "Gualpa 1 Wisdom[/b]\n[b]Gualpa: Defend[/b]")
    result = RS.parse_post(post, "Ocelotl", state, game.context())
    assert result.ok and len(result.orders) == 2
    from gmkit.core.envelope import Orders
    from gmkit.rulesets.jungle.proposals import proposals
    orders = Orders.plain({"Ocelotl": [o for _, o in result.orders]})
    _, events = proposals(state, orders, None, game.rules)  # type: ignore[arg-type]
    assert "not considered: the offering is 21 points, not 25" in events[0].text
    post = post.replace("Gualpa 1 Wisdom", "Gualpa 5 XP")
    result = RS.parse_post(post, "Ocelotl", state, game.context())
    after, events = proposals(state, Orders.plain({"Ocelotl": [o for _, o in result.orders]}),
                              None, game.rules)  # type: ignore[arg-type]
    assert "offers 25 points" in events[0].text
    assert after["characters"].filter(pl.col("name") == "Gualpa")["xp"].item() == 5
