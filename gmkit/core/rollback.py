"""The turns' seeds (``secret/`` until revealed, then ``revealed/``) and the rollbacks that set
turns, with their seeds, posts and dice, aside into ``attic/``, journalled so that a rollback
killed half-way is completed by the next command.

:class:`Rollbacks` is the part of :class:`gmkit.core.store.GameStore` that keeps them."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gmkit.core.files import (StoreError, _mkdir, atomic_write, fsync_dir, read_json_file,
                              read_regular)
from gmkit.core.pending import PendingInput

#: The journal of a rollback under way; the next command completes it.
ROLLBACK_JOURNAL = "rollback-journal.json"
SEED_TEXT = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class FreshSeed:
    """The seed a rollback puts in place for the turn after the one it goes back to, in a game
    whose next commitment is pinned in the chain: ``made`` is when it was made, ``replaces``
    the commitment it replaces (the one the turn rolled back to pinned, or a rollback
    since). The rollback's record in the attic keeps its commitment, the one way a pinned
    commitment is replaced."""

    seed: str
    made: str
    replaces: str | None = None


def commitment_of(seed: str) -> str:
    """The commitment of a seed: sha256 of its hex text (see :mod:`gmkit.core.dice`)."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


class Rollbacks(PendingInput):
    """The seeds and rollbacks of a game folder (see the module docstring)."""

    if TYPE_CHECKING:  # given by GameStore
        @staticmethod
        def parse_manifest(path: Path) -> dict[str, Any]: ...
        def manifest_hash(self, turn: int, revision: int | None = None) -> str: ...

    # -- seeds ---------------------------------------------------------------------------------
    def seed_path(self, turn: int, *, revealed: bool = False) -> Path:
        """Where a turn's seed is kept (secret, or once revealed)."""
        return self.root / ("revealed" if revealed else "secret") / f"{turn:04d}.seed"

    @staticmethod
    def _seed_text(path: Path) -> str:
        blob = read_regular(path)
        try:
            seed = blob.decode("ascii").strip()
        except UnicodeDecodeError as e:
            raise StoreError(f"{path}: a seed is 64 hexadecimal characters; byte "
                             f"0x{blob[e.start]:02x} at offset {e.start} is not") from None
        if not SEED_TEXT.fullmatch(seed):
            raise StoreError(f"{path}: a seed is 64 hexadecimal characters, not {seed[:80]!r}")
        return seed

    def read_seed(self, turn: int) -> str | None:
        """A turn's seed (revealed copy first, else the GM's secret copy), or None."""
        for revealed in (True, False):
            p = self.seed_path(turn, revealed=revealed)
            if os.path.lexists(p):
                return self._seed_text(p)
        return None

    def write_seed(self, turn: int, seed: str, *, revealed: bool = False) -> None:
        """Keep a turn's seed, created once and never replaced (a seed that a rollback set aside
        is refused: it belongs to another timeline)."""
        if not SEED_TEXT.fullmatch(seed):
            raise StoreError(f"a seed is 64 hexadecimal characters, not {seed[:80]!r}")
        with self.lock():
            self._finish_rollback()
            p = self.seed_path(turn, revealed=revealed)
            if not revealed and commitment_of(seed) in self.retired_commitments():
                raise StoreError(f"this seed was committed for a turn that a rollback set aside; "
                                 f"turn {turn} needs a fresh seed")
            try:
                atomic_write(p, (seed + "\n").encode("ascii"), exclusive=True)
            except FileExistsError:
                if self._seed_text(p) != seed:
                    raise StoreError(f"{p}: a different seed is already kept for turn "
                                     f"{turn}") from None

    def seed_for(self, turn: int, make: Callable[[], str]) -> str:
        """The secret seed of ``turn``, made once with ``make`` under the lock: two commands
        asking at once get the same seed and print the same commitment."""
        with self.lock():
            self._finish_rollback()
            seed = self.read_seed(turn)
            if seed is not None:
                if commitment_of(seed) in self.retired_commitments():
                    raise StoreError(f"{self.seed_path(turn)}: this seed belongs to a turn that "
                                     "a rollback set aside; it is never used again")
                return seed
            seed = make()
            atomic_write(self.seed_path(turn), (seed + "\n").encode("ascii"), exclusive=True)
            return seed

    # -- rollback ------------------------------------------------------------------------------
    def rollback(self, to_turn: int, reason: str = "", fresh: FreshSeed | None = None
                 ) -> list[Path]:
        """Set aside every turn after ``to_turn``, with its seeds, posts and dice, into
        ``attic/`` (kept, never deleted); the turns are then played again with fresh seeds.
        With ``fresh``, that seed becomes turn ``to_turn + 1``'s in the same move, and the
        rollback's record keeps its commitment (``commitment``: turn, replaces, commitment,
        made).

        The whole move is planned first and written as a journal; a rollback killed half-way
        is completed by the next gmkit command that opens the game, so the folder is never
        left between two timelines."""
        with self.lock():
            self._finish_rollback()
            if to_turn not in self._turn_dirs():
                raise StoreError(f"{self.root}: no turn {to_turn} to roll back to")
            if fresh is not None and not SEED_TEXT.fullmatch(fresh.seed):
                raise StoreError("a seed is 64 hexadecimal characters")
            if fresh is not None and commitment_of(fresh.seed) in {
                    fresh.replaces, *self.retired_commitments()}:
                raise StoreError("the fresh seed was committed before; a rollback needs a "
                                 "seed never used")
            attic = self.root / "attic"
            _mkdir(attic)
            stamp = 1 + max((int(p.name[:3]) for p in attic.iterdir() if p.name[:3].isdigit()),
                            default=-1)
            prefix = f"{stamp:03d}-"
            moves: list[tuple[str, str]] = []
            set_aside: list[dict[str, Any]] = []
            for turn, revs in sorted(self._turn_dirs().items(), reverse=True):
                if turn <= to_turn:
                    continue
                for rev, path in sorted(revs.items()):
                    moves.append((f"turns/{path.name}", f"attic/{prefix}{path.name}"))
                    set_aside.append({"turn": turn, "revision": rev,
                                      "manifest": self.manifest_hash(turn, rev)})
            retired = []
            for folder in ("secret", "revealed"):
                for seed in sorted((self.root / folder).glob("*.seed")):
                    if seed.stem.isdigit() and int(seed.stem) > to_turn:
                        moves.append((f"{folder}/{seed.name}",
                                      f"attic/{prefix}{folder}-{seed.name}"))
                        with contextlib.suppress(StoreError):
                            retired.append(commitment_of(self._seed_text(seed)))
            pending = self.root / "pending"
            for post in sorted((pending / "posts").glob("*.json")):
                with contextlib.suppress(StoreError, ValueError, TypeError):
                    if int(read_json_file(post).get("turn", -1)) > to_turn:
                        moves.append((f"pending/posts/{post.name}",
                                      f"attic/{prefix}post-{post.name}"))
            for used in sorted((pending / "used").glob("*.json")):
                head = used.name.split("-", 1)[0]
                if head.isdigit() and int(head) > to_turn:
                    moves.append((f"pending/used/{used.name}", f"attic/{prefix}used-{used.name}"))
            for dice in sorted(pending.glob("dice-*.txt")):
                number = dice.stem.split("-", 1)[1]
                if number.isdigit() and int(number) > to_turn:
                    moves.append((f"pending/{dice.name}", f"attic/{prefix}{dice.name}"))
            journal = {"to_turn": to_turn, "reason": reason, "record": f"attic/{prefix}rollback.json",
                       "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                       "set_aside": set_aside, "retired_seeds": sorted(set(retired)),
                       "moves": moves}
            if fresh is not None:
                # written aside first, put in place after the old seed left (the last move)
                name = f"{to_turn + 1:04d}"
                atomic_write(self.root / "secret" / f"{name}.fresh",
                             (fresh.seed + "\n").encode("ascii"), exclusive=True)
                moves.append((f"secret/{name}.fresh", f"secret/{name}.seed"))
                journal["commitment"] = {"turn": to_turn + 1, "replaces": fresh.replaces,
                                         "commitment": commitment_of(fresh.seed),
                                         "made": fresh.made}
                if fresh.replaces:
                    journal["retired_seeds"] = sorted({*retired, fresh.replaces})
            atomic_write(self.root / ROLLBACK_JOURNAL,
                         json.dumps(journal, indent=1, ensure_ascii=False).encode())
            self._finish_rollback()
            return [self.root / dst for src, dst in moves if src.startswith("turns/")]

    def rollback_pending(self) -> bool:
        """True when a rollback was interrupted and is still to be completed."""
        return (self.root / ROLLBACK_JOURNAL).exists()

    def recover(self) -> None:
        """Complete a rollback that was interrupted (a no-op when none was)."""
        if self.rollback_pending():
            with self.lock():
                self._finish_rollback()

    def _finish_rollback(self) -> None:
        self._finish_import()  # an import stopped half-way is completed first
        path = self.root / ROLLBACK_JOURNAL
        if not path.exists():
            for fresh in (self.root / "secret").glob("*.fresh"):  # a rollback killed before
                fresh.unlink()                                   # its journal was written
            return
        journal = read_json_file(path)
        for src, dst in journal["moves"]:
            s, d = self.root / src, self.root / dst
            if os.path.lexists(s) and not os.path.lexists(d):
                os.rename(s, d)
        for folder in {Path(dst).parent for _, dst in journal["moves"]} | {
                Path(src).parent for src, _ in journal["moves"]}:
            with contextlib.suppress(OSError):
                fsync_dir(self.root / folder)
        record = {k: journal[k] for k in ("to_turn", "reason", "at", "set_aside",
                                          "retired_seeds", "commitment") if k in journal}
        atomic_write(self.root / journal["record"],
                     json.dumps(record, indent=1, ensure_ascii=False).encode())
        os.unlink(path)
        fsync_dir(self.root)

    def rollbacks(self) -> list[dict[str, Any]]:
        """Every completed rollback's record (oldest first)."""
        out = []
        for p in sorted((self.root / "attic").glob("*-rollback.json")):
            with contextlib.suppress(StoreError):
                out.append({**read_json_file(p), "file": p.name})
        return out

    def retired_commitments(self) -> set[str]:
        """Commitments of every seed a rollback set aside, and of every set-aside turn: such a
        seed belongs to another timeline and is never committed again."""
        out: set[str] = set()
        for rec in self.rollbacks():
            out.update(str(c) for c in rec.get("retired_seeds", []))
        attic = self.root / "attic"
        for seed in attic.glob("*.seed"):
            with contextlib.suppress(StoreError):
                out.add(commitment_of(self._seed_text(seed)))
        for manifest in attic.glob("*/manifest.json"):
            with contextlib.suppress(StoreError):
                c = self.parse_manifest(manifest).get("seed_commitment")
                if isinstance(c, str):
                    out.add(c)
        return out
