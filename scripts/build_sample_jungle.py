#!/usr/bin/env python3
"""Rebuild ``data/sample-jungle``: ten houses five council sessions into The Law of the Jungle,
with the posts for the sixth session pending.

Played through gmkit's real workflow (posts received, parsed, validated, resolved with seeded
dice, committed and revealed): each session the GM's desk posts the civilization figures a
seeded GM bot makes up, and every house posts its characters' two actions from the ruleset's
seeded random player.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gmkit.core.dice import Dice  # noqa: E402
from gmkit.game.fairdice import DiceSetting  # noqa: E402
from gmkit.game import Game  # noqa: E402
from gmkit.sweeps.playout import clear_sample_folder, derived_seed, receive_bot_posts  # noqa: E402
from gmkit.rulesets.jungle.bot import civ_post  # noqa: E402
from gmkit.rulesets.jungle.world import CIV  # noqa: E402

SESSIONS = 5
MASTER = "gmkit Law of the Jungle sample game"
HOUSES = ("Ocelotl", "Quetzal", "Tochtli", "Cuauhtli", "Coyotl", "Mazatl", "Itzcuintli",
          "Cipactli", "Ehecatl", "Xochitl")
def receive_session(game: Game, master: str) -> None:
    """The GM's civilization figures and every house's post for the coming session."""
    turn = game.next_turn
    dice = Dice(derived_seed(master, "civ", turn), turn, "civ")
    # received now, as real posts are; the civilization's figures are stored even when none
    # of them is an order this evening (the GM stores them so with --allow-empty)
    game.receive_post(CIV, civ_post(game.state(), dice), allow_empty=True)
    receive_bot_posts(game, master, received=None)


def build(target: Path, sessions: int = SESSIONS, master: str = MASTER) -> Game:
    """A game of ``sessions`` committed council sessions, the next one's posts pending; it
    commits ahead, as ``gmkit new`` does (each session's commitment made before its posts)."""
    players = [{"id": h, "name": f"House {h}"} for h in HOUSES]
    game = Game.new(target, "jungle", players, title="The Law of the Jungle — sample game",
                    dice=DiceSetting(ahead=True),
                    seed_maker=lambda turn: derived_seed(master, "turn", turn))
    for _ in range(sessions):
        turn = game.next_turn
        if game.store.read_seed(turn) is None:
            game.store.write_seed(turn, derived_seed(master, "turn", turn))
        receive_session(game, master)
        game.commit(game.start())
        game.reveal(turn)
    receive_session(game, master)
    return game


def main() -> None:
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "data" / "sample-jungle"
    clear_sample_folder(target)
    game = build(target)
    print(f"built {target}: session {game.latest_turn} committed, posts for "
          f"session {game.next_turn} pending")


if __name__ == "__main__":
    main()
