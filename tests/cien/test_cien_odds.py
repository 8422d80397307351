"""Exact conquest odds of the Crown of Cien, checked against a brute-force count over every die.

The brute force here is written from the rule text (LES DEMANDES, LA DÉFENSE ET LES DÉS DE GUERRE)
alone: every attacker and every defence share rolls a die; the attacker wins when grain + die is
strictly higher; the defending grain is spread as equally as possible, the leftover against the
attacker who dedicated the most grain; of several winners the one who dedicated the most takes
the state (ties: the higher total then a roll-off, or straight to a roll-off).
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import prod

import pytest

from gmkit.rulesets.cien.rules import COLOURS
from gmkit.rulesets.cien.odds import conquest_odds, take_chances
from gmkit.rulesets.cien.steps import conquest
from gmkit.core.dice import Dice
from tests.cien.helpers import RULESET, orders_of, scenario

Fighter = tuple[str, int, int]  # (colour, grain dedicated, grain that fights)


def allotments(defense: int, fighters: list[Fighter], leftover_tie: str
               ) -> list[tuple[dict[str, int], Fraction]]:
    """Every way the defence can be spread, with its probability."""
    n = len(fighters)
    base, left = defense // n, defense % n
    shares = {pid: base for pid, _, _ in fighters}
    if left == 0:
        return [(shares, Fraction(1))]
    most = max(g for _, g, _ in fighters)
    tied = sorted((pid for pid, g, _ in fighters if g == most), key=COLOURS.index)
    if len(tied) == 1:
        return [({**shares, tied[0]: base + left}, Fraction(1))]
    if leftover_tie == "roll":
        return [({**shares, t: base + left}, Fraction(1, len(tied))) for t in tied]
    spread = dict(shares)
    for i in range(left):
        spread[tied[i % len(tied)]] += 1
    return [(spread, Fraction(1))]


def battle_outcomes(force: int, share: int, defense: int, die: int) -> list[int | None]:
    """One attacker's result for each of the die x die pairs (attack roll, defence roll): its
    total when it wins, None when repelled."""
    if defense == 0:
        return [force] * (die * die)  # walks in: no battle (its 'total' is its grain)
    return [force + a if force + a > share + b else None
            for a in range(1, die + 1) for b in range(1, die + 1)]


def brute_force(defense: int, fighters: list[Fighter], *, die: int = 10,
                leftover_tie: str = "roll", winner_tie: str = "total", grouped: bool = True
                ) -> dict[str, tuple[Fraction, Fraction]]:
    """P(battle won) and P(holds the state) per attacker, counting every roll of every die.

    ``grouped`` counts each attacker's equal results together (the same count, much faster);
    without it every one of the die ** (2 x attackers) throws is visited one by one.
    """
    n = len(fighters)
    scale = 6  # splits among up to 3 tied winners stay whole numbers
    won = {pid: Fraction(0) for pid, _, _ in fighters}
    took = {pid: Fraction(0) for pid, _, _ in fighters}
    for shares, p_allot in allotments(defense, fighters, leftover_tie):
        per = [battle_outcomes(force, shares[pid], defense, die) for pid, _, force in fighters]
        if grouped:
            per_counted = [list(Counter(results).items()) for results in per]
            throws = (([t for t, _ in combo], prod(c for _, c in combo))
                      for combo in itertools.product(*per_counted))
        else:
            throws = ((combo, 1) for combo in itertools.product(*per))
        won_n = {pid: 0 for pid, _, _ in fighters}
        took_n = {pid: 0 for pid, _, _ in fighters}
        for totals, weight in throws:
            winners = [(fighters[i][0], fighters[i][1], total)
                       for i, total in enumerate(totals) if total is not None]
            for pid, _, _ in winners:
                won_n[pid] += weight
            if not winners:
                continue
            most = max(g for _, g, _ in winners)
            top = [w for w in winners if w[1] == most]
            if winner_tie == "total":
                best = max(t for _, _, t in top)
                top = [w for w in top if w[2] == best]
            for pid, _, _ in top:
                took_n[pid] += weight * (scale // len(top))
        total = die ** (2 * n)
        for pid in won:
            won[pid] += p_allot * Fraction(won_n[pid], total)
            took[pid] += p_allot * Fraction(took_n[pid], total * scale)
    return {pid: (won[pid], took[pid]) for pid in won}


def rules(**kw):
    return RULESET.rules({"mission_chance": 0, **kw})


def test_grain_10_against_defence_10_is_45_in_100():
    """LES DEMANDES...: d10 + 10 against d10 + 10 wins only on a strictly higher roll: 45 of the
    100 pairs of dice."""
    assert take_chances(10, [("Red", 10, 10)], rules()) == \
        {"Red": (Fraction(45, 100), Fraction(45, 100))}


def test_grain_19_against_defence_12_hand_count():
    """LES DEMANDES... (the Sevoy example's grain): 19 + a > 12 + b fails only when b - a >= 7:
    (1,8) (1,9) (1,10) (2,9) (2,10) (3,10), 6 pairs of 100."""
    assert take_chances(12, [("Red", 19, 19)], rules())["Red"] == (Fraction(94, 100),) * 2


def test_undefended_state_is_certain():
    """GRAIN ET INVESTISSEMENTS: a state without defending grain falls for certain; of several
    walkers-in the largest conquest takes it."""
    chances = take_chances(0, [("Red", 3, 3), ("Gold", 5, 5)], rules())
    assert chances == {"Red": (Fraction(1), Fraction(0)), "Gold": (Fraction(1), Fraction(1))}


@pytest.mark.parametrize("defense, grain", [(10, 1), (10, 5), (10, 10), (10, 19), (30, 25),
                                            (0, 4), (3, 12), (12, 2)])
def test_one_attacker_matches_brute_force(defense, grain):
    """LES DEMANDES...: one attacker, every d10 pair."""
    fighters = [("Red", grain, grain)]
    assert take_chances(defense, fighters, rules()) == brute_force(defense, fighters)


@pytest.mark.parametrize("defense, fighters", [
    (10, [("Red", 8, 8), ("Gold", 5, 5)]),
    (11, [("Red", 8, 8), ("Gold", 5, 5)]),
    (11, [("Red", 6, 6), ("Gold", 6, 6)]),      # leftover tie
    (10, [("Red", 6, 6), ("Gold", 6, 6)]),      # equal grain, equal shares: winner tie
    (0, [("Red", 6, 6), ("Gold", 6, 6)]),       # walkover tie: a roll-off
    (1, [("Red", 3, 3), ("Gold", 2, 2)]),
])
@pytest.mark.parametrize("leftover_tie", ["roll", "spread"])
@pytest.mark.parametrize("winner_tie", ["total", "roll"])
def test_two_attackers_match_brute_force(defense, fighters, leftover_tie, winner_tie):
    """LES DEMANDES...: two attackers, every roll of the four d10, under each tie option."""
    r = rules(leftover_tie=leftover_tie, winner_tie=winner_tie)
    assert take_chances(defense, fighters, r) == brute_force(
        defense, fighters, leftover_tie=leftover_tie, winner_tie=winner_tie)


def test_three_attackers_match_every_one_of_a_million_throws():
    """LES DEMANDES...: three attackers (8, 5 and 6 against 11: shares 5, 3, 3), each of the
    10**6 throws of the six d10 visited one by one."""
    fighters = [("Red", 8, 8), ("Green", 5, 5), ("Cyan", 6, 6)]
    assert take_chances(11, fighters, rules()) == brute_force(11, fighters, grouped=False)


@pytest.mark.parametrize("defense, fighters", [
    (11, [("Red", 8, 8), ("Green", 5, 5), ("Cyan", 6, 6)]),
    (10, [("Red", 6, 6), ("Green", 6, 6), ("Cyan", 4, 4)]),   # leftover tie of two
    (11, [("Red", 6, 6), ("Green", 6, 6), ("Cyan", 6, 6)]),   # three-way ties
    (12, [("Red", 2, 2), ("Green", 9, 9), ("Cyan", 9, 9)]),   # no leftover, winner tie
    (0, [("Red", 4, 4), ("Green", 4, 4), ("Cyan", 1, 1)]),    # walkover roll-off
])
@pytest.mark.parametrize("leftover_tie", ["roll", "spread"])
@pytest.mark.parametrize("winner_tie", ["total", "roll"])
def test_three_attackers_match_brute_force(defense, fighters, leftover_tie, winner_tie):
    """LES DEMANDES...: three attackers, every roll of the six d10, under each tie option."""
    r = rules(leftover_tie=leftover_tie, winner_tie=winner_tie)
    assert take_chances(defense, fighters, r) == brute_force(
        defense, fighters, leftover_tie=leftover_tie, winner_tie=winner_tie)


def test_chances_of_taking_sum_to_chance_someone_wins():
    """LES DEMANDES...: exactly one conqueror holds the state whenever any battle is won."""
    fighters = [("Red", 7, 7), ("Gold", 7, 7), ("Green", 4, 4)]
    chances = take_chances(9, fighters, rules())
    p_take = sum(t for _, t in chances.values())
    p_nobody = Fraction(1)
    for pid, _, _ in fighters:
        p_nobody *= 1 - chances[pid][0]  # battles are independent once the shares are fixed
    assert 0 < p_take < 1
    assert p_take == 1 - p_nobody  # 9 = 3+3+3: no leftover, shares fixed


def test_sea_attack_fights_with_grain_less_preparations():
    """LES MER EFFRAYANTES DE LA CIEN: of 15 grain sent across a sea 10 fight; the odds are those
    of 10 against the independent state's 10 (45/100)."""
    state, params = scenario("""
        Guicardie A    Cien
        ~1        ~1   ~1
        Tróys     B    C
        """, {"Red": ("Guicardie", "duchy")}, treasury={"Red": 15}, rules={"mission_chance": 0})
    orders, _ = orders_of(state, params, {"Red": "15 Grain for Conquest of Tróys"})
    row = conquest_odds(state, orders, params).row(0, named=True)
    assert (row["target"], row["defender"], row["defense"], row["grain"], row["fighting"]) == \
        ("Tróys", "independent", 10, 15, 10)
    assert row["exact"] == "9/20" and row["p_take"] == 0.45


def test_sea_attack_leftover_goes_against_most_grain_dedicated():
    """LES DEMANDES... with LES MER EFFRAYANTES (rules notes: grain 'dedicated' with a sea attack
    includes the preparations): 15 across the sea outranks 12 by land for the leftover."""
    fighters = [("Red", 15, 10), ("Gold", 12, 12)]
    assert take_chances(11, fighters, rules()) == brute_force(11, fighters)


def test_conquest_odds_table_for_a_turn():
    """LES DEMANDES...: one row per conquest order, with the defence it meets and its chances:
    an undefended player state is certain, Cien defends with 30."""
    state, params = scenario("A B Cien", {"Red": ("A", "duchy"), "Gold": ("B", "duchy")},
                             treasury={"Red": 30, "Gold": 21}, rules={"mission_chance": 0})
    orders, problems = orders_of(state, params, {"Gold": "Attack Cien with 20\nAttack A with 1"})
    assert problems == {}
    table = conquest_odds(state, orders, params)
    rows = {r["target"]: r for r in table.iter_rows(named=True)}
    assert rows["A"]["defense"] == 0 and rows["A"]["exact"] == "1/1"
    # 20 + a > 30 + b needs a - b >= 11: impossible with a d10
    assert rows["Cien"]["defense"] == 30 and rows["Cien"]["exact"] == "0/1"


def test_odds_agree_with_the_resolution():
    """LES DEMANDES...: running the conquest step over every entered die (d4 for speed: option
    die) with every leftover and roll-off pick, uniformly weighted, gives the exact odds (11
    defending grain against two attacks of 5: a leftover tie and, often, a winner tie)."""
    state, params = scenario("""
        A B C
        X D Cien
        """, {"Red": ("A", "duchy"), "Gold": ("B", "duchy"), "Green": ("C", "duchy")},
        treasury={"Red": 5, "Gold": 11, "Green": 5}, rules={"mission_chance": 0, "die": 4})
    orders, _ = orders_of(state, params, {"Red": "Attack B with 5", "Green": "Attack B with 5",
                                          "Gold": "Defend B with 11"})
    taken = {"Red": 0, "Green": 0, "Gold": 0}
    runs = 0
    for a1, b1, a2, b2 in itertools.product(range(1, 5), repeat=4):
        for left in ("Red", "Green"):
            for tie in ("Red", "Green"):
                entered = {"conquest:attack/B/Red": a1, "conquest:defend/B/Red": b1,
                           "conquest:attack/B/Green": a2, "conquest:defend/B/Green": b2,
                           "conquest:leftover/B": left, "conquest:winner/B": tie}
                after, _ = conquest(state, orders, Dice("00" * 32, 1, "conquest", entered),
                                    params)
                who = after["provinces"].filter(after["provinces"]["name"] == "B")["owner"][0]
                taken[who] += 1
                runs += 1
    chances = take_chances(11, [("Red", 5, 5), ("Green", 5, 5)], params)
    assert 0 < chances["Red"][1] < chances["Red"][0] < 1  # leftover and roll-off both matter
    assert Fraction(taken["Red"], runs) == chances["Red"][1]
    assert Fraction(taken["Green"], runs) == chances["Green"][1]
