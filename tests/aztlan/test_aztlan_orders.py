"""AZTLAN orders: every form of rules 3.5.4, 4.1, 4.1.1 and 5.2-5.9 read, and every
rejection the rules call for, on the real board (adjacency read from the map)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.envelope import Orders
from gmkit.core.orders import (AmbiguousOrderError, IllegalOrderError, OrderError,
                               OrderSyntaxError, UnknownNameError, extract_lines)
from gmkit.rulesets.aztlan.orders import (NEUTRAL, Attack, Contingency, CutSupport, Give, Hold,
                                          Move, Order, Permit, Position, Sacrifice, Stand,
                                          Support, describe, parse)
from gmkit.rulesets.aztlan import legality
from gmkit.rulesets.aztlan.board.geography import DESERT, load_map
from tests.cases import Cases


@pytest.fixture(scope="module")
def board() -> PolygonBoard:
    return load_map()


@pytest.fixture(scope="module")
def start(board: PolygonBoard) -> Position:
    return Position.initial(board)


def one(board: PolygonBoard, text: str, player: str = "Aztecs") -> Order:
    result = parse(text, board, player)
    assert result.ok, result.report()
    assert len(result.orders) == 1
    return result.orders[0][1]


def rejected(board: PolygonBoard, text: str, player: str = "Aztecs") -> OrderError:
    result = parse(text, board, player)
    assert not result.orders
    [err] = result.errors
    assert err.line == 1 and err.text == text
    return err


def check(board: PolygonBoard, position: Position, **posts: str) -> dict[str, list[OrderError]]:
    parsed = {}
    for player, post in posts.items():
        result = parse(post, board, player.replace("_", " "))
        assert result.ok, result.report()
        parsed[player.replace("_", " ")] = result
    return legality.check(position, Orders.parsed(parsed), board)


def reasons(problems: dict[str, list[OrderError]], player: str = "Aztecs") -> list[str]:
    return [str(err) for err in problems.get(player, [])]


def adjacent(board: PolygonBoard, a: str, b: str) -> bool:
    return b in board.land_neighbours(a)


# -- reading the forms -----------------------------------------------------------------------


def test_2_6_names_by_designation_full_name_prefix_and_number(board: PolygonBoard) -> None:
    """2.6: cities by their first three letters (or the listed exceptions), sectors by number;
    full names, any case or accents, and unambiguous prefixes work too."""
    for text in ("A Ten A Tlp", "A Tenochtitlan A Tlapacoya", "a TENOCHTITLÁN a tlapacoya",
                 "A Tenoch A Tlapac"):
        assert one(board, text) == Attack("Tenochtitlan", 1, "Tlapacoya")
    assert one(board, "A Tto M 59") == Move("Tototepec", 1, ("59",))
    assert one(board, "A Chi M 7", "Chichimecs") == Move(DESERT, 1, ("7",))
    assert one(board, "A Chichimec Desert M 7", "Chichimecs") == Move(DESERT, 1, ("7",))


def test_2_6_ambiguous_prefix_names_the_candidates(board: PolygonBoard) -> None:
    """2.6: a prefix shared by two cities is not a designation; the player is told which."""
    err = rejected(board, "A Toto A Ico")
    assert isinstance(err, AmbiguousOrderError)
    assert "Tototepec" in err.reason and "Tototepectli" in err.reason


def test_3_5_4_rules_example_tit_sac_1(board: PolygonBoard) -> None:
    """3.5.4: 'Tit sac 1'.  No city on this board is designated Tit: the line is rejected
    with the close names offered."""
    err = rejected(board, "Tit sac 1")
    assert isinstance(err, UnknownNameError)
    assert "no city 'Tit'; did you mean" in err.reason
    assert err.suggestions


def test_3_5_4_sacrifice_forms(board: PolygonBoard) -> None:
    """3.5.4: the city doing the butchery is declared with the number of captives."""
    assert one(board, "Ten sac 1") == Sacrifice("Tenochtitlan", 1)
    assert one(board, "Ten sacrifices 2") == Sacrifice("Tenochtitlan", 2)
    assert one(board, "sacrifice 3 captives in Tenochtitlan") == Sacrifice("Tenochtitlan", 3)
    assert "how many captives" in rejected(board, "Ten sac").reason
    assert "no city '7'" in rejected(board, "7 sac 1").reason


def test_4_1_permission_forms(board: PolygonBoard) -> None:
    """4.1: a player may let another pass through his sectors, all or some."""
    assert one(board, "permit Tlaxcalans through 7, 8") == Permit("Tlaxcalans", ("7", "8"))
    assert one(board, "Tlaxcalans may pass") == Permit("Tlaxcalans", None)
    assert one(board, "the Hot Country may pass through Ten") == Permit(
        "Hot Country", ("Tenochtitlan",))
    assert one(board, "allow the Chalcans to pass through Tex and Tac") == Permit(
        "Chalcans", ("Texcoco", "Tacuba"))
    err = rejected(board, "permit Aztecs")
    assert isinstance(err, IllegalOrderError)


def test_4_1_1_gift_forms(board: PolygonBoard) -> None:
    """4.1.1: an army changes its allegiance by saying it was given to X."""
    assert one(board, "A Ten given to Tlaxcalans") == Give("Tenochtitlan", 1, "Tlaxcalans")
    assert one(board, "give 2A Ten to the Tlaxcalans") == Give("Tenochtitlan", 2, "Tlaxcalans")
    assert one(board, "A Ten changes allegiance to Chalcan") == Give("Tenochtitlan", 1,
                                                                     "Chalcans")
    assert "no player 'Spaniards'" in rejected(board, "A Ten given to Spaniards").reason
    assert isinstance(rejected(board, "A Ten given to Aztecs"), IllegalOrderError)


def test_5_3_attack_short_and_long_forms(board: PolygonBoard) -> None:
    """5.3: Attack, written 'A Ten A Tla' or 'Ten attacks Tlaxcala'."""
    expected = Attack("Tenochtitlan", 1, "Tlaxcala")
    for text in ("A Ten A Tla", "Ten A Tla", "Ten attacks Tlaxcala", "army in Ten attacks Tla",
                 "A Ten att Tla", "A Ten: A Tla."):
        assert one(board, text) == expected, text
    assert one(board, "A Ten A Tla (retreat Tac, Coy)") == replace(
        expected, retreat=("Tacuba", "Coyoacan"))
    assert "say what Tenochtitlan attacks" in rejected(board, "A Ten A").reason
    assert "name one sector" in rejected(board, "A Ten A Tla Tex").reason


def test_5_4_cut_support_forms(board: PolygonBoard) -> None:
    """5.4: Cut Support, written 'A Tex CS Cho' or 'Tex cut support Cho'."""
    expected = CutSupport("Texcoco", 1, "Cholula")
    for text in ("A Tex CS Cho", "Tex cut support Cho", "Tex cuts support of Cholula",
                 "A Tex C/S Cho"):
        assert one(board, text) == expected, text


def test_5_5_support_contingencies_in_priority_order(board: PolygonBoard) -> None:
    """5.5: several supports may be planned, in order of priority; only the first that
    happens is given.  In a contingency, 'S' is the supported army standing."""
    assert one(board, "A Tex S Ten A Cho") == Support(
        "Texcoco", 1, (Contingency("Tenochtitlan", "attack", "Cholula"),))
    assert one(board, "A Tex S Ten A Cho, Ten H, Cha S") == Support(
        "Texcoco", 1, (Contingency("Tenochtitlan", "attack", "Cholula"),
                       Contingency("Tenochtitlan", "hold"), Contingency("Chalco", "stand")))
    assert one(board, "Tex supports Ten attacking Cho then Ten holding; Tac") == Support(
        "Texcoco", 1, (Contingency("Tenochtitlan", "attack", "Cholula"),
                       Contingency("Tenochtitlan", "hold"), Contingency("Tacuba", "any")))
    assert one(board, "A Tex S Ten M Tlp") == Support(
        "Texcoco", 1, (Contingency("Tenochtitlan", "move", "Tlapacoya"),))


def test_5_5_a_supporter_cannot_be_named_as_supported(board: PolygonBoard) -> None:
    """5.5: armies may not be ordered to support another army that is also supporting."""
    err = rejected(board, "A Tex S Ten supports")
    assert isinstance(err, IllegalOrderError) and "(5.5)" in err.reason


def test_5_6_hold_forms(board: PolygonBoard) -> None:
    """5.6: Hold, fanatical defence to the death."""
    for text in ("A Ten H", "Ten holds", "2A Ten hold"):
        assert isinstance(one(board, text), Hold)
    assert one(board, "2A Ten H") == Hold("Tenochtitlan", 2)


def test_5_6_a_holding_army_never_retreats(board: PolygonBoard) -> None:
    """5.6: even if a retreat sector is available, a Holding army will not use it."""
    err = rejected(board, "A Ten H (retreat Tac)")
    assert isinstance(err, IllegalOrderError) and "(5.6)" in err.reason


def test_5_7_2_stand_with_retreats_in_order_of_preference(board: PolygonBoard) -> None:
    """5.7, 5.7.2: Stand; retreats should be anticipated and specified."""
    assert one(board, "A Ten Stand (retreat 7, Tex)") == Stand(
        "Tenochtitlan", 1, ("7", "Texcoco"))
    assert one(board, "A Ten St r Tac") == Stand("Tenochtitlan", 1, ("Tacuba",))
    assert one(board, "Ten stands") == Stand("Tenochtitlan", 1)
    assert "only a retreat follows a Stand" in rejected(board, "A Ten Stand Tac").reason


def test_5_8_rules_example_move(board: PolygonBoard, start: Position) -> None:
    """5.8: 'A Ten M Tex, Zem, 7', a three-sector Move.  On this board 7 does not border
    Zempoala: the line parses, and validation names the step that is not adjacent."""
    order = one(board, "A Ten M Tex, Zem, 7")
    assert order == Move("Tenochtitlan", 1, ("Texcoco", "Zempoala", "7"))
    assert one(board, "Ten M Tex Zem 7") == order
    assert not adjacent(board, "Zempoala", "7")
    problems = reasons(check(board, start, Aztecs="A Ten M Tex, Zem, 7"))
    assert any(p.startswith("line 1: 7 is not adjacent to Zempoala") for p in problems)


def test_5_8_move_forms(board: PolygonBoard) -> None:
    """5.8: Move, written with its path."""
    assert one(board, "Ten moves to Tex") == Move("Tenochtitlan", 1, ("Texcoco",))
    assert one(board, "A Ten M Tex - Zem - 15 (retreat Tac)") == Move(
        "Tenochtitlan", 1, ("Texcoco", "Zempoala", "15"), ("Tacuba",))


def test_5_9_designation_of_single_double_and_triple_armies(board: PolygonBoard) -> None:
    """5.9: a force is a single, double or triple army: 'Triple army in Tit does ...'."""
    assert one(board, "2A Ten A Cho") == Attack("Tenochtitlan", 2, "Cholula")
    assert one(board, "double army Ten attacks Cho") == Attack("Tenochtitlan", 2, "Cholula")
    assert one(board, "triple army in Ten does attack Cho") == Attack("Tenochtitlan", 3,
                                                                      "Cholula")
    assert one(board, "3A Ten H") == Hold("Tenochtitlan", 3)
    assert one(board, "2 armies in Ten M Tex") == Move("Tenochtitlan", 2, ("Texcoco",))
    assert one(board, "single army Ten St") == Stand("Tenochtitlan", 1)
    err = rejected(board, "triple army in Tit does attack Cho")
    assert "no sector 'Tit'; did you mean" in err.reason


def test_5_9_splitting_a_stack_is_one_line_per_part(board: PolygonBoard) -> None:
    """5.9: three armies in one sector may take three separate commands."""
    result = parse("[b]1A Tex A Zem[/b]\n[b]1A Tex S Tex A Zem[/b]\n[b]1A Tex M Ten[/b]",
                   board, "Aztecs")
    assert result.ok
    assert [type(o) for _, o in result.orders] == [Attack, Support, Move]
    assert [o.count for _, o in result.orders] == [1, 1, 1]  # type: ignore[union-attr]


def test_unreadable_lines_say_why_with_examples(board: PolygonBoard) -> None:
    """A line that is no order says why, with examples of the forms (placeholders where the
    player's own sectors are not known); a plain line starting with no order word nor sector
    ("hello world", "A lovely day") is not read as an order."""
    [err] = parse("[b]hello world[/b]", board, "Aztecs").errors  # bold: meant as an order
    assert isinstance(err, OrderSyntaxError)
    assert "A <your sector> A <sector>" in err.reason and "<your city> sac 1" in err.reason
    for chatter in ("hello world", "A lovely day to you all", "Good luck all!"):
        result = parse(chatter, board, "Aztecs")
        assert not result.errors and [x.text for x in result.unread] == [chatter]
    for mistyped in ("2A Tne A Tla", "Armies of Ten atack Tla", "Sacrifce 2 in Ten"):
        result = parse(mistyped, board, "Aztecs")
        assert not result.unread and len(result.errors) == 1, mistyped
    assert "unknown order 'X' for Tenochtitlan" in rejected(board, "A Ten X Tla").reason
    assert "say what the army in Tenochtitlan does" in rejected(board, "Ten").reason


def test_parse_skips_headings_and_pairs_each_order_with_its_line(board: PolygonBoard) -> None:
    """The order holds only what it says; its line (and a secret post's secrecy) stay with
    the post."""
    result = parse("Aztec orders, Winter 1450:\nA Ten H", board, "Aztec", secret=True)
    assert result.ok
    [(line, order)] = result.orders
    assert line.number == 2 and order == Hold("Tenochtitlan", 1)


def test_describe_every_order() -> None:
    assert describe(Attack("Tenochtitlan", 2, "Tlapacoya", ("Tacuba",))) == (
        "double army in Tenochtitlan attacks Tlapacoya, retreating to Tacuba")
    assert describe(CutSupport("Texcoco", 1, "Zempoala")) == (
        "army in Texcoco cuts the support of Zempoala")
    assert describe(Support("Texcoco", 1, (Contingency("Tenochtitlan", "attack", "Tlapacoya"),
                                           Contingency("Tacuba", "any")))) == (
        "army in Texcoco supports Tenochtitlan attacking Tlapacoya; else Tacuba "
        "(whatever it does)")
    assert describe(Hold("Tenochtitlan", 3)) == "triple army in Tenochtitlan holds"
    assert describe(Stand("Tenochtitlan", 1, ("7", "Texcoco"))) == (
        "army in Tenochtitlan stands, retreating to 7 or Texcoco")
    assert describe(Move("Tenochtitlan", 1, ("Texcoco", "Zempoala", "15"))) == (
        "army in Tenochtitlan moves to 15 via Texcoco, Zempoala")
    assert describe(Sacrifice("Tenochtitlan", 2)) == "Tenochtitlan sacrifices 2 captives"
    assert describe(Give("Tenochtitlan", 1, "Tlaxcalans")) == (
        "army in Tenochtitlan is given to the Tlaxcalans")
    assert describe(Permit("Tlaxcalans")) == "the Tlaxcalans may pass through all their sectors"
    assert describe(Permit("Tlaxcalans", ("7", "8"))) == "the Tlaxcalans may pass through 7, 8"


# -- validation ------------------------------------------------------------------------------


def test_2_2_the_opening_position(board: PolygonBoard, start: Position) -> None:
    """2.2, 2.5: one army in every city, two in Tenochtitlan and Tzintzuntzan."""
    assert start.armies["Tenochtitlan"] == ("Aztecs", 2)
    assert start.armies["Tzintzuntzan"] == ("Tarascans", 2)
    assert start.armies["Zempoala"] == (NEUTRAL, 1)
    assert start.armies[DESERT] == ("Chichimecs", 2)
    assert start.cities["Tlaxcala"] == "Tlaxcalans" and start.cities["Zempoala"] is None


def test_legal_orders_pass(board: PolygonBoard, start: Position) -> None:
    """Legal orders of several players give no problem at all."""
    assert adjacent(board, "Texcoco", "Tlapacoya") and adjacent(board, "Tenochtitlan", "Tlapacoya")
    assert adjacent(board, "Tacuba", "Toluca")
    problems = check(board, start,
                     Aztecs="A Tex A Tlp\nA Ten S Tex A Tlp\nA Ten M Tac\nA Tac CS Tol",
                     Chichimecs="A Chi M 7\nA Chi St")
    assert problems == {}


def test_5_2_no_army_of_yours_there(board: PolygonBoard, start: Position) -> None:
    """5.2: orders are given to one's own armies."""
    problems = reasons(check(board, start, Aztecs="A Tla H\nA 7 M 14"))
    assert problems == [
        "line 1: no army of yours in Tlaxcala: the armies there are the Tlaxcalans'",
        "line 2: no army of yours in 7: it is empty",
    ]


def test_5_9_more_armies_ordered_than_stand_there(board: PolygonBoard, start: Position) -> None:
    """5.9: splitting counts every order from a sector; a double army needs two armies
    there at the beginning of the turn."""
    assert start.armies["Tenochtitlan"] == ("Aztecs", 2)
    problems = reasons(check(board, start, Aztecs="A Ten M Tac\nA Ten M Tex\nA Ten H"))
    assert problems == ["line 3: 3 armies ordered from Tenochtitlan (with lines 1 and 2), but "
                        "only 2 of yours stand there: each army takes one order (5.2, 5.9)",
                        "line 3: part of the armies in Tenochtitlan cannot Hold while others "
                        "there have other orders (Move, lines 1 and 2) (5.6.2)"]
    assert check(board, start, Aztecs="A Ten M Tac\nA Ten M Tex") == {}
    assert any("ordered from Texcoco" in p
               for p in reasons(check(board, start, Aztecs="2A Tex A Tlp")))


def test_5_9_a_force_is_at_most_a_triple_army(board: PolygonBoard) -> None:
    """5.3, 5.9: a force is a single, double or triple army."""
    position = Position({"Tenochtitlan": ("Aztecs", 3)}, {"Tenochtitlan": "Aztecs"})
    problems = reasons(check(board, position, Aztecs="4A Ten H"))
    assert "line 1: a force is a single, double or triple army, not 4 (5.3, 5.9)" in problems


def test_5_6_2_hold_cannot_mix_with_other_orders(board: PolygonBoard, start: Position) -> None:
    """5.6.2: part of a multiple force may not Hold while others in the sector have other
    orders."""
    problems = reasons(check(board, start, Aztecs="A Ten H\nA Ten M Tex"))
    assert problems == ["line 1: part of the armies in Tenochtitlan cannot Hold while others "
                        "there have other orders (Move, line 2) (5.6.2)"]
    assert check(board, start, Aztecs="A Ten H\nA Ten H") == {}


def test_5_3_attack_target_must_be_adjacent(board: PolygonBoard, start: Position) -> None:
    """5.3: an army attacks a neighbouring sector."""
    assert not adjacent(board, "Tenochtitlan", "Zempoala")
    problems = reasons(check(board, start, Aztecs="A Ten A Zem"))
    assert len(problems) == 1
    assert problems[0].startswith("line 1: Zempoala is not adjacent to Tenochtitlan")


def test_5_3_attack_is_for_enemy_held_territory(board: PolygonBoard, start: Position) -> None:
    """5.3: attacks are assaults on enemy-held territory; one's own is entered by Move."""
    assert adjacent(board, "Tenochtitlan", "Texcoco")
    problems = reasons(check(board, start, Aztecs="A Ten A Tex"))
    assert problems == ["line 1: Texcoco is yours: Attack is an assault on enemy-held "
                        "territory; use Move (5.3, 5.8)"]


def test_5_3_one_attacking_force_per_sector(board: PolygonBoard) -> None:
    """5.3: in any given sector one player may attack with only one force."""
    assert adjacent(board, "Texcoco", "Zempoala") and adjacent(board, "Xaltocan", "Zempoala")
    position = Position({"Texcoco": ("Aztecs", 1), "Xaltocan": ("Aztecs", 1),
                         "Zempoala": (NEUTRAL, 1)},
                        {"Texcoco": "Aztecs", "Xaltocan": "Aztecs", "Zempoala": None}, year=1460)
    problems = reasons(check(board, position, Aztecs="A Tex A Zem\nA Xal A Zem"))
    assert problems == ["line 2: you already attack Zempoala from Texcoco (line 1): one player "
                        "attacks a sector with only one force (5.3)"]


def test_5_4_cut_support_target_must_be_adjacent_and_hold_an_enemy(board: PolygonBoard,
                                                                    start: Position) -> None:
    """5.4: cut support harasses a neighbouring enemy unit."""
    assert not adjacent(board, "Tenochtitlan", "Zempoala")
    problems = reasons(check(board, start, Aztecs="A Ten CS Zem"))
    assert problems[0].startswith("line 1: Zempoala is not adjacent to Tenochtitlan")
    assert adjacent(board, "Zempoala", "15")
    position = replace(start, armies={**start.armies, "Zempoala": ("Aztecs", 1)},
                       cities={**start.cities, "Zempoala": "Aztecs"})
    assert reasons(check(board, position, Aztecs="A Zem CS 15")) == [
        "line 1: no army in 15 whose support could be cut (5.4)"]


def test_5_5_support_must_border_what_it_supports(board: PolygonBoard, start: Position) -> None:
    """5.5: a supporter borders the sector of the supported defence, or the sector the
    supported attack goes into."""
    assert not adjacent(board, "Texcoco", "Cholula") and not adjacent(board, "Texcoco", "Chalco")
    problems = reasons(check(board, start, Aztecs="A Tex S Ten A Cho, Ten H, Cha S"))
    assert ("line 1: cannot support Tenochtitlan attacking Cholula: Cholula is not adjacent to "
            "Texcoco; a supporter must border the sector it supports into (5.5)") in problems
    assert ("line 1: cannot support Chalco standing: Chalco is not adjacent to Texcoco (5.5)"
            in problems)
    assert not any("Tenochtitlan holding" in p for p in problems)


def test_5_5_cannot_support_a_supporting_army(board: PolygonBoard, start: Position) -> None:
    """5.5: armies may not be ordered to support another army that is also supporting."""
    assert adjacent(board, "Tenochtitlan", "Tacuba")
    problems = reasons(check(board, start, Aztecs="2A Ten S Tac\nA Tac S Ten H"))
    assert problems == [
        "line 1: cannot support Tacuba (whatever it does): the army in Tacuba is itself "
        "ordered to support (line 2), and an army that supports cannot be supported (5.5)",
        "line 2: cannot support Tenochtitlan holding: the army in Tenochtitlan is itself "
        "ordered to support (line 1), and an army that supports cannot be supported (5.5)",
    ]


def test_5_8_move_up_to_three_sectors(board: PolygonBoard, start: Position) -> None:
    """5.8: any army may move up to three sectors per turn."""
    path = ["Tacuba", "Toltoltepec", "14", "7"]
    assert all(adjacent(board, a, b) for a, b in zip(["Tenochtitlan", *path], path))
    problems = reasons(check(board, start, Aztecs="A Ten M " + ", ".join(path)))
    assert any(p.startswith("line 1: a Move passes one to three sectors, not 4 (5.8)")
               for p in problems)


def test_5_8_each_step_of_a_move_is_adjacent(board: PolygonBoard, start: Position) -> None:
    """5.8: a Move goes from sector to neighbouring sector."""
    assert not adjacent(board, "Tacuba", "14")
    problems = reasons(check(board, start, Aztecs="A Ten M Tac, 14"))
    assert len(problems) == 1 and problems[0].startswith("line 1: 14 is not adjacent to Tacuba")


def test_2_4_a_move_never_enters_a_hostile_or_neutral_city(board: PolygonBoard,
                                                           start: Position) -> None:
    """2.4, 5.3, 5.8: only an Attack takes a hostile or neutral city; neutral cities are never
    friendly."""
    assert adjacent(board, "Tenochtitlan", "Tlapacoya")
    assert reasons(check(board, start, Aztecs="A Ten M Tlp")) == [
        "line 1: Tlapacoya is an independent city: only an Attack takes it, a Move never "
        "enters it (2.4, 5.3, 5.8)"]


def test_2_4_a_move_passes_an_allys_city_with_permission(board: PolygonBoard, start: Position) -> None:
    """2.4, 4.1, 4.2: players move through an ally's city with permission."""
    assert adjacent(board, "Tacuba", "Coyoacan")
    later = replace(start, year=1455)
    problems = reasons(check(board, later, Aztecs="A Tac M Coy"))
    assert problems == ["line 1: Coyoacan is a city of the Chalcans': only an Attack takes it, "
                        "or a Move with their permission (2.4, 4.2, 5.3)"]
    assert check(board, later, Aztecs="A Tac M Coy", Chalcans="permit Aztecs through Coy") == {}
    assert check(board, later, Aztecs="A Tac M Coy", Chalcans="Aztecs may pass") == {}


def test_7_4_a_destroyed_city_may_be_entered(board: PolygonBoard, start: Position) -> None:
    """7.4: a city destroyed and left vacant by Chichimecs belongs to the first to move in."""
    armies = {k: v for k, v in start.armies.items() if k != "Tlapacoya"}
    assert check(board, replace(start, armies=armies), Aztecs="A Ten M Tlp") == {}


def test_4_1_no_more_than_three_armies_end_in_a_sector(board: PolygonBoard, start: Position) -> None:
    """4.1: a sector holds at most three armies at any one time."""
    assert adjacent(board, "Texcoco", "Tenochtitlan") and adjacent(board, "Tacuba", "Tenochtitlan")
    problems = reasons(check(board, start, Aztecs="A Tex M Ten\nA Tac M Ten"))
    assert problems == [f"line {n}: 4 of your armies would end the turn in Tenochtitlan: at most "
                        "three armies stand in one sector (4.1)" for n in (1, 2)]
    assert check(board, start, Aztecs="A Tex M Ten\nA Tac M Ten\nA Ten M Tex") == {}


def test_7_7_any_number_may_mass_in_the_desert(board: PolygonBoard) -> None:
    """7.7: any number of armies may mass in the Chichimec Desert."""
    assert adjacent(board, "7", DESERT) and adjacent(board, "8", DESERT)
    position = Position({DESERT: ("Chichimecs", 3), "7": ("Chichimecs", 3),
                         "8": ("Chichimecs", 3)}, {})
    assert check(board, position, Chichimecs="3A 7 M Chi\n3A 8 M Chi") == {}


def test_5_9_a_move_may_not_go_to_the_attacked_sector(board: PolygonBoard) -> None:
    """5.9: one army attacks, another moves, but not to the attacked sector."""
    assert adjacent(board, "Zempoala", "15")
    position = Position({"Zempoala": ("Aztecs", 3)}, {"Zempoala": "Aztecs"}, year=1460)
    problems = reasons(check(board, position, Aztecs="A Zem A 15\nA Zem M 15"))
    assert problems == ["line 2: 15 is the sector you attack (line 1): a Move of other armies "
                        "may not go there (5.9)"]


def test_5_7_2_retreats_must_be_possible(board: PolygonBoard, start: Position) -> None:
    """5.7, 5.7.1: a retreat goes to a neighbouring sector, never into a city not one's own."""
    assert not adjacent(board, "Tenochtitlan", "7") and adjacent(board, "Tenochtitlan", "Texcoco")
    problems = reasons(check(board, start, Aztecs="A Ten Stand (retreat 7, Tex)"))
    assert problems == ["line 1: cannot retreat to 7: it is not adjacent to Tenochtitlan (5.7)"]
    assert adjacent(board, "Tenochtitlan", "Tlapacoya")
    problems = reasons(check(board, start, Aztecs="A Ten St r Tlp"))
    assert len(problems) == 1 and "no army retreats into a city not its own" in problems[0]


def test_3_5_4_sacrifice_of_more_captives_than_held(board: PolygonBoard, start: Position) -> None:
    """3.5, 3.5.4: only captives held are sacrificed, in any city of the captor's."""
    position = replace(start, captives={"Aztecs": 2})
    assert check(board, position, Aztecs="Ten sac 2") == {}
    assert check(board, position, Aztecs="Ten sac 1\nTex sac 1") == {}
    assert reasons(check(board, position, Aztecs="Ten sac 1\nTex sac 2")) == [
        "line 2: 3 captives sacrificed, but you hold 2 (3.5, 3.5.4)"]
    assert reasons(check(board, position, Tlaxcalans="Tla sac 1"), "Tlaxcalans") == [
        "line 1: 1 captive sacrificed, but you hold 0 (3.5, 3.5.4)"]


def test_3_5_4_sacrifice_in_a_city_not_held(board: PolygonBoard, start: Position) -> None:
    """3.5.4: the city doing the butchery must be one's own."""
    position = replace(start, captives={"Aztecs": 1})
    assert reasons(check(board, position, Aztecs="Tla sac 1")) == [
        "line 1: Tlaxcala is not your city (Tlaxcalans): only a city of yours performs your "
        "sacrifices (3.5.4)"]


def test_4_1_1_no_gifts_without_home_centres(board: PolygonBoard, start: Position) -> None:
    """4.1.1: players whose home supply centres have all been taken cannot make or receive
    gifts."""
    lost = {**start.cities, "Tenochtitlan": "Tlaxcalans", "Texcoco": "Tlaxcalans",
            "Tacuba": "Tlaxcalans"}
    armies = {**start.armies, "Zempoala": ("Aztecs", 1)}
    position = replace(start, cities=lost, armies=armies)
    assert reasons(check(board, position, Aztecs="A Zem given to Tlaxcalans")) == [
        "line 1: the Aztecs have lost all their home centres and can make no gifts (4.1.1)"]
    assert reasons(check(board, position, Chalcans="A Cha given to Aztecs"), "Chalcans") == [
        "line 1: the Aztecs have lost all their home centres and can receive no gifts (4.1.1)"]
    assert check(board, start, Chalcans="A Cha given to Aztecs") == {}


def test_4_1_permission_only_for_ones_own_sectors(board: PolygonBoard, start: Position) -> None:
    """4.1: a player lets others through sectors that are his."""
    assert reasons(check(board, start, Aztecs="permit Tlaxcalans through Ten, 7")) == [
        "line 1: 7 is not yours: you can only let others through sectors you hold (4.1, 4.2)"]


def test_6_1_no_crossing_of_borders_in_1450(board: PolygonBoard, start: Position) -> None:
    """6.1: in 1450 the Aztecs, Chalcans and Tlaxcalans may not cross each other's borders
    nor attack each other's homelands."""
    assert start.year == 1450 and adjacent(board, "Tacuba", "Coyoacan")
    problems = reasons(check(board, start, Aztecs="A Tac A Coy"))
    assert problems == ["line 1: Coyoacan is in the Chalcans' homeland: in 1450 the Aztecs, "
                        "Chalcans and Tlaxcalans may not cross each other's borders (6.1)"]
    problems = reasons(check(board, start, Aztecs="A Tac M Coy", Chalcans="Aztecs may pass"))
    assert len(problems) == 1 and "(6.1)" in problems[0]
    assert adjacent(board, "Tacuba", "Toluca")
    assert check(board, start, Aztecs="A Tac A Tol") == {}


def test_6_2_aztecs_and_tlaxcalans_spare_each_other_in_1451(board: PolygonBoard,
                                                             start: Position) -> None:
    """6.2: in 1451 the Aztecs and Tlaxcalans may not attack each other's homeland; either may
    attack Chalco."""
    assert adjacent(board, "Texcoco", "Tlaxcala") and adjacent(board, "Tacuba", "Coyoacan")
    y1451 = replace(start, year=1451)
    assert reasons(check(board, y1451, Aztecs="A Tex A Tla")) == [
        "line 1: Tlaxcala is in the Tlaxcalans' homeland: in 1451 the Aztecs and Tlaxcalans "
        "may not attack each other's homeland (6.2)"]
    assert check(board, y1451, Aztecs="A Tac A Coy") == {}
    assert check(board, replace(start, year=1452), Aztecs="A Tex A Tla") == {}


def test_7_1_chichimecs_neither_hold_nor_retreat(board: PolygonBoard, start: Position) -> None:
    """7.1: Chichimecs may Attack, Support, Cut Support, Stand or Move; they cannot retreat."""
    problems = reasons(check(board, start, Chichimecs="2A Chi H"), "Chichimecs")
    assert problems == ["line 1: Chichimecs may Attack, Support, Cut Support, Stand or Move, "
                        "never Hold (7.1)"]
    problems = reasons(check(board, start, Chichimecs="2A Chi St (retreat 7)"), "Chichimecs")
    assert problems == ["line 1: Chichimecs cannot retreat: a retreating Chichimec is a dead "
                        "Chichimec (7.1)"]


def test_validation_errors_carry_their_line_text(board: PolygonBoard, start: Position) -> None:
    result = parse("Hello GM, my orders:\n[b]A Ten H[/b]\n[b]A Tla H[/b]", board, "Aztecs")
    [err] = legality.check(start, Orders.parsed({"Aztecs": result}), board)["Aztecs"]
    assert isinstance(err, IllegalOrderError)
    assert err.line == 3 and err.text == "A Tla H"


def test_unknown_player_is_reported(board: PolygonBoard, start: Position) -> None:
    result = parse("A Ten H", board, "Aztecs")
    problems = legality.check(start, Orders.parsed({"Spaniards": result}), board)
    assert "no player 'Spaniards'" in str(problems["Spaniards"][0])


# -- fuzzing ---------------------------------------------------------------------------------

WORDS = ["A", "2A", "3A", "double", "triple", "army", "in", "Ten", "Tex", "Tla", "Tit", "Zem",
         "Chi", "desert", "7", "15", "99", "M", "S", "CS", "H", "St", "Stand", "(retreat", ")",
         ",", ";", "then", "sac", "1", "0", "given", "to", "Tlaxcalans", "permit", "may", "pass",
         "through", "attacks", "Tenochtitlán", "[b]", "[/b]", "r", "any", "'s", "-", "é"]
LINE = st.one_of(st.lists(st.sampled_from(WORDS), max_size=10).map(" ".join),
                 st.text(max_size=40))
PLACES = ["Ten", "Tex", "Tla", "Tit", "Zem", "Chi"]
# whole orders from any sector (so some are the player's own, and pass validation)
ORDER_LINE = st.builds(lambda n, src, verb, dst: f"{n}A {src} {verb} {dst}".strip(),
                       st.sampled_from(["", "2", "3"]), st.sampled_from(PLACES),
                       st.sampled_from(["H", "St", "A", "CS", "S A Ten", "M"]),
                       st.sampled_from(["", *PLACES]))
POST = st.one_of(st.lists(st.one_of(LINE, ORDER_LINE), min_size=1, max_size=5).map("\n".join),
                 ORDER_LINE)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(post=POST)
def test_fuzz_parse_never_crashes_and_errors_name_their_line(board: PolygonBoard, post: str) -> None:
    result = parse(post, board, "Aztecs")
    numbers = {line.number for line in extract_lines(post)}
    if not numbers:
        assert len(result.errors) == 1 and result.errors[0].line is None
        return
    for err in result.errors:
        assert err.line in numbers and str(err).startswith(f"line {err.line}: ")
    for line, order in result.orders:
        assert line.number in numbers
        assert describe(order)


def test_fuzzed_posts_meet_the_cases_the_fuzz_test_is_about(board: GameMap) -> None:
    """The fuzz test above checks errors that name their line and orders read from lines: its
    posts do produce both (else it would pass without checking anything)."""
    quick = settings(max_examples=3000, database=None, deadline=None,
                     suppress_health_check=list(HealthCheck))
    erred = find(POST, lambda p: any(e.line is not None
                                     for e in parse(p, board, "Aztecs").errors), settings=quick)
    read = find(POST, lambda p: bool(parse(p, board, "Aztecs").orders), settings=quick)
    assert parse(erred, board, "Aztecs").errors and parse(read, board, "Aztecs").orders


def test_fuzz_validate_never_crashes_and_errors_name_their_line(
        board: PolygonBoard, start: Position) -> None:
    """Validation of any posts never fails and names the line of each problem; the run meets
    a problem found, and an order that passes."""
    cases = Cases("a problem found", "an order passing")

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(aztec=POST, chichimec=POST)
    def check(aztec: str, chichimec: str) -> None:
        cases.example()
        parsed = {"Aztecs": parse(aztec, board, "Aztecs"),
                  "Chichimecs": parse(chichimec, board, "Chichimecs")}
        found = legality.check(start, Orders.parsed(parsed), board)
        for player, errs in found.items():
            numbers = {line.number for line, _ in parsed[player].orders}
            for err in errs:
                assert err.line in numbers and str(err).startswith(f"line {err.line}: ")
        cases.met("a problem found", any(found.values()))
        cases.met("an order passing", any(
            len(p.orders) > len({e.line for e in found.get(player, [])})
            for player, p in parsed.items()))

    check()
    cases.check()


def test_5_5_numbered_sector_opens_a_support_contingency(board: PolygonBoard) -> None:
    """5.5, 2.6: a numbered sector named first in a contingency is a sector, not a count."""
    assert one(board, "A Tex S 7 St").contingencies == (Contingency("7", "stand"),)
    (case,) = one(board, "A Tex S A 12 A Chi").contingencies
    assert case == Contingency("12", "attack", "Chichimec Desert")


def test_5_7_2_retreat_to_a_sector_starting_with_to(board: PolygonBoard) -> None:
    """5.7.2: '(retreat Tol)' names Toluca; 'to' is only a word of its own."""
    assert one(board, "A Ten St (retreat Tol)").retreat == ("Toluca",)
    assert one(board, "A Ten St (retreat to Tol)").retreat == ("Toluca",)


def test_5_7_1_retreat_given_to_an_ally_is_read(board: PolygonBoard) -> None:
    """5.7.1: '(retreat Tac given to Chalcans, 7)' retreats into the Chalcans' Tacuba as a gift,
    else to 7."""
    o = one(board, "A Ten St (retreat Tac given to Chalcans, 7)")
    assert o.retreat == ("Tacuba", "7") and o.retreat_gifts == (("Tacuba", "Chalcans"),)
    assert "Tacuba (given to the Chalcans)" in describe(o)
