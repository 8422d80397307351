"""A finished game says so: once a game's outcome is decided, resolve, orders and commit-seed
refuse at once with who won, and a game that commits its dice ahead makes no commitment after
the last turn."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from gmkit.cli import main
from gmkit.game.fairdice import DiceSetting, announced
from gmkit.game import Game, GameOverError
from gmkit.sweeps.playout import play

PLAYERS = [{"id": "Ann", "name": "Ann"}, {"id": "Bo", "name": "Bo"}]


@pytest.fixture(params=[False, True], ids=["commit-when-asked", "commit-ahead"])
def finished(request: pytest.FixtureRequest, tmp_path: Path) -> Game:
    """An example game whose last turn is turn 1 (``last_turn = 1``), played to its end."""
    game = Game.new(tmp_path / "g", "example", PLAYERS, rules={"last_turn": 1},
                    dice=DiceSetting(ahead=request.param))
    play(game, 3)
    assert game.latest_turn == 1 and game.game_over()
    return game


def _run(*args: object, input: str | None = None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def test_resolve_says_the_game_is_over_and_who_won_before_doing_anything(finished: Game):
    """Once the outcome is decided, 'resolve' says the game is over and who won, without
    resolving a turn or asking for a dice commitment."""
    res = _run("resolve", finished.root, "--allow-empty")
    assert res.exit_code != 0
    assert "the game is over after turn 1" in res.stderr and "richest" in res.stderr
    assert "commit-seed" not in res.stderr and "==" not in res.output
    assert finished.store.read_seed(2) is None


def test_orders_and_commit_seed_refuse_once_the_game_is_over(finished: Game):
    """'orders' stores nothing and 'commit-seed' makes no seed once the game is over."""
    res = _run("orders", finished.root, "--player", "Ann", "-", input="dig\n")
    assert res.exit_code != 0 and "the game is over" in res.stderr
    assert finished.store.pending_posts(2).is_empty()
    res = _run("commit-seed", finished.root)
    assert res.exit_code != 0 and "the game is over" in res.stderr
    assert finished.store.read_seed(2) is None
    with pytest.raises(GameOverError):
        finished.start()
    with pytest.raises(GameOverError):
        finished.receive_post("Ann", "dig")


def test_committing_ahead_makes_no_commitment_after_the_last_turn(finished: Game):
    """A game that commits its dice ahead commits turn N+1 when turn N commits, but none after
    the turn that ended the game."""
    assert announced(finished.store, 2) is None
    assert finished.store.read_seed(2) is None


def test_rolling_back_before_the_last_turn_opens_the_game_again(finished: Game):
    """A rollback to before the turn that ended the game takes orders and commitments again;
    a game that commits ahead commits the coming turn at once."""
    finished.rollback(0, "the last turn is played again")
    assert finished.game_over() is None
    assert finished.receive_post("Ann", "dig").parsed.orders
    assert (announced(finished.store, 1) is not None) == finished.dice_setting.ahead
