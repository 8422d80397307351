"""Pyramid Power Wars' numbers and options, each with its rule section and meaning.

Sections are cited by the text's own headings (RESOURCES, WAR, PYRAMIDS) and the subject within
them. Where the text is silent or ambiguous, the default is the literal (or the least inventive)
reading and the alternatives are named choices; ``docs/rules-notes/pyramid-power-wars.md``
justifies each.
"""

from __future__ import annotations

from gmkit.core.params import Param, Params, words_of

SERFS = "RESOURCES: Serfs"
PRIESTS = "RESOURCES: Priests"
TROOPS = "RESOURCES: Troops"
LAND = "RESOURCES: Land"
FOOD = "RESOURCES: Food"
NOBLES = "RESOURCES: Nobles and Glory"
MOVEMENT = "WAR: Movement"
CONTEST = "WAR: Contested land"
CONFLICT = "WAR: Conflict with a victor"
CONSTRUCTION = "PYRAMIDS: Construction"
STAFFING = "PYRAMIDS: Staffing"
START = "(not in the text): Start"
VICTORY = "(not in the text): Victory"
ORDERS = "(not in the text): Orders"

FOOD_LAND, STONE_LAND = "food", "stone"
LAND_KINDS = (FOOD_LAND, STONE_LAND)

#: Pyramid sizes from smallest to largest (the contest ladder compares them in this order).
SIZES = ("scout", "battle", "war", "doom", "legendary")

#: Kinds of population.
POPULATION = ("serfs", "priests", "troops")

#: Names given to new nobles, in order (a numeral is added once every name has been used).
NOBLE_NAMES = (
    "Amenhotep", "Khufu", "Nefertari", "Djoser", "Hatshepsut", "Sneferu", "Ahmose", "Khafre",
    "Tiye", "Menkaure", "Thutmose", "Merneith", "Seti", "Nitocris", "Userkaf", "Sobekneferu",
    "Teti", "Ankhesenamun", "Pepi", "Meritaten", "Unas", "Hetepheres", "Sahure", "Khentkaus",
    "Neferirkare", "Iput", "Mentuhotep", "Nebet", "Senusret", "Ahhotep", "Amenemhat", "Tausret",
    "Kamose", "Mutnofret", "Horemheb", "Nodjmet", "Ramesses", "Isetnofret", "Merenptah",
    "Twosret", "Psamtik", "Takhat", "Shoshenq", "Karomama", "Taharqa", "Amanirenas", "Piye",
    "Shepenupet", "Necho", "Ankhnesneferibre",
)

#: Colours offered to players (ids); the rules need none, the drawing will.
COLOURS = ("Red", "Blue", "Gold", "Green", "Purple", "Teal", "Orange", "White")
#: The players' colours, after Okabe and Ito's palette for colour-blind readers: every pair
#: stays apart under protanopia, deuteranopia and tritanopia (see gmkit.core.drawing.cvd).
COLOUR_HEX = {"Red": "#d55e00", "Blue": "#0072b2", "Gold": "#f0e442", "Green": "#009e73",
              "Purple": "#cc79a7", "Teal": "#56b4e9", "Orange": "#e69f00", "White": "#fdfefe"}

PARAMS = (
    Param("max_players", 8, START, "at most eight players (the board has start areas for 2 to 8)",
          low=1, high=8),
    # -- serfs and land
    Param("serf_food", 4, SERFS, "food a first unit of serfs on a food land produces each round",
          low=0, high=1000),
    Param("serf_stone", 2, SERFS, "stone a first unit of serfs on a stone land produces",
          low=0, high=1000),
    Param("second_serf_divisor", 2, SERFS,
          "a second unit on the same land produces 1/divisor of the first (half); further "
          "units produce nothing", low=1, high=1000),
    Param("harvest_feeds", "this_round", FOOD,
          "whether this round's harvest feeds this round's population: produced 'at the end of "
          "every round' and eaten 'at the end of the round', harvest first (this_round), or "
          "stored and eaten at the end of the next round (next_round)",
          choices=("this_round", "next_round")),
    Param("population_per_food", 2, FOOD, "population one food keeps from vanishing",
          low=1, high=1000),
    Param("births_per_food", 1, FOOD,
          "new population one excess food becomes: one (1, the plain conversion), or two (2, "
          "the same rate at which food keeps population)", choices=(1, 2)),
    Param("starve_default", "troops,priests,serfs", FOOD,
          "which kinds vanish first when food runs short and the player has not said "
          "('starve: ...'); within a kind, idle units go first",
          check=words_of(POPULATION, several=True)),
    Param("assignments", "together", SERFS,
          "a post's serf and priest assignments: checked against the allocation once all of "
          "its lines apply, every line that cannot fit refused at validation and told to its "
          "player if void by the round (together), or applied one line at a time in line "
          "order, a line that no longer fits skipped (line_order, gmkit's first reading)",
          choices=("together", "line_order")),
    Param("idle_priests", "idle", PRIESTS,
          "priests on no pyramid at the round's end stay idle (idle), or the upkeep puts them "
          "on the player's first staffed pyramid beyond its stone cost (legacy_first_pyramid, "
          "what gmkit's first upkeep did)", choices=("idle", "legacy_first_pyramid")),
    Param("staff_new", "same_post", STAFFING,
          "a pyramid begun by a build order may be staffed in the same post, its priests set "
          "when it is begun (same_post), or only from the next round (next_round)",
          choices=("same_post", "next_round")),
    Param("void_report", "told", MOVEMENT,
          "an accepted order that cannot be carried out when the round reaches it: told to its "
          "player with its line, the reason and the rule (told), or noted as gmkit first did, "
          "some for the GM alone and some not at all (legacy_skipped)",
          choices=("told", "legacy_skipped")),
    Param("line_numbers", "across_posts", ORDERS,
          "a player's orders sent in several posts of a round: their lines numbered once "
          "across the posts, a rejected line named and left out by that number, and every "
          "step telling the orders apart by it (across_posts), or by its line in its own post, "
          "as gmkit first did, which left out the line of that number across the posts "
          "instead and let two posts' orders of one line number be taken for each other "
          "(each_post)",
          choices=("across_posts", "each_post")),
    Param("births_default", "serfs", FOOD,
          "what excess food becomes when the player has not said ('excess food: ...')",
          check=words_of(POPULATION)),
    # -- nobles and glory
    Param("land_per_noble", 4, LAND,
          "a player holding more than this many lands per living noble gains a new noble",
          low=1, high=1000),
    Param("new_nobles_per_round", 1, LAND, "nobles gained in one round at most (a single one)",
          low=0, high=100),
    Param("glory_per_attempt", 1, NOBLES,
          "glory a noble gains in a round it leads troops or pyramids to attempt to take land",
          low=0, high=1000),
    Param("defeat_glory_divisor", 2, NOBLES,
          "a victor gains the defeated noble's glory divided by this, rounded down",
          low=1, high=1000),
    Param("dead_unspent", "kept", CONSTRUCTION,
          "DEAD not spent on a pyramid: kept until spent (kept), or lost at the end of the round "
          "they were taken (lost)", choices=("kept", "lost")),
    # -- war
    Param("contest_many", "all_at_once", CONTEST,
          "several attackers (and a holder) on one space: the ladder compares every side at once "
          "and the single best side defeats all others (all_at_once), or the attackers first "
          "contest among themselves and the survivor then contests the holder (attackers_first)",
          choices=("all_at_once", "attackers_first")),
    Param("pyramid_tiebreak", "next_size", CONTEST,
          "sides with as many pyramids of the largest size: compare the next size down and so on "
          "until the fleets differ (next_size, since troops decide only 'exactly equal numbers "
          "and types'), or go straight to troops (troops)", choices=("next_size", "troops")),
    Param("holder_tie", "holder_wins", CONTEST,
          "equal troops and the holder among the tied: the holder wins and the attackers are "
          "destroyed (holder_wins, 'they win'), or the attackers retreat intact (repelled)",
          choices=("holder_wins", "repelled")),
    Param("pyramids_move", "alone", MOVEMENT,
          "a pyramid may move without troops, led by a noble or through friendly land ('TROOPS "
          "and/or PYRAMIDS': alone), or only together with at least one unit of troops "
          "(with_troops)", choices=("alone", "with_troops")),
    Param("led_range", 1, MOVEMENT, "spaces a noble leads troops and pyramids each round",
          low=0, high=20),
    Param("controlled_range", 2, MOVEMENT,
          "spaces a noble (or a force without one) moves when every space is already controlled",
          low=0, high=20),
    Param("scout_extra", 1, MOVEMENT,
          "additional spaces a staffed scout pyramid moves, led by a noble with at most "
          "scout_troops units of troops and no larger pyramid", low=0, high=20),
    Param("scout_troops", 1, MOVEMENT, "units of troops a scout pyramid carries on its extra space",
          low=0, high=1000000),
    # -- pyramids
    Param("scout_stone", 1, CONSTRUCTION, "stone of a scout pyramid (and priests to staff it)",
          low=0, high=1000000),
    Param("scout_glory", 1, CONSTRUCTION, "glory of DEAD a scout pyramid needs",
          low=0, high=1000000),
    Param("battle_stone", 2, CONSTRUCTION, "stone of a battle pyramid (and priests to staff it)",
          low=0, high=1000000),
    Param("battle_glory", 2, CONSTRUCTION, "glory of DEAD a battle pyramid needs",
          low=0, high=1000000),
    Param("war_stone", 5, CONSTRUCTION, "stone of a war pyramid (and priests to staff it)",
          low=0, high=1000000),
    Param("war_glory", 4, CONSTRUCTION, "glory of DEAD a war pyramid needs", low=0, high=1000000),
    Param("doom_stone", 10, CONSTRUCTION, "stone of a doom pyramid (and priests to staff it)",
          low=0, high=1000000),
    Param("doom_glory", 8, CONSTRUCTION, "glory of DEAD a doom pyramid needs",
          low=0, high=1000000),
    Param("legendary_stone", 20, CONSTRUCTION,
          "stone of a legendary pyramid (and priests to staff it)", low=0, high=1000000),
    Param("legendary_glory", 12, CONSTRUCTION, "glory of DEAD a legendary pyramid needs",
          low=0, high=1000000),
    Param("claim_unordered", "destroy", STAFFING,
          "an unstaffed pyramid on taken land that the victor did not order claimed: destroyed "
          "(destroy), or claimed anyway (claim)", choices=("destroy", "claim")),
    # -- start and victory (not in the text)
    Param("start_serfs", 3, START, "serfs each player starts with", low=0, high=1000),
    Param("start_priests", 1, START, "priests each player starts with", low=0, high=1000),
    Param("start_troops", 2, START, "troops each player starts with, with its noble at home",
          low=0, high=1000),
    Param("start_food", 0, START, "food each player starts with", low=0, high=1000000),
    Param("start_stone", 1, START, "stone each player starts with", low=0, high=1000000),
    Param("start_lands", 2, START,
          "lands of its start area a player holds (home first; the board's areas have 2)",
          low=1, high=100),
    Param("victory", "rounds", VICTORY,
          "how the game ends: after victory_rounds rounds, ranked by pyramid power, then land, "
          "then glory (rounds); when one player alone has a living noble (last_noble); or when "
          "a player holds victory_land_share percent of the land (land_share)",
          choices=("rounds", "last_noble", "land_share")),
    Param("victory_rounds", 12, VICTORY, "rounds the GM sets for a game ended by rounds",
          low=1, high=1000),
    Param("victory_land_share", 50, VICTORY, "percent of all land that wins (land_share)",
          low=1, high=100),
)


def size_stone(size: str, rules: Params) -> int:
    """Stone a pyramid of ``size`` costs, which is also the priests it needs to function."""
    return int(getattr(rules, f"{size}_stone"))


def size_glory(size: str, rules: Params) -> int:
    """Glory of DEAD a pyramid of ``size`` needs."""
    return int(getattr(rules, f"{size}_glory"))
