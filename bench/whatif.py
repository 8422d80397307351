"""What if on an AZTLAN turn, against that turn's own resolve.

A 24-turn AZTLAN game is played by the ruleset's bots; turn 12 is asked again with its first
attack line withdrawn (:func:`gmkit.game.whatif.what_if`: the turn resolved with the change, compared
with the record, and the turns after replayed up to the first that differs), and the same turn
is resolved again as recorded (:meth:`Game.resolve_again`, as ``verify`` does). Each pair is
timed one after the other, in alternating order, each from a freshly opened game (no turn kept
in memory), and the figure is the median of the pairs' ratios. Target: at most 3x.

    python bench/whatif.py        # this benchmark alone, as JSON lines
"""

from __future__ import annotations

import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gmkit.game import Game  # noqa: E402
from gmkit.sweeps.playout import new_game  # noqa: E402
from gmkit.rulesets import find_ruleset  # noqa: E402
from gmkit.game.whatif import Changes, what_if  # noqa: E402

TURNS = 24
TURN = 12
PAIRS = 9
TARGET = 3.0


def _attack_line(game: Game, turn: int) -> tuple[int, int | None]:
    """The first post of ``turn`` with an Attack line, and that line (else its first post)."""
    posts = game.turn(turn).orders
    for row in posts.iter_rows(named=True):
        for number, line in enumerate(row["text"].split("\n"), 1):
            if re.search(r"^\s*\d*A \w+ A \w+", line):
                return int(row["seq"]), number
    return int(posts["seq"][0]), None


def _own(root: Path, turn: int) -> float:
    game = Game.open(root)
    t = time.perf_counter()
    data = game.turn(turn)
    manifest = game.store.manifest(turn)
    seed = game.store.read_seed(turn)
    assert seed is not None
    game.resolve_again(game.state(turn - 1), data.orders, seed, turn, data.entered,
                       game.ruleset.rules(manifest["rules"]))
    return time.perf_counter() - t


def _whatif(root: Path, turn: int, changes: Changes) -> tuple[float, int]:
    game = Game.open(root)
    t = time.perf_counter()
    result = what_if(game, turn, changes)
    return time.perf_counter() - t, result.replayed


def bench_whatif(tmp: Path) -> list[dict]:
    """The median ratio of a what-if of an AZTLAN turn to that turn's own resolve."""
    players = find_ruleset("aztlan").example_players(None)
    game = new_game(tmp / "aztlan-whatif", "aztlan", players, TURNS, master="whatif")
    root = game.root
    seq, line = _attack_line(game, TURN)
    changes = Changes(withdraw=((seq, line),))
    ratios, owns, asks, replayed = [], [], [], 0
    for i in range(PAIRS):
        if i % 2:
            ask, replayed = _whatif(root, TURN, changes)
            own = _own(root, TURN)
        else:
            own = _own(root, TURN)
            ask, replayed = _whatif(root, TURN, changes)
        owns.append(own)
        asks.append(ask)
        ratios.append(ask / own)
    ratio = statistics.median(ratios)
    return [
        {"name": "aztlan_turn_resolve_again_ms", "value": round(statistics.median(owns) * 1000, 2),
         "unit": "ms", "target": None, "ok": True},
        {"name": "aztlan_whatif_ms", "value": round(statistics.median(asks) * 1000, 2),
         "unit": "ms", "target": None, "ok": True, "later_turns_replayed": replayed},
        {"name": "aztlan_whatif_vs_resolve_ratio", "value": round(ratio, 2), "unit": "x",
         "target": f"<= {TARGET:g}", "ok": ratio <= TARGET},
    ]


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as d:
        for r in bench_whatif(Path(d)):
            print(json.dumps(r, ensure_ascii=False))
