"""The starting world of a game of The Law of the Jungle, and the houses that join it.

The Civilization game is the GM's; gmkit only keeps what the characters live in: a few cities on
one axial hex grid (each its centre hex and the six around it, all workable), the starting
Warrior, and the figures the GM enters each session. A game may start from another world by
editing the state of turn 0; the set-up here is the Aztec start the rules describe ("We are
obviously the Aztec"): the capital and the starting Warrior, with two more cities founded.

JOINING THE GAME: "When joining the game, you receive one peasant with XP 1, Wisdom 1,
Craftsmanship 1, Fame 0. You are head of your own house with food 0 and gold 0 ... Characters that
do not choose a starting location will be assigned one at random" (here: spread over the cities'
hexes in the order the players are listed, so the set-up needs no draw); "If you played in the
previous game ... then you start with gold equal to your AMPU score" (a player's ``gold``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gmkit.core.boards import Board
from gmkit.core.boards.hexgrid import Hex, HexBoard, spiral
from gmkit.core.params import Params
from gmkit.core.parts import GM_POSTER
from gmkit.core.players import PlayerInfo
from gmkit.core.tables import State
from gmkit.core.dice import Dice
from gmkit.core.steps import Event
from gmkit.rulesets.jungle.rules import JOINING
from gmkit.rulesets.jungle.edit import append, update
from gmkit.rulesets.jungle.effects import _tenancy
from gmkit.rulesets.jungle.state import character_row, empty_state, frame, rows

#: The GM's desk: the one poster of the civilization figures, beside the houses' players.
CIV = GM_POSTER  # the GM posts the civilization figures (Ruleset.gm_posts)
HOUSE, CIVILIZATION = "house", "civilization"

#: name, centre (q, r), citizens, net food, income, expenses, strength
CITIES: tuple[tuple[str, tuple[int, int], int, int, int, int, float], ...] = (
    ("Tenochtitlan", (0, 0), 2, 3, 9, 2, 8.0),
    ("Tlatelolco", (4, -1), 1, 2, 5, 1, 5.0),
    ("Texcoco", (-1, 4), 1, 2, 4, 1, 5.0),
)
#: food, gold, hammers of a hex by its place in the city's spiral (centre first)
YIELDS = ((2, 2, 1), (2, 0, 0), (3, 0, 0), (2, 1, 1), (1, 0, 2), (2, 1, 0), (1, 0, 3))

NAMES = ("Gualpa", "Itzel", "Xoco", "Tochtli", "Mixtli", "Ome", "Citlali", "Nochtli",
         "Yaotl", "Coatl", "Ehecatl", "Tlaco", "Necalli", "Zolin", "Izel", "Tenoch")


def start_cities() -> list[dict[str, Any]]:
    """The cities' rows."""
    return [{"city": n, "tlatoani": None, "citizens": cit, "happiness": 0, "net_food": food,
             "income": inc, "expenses": exp, "strength": st, "workable": 7, "puppet": False,
             "trade_routes": _routes(n),
             "q": q, "r": r, "spent": 0}
            for n, (q, r), cit, food, inc, exp, st in CITIES]


def _routes(city: str) -> list[str]:
    """The capital trades with every city; the others with the capital."""
    capital = CITIES[0][0]
    return [c for c, *_ in CITIES if c != city] if city == capital else [capital]


def start_hexes() -> list[dict[str, Any]]:
    """Every city's workable hexes: its centre and the six around it."""
    out = []
    for name, (q, r), *_ in CITIES:
        for i, h in enumerate(spiral(Hex(q, r), 1)):
            food, gold, hammers = YIELDS[i]
            out.append({"city": name, "q": h.q, "r": h.r, "citizen": None, "food": food,
                        "gold": gold, "hammers": hammers})
    return out


def start_units() -> list[dict[str, Any]]:
    """The starting Warrior, in the capital, with no one enlisted yet."""
    return [{"unit": "Warrior 1", "unit_type": "Warrior", "military": True, "level": 1,
             "health": 10, "melee_strength": 6.0, "captain": None, "enlisted": 0,
             "standing_orders": "",
             "words": 0, "city": "Tenochtitlan", "q": 0, "r": 0}]


def character_name(player: PlayerInfo, index: int) -> str:
    """The first character's name: the player's ``character`` field, else one of the names."""
    given = player.extra.get("character")
    return str(given) if given else NAMES[index % len(NAMES)] + ("" if index < len(NAMES)
                                                                 else f" {index // len(NAMES)}")


def setup(players: Sequence[PlayerInfo], rules: Params) -> State:
    """Session 0: the world, and one peasant per house on a workable hex."""
    state = empty_state(0)
    hexes = start_hexes()
    by_city = {name: [h for h in hexes if h["city"] == name] for name, *_ in CITIES}
    chars = []
    for i, p in enumerate(players):
        city = CITIES[i % len(CITIES)][0]
        h = by_city[city][1 + (i // len(CITIES)) % 6]  # not the city hex (the Tlatoani's)
        chars.append(character_row(character_name(p, i), p.id, rules, city=city, q=h["q"],
                                   r=h["r"]))
    houses = [{"house": p.id, "player": p.id, "food": 0, "gold": int(p.extra.get("gold", 0)),
               "joined_to": None, "trapped": 0}
              for p in players]
    return state.replace(
        houses=frame(houses, "houses"), characters=frame(chars, "characters"),
        cities=frame(start_cities(), "cities"), hexes=frame(hexes, "hexes"),
        units=frame(start_units(), "units"),
        players=frame([{"id": p.id, "role": HOUSE} for p in players], "players"))


def join(state: State, joins: list[dict[str, Any]], dice: Dice,
         rules: Params) -> tuple[State, list[Event]]:
    """JOINING THE GAME, SIGNING UP AGAIN: each player the GM signs up gets a peasant (XP 1,
    Wisdom 1, Craftsmanship 1, Fame 0) on the workable hex he chose, else one drawn; a new house
    starts with food 0 and the gold it brings. The peasant acts from the next council session."""
    events: list[Event] = []
    for j in joins:
        house = str(j["house"])
        houses = rows(state, "houses")
        known = next((h for h in houses if h["house"] == house), None)
        if known is None:
            state = append(state, "houses", {"house": house, "player": house, "food": 0,
                                             "gold": int(j["gold"] or 0), "joined_to": None,
                                             "trapped": 0})
            state = append(state, "players", {"id": house, "role": HOUSE})
        else:
            state = update(state, "houses", "house", house, trapped=0,
                           gold=int(known["gold"]) + int(j["gold"] or 0))
        city = j["city"] or dice.choice(sorted(state["cities"]["city"].to_list()),
                                        purpose=f"the city {j['name']} of house {house} joins in",
                                        rule=JOINING, key=f"join/{house}/city")
        hexes = [(h["q"], h["r"]) for h in rows(state, "hexes") if h["city"] == city]
        spot = (j["q"], j["r"])
        if spot not in hexes:
            pick = dice.choice([f"{q},{r}" for q, r in hexes], rule=JOINING,
                               purpose=f"the hex {j['name']} of house {house} lives on in {city}",
                               key=f"join/{house}/hex")
            q, r = pick.split(",")
            spot = (int(q), int(r))
        state = append(state, "characters", character_row(
            str(j["name"]), house, rules, city=city, q=spot[0], r=spot[1], may_act=False))
        state = _tenancy(state, str(j["name"]))
        events.append(Event("join", JOINING, f"{j['name']} of house {house} joins the game, a "
                            f"peasant in {city} on {spot[0]},{spot[1]}.", house, city,
                            data={"character": j["name"], "house": house}))
    return state, events


def _free_name(player: PlayerInfo, index: int, taken: set[str]) -> str:
    """A joining player's peasant's name: his ``character`` field, else the first of the names
    (numbered past the list) no character bears yet."""
    name, i = character_name(player, index), index
    while name in taken and not player.extra.get("character"):
        i += 1
        name = character_name(player, i)
    return name


def assigned_hex(state: State) -> tuple[str, int, int]:
    """A joining peasant's hex when he chose none, without a draw: of the cities' workable hexes
    that are no city hex (the Tlatoani's) and no citizen's land, the one with the fewest living
    characters on it; ties by the cities' and hexes' order in the state."""
    centres = {(c["city"], c["q"], c["r"]) for c in rows(state, "cities")}
    crowd: dict[tuple[str, Any, Any], int] = {}
    for c in rows(state, "characters"):
        if c["alive"] and c["city"] is not None and c["unit"] is None:
            crowd[(c["city"], c["q"], c["r"])] = crowd.get((c["city"], c["q"], c["r"]), 0) + 1
    order = {c: i for i, c in enumerate(state["cities"]["city"].to_list())}
    spots = [(h["city"], h["q"], h["r"]) for h in rows(state, "hexes")
             if (h["city"], h["q"], h["r"]) not in centres and h["citizen"] is None]
    if not spots:  # every hex is held: the least crowded one all the same
        spots = [(h["city"], h["q"], h["r"]) for h in rows(state, "hexes")]
    if not spots:
        raise ValueError("the world has no workable hex for a joining peasant")
    best = min(enumerate(spots), key=lambda ih: (crowd.get(ih[1], 0), order.get(ih[1][0], 0),
                                                 ih[0]))[1]
    return str(best[0]), int(best[1]), int(best[2])


def _chosen_hex(state: State, player: PlayerInfo) -> tuple[str, int, int] | None:
    """The workable hex a joining player chose (his ``city``, ``q`` and ``r`` fields), if it
    is one; a city alone picks its least crowded hex."""
    city = player.extra.get("city")
    if not city:
        return None
    hexes = [(h["q"], h["r"]) for h in rows(state, "hexes") if h["city"] == city]
    q, r = player.extra.get("q"), player.extra.get("r")
    if q is not None and r is not None and (q, r) in hexes:
        return str(city), int(q), int(r)
    if not hexes:
        return None
    only = state.replace(hexes=state["hexes"].filter(state["hexes"]["city"] == city))
    return assigned_hex(only)


def joined(state: State, before: Sequence[PlayerInfo], after: Sequence[PlayerInfo],
           rules: Params) -> State:
    """JOINING THE GAME between council sessions (a player added with ``gmkit players add``):
    "you receive one peasant with XP 1, Wisdom 1, Craftsmanship 1, Fame 0. You are head of your
    own house with food 0 and gold 0" (plus the ``gold`` a returning player brings); "choose a
    workable hex in any city to live on" (the player's ``city``, ``q``, ``r``), else one is
    assigned (:func:`assigned_hex`: the set-up has no dice, so the least crowded free hex rather
    than a drawn one). A house whose id is new gets its ``houses`` and ``players`` rows; a house
    that comes back posts again, with a new peasant only when it has no living character (as
    SIGNING UP AGAIN). The peasant joins before the session opens, so he acts in it, like the
    set-up's peasants.

    A player removed: the rules say nothing of leaving; his house loses its ``players`` row (no
    one posts for it) and its characters stay in the world, on the chart and open to attack,
    acting no more. A player replaced keeps his house."""
    gone = {p.id for p in before} - {p.id for p in after}
    new = [p for p in after if p.id not in {b.id for b in before}]
    if gone:
        state = state.replace(players=state["players"].filter(
            ~state["players"]["id"].is_in(sorted(gone))))
    for p in new:
        houses = {h["house"]: h for h in rows(state, "houses")}
        if p.id not in houses:
            state = append(state, "houses", {"house": p.id, "player": p.id, "food": 0,
                                             "gold": int(p.extra.get("gold", 0) or 0),
                                             "joined_to": None, "trapped": 0})
        if p.id not in state["players"]["id"].to_list():
            state = append(state, "players", {"id": p.id, "role": HOUSE})
        alive = state["characters"].filter(state["characters"]["alive"]
                                           & (state["characters"]["house"] == p.id))
        if p.id in houses and not alive.is_empty():
            continue  # a house coming back to its living characters
        if p.id in houses:
            state = update(state, "houses", "house", p.id, trapped=0,
                           gold=int(houses[p.id]["gold"]) + int(p.extra.get("gold", 0) or 0))
        city, q, r = _chosen_hex(state, p) or assigned_hex(state)
        taken = set(state["characters"]["name"].to_list())
        name = _free_name(p, len(state["characters"]), taken)
        state = append(state, "characters", character_row(name, p.id, rules, city=city, q=q,
                                                          r=r))
        state = _tenancy(state, name)
    return state


def count_trapped(state: State) -> State:
    """SIGNING UP AGAIN: the sessions in a row each house has had all its living characters
    Slave-Tenants (0 as soon as one is free of either)."""
    slaves = set(state["slaves"]["slave"].to_list())
    tenants = set(state["tenants"]["tenant"].to_list())
    alive: dict[str, list[str]] = {}
    for c in rows(state, "characters"):
        if c["alive"]:
            alive.setdefault(c["house"], []).append(c["name"])
    houses = rows(state, "houses")
    for h in houses:
        mine = alive.get(h["house"], [])
        trapped = bool(mine) and all(n in slaves and n in tenants for n in mine)
        h["trapped"] = (h["trapped"] or 0) + 1 if trapped else 0
    return state.replace(houses=frame(houses, "houses"))


def check_board(board: Board[Any] | None) -> list[str]:
    """LOCATIONS: the Aztec cities and the six hexes around each must lie on a bounded hex board
    (an unbounded one holds them all); any other kind of board is refused."""
    if board is None:
        return []
    if not isinstance(board, HexBoard):
        return [f"a {board.kind} board: the Law of the Jungle plays on a hex board"]
    if not board.bounded:
        return []
    missing: dict[str, list[str]] = {}
    for h in start_hexes():
        if not board.contains(Hex(h["q"], h["r"])):
            missing.setdefault(h["city"], []).append(f"({h['q']}, {h['r']})")
    return [f"the city {city} does not fit: hex(es) {', '.join(hexes)} not on the board"
            for city, hexes in missing.items()]


def check_players(players: Sequence[PlayerInfo]) -> list[str]:
    """Problems of a player list: the GM's desk's id taken, a gold that is no whole number."""
    out = []
    for i, p in enumerate(players, 1):
        if p.id.casefold() == CIV:
            out.append(f"player {i} '{p.name}': id '{p.id}' is the GM's desk for the "
                       "civilization figures; choose another")
        gold = p.extra.get("gold", 0)
        if not isinstance(gold, int) or gold < 0:
            out.append(f"player {i} '{p.name}': gold must be a whole number 0 or more, not "
                       f"{gold!r}")
    if len(players) < 2:
        out.append(f"at least 2 houses are needed for the kickoff, not {len(players)}")
    return out
