"""Rules a game changes itself (a nomic's passed proposal) and players who join mid-game, both
through the core's seams: a ruleset's ``enacted`` changes are recorded with the turn and in force
from the next, exactly as a GM's ``gmkit rules --set`` (those ``at_once`` already from the next
unit of the same turn); a ruleset's ``joined`` brings the state in
line with a changed player list at the start of the turn the change takes effect. ``verify``
replays both. (The contract's "rules, players and board in force per turn".)"""

from __future__ import annotations

import dataclasses

import polars as pl
import pytest

from gmkit.core.parts import Context, RuleChange
from gmkit.game import Game
from gmkit.sweeps.playout import play
from gmkit.rulesets.example import ThreeHills

PLAYERS = [{"id": "Amber"}, {"id": "Birch"}]


def _life(monkeypatch, **hooks):
    """Three Hills with the life-cycle hooks given (a nomic's enactments, newcomers)."""
    monkeypatch.setattr(ThreeHills, "lifecycle",
                        dataclasses.replace(ThreeHills.lifecycle, **hooks))


def _enact_at_turn_two(before, after, ctx):
    """A proposal passes in turn 2: the gold to win rises to 20."""
    return [RuleChange("gold_to_win", 20, "proposal 1 passed: 20 gold wins")] \
        if after.turn == 2 else []


@pytest.fixture
def nomic(monkeypatch, tmp_path):
    _life(monkeypatch, enacted=_enact_at_turn_two)
    return Game.new(tmp_path / "g", "example", PLAYERS, rules={"last_turn": 30})


def test_a_rule_the_turn_enacts_is_recorded_and_in_force_from_the_next_turn(nomic):
    """Turn 2's manifest records what it enacted; turn 3 is resolved with it and its manifest
    lists the change, with its reason, as a recorded change; game.toml holds it; verify passes."""
    play(nomic, 3, "nomic")
    m2, m3 = nomic.store.manifest(2), nomic.store.manifest(3)
    assert m2["enacted"] == [{"name": "gold_to_win", "value": 20,
                              "why": "proposal 1 passed: 20 gold wins"}]
    assert m2["rules"].get("gold_to_win") is None and m3["rules"]["gold_to_win"] == 20
    assert [(c["name"], c["by"], c["from_turn"]) for c in m3["changes"]] == \
        [("gold_to_win", "rules", 3)]
    assert Game.open(nomic.root).rules.gold_to_win == 20
    assert nomic.verify() == []


def test_verify_reports_an_enacted_change_the_rules_do_not_make(nomic, monkeypatch):
    """A recorded enactment that replaying the turn does not reproduce is reported."""
    play(nomic, 2, "nomic")
    _life(monkeypatch, enacted=lambda b, a, c: [])
    assert any("enacted" in p and "turn 2" in p for p in Game.open(nomic.root).verify())


def test_resolving_the_turn_again_replaces_what_its_first_revision_enacted(nomic, monkeypatch):
    """A new revision of the enacting turn that enacts nothing takes its change back."""
    play(nomic, 2, "nomic")
    _life(monkeypatch, enacted=lambda b, a, c: [])
    game = Game.open(nomic.root)
    game.re_resolve(reason="the vote was miscounted")
    again = Game.open(nomic.root)
    assert again.rules.gold_to_win == 12 and "enacted" not in again.store.manifest(2)
    assert not [c for c in again.recorded_changes() if c.get("by") == "rules"]


def test_an_enactment_interrupted_before_it_was_recorded_is_completed_on_open(nomic):
    """The turn's manifest is the intent: a commit stopped before recording its enactment has
    it recorded by the next open."""
    play(nomic, 2, "nomic")
    (nomic.root / "pending" / "changes.json").unlink()
    config = (nomic.root / "game.toml").read_text("utf-8")
    (nomic.root / "game.toml").write_text(config.replace("gold_to_win = 20\n", ""), "utf-8")
    assert Game.open(nomic.root).rules.gold_to_win == 20


def _joined(state, before, after, ctx):
    """Newcomers start at the Camp with nothing; leavers' diggers go."""
    ids = [p.id for p in after]
    new = [p for p in after if p.id not in {b.id for b in before}]
    diggers = state["diggers"].filter(pl.col("id").is_in(ids))
    rows = pl.DataFrame({"id": [p.id for p in new], "name": [p.name for p in new],
                         "place": ["Camp"] * len(new), "arrived": [state.turn] * len(new),
                         "gold": [0] * len(new)}, schema=diggers.schema)
    return state.replace(diggers=pl.concat([diggers, rows]))


def test_a_player_added_mid_game_enters_the_state_at_the_turn_they_join(monkeypatch, tmp_path):
    """'gmkit players add' after turn 2: turn 3 starts with the newcomer's digger at the Camp,
    turn 2 without; verify replays every turn with its own players."""
    _life(monkeypatch, joined=_joined)
    game = play(Game.new(tmp_path / "g", "example", PLAYERS, rules={"last_turn": 30}), 2, "join")
    game.change_player("add", "Cedar", {"name": "Cedar the late"}, why="a new digger joins")
    play(game, 1, "join")
    assert "Cedar" not in game.state(2)["diggers"]["id"].to_list()
    assert "Cedar" in game.state(3)["diggers"]["id"].to_list()
    assert game.verify() == []
    game.change_player("remove", "Birch", {}, why="Birch leaves")
    game.commit(game.start())  # nobody posts this turn
    assert game.state(4)["diggers"]["id"].to_list().count("Birch") == 0
    assert game.verify() == []


def test_several_enactments_recorded_but_not_yet_written_are_completed_on_open(monkeypatch,
                                                                            tmp_path):
    """A commit stopped after recording two enacted changes and before writing game.toml: the
    next open writes what the record says, so verify finds no hand edit."""
    _life(monkeypatch, enacted=lambda b, a, c: [
        RuleChange("gold_to_win", 20, "proposal 1"), RuleChange("last_turn", 40, "proposal 2")]
        if a.turn == 2 else [])
    game = play(Game.new(tmp_path / "g", "example", PLAYERS, rules={"last_turn": 30}), 2, "two")
    path = game.root / "game.toml"
    text = path.read_text("utf-8")
    assert "gold_to_win = 20" in text and "last_turn = 40" in text
    path.write_text(text.replace("gold_to_win = 20\n", "").replace("last_turn = 40",
                                                                     "last_turn = 30"), "utf-8")
    again = Game.open(game.root)
    assert (again.rules.gold_to_win, again.rules.last_turn) == (20, 40)
    assert again.verify() == []


def test_a_rule_enacted_at_once_is_in_force_for_the_rest_of_the_turn(monkeypatch):
    """A rule a turn enacts ``at_once`` (a proposal taking effect "at the end of its voting
    period", between two actions) is in force from the next unit of the same turn; the units
    before resolve with the turn's rules."""
    from gmkit.core.dice import Dice
    from gmkit.core.steps import Driver, Step
    from gmkit.core.tables import State

    def enact(before, after, ctx):
        passed = after["passed"].height > before["passed"].height
        return [RuleChange("gold_to_win", 20, "proposal 1 passed", at_once=True)] if passed else []

    _life(monkeypatch, enacted=enact)
    ruleset = ThreeHills()
    rules = ruleset.rules({})
    seen: list[int] = []

    def look(state, orders, dice, rules):
        seen.append(rules.gold_to_win)
        return state, []

    def pass_it(state, orders, dice, rules):
        seen.append(rules.gold_to_win)
        return state.replace(passed=pl.DataFrame({"proposal": [1]})), []

    start = State(1, {"passed": pl.DataFrame(schema={"proposal": pl.Int64})})
    steps = [Step("a", "A", "1", look), Step("b", "B", "1", pass_it), Step("c", "C", "1", look)]
    driver = Driver(steps, start, {}, Dice("ab" * 32, 1), rules,
                    lambda begun, now: ruleset.rules_at(begun, now, Context(rules)))
    driver.run_all()
    assert seen == [12, 12, 20]
    driver.back()
    driver.next()
    assert seen[-1] == 20
