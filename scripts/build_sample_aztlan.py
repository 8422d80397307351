#!/usr/bin/env python3
"""Rebuild ``data/sample-aztlan``: all ten empires three years into AZTLAN (Winter 1450 to Fall
1452), with the posts for Winter 1453 pending.

Played through gmkit's real workflow (posts received, parsed, validated, resolved with seeded
dice, committed and revealed) by the ruleset's seeded random players.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gmkit.sweeps.playout import clear_sample_folder, sample_game  # noqa: E402
from gmkit.rulesets import find_ruleset  # noqa: E402

TURNS = 12
MASTER = "gmkit AZTLAN sample game"


def main() -> None:
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "data" / "sample-aztlan"
    clear_sample_folder(target)
    players = find_ruleset("aztlan").example_players(None)
    game = sample_game(target, "aztlan", players, TURNS, MASTER, title="AZTLAN — sample game")
    print(f"built {target}: turn {game.latest_turn} committed, posts for turn "
          f"{game.next_turn} pending")


if __name__ == "__main__":
    main()
