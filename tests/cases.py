"""The cases a property test is about, counted over its run, so that a run which met none of
them (a strategy that never reaches the case, a guard that is never true) fails instead of
passing without checking anything.

A property test names its cases, marks each example that meets one, and checks at the end::

    def test_a_dead_character_never_acts():
        cases = Cases("died with an action to come")

        @given(...)
        def check(...):
            ...
            cases.met("died with an action to come", pending)

        check()
        cases.check()
"""

from __future__ import annotations

from collections import Counter


class Cases:
    """How many examples of a property test's run met each of its cases."""

    def __init__(self, *names: str) -> None:
        self.counts: Counter[str] = Counter({name: 0 for name in names})
        self.examples = 0

    def met(self, name: str, happened: bool = True) -> bool:
        """Count ``name`` as met by the current example when ``happened``; returns it."""
        if name not in self.counts:
            raise KeyError(f"no case {name!r} (cases: {', '.join(self.counts)})")
        self.counts[name] += bool(happened)
        return happened

    def example(self) -> None:
        """Count one example run (for the message when a case was never met)."""
        self.examples += 1

    def check(self) -> None:
        """Fail naming every case that no example met."""
        missing = [name for name, n in self.counts.items() if n == 0]
        assert not missing, (f"in {self.examples} examples the property never met: "
                             + "; ".join(missing))
