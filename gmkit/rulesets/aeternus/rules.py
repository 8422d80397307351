"""Aeternus's rules table: every number and option of the rules, with its section and meaning.

The world's numbers and options (5.1 to 5.3) come first, then the rest: time, players,
actions, items, fish and the ledger. Each number is a :class:`~gmkit.core.params.Param` with
its section and meaning; the tables the rules print (forage rewards, recipes, construction
costs, fish) are plain data here, each with its section. Where the text reads two ways the
literal reading is the default and the other a named choice (``docs/rules-notes/aeternus.md``
lists each).
"""

from __future__ import annotations

from gmkit.core.params import Param, iso_time

# -- the world (5.1 to 5.3) ---------------------------------------------------------------------
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

#: The world's rules (5.1 to 5.3).
WORLD_PARAMS = (
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


# -- time, players, actions, items, fish and the ledger ------------------------------------
TIME = "1"
PHASES = "1.2"
PLAYERS = "2"
FACTIONS = "2.1"
MERGING = "2.1.1"
LEAVING = "2.1.2"
INFLUENCE = "2.1.2 (influence)"
PROPOSALS = "3.1"
URGENT = "3.1.1"
STANDARD = "3.1.2"
JUDGEMENT = "3.2"
RANDOMNESS = "4"
DUNES_RULE = "5.3.1.2"
PASS_RULE = "5.3.1.4"
SWAMP_RULE = "5.3.1.5"
LAKE_MOVE = "5.3.1.6"
CORRUPTION = "5.3.3.1"
FLAG = "5.3.3.2"
PYLON = "5.3.3.3"
STAG = "5.3.3.4"
BOARDWALK = "5.3.3.5"
CONSTRUCTION = "5.3.4"
ACTIONS = "6"
SCOUT = "6.1"
TRAVERSE = "6.2"
FISH = "6.3"
FORAGE = "6.4"
TRADING = "7.1.1"
USING = "7.1.2"
FISH_CLASS = "7.3"
MEDALLION = "7.3.2"
QUALITY = "7.3.2.1"
CRAFTING = "7.4"
TORCH = "7.4.4"
EXPLOSIVES = "7.4.5"
VICTORY = "8"

#: Resources (7.2), in the rules' order.
RESOURCES: tuple[str, ...] = ("Wood", "Stone", "Steel", "Thread", "Hide", "Resin", "Quartz",
                              "Copper", "Gold", "Morbium")

#: Features a player may construct (5.3.3.2 to 5.3.3.5) and their costs.
FLAG_F = "Flag"
PYLON_F = "Pylon of Purity"
STAG_F = "Stag Station"
BOARDWALK_F = "Boardwalk"
CONSTRUCTIBLE: dict[str, dict[str, int]] = {
    FLAG_F: {"Wood": 5, "Thread": 2},
    PYLON_F: {"Wood": 30, "Steel": 5, "Gold": 2},
    STAG_F: {"Stone": 8, "Steel": 5, "Hide": 1},
    BOARDWALK_F: {"Wood": 10},
}
FEATURE_RULES = {FLAG_F: FLAG, PYLON_F: PYLON, STAG_F: STAG, BOARDWALK_F: BOARDWALK}

#: Craftable items (7.4) and their recipes.
POUCH = "Foraging Pouch"
BINOCULARS = "Binoculars"
STANDARD_ROD = "Standard Rod"
ADVANCED_ROD = "Advanced Rod"
REINFORCED_ROD = "Reinforced Rod"
CLASSIC_ROD = "Classic Rod"
MIDAS_ROD = "Midas' Rod"
TORCH_I = "Torch"
EXPLOSIVES_I = "Explosives"
RECIPES: dict[str, dict[str, int]] = {
    POUCH: {"Thread": 3, "Hide": 1},
    BINOCULARS: {"Wood": 3, "Hide": 2, "Quartz": 1},
    STANDARD_ROD: {"Wood": 2, "Thread": 1},
    ADVANCED_ROD: {"Wood": 3, "Thread": 2, "Steel": 1},
    REINFORCED_ROD: {"Steel": 4, "Thread": 3},
    CLASSIC_ROD: {"Wood": 2, "Thread": 1, "Hide": 1},
    MIDAS_ROD: {"Gold": 2, "Quartz": 1, "Thread": 3, "Copper": 1},
    TORCH_I: {"Wood": 2, "Resin": 1},
    EXPLOSIVES_I: {"Wood": 8, "Thread": 3, "Resin": 2},
}
RODS: tuple[str, ...] = (STANDARD_ROD, ADVANCED_ROD, REINFORCED_ROD, CLASSIC_ROD, MIDAS_ROD)
ITEMS: tuple[str, ...] = (*RESOURCES, *RECIPES)

#: Forage rewards per biome (6.4.1 to 6.4.5): six rows, each a list of (count, resource).
Reward = tuple[tuple[int, str], ...]
FORAGE_TABLES: dict[str, tuple[Reward, ...]] = {
    MEADOW: ((), ((1, "Wood"),), ((1, "Stone"),), ((1, "Hide"),), ((2, "Wood"),),
             ((3, "Wood"),)),
    DUNES: ((), ((1, "Stone"),), ((1, "Steel"),), ((1, "Quartz"),), ((2, "Stone"),),
            ((3, "Stone"),)),
    FOREST: (((1, "Thread"),), ((1, "Hide"),), ((2, "Thread"),), ((2, "Wood"),),
             ((3, "Wood"),), ((3, "Wood"),)),
    PASS: (((1, "Steel"),), ((1, "Copper"),), ((1, "Gold"),), ((2, "Steel"),),
           ((2, "Stone"),), ((3, "Stone"),)),
    SWAMP: (((1, "Wood"),), ((1, "Wood"),), ((1, "Thread"),), ((1, "Resin"),),
            ((2, "Wood"),), ((2, "Thread"),)),
}
FORAGE_SECTIONS = {MEADOW: "6.4.1", DUNES: "6.4.2", FOREST: "6.4.3", PASS: "6.4.4",
                   SWAMP: "6.4.5"}

#: Standard fish (7.3.1) and medallion fish (7.3.2), in the rules' order.
STANDARD_FISH: tuple[str, ...] = ("Eel", "Salmon", "Tilapia", "Northern Pike", "Trout")
MEDALLION_FISH: tuple[str, ...] = (
    "Goldfish", "Blue Whale", "Megalodon", "Pefisula", "Carcharias", "Flying Fish", "Gudgeon",
    "Mudskipper", "Fishy Fish", "SvGCMkWr_zQ", "Civilised Fish", "Napoleon Fish",
    "Student Fish", "Vanille", "Aligned Fish")
#: The qualities named when the cycle begins (7.3.2.1).
NAMED_QUALITIES: tuple[str, ...] = ("Garbage", "Bronze", "Silver", "Gold", "Platinum",
                                    "Morbium", "Karkalicious")

#: Option values.
HALF = "half"
CAP = "cap"
AXIS_ORIGIN = "origin_axis"
AXIS_ANY = "any_direction"
MEMBERS_MAJORITY = "members_majority"
PHASE_END = "phase_end"

ACTION_PARAMS = (
    Param("first_judge", "", JUDGEMENT, "the Judge when the cycle begins (a player id; empty: "
          "none until the first election)"),
    Param("cycle_start", "2026-01-01T00:00:00+00:00", PHASES,
          "when the cycle began (UTC, ISO 8601): phase 0 is the phase holding this time",
          check=iso_time),
    Param("ap_base", 2, ACTIONS, "action points each phase before the quality score's cube root",
          low=0, high=100),
    Param("reputable_days", 7, PLAYERS, "days of continuous play that make a player reputable",
          low=0, high=3650),
    Param("founding_days", 3, PLAYERS,
          "a player since within this many days of the cycle's start is reputable",
          low=0, high=3650),
    Param("rejoin_days", 7, PLAYERS, "days after being a player before one may join again",
          low=0, high=3650),
    Param("leaving", "destroy_items", PLAYERS,
          "a player who leaves loses their items and fish, and joining again starts anew on the "
          "origin (destroy_items, 7: 'if it would be owned by a non-player, it is instead "
          "destroyed'), or keeps them and comes back where they left (keep_items, as gmkit "
          "resolved it before)", choices=("destroy_items", "keep_items")),
    Param("cost_scout", 1, SCOUT, "AP cost of scouting", low=0, high=100),
    Param("cost_traverse", 1, TRAVERSE, "AP cost of a traverse", low=0, high=100),
    Param("pass_extra", 1, PASS_RULE, "extra AP to traverse from a Perilous Pass",
          low=0, high=100),
    Param("cost_fish", 1, FISH, "AP cost of fishing", low=0, high=100),
    Param("cost_forage", 1, FORAGE, "AP cost of foraging", low=0, high=100),
    Param("dunes_percent", 20, DUNES_RULE, "chance a player moving into Dunes is blown away",
          low=0, high=100),
    Param("swamp_percent", 15, SWAMP_RULE, "chance to leave a Swamp's mass", low=0, high=100),
    Param("fish_percent", 70, FISH, "base chance of catching a fish", low=0, high=100),
    Param("advanced_bonus", 10, "7.4.3.2", "Advanced Rod's bonus to catch", low=0, high=100),
    Param("reinforced_bonus", 15, "7.4.3.3", "Reinforced Rod's bonus to catch", low=0, high=100),
    Param("classic_bonus", 25, "7.4.3.4", "Classic Rod's bonus to catch", low=0, high=100),
    Param("midas_percent", 20, "7.4.3.5", "chance of catching with Midas' Rod", low=0, high=100),
    Param("midas_min_quality", 4, "7.4.3.5", "least quality of a fish caught with Midas' Rod",
          low=1, high=100),
    Param("medallion_step", 10, FISH_CLASS, "medallion chance per eligible medallion fish",
          low=0, high=100),
    Param("medallion_cap", 40, FISH_CLASS, "most medallion chance", low=0, high=100),
    Param("binocular_range", 2, "7.4.2", "how far a scout with binoculars reaches",
          low=0, high=20),
    Param("trade_days", 7, TRADING, "days within which both parties consent to a trade",
          low=0, high=3650),
    Param("urgent_days", 2, URGENT, "length of an urgent proposal's voting period",
          low=0, high=3650),
    Param("urgent_max_against", 2, URGENT, "most votes against a popular urgent proposal",
          low=0, high=1000),
    Param("victory_hexes", 10, VICTORY, "hexes a faction occupies to win", low=1, high=1000000),
    Param("victory_ratio", 2, VICTORY, "times the influence of any other influential faction",
          low=1, high=1000),
    Param("pouch_rows", HALF, "7.4.1",
          "how a pouch's 2d6 reads the six-row forage tables: row = ceil(2d6 / 2) (half), or "
          "2d6 capped at 6 (cap)", choices=(HALF, CAP)),
    Param("aligned_axis", AXIS_ORIGIN, MEDALLION,
          "Aligned Fish: the hex fished into lies on a cardinal axis through the origin "
          "(origin_axis), or any fishing into an adjacent hex counts (any_direction)",
          choices=(AXIS_ORIGIN, AXIS_ANY)),
    Param("explosives_clear_corruption", True, EXPLOSIVES,
          "explosives destroy 'every landmark and feature', the Corrupted feature too"),
    Param("blown_corrupts", True, CORRUPTION,
          "a player blown onto a corrupted hex by the Dunes' winds 'moves' there too, "
          "corrupting the hex they left"),
    Param("merge_vote", MEMBERS_MAJORITY, MERGING,
          "a merge request is accepted once more than half the members of both factions "
          "vote for it (members_majority), or counted at the end of the phase it was made "
          "in, more for than against (phase_end)", choices=(MEMBERS_MAJORITY, PHASE_END)),
)

PARAMS = (*WORLD_PARAMS, *ACTION_PARAMS)
