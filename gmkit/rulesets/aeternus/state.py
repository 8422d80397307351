"""Aeternus's state tables, the set-up of the cycle, and :class:`Table`: the state as Python
values while one action is resolved.

The tables (:data:`SCHEMAS`):

* ``players``: each player's hex (axial ``q``, ``r``), faction, AP and the phase they were last
  replenished in, when they joined (and left), whether two reputable players declared them
  reputable, and the phase a stagway journey ended their actions in;
* ``items``: what each inventory holds (resources and crafted items, 7); ``fish``: each fish
  caught, its kind and quality (0 for a standard fish, 7.3);
* ``world``: every generated hex (``world.WORLD_SCHEMA``); ``flags``: each flag's faction
  (5.3.3.2); ``seen``: the hexes each player has seen (their fog);
* ``qualities``: the named medallion qualities (7.3.2.1);
* the ledger: ``proposals``, ``votes``, ``rule_changes`` (an accepted proposal's effect on the
  rules, for the GM to enter as rule values), ``merges`` and ``merge_votes`` (2.1.1),
  ``trades`` (7.1.1);
* ``clock``: the time of the latest action resolved and its phase number;
* the Judge (3.2): ``judge`` (the incumbent), ``requests``, ``rulings``, ``confidence`` (votes of
  confidence), ``candidacies`` and ``judge_votes``.

A step turns the state into a :class:`Table` (:meth:`Table.of`), resolves an action on it, and
writes it back (:meth:`Table.state`): frames are values, the table is the action's scratch pad.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

import polars as pl

from gmkit.core.boards.hexgrid import Hex
from gmkit.core.dice import Dice
from gmkit.core.params import Params
from gmkit.core.players import PlayerInfo
from gmkit.core.tables import Schema, State
from gmkit.rulesets.aeternus.clock import parse_time, phase_number, time_text
from gmkit.rulesets.aeternus.constants import LAKE, LANDMARK_ORDER
from gmkit.rulesets.aeternus.coords import AXIAL_STEPS
from gmkit.rulesets.aeternus.rules import NAMED_QUALITIES, PYLON_F
from gmkit.rulesets.aeternus.world import BIOME_ORDER, WORLD_SCHEMA, World

Axial = tuple[int, int]

SCHEMAS: dict[str, Schema] = {
    "players": {"id": pl.String, "name": pl.String, "faction": pl.String, "q": pl.Int64,
                "r": pl.Int64, "active": pl.Boolean, "joined": pl.String,
                "left_at": pl.String, "declared": pl.List(pl.String), "ap": pl.Int64,
                "ap_phase": pl.Int64, "stag_phase": pl.Int64},
    "items": {"player": pl.String, "item": pl.String, "count": pl.Int64},
    "fish": {"player": pl.String, "fish": pl.String, "quality": pl.Int64,
             "caught_turn": pl.Int64},
    "world": WORLD_SCHEMA,
    "flags": {"q": pl.Int64, "r": pl.Int64, "faction": pl.String},
    "seen": {"player": pl.String, "q": pl.Int64, "r": pl.Int64},
    "qualities": {"quality": pl.Int64, "name": pl.String, "named_by": pl.String},
    "proposals": {"id": pl.Int64, "author": pl.String, "urgent": pl.Boolean, "text": pl.String,
                  "posted_at": pl.String, "ends": pl.String, "status": pl.String,
                  "votes_for": pl.Int64, "votes_against": pl.Int64, "edited": pl.Boolean,
                  "discord_message": pl.String},
    "votes": {"proposal": pl.Int64, "player": pl.String, "vote": pl.String,
              "posted_at": pl.String},
    "rule_changes": {"proposal": pl.Int64, "rule_name": pl.String, "value": pl.String,
                     "from_phase": pl.Int64},
    "merges": {"id": pl.Int64, "requester": pl.String, "faction_a": pl.String,
               "faction_b": pl.String, "new_name": pl.String, "posted_at": pl.String,
               "status": pl.String},
    "merge_votes": {"merge": pl.Int64, "player": pl.String, "vote": pl.String},
    "trades": {"id": pl.Int64, "player": pl.String, "partner": pl.String, "gives": pl.String,
               "gets": pl.String, "posted_at": pl.String, "status": pl.String},
    "clock": {"now": pl.String, "phase": pl.Int64},
    "judge": {"judge": pl.String, "since": pl.String},
    "requests": {"id": pl.Int64, "player": pl.String, "text": pl.String,
                 "posted_at": pl.String, "ruling": pl.Int64},
    "rulings": {"id": pl.Int64, "request": pl.Int64, "judge": pl.String, "text": pl.String,
                "posted_at": pl.String, "status": pl.String},
    "confidence": {"id": pl.Int64, "ruling": pl.Int64, "posted_at": pl.String,
                   "ends": pl.String, "status": pl.String, "affirm": pl.Int64,
                   "overturn": pl.Int64},
    "candidacies": {"id": pl.Int64, "player": pl.String, "posted_at": pl.String,
                    "week": pl.Int64, "status": pl.String, "discord_message": pl.String},
    "judge_votes": {"kind": pl.String, "target": pl.Int64, "player": pl.String,
                    "vote": pl.String, "posted_at": pl.String},
}

#: Tables kept as lists of row dicts in a :class:`Table`.
_ROW_TABLES = ("proposals", "votes", "rule_changes", "merges", "merge_votes", "trades", "fish",
               "requests", "rulings", "confidence", "candidacies", "judge_votes")
#: The values an action hands to the next one with the world (``State.carry``).
_CARRIED = ("players", "items", "flags", "seen", "qualities", "clock", "judge", *_ROW_TABLES)


class SetupError(ValueError):
    """A player list that cannot start a cycle of Aeternus."""


def setup(players: Sequence[PlayerInfo], rules: Params) -> State:
    """Phase 0: every player on the origin (5), Meadow and Barren, each their own faction
    (2.1), AP not yet replenished (the first action of a phase does it)."""
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise SetupError(f"a player is listed twice: {', '.join(sorted(ids))}")
    start = time_text(parse_time(rules.cycle_start))
    world = World.new(rules, 0)
    table = Table(world=world, rules=rules)
    for p in players:
        table.players[p.id] = {"id": p.id, "name": p.name, "faction": p.id, "q": 0, "r": 0,
                               "active": True, "joined": start, "left_at": None,
                               "declared": [], "ap": 0, "ap_phase": -1, "stag_phase": -1}
        table.seen.setdefault(p.id, set()).add((0, 0))
    table.qualities = {i + 1: (n, "") for i, n in enumerate(NAMED_QUALITIES)}
    table.clock = {"now": start, "phase": 0}
    table.judge = {"judge": rules.first_judge or None, "since": start}
    return table.state(0)


#: The key under which a state carries its world to the next action (:meth:`State.carry`).
CARRIED_WORLD = "aeternus/world"


_TAGS: dict[int, tuple[Params, str]] = {}


def _rules_tag(rules: Params) -> str:
    """The rule values a carried world was made with (a world is only taken under the same);
    worked out once per rules object (asked twice an action)."""
    got = _TAGS.get(id(rules))
    if got is None or got[0] is not rules:
        if len(_TAGS) > 64:
            _TAGS.clear()
        got = _TAGS[id(rules)] = (rules, repr(sorted((n, repr(rules[n])) for n in rules)))
    return got[1]


@dataclass
class Table:
    """The state while one action is resolved: plain Python values, written back as frames.

    ``dice`` are the action's dice; the world's generation draws are added to their log as they
    are made, so each draw is logged once, with the action that generated the hex."""

    world: World
    rules: Params
    players: dict[str, dict[str, Any]] = field(default_factory=dict)
    items: dict[str, dict[str, int]] = field(default_factory=dict)
    fish: list[dict[str, Any]] = field(default_factory=list)
    flags: dict[Axial, str] = field(default_factory=dict)
    seen: dict[str, set[Axial]] = field(default_factory=dict)
    qualities: dict[int, tuple[str, str]] = field(default_factory=dict)
    proposals: list[dict[str, Any]] = field(default_factory=list)
    votes: list[dict[str, Any]] = field(default_factory=list)
    rule_changes: list[dict[str, Any]] = field(default_factory=list)
    merges: list[dict[str, Any]] = field(default_factory=list)
    merge_votes: list[dict[str, Any]] = field(default_factory=list)
    trades: list[dict[str, Any]] = field(default_factory=list)
    clock: dict[str, Any] = field(default_factory=dict)
    judge: dict[str, Any] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)
    rulings: list[dict[str, Any]] = field(default_factory=list)
    confidence: list[dict[str, Any]] = field(default_factory=list)
    candidacies: list[dict[str, Any]] = field(default_factory=list)
    judge_votes: list[dict[str, Any]] = field(default_factory=list)
    dice: Dice | None = None
    #: Each table last made as a frame, with the rows it was made from (so a table an action
    #: left as it was is not made again).
    made: dict[str, tuple[str, pl.DataFrame]] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, state: State, rules: Params, dice: Dice | None = None) -> Table:
        """The state's tables as values."""
        carried = state.take(CARRIED_WORLD)  # what the action before left, if anything
        if carried is not None and carried[0] == _rules_tag(rules):
            # the world and every value as the action before left them: the frames of
            # ``state`` were made from them, and no other action will take them
            return cls(world=carried[1], rules=rules, dice=dice, made=carried[2], **carried[3])
        t = cls(world=World.from_frame(state["world"], rules), rules=rules, dice=dice)
        for r in state["seen"].iter_rows(named=True):
            t.seen.setdefault(r["player"], set()).add((r["q"], r["r"]))
        t.players = {r["id"]: r for r in state["players"].iter_rows(named=True)}
        for r in state["items"].iter_rows(named=True):
            t.items.setdefault(r["player"], {})[r["item"]] = r["count"]
        t.flags = {(r["q"], r["r"]): r["faction"] for r in state["flags"].iter_rows(named=True)}
        t.qualities = {r["quality"]: (r["name"], r["named_by"])
                       for r in state["qualities"].iter_rows(named=True)}
        for name in _ROW_TABLES:
            setattr(t, name, state[name].to_dicts())
        clock = state["clock"].to_dicts()
        t.clock = clock[0] if clock else {"now": rules.cycle_start, "phase": 0}
        judge = state["judge"].to_dicts()
        t.judge = judge[0] if judge else {"judge": None, "since": rules.cycle_start}
        return t

    def state(self, turn: int) -> State:
        """The tables as frames again (a table whose rows are as they were when it was last
        made is not made again)."""
        made: dict[str, tuple[str, pl.DataFrame]] = {}

        def table(name: str, rows: list[dict[str, Any]] | None, key: str | None = None
                  ) -> pl.DataFrame:
            key = repr(rows) if key is None else key
            old = self.made.get(name)
            if old is not None and old[0] == key:
                frame = old[1]
            else:
                frame = _frame(rows if rows is not None else self._seen_rows(), name)
            made[name] = (key, frame)
            return frame

        items = sorted((p, i, n) for p, inv in self.items.items() for i, n in inv.items() if n)
        flags = sorted((q, r, f) for (q, r), f in self.flags.items())
        tables = {
            "players": table("players", [self.players[k] for k in self.players]),
            "items": table("items", [{"player": p, "item": i, "count": n}
                                     for p, i, n in items]),
            "world": self.world.frame(),
            "flags": table("flags", [{"q": q, "r": r, "faction": f} for q, r, f in flags]),
            # hexes are only ever added to what a player has seen (:meth:`see`): how many each
            # has seen tells whether the table changed, without listing them every action
            "seen": table("seen", None, repr(sorted((p, len(h)) for p, h in self.seen.items()))),
            "qualities": table("qualities", [{"quality": k, "name": n, "named_by": b}
                                             for k, (n, b) in sorted(self.qualities.items())]),
            "clock": table("clock", [self.clock]),
            "judge": table("judge", [self.judge]),
        }
        for name in _ROW_TABLES:
            tables[name] = table(name, getattr(self, name))
        self.made = made
        values = {name: getattr(self, name) for name in _CARRIED}
        return State(turn, tables).carry(CARRIED_WORLD, (_rules_tag(self.rules), self.world,
                                                         self.made, values))

    def _seen_rows(self) -> list[dict[str, Any]]:
        return [{"player": p, "q": q, "r": r}
                for p, q, r in sorted((p, q, r) for p, hexes in self.seen.items()
                                      for q, r in hexes)]

    # -- the clock ---------------------------------------------------------------------------
    @property
    def cycle_start(self) -> datetime:
        """When the cycle began."""
        return parse_time(self.rules.cycle_start)

    def phase_of(self, t: datetime) -> int:
        """The phase number of a time (1.2)."""
        return phase_number(t, self.cycle_start)

    # -- inventories -------------------------------------------------------------------------
    def count(self, player: str, item: str) -> int:
        """How many of ``item`` the player holds."""
        return self.items.get(player, {}).get(item, 0)

    def has(self, player: str, cost: dict[str, int]) -> bool:
        """Whether the player holds every item of ``cost``."""
        return all(self.count(player, i) >= n for i, n in cost.items())

    def gain(self, player: str, item: str, n: int = 1) -> None:
        """Create ``n`` of ``item`` in the player's inventory (7)."""
        inv = self.items.setdefault(player, {})
        inv[item] = inv.get(item, 0) + n

    def spend(self, player: str, cost: dict[str, int]) -> None:
        """Destroy the items of ``cost`` from the player's inventory."""
        inv = self.items.setdefault(player, {})
        for i, n in cost.items():
            inv[i] = inv.get(i, 0) - n
            if inv[i] < 0:
                raise ValueError(f"{player} spends {n} {i} without holding them")

    # -- the world -----------------------------------------------------------------------------
    def index(self, h: Axial) -> int | None:
        """A hex's generation order, None while indeterminate."""
        return self.world.index.get(h)

    def generate(self, h: Axial) -> list[int]:
        """Generate ``h`` if indeterminate (5.3) with the action's dice, logging the draws, and
        keep every hex next to a Pylon of Purity clean (5.3.3.3)."""
        dice = self.dice
        if dice is None:
            raise RuntimeError("generating a hex needs the action's dice")
        start = len(self.world.log)
        made = self.world.generate(h, seed=dice.seed, turn=dice.turn, entered=dice.entered)
        actor = dice.scope or dice.step
        player = actor.rsplit(".", 1)[0] if "." in actor else None
        dice.log.extend(replace(r, purpose=f"{r.purpose}, generated by {actor}", player=player)
                        for r in self.world.log.rolls(start))
        drawn = {rec[0]: rec[14] for rec in self.world.log.records[start:]}
        for i in made:
            if self.world.corrupted[i] and self.protected((self.world.q[i], self.world.r[i])):
                # 5.3.3.3: the corruption fails; the landmark stays as drawn
                self.world.corrupted[i] = False
                self.world.landmark[i] = drawn[i]
        return made

    def biome(self, h: Axial) -> str:
        """The biome of a generated hex."""
        return BIOME_ORDER[self.world.biome[self.world.index[h]]]

    def landmark(self, h: Axial) -> str:
        """The landmark of a generated hex."""
        return LANDMARK_ORDER[self.world.landmark[self.world.index[h]]]

    def features(self, h: Axial) -> tuple[str, ...]:
        """The features of a generated hex other than Corrupted."""
        return self.world.features[self.world.index[h]]

    def corrupted(self, h: Axial) -> bool:
        """Whether a generated hex is corrupt."""
        return self.world.corrupted[self.world.index[h]]

    def protected(self, h: Axial) -> bool:
        """Whether a Pylon of Purity stands on or next to ``h`` (5.3.3.3)."""
        for c in (h, *neighbours(h)):
            i = self.world.index.get(c)
            if i is not None and PYLON_F in self.world.features[i]:
                return True
        return False

    def corrupt(self, h: Axial) -> bool:
        """Corrupt a generated hex (5.3.3.1) unless a pylon protects it: its landmark becomes
        Barren, its features and flag go. True when it became corrupt."""
        if self.protected(h) or not self.world.corrupt(h):
            return False
        self.flags.pop(h, None)
        return True

    def add_feature(self, h: Axial, feature: str) -> None:
        """Add a feature to a generated hex."""
        i = self.world.index[h]
        self.world.features[i] = tuple(sorted({*self.world.features[i], feature}))

    def remove_feature(self, h: Axial, feature: str) -> None:
        """Remove a feature (and the flag's owner with a Flag)."""
        i = self.world.index[h]
        self.world.features[i] = tuple(f for f in self.world.features[i] if f != feature)
        if feature == "Flag":
            self.flags.pop(h, None)

    def is_lake(self, h: Axial) -> bool:
        """Whether a generated hex is a Lake."""
        return self.biome(h) == LAKE

    def see(self, player: str, *hexes: Axial) -> None:
        """The player has seen these hexes (and their neighbours' generated state)."""
        self.seen.setdefault(player, set()).update(hexes)

    def mass(self, h: Axial) -> tuple[int, int]:
        """The mass of a generated hex: (id, size)."""
        return self.world.mass_of(h)

    def now(self) -> datetime:
        """The clock's time."""
        return parse_time(str(self.clock["now"]))


def neighbours(h: Axial) -> tuple[Axial, ...]:
    """The six neighbours of an axial hex, in the rules' direction order."""
    q, r = h
    return tuple((q + dq, r + dr) for dq, dr in AXIAL_STEPS)


def axial(h: Hex) -> Axial:
    """A core hex as an axial pair."""
    return (h.q, h.r)


def _frame(rows: list[dict[str, Any]], name: str) -> pl.DataFrame:
    schema = dict(SCHEMAS[name])
    if not rows:
        return pl.DataFrame(schema=schema)
    return pl.DataFrame({c: [r.get(c) for r in rows] for c in schema}, schema=schema)
