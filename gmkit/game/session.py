"""A turn being resolved (:class:`TurnSession`) and what the workflow hands back: a post
stored, an import's report, the rolls and events of a turn as frames."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from gmkit.core.beacon import Beacon
from gmkit.core.dice import Roll
from gmkit.core.envelope import Orders
from gmkit.core.intake import ImportedPost
from gmkit.core.orders import OrderError, ParseResult
from gmkit.core.steps import Driver, Event
from gmkit.core.tables import EVENTS_SCHEMA, ROLLS_SCHEMA
from gmkit.core.tables import State
from gmkit.game.changes import GameError
from gmkit.game.turnreading import TurnReading


@dataclass(frozen=True)
class Received:
    """A post stored: its number, the turn it landed in, whose it is, and how it reads."""

    seq: int
    turn: int
    player: str
    parsed: ParseResult[Any]


class ImportRefused(GameError):
    """An import that stored nothing: ``problems`` names each file and message at fault."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__(f"nothing was imported: {len(problems)} problem(s) in the files; fix "
                         "them and import again")
        self.problems = list(problems)


@dataclass(frozen=True)
class ImportReport:
    """What an import stored: the turn its posts landed in, each post stored with its number
    (a message received before is not among them), and the notices for the GM."""

    turn: int
    stored: list[tuple[int, ImportedPost]]
    notices: list[str]


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def rolls_frame(rolls: Sequence[Roll]) -> pl.DataFrame:
    """Rolls as the roll-log table."""
    rows = []
    for r in rolls:
        total = r.total
        rows.append({"step": r.step, "draw_id": r.draw_id, "purpose": r.purpose, "rule": r.rule,
                     "expression": r.expression, "result": _json(r.result),
                     "total": float(total) if isinstance(total, (int, float)) else None,
                     "source": r.source, "public": r.public, "player": r.player,
                     "shared_with": list(r.shared_with) or None})
    return pl.DataFrame(rows, schema=dict(ROLLS_SCHEMA), orient="row") if rows else \
        pl.DataFrame(schema=dict(ROLLS_SCHEMA))


def events_frame(records: Sequence[tuple[str, Event]]) -> pl.DataFrame:
    """Events (with the step that made them) as the event-log table."""
    rows = [{"step": step, "kind": e.kind, "rule": e.rule, "text": e.text, "player": e.player,
             "region": e.region, "public": e.public, "data": _json(dict(e.data)),
             "shared_with": list(e.shared_with) or None}
            for step, e in records]
    return pl.DataFrame(rows, schema=dict(EVENTS_SCHEMA), orient="row") if rows else \
        pl.DataFrame(schema=dict(EVENTS_SCHEMA))


@dataclass
class TurnSession:
    """One turn being resolved: the posts read, their problems, and the step driver."""

    turn: int
    seed: str
    posts: pl.DataFrame
    parsed: dict[str, ParseResult[Any]]
    problems: dict[str, list[OrderError]]
    orders: Orders[Any]
    driver: Driver
    #: The public beacon mixed into the dice seed (None: the secret seed is the dice seed).
    beacon: Beacon | None = None
    #: The corrections applied to the state the turn starts from (see :mod:`gmkit.game.corrections`).
    corrections: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    #: The turn's reading (see :mod:`gmkit.game.turnreading`) its orders come from.
    reading: TurnReading | None = None

    @property
    def seqs(self) -> list[int]:
        """The sequence numbers of the posts this session read (exactly these are consumed by
        its commit)."""
        return sorted(int(s) for s in self.posts["seq"].to_list())

    @property
    def entered(self) -> dict[str, Any]:
        """The dice the GM entered for this turn."""
        return dict(self.driver.dice.entered)

    @property
    def unused_entered(self) -> list[str]:
        """Entered draw ids that no roll used so far (a typo in a dice file shows up here)."""
        used = {k for r in self.driver.rolls for k in r.entry_ids}
        return sorted(k for k in self.driver.dice.entered if k not in used)

    def result(self, turn_no: int) -> State:
        """The state after every step (running the rest if needed)."""
        self.driver.run_all()
        return self.driver.state.replace(turn=turn_no)
