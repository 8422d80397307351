#!/usr/bin/env python3
"""Rebuild ``data/sample-pyramid``: six houses six rounds into Pyramid Power Wars on the Two
Lands, with the posts for round 7 pending.

Played through gmkit's real workflow (posts received, parsed, validated, resolved with seeded
dice, committed and revealed) by the ruleset's seeded random players.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gmkit.sweeps.playout import clear_sample_folder, sample_game  # noqa: E402
from gmkit.rulesets.pyramid.rules import COLOURS  # noqa: E402

TURNS = 6
MASTER = "gmkit Pyramid Power Wars sample game"
HOUSES = ("House of Ra", "House of Isis", "House of Horus", "House of Set", "House of Thoth",
          "House of Hathor")


def main() -> None:
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "data" / "sample-pyramid"
    clear_sample_folder(target)
    players = [{"id": c, "name": n} for c, n in zip(COLOURS, HOUSES)]
    game = sample_game(target, "pyramid", players, TURNS, MASTER,
                       title="Pyramid Power Wars — sample game")
    print(f"built {target}: round {game.latest_turn} committed, posts for "
          f"round {game.next_turn} pending")


if __name__ == "__main__":
    main()
