"""The words of a game's orders (gmkit.core.words): a misspelt order word, wherever it stands in
the line, is told what it may be; a known name never is; a line an order form read but found
wrong says it too, once."""

from __future__ import annotations

import pytest

from gmkit.core.names import NameIndex
from gmkit.core.orders import NotAnOrderError, OrderSyntaxError, PostLine, parse_post
from gmkit.core.words import OrderWords, edits

WORDS = OrderWords(starts=("vote", "march", "hold"),
                   others=("for", "against", "from", "to", "grain", "of"))
PLACES = NameIndex(["Paris", "Lyon", "Saint-Aubrac"])


@pytest.mark.parametrize("a,b,n", [("grian", "grain", 1), ("aginst", "against", 1),
                                   ("strave", "starve", 1), ("vote", "vote", 0),
                                   ("marhc", "march", 1), ("fro", "from", 1)])
def test_edits_count_a_swap_of_two_letters_as_one(a, b, n):
    assert edits(a, b, 2) == n


def test_edits_stop_once_past_the_most_asked():
    assert edits("abcdef", "uvwxyz", 1) == 2


@pytest.mark.parametrize("typed,meant", [("aginst", ["against"]), ("Grian", ["grain"]),
                                         ("ot", ["to"]), ("fo", ["of"]), ("fro", ["for", "from"])])
def test_a_slip_of_an_order_word_says_which_it_may_be(typed, meant):
    """One edit up to five letters, two from six; a two-letter word only by its letters
    swapped."""
    assert WORDS.meant(typed) == meant


@pytest.mark.parametrize("word", ["against", "a", "zz", "Tuesday", "Paris"])
def test_an_order_word_or_a_word_near_none_is_no_slip(word):
    assert WORDS.meant(word) == []


def test_the_hint_names_every_misspelt_word_in_the_case_typed():
    assert WORDS.hint("Vote aginst 4") == "'aginst': did you mean 'against'?"
    assert WORDS.hint("2 Grian fo Lyon") == ("'Grian': did you mean 'Grain'?; "
                                             "'fo': did you mean 'of'?")
    assert WORDS.hint("VTOE for 3") == "'VTOE': did you mean 'VOTE'?"


def test_a_known_name_or_its_prefix_is_never_judged_as_a_misspelt_word():
    """'Form' is one edit from 'for' and 'from', but a place of this board is called so."""
    board = NameIndex(["Form", "Lyon", "Saint-Aubrac"])
    assert WORDS.hint("march from Form to Lyon", [board]) == ""
    assert WORDS.hint("march from Form to Lyon") == "'Form': did you mean 'For' or 'From'?"
    assert WORDS.hint("march to Saint-Aubrac", [board]) == ""


def test_a_rejected_line_says_the_slip_before_the_examples():
    err = WORDS.rejected("Vote aginst 4", "not an order: 'Vote aginst 4'", [PLACES],
                         "'Vote for 3'")
    assert isinstance(err, OrderSyntaxError) and not isinstance(err, NotAnOrderError)
    assert err.reason == ("not an order: 'Vote aginst 4'; 'aginst': did you mean 'against'? "
                          "(try 'Vote for 3')")


def test_a_slip_of_a_starting_word_is_an_order_attempt_and_chatter_is_not():
    assert WORDS.starts_an_order("Vtoe for 3") and WORDS.starts_an_order("Paris holds", [PLACES])
    assert isinstance(WORDS.rejected("Good luck all!", "no"), NotAnOrderError)


def _parser(line: PostLine) -> str:
    text = line.text.lower()
    if text.startswith("march "):
        return PLACES.resolve(line.text.split(" ", 1)[1].removeprefix("to "))
    raise WORDS.rejected(line.text, f"not an order: '{line.text}'", [PLACES])


def test_a_line_a_form_read_but_found_wrong_says_its_slips_too():
    """'march ot Lyon' reads as a march to a place 'ot Lyon', which is none: the name's own
    did-you-mean stands, and the misspelt 'ot' is told it may be 'to'."""
    result = parse_post("march ot Lyon\nmarch Parsi\nVote aginst 4",
                        WORDS.reading(_parser, [PLACES]))
    reasons = [e.reason for e in result.errors]
    assert reasons[0].endswith("; 'ot': did you mean 'to'?"), reasons[0]
    assert reasons[1] == "no province 'Parsi'; did you mean Paris?"
    assert reasons[2].count("did you mean 'against'") == 1, "a slip is told once"
    assert [e.line for e in result.errors] == [1, 2, 3]
