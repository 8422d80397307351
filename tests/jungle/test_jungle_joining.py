"""JOINING THE GAME between council sessions: a player added, replaced or removed with
``gmkit players`` enters (or leaves) the state as the session after the change opens."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import gmkit.rulesets  # noqa: F401  (registers every ruleset)
from gmkit.core.players import PlayerInfo
from gmkit.core.ruleset import find_ruleset
from gmkit.game import Game
from gmkit.sweeps.playout import play
from gmkit.rulesets.jungle.world import assigned_hex

RS = find_ruleset("jungle")
PLAYERS = [{"id": h, "name": f"House {h}"} for h in ("Ocelotl", "Quetzal", "Tochtli")]
INFOS = [PlayerInfo(p["id"], p["name"]) for p in PLAYERS]


@pytest.fixture
def game(tmp_path: Path) -> Game:
    return play(Game.new(tmp_path / "g", "jungle", PLAYERS), 2, master="joining")


def test_joining_the_game_gives_a_new_house_one_peasant(game):
    """JOINING THE GAME: "When joining the game, you receive one peasant with XP 1, Wisdom 1,
    Craftsmanship 1, Fame 0. You are head of your own house with food 0 and gold 0"; the new
    house gets its ``houses`` and ``players`` rows."""
    after = [*INFOS, PlayerInfo("Coyotl", "House Coyotl", {"character": "Nezahual"})]
    state = RS.lifecycle.joined(game.state(), INFOS, after, game.rules)
    me = state["characters"].filter(pl.col("name") == "Nezahual").row(0, named=True)
    assert (me["house"], me["class"], me["xp"], me["fame"], me["wisdom"],
            me["craftsmanship"], me["alive"]) == ("Coyotl", "peasant", 1, 0, 1, 1, True)
    house = state["houses"].filter(pl.col("house") == "Coyotl").row(0, named=True)
    assert (house["food"], house["gold"], house["player"]) == (0, 0, "Coyotl")
    assert "Coyotl" in state["players"]["id"].to_list()
    assert state["characters"].height == game.state()["characters"].height + 1


def test_joining_the_game_on_the_workable_hex_the_player_chose(game):
    """JOINING THE GAME: "You get to give your peasant a name and choose a workable hex in any
    city to live on"; a returning player's AMPU gold comes with him."""
    after = [*INFOS, PlayerInfo("Coyotl", "House Coyotl",
                                {"character": "Nezahual", "city": "Texcoco", "q": 0, "r": 4,
                                 "gold": 12})]
    state = RS.lifecycle.joined(game.state(), INFOS, after, game.rules)
    me = state["characters"].filter(pl.col("name") == "Nezahual").row(0, named=True)
    assert (me["city"], me["q"], me["r"]) == ("Texcoco", 0, 4)
    assert state["houses"].filter(pl.col("house") == "Coyotl")["gold"].item() == 12


def test_joining_the_game_without_a_chosen_hex_is_assigned_the_least_crowded_free_hex(game):
    """JOINING THE GAME: "Characters that do not choose a starting location will be assigned one";
    with no dice between sessions, the least crowded workable hex that is neither a city hex
    nor a citizen's land, the same for the same state."""
    state = game.state()
    city, q, r = assigned_hex(state)
    centres = {(c["city"], c["q"], c["r"]) for c in state["cities"].iter_rows(named=True)}
    assert (city, q, r) not in centres
    held = state["hexes"].filter(pl.col("citizen").is_not_null())
    assert (city, q, r) not in set(held.select("city", "q", "r").iter_rows())
    crowd = state["characters"].filter(pl.col("alive") & pl.col("unit").is_null()).group_by(
        "city", "q", "r").len()
    here = crowd.filter((pl.col("city") == city) & (pl.col("q") == q) & (pl.col("r") == r))
    assert here.is_empty() or here["len"].item() <= crowd["len"].min()
    after = [*INFOS, PlayerInfo("Coyotl", "House Coyotl")]
    one = RS.lifecycle.joined(state, INFOS, after, game.rules)
    two = RS.lifecycle.joined(state, INFOS, after, game.rules)
    assert one["characters"].equals(two["characters"])
    newcomer = one["characters"].filter(pl.col("house") == "Coyotl").row(0, named=True)
    assert (newcomer["city"], newcomer["q"], newcomer["r"]) == (city, q, r)


def test_joining_the_game_a_removed_house_keeps_its_characters_but_posts_no_more(game):
    """JOINING THE GAME has no rule for leaving; the stated default: a removed player's house
    loses its ``players`` row and no longer moves, its characters stay in the world."""
    before = game.state()
    after = [p for p in INFOS if p.id != "Tochtli"]
    state = RS.lifecycle.joined(before, INFOS, after, game.rules)
    assert "Tochtli" not in state["players"]["id"].to_list()
    assert state["characters"].equals(before["characters"])
    assert "Tochtli" not in RS.players_to_move(state)
    back = RS.lifecycle.joined(state, after, INFOS, game.rules)  # he comes back to his characters
    assert "Tochtli" in back["players"]["id"].to_list()
    assert back["characters"].equals(before["characters"])


def test_joining_the_game_mid_game_plays_and_verifies(game):
    """JOINING THE GAME mid-game with ``gmkit players add``: the newcomer's house is in the
    state from the next session on, it plays the sessions after, and ``verify`` re-resolves
    every session with the players each was played with."""
    game.change_player("add", "Coyotl", {"name": "House Coyotl", "character": "Nezahual"},
                       why="a new player signs up")
    play(game, 2, master="joining")
    state = game.state()
    assert "Coyotl" in state["houses"]["house"].to_list()
    me = state["characters"].filter(pl.col("name") == "Nezahual").row(0, named=True)
    assert me["house"] == "Coyotl"
    assert game.verify() == []
    game.change_player("remove", "Quetzal", {}, why="a player leaves")
    play(game, 1, master="joining")
    assert "Quetzal" not in game.state()["players"]["id"].to_list()
    assert game.verify() == []


def test_a_house_added_between_sessions_posts_for_the_very_next_one(game):
    """JOINING THE GAME: a house added with ``gmkit players add`` orders its peasant in the
    session after it joins: its post is received and read against the state it joins."""
    game.change_player("add", "Coyotl", {"name": "House Coyotl", "character": "Nezahual"},
                       why="a new house joins")
    assert "Coyotl" in game.player_ids()
    got = game.receive_post("Coyotl", "[b]Nezahual: Toil[/b]")
    assert got.parsed.errors == [] and len(got.parsed.orders) == 1
    play(game, 1, master="joining")
    assert game.verify() == []


def test_verify_reports_an_added_table_dropped_from_a_turn_after_one_that_had_it(tmp_path):
    """A table the ruleset added later (captured settlers') may be missing from turns written
    before it; removed from the latest turn, file and manifest entry both, while the turns
    before have it, ``verify`` reports it rather than reading it as empty."""
    import json
    import shutil

    from gmkit.game import Game

    root = tmp_path / "jungle"
    shutil.copytree(Path(__file__).resolve().parents[2] / "data" / "sample-jungle", root)
    game = Game.open(root)
    folder = game.store.turn_path(game.latest_turn)
    (folder / "tables" / "captive_rows.parquet").unlink()
    manifest = json.loads((folder / "manifest.json").read_bytes())
    del manifest["files"]["tables/captive_rows.parquet"]
    (folder / "manifest.json").write_bytes(json.dumps(manifest, indent=1,
                                                      sort_keys=True).encode())
    problems = Game.open(root).verify()
    assert any("captive_rows.parquet is missing (turn" in p for p in problems), problems
