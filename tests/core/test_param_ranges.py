"""Rule values in range: every rule of every ruleset declares the values it takes (choices, a
range, or a check), and a value outside them is refused where it would enter a game: ``gmkit
rules --set``, ``game.toml`` (a game that already stores one opens, says so, and resolves no turn
until it is changed) and a rule an Aeternus proposal would enact."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from gmkit.core.params import LIMIT, ParamError
from gmkit.core.ruleset import find_ruleset
from gmkit.game import Game
from gmkit.sweeps.playout import new_game
from gmkit.rulesets.pyramid.rules import COLOURS
from tests.test_cli import one_line_failure, run

RULESETS = ["cien", "aztlan", "jungle", "aeternus", "pyramid", "example"]


@pytest.mark.parametrize("name", RULESETS)
def test_every_rule_declares_the_values_it_takes_and_its_default_is_one(name: str) -> None:
    """Each number has a range within the global limit, each text without choices is checked
    or free text, and each default is a value its rule takes."""
    for p in find_ruleset(name).params:
        assert p.problem(p.default) is None, p.name
        if p.choices is None and isinstance(p.default, (int, float)) and \
                not isinstance(p.default, bool):
            assert p.low is not None and p.high is not None, p.name
            assert -LIMIT <= p.low <= p.default <= p.high <= LIMIT, p.name


@pytest.mark.parametrize("name,rule,value", [
    ("pyramid", "second_serf_divisor", 0),            # a ZeroDivisionError at resolve
    ("pyramid", "second_serf_divisor", 2**62),        # an overflow
    ("jungle", "gameturns", 2**62),                    # a hang
    ("jungle", "food_divisor", -3),
    ("cien", "die", 1e308),
    ("cien", "mission_chance", float("nan")),
    ("pyramid", "starve_default", "troops,kings"),
    ("aeternus", "cycle_start", "yesterday"),
])
def test_a_rule_value_outside_its_range_is_refused_naming_the_rule_and_range(
        name: str, rule: str, value: object) -> None:
    """The rules table refuses the value, naming the rule and what it takes."""
    with pytest.raises(ParamError) as e:
        find_ruleset(name).rules({rule: value})
    assert f"rule '{rule}'" in str(e.value)
    assert find_ruleset(name).params[[p.name for p in find_ruleset(name).params].index(
        rule)].kind.split(" ")[0] in str(e.value)


@pytest.fixture
def pyramid(tmp_path: Path) -> Path:
    players = [{"id": c, "name": c} for c in COLOURS[:2]]
    return new_game(tmp_path / "g", "pyramid", players, 1, "ranges").root


def test_rules_set_refuses_a_divisor_of_zero_and_stores_nothing(pyramid: Path) -> None:
    """``gmkit rules --set second_serf_divisor=0`` exits non-zero with one line naming the rule
    and its range; ``game.toml`` and the recorded changes are untouched."""
    toml = (pyramid / "game.toml").read_bytes()
    res = run("rules", pyramid, "--set", "second_serf_divisor=0", "--why", "test")
    line = one_line_failure(res)
    assert "rule 'second_serf_divisor' must be a whole number from 1 to 1000, not 0" in line
    assert (pyramid / "game.toml").read_bytes() == toml
    assert not (pyramid / "pending" / "changes.json").exists()


def test_rules_set_names_the_default_it_replaces_never_none(pyramid: Path) -> None:
    """A first change says which default it replaces; the next says the value set before."""
    res = run("rules", pyramid, "--set", "second_serf_divisor=3", "--why", "house rule")
    assert res.exit_code == 0, res.output
    assert "(was the default 2)" in res.stdout and "None" not in res.stdout
    res = run("rules", pyramid, "--set", "second_serf_divisor=4", "--why", "house rule")
    assert "(was 3)" in res.stdout
    res = run("rules", pyramid, "--unset", "second_serf_divisor", "--why", "back")
    assert "back to its default 2" in res.stdout and "(was 4)" in res.stdout


def test_a_game_toml_holding_a_value_out_of_range_opens_says_so_and_resolves_nothing(
        pyramid: Path) -> None:
    """A hand-edited ``game.toml`` with ``second_serf_divisor = 0``: the game opens, ``status``
    names the rule and its range, ``resolve`` refuses in one line naming it (never a
    ZeroDivisionError), and once the GM sets a good value the turn resolves."""
    toml = pyramid / "game.toml"
    toml.write_text(toml.read_text().replace("[rules]", "[rules]\nsecond_serf_divisor = 0"))
    game = Game.open(pyramid)
    assert "second_serf_divisor" in game.rules.problems
    res = run("status", pyramid)
    assert res.exit_code == 0, res.output
    assert "rule 'second_serf_divisor' must be a whole number from 1 to 1000, not 0" in res.stdout
    res = run("resolve", pyramid, "--allow-empty", "--unannounced")
    line = one_line_failure(res)
    assert "second_serf_divisor" in line and "from 1 to 1000" in line
    assert Game.open(pyramid).latest_turn == 1
    res = run("rules", pyramid, "--set", "second_serf_divisor=2", "--why", "fix the hand edit")
    assert res.exit_code == 0, res.output
    assert not Game.open(pyramid).rules.problems


def test_an_unknown_kind_in_game_toml_still_opens_with_the_default_in_force(
        pyramid: Path) -> None:
    """A text where a number belongs opens too: the default stays in force, the problem
    is listed."""
    toml = pyramid / "game.toml"
    toml.write_text(toml.read_text().replace("[rules]", '[rules]\nserf_food = "lots"'))
    game = Game.open(pyramid)
    assert game.rules.serf_food == 4
    assert "serf_food" in game.rules.problems


def test_3_1_an_aeternus_proposal_setting_a_value_out_of_range_is_not_enacted() -> None:
    """3.1: an accepted proposal's ``set RULE = VALUE`` is enacted only with a value the rule
    takes: ``set fish_percent = 500`` is not enacted, and the proposal's event says why, naming
    the rule and its range."""
    from tests.aeternus.scenario import MONDAY, play, rules, scenario

    from gmkit.core.parts import Context
    from gmkit.rulesets.aeternus import Aeternus

    o = (0, 0, 0)
    five = ("Amber", "Birch", "Cedar", "Dune", "Elm")
    before, _, _ = play(scenario({o: "Meadow"}, {p: o for p in five}),
                        [("Amber", "Propose: set fish_percent = 500")])
    state, _, _ = play(before, [("Birch", "Vote for 1"), ("Cedar", "Vote for 1")],
                       at=MONDAY + timedelta(days=3))
    state, events, _ = play(state, [("Elm", "Forage")],
                            at=datetime(2026, 1, 11, 1, tzinfo=timezone.utc))
    assert Aeternus.lifecycle.enacted(before, state, Context(rules())) == []
    took = next(e.text for e in events if "takes effect" in e.text)
    assert "not enacted: rule 'fish_percent' must be a whole number from 0 to 100, not 500" \
        in took


def test_a_value_recorded_out_of_range_is_kept_for_replay_but_listed() -> None:
    """A turn resolved before the range existed replays with the value it recorded (verify
    reads its rules leniently); the value is listed as a problem all the same."""
    rules = find_ruleset("jungle").rules({"gameturns": 5000}, lenient=True)
    assert rules.gameturns == 5000
    assert rules.problems == {"gameturns": "rule 'gameturns' must be a whole number from 1 to "
                                           "1000, not 5000"}


def test_the_turn_report_names_the_default_a_rule_change_replaced(pyramid: Path) -> None:
    """The next turn's report says what the rule was: the default, never 'None'."""
    from gmkit.sweeps.playout import play
    from gmkit.publish.summary import turn_report

    assert run("rules", pyramid, "--set", "serf_food=5", "--why", "a rich land").exit_code == 0
    game = play(Game.open(pyramid), 1, "ranges")
    changes = turn_report(game, game.latest_turn).changes
    assert changes == ("rule serf_food is now 5 (was the default 4): a rich land",)
