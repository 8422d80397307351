"""CHARACTER ACTIONS, SLAVE OF CHARACTER X, TENANT OF CITIZEN X and JOINT ATTACKS: posts read
into actions and resolved one at a time, with the Random Numbers entered as the GM would.

Draw keys: ``order/<slot>/<fame>`` (ties in the action order), ``attack/<principal>/<slot>/...``
(see ``test_jungle_attacks``), ``offering/<name>``, ``hex/<name>``.
"""

from __future__ import annotations

from gmkit.core.envelope import Envelope, Orders
from gmkit.core.steps import Driver
from gmkit.core.views import sees_event
from gmkit.rulesets.jungle import actions as A
from gmkit.rulesets.jungle.attack import AttackType
from gmkit.rulesets.jungle.action_lines import WordLimitError, parse
from gmkit.rulesets.jungle.resolve import resolve_part, round_steps, shared
from tests.jungle.helpers import RULES, char, char_of, city_row, dice, drawn, unit_row, world


def acts(state, house, post, slot=1):
    result = parse(post, state, house, slot, RULES)
    return [a for _, a in result.orders], result


def run(state, posts, slot=1, **entered):
    actions = []
    for house, post in posts.items():
        actions += acts(state, house, post, slot)[0]
    step = "first-actions" if slot == 1 else "second-actions"
    # a draw of a character's action is entered under "<step>:<character>/<key>"
    keyed = {f"{step}:{k.split('/')[1]}/{k}" if k.startswith(("attack/", "offering/")) else k: v
             for k, v in entered.items()}
    return resolve_part(state, actions, drawn(**keyed), RULES, slot)


def kinds(events):
    return [e.kind for e in events]


def town(**kw):
    return world([char("Gualpa", "Red", fame=5, xp=16), char("Itzel", "Red", fame=1, xp=9),
                  char("Xoco", "Blue", fame=3, xp=4), char("Mixtli", "Blue", fame=0)],
                 houses={"Red": (10, 50), "Blue": (4, 8)}, **kw)


def test_actions_are_read_from_bold_lines():
    """CHARACTER ACTIONS: "Actions should be signified by putting the appropriate action keyword
    in bold"."""
    s = town()
    got, result = acts(s, "Red", "[b]Gualpa: Attack (Duel) Xoco[/b]\nchatter\n"
                                 "[b]Itzel: Research Bronze Working[/b]")
    assert result.ok
    assert got[0] == A.Attack(who="Gualpa", line=1, by="Red", kind=AttackType.DUEL,
                              target="Xoco")
    assert got[1] == A.Research(who="Itzel", line=3, by="Red", tech="Bronze Working")


def test_a_line_for_another_houses_character_is_refused():
    """A player controls his own house's characters only."""
    _, result = acts(town(), "Red", "[b]Xoco: Toil[/b]")
    assert result.report() == "line 1: Xoco belongs to house Blue, not to house Red  >  Xoco: Toil"


def test_a_slave_owner_may_demand_only_the_morning_action():
    """SLAVE OF CHARACTER X: "the slave's owner can demand the slave perform a specific action
    during the morning ... (The slave's owner cannot demand ... during the afternoon)"."""
    s = town(slaves=[{"slave": "Mixtli", "owner": "Gualpa"}])
    assert acts(s, "Red", "[b]Mixtli: Toil[/b]", 1)[1].ok
    assert "only demand a slave's Morning" in acts(s, "Red", "[b]Mixtli: Toil[/b]", 2)[1].report()


def test_order_over_the_word_limit_is_reported_and_the_unit_fortifies():
    """CONTROLLING UNITS: "a word limit equal to 5 * (the unit's current level) ... If the Captain
    goes over the word limit, the unit will become confused and will fortify"."""
    s = world([char("Tochtli", "Red", unit="Warrior 1")],
              units=[unit_row("Warrior 1", level=1, captain="Tochtli")])
    post = "[b]Tochtli: Order Warrior 1: march north and take the barbarian camp[/b]"
    got, result = acts(s, "Red", post)
    assert isinstance(result.errors[0], WordLimitError) and len(got) == 1
    after, events = resolve_part(s, got, dice(), RULES, 1)
    assert after["units"]["standing_orders"].to_list() == ["fortify"]
    ok, result = acts(s, "Red", "[b]Tochtli: Order (both actions) Warrior 1: march north and "
                                "take the barbarian camp[/b]")
    assert result.ok and ok[0].both


def test_units_without_a_level_take_fifteen_words():
    """CONTROLLING UNITS: "Non-military units that don't have a level, have a fixed order word
    limit of 15"."""
    s = world([char("T", "Red", unit="Settler")],
              units=[unit_row("Settler", level=None, military=False, captain="T")])
    assert acts(s, "Red", "[b]T: Order Settler: " + "go " * 15 + "[/b]")[1].ok
    assert not acts(s, "Red", "[b]T: Order Settler: " + "go " * 16 + "[/b]")[1].ok


def order_of_play(events):
    return [e.data["actors"] for e in events if e.kind == "order of play"]


def test_first_actions_go_from_highest_to_lowest_fame_second_the_other_way():
    """CHARACTER ACTIONS: "Every character's first action from highest to lowest Fame; every
    character's second action from lowest to highest Fame"."""
    s = world([char("a", "Red", fame=5), char("b", "Red", fame=1), char("c", "Red", fame=3)])
    post = "[b]a: Defend[/b]\n[b]b: Defend[/b]\n[b]c: Defend[/b]"
    _, events = run(s, {"Red": post}, slot=1)
    assert order_of_play(events) == [["a", "c", "b"]]
    _, events = run(s, {"Red": post}, slot=2)
    assert order_of_play(events) == [["b", "c", "a"]]


def test_ties_in_fame_are_ordered_by_a_logged_draw():
    """CHARACTER ACTIONS: equal Fame, ordered by a logged shuffle the GM may enter."""
    s = world([char(n, "Red") for n in "xyz"])
    post = "[b]x: Defend[/b]\n[b]y: Defend[/b]\n[b]z: Defend[/b]"
    state, events = resolve_part(s, acts(s, "Red", post)[0],
                                 drawn(**{"first-actions:ties/0": ["z", "x", "y"]}),
                                 RULES, 1)
    assert order_of_play(events) == [["z", "x", "y"]]
    acted = [e.data["character"] for e in events if e.kind == "defend"]
    assert acted == ["z", "x", "y"]


def test_the_order_of_play_is_fixed_from_fame_as_the_round_opens():
    """CHARACTER ACTIONS: the Fame that orders a round is the Fame when the round opens: Itzel
    (Fame 1) acts after Xoco (Fame 3) although Gualpa gives her 10 Fame first."""
    s = town()
    _, events = run(s, {"Red": "[b]Gualpa: Give 10 fame to Itzel[/b]\n[b]Itzel: Defend[/b]",
                        "Blue": "[b]Xoco: Defend[/b]"})
    assert order_of_play(events) == [["Gualpa", "Xoco", "Itzel"]]


def test_an_action_invalid_at_its_turn_is_void():
    """CHARACTER ACTIONS: "Actions that are not valid at the moment of resolution will be
    considered void": Gualpa (Fame 5) gives away the gold Itzel (Fame 1) meant to train with."""
    s = town()
    after, events = run(s, {"Red": "[b]Gualpa: Give 50 gold to Xoco[/b]\n"
                                   "[b]Itzel: Train Wisdom[/b]"})
    void = [e for e in events if e.kind == "void"]
    assert void and "costs 4 gold; house Red has 0" in void[0].text
    assert char_of(after, "Itzel")["wisdom"] == 1


def test_a_dead_character_never_acts():
    """COMBAT EXPERIENCE: "A character with 0 XP immediately dies"; his later action is void."""
    s = town()
    after, events = run(s, {"Red": "[b]Gualpa: Attack (Duel) Xoco[/b]",
                            "Blue": "[b]Xoco: Defend[/b]"},
                        **{"attack/Gualpa/1/result": 0.99, "attack/Gualpa/1/loss/Xoco": 0.99,
                           "attack/Gualpa/1/gain": 0.5})
    assert not char_of(after, "Xoco")["alive"]
    assert kinds(events)[-1] == "void" and "dead" in events[-1].text
    assert char_of(after, "Gualpa")["xp"] == 18


def test_joint_attack_needs_matching_orders():
    """JOINT ATTACKS: "Each character must name all the other characters participating in the
    joint attack. Otherwise the joint attack fails to happen (action voided)"."""
    s = town()
    after, events = run(s, {"Red": "[b]Gualpa: Joint Attack (Duel) Xoco with Itzel[/b]\n"
                                   "[b]Itzel: Attack (Duel) Xoco[/b]"},
                        **{"attack/Itzel/1/result": 0.8})
    assert sum(e.kind == "void" for e in events) == 1
    assert "miscoordination" in next(e.text for e in events if e.kind == "void")


def test_joint_attack_occurs_on_the_slowest_participants_action():
    """JOINT ATTACKS: "the joint attack occurs on the action of the slowest participant ... If no
    principal attacker is designated, the slowest participant is considered the principal"."""
    s = town()
    after, events = run(s, {"Red": "[b]Gualpa: Joint Attack (Duel) Xoco with Itzel[/b]\n"
                                   "[b]Itzel: Joint Attack (Duel) Xoco with Gualpa[/b]"},
                        **{"attack/Itzel/1/result": 0.8})
    attack = next(e for e in events if e.kind == "attack")
    assert attack.data["attackers"] == ["Itzel", "Gualpa"]
    assert kinds(events).index("joint") < kinds(events).index("attack")


def test_both_slave_and_owner_submit_the_slave_is_defiant():
    """SLAVE OF CHARACTER X: "If BOTH the slave AND the slave's owner submit an action, then the
    slave's action is followed and the slave gains the title Defiant Slave"; attacking the owner
    while disobeying adds 2."""
    s = town(slaves=[{"slave": "Mixtli", "owner": "Gualpa"}])
    after, _ = run(s, {"Red": "[b]Mixtli: Toil[/b]", "Blue": "[b]Mixtli: Defend[/b]"})
    assert after["titles"].to_dicts() == [{"character": "Mixtli", "title": "defiant_slave",
                                           "subject": "Gualpa", "value": 1}]
    after, _ = run(s, {"Red": "[b]Mixtli: Toil[/b]", "Blue": "[b]Mixtli: Escape Gualpa[/b]"},
                   **{"attack/Mixtli/1/result": 0.1})
    assert [t["value"] for t in after["titles"].to_dicts() if t["title"] == "defiant_slave"] == [2]


def test_owner_demand_followed_gains_go_to_the_owners_house():
    """SLAVE OF CHARACTER X: "If the slave's owner submits an action and the slave does not ...
    anything gained for the house is awarded to the slave's owner's house"."""
    s = town(slaves=[{"slave": "Mixtli", "owner": "Gualpa"}])
    after, _ = run(s, {"Red": "[b]Mixtli: Toil[/b]"})
    assert after["houses"].select("house", "food", "gold").row(1) == ("Red", 12, 51)


def test_tenants_always_toil_in_the_afternoon():
    """TENANT OF CITIZEN X: "Tenants have no choice but to toil and a toil action will
    automatically be given to any tenants who do not submit a toil action"; the fruits go to
    the citizen."""
    s = town(hexes=[("Tenochtitlan", 0, 0, "Gualpa")],
             tenants=[{"tenant": "Mixtli", "landlord": "Gualpa"}])
    after, events = run(s, {"Blue": "[b]Mixtli: Defend[/b]"}, slot=2)
    assert "must toil" in [e for e in events if e.kind == "void"][0].text
    assert after["houses"].filter(after["houses"]["house"] == "Red")["food"].item() == 12


def test_steal_only_from_the_highest_fame_member():
    """STEAL: "A stealing attack may only be targeted against the highest Fame member of a
    house"."""
    s = town()
    _, events = run(s, {"Red": "[b]Gualpa: Steal Mixtli[/b]"})
    assert "highest-Fame member" in [e for e in events if e.kind == "void"][0].text


def test_capture_makes_a_slave_and_escape_frees_him():
    """CAPTURE: "The losing side is taken as slaves"; ESCAPE: "the slave escapes and is no longer
    a slave"."""
    s = town()
    after, _ = run(s, {"Red": "[b]Gualpa: Capture Xoco[/b]"},
                   **{"attack/Gualpa/1/result": 0.99})
    assert after["slaves"].to_dicts() == [{"slave": "Xoco", "owner": "Gualpa"}]
    freed, _ = run(after, {"Blue": "[b]Xoco: Escape Gualpa[/b]"},
                   **{"attack/Xoco/1/result": 0.99})
    assert freed["slaves"].height == 0


def test_challenge_for_a_city_makes_the_winner_tlatoani():
    """CHALLENGE: "the winning side gains/retains control of the item in question"."""
    s = world([char("Gualpa", "Red", fame=16, **{"class": "tlatoani"}),
               char("Itzel", "Blue", fame=16)],
              cities=[city_row("Tenochtitlan", tlatoani="Gualpa")])
    after, events = run(s, {"Blue": "[b]Itzel: Challenge Gualpa for Tenochtitlan[/b]"},
                        **{"attack/Itzel/1/result": 0.9, "attack/Itzel/1/loss/Gualpa": 0.5,
                           "attack/Itzel/1/gain": 0.5})
    assert after["cities"]["tlatoani"].to_list() == ["Itzel"]
    assert char_of(after, "Gualpa")["class"] == "peasant"


def test_defenders_of_the_house_join_the_defense():
    """DEFEND: "A defending character will automatically join the defense of any attack against a
    member of their house ... in the same location" with attributes doubled."""
    s = town()
    s, _ = run(s, {"Blue": "[b]Mixtli: Defend[/b]"})
    after, events = run(s, {"Red": "[b]Gualpa: Attack (Duel) Xoco[/b]"},
                        **{"attack/Gualpa/1/result": 0.8})
    attack = next(e for e in events if e.kind == "attack")
    assert attack.data["defenders"] == ["Xoco", "Mixtli"]


def test_sacrifice_makes_a_priest():
    """HUITZILOPOCHTLI: "The value of the sacrifice (N) is equal to the sqrt(XP of sacrificed
    character * 2 if during festival of Hutzilopochtli), rounded down"."""
    s = world([char("Gualpa", "Red"), char("Ome", "Red", xp=9)], festival="Huitzilopochtli")
    after, events = run(s, {"Red": "[b]Gualpa: Sacrifice Ome to Huitzilopochtli[/b]"})
    assert not char_of(after, "Ome")["alive"]
    assert after["titles"].to_dicts() == [{"character": "Gualpa", "title": "priest_of",
                                           "subject": "Huitzilopochtli", "value": 4}]


def test_tlaloc_smiles_upon_the_sacrifice_of_children():
    """TLALOC: "sqrt((10*(2 if during Festival of Tlaloc)) - XP of Sacrificed Character), rounded
    down. Zero if imaginary number"."""
    from gmkit.rulesets.jungle.gods import sacrifice_value
    assert sacrifice_value("Tlaloc", {"xp": 1}, 1, RULES) == 3
    assert sacrifice_value("Tlaloc", {"xp": 1}, 2, RULES) == 4
    assert sacrifice_value("Tlaloc", {"xp": 30}, 1, RULES) == 0


def test_offering_is_blessed():
    """TLALOC: "a blessing of Food equal to (Food Offered)*(Random Number)*(1.5)*(2 if during
    Festival of Tlaloc)"."""
    s = world([char("Gualpa", "Red")], houses={"Red": (4, 0)}, festival="Tlaloc")
    after, _ = run(s, {"Red": "[b]Gualpa: Offering 4 to Tlaloc[/b]"}, **{"offering/Gualpa": 0.5})
    assert after["houses"]["food"].to_list() == [6]


def test_procreate_costs_food_and_the_child_cannot_act():
    """PROCREATE: "consumes food from the house equal to (Current Characters+1)^2 ... The new
    character may not make any actions until the next council session"."""
    s = world([char("Gualpa", "Red")], houses={"Red": (4, 0)})
    after, _ = run(s, {"Red": "[b]Gualpa: Procreate Ome[/b]"})
    assert after["houses"]["food"].to_list() == [0]
    assert char_of(after, "Ome")["may_act"] is False
    assert "may not act" in acts(after, "Red", "[b]Ome: Toil[/b]")[1].report()


def test_desert_halves_fame_and_retire_adds_half():
    """DESERT: "Fame is reduced by half, rounded down"; RETIRE: "a bonus of 50% of their Fame"."""
    s = world([char("C", "Red", unit="W", fame=9), char("S", "Red", unit="W", fame=9)],
              units=[unit_row("W", captain="C", city="Tenochtitlan")])
    after, _ = run(s, {"Red": "[b]C: Retire Tenochtitlan 1,0[/b]\n"
                              "[b]S: Desert Tenochtitlan 0,1[/b]"}, **{"order/1/9": ["S", "C"]})
    assert char_of(after, "S")["fame"] == 4 and char_of(after, "C")["fame"] == 13
    assert char_of(after, "C")["class"] == "peasant"


def test_purchase_costs_three_gold_a_point():
    """PURCHASE: "buy X points of science beakers, production hammers or food at a cost of 3X
    gold"."""
    s = world([char("Gualpa", "Red")], houses={"Red": (0, 10)})
    after, _ = run(s, {"Red": "[b]Gualpa: Purchase 3 beakers[/b]"})
    assert char_of(after, "Gualpa")["beakers"] == 3 and after["houses"]["gold"].to_list() == [1]


def test_join_houses_needs_both_heads_and_split_houses_takes_a_random_share():
    """JOIN HOUSES: "a Join House action is required by the highest Fame character of BOTH
    houses. Once joined, they are considered a single house"; SPLIT HOUSES: "The leaving house
    takes with it (Random Number) percent of the house's Food and Gold stores"."""
    s = town()
    joined, events = run(s, {"Red": "[b]Gualpa: Join Houses with Xoco[/b]",
                             "Blue": "[b]Xoco: Join Houses with Gualpa[/b]"})
    assert set(joined["characters"]["house"].to_list()) == {"Red"}
    houses = {h["house"]: h for h in joined["houses"].to_dicts()}
    assert (houses["Red"]["food"], houses["Red"]["gold"]) == (14, 58)
    assert houses["Blue"]["joined_to"] == "Red"
    # the Blue player now orders the joined house's characters
    assert acts(joined, "Red", "[b]Xoco: Defend[/b]")[1].ok
    split, events = run(joined, {"Red": "[b]Xoco: Split Houses[/b]"},
                        **{"first-actions:Xoco/split/Red": 0.25})
    houses = {h["house"]: h for h in split["houses"].to_dicts()}
    assert (houses["Blue"]["food"], houses["Blue"]["gold"]) == (3, 14)
    assert (houses["Red"]["food"], houses["Red"]["gold"]) == (11, 44)
    assert houses["Blue"]["joined_to"] is None
    assert {c["name"]: c["house"] for c in split["characters"].to_dicts()} == {
        "Gualpa": "Red", "Itzel": "Red", "Xoco": "Blue", "Mixtli": "Blue"}


def secretly(state, house, post):
    """The round resolved from ``post`` sent by ``house`` in secret, through the session's
    steps (which share a house's private results with the houses joined into it)."""
    orders = Orders([Envelope(a, house, 1, a.line, secret=True)
                     for a in acts(state, house, post)[0]])
    driver = Driver([shared(st) for st in round_steps(1)], state, orders,
                    drawn(**{"first-actions:Itzel/offering/Itzel": 0.5}), RULES)
    driver.run_all()
    return driver


def test_join_houses_both_players_see_the_joined_houses_secret_results():
    """JOIN HOUSES: "Once joined, they are considered a single house": both players order its
    characters, so what only the house may see (a secret action's result and its draws) is
    seen by both of them and by no one else."""
    s = town()
    joined, _ = run(s, {"Red": "[b]Gualpa: Join Houses with Xoco[/b]",
                        "Blue": "[b]Xoco: Join Houses with Gualpa[/b]"})
    driver = secretly(joined, "Red", "[b]Itzel: Offering 2 to Tlaloc[/b]")
    offering = next(e for e in driver.events if e.kind == "offering")
    assert sees_event("player:Red", offering) and sees_event("player:Blue", offering)
    assert not sees_event("public", offering) and not sees_event("player:Green", offering)
    rolls = [r for r in driver.rolls if "offering" in r.draw_id]
    assert rolls and all(sees_event("player:Blue", r) and not sees_event("public", r)
                         for r in rolls)
    # before the join, Red's secret result is Red's alone
    alone = next(e for e in secretly(s, "Red", "[b]Itzel: Offering 2 to Tlaloc[/b]").events
                 if e.kind == "offering")
    assert sees_event("player:Red", alone) and not sees_event("player:Blue", alone)


def test_only_a_head_may_split_houses():
    """SPLIT HOUSES: "a Split House action is required by the highest Fame character of either
    house"."""
    s = town()
    joined, _ = run(s, {"Red": "[b]Gualpa: Join Houses with Xoco[/b]",
                        "Blue": "[b]Xoco: Join Houses with Gualpa[/b]"})
    _, events = run(joined, {"Red": "[b]Mixtli: Split Houses[/b]"})
    assert "not the highest-Fame character of house Blue" in [
        e for e in events if e.kind == "void"][0].text


def test_a_tlatoani_who_enlists_rules_his_city_no_more():
    """ENLIST / SOLDIERS: "Any character in a unit is considered a soldier": a Tlatoani who
    enlists leaves his city's throne empty, as one who travels away does."""
    s = world([char("Gualpa", "Red", fame=16, **{"class": "tlatoani"})],
              cities=[city_row("Tenochtitlan", tlatoani="Gualpa")],
              units=[unit_row("Warrior 1", city="Tenochtitlan")])
    after, _ = run(s, {"Red": "[b]Gualpa: Enlist Warrior 1[/b]"})
    assert char_of(after, "Gualpa")["class"] == "soldier"
    assert after["cities"]["tlatoani"].to_list() == [None]
