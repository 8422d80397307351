"""Structures derived from a state's tables, built once per state (gmkit.core.tables.State):
the core's replacement for caches keyed by identity and for a state that hands its structure on
by changing itself."""

from __future__ import annotations

import polars as pl

from gmkit.core.tables import State

BORDERS = pl.DataFrame({"a": ["Ash", "Ash", "Elm"], "b": ["Elm", "Oak", "Oak"]})


def neighbours(state: State) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for a, b in state["borders"].iter_rows():
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return out


class Counting:
    """A build function that counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, state: State) -> dict[str, set[str]]:
        self.calls += 1
        return neighbours(state)


def test_derived_value_equals_one_rebuilt_from_the_tables_and_is_built_once():
    state = State(1, {"borders": BORDERS, "players": pl.DataFrame({"id": ["Red"]})})
    build = Counting()
    first = state.derived("neighbours", build)
    assert first == neighbours(State(1, {"borders": BORDERS}))
    assert state.derived("neighbours", build) is first
    assert build.calls == 1


def test_a_state_made_by_replace_does_not_inherit_a_derived_value():
    state = State(1, {"borders": BORDERS})
    build = Counting()
    state.derived("neighbours", build)
    fewer = state.replace(borders=BORDERS.head(1))
    assert fewer.derived("neighbours", build) == {"Ash": {"Elm"}, "Elm": {"Ash"}}
    same_tables = state.replace(turn=2)
    same_tables.derived("neighbours", build)
    assert build.calls == 3


def test_a_value_derived_from_named_tables_is_kept_while_those_frames_are_unchanged():
    state = State(1, {"borders": BORDERS, "players": pl.DataFrame({"id": ["Red"]})})
    build = Counting()
    value = state.derived("neighbours", build, tables=("borders",))
    later = state.replace(players=pl.DataFrame({"id": ["Red", "Blue"]}))
    assert later.derived("neighbours", build, tables=("borders",)) is value
    changed = later.replace(borders=BORDERS.head(1))
    assert changed.derived("neighbours", build, tables=("borders",)) is not value
    assert build.calls == 2


def test_with_derived_hands_a_value_to_a_new_equal_state_and_changes_no_state():
    state = State(1, {"borders": BORDERS})
    build = Counting()
    kept = neighbours(state)
    handed = state.with_derived("neighbours", kept)
    assert handed is not state and handed.equals(state) and handed == state
    assert handed.derived("neighbours", build) is kept
    assert build.calls == 0
    assert state.derived("neighbours", build) is not kept  # the original derives its own
    assert build.calls == 1


def test_with_derived_hands_on_only_the_value_given():
    state = State(1, {"borders": BORDERS})
    state.derived("other", lambda s: "built for the original")
    handed = state.with_derived("neighbours", {})
    assert handed.derived("other", lambda s: "built afresh") == "built afresh"


def test_claim_hands_a_structure_over_once_then_builds_afresh():
    """A step that changes its structure in place claims it; the state it came from, resolved
    from again after a step back, builds a fresh one rather than reuse the changed one."""
    state = State(1, {"borders": BORDERS})
    world = neighbours(state)
    handed = state.with_derived("world", world)
    taken = handed.claim("world", neighbours)
    assert taken is world
    taken["Ash"].add("Pine")  # the action changes it in place
    again = handed.claim("world", neighbours)
    assert again is not world and again == neighbours(state)
    assert State(1, {}).claim("world", lambda s: {"fresh": set()}) == {"fresh": set()}


def test_a_state_copied_by_dataclasses_replace_derives_afresh():
    import dataclasses

    state = State(1, {"borders": BORDERS})
    state.derived("neighbours", neighbours)
    copy = dataclasses.replace(state, turn=2)
    assert copy.derived("neighbours", lambda s: {}) == {}
