"""Tests for gmkit.core.orders: extracting, resolving and parsing forum orders."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gmkit.core.orders import (NO_ORDERS_MESSAGE, AmbiguousOrderError, IllegalOrderError, OrderError, OrderSyntaxError,
    ParseResult, PostLine, UnknownNameError, extract_lines, join_alternatives, parse_post)
from gmkit.core.names import NameIndex, normalize
from tests.cases import Cases

PROVINCES = ["Tróys", "Coyons", "Sevoy", "Solsauvre", "Guicardie"]


def texts(post: str) -> list[str]:
    return [line.text for line in extract_lines(post)]


def numbered(post: str) -> list[tuple[int, str]]:
    return [(line.number, line.text) for line in extract_lines(post)]


# ---------------------------------------------------------------------------
# extract_lines
# ---------------------------------------------------------------------------


class TestExtractBold:
    def test_single_bold_line_and_text_outside_ignored(self) -> None:
        post = "Hi GM, here are my orders:\n[b]Hold Tróys[/b]\nCheers, Anna"
        assert extract_lines(post) == [PostLine(2, "Hold Tróys", True)]

    def test_multi_line_bold_block_gives_one_line_per_physical_line(self) -> None:
        post = "Orders:\n[b]Move A to B\nHold C\n\nSupport D[/b]\nbye"
        assert numbered(post) == [(2, "Move A to B"), (3, "Hold C"), (5, "Support D")]
        assert all(line.bold for line in extract_lines(post))

    def test_bold_tags_on_their_own_lines(self) -> None:
        post = "[b]\nMove A to B\n[/b]\nnot an order"
        assert numbered(post) == [(2, "Move A to B")]

    def test_nested_colour_and_other_tags_removed(self) -> None:
        post = (
            "[b][color=red]10 Grain[/color] for [i]Conquest[/i] of [u]Tróys[/u]\n"
            "[size=150]Hold[/size] [font=Arial]Sevoy[/font][/b]"
        )
        assert texts(post) == ["10 Grain for Conquest of Tróys", "Hold Sevoy"]

    def test_inline_tag_inside_a_word_does_not_split_it(self) -> None:
        assert texts("[b]Hold Tr[color=red]ó[/color]ys[/b]") == ["Hold Tróys"]

    def test_colour_outside_bold(self) -> None:
        assert texts("[color=blue][b]Hold Sevoy[/b][/color] (my main move)") == ["Hold Sevoy"]

    def test_case_insensitive_and_spaced_tags(self) -> None:
        post = "x\n[B]Hold A[/B]\n[b ]Hold B[/ b]\ny"
        assert numbered(post) == [(2, "Hold A"), (3, "Hold B")]

    def test_several_bold_pieces_on_one_line(self) -> None:
        assert texts("[b]Move A[/b] then [b]to B[/b]") == ["Move A to B"]
        assert texts("[b]Mo[/b][i][b]ve[/b][/i] A") == ["Move"]

    def test_html_bold_and_strong(self) -> None:
        post = "Orders\n<b>Hold A</b>\n<strong class='x'>Hold B</strong>\nbye"
        assert numbered(post) == [(2, "Hold A"), (3, "Hold B")]

    def test_unclosed_bold_runs_to_end(self) -> None:
        post = "intro\n[b]Hold A\nHold B\n\nHold C"
        assert numbered(post) == [(2, "Hold A"), (3, "Hold B"), (5, "Hold C")]

    def test_stray_closing_tag_is_harmless(self) -> None:
        assert texts("[/b]chat\n[b]Hold A[/b][/b]\nmore chat") == ["Hold A"]

    def test_whitespace_collapsed_and_entities_decoded(self) -> None:
        assert texts("[b]  Hold\t\u00a0 A &amp; B\u200b  [/b]") == ["Hold A & B"]

    def test_player_brackets_are_not_markup(self) -> None:
        assert texts("[b]Hold [Tróys] <fort> [li x][/b]") == ["Hold [Tróys] <fort> [li x]"]

    def test_tags_with_attributes_removed(self) -> None:
        post = (
            '[b][url=http://x.org/a?b=1]Hold[/url] [font face="Arial"]A[/font]'
            '<br/> <span style="color: red">B</span>[hr][/b]'
        )
        assert texts(post) == ["Hold A B"]


class TestExtractQuotes:
    def test_quoted_bold_is_ignored(self) -> None:
        post = (
            '[quote="GM"]Deadline Friday.\n[b]Example: Hold Paris[/b][/quote]\n'
            "[b]Hold Sevoy[/b]"
        )
        assert numbered(post) == [(3, "Hold Sevoy")]

    def test_nested_quotes(self) -> None:
        post = "[quote][quote]a\n[b]x[/b][/quote]\n[b]y[/b]\n[/quote]\n[b]Hold A[/b]"
        assert numbered(post) == [(5, "Hold A")]

    def test_unclosed_bold_inside_quote_does_not_leak(self) -> None:
        post = "[quote]GM said [b]stuff[/quote]\nHold A\nHold B"
        # No bold outside the quote, so the plain-text fallback applies.
        assert numbered(post) == [(2, "Hold A"), (3, "Hold B")]

    def test_quote_inside_plain_post(self) -> None:
        post = "[quote=GM]Send orders\nby Friday[/quote]\nHold A\nMove B to C"
        assert numbered(post) == [(3, "Hold A"), (4, "Move B to C")]

    def test_quote_inside_bold_block(self) -> None:
        post = "[b]Hold A\n[quote]no[/quote]Hold B[/b]"
        assert numbered(post) == [(1, "Hold A"), (2, "Hold B")]

    def test_html_blockquote(self) -> None:
        post = "<blockquote><b>GM bold</b></blockquote>\n<b>Hold A</b>"
        assert numbered(post) == [(2, "Hold A")]


class TestExtractLineNumbers:
    def test_crlf_line_numbers(self) -> None:
        post = "Hello\r\n\r\n[b]Hold A\r\nHold B[/b]\r\nbye\r\n[b]Hold C[/b]"
        assert numbered(post) == [(3, "Hold A"), (4, "Hold B"), (6, "Hold C")]

    def test_lone_cr_line_numbers(self) -> None:
        assert numbered("a\rb\r[b]Hold A[/b]") == [(3, "Hold A")]

    def test_numbers_point_at_the_original_line(self) -> None:
        post = "chat\n[quote]x\ny\nz[/quote]\n[b]Hold A[/b]\n\n[b]Hold B[/b]"
        original = post.split("\n")
        for line in extract_lines(post):
            assert line.text in original[line.number - 1]
        assert numbered(post) == [(5, "Hold A"), (7, "Hold B")]


class TestExtractPlain:
    def test_plain_email_fallback(self) -> None:
        post = "Move A to B\n\n   Hold C  \n"
        assert extract_lines(post) == [
            PostLine(1, "Move A to B", False),
            PostLine(3, "Hold C", False),
        ]

    def test_other_tags_stripped_in_plain_mode(self) -> None:
        assert texts("[i]Hold A[/i]\n[color=red][/color]\nHold B") == ["Hold A", "Hold B"]

    @pytest.mark.parametrize(
        "raw",
        ["- Hold A", "* Hold A", "• Hold A", "1. Hold A", "12) Hold A", "(3) Hold A", "[*]Hold A"],
    )
    def test_list_markers_stripped(self, raw: str) -> None:
        assert texts(raw) == ["Hold A"]
        assert texts(f"[b]{raw}[/b]") == ["Hold A"]

    def test_numbers_that_are_not_markers_are_kept(self) -> None:
        assert texts("10 Grain for Conquest of Tróys\n-5 gold") == [
            "10 Grain for Conquest of Tróys",
            "-5 gold",
        ]

    def test_bbcode_list(self) -> None:
        post = "[b][list]\n[*]Hold A\n[*] Hold B\n[/list][/b]"
        assert numbered(post) == [(2, "Hold A"), (3, "Hold B")]

    @pytest.mark.parametrize("post", ["", "   ", "\n\r\n\t\n", "[b][/b]", "[quote]Hold A[/quote]"])
    def test_nothing_to_extract(self, post: str) -> None:
        assert extract_lines(post) == []


# ---------------------------------------------------------------------------
# normalize
# ---------------------------------------------------------------------------


class TestNormalize:
    @pytest.mark.parametrize(
        ("raw", "expected"),
        [
            ("TRÓYS", "troys"),
            ("  Tróys\t", "troys"),
            ("Saint-Aubrac", "saint aubrac"),
            ("saint_aubrac", "saint aubrac"),
            ("Saint \u2013  Aubrac", "saint aubrac"),
            ("L’Isle", "l'isle"),
            ("L`Isle", "l'isle"),
            ("L\u00b4Isle", "l'isle"),
            ("\U0001d56c\u0130", "ai"),  # compatibility capitals, dotted I
            ("Straße", "strasse"),
            ("Ærø", "aero"),
            ("Tro\u0301ys", "troys"),  # decomposed accent
            ("", ""),
        ],
    )
    def test_examples(self, raw: str, expected: str) -> None:
        assert normalize(raw) == expected

    @given(st.text())
    def test_idempotent(self, raw: str) -> None:
        once = normalize(raw)
        assert normalize(once) == once
        assert once == once.strip()
        assert "  " not in once


# ---------------------------------------------------------------------------
# NameIndex
# ---------------------------------------------------------------------------


@pytest.fixture
def provinces() -> NameIndex:
    return NameIndex(PROVINCES)


class TestNameIndex:
    def test_names_attribute(self, provinces: NameIndex) -> None:
        assert provinces.names == tuple(PROVINCES)
        assert provinces.kind == "province"
        assert len(provinces) == 5

    def test_exact(self, provinces: NameIndex) -> None:
        assert provinces.resolve("Sevoy") == "Sevoy"

    @pytest.mark.parametrize("typed", ["troys", "TRÓYS", "Troys", " tróys "])
    def test_case_and_accent_insensitive(self, provinces: NameIndex, typed: str) -> None:
        assert provinces.resolve(typed) == "Tróys"

    def test_unique_prefix(self, provinces: NameIndex) -> None:
        assert provinces.resolve("Guic") == "Guicardie"
        assert provinces.resolve("sol") == "Solsauvre"
        assert provinces.resolve("TRÓ") == "Tróys"

    def test_short_prefix_is_not_accepted_but_suggested(self, provinces: NameIndex) -> None:
        with pytest.raises(UnknownNameError) as info:
            provinces.resolve("Gu")
        assert info.value.suggestions == ["Guicardie"]
        assert str(info.value) == "no province 'Gu'; did you mean Guicardie?"

    def test_exact_beats_prefix(self) -> None:
        index = NameIndex(["Sav", "Savoie"])
        assert index.resolve("sav") == "Sav"
        assert index.resolve("savo") == "Savoie"

    def test_ambiguous_prefix_lists_candidates(self) -> None:
        index = NameIndex(["Saint-Aubrac", "Sauvenne", "Tróys"])
        with pytest.raises(AmbiguousOrderError) as info:
            index.resolve("Sa")
        assert str(info.value) == "'Sa' could be Saint-Aubrac or Sauvenne"
        assert info.value.candidates == ["Saint-Aubrac", "Sauvenne"]

    def test_ambiguous_prefix_of_three_or_more(self) -> None:
        index = NameIndex(["Sauvenne", "Saumur", "Sauternes"])
        with pytest.raises(AmbiguousOrderError, match=r"^'sau' could be Sauvenne, Saumur or Sauternes$"):
            index.resolve("sau")

    def test_long_candidate_list_is_shortened(self) -> None:
        index = NameIndex([f"Sau{i:02d}" for i in range(10)])
        with pytest.raises(AmbiguousOrderError) as info:
            index.resolve("Sau")
        assert str(info.value).endswith("or 4 more")
        assert len(info.value.candidates) == 10

    def test_unknown_with_suggestion(self, provinces: NameIndex) -> None:
        with pytest.raises(UnknownNameError) as info:
            provinces.resolve("Troies")
        err = info.value
        assert str(err) == "no province 'Troies'; did you mean Tróys?"
        assert err.name == "Troies"
        assert err.kind == "province"
        assert err.suggestions == ["Tróys"]
        assert err.line is None

    def test_unknown_with_several_suggestions(self) -> None:
        index = NameIndex(["Tróys", "Troyon", "Sevoy"])
        with pytest.raises(UnknownNameError) as info:
            index.resolve("Troyes")
        assert str(info.value) == "no province 'Troyes'; did you mean Tróys or Troyon?"

    def test_unknown_without_suggestion(self, provinces: NameIndex) -> None:
        with pytest.raises(UnknownNameError) as info:
            provinces.resolve("Xyz")
        assert str(info.value) == "no province 'Xyz'"
        assert info.value.suggestions == []

    def test_at_most_three_suggestions(self) -> None:
        index = NameIndex(["Abcde", "Abcdf", "Abcdg", "Abcdh"], kind="nation")
        with pytest.raises(UnknownNameError) as info:
            index.resolve("Abcdx")
        assert len(info.value.suggestions) == 3
        assert str(info.value).startswith("no nation 'Abcdx'; did you mean ")

    def test_empty_name(self, provinces: NameIndex) -> None:
        with pytest.raises(UnknownNameError, match="no province name given"):
            provinces.resolve("  ")

    def test_aliases(self) -> None:
        index = NameIndex(PROVINCES, aliases={"Troyes": "Tróys", "Guic.": "Guicardie"})
        assert index.resolve("TROYES") == "Tróys"
        assert index.resolve("troye") == "Tróys"  # prefix of name and alias: one province
        assert "troyes" in index
        assert index.names == tuple(PROVINCES)  # aliases are not names

    def test_alias_to_unknown_name_rejected(self) -> None:
        with pytest.raises(ValueError):
            NameIndex(PROVINCES, aliases={"Paris": "Lutèce"})

    def test_names_equal_after_normalization_are_ambiguous(self) -> None:
        index = NameIndex(["Tróys", "Troys"])
        with pytest.raises(AmbiguousOrderError, match="Tróys or Troys"):
            index.resolve("troys")

    def test_find_in(self) -> None:
        index = NameIndex(["Tróys", "Saint-Aubrac", "Saint-Aubrac-le-Haut", "Sevoy"])
        text = "Attack TROYS from saint aubrac le haut, then Saint-Aubrac; Sevoyard stays."
        found = index.find_in(text)
        assert [name for _, _, name in found] == ["Tróys", "Saint-Aubrac-le-Haut", "Saint-Aubrac"]
        assert [text[start:end] for start, end, _ in found] == [
            "TROYS",
            "saint aubrac le haut",
            "Saint-Aubrac",
        ]

    def test_resolve_either_answers_or_raises_order_error(self) -> None:
        """Any typed name resolves to a province or raises an OrderError; the run meets both
        (typed names include the provinces' prefixes, in either case)."""
        index = NameIndex(PROVINCES)
        cases = Cases("a name resolved", "a name refused")
        prefixes = st.tuples(st.sampled_from(PROVINCES), st.integers(1, 8), st.booleans()).map(
            lambda p: p[0][:p[1]].upper() if p[2] else p[0][:p[1]])

        @given(st.one_of(st.text(), prefixes))
        def check(typed: str) -> None:
            cases.example()
            try:
                assert index.resolve(typed) in PROVINCES
                cases.met("a name resolved")
            except OrderError as err:
                assert isinstance(err, (AmbiguousOrderError, UnknownNameError))
                cases.met("a name refused")

        check()
        cases.check()

    @given(st.text(), st.sampled_from(PROVINCES))
    def test_find_in_spans_resolve_back(self, noise: str, name: str) -> None:
        index = NameIndex(PROVINCES)
        text = f"{noise} {name.upper()} {noise}"
        for start, end, found in index.find_in(text):
            assert index.resolve(text[start:end]) == found
        assert name in [found for _, _, found in index.find_in(text)]


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


class TestOrderError:
    def test_str_with_and_without_line(self) -> None:
        err = OrderSyntaxError("cannot read this")
        assert str(err) == "cannot read this"
        located = err.at(3, "blah")
        assert str(located) == "line 3: cannot read this"
        assert (located.line, located.text, located.reason) == (3, "blah", "cannot read this")

    def test_at_returns_a_copy_of_the_same_class(self) -> None:
        err = UnknownNameError("no province 'X'", name="X", kind="province", suggestions=["Y"])
        located = err.at(7, "Hold X")
        assert type(located) is UnknownNameError
        assert located is not err
        assert err.line is None and err.text == ""
        assert (located.name, located.kind, located.suggestions) == ("X", "province", ["Y"])

    def test_hierarchy(self) -> None:
        for cls in (OrderSyntaxError, IllegalOrderError, AmbiguousOrderError, UnknownNameError):
            assert issubclass(cls, OrderError)
        assert issubclass(OrderError, ValueError)

    def test_pickles(self) -> None:
        err = UnknownNameError("no province 'X'", name="X", suggestions=["Y"], line=2, text="t")
        copy = pickle.loads(pickle.dumps(err))
        assert str(copy) == "line 2: no province 'X'"
        assert copy.suggestions == ["Y"]

    def test_join_alternatives(self) -> None:
        assert join_alternatives([]) == ""
        assert join_alternatives(["A"]) == "A"
        assert join_alternatives(["A", "B"]) == "A or B"
        assert join_alternatives(["A", "B", "C"], "and") == "A, B and C"


# ---------------------------------------------------------------------------
# parse_post
# ---------------------------------------------------------------------------


def grain_parser(index: NameIndex):
    """A small line parser: '<n> Grain for Conquest of <province>' or 'Hold <province>'."""

    def parse(line: PostLine) -> tuple[str, object] | None:
        words = line.text.split()
        if line.text.lower().startswith("orders"):
            return None
        if words[:1] == ["Hold"] and len(words) == 2:
            return ("hold", index.resolve(words[1]))
        if len(words) >= 6 and words[1:5] == ["Grain", "for", "Conquest", "of"]:
            if not words[0].isdigit():
                raise OrderSyntaxError(f"'{words[0]}' is not a number")
            amount = int(words[0])
            if amount > 100:
                raise IllegalOrderError(f"{amount} Grain is more than you have", line=99)
            return ("grain", amount, index.resolve(" ".join(words[5:])))
        raise OrderSyntaxError("not an order I know")

    return parse


class TestParsePost:
    POST = (
        "Hi GM!\n"
        "[b]Orders for spring:\n"
        "Hold Sevoy\n"
        "10 Grain for Conquest of Troies\n"
        "ten Grain for Conquest of Coyons\n"
        "5 Grain for Conquest of guicardie[/b]\n"
        "[b]Dance[/b]\n"
    )

    def test_good_lines_kept_and_bad_lines_reported(self) -> None:
        result = parse_post(self.POST, grain_parser(NameIndex(PROVINCES)))
        assert [order for _, order in result.orders] == [
            ("hold", "Sevoy"),
            ("grain", 5, "Guicardie"),
        ]
        assert [line.number for line, _ in result.orders] == [3, 6]
        assert not result.ok
        assert [str(err) for err in result.errors] == [
            "line 4: no province 'Troies'; did you mean Tróys?",
            "line 5: 'ten' is not a number",
            "line 7: not an order I know",
        ]
        assert isinstance(result.errors[0], UnknownNameError)
        assert result.errors[0].text == "10 Grain for Conquest of Troies"

    def test_report(self) -> None:
        result = parse_post(self.POST, grain_parser(NameIndex(PROVINCES)))
        assert result.report().splitlines() == [
            "line 4: no province 'Troies'; did you mean Tróys?  >  10 Grain for Conquest of Troies",
            "line 5: 'ten' is not a number  >  ten Grain for Conquest of Coyons",
            "line 7: not an order I know  >  Dance",
        ]

    def test_all_good(self) -> None:
        result = parse_post("Hold Sevoy\nHold tróys", grain_parser(NameIndex(PROVINCES)))
        assert result.ok
        assert result.errors == []
        assert result.report() == ""
        assert [order for _, order in result.orders] == [("hold", "Sevoy"), ("hold", "Tróys")]

    def test_error_that_already_has_a_line_is_kept(self) -> None:
        result = parse_post("[b]500 Grain for Conquest of Sevoy[/b]", grain_parser(NameIndex(PROVINCES)))
        (err,) = result.errors
        assert isinstance(err, IllegalOrderError)
        assert err.line == 99

    def test_none_means_ignore(self) -> None:
        result = parse_post("[b]Orders:\nHold Sevoy[/b]", grain_parser(NameIndex(PROVINCES)))
        assert result.ok
        assert len(result.orders) == 1

    def test_other_exceptions_propagate(self) -> None:
        def buggy(line: PostLine) -> None:
            raise KeyError("ruleset bug")

        with pytest.raises(KeyError):
            parse_post("[b]Hold Sevoy[/b]", buggy)

    @pytest.mark.parametrize("post", ["", "\n\n", "[quote]Hold Sevoy[/quote]", "[b] [/b] chat"])
    def test_no_orders(self, post: str) -> None:
        result = parse_post(post, grain_parser(NameIndex(PROVINCES)))
        assert result.orders == []
        (err,) = result.errors
        assert isinstance(err, OrderSyntaxError)
        assert err.line is None
        assert str(err) == NO_ORDERS_MESSAGE
        assert not result.ok

    def test_parse_result_is_generic_dataclass(self) -> None:
        result: ParseResult[int] = ParseResult()
        assert result.ok and result.orders == [] and result.errors == []


# ---------------------------------------------------------------------------
# Fuzzing
# ---------------------------------------------------------------------------

FRAGMENTS = st.sampled_from(
    [
        "[b]", "[/b]", "[B]", "[/ b]", "[quote]", "[/quote]", '[quote="GM"]', "[*]",
        "[color=red]", "[/color]", "<b>", "</b>", "<strong>", "<blockquote>", "</blockquote>",
        "[", "]", "<", ">", "\n", "\r\n", "\r", " ", "- ", "1. ", "&amp;", "&#10;", "Tróys",
        "\u200b", "\u0301",
    ]
)
POSTS = st.one_of(
    st.text(),
    st.lists(st.one_of(FRAGMENTS, st.text(max_size=8)), max_size=40).map("".join),
)


def trivial_parser(line: PostLine) -> str | None:
    """Accepts lines starting with a letter, ignores digits, rejects the rest."""
    first = line.text[0]
    if first.isdigit():
        return None
    if not first.isalpha():
        raise OrderSyntaxError("cannot read this")
    if len(line.text) % 2:
        NameIndex(PROVINCES).resolve(line.text)
    return line.text


@settings(max_examples=300)
@given(POSTS)
def test_fuzz_extract_lines(post: str) -> None:
    lines = extract_lines(post)
    physical = post.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    numbers = [line.number for line in lines]
    assert numbers == sorted(set(numbers))
    for line in lines:
        assert 1 <= line.number <= len(physical)
        assert line.text and line.text == line.text.strip()
        assert "\n" not in line.text and "\r" not in line.text
        assert "  " not in line.text


def test_fuzz_parse_post() -> None:
    """Any post reads into orders and errors, each error naming its line (or the one 'no
    orders' error); the run meets each: an order read, a line refused, a post with no orders,
    a post whose every line was ignored."""
    cases = Cases("an order read", "a line refused", "no orders", "every line ignored")

    @settings(max_examples=300)
    @given(POSTS)
    def check(post: str) -> None:
        cases.example()
        result = parse_post(post, trivial_parser)
        assert result.ok == (not result.errors)
        assert isinstance(result.report(), str)
        if not result.orders and not result.errors:
            assert extract_lines(post)  # only when every line was ignored
            cases.met("every line ignored")
        for err in result.errors:
            assert isinstance(err, OrderError)
            if err.line is None:
                assert str(err) == NO_ORDERS_MESSAGE
                cases.met("no orders")
            else:
                assert str(err).startswith(f"line {err.line}: ")
                assert err.text
                cases.met("a line refused")
        cases.met("an order read", bool(result.orders))

    check()
    cases.check()


def test_fuzz_plain_lines_keep_their_numbers() -> None:
    """Plain lines keep their numbers; the run meets posts of several lines without markup
    (those with markup are left to the tests above)."""
    cases = Cases("several plain lines")

    @given(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=20), max_size=6))
    def check(words: list[str]) -> None:
        cases.example()
        post = "\n".join(f"Hold X{i} {w}" for i, w in enumerate(words))
        if "[" in post or "<" in post or "&" in post:
            return  # markup and entities are covered elsewhere
        numbers = [line.number for line in extract_lines(post)]
        assert numbers == list(range(1, len(words) + 1))
        cases.met("several plain lines", len(words) > 1)

    check()
    cases.check()


@pytest.mark.parametrize(
    "post",
    ["[quote" * 5000, "<b " * 5000, "<strong x=" * 5000, "[size=1 " * 5000, "[ " * 10000],
)
def test_hostile_markup_is_handled(post: str) -> None:
    # Unterminated tags are plain text; matching must stay fast (bounded attributes).
    lines = extract_lines(post)
    assert len(lines) == 1 and lines[0].number == 1 and not lines[0].bold
