"""Seeded playouts: a game played by the rulesets' random players, through the real workflow.

Used to build the sample game, by the benchmarks and by the property tests. Everything is derived
from one master seed, so the same call builds the same game byte for byte (but for the reception
times, which are fixed too).
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import gmkit.game.fairdice as fairdice
from gmkit.core.beacon import Beacon
from gmkit.core.dice import Dice
from gmkit.game import Game

#: A turn's order deadline and the beacon published after it.
BeaconFor = Callable[[int], tuple[datetime, Beacon]]


def derived_seed(master: str, *parts: object) -> str:
    """A turn seed derived from a master seed (for reproducible sample games only)."""
    return hashlib.sha256("|".join([master, *map(str, parts)]).encode()).hexdigest()


#: The reception time of bot posts unless asked otherwise (fixed, so a playout is reproducible).
RECEIVED = "2026-01-01T00:00:00+00:00"


def receive_bot_posts(game: Game, master: str, *, secret_every: int = 3,
                      received: str | None = RECEIVED) -> None:
    """Every player due to move posts a bot's orders for the coming turn, received at
    ``received`` (None: now, as a real post is)."""
    state = game.coming_state()
    turn = game.next_turn
    for i, pid in enumerate(game.to_move(state)):
        dice = Dice(derived_seed(master, "bot", turn), turn, f"bot/{pid}")
        post = game.bot_post(state, pid, dice)
        # a bot may pass, or write only lines the rules then reject (a void or a tie): its
        # post is stored all the same, as a GM stores a player's with --allow-empty
        game.receive_post(pid, post, secret=secret_every > 0 and (i + turn) % secret_every == 0,
                          received=received, allow_empty=True)


def play(game: Game, turns: int, master: str = "gmkit", *, reveal: bool = True,
         secret_every: int = 3, beacon: BeaconFor | None = None,
         received: str | None = RECEIVED) -> Game:
    """Play ``turns`` more turns with bot posts; stops early when the game ends. With
    ``beacon``, each turn gets its deadline, is sealed on its posts and mixed with the beacon
    ``beacon(turn)`` gives (the game's ``[dice] beacon`` setting must take it). ``received``
    is the posts' reception time (None: now)."""
    game.seed_maker = lambda turn: derived_seed(master, "turn", turn)
    if received is not None:  # commitments recorded at the posts' fixed time: reproducible
        game.clock = lambda: received
    for _ in range(turns):
        if game.turn().outcome:
            break
        turn = game.next_turn
        if game.store.read_seed(turn) is None:
            game.store.write_seed(turn, derived_seed(master, "turn", turn))
        if beacon is not None:
            deadline, value = beacon(turn)
            fairdice.set_deadline(game.store, turn, deadline)
        receive_bot_posts(game, master, secret_every=secret_every, received=received)
        if beacon is not None:
            fairdice.seal(game.store, turn, game.commitment(turn),
                          game.store.pending_posts(turn), {})
            fairdice.take_beacon(game.store, turn, game.dice_setting, value)
        game.commit(game.start())
        if reveal:
            game.reveal(turn)
    return game


def new_game(root: str | Path, ruleset: str, players: Sequence[Mapping[str, Any]], turns: int,
             master: str = "gmkit", *, received: str | None = RECEIVED, **kw: Any) -> Game:
    """Create a game and play ``turns`` turns of it (posts received at ``received``; None:
    now); every seed, turn 1's included when the game commits ahead, derives from ``master``."""
    game = Game.new(root, ruleset, players,
                    seed_maker=lambda turn: derived_seed(master, "turn", turn),
                    clock=None if received is None else lambda: received, **kw)
    return play(game, turns, master, received=received)


def sample_game(root: str | Path, ruleset: str, players: Sequence[Mapping[str, Any]],
                turns: int, master: str, **kw: Any) -> Game:
    """A sample game as ``gmkit new`` makes one today (committing ahead: every turn's
    commitment is made before any of its orders), played ``turns`` turns by the bots with posts
    received as they are stored (now), and the coming turn's posts left pending."""
    game = new_game(root, ruleset, players, turns, master, received=None,
                    dice=fairdice.DiceSetting(ahead=True), **kw)
    receive_bot_posts(game, master, received=None)
    return game


def clear_sample_folder(target: Path) -> None:
    """Make room for a sample game at ``target``: an earlier game folder there is removed; a
    folder that holds anything else is refused (a build never deletes what is not a game)."""
    if not target.exists():
        return
    if not target.is_dir() or ((any(target.iterdir())) and not (target / "game.toml").is_file()):
        raise SystemExit(f"{target}: not a game folder; refusing to replace it")
    shutil.rmtree(target)
