"""The Crown of Cien's rules as data: the rule text's sections, its numbers and options (each
with its section and meaning), the colours the players are, and which post of a player counts.

Sections are cited by the rule text's own headings. Where the text is ambiguous, the default is the
literal reading and the alternative is a named choice; ``docs/rules-notes/cien.md`` lists each.
"""

from gmkit.core.params import Param, Params

GRAIN = "GRAIN ET INVESTISSEMENTS"
WAR = "LES DEMANDES, LA DÉFENSE ET LES DÉS DE GUERRE"
SEAS = "LES MER EFFRAYANTES DE LA CIEN"
DIVISIONS = "LES DIVISIONS ADMINISTRATIVES DE L'EMPIRE"
EMPEROR = "SON ALTESSE IMPÉRIALE"
PETITIONS = "SON ALTESSE IMPÉRIALE: Petitions of Advancement"
MISSIONS = "SON ALTESSE IMPÉRIALE: Imperial Missions"
LOYALTY = "FIDÉLITÉ ET AUTONOMIE"
VICTORY = "CONDITIONS DE VICTORIE"
INTRO = "INTRODUCTION"
TURN = "TOURNEZ LA COMMANDE"

COLOURS = ("Red", "Gold", "Green", "Cyan", "Orange", "Silver", "Purple", "White", "Teal",
           "Lavender")
# each colour as its name says, every two told apart by colour-blind readers too
COLOUR_HEX = {"Red": "#880000", "Gold": "#ccbb00", "Green": "#00cc66", "Cyan": "#00eeff",
              "Orange": "#aa6600", "Silver": "#a6acaf", "Purple": "#442288", "White": "#fdfefe",
              "Teal": "#117a65", "Lavender": "#6677bb"}
CAPITAL = "Cien"

PARAMS = (
    Param("max_players", 10, INTRO, "at most ten players, one per colour", low=1, high=10),
    Param("base_output", 10, GRAIN, "grain a state yields per turn at the start",
          low=0, high=1000),
    Param("capital_output", 30, DIVISIONS, "grain the Imperial City of Cien yields",
          low=0, high=10000),
    Param("capital_defense", 30, DIVISIONS, "grain the Imperial City of Cien always defends with",
          low=0, high=10000),
    Param("npc_defense", 10, DIVISIONS, "grain an independent state always defends with",
          low=0, high=10000),
    Param("invest_cost", 5, GRAIN, "grain invested per +1 output", low=1, high=1000),
    Param("city_state_invest_cost", 3, DIVISIONS, "grain per +1 output for a City-State",
          low=1, high=1000),
    Param("republic_invest_cost", 5, DIVISIONS,
          "grain per +1 output for a Republic (the text gives 3 only to City-States)",
          low=1, high=1000),
    Param("bonus_city_state", 0, DIVISIONS, "income bonus of a City-State", low=0, high=1000),
    Param("bonus_duchy", 5, DIVISIONS, "income bonus of a Duchy", low=0, high=1000),
    Param("bonus_republic", 5, DIVISIONS, "income bonus of a Republic", low=0, high=1000),
    Param("bonus_kingdom", 15, DIVISIONS, "income bonus of a Kingdom", low=0, high=1000),
    Param("die", 10, WAR, "faces of the war die", low=2, high=100),
    Param("sea_preparation", 5, SEAS, "extra grain spent on an attack across a Great Sea",
          low=0, high=1000),
    Param("halving", "floor", WAR, "rounding of a conquered state's halved output",
          choices=("floor", "ceil")),
    Param("leftover_tie", "roll", WAR,
          "who gets the defence leftover when attackers tie for most grain: a die picks one "
          "(roll) or it goes one by one to the tied attackers in colour order (spread)",
          choices=("roll", "spread")),
    Param("winner_tie", "total", WAR,
          "several winners with equal grain: the higher total wins, then a roll-off (total), "
          "or straight to a roll-off (roll)", choices=("total", "roll")),
    Param("requirement_provinces", 5, DIVISIONS, "provinces for the first advancement requirement",
          low=0, high=1000),
    Param("requirement_income", 33, DIVISIONS, "income for the second advancement requirement",
          low=0, high=100000),
    Param("petition_chance", 33, PETITIONS, "percent chance per requirement met", low=0, high=100),
    Param("max_gift", 34, PETITIONS, "largest gift with a petition (each grain adds 1%)",
          low=0, high=100),
    Param("mission_chance", 50, MISSIONS,
          "percent chance each turn that the Emperor gives a mission ('might'); 100 = every turn",
          low=0, high=100),
    Param("deadline", "max", MISSIONS,
          "a mission's deadline: the maximum (max) or a die roll up to it (random)",
          choices=("max", "random")),
    Param("provision_min", 5, MISSIONS, "least grain a Provision of Supplies asks",
          low=0, high=10000),
    Param("provision_deadline", 3, MISSIONS, "max deadline of a Provision of Supplies (turns)",
          low=1, high=100),
    Param("punishment_deadline", 5, MISSIONS, "max deadline of a Punishment of a Province",
          low=1, high=100),
    Param("subjugation_deadline", 10, MISSIONS, "max deadline of a Subjugation of a Rebel",
          low=1, high=100),
    Param("subjugation_support", 10, MISSIONS, "grain per turn the Emperor gives a subjugator",
          low=0, high=10000),
    Param("punishment_target", "any", MISSIONS,
          "which neutral province a Punishment names: any independent one (any) or one the "
          "player can reach (reachable)", choices=("any", "reachable")),
    Param("subjugation_credit", "any", MISSIONS,
          "a Subjugation is fulfilled when the rebel is wiped out by anyone (any) or only when "
          "the tasked player takes the rebel's last state (last_blow)",
          choices=("any", "last_blow")),
    Param("mission_reward", 25, MISSIONS, "grain invested in one of your states for a fulfilled "
          "mission (at the normal 5 per +1: +5 output)", low=0, high=10000),
    Param("victory_provinces", 26, VICTORY, "provinces to win, including Cien", low=1, high=1000),
    Param("victory_income", 100, VICTORY, "income to win", low=1, high=1000000),
    Param("victory_government", "republic_or_duchy", VICTORY,
          "the third requirement: literally 'a Republic or a Duchy' (republic_or_duchy), or the "
          "likely intent 'a Republic or a Kingdom' (republic_or_kingdom)",
          choices=("republic_or_duchy", "republic_or_kingdom")),
    Param("orders_format", "bold", TURN,
          "For your orders to be valid, they must be bolded using the forum bbcode: only bold "
          "lines are orders ('bold'); 'bold_or_plain' also reads every line of a post with no "
          "BBCode at all (an e-mail)", choices=("bold", "bold_or_plain")),
    Param("orders_post", "first", TURN,
          "which post counts when a player posts several: orders cannot be edited once sent, so "
          "the first (first), or the latest (last)", choices=("first", "last")),
)


def counted(rules: Params) -> str:
    """Which of a player's several posts count (TOURNEZ LA COMMANDE, the ``orders_post`` rule):
    orders cannot be edited once sent, so a player's first post counts; a house rule may count
    the latest instead."""
    return str(rules.get("orders_post", "all"))
