"""A turn's resolution as an ordered list of named steps, and the driver that runs them.

A step is a pure function ``(state, orders, dice, rules) -> (state, events)``; ``orders`` are the
turn's accepted :class:`~gmkit.core.envelope.Orders`. A step may instead run once per actor
(a player, a character, a unit): its ``actors`` function fixes, when the step begins, who acts
and in what order (from the state and the orders, ties broken by a logged draw; see
:mod:`gmkit.core.flow`), and its ``act`` function resolves one actor's action. Steps may belong to
named phases of the turn (a morning, an afternoon).

The driver runs the turn all at once or one unit at a time (a step, the ordering of a per-actor
step, one actor's action), keeping the state, events and rolls after each, so a GM can look at
every unit, step back, change an order or a die and go forward again before committing.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gmkit.core.dice import Dice, Roll
from gmkit.core.envelope import Orders
from gmkit.core.params import Params
from gmkit.core.tables import State


@dataclass(frozen=True)
class Event:
    """Something that happened in a step, with the rule section it applies.

    ``public`` is False for what only the GM may see (a secret order's grain, a hidden roll),
    with the player it concerns (``player``) and any other players it also concerns
    (``shared_with``: two houses that join both see what joining did to them).
    """

    kind: str
    rule: str
    text: str
    player: str | None = None
    region: str | None = None
    public: bool = True
    data: Mapping[str, Any] = field(default_factory=dict)
    shared_with: tuple[str, ...] = ()


#: The kind of an event that says an accepted order turned out void when its turn came.
VOID = "void"


@dataclass(frozen=True)
class Routine:
    """Events a reader need not read one by one, counted in one line (see :func:`condensed`):
    ``label`` names the group, ``events`` are its events in order."""

    label: str
    events: tuple[Event, ...]

    @property
    def public(self) -> bool:
        """Whether everyone may see the line (every event of it is public)."""
        return all(e.public for e in self.events)

    @property
    def text(self) -> str:
        """``57 × armies stand, not attacked (5.7): Aztecs 6, Tlaxcalans 5, ...``"""
        counts: dict[str, int] = {}
        for e in self.events:
            counts[e.player or "-"] = counts.get(e.player or "-", 0) + 1
        return (f"{len(self.events)} × {self.label}: "
                + ", ".join(f"{who} {n}" for who, n in counts.items()))


def condensed(events: Sequence[Event], routine: Callable[[Event], str | None] | None
              ) -> list[Event | Routine]:
    """A step's events as a listing shows them: the events a reader need not read one by one
    (``routine(event)`` names their group, see :attr:`~gmkit.core.parts.Presentation.routine`)
    gathered in one :class:`Routine` where their group first appears; every other event as it
    is, in order."""
    if routine is None:
        return list(events)
    groups: dict[str, list[Event]] = {}
    slots: list[Event | str] = []
    for event in events:
        label = routine(event)
        if label is None:
            slots.append(event)
        elif label in groups:
            groups[label].append(event)
        else:
            groups[label] = [event]
            slots.append(label)
    return [Routine(slot, tuple(groups[slot])) if isinstance(slot, str) else slot
            for slot in slots]


def void_event(player: str | None, rule: str, reason: str, *, line: int | None = None,
               order: str = "", region: str | None = None, public: bool = False,
               **data: Any) -> Event:
    """An accepted order that turns out void when its turn comes, told to its player: the
    event names the line of the player's post it came from, why it is void, and (as its
    ``rule``) the rule that voids it. It is the player's own business unless ``public`` (the GM
    and the player see it; a ruleset shares it further with ``dataclasses.replace``)."""
    where = f"line {line}" if line else "an order"
    what = f" ({order})" if order else ""
    text = f"{player + ': ' if player else ''}{where}{what} is void: {reason}."
    return Event(VOID, rule, text, player, region, public=public,
                 data={"line": line, "reason": reason, **data})


StepFn = Callable[[State, Orders[Any], Dice, Params], tuple[State, list[Event]]]
#: Who acts in a per-actor step, in order, and the events that say so (the order is logged).
ActorsFn = Callable[[State, Orders[Any], Dice, Params], tuple[list[str], list[Event]]]
#: One actor's action in a per-actor step.
ActFn = Callable[[State, Orders[Any], Dice, Params, str], tuple[State, list[Event]]]


def _no_fn(state: State, orders: Orders[Any], dice: Dice,
           rules: Params) -> tuple[State, list[Event]]:
    raise RuntimeError("a per-actor step runs through its actors and act functions")


@dataclass(frozen=True)
class Step:
    """One named resolution step citing its rule section: ``fn`` once, or, with ``actors`` and
    ``act``, once per actor in the order ``actors`` fixes when the step begins. ``phase`` names
    the part of the turn it belongs to (empty for a turn without phases)."""

    name: str
    title: str
    rule: str
    fn: StepFn = _no_fn
    actors: ActorsFn | None = None
    act: ActFn | None = None
    phase: str = ""

    def __post_init__(self) -> None:
        if (self.actors is None) != (self.act is None):
            raise ValueError(f"step {self.name}: a per-actor step needs both actors and act")
        if self.actors is None and self.fn is _no_fn:
            raise ValueError(f"step {self.name}: a step needs fn, or actors and act")

    @property
    def per_actor(self) -> bool:
        """Whether the step runs once per actor."""
        return self.actors is not None


@dataclass(frozen=True)
class StepRecord:
    """What one unit of the turn did: the state before and after, its events and its rolls.
    For a per-actor step, one record fixes the order (``actors``) and one per actor follows
    (``actor``)."""

    step: Step
    before: State
    after: State
    events: tuple[Event, ...]
    rolls: tuple[Roll, ...]
    actor: str | None = None
    actors: tuple[str, ...] | None = None

    @property
    def title(self) -> str:
        """The unit's title: the step's, with the actor for an action."""
        if self.actor is not None:
            return f"{self.step.title}: {self.actor}"
        if self.actors is not None:
            return f"{self.step.title}: order of play"
        return self.step.title


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


#: The rules in force for a unit, from the turn's start state and the unit's (a rule the turn
#: enacted may take effect at once): see :meth:`gmkit.core.ruleset.Ruleset.rules_at`.
RulesAt = Callable[[State, State], Params]


class Driver:
    """Runs a turn's steps over a state, one at a time or all at once, and can step back.

    ``rules`` are the turn's rules; ``rules_at``, when given, says which rules each unit
    resolves with (the turn's, with what the turn enacted at once since its start)."""

    def __init__(self, steps: Sequence[Step], state: State, orders: Mapping[str, Sequence[Any]],
                 dice: Dice, rules: Params, rules_at: RulesAt | None = None):
        self.steps = list(steps)
        self.start = state
        self.orders = Orders.plain(orders)
        self.dice = dice
        self.rules = rules
        self.rules_at = rules_at
        self.records: list[StepRecord] = []

    def _position(self) -> tuple[int, tuple[str, ...] | None, int]:
        """Where the turn stands: the index of the step to run next, and for a per-actor step
        its actors (None before they are fixed) and how many have acted."""
        k = 0
        for i, step in enumerate(self.steps):
            if not step.per_actor:
                if k == len(self.records):
                    return i, None, 0
                k += 1
                continue
            if k == len(self.records):
                return i, None, 0
            actors = self.records[k].actors or ()
            k += 1
            acted = min(len(actors), len(self.records) - k)
            k += acted
            if acted < len(actors):
                return i, actors, acted
        return len(self.steps), None, 0

    @property
    def done(self) -> bool:
        """True when every step (and every actor of a per-actor step) has run."""
        return self._position()[0] == len(self.steps)

    @property
    def state(self) -> State:
        """The state after the last unit run (the start state before any)."""
        return self.records[-1].after if self.records else self.start

    @property
    def next_step(self) -> Step | None:
        """The step that :meth:`next` would run (or go on with)."""
        i = self._position()[0]
        return None if i == len(self.steps) else self.steps[i]

    @property
    def next_actor(self) -> str | None:
        """The actor whose action :meth:`next` would resolve (None when the next unit is not an
        action, or before a per-actor step has fixed its order)."""
        _, actors, acted = self._position()
        return actors[acted] if actors is not None else None

    @property
    def phase(self) -> str:
        """The phase of the turn the next unit belongs to (empty when done or phaseless)."""
        step = self.next_step
        return step.phase if step is not None else ""

    def next(self) -> StepRecord:
        """Run the next unit (a step, the ordering of a per-actor step, or one actor's action)
        and keep its record."""
        i, actors, acted = self._position()
        if i == len(self.steps):
            raise RuntimeError("every step has run already")
        step = self.steps[i]
        before = self.state
        rules = self.rules if self.rules_at is None else self.rules_at(self.start, before)
        if not step.per_actor:
            dice = self.dice.for_step(step.name)
            after, events = step.fn(before, self.orders, dice, rules)
            record = StepRecord(step, before, after, tuple(events), tuple(dice.log))
        elif actors is None:
            assert step.actors is not None
            dice = self.dice.for_step(step.name)
            order, events = step.actors(before, self.orders, dice, rules)
            record = StepRecord(step, before, before, tuple(events), tuple(dice.log),
                                actors=tuple(order))
        else:
            assert step.act is not None
            actor = actors[acted]
            dice = self.dice.for_step(step.name, scope=actor)
            after, events = step.act(before, self.orders, dice, rules, actor)
            record = StepRecord(step, before, after, tuple(events), tuple(dice.log), actor=actor)
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
            self.orders = Orders.plain(orders)
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
