"""Who borders whom in a Cien state, as plain dictionaries (the borders and coasts tables never
change during a game, so they are indexed once and reused)."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from gmkit.core.tables import State


@dataclass(frozen=True)
class Geography:
    """Land neighbours and the Great Seas of each province."""

    neighbours: dict[str, frozenset[str]]
    seas: dict[str, frozenset[str]]

    def reach(self, held: frozenset[str] | set[str], target: str) -> str | None:
        """How a holder of ``held`` reaches ``target``: 'land', 'sea' or None."""
        if self.neighbours.get(target, frozenset()) & held:
            return "land"
        target_seas = self.seas.get(target, frozenset())
        if target_seas and any(self.seas.get(p, frozenset()) & target_seas for p in held):
            return "sea"
        return None

    def shared_sea(self, held: frozenset[str] | set[str], target: str) -> str | None:
        """The first Great Sea (by name) shared by ``target`` and a state in ``held``."""
        mine = set().union(*(self.seas.get(p, frozenset()) for p in held)) if held else set()
        return next((s for s in sorted(self.seas.get(target, frozenset())) if s in mine), None)


_CACHE: list[tuple[pl.DataFrame, pl.DataFrame, Geography]] = []


def geography(state: State) -> Geography:
    """The geography of a state (indexed once per borders/coasts frame)."""
    borders, coasts = state["borders"], state["coasts"]
    for b, c, geo in _CACHE:
        if b is borders and c is coasts:
            return geo
    neighbours: dict[str, set[str]] = {}
    for a, b in borders.iter_rows():
        neighbours.setdefault(a, set()).add(b)
    seas: dict[str, set[str]] = {}
    for p, s in coasts.iter_rows():
        seas.setdefault(p, set()).add(s)
    geo = Geography({k: frozenset(v) for k, v in neighbours.items()},
                    {k: frozenset(v) for k, v in seas.items()})
    _CACHE[:] = [(borders, coasts, geo), *_CACHE[:3]]
    return geo


_HELD: list[tuple[pl.DataFrame, dict[str, frozenset[str]]]] = []


def holdings(state: State) -> dict[str, frozenset[str]]:
    """Each owner's provinces (indexed once per provinces frame)."""
    provinces = state["provinces"]
    for frame, held in _HELD:
        if frame is provinces:
            return held
    out: dict[str, set[str]] = {}
    for name, owner in zip(provinces["name"].to_list(), provinces["owner"].to_list()):
        if owner is not None:
            out.setdefault(owner, set()).add(name)
    result = {k: frozenset(v) for k, v in out.items()}
    _HELD[:] = [(provinces, result), *_HELD[:3]]
    return result
