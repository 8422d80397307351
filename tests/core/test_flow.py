"""The flow of a turn: steps run once per actor in an order fixed from the state (ties by a
logged draw), phases, and orders in their envelopes taken as received (gmkit.core.flow,
gmkit.core.steps, gmkit.core.envelope)."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl
import pytest

from gmkit.core.dice import Dice
from gmkit.core.envelope import Envelope, Orders
from gmkit.core.flow import by_column, by_time_posted
from gmkit.core.params import Param, Params
from gmkit.core.steps import Driver, Event, Step
from gmkit.core.tables import State

SEED = "ab" * 32
RULES = Params([Param("x", 1, "0", "nothing")])


@dataclass(frozen=True)
class Act:
    """An order: do something worth ``points``."""

    points: int


def state(fame: dict[str, int]) -> State:
    return State(0, {"characters": pl.DataFrame({"id": list(fame), "fame": list(fame.values()),
                                                 "score": [0] * len(fame)})})


def act(st: State, orders: Orders, dice: Dice, rules: Params, actor: str
        ) -> tuple[State, list[Event]]:
    """One character acts: adds its orders' points and a d6."""
    roll = dice.d(6, purpose=f"{actor}'s luck", rule="2.1", key="luck")
    gain = sum(o.points for o in orders.get(actor, [])) + roll
    chars = st["characters"].with_columns(
        pl.when(pl.col("id") == actor).then(pl.col("score") + gain).otherwise(pl.col("score"))
        .alias("score"))
    return st.replace(characters=chars), [Event("act", "2.1", f"{actor} gains {gain}", actor)]


def steps(descending: bool = True) -> list[Step]:
    return [Step("morning", "Morning actions", "2.1",
                 actors=by_column("characters", "fame", descending=descending, rule="2.1"),
                 act=act, phase="Morning"),
            Step("evening", "Evening", "2.3", fn=lambda s, o, d, r: (s, []), phase="Evening")]


def test_actors_act_in_order_of_fame_high_to_low_and_low_to_high():
    """First actions in order of Fame high to low, second actions low to high: the order is
    fixed from the state when the step begins and logged as an event."""
    fame = {"Itzel": 3, "Gualpa": 9, "Xoco": 5}
    high = Driver(steps(True), state(fame), {}, Dice(SEED, 1), RULES)
    order = high.next()
    assert order.actors == ("Gualpa", "Xoco", "Itzel") and order.actor is None
    assert "Gualpa (9), Xoco (5), Itzel (3)" in order.events[0].text
    assert [high.next().actor for _ in range(3)] == ["Gualpa", "Xoco", "Itzel"]
    low = Driver(steps(False), state(fame), {}, Dice(SEED, 1), RULES)
    assert low.next().actors == ("Itzel", "Xoco", "Gualpa")


def test_ties_are_broken_by_a_logged_draw_the_gm_can_enter():
    """Ties by a logged draw: a shuffle of the tied actors with its own draw id, which the GM
    may enter instead."""
    fame = {"A": 5, "B": 5, "C": 5, "D": 1}
    seeded = Driver(steps(), state(fame), {}, Dice(SEED, 1), RULES).next()
    draw = seeded.rolls[0]
    assert draw.draw_id == "morning:ties/5" and sorted(draw.result) == ["A", "B", "C"]
    assert seeded.actors == (*draw.result, "D")
    entered = Driver(steps(), state(fame), {}, Dice(SEED, 1, entered={draw.draw_id:
                                                                       ["C", "A", "B"]}), RULES)
    assert entered.next().actors == ("C", "A", "B", "D")


def test_the_gm_steps_and_steps_back_action_by_action():
    """The driver records one record per actor's action: the GM steps, steps back and
    re-enters a die action by action; each action's dice are scoped to its actor."""
    orders = Orders([Envelope(Act(2), "Xoco", 1, 1), Envelope(Act(10), "Gualpa", 2, 1)])
    d = Driver(steps(), state({"Gualpa": 9, "Xoco": 5}), orders, Dice(SEED, 1), RULES)
    assert d.phase == "Morning" and d.next_actor is None
    d.next()
    assert d.next_actor == "Gualpa"
    first = d.next()
    assert first.rolls[0].draw_id == "morning:Gualpa/luck#0"
    assert first.title == "Morning actions: Gualpa"
    d.back()
    assert d.next_actor == "Gualpa"
    again = d.next()
    assert again.after.equals(first.after)
    d.next()
    assert d.phase == "Evening" and not d.done
    d.next()
    assert d.done
    score = dict(d.state["characters"].select("id", "score").iter_rows())
    luck = {r.draw_id: r.result[0] for rec in d.records for r in rec.rolls}
    assert score == {"Gualpa": 10 + luck["morning:Gualpa/luck#0"],
                     "Xoco": 2 + luck["morning:Xoco/luck#0"]}
    d.restart(entered={"morning:Xoco/luck": 6})
    d.run_all()
    assert dict(d.state["characters"].select("id", "score").iter_rows())["Xoco"] == 8


def test_orders_as_received_by_posting_time_then_post_then_line():
    """Order 'as received' means by posting time, then sequence number; the rules can take
    orders by player, as received, or by kind, and ask an order's envelope."""
    a = Envelope(Act(1), "Red", 2, 1, posted="2026-01-01T10:00:00+00:00")
    b = Envelope(Act(2), "Gold", 1, 3, secret=True, posted="2026-01-01T11:00:00+00:00")
    c = Envelope(Act(3), "Red", 3, 1, stored="2026-01-01T09:00:00+00:00")
    orders = Orders([a, b, c])
    assert [e.order.points for e in orders.received()] == [3, 1, 2]
    assert orders["Red"] == [Act(1), Act(3)] and list(orders) == ["Red", "Gold"]
    assert [e.secret for e in orders.of("Gold")] == [True]
    assert [e.post for e in orders.of("Red")] == [2, 3]
    assert [e.player for e in orders.of_kind(Act)] == ["Red", "Red", "Gold"]
    st = State(0, {})
    actors, events = by_time_posted(rule="4")(st, orders, Dice(SEED, 1), RULES)
    assert actors == ["Red", "Gold"]


def test_a_per_actor_step_needs_both_functions():
    """A step is either a function or a pair of actors and act."""
    with pytest.raises(ValueError, match="both"):
        Step("x", "X", "1", actors=by_time_posted(rule="1"))


def test_an_order_by_a_hidden_column_names_the_order_not_the_values():
    """The order of play is public; by a column players may not see (Fame kept on private
    sheets), neither the event nor the tie-break draw tells the values."""
    hidden = [Step("morning", "Morning actions", "2.1", phase="Morning", act=act,
                   actors=by_column("characters", "fame", rule="2.1", show_values=False))]
    first = Driver(hidden, state({"A": 17, "B": 17, "C": 4}), {}, Dice(SEED, 1), RULES).next()
    text = first.events[0].text + " ".join(r.purpose + r.draw_id for r in first.rolls)
    assert "17" not in text and " 4" not in text
    assert set(first.actors[:2]) == {"A", "B"} and first.actors[2] == "C"
    assert first.rolls[0].draw_id == "morning:ties/rank-1"


def test_who_takes_part_may_depend_on_the_rules_in_force():
    """Which actors take part is decided from the state, the orders and the rules in force (a
    game whose rules set the Fame a character needs to act)."""
    table = Params([Param("least_fame", 4, "2.1", "Fame needed to act")])
    fame = {"Itzel": 3, "Gualpa": 9, "Xoco": 5}
    step = [Step("morning", "Morning actions", "2.1", act=act, actors=by_column(
        "characters", "fame", rule="2.1",
        who=lambda st, orders, rules: pl.col("fame") >= rules.least_fame))]
    assert Driver(step, state(fame), {}, Dice(SEED, 1), table).next().actors == \
        ("Gualpa", "Xoco")
    stricter = Params(table.table.values(), {"least_fame": 6})
    assert Driver(step, state(fame), {}, Dice(SEED, 1), stricter).next().actors == ("Gualpa",)
