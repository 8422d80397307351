"""AZTLAN's rules table: every rule value a game may change, with its section and meaning.

A game's ``game.toml`` may override any of them (house rules); where the rules text reads two
ways, the literal reading is the default and the other a named option (see
``docs/rules-notes/aztlan.md``).
"""

from __future__ import annotations

from gmkit.core.params import Param
from gmkit.rulesets.aztlan.state import SEASONS

PARAMS = (
    Param("min_players", 3, "2.1", "fewest players (1.2, 2.1)", low=1, high=10),
    Param("assignment", "importance", "2.1",
          "which empires are played: the first ones in 2.1's order of importance (importance), "
          "or any the GM chooses (free)", choices=("importance", "free")),
    Param("chichimecs_unplayed", "absent", "7.0",
          "with no Chichimec player: no hordes at all (absent), or the GM rolls 7.0's die and "
          "the hordes stand in the desert and where they took cities (gm)",
          choices=("absent", "gm")),
    Param("peace_turns", 4, "3.2", "turns of peace for a city to yield a new army",
          low=0, high=100),
    Param("captive_turns", 4, "3.5.2", "turns captives may be held before they are lost",
          low=0, high=100),
    Param("void_report", "told", "3.5.3",
          "a sacrifice left with fewer captives than ordered when the sacrifices come: told to "
          "its player with its line, the reason and the rule (told), or passed over in silence "
          "(legacy_silent, gmkit's first reading)", choices=("told", "legacy_silent")),
    Param("hordes_per_city", 2, "7.3.1", "Chichimec armies drawn by each city they take",
          low=0, high=100),
    Param("victory_centres", 41, "1.4", "cities to hold for victory (with the rival's centres)",
          low=1, high=1000),
    Param("spanish_year", 1519, "1.3", "the year the Spanish land", low=1450, high=10000),
    Param("spanish_season", "Spring", "1.3",
          "the last season played: the Spanish land when it ends with no winner (Spring, "
          "literally 'by Spring of 1519'); Winter ends the game before Spring is played, Fall "
          "plays the whole of 1519", choices=SEASONS),
)

