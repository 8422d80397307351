"""A turn's resolution as an ordered list of named steps, and the driver that runs them.

A step is a pure function ``(state, orders, dice, rules) -> (state, events)``. The driver runs the
steps all at once or one at a time, keeping the state, events and rolls after each, so a GM can look
at every step, step back, change an order or a die and go forward again before committing.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gmkit.core.dice import Dice, Roll
from gmkit.core.params import Params
from gmkit.core.tables import State


@dataclass(frozen=True)
class Event:
    """Something that happened in a step, with the rule section it applies.

    ``public`` is False for what only the GM may see (a secret order's grain, a hidden roll).
    """

    kind: str
    rule: str
    text: str
    player: str | None = None
    region: str | None = None
    public: bool = True
    data: Mapping[str, Any] = field(default_factory=dict)


StepFn = Callable[[State, Mapping[str, Sequence[Any]], Dice, Params], tuple[State, list[Event]]]


@dataclass(frozen=True)
class Step:
    """One named resolution step citing its rule section."""

    name: str
    title: str
    rule: str
    fn: StepFn


@dataclass(frozen=True)
class StepRecord:
    """What one step did: the state before and after, its events and its rolls."""

    step: Step
    before: State
    after: State
    events: tuple[Event, ...]
    rolls: tuple[Roll, ...]


class Termination(enum.Enum):
    """How a game ended."""

    VICTORY = "victory"
    LAST_STANDING = "last standing"
    GM_DECLARED = "declared by the GM"
    TIME_LIMIT = "the game's time ran out"


@dataclass(frozen=True)
class Outcome:
    """The end of a game: how, who won, and why in words."""

    termination: Termination
    winners: tuple[str, ...]
    reason: str


class Driver:
    """Runs a turn's steps over a state, one at a time or all at once, and can step back."""

    def __init__(self, steps: Sequence[Step], state: State, orders: Mapping[str, Sequence[Any]],
                 dice: Dice, rules: Params):
        self.steps = list(steps)
        self.start = state
        self.orders = orders
        self.dice = dice
        self.rules = rules
        self.records: list[StepRecord] = []

    @property
    def done(self) -> bool:
        """True when every step has run."""
        return len(self.records) == len(self.steps)

    @property
    def state(self) -> State:
        """The state after the last step run (the start state before any)."""
        return self.records[-1].after if self.records else self.start

    @property
    def next_step(self) -> Step | None:
        """The step that :meth:`next` would run."""
        return None if self.done else self.steps[len(self.records)]

    def next(self) -> StepRecord:
        """Run the next step and keep its record."""
        step = self.next_step
        if step is None:
            raise RuntimeError("every step has run already")
        dice = self.dice.for_step(step.name)
        before = self.state
        after, events = step.fn(before, self.orders, dice, self.rules)
        record = StepRecord(step, before, after, tuple(events), tuple(dice.log))
        self.records.append(record)
        return record

    def back(self) -> StepRecord | None:
        """Undo the last step run; returns its record (None when none had run)."""
        return self.records.pop() if self.records else None

    def run_all(self) -> list[StepRecord]:
        """Run every remaining step."""
        while not self.done:
            self.next()
        return self.records

    def restart(self, *, orders: Mapping[str, Sequence[Any]] | None = None,
                entered: Mapping[str, Any] | None = None) -> None:
        """Go back to the start, optionally with changed orders or entered dice."""
        self.records.clear()
        if orders is not None:
            self.orders = orders
        if entered is not None:
            self.dice = Dice(self.dice.seed, self.dice.turn, entered=dict(entered))

    @property
    def events(self) -> list[Event]:
        """Every event of the steps run so far, in order."""
        return [e for r in self.records for e in r.events]

    @property
    def rolls(self) -> list[Roll]:
        """Every roll of the steps run so far, in order."""
        return [x for r in self.records for x in r.rolls]
