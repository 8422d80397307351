"""Tests for gmkit.core.dice: the documented seeded derivation, unbiased integers, the seed
commitment, dice entered by the GM, the roll log, the entered-dice file format and exact dice
distributions."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gmkit.core import dice as gdice
from gmkit.core.dice import (
    ENTERED,
    SEEDED,
    Dice,
    DiceError,
    check_reveal,
    commitment,
    dice_distribution,
    new_seed,
    parse_entered,
    seeded_int,
    seeded_uniform,
)
from tests.cases import Cases

SEED = "0f" * 32
OTHER_SEED = "a5" * 32
RULE = "test rule"


def by_hand_bits(seed: str, turn: int, draw_id: str, attempt: int) -> int:
    """The module docstring's derivation, written out independently of the module: the first
    8 bytes (big-endian) of HMAC-SHA256 keyed with the seed over 'gmkit/1|turn|id|attempt'."""
    msg = f"gmkit/1|{turn}|{draw_id}|{attempt}".encode()
    digest = hmac.new(bytes.fromhex(seed), msg, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def by_hand_int(seed: str, turn: int, draw_id: str, n: int) -> int:
    """Rejection sampling as documented: accept x < 2**64 - 2**64 % n, else the next attempt."""
    limit = 2**64 - (2**64 % n)
    attempt = 0
    while True:
        x = by_hand_bits(seed, turn, draw_id, attempt)
        if x < limit:
            return x % n
        attempt += 1


# ---------------------------------------------------------------------------
# the documented derivation
# ---------------------------------------------------------------------------


class TestDerivation:
    def test_seeded_d10_recomputed_by_hand_from_hmac(self) -> None:
        """Module docstring: a die NdK's i-th face comes from draw id '<id>#<i>' and is the
        unbiased integer in [0, K) plus one; the id is '<step>:<key>'."""
        dice = Dice(SEED, 4, "conquest")
        value = dice.d(10, purpose="attack", rule=RULE, key="attack/Tróys/Red")
        msg = b"gmkit/1|4|conquest:attack/Tr\xc3\xb3ys/Red#0|0"
        digest = hmac.new(bytes.fromhex(SEED), msg, hashlib.sha256).digest()
        x = int.from_bytes(digest[:8], "big")
        assert x < 2**64 - (2**64 % 10)  # essentially always accepted for n = 10
        assert value == x % 10 + 1
        assert dice.log[-1].draw_id == "conquest:attack/Tróys/Red#0"
        assert dice.log[-1].result == [value]

    def test_several_dice_use_one_draw_id_per_face(self) -> None:
        """Module docstring: the i-th (0-based) die of NdK comes from draw id '<id>#<i>'."""
        dice = Dice(SEED, 2, "war")
        total = dice.roll(3, 6, purpose="three dice", rule=RULE, key="k")
        faces = [by_hand_int(SEED, 2, f"war:k#{i}", 6) + 1 for i in range(3)]
        assert dice.log[-1].result == faces
        assert total == sum(faces)
        assert dice.log[-1].draw_id == "war:k"  # the faces are war:k#0, war:k#1, war:k#2

    def test_a_single_die_is_logged_under_the_id_it_is_derived_from(self) -> None:
        """Module docstring: a single die (1dK) is logged under '<id>#0', the id its face is
        derived from, so the logged id alone recomputes it."""
        dice = Dice(SEED, 3, "war")
        value = dice.d(6, purpose="one die", rule=RULE, key="k")
        assert dice.log[-1].draw_id == "war:k#0"
        assert value == by_hand_int(SEED, 3, dice.log[-1].draw_id, 6) + 1

    def test_default_key_is_the_draw_number_within_the_step(self) -> None:
        """Dice docstring: key defaults to the draw's number within the step."""
        dice = Dice(SEED, 1, "spend")
        dice.d(6, purpose="first", rule=RULE)
        dice.d(6, purpose="second", rule=RULE)
        assert [r.draw_id for r in dice.log] == ["spend:1#0", "spend:2#0"]
        assert dice.log[1].result == [by_hand_int(SEED, 1, "spend:2#0", 6) + 1]

    def test_uniform_is_top_53_bits_of_the_first_8_bytes(self) -> None:
        """Module docstring: a uniform number is (first 8 bytes >> 11) / 2**53."""
        for draw_id in ("u:1", "u:2", "mission/chance"):
            expected = (by_hand_bits(SEED, 7, draw_id, 0) >> 11) / 2**53
            assert seeded_uniform(SEED, 7, draw_id) == expected
            assert 0 <= expected < 1
        dice = Dice(SEED, 7, "u")
        assert dice.uniform(purpose="p", rule=RULE, key="1") == seeded_uniform(SEED, 7, "u:1")

    def test_seeded_int_matches_by_hand_for_many_n(self) -> None:
        """Module docstring: seeded_int is exactly the documented rejection sampling."""
        for n in [1, 2, 3, 6, 7, 10, 20, 100, 1000, 2**32 + 1, 3 * 2**61, 2**63 + 1, 2**64]:
            for key in ("a", "b", "c"):
                assert seeded_int(SEED, 3, key, n) == by_hand_int(SEED, 3, key, n)

    def test_rejected_first_attempt_falls_through_to_the_next(self) -> None:
        """Rejection sampling: with n = 2**63 + 1 about half of first attempts are rejected; the
        value then comes from attempt 1 (and so on), as documented."""
        n = 2**63 + 1
        limit = 2**64 - (2**64 % n)
        rejected = [k for k in (f"k{i}" for i in range(64))
                    if by_hand_bits(SEED, 1, k, 0) >= limit]
        assert rejected, "expected some first attempts to fall in the rejected zone"
        for key in rejected[:5]:
            attempt = 1
            while by_hand_bits(SEED, 1, key, attempt) >= limit:
                attempt += 1
            assert seeded_int(SEED, 1, key, n) == by_hand_bits(SEED, 1, key, attempt) % n


# ---------------------------------------------------------------------------
# unbiased integers
# ---------------------------------------------------------------------------


class TestUnbiased:
    def test_values_in_the_biased_tail_are_rejected(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Rejection sampling: for n = 3, 2**64 % 3 == 1, so x = 2**64 - 1 (which would make 0
        more likely) must be rejected and the next attempt used; x = limit - 1 is accepted."""
        calls: list[int] = []
        answers = {0: 2**64 - 1, 1: 5}

        def fake_bits(seed: str, turn: int, draw_id: str, attempt: int) -> int:
            calls.append(attempt)
            return answers[attempt]

        monkeypatch.setattr(gdice, "_bits", fake_bits)
        assert seeded_int(SEED, 1, "x", 3) == 5 % 3
        assert calls == [0, 1]

        calls.clear()
        answers[0] = 2**64 - 2  # limit - 1 for n = 3: accepted
        assert seeded_int(SEED, 1, "x", 3) == (2**64 - 2) % 3
        assert calls == [0]

    def test_no_rejection_when_n_divides_2_64(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """For a power of two every 64-bit value is accepted (limit == 2**64)."""
        monkeypatch.setattr(gdice, "_bits", lambda *a: 2**64 - 1)
        assert seeded_int(SEED, 1, "x", 8) == 7

    @given(n=st.integers(min_value=1, max_value=2**64), key=st.text(max_size=20),
           turn=st.integers(min_value=0, max_value=10_000))
    @settings(max_examples=200)
    def test_seeded_int_always_in_range(self, n: int, key: str, turn: int) -> None:
        """seeded_int returns an integer in [0, n) for every n."""
        v = seeded_int(SEED, turn, key, n)
        assert isinstance(v, int) and 0 <= v < n

    def test_zero_or_negative_outcomes_is_an_error(self) -> None:
        """There is nothing to draw from fewer than one outcome."""
        for n in (0, -1):
            with pytest.raises(DiceError):
                seeded_int(SEED, 1, "x", n)
        with pytest.raises(DiceError):
            Dice(SEED, 1, "s").roll(0, 6, purpose="p", rule=RULE)

    def test_d6_frequencies_are_flat(self) -> None:
        """Every face equally likely: a chi-square test over 6000 seeded d6 (fixed seed, so the
        test is deterministic) stays under the 0.1% critical value (20.52 for 5 d.o.f.)."""
        counts = Counter(seeded_int(SEED, 1, f"flat/{i}", 6) for i in range(6000))
        assert set(counts) == set(range(6))
        chi2 = sum((c - 1000) ** 2 / 1000 for c in counts.values())
        assert chi2 < 20.52


# ---------------------------------------------------------------------------
# reproducibility and independence
# ---------------------------------------------------------------------------


class TestReproducible:
    def test_same_seed_and_draw_id_same_value(self) -> None:
        """A turn can be verified: the same seed, turn and draw id always give the same roll,
        whatever was drawn before in the step."""
        a = Dice(SEED, 3, "conquest")
        b = Dice(SEED, 3, "conquest")
        b.d(10, purpose="something else first", rule=RULE, key="other")
        ra = a.d(10, purpose="p", rule=RULE, key="attack/X/Red")
        rb = b.d(10, purpose="p", rule=RULE, key="attack/X/Red")
        assert ra == rb
        assert a.choice(list("abcdefg"), purpose="c", rule=RULE, key="c") == \
            b.choice(list("abcdefg"), purpose="c", rule=RULE, key="c")
        assert a.shuffle(list(range(10)), purpose="s", rule=RULE, key="s") == \
            b.shuffle(list(range(10)), purpose="s", rule=RULE, key="s")

    def test_for_step_keeps_seed_and_entered_and_restarts_numbering(self) -> None:
        """for_step: fresh dice for another step of the same turn (same seed, same entered)."""
        base = Dice(SEED, 5, "a", entered={"b:1": 4})
        other = base.for_step("b")
        assert (other.seed, other.turn, other.step) == (SEED, 5, "b")
        assert other.d(6, purpose="p", rule=RULE) == 4
        assert other.log[-1].source == ENTERED
        assert base.log == []

    def test_different_draw_ids_are_independent(self) -> None:
        """Different draw ids give values that behave as independent draws: two families of ids
        agree about 1 time in 10 on a d10, not always (and not never)."""
        n = 2000
        first = [seeded_int(SEED, 1, f"attack/{i}", 10) for i in range(n)]
        second = [seeded_int(SEED, 1, f"defend/{i}", 10) for i in range(n)]
        assert first != second
        agree = sum(a == b for a, b in zip(first, second))
        assert 0.07 * n < agree < 0.13 * n
        assert set(first) == set(range(10))

    def test_seed_and_turn_change_the_draws(self) -> None:
        """The seed and the turn are part of the derivation."""
        ids = [f"k{i}" for i in range(50)]
        base = [seeded_int(SEED, 1, k, 10**6) for k in ids]
        assert base != [seeded_int(OTHER_SEED, 1, k, 10**6) for k in ids]
        assert base != [seeded_int(SEED, 2, k, 10**6) for k in ids]

    def test_choice_respects_integer_weights(self) -> None:
        """choice with weights: a zero-weight option is never picked; the others are, in
        proportion (3:1 here)."""
        picks = Counter(Dice(SEED, 1, "w").choice(["a", "b", "never"], weights=[3, 1, 0],
                                                   purpose="p", rule=RULE, key=f"{i}")
                        for i in range(2000))
        assert picks["never"] == 0
        assert 0.70 < picks["a"] / 2000 < 0.80

    def test_choice_rejects_bad_weights(self) -> None:
        """choice: no options or weights that cannot make a draw are errors."""
        d = Dice(SEED, 1, "w")
        with pytest.raises(DiceError):
            d.choice([], purpose="p", rule=RULE)
        for w in ([0, 0], [1], [1, -1]):
            with pytest.raises(DiceError):
                d.choice(["a", "b"], weights=w, purpose="p", rule=RULE)

    def test_shuffle_is_a_permutation(self) -> None:
        """shuffle returns a permutation of the items (and different keys shuffle differently)."""
        d = Dice(SEED, 1, "s")
        items = list(range(20))
        outs = [d.shuffle(items, purpose="p", rule=RULE, key=str(i)) for i in range(5)]
        for out in outs:
            assert sorted(out) == items
        assert len({tuple(o) for o in outs}) > 1
        assert items == list(range(20))


# ---------------------------------------------------------------------------
# commitment
# ---------------------------------------------------------------------------


class TestCommitment:
    def test_commitment_is_sha256_of_the_hex_text(self) -> None:
        """commitment(seed) is sha256 of the seed's hex text, as posted before resolving."""
        assert commitment(SEED) == hashlib.sha256(SEED.encode("ascii")).hexdigest()

    def test_check_reveal(self) -> None:
        """check_reveal: the right seed matches (any case of the posted hash), another does not."""
        posted = commitment(SEED)
        assert check_reveal(SEED, posted)
        assert check_reveal(SEED, posted.upper())
        assert not check_reveal(OTHER_SEED, posted)
        assert not check_reveal(SEED, posted[:-1] + ("0" if posted[-1] != "0" else "1"))

    def test_new_seed_is_fresh_32_bytes(self) -> None:
        """new_seed: 32 random bytes as hex, a new one each time."""
        seeds = {new_seed() for _ in range(20)}
        assert len(seeds) == 20
        for s in seeds:
            assert len(bytes.fromhex(s)) == 32


# ---------------------------------------------------------------------------
# entered values and the log
# ---------------------------------------------------------------------------


class TestEntered:
    def test_entered_die_is_used_and_logged_as_entered(self) -> None:
        """Module docstring: a draw can be entered by the GM; the log says so."""
        d = Dice(SEED, 1, "war", entered={"war:attack": 7})
        assert d.d(10, purpose="attack", rule=RULE, key="attack") == 7
        assert d.d(10, purpose="defence", rule=RULE, key="defence") in range(1, 11)
        assert [(r.draw_id, r.source) for r in d.log] == [("war:attack#0", ENTERED),
                                                          ("war:defence#0", SEEDED)]
        assert d.log[0].result == [7] and d.log[0].total == 7
        assert d.log[0].expression == "1d10"

    def test_a_single_die_is_entered_under_its_bare_id_or_its_logged_id(self) -> None:
        """Module docstring: a single die is logged as '<id>#0'; the GM may enter it under that
        id or under the bare '<id>' (dice files written before), never under both."""
        d = Dice(SEED, 1, "war", entered={"war:attack#0": 4})
        assert d.d(10, purpose="attack", rule=RULE, key="attack") == 4
        assert (d.log[0].draw_id, d.log[0].source) == ("war:attack#0", ENTERED)
        assert d.log[0].entry_ids == ("war:attack#0", "war:attack")
        both = Dice(SEED, 1, "war", entered={"war:attack#0": 4, "war:attack": 5})
        with pytest.raises(DiceError, match="entered twice"):
            both.d(10, purpose="attack", rule=RULE, key="attack")

    def test_eleven_on_a_d10_names_the_draw(self) -> None:
        """Module docstring: an 11 on a d10 is an error, naming the draw."""
        d = Dice(SEED, 1, "war", entered={"war:attack/Tróys/Red": 11})
        with pytest.raises(DiceError, match="war:attack/Tróys/Red") as err:
            d.d(10, purpose="attack", rule=RULE, key="attack/Tróys/Red")
        assert "d10" in str(err.value) and "11" in str(err.value)
        assert d.log == []

    @pytest.mark.parametrize("bad", [0, -3, True, 2.0, "5"])
    def test_other_values_that_do_not_fit_a_die(self, bad: object) -> None:
        """An entered face must be an integer 1..sides (not 0, a bool, a float or text)."""
        d = Dice(SEED, 1, "s", entered={"s:k": bad})
        with pytest.raises(DiceError, match="s:k"):
            d.d(6, purpose="p", rule=RULE, key="k")

    def test_wrong_number_of_dice(self) -> None:
        """An entered NdK must give exactly N faces."""
        d = Dice(SEED, 1, "s", entered={"s:two": 4, "s:three": [1, 2], "s:ok": [2, 6]})
        with pytest.raises(DiceError, match="s:two"):
            d.roll(2, 6, purpose="p", rule=RULE, key="two")
        with pytest.raises(DiceError, match="s:three"):
            d.roll(3, 6, purpose="p", rule=RULE, key="three")
        assert d.roll(2, 6, purpose="p", rule=RULE, key="ok") == 8
        assert d.log[-1].result == [2, 6]

    def test_entered_choice_must_be_an_option(self) -> None:
        """An entered choice must be one of the options (with a positive weight)."""
        d = Dice(SEED, 1, "c", entered={"c:who": "Purple", "c:zero": "b", "c:ok": "Gold"})
        with pytest.raises(DiceError, match="c:who") as err:
            d.choice(["Red", "Gold"], purpose="p", rule=RULE, key="who")
        assert "Red" in str(err.value) and "Gold" in str(err.value)
        with pytest.raises(DiceError, match="c:zero"):
            d.choice(["a", "b"], weights=[1, 0], purpose="p", rule=RULE, key="zero")
        assert d.choice(["Red", "Gold"], purpose="p", rule=RULE, key="ok") == "Gold"
        assert d.log[-1].source == ENTERED

    def test_entered_choice_matches_by_label(self) -> None:
        """An entered choice may be the option's label (as read from a dice file)."""
        d = Dice(SEED, 1, "c", entered={"c:n": "20"})
        assert d.choice([10, 20, 30], purpose="p", rule=RULE, key="n") == 20

    @pytest.mark.parametrize("bad", [1, 1.0, -0.01, 2, True, "0.5", None])
    def test_entered_uniform_must_be_in_unit_interval(self, bad: object) -> None:
        """An entered uniform number must be a number in [0, 1)."""
        d = Dice(SEED, 1, "u", entered={"u:x": bad})
        with pytest.raises(DiceError, match="u:x"):
            d.uniform(purpose="p", rule=RULE, key="x")

    @pytest.mark.parametrize("good", [0, 0.0, 0.5, 0.999999])
    def test_entered_uniform_accepted(self, good: float) -> None:
        """A number in [0, 1) is accepted as entered and logged so."""
        d = Dice(SEED, 1, "u", entered={"u:x": good})
        assert d.uniform(purpose="p", rule=RULE, key="x") == float(good)
        assert d.log[-1].source == ENTERED

    def test_entered_shuffle_must_be_a_permutation(self) -> None:
        """An entered order must be a permutation of the items."""
        d = Dice(SEED, 1, "s", entered={"s:bad": ["a", "b", "b"], "s:ok": ["c", "a", "b"]})
        with pytest.raises(DiceError, match="s:bad"):
            d.shuffle(["a", "b", "c"], purpose="p", rule=RULE, key="bad")
        assert d.shuffle(["a", "b", "c"], purpose="p", rule=RULE, key="ok") == ["c", "a", "b"]

    def test_entered_shuffle_of_the_wrong_kind_is_a_dice_error(self) -> None:
        """Module docstring: an entered value is checked against the draw; a single number
        entered for a shuffle (as a dice file gives for '7') is a DiceError naming the draw,
        not a crash."""
        d = Dice(SEED, 1, "s", entered={"s:k": 7})
        with pytest.raises(DiceError, match="s:k"):
            d.shuffle(["a", "b"], purpose="p", rule=RULE, key="k")

    def test_log_records_every_draw_with_its_source(self) -> None:
        """Every draw goes into the roll log with turn, step, id, purpose, rule, expression,
        result and source."""
        d = Dice(SEED, 9, "st", entered={"st:2": 0.25})
        d.roll(2, 6, purpose="two dice", rule="R1", key="1")
        d.uniform(purpose="chance", rule="R2", key="2")
        d.choice(["x", "y"], purpose="pick", rule="R3", key="3", public=False)
        sources = [(r.turn, r.step, r.draw_id, r.rule, r.source, r.public) for r in d.log]
        assert sources == [(9, "st", "st:1", "R1", SEEDED, True),
                           (9, "st", "st:2", "R2", ENTERED, True),
                           (9, "st", "st:3", "R3", SEEDED, False)]
        assert d.log[1].expression == "U[0,1)" and d.log[1].result == 0.25
        assert d.log[2].expression == "choice(x, y)" and d.log[2].result in ("x", "y")


# ---------------------------------------------------------------------------
# the entered-dice file
# ---------------------------------------------------------------------------


class TestParseEntered:
    def test_values_and_comments(self) -> None:
        """parse_entered: an integer, several dice, a number in [0, 1), a label; '#' comments."""
        text = ("# dice rolled on the forum\n"
                "conquest:attack/Tróys/Red = 7   # the forum roller\n"
                "\n"
                "war:two = 3 5\n"
                "missions:chance = 0.42\n"
                "conquest:winner/Arles = Gold\n")
        assert parse_entered(text) == {"conquest:attack/Tróys/Red": 7, "war:two": [3, 5],
                                       "missions:chance": 0.42, "conquest:winner/Arles": "Gold"}

    def test_a_hash_inside_an_id_is_part_of_it(self) -> None:
        """parse_entered: a single die is printed as '<id>#0'; pasted into a dice file, its '#'
        is part of the id, while a '#' at the start of a line or after a space is a comment."""
        text = ("#0 a comment\n"
                "conquest:attack/Tróys/Red#0 = 7 #0 the forum roller\n")
        assert parse_entered(text) == {"conquest:attack/Tróys/Red#0": 7}

    @pytest.mark.parametrize("text,line", [
        ("a = 1\nno equals sign here\n", 2),
        ("a = 1\n\n# c\n = 4\n", 4),
        ("a =\n", 1),
        ("a = 1\nb = 2\na = 3\n", 3),
    ])
    def test_errors_name_the_line(self, text: str, line: int) -> None:
        """parse_entered: errors name the line."""
        with pytest.raises(DiceError) as err:
            parse_entered(text)
        assert str(err.value).startswith(f"line {line}:")

    def test_empty_file_enters_nothing(self) -> None:
        """A file of comments and blank lines enters no die."""
        assert parse_entered("# nothing\n\n   \n") == {}

    def test_never_crashes_otherwise(self) -> None:
        """parse_entered either reads the text or raises DiceError naming a line; the run
        meets both (the text includes lines shaped like ``draw = value``)."""
        cases = Cases("a die read", "a line refused")
        entry = st.tuples(st.text(max_size=12), st.one_of(st.integers(-5, 20).map(str),
                                                          st.text(max_size=6))).map(
            lambda kv: f"{kv[0]} = {kv[1]}")

        @given(st.one_of(st.text(max_size=200), st.lists(entry, max_size=4).map("\n".join)))
        @settings(max_examples=100)
        def check(text: str) -> None:
            cases.example()
            try:
                cases.met("a die read", bool(parse_entered(text)))
            except DiceError as e:
                assert str(e).startswith("line ")
                cases.met("a line refused")

        check()
        cases.check()


# ---------------------------------------------------------------------------
# exact distributions
# ---------------------------------------------------------------------------


class TestDistribution:
    def test_2d6_exact(self) -> None:
        """dice_distribution(2, 6): the exact triangle 1/36 .. 6/36 .. 1/36."""
        dist = dice_distribution(2, 6)
        assert dist == {s: Fraction(6 - abs(s - 7), 36) for s in range(2, 13)}
        assert sum(dist.values()) == 1

    def test_1d10_uniform_and_3d6_total(self) -> None:
        """One die is uniform; probabilities always sum to exactly 1."""
        assert dice_distribution(1, 10) == {s: Fraction(1, 10) for s in range(1, 11)}
        d3 = dice_distribution(3, 6)
        assert sum(d3.values()) == 1
        assert d3[3] == Fraction(1, 216) and d3[10] == Fraction(27, 216)

    def test_matches_seeded_frequencies(self) -> None:
        """Seeded 2d6 totals follow the exact distribution (within 3 percentage points over
        4000 rolls with a fixed seed)."""
        d = Dice(SEED, 1, "s")
        totals = Counter(d.roll(2, 6, purpose="p", rule=RULE, key=str(i)) for i in range(4000))
        for s, p in dice_distribution(2, 6).items():
            assert abs(totals[s] / 4000 - float(p)) < 0.03
