"""The game folder: configuration, one immutable snapshot per committed turn, and pending input.

Layout of a game folder::

    game.toml                 ruleset, title, players, rule overrides
    map.geojson               the game's map (a copy, so a GM can swap in their own)
    board.toml                or the copy of a board of another kind the ruleset ships
    turns/0003.r0/            turn 3, revision 0 (a re-resolved turn gets r1, r2, ...)
        manifest.json         sha256 of every file below, and of the previous turn's manifest
        tables/<name>.parquet the state tables after the turn
        orders.parquet        the posts received (raw text, who sent them, secret or not)
        rolls.parquet         every draw of the turn
        events.parquet        every event of the turn
        entered.json          dice the GM entered from rolls made elsewhere
    attic/                    turns set aside by an explicit rollback, never deleted
    pending/posts/*.json      posts received for the next turn
    secret/0004.seed          the seed of turn 4 (GM only until revealed)
    revealed/0004.seed        the seed once revealed

A commit is written to a hidden staging folder and renamed into place, so a crash at any point
leaves the last good turn intact and no half turn visible. A committed turn is never overwritten.
Every file is checked against its manifest hash and schema when read.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import io
import json
import os
import re
import shutil
import tempfile
import threading
import time
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl
import tomli_w

from gmkit.core.files import (StoreError, TamperError, _mkdir, _write_bytes, atomic_write,
                              current_umask, fsync_dir, parquet_bytes, read_json_file,
                              read_regular, read_text_file, sha256_file)
from gmkit.core.tables import Schema, SchemaError, State, check_frame

FORMAT = "gmkit-turn/1"
TURN_DIR = re.compile(r"^(\d{4,})\.r(\d+)$")

ORDERS_SCHEMA: Schema = {"seq": pl.Int64, "player": pl.String, "secret": pl.Boolean,
                         "received": pl.String, "text": pl.String, "posted": pl.String}
#: Columns added to a log after games were written without them, and their value in an older
#: file (read as if it had the column; the file itself, whose hash is history, is never changed).
ADDED_COLUMNS: Mapping[str, pl.Expr] = {"posted": pl.lit(None, pl.String),
                                         "shared_with": pl.lit(None, pl.List(pl.String))}
ROLLS_SCHEMA: Schema = {"step": pl.String, "draw_id": pl.String, "purpose": pl.String,
                        "rule": pl.String, "expression": pl.String, "result": pl.String,
                        "total": pl.Float64, "source": pl.String, "public": pl.Boolean,
                        "player": pl.String, "shared_with": pl.List(pl.String)}
EVENTS_SCHEMA: Schema = {"step": pl.String, "kind": pl.String, "rule": pl.String,
                         "text": pl.String, "player": pl.String, "region": pl.String,
                         "public": pl.Boolean, "data": pl.String,
                         "shared_with": pl.List(pl.String)}
LOG_SCHEMAS: Mapping[str, Schema] = {"orders": ORDERS_SCHEMA, "rolls": ROLLS_SCHEMA,
                                     "events": EVENTS_SCHEMA}


#: The journal of a rollback under way; the next command completes it.
ROLLBACK_JOURNAL = "rollback-journal.json"
#: The journal of several posts stored at once (an import); the next command completes it.
IMPORT_JOURNAL = "pending/import-journal.json"
SEED_TEXT = re.compile(r"[0-9a-f]{64}")
GITIGNORE = """\
# The GM's secret seeds: never share them before they are revealed (revealed/ holds those).
secret/
.lock
"""


def commitment_of(seed: str) -> str:
    """The commitment of a seed: sha256 of its hex text (see :mod:`gmkit.core.dice`)."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


@dataclass
class _HeldLock:
    rlock: threading.RLock = field(default_factory=threading.RLock)
    depth: int = 0


_LOCKS: dict[str, _HeldLock] = {}
_LOCKS_GUARD = threading.Lock()


@dataclass(frozen=True)
class TurnData:
    """Everything one committed turn holds."""

    turn: int
    state: State
    orders: pl.DataFrame
    rolls: pl.DataFrame
    events: pl.DataFrame
    entered: Mapping[str, Any] = field(default_factory=dict)
    seed_commitment: str | None = None
    outcome: str | None = None
    revision: int = 0
    manifest_hash: str = ""


def canonical_turn_dir(turn: int, revision: int) -> str:
    """The one name a turn revision's folder may have."""
    return f"{turn:04d}.r{revision}"


class GameStore:
    """A game folder on disk. ``schemas`` are the ruleset's state table schemas; ``added``
    names the tables (``None``) and columns (a tuple) the ruleset added after games were
    written, which an older turn reads as an empty table or a null column."""

    def __init__(self, root: str | Path, schemas: Mapping[str, Schema] | None = None,
                 added: Mapping[str, tuple[str, ...] | None] | None = None):
        self.root = Path(root)
        self.schemas = dict(schemas or {})
        self.added = dict(added or {})
        if not (self.root / "game.toml").is_file():
            raise StoreError(f"{self.root}: not a game folder (no game.toml)")

    # -- configuration -------------------------------------------------------------------------
    @staticmethod
    def read_config(root: str | Path) -> dict[str, Any]:
        """The parsed ``game.toml`` of a game folder."""
        path = Path(root) / "game.toml"
        if not path.exists():
            raise StoreError(f"{Path(root)}: not a game folder (no game.toml)")
        try:
            return tomllib.loads(read_text_file(path))
        except tomllib.TOMLDecodeError as e:
            raise StoreError(f"{path}: malformed TOML: {e}") from None

    @property
    def config(self) -> dict[str, Any]:
        """This game's configuration."""
        return self.read_config(self.root)

    def write_config(self, config: Mapping[str, Any]) -> None:
        """Replace ``game.toml`` atomically (only through recorded commands)."""
        atomic_write(self.root / "game.toml", tomli_w.dumps(dict(config)).encode())

    @classmethod
    def create(cls, root: str | Path, config: Mapping[str, Any], schemas: Mapping[str, Schema],
               turn0: TurnData | None = None, map_geojson: bytes | None = None,
               record: Mapping[str, Any] | None = None,
               files: Mapping[str, bytes] | None = None) -> GameStore:
        """Create a new game folder with its set-up committed as turn 0 (``files``: more files
        of the folder, by name, such as the copy of a board that is not a polygon map).

        Everything is written in a hidden folder beside ``root`` and renamed into place, so a
        killed creation leaves no half game, and can simply be run again. ``root`` must not
        exist or be an empty folder."""
        root = Path(root)
        if root.exists() and (not root.is_dir() or any(root.iterdir())):
            raise StoreError(f"{root}: already exists and is not empty")
        parent = root.absolute().parent
        _mkdir(parent)
        for old in parent.glob(f".{root.name}.new-*"):  # what a killed creation left
            shutil.rmtree(old, ignore_errors=True)
        staging = Path(tempfile.mkdtemp(dir=parent, prefix=f".{root.name}.new-"))
        try:
            os.chmod(staging, 0o777 & ~current_umask())
            if map_geojson is not None:
                _write_bytes(staging / "map.geojson", map_geojson)
            for name, blob in (files or {}).items():
                _write_bytes(staging / name, blob)
            _write_bytes(staging / "game.toml", tomli_w.dumps(dict(config)).encode())
            _write_bytes(staging / ".gitignore", GITIGNORE.encode())
            for sub in ("turns", "pending/posts", "secret", "revealed", "attic"):
                _mkdir(staging / sub)
            if turn0 is not None:
                cls(staging, schemas).commit(turn0, record=record)
            if root.exists():
                root.rmdir()  # empty, checked above
            os.rename(staging, root)
            fsync_dir(parent)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        return cls(root, schemas)

    # -- turns ---------------------------------------------------------------------------------
    def _turn_dirs(self) -> dict[int, dict[int, Path]]:
        tdir = self.root / "turns"
        try:
            stamp = tdir.stat().st_mtime_ns
        except FileNotFoundError:
            return {}
        cached = getattr(self, "_listing", None)
        if cached is not None and cached[0] == stamp:
            return {t: dict(revs) for t, revs in cached[1].items()}
        out: dict[int, dict[int, Path]] = {}
        for p in tdir.iterdir():
            m = TURN_DIR.match(p.name)
            # only the canonical name counts (a shadow '00006.r0' or a renamed folder is not a
            # turn; verify reports it)
            if m and p.is_dir() and p.name == canonical_turn_dir(int(m[1]), int(m[2])):
                out.setdefault(int(m.group(1)), {})[int(m.group(2))] = p
        # the folder's mtime changes whenever a turn is renamed in or out; a listing made in
        # the same clock tick as a change is not kept, so it is never stale
        if time.time_ns() - stamp > 50_000_000:
            self._listing = (stamp, out)
        return {t: dict(revs) for t, revs in out.items()}

    def stray_entries(self) -> list[Path]:
        """Entries of ``turns/`` that are not a turn folder (a renamed or shadow folder, a
        stray file); a killed commit's staging folder is not listed."""
        tdir = self.root / "turns"
        if not tdir.is_dir():
            return []
        turns = {p for revs in self._turn_dirs().values() for p in revs.values()}
        return sorted(p for p in tdir.iterdir()
                      if p not in turns and not p.name.startswith(".staging-"))

    def turns(self) -> list[int]:
        """Committed turn numbers, ascending."""
        return sorted(self._turn_dirs())

    def latest(self) -> int:
        """The last committed turn (turn 0 is the set-up)."""
        turns = self.turns()
        if not turns:
            raise StoreError(f"{self.root}: no committed turn")
        return turns[-1]

    def revisions(self, turn: int) -> list[int]:
        """The revisions of a turn, ascending; the last is current."""
        return sorted(self._turn_dirs().get(turn, {}))

    def turn_path(self, turn: int, revision: int | None = None) -> Path:
        """The folder of a turn's revision (the current one by default)."""
        revs = self._turn_dirs().get(turn)
        if not revs:
            raise StoreError(f"{self.root}: no turn {turn}")
        rev = max(revs) if revision is None else revision
        if rev not in revs:
            raise StoreError(f"{self.root}: turn {turn} has no revision {rev}")
        return revs[rev]

    @staticmethod
    def parse_manifest(path: Path) -> dict[str, Any]:
        """A manifest file, parsed and checked for shape."""
        try:
            data = json.loads(read_regular(path))
        except StoreError as e:
            raise StoreError(f"{path}: missing manifest" if "missing" in str(e) else str(e)) \
                from None
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise TamperError(f"{path}: malformed manifest: {e}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT or "files" not in data:
            raise TamperError(f"{path}: not a gmkit turn manifest")
        files = data["files"]
        if not isinstance(files, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
            raise TamperError(f"{path}: 'files' must map each file to its sha256")
        if not isinstance(data.get("turn"), int) or not isinstance(data.get("revision", 0), int):
            raise TamperError(f"{path}: 'turn' and 'revision' must be whole numbers")
        return data

    def manifest(self, turn: int, revision: int | None = None) -> dict[str, Any]:
        """A turn's manifest, parsed."""
        return self.parse_manifest(self.turn_path(turn, revision) / "manifest.json")

    def manifest_hash(self, turn: int, revision: int | None = None) -> str:
        """The sha256 of a turn's manifest file (what the next turn chains to)."""
        return sha256_file(self.turn_path(turn, revision) / "manifest.json")

    def check_turn(self, turn: int, revision: int | None = None) -> list[str]:
        """Problems with one turn revision's files: hashes, missing or unlisted files, its
        folder name against its manifest, the chain link to the previous turn."""
        problems: list[str] = []
        folder = self.turn_path(turn, revision)
        try:
            manifest = self.manifest(turn, revision)
        except StoreError as e:
            return [str(e)]
        problems.extend(self._file_problems(folder, manifest)[0])
        rev = max(self.revisions(turn)) if revision is None else revision
        if manifest.get("turn") != turn or manifest.get("revision", 0) != rev:
            problems.append(f"{folder}: the folder's name does not match its manifest (turn "
                            f"{manifest.get('turn')} revision {manifest.get('revision', 0)})")
        prev = manifest.get("previous")
        if turn > 0:
            prev_turns = [t for t in self.turns() if t < turn]
            if not prev_turns and not manifest.get("given"):
                # only a given position (the state after turn N, ``given`` in its manifest)
                # may be a folder's first turn other than 0
                problems.append(f"{folder}: turn {turn} has no previous turn")
            elif not prev_turns:
                if prev is not None:
                    problems.append(f"{folder}/manifest.json: the game's first turn links to "
                                    "a previous turn")
            else:
                try:
                    want = self.manifest_hash(prev_turns[-1])
                except OSError:
                    want = None
                    problems.append(f"{folder}: the link to turn {prev_turns[-1]} cannot be "
                                    "checked: its manifest is missing")
                if want is not None and prev != want:
                    problems.append(f"{folder}/manifest.json: previous-turn hash does not match "
                                    f"turn {prev_turns[-1]}'s manifest")
        elif prev is not None:
            problems.append(f"{folder}/manifest.json: turn 0 links to a previous turn")
        return problems

    @staticmethod
    def _parse_parquet(source: Path | bytes, path: Path, schema: Schema,
                       lack: tuple[str, ...] = ()) -> pl.DataFrame:
        try:
            df = pl.read_parquet(io.BytesIO(source) if isinstance(source, bytes) else source)
        except FileNotFoundError:
            raise StoreError(f"{path}: missing") from None
        except Exception as e:  # polars raises several kinds for a corrupt file
            raise StoreError(f"{path}: not a readable Parquet file ({type(e).__name__}: "
                             f"{str(e).splitlines()[0] if str(e) else ''})") from None
        missing = [c for c in schema if c not in df.columns and (c in ADDED_COLUMNS or c in lack)]
        if missing:
            df = df.with_columns((ADDED_COLUMNS[c] if c in ADDED_COLUMNS
                                  else pl.lit(None, dtype=schema[c])).alias(c) for c in missing)
        try:
            return check_frame(df, schema, str(path))
        except SchemaError as e:
            raise StoreError(str(e)) from None

    def _read_parquet(self, path: Path, schema: Schema) -> pl.DataFrame:
        return self._parse_parquet(path, path, schema)

    def _state_table(self, name: str, blobs: Mapping[str, bytes | Path], folder: Path
                     ) -> pl.DataFrame:
        """State table ``name`` of a turn whose files are ``blobs``; a table or column the
        ruleset added since the turn was written reads as empty or null (``added``)."""
        rel, schema = f"tables/{name}.parquet", self.schemas[name]
        if rel not in blobs:
            if name in self.added and self.added[name] is None:
                return pl.DataFrame(schema=dict(schema))
            raise StoreError(f"{folder / rel}: missing")
        return self._parse_parquet(blobs[rel], folder / rel, schema, self.added.get(name) or ())

    def _verified_files(self, folder: Path, manifest: Mapping[str, Any]) -> dict[str, bytes]:
        """Every file a manifest lists, read once and checked against its hash."""
        problems, blobs = self._file_problems(folder, manifest)
        if problems:
            raise TamperError("; ".join(problems))
        return blobs

    @staticmethod
    def _file_problems(folder: Path, manifest: Mapping[str, Any]
                       ) -> tuple[list[str], dict[str, bytes]]:
        """Missing, unlisted and altered files of a turn folder, and the listed files' bytes."""
        listed = manifest["files"]
        present = {p.relative_to(folder).as_posix() for p in folder.rglob("*")
                   if not p.is_dir() and p.name != "manifest.json"}
        problems = [f"{folder / rel}: missing (listed in the manifest)"
                    for rel in sorted(set(listed) - present)]
        problems += [f"{folder / rel}: not listed in the manifest"
                     for rel in sorted(present - set(listed))]
        blobs = {}
        for rel in sorted(set(listed) & present):
            try:
                blob = read_regular(folder / rel)
            except StoreError as e:
                problems.append(str(e))
                continue
            if hashlib.sha256(blob).hexdigest() != listed[rel]:
                problems.append(f"{folder / rel}: content does not match its manifest hash")
            blobs[rel] = blob
        return problems, blobs

    def read_state(self, turn: int | None = None, revision: int | None = None) -> State:
        """Only the state tables of a committed turn (every file's hash is still checked)."""
        turn = self.latest() if turn is None else turn
        folder = self.turn_path(turn, revision)
        manifest = self.manifest(turn, revision)
        if manifest.get("turn") != turn:
            raise TamperError(f"{folder}/manifest.json: says turn {manifest.get('turn')}")
        blobs = self._verified_files(folder, manifest)
        return State(turn, {name: self._state_table(name, blobs, folder)
                            for name in self.schemas})

    def read_turn(self, turn: int | None = None, revision: int | None = None,
                  *, verify: bool = True) -> TurnData:
        """Read a committed turn, checking every hash and schema (raises naming the file)."""
        turn = self.latest() if turn is None else turn
        folder = self.turn_path(turn, revision)
        manifest = self.manifest(turn, revision)
        if manifest.get("turn") != turn:
            raise TamperError(f"{folder}/manifest.json: says turn {manifest.get('turn')}")
        blobs: Mapping[str, bytes | Path]
        if verify:
            blobs = self._verified_files(folder, manifest)
        else:
            blobs = {rel: folder / rel for rel in manifest["files"]}

        def frame(rel: str, schema: Schema) -> pl.DataFrame:
            if rel not in blobs:
                raise StoreError(f"{folder / rel}: missing")
            return self._parse_parquet(blobs[rel], folder / rel, schema)

        tables = {name: self._state_table(name, blobs, folder) for name in self.schemas}
        logs = {name: frame(f"{name}.parquet", schema) for name, schema in LOG_SCHEMAS.items()}
        path = folder / "entered.json"
        try:
            raw = blobs["entered.json"]
            entered = json.loads(raw if isinstance(raw, bytes) else read_regular(raw))
        except (KeyError, OSError, StoreError, json.JSONDecodeError, UnicodeDecodeError) as e:
            raise StoreError(f"{path}: unreadable ({e})") from None
        if not isinstance(entered, dict):
            raise StoreError(f"{path}: must hold a JSON object of draw ids and values")
        return TurnData(turn, State(turn, tables), logs["orders"], logs["rolls"], logs["events"],
                        entered, manifest.get("seed_commitment"), manifest.get("outcome"),
                        int(manifest.get("revision", 0)), sha256_file(folder / "manifest.json"))

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """An exclusive lock on the game folder for writers: across processes (``flock`` on
        ``.lock``) and across threads; re-entrant within one thread."""
        key = str(self.root.resolve())
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
                f = (self.root / ".lock").open("a")
            except PermissionError:
                raise StoreError(f"{self.root}: the game folder is read-only; nothing was "
                                 "changed") from None
            with f:
                fcntl.flock(f, fcntl.LOCK_EX)
                held.depth = 1
                try:
                    yield
                finally:
                    held.depth = 0
                    fcntl.flock(f, fcntl.LOCK_UN)

    def _clear_staging(self) -> None:
        """Remove what killed commits left (under the lock: no commit is running)."""
        for old in (self.root / "turns").glob(".staging-*"):
            shutil.rmtree(old, ignore_errors=True)

    def commit(self, data: TurnData, *, new_revision: bool = False,
               posts: Sequence[int] | None = None,
               record: Mapping[str, Any] | None = None) -> Path:
        """Write a turn atomically and return its folder.

        The turn must be the next one, or, with ``new_revision``, the latest one again (a
        re-resolution that keeps the old revision). A committed revision is never overwritten.
        ``posts`` are the sequence numbers of the posts the turn consumed (default: those of
        ``data.orders``): exactly those leave the pending posts. ``record`` adds what the turn
        was resolved with (rules, players, board) and why to its manifest.
        """
        consumed = sorted(int(s) for s in (data.orders["seq"].to_list() if posts is None
                                           else posts))
        with self.lock():
            self._clear_staging()
            turns = self.turns()
            latest = turns[-1] if turns else -1
            if new_revision:
                if data.turn != latest:
                    raise StoreError(f"{self.root}: only the latest turn ({latest}) can get a new "
                                     f"revision, not turn {data.turn}")
                revision = max(self.revisions(data.turn)) + 1
            else:
                if data.turn != latest + 1 and (turns or data.turn < 0):
                    # the first turn of a folder is its set-up: turn 0, or a given position
                    raise StoreError(f"{self.root}: turn {data.turn} cannot be committed after "
                                     f"turn {latest}" + (" (it is committed already; re-resolve "
                                     "to make a new revision)" if data.turn <= latest else ""))
                revision = 0
            prev_turns = [t for t in turns if t < data.turn]
            previous = self.manifest_hash(prev_turns[-1]) if prev_turns else None
            state = data.state.checked(self.schemas, f"turn {data.turn}")
            files: dict[str, bytes] = {f"tables/{n}.parquet": parquet_bytes(df)
                                       for n, df in state.tables.items()}
            for name, schema in LOG_SCHEMAS.items():
                frame = {"orders": data.orders, "rolls": data.rolls, "events": data.events}[name]
                files[f"{name}.parquet"] = parquet_bytes(check_frame(frame, schema, name))
            files["entered.json"] = json.dumps(dict(data.entered), sort_keys=True).encode()
            manifest = {**dict(record or {}), "format": FORMAT, "turn": data.turn,
                        "revision": revision, "previous": previous,
                        "seed_commitment": data.seed_commitment, "outcome": data.outcome,
                        "posts": consumed,
                        "files": {k: hashlib.sha256(v).hexdigest() for k, v in sorted(files.items())}}
            final = self.root / "turns" / canonical_turn_dir(data.turn, revision)
            staging = Path(tempfile.mkdtemp(dir=self.root / "turns", prefix=".staging-"))
            try:
                os.chmod(staging, 0o777 & ~current_umask())
                for rel, blob in files.items():
                    _write_bytes(staging / rel, blob)
                _write_bytes(staging / "manifest.json",
                             json.dumps(manifest, indent=1, sort_keys=True).encode())
                fsync_dir(staging / "tables")
                fsync_dir(staging)
                if final.exists():
                    raise StoreError(f"{final}: already committed; never overwritten")
                os.rename(staging, final)
                fsync_dir(final.parent)
            except BaseException:
                shutil.rmtree(staging, ignore_errors=True)
                raise
            self._set_aside_consumed()
            return final

    # -- rollback ------------------------------------------------------------------------------
    def rollback(self, to_turn: int, reason: str = "") -> list[Path]:
        """Set aside every turn after ``to_turn``, with its seeds, posts and dice, into
        ``attic/`` (kept, never deleted); the turns are then played again with fresh seeds.

        The whole move is planned first and written as a journal; a rollback killed half-way
        is completed by the next gmkit command that opens the game, so the folder is never
        left between two timelines."""
        with self.lock():
            self._finish_rollback()
            if to_turn not in self._turn_dirs():
                raise StoreError(f"{self.root}: no turn {to_turn} to roll back to")
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
                                          "retired_seeds")}
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

    def attic_manifests(self) -> list[tuple[Path, dict[str, Any], str]]:
        """Every set-aside turn revision in the attic: folder, manifest and manifest hash."""
        out = []
        for manifest in sorted((self.root / "attic").glob("*/manifest.json")):
            with contextlib.suppress(StoreError):
                out.append((manifest.parent, self.parse_manifest(manifest),
                            sha256_file(manifest)))
        return out

    # -- across turns --------------------------------------------------------------------------
    def history(self, table: str, *, verify: bool = True) -> pl.DataFrame:
        """One table (a state table, or orders, rolls, events) across every turn, with ``turn``.

        Every turn's files are checked against its manifest first (``verify``), so a tampered
        turn is reported rather than read."""
        if table in self.schemas:
            schema, rel = self.schemas[table], f"tables/{table}.parquet"
        elif table in LOG_SCHEMAS:
            schema, rel = LOG_SCHEMAS[table], f"{table}.parquet"
        else:
            raise StoreError(f"no table '{table}' (known: "
                             f"{', '.join([*self.schemas, *LOG_SCHEMAS])})")
        frames = []
        current = {turn: revs[max(revs)] for turn, revs in self._turn_dirs().items()}
        for turn in sorted(current):
            folder = current[turn]
            manifest = self.manifest(turn)
            blobs: Mapping[str, bytes | Path] = (
                self._verified_files(folder, manifest) if verify
                else {r: folder / r for r in manifest["files"]})
            if table in self.schemas:
                df = self._state_table(table, blobs, folder)
            elif rel in blobs:
                df = self._parse_parquet(blobs[rel], folder / rel, schema)
            else:
                raise StoreError(f"{folder / rel}: missing")
            frames.append(df.with_columns(pl.lit(turn, pl.Int64).alias("turn")))
        if not frames:
            return pl.DataFrame(schema={**schema, "turn": pl.Int64})
        return pl.concat(frames, how="vertical").select("turn", *schema)

    # -- pending input -------------------------------------------------------------------------
    def _post_records(self) -> list[tuple[Path, dict[str, Any]]]:
        """Every pending post file with its record, checked (errors name the file)."""
        if (self.root / IMPORT_JOURNAL).exists():
            with self.lock():
                self._finish_import()
        out = []
        for p in sorted((self.root / "pending" / "posts").glob("*.json")):
            rec = read_json_file(p)
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

    def _set_aside_consumed(self) -> None:
        """Move the posts a committed turn consumed to ``pending/used`` (housekeeping: the
        manifest already says which were consumed, so a crash here loses nothing)."""
        used = self.root / "pending" / "used"
        consumed = functools.cache(self.consumed)  # each turn's manifest read once
        moved = False
        for p, rec in self._post_records_lenient():
            turn = rec["turn"]
            if rec["seq"] in consumed(turn):
                _mkdir(used)
                os.rename(p, used / f"{turn:04d}-{p.name}")
                moved = True
        if moved:  # the manifest records what was consumed; the folders say so too, synced
            fsync_dir(used)
            fsync_dir(self.root / "pending" / "posts")

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

    def add_posts(self, records: Sequence[Mapping[str, Any]]) -> tuple[list[int], int]:
        """Store several posts for the coming turn at once, all or none (an import): each
        record holds ``player``, ``text``, ``secret``, ``received``, ``posted`` and a
        ``source`` (where it came from, such as a chat message), with an ``account`` (the
        sender's account) where known. A post whose source was received before (pending,
        consumed or withdrawn) is not stored again. Returns the new posts' numbers and their
        turn.

        The posts are written first as one journal file (the point of no return), then one
        file each; a command stopped half-way is completed by the next one."""
        with self.lock():
            self._finish_rollback()
            coming = self.latest() + 1
            have = set(self.received_sources())
            seq = self._next_seq()
            batch: list[dict[str, Any]] = []
            for rec in records:
                source = rec.get("source")
                if source is not None:
                    if source in have:
                        continue
                    have.add(str(source))
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
            return [r["seq"] for r in batch], coming

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
        done = self.consumed(turn) if turn in self._turn_dirs() else set()
        rows = [{k: rec[k] for k in ORDERS_SCHEMA} for _, rec in self._post_records()
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

    def withdrawn_posts(self) -> list[dict[str, Any]]:
        """Every withdrawn post's record (with the reason it was withdrawn)."""
        out = []
        for p in sorted((self.root / "pending" / "withdrawn").glob("*.json")):
            with contextlib.suppress(StoreError):
                out.append(read_json_file(p))
        return out

    def clear_posts(self, turn: int) -> None:
        """Set aside the posts a committed turn consumed (kept in ``pending/used``); posts that
        arrived after the turn was read stay pending, as late posts."""
        with self.lock():
            self._set_aside_consumed()

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
