"""The game folder: configuration, one immutable snapshot per committed turn, and pending input.

Layout of a game folder::

    game.toml                 ruleset, title, players, rule overrides
    map.geojson               the game's map (a copy, so a GM can swap in their own)
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
import hashlib
import io
import json
import os
import re
import shutil
import tempfile
import time
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl
import tomli_w

from gmkit.core.tables import Schema, SchemaError, State, check_frame

FORMAT = "gmkit-turn/1"
TURN_DIR = re.compile(r"^(\d{4,})\.r(\d+)$")

ORDERS_SCHEMA: Schema = {"seq": pl.Int64, "player": pl.String, "secret": pl.Boolean,
                         "received": pl.String, "text": pl.String}
ROLLS_SCHEMA: Schema = {"step": pl.String, "draw_id": pl.String, "purpose": pl.String,
                        "rule": pl.String, "expression": pl.String, "result": pl.String,
                        "total": pl.Float64, "source": pl.String, "public": pl.Boolean,
                        "player": pl.String}
EVENTS_SCHEMA: Schema = {"step": pl.String, "kind": pl.String, "rule": pl.String,
                         "text": pl.String, "player": pl.String, "region": pl.String,
                         "public": pl.Boolean, "data": pl.String}
LOG_SCHEMAS: Mapping[str, Schema] = {"orders": ORDERS_SCHEMA, "rolls": ROLLS_SCHEMA,
                                     "events": EVENTS_SCHEMA}


class StoreError(Exception):
    """A game folder problem; the message names the file and what is wrong."""


class TamperError(StoreError):
    """A file whose content does not match its manifest."""


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


def _write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def atomic_write(path: Path, data: bytes) -> None:
    """Write a file so that readers see the old content or the new, never a half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class GameStore:
    """A game folder on disk. ``schemas`` are the ruleset's state table schemas."""

    def __init__(self, root: str | Path, schemas: Mapping[str, Schema] | None = None):
        self.root = Path(root)
        self.schemas = dict(schemas or {})
        if not (self.root / "game.toml").is_file():
            raise StoreError(f"{self.root}: not a game folder (no game.toml)")

    # -- configuration -------------------------------------------------------------------------
    @staticmethod
    def read_config(root: str | Path) -> dict[str, Any]:
        """The parsed ``game.toml`` of a game folder."""
        path = Path(root) / "game.toml"
        try:
            with path.open("rb") as f:
                return tomllib.load(f)
        except FileNotFoundError:
            raise StoreError(f"{Path(root)}: not a game folder (no game.toml)") from None
        except tomllib.TOMLDecodeError as e:
            raise StoreError(f"{path}: malformed TOML: {e}") from None

    @property
    def config(self) -> dict[str, Any]:
        """This game's configuration."""
        return self.read_config(self.root)

    @classmethod
    def create(cls, root: str | Path, config: Mapping[str, Any],
               schemas: Mapping[str, Schema], map_geojson: bytes | None = None) -> GameStore:
        """Create a new game folder (it must not exist or be empty)."""
        root = Path(root)
        if root.exists() and any(root.iterdir()):
            raise StoreError(f"{root}: already exists and is not empty")
        root.mkdir(parents=True, exist_ok=True)
        if map_geojson is not None:
            atomic_write(root / "map.geojson", map_geojson)
        atomic_write(root / "game.toml", tomli_w.dumps(dict(config)).encode())
        for sub in ("turns", "pending/posts", "secret", "revealed", "attic"):
            (root / sub).mkdir(parents=True, exist_ok=True)
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
            if m and p.is_dir():
                out.setdefault(int(m.group(1)), {})[int(m.group(2))] = p
        # the folder's mtime changes whenever a turn is renamed in or out; a listing made in
        # the same clock tick as a change is not kept, so it is never stale
        if time.time_ns() - stamp > 50_000_000:
            self._listing = (stamp, out)
        return {t: dict(revs) for t, revs in out.items()}

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

    def manifest(self, turn: int, revision: int | None = None) -> dict[str, Any]:
        """A turn's manifest, parsed."""
        path = self.turn_path(turn, revision) / "manifest.json"
        try:
            data = json.loads(path.read_bytes())
        except FileNotFoundError:
            raise StoreError(f"{path}: missing manifest") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise TamperError(f"{path}: malformed manifest: {e}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT or "files" not in data:
            raise TamperError(f"{path}: not a gmkit turn manifest")
        return data

    def manifest_hash(self, turn: int, revision: int | None = None) -> str:
        """The sha256 of a turn's manifest file (what the next turn chains to)."""
        return sha256_file(self.turn_path(turn, revision) / "manifest.json")

    def check_turn(self, turn: int, revision: int | None = None) -> list[str]:
        """Problems with one turn's files: hashes, missing or unlisted files, the chain link."""
        problems: list[str] = []
        folder = self.turn_path(turn, revision)
        try:
            manifest = self.manifest(turn, revision)
        except StoreError as e:
            return [str(e)]
        problems.extend(self._file_problems(folder, manifest)[0])
        if manifest.get("turn") != turn:
            problems.append(f"{folder}/manifest.json: says turn {manifest.get('turn')}")
        prev = manifest.get("previous")
        if turn > 0:
            prev_turns = [t for t in self.turns() if t < turn]
            if not prev_turns:
                problems.append(f"{folder}: turn {turn} has no previous turn")
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
        return problems

    @staticmethod
    def _parse_parquet(source: Path | bytes, path: Path, schema: Schema) -> pl.DataFrame:
        try:
            df = pl.read_parquet(io.BytesIO(source) if isinstance(source, bytes) else source)
        except FileNotFoundError:
            raise StoreError(f"{path}: missing") from None
        except Exception as e:  # polars raises several kinds for a corrupt file
            raise StoreError(f"{path}: not a readable Parquet file ({type(e).__name__}: "
                             f"{str(e).splitlines()[0] if str(e) else ''})") from None
        try:
            return check_frame(df, schema, str(path))
        except SchemaError as e:
            raise StoreError(str(e)) from None

    def _read_parquet(self, path: Path, schema: Schema) -> pl.DataFrame:
        return self._parse_parquet(path, path, schema)

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
                   if p.is_file() and p.name != "manifest.json"}
        problems = [f"{folder / rel}: missing (listed in the manifest)"
                    for rel in sorted(set(listed) - present)]
        problems += [f"{folder / rel}: not listed in the manifest"
                     for rel in sorted(present - set(listed))]
        blobs = {}
        for rel in sorted(set(listed) & present):
            blob = (folder / rel).read_bytes()
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
        tables = {}
        for name, schema in self.schemas.items():
            rel = f"tables/{name}.parquet"
            if rel not in blobs:
                raise StoreError(f"{folder / rel}: missing")
            tables[name] = self._parse_parquet(blobs[rel], folder / rel, schema)
        return State(turn, tables)

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

        tables = {name: frame(f"tables/{name}.parquet", schema)
                  for name, schema in self.schemas.items()}
        logs = {name: frame(f"{name}.parquet", schema) for name, schema in LOG_SCHEMAS.items()}
        try:
            raw = blobs["entered.json"]
            entered = json.loads(raw if isinstance(raw, bytes) else raw.read_bytes())
        except (KeyError, OSError, json.JSONDecodeError) as e:
            raise StoreError(f"{folder / 'entered.json'}: unreadable ({e})") from None
        return TurnData(turn, State(turn, tables), logs["orders"], logs["rolls"], logs["events"],
                        entered, manifest.get("seed_commitment"), manifest.get("outcome"),
                        int(manifest.get("revision", 0)), sha256_file(folder / "manifest.json"))

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """An exclusive lock on the game folder for writers."""
        with (self.root / ".lock").open("a") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    def commit(self, data: TurnData, *, new_revision: bool = False) -> Path:
        """Write a turn atomically and return its folder.

        The turn must be the next one, or, with ``new_revision``, the latest one again (a
        re-resolution that keeps the old revision). A committed revision is never overwritten.
        """
        with self.lock():
            turns = self.turns()
            latest = turns[-1] if turns else -1
            if new_revision:
                if data.turn != latest:
                    raise StoreError(f"{self.root}: only the latest turn ({latest}) can get a new "
                                     f"revision, not turn {data.turn}")
                revision = max(self.revisions(data.turn)) + 1
            else:
                if data.turn != latest + 1:
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
            manifest = {"format": FORMAT, "turn": data.turn, "revision": revision,
                        "previous": previous, "seed_commitment": data.seed_commitment,
                        "outcome": data.outcome,
                        "files": {k: hashlib.sha256(v).hexdigest() for k, v in sorted(files.items())}}
            final = self.root / "turns" / f"{data.turn:04d}.r{revision}"
            staging = Path(tempfile.mkdtemp(dir=self.root / "turns", prefix=".staging-"))
            try:
                for rel, blob in files.items():
                    _write_bytes(staging / rel, blob)
                _write_bytes(staging / "manifest.json",
                             json.dumps(manifest, indent=1, sort_keys=True).encode())
                if final.exists():
                    raise StoreError(f"{final}: already committed; never overwritten")
                os.rename(staging, final)
                _fsync_dir(final.parent)
            except BaseException:
                shutil.rmtree(staging, ignore_errors=True)
                raise
            return final

    def rollback(self, to_turn: int) -> list[Path]:
        """Set aside every turn after ``to_turn``, with its seeds, into ``attic/`` (kept, never
        deleted); the turns are then played again with fresh seeds."""
        with self.lock():
            if to_turn not in self._turn_dirs():
                raise StoreError(f"{self.root}: no turn {to_turn} to roll back to")
            moved = []
            attic = self.root / "attic"
            attic.mkdir(exist_ok=True)
            stamp = len(list(attic.iterdir()))
            for turn, revs in sorted(self._turn_dirs().items(), reverse=True):
                if turn <= to_turn:
                    continue
                for rev, path in sorted(revs.items()):
                    target = attic / f"{stamp:03d}-{path.name}"
                    os.rename(path, target)
                    moved.append(target)
            # a rolled-back turn is played again with fresh seeds (the old ones may be public),
            # and posts or dice received for the abandoned turns are set aside with them
            for folder in ("secret", "revealed"):
                for seed in sorted((self.root / folder).glob("*.seed")):
                    if seed.stem.isdigit() and int(seed.stem) > to_turn:
                        os.rename(seed, attic / f"{stamp:03d}-{folder}-{seed.name}")
            pending = self.root / "pending"
            for post in sorted((pending / "posts").glob("*.json")):
                with contextlib.suppress(OSError, json.JSONDecodeError, AttributeError):
                    if int(json.loads(post.read_text("utf-8")).get("turn", -1)) > to_turn:
                        os.rename(post, attic / f"{stamp:03d}-post-{post.name}")
            for dice in sorted(pending.glob("dice-*.txt")):
                number = dice.stem.split("-", 1)[1]
                if number.isdigit() and int(number) > to_turn:
                    os.rename(dice, attic / f"{stamp:03d}-{dice.name}")
            return moved

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
            if verify:
                blobs = self._verified_files(folder, self.manifest(turn))
                if rel not in blobs:
                    raise StoreError(f"{folder / rel}: missing")
                df = self._parse_parquet(blobs[rel], folder / rel, schema)
            else:
                df = self._read_parquet(folder / rel, schema)
            frames.append(df.with_columns(pl.lit(turn, pl.Int64).alias("turn")))
        if not frames:
            return pl.DataFrame(schema={**schema, "turn": pl.Int64})
        return pl.concat(frames, how="vertical").select("turn", *schema)

    # -- pending input -------------------------------------------------------------------------
    def add_post(self, turn: int, player: str, text: str, *, secret: bool,
                 received: str) -> int:
        """Store a post received for ``turn``; returns its sequence number."""
        with self.lock():
            posts = self.root / "pending" / "posts"
            posts.mkdir(parents=True, exist_ok=True)
            pending = self.root / "pending"
            seen = [p.stem.rsplit("-", 1)[-1] for sub in ("posts", "withdrawn", "used")
                    for p in (pending / sub).glob("*.json")]
            seq = 1 + max((int(x) for x in seen if x.isdigit()), default=0)
            record = {"turn": turn, "seq": seq, "player": player, "secret": secret,
                      "received": received, "text": text}
            atomic_write(posts / f"{seq:05d}.json", json.dumps(record, ensure_ascii=False).encode())
            return seq

    def pending_posts(self, turn: int) -> pl.DataFrame:
        """The posts received for ``turn`` as an orders table."""
        rows = []
        for p in sorted((self.root / "pending" / "posts").glob("*.json")):
            try:
                rec = json.loads(p.read_text("utf-8"))
            except (OSError, json.JSONDecodeError) as e:
                raise StoreError(f"{p}: unreadable post ({e})") from None
            if not isinstance(rec, dict):
                raise StoreError(f"{p}: a post must be a JSON object")
            if rec.get("turn") == turn:
                for key, kind in (("seq", int), ("player", str), ("secret", bool),
                                  ("received", str), ("text", str)):
                    if key not in rec:
                        raise StoreError(f"{p}: the post has no '{key}'")
                    if not isinstance(rec[key], kind) or (kind is int and
                                                          isinstance(rec[key], bool)):
                        raise StoreError(f"{p}: '{key}' must be a {kind.__name__}, "
                                         f"not {rec[key]!r}")
                rows.append({k: rec[k] for k in ORDERS_SCHEMA})
        return pl.DataFrame(rows, schema=dict(ORDERS_SCHEMA))

    def withdraw_post(self, seq: int) -> None:
        """Set a pending post aside (kept in ``pending/withdrawn``)."""
        src = self.root / "pending" / "posts" / f"{seq:05d}.json"
        if not src.exists():
            raise StoreError(f"{src}: no such pending post")
        dst = self.root / "pending" / "withdrawn"
        dst.mkdir(parents=True, exist_ok=True)
        if (dst / src.name).exists():
            raise StoreError(f"{dst / src.name}: a withdrawn post with this number is kept already")
        os.rename(src, dst / src.name)

    def clear_posts(self, turn: int) -> None:
        """Set aside the pending posts of a committed turn (kept in ``pending/used``)."""
        used = self.root / "pending" / "used"
        used.mkdir(parents=True, exist_ok=True)
        for p in sorted((self.root / "pending" / "posts").glob("*.json")):
            with contextlib.suppress(OSError, json.JSONDecodeError):
                if json.loads(p.read_text("utf-8")).get("turn") == turn:
                    os.rename(p, used / f"{turn:04d}-{p.name}")

    # -- seeds ---------------------------------------------------------------------------------
    def seed_path(self, turn: int, *, revealed: bool = False) -> Path:
        """Where a turn's seed is kept (secret, or once revealed)."""
        return self.root / ("revealed" if revealed else "secret") / f"{turn:04d}.seed"

    def read_seed(self, turn: int) -> str | None:
        """A turn's seed (revealed copy first, else the GM's secret copy), or None."""
        for revealed in (True, False):
            p = self.seed_path(turn, revealed=revealed)
            if p.exists():
                return p.read_text("ascii").strip()
        return None

    def write_seed(self, turn: int, seed: str, *, revealed: bool = False) -> None:
        """Keep a turn's seed (never replacing a different one)."""
        p = self.seed_path(turn, revealed=revealed)
        if p.exists():
            if p.read_text("ascii").strip() != seed:
                raise StoreError(f"{p}: a different seed is already kept for turn {turn}")
            return
        atomic_write(p, (seed + "\n").encode("ascii"))
