"""Game folders written by an older gmkit keep opening, playing and verifying with this one.

``tests/fixtures/old-games/<ruleset>/`` are copies of the five sample games as an earlier gmkit
made them (seeds included: they are test data). Each is copied to a temporary folder, its status
shown, one more turn played through the commands a GM types (the posts already waiting, else a
bot's, else none), and the whole folder verified. A change that breaks this breaks running
games: keep the change's old behaviour reachable (a ruleset version, see ``docs/changelog.md``)
rather than editing the fixtures.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from gmkit.cli import main
from gmkit.core.dice import Dice
from gmkit.game import Game

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "old-games"
OLD_GAMES = ("cien", "aztlan", "pyramid", "jungle", "aeternus")


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("name", OLD_GAMES)
def test_an_old_game_folder_opens_plays_a_turn_and_verifies(name: str, tmp_path: Path) -> None:
    """A game folder written by an earlier gmkit opens, shows its status, resolves one more turn
    and verifies clean, its old turns included."""
    root = tmp_path / name
    shutil.copytree(FIXTURES / name, root)
    before = Game.open(root).latest_turn
    assert f"turn {before} committed" in _run("status", str(root))
    game = Game.open(root)
    turn = game.next_turn
    if game.store.pending_posts(turn).is_empty():
        state = game.coming_state()
        for pid in game.to_move(state):
            post = game.bot_post(state, pid, Dice("ab" * 32, turn, pid))
            if post.strip():
                game.receive_post(pid, post, received="2026-01-01T00:00:00+00:00")
    _run("commit-seed", str(root))
    _run("resolve", str(root), "--allow-empty")
    assert Game.open(root).latest_turn == before + 1
    assert "verified" in _run("verify", str(root))


def test_the_fixtures_are_complete() -> None:
    """Each old game is a whole folder: its configuration, its turns from the set-up on, and the
    seeds verify needs."""
    for name in OLD_GAMES:
        root = FIXTURES / name
        assert (root / "game.toml").is_file()
        turns = sorted(p.name for p in (root / "turns").iterdir())
        assert turns[0] == "0000.r0" and len(turns) > 2
        assert any((root / "secret").glob("*.seed")) or any((root / "revealed").glob("*.seed"))
