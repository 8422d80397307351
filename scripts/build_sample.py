#!/usr/bin/env python3
"""Rebuild ``data/sample-cien``: six players several turns into The Crown of Cien.

The game is played through gmkit's real workflow (posts received, parsed, validated, resolved
with seeded dice, committed and revealed) by the ruleset's seeded random players, and the posts for
the coming turn are left pending, so ``python3 bootstrap.py gm`` has a turn to resolve.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gmkit.sweeps.playout import clear_sample_folder, sample_game  # noqa: E402

PLAYERS = [
    {"id": "Red", "name": "Aldric", "state": "Solsauvre", "government": "duchy",
     "lord": "Duc Aldric de Solsauvre", "arms": "https://drawshield.net/"},
    {"id": "Gold", "name": "Berengar", "state": "Coyons", "government": "city-state",
     "lord": "Syndic Berengar"},
    {"id": "Green", "name": "Clothilde", "state": "Sevoy", "government": "duchy",
     "lord": "Duchesse Clothilde"},
    {"id": "Cyan", "name": "Dagobert", "state": "Guicardie", "government": "city-state",
     "lord": "Podestat Dagobert"},
    {"id": "Orange", "name": "Eudes", "state": "Tróys", "government": "duchy",
     "lord": "Comte Eudes <le Hardi>"},
    {"id": "Purple", "name": "Fredegonde", "state": "SAMPLE_SIXTH", "government": "duchy",
     "lord": "Marquise Frédégonde"},
]
TURNS = 6
MASTER = "gmkit sample game"


def main() -> None:
    from gmkit.core.boards.resources import default_board_map
    from gmkit.rulesets import find_ruleset

    game_map = default_board_map(find_ruleset("cien"))
    assert game_map is not None
    taken = {p["state"] for p in PLAYERS}
    far = [n for n in game_map.land() if n not in taken and n != "Cien"
           and not (game_map.land_neighbours(n) & taken)]
    PLAYERS[-1]["state"] = far[len(far) // 2]
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "data" / "sample-cien"
    clear_sample_folder(target)
    game = sample_game(target, "cien", PLAYERS, TURNS, MASTER,
                       title="The Crown of Cien — sample game")
    print(f"built {target}: turn {game.latest_turn} committed, posts for turn "
          f"{game.next_turn} pending")


if __name__ == "__main__":
    main()
