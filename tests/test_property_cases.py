"""The counting of a property test's cases (tests/cases.py): a run that met none of a case
fails, naming it; an unknown case is a mistake in the test."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.cases import Cases


def test_a_run_that_never_met_its_case_fails_naming_it() -> None:
    cases = Cases("an even number", "a number above a million")

    @settings(max_examples=20, database=None)
    @given(st.integers(0, 100))
    def check(n: int) -> None:
        cases.example()
        cases.met("an even number", n % 2 == 0)
        cases.met("a number above a million", n > 10**6)

    check()
    with pytest.raises(AssertionError, match="never met: a number above a million$"):
        cases.check()
    assert cases.counts["an even number"] > 0


def test_a_case_not_named_is_refused() -> None:
    with pytest.raises(KeyError, match="no case 'odd'"):
        Cases("even").met("odd")
