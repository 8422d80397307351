"""Golden turn transcripts: a seeded playout written as plain text (every order line, roll and
event), so a change in any rule's outcome shows up as a readable diff.

    python -m gmkit.sweeps.transcript cien > tests/golden/cien.txt     # regenerate after a rule change
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from gmkit.game import Game
from gmkit.sweeps.playout import play


def transcript(ruleset: str, turns: int = 6, master: str = "golden") -> str:
    """The text of a seeded playout of ``turns`` turns on the ruleset's own map and players."""
    from gmkit.core.ruleset import find_ruleset
    from gmkit.game import starting_board

    rs = find_ruleset(ruleset)
    game_map = starting_board(rs)[0]
    lines: list[str] = []
    with tempfile.TemporaryDirectory() as d:
        game = Game.new(Path(d) / "g", ruleset, rs.example_players(game_map),
                        title=f"golden {ruleset}")
        play(game, turns, master)
        for t in game.store.turns()[1:]:
            data = game.turn(t)
            lines.append(f"=== turn {t}")
            for row in data.orders.sort("seq").iter_rows(named=True):
                secret = " (secret)" if row["secret"] else ""
                lines.append(f"post {row['player']}{secret}:")
                lines.extend(f"  | {x}" for x in row["text"].splitlines())
            for row in data.rolls.iter_rows(named=True):
                lines.append(f"roll {row['draw_id']} {row['expression']} = {row['result']} "
                             f"[{row['source']}] {row['purpose']}")
            for row in data.events.iter_rows(named=True):
                lines.append(f"{row['step']}/{row['kind']}: {row['text']}")
        standings = game.ruleset.standings(game.state(), game.context())
        lines.append("=== standings")
        lines.extend(" | ".join(str(v) for v in row) for row in standings.iter_rows())
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(transcript(sys.argv[1] if len(sys.argv) > 1 else "cien"))
