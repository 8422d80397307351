"""One action being resolved: who does it, when, with which dice, and the events it says.

:class:`Doing` carries what every action needs (the :class:`~gmkit.rulesets.aeternus.state.Table`,
the player, the posting time and its phase, the action's dice, the rules, whether the order was
secret) and makes its events: :meth:`Doing.event` for what happened, :meth:`Doing.fail` for an
action that cannot be taken (a :class:`~gmkit.core.dispatch.VoidAction`: it spends nothing and
says why, naming the line it came from).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from gmkit.core.dice import Dice
from gmkit.core.dispatch import VoidAction
from gmkit.core.params import Params
from gmkit.core.steps import Event
from gmkit.rulesets.aeternus.clock import action_points
from gmkit.rulesets.aeternus.coords import from_axial
from gmkit.rulesets.aeternus.rules import ACTIONS
from gmkit.rulesets.aeternus.state import Axial, Table


def hex_name(h: Axial) -> str:
    """An axial hex as the rules write it."""
    return str(from_axial(*h))


@dataclass
class Doing:
    """The action under way (see the module docstring)."""

    table: Table
    player: str
    when: datetime
    phase: int
    dice: Dice
    rules: Params
    secret: bool = False
    line: int = 0
    events: list[Event] = field(default_factory=list)

    @property
    def me(self) -> dict[str, Any]:
        """The player's row."""
        return self.table.players[self.player]

    @property
    def here(self) -> Axial:
        """The player's hex."""
        return (self.me["q"], self.me["r"])

    def event(self, kind: str, rule: str, text: str, where: Axial | None = None,
              **data: Any) -> None:
        """Record what happened (kept from public reports when the order was secret)."""
        self.events.append(Event(kind, rule, text, self.player,
                                 hex_name(where) if where is not None else None,
                                 public=not self.secret, data={"line": self.line, **data}))

    def fail(self, rule: str, reason: str) -> VoidAction:
        """An action that cannot be taken (raise the result): nothing is spent, and the
        dispatch's event says why (see :data:`gmkit.rulesets.aeternus.steps.ACT`)."""
        return VoidAction(rule, reason)

    def spend_ap(self, cost: int, rule: str, what: str) -> None:
        """Spend ``cost`` AP, or fail: AP never goes below zero (6)."""
        ap = int(self.me["ap"])
        if ap < cost:
            raise self.fail(rule, f"{what} costs {cost} AP and {self.player} has {ap} left")
        self.me["ap"] = ap - cost

    def percent(self, chance: int, purpose: str, rule: str, key: str) -> bool:
        """A d100 of ``chance`` or less (the roll logged with its purpose)."""
        if chance <= 0:
            return False
        if chance >= 100:
            return True
        roll = self.dice.d(100, purpose=f"{purpose} ({chance}%: {chance} or less)", rule=rule,
                           key=key, public=not self.secret, player=self.player)
        return roll <= chance

    def reputable(self, pid: str | None = None) -> bool:
        """Whether a player is reputable at the action's time (2)."""
        return is_reputable(self.table, pid or self.player, self.when)


def quality_score(table: Table, player: str) -> int:
    """S: the sum of the qualities of the unique medallion fish the player holds (7.3.2.1)."""
    unique = {(f["fish"], f["quality"]) for f in table.fish
              if f["player"] == player and f["quality"] > 0}
    return sum(q for _, q in unique)


def replenish(table: Table, player: str, phase: int, rules: Params) -> int | None:
    """At a player's first action of a phase, their AP become 2 + ⌊∛S⌋ (6); the new AP, or
    None when they were already replenished this phase."""
    me = table.players[player]
    if me["ap_phase"] >= phase:
        return None
    me["ap"] = action_points(quality_score(table, player), rules.ap_base)
    me["ap_phase"] = phase
    return int(me["ap"])


def is_reputable(table: Table, pid: str, when: datetime) -> bool:
    """2: a player for the previous seven days, or since within three days of the cycle's
    start, or declared reputable by two reputable players."""
    p = table.players.get(pid)
    if p is None or not p["active"]:
        return False
    joined = datetime.fromisoformat(p["joined"])
    rules = table.rules
    if joined <= table.cycle_start + timedelta(days=rules.founding_days):
        return True
    if when - joined >= timedelta(days=rules.reputable_days):
        return True
    return len(p["declared"] or []) >= 2
