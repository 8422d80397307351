"""A seeded random digger: plausible posts for sample games, playouts and benchmarks.

Every choice goes through gmkit's dice, so the same seed writes the same posts.
"""

from __future__ import annotations

from gmkit.core.dice import Dice
from gmkit.core.parts import Context
from gmkit.core.tables import State
from gmkit.rulesets.example.rules import HILL, MOVING
from gmkit.rulesets.example.state import board_of, digger, gold_left


def random_post(state: State, pid: str, ctx: Context, dice: Dice) -> str:
    """Dig, most of the time, on a hill with gold left; else walk, preferring such hills."""
    here = str(digger(state, pid)["place"])
    left = gold_left(state)
    if left.get(here, 0) > 0 and dice.choice(["dig", "move"], weights=[3, 1], rule=MOVING,
                                             purpose=f"{pid} bot: dig or move") == "dig":
        return "[b]Dig[/b]"
    game_board = board_of(state)
    around = sorted(game_board.neighbours(here))
    weights = [3 if game_board.place_kind(p) == HILL and left[p] > 0 else 1 for p in around]
    where = dice.choice(around, weights=weights, rule=MOVING, purpose=f"{pid} bot: where to")
    return f"Off I go.\n[b]Move to {where}[/b]"
