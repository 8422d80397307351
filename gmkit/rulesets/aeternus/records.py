"""The generation log: one compact record per generated hex, and the roll log built from it.

Generating a hex takes up to four draws from the turn's seed (:mod:`gmkit.core.dice`), each with
the draw id ``"generate:<coordinate>/<purpose>"`` (the coordinate as ``(x,y,z)``, no spaces):

=========  ==========================================  ===============================
purpose    derivation (as :class:`~gmkit.core.dice.Dice` with step ``generate``)  when
=========  ==========================================  ===============================
biome      ``Dice.uniform``: u in [0, 1)                a generated neighbour is in the pool
random     ``Dice.choice`` over the biome weights       the pool drew "random"
landmark   ``Dice.choice`` Barren:20, Town:1 (2)        every hex but a Lake
corrupt    ``Dice.roll(1, 100)``, corrupt on <= 5       every hex (Lakes: option)
=========  ==========================================  ===============================

The biome pool's weights ``B/M`` are fractions, so its draw is a uniform ``u = k / 2**53`` and
the entry drawn is the first whose cumulative weight exceeds ``u`` times the total, compared in
exact integers over the common denominator of the masses. A draw whose outcome is certain
(a pool with only "random" in it) is not made.

The GM may enter any of these draws from a roll made elsewhere, under its draw id (as every
gmkit die): the biome pool's as a number in [0, 1) or as what it gave (a biome of the pool or
``random``), the random biome and the landmark by name, the corruption d100 as a number from 1 to
100. The record keeps which draws were entered (``entered``, a bit per purpose) and the log
shows them so.

The log keeps, per hex, what was drawn and why: the pool's entries (biome, bias in force,
mass size), ``u``, what the pool gave, the random-biome roll, the landmark roll and the d100 — as
parallel lists of integers, not one object per draw. :meth:`GenerationLog.frame` makes a polars
frame of it and :meth:`GenerationLog.rolls` the gmkit :class:`~gmkit.core.dice.Roll` records.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from gmkit.core.dice import ENTERED, SEEDED, Roll
from gmkit.rulesets.aeternus.rules import (
    BARREN,
    BIOME_ORDER,
    BIOMES,
    CORRUPTED,
    LAKE_RULE,
    LANDMARK_ORDER,
    LANDMARKS,
    TOWN,
)
from gmkit.rulesets.aeternus.coords import from_axial

STEP = "generate"
#: Why a hex was generated.
CAUSES: tuple[str, ...] = ("origin", "generate", "enclosed")
ORIGIN, GENERATE, ENCLOSED = range(3)
#: What the pool gave when it gave the "random" entry.
RANDOM_PICK = -1
#: A draw that was not made.
NONE = -1
#: The bits of a record's ``entered``: which of the hex's draws the GM entered.
BIOME_BIT, RANDOM_BIT, LANDMARK_BIT, CORRUPT_BIT = 1, 2, 4, 8

LOG_SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    "generated_order": pl.Int64, "q": pl.Int64, "r": pl.Int64, "turn": pl.Int64,
    "cause": pl.String, "pool": pl.String, "pool_u": pl.Float64, "pool_pick": pl.String,
    "random_roll": pl.Int64, "random_weights": pl.String, "landmark_roll": pl.Int64,
    "corrupt_roll": pl.Int64, "biome": pl.String, "landmark": pl.String, "corrupted": pl.Boolean,
}


def draw_id(q: int, r: int, purpose: str) -> str:
    """The draw id of one of a hex's generation draws."""
    x, y, z = from_axial(q, r)
    return f"{STEP}:({x},{y},{z})/{purpose}"


def pick_index(k: int, weights: list[int], total: int) -> int:
    """The entry drawn by ``u = k / 2**53`` from integer ``weights`` summing to ``total``:
    the first whose cumulative weight exceeds ``u * total``; ``len(weights)`` past the end."""
    acc = 0
    scaled = k * total
    for i, w in enumerate(weights):
        acc += w
        if scaled < acc << 53:
            return i
    return len(weights)


def pool_weights(pool: tuple[int, ...], random_entry: int) -> tuple[list[int], int, int]:
    """A pool's entries ``(biome, bias, mass size)*`` (flattened) as integer weights over their
    common denominator: ``(weights, random weight, denominator)``."""
    sizes = pool[2::3]
    d = math.lcm(*sizes) if sizes else 1
    weights = [pool[i + 1] * (d // pool[i + 2]) for i in range(0, len(pool), 3)]
    return weights, random_entry * d, d


def pool_text(pool: tuple[int, ...], random_entry: int) -> str:
    """A pool as the roll log shows it: ``"Meadow 12/5, Forest 10/1, random 3"``."""
    parts = [f"{BIOME_ORDER[pool[i]]} {pool[i + 1]}/{pool[i + 2]}" for i in range(0, len(pool), 3)]
    return ", ".join([*parts, f"random {random_entry}"])


def weights_text(weights: tuple[int, ...]) -> str:
    """The random pool's weights: ``"Meadow:7, Deceased Dunes:4, ..."``."""
    return ", ".join(f"{b}:{w}" for b, w in zip(BIOME_ORDER, weights) if w)


#: The fields of a record, in order.
FIELDS: tuple[str, ...] = (
    "order", "q", "r", "turn", "cause", "pool", "pool_k", "pool_pick", "random_roll",
    "random_weights", "landmark_roll", "town_weight", "corrupt_roll", "biome", "landmark",
    "corrupted", "entered",
)
Record = tuple[int, int, int, int, int, tuple[int, ...], int, int, int, tuple[int, ...], int,
               int, int, int, int, bool, int]


@dataclass
class GenerationLog:
    """One record per generated hex: a plain tuple of :data:`FIELDS` (see the module docstring).

    ``pool`` is the biome pool's neighbour entries flattened ``(biome, bias, mass size)*``;
    ``pool_k`` the biome draw's ``k`` (``u = k / 2**53``); ``pool_pick`` the biome it gave or
    :data:`RANDOM_PICK`; ``random_weights`` the random pool's weights in biome order; biome and
    landmark are indices into ``BIOME_ORDER`` and ``LANDMARK_ORDER``, the landmark as drawn
    (corruption may have set the hex's to Barren since); draws not made are :data:`NONE`.
    """

    random_entry: int = 3
    barren: int = 20
    records: list[Record] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.records)

    def column(self, name: str) -> list[Any]:
        """One field of every record."""
        k = FIELDS.index(name)
        return [rec[k] for rec in self.records]

    def frame(self, start: int = 0) -> pl.DataFrame:
        """The log as a polars frame (:data:`LOG_SCHEMA`), one row per generated hex."""
        recs = self.records[start:]
        if not recs:
            return pl.DataFrame(schema=LOG_SCHEMA)
        (order, q, r, turn, cause, pool, pool_k, pool_pick, random_roll, random_weights,
         landmark_roll, _town, corrupt_roll, biome, landmark, corrupted, _entered) = zip(*recs)
        texts: dict[tuple[tuple[int, ...], int], str] = {}
        return pl.DataFrame({
            "generated_order": order, "q": q, "r": r, "turn": turn,
            "cause": pl.Series(CAUSES).gather(list(cause)),
            "pool": [_cached(texts, p, self.random_entry) if c == GENERATE else None
                     for p, c in zip(pool, cause)],
            "pool_u": [k / 2**53 if k >= 0 else None for k in pool_k],
            "pool_pick": [BIOME_ORDER[p] if p >= 0 else ("random" if p == RANDOM_PICK else None)
                          for p in pool_pick],
            "random_roll": [v if v >= 0 else None for v in random_roll],
            "random_weights": [_cached(texts, w, 0) if w else None for w in random_weights],
            "landmark_roll": [v if v >= 0 else None for v in landmark_roll],
            "corrupt_roll": [v if v >= 0 else None for v in corrupt_roll],
            "biome": pl.Series(BIOME_ORDER).gather(list(biome)),
            "landmark": pl.Series(LANDMARK_ORDER).gather(list(landmark)),
            "corrupted": corrupted,
        }, schema=LOG_SCHEMA)

    def rolls(self, start: int = 0) -> list[Roll]:
        """The gmkit roll records of the draws made, from record ``start`` on, in draw order."""
        out: list[Roll] = []
        for (_i, q, r, turn, cause, pool, k, pick, random_roll, random_weights, landmark_roll,
             town, corrupt_roll, biome, _landmark, _corrupted, entered) in self.records[start:]:
            x, y, z = from_axial(q, r)
            where = f"({x}, {y}, {z})"
            prefix = f"{STEP}:({x},{y},{z})/"
            if k >= 0 or entered & BIOME_BIT:
                label = "random" if pick == RANDOM_PICK else BIOME_ORDER[pick]
                u = f"U[0,1)={k / 2**53!r} over " if k >= 0 else ""
                out.append(Roll(turn, STEP, prefix + "biome", f"biome pool of {where}", BIOMES,
                                f"{u}pool({pool_text(pool, self.random_entry)})", label,
                                ENTERED if entered & BIOME_BIT else SEEDED))
            if random_roll >= 0:
                out.append(Roll(turn, STEP, prefix + "random", f"random biome of {where}",
                                BIOMES, f"choice({weights_text(random_weights)})",
                                BIOME_ORDER[biome], ENTERED if entered & RANDOM_BIT else SEEDED))
            if landmark_roll >= 0:
                drawn = BARREN if landmark_roll < self.barren else TOWN
                out.append(Roll(turn, STEP, prefix + "landmark", f"landmark of {where}",
                                LANDMARKS, f"choice({BARREN}:{self.barren}, {TOWN}:{town})",
                                drawn, ENTERED if entered & LANDMARK_BIT else SEEDED))
            if corrupt_roll >= 0:
                rule = CORRUPTED if cause != ENCLOSED else f"{CORRUPTED}, {LAKE_RULE}"
                out.append(Roll(turn, STEP, prefix + "corrupt#0", f"corruption of {where}",
                                rule, "1d100", [corrupt_roll],
                                ENTERED if entered & CORRUPT_BIT else SEEDED))
        return out


def _cached(texts: dict[tuple[tuple[int, ...], int], str], entries: tuple[int, ...],
            random_entry: int) -> str:
    """:func:`pool_text` (``random_entry`` > 0) or :func:`weights_text`, each written once."""
    key = (entries, random_entry)
    text = texts.get(key)
    if text is None:
        text = texts[key] = (pool_text(entries, random_entry) if random_entry
                             else weights_text(entries))
    return text
