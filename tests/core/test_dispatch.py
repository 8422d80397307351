"""One dispatch from an order's type to its effect, with void actions told as events
(gmkit.core.dispatch): "Actions that are not valid at the moment of resolution will be
considered void"."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import polars as pl
import pytest

from gmkit.core.dispatch import Dispatch, UnknownAction, VoidAction, void_result
from gmkit.core.envelope import Envelope
from gmkit.core.steps import VOID, Event
from gmkit.core.tables import State

Result = tuple[State, list[Event]]


@dataclass(frozen=True)
class Move:
    to: str


@dataclass(frozen=True)
class March(Move):
    """A move by road: a kind of move with no effect of its own."""


@dataclass(frozen=True)
class Pray:
    pass


def gold(state: State) -> int:
    return int(state["players"]["gold"][0])


def move(state: State, order: Move, cost: int) -> Result:
    if gold(state) < cost:
        raise VoidAction("3.2", f"a move costs {cost} gold")
    players = state["players"].with_columns(pl.col("gold") - cost)
    return state.replace(players=players), [Event("move", "3.2", f"to {order.to}")]


STATE = State(1, {"players": pl.DataFrame({"id": ["Red"], "gold": [2]})})
DISPATCH: Dispatch[State, Result] = Dispatch({Move: move})


def test_an_order_runs_its_effect_with_the_subject_and_the_arguments_given():
    after, [event] = DISPATCH(STATE, Envelope(Move("Oak"), "Red", 4, 2), 1)
    assert gold(after) == 1 and event.text == "to Oak"


def test_an_order_of_a_subclass_runs_its_nearest_registered_base_effect():
    assert March("Elm") in DISPATCH and Pray() not in DISPATCH
    _, [event] = DISPATCH(STATE, Envelope(March("Elm"), "Red", 4, 2), 1)
    assert event.text == "to Elm"


def test_a_void_action_leaves_the_state_and_tells_its_player_the_rule_reason_and_line():
    after, [event] = DISPATCH(STATE, Envelope(Move("Oak"), "Red", 4, 2), 5)
    assert after is STATE
    assert (event.kind, event.rule, event.player, event.public) == (VOID, "3.2", "Red", False)
    assert event.text == "Red: line 2 is void: a move costs 5 gold."
    assert event.data["line"] == 2 and event.data["reason"] == "a move costs 5 gold"


def test_an_order_with_no_effect_is_the_rulesets_error_naming_its_type():
    with pytest.raises(UnknownAction, match="no effect for an order of type Pray"):
        DISPATCH(STATE, Envelope(Pray(), "Red", 4, 3))


@dataclass
class Doing:
    """A ruleset's own record of the action under way, collecting its events."""

    player: str
    events: list[Event] = field(default_factory=list)


def pray(d: Doing, order: Pray) -> None:
    d.events.append(Event("pray", "5", f"{d.player} kneels"))
    raise VoidAction("5.1", "the temple is closed")


def failed(d: Doing, envelope: Envelope[Any], void: VoidAction) -> None:
    d.events.append(Event("failed", void.rule, f"{envelope.player} cannot pray (line "
                          f"{envelope.line}): {void.reason}.", envelope.player))


def test_a_ruleset_keeps_its_own_words_for_a_void_action_through_its_callback():
    """The callback makes the event: the same words the ruleset wrote before, and what the
    effect said before it turned out void is kept by the ruleset's own record."""
    dispatch: Dispatch[Doing, None] = Dispatch({Pray: pray}, on_void=failed)
    d = Doing("Amber")
    dispatch(d, Envelope(Pray(), "Amber", 9, 4))
    assert [e.text for e in d.events] == ["Amber kneels",
                                          "Amber cannot pray (line 4): the temple is closed."]
    assert d.events[1].rule == "5.1"


def test_the_default_void_result_is_the_cores_void_event():
    _, [event] = void_result(STATE, Envelope(Pray(), "Blue", 2, 7), VoidAction("1", "late"))
    assert event.text == "Blue: line 7 is void: late." and str(VoidAction("1", "late")) == "late"
