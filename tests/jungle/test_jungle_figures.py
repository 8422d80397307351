"""The civilization figures the GM enters each session: read line by line, every problem named
with its line (an unknown city, a unit that does not exist, a negative health)."""

from __future__ import annotations

from gmkit.core.orders import IllegalOrderError, OrderSyntaxError, UnknownNameError
from gmkit.rulesets.jungle.figures import check_figures, parse_figures
from tests.jungle.helpers import RULES, char, unit_row, world

TEXT = """city Tenochtitlan: citizens 4, food 3, income 12, beakers 2, happiness -2, strength 9.5
city Tlatelolco: citizens 2
unit Warrior 1: health -3, level 2
unit Scout: health 3
empire: gold 120, expenses 3
tech Bronze Working era 1 gameturn 4
building Granary in Tenoch era 1 gameturn 7
unit Jaguar in Tenochtitlan gameturn 11
the barbarians are coming
"""


def checked():
    s = world([char("A", "Red")], units=[unit_row("Warrior 1")])
    return check_figures(s, parse_figures(TEXT), RULES)


def test_every_bad_line_is_named_with_its_reason():
    """The GM enters what the game shows; each wrong line is reported at once."""
    errs = checked().errors
    assert [(e.line, type(e)) for e in errs] == [
        (2, UnknownNameError), (3, IllegalOrderError), (4, UnknownNameError),
        (8, IllegalOrderError), (9, OrderSyntaxError)]
    assert str(errs[1]) == "line 3: Warrior 1: health -3 is not between 0 and 10"
    assert errs[0].text == "city Tlatelolco: citizens 2"


def test_good_lines_become_figure_frames():
    """City output, per-citizen beakers and happiness; completions with era and gameturn."""
    f = checked()
    city = f["city_figures"].to_dicts()[0]
    assert (city["citizens"], city["beakers"], city["happiness"], city["strength"]) == (
        4, 2, -2, 9.5)
    assert f["completions"].select("item", "city", "era", "gameturn").rows() == [
        ("Bronze Working", None, 1, 4), ("Granary", "Tenochtitlan", 1, 7)]
    assert f["empire_figures"].select("gold", "expenses").rows() == [(120, 3)]
