"""Hidden columns and rows declared once (gmkit.core.views.Private, PrivateRows, hide_private):
the GM sees all, the public none of it, a player their own rows; types are kept."""

from __future__ import annotations

import polars as pl
import pytest

from gmkit.core.tables import SchemaError, State
from gmkit.core.views import Private, PrivateRows, Viewer, hide_private

PLAYERS = pl.DataFrame({"id": ["Red", "Blue"], "house": ["Azure", "Crimson"],
                        "treasury": [10, 20], "plans": [["raid"], ["trade"]],
                        "mission": ["Ash", "Oak"], "fame": [1, 2]})
DEAD = pl.DataFrame({"held_by": ["Red", "Blue", "Red"], "count": [1, 2, 3]})
SECRETS = pl.DataFrame({"note": ["GM's"]})
STATE = State(3, {"players": PLAYERS, "dead": DEAD, "secrets": SECRETS})
PRIVATES = [Private("players", "id", ("treasury", "plans")), Private.gm_only("players", "mission"),
            PrivateRows("dead", "held_by"), PrivateRows("secrets", None)]


def test_the_gm_sees_the_state_unchanged():
    assert hide_private(STATE, PRIVATES, Viewer.gm()) is STATE


def test_the_public_sees_private_columns_null_on_every_row_with_their_types():
    out = hide_private(STATE, PRIVATES, "public")["players"]
    assert out["treasury"].to_list() == [None, None]
    assert out["plans"].to_list() == [None, None]
    assert out["mission"].to_list() == [None, None]
    assert out["fame"].to_list() == [1, 2]
    assert out.schema == PLAYERS.schema


def test_a_player_sees_private_columns_on_their_own_row_only():
    out = hide_private(STATE, PRIVATES, Viewer.player("Red"))["players"]
    assert out["treasury"].to_list() == [10, None]
    assert out["plans"].to_list() == [["raid"], None]
    assert out.schema == PLAYERS.schema


def test_gm_only_columns_are_null_for_every_player_even_on_their_own_row():
    out = hide_private(STATE, PRIVATES, "player:Red")["players"]
    assert out["mission"].to_list() == [None, None]


def test_private_rows_are_seen_by_their_owner_only_and_gm_rows_by_no_one_else():
    public = hide_private(STATE, PRIVATES, "public")
    assert public["dead"].height == 0 and public["dead"].schema == DEAD.schema
    red = hide_private(STATE, PRIVATES, "player:Red")
    assert red["dead"]["count"].to_list() == [1, 3]
    assert red["secrets"].height == 0 and red["secrets"].schema == SECRETS.schema


def test_owner_of_maps_a_player_to_the_owner_value_they_hold():
    """A house, not a player, owns a row: the player sees their house's figures."""
    privates = [Private("players", "house", ("treasury",))]
    house_of = {"alice": "Crimson"}
    out = hide_private(STATE, privates, "player:alice",
                       owner_of=lambda state, p: house_of[p])["players"]
    assert out["treasury"].to_list() == [None, 20]
    several = hide_private(STATE, privates, "player:alice",
                           owner_of=lambda state, p: ["Azure", "Crimson"])["players"]
    assert several["treasury"].to_list() == [10, 20]


def test_a_player_of_no_row_sees_what_the_public_sees():
    assert hide_private(STATE, PRIVATES, "player:Nobody").equals(
        hide_private(STATE, PRIVATES, "public"))


def test_a_table_the_state_lacks_is_skipped_and_a_missing_column_is_an_error():
    assert hide_private(STATE, [Private("captives", "id", ("x",))], "public").equals(STATE)
    with pytest.raises(SchemaError, match="players: no column\\(s\\) wealth to hide"):
        hide_private(STATE, [Private("players", "id", ("wealth",))], "public")
    with pytest.raises(SchemaError, match="players: no owner column owner"):
        hide_private(STATE, [Private("players", "owner", ("treasury",))], "public")


def test_a_private_declaration_names_at_least_one_column():
    with pytest.raises(ValueError, match="name at least one column"):
        Private("players", "id", ())


def test_each_declaration_may_say_which_owner_values_are_a_players():
    """A house owns its characters' sheets; its characters own their choices."""
    chars = pl.DataFrame({"name": ["Ixtli", "Nochtli"], "house": ["Azure", "Crimson"],
                          "xp": [3, 4]})
    plans = pl.DataFrame({"character": ["Ixtli", "Nochtli"], "plan": ["a", "b"]})
    state = State(1, {"characters": chars, "plans": plans})
    house_of = {"alice": "Azure"}

    def members(s: State, player: str) -> list[str]:
        own = s["characters"].filter(pl.col("house") == house_of[player])
        return own["name"].to_list()

    privates = [Private("characters", "house", ("xp",), owner_of=lambda s, p: house_of[p]),
                PrivateRows("plans", "character", owner_of=members)]
    out = hide_private(state, privates, "player:alice")
    assert out["characters"]["xp"].to_list() == [3, None]
    assert out["plans"]["plan"].to_list() == ["a"]


def test_rows_shown_to_all_stay_while_the_rest_are_the_owners():
    """Pyramids once built stand on the map for everyone; one being built is its owner's."""
    pyramids = pl.DataFrame({"player": ["Red", "Blue", "Blue"], "built": [True, False, True],
                             "stone": [5, 2, 7]})
    state = State(1, {"pyramids": pyramids})
    privates = [PrivateRows("pyramids", "player", shown=pl.col("built")),
                Private("pyramids", "player", ("stone",))]
    public = hide_private(state, privates, "public")["pyramids"]
    assert public.rows() == [("Red", True, None), ("Blue", True, None)]
    blue = hide_private(state, privates, "player:Blue")["pyramids"]
    assert blue.rows() == [("Red", True, None), ("Blue", False, 2), ("Blue", True, 7)]
