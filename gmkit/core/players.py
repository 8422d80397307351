"""A player of a game, as ``game.toml`` lists them (the ruleset reads its own fields from
``extra``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class PlayerInfo:
    """A player as ``game.toml`` lists them; ``extra`` holds ruleset-specific fields."""

    id: str
    name: str
    extra: Mapping[str, Any] = field(default_factory=dict)
