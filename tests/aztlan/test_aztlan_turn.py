"""AZTLAN whole turns: every step of a turn (combat, retreats, sacrifices, gifts, elimination,
builds, the Chichimecs, the season) run by the core driver on the real board.

The scenarios follow the DATC's sections where AZTLAN has a counterpart (6.H retreating,
6.I building, 6.J civil disorder), then AZTLAN's own rules (3.4, 3.5, 4.1.1, 6.1, 6.2, 7.x,
1.3, 1.4); each test names the DATC case it adapts or the rule section it checks. A scenario
is the real set-up of :func:`~gmkit.rulesets.aztlan.state.setup` with its ``armies``,
``cities``, ``captives`` and ``players`` tables replaced; posts are read and validated by the
ruleset as a GM's would be, and every adjacency a scenario relies on is read from the board
first. The Chichimec die is entered (a 3, no hordes) unless a test says otherwise.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from gmkit.core.dice import ENTERED, SEEDED, Dice
from gmkit.core.envelope import Envelope, Orders
from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.params import Params
from gmkit.core.players import PlayerInfo
from gmkit.core.steps import Driver, Event, Termination
from gmkit.core.tables import State
from gmkit.sweeps.playout import new_game
from gmkit.rulesets import find_ruleset
from gmkit.rulesets.aztlan.orders import NEUTRAL
from gmkit.rulesets.aztlan.state import ELIMINATED, frame, season_of, setup, turn_of
from gmkit.rulesets.aztlan.board.geography import DESERT, EMPIRES, load_map
from tests.aztlan.conftest import adjacent

AZTLAN = find_ruleset("aztlan")
#: Any empires may be played (2.1's order of importance is not what these scenarios test).
RULES = AZTLAN.rules({"assignment": "free"})
#: The GM rolls the Chichimec die when no one plays the Chichimecs (7.0).
GM_HORDES = AZTLAN.rules({"assignment": "free", "chichimecs_unplayed": "gm"})
SEED = "5e" * 32
HORDES = "chichimecs:hordes"
#: The Chichimec die entered as a 3: no new hordes (7.0).
NO_HORDES = {HORDES: 3}

AZ, TL, CH, CHI, MZ = "Aztecs", "Tlaxcalans", "Chalcans", "Chichimecs", "Meztitlans"
TRIAD = (AZ, TL, CH)
TEN, TEX, TAC, TLA, HUE, CHO = ("Tenochtitlan", "Texcoco", "Tacuba", "Tlaxcala", "Huexotzingo",
                                "Cholula")
CHA, COY, AME = "Chalco", "Coyoacan", "Amecameca"
TTL, TLP, XOC, XAL, TUL, TOL, ZIM, MEZ = ("Toltoltepec", "Tlapacoya", "Xochimilco", "Xaltocan",
                                          "Tula", "Toluca", "Zimapan", "Meztitlan")

Armies = Mapping[str, tuple[str, int]]


# -- scenarios -----------------------------------------------------------------------------------


def scenario(board: PolygonBoard, armies: Armies, *, players: Sequence[str] = TRIAD,
             cities: Mapping[str, str | None] | None = None,
             captives: Sequence[tuple[str, str, int, int]] = (),
             magic: Mapping[str, int] | None = None, peace: Mapping[str, int] | None = None,
             eliminated: Sequence[str] = (), turn: int = 9, rules: Params = RULES) -> State:
    """The state before turn ``turn`` (Winter 1452 by default, past the border rules of 6.1
    and 6.2): the set-up of ``players`` with exactly ``armies`` on the board. A city with a
    player's armies in it is that player's, one with an independent garrison independent; the
    other cities keep their Winter 1450 owners (2.5) unless ``cities`` says otherwise.
    ``captives`` are (holder, owner, count, turn taken) (3.5)."""
    state = setup([PlayerInfo(p, p) for p in players], board, rules)
    owners: dict[str, str | None] = dict(state["cities"].select("name", "owner").iter_rows())
    for sector, (who, _) in armies.items():
        if sector in owners:
            owners[sector] = None if who == NEUTRAL else who
    owners.update(cities or {})
    city_rows = [{"name": name, "owner": owner, "peace": (peace or {}).get(name, 0),
                  "attacked_turn": None, "taken_turn": None} for name, owner in owners.items()]
    army_rows = [{"sector": s, "owner": o, "count": n} for s, (o, n) in sorted(armies.items())]
    player_rows = [{**p, "magic": (magic or {}).get(p["id"], 0)}
                   | ({"status": ELIMINATED, "eliminated_turn": turn - 1}
                      if p["id"] in eliminated else {})
                   for p in state["players"].to_dicts()]
    captive_rows = [{"holder": h, "owner": o, "count": n, "taken_turn": t}
                    for h, o, n, t in captives]
    year, season = season_of(turn)
    return state.replace(
        turn=turn - 1, armies=frame(army_rows, "armies"), cities=frame(city_rows, "cities"),
        players=frame(player_rows, "players"), captives=frame(captive_rows, "captives"),
        game=frame([{"year": year, "season": season, "winner": None, "ended": None}], "game"),
    ).checked(AZTLAN.schemas)


def initial(board: PolygonBoard, players: Sequence[str] = TRIAD,
            rules: Params = RULES) -> dict[str, tuple[str, int]]:
    """The armies of Winter 1450 (2.2, 2.5) for ``players``."""
    state = setup([PlayerInfo(p, p) for p in players], board, rules)
    return armies(state)


def problems(state: State, posts: Mapping[str, str],
             rules: Params = RULES) -> dict[str, list[str]]:
    """Every player's rejected lines, as the GM reads them back."""
    parsed = {p: AZTLAN.parse_post(text, p, state, rules) for p, text in posts.items()}
    for player, result in parsed.items():
        assert result.ok, f"{player}: {result.report()}"
    return {p: [str(e) for e in errs]
            for p, errs in AZTLAN.validate(state, parsed, rules).items()}


def legal(state: State, posts: Mapping[str, str], rules: Params = RULES) -> dict[str, list[Any]]:
    """The orders of ``posts``, each line read and found legal."""
    parsed = {p: AZTLAN.parse_post(text, p, state, rules) for p, text in posts.items()}
    for player, result in parsed.items():
        assert result.ok, f"{player}: {result.report()}"
    found = AZTLAN.validate(state, parsed, rules)
    assert not found, {p: [str(e) for e in errs] for p, errs in found.items()}
    return _accepted(parsed, found)


def _accepted(parsed: dict[str, Any], found: dict[str, Any]) -> dict[str, list[Any]]:
    """Each player's parsed orders but the rejected lines."""
    kept = Orders.parsed(parsed).accepted(found)
    return {p: kept[p] if p in kept else [] for p in parsed}


def resolve(state: State, orders: Mapping[str, Sequence[Any]], *, rules: Params = RULES,
            entered: Mapping[str, Any] | None = None, seed: str = SEED) -> Driver:
    """Every step of the turn after ``state``, run by the core driver."""
    dice = Dice(seed, state.turn + 1, entered=dict(NO_HORDES if entered is None else entered))
    driver = Driver(AZTLAN.steps(rules), state, orders, dice, rules)
    driver.run_all()
    return driver


def play(state: State, posts: Mapping[str, str] | None = None, *, rules: Params = RULES,
         entered: Mapping[str, Any] | None = None, seed: str = SEED) -> Driver:
    """Read, validate and resolve one turn's posts."""
    return resolve(state, legal(state, posts or {}, rules), rules=rules, entered=entered,
                   seed=seed)


def after(driver: Driver) -> State:
    """The state at the start of the next turn (as the GM's commit numbers it), its tables
    checked against their schemas."""
    return driver.state.replace(turn=driver.start.turn + 1).checked(AZTLAN.schemas)


def quiet(state: State, turns: int, *, rules: Params = RULES) -> State:
    """``turns`` turns in a row with no orders at all."""
    for _ in range(turns):
        state = after(play(state, rules=rules))
    return state


def armies(state: State) -> dict[str, tuple[str, int]]:
    """Each occupied sector's owner and armies."""
    return {s: (o, int(n)) for s, o, n in state["armies"].iter_rows()}


def owners(state: State) -> dict[str, str | None]:
    """Each city's owner (``None``: independent, or destroyed and empty, 7.4)."""
    return dict(state["cities"].select("name", "owner").iter_rows())


def city(state: State, name: str) -> dict[str, Any]:
    """One row of the ``cities`` table."""
    return state["cities"].filter(pl.col("name") == name).row(0, named=True)


def player(state: State, pid: str) -> dict[str, Any]:
    """One row of the ``players`` table."""
    return state["players"].filter(pl.col("id") == pid).row(0, named=True)


def magic(state: State) -> dict[str, int]:
    """Each player's magical supports for the coming turn (3.5.3)."""
    return {p: int(m) for p, m in state["players"].select("id", "magic").iter_rows()}


def captives(state: State) -> list[tuple[str, str, int, int]]:
    """The captives held: (holder, owner, count, turn taken) (3.5)."""
    return sorted((h, o, int(n), int(t)) for h, o, n, t in state["captives"].iter_rows())


def retreats(state: State) -> list[tuple[str, str, str, int]]:
    """The last turn's retreats: (player, from, to, count) (5.7)."""
    return sorted((p, o, t, int(n)) for p, o, t, n in
                  state["retreats"].select("player", "origin", "to", "count").iter_rows())


def events(driver: Driver, kind: str) -> list[Event]:
    """The turn's events of one kind, in order."""
    return [e for e in driver.events if e.kind == kind]


def order_event(driver: Driver, sector: str) -> Event:
    """The one report of the force ordered from (or standing in) ``sector``."""
    [found] = [e for e in events(driver, "order") if e.data.get("sector") == sector]
    return found


def army_total(state: State, pid: str) -> int:
    """A player's armies on the board."""
    return sum(n for o, n in armies(state).values() if o == pid)


# -- DATC 6.H adapted: retreating (5.7, 5.7.2, 3.5, 7.1) -------------------------------------------


def test_datc_6h_5_7_2_ordered_retreat_is_taken(board: PolygonBoard) -> None:
    """5.7.2: a retreat the player specified is taken (here Tacuba, though the house rule would
    have chosen sector 14); the beaten army waits out the combat step and is placed by the
    retreats step, and the turn's ``retreats`` table and "retreat" event record it."""
    adjacent(board, (TEX, TTL), (TTL, TAC), (TTL, "14"))
    state = scenario(board, {TEX: (AZ, 2), TTL: (TL, 1)}, cities={TAC: TL})
    driver = play(state, {AZ: "2A Tex A Ttl", TL: "A Ttl Stand (retreat Tac)"})
    combat, retreat = driver.records[0], driver.records[1]
    assert combat.step.name == "combat" and retreat.step.name == "retreats"
    assert armies(combat.after) == {TTL: (AZ, 2)}
    assert retreats(combat.after) == [(TL, TTL, TAC, 1)]
    assert armies(retreat.after) == {TTL: (AZ, 2), TAC: (TL, 1)}
    assert [(e.player, e.region, e.data["origin"], e.rule) for e in events(driver, "retreat")] \
        == [(TL, TAC, TTL, "5.7")]
    end = after(driver)
    assert armies(end) == {TTL: (AZ, 2), TAC: (TL, 1)}
    assert retreats(end) == [(TL, TTL, TAC, 1)]
    assert owners(end)[TTL] == AZ
    assert captives(end) == []


@pytest.mark.parametrize(("attacker", "away"), [(TEX, "14"), (TUL, TAC)])
def test_datc_6h_5_7_2_house_rule_retreats_away_from_the_attacker(
        board: PolygonBoard, attacker: str, away: str) -> None:
    """5.7.2: with no retreat specified the GM retreats the army as nearly opposite the attack
    as possible: from Toltoltepec, attacked from Texcoco (east), to sector 14 (west); attacked
    from Tula (north), to Tacuba (south)."""
    adjacent(board, (attacker, TTL), (TTL, TAC), (TTL, "14"))
    state = scenario(board, {attacker: (AZ, 2), TTL: (TL, 1)}, cities={TAC: TL})
    short = "Tex" if attacker == TEX else "Tul"
    driver = play(state, {AZ: f"2A {short} A Ttl"})
    end = after(driver)
    assert armies(end) == {TTL: (AZ, 2), away: (TL, 1)}
    assert retreats(end) == [(TL, TTL, away, 1)]
    assert order_event(driver, TTL).data["code"] == "retreated"


def test_5_7_2_house_rule_is_the_opposite_direction_not_the_farthest_sector(
        board: PolygonBoard) -> None:
    """5.7.2: Tlapacoya is attacked from Chalco, to its south. Texcoco lies almost straight on,
    to the north (within 25 degrees of the attack's line); Huexotzingo lies east-south-east,
    back towards Chalco's side (more than 90 degrees off that line), though a little farther
    from Chalco. The house rule retreats the army to Texcoco."""
    adjacent(board, (CHA, TLP), (TLP, TEX), (TLP, HUE))
    centre = {s: board.regions[s].geometry.centroid for s in (CHA, TLP, TEX, HUE)}
    line = (centre[TLP].x - centre[CHA].x, centre[TLP].y - centre[CHA].y)

    def cosine(to: str) -> float:
        way = (centre[to].x - centre[TLP].x, centre[to].y - centre[TLP].y)
        dot = line[0] * way[0] + line[1] * way[1]
        return dot / ((line[0] ** 2 + line[1] ** 2) ** 0.5 * (way[0] ** 2 + way[1] ** 2) ** 0.5)

    assert cosine(TEX) > 0.9 and cosine(HUE) < 0
    state = scenario(board, {CHA: (CH, 2), TLP: (TL, 1)}, cities={TEX: TL, HUE: TL})
    end = after(play(state, {CH: "2A Cha A Tlp"}))
    assert armies(end) == {TLP: (CH, 2), TEX: (TL, 1)}


def test_datc_6h_5_no_retreat_into_the_sector_the_attack_came_from(board: PolygonBoard) -> None:
    """DATC 6.H.5 adapted: an army may not retreat to the sector its attacker came from, even
    when that sector is left empty and the retreat was specified; it takes another."""
    adjacent(board, ("14", TTL), (TTL, TAC))
    state = scenario(board, {"14": (AZ, 2), TTL: (TL, 1)}, cities={TAC: TL})
    driver = play(state, {AZ: "2A 14 A Ttl", TL: "A Ttl St (retreat 14)"})
    end = after(driver)
    assert armies(end) == {TTL: (AZ, 2), TAC: (TL, 1)}
    assert retreats(end) == [(TL, TTL, TAC, 1)]


def test_3_5_no_retreat_means_capture(board: PolygonBoard) -> None:
    """3.5, 5.7: a Standing army beaten with no friendly or vacant sector to go to is captured
    and held by the captor for sacrifice; it is not placed anywhere."""
    adjacent(board, ("14", TTL))
    state = scenario(board, {"14": (AZ, 2), TTL: (TL, 1)})
    assert not any(owners(state).get(s) == TL for s in board.land_neighbours(TTL))
    driver = play(state, {AZ: "2A 14 A Ttl"})
    end = after(driver)
    assert armies(end) == {TTL: (AZ, 2)}
    assert retreats(end) == []
    assert captives(end) == [(AZ, TL, 1, 9)]
    assert order_event(driver, TTL).data["code"] == "captured"
    [capture] = events(driver, "capture")
    assert (capture.player, capture.region, capture.rule) == (AZ, TTL, "3.5")
    assert events(driver, "retreat") == []


def test_datc_6h_7_two_beaten_forces_and_one_free_sector(board: PolygonBoard) -> None:
    """DATC 6.H.7 adapted (4.1): the Tlaxcalans beaten in Toltoltepec and the Chalcans beaten
    in Toluca can each retreat only to sector 14. Armies of two players may not share a sector
    at the end of a turn, so one retreats there and the other, left with nowhere to go, is
    captured (3.5)."""
    adjacent(board, (TEX, TTL), (TAC, TOL), (TTL, "14"), (TOL, "14"), (TOL, "21"))
    state = scenario(board, {TEX: (AZ, 2), TAC: (AZ, 2), "21": (AZ, 1), TTL: (TL, 1),
                             TOL: (CH, 1)}, cities={COY: AZ})
    driver = play(state, {AZ: "2A Tex A Ttl\n2A Tac A Tol"})
    end = after(driver)
    [(who, _, to, n)] = retreats(end)
    assert (to, n) == ("14", 1)
    other = CH if who == TL else TL
    assert armies(end)["14"] == (who, 1)
    assert captives(end) == [(AZ, other, 1, 9)]
    assert army_total(end, other) == 0


def test_datc_6h_attacker_bounced_from_its_target_retreats_from_its_lost_home(
        board: PolygonBoard) -> None:
    """5.7, 2.4: the Aztecs in Texcoco attack Xaltocan and bounce; meanwhile the Tlaxcalans
    take Texcoco, which the attacking army had left. The Aztec army comes back beaten and
    retreats to Tenochtitlan, its own city."""
    adjacent(board, (TEX, XAL), (TLA, TEX), (TEX, TEN))
    state = scenario(board, {TEX: (AZ, 1), TEN: (AZ, 1), XAL: (NEUTRAL, 2), TLA: (TL, 1)})
    driver = play(state, {AZ: "A Tex A Xal", TL: "A Tla A Tex"})
    end = after(driver)
    assert armies(end) == {TEN: (AZ, 2), TEX: (TL, 1), XAL: (NEUTRAL, 2)}
    assert owners(end)[TEX] == TL
    assert retreats(end) == [(AZ, TEX, TEN, 1)]


def test_7_1_beaten_chichimecs_disband_when_they_could_retreat(board: PolygonBoard) -> None:
    """7.1: Chichimecs cannot retreat; beaten with a retreat sector open (13), they disband
    and die: no retreat, no captives. A retreat ordered for them is rejected."""
    adjacent(board, ("14", "7"), ("7", "13"))
    state = scenario(board, {"14": (AZ, 2), "7": (CHI, 1), DESERT: (CHI, 1)},
                     players=(AZ, TL, CHI))
    assert any("7.1" in p for p in problems(state, {CHI: "A 7 St (retreat 13)"})[CHI])
    driver = play(state, {AZ: "2A 14 A 7"})
    end = after(driver)
    assert armies(end) == {"7": (AZ, 2), DESERT: (CHI, 1)}
    assert order_event(driver, "7").data["code"] == "disbanded"
    assert retreats(end) == [] and captives(end) == []
    assert [e.data["count"] for e in events(driver, "losses") if e.player == CHI] == [1]


def test_7_1_beaten_chichimecs_are_captured_when_they_could_not_retreat(
        board: PolygonBoard) -> None:
    """7.1: Chichimecs beaten with no possible retreat (13 held by the Aztecs; the others
    cities or the attacker's sector) are captured for sacrifice (3.5)."""
    adjacent(board, ("14", "7"), ("7", "13"))
    assert all(board.regions[s].props.get("city") for s in board.land_neighbours("7")
               if s not in ("13", "14", DESERT))
    state = scenario(board, {"14": (AZ, 2), "13": (AZ, 1), "7": (CHI, 1)},
                     players=(AZ, TL, CHI))
    driver = play(state, {AZ: "2A 14 A 7"})
    end = after(driver)
    assert armies(end) == {"7": (AZ, 2), "13": (AZ, 1)}
    assert order_event(driver, "7").data["code"] == "captured"
    assert captives(end) == [(AZ, CHI, 1, 9)]


def test_5_7_reports_name_the_empires_as_the_rules_do(board: PolygonBoard) -> None:
    """2.1, 5.7, 3.5: the retreat, capture and city reports name each empire with its capital
    letter, as the rules write it."""
    state = scenario(board, {TEX: (AZ, 2), TTL: (TL, 1), "14": (AZ, 2), TOL: (CH, 1)},
                     cities={TAC: TL})
    driver = play(state, {AZ: "2A Tex A Ttl\n2A 14 A Tol"})
    texts = [e.text for e in driver.events if e.kind in ("retreat", "capture", "city")]
    assert texts
    for text in texts:
        assert not [p for p in EMPIRES if p.lower() in text], text


# -- DATC 6.I adapted: building (3.2, 3.2.1, 3.2.2, 3.3) ---------------------------------------------


def test_datc_6i_3_2_a_new_army_after_the_fourth_turn_of_peace(board: PolygonBoard) -> None:
    """3.2, 3.3: four turns in a row with no attack, and at the end of the fourth every city of
    a player empire (home or conquered, garrisoned or empty) gets a new army in it, and its
    count starts again. A city holding three armies already cannot take it: the bonus is lost
    (3.2, 4.1). Independent cities never build."""
    state = scenario(board, {TEN: (AZ, 1), TEX: (AZ, 1), TAC: (AZ, 3), TLA: (TL, 1),
                             CHA: (CH, 1), XAL: (NEUTRAL, 1)}, cities={TLP: AZ})
    start = armies(state)
    for turn in (9, 10, 11):
        driver = play(state)
        state = after(driver)
        assert armies(state) == start, f"turn {turn}"
        assert events(driver, "build") == []
        assert city(state, TEX)["peace"] == turn - 8
    driver = play(state)
    end = after(driver)
    assert armies(end) == {TEN: (AZ, 2), TEX: (AZ, 2), TAC: (AZ, 3), TLP: (AZ, 1),
                           TLA: (TL, 2), HUE: (TL, 1), CHO: (TL, 1),
                           CHA: (CH, 2), COY: (CH, 1), AME: (CH, 1), XAL: (NEUTRAL, 1)}
    built = sorted(e.region or "" for e in events(driver, "build") if "cannot" not in e.text)
    assert built == sorted([TEN, TEX, TLP, TLA, HUE, CHO, CHA, COY, AME])
    [lost] = [e for e in events(driver, "build") if e.region == TAC]
    assert "three armies" in lost.text and lost.rule == "3.2"
    assert set(end["cities"]["peace"].to_list()) == {0}


def test_datc_6i_3_2_1_a_failed_attack_starts_the_count_again(board: PolygonBoard) -> None:
    """3.2.1, 5.3, the rule's own example: Texcoco, at peace for three turns, is attacked at the
    beginning of the fourth; the attack fails, yet Texcoco loses all it had gained and counts
    again from 1, building only four turns later. Tenochtitlan, never attacked, builds on
    time."""
    state = quiet(scenario(board, {TEN: (AZ, 1), TEX: (AZ, 1), TLA: (TL, 1)}), 3)
    driver = play(state, {TL: "A Tla A Tex"})
    assert order_event(driver, TLA).data["code"] == "bounced"
    state = after(driver)
    assert armies(state)[TEX] == (AZ, 1)
    assert armies(state)[TEN] == (AZ, 2)
    assert (city(state, TEX)["peace"], city(state, TEX)["attacked_turn"]) == (0, 12)
    state = quiet(state, 3)
    assert armies(state)[TEX] == (AZ, 1)
    assert city(state, TEX)["peace"] == 3
    assert armies(quiet(state, 1))[TEX] == (AZ, 2)


def test_datc_6i_3_2_2_cut_support_does_not_stop_a_city_building(board: PolygonBoard) -> None:
    """3.2.2: Texcoco has its support cut four turns in a row and still produces a new army at
    the end of the fourth; Tenochtitlan, attacked each turn, does not."""
    adjacent(board, (TLA, TEX), (TLP, TEN), (TEX, TEN))
    state = scenario(board, {TEN: (AZ, 1), TEX: (AZ, 1), TLA: (TL, 1), TLP: (TL, 1)})
    for _ in range(4):
        driver = play(state, {AZ: "A Tex S Ten St", TL: "A Tlp A Ten\nA Tla CS Tex"})
        assert order_event(driver, TEX).data["code"] == "cut"
        assert order_event(driver, TLA).data["code"] == "succeeds"
        assert order_event(driver, TLP).data["code"] == "bounced"
        state = after(driver)
    assert armies(state)[TEX] == (AZ, 2)
    assert armies(state)[TEN] == (AZ, 1)
    assert city(state, TEX)["attacked_turn"] is None


def test_datc_6i_3_3_new_armies_are_placed_after_combat(board: PolygonBoard) -> None:
    """3.3, 4.1: the new army is placed after the turn's combat and moves. Texcoco holds three
    armies at the end of its fourth turn of peace: if one of them moves out that turn, the new
    army has room; if not, the bonus is lost. The new army is an army like any other on the
    next turn."""
    state = scenario(board, {TEX: (AZ, 3), TEN: (AZ, 1)}, peace={TEX: 3}, turn=12)
    moved = after(play(state, {AZ: "A Tex M Ten"}))
    assert armies(moved) == {TEX: (AZ, 3), TEN: (AZ, 2)}
    assert problems(moved, {AZ: "3A Tex A Xal"}) == {}
    stayed = play(state)
    assert armies(after(stayed)) == {TEX: (AZ, 3), TEN: (AZ, 1)}
    assert any("three armies" in e.text for e in events(stayed, "build"))
    assert city(after(stayed), TEX)["peace"] == 0


# -- DATC 6.J adapted: civil disorder (no orders received) ---------------------------------------


def test_datc_6j_civil_disorder_armies_stand(board: PolygonBoard) -> None:
    """DATC 6.J adapted, 5.7: a player who sends no orders is in civil disorder: every army of
    his stands; attacked at equal weight, it holds its ground."""
    adjacent(board, (TEN, COY))
    state = scenario(board, {TEN: (AZ, 1), COY: (CH, 1), CHA: (CH, 1)})
    driver = play(state, {AZ: "A Ten A Coy"})
    for sector in (COY, CHA):
        report = order_event(driver, sector)
        assert report.player == CH and "with no order (stands)" in report.text
        assert report.data["code"] == "succeeds"
    assert order_event(driver, TEN).data["code"] == "bounced"
    assert armies(after(driver)) == armies(state)


@pytest.mark.parametrize("sent", [False, True], ids=["no post", "empty post"])
def test_datc_6j_civil_disorder_beaten_armies_retreat(board: PolygonBoard, sent: bool) -> None:
    """DATC 6.J adapted, 5.7, 5.7.2: the Chalcans send no orders (or an empty post); their army
    beaten in Coyoacan stands, so it retreats, by the house rule, to Xochimilco, the one
    Chalcan sector next to it."""
    adjacent(board, (TEN, COY), (COY, XOC))
    state = scenario(board, {TEN: (AZ, 2), COY: (CH, 1)}, cities={XOC: CH})
    assert [s for s in board.land_neighbours(COY) if owners(state).get(s) == CH] == [XOC]
    orders = legal(state, {AZ: "2A Ten A Coy"})
    if sent:
        orders[CH] = []
    end = after(resolve(state, orders))
    assert armies(end) == {COY: (AZ, 2), XOC: (CH, 1)}
    assert retreats(end) == [(CH, COY, XOC, 1)]
    assert captives(end) == []


# -- 3.5: captives, sacrifices and the gods' supports -------------------------------------------------


def test_3_5_1_holding_armies_beaten_3_to_1_are_captives(board: PolygonBoard) -> None:
    """3.5.1, 3.5: a Holding army beaten at odds of 3 to 1 is captured: the captives are the
    captor's in the ``captives`` table, taken on this turn, and reported."""
    adjacent(board, (TEX, TLP))
    state = scenario(board, {TEX: (AZ, 3), TLP: (TL, 1)})
    driver = play(state, {AZ: "3A Tex A Tlp", TL: "A Tlp H"})
    end = after(driver)
    assert armies(end) == {TLP: (AZ, 3)}
    assert captives(end) == [(AZ, TL, 1, 9)]
    [capture] = events(driver, "capture")
    assert capture.data == {"count": 1, "owner": TL}


def test_3_5_3_a_sacrifice_grants_magical_supports_for_the_next_turn_only(
        board: PolygonBoard) -> None:
    """3.5.3, 3.5.4: the Aztecs sacrifice two captives in Texcoco in Winter 1452; in Spring they
    have two magical supports ("2 GS Tex A Tlp"), which carry their single army's attack past
    a double garrison that it could not beat alone. By Summer the supports are gone."""
    adjacent(board, (TEX, TLP))
    state = scenario(board, {TEX: (AZ, 1), TEN: (AZ, 1), TLP: (NEUTRAL, 2)},
                     captives=[(AZ, TL, 2, 8)])
    assert problems(state, {AZ: "A Tex A Tlp\nGS Tex A Tlp"})[AZ]
    driver = play(state, {AZ: "Tex sac 2"})
    spring = after(driver)
    assert captives(spring) == []
    assert magic(spring) == {AZ: 2, TL: 0, CH: 0}
    [sacrifice] = events(driver, "sacrifice")
    assert (sacrifice.rule, sacrifice.region, sacrifice.data["count"]) == ("3.5.3", TEX, 2)

    alone = after(play(spring, {AZ: "A Tex A Tlp"}))
    assert armies(alone)[TLP] == (NEUTRAL, 2)
    driver = play(spring, {AZ: "A Tex A Tlp\n2 GS Tex A Tlp"})
    gods = [e for e in events(driver, "order") if e.data["sector"] == "the gods"]
    assert [(g.region, g.data["code"], g.rule) for g in gods] == [(None, "succeeds", "3.5.3")]
    summer = after(driver)
    assert armies(summer)[TLP] == (AZ, 1)
    assert owners(summer)[TLP] == AZ
    assert captives(summer) == [(AZ, NEUTRAL, 2, 10)]
    assert magic(summer)[AZ] == 0
    assert any("3.5.3" in p for p in problems(summer, {AZ: "GS Tlp St"})[AZ])


def test_3_5_3_magical_supports_defend_and_cannot_be_cut(board: PolygonBoard) -> None:
    """3.5.3: a magical support may be used defensively too; the Tlaxcalans cut the support of
    the Aztec army in Tenochtitlan, but the gods' support has no army to cut, so Texcoco holds
    (defence 1 + 1 against 2). Without it Texcoco falls."""
    adjacent(board, (TLA, TEX), (TLP, TEN), (TEN, TEX))
    state = scenario(board, {TEX: (AZ, 1), TEN: (AZ, 1), TLA: (TL, 2), TLP: (TL, 1)},
                     magic={AZ: 1}, turn=10)
    attack = "2A Tla A Tex\nA Tlp CS Ten"
    driver = play(state, {AZ: "A Ten S Tex St\nGS Tex St", TL: attack})
    assert order_event(driver, TEN).data["code"] == "cut"
    assert order_event(driver, "the gods").data["code"] == "succeeds"
    assert order_event(driver, TLA).data["code"] == "bounced"
    assert armies(after(driver))[TEX] == (AZ, 1)
    without = after(play(state, {AZ: "A Ten S Tex St", TL: attack}))
    assert armies(without)[TEX] == (TL, 2)


def test_3_5_3_unused_magical_supports_are_lost(board: PolygonBoard) -> None:
    """3.5.3: the gods' supports cannot be hoarded: unused on the turn after the sacrifice,
    they are gone, and the next turn's orders may not call on them."""
    state = scenario(board, {TEX: (AZ, 1), TLP: (NEUTRAL, 1)}, magic={AZ: 2}, turn=10)
    assert problems(state, {AZ: "A Tex A Tlp\n2 GS Tex A Tlp"}) == {}
    end = after(play(state))
    assert magic(end)[AZ] == 0
    assert any("3.5.3" in p for p in problems(end, {AZ: "A Tex A Tlp\nGS Tex A Tlp"})[AZ])


def test_3_5_3_validation_rejects_more_magic_than_the_gods_granted(board: PolygonBoard) -> None:
    """3.5.3: one magical support per army sacrificed the turn before: with one granted, a
    second is rejected (on its own line), and a player who sacrificed nothing has none."""
    state = scenario(board, {TEX: (AZ, 1), TLA: (TL, 1), TLP: (NEUTRAL, 1)}, magic={AZ: 1},
                     turn=10)
    found = problems(state, {AZ: "A Tex A Tlp\nGS Tex A Tlp\nGS Tex A Tlp", TL: "GS Tla St"})
    assert [p.split(":")[0] for p in found[AZ]] == ["line 3"]
    assert "3.5.3" in found[AZ][0]
    assert [p.split(":")[0] for p in found[TL]] == ["line 1"]
    assert "3.5.3" in found[TL][0]
    doubled = problems(state, {AZ: "A Tex A Tlp\n2 GS Tex A Tlp"})
    assert [p.split(":")[0] for p in doubled[AZ]] == ["line 2"]


def test_3_5_2_captives_not_sacrificed_within_four_turns_are_lost(board: PolygonBoard) -> None:
    """3.5.2: captives taken in Winter 1452 may be sacrificed up to the fourth turn after;
    kept past it, the captor loses them for no reward."""
    adjacent(board, (TEX, TEN))
    state = scenario(board, {TEX: (AZ, 2), TEN: (TL, 1)})
    assert not any(owners(state).get(s) == TL for s in board.land_neighbours(TEN))
    state = after(play(state, {AZ: "2A Tex A Ten"}))
    assert captives(state) == [(AZ, TL, 1, 9)]
    for turn in (10, 11, 12):
        state = after(play(state))
        assert captives(state) == [(AZ, TL, 1, 9)], f"turn {turn}"
    last = play(state)
    assert captives(after(last)) == []
    [lost] = events(last, "captives")
    assert (lost.rule, lost.player, lost.data["count"]) == ("3.5.2", AZ, 1)
    assert magic(after(last))[AZ] == 0
    in_time = after(play(state, {AZ: "Ten sac 1"}))
    assert magic(in_time)[AZ] == 1
    assert captives(in_time) == []


def test_3_5_4_a_city_taken_while_it_sacrifices_hands_the_captives_over(
        board: PolygonBoard) -> None:
    """3.5.4: Texcoco is to sacrifice the Aztecs' Chalcan captive, but the Tlaxcalans take it
    that turn: the captive becomes theirs (still only good for sacrifice), the Aztecs get no
    magic, and the Tlaxcalans may sacrifice it next turn."""
    adjacent(board, (TLA, TEX))
    state = scenario(board, {TEX: (AZ, 1), TEN: (AZ, 1), TLA: (TL, 2)},
                     captives=[(AZ, CH, 1, 8)])
    driver = play(state, {AZ: "Tex sac 1", TL: "2A Tla A Tex"})
    end = after(driver)
    assert owners(end)[TEX] == TL
    assert captives(end) == [(TL, CH, 1, 8)]
    assert magic(end) == {AZ: 0, TL: 0, CH: 0}
    [handed] = events(driver, "sacrifice")
    assert (handed.rule, handed.player, handed.region) == ("3.5.4", TL, TEX)
    assert magic(after(play(end, {TL: "Tex sac 1"})))[TL] == 1


def test_3_5_4_an_owner_who_takes_the_altar_frees_his_own_armies(board: PolygonBoard) -> None:
    """3.5.4: the Aztecs prepare to sacrifice a captured Tlaxcalan army in Texcoco, and the
    Tlaxcalans take Texcoco that turn. The captor is the army's original owner, so it is not
    a captive any more: the Tlaxcalans have it back."""
    state = scenario(board, {TEX: (AZ, 1), TEN: (AZ, 1), TLA: (TL, 2)},
                     captives=[(AZ, TL, 1, 8)])
    end = after(play(state, {AZ: "Tex sac 1", TL: "2A Tla A Tex"}))
    assert owners(end)[TEX] == TL
    assert [c for c in captives(end) if c[0] == c[1]] == []
    assert army_total(end, TL) == 3


# -- 4.1.1: gifts ------------------------------------------------------------------------------------


def test_4_1_1_a_gift_changes_owner_for_good(board: PolygonBoard) -> None:
    """4.1.1: an army given away belongs to its new owner from then on: the Tlaxcalans may
    order it next turn, the Aztecs no longer can."""
    adjacent(board, ("14", "13"))
    state = scenario(board, {"14": (AZ, 2), TEN: (AZ, 1)})
    driver = play(state, {AZ: "give 2A 14 to Tlaxcalans"})
    end = after(driver)
    assert armies(end) == {"14": (TL, 2), TEN: (AZ, 1)}
    [gift] = events(driver, "gift")
    assert (gift.rule, gift.player, gift.data) == ("4.1.1", AZ, {"to": TL, "count": 2})
    assert problems(end, {TL: "2A 14 M 13"}) == {}
    assert problems(end, {AZ: "2A 14 M 13"})[AZ]


def test_4_1_1_gifts_of_a_player_losing_his_last_home_centre_do_not_count(
        board: PolygonBoard) -> None:
    """4.1.1, 3.4: the Aztecs, down to Texcoco, give their army in sector 14 to the Chalcans
    in the season the Tlaxcalans take Texcoco: the gift does not count, so the army is still
    Aztec when the Aztecs leave the game, and it disbands (not being in a city)."""
    adjacent(board, (TLA, TEX))
    state = scenario(board, {TEX: (AZ, 1), "14": (AZ, 1), TLA: (TL, 2)},
                     cities={TEN: TL, TAC: CH})
    assert problems(state, {AZ: "A 14 given to Chalcans"}) == {}
    driver = play(state, {AZ: "A 14 given to Chalcans", TL: "2A Tla A Tex"})
    end = after(driver)
    [gift] = events(driver, "gift")
    assert "do not count" in gift.text and gift.rule == "4.1.1"
    assert player(end, AZ)["status"] == ELIMINATED
    assert "14" not in armies(end)
    assert army_total(end, CH) == 0


def test_4_1_1_a_gift_to_a_player_losing_his_last_home_centre_fails(board: PolygonBoard) -> None:
    """4.1.1: the Chalcans lose Chalco, their last home centre, this season; the Aztecs' gift
    to them fails and the army stays Aztec."""
    adjacent(board, (HUE, CHA))
    state = scenario(board, {CHA: (CH, 1), HUE: (TL, 2), "14": (AZ, 1)},
                     cities={COY: AZ, AME: AZ})
    driver = play(state, {AZ: "A 14 given to Chalcans", TL: "2A Hue A Cha"})
    end = after(driver)
    [gift] = events(driver, "gift")
    assert "fails" in gift.text
    assert armies(end)["14"] == (AZ, 1)
    assert player(end, CH)["status"] == ELIMINATED


def test_4_1_1_validation_rejects_gifts_of_and_to_homeless_players(board: PolygonBoard) -> None:
    """4.1.1: players whose home centres have all been taken can neither make nor receive
    gifts; an empire not in the game holds no home centre either."""
    state = scenario(board, {"14": (AZ, 1), TEN: (AZ, 1), "28": (CH, 1)},
                     cities={CHA: AZ, COY: AZ, AME: TL})
    found = problems(state, {AZ: "A 14 given to Chalcans", CH: "A 28 given to Aztecs"})
    assert any("4.1.1" in p and "receive no gifts" in p for p in found[AZ])
    assert any("4.1.1" in p and "make no gifts" in p for p in found[CH])
    assert any("4.1.1" in p for p in problems(state, {AZ: "A 14 given to Tarascans"})[AZ])


# -- 3.4: elimination ---------------------------------------------------------------------------------


def test_3_4_the_rules_example_remnants_become_independent_kingdoms(board: PolygonBoard) -> None:
    """3.4, the rule's example: the Aztecs take Chalco and Coyoacan while the Tlaxcalans take
    Amecameca, so the Chalcans are eliminated. Their three beaten armies retreat to Xochimilco
    first (5.7); then their armies in cities become independent kingdoms, Xochimilco a triple
    one, and the army in the field (sector 28) disbands."""
    adjacent(board, (TLP, CHA), (TEN, COY), (HUE, AME), (CHA, XOC), (COY, XOC), (AME, XOC))
    state = scenario(board, {CHA: (CH, 1), COY: (CH, 1), AME: (CH, 1), "Iguala": (CH, 2),
                             "28": (CH, 1), TLP: (AZ, 2), TEN: (AZ, 2), HUE: (TL, 2)},
                     cities={XOC: CH})
    assert [s for s in board.land_neighbours(COY) if owners(state).get(s) == CH] == [XOC]
    driver = play(state, {AZ: "2A Tlp A Cha\n2A Ten A Coy", TL: "2A Hue A Ame"})
    end = after(driver)
    assert retreats(end) == [(CH, AME, XOC, 1), (CH, CHA, XOC, 1), (CH, COY, XOC, 1)]
    assert armies(end) == {CHA: (AZ, 2), COY: (AZ, 2), AME: (TL, 2),
                           XOC: (NEUTRAL, 3), "Iguala": (NEUTRAL, 2)}
    assert {c: owners(end)[c] for c in (CHA, COY, AME, XOC, "Iguala")} == {
        CHA: AZ, COY: AZ, AME: TL, XOC: None, "Iguala": None}
    chalcans = player(end, CH)
    assert (chalcans["status"], chalcans["eliminated_turn"]) == (ELIMINATED, 9)
    [gone] = events(driver, "eliminated")
    assert (gone.rule, gone.player, gone.data["kingdoms"]) == ("3.4", CH, ["Iguala", XOC])
    assert AZTLAN.players_to_move(end) == [AZ, TL]


def test_3_4_new_kingdoms_stand_like_the_independent_garrisons_of_2_2(board: PolygonBoard) -> None:
    """3.4, 2.2: the kingdoms have perpetual orders to stand; the eliminated player's orders
    are refused. A triple kingdom beats off a double attack; a double one beaten with a free
    sector next to it disbands rather than being captured."""
    adjacent(board, ("Malinalco", "Iguala"), ("Iguala", "28"), (CHA, XOC))
    state = scenario(board, {CHA: (AZ, 2), "Malinalco": (AZ, 3), XOC: (NEUTRAL, 3),
                             "Iguala": (NEUTRAL, 2)},
                     cities={COY: AZ, AME: TL}, eliminated=(CH,), turn=10)
    refused = problems(state, {CH: "A Xoc A Ame"})[CH]
    assert any("not in the game" in p and "3.4" in p for p in refused)
    driver = play(state, {AZ: "3A Mal A Igu\n2A Cha A Xoc"})
    end = after(driver)
    for sector in (XOC, "Iguala"):
        assert "with no order (stands)" in order_event(driver, sector).text
    assert order_event(driver, CHA).data["code"] == "bounced"
    assert order_event(driver, "Iguala").data["code"] == "disbanded"
    assert armies(end) == {CHA: (AZ, 2), XOC: (NEUTRAL, 3), "Iguala": (AZ, 3)}
    assert owners(end)["Iguala"] == AZ
    assert captives(end) == []


# -- 7: the Chichimecs -----------------------------------------------------------------------------

HORDE_PLAYERS = (AZ, TL, CHI)


@pytest.mark.parametrize(("roll", "new"), [(1, 1), (2, 0), (3, 0), (4, 0), (5, 0), (6, 2)])
def test_7_0_the_chichimec_die(board: PolygonBoard, roll: int, new: int) -> None:
    """7.0: at the end of each turn the Chichimec die: a 1 brings one army into the desert, a
    6 two, anything else nothing. The GM's entered roll is the one used, and logged as such."""
    state = scenario(board, {DESERT: (CHI, 2), TEN: (AZ, 1)}, players=HORDE_PLAYERS)
    driver = play(state, entered={HORDES: roll})
    assert armies(after(driver))[DESERT] == (CHI, 2 + new)
    [die] = [e for e in events(driver, "chichimecs") if e.rule == "7.0"]
    assert die.data == {"roll": roll, "new": new}
    [logged] = driver.rolls
    assert (logged.draw_id, logged.result, logged.source) == (HORDES + "#0", [roll], ENTERED)


def test_7_0_no_die_without_chichimecs_unless_the_gm_rolls_it(board: PolygonBoard) -> None:
    """7.0, 2.1: with no Chichimec player the die is rolled only when the GM plays the hordes
    (the rule option ``chichimecs_unplayed``)."""
    state = scenario(board, {TEN: (AZ, 1)})
    absent = play(state, entered={HORDES: 6})
    assert absent.rolls == [] and events(absent, "chichimecs") == []
    assert DESERT not in armies(after(absent))
    gm = scenario(board, {TEN: (AZ, 1)}, rules=GM_HORDES)
    rolled = play(gm, rules=GM_HORDES, entered={HORDES: 6})
    assert armies(after(rolled))[DESERT] == (CHI, 2)


@pytest.mark.parametrize(("roll", "desert"), [(3, 5), (6, 7)])
def test_7_3_1_each_city_the_chichimecs_take_draws_two_more(
        board: PolygonBoard, roll: int, desert: int) -> None:
    """7.3.1: the Chichimecs take Zimapan and Tula this turn: word goes back to the desert and
    two more armies per city come out of it at the end of the turn, besides the die's (7.0)."""
    adjacent(board, (DESERT, ZIM), ("7", TUL))
    state = scenario(board, {DESERT: (CHI, 3), "7": (CHI, 2), ZIM: (NEUTRAL, 1),
                             TUL: (NEUTRAL, 1), TEN: (AZ, 1)}, players=HORDE_PLAYERS)
    driver = play(state, {CHI: "2A Chi A Zim\n2A 7 A Tul"}, entered={HORDES: roll})
    end = after(driver)
    assert armies(end) == {DESERT: (CHI, desert), ZIM: (CHI, 2), TUL: (CHI, 2), TEN: (AZ, 1)}
    assert (owners(end)[ZIM], owners(end)[TUL]) == (CHI, CHI)
    [word] = [e for e in events(driver, "chichimecs") if e.rule == "7.3.1"]
    assert word.data == {"cities": [TUL, ZIM], "new": 4}


def test_7_3_cities_build_nothing_for_the_chichimecs(board: PolygonBoard) -> None:
    """7.3, 3.2: cities are worth only their loot to the Chichimecs: a city they hold yields no
    army however long its peace."""
    state = scenario(board, {ZIM: (CHI, 2), TEN: (AZ, 1)}, players=HORDE_PLAYERS,
                     peace={ZIM: 3, TEN: 3}, turn=12)
    driver = play(state)
    assert armies(after(driver)) == {ZIM: (CHI, 2), TEN: (AZ, 2)}
    assert [e.region for e in events(driver, "build")] == [TEN]


def test_7_4_a_city_left_by_the_chichimecs_is_resettled_after_a_season(board: PolygonBoard) -> None:
    """7.4, 2.4: the Chichimecs leave Zimapan: it lies destroyed, empty and nobody's. The
    Meztitlans move an army in (no Attack needed); the city is theirs only once that army has
    stood there for a season."""
    adjacent(board, (ZIM, "8"), (MEZ, ZIM))
    state = scenario(board, {ZIM: (CHI, 1), MEZ: (MZ, 1)}, players=(AZ, MZ, CHI))
    left = play(state, {CHI: "A Zim M 8"})
    state = after(left)
    assert owners(state)[ZIM] is None and ZIM not in armies(state)
    assert any(e.rule == "7.4" and e.region == ZIM for e in events(left, "city"))
    state = after(play(state, {MZ: "A Mez M Zim"}))
    assert armies(state)[ZIM] == (MZ, 1)
    assert owners(state)[ZIM] is None
    stood = play(state)
    assert owners(after(stood))[ZIM] == MZ
    [settled] = events(stood, "city")
    assert (settled.rule, settled.player, settled.region) == ("7.4", MZ, ZIM)


def test_7_4_an_attack_into_a_destroyed_city_does_not_resettle_it_at_once(
        board: PolygonBoard) -> None:
    """7.4: an army that enters the empty, destroyed Zimapan by an Attack rather than a Move
    has still to stand there a season before the city is re-established as its player's."""
    adjacent(board, (MEZ, ZIM))
    state = scenario(board, {MEZ: (MZ, 1)}, players=(AZ, MZ, CHI), cities={ZIM: None})
    state = after(play(state, {MZ: "A Mez A Zim"}))
    assert armies(state)[ZIM] == (MZ, 1)
    assert owners(state)[ZIM] is None
    assert owners(after(play(state)))[ZIM] == MZ


def test_7_5_2_superior_numbers_drive_the_hordes_off_the_board(board: PolygonBoard) -> None:
    """7.5, 7.5.2, 7.5.3, 4.1: three Meztitlan armies march into the desert against two
    Chichimecs, who flee off the board; the Chichimecs plundering Tula are not affected, and
    the die's new hordes do not join an occupied desert."""
    adjacent(board, (ZIM, DESERT))
    state = scenario(board, {ZIM: (MZ, 3), DESERT: (CHI, 2), TUL: (CHI, 2)},
                     players=(AZ, MZ, CHI))
    driver = play(state, {MZ: "3A Zim M Chi"}, entered={HORDES: 6})
    end = after(driver)
    assert armies(end) == {DESERT: (MZ, 3), TUL: (CHI, 2)}
    assert [e.data["count"] for e in events(driver, "losses") if e.player == CHI] == [2]
    assert any(e.rule == "7.5.2" for e in events(driver, "chichimecs"))


def test_7_5_armies_may_cross_the_desert_in_one_turn(board: PolygonBoard) -> None:
    """7.5: players may enter and leave the Chichimec country along its border in one turn if
    they outnumber the Chichimecs there; those Chichimecs leave the board (7.5.2)."""
    adjacent(board, (ZIM, DESERT), (DESERT, "13"))
    state = scenario(board, {ZIM: (MZ, 3), DESERT: (CHI, 2)}, players=(AZ, MZ, CHI))
    end = after(play(state, {MZ: "3A Zim M Chi, 13"}))
    assert armies(end) == {"13": (MZ, 3)}


def test_7_5_1_armies_that_do_not_outnumber_the_hordes_are_eaten(board: PolygonBoard) -> None:
    """7.5.1: two Meztitlan armies entering the desert against two Chichimecs are killed and
    eaten."""
    state = scenario(board, {ZIM: (MZ, 2), MEZ: (MZ, 1), DESERT: (CHI, 2)},
                     players=(AZ, MZ, CHI))
    driver = play(state, {MZ: "2A Zim M Chi"})
    assert order_event(driver, ZIM).data["code"] == "eaten"
    assert armies(after(driver)) == {MEZ: (MZ, 1), DESERT: (CHI, 2)}


@pytest.mark.parametrize(("hordes", "won"), [(5, True), (4, False)])
def test_7_2_chichimec_victory(board: PolygonBoard, hordes: int, won: bool) -> None:
    """7.2: the Chichimec player wins when he has more armies on the board than all the other
    players together (4 here); the independent garrisons (9 armies) are not counted."""
    state = scenario(board, {DESERT: (CHI, hordes), TEN: (AZ, 2), TLA: (TL, 2),
                             XAL: (NEUTRAL, 3), ZIM: (NEUTRAL, 3), TUL: (NEUTRAL, 3)},
                     players=HORDE_PLAYERS)
    driver = play(state)
    outcome = AZTLAN.outcome(after(driver), RULES)
    if won:
        assert outcome is not None
        assert (outcome.termination, outcome.winners) == (Termination.VICTORY, (CHI,))
        assert [e.rule for e in events(driver, "victory")] == ["7.2"]
    else:
        assert outcome is None
        assert events(driver, "victory") == []


def test_7_2_hordes_the_gm_plays_win_nothing(board: PolygonBoard) -> None:
    """7.2: only a Chichimec player can win; the hordes the GM rolls for in a game without one
    do not, however many they are."""
    state = scenario(board, {DESERT: (CHI, 9), TEN: (AZ, 1)}, rules=GM_HORDES)
    end = after(play(state, rules=GM_HORDES))
    assert AZTLAN.outcome(end, GM_HORDES) is None


# -- 6.1, 6.2: the borders of 1450 and 1451 ------------------------------------------------------


def refused(found: Mapping[str, Sequence[str]], player: str, rule: str) -> dict[int, bool]:
    """A player's rejected lines, by number: whether one of the reasons cites ``rule``."""
    out: dict[int, bool] = {}
    for text in found.get(player, []):
        head, _, reason = text.partition(": ")
        line = int(head.removeprefix("line "))
        out[line] = out.get(line, False) or f"({rule})" in reason
    return out


@pytest.mark.parametrize("turn", [1, 4], ids=["Winter 1450", "Fall 1450"])
def test_6_1_the_triad_may_not_cross_each_others_borders_in_1450(
        board: PolygonBoard, turn: int) -> None:
    """6.1: all through 1450 the Aztecs, Chalcans and Tlaxcalans may not cross each other's
    borders: no attack or cut support on another's homeland, and no move into it even with
    permission; cities outside their empires are open to them."""
    adjacent(board, (TEN, COY), (TEX, TLA), (TAC, COY), (HUE, CHA), (CHA, TLP), (TEX, XAL))
    state = scenario(board, initial(board), turn=turn)
    found = problems(state, {AZ: "2A Ten A Coy\nA Tex A Tla",
                             TL: "A Hue A Cha\nA Tla CS Tex",
                             CH: "A Cha A Tlp"})
    assert refused(found, AZ, "6.1") == {1: True, 2: True}
    assert refused(found, TL, "6.1") == {1: True, 2: True}
    assert CH not in found
    moved = problems(state, {AZ: "A Tac M Coy", CH: "permit Aztecs through Coy"})
    assert refused(moved, AZ, "6.1") == {1: True}
    assert problems(state, {AZ: "A Tex A Xal"}) == {}


def test_6_1_binds_only_the_aztecs_chalcans_and_tlaxcalans(board: PolygonBoard) -> None:
    """6.1: a Meztitlan army in Xaltocan may attack the Aztecs' Texcoco in Winter 1450."""
    adjacent(board, (XAL, TEX))
    players = (AZ, TL, CH, "Tarascans", MZ)
    start = initial(board, players)
    start[XAL] = (MZ, 1)
    state = scenario(board, start, players=players, turn=1)
    assert problems(state, {MZ: "A Xal A Tex"}) == {}


@pytest.mark.parametrize("turn", [5, 8], ids=["Winter 1451", "Fall 1451"])
def test_6_2_aztecs_and_tlaxcalans_may_not_attack_each_others_homeland_in_1451(
        board: PolygonBoard, turn: int) -> None:
    """6.2: in 1451 the Aztecs and Tlaxcalans may not attack (nor cut support in, 5.4) each
    other's homeland; either may attack Chalco's confederacy or support Chalco, and the
    Chalcans are free."""
    adjacent(board, (TEX, TLA), (TEX, HUE), (TEN, COY), (HUE, CHA), (COY, TAC))
    state = scenario(board, initial(board), turn=turn)
    found = problems(state, {AZ: "A Tex A Tla\n2A Ten A Coy",
                             TL: "A Tla A Tex\nA Hue A Cha"})
    assert refused(found, AZ, "6.2") == {1: True}
    assert refused(found, TL, "6.2") == {1: True}
    assert refused(problems(state, {AZ: "A Tex CS Hue"}), AZ, "6.2") == {1: True}
    assert problems(state, {CH: "A Coy A Tac"}) == {}
    assert problems(state, {TL: "A Hue S Cha H"}) == {}


def test_6_2_no_border_rule_from_1452(board: PolygonBoard) -> None:
    """6.1, 6.2: from Winter 1452 the homelands are open to everyone."""
    state = scenario(board, initial(board), turn=9)
    assert problems(state, {AZ: "A Tex A Tla\n2A Ten A Coy", TL: "A Hue A Cha"}) == {}


# -- 1.3, 1.4: victory and the Spanish ---------------------------------------------------------------


def conquest(board: PolygonBoard, pid: str, conquered: Sequence[str], total: int) -> dict[str, str]:
    """``total`` cities for ``pid``: its own home centres, ``conquered``, then cities of no
    Aztec, Tlaxcalan or Chalcan homeland."""
    homelands = set(EMPIRES[AZ]) | set(EMPIRES[TL]) | set(EMPIRES[CH])
    held = list(dict.fromkeys([*EMPIRES[pid], *conquered]))
    cities = sorted(n for n in board.land() if board.regions[n].props.get("city") is True)
    held += [c for c in cities if c not in homelands and c not in held][: total - len(held)]
    assert len(held) == total
    return dict.fromkeys(held, pid)


@pytest.mark.parametrize(("pid", "conquered", "total", "wins"), [
    (AZ, EMPIRES[TL], 41, True),
    (AZ, EMPIRES[TL], 40, False),
    (AZ, EMPIRES[CH], 41, False),
    (TL, EMPIRES[AZ], 41, True),
    (TL, EMPIRES[CH], 41, False),
    (CH, EMPIRES[AZ], 41, True),
    (CH, EMPIRES[TL], 41, True),
    (CH, EMPIRES[AZ][:2] + EMPIRES[TL][:2], 41, False),
], ids=["Aztecs 41 with Tlaxcala", "Aztecs 40", "Aztecs 41 with Chalco only",
        "Tlaxcalans 41 with the Aztecs", "Tlaxcalans 41 with Chalco only",
        "Chalcans 41 with the Aztecs", "Chalcans 41 with Tlaxcala", "Chalcans 41 with parts"])
def test_1_4_victory(board: PolygonBoard, pid: str, conquered: Sequence[str], total: int,
                     wins: bool) -> None:
    """1.4: a player wins with at least 41 of the 79 cities and every home centre of the
    Aztecs or of the Tlaxcalans; the Aztecs need the Tlaxcalans' and the Tlaxcalans the
    Aztecs'."""
    state = scenario(board, {}, cities=conquest(board, pid, conquered, total))
    driver = play(state)
    end = after(driver)
    game = end["game"].row(0, named=True)
    outcome = AZTLAN.outcome(end, RULES)
    if wins:
        assert (game["winner"], game["ended"]) == (pid, "victory")
        assert outcome is not None
        assert (outcome.termination, outcome.winners) == (Termination.VICTORY, (pid,))
        assert [(e.rule, e.player) for e in events(driver, "victory")] == [("1.4", pid)]
    else:
        assert (game["winner"], game["ended"]) == (None, None)
        assert outcome is None


def test_1_3_the_spanish_land_after_spring_1519(board: PolygonBoard) -> None:
    """1.3: with no winner by Spring 1519 (turn 278), the Spanish land and conquer everybody:
    the game ends at the time limit and every player loses. Winter 1519 is still played on."""
    assert turn_of(1519, "Spring") == 278
    winter = after(play(scenario(board, {TEN: (AZ, 1)}, turn=277)))
    assert AZTLAN.outcome(winter, RULES) is None
    assert winter["game"].row(0, named=True)["season"] == "Spring"
    driver = play(scenario(board, {TEN: (AZ, 1)}, turn=278))
    end = after(driver)
    assert end["game"].row(0, named=True)["ended"] == "spanish"
    outcome = AZTLAN.outcome(end, RULES)
    assert outcome is not None
    assert (outcome.termination, outcome.winners) == (Termination.TIME_LIMIT, ())
    assert [e.rule for e in events(driver, "spanish")] == ["1.3"]
    assert events(driver, "season") == []


def test_1_3_a_victory_in_spring_1519_comes_before_the_spanish(board: PolygonBoard) -> None:
    """1.3, 1.4: victory conditions met in Spring 1519 win the game before the Spanish land."""
    state = scenario(board, {}, cities=conquest(board, AZ, EMPIRES[TL], 41), turn=278)
    outcome = AZTLAN.outcome(after(play(state)), RULES)
    assert outcome is not None
    assert (outcome.termination, outcome.winners) == (Termination.VICTORY, (AZ,))


# -- determinism ---------------------------------------------------------------------------------


def bot_orders(state: State, rules: Params, turn: int) -> dict[str, list[Any]]:
    """Every player's bot post for ``turn``, read and validated; rejected lines dropped."""
    posts = {pid: AZTLAN.bot_post(state, pid, rules, Dice(SEED, turn, f"bot/{pid}"))
             for pid in AZTLAN.players_to_move(state)}
    parsed = {p: AZTLAN.parse_post(text, p, state, rules) for p, text in posts.items() if text}
    return _accepted(parsed, AZTLAN.validate(state, parsed, rules))


def ten_player_game(board: PolygonBoard, turns: int) -> tuple[State, list[Driver]]:
    """All ten empires from Winter 1450, played ``turns`` turns by the bots, the Chichimec die
    drawn from the seed."""
    rules = AZTLAN.rules()
    state = setup([PlayerInfo(p["id"], p["name"]) for p in AZTLAN.example_players(board)],
                  board, rules)
    drivers = []
    for turn in range(1, turns + 1):
        driver = resolve(state, bot_orders(state, rules, turn), rules=rules, entered={})
        drivers.append(driver)
        state = driver.state.replace(turn=turn)
    return state, drivers


def digest(state: State, drivers: Sequence[Driver]) -> str:
    """A fingerprint of every table and every event and roll of the turns played."""
    h = hashlib.sha256()
    for name in sorted(state.tables):
        h.update(name.encode())
        h.update(state[name].write_csv().encode())
    for driver in drivers:
        for e in driver.events:
            h.update(repr((e.kind, e.rule, e.text, e.player, e.region,
                           sorted(e.data.items()))).encode())
        for r in driver.rolls:
            h.update(repr((r.draw_id, r.result, r.source)).encode())
    return h.hexdigest()


def ten_player_digest(turns: int = 3) -> str:
    """:func:`digest` of :func:`ten_player_game` on the shipped board."""
    return digest(*ten_player_game(load_map(), turns))


def test_the_same_seed_and_orders_give_the_same_turn(board: PolygonBoard) -> None:
    """5.1 and gmkit's dice: the GM resolving a turn again, from the same state with the same
    orders and seed, gets the same state, events and rolls, the Chichimec die included."""
    state, _ = ten_player_game(board, 2)
    rules = AZTLAN.rules()
    orders = bot_orders(state, rules, 3)
    assert sum(len(o) for o in orders.values()) > 10
    first = resolve(state, orders, rules=rules, entered={})
    second = resolve(state, orders, rules=rules, entered={})
    assert first.state.equals(second.state)
    assert first.events == second.events
    assert first.rolls == second.rolls
    assert [(r.draw_id, r.source) for r in first.rolls] == [(HORDES + "#0", SEEDED)]
    first.restart()
    first.run_all()
    assert first.state.equals(second.state)
    assert first.events == second.events


def test_the_same_turns_in_other_processes_give_the_same_result(board: PolygonBoard) -> None:
    """Resolution does not hang on Python's per-process hash seed (set and dict order of
    strings): three bot-played turns give the same tables, events and rolls here and in two
    fresh interpreters with different hash seeds."""
    here = ten_player_digest()
    root = Path(__file__).resolve().parents[2]
    code = ("from tests.aztlan.test_aztlan_turn import ten_player_digest; "
            "print(ten_player_digest())")
    for hash_seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-c", code], cwd=root, env=env,
                              capture_output=True, text=True, timeout=300, check=True)
        assert done.stdout.strip() == here, f"PYTHONHASHSEED={hash_seed}"


def test_the_game_workflow_replays_every_turn(tmp_path: Path) -> None:
    """The GM's workflow (``Game``: posts received, turn started, committed) on two folders
    with the same seeds gives the same turns, and re-resolving every stored turn from its
    orders and seed reproduces it."""
    players = AZTLAN.example_players(None)
    a = new_game(tmp_path / "a", "aztlan", players, 3, master="aztlan")
    b = new_game(tmp_path / "b", "aztlan", players, 3, master="aztlan")
    assert a.latest_turn == b.latest_turn == 3
    for turn in range(4):
        assert a.state(turn).equals(b.state(turn)), f"turn {turn}"
    assert a.verify() == []


def test_secret_sacrifice_and_gift_stay_out_of_public_events(board: PolygonBoard) -> None:
    """Secret orders never reach a public report: a sacrifice (3.5.4) and a gift (4.1.1) sent
    privately are told in GM-only events; only their public effects (the magic supports and the
    armies on the board) show."""
    adjacent(board, (TEX, TLP))
    state = scenario(board, {TEX: (AZ, 1), TEN: (AZ, 1), "28": (AZ, 1)},
                     captives=[(AZ, TL, 2, 8)])
    parsed = {AZ: AZTLAN.parse_post("Tex sac 2\nA 28 given to Tlaxcalans", AZ, state, RULES,
                                    secret=True)}
    assert not AZTLAN.validate(state, parsed, RULES)
    secret = Orders(Envelope(o, AZ, 1, line.number, secret=True) for line, o in parsed[AZ].orders)
    driver = resolve(state, secret)
    told = [e for e in driver.events if e.kind in ("sacrifice", "gift")]
    assert len(told) == 2 and not any(e.public for e in told)
    assert all(e.public for e in driver.events if e.kind in ("build", "chichimecs", "season"))
    spring = after(driver)
    assert magic(spring)[AZ] == 2 and armies(spring)["28"] == (TL, 1)


def test_3_5_3_a_sacrifice_short_of_captives_when_it_comes_is_told_to_its_player(
        board: PolygonBoard) -> None:
    """3.5.3, 3.5.4: an accepted sacrifice that finds fewer captives than it names when the
    sacrifices come (here the captives are gone since the post was read) is void for the part
    missing, and the player's own report says which line, why and under which rule."""
    state = scenario(board, {TEX: (AZ, 1), TEN: (AZ, 1)}, captives=[(AZ, TL, 2, 8)])
    orders = legal(state, {AZ: "Tex sac 2"})
    gone = state.replace(captives=state["captives"].clear())
    driver = resolve(gone, orders)
    [void] = events(driver, "void")
    assert (void.player, void.rule, void.data["line"], void.public) == (AZ, "3.5.3", 1, True)
    assert "line 1" in void.text and "only 0 of the 2 captives" in void.text
    silent = resolve(gone, orders, rules=AZTLAN.rules({"assignment": "free",
                                                        "void_report": "legacy_silent"}))
    assert events(silent, "void") == []
