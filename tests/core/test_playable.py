"""What a playable state is, declared as data (:mod:`gmkit.core.playable`): each declaration
finds what breaks it, names the table, row and column, and finds nothing in a state that keeps
it; the core's limits on numbers hold for every ruleset without a declaration."""

from __future__ import annotations

import math

import polars as pl

from gmkit.core.params import Param, Params
from gmkit.core.parts import Context
from gmkit.core.players import PlayerInfo
from gmkit.core.playable import (PLAYERS, ROWS_NAMED, OneOf, Playable, Range, Refers, Required,
                                 Rows, StateProblem, Unique, state_problems)
from gmkit.core.tables import State

SCHEMAS = {
    "players": {"id": pl.String, "gold": pl.Int64, "government": pl.String},
    "lands": {"name": pl.String, "owner": pl.String, "x": pl.Float64, "tags": pl.List(pl.String)},
    "roads": {"a": pl.String, "b": pl.String},
    "hexes": {"q": pl.Int64, "r": pl.Int64},
    "units": {"q": pl.Int64, "r": pl.Int64},
}
RULES = Params((Param("max_gold", 100, "1. Gold", "the most gold a player holds", low=0,
                      high=10**6),))
CTX = Context(RULES, players=(PlayerInfo("Red", "Red"), PlayerInfo("Blue", "Blue")))


def _state(players=(("Red", 5, "duchy"), ("Blue", 7, "duchy")),
           lands=(("Ford", "Red", 1.0, ["river"]), ("Hill", None, 2.0, [])),
           roads=(("Ford", "Hill"),), units=((0, 0),)) -> State:
    return State(3, {
        "players": pl.DataFrame(list(players), schema=SCHEMAS["players"], orient="row"),
        "lands": pl.DataFrame(list(lands), schema=SCHEMAS["lands"], orient="row"),
        "roads": pl.DataFrame(list(roads), schema=SCHEMAS["roads"], orient="row"),
        "hexes": pl.DataFrame([(0, 0), (1, 0)], schema=SCHEMAS["hexes"], orient="row"),
        "units": pl.DataFrame(list(units), schema=SCHEMAS["units"], orient="row"),
    })


def _lines(declared: Playable, state: State) -> list[str]:
    return [p.line() for p in state_problems(declared, state, CTX, SCHEMAS)]


def test_a_state_that_keeps_every_declaration_has_no_problem() -> None:
    declared = Playable(unique=(Unique("players", "id"), Unique("roads", "a", "b")),
                        refers=(Refers("lands.owner", "players.id"),
                                Refers("players.id", PLAYERS)),
                        ranges=(Range("players.gold", 0, "max_gold"),),
                        one_of=(OneOf("players.government", ("duchy", "kingdom")),
                                OneOf("lands.tags", ("river", "hill"))),
                        required=(Required("lands", "x"),), rows=(Rows("players", 1, 10),))
    assert _lines(declared, _state()) == []


def test_unique_names_the_row_repeating_a_key_and_the_row_it_repeats() -> None:
    """Two rows with one key: the second is named, with the first row it repeats."""
    state = _state(players=(("Red", 5, "duchy"), ("Blue", 7, "duchy"), ("Red", 1, "duchy")))
    lines = _lines(Playable(unique=(Unique("players", "id"),)), state)
    assert lines == ["table 'players': row 3, column 'id': 'Red' is on row 1 too; no two rows of "
                     "'players' may share their id"]


def test_unique_on_several_columns_and_an_empty_key() -> None:
    state = _state(roads=(("Ford", "Hill"), ("Ford", "Hill"), (None, "Hill")))
    found = state_problems(Playable(unique=(Unique("roads", "a", "b"),)), state, CTX, SCHEMAS)
    assert [(p.row, p.column) for p in found] == [(3, "a"), (2, None)]
    assert "('Ford', 'Hill') is on row 1 too" in found[1].text


def test_refers_names_a_cell_that_names_no_row_and_lists_what_it_may_name() -> None:
    """An owner who is no player is refused; an empty owner names nobody and is fine."""
    state = _state(lands=(("Ford", "Green", 1.0, []), ("Hill", None, 2.0, [])))
    found = state_problems(Playable(refers=(Refers("lands.owner", "players.id",
                                                   what="player"),)), state, CTX, SCHEMAS)
    assert found == [StateProblem("lands", 1, "owner", "'Green' names no player (Blue, Red)",
                                  "Ford")]


def test_refers_to_the_game_s_players_and_to_words_besides() -> None:
    state = _state(players=(("Red", 5, "duchy"), ("Zed", 1, "duchy")))
    lines = _lines(Playable(refers=(Refers("players.id", PLAYERS),)), state)
    assert lines == ["table 'players': row 2, column 'id': 'Zed' names no player of the game "
                     "(Blue, Red)"]
    assert _lines(Playable(refers=(Refers("players.id", PLAYERS, also=("Zed",)),)), state) == []


def test_refers_every_target_names_a_target_no_row_names() -> None:
    """``every``: each player of the game has a row (a player listed and never placed is
    named)."""
    state = _state(players=(("Red", 5, "duchy"),))
    lines = _lines(Playable(refers=(Refers("players.id", PLAYERS, every=True),)), state)
    assert lines == ["table 'players': column 'id': no row names 'Blue', a player of the game; "
                     "each has its row"]


def test_refers_over_several_columns_and_a_list_column() -> None:
    state = _state(lands=(("Ford", "Red", 1.0, ["Hill", "Moor"]), ("Hill", None, 2.0, [])))
    found = state_problems(Playable(refers=(Refers("units.q,r", "hexes.q,r", what="hex"),)),
                           _state(units=((0, 0), (0, 1), (None, 1))), CTX, SCHEMAS)
    assert [(p.table, p.row, p.text) for p in found] == [("units", 2, "(0, 1) names no hex "
                                                          "((0, 0), (1, 0))")]
    found = state_problems(Playable(refers=(Refers("lands.tags", "lands.name"),)), state, CTX,
                           SCHEMAS)
    assert [(p.row, p.text) for p in found] == [(1, "'Moor' names no row of 'lands' (name) "
                                                    "(Ford, Hill)")]


def test_range_bounds_are_numbers_or_rules_in_force() -> None:
    """A bound naming a rule reads the rule's value in force (a house rule moves it)."""
    state = _state(players=(("Red", 150, "duchy"), ("Blue", -1, "duchy")))
    declared = Playable(ranges=(Range("players.gold", 0, "max_gold", rule="1. Gold"),))
    assert _lines(declared, state) == [
        "table 'players': row 1 (Red), column 'gold': 150 is not from 0 to 100 (rule "
        "'max_gold') (1. Gold)",
        "table 'players': row 2 (Blue), column 'gold': -1 is not from 0 to 100 (rule "
        "'max_gold') (1. Gold)"]
    house = Context(Params(RULES.table.values(), {"max_gold": 200}), players=CTX.players)
    assert [p.row for p in state_problems(declared, state, house, SCHEMAS)] == [2]


def test_one_of_names_a_word_the_rules_do_not_use_in_a_text_or_a_list() -> None:
    state = _state(players=(("Red", 5, "tyranny"), ("Blue", 7, "duchy")),
                   lands=(("Ford", "Red", 1.0, ["river", "unicorn"]),))
    lines = _lines(Playable(one_of=(OneOf("players.government", ("duchy", "kingdom")),
                                    OneOf("lands.tags", ("river",)))), state)
    assert lines == ["table 'players': row 1 (Red), column 'government': 'tyranny' is not one of "
                     "duchy, kingdom",
                     "table 'lands': row 1 (Ford), column 'tags': 'unicorn' is not one of river"]


def test_required_rows_and_the_count_of_rows() -> None:
    state = _state(players=(), lands=(("Ford", "Red", None, []),))
    lines = _lines(Playable(required=(Required("lands", "x"),),
                            rows=(Rows("players", 1, None, "2. Players"),)), state)
    assert lines == ["table 'lands': row 1 (Ford), column 'x': is empty; the rules need a value",
                     "table 'players': 0 row(s); the rules need at least 1 (2. Players)"]


def test_every_number_is_finite_and_within_the_limit_without_a_declaration() -> None:
    """NaN, infinity or 2^63-1 in any number column is refused for every ruleset; a column a
    Range bounds is bounded by it instead."""
    state = _state(players=(("Red", 2**63 - 1, "duchy"),),
                   lands=(("Ford", "Red", math.nan, []), ("Hill", None, math.inf, []),
                          ("Moor", None, -1e12, [])))
    found = state_problems(Playable(), state, CTX, SCHEMAS)
    assert [(p.table, p.row, p.column) for p in found] == [
        ("players", 1, "gold"), ("lands", 1, "x"), ("lands", 2, "x"), ("lands", 3, "x")]
    assert "9223372036854775807 is beyond 1,000,000,000" in found[0].text
    assert "nan is not a number a game can hold" in found[1].text


def test_at_most_ten_rows_are_named_per_declaration_and_the_rest_counted() -> None:
    state = _state(players=[(f"P{i}", -i - 1, "duchy") for i in range(25)])
    found = state_problems(Playable(ranges=(Range("players.gold", 0),)), state, CTX, SCHEMAS)
    assert len(found) == ROWS_NAMED + 1
    assert found[-1].text.startswith("15 more row(s) are not from 0")


def test_the_cross_row_check_runs_only_on_a_state_the_data_finds_sound() -> None:
    """The check may rely on every declaration: it is not run while one fails."""
    calls = []

    def check(state: State, ctx: Context) -> list[StateProblem]:
        calls.append(state.turn)
        return [StateProblem("roads", 1, None, "a road to nowhere")]

    declared = Playable(unique=(Unique("players", "id"),), check=check)
    assert _lines(declared, _state()) == ["table 'roads': row 1: a road to nowhere"]
    doubled = _state(players=(("Red", 5, "duchy"), ("Red", 7, "duchy")))
    assert [p.column for p in state_problems(declared, doubled, CTX, SCHEMAS)] == ["id"]
    assert calls == [3]


def test_a_problem_names_its_file_when_given_one() -> None:
    p = StateProblem("players", 2, "gold", "-1 is not from 0", "Red")
    assert p.line("position/players.csv") == \
        "position/players.csv: row 2 (Red), column 'gold': -1 is not from 0"
    assert StateProblem("players", None, None, "no rows").line() == "table 'players': no rows"
