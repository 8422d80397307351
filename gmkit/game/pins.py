"""The next turn's dice commitment, pinned in the chain.

In a game that commits ahead, turn N+1's secret seed is made while turn N is committed, and turn
N's manifest records its commitment and the time it was made (``next_commitment``). Turn N's
record hash, printed in its report, then covers the commitment the players read before any
order of turn N+1 exists: a seed swapped afterwards (deleted, made again, its record
back-dated) no longer matches what the chain pinned, and ``gmkit verify`` says so.

Only a rollback may replace a pinned commitment, through its own record in the attic
(``commitment``: the turn, the commitment it replaces, the fresh one and when it was made, see
:class:`gmkit.core.rollback.FreshSeed`); every page that printed the old one then says "announced
X, replaced by Y at the rollback of ... (reason)". A game that commits only when asked pins
nothing: its commitment's time is the GM's own record, and its reports say no more than that.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import gmkit.core.dice as gdice
from gmkit.core.files import StoreError
from gmkit.core.store import GameStore

#: The manifest key of the next turn's pinned commitment.
PIN = "next_commitment"


@dataclass(frozen=True)
class Replacement:
    """A pinned commitment a rollback replaced: the one replaced, the fresh one and when it was
    made, and the rollback's time and reason."""

    replaces: str
    commitment: str
    made: str
    at: str
    reason: str

    def words(self) -> str:
        """The replacement as the pages print it."""
        return (f"announced {self.replaces}, replaced by {self.commitment} at the rollback of "
                f"{self.at} ({self.reason or 'no reason given'})")


@dataclass(frozen=True)
class Pinned:
    """A turn's commitment as the chain pins it: the one announced with the turn before, and
    the rollbacks that replaced it since, in order."""

    turn: int
    announced: str
    announced_made: str
    replacements: tuple[Replacement, ...] = ()

    @property
    def commitment(self) -> str:
        """The commitment the turn must be resolved with."""
        return self.replacements[-1].commitment if self.replacements else self.announced

    @property
    def made(self) -> str:
        """When that commitment was made."""
        return self.replacements[-1].made if self.replacements else self.announced_made

    @property
    def replaces(self) -> str | None:
        """The commitment the last rollback replaced (None when none did)."""
        return self.replacements[-1].replaces if self.replacements else None


def pin(turn: int, commitment: str, made: str) -> dict[str, Any]:
    """What a manifest records of the next turn's commitment (``next_commitment``)."""
    return {"turn": turn, "commitment": commitment, "made": made}


def pin_of(manifest: Mapping[str, Any]) -> dict[str, Any] | None:
    """The commitment a turn's manifest pins for the next turn, when it pins one of the right
    shape (None otherwise)."""
    found = manifest.get(PIN)
    if not isinstance(found, dict) or not isinstance(found.get("turn"), int) or not all(
            isinstance(found.get(k), str) for k in ("commitment", "made")):
        return None
    return dict(found)


def pinned(store: GameStore, turn: int) -> Pinned | None:
    """``turn``'s commitment as the chain pins it (None when the turn before pins nothing: a
    game that commits when asked, or a turn committed before turns pinned the next)."""
    before = turn - 1
    try:
        found = pin_of(store.manifest(before)) if before in store.turns() else None
    except StoreError:
        return None
    if found is None or found["turn"] != turn:
        return None
    current, replacements = found["commitment"], []
    for rec in store.rollbacks():
        fresh = rec.get("commitment")
        if isinstance(fresh, dict) and fresh.get("turn") == turn \
                and rec.get("to_turn") == before and fresh.get("replaces") == current \
                and isinstance(fresh.get("commitment"), str):
            replacements.append(Replacement(current, fresh["commitment"], str(fresh.get("made")),
                                            str(rec.get("at")), str(rec.get("reason") or "")))
            current = fresh["commitment"]
    return Pinned(turn, found["commitment"], found["made"], tuple(replacements))


def _short(commitment: object) -> str:
    return f"{str(commitment)[:16]}…"


def chain_problems(store: GameStore, turns: Sequence[int], coming: int | None
                   ) -> tuple[list[str], list[str]]:
    """Every pinned commitment against the turn it pins (each of its revisions), and the
    coming turn's kept seed against its pin; returns the problems and the notes (each
    replacement a rollback made, in words)."""
    problems: list[str] = []
    notes: list[str] = []
    for turn in [*turns, *([coming] if coming is not None else [])]:
        found = pinned(store, turn)
        if found is None:
            continue
        problems += _revisions_agree(store, turn - 1)
        notes += [f"turn {turn}'s dice commitment: {r.words()}" for r in found.replacements]
        where = f"turn {turn}"
        said = (f"the commitment {_short(found.commitment)} that turn {turn - 1} pinned when "
                f"it was committed" + (", as its rollback replaced it" if found.replacements
                                       else ""))
        if turn in turns:
            for rev in store.revisions(turn):
                try:
                    manifest = store.manifest(turn, rev)
                except StoreError:
                    continue  # reported with the turn
                name = where + (f" revision {rev}" if rev else "")
                if manifest.get("seed_commitment") != found.commitment:
                    problems.append(
                        f"{name}: resolved with the dice commitment "
                        f"{_short(manifest.get('seed_commitment'))}, not {said} (the seed was "
                        "swapped after the commitment was announced)")
                elif manifest.get("commitment_made") != found.made:
                    problems.append(
                        f"{name}: its commitment is recorded as made at "
                        f"{manifest.get('commitment_made')}, but turn {turn - 1} pinned "
                        f"{found.made} (the time was rewritten)")
            continue
        path = store.seed_path(turn)
        try:
            seed = store.read_seed(turn)
        except StoreError as e:
            problems.append(f"{e}; {where}'s commitment is {said}")
            continue
        if seed is None:
            problems.append(f"{path}: missing; {where}'s commitment is {said} (only a "
                            f"rollback to turn {turn - 1} can replace it)")
        elif gdice.commitment(seed) != found.commitment:
            problems.append(f"{path}: {where}'s seed does not match {said} (the seed was "
                            "swapped)")
    return problems, notes


def _revisions_agree(store: GameStore, turn: int) -> list[str]:
    """Every revision of ``turn`` pins the same commitment (a re-resolved turn keeps it)."""
    revisions = store.revisions(turn)
    pins = []
    for rev in revisions:
        try:
            pins.append(pin_of(store.manifest(turn, rev)))
        except StoreError:
            return []
    if len({None if p is None else (p["commitment"], p["made"]) for p in pins}) <= 1:
        return []
    return [f"turn {turn}: its revisions pin different commitments for turn {turn + 1} (a "
            "re-resolved turn keeps the one announced)"]
