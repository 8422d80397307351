"""CHARACTER ATTACKS, one scenario per rule, with the Random Numbers entered as the GM would.

Each docstring quotes the rule. Keys of entered draws: ``<attack>/result`` (the result's Random
Number), ``<attack>/loss/<name>``, ``<attack>/gain``, ``<attack>/attacker-wins``,
``<attack>/food``, ``<attack>/gold``.
"""

from __future__ import annotations

import math

import pytest

from gmkit.rulesets.jungle.attack import (Attack, AttackType, Band, attack_result, band_of,
                                          divide, resolve_attack, side_strength, strength)
from tests.jungle.helpers import RULES, dice, fighter, rules


def duel(attackers, defenders, location=0.0, **kw):
    return Attack("a", AttackType.DUEL, tuple(attackers), tuple(defenders), location, **kw)


def test_attack_strength_is_a_sum_of_square_roots():
    """ATTACK STRENGTH: "sqrt(N1) + sqrt(N2) + ...: if multiple characters are involved ... or
    if multiple attributes are involved, they are added together after sqrt taken"."""
    a, b = fighter("A", xp=4, wisdom=9), fighter("B", xp=16, wisdom=1)
    assert side_strength([a, b], ("xp",)) == 2 + 4
    assert side_strength([a, b], ("xp", "wisdom")) == 2 + 3 + 4 + 1


def test_attack_results_formula():
    """ATTACK RESULTS: "(Random Number) * (Attack + Defense + Location) / (Defense + Location)"."""
    assert attack_result(0.5, 4, 2, 2) == pytest.approx(0.5 * 8 / 4)


@pytest.mark.parametrize("result,band", [
    (0.0, Band.ALL_ATTACKERS_FAIL), (0.3299, Band.ALL_ATTACKERS_FAIL),
    (0.33, Band.PRINCIPAL_ATTACKER_FAILS), (0.6699, Band.PRINCIPAL_ATTACKER_FAILS),
    (0.67, Band.DRAW), (0.9999, Band.DRAW), (1.0, Band.PRINCIPAL_DEFENDER_SUFFERS),
    (1.4999, Band.PRINCIPAL_DEFENDER_SUFFERS), (1.5, Band.ALL_DEFENDERS_SUFFER),
    (7.0, Band.ALL_DEFENDERS_SUFFER)])
def test_attack_results_bands(result, band):
    """ATTACK RESULTS: 0 to 0.33 all attackers fail; 0.33 to 0.67 the principal attacker; 0.67 to
    1 a draw; 1 to 1.5 the principal defender suffers; greater than 1.5 all defenders."""
    assert band_of(result, RULES) is band


def test_duel_loser_loses_xp_and_winner_gains_a_share():
    """DUEL: "The losing side loses XP equal to (Random Number)*(XP)*(1.5). The winning side gain
    XP equal to (Random Number)*(Enemy XP Lost), rounded down"."""
    # A=sqrt(16)=4, D=sqrt(4)=2, L=2: result = u*8/4 = 2u; u=0.6 -> 1.2: principal defender.
    out = resolve_attack(duel([fighter("Gualpa", xp=16)], [fighter("Xoco", xp=4)], 2.0),
                         dice(**{"a/result": 0.6, "a/loss/Xoco": 0.5, "a/gain": 0.75}), RULES)
    assert out.band is Band.PRINCIPAL_DEFENDER_SUFFERS
    assert out.changes["Xoco"] == {"xp": -3}          # floor(0.5*4*1.5) = 3
    assert out.changes["Gualpa"] == {"xp": 2}         # floor(0.75*3) = 2


def test_duel_a_character_cannot_lose_more_xp_than_he_started_with():
    """DUEL: "A character cannot lose more XP than they started with"."""
    out = resolve_attack(duel([fighter("Gualpa", xp=16)], [fighter("Xoco", xp=4)]),
                         dice(**{"a/result": 0.9, "a/loss/Xoco": 0.99, "a/gain": 0.0}), RULES)
    assert out.changes["Xoco"] == {"xp": -4}


def test_principal_attacker_fails_alone_but_all_attackers_in_the_lowest_band():
    """ATTACK RESULTS: between 0.33 and 0.67 "the principal attacker suffers the result of a
    failed attack"; between 0 and 0.33 "all attackers" do."""
    att = [fighter("P", xp=4), fighter("Q", xp=4)]
    d = [fighter("X", xp=16)]
    one = resolve_attack(duel(att, d, 4.0), dice(**{"a/result": 0.4, "a/loss/P": 0.5,
                                                    "a/gain": 0.0}), RULES)
    assert one.band is Band.PRINCIPAL_ATTACKER_FAILS and one.losers == ("P",)
    assert "Q" not in one.changes
    both = resolve_attack(duel(att, d, 4.0), dice(**{"a/result": 0.1, "a/loss/P": 0.5,
                                                     "a/loss/Q": 0.5, "a/gain": 0.0}), RULES)
    assert both.losers == ("P", "Q") and both.changes["Q"] == {"xp": -3}


def test_gains_are_divided_among_winners_by_combat_strength():
    """DUEL: the gain is "divided among winners according to combat strength"."""
    assert divide(10, {"A": 3.0, "B": 1.0}, RULES) == {"A": 7, "B": 2}
    assert divide(10, {"A": 3.0, "B": 1.0}, rules(share_rounding="largest_remainder")) == {
        "A": 8, "B": 2}


def test_draw_changes_nothing():
    """ATTACK RESULTS: "between 0.67 and 1, then the attack is essentially a draw with no
    result"."""
    out = resolve_attack(duel([fighter("A", xp=4)], [fighter("B", xp=4)]),
                         dice(**{"a/result": 0.4}), RULES)   # 0.4 * 2 = 0.8
    assert out.band is Band.DRAW and not out.changes


def test_assassinate_uses_xp_and_wisdom_and_pays_in_wisdom():
    """ASSASSINATE: attack XP and Wisdom, defense XP; the loser loses XP; the winning side gains
    Wisdom equal to (Random Number)*(Enemy XP Lost)*(Random Number if Attacker Wins)."""
    a = Attack("a", AttackType.ASSASSINATE, (fighter("A", xp=4, wisdom=4),),
               (fighter("B", xp=16),), 0.0)
    assert a.strengths() == (4.0, 4.0)
    out = resolve_attack(a, dice(**{"a/result": 0.9, "a/loss/B": 0.5, "a/gain": 0.5,
                                    "a/attacker-wins": 0.5}), RULES)   # 0.9*2 = 1.8
    assert out.band is Band.ALL_DEFENDERS_SUFFER
    assert out.changes == {"B": {"xp": -12}, "A": {"wisdom": 3}}      # floor(.5*12*.5)


def test_random_number_if_attacker_wins_is_not_drawn_when_the_defender_wins():
    """ASSASSINATE: the extra Random Number applies only "if Attacker Wins"."""
    a = Attack("a", AttackType.ASSASSINATE, (fighter("A", xp=4, wisdom=4),),
               (fighter("B", xp=16),), 0.0)
    out = resolve_attack(a, dice(**{"a/result": 0.2, "a/loss/A": 0.5, "a/gain": 0.5}), RULES)
    assert out.changes == {"A": {"xp": -3}, "B": {"wisdom": 1}}        # floor(.5*3)


def test_debate_is_fought_and_paid_in_wisdom():
    """DEBATE: attack and defense Wisdom; the loser loses Wisdom, the winners gain Wisdom."""
    a = Attack("a", AttackType.DEBATE, (fighter("A", wisdom=9),), (fighter("B", wisdom=9),), 0.0)
    out = resolve_attack(a, dice(**{"a/result": 0.6, "a/loss/B": 0.5, "a/gain": 1 - 1e-9}),
                         RULES)
    assert out.changes == {"B": {"wisdom": -6}, "A": {"wisdom": 5}}


def test_discredit_costs_wisdom_and_pays_in_fame():
    """DISCREDIT: attack Wisdom and Fame, defense Wisdom; the loser loses Wisdom; the winners
    gain Fame (with the Random Number if Attacker Wins)."""
    a = Attack("a", AttackType.DISCREDIT, (fighter("A", wisdom=4, fame=4),),
               (fighter("B", wisdom=16),), 0.0)
    assert a.strengths() == (4.0, 4.0)
    out = resolve_attack(a, dice(**{"a/result": 0.6, "a/loss/B": 0.5, "a/gain": 0.5,
                                    "a/attacker-wins": 1 - 1e-9}), RULES)
    assert out.changes == {"B": {"wisdom": -12}, "A": {"fame": 5}}


def test_challenge_seizes_the_item_and_pays_in_fame():
    """CHALLENGE: attack and defense Fame; the loser loses Fame; "the winning side gains/retains
    control of the item in question and gains Fame"."""
    a = Attack("a", AttackType.CHALLENGE, (fighter("A", fame=9),), (fighter("B", fame=9),), 0.0)
    out = resolve_attack(a, dice(**{"a/result": 0.6, "a/loss/B": 0.5, "a/gain": 0.5}), RULES)
    assert out.seized and out.changes == {"B": {"fame": -6}, "A": {"fame": 3}}


def test_overthrow_uses_fame_and_xp_and_pays_in_xp():
    """OVERTHROW: attack Fame and XP, defense Fame; the loser loses Fame; the winners gain XP
    (with the Random Number if Attacker Wins); the item changes hands."""
    a = Attack("a", AttackType.OVERTHROW, (fighter("A", fame=4, xp=4),), (fighter("B", fame=16),),
               0.0)
    out = resolve_attack(a, dice(**{"a/result": 0.6, "a/loss/B": 0.5, "a/gain": 1 - 1e-9,
                                    "a/attacker-wins": 0.5}), RULES)
    assert out.seized and out.changes == {"B": {"fame": -12}, "A": {"xp": 5}}


def test_overthrow_that_fails_keeps_the_item():
    """OVERTHROW: the winning side "gains/retains control": a failed attack seizes nothing."""
    a = Attack("a", AttackType.OVERTHROW, (fighter("A", fame=4, xp=4),), (fighter("B", fame=16),),
               0.0)
    out = resolve_attack(a, dice(**{"a/result": 0.1, "a/loss/A": 0.5, "a/gain": 0.0}), RULES)
    assert not out.seized and out.changes == {"A": {"fame": -3}}


def test_steal_takes_a_random_share_of_food_and_gold():
    """STEAL: attack Wisdom and XP, defense Fame; "the attackers steal food equal to (Food
    Stores)*(Random Number) and gold equal to (Gold Stores)*(Random Number)"; the losers lose XP
    and the winning side gains 1 pt of Fame."""
    a = Attack("a", AttackType.STEAL, (fighter("A", xp=4, wisdom=4),),
               (fighter("B", fame=16, xp=8),), 0.0, stores=(10, 7))
    out = resolve_attack(a, dice(**{"a/result": 0.6, "a/loss/B": 0.5, "a/food": 0.55,
                                    "a/gold": 0.5}), RULES)
    assert out.stolen == {"A": (5, 3)}
    assert out.changes == {"B": {"xp": -6}, "A": {"fame": 1}}


def test_capture_takes_the_losers_as_slaves():
    """CAPTURE: attack and defense XP, Wisdom and Fame; "the losing side is taken as slaves. The
    winning side gains 1 pt of XP, Wisdom and Fame"."""
    a = Attack("a", AttackType.CAPTURE, (fighter("A", xp=9, wisdom=9, fame=9),),
               (fighter("B", xp=1, wisdom=1, fame=1),), 0.0)
    out = resolve_attack(a, dice(**{"a/result": 0.5}), RULES)
    assert out.enslaved == (("B", "A"),)
    assert out.changes == {"A": {"xp": 1, "wisdom": 1, "fame": 1}}


def test_failed_capture_enslaves_the_attacker_unless_the_option_says_otherwise():
    """CAPTURE: "The losing side is taken as slaves" reads for the attackers too
    (``capture_fails_enslaves``)."""
    a = Attack("a", AttackType.CAPTURE, (fighter("A"),), (fighter("B", xp=9, fame=9),), 0.0)
    assert resolve_attack(a, dice(**{"a/result": 0.0}), RULES).enslaved == (("A", "B"),)
    assert resolve_attack(a, dice(**{"a/result": 0.0}),
                          rules(capture_fails_enslaves=False)).enslaved == ()


def test_escape_always_teaches_the_escaper():
    """ESCAPE: "The attacker (escaping character) gains 1 pt of XP, Wisdom and Fame. If the attack
    is successful, the slave escapes ... If the attack fails, the defender gains 1 pt"."""
    a = Attack("a", AttackType.ESCAPE, (fighter("S"),), (fighter("O", xp=9, wisdom=9, fame=9),),
               0.0)
    fail = resolve_attack(a, dice(**{"a/result": 0.0}), RULES)
    assert not fail.escaped
    assert fail.changes == {"S": {"xp": 1, "wisdom": 1, "fame": 1},
                            "O": {"xp": 1, "wisdom": 1, "fame": 1}}
    easy = Attack("a", AttackType.ESCAPE, (fighter("S", xp=9, wisdom=9, fame=9),),
                  (fighter("O"),), 0.0)
    win = resolve_attack(easy, dice(**{"a/result": 0.9}), RULES)
    assert win.escaped and win.changes == {"S": {"xp": 1, "wisdom": 1, "fame": 1}}


def test_desperate_attack_doubles_then_halves():
    """DESPARATE ATTACK: "the attacker's relevant character attributes are doubled for the
    purpose of attack strength ... decreased by half after the attack (regardless of attack
    result)"."""
    a = fighter("A", xp=8, factor=2, desperate=True)
    assert strength(a, ("xp",)) == 4.0
    out = resolve_attack(duel([a], [fighter("B", xp=16)]), dice(**{"a/result": 0.4}), RULES)
    assert out.band is Band.DRAW and out.changes == {"A": {"xp": -4}}


def test_defending_doubles_attributes_twice_for_two_defend_actions():
    """DEFEND: "A character that uses both actions for defense will have their attributes doubled
    twice (2x * 2x = 4x)"."""
    assert strength(fighter("B", xp=4, factor=4), ("xp",)) == 4.0


def test_winning_attackers_earn_experienced_skilled_and_master():
    """EXPERIENCED / SKILLED / MASTER AT ATTACK TYPE X: winning an attack of type X; against a
    stronger defense; against an enemy Skilled at X."""
    win = {"a/result": 0.99, "a/loss/B": 0.0, "a/gain": 0.0}
    easy = resolve_attack(duel([fighter("A", xp=16)], [fighter("B", xp=4)]), dice(**win), RULES)
    assert easy.titles == (("A", "experienced"),)
    hard = resolve_attack(duel([fighter("A", xp=4)], [fighter("B", xp=9)]), dice(**win), RULES)
    assert hard.titles == (("A", "skilled"),)
    master = resolve_attack(duel([fighter("A", xp=16)], [fighter("B", xp=4)],
                                 skilled_defenders=frozenset({"B"})), dice(**win), RULES)
    assert master.titles == (("A", "master"),)
    kept = resolve_attack(duel([fighter("A", xp=16)], [fighter("B", xp=4)],
                               levels={"A": "skilled"}), dice(**win), RULES)
    assert kept.titles == ()


def test_title_bonus_raises_strength():
    """EXPERIENCED AT ATTACK TYPE X: "attack or defense strength is increased by 25%"."""
    assert math.isclose(strength(fighter("A", xp=4, bonus=0.25), ("xp",)), 2.5)


def test_no_defense_and_no_location_means_full_success():
    """ATTACK RESULTS with Defense + Location = 0: the ratio is unbounded, read as the top band
    when the attack has any strength."""
    assert band_of(attack_result(0.0, 1.0, 0.0, 0.0), RULES) is Band.ALL_DEFENDERS_SUFFER
