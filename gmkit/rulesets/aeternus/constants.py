"""Aeternus's world numbers and options (rules 5.1 to 5.3), each with its section and meaning.

Where the text reads two ways the literal reading is the default and the other is a named choice;
``docs/rules-notes/aeternus.md`` lists each.
"""

from __future__ import annotations

from gmkit.core.params import Param

HEXES = "5.1"
BIOMES = "5.3.1"
LANDMARKS = "5.3.2"
CORRUPTED = "5.3.3.1"
LAKE_RULE = "5.3.1.6"

MEADOW = "Meadow"
DUNES = "Deceased Dunes"
FOREST = "Forest"
PASS = "Perilous Pass"
SWAMP = "Swamp"
LAKE = "Lake"
#: The biomes in the rules' order (the order of the "random" pool's entries).
BIOME_ORDER: tuple[str, ...] = (MEADOW, DUNES, FOREST, PASS, SWAMP, LAKE)

BARREN = "Barren"
TOWN = "Town"
LANDMARK_ORDER: tuple[str, ...] = (BARREN, TOWN)

#: The option values.
AT_ONCE = "at_once"
WHEN_GENERATED = "when_generated"
PER_HEX = "hex"
PER_MASS = "mass"

PARAMS = (
    Param("weight_meadow", 7, "5.3.1.1", "Meadow's weight in the random pool", low=0, high=1000),
    Param("bias_meadow", 12, "5.3.1.1", "Meadow's bias B", low=0, high=1000),
    Param("weight_dunes", 4, "5.3.1.2", "Deceased Dunes' weight in the random pool",
          low=0, high=1000),
    Param("bias_dunes", 10, "5.3.1.2", "Deceased Dunes' bias (10 unless specified, 5.3.1)",
          low=0, high=1000),
    Param("weight_forest", 5, "5.3.1.3", "Forest's weight in the random pool", low=0, high=1000),
    Param("bias_forest", 10, "5.3.1.3", "Forest's bias (10 unless specified, 5.3.1)",
          low=0, high=1000),
    Param("weight_pass", 3, "5.3.1.4", "Perilous Pass's weight in the random pool",
          low=0, high=1000),
    Param("bias_pass", 5, "5.3.1.4", "Perilous Pass's bias", low=0, high=1000),
    Param("weight_swamp", 5, "5.3.1.5", "Swamp's weight in the random pool", low=0, high=1000),
    Param("bias_swamp", 10, "5.3.1.5", "Swamp's bias (10 unless specified, 5.3.1)",
          low=0, high=1000),
    Param("weight_lake", 0, "5.3.1.6", "Lake's weight in the random pool", low=0, high=1000),
    Param("bias_lake", 0, "5.3.1.6", "Lake's bias", low=0, high=1000),
    Param("random_entry", 3, BIOMES, "weight of the 'random' entry of the biome pool",
          low=0, high=1000),
    Param("weight_barren", 20, "5.3.2.1", "Barren's landmark weight", low=0, high=1000),
    Param("weight_town", 1, "5.3.2.2", "Town's landmark weight", low=0, high=1000),
    Param("weight_town_meadow", 2, "5.3.2.2", "Town's landmark weight on a Meadow hex",
          low=0, high=1000),
    Param("corruption_percent", 5, CORRUPTED, "percent chance that a generated hex is corrupt",
          low=0, high=100),
    Param("lake_timing", AT_ONCE, LAKE_RULE,
          "an indeterminate hex cut off from the infinite indeterminate mass 'generates with a "
          "Lake biome': at once, the whole cut-off region when it is cut off (at_once), or each "
          "hex as Lake when something later generates it (when_generated)",
          choices=(AT_ONCE, WHEN_GENERATED)),
    Param("lake_corruption", True, CORRUPTED,
          "a hex generated as Lake also has the 5% chance to be corrupt ('when a hex is "
          "generated'); False: lakes are never corrupt at generation"),
    Param("pool_entry", PER_HEX, BIOMES,
          "'each adjacent hex is added to a randomisation pool': one entry per adjacent hex "
          "(hex), or one per adjacent mass however many of its hexes touch (mass)",
          choices=(PER_HEX, PER_MASS)),
)
