"""Frames from rows and a schema, rows read and changed by key (gmkit.core.tables): what every
ruleset does with its tables, done once."""

from __future__ import annotations

import polars as pl
import pytest

from gmkit.core.tables import MissingRow, SchemaError, frame, row, rows_by, update_rows

PLAYERS = {"id": pl.String, "gold": pl.Int64, "luck": pl.Float64, "titles": pl.List(pl.String),
           "active": pl.Boolean}


def test_frame_of_dict_rows_has_the_schemas_columns_in_schema_order_and_types():
    df = frame([{"gold": 3, "id": "Red", "titles": ["king"], "active": True, "luck": 1}],
               PLAYERS)
    assert df.columns == list(PLAYERS)
    assert dict(df.schema) == PLAYERS
    assert df.row(0, named=True) == {"id": "Red", "gold": 3, "luck": 1.0, "titles": ["king"],
                                     "active": True}


def test_frame_of_no_rows_is_an_empty_frame_of_the_schemas_types():
    for rows in ([], iter(()), ()):
        df = frame(rows, PLAYERS)
        assert df.height == 0 and dict(df.schema) == PLAYERS


def test_frame_of_tuple_rows_reads_values_in_schema_order():
    df = frame([("Red", 3, 0.5, [], False), ("Blue", 5, 1.5, None, True)], PLAYERS)
    assert df["id"].to_list() == ["Red", "Blue"]
    assert df["titles"].to_list() == [[], None]
    assert dict(df.schema) == PLAYERS


def test_frame_row_lacking_a_column_gives_null_and_an_unknown_key_is_ignored():
    df = frame([{"id": "Red", "note": "scratch"}], PLAYERS)
    assert df.row(0) == ("Red", None, None, None, None)


def test_frame_refuses_a_value_of_the_wrong_type_naming_table_column_and_value():
    with pytest.raises(SchemaError, match=r"players: column gold is Int64 and cannot hold 1\.5"):
        frame([{"id": "Red", "gold": 1.5}], PLAYERS, table="players")
    with pytest.raises(SchemaError, match=r"players: column id is String and cannot hold 7"):
        frame([{"id": 7}], PLAYERS, table="players")


def test_frame_refuses_a_tuple_row_of_the_wrong_length_naming_the_row():
    with pytest.raises(SchemaError, match=r"players: row 2 has 2 value\(s\) for 5 column"):
        frame([("Red", 3, 0.5, [], False), ("Blue", 5)], PLAYERS, table="players")


def test_frame_not_strict_converts_as_polars_does_and_gives_the_same_frame_otherwise():
    rows = [{"id": "Red", "gold": 3, "luck": 0.5, "titles": ["a"], "active": True},
            {"id": "Blue", "gold": 5}]
    assert frame(rows, PLAYERS, strict=False).equals(frame(rows, PLAYERS))
    assert frame([{"id": "Red", "gold": 1.5}], PLAYERS, strict=False)["gold"][0] == 1


def test_row_by_key_is_a_dict_copy_of_the_one_row():
    df = frame([("Red", 3, 0.5, ["a"], True), ("Blue", 5, 1.5, [], False)], PLAYERS)
    got = row(df, "id", "Blue")
    assert got == {"id": "Blue", "gold": 5, "luck": 1.5, "titles": [], "active": False}
    got["gold"] = 99
    assert df["gold"].to_list() == [3, 5]


def test_row_of_an_absent_key_raises_naming_the_table_and_key():
    df = frame([("Red", 3, 0.5, [], True)], PLAYERS)
    with pytest.raises(MissingRow, match=r"players: no row\(s\) with id 'Green'"):
        row(df, "id", "Green", table="players")


def test_row_of_a_key_held_twice_raises_rather_than_pick_one():
    df = frame([("Red", 3, 0.5, [], True), ("Red", 4, 0.5, [], True)], PLAYERS)
    with pytest.raises(MissingRow, match=r"players: 2 row\(s\) with id 'Red'"):
        row(df, "id", "Red", table="players")


def test_row_by_a_column_the_table_lacks_names_it():
    with pytest.raises(SchemaError, match="players: no column name"):
        row(frame([], PLAYERS), "name", "Red", table="players")


def test_update_rows_changes_the_keyed_rows_only_and_keeps_order_and_types():
    df = frame([("Red", 3, 0.5, ["a"], True), ("Blue", 5, 1.5, [], False),
                ("Green", 1, 0.0, None, True)], PLAYERS)
    out = update_rows(df, "id", {"Green": {"gold": 2, "titles": ["duke"]},
                                 "Red": {"active": False, "luck": None}})
    assert dict(out.schema) == PLAYERS
    assert out.rows() == [("Red", 3, None, ["a"], False), ("Blue", 5, 1.5, [], False),
                          ("Green", 2, 0.0, ["duke"], True)]
    assert df["gold"].to_list() == [3, 5, 1]  # the frame given is a value: unchanged


def test_update_rows_changes_every_row_holding_the_key():
    df = frame([{"id": "Red", "gold": 1}, {"id": "Red", "gold": 2}], PLAYERS)
    assert update_rows(df, "id", {"Red": {"gold": 0}})["gold"].to_list() == [0, 0]


def test_update_rows_of_an_absent_key_raises_naming_the_table_and_key_unless_allowed():
    df = frame([("Red", 3, 0.5, [], True)], PLAYERS)
    with pytest.raises(MissingRow, match=r"players: no row with id 'Green'"):
        update_rows(df, "id", {"Green": {"gold": 1}}, table="players")
    assert update_rows(df, "id", {"Green": {"gold": 1}}, must_exist=False).equals(df)


def test_update_rows_refuses_a_value_of_the_wrong_type_or_an_unknown_column():
    df = frame([("Red", 3, 0.5, [], True)], PLAYERS)
    with pytest.raises(SchemaError, match=r"players: column gold is Int64 and cannot hold 'x'"):
        update_rows(df, "id", {"Red": {"gold": "x"}}, table="players")
    with pytest.raises(SchemaError, match=r"players: no column wealth to set \(row id 'Red'\)"):
        update_rows(df, "id", {"Red": {"wealth": 1}}, table="players")


def test_rows_by_key_are_dict_copies_in_frame_order_and_a_repeated_key_is_refused():
    df = frame([("Red", 3, 0.5, [], True), ("Blue", 5, 1.5, ["a"], False)], PLAYERS)
    got = rows_by(df, "id", table="players")
    assert list(got) == ["Red", "Blue"] and got["Blue"]["titles"] == ["a"]
    got["Red"]["gold"] = 0
    assert df["gold"].to_list() == [3, 5]
    twice = frame([{"id": "Red"}, {"id": "Red"}], PLAYERS)
    with pytest.raises(SchemaError, match="players: id 'Red' is on more than one row"):
        rows_by(twice, "id", table="players")
