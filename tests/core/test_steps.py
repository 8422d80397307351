"""Tests for gmkit.core.steps: the Driver that runs a turn's steps one at a time or all at once,
steps back and restarts, keeping each step's state before and after, its events and its rolls."""

from __future__ import annotations

import polars as pl
import pytest

from gmkit.core.dice import ENTERED, SEEDED, Dice
from gmkit.core.params import Param, Params
from gmkit.core.parts import Context
from gmkit.core.steps import Driver, Event, Step, StepRecord
from gmkit.core.tables import State
from tests.cien.helpers import RULESET, orders_of, scenario

SEED = "5c" * 32
RULES = Params([Param("bonus", 3, "R0", "added by the last step")])


def add_roll(state: State, orders, dice: Dice, rules: Params):
    """Each player's score grows by a d10 (plus what they ordered)."""
    df = state["score"]
    rows = []
    events = []
    for pid, score in df.iter_rows():
        extra = sum(orders.get(pid, []))
        r = dice.d(10, purpose=f"{pid} score", rule="R1", key=pid)
        rows.append((pid, score + r + extra))
        events.append(Event("score", "R1", f"{pid} rolls {r}", pid))
    return state.replace(score=pl.DataFrame(rows, schema=df.schema, orient="row")), events


def pick_leader(state: State, orders, dice: Dice, rules: Params):
    """A die picks a leader among the players."""
    leader = dice.choice(state["score"]["id"].to_list(), purpose="leader", rule="R2",
                         key="leader")
    return state.replace(leader=pl.DataFrame({"id": [leader]})), [Event("leader", "R2", leader)]


def bonus(state: State, orders, dice: Dice, rules: Params):
    """No dice: everyone gets the rules' bonus."""
    df = state["score"].with_columns(pl.col("score") + rules.bonus)
    return state.replace(score=df), [Event("bonus", "R3", f"+{rules.bonus}")]


STEPS = [Step("roll", "Rolling", "R1", add_roll), Step("leader", "Leader", "R2", pick_leader),
         Step("bonus", "Bonus", "R3", bonus)]


def start_state() -> State:
    return State(1, {"score": pl.DataFrame({"id": ["Red", "Gold"], "score": [0, 0]}),
                     "leader": pl.DataFrame({"id": [None]}, schema={"id": pl.String})})


def driver(orders=None, entered=None) -> Driver:
    return Driver(STEPS, start_state(), orders or {}, Dice(SEED, 2, entered=entered or {}),
                  RULES)


class TestNextAndBack:
    def test_next_runs_one_step_and_keeps_before_and_after(self) -> None:
        """next(): runs the next step and keeps its record (state before and after, events,
        rolls)."""
        d = driver()
        assert d.next_step is STEPS[0] and not d.done and d.state.equals(start_state())
        rec = d.next()
        assert isinstance(rec, StepRecord) and rec.step is STEPS[0]
        assert rec.before.equals(start_state())
        assert rec.after.equals(d.state)
        assert not rec.after.equals(rec.before)
        assert [r.draw_id for r in rec.rolls] == ["roll:Red#0", "roll:Gold#0"]
        assert [e.kind for e in rec.events] == ["score", "score"]
        assert d.next_step is STEPS[1]
        rec2 = d.next()
        assert rec2.before.equals(rec.after)
        assert [r.step for r in rec2.rolls] == ["leader"]

    def test_the_start_state_is_never_mutated(self) -> None:
        """Tables docstring: steps return new states; nothing mutates one in place."""
        start = start_state()
        d = Driver(STEPS, start, {}, Dice(SEED, 2), RULES)
        d.run_all()
        assert start.equals(start_state())
        assert d.records[0].before is start

    def test_back_undoes_the_last_step(self) -> None:
        """back(): undoes the last step run and returns its record; None when nothing ran."""
        d = driver()
        assert d.back() is None
        r1 = d.next()
        r2 = d.next()
        assert d.back() is r2
        assert d.state.equals(r1.after)
        assert d.next_step is STEPS[1]
        assert d.back() is r1
        assert d.state.equals(start_state())
        assert d.records == [] and d.events == [] and d.rolls == []

    def test_back_then_forward_gives_identical_results(self) -> None:
        """Stepping back and forward again replays the same step: same rolls, same state."""
        d = driver()
        d.next()
        first = d.next()
        d.back()
        again = d.next()
        assert again.rolls == first.rolls
        assert again.events == first.events
        assert again.after.equals(first.after)
        d.back()
        d.back()
        d.run_all()
        fresh = driver()
        fresh.run_all()
        assert d.rolls == fresh.rolls
        assert d.state.equals(fresh.state)

    def test_run_all_and_done(self) -> None:
        """run_all(): runs every remaining step; next() afterwards is an error."""
        d = driver()
        d.next()
        records = d.run_all()
        assert [r.step.name for r in records] == ["roll", "leader", "bonus"]
        assert d.done and d.next_step is None
        with pytest.raises(RuntimeError):
            d.next()
        assert [e.kind for e in d.events] == ["score", "score", "leader", "bonus"]
        assert [r.draw_id for r in d.rolls] == ["roll:Red#0", "roll:Gold#0", "leader:leader"]
        # the last step adds the rule's bonus to each score of the step before
        before = d.records[-1].before["score"]["score"].to_list()
        assert d.state["score"]["score"].to_list() == [s + 3 for s in before]

    def test_one_step_at_a_time_equals_all_at_once(self) -> None:
        """Running step by step or all at once gives the same state, events and rolls."""
        a, b = driver(), driver()
        while not a.done:
            a.next()
        b.run_all()
        assert a.state.equals(b.state)
        assert a.events == b.events and a.rolls == b.rolls


class TestRestart:
    def test_restart_goes_back_to_the_start(self) -> None:
        """restart(): back to the start state with nothing run."""
        d = driver()
        d.run_all()
        result = d.state
        d.restart()
        assert d.records == [] and d.state.equals(start_state())
        d.run_all()
        assert d.state.equals(result)

    def test_restart_with_changed_orders(self) -> None:
        """restart(orders=...): the steps run again with the new orders, same dice."""
        d = driver()
        d.run_all()
        before = dict(d.state["score"].iter_rows())
        rolls = d.rolls
        d.restart(orders={"Red": [100]})
        d.run_all()
        after = dict(d.state["score"].iter_rows())
        assert after["Red"] == before["Red"] + 100
        assert after["Gold"] == before["Gold"]
        assert d.rolls == rolls

    def test_restart_with_entered_dice(self) -> None:
        """restart(entered=...): a die the GM entered replaces the seeded one, logged as
        entered; the other draws keep their seeded values."""
        d = driver()
        d.run_all()
        seeded = {r.draw_id: r for r in d.rolls}
        new_red = seeded["roll:Red#0"].total % 10 + 1
        d.restart(entered={"roll:Red": new_red, "leader:leader": "Gold"})
        d.run_all()
        again = {r.draw_id: r for r in d.rolls}
        assert again["roll:Red#0"].result == [new_red] and again["roll:Red#0"].source == ENTERED
        assert again["roll:Gold#0"] == seeded["roll:Gold#0"]
        assert again["roll:Gold#0"].source == SEEDED
        assert d.state["leader"]["id"].to_list() == ["Gold"]
        assert d.dice.seed == SEED and d.dice.turn == 2
        # restart without entered keeps what was entered
        d.restart()
        d.run_all()
        assert {r.draw_id: r for r in d.rolls}["roll:Red#0"].source == ENTERED
        # an empty mapping clears it
        d.restart(entered={})
        d.run_all()
        assert {r.draw_id: r for r in d.rolls} == seeded


# ---------------------------------------------------------------------------
# the same with the Crown of Cien's real steps
# ---------------------------------------------------------------------------

GRID = """
Coyons Tróys Sevoy Cien Arles
Guicardie Solsauvre Vauclerc Cien Brest
~1 ~1 ~2 ~2 ~3
"""


def cien_driver(entered=None) -> Driver:
    state, params = scenario(GRID, {"Red": ("Coyons", "duchy"), "Gold": ("Arles", "city-state")},
                             owners={"Sevoy": "Gold"}, treasury={"Red": 40, "Gold": 40})
    orders, _ = orders_of(state, params, {
        "Red": "[b]20 Grain for Conquest of Tróys[/b]\n[b]8 Grain for Conquest of Sevoy[/b]",
        "Gold": "[b]6 Grain for Defense of Sevoy[/b]\n[b]6 Grain for Investing of Arles[/b]"})
    return Driver(RULESET.steps(Context(params)), state, orders,
                  Dice(SEED, 1, entered=entered or {}), params)


class TestCienSteps:
    def test_every_record_keeps_before_and_after(self) -> None:
        """Each of Cien's steps keeps the state before and after; each before is the previous
        after."""
        d = cien_driver()
        d.run_all()
        assert len(d.records) == len(RULESET.steps(Context(RULESET.rules())))
        prev = d.start
        for rec in d.records:
            assert rec.before.equals(prev)
            prev = rec.after
        assert d.state.equals(prev)
        assert any(r.draw_id.startswith("conquest:attack/Tróys/Red") for r in d.rolls)

    def test_back_and_forward_over_every_step_is_identical(self) -> None:
        """Going back any number of steps and forward again gives identical rolls and states."""
        ref = cien_driver()
        ref.run_all()
        for k in range(1, len(ref.records) + 1):
            d = cien_driver()
            d.run_all()
            for _ in range(k):
                d.back()
            d.run_all()
            assert d.rolls == ref.rolls
            assert d.events == ref.events
            assert d.state.equals(ref.state)

    def test_entered_war_die_changes_only_that_roll(self) -> None:
        """A GM-entered war die is used in the battle and logged as entered."""
        d = cien_driver()
        d.run_all()
        attack = next(r for r in d.rolls if r.draw_id == "conquest:attack/Tróys/Red#0")
        d.restart(entered={"conquest:attack/Tróys/Red": attack.total % 10 + 1})
        d.run_all()
        again = next(r for r in d.rolls if r.draw_id == "conquest:attack/Tróys/Red#0")
        assert again.source == ENTERED and again.total == attack.total % 10 + 1
        battle = next(e for e in d.events if e.kind == "battle" and e.region == "Tróys")
        assert battle.data["attack_roll"] == again.total
