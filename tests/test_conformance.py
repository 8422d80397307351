"""Every registered ruleset keeps the same small interface and the standards that hold for all:
seeded playouts through the real workflow, schemas that hold, the same seed giving the same turn,
and ``verify`` passing."""

from __future__ import annotations

import pytest

from gmkit.core.ruleset import find_ruleset, registered
from gmkit.core.files import parquet_bytes
from gmkit.game import Game, starting_board
from gmkit.sweeps.playout import play

RULESETS = registered()


def _new(tmp_path, name: str, folder: str) -> Game:
    rs = find_ruleset(name)
    game_map = starting_board(rs)[0]
    return Game.new(tmp_path / folder, name, rs.example_players(game_map))


@pytest.mark.parametrize("name", RULESETS)
def test_ruleset_declares_its_rules_as_data(name):
    """Rules as data: every constant and option has a rule section and a meaning; every step
    cites its rule."""
    rs = find_ruleset(name)
    assert rs.params and all(p.rule and p.meaning for p in rs.params)
    steps = rs.steps(rs.rules())
    assert steps and all(s.rule and s.title for s in steps)
    assert len({s.name for s in steps}) == len(steps)
    for alias in rs.aliases:
        assert type(find_ruleset(alias)) is type(rs)


@pytest.mark.parametrize("name", RULESETS)
def test_seeded_playout_is_reproducible_and_verifies(tmp_path, name):
    """Same seed and same orders give the same turn, byte for byte; verify passes on the game."""
    games = [play(_new(tmp_path, name, f"g{i}"), 4, master="conformance") for i in (1, 2)]
    a, b = games
    assert a.store.turns() == b.store.turns() and len(a.store.turns()) == 5
    for turn in a.store.turns():
        sa, sb = a.state(turn), b.state(turn)
        assert sa.tables.keys() == b.ruleset.schemas.keys()
        for table in sa.tables:
            assert parquet_bytes(sa[table]) == parquet_bytes(sb[table]), (turn, table)
        assert a.turn(turn).rolls.equals(b.turn(turn).rolls)
    assert a.verify() == []
    # a game of chance rolls in an ordinary turn (a game of pure orders may not)
    assert a.turn().rolls.height > 0 or not a.ruleset.lifecycle.chance


@pytest.mark.parametrize("name", RULESETS)
def test_public_state_and_standings_hide_gm_columns(tmp_path, name):
    """Hidden information has one door: the public state blanks what the GM alone may see."""
    game = play(_new(tmp_path, name, "g"), 2, master="views")
    standings = game.ruleset.standings(game.state(), game.rules)
    for column in game.ruleset.views.gm_only:
        assert column in standings.columns
    public = game.viewed(game.state(), "public")
    assert public.tables.keys() == game.state().tables.keys()
