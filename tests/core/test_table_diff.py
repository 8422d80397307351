"""What changed in a table, as the GM's step view and the what-if show it: rows named by their
key, a changed field a line, never a whole row as a bare tuple under an empty column."""

from __future__ import annotations

import polars as pl

from gmkit.core.table_diff import changes, row_key


def test_rows_are_named_by_the_fewest_leading_columns_that_name_one_row():
    """A hex is named by ``q, r`` (neither alone names one row): one line per changed field,
    under a key column saying which columns name the row."""
    before = pl.DataFrame({"q": [0, 0, 1], "r": [0, 1, 0], "biome": ["sea", "land", "land"],
                           "owner": [None, "Amber", None]})
    after = before.with_columns(pl.when((pl.col("q") == 0) & (pl.col("r") == 1))
                                .then(pl.lit("Birch")).otherwise(pl.col("owner"))
                                .alias("owner"))
    assert row_key(before, after) == ["q", "r"]
    diff = changes(before, after)
    assert diff.columns == ["q, r", "field", "before", "after"]
    assert diff.rows() == [("0, 1", "owner", "Amber", "Birch")]


def test_a_row_one_side_has_is_listed_with_its_fields_by_name():
    """A new or removed row names its key and lists its other fields as ``name=value``;
    booleans read yes/no and a missing value a dash."""
    before = pl.DataFrame({"id": ["a"], "alive": [True], "note": [None]}, schema={
        "id": pl.String, "alive": pl.Boolean, "note": pl.String})
    after = pl.DataFrame({"id": ["a", "b"], "alive": [False, True], "note": [None, "x"]})
    diff = changes(before, after)
    assert diff.rows() == [("a", "alive", "yes", "no"),
                           ("b", "(new row)", "\u2014", "alive=yes, note=x")]
    gone = changes(after, before)
    assert ("b", "(removed)", "alive=yes, note=x", "\u2014") in gone.rows()


def test_a_table_no_columns_name_lists_its_rows_by_field_names_without_a_key_column():
    """Two rows alike on every column (a stack of two armies): no key; rows that one side has
    are listed with their fields by name, and no column is left empty."""
    before = pl.DataFrame({"sector": ["Tula", "Tula"], "player": ["Aztecs", "Aztecs"]})
    after = pl.DataFrame({"sector": ["Tula", "Tula", "Tula"],
                          "player": ["Aztecs", "Aztecs", "Tarascans"]})
    diff = changes(before, after, sides=("recorded", "what if"))
    assert diff.columns == ["field", "recorded", "what if"]
    assert diff.rows() == [("(new row)", "\u2014", "sector=Tula, player=Tarascans")]
    assert all(v for row in diff.rows() for v in row)


def test_nothing_changed_is_none():
    frame = pl.DataFrame({"id": ["a"], "n": [1]})
    assert changes(frame, frame) is None and changes(frame, frame.clone()) is None


def test_a_new_row_of_keys_alone_says_them_by_name():
    """A token placed on a hex (a row of its key columns alone) is never an empty cell."""
    before = pl.DataFrame({"player": ["Amber", "Amber"], "q": [0, -3], "r": [0, 2]})
    after = pl.DataFrame({"player": ["Amber", "Amber", "Amber"], "q": [0, -3, -3],
                          "r": [0, 2, -1]})
    assert changes(before, after).rows() == [
        ("Amber, -3, -1", "(new row)", "\u2014", "player=Amber, q=-3, r=-1")]
