#!/usr/bin/env python3
"""Rebuild ``data/sample-aeternus``: six players over eight phases of an Aeternus cycle, with the
posts for the ninth pending.

Played through gmkit's real workflow (posts received, parsed, validated, resolved action by action
in the order posted with seeded dice, committed and revealed) by the ruleset's seeded random
players, who explore, forage, fish, craft, propose, vote, ask to merge factions and ask the Judge
(Amber), who rules. Each turn is
one phase's batch of actions (the bots date their lines in the phase of the turn).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gmkit.sweeps.playout import clear_sample_folder, sample_game  # noqa: E402
from gmkit.rulesets import find_ruleset  # noqa: E402

TURNS = 8
MASTER = "gmkit Aeternus sample game"


def main() -> None:
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "data" / "sample-aeternus"
    clear_sample_folder(target)
    players = find_ruleset("aeternus").example_players(None)
    game = sample_game(target, "aeternus", players, TURNS, MASTER,
                       title="Aeternus — sample cycle", rules={"first_judge": "Amber"})
    print(f"built {target}: turn {game.latest_turn} committed, posts for turn "
          f"{game.next_turn} pending")


if __name__ == "__main__":
    main()
