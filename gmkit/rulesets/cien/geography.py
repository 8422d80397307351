"""Who borders whom in a Cien state and who holds what, as plain dictionaries derived from the
state's tables (:meth:`~gmkit.core.tables.State.derived`): the borders and coasts never change
during a game, so every state of a turn shares one index of them."""

from __future__ import annotations

from dataclasses import dataclass

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


def _geography(state: State) -> Geography:
    neighbours: dict[str, set[str]] = {}
    for a, b in state["borders"].iter_rows():
        neighbours.setdefault(a, set()).add(b)
    seas: dict[str, set[str]] = {}
    for p, s in state["coasts"].iter_rows():
        seas.setdefault(p, set()).add(s)
    return Geography({k: frozenset(v) for k, v in neighbours.items()},
                     {k: frozenset(v) for k, v in seas.items()})


def geography(state: State) -> Geography:
    """The geography of a state: indexed once, and kept by every state a step makes from it
    without changing its borders and coasts."""
    return state.derived("cien.geography", _geography, tables=("borders", "coasts"))


def _holdings(state: State) -> dict[str, frozenset[str]]:
    provinces = state["provinces"]
    out: dict[str, set[str]] = {}
    for name, owner in zip(provinces["name"].to_list(), provinces["owner"].to_list()):
        if owner is not None:
            out.setdefault(owner, set()).add(name)
    return {k: frozenset(v) for k, v in out.items()}


def holdings(state: State) -> dict[str, frozenset[str]]:
    """Each owner's provinces: indexed once, and kept by every state a step makes from it
    without changing its provinces."""
    return state.derived("cien.holdings", _holdings, tables=("provinces",))
