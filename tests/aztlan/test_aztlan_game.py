"""A whole game of AZTLAN, 1450 to 1519, played by seeded random players through the real workflow
(post, validate, resolve, commit, reveal), then replayed by ``verify`` (1.3: four seasons a year;
every rule of the turn exercised along the way)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from gmkit.core.steps import Termination
from gmkit.game import Game
from gmkit.sweeps.playout import play
from gmkit.rulesets import find_ruleset
from gmkit.rulesets.aztlan.state import season_of, turn_of

#: Random players snowball; with victory out of reach the game runs until the Spanish land, and
#: with the whole of 1519 played it is the full 280 turns.
WHOLE_GAME = {"victory_centres": 80, "spanish_season": "Fall"}


@pytest.fixture(scope="module")
def whole_game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    rs = find_ruleset("aztlan")
    root = Path(tmp_path_factory.mktemp("aztlan")) / "game"
    game = Game.new(root, "aztlan", rs.example_players(None), rules=WHOLE_GAME)
    return play(game, 300, master="aztlan-1450-1519", secret_every=5)


def test_1_3_seasons_run_from_winter_1450_to_fall_1519() -> None:
    """1.3: turn 1 is Winter 1450, four seasons a year, Spring 1519 is turn 278."""
    assert season_of(1) == (1450, "Winter")
    assert season_of(4) == (1450, "Fall")
    assert season_of(278) == (1519, "Spring")
    assert turn_of(1519, "Fall") == 280


def test_whole_game_1450_to_1519_ends_with_the_spanish_and_verifies(whole_game: Game) -> None:
    """1.3: with no winner the Spanish conquer everybody after the last season; the whole game,
    every turn re-resolved from its orders and revealed seed, verifies."""
    assert whole_game.turn().outcome
    outcome = whole_game.ruleset.outcome(whole_game.state(), whole_game.context())
    assert outcome is not None
    if outcome.termination is Termination.VICTORY:
        assert outcome.winners == ("Chichimecs",)  # 7.2: the one victory still in reach
    else:
        assert outcome.termination is Termination.TIME_LIMIT and outcome.winners == ()
        assert whole_game.latest_turn == 280
    assert whole_game.verify() == []


def test_whole_game_exercised_the_rules(whole_game: Game) -> None:
    """Over seventy years every kind of event of the turn happened at least once: captures and
    sacrifices (3.5), the gods' supports (3.5.3), retreats (5.7), new armies (3.2), the Chichimec
    die (7.0), eliminations (3.4)."""
    events = pl.concat([whole_game.turn(t).events for t in whole_game.store.turns()[1:]])
    kinds = set(events["kind"].to_list())
    assert {"capture", "sacrifice", "retreat", "build", "chichimecs", "eliminated",
            "city"} <= kinds
    texts = "\n".join(events["text"].to_list())
    assert "the gods add" in texts
    assert "retreat" in texts


def test_whole_game_keeps_the_board_legal(whole_game: Game) -> None:
    """4.1: at the end of every turn at most three armies and one owner per sector (any number in
    the desert, 7.7); 1.4: 79 cities throughout."""
    for t in whole_game.store.turns()[::20]:
        state = whole_game.state(t)
        armies = state["armies"]
        assert armies["sector"].is_unique().all()
        assert armies.filter((pl.col("count") > 3) & (pl.col("sector") != "Chichimec Desert")
                             ).is_empty()
        assert state["cities"].height == 79
