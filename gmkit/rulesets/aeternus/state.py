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
The state written back holds the table's values and its world (:data:`WORLD`, see
:meth:`~gmkit.core.tables.State.with_derived`), and the next action claims them
(:meth:`~gmkit.core.tables.State.claim`) rather than rebuild them from the frames.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

import polars as pl

from gmkit.core.boards import Board
from gmkit.core.boards.hexgrid import Hex, HexBoard
from gmkit.core.dice import Dice
from gmkit.core.params import Params
from gmkit.core.parts import Context
from gmkit.core.players import PlayerInfo
from gmkit.core.tables import Schema, State, frame
from gmkit.rulesets.aeternus.clock import parse_time, phase_number, time_text
from gmkit.rulesets.aeternus.coords import AXIAL_STEPS, from_axial
from gmkit.rulesets.aeternus.rules import LAKE, LANDMARK_ORDER, NAMED_QUALITIES, PYLON_F
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
#: The values an action hands to the next one with the world (see :data:`WORLD`).
_HANDED = ("players", "items", "flags", "seen", "qualities", "clock", "judge", *_ROW_TABLES)


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


def board() -> HexBoard:
    """The unbounded hex grid: the world is drawn where it has been generated."""
    return HexBoard(default_kind="indeterminate")


def check_board(game_board: Board[Any] | None) -> list[str]:
    """5 - World: "All players exist on an infinite, procedurally generated hexagonal grid",
    so only an unbounded hex board (``unbounded = true``) can be played."""
    if game_board is None:
        return []
    if not isinstance(game_board, HexBoard):
        return [f"a {game_board.kind} board: Aeternus plays on a hex grid (5 - World)"]
    if game_board.bounded:
        return [f"a bounded board of {len(game_board)} hexes: the world of Aeternus is an "
                "infinite grid generated as it is explored (5 - World); give a hex board "
                "with unbounded = true"]
    return []


def example_players(game_board: Board[Any] | None) -> list[dict[str, Any]]:
    """Six players, for sample games and playouts."""
    return [{"id": pid, "name": pid} for pid in
            ("Amber", "Birch", "Cedar", "Dune", "Elm", "Fern")]


def to_move(state: State) -> list[str]:
    """Who may post actions: every active player."""
    return state["players"].filter(pl.col("active"))["id"].to_list()


def standings(state: State) -> pl.DataFrame:
    """One row per player: their faction, hex, whether active, AP, inventory, fish caught and
    quality score (7.3.2.1)."""
    players = state["players"]
    items = state["items"].group_by("player").agg(
        pl.format("{} {}", "count", "item").sort().str.join(", ").alias("inventory"))
    fish = state["fish"].group_by("player").agg(
        pl.len().alias("fish"),
        pl.struct("fish", "quality").filter(pl.col("quality") > 0).unique()
        .struct.field("quality").sum().alias("score"))
    hexes = [str(from_axial(q, r)) for q, r in zip(players["q"], players["r"])]
    out = (players.with_columns(pl.Series("hex", hexes, pl.String))
           .join(items, left_on="id", right_on="player", how="left")
           .join(fish, left_on="id", right_on="player", how="left")
           .with_columns(pl.col("fish").fill_null(0), pl.col("score").fill_null(0),
                         pl.col("inventory").fill_null(""))
           .with_columns(
               pl.when(pl.col("ap").is_null()).then(None).otherwise(pl.col(c)).alias(c)
               for c in ("inventory",))
           .select(pl.col("id").alias("player"), "name", "faction", "hex", "active",
                   "ap", "inventory", "fish", "score"))
    return out.sort("player")


def holdings(state: State, ctx: Context) -> pl.DataFrame:
    """What each player holds, in words: their inventory."""
    return standings(state).select("player", pl.col("inventory").fill_null("").alias("holdings"))


#: The key under which a state written by :meth:`Table.state` holds its world and values for
#: the next action to claim (:meth:`~gmkit.core.tables.State.claim`).
WORLD = "aeternus/world"


@dataclass(frozen=True)
class _Handed:
    """What an action hands to the next with the state it wrote: the rules the world was made
    with, the world, the frames made and the values they were made from."""

    rules: Params
    world: World
    made: dict[str, tuple[str, pl.DataFrame]]
    values: dict[str, Any]


def _nothing(state: State) -> None:
    """What a state written by other means than :meth:`Table.state` holds: nothing."""
    return None


def _same_rules(a: Params, b: Params) -> bool:
    """Whether two rules tables hold the same values (a world made under one is taken under
    the other): the same object, or every value alike."""
    return a is b or _values(a) == _values(b)


def _values(rules: Params) -> str:
    return repr(sorted((n, repr(rules[n])) for n in rules))


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
        handed: _Handed | None = state.claim(WORLD, _nothing)  # the action before's, if any
        if handed is not None and _same_rules(handed.rules, rules):
            # the world and every value as the action before left them: the frames of
            # ``state`` were made from them, and no other action will claim them
            return cls(world=handed.world, rules=rules, dice=dice, made=handed.made,
                       **handed.values)
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
                got = old[1]
            else:
                # the rows are the table's own values, read from frames of the same schema
                got = frame(rows if rows is not None else self._seen_rows(), SCHEMAS[name],
                            table=name, strict=False)
            made[name] = (key, got)
            return got

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
        values = {name: getattr(self, name) for name in _HANDED}
        return State(turn, tables).with_derived(WORLD, _Handed(self.rules, self.world,
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
