"""A balance sweep's plan and its result: the variants of the rules, one task per game, and the
two tables a sweep played fills (see :mod:`gmkit.sweeps.sweep`, which plays it, and
:mod:`gmkit.sweeps.page`, which draws it)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import polars as pl

from gmkit.sweeps.playout import derived_seed


class SweepError(ValueError):
    """A sweep that cannot be planned or replayed; the message says why, in one line."""


@dataclass(frozen=True)
class Variant:
    """One combination of rule values: its label (``"base"`` or ``key=value, ...``) and the
    overrides it plays with."""

    label: str
    rules: Mapping[str, Any]


@dataclass(frozen=True)
class GameTask:
    """One game of a sweep: everything a worker needs to play it."""

    game: int
    variant: Variant
    seed: str
    ruleset: str
    players: tuple[Mapping[str, Any], ...]
    rounds: int


@dataclass(frozen=True)
class SweepSpec:
    """A planned sweep: ``games`` games of each variant, at most ``rounds`` rounds each."""

    ruleset: str
    games: int
    variants: tuple[Variant, ...]
    players: tuple[Mapping[str, Any], ...]
    rounds: int
    seed: str

    def tasks(self) -> list[GameTask]:
        """Every game, numbered from 0 in blocks of ``games`` per variant; game ``k`` of each
        block plays from the same seed."""
        seeds = [game_seed(self.seed, k) for k in range(self.games)]
        return [GameTask(v * self.games + k, variant, seeds[k], self.ruleset, self.players,
                         self.rounds)
                for v, variant in enumerate(self.variants) for k in range(self.games)]

    def to_dict(self) -> dict[str, Any]:
        """The sweep as its ``sweep.json`` records it."""
        return {"ruleset": self.ruleset, "games": self.games, "rounds": self.rounds,
                "seed": self.seed, "players": [dict(p) for p in self.players],
                "variants": [{"label": v.label, "rules": dict(v.rules)} for v in self.variants]}


@dataclass(frozen=True)
class Sweep:
    """A sweep played: its plan and its two tables."""

    spec: SweepSpec
    games: pl.DataFrame
    margins: pl.DataFrame


def game_seed(master: str, k: int) -> str:
    """The master seed of game ``k`` of each variant (a playout's master seed)."""
    return derived_seed(master, "sweep", k)[:16]


# -- planning --------------------------------------------------------------------------------------
