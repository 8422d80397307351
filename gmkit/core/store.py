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
    pending/dice-0004.txt     dice the GM entered for turn 4 before resolving it
    secret/0004.seed          the seed of turn 4 (GM only until revealed)
    revealed/0004.seed        the seed once revealed

A commit is written to a hidden staging folder and renamed into place, so a crash at any point
leaves the last good turn intact and no half turn visible. A committed turn is never overwritten.
Every file is checked against its manifest hash and schema when read. Every turn folder is a
complete snapshot, but a file a turn left as it was (a table no rule
touched, the same entered dice) is not written again: it is a hard link to the previous turn's
file, the same bytes under the same hash (a copy where the file system refuses hard links). A
table is known unchanged by comparing it with the previous turn's as this store read it, or by
its bytes' hash; a previous file whose bytes no longer match their hash is never linked. Since
no file of a committed turn is ever written again (files are only created, linked and renamed,
never opened to write or re-moded), a shared file changes only when someone alters it by hand:
then every turn that shares it fails its hash check, and ``verify`` reports each of them.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import shutil
import tempfile
import time
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl
import tomli_w

from gmkit.core import files as _files
from gmkit.core.files import (StoreError, TamperError, _mkdir, atomic_write, current_umask,
                              fsync_dir, in_parallel, link_or_copy, parquet_bytes, read_regular,
                              read_text_file, sha256_file, sync_all)
from gmkit.core.rollback import Rollbacks
from gmkit.core.turnfiles import Before, comparable, conforms, files_under, folder_lock
from gmkit.core.tables import ADDED_COLUMNS, LOG_SCHEMAS, Schema, SchemaError, State, check_frame

FORMAT = "gmkit-turn/1"
TURN_DIR = re.compile(r"^(\d{4,})\.r(\d+)$")

GITIGNORE = """\
# The GM's secret seeds: never share them before they are revealed (revealed/ holds those).
secret/
.lock
"""




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


def _write_bytes(path: Path, data: bytes) -> None:
    """Create ``path`` holding ``data``, not yet synced: the files of a new folder are synced
    together (:func:`gmkit.core.files.sync_all`) before the folder is renamed into place."""
    _files._write_bytes(path, data, sync=False)


class GameStore(Rollbacks):
    """A game folder on disk. ``schemas`` are the ruleset's state table schemas; ``added``
    names the tables (``None``) and columns (a tuple) the ruleset added after games were
    written, which an older turn reads as an empty table or a null column."""

    def __init__(self, root: str | Path, schemas: Mapping[str, Schema] | None = None,
                 added: Mapping[str, tuple[str, ...] | None] | None = None):
        self.root = Path(root)
        self.schemas = dict(schemas or {})
        self.added = dict(added or {})
        #: The state tables of the turn last read, to compare the next commit's with: its
        #: folder, its manifest's hash, and each table file's frame and hash.
        self._kept: tuple[Path, str, dict[str, tuple[pl.DataFrame, str]]] | None = None
        if not (self.root / "game.toml").is_file():
            raise StoreError(f"{self.root}: not a game folder (no game.toml)")

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
        of the folder, by their path in it, such as the copy of a board that is not a polygon
        map, or the first turn's seed made ahead).

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
            written = {**({"map.geojson": map_geojson} if map_geojson is not None else {}),
                       **(files or {}), "game.toml": tomli_w.dumps(dict(config)).encode(),
                       ".gitignore": GITIGNORE.encode()}
            for name, blob in written.items():
                _write_bytes(staging / name, blob)  # in its folder (secret/0001.seed)
            for sub in ("turns", "pending/posts", "secret", "revealed", "attic"):
                _mkdir(staging / sub)
            folders = {(staging / name).parent for name in written}
            sync_all([*(staging / name for name in written), staging / "pending", *folders,
                      staging])
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
        return GameStore._manifest_of(GameStore._manifest_bytes(path), path)

    @staticmethod
    def _manifest_bytes(path: Path) -> bytes:
        try:
            return read_regular(path)
        except StoreError as e:
            raise StoreError(f"{path}: missing manifest" if "missing" in str(e) else str(e)) \
                from None

    @staticmethod
    def _manifest_of(blob: bytes, path: Path) -> dict[str, Any]:
        """The bytes of manifest file ``path``, parsed and checked for shape."""
        try:
            data = json.loads(blob)
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
        return GameStore._load_parquet(source, path, schema, lack)[0]

    @staticmethod
    def _load_parquet(source: Path | bytes, path: Path, schema: Schema,
                      lack: tuple[str, ...] = ()) -> tuple[pl.DataFrame, bool]:
        """A Parquet file's frame, checked against ``schema`` (columns it lacks that were added
        since are filled in), and whether the file holds exactly that frame: nothing filled in,
        the columns in the schema's order."""
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
        exact = not missing and conforms(df, schema)
        try:
            return (df if exact else check_frame(df, schema, str(path))), exact
        except SchemaError as e:
            raise StoreError(str(e)) from None

    def _state_table(self, name: str, blobs: Mapping[str, bytes | Path], folder: Path
                     ) -> pl.DataFrame:
        """State table ``name`` of a turn whose files are ``blobs``; a table or column the
        ruleset added since the turn was written reads as empty or null (``added``)."""
        return self._load_state_table(name, blobs, folder)[0]

    def _load_state_table(self, name: str, blobs: Mapping[str, bytes | Path], folder: Path
                          ) -> tuple[pl.DataFrame, bool]:
        """:meth:`_state_table`, and whether its file holds exactly that frame."""
        rel, schema = f"tables/{name}.parquet", self.schemas[name]
        if rel not in blobs:
            if name in self.added and self.added[name] is None:
                return pl.DataFrame(schema=dict(schema)), False
            raise StoreError(f"{folder / rel}: missing")
        return self._load_parquet(blobs[rel], folder / rel, schema, self.added.get(name) or ())

    def _read_state_tables(self, folder: Path, manifest: Mapping[str, Any], manifest_hash: str,
                           blobs: Mapping[str, bytes]) -> dict[str, pl.DataFrame]:
        """The state tables of a turn whose files ``blobs`` were checked against its manifest;
        those its files hold exactly are kept to compare the next commit's tables with."""
        tables: dict[str, pl.DataFrame] = {}
        kept: dict[str, tuple[pl.DataFrame, str]] = {}
        names = list(self.schemas)
        loaded = in_parallel(lambda name: self._load_state_table(name, blobs, folder), names)
        for name, (df, exact) in zip(names, loaded, strict=True):
            tables[name] = df
            rel = f"tables/{name}.parquet"
            if exact and comparable(df.dtypes):
                kept[rel] = (df.clone(), manifest["files"][rel])  # a copy a caller cannot alter
        self._kept = (folder, manifest_hash, kept)
        return tables

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
        present = files_under(folder) - {"manifest.json"}
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
        raw = self._manifest_bytes(folder / "manifest.json")
        manifest = self._manifest_of(raw, folder / "manifest.json")
        if manifest.get("turn") != turn:
            raise TamperError(f"{folder}/manifest.json: says turn {manifest.get('turn')}")
        blobs = self._verified_files(folder, manifest)
        return State(turn, self._read_state_tables(folder, manifest,
                                                   hashlib.sha256(raw).hexdigest(), blobs))

    def read_turn(self, turn: int | None = None, revision: int | None = None,
                  *, verify: bool = True) -> TurnData:
        """Read a committed turn, checking every hash and schema (raises naming the file)."""
        turn = self.latest() if turn is None else turn
        folder = self.turn_path(turn, revision)
        raw = self._manifest_bytes(folder / "manifest.json")
        manifest = self._manifest_of(raw, folder / "manifest.json")
        manifest_hash = hashlib.sha256(raw).hexdigest()
        if manifest.get("turn") != turn:
            raise TamperError(f"{folder}/manifest.json: says turn {manifest.get('turn')}")
        blobs: Mapping[str, bytes | Path]
        if verify:
            checked = self._verified_files(folder, manifest)
            tables = self._read_state_tables(folder, manifest, manifest_hash, checked)
            blobs = checked
        else:
            blobs = {rel: folder / rel for rel in manifest["files"]}
            tables = {name: self._state_table(name, blobs, folder) for name in self.schemas}

        def frame(rel: str, schema: Schema) -> pl.DataFrame:
            if rel not in blobs:
                raise StoreError(f"{folder / rel}: missing")
            return self._parse_parquet(blobs[rel], folder / rel, schema)

        logs = {name: frame(f"{name}.parquet", schema) for name, schema in LOG_SCHEMAS.items()}
        path = folder / "entered.json"
        try:
            blob = blobs["entered.json"]
            entered = json.loads(blob if isinstance(blob, bytes) else read_regular(blob))
        except (KeyError, OSError, StoreError, json.JSONDecodeError, UnicodeDecodeError) as e:
            raise StoreError(f"{path}: unreadable ({e})") from None
        if not isinstance(entered, dict):
            raise StoreError(f"{path}: must hold a JSON object of draw ids and values")
        return TurnData(turn, State(turn, tables), logs["orders"], logs["rolls"], logs["events"],
                        entered, manifest.get("seed_commitment"), manifest.get("outcome"),
                        int(manifest.get("revision", 0)), manifest_hash)

    def read_log(self, name: str, turn: int, revision: int | None = None) -> pl.DataFrame:
        """One log of a committed turn (``orders``, ``rolls`` or ``events``), its file checked
        against the turn's manifest, without reading the rest of the turn."""
        folder = self.turn_path(turn, revision)
        manifest = self.manifest(turn, revision)
        rel = f"{name}.parquet"
        blob = read_regular(folder / rel)
        if hashlib.sha256(blob).hexdigest() != manifest["files"].get(rel):
            raise TamperError(f"{folder / rel}: content does not match its manifest hash")
        return self._parse_parquet(blob, folder / rel, LOG_SCHEMAS[name])

    def lock(self) -> contextlib.AbstractContextManager[None]:
        """An exclusive lock on the game folder for writers: across processes (``flock`` on
        ``.lock``) and across threads; re-entrant within one thread."""
        return folder_lock(self.root)

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
            before = Before.of(self.turn_path(prev_turns[-1]) if prev_turns else None,
                               GameStore._manifest_of)
            state = data.state
            if not (state.tables.keys() == self.schemas.keys() and all(
                    conforms(df, self.schemas[n]) for n, df in state.tables.items())):
                state = state.checked(self.schemas, f"turn {data.turn}")
            # each file's bytes, or the frame of a table the turn left as it was
            files: dict[str, bytes | pl.DataFrame] = {}
            hashes: dict[str, str] = {}
            kept = self._kept_frames(before)
            frames: dict[str, pl.DataFrame] = {}  # those to encode
            for n, df in state.tables.items():
                rel = f"tables/{n}.parquet"
                old = kept.get(rel)
                if old is not None and old[0].schema == df.schema and old[0].equals(df):
                    # unchanged: the previous turn's file is linked, not encoded again
                    files[rel], hashes[rel] = df, old[1]
                else:
                    frames[rel] = df
            for name, schema in LOG_SCHEMAS.items():
                frame = {"orders": data.orders, "rolls": data.rolls, "events": data.events}[name]
                frames[f"{name}.parquet"] = (frame if conforms(frame, schema)
                                             else check_frame(frame, schema, name))
            files.update(zip(frames, in_parallel(parquet_bytes, frames.values()), strict=True))
            files["entered.json"] = json.dumps(dict(data.entered), sort_keys=True).encode()
            for rel, blob in files.items():
                if isinstance(blob, bytes):
                    hashes[rel] = hashlib.sha256(blob).hexdigest()
            final = self.root / "turns" / canonical_turn_dir(data.turn, revision)
            staging = Path(tempfile.mkdtemp(dir=self.root / "turns", prefix=".staging-"))
            try:
                os.chmod(staging, 0o777 & ~current_umask())
                self._write_files(staging, files, hashes, before)
                manifest = {**dict(record or {}), "format": FORMAT, "turn": data.turn,
                            "revision": revision, "previous": before.manifest_hash,
                            "seed_commitment": data.seed_commitment, "outcome": data.outcome,
                            "posts": consumed, "files": dict(sorted(hashes.items()))}
                _write_bytes(staging / "manifest.json",
                             json.dumps(manifest, indent=1, sort_keys=True).encode())
                # every file (a linked one too: its data may never have been synced, in a
                # folder copied in) and both folders, at once, before the turn is renamed in
                sync_all([*(staging / rel for rel in files), staging / "manifest.json",
                          *([staging / "tables"] if (staging / "tables").is_dir() else []),
                          staging])
                if final.exists():
                    raise StoreError(f"{final}: already committed; never overwritten")
                os.rename(staging, final)
                fsync_dir(final.parent)
            except BaseException:
                shutil.rmtree(staging, ignore_errors=True)
                raise
            self._set_aside_consumed({data.turn: set(consumed)})
            return final

    def _kept_frames(self, before: Before) -> dict[str, tuple[pl.DataFrame, str]]:
        """The previous turn's state tables as this store last read them, with their files'
        hashes, when they are still what that turn's manifest lists (else nothing)."""
        kept = self._kept
        if before.folder is None or kept is None or kept[0] != before.folder \
                or kept[1] != before.manifest_hash:
            return {}
        return {rel: old for rel, old in kept[2].items() if before.files.get(rel) == old[1]}

    @staticmethod
    def _write_files(staging: Path, files: Mapping[str, bytes | pl.DataFrame],
                     hashes: dict[str, str], before: Before) -> None:
        """Write a turn's files (their bytes, or a table's frame equal to the previous turn's)
        into ``staging``, unsynced; a file with the same bytes as the previous turn's is linked
        to it (copied where the file system has no hard links). ``hashes`` are updated for a
        file that could not be linked after all."""
        for rel, blob in files.items():
            dst = staging / rel
            if before.folder is not None and before.files.get(rel) == hashes.get(rel) \
                    and link_or_copy(before.folder / rel, dst, hashes[rel]):
                continue
            if isinstance(blob, pl.DataFrame):  # the previous file is gone or altered
                blob = parquet_bytes(blob)
                hashes[rel] = hashlib.sha256(blob).hexdigest()
            _write_bytes(dst, blob)

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
