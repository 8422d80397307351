"""Aeternus's world: hexes generated one by one by the rules of 5.3, kept as a polars frame.

Generation depends on the masses around a hex when it is generated, so a world is the record of
what was generated, in order: :class:`World` grows it one hex at a time (:meth:`World.generate`)
and keeps, beside the hexes,

* the masses (5.3.1: connected hexes of one biome) in an incremental union-find (``masses.py``),
  so each hex's pool reads its neighbours' mass sizes in constant time;
* the pieces of land (all generated hexes) in a second union-find, which tells when a new hex
  closes a loop and may cut indeterminate hexes off (``lakes.py``); those become Lake, the whole
  region at once or hex by hex when generated (the ``lake_timing`` option);
* the generation log, one compact record per hex with its draws (``records.py``).

Generating hex ``h`` (5.3): the pool holds one entry per generated neighbour, in direction order
(North, Ashe, Mouth, South, Zest, Weast), of weight ``B/M`` (its biome's bias over its mass's
size; Deceased Dunes' bias and weight are 0 next to a Swamp and Swamp's next to Deceased Dunes),
plus "random" of weight 3, which draws from the biome weights. Then the landmark (Barren 20,
Town 1, or 2 on a Meadow), then the 5% corruption, which sets the landmark to Barren and clears
the other features. :func:`odds` gives the exact chance of each biome before the draw.

:meth:`World.frame` is the world as a table (:data:`WORLD_SCHEMA`); :meth:`World.from_frame`
reads one back; :func:`replay` regenerates a world from the turns' seeds and the order of
generation, and :func:`verify` checks a stored world against that replay.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import polars as pl

from gmkit.core.boards.hexgrid import Hex
from gmkit.core.dice import DiceError
from gmkit.core.params import Params
from gmkit.rulesets.aeternus.rules import (
    AT_ONCE,
    BIOME_ORDER,
    LANDMARK_ORDER,
    PER_MASS,
    WORLD_PARAMS,
)
from gmkit.rulesets.aeternus.coords import AXIAL_STEPS
from gmkit.rulesets.aeternus.draws import SeedDraws
from gmkit.rulesets.aeternus.lakes import cut_off, new_regions
from gmkit.rulesets.aeternus.masses import UnionFind
from gmkit.rulesets.aeternus.records import (
    BIOME_BIT,
    CAUSES,
    CORRUPT_BIT,
    LANDMARK_BIT,
    RANDOM_BIT,
    ENCLOSED,
    GENERATE,
    NONE,
    ORIGIN,
    RANDOM_PICK,
    STEP,
    GenerationLog,
    pick_index,
    pool_weights,
)

Axial = tuple[int, int]
MEADOW, DUNES, FOREST, PASS, SWAMP, LAKE = range(6)
BARREN, TOWN = range(2)
_KEYS = ("meadow", "dunes", "forest", "pass", "swamp", "lake")

WORLD_SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    "q": pl.Int64, "r": pl.Int64, "s": pl.Int64, "x": pl.Int64, "y": pl.Int64, "z": pl.Int64,
    "biome": pl.String, "mass": pl.Int64, "mass_size": pl.Int64, "landmark": pl.String,
    "features": pl.List(pl.String), "corrupted": pl.Boolean, "generated_order": pl.Int64,
    "generated_turn": pl.Int64, "cause": pl.String,
}


class WorldError(ValueError):
    """A world table that cannot be read, or a generation that cannot be made."""


def _prefix(q: int, r: int) -> str:
    """``"generate:(x,y,z)/"``: the start of a hex's draw ids (coords.from_axial, inlined)."""
    a, b = q, -r
    y = max(min(a, b), min(max(a, b), 0))
    return f"{STEP}:({a - y},{y},{b - y})/"


def _features_column(features: list[tuple[str, ...]]) -> pl.Series:
    """The features as a list column, built from the few distinct sets rather than per hex."""
    distinct: dict[tuple[str, ...], int] = {}
    codes = [distinct.setdefault(f, len(distinct)) for f in features]
    table = pl.Series([list(f) for f in distinct] or [[]], dtype=pl.List(pl.String))
    return table.gather(codes)


def _entered_for(entered: Mapping[str, Any] | None, prefix: str) -> dict[str, Any] | None:
    """The values the GM entered for one hex's draws, by purpose (None when none)."""
    mine = {k[len(prefix):]: v for k, v in (entered or {}).items() if k.startswith(prefix)}
    return mine or None


def _entered_pool(value: Any, pool: tuple[int, ...], weights: list[int], rnd: int,
                  draw: str) -> tuple[int, int]:
    """The biome pool's draw as the GM entered it: a number ``u`` in [0, 1) (``k`` and the entry
    it gives) or what the pool gave, a biome of the pool or ``random`` (``k`` NONE)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < 1:
        k = math.floor(value * 2**53)
        return k, pick_index(k, weights, sum(weights) + rnd)
    options = [BIOME_ORDER[pool[3 * i]] for i, w in enumerate(weights) if w > 0]
    name = str(value).strip().casefold()
    if name == "random" and rnd > 0:
        return NONE, len(weights)
    for i, w in enumerate(weights):
        if w > 0 and BIOME_ORDER[pool[3 * i]].casefold() == name:
            return NONE, i
    raise DiceError(f"entered value {value!r} for {draw} is not a number in [0, 1) nor one of "
                    f"{', '.join(dict.fromkeys(options))}, random")


def _entered_name(value: Any, names: Sequence[str], weights: Sequence[int], draw: str) -> int:
    """The index of the name the GM entered for a weighted choice among ``names``."""
    name = str(value).strip().casefold()
    for i, (n, w) in enumerate(zip(names, weights)):
        if w > 0 and n.casefold() == name:
            return i
    raise DiceError(f"entered value {value!r} for {draw} is not one of "
                    f"{', '.join(n for n, w in zip(names, weights) if w > 0)}")


def _axial(h: Hex | Axial) -> Axial:
    return (h.q, h.r) if isinstance(h, Hex) else (h[0], h[1])


class World:
    """A generated world, grown one hex at a time (see the module docstring).

    Attributes:
        params: the rule values in force (:data:`~gmkit.rulesets.aeternus.rules.WORLD_PARAMS`).
        index: each generated hex's axial ``(q, r)`` to its generation order.
        masses: the biome masses; ``land``: the pieces of generated land.
        enclosed: indeterminate hexes already cut off (only with ``lake_timing`` when_generated).
        log: the generation log.
    """

    def __init__(self, params: Params | Mapping[str, Any] | None = None) -> None:
        self.params = params if isinstance(params, Params) else Params(WORLD_PARAMS, params)
        p = self.params
        self._bias = [p[f"bias_{k}"] for k in _KEYS]
        self._weight = [p[f"weight_{k}"] for k in _KEYS]
        self._at_once = p.lake_timing == AT_ONCE
        self._per_mass = p.pool_entry == PER_MASS
        self._barren, self._town, self._town_meadow = (p.weight_barren, p.weight_town,
                                                       p.weight_town_meadow)
        self._corruption = p.corruption_percent
        self._draws: SeedDraws | None = None
        self.index: dict[Axial, int] = {}
        self.q: list[int] = []
        self.r: list[int] = []
        self.biome: list[int] = []
        self.landmark: list[int] = []
        self.corrupted: list[bool] = []
        self.features: list[tuple[str, ...]] = []
        self.turn: list[int] = []
        self.cause: list[int] = []
        self.masses = UnionFind()
        self.land = UnionFind()
        self.enclosed: set[Axial] = set()
        self.log = GenerationLog(random_entry=p.random_entry, barren=p.weight_barren)
        #: The last table made by :meth:`frame` and what it was made from (see there).
        self._table: tuple[tuple[Any, ...], pl.DataFrame] | None = None

    @classmethod
    def new(cls, params: Params | Mapping[str, Any] | None = None, turn: int = 0) -> World:
        """A world of the origin alone: Meadow, Barren (5)."""
        world = cls(params)
        world._place(0, 0, world._neighbours(0, 0), MEADOW, BARREN, False, turn, ORIGIN)
        world._record(0, turn, ORIGIN, (), NONE, NONE, NONE, (), NONE, 0, NONE)
        return world

    def __len__(self) -> int:
        return len(self.q)

    def __contains__(self, h: object) -> bool:
        if isinstance(h, Hex):
            return (h.q, h.r) in self.index
        return h in self.index

    def _neighbours(self, q: int, r: int) -> list[int]:
        get = self.index.get
        return [get((q + dq, r + dr), -1) for dq, dr in AXIAL_STEPS]

    # -- generation ------------------------------------------------------------------------

    def generate(self, h: Hex | Axial, *, seed: str, turn: int,
                 entered: Mapping[str, Any] | None = None) -> list[int]:
        """Generate ``h`` if it is indeterminate (5.3), with the draws of ``turn``'s ``seed``,
        or the values the GM ``entered`` under their draw ids (see :mod:`.records`).

        Returns the generation orders of the hexes generated: ``h``, then any Lake it cut off
        (at once), or ``[]`` when ``h`` was already generated."""
        q, r = _axial(h)
        if (q, r) in self.index:
            return []
        draws = self._draws
        if draws is None or draws.seed != seed or draws.turn != turn:
            draws = self._draws = SeedDraws(seed, turn)
        get = self.index.get
        nbrs = [get((q + dq, r + dr), -1) for dq, dr in AXIAL_STEPS]
        prefix = _prefix(q, r)
        mine = _entered_for(entered, prefix) if entered else None
        if (q, r) in self.enclosed:
            self.enclosed.discard((q, r))
            return [self._lake(q, r, nbrs, draws, prefix, GENERATE, mine)]
        pool = self._pool(nbrs)
        given = 0
        if pool:
            weights, rnd, _ = pool_weights(pool, self.log.random_entry)
            if mine and "biome" in mine:
                k, pick = _entered_pool(mine["biome"], pool, weights, rnd, prefix + "biome")
                given |= BIOME_BIT
            else:
                k = draws.uniform_k(prefix + "biome")
                pick = pick_index(k, weights, sum(weights) + rnd)
        else:
            k, pick = NONE, 0
        random_weights: tuple[int, ...] = ()
        if 3 * pick < len(pool):
            biome = pool_pick = pool[3 * pick]
            random_roll = NONE
        else:
            random_weights = self._random_weights(nbrs)
            total = sum(random_weights)
            if total <= 0:
                raise WorldError("5.3.1: the random biome pool is empty")
            if mine and "random" in mine:
                biome = _entered_name(mine["random"], BIOME_ORDER, random_weights,
                                      prefix + "random")
                random_roll = sum(random_weights[:biome])
                given |= RANDOM_BIT
            else:
                random_roll = draws.below(prefix + "random", total)
                biome, left = 0, random_roll
                while left >= random_weights[biome]:
                    left -= random_weights[biome]
                    biome += 1
            pool_pick = RANDOM_PICK
        barren, town = self._barren, self._town_meadow if biome == MEADOW else self._town
        if mine and "landmark" in mine:
            landmark = _entered_name(mine["landmark"], LANDMARK_ORDER, (barren, town),
                                     prefix + "landmark")
            landmark_roll = 0 if landmark == BARREN else barren
            given |= LANDMARK_BIT
        else:
            landmark_roll = draws.below(prefix + "landmark", barren + town)
            landmark = BARREN if landmark_roll < barren else TOWN
        corrupt_roll, bit = self._corrupt_roll(draws, prefix, mine)
        given |= bit
        corrupted = corrupt_roll <= self._corruption
        splits = new_regions(nbrs, self.land)
        i = self._place(q, r, nbrs, biome, BARREN if corrupted else landmark, corrupted, turn,
                        GENERATE)
        self._record(i, turn, GENERATE, pool, k, pool_pick, random_roll, random_weights,
                     landmark_roll, town, corrupt_roll, landmark, given)
        if splits <= 0:
            return [i]
        out = [i]
        for region in cut_off((q, r), nbrs, self.index):
            if self._at_once:
                for lq, lr in region:
                    there = _prefix(lq, lr)
                    out.append(self._lake(lq, lr, self._neighbours(lq, lr), draws, there,
                                          ENCLOSED, _entered_for(entered, there)
                                          if entered else None))
            else:
                self.enclosed.update(region)
        return out

    def generate_all(self, hexes: Iterable[Hex | Axial], *, seed: str, turn: int,
                     entered: Mapping[str, Any] | None = None) -> list[int]:
        """Generate each of ``hexes`` in turn; the orders of every hex generated."""
        out: list[int] = []
        for h in hexes:
            out.extend(self.generate(h, seed=seed, turn=turn, entered=entered))
        return out

    def _corrupt_roll(self, draws: SeedDraws, prefix: str,
                      mine: Mapping[str, Any] | None) -> tuple[int, int]:
        """The hex's corruption d100 (5.3.2), drawn or entered, and its ``entered`` bit."""
        if mine and "corrupt#0" in mine and "corrupt" in mine:
            raise DiceError(f"draw {prefix}corrupt#0 entered twice (as {prefix}corrupt and as "
                            f"{prefix}corrupt#0)")
        value = None if not mine else mine.get("corrupt#0", mine.get("corrupt"))
        if value is None:
            return draws.below(prefix + "corrupt#0", 100) + 1, 0
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100:
            raise DiceError(f"entered value {value!r} for {prefix}corrupt#0 is not a d100 roll "
                            "(a whole number from 1 to 100)")
        return value, CORRUPT_BIT

    def _lake(self, q: int, r: int, nbrs: list[int], draws: SeedDraws, prefix: str,
              cause: int, mine: Mapping[str, Any] | None = None) -> int:
        """A cut-off hex generated as Lake with a Barren landmark (5.3.1.6)."""
        corrupt_roll, corrupted, given = NONE, False, 0
        if self.params.lake_corruption:
            corrupt_roll, given = self._corrupt_roll(draws, prefix, mine)
            corrupted = corrupt_roll <= self._corruption
        i = self._place(q, r, nbrs, LAKE, BARREN, corrupted, draws.turn, cause)
        self._record(i, draws.turn, cause, (), NONE, NONE, NONE, (), NONE, 0, corrupt_roll,
                     entered=given)
        return i

    def _pool(self, nbrs: Sequence[int]) -> tuple[int, ...]:
        """The biome pool's neighbour entries, flattened ``(biome, bias, mass size)*``."""
        biomes = self.biome
        near = {biomes[i] for i in nbrs if i >= 0}
        bias = self._bias
        if SWAMP in near or DUNES in near:
            bias = list(bias)
            if SWAMP in near:
                bias[DUNES] = 0
            if DUNES in near:
                bias[SWAMP] = 0
        masses = self.masses
        pool: list[int] = []
        seen: set[int] = set()
        for i in nbrs:
            if i < 0:
                continue
            root = masses.find(i)
            if self._per_mass:
                if root in seen:
                    continue
                seen.add(root)
            b = biomes[i]
            pool += (b, bias[b], masses.size[root])
        return tuple(pool)

    def _random_weights(self, nbrs: Sequence[int]) -> tuple[int, ...]:
        """The biome weights of the "random" entry's pool, with 5.3.1.2 and 5.3.1.5 applied."""
        near = {self.biome[i] for i in nbrs if i >= 0}
        w = list(self._weight)
        if SWAMP in near:
            w[DUNES] = 0
        if DUNES in near:
            w[SWAMP] = 0
        return tuple(w)

    def _place(self, q: int, r: int, nbrs: Sequence[int], biome: int, landmark: int,
               corrupted: bool, turn: int, cause: int,
               features: tuple[str, ...] = ()) -> int:
        """Add a generated hex: its row, its mass and its piece of land."""
        i = len(self.q)
        self.index[(q, r)] = i
        self.q.append(q)
        self.r.append(r)
        self.biome.append(biome)
        self.landmark.append(landmark)
        self.corrupted.append(corrupted)
        self.features.append(() if corrupted else features)
        self.turn.append(turn)
        self.cause.append(cause)
        biomes = self.biome
        self.land.add_joined(nbrs)
        self.masses.add_joined([j if j >= 0 and biomes[j] == biome else -1 for j in nbrs])
        return i

    def _record(self, i: int, turn: int, cause: int, pool: tuple[int, ...], k: int,
                pool_pick: int, random_roll: int, random_weights: tuple[int, ...],
                landmark_roll: int, town: int, corrupt_roll: int,
                drawn_landmark: int | None = None, entered: int = 0) -> None:
        """The generation log's record of hex ``i`` (the landmark as drawn, before corruption;
        ``entered``: which draws the GM entered)."""
        self.log.records.append((
            i, self.q[i], self.r[i], turn, cause, pool, k, pool_pick, random_roll, random_weights,
            landmark_roll, town, corrupt_roll, self.biome[i],
            self.landmark[i] if drawn_landmark is None else drawn_landmark, self.corrupted[i],
            entered))

    def corrupt(self, h: Hex | Axial) -> bool:
        """Corrupt a generated hex (5.3.3.1): its landmark becomes Barren and every feature but
        'corrupted' is removed. Returns False when it already was corrupt."""
        i = self.index[_axial(h)]
        if self.corrupted[i]:
            return False
        self.corrupted[i] = True
        self.landmark[i] = BARREN
        self.features[i] = ()
        return True

    # -- reading ---------------------------------------------------------------------------

    def mass_of(self, h: Hex | Axial) -> tuple[int, int]:
        """The mass of a generated hex: ``(mass id, size)``; the id is its first hex's order."""
        i = self.index[_axial(h)]
        root = self.masses.find(i)
        return self.masses.first[root], self.masses.size[root]

    def biome_of(self, h: Hex | Axial) -> str:
        """The biome of a generated hex."""
        return BIOME_ORDER[self.biome[self.index[_axial(h)]]]

    def frame(self) -> pl.DataFrame:
        """The world as a table (:data:`WORLD_SCHEMA`), in generation order. The table is made
        again only when the world changed since the last one: a hex generated (which is the
        only way biomes, masses and turns change) or a landmark, feature or corruption
        changed."""
        key = (len(self.q), tuple(self.corrupted), tuple(self.landmark), tuple(self.features))
        if self._table is not None and self._table[0] == key:
            return self._table[1]
        table = self._frame()
        self._table = (key, table)
        return table

    def _frame(self) -> pl.DataFrame:
        find, first, size = self.masses.find, self.masses.first, self.masses.size
        roots = [find(i) for i in range(len(self.q))]
        a = pl.col("q")
        b = -pl.col("r")
        y = pl.max_horizontal(pl.min_horizontal(a, b), pl.min_horizontal(pl.max_horizontal(a, b),
                                                                            pl.lit(0)))
        return pl.DataFrame({
            "q": self.q, "r": self.r,
            "biome": pl.Series(BIOME_ORDER).gather(self.biome),
            "mass": [first[t] for t in roots], "mass_size": [size[t] for t in roots],
            "landmark": pl.Series(LANDMARK_ORDER).gather(self.landmark),
            "features": _features_column(self.features),
            "corrupted": self.corrupted,
            "generated_order": range(len(self.q)), "generated_turn": self.turn,
            "cause": pl.Series(CAUSES).gather(self.cause),
        }, schema_overrides={"q": pl.Int64, "r": pl.Int64, "mass": pl.Int64,
                             "mass_size": pl.Int64, "generated_turn": pl.Int64,
                             "generated_order": pl.Int64}).with_columns(
            s=-a - pl.col("r"), y=y).with_columns(
            x=a - pl.col("y"), z=b - pl.col("y")).select(list(WORLD_SCHEMA))

    @classmethod
    def from_frame(cls, frame: pl.DataFrame,
                   params: Params | Mapping[str, Any] | None = None) -> World:
        """A world read back from :meth:`frame` (its generation log is not in the table: the
        new world's log starts empty at the next hex)."""
        missing = [c for c in WORLD_SCHEMA if c not in frame.columns]
        if missing:
            raise WorldError(f"world table: missing column(s) {', '.join(missing)}")
        world = cls(params)
        rows = frame.sort("generated_order")
        biome_code = {b: i for i, b in enumerate(BIOME_ORDER)}
        landmark_code = {b: i for i, b in enumerate(LANDMARK_ORDER)}
        cause_code = {c: i for i, c in enumerate(CAUSES)}
        for n, row in enumerate(rows.iter_rows(named=True)):
            if row["generated_order"] != n:
                raise WorldError(f"world table: generated_order {row['generated_order']} where "
                                 f"{n} was expected")
            q, r = row["q"], row["r"]
            nbrs = world._neighbours(q, r)
            cause = cause_code[row["cause"]]
            detect = not world._at_once and (q, r) not in world.enclosed
            world.enclosed.discard((q, r))
            splits = new_regions(nbrs, world.land) if detect else 0
            world._place(q, r, nbrs, biome_code[row["biome"]], landmark_code[row["landmark"]],
                         bool(row["corrupted"]), row["generated_turn"], cause,
                         tuple(row["features"] or ()))
            if splits > 0:
                for region in cut_off((q, r), nbrs, world.index):
                    world.enclosed.update(region)
        return world


def odds(world: World, h: Hex | Axial) -> dict[str, Fraction]:
    """The exact chance of each biome if ``h`` were generated now (5.3.1), from the same pool
    the generator draws from."""
    q, r = _axial(h)
    nbrs = world._neighbours(q, r)
    if (q, r) in world.enclosed:
        return {BIOME_ORDER[LAKE]: Fraction(1)}
    pool = world._pool(nbrs)
    rnd = Fraction(world.params.random_entry)
    total = sum((Fraction(pool[i + 1], pool[i + 2]) for i in range(0, len(pool), 3)), rnd)
    out = {b: Fraction(0) for b in BIOME_ORDER}
    for i in range(0, len(pool), 3):
        out[BIOME_ORDER[pool[i]]] += Fraction(pool[i + 1], pool[i + 2]) / total
    weights = world._random_weights(nbrs)
    for b, w in zip(BIOME_ORDER, weights):
        out[b] += rnd / total * Fraction(w, sum(weights))
    return {b: p for b, p in out.items() if p}


def pool_table(world: World, h: Hex | Axial) -> list[tuple[str, Fraction]]:
    """The biome pool of ``h`` as the rules build it: one ``(biome, B/M)`` per generated
    neighbour in direction order, then ``("random", 3)``."""
    pool = world._pool(world._neighbours(*_axial(h)))
    return [(BIOME_ORDER[pool[i]], Fraction(pool[i + 1], pool[i + 2]))
            for i in range(0, len(pool), 3)] + [("random", Fraction(world.params.random_entry))]


def requests(frame: pl.DataFrame) -> list[tuple[Axial, int]]:
    """What a rule called to generate, in order, with the turn: the world's record minus the
    origin and the lakes generated at once (which follow from the rest)."""
    rows = frame.filter(pl.col("cause") == CAUSES[GENERATE]).sort("generated_order")
    return [((q, r), t) for q, r, t in zip(rows["q"], rows["r"], rows["generated_turn"])]


def replay(generated: Iterable[tuple[Hex | Axial, int]], seeds: Mapping[int, str],
           params: Params | Mapping[str, Any] | None = None, start_turn: int = 0) -> World:
    """The world made by generating each ``(hex, turn)`` in order with that turn's seed."""
    world = World.new(params, start_turn)
    for h, turn in generated:
        if turn not in seeds:
            raise WorldError(f"no seed for turn {turn}")
        world.generate(h, seed=seeds[turn], turn=turn)
    return world


def verify(frame: pl.DataFrame, seeds: Mapping[int, str],
           params: Params | Mapping[str, Any] | None = None, limit: int = 10) -> list[str]:
    """Every difference between a stored world and its replay from the seeds (``[]``: it holds)."""
    start = frame.filter(pl.col("cause") == CAUSES[ORIGIN])["generated_turn"]
    again = replay(requests(frame), seeds, params, int(start[0]) if len(start) else 0).frame()
    stored = frame.sort("generated_order").select(list(WORLD_SCHEMA))
    problems: list[str] = []
    if stored.height != again.height:
        problems.append(f"{stored.height} hexes stored, {again.height} replayed")
    for a, b in zip(stored.iter_rows(named=True), again.iter_rows(named=True)):
        if a != b:
            diff = ", ".join(f"{c} {a[c]!r} (replay {b[c]!r})" for c in a if a[c] != b[c])
            problems.append(f"hex ({a['x']}, {a['y']}, {a['z']}) #{a['generated_order']}: {diff}")
            if len(problems) >= limit:
                break
    return problems
