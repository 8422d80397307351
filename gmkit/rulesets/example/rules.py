"""Three Hills' rules as data: the rule text's sections, its numbers and its one named option,
and the board.

The rules, in brief (each section is cited by the steps and events that apply it):

1. *The diggers.* Two to four diggers start at the Camp with no gold; each hill holds
   ``hill_gold`` gold.
2. *Moving.* A digger posts one order a turn: move to an adjacent place, or dig. Moves happen
   together.
3. *Crowding.* A hill holds one digger. When diggers meet on a hill, a die decides who stays;
   the others go back to the Camp.
4. *Digging.* Diggers dig in the order they reached their hill, earliest first (ties by a
   draw); a dig finds one die of gold, no more than the hill has left.
5. *Victory.* The first digger, in the order of digging, to hold ``gold_to_win`` gold wins at
   once; after ``last_turn`` turns the richest digger wins.
"""

from __future__ import annotations

import functools

from gmkit.core.boards.graph import GraphBoard, load_package_board
from gmkit.core.params import Param

DIGGERS = "1. The diggers"
MOVING = "2. Moving"
CROWDING = "3. Crowding"
DIGGING = "4. Digging"
VICTORY = "5. Victory"

CAMP = "Camp"  # the camp of the shipped board
CAMP_KIND = "camp"
HILL = "hill"

PARAMS = (
    Param("max_players", 4, DIGGERS, "at most four diggers", low=1, high=4),
    Param("hill_gold", 10, DIGGERS, "gold in each hill at the start", low=0, high=1000000),
    Param("dig_die", 6, DIGGING, "faces of the die a dig rolls for the gold found",
          low=1, high=100),
    Param("gold_to_win", 12, VICTORY, "gold that wins the game at once", low=1, high=1000000),
    Param("last_turn", 10, VICTORY, "the turn after which the richest digger wins",
          low=1, high=1000),
    Param("crowded_hill", "roll", CROWDING,
          "who stays on a crowded hill: a die among everyone there (roll, the literal reading), "
          "or the digger who held the hill keeps it and the die decides among newcomers only "
          "(holder)", choices=("roll", "holder")),
)


@functools.cache
def board() -> GraphBoard:
    """The board, shipped with the ruleset (``board.toml``)."""
    return load_package_board("gmkit.rulesets.example", "board.toml")
