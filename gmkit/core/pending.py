"""What a game folder holds for its coming turn: the posts received (``pending/posts``), set
aside once a committed turn consumed them (``pending/used``) or withdrawn (``pending/withdrawn``),
and the dice the GM entered ahead of resolving (``pending/dice-NNNN.txt``).

:class:`PendingInput` is the part of :class:`gmkit.core.store.GameStore` that keeps them."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from gmkit.core.dice import DiceError, format_value, parse_entered
from gmkit.core.tables import ORDERS_SCHEMA
from gmkit.core.files import (StoreError, _mkdir, atomic_write, fsync_dir, read_json_file,
                              sync_all)


#: The journal of several posts stored at once (an import); the next command completes it.
IMPORT_JOURNAL = "pending/import-journal.json"


class PendingInput:
    """The pending input of a game folder (see the module docstring)."""

    root: Path

    if TYPE_CHECKING:  # given by GameStore
        def lock(self) -> contextlib.AbstractContextManager[None]: ...
        def latest(self) -> int: ...
        def _turn_dirs(self) -> dict[int, dict[int, Path]]: ...
        def manifest(self, turn: int, revision: int | None = None) -> dict[str, Any]: ...
        def read_turn(self, turn: int | None = None, revision: int | None = None, *,
                      verify: bool = True) -> Any: ...
        def _finish_rollback(self) -> None: ...

    # -- pending input -------------------------------------------------------------------------
    def _post_records(self) -> list[tuple[Path, dict[str, Any]]]:
        """Every pending post file with its record, checked (errors name the file)."""
        if (self.root / IMPORT_JOURNAL).exists():
            with self.lock():
                self._finish_import()
        out = []
        for p in sorted((self.root / "pending" / "posts").glob("*.json")):
            try:
                rec = read_json_file(p)
            except StoreError:
                if not os.path.lexists(p):  # set aside by a commit since the listing: consumed
                    continue
                raise
            for key, kind in (("turn", int), ("seq", int), ("player", str), ("secret", bool),
                              ("received", str), ("text", str)):
                if key not in rec:
                    raise StoreError(f"{p}: the post has no '{key}'")
                if not isinstance(rec[key], kind) or (kind is int and isinstance(rec[key], bool)):
                    raise StoreError(f"{p}: '{key}' must be a {kind.__name__}, not {rec[key]!r}")
            if rec.setdefault("posted", None) is not None and not isinstance(rec["posted"], str):
                raise StoreError(f"{p}: 'posted' must be a time, not {rec['posted']!r}")
            out.append((p, rec))
        return out

    def consumed(self, turn: int) -> set[int]:
        """The posts the current revision of a committed turn consumed (empty when the turn is
        not committed)."""
        if turn not in self._turn_dirs():
            return set()
        manifest = self.manifest(turn)
        if isinstance(manifest.get("posts"), list):
            return {int(s) for s in manifest["posts"]}
        # a turn written before manifests listed their posts: its orders table says
        return set(self.read_turn(turn).orders["seq"].to_list())

    def _set_aside_consumed(self, known: Mapping[int, set[int]] | None = None) -> None:
        """Move the posts a committed turn consumed to ``pending/used`` (housekeeping: the
        manifest already says which were consumed, so a crash here loses nothing). ``known``:
        what turns just committed consumed, as their manifests say."""
        used = self.root / "pending" / "used"
        consumed = functools.cache(self.consumed)  # each turn's manifest read once
        moved = False
        for p, rec in self._post_records_lenient():
            turn = rec["turn"]
            if rec["seq"] in (known[turn] if known and turn in known else consumed(turn)):
                _mkdir(used)
                os.rename(p, used / f"{turn:04d}-{p.name}")
                moved = True
        if moved:  # the manifest records what was consumed; the folders say so too, synced
            sync_all([used, self.root / "pending" / "posts"], fsync_dir)

    def _post_records_lenient(self) -> list[tuple[Path, dict[str, Any]]]:
        out = []
        for p in sorted((self.root / "pending" / "posts").glob("*.json")):
            with contextlib.suppress(StoreError):
                rec = read_json_file(p)
                if isinstance(rec.get("turn"), int) and isinstance(rec.get("seq"), int):
                    out.append((p, rec))
        return out

    def add_post(self, turn: int | None, player: str, text: str, *, secret: bool,
                 received: str, note: str = "", posted: str | None = None) -> tuple[int, int]:
        """Store a post received for the coming turn; returns ``(seq, turn)``.

        The turn is read under the lock (``turn`` None), or checked to be still the coming one,
        so a post never lands in a turn committed meanwhile."""
        with self.lock():
            self._finish_rollback()
            coming = self.latest() + 1
            if turn is not None and turn != coming:
                raise StoreError(f"turn {turn} is committed already; the post was not stored "
                                 f"(orders are now for turn {coming})")
            posts = self.root / "pending" / "posts"
            _mkdir(posts)
            seq = self._next_seq()
            record = {"turn": coming, "seq": seq, "player": player, "secret": secret,
                      "received": received, "text": text, "posted": posted}
            if note:
                record["note"] = note
            atomic_write(posts / f"{seq:05d}.json", json.dumps(record, ensure_ascii=False).encode(),
                         exclusive=True)
            return seq, coming

    def add_posts(self, records: Sequence[Mapping[str, Any]]
                  ) -> tuple[list[int | None], int]:
        """Store several posts for the coming turn at once, all or none (an import): each
        record holds ``player``, ``text``, ``secret``, ``received``, ``posted`` and a
        ``source`` (where it came from, such as a chat message), with an ``account`` (the
        sender's account) where known. A post whose source was received before (pending,
        consumed or withdrawn) is not stored again. Returns each record's new number (None for
        a record not stored again), and the turn.

        The posts are written first as one journal file (the point of no return), then one
        file each; a command stopped half-way is completed by the next one."""
        with self.lock():
            self._finish_rollback()
            coming = self.latest() + 1
            have = set(self.received_sources())
            seq = self._next_seq()
            batch: list[dict[str, Any]] = []
            seqs: list[int | None] = []
            for rec in records:
                source = rec.get("source")
                if source is not None:
                    if source in have:
                        seqs.append(None)
                        continue
                    have.add(str(source))
                seqs.append(seq)
                batch.append({"turn": coming, "seq": seq, "player": rec["player"],
                              "secret": bool(rec.get("secret", False)),
                              "received": rec["received"], "text": rec["text"],
                              "posted": rec.get("posted"), "source": source,
                              **({"account": rec["account"]} if rec.get("account") else {})})
                seq += 1
            if batch:
                atomic_write(self.root / IMPORT_JOURNAL,
                             json.dumps({"posts": batch}, ensure_ascii=False).encode())
                self._finish_import()
            return seqs, coming

    def _finish_import(self) -> None:
        """Write the posts of an import's journal that are not written yet, then drop it."""
        path = self.root / IMPORT_JOURNAL
        if not path.exists():
            return
        batch = read_json_file(path).get("posts")  # whole: atomic_write renames it in place
        if not isinstance(batch, list):
            raise StoreError(f"{path}: an import's journal must list its posts")
        posts = self.root / "pending" / "posts"
        _mkdir(posts)
        for rec in batch:
            # written whole again (a file a stop cut short is made complete), synced below
            (posts / f"{int(rec['seq']):05d}.json").write_bytes(
                json.dumps(rec, ensure_ascii=False).encode())
        os.sync()  # every post on disk before the journal that holds them goes
        fsync_dir(posts)
        os.unlink(path)
        fsync_dir(path.parent)

    def _next_seq(self) -> int:
        """The number the next post gets: one more than any post kept (pending, consumed,
        withdrawn or set aside by a rollback)."""
        pending = self.root / "pending"
        seen = [p.stem.rsplit("-", 1)[-1] for sub in ("posts", "withdrawn", "used")
                for p in (pending / sub).glob("*.json")]
        seen += [p.stem.rsplit("-", 1)[-1] for p in (self.root / "attic").glob("*-post-*.json")]
        return 1 + max((int(x) for x in seen if x.isdigit()), default=0)

    def received_sources(self) -> dict[str, dict[str, Any]]:
        """Every post received from a source (an import's message), pending, consumed or
        withdrawn, by its source: so a message is received once. Posts a rollback set aside
        do not count (the turns they were for were set aside with them)."""
        out: dict[str, dict[str, Any]] = {}
        pending = self.root / "pending"
        for sub in ("posts", "used", "withdrawn"):
            for p in sorted((pending / sub).glob("*.json")):
                with contextlib.suppress(StoreError):
                    rec = read_json_file(p)
                    if isinstance(rec, dict) and isinstance(rec.get("source"), str):
                        out[rec["source"]] = rec
        return out

    def pending_posts(self, turn: int) -> pl.DataFrame:
        """The posts received for ``turn`` that it has not consumed, as an orders table (for a
        committed turn: its late posts)."""
        records = self._post_records()
        # what the turn consumed is read after its posts: a commit in between sets aside only
        # posts its manifest already lists
        done = self.consumed(turn) if turn in self._turn_dirs() else set()
        rows = [{k: rec[k] for k in ORDERS_SCHEMA} for _, rec in records
                if rec["turn"] == turn and rec["seq"] not in done]
        return pl.DataFrame(rows, schema=dict(ORDERS_SCHEMA))

    def late_posts(self) -> pl.DataFrame:
        """Posts that arrived for a turn after it was read for resolving: they stay with that
        turn until the GM re-resolves it to include them or carries them to the coming turn.
        An orders table with a ``turn`` column."""
        committed = self._turn_dirs()
        consumed = functools.cache(self.consumed)  # each turn's manifest read once
        rows = [{"turn": rec["turn"], **{k: rec[k] for k in ORDERS_SCHEMA}}
                for _, rec in self._post_records()
                if rec["turn"] in committed and rec["seq"] not in consumed(rec["turn"])]
        return pl.DataFrame(rows, schema={"turn": pl.Int64, **ORDERS_SCHEMA})

    def carry_post(self, seq: int) -> int:
        """Carry a late post to the coming turn (the GM's explicit choice); returns that turn."""
        with self.lock():
            self._finish_rollback()
            coming = self.latest() + 1
            for path, rec in self._post_records():
                if rec["seq"] == seq:
                    if rec["turn"] == coming:
                        raise StoreError(f"post #{seq} is already a post for turn {coming}")
                    if rec["turn"] > coming or rec["seq"] in self.consumed(rec["turn"]):
                        break
                    rec = {**rec, "turn": coming, "carried_from": rec["turn"]}
                    atomic_write(path, json.dumps(rec, ensure_ascii=False).encode())
                    return coming
            raise StoreError(f"post #{seq} is not a late post (see 'gmkit status')")

    def withdraw_post(self, seq: int, reason: str = "") -> None:
        """Set a pending post aside (kept in ``pending/withdrawn``, with the reason)."""
        with self.lock():
            src = self.root / "pending" / "posts" / f"{seq:05d}.json"
            if not src.exists():
                raise StoreError(f"{src}: no such pending post")
            dst = self.root / "pending" / "withdrawn"
            _mkdir(dst)
            if (dst / src.name).exists():
                raise StoreError(f"{dst / src.name}: a withdrawn post with this number is kept "
                                 "already")
            record = read_json_file(src)
            record["withdrawn"] = {"reason": reason,
                                   "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
            atomic_write(dst / src.name, json.dumps(record, ensure_ascii=False).encode(),
                         exclusive=True)
            os.unlink(src)
            fsync_dir(src.parent)

    def clear_posts(self, turn: int) -> None:
        """Set aside the posts a committed turn consumed (kept in ``pending/used``); posts that
        arrived after the turn was read stay pending, as late posts."""
        with self.lock():
            self._set_aside_consumed()

    # -- dice entered ahead --------------------------------------------------------------------
    def dice_path(self, turn: int) -> Path:
        """Where the dice the GM entered for a coming turn are kept: one ``draw-id = value``
        per line, the format of ``gmkit resolve --dice``."""
        return self.root / "pending" / f"dice-{turn:04d}.txt"

    def pending_dice(self, turn: int) -> dict[str, Any]:
        """The dice entered for a coming turn (empty when none); errors name the file."""
        path = self.dice_path(turn)
        if not path.exists():
            return {}
        try:
            return parse_entered(path.read_text("utf-8"))
        except (DiceError, OSError, UnicodeError) as e:
            raise StoreError(f"{path.name}: {e}") from None

    def save_pending_dice(self, turn: int, entered: Mapping[str, Any]) -> None:
        """Keep the dice entered for a coming turn (none entered: the file goes)."""
        path = self.dice_path(turn)
        if not entered:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            return
        lines = [f"# dice entered by the GM for turn {turn}"]
        lines += [f"{k} = {format_value(v)}" for k, v in sorted(entered.items())]
        atomic_write(path, ("\n".join(lines) + "\n").encode("utf-8"))

    def set_aside_dice(self, turn: int) -> None:
        """Move a committed turn's entered dice to ``pending/used`` (kept, never deleted)."""
        dice = self.dice_path(turn)
        if dice.exists():
            used = self.root / "pending" / "used"
            used.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(OSError):
                os.replace(dice, used / dice.name)
