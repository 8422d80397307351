"""The Law of the Jungle's numbers and options, each with its rule section and meaning.

Sections are cited by the rule text's own headings. Where the text is ambiguous, the default is the
literal reading and the alternative is a named choice; ``docs/rules-notes/law-of-the-jungle.md``
lists each.
"""

from gmkit.core.params import Param

STRUCTURE = "BASIC GAME STRUCTURE"
ATTRIBUTES = "CHARACTER ATTRIBUTES"
FOOD = "CHARACTER ATTRIBUTES: FOOD"
CLASSES = "AZTEC CLASS STRUCTURE"
SOLDIERS = "AZTEC CLASS STRUCTURE: SOLDIERS"
CITIZEN = "AZTEC CLASS STRUCTURE: CITIZEN"
SPECIALIST = "AZTEC CLASS STRUCTURE: SPECIALIST"
TLATOANI = "AZTEC CLASS STRUCTURE: TLATOANI"
RESEARCH = "GAME DECISIONS: DETERMINING RESEARCH"
PRODUCTION = "GAME DECISIONS: DETERMINING PRODUCTION"
POLICIES = "GAME DECISIONS: DETERMINING SOCIAL POLICIES"
SPENDING = "GAME DECISIONS: SPENDING GOLD"
ACTIONS = "CHARACTER ACTIONS"
LOCATIONS = "CHARACTER ACTIONS: LOCATIONS"
TITLES = "CHARACTER TITLES"
SLAVES = "CHARACTER TITLES: SLAVE OF CHARACTER X"
GODS = "AZTEC GODS"
ATTACKS = "CHARACTER ATTACKS"
RESULTS = "CHARACTER ATTACKS: ATTACK RESULTS"
JOINT = "CHARACTER ATTACKS: JOINT ATTACKS"
DESPERATE = "CHARACTER ATTACKS: DESPARATE ATTACK"
TYPES = "CHARACTER ATTACKS: TYPES OF ATTACKS"
UNITS = "UNITS"
ORDERS = "UNITS: CONTROLLING UNITS"
LIFE = "UNITS: LIFE AND DEATH IN A UNIT"
JOINING = "JOINING THE GAME"

CLASS_NAMES = ("peasant", "soldier", "citizen", "specialist", "tlatoani")
ATTRIBUTE_NAMES = ("xp", "fame", "craftsmanship", "wisdom")
GOD_NAMES = ("Huitzilopochtli", "Quetzalcoatl", "Tezcatlipoca", "Tlaloc")
NEW_UNITS = "UNITS: NEW UNITS"

#: Names given, in order, to the Captain of a new unit when the GM names none (NEW UNITS: "a new
#: character"): the first not in use (a numeral is added once every name is).
CAPTAIN_NAMES = (
    "Acatl", "Chimalli", "Cuetlachtli", "Ehecatl", "Huitzil", "Ilhuicatl", "Itzcoatl",
    "Mazatl", "Miquiztli", "Nochehuatl", "Ocelotl", "Patli", "Quauhtli", "Tecolotl",
    "Tenoch", "Tlacaelel", "Tochtli", "Xiuhcoatl", "Yaotl", "Zolin",
)
#: Unit types that are not military (a settler, a worker, a work boat, a Great Person); any
#: other type is a military unit.
CIVILIAN_TYPES = ("settler", "worker", "work boat", "workboat", "great person", "caravan",
                  "missionary", "great general", "great scientist", "great engineer",
                  "great merchant", "great artist", "great prophet")

PARAMS = (
    # -- the session and the characters --------------------------------------------------------
    Param("gameturns", 10, STRUCTURE, "gameturns played between two council sessions",
          low=1, high=1000),
    Param("last_session", 0, STRUCTURE,
          "the council session after which the GM ends the game and the house with the most "
          "total Fame wins (0: the game goes on)", low=0, high=1000),
    Param("actions_per_session", 2, ACTIONS, "actions each character makes per council session",
          low=1, high=10),
    Param("start_xp", 1, ATTRIBUTES, "XP of a new character", low=0, high=1000),
    Param("start_fame", 0, ATTRIBUTES, "Fame of a new character", low=0, high=1000),
    Param("start_craftsmanship", 1, ATTRIBUTES, "Craftsmanship of a new character",
          low=0, high=100),
    Param("start_wisdom", 1, ATTRIBUTES, "Wisdom of a new character", low=0, high=100),
    # -- food --------------------------------------------------------------------------------
    Param("food_divisor", 10, FOOD, "food required is sqrt((XP+Fame)/divisor), rounded up",
          low=1, high=1000000),
    Param("starvation_factor", 1.5, FOOD, "XP lost = XP x short/required x factor x Random",
          low=0.0, high=100.0),
    Param("soldier_ration", 1, SOLDIERS, "food the Aztec people give each soldier",
          low=0, high=1000),
    Param("specialist_ration", 3, SPECIALIST, "food the Aztec people give each specialist",
          low=0, high=1000),
    Param("specialist_food", "ration", SPECIALIST,
          "the specialists' 3 food: a ration against their own need, the rest lost (ration), "
          "or food added to their house's store (house)", choices=("ration", "house")),
    Param("shortage_draw", "feed_order", FOOD,
          "which characters go short: a logged shuffle gives the order they are fed until the "
          "food runs out (feed_order), or each missing food is drawn among the characters "
          "weighted by the food still owed to them (per_food)",
          choices=("feed_order", "per_food")),
    Param("store_report", "house", FOOD,
          "the evening's feeding names a house's food store: told to that house and the GM "
          "(house), or to everyone (public, gmkit's first wording: the stores are the GM's and "
          "the house's to know, so the public saw what its standings hide)",
          choices=("house", "public")),
    Param("loss_rounding", "floor", ATTACKS,
          "rounding of an attribute lost (attack, starvation, desperate halving), which the "
          "text leaves unrounded; down like every rounding the text names (floor), to the "
          "nearest (round) or up (ceil)", choices=("floor", "round", "ceil")),
    Param("inverse_fame_zero", "certain", CITIZEN,
          "a Fame of 0 in a pick weighted by 1/Fame: infinitely likely, so the pick is among "
          "the Fame-0 characters alone (certain), or counted as Fame 1 (as_one)",
          choices=("certain", "as_one")),
    # -- attacks -----------------------------------------------------------------------------
    Param("band_all_attackers", 0.33, RESULTS, "below this result all attackers fail",
          low=0.0, high=100.0),
    Param("band_principal_attacker", 0.67, RESULTS,
          "below this result the principal attacker fails", low=0.0, high=100.0),
    Param("band_draw", 1.0, RESULTS, "below this result the attack is a draw",
          low=0.0, high=100.0),
    Param("band_principal_defender", 1.5, RESULTS,
          "below this result the principal defender suffers; at or above it all defenders",
          low=0.0, high=100.0),
    Param("attack_loss_factor", 1.5, TYPES, "attribute lost = Random x attribute x factor",
          low=0.0, high=100.0),
    Param("loss_draw", "each", TYPES,
          "the Random Number of a side's loss: one per losing character (each) or one for the "
          "whole side (shared)", choices=("each", "shared")),
    Param("attacker_wins_factor", "fresh", TYPES,
          "'(Random Number if Attacker Wins)': a fresh Random Number when the attacker wins and "
          "1 otherwise (fresh), or the gain's first Random Number used twice (same)",
          choices=("fresh", "same")),
    Param("share_rounding", "floor", TYPES,
          "a gain divided among several winners by combat strength: each share rounded down, "
          "the remainder lost (floor), or the largest remainders get the leftover points "
          "(largest_remainder)", choices=("floor", "largest_remainder")),
    Param("flat_gain_each", True, TYPES,
          "'the winning side gains 1 pt' (Steal, Capture): each winner gains it (True) or it "
          "goes to the principal winner alone (False)"),
    Param("capture_fails_enslaves", True, TYPES,
          "Capture: 'the losing side is taken as slaves' also when the attackers lose (True), "
          "or a failed capture only costs the attack (False)"),
    Param("slowest", "last_to_act", JOINT,
          "the 'slowest participant' of a joint attack: the one whose action comes last in the "
          "resolution order (last_to_act), or the one with the lowest Fame (lowest_fame)",
          choices=("last_to_act", "lowest_fame")),
    Param("location_strength_of", "defender", ATTACKS,
          "whose location gives the location strength: the principal defender's (defender) or "
          "the principal attacker's (attacker)", choices=("defender", "attacker")),
    Param("experienced_bonus", 0.25, TITLES, "strength bonus of Experienced at Attack Type X",
          low=0.0, high=10.0),
    Param("skilled_bonus", 0.5, TITLES, "strength bonus of Skilled at Attack Type X",
          low=0.0, high=10.0),
    Param("master_bonus", 1.0, TITLES, "strength bonus of Master of Attack Type X",
          low=0.0, high=10.0),
    Param("master_against", "skilled", TITLES,
          "Master is won against an enemy titled Skilled (skilled, literal) or Skilled or Master "
          "(skilled_or_master)", choices=("skilled", "skilled_or_master")),
    Param("defend_factor", 2, ACTIONS, "a Defend action multiplies the defender's attributes",
          low=0, high=100),
    Param("desperate_factor", 2, DESPERATE, "a desperate attacker's attributes are multiplied",
          low=0, high=100),
    # -- gods --------------------------------------------------------------------------------
    Param("offering_factor", 1.5, GODS, "blessing = offered x Random x factor (x2 at festival)",
          low=0.0, high=100.0),
    Param("festival_factor", 2, GODS, "offerings and sacrifices during the God's festival",
          low=0, high=100),
    Param("tlaloc_base", 10, GODS, "Tlaloc's sacrifice value sqrt(base x 2 at festival - XP)",
          low=0, high=1000000),
    # -- economy -----------------------------------------------------------------------------
    Param("spend_limit", "session_start", SPENDING,
          "a Tlatoani's limit of (Total Gold)*(Citizens in City)/(Total Aztec Citizens) for a "
          "council session: one limit for the session from the gold at its start (session_start),"
          " or the treasury at the moment of each spend less what the city spent already "
          "(each_spend, gmkit's first reading)", choices=("session_start", "each_spend")),
    Param("void_report", "told", ACTIONS,
          "an action void at the moment of resolution: its event names the line of the post it "
          "came from, the reason and the rule (told), or the reason and rule without the line "
          "(legacy_text, gmkit's first wording)", choices=("told", "legacy_text")),
    Param("purchase_cost", 3, ACTIONS, "gold per point of beakers, hammers or food bought",
          low=0, high=1000000),
    Param("desert_fame_divisor", 2, ACTIONS, "a deserter's Fame is divided by this, rounded down",
          low=1, high=1000),
    Param("retire_fame_bonus", 0.5, ACTIONS, "a retiring Captain gains this share of his Fame",
          low=0.0, high=100.0),
    # -- units -------------------------------------------------------------------------------
    Param("words_per_level", 5, ORDERS, "order word limit per unit level", low=0, high=1000),
    Param("words_without_level", 15, ORDERS, "order word limit of a unit without a level",
          low=0, high=1000),
    Param("new_units", "unit_and_captain", NEW_UNITS,
          "a unit the GM enters as completed (or a worker captured) becomes a unit of the game, "
          "with its type, city, health and level as entered or defaulted, and its Captain a "
          "new soldier with a name of his own (unit_and_captain), or only a character named "
          "'Captain of X' is added (captain_only, gmkit's first reading)",
          choices=("unit_and_captain", "captain_only")),
    Param("unit_full_health", 10, UNITS, "characters in a unit at full health", low=1, high=1000),
    Param("npc_xp", 1, LIFE, "permanent XP of the NPCs of a unit", low=0, high=1000),
    # -- cities ------------------------------------------------------------------------------
    Param("revolt_divisor", 100, TLATOANI, "chance of revolt = |happiness / divisor|",
          low=1, high=1000000),
)
