"""Orders as typed units with a stable key, taken in posting order, one action per actor
(gmkit.core.envelope, gmkit.core.flow.actions_as_posted): nothing needs ``id(order)`` and no
ruleset parses actor names."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

import polars as pl
import pytest

from gmkit.core.dice import Dice
from gmkit.core.envelope import Envelope, Orders
from gmkit.core.flow import actions_as_posted
from gmkit.core.params import Param, Params
from gmkit.core.steps import Driver, Event, Step
from gmkit.core.tables import State

SEED = "cd" * 32
RULES = Params([Param("x", 1, "0", "nothing")])


@dataclass(frozen=True)
class Dig:
    """An order: dig ``depth``."""

    depth: int


def orders() -> Orders[Dig]:
    return Orders([
        Envelope(Dig(1), "Amber", 5, 1, posted="2026-03-01T10:05:00+00:00"),
        Envelope(Dig(2), "Amber", 5, 2, posted="2026-03-01T10:05:00+00:00"),
        Envelope(Dig(3), "Amber.Jr", 4, 1, secret=True, posted="2026-03-01T10:00:00+00:00"),
        Envelope(Dig(4), "Blue", 6, 1, posted="2026-03-01T10:01:00+00:00"),
    ])


def test_an_envelope_key_is_player_post_line_and_index():
    e = Envelope(Dig(1), "Amber", 5, 2)
    assert e.key == ("Amber", 5, 2, 0)
    assert Envelope(Dig(9), "Amber", 5, 2).key == e.key  # the same line read again


def test_several_orders_read_from_one_line_get_distinct_keys_in_the_order_given():
    got = Orders([Envelope(Dig(1), "Red", 1, 3), Envelope(Dig(2), "Red", 1, 3),
                  Envelope(Dig(3), "Red", 1, 4)])
    assert [e.key for e in got.envelopes] == [("Red", 1, 3, 0), ("Red", 1, 3, 1),
                                              ("Red", 1, 4, 0)]
    assert got.by_key(("Red", 1, 3, 1)).order == Dig(2)
    assert got.of("Red")[1].index == 1


def test_by_key_finds_an_envelope_and_names_an_unknown_key():
    o = orders()
    assert o.by_key(("Blue", 6, 1, 0)).order == Dig(4)
    with pytest.raises(KeyError, match=r"no order of this turn has the key \('Blue', 6, 2, 0\)"):
        o.by_key(("Blue", 6, 2, 0))


def test_only_keys_and_only_keep_the_same_orders():
    o = orders()
    keep = [e for e in o.envelopes if e.player != "Amber"]
    by_keys = o.only_keys(e.key for e in keep)
    assert dict(by_keys) == dict(o.only(keep)) == {"Amber.Jr": [Dig(3)], "Blue": [Dig(4)]}
    # an envelope equal in key but read again (another object) is the same order
    again = Envelope(Dig(4), "Blue", 6, 1)
    assert dict(o.only([again])) == {"Blue": [Dig(4)]}


def test_received_is_by_posting_time_then_post_then_line_and_when_can_be_the_lines_own():
    o = orders()
    assert [e.order.depth for e in o.received()] == [3, 4, 1, 2]
    late_first = {3: datetime(2026, 3, 2, tzinfo=timezone.utc)}

    def when(e: Envelope[Dig]) -> datetime:
        return late_first.get(e.order.depth, e.when)

    assert [e.order.depth for e in o.received(when)] == [4, 1, 2, 3]
    assert o.following(o.by_key(("Blue", 6, 1, 0))).order == Dig(1)
    assert o.following(o.by_key(("Amber", 5, 2, 0))) is None
    assert o.following(o.by_key(("Amber", 5, 2, 0)), when).order == Dig(3)


def test_actor_names_round_trip_even_for_a_player_whose_name_has_a_dot():
    o = orders()
    names = [o.actor(e) for e in o.envelopes]
    assert names == ["Amber.1", "Amber.2", "Amber.Jr.1", "Blue.1"]
    assert [o.acting(n) for n in names] == list(o.envelopes)
    with pytest.raises(KeyError, match="'Amber.3' names no order of this turn"):
        o.acting("Amber.3")


def act(state: State, o: Orders[Dig], dice: Dice, rules: Params,
        actor: str) -> tuple[State, list[Event]]:
    """One action: the digger's depth added to the pit, read back from the actor's name."""
    e = o.acting(actor)
    pit = state["pit"].with_columns(pl.col("depth") + e.order.depth)
    return state.replace(pit=pit), [Event("dig", "4", f"{e.player} digs {e.order.depth} "
                                          f"(line {e.line})", e.player, public=not e.secret)]


def test_a_per_actor_step_resolves_each_action_once_in_the_order_posted():
    """Actions are resolved one by one, as posted: the driver names each by its actor name and
    the act function finds its order again."""
    step = Step("dig", "Digging", "4", actors=actions_as_posted(rule="4"), act=act)
    driver = Driver([step], State(1, {"pit": pl.DataFrame({"depth": [0]})}), orders(),
                    Dice(SEED, 1), RULES)
    driver.run_all()
    assert driver.state["pit"]["depth"].to_list() == [10]
    assert driver.events[0].text == "Actions as posted: Amber.Jr.1, Blue.1, Amber.1, Amber.2."
    assert [r.actor for r in driver.records[1:]] == ["Amber.Jr.1", "Blue.1", "Amber.1",
                                                     "Amber.2"]
    assert driver.events[1].public is False  # the secret post's action stays private


def test_actions_as_posted_says_none_when_no_order_came():
    actors, [event] = actions_as_posted(rule="4")(State(1), Orders(), Dice(SEED, 1), RULES)
    assert actors == [] and event.text == "Actions as posted: none."
    assert event.kind == "order of play" and event.data == {"actors": []}


def test_a_structure_derived_from_the_orders_is_built_once_per_orders():
    """An act function runs once per actor with the same orders: what it reads from them is
    worked out once, and other orders (the GM changed one) derive their own."""
    calls: list[int] = []

    def by_player(o: Orders[Dig]) -> dict[str, int]:
        calls.append(1)
        return {p: sum(d.depth for d in ds) for p, ds in o.items()}

    o = orders()
    assert o.derived("depths", by_player) == {"Amber": 3, "Amber.Jr": 3, "Blue": 4}
    assert o.derived("depths", by_player) is o.derived("depths", by_player)
    assert len(calls) == 1
    assert o.only_keys([("Blue", 6, 1, 0)]).derived("depths", by_player) == {"Blue": 4}
    assert len(calls) == 2
