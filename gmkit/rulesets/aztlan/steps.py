"""AZTLAN's resolution steps, in order, each a pure function citing its rule.

Every step takes ``(state, orders, dice, rules)`` and returns the new state and its events:

1. ``combat``: every Attack, Cut Support, Support (magical ones too), Hold, Stand and Move
   adjudicated together (:func:`~gmkit.rulesets.aztlan.adjudicate.adjudicate`); beaten
   forces wait for the next step; captives taken; cities change hands; a vacant city re-settled
   by an army that stood there (7.4); cities left by the Chichimecs lie destroyed.
2. ``retreats``: the beaten forces go where the adjudication sent them (5.7, 5.7.2).
3. ``sacrifices``: captives sacrificed (3.5.3, 3.5.4); the gods grant next turn's magical
   supports; a city taken while it sacrifices hands its captives to the new captor; captives
   held four turns are lost (3.5.2).
4. ``gifts``: armies given to another empire (4.1.1).
5. ``elimination``: empires that lost every home centre leave the game; their armies in cities
   become independent kingdoms, the others disband (3.4).
6. ``builds``: a new army in every city of an empire after four turns of peace (3.2).
7. ``chichimecs``: the die of 7.0 and two hordes per city the Chichimecs took (7.3.1).
8. ``season``: victory (1.4, 7.2), the Spanish in Spring 1519 (1.3), the next season.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import polars as pl

from gmkit.core.dice import Dice
from gmkit.core.envelope import Orders as CoreOrders
from gmkit.core.params import Params
from gmkit.core.steps import Event, Step, void_event
from gmkit.core.tables import State
from gmkit.rulesets.aztlan.adjudicate import GODS, Code, adjudicate
from gmkit.rulesets.aztlan.orders import (
    NEUTRAL,
    Attack,
    CutSupport,
    DivineSupport,
    Give,
    Hold,
    Move,
    Order,
    Sacrifice,
    Stand,
    Support,
    armies_phrase,
    describe,
    homeless,
    possessive,
)
from gmkit.rulesets.aztlan.state import (
    ACTIVE,
    CHICHIMECS,
    ELIMINATED,
    SEASONS,
    active_players,
    armies_of,
    board,
    centres,
    chichimecs_in_play,
    city_owners,
    frame,
    position,
    season_of,
    turn_of,
)
from gmkit.rulesets.aztlan.board.geography import DESERT, EMPIRES

Orders = CoreOrders[Order]
Rows = list[dict[str, Any]]

#: The rival empire whose home centres a winner must hold (1.4).
RIVALS = {"Aztecs": ("Tlaxcalans",), "Tlaxcalans": ("Aztecs",)}
_RULE = {Attack: "5.3", CutSupport: "5.4", Support: "5.5", DivineSupport: "3.5.3", Hold: "5.6",
         Stand: "5.7", Move: "5.8"}


def _the(player: str) -> str:
    return "independent garrisons" if player == NEUTRAL else f"the {player}"


def _The(player: str) -> str:
    text = _the(player)
    return text[:1].upper() + text[1:]


def _army_rows(armies: Mapping[str, tuple[str, int]]) -> pl.DataFrame:
    return frame([{"sector": s, "owner": o, "count": n}
                  for s, (o, n) in sorted(armies.items()) if n > 0], "armies")


def _armies_map(state: State) -> dict[str, tuple[str, int]]:
    return dict(position(state).armies)


def _turn(state: State) -> int:
    return state.turn + 1


# -- 1. combat ---------------------------------------------------------------------------------

def combat(state: State, orders: Orders, dice: Dice, rules: Params) -> tuple[State, list[Event]]:
    """Attacks, cut supports, supports, holds, stands and moves, adjudicated together."""
    turn = _turn(state)
    pos = position(state)
    active = set(active_players(state))
    adj = adjudicate(pos, {p: o for p, o in orders.items() if p in active}, board(state))
    events: list[Event] = []
    armies = dict(adj.armies)
    retreats: Rows = []
    for r in adj.results:
        sent = orders.of(r.player)[r.written] if r.written is not None else None
        secret = sent is not None and sent.secret
        what = describe(r.order) + " (secret)" * secret if r.order is not None else (
            f"{armies_phrase(r.count)} in {r.sector} with no order (stands)")
        rule = _RULE.get(type(r.order), "5.7")
        line = sent.line if sent is not None else 0
        who = "Independent" if r.player == NEUTRAL else r.player
        events.append(Event("order", rule, f"{who}: {what} — {r.reason}.", r.player,
                            None if r.sector == GODS else r.sector, public=not secret,
                            data={"code": r.code.value, "line": line, "sector": r.sector,
                                  "count": r.count}))
        if r.code is Code.RETREATED and r.to is not None:
            owner, n = armies[r.to]
            armies[r.to] = (owner, n - r.count)
            retreats.append({"player": r.player, "origin": r.sector, "to": r.to,
                             "count": r.count, "given_to": r.given_to})
    for player, n in adj.lost.items():
        events.append(Event("losses", "5.6", f"{_The(player)} lost {armies_phrase(n)} "
                            "this turn.", None if player == NEUTRAL else player,
                            data={"count": n}))

    cities = state["cities"].to_dicts()
    for c in cities:
        name, before = c["name"], c["owner"]
        after = adj.cities.get(name, before)
        if before is None and name not in pos.armies:
            after = None  # 7.4: a destroyed, empty city is re-settled by standing, not by Attack
        if name in adj.peace_reset:
            c["attacked_turn"] = turn
        if after != before:
            c["owner"], c["taken_turn"], c["peace"] = after, turn, 0
            taken = ("sack" if after == CHICHIMECS else "take")
            events.append(Event("city", "4.2", f"{_The(str(after))} {taken} "
                                f"{name}" + (f" from {_the(before)}" if before else "") + ".",
                                after, name, data={"from": before}))
        held = armies.get(name)
        # 7.4: a destroyed, empty city belongs to the first player to stand or hold in it.
        start = pos.armies.get(name)
        if (after is None and before is None and start is not None and start[0] != NEUTRAL
                and held is not None and held[0] == start[0] and start[0] != CHICHIMECS):
            stood = [r for r in adj.results if r.sector == name and r.player == start[0]
                     and r.code is Code.SUCCEEDS
                     and (r.order is None or isinstance(r.order, (Stand, Hold)))]
            if stood:
                c["owner"], c["taken_turn"], c["peace"] = start[0], turn, 0
                events.append(Event("city", "7.4", f"The {start[0]} re-settle the destroyed city "
                                    f"of {name}, having stood there a season.", start[0], name))
        if c["owner"] == CHICHIMECS and (held is None or held[0] != CHICHIMECS):
            c["owner"] = None
            events.append(Event("city", "7.4", f"The Chichimecs leave {name} destroyed and "
                                "empty: the first to stand there a season re-settles it.",
                                None, name))

    captives = state["captives"].to_dicts()
    for cap in adj.captures:
        captives.append({"holder": cap.captor, "owner": cap.owner, "count": cap.count,
                         "taken_turn": turn})
        events.append(Event("capture", "3.5", f"{_The(cap.captor)} capture "
                            f"{armies_phrase(cap.count)} of {_the(cap.owner)} in {cap.sector}, to be "
                            "sacrificed within four turns.", cap.captor, cap.sector,
                            data={"count": cap.count, "owner": cap.owner}))
    return state.replace(armies=_army_rows(armies), cities=frame(cities, "cities"),
                         captives=frame(captives, "captives"),
                         retreats=frame(retreats, "retreats")), events


# -- 2. retreats --------------------------------------------------------------------------------

def routine(event: Event) -> str | None:
    """An army that stands (ordered to, or with no order) and was not attacked: nothing
    happened to it, so a step's listing counts these rather than reading each out."""
    if event.kind != "order" or event.data.get("code") != Code.SUCCEEDS.value:
        return None
    if _UNATTACKED_STAND.search(event.text):
        return "armies stand, not attacked (5.7)"
    return None


_UNATTACKED_STAND = re.compile(r"(?: stands| \(stands\))(?: \(secret\))? — was not attacked "
                               r"\(5\.7\)\.$")


def retreats(state: State, orders: Orders, dice: Dice, rules: Params) -> tuple[State, list[Event]]:
    """The beaten forces retreat where the adjudication sent them (5.7, 5.7.2)."""
    armies = _armies_map(state)
    events = []
    for r in state["retreats"].iter_rows(named=True):
        holder = r["given_to"] or r["player"]
        _, n = armies.get(r["to"], (holder, 0))
        armies[r["to"]] = (holder, n + int(r["count"]))
        gift = (f", giving {'it' if r['count'] == 1 else 'them'} to the {r['given_to']} (5.7.1)"
                if r["given_to"] else "")
        events.append(Event("retreat", "5.7", f"{_The(r['player'])} retreat "
                            f"{armies_phrase(r['count'])} from {r['origin']} to {r['to']}{gift}.",
                            r["player"], r["to"], data={"origin": r["origin"]}))
    return state.replace(armies=_army_rows(armies)), events


# -- 3. sacrifices -------------------------------------------------------------------------------

def _take_captives(rows: Rows, holder: str, n: int) -> list[dict[str, Any]]:
    """Remove ``n`` of ``holder``'s captives, oldest first; the rows taken."""
    taken = []
    for r in sorted((r for r in rows if r["holder"] == holder and r["count"] > 0),
                    key=lambda r: (r["taken_turn"], r["owner"])):
        k = min(n, r["count"])
        if k:
            r["count"] -= k
            n -= k
            taken.append({**r, "count": k})
        if not n:
            break
    return taken


def sacrifices(state: State, orders: Orders, dice: Dice,
               rules: Params) -> tuple[State, list[Event]]:
    """Captives sacrificed in a declared city (3.5.3, 3.5.4); those held too long are lost."""
    turn = _turn(state)
    owners = city_owners(state)
    captives = state["captives"].to_dicts()
    players = state["players"].to_dicts()
    armies = _armies_map(state)
    magic = {p["id"]: 0 for p in players}
    events: list[Event] = []
    for pid in sorted(orders):
        for sent in orders.of(pid):
            o = sent.order
            if not isinstance(o, Sacrifice):
                continue
            public = not sent.secret
            new = owners.get(o.city)
            taken = _take_captives(captives, pid, o.count)
            n = sum(r["count"] for r in taken)
            if n < o.count and rules.void_report == "told":
                events.append(void_event(
                    pid, "3.5.3", f"the {pid} hold only {n} of the {o.count} captives the order sacrifices "
                    "when the sacrifices come" + ("" if n else ": nothing is sacrificed"),
                    line=sent.line, order=f"sacrifice {o.count} in {o.city}",
                    region=o.city,
                    public=public))
            if not n:
                continue
            if new != pid:
                if new is None:
                    events.append(Event("sacrifice", "3.5.4", f"{o.city} fell while the {pid} "
                                        f"prepared to sacrifice {armies_phrase(n)} there; the captives "
                                        "escape.", pid, o.city, public=public))
                    continue
                own = sum(r["count"] for r in taken if r["owner"] == new)
                captives.extend({**r, "holder": new} for r in taken if r["owner"] != new)
                if n - own:
                    events.append(Event("sacrifice", "3.5.4", f"{o.city} fell to {_the(new)} "
                                        f"while the {pid} prepared a sacrifice there: "
                                        f"{armies_phrase(n - own)} of captives become the {possessive(new)}, "
                                        "good only for sacrifice.", new, o.city,
                                        public=public))
                if own:
                    who, have = armies.get(o.city, (new, 0))
                    back = min(own, 3 - have) if who == new else 0
                    if back:
                        armies[o.city] = (new, have + back)
                    events.append(Event("sacrifice", "3.5.4", f"The {new} take {o.city} and free "
                                        f"{armies_phrase(own)} of their own held there for sacrifice"
                                        + (f"; {armies_phrase(back)} join the garrison" if back else "")
                                        + (f"; {armies_phrase(own - back)} find no room and disperse "
                                           "(4.1)" if own > back else "") + ".", new, o.city,
                                        public=public))
                continue
            if pid in magic:
                magic[pid] += n
            events.append(Event("sacrifice", "3.5.3", f"The {pid} sacrifice {armies_phrase(n)} of "
                                f"captives in {o.city}: the gods grant them {n} magical "
                                f"support{'s' * (n != 1)} next turn.", pid, o.city,
                                public=public, data={"count": n}))
    for r in captives:
        if r["count"] > 0 and r["taken_turn"] + int(rules.captive_turns) <= turn:
            events.append(Event("captives", "3.5.2", f"The {r['holder']} held {armies_phrase(r['count'])}"
                                f" of {_the(r['owner'])} captive for {rules.captive_turns} turns "
                                "without sacrifice: they are lost.", r["holder"],
                                data={"count": r["count"]}))
            r["count"] = 0
    for p in players:
        p["magic"] = magic.get(p["id"], 0)
    kept = [r for r in captives if r["count"] > 0]
    return state.replace(captives=frame(kept, "captives"), players=frame(players, "players"),
                         armies=_army_rows(armies)), events


# -- 4. gifts ----------------------------------------------------------------------------------

def gifts(state: State, orders: Orders, dice: Dice, rules: Params) -> tuple[State, list[Event]]:
    """Armies given to another empire for good (4.1.1)."""
    owners = city_owners(state)
    active = set(active_players(state))
    armies = _armies_map(state)
    events: list[Event] = []
    for pid in sorted(orders):
        for sent in orders.of(pid):
            o = sent.order
            if not isinstance(o, Give):
                continue
            public = not sent.secret
            owner, n = armies.get(o.origin, ("", 0))
            why = None
            if homeless(pid, owners):
                why = (f"the {pid} lost their last home centre this season, so their gifts do "
                       "not count (4.1.1)")
            elif o.to_player not in active or homeless(o.to_player, owners):
                why = f"the {o.to_player} have no home centre left to receive gifts (4.1.1)"
            elif owner != pid or n == 0:
                why = f"the {pid} have no armies left in {o.origin}"
            elif n > o.count:
                why = (f"{armies_phrase(n - o.count)} of the {pid} would stay in {o.origin} beside the "
                       "gift: one owner per sector at the end of a turn (4.1)")
            if why:
                events.append(Event("gift", "4.1.1", f"The gift of {armies_phrase(o.count)} in "
                                    f"{o.origin} to the {o.to_player} fails: {why}.", pid,
                                    o.origin, public=public))
                continue
            armies[o.origin] = (o.to_player, n)
            events.append(Event("gift", "4.1.1", f"The {pid} give {armies_phrase(n)} in {o.origin} to "
                                f"the {o.to_player}, for good.", pid, o.origin,
                                public=public, data={"to": o.to_player, "count": n}))
    return state.replace(armies=_army_rows(armies)), events


# -- 5. elimination ---------------------------------------------------------------------------

def elimination(state: State, orders: Orders, dice: Dice,
                rules: Params) -> tuple[State, list[Event]]:
    """Empires that lost all their home centres are out; remnants become kingdoms (3.4)."""
    turn = _turn(state)
    owners = city_owners(state)
    players = state["players"].to_dicts()
    armies = _armies_map(state)
    cities = state["cities"].to_dicts()
    captives = state["captives"].to_dicts()
    events: list[Event] = []
    for p in players:
        pid = p["id"]
        if p["status"] != ACTIVE or not homeless(pid, owners):
            continue
        p.update(status=ELIMINATED, eliminated_turn=turn, magic=0)
        kingdoms, disbanded = [], 0
        for sector, (owner, n) in list(armies.items()):
            if owner != pid:
                continue
            if sector in owners:
                armies[sector] = (NEUTRAL, n)
                kingdoms.append(sector)
                for c in cities:
                    if c["name"] == sector:
                        c["owner"], c["peace"] = None, 0
            else:
                del armies[sector]
                disbanded += n
        for r in captives:
            if r["holder"] == pid:
                r["count"] = 0
        text = f"The {pid} have lost every home centre and leave the game."
        if kingdoms:
            text += f" Independent kingdoms rise in {', '.join(sorted(kingdoms))}."
        if disbanded:
            text += (f" {armies_phrase(disbanded).capitalize()} in the field "
                     f"disband{'s' if disbanded == 1 else ''}.")
        events.append(Event("eliminated", "3.4", text, pid, data={"kingdoms": sorted(kingdoms)}))
    return state.replace(players=frame(players, "players"), armies=_army_rows(armies),
                         cities=frame(cities, "cities"),
                         captives=frame([r for r in captives if r["count"] > 0], "captives")
                         ), events


# -- 6. builds -----------------------------------------------------------------------------------

def builds(state: State, orders: Orders, dice: Dice, rules: Params) -> tuple[State, list[Event]]:
    """A new army in each empire's city after every fourth turn of peace (3.2, 3.3)."""
    turn = _turn(state)
    active = set(active_players(state))
    active.discard(CHICHIMECS)  # cities are only loot to them (7.3)
    armies = _armies_map(state)
    cities = state["cities"].to_dicts()
    events: list[Event] = []
    need = int(rules.peace_turns)
    for c in cities:
        owner = c["owner"]
        if owner not in active:
            c["peace"] = 0
            continue
        if c["attacked_turn"] == turn:
            c["peace"] = 0
            continue
        c["peace"] += 1
        if c["peace"] < need:
            continue
        c["peace"] = 0
        who, n = armies.get(c["name"], (owner, 0))
        if who != owner or n >= 3:
            why = ("it holds three armies already (4.1)" if who == owner
                   else f"the {who} stand in it (4.1)")
            events.append(Event("build", "3.2", f"{c['name']} had {need} turns of peace but "
                                f"cannot take a new army for the {owner}: {why}; it is lost.",
                                owner, c["name"]))
            continue
        armies[c["name"]] = (owner, n + 1)
        events.append(Event("build", "3.2", f"{c['name']} had {need} turns of peace: a new army "
                            f"for the {owner}.", owner, c["name"]))
    return state.replace(armies=_army_rows(armies), cities=frame(cities, "cities")), events


# -- 7. chichimecs -------------------------------------------------------------------------------

def chichimecs(state: State, orders: Orders, dice: Dice,
               rules: Params) -> tuple[State, list[Event]]:
    """The die of 7.0 and two hordes for every city the Chichimecs took this turn (7.3.1)."""
    if not chichimecs_in_play(state["players"]["id"].to_list(), rules):
        return state, []
    turn = _turn(state)
    armies = _armies_map(state)
    events: list[Event] = []
    roll = dice.d(6, purpose="Chichimec hordes from the desert", rule="7.0", key="hordes")
    new = {1: 1, 6: 2}.get(roll, 0)
    events.append(Event("chichimecs", "7.0", f"The Chichimec die shows {roll}: "
                        + (f"{armies_phrase(new)} appear in the {DESERT}." if new else "no result."),
                        CHICHIMECS, DESERT, data={"roll": roll, "new": new}))
    sacked = sorted(c for c, o, t in state["cities"].select("name", "owner", "taken_turn")
                    .iter_rows() if o == CHICHIMECS and t == turn)
    if sacked:
        more = int(rules.hordes_per_city) * len(sacked)
        new += more
        events.append(Event("chichimecs", "7.3.1", f"Word of the fall of {', '.join(sacked)} "
                            f"draws {armies_phrase(more)} more out of the desert.", CHICHIMECS, DESERT,
                            data={"cities": sacked, "new": more}))
    if new:
        owner, n = armies.get(DESERT, (CHICHIMECS, 0))
        if owner != CHICHIMECS and n:
            events.append(Event("chichimecs", "7.5.2", f"The {owner} hold the {DESERT}; the new "
                                "hordes turn back for fear.", CHICHIMECS, DESERT))
        else:
            armies[DESERT] = (CHICHIMECS, n + new)
    return state.replace(armies=_army_rows(armies)), events


# -- 8. season ---------------------------------------------------------------------------------

def winners(state: State, rules: Params) -> list[tuple[str, str]]:
    """Who meets a victory condition now, with why (1.4, 7.2)."""
    owners = city_owners(state)
    held = centres(state)
    out = []
    for pid in active_players(state):
        if pid == CHICHIMECS:
            counts = armies_of(state)
            mine = counts.get(CHICHIMECS, 0)
            others = sum(n for o, n in counts.items() if o not in (CHICHIMECS, NEUTRAL))
            if mine > others:
                out.append((pid, (f"the Chichimecs have {armies_phrase(mine)} on the board, more "
                                  f"than all the other players' {others} together (7.2)")))
            continue
        need = int(rules.victory_centres)
        if held.get(pid, 0) < need:
            continue
        for rival in RIVALS.get(pid, ("Aztecs", "Tlaxcalans")):
            if all(owners.get(c) == pid for c in EMPIRES[rival]):
                out.append((pid, (f"the {pid} hold {held[pid]} cities (at least {need}) and "
                                  f"every home centre of the {rival} (1.4)")))
                break
    return out


def season(state: State, orders: Orders, dice: Dice, rules: Params) -> tuple[State, list[Event]]:
    """Victory (1.4, 7.2); the Spanish land in Spring 1519 (1.3); the next season begins."""
    turn = _turn(state)
    year, name = season_of(turn)
    game = state["game"].to_dicts()[0]
    events: list[Event] = []
    won = winners(state, rules)
    if won:
        game["winner"] = ",".join(p for p, _ in won)
        game["ended"] = "victory"
        for pid, why in won:
            events.append(Event("victory", "7.2" if pid == CHICHIMECS else "1.4",
                                f"The {pid} win: {why}.", pid))
    elif turn >= turn_of(int(rules.spanish_year), str(rules.spanish_season)):
        game["ended"] = "spanish"
        events.append(Event("spanish", "1.3", f"{name} {year}: no one has won, and the Spanish "
                            "land and conquer everybody. All players lose.", None))
    next_year, next_season = season_of(turn + 1)
    game["year"], game["season"] = next_year, next_season
    if not game["ended"]:
        events.append(Event("season", "1.3", f"{name} {year} ends; {next_season} {next_year} "
                            "begins.", None, data={"year": next_year, "season": next_season}))
    return state.replace(game=frame([game], "game")), events


STEPS = [
    Step("combat", "Attacks, supports, holds, stands and moves", "5.2-5.8, 7.5", combat),
    Step("retreats", "Retreats", "5.7", retreats),
    Step("sacrifices", "Sacrifices and the gods' favour", "3.5", sacrifices),
    Step("gifts", "Gifts of armies", "4.1.1", gifts),
    Step("elimination", "Eliminated empires", "3.4", elimination),
    Step("builds", "New armies after four turns of peace", "3.2", builds),
    Step("chichimecs", "The Chichimec die and hordes", "7.0, 7.3.1", chichimecs),
    Step("season", "Victory, the Spanish and the next season", "1.3, 1.4, 7.2", season),
]

__all__ = ["RIVALS", "SEASONS", "STEPS", "winners"]
