"""What a game folder's store keeps beside its turns: the lock writers take, and what a commit
knows of the turn before it (which tables it may link rather than write again).

Part of :mod:`gmkit.core.store`, which uses these; nothing here writes a turn."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from gmkit.core.files import StoreError
from gmkit.core.tables import Schema


@dataclass
class _HeldLock:
    rlock: threading.RLock = field(default_factory=threading.RLock)
    depth: int = 0


_LOCKS: dict[str, _HeldLock] = {}
_LOCKS_GUARD = threading.Lock()


@contextlib.contextmanager
def folder_lock(root: Path) -> Iterator[None]:
    """An exclusive lock on the game folder ``root`` for writers: across processes (``flock``
    on ``.lock``) and across threads; re-entrant within one thread."""
    key = str(root.resolve())
    with _LOCKS_GUARD:
        held = _LOCKS.setdefault(key, _HeldLock())
    with held.rlock:
        if held.depth:
            held.depth += 1
            try:
                yield
            finally:
                held.depth -= 1
            return
        try:
            f = (root / ".lock").open("a")
        except PermissionError:
            raise StoreError(f"{root}: the game folder is read-only; nothing was "
                             "changed") from None
        with f:
            fcntl.flock(f, fcntl.LOCK_EX)
            held.depth = 1
            try:
                yield
            finally:
                held.depth = 0
                fcntl.flock(f, fcntl.LOCK_UN)


def files_under(folder: Path, prefix: str = "") -> set[str]:
    """Every entry under ``folder`` that is not a folder (a file, a pipe, a link to a file), by
    its path relative to it; a link to a folder is neither listed nor followed."""
    out: set[str] = set()
    with os.scandir(folder) as entries:
        for entry in entries:
            if not entry.is_dir():
                out.add(prefix + entry.name)
            elif not entry.is_symlink():
                out |= files_under(Path(entry.path), f"{prefix}{entry.name}/")
    return out


def conforms(df: pl.DataFrame, schema: Schema) -> bool:
    """True when ``df`` has exactly the schema's columns, in its order, of its types (what
    :func:`check_frame` would return unchanged)."""
    return df.columns == list(schema) and all(
        have == want for have, want in zip(df.dtypes, schema.values(), strict=True))


#: Types whose equal values have equal bytes: a table of only these that equals the previous
#: turn's is that file again. (Not floats: -0.0 equals 0.0; nor categoricals, whose codes
#: depend on the order strings were met.)
EXACT_TYPES = (pl.Boolean, pl.String, pl.Int8, pl.Int16, pl.Int32, pl.Int64, pl.UInt8,
                pl.UInt16, pl.UInt32, pl.UInt64, pl.Date, pl.Datetime, pl.Duration, pl.Time,
                pl.Null)


def comparable(dtypes: Sequence[object]) -> bool:
    """True when frames of these types that are equal are equal byte for byte."""
    out = True
    for t in dtypes:
        if isinstance(t, (pl.List, pl.Array)):
            out = out and comparable([t.inner])
        elif isinstance(t, pl.Struct):
            out = out and comparable([f.dtype for f in t.fields])
        else:
            out = out and isinstance(t, EXACT_TYPES)
    return out


@dataclass(frozen=True)
class Before:
    """The turn a commit follows: its folder, the hash of its manifest, and its files' hashes
    (no folder for a folder's first turn)."""

    folder: Path | None = None
    manifest_hash: str | None = None
    files: Mapping[str, str] = field(default_factory=dict)

    @staticmethod
    def of(folder: Path | None,
           parse: Callable[[bytes, Path], Mapping[str, Any]]) -> Before:
        """What the turn in ``folder`` is (its manifest read once, by ``parse``)."""
        if folder is None:
            return Before()
        raw = (folder / "manifest.json").read_bytes()
        files: dict[str, str] = {}
        with contextlib.suppress(StoreError):  # a broken manifest still chains, nothing links
            files = dict(parse(raw, folder / "manifest.json")["files"])
        return Before(folder, hashlib.sha256(raw).hexdigest(), files)
