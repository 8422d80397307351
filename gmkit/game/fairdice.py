"""Dice nobody can bend: a turn's commitment made before its orders, its deadline, its seal and
its public beacon, recorded per turn.

A game's ``[dice]`` setting in ``game.toml`` says how far its dice are guarded:

* ``commit = "ahead"``: when turn N is committed, turn N+1's secret seed is made at once and its
  commitment recorded with the time it was made; the summary of turn N carries it, so the
  commitment is public before any order of turn N+1 exists;
* ``beacon = "drand-<network>"`` (``"drand-quicknet"``) or ``"named"`` (a hand-entered public
  source such as a lottery): before the beacon round the GM *seals* the turn (the sha256 of the
  accepted posts and the GM-entered dice, so which posts count cannot be chosen afterwards), then
  enters the beacon; the turn's dice seed is :func:`gmkit.core.beacon.derive_seed` of the secret
  and the beacon. A beacon implies ``commit = "ahead"``.

Each turn's record is ``dice/NNNN.json``: every commitment made for the turn (with when, and
which one it replaced after a rollback), every deadline set, the seal and the beacon. The turn's
manifest copies what the turn was resolved with (commitment time, deadline, seal, beacon), and
``gmkit verify`` checks it from the folder alone. Committing ahead, the previous turn's manifest
pins the commitment and its time as well (:mod:`gmkit.game.pins`): that, not the dice record,
is what a turn's "committed before orders" rests on.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import polars as pl

import gmkit.core.dice as gdice
import gmkit.game.pins as pins
from gmkit.core.beacon import NETWORKS, Beacon, BeaconError, Network, derive_seed, round_at, \
    round_time, verify_beacon, verify_drand
from gmkit.core.store import GameStore
from gmkit.core.files import StoreError, atomic_write, read_json_file

SEAL_FORMAT = "gmkit-seal/1"
NAMED = "named"
#: The guarantee labels a report shows: a commitment pinned in the chain before the orders
#: (committing ahead), or only dated before them by the GM's own record (committing when asked).
COMMITTED_BEFORE = "committed before orders"
DATED_BEFORE = ("commitment dated before the first order by the GM's own record (not pinned in "
                "the previous turn's record: a seed swapped before resolving could not be told "
                "apart; a game that commits ahead proves it)")
BEACON_MIXED = "beacon-mixed"
GM_ENTERED = "dice entered by the GM"
#: What a turn's manifest records of its dice (kept when the turn is resolved again).
MANIFEST_KEYS = ("dice", "commitment_made", "commitment_replaces", "seal", "beacon", "deadline",
                 pins.PIN)
__all__ = ["derive_seed"]  # re-exported: the turn's dice seed from the secret and the beacon


class FairDiceError(ValueError):
    """A seal, deadline or beacon that cannot be taken; the message says why in one line."""


def now_text() -> str:
    """The time now, as recorded (UTC, ISO 8601 to the microsecond)."""
    return datetime.now(timezone.utc).isoformat()


def parse_time(text: str, what: str = "time") -> datetime:
    """An ISO 8601 time with its zone (a :class:`FairDiceError` names what is wrong)."""
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        raise FairDiceError(f"{what} {text!r} is not an ISO 8601 time such as "
                            "2026-11-23T20:00:00+00:00") from None
    if when.tzinfo is None or when.utcoffset() is None:
        raise FairDiceError(f"{what} {text!r} needs its time zone (e.g. +00:00)")
    return when


# -- the game setting -----------------------------------------------------------------------------

@dataclass(frozen=True)
class DiceSetting:
    """How a game guards its dice: ``ahead`` (commit turn N+1 when turn N commits) and
    ``beacon`` (None, ``"named"`` or ``"drand-<network>"``)."""

    ahead: bool = False
    beacon: str | None = None

    @property
    def network(self) -> Network | None:
        """The drand network of a ``drand-<name>`` beacon setting."""
        if self.beacon is None or not self.beacon.startswith("drand-"):
            return None
        name = self.beacon.removeprefix("drand-")
        if name not in NETWORKS:
            raise FairDiceError(f"[dice] beacon {self.beacon!r}: unknown drand network {name!r} "
                                f"(known: {', '.join(NETWORKS)})")
        return NETWORKS[name]

    def to_config(self) -> dict[str, Any]:
        """The ``[dice]`` table of ``game.toml`` (empty for an unguarded game)."""
        out: dict[str, Any] = {}
        if self.ahead or self.beacon:
            out["commit"] = "ahead"
        if self.beacon:
            out["beacon"] = self.beacon
        return out


def dice_setting(config: Mapping[str, Any]) -> DiceSetting:
    """A game's ``[dice]`` setting, checked."""
    table = config.get("dice", {})
    if not isinstance(table, dict):
        raise FairDiceError("game.toml: [dice] must be a table")
    unknown = sorted(set(table) - {"commit", "beacon"})
    if unknown:
        raise FairDiceError(f"game.toml: unknown [dice] setting(s): {', '.join(unknown)}")
    commit = table.get("commit", "when asked")
    if commit not in ("ahead", "when asked"):
        raise FairDiceError(f"game.toml: [dice] commit must be 'ahead', not {commit!r}")
    beacon = table.get("beacon")
    if beacon is not None and (not isinstance(beacon, str)
                               or not (beacon == NAMED or beacon.startswith("drand-"))):
        raise FairDiceError(f"game.toml: [dice] beacon must be 'drand-<network>' (e.g. "
                            f"'drand-quicknet') or 'named', not {beacon!r}")
    setting = DiceSetting(commit == "ahead" or beacon is not None, beacon)
    setting.network  # an unknown network is refused here
    return setting


def dice_setting_of(config: Mapping[str, Any]) -> DiceSetting:
    """A game's ``[dice]`` setting, or the unguarded one when it cannot be read (reported
    elsewhere)."""
    try:
        return dice_setting(config)
    except FairDiceError:
        return DiceSetting()


# -- the per-turn record --------------------------------------------------------------------------

def record_path(root: Path, turn: int) -> Path:
    """Where a turn's dice record is kept."""
    return root / "dice" / f"{turn:04d}.json"


def read_record(root: Path, turn: int) -> dict[str, Any]:
    """A turn's dice record (empty lists when nothing was recorded)."""
    path = record_path(root, turn)
    rec: dict[str, Any] = read_json_file(path) if path.exists() else {}
    rec.setdefault("turn", turn)
    for key in ("commitments", "deadlines", "seals", "beacons"):
        rec.setdefault(key, [])
    return rec


def _write_record(root: Path, rec: Mapping[str, Any]) -> None:
    atomic_write(record_path(root, int(rec["turn"])),
                 json.dumps(rec, indent=1, ensure_ascii=False).encode())


def commitment_entry(rec: Mapping[str, Any], commitment: str) -> dict[str, Any] | None:
    """The record of one commitment of a turn (None when it was never recorded)."""
    for entry in rec.get("commitments", []):
        if entry.get("commitment") == commitment:
            return dict(entry)
    return None


def announce(store: GameStore, turn: int, make: Callable[[], str] = gdice.new_seed,
             replaces: str | None = None, clock: Callable[[], str] = now_text) -> str:
    """The commitment of ``turn``'s secret seed, made once under the lock; the first time it is
    made or shown, its record keeps the time (``clock``'s; and ``replaces``: the commitment a
    rollback set aside). A commitment the chain pins (:mod:`gmkit.game.pins`) is recorded with
    the time pinned, and a pinned turn whose seed is gone gets no new one: only a rollback can
    replace it."""
    with store.lock():
        found = pins.pinned(store, turn)
        if found is not None and store.read_seed(turn) is None:
            raise FairDiceError(
                f"{store.seed_path(turn)}: missing, and turn {turn - 1} pinned turn {turn}'s "
                f"commitment {found.commitment} when it was committed; a new seed would not "
                f"match it. Only a rollback replaces it, and every page says so: 'gmkit "
                f"rollback GAME --to {turn - 1} --why \"...\"'")
        seed = store.seed_for(turn, make)
        commitment = gdice.commitment(seed)
        if found is not None and commitment != found.commitment:
            raise FairDiceError(
                f"{store.seed_path(turn)}: not the seed of the commitment {found.commitment} "
                f"that turn {turn - 1} pinned for turn {turn}; only a rollback replaces it")
        rec = read_record(store.root, turn)
        if commitment_entry(rec, commitment) is None:
            entry: dict[str, Any] = {"commitment": commitment, "made": clock()}
            if found is not None and found.commitment == commitment:
                entry["made"], replaces = found.made, found.replaces
            elif replaces is None and rec["commitments"]:
                replaces = rec["commitments"][-1]["commitment"]
            if replaces:
                entry["replaces"] = replaces
            rec["commitments"].append(entry)
            _write_record(store.root, rec)
        return commitment


def pin_next(store: GameStore, turn: int, make: Callable[[], str],
             clock: Callable[[], str] = now_text) -> dict[str, Any]:
    """Make ``turn``'s seed (once) and return what the manifest of the turn before pins of it
    (:func:`gmkit.game.pins.pin`): its commitment and when it was made. Called before that
    turn is committed, so a commit killed half-way leaves a seed its next attempt pins."""
    with store.lock():
        commitment = announce(store, turn, make, clock=clock)
        entry = commitment_entry(read_record(store.root, turn), commitment)
        assert entry is not None  # announce recorded it
        return pins.pin(turn, commitment, str(entry["made"]))


def first_commitment(turn: int, seed: str, made: str
                     ) -> tuple[dict[str, Any], str, dict[str, bytes]]:
    """A new game's first turn committed ahead, before the game folder exists: what the set-up's
    manifest pins, and the seed's and dice record's files (by their path in the folder)."""
    commitment = gdice.commitment(seed)
    rec = {"turn": turn, "commitments": [{"commitment": commitment, "made": made}],
           "deadlines": [], "seals": [], "beacons": []}
    return (pins.pin(turn, commitment, made), f"secret/{turn:04d}.seed",
            {f"dice/{turn:04d}.json": json.dumps(rec, indent=1, ensure_ascii=False).encode()})


def announced(store: GameStore, turn: int) -> str | None:
    """The commitment of ``turn``'s seed when it is made (nothing is made here)."""
    seed = store.read_seed(turn)
    return None if seed is None else gdice.commitment(seed)


def current(rec: Mapping[str, Any], key: str) -> dict[str, Any] | None:
    """The last entry of a record's list (``deadlines``, ``seals``, ``beacons``), None if none
    or when it was withdrawn by a later commitment (a rollback)."""
    items = rec.get(key, [])
    if not items:
        return None
    last = dict(items[-1])
    commitments = rec.get("commitments", [])
    if key != "deadlines" and commitments and last.get("commitment") != \
            commitments[-1]["commitment"]:
        return None  # sealed or mixed in a timeline a rollback set aside
    return last


def set_deadline(store: GameStore, turn: int, when: datetime) -> dict[str, Any]:
    """Record the order deadline of ``turn`` (refused once the turn is sealed)."""
    if when.tzinfo is None or when.utcoffset() is None:
        raise FairDiceError("the deadline needs its time zone (e.g. +00:00)")
    with store.lock():
        rec = read_record(store.root, turn)
        if current(rec, "seals") is not None:
            raise FairDiceError(f"turn {turn} is sealed already: its deadline cannot change")
        entry = {"deadline": when.isoformat(), "at": now_text()}
        rec["deadlines"].append(entry)
        _write_record(store.root, rec)
        return entry


# -- the seal -------------------------------------------------------------------------------------

def seal_digest(turn: int, posts: pl.DataFrame, entered: Mapping[str, Any]) -> str:
    """The seal of a turn: sha256 of the UTF-8 JSON text (keys sorted, no spaces, ASCII kept as
    is) of ``{"format": "gmkit-seal/1", "turn": N, "posts": [[seq, player, text], ...]
    (by seq), "entered": {draw id: value}}``."""
    rows = sorted([int(r["seq"]), str(r["player"]), str(r["text"])]
                  for r in posts.iter_rows(named=True))
    blob = json.dumps({"format": SEAL_FORMAT, "turn": turn, "posts": rows,
                       "entered": dict(entered)}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def seal(store: GameStore, turn: int, commitment: str, posts: pl.DataFrame,
         entered: Mapping[str, Any]) -> dict[str, Any]:
    """Seal ``turn`` on ``posts`` and ``entered``: recorded and returned (refused once its beacon
    is in)."""
    with store.lock():
        rec = read_record(store.root, turn)
        if current(rec, "beacons") is not None:
            raise FairDiceError(f"turn {turn} has its beacon already: it cannot be sealed again")
        if current(rec, "deadlines") is None:
            raise FairDiceError(f"turn {turn} has no deadline: set it first ('gmkit deadline')")
        entry = {"digest": seal_digest(turn, posts, entered),
                 "posts": sorted(int(s) for s in posts["seq"].to_list()),
                 "entered": dict(entered), "commitment": commitment, "at": now_text()}
        rec["seals"].append(entry)
        _write_record(store.root, rec)
        return entry


# -- the beacon -----------------------------------------------------------------------------------

def check_beacon(setting: DiceSetting, beacon: Beacon, deadline: str) -> Beacon:
    """A beacon checked against the game's setting and the turn's deadline: a drand beacon's
    signature (offline) and its round (the first after the deadline); a named source is taken
    as entered. Raises :class:`FairDiceError` with a one-line reason."""
    kind = beacon.source.partition(":")[0]
    network = setting.network
    if setting.beacon is None:
        raise FairDiceError("this game takes no beacon ([dice] beacon is not set)")
    if network is not None:
        if kind != "drand" or beacon.source != f"drand:{network.name}":
            raise FairDiceError(f"this game's beacon is drand {network.name}, not {beacon.source}")
        try:
            beacon = verify_beacon(beacon) if network.name in NETWORKS else beacon
        except BeaconError as e:
            raise FairDiceError(str(e)) from None
        want = round_at(parse_time(deadline, "deadline"), network)
        if int(beacon.round) != want:
            raise FairDiceError(
                f"round {beacon.round} is not the first round after the deadline {deadline} "
                f"(that is round {want}, published {round_time(want, network).isoformat()})")
        return beacon
    if kind == "drand":
        raise FairDiceError("this game's beacon is a named source, not drand")
    return beacon


def drand_beacon(setting: DiceSetting, round: int, randomness: str | None,
                 signature: str) -> Beacon:
    """A drand beacon of the game's network, its signature checked offline."""
    network = setting.network
    if network is None:
        raise FairDiceError(f"this game's beacon is {setting.beacon or 'not set'}, not drand")
    try:
        return verify_drand(round, randomness, signature, network)
    except BeaconError as e:
        raise FairDiceError(str(e)) from None


def take_beacon(store: GameStore, turn: int, setting: DiceSetting, beacon: Beacon
                ) -> dict[str, Any]:
    """Record ``turn``'s beacon, refused for a turn resolved already, not sealed, without a
    deadline, or with a beacon that does not check."""
    with store.lock():
        if turn <= store.latest():
            raise FairDiceError(f"turn {turn} is resolved already: a beacon is taken only before "
                                "resolving")
        rec = read_record(store.root, turn)
        sealed = current(rec, "seals")
        if sealed is None:
            raise FairDiceError(f"turn {turn} is not sealed: run 'gmkit seal' before the beacon "
                                "round")
        if current(rec, "beacons") is not None:
            raise FairDiceError(f"turn {turn} has its beacon already")
        deadline = current(rec, "deadlines")
        assert deadline is not None  # a seal needs one
        beacon = check_beacon(setting, beacon, deadline["deadline"])
        entry = {"beacon": beacon.to_dict(), "deadline": deadline["deadline"],
                 "commitment": sealed["commitment"], "at": now_text()}
        rec["beacons"].append(entry)
        _write_record(store.root, rec)
        return entry


def sealed_input(store: GameStore, turn: int, setting: DiceSetting, posts: pl.DataFrame,
                 entered: Mapping[str, Any] | None
                 ) -> tuple[pl.DataFrame, dict[str, Any], Beacon]:
    """The posts and entered dice a beacon-mixed turn is resolved with (those it was sealed
    on), and its beacon; refused with the reason when the turn has no beacon yet, a sealed post
    is gone, or other dice are entered than were sealed."""
    rec = read_record(store.root, turn)
    found = current(rec, "beacons")
    sealed = current(rec, "seals")
    if found is None or sealed is None:
        step = "enter its beacon ('gmkit beacon')" if sealed else \
            "seal it ('gmkit seal') and enter its beacon ('gmkit beacon')"
        raise FairDiceError(f"turn {turn} needs a beacon ([dice] beacon = {setting.beacon!r}): "
                            f"{step} before resolving")
    kept = posts.filter(pl.col("seq").is_in(sealed["posts"]))
    if kept.height != len(sealed["posts"]) or seal_digest(turn, kept, sealed["entered"]) != \
            sealed["digest"]:
        raise FairDiceError(f"turn {turn}'s posts are no longer those it was sealed on")
    if entered and dict(entered) != sealed["entered"]:
        raise FairDiceError(f"turn {turn} was sealed with other entered dice: enter them with "
                            "'gmkit seal --dice' before the beacon")
    return kept, dict(sealed["entered"]), Beacon.from_dict(found["beacon"])


# -- what a turn's manifest records, and what its report says -------------------------------------

def manifest_part(store: GameStore, turn: int, commitment: str) -> dict[str, Any]:
    """What a turn's manifest records of its dice: when the commitment was made (and what it
    replaced; as the chain pins them where it does, else as the dice record says), the seal and
    the beacon with the deadline they were checked against."""
    rec = read_record(store.root, turn)
    out: dict[str, Any] = {}
    found = pins.pinned(store, turn)
    entry = commitment_entry(rec, commitment)
    if found is not None and found.commitment == commitment:
        out["commitment_made"] = found.made
        if found.replaces:
            out["commitment_replaces"] = found.replaces
    elif entry is not None:
        out["commitment_made"] = entry["made"]
        if entry.get("replaces"):
            out["commitment_replaces"] = entry["replaces"]
    beacon = current(rec, "beacons")
    sealed = current(rec, "seals")
    if beacon is not None and sealed is not None and beacon["commitment"] == commitment:
        out["seal"] = {k: sealed[k] for k in ("digest", "posts", "entered", "at")}
        out["beacon"] = beacon["beacon"]
        out["deadline"] = beacon["deadline"]
    return out


def record_problems(root: Path, where: str, turn: int, manifest: Mapping[str, Any]
                    ) -> list[str]:
    """The turn's dice record (``dice/NNNN.json``) against what its manifest recorded of its
    commitment when the turn was committed: a record deleted, or rewritten to say the
    commitment was made at another time (back-dated), is reported. A turn committed before its
    manifest kept the time has nothing to check against."""
    made = manifest.get("commitment_made")
    commitment = manifest.get("seed_commitment")
    if not isinstance(made, str) or not isinstance(commitment, str):
        return []
    path = record_path(root, turn)
    try:
        entry = commitment_entry(read_record(root, turn), commitment)
    except (StoreError, OSError, ValueError) as e:
        return [f"{path}: unreadable ({e}); {where} recorded its commitment as made at {made}"]
    if entry is None:
        return [f"{path}: no record of {where}'s commitment, which the turn recorded as made at "
                f"{made} (the record was deleted or rewritten)"]
    out = []
    if entry.get("made") != made:
        out.append(f"{path}: {where}'s commitment is recorded as made at {entry.get('made')}, "
                   f"but the turn recorded {made} when it was committed (the record was "
                   "rewritten)")
    if entry.get("replaces") != manifest.get("commitment_replaces"):
        out.append(f"{path}: {where}'s commitment is recorded as replacing "
                   f"{entry.get('replaces') or 'nothing'}, but the turn recorded "
                   f"{manifest.get('commitment_replaces') or 'nothing'}")
    return out


def coming_record_problems(store: GameStore, turn: int) -> list[str]:
    """The coming turn's dice record against the commitment the chain pins for it: the record
    may lack it (it is written when first shown), never date it otherwise."""
    found = pins.pinned(store, turn)
    if found is None:
        return []
    path = record_path(store.root, turn)
    try:
        entry = commitment_entry(read_record(store.root, turn), found.commitment)
    except (StoreError, OSError, ValueError) as e:
        return [f"{path}: unreadable ({e})"]
    if entry is not None and entry.get("made") != found.made:
        return [f"{path}: turn {turn}'s commitment is recorded as made at {entry.get('made')}, "
                f"but turn {turn - 1} pinned {found.made} (the record was rewritten)"]
    return []


def first_received(orders: pl.DataFrame) -> str | None:
    """The earliest stored time of a turn's posts (None without a readable one)."""
    times = []
    for text in orders["received"].to_list() if "received" in orders.columns else []:
        try:
            when = datetime.fromisoformat(str(text))
        except ValueError:
            continue
        if when.tzinfo is not None:
            times.append(when)
    return min(times).isoformat() if times else None


def guarantees(manifest: Mapping[str, Any], orders: pl.DataFrame, rolls: pl.DataFrame,
               pinned: pins.Pinned | None = None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The guarantees a committed turn's dice have, and the warnings against them. "Committed
    before orders" needs the commitment ``pinned`` by the turn before (or by a rollback's
    record): a time in the GM's own dice record proves nothing, and is said to be only that."""
    have: list[str] = []
    warn: list[str] = []
    made = manifest.get("commitment_made")
    first = first_received(orders)
    commitment = manifest.get("seed_commitment")
    if pinned is not None and pinned.commitment != commitment:
        warn.append(f"the dice commitment {commitment} is not the one announced for this turn "
                    f"({pinned.commitment}): the seed was swapped after it was announced")
    elif isinstance(made, str):
        # posts keep their stored time to the second: compare at that precision
        if first is None or parse_time(made).replace(microsecond=0) <= parse_time(first):
            have.append(COMMITTED_BEFORE if pinned is not None and pinned.made == made
                        else DATED_BEFORE)
        else:
            warn.append(f"the dice commitment was first made at {made}, after the first order "
                        f"of the turn arrived ({first})")
    beacon = manifest.get("beacon")
    if isinstance(beacon, dict):
        how = "signature checked" if beacon.get("check") != "entered" else "entered by the GM"
        have.append(f"{BEACON_MIXED} ({beacon.get('source')} round {beacon.get('round')}, "
                    f"{how})")
    entered = rolls.filter(pl.col("source") == gdice.ENTERED).height if "source" in \
        rolls.columns else 0
    if entered:
        have.append(f"{GM_ENTERED} ({entered} draw{'s' if entered != 1 else ''})")
    return tuple(have), tuple(warn)


def verify_problems(where: str, manifest: Mapping[str, Any], turn: int, orders: pl.DataFrame,
                    entered: Mapping[str, Any]) -> tuple[list[str], Beacon | None]:
    """A turn's seal against its committed posts and entered dice, its beacon's signature and
    round against its deadline, and a beacon present where the recorded setting requires one;
    returns the problems and the beacon to replay the dice with."""
    out: list[str] = []
    try:
        setting = dice_setting({"dice": manifest.get("dice", {})})
    except FairDiceError as e:
        return [f"{where}: {e}"], None
    raw = manifest.get("beacon")
    if raw is None:
        if setting.beacon is not None:
            out.append(f"{where}: resolved without a beacon, which the game requires "
                       f"({setting.beacon})")
        return out, None
    try:
        beacon = Beacon.from_dict(raw)
    except BeaconError as e:
        return [f"{where}: the recorded beacon is unreadable: {e}"], None
    sealed = manifest.get("seal")
    if not isinstance(sealed, dict):
        out.append(f"{where}: a beacon without a seal")
    elif sealed.get("digest") != seal_digest(turn, orders, entered):
        out.append(f"{where}: the seal does not match the committed posts and entered dice")
    try:
        check_beacon(setting, beacon, str(manifest.get("deadline")))
    except (FairDiceError, BeaconError) as e:
        out.append(f"{where}: the beacon: {e}")
    return out, beacon


def beacon_words(beacon: Mapping[str, Any], deadline: str | None) -> str:
    """A turn's beacon as its report prints it: source, round, value and the deadline."""
    return (f"{beacon.get('source')} round {beacon.get('round')}: {beacon.get('value')}"
            + (f" (deadline {deadline})" if deadline else ""))


def report_fields(store: GameStore, turn: int, manifest: Mapping[str, Any],
                  orders: pl.DataFrame, rolls: pl.DataFrame) -> dict[str, Any]:
    """What a turn's summary says of its dice and announces of the next turn: the next turn's
    commitment (the one this turn pinned, with each replacement a rollback made) and order
    deadline, this turn's guarantees and warnings, its seal and beacon (the fields of
    :class:`gmkit.core.reports.TurnReport` of those names)."""
    if turn > 0 and "commitment_made" not in manifest and manifest.get("seed_commitment"):
        # a game that does not commit ahead: its dice record says when the commitment was made
        entry = commitment_entry(read_record(store.root, turn), manifest["seed_commitment"])
        if entry is not None:
            manifest = {**manifest, "commitment_made": entry["made"]}
    have, warn = guarantees(manifest, orders, rolls, pins.pinned(store, turn)) if turn > 0 \
        else ((), ())
    nxt = turn + 1
    commitment: str | None = None
    deadline: str | None = None
    replaced: tuple[str, ...] = ()
    pinned = pins.pin_of(manifest)
    if nxt in store.turns():
        with_next = store.manifest(nxt)
        commitment = with_next.get("seed_commitment")
        deadline = with_next.get("deadline")
    else:
        commitment = announced(store, nxt)
    if pinned is not None and pinned["turn"] == nxt:
        # what the players read when this turn was committed, whatever the folder holds now
        commitment = pinned["commitment"]
        chain = pins.pinned(store, nxt)
        if chain is not None and chain.announced == commitment:
            replaced = tuple(r.words() for r in chain.replacements)
    if deadline is None:
        entry = current(read_record(store.root, nxt), "deadlines")
        deadline = entry["deadline"] if entry else None
    beacon = manifest.get("beacon")
    sealed = manifest.get("seal")
    return {
        "next_commitment": commitment, "next_commitment_replaced": replaced,
        "next_deadline": deadline, "guarantees": have, "dice_warnings": warn,
        "beacon": beacon_words(beacon, manifest.get("deadline")) if isinstance(beacon, dict)
        else None,
        "seal": (f"{sealed.get('digest')} (posts {', '.join(map(str, sealed.get('posts', [])))})"
                 if isinstance(sealed, dict) else None),
    }
