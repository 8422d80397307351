"""Pyramid Power Wars: orders read from forum posts (short and long forms, names by case,
accents and prefix, per-line errors) and the boards (the shipped one, the seeded generator)."""

from __future__ import annotations

import pytest

from gmkit.core.boards import BoardError
from gmkit.core.boards.graph import GraphBoard, GraphPlace
from gmkit.core.dice import Dice
from gmkit.rulesets.pyramid.board import check, generate, load, to_toml
from gmkit.rulesets.pyramid.orders import (AssignSerfs, Births, Build, Claim, Lead, Move,
                                           NobleRef, PyramidRef, StaffPyramid, Starve, parse)
from gmkit.rulesets.pyramid.state import SCHEMAS, setup
from tests.pyramid.helpers import make, rules

STATE = make("Redsand Oasis-Gate Black-Marsh", holders={"Redsand": "Red"},
             nobles=[("Red", "Amenhotep", "Redsand")], dead=[("Khufu", 3, "Red")])


def orders(post: str) -> list[object]:
    result = parse(post, STATE)
    assert result.ok, result.report()
    return [o for _, o in result.orders]


def test_short_forum_forms() -> None:
    """The lines as a player posts them, in bold among chatter."""
    post = """Hail! My orders:
[b]4 serfs to Redsand[/b]
[b]noble 1 with 3 troops and the battle pyramid to Oasis Gate[/b]
[b]build war pyramid: 3 stone, dead: Khufu[/b]
[b]5 priests to pyramid 2[/b]
[b]2 troops and pyramid 3 from Redsand to Oasis Gate then Black Marsh[/b]
[b]claim pyramids at Oasis Gate[/b]
[b]excess food: 2 priests, 1 troops[/b]
[b]starve: troops, serfs[/b]"""
    assert orders(post) == [
        AssignSerfs("Redsand", 4, 2),
        Lead(NobleRef(number=1), 3, (PyramidRef("battle"),), ("Oasis-Gate",), line=3),
        Build("war", 3, ("Khufu",), line=4),
        StaffPyramid(PyramidRef(number=2), 5, 5),
        Move("Redsand", 2, (PyramidRef(number=3),), ("Oasis-Gate", "Black-Marsh"), 6),
        Claim("Oasis-Gate", 7),
        Births((("priests", 2), ("troops", 1)), 8),
        Starve(("troops", "serfs"), 9)]


def test_long_forms_read_as_the_short_ones() -> None:
    """The long form of each order gives the same typed order."""
    assert orders("assign 4 units of serfs to the land of Redsand") == orders(
        "4 serfs to Redsand")
    assert orders("assign 5 units of priests to the war pyramid") == orders(
        "5 priests to the war pyramid")
    led = orders("Amenhotep leads 3 troops and the battle pyramid from Redsand to Oasis Gate, "
                 "claiming pyramids")[0]
    assert led == Lead(NobleRef(name="Amenhotep"), 3, (PyramidRef("battle"),), ("Oasis-Gate",),
                       True, "Redsand", 1)
    assert orders("build a war pyramid at Redsand with 3 stone and the dead Khufu") == [
        Build("war", 3, ("Khufu",), "Redsand", None, 1)]
    assert orders("convert excess food into 2 priests and 1 troops") == orders(
        "excess food: 2 priests, 1 troops")
    assert orders("if food runs short lose troops first, then serfs") == orders(
        "starve: troops, serfs")


def test_names_match_regardless_of_case_accents_and_prefix() -> None:
    """Land, noble and DEAD names resolve through the shared name index."""
    assert orders("4 serfs to REDSÁND") == orders("4 serfs to reds")
    assert orders("noble amenh with 1 troops to oasis gate")[0] == Lead(
        NobleRef(name="Amenhotep"), 1, (), ("Oasis-Gate",), line=1)


def test_unreadable_lines_are_reported_with_their_line() -> None:
    """Every bad line is named, with a reason the player can act on."""
    result = parse("[b]4 serfs to Troy[/b]\n[b]dance a jig[/b]\n[b]build huge pyramid: 2 "
                   "stone[/b]\n[b]build war pyramid: dead: Nobody[/b]", STATE)
    report = result.report().splitlines()
    assert report[0].startswith("line 1: no land 'Troy'")
    assert report[1].startswith("line 2: not an order: 'dance a jig'")
    assert report[2].startswith("line 3: not an order")
    assert report[3].startswith("line 4: no DEAD 'Nobody'")


def test_validation_returns_every_problem_at_once() -> None:
    """Validation lists all problems of a post, each naming its line."""
    s = make("A B C D", holders={"A": "Red", "B": "Red"}, nobles=[("Red", "Ay", "A")],
             troops={("Red", "A"): 1}, players={"Red": {"serfs": 1}})
    from tests.pyramid.helpers import reasons
    found = reasons(s, {"Red": "3 serfs to A\nnoble 1 with 5 troops to B\n"
                               "noble Ay with 1 troops to B then C then D\n"
                               "5 priests to the war pyramid"})
    assert [f.split(":")[0] for f in found] == ["line 1", "line 2", "line 3", "line 4"]


# -- boards -----------------------------------------------------------------------------------

def test_the_shipped_board_has_start_areas_for_2_to_8_players() -> None:
    """The Two Lands: 40 food and stone lands, drawn, with areas for 2 to 8 players."""
    land = load()
    assert len(land.board) == 40 and set(land.start_areas) == set(range(2, 9))
    for n in range(2, 9):
        areas = land.areas(n)
        assert len(areas) == n
        assert all(land.board.place_kind(a[0]) == "food" for a in areas)
    state = setup([("Red", "A"), ("Blue", "B"), ("Gold", "C")], land, rules())
    assert state.checked(SCHEMAS).equals(state)
    assert state["spaces"].filter(state["spaces"]["holder"].is_not_null()).height == 6


@pytest.mark.parametrize("spaces", [24, 25, 40, 77])
def test_generated_boards_are_valid_and_the_same_seed_gives_the_same_board(spaces: int) -> None:
    """A board of any size from gmkit dice; the same seed, the same board."""
    one = generate(spaces, "ab" * 32)
    two = generate(spaces, Dice("ab" * 32, 0, "board"))
    assert len(one.board) == spaces and to_toml(one) == to_toml(two)
    assert to_toml(generate(spaces, "cd" * 32)) != to_toml(one)


def test_too_small_a_generated_board_is_refused() -> None:
    """Eight start areas need room."""
    with pytest.raises(BoardError, match="too few"):
        generate(20, "ab" * 32)


def test_a_generated_board_round_trips_through_toml() -> None:
    """A generated board written as TOML loads back through GraphBoard and the same checks."""
    import tomllib
    land = generate(30, "12" * 32, name="Thirty")
    text = to_toml(land)
    again = check(GraphBoard.from_toml(text, "thirty.toml"),
                  {int(k): v for k, v in tomllib.loads(text)["start_areas"].items()})
    assert to_toml(again) == text


def test_a_faulty_board_reports_every_problem() -> None:
    """Kinds other than food or stone, a home that is no food land, areas that overlap."""
    board = GraphBoard([GraphPlace("A", "food", pos=(0, 0)), GraphPlace("B", "sea", pos=(1, 0)),
                        GraphPlace("C", "stone", pos=(2, 0))],
                       {"A": ["B"], "B": ["A", "C"], "C": ["B"]})
    with pytest.raises(BoardError) as err:
        check(board, {2: [("A", "B"), ("C", "B")]})
    text = str(err.value)
    assert "kind 'sea' is not food or stone" in text
    assert "the home 'C' is not a food land" in text and "'B' is also in area 1" in text
    assert "no start areas for 8 players" in text


def test_a_lead_reads_as_the_single_expression_read_it() -> None:
    """A noble's lead (``noble N ...`` or ``Name leads ...``) is read by one expression per way
    of naming the noble, each tried only when a linear test says it matches (so a line of
    "with" and "from" without a destination after them is no longer backtracked over in cubic
    time, ``bench/parse_limits.py``): on thousands of seeded lines of the order words, it reads
    exactly what the single expression it replaced read, group by group."""
    import random
    import re

    from gmkit.rulesets.pyramid.orders import lead_match

    single = re.compile(r"^(?:noble\s+(?P<noble>.+?)|(?P<named>[^\d\s][^,]*?)\s+(?=leads\b))\s*"
                        r"(?:(?:with|leads|leading)\s+(?P<what>.+?)\s+)?"
                        r"(?:from\s+(?P<origin>.+?)\s+)?(?:moves?\s+)?(?:to|into)\s+(?P<path>.+)$",
                        re.I)
    words = ["noble", "Noble", "1", "Khufu", "leads", "leading", "with", "from", "to", "into",
             "moves", "move", "3 troops", "pyramid 2", "Redsand", "Oasis Gate", ",", "then",
             "->", "x", "toto", "intox", " ", "9"]
    rnd = random.Random(7)
    read = 0
    for _ in range(6000):
        line = " ".join([rnd.choice(["noble 1", "Khufu leads", "noble", ""]),
                         *(rnd.choice(words) for _ in range(rnd.randint(0, 8))),
                         rnd.choice(["to Redsand", "into x", ""])])
        line = re.sub(r"\s+", " ", line.strip())
        want, got = single.match(line), lead_match(line)
        assert (want is None) == (got is None), line
        if want is not None and got is not None:
            read += 1
            for name in ("noble", "named", "what", "origin", "path"):
                assert want.group(name) == got.groupdict().get(name), (line, name)
    assert read > 500  # the lines exercise leads, not only refusals
