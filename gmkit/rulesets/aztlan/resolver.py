"""Kruijswijk's guess-and-check resolution of yes/no decisions that depend on each other.

A decision is worked out by a function that may ask for other decisions.  When one turns out to
depend on itself it is guessed both ways; if both guesses give the same answer that is the
answer, otherwise the cycle goes to a backup rule, which settles some of its decisions before
the rest is worked out again.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Decision", "Resolver"]

#: A decision: ("cut", support's force id) or ("wins", attack's force id).
Decision = tuple[str, int]


class Resolver:
    """Kruijswijk's guess-and-check resolution of interdependent yes/no decisions."""

    def __init__(self, adjudicate: Callable[[Decision], bool],
                 backup: Callable[[list[Decision]], dict[Decision, bool]]) -> None:
        self._adjudicate = adjudicate
        self._backup = backup
        self._state: dict[Decision, str] = {}
        self._value: dict[Decision, bool] = {}
        self._deps: list[Decision] = []

    def __call__(self, d: Decision) -> bool:
        state = self._state.get(d)
        if state == "resolved":
            return self._value[d]
        if state == "guessing":
            if d not in self._deps:
                self._deps.append(d)
            return self._value[d]
        mark = len(self._deps)
        self._state[d], self._value[d] = "guessing", False
        first = self._adjudicate(d)
        if len(self._deps) == mark:
            self._settle(d, first)
            return first
        if self._deps[mark] != d:
            # Part of a larger cycle still being guessed: keep the guess open.
            self._deps.append(d)
            self._value[d] = first
            return first
        self._reopen(mark)
        self._state[d], self._value[d] = "guessing", True
        second = self._adjudicate(d)
        if first == second:
            self._reopen(mark)
            self._settle(d, first)
            return first
        cycle = list(dict.fromkeys([d, *self._deps[mark:]]))
        self._reopen(mark)
        for decision, value in self._backup(cycle).items():
            self._settle(decision, value)
        return self(d)

    def _settle(self, d: Decision, value: bool) -> None:
        self._state[d], self._value[d] = "resolved", value

    def _reopen(self, mark: int) -> None:
        for d in self._deps[mark:]:
            self._state.pop(d, None)
        del self._deps[mark:]
