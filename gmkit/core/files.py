"""Files written whole or not at all, read only when they are regular files, and synced so they
survive a power cut: the low-level file handling every part of the game folder goes through
(:mod:`gmkit.core.store` re-exports it).

Several files written together are synced together (:func:`sync_all`): each ``fsync`` waits for
the disk, and on a journalling file system the waits of files synced at once are shared, so a
turn's dozen files cost about one wait rather than a dozen."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import json
import os
import stat
import tempfile
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any, TypeVar

import polars as pl


class StoreError(Exception):
    """A game folder problem; the message names the file and what is wrong."""


class TamperError(StoreError):
    """A file whose content does not match its manifest."""


def sha256_file(path: Path) -> str:
    """The sha256 hex digest of a file."""
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def parquet_bytes(df: pl.DataFrame) -> bytes:
    """A frame as Parquet bytes (deterministic for the same frame)."""
    buf = io.BytesIO()
    df.write_parquet(buf, statistics=False)
    return buf.getvalue()


def current_umask() -> int:
    """The process's umask (read without changing it where the system tells it)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _mkdir(path: Path) -> None:
    """Make a folder (and its parents) with the modes the umask allows."""
    path.mkdir(parents=True, exist_ok=True)


def fsync_dir(path: Path) -> None:
    """Make a folder's entries (a file created or renamed in it) survive a power cut (or a
    file's bytes)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_bytes(path: Path, data: bytes, *, sync: bool = True) -> None:
    """Create ``path`` holding ``data``, synced unless the caller syncs it later with others
    (:func:`sync_all`)."""
    _mkdir(path.parent)
    with path.open("wb") as f:
        f.write(data)
        if sync:
            f.flush()
            os.fsync(f.fileno())


T = TypeVar("T")
R = TypeVar("R")
_THREADS = "gmkit-io"
_POOL: ThreadPoolExecutor | None = None
_POOL_GUARD = threading.Lock()


def _forget_pool() -> None:
    """In a forked child the parent's threads are gone: its pool must never be used there."""
    global _POOL
    _POOL = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


def in_parallel(fn: Callable[[T], R], items: Iterable[T]) -> list[R]:
    """``fn`` of each item, run at once on a few shared threads (for work that leaves Python
    while it waits or computes: a sync, a Parquet encoding or decoding), in the items' order;
    the first item's failure is raised, as a loop would."""
    global _POOL
    todo = list(items)
    # one item, or called from one of the threads (never waiting on the threads themselves)
    if len(todo) <= 1 or threading.current_thread().name.startswith(_THREADS):
        return [fn(item) for item in todo]
    with _POOL_GUARD:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=16, thread_name_prefix=_THREADS)
        pool = _POOL
    futures = [pool.submit(fn, item) for item in todo]
    wait(futures)  # all done before any failure is raised: nothing left running behind it
    return [future.result() for future in futures]


def sync_all(paths: Iterable[Path], fsync: Callable[[Path], None] | None = None) -> None:
    """Make files and folders (their entries) survive a power cut, synced at once rather than
    one after another (each with ``fsync``, default :func:`fsync_dir`, which syncs a file as
    well); returns when every one is synced, raises the first failure."""
    in_parallel(fsync_dir if fsync is None else fsync, dict.fromkeys(paths))


#: What ``os.link`` raises where a file system cannot give a file a second name: another
#: device, a file system without hard links, or too many names for one file.
NO_LINK = frozenset({errno.EXDEV, errno.EPERM, errno.EMLINK, errno.ENOTSUP, errno.EOPNOTSUPP,
                     errno.ENOSYS})


def link_or_copy(src: Path, dst: Path, digest: str) -> bool:
    """Give the file ``src`` a second name ``dst``: a hard link (the same bytes, kept once), or a
    copy where the file system refuses hard links (another device, no hard links, too many
    names). ``src`` must still hash to ``digest`` (sha256): when it does not, or cannot be
    read, nothing is left at ``dst`` and False is returned. The caller syncs ``dst`` and its
    folder."""
    _mkdir(dst.parent)
    try:
        os.link(src, dst)
    except OSError as e:
        if e.errno not in NO_LINK:
            return False
        try:
            blob = read_regular(src)
        except StoreError:
            return False
        if hashlib.sha256(blob).hexdigest() != digest:
            return False
        _write_bytes(dst, blob, sync=False)
        return True
    try:
        same = hashlib.sha256(read_regular(dst)).hexdigest() == digest
    except StoreError:
        same = False
    if not same:  # altered since its turn was committed: never carried into another turn
        os.unlink(dst)
    return same


def atomic_write(path: Path, data: bytes, *, exclusive: bool = False) -> None:
    """Write a file so that readers see the old content or the new, never a half; the folder is
    synced so the new entry survives a power cut. With ``exclusive``, an existing file is never
    replaced (:class:`FileExistsError`)."""
    _mkdir(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        os.fchmod(fd, 0o666 & ~current_umask())
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if exclusive:
            os.link(tmp, path)  # fails when the file exists: never two seeds for one turn
            os.unlink(tmp)
        else:
            os.replace(tmp, path)
        fsync_dir(path.parent)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def read_regular(path: Path) -> bytes:
    """The bytes of a regular file; anything else (a folder, a FIFO, a device) is refused
    without opening it, so a planted pipe cannot hang a reader."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        raise StoreError(f"{path}: missing") from None
    if not stat.S_ISREG(st.st_mode):
        raise StoreError(f"{path}: not a regular file")
    try:
        return path.read_bytes()
    except FileNotFoundError:  # moved away since it was looked at
        raise StoreError(f"{path}: missing") from None


def read_text_file(path: Path) -> str:
    """A regular file's text, which must be UTF-8 (the error names the file and the byte)."""
    blob = read_regular(path)
    try:
        return blob.decode("utf-8")
    except UnicodeDecodeError as e:
        raise StoreError(f"{path}: not UTF-8 text (byte 0x{blob[e.start]:02x} at offset "
                         f"{e.start}); save it as UTF-8") from None


def read_json_file(path: Path, kind: type = dict) -> Any:
    """A regular file's JSON value of the expected ``kind`` (errors name the file)."""
    try:
        value = json.loads(read_text_file(path))
    except json.JSONDecodeError as e:
        raise StoreError(f"{path}: malformed JSON ({e})") from None
    if not isinstance(value, kind):
        raise StoreError(f"{path}: must hold a JSON {'object' if kind is dict else 'array'}, "
                         f"not {type(value).__name__}")
    return value
