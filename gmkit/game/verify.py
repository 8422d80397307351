"""``gmkit verify``: everything a game's history depends on, checked from the folder alone.

For every turn and every revision of it: each file against its manifest, the folder's name against
the manifest, the chain to the previous turn, a seed commitment for every turn after the set-up,
the seed against that commitment, and the turn resolved again from its stored posts, entered dice
and seed with the rules, players and board it was resolved with, to the same state, rolls, events
and outcome. A turn mixed with a public beacon has its seal checked against its posts and entered
dice, its beacon's signature and round against its deadline, and its dice replayed with the seed
derived from the secret and the beacon (:mod:`gmkit.game.fairdice`). Turn 0 is set up again from its recorded players, rules and board; a position the GM gave (``given`` in the first turn's
manifest, the state after turn 0 or a later one) is checked against its hashes only. Around the turns:
no turn missing, nothing stray in ``turns/``, no seed or consumed post of a turn that is not there,
and ``game.toml`` and the board as the last turn recorded them (changed only through recorded
commands).

Each turn is replayed under the ruleset version its manifest records (``ruleset_version``; none
reads as the first), with the rule values that version resolved with where this gmkit keeps them
(:attr:`gmkit.core.ruleset.Ruleset.legacy`). A turn of a version the ruleset retired
(:attr:`~gmkit.core.ruleset.Ruleset.retired`) that replays differently is no tampering: it is
one notice ("resolved under <ruleset> <version>; this gmkit resolves it differently") with the
first difference, kept apart from the problems. A version the ruleset never had is a problem; one
above its current version needs a newer gmkit (:class:`GameError`).

Anyone who can write the folder can re-link the whole chain, so the chain is anchored outside it:
every report prints its turn's record hash, and :func:`check_anchor` proves the folder still holds
the history a player saw.
"""

from __future__ import annotations


import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import polars as pl

import gmkit.game.fairdice as fairdice
import gmkit.game.pins as pins
import gmkit.core.dice as gdice
from gmkit.core.files import StoreError, read_json_file
from gmkit.core.store import TurnData
from gmkit.core.tables import State
from gmkit.game.changes import GameError, enacted_record
from gmkit.core.params import Params, apply_rule_changes
from gmkit.core.beacon import Beacon
from gmkit.core.boards import Board
from gmkit.core.players import PlayerInfo
from gmkit.core.parts import Context
from gmkit.core.ruleset import Ruleset, recorded_version
from gmkit.core.store import GameStore
from gmkit.game.intake import config_problems
from gmkit.game.setup import MAP_FILE, board_copy_name


class Game(Protocol):
    """What :func:`verify_game` reads of a game: a :class:`gmkit.game.Game` (named by what it
    offers, so that this module sits below the game, which verifies itself through it)."""

    root: Path
    store: GameStore
    config: dict[str, Any]
    ruleset: Ruleset[Any]
    rules: Params

    @property
    def board(self) -> Board[Any] | None: ...

    @property
    def board_path(self) -> Path | None: ...

    @staticmethod
    def players_from_config(config: Mapping[str, Any], source: str = "game.toml"
                            ) -> list[PlayerInfo]: ...

    def recorded_changes(self) -> list[dict[str, Any]]: ...

    def context(self, rules: Params | None = None, turn: int | None = None) -> Context: ...

    def resolve_again(self, before: State, posts: pl.DataFrame, seed: str, turn: int,
                      entered: Mapping[str, Any], rules: Params,
                      beacon: Beacon | None = None) -> TurnData: ...


@dataclass
class Verification:
    """What ``verify`` found: ``problems`` (empty when all is well) and ``notes`` (what an
    anchor check proved, for instance)."""

    turns: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: Turns resolved under a ruleset version this gmkit retired, that it resolves
    #: differently: no tampering, an upgrade (one line per turn, with the first difference).
    notices: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when nothing is wrong."""
        return not self.problems


Progress = Callable[[int, int], None]


def verify_game(game: Game, *, against: str | None = None,
                progress: Progress | None = None) -> Verification:
    """Check a whole game folder (see the module docstring)."""
    out = Verification()
    store = game.store
    turns = store.turns()
    out.turns = len(turns)
    if not turns:
        out.problems.append(f"{store.root / 'turns'}: no committed turn (not even the set-up)")
    first = turns[0] if turns and _given(game, turns[0]) else 0
    missing = sorted(set(range(first, max(turns, default=-1) + 1)) - set(turns))
    out.problems += [f"{store.root / 'turns'}: turn {t} is missing" for t in missing]
    out.problems += [f"{p}: not a turn folder (a turn folder is named NNNN.rK after its "
                     "manifest)" for p in store.stray_entries()]
    if store.rollback_pending():
        out.problems.append(f"{store.root}: a rollback was interrupted and is not completed")
    prev: State | None = None
    kept: dict[int, TurnData] = {}  # each turn's latest revision, for its consumed posts
    for i, t in enumerate(turns):
        if progress is not None:
            progress(i, len(turns))
        current: TurnData | None = None
        for rev in store.revisions(t):
            data = _check_revision(game, t, rev, prev, out.problems, out.notices)
            if data is not None:
                out.notes += _unhashed_ids(f"turn {t}" + (f" revision {rev}" if rev else ""),
                                           data.rolls)
            if rev == max(store.revisions(t)):
                current = data
        prev = current.state if current is not None else None
        if current is not None:
            kept[t] = current
    if progress is not None:
        progress(len(turns), len(turns))
    if turns:
        out.problems += _config_problems(game, turns[-1])
    out.problems += _added_tables_kept(game, turns)
    out.problems += _orphans(game, turns)
    out.problems += config_problems(game.config, str(game.root / "game.toml"))
    out.problems += _used_posts(game, kept)
    out.problems += _pinned_commitments(game, turns, out.notes)
    if against is not None:
        ok, note = check_anchor(game, against)
        (out.notes if ok else out.problems).append(note)
    return out


def _pinned_commitments(game: Game, turns: list[int], notes: list[str]) -> list[str]:
    """Every commitment the chain pins (:mod:`gmkit.game.pins`) against the turn resolved
    with it, and the coming turn's seed and dice record against theirs; the replacements
    rollbacks made, and the turns of a game committing ahead that pin nothing (committed
    before turns pinned the next), go to ``notes``."""
    store = game.store
    coming: int | None = None
    if turns:
        try:
            over = store.manifest(turns[-1]).get("outcome")
        except StoreError:
            over = None
        coming = None if over else turns[-1] + 1
    problems, said = pins.chain_problems(store, turns, coming)
    notes.extend(said)
    if coming is not None:
        problems += fairdice.coming_record_problems(store, coming)
    if fairdice.dice_setting_of(game.config).ahead:
        unpinned = [t for t in turns[1:] + ([coming] if coming is not None else [])
                    if pins.pinned(store, t) is None]
        if unpinned:
            notes.append(f"turn(s) {_ranges(unpinned)}: their commitment was not pinned in the "
                         "previous turn's record (committed by an older gmkit): a seed swapped "
                         "there before resolving cannot be proven")
    return problems


def _ranges(turns: list[int]) -> str:
    """Turn numbers as ranges (``1-6, 9``)."""
    out: list[str] = []
    start = prev = turns[0]
    for t in [*turns[1:], None]:
        if t is not None and t == prev + 1:
            prev = t
            continue
        out.append(str(start) if start == prev else f"{start}-{prev}")
        if t is not None:
            start = prev = t
    return ", ".join(out)


def _added_tables_kept(game: Game, turns: list[int]) -> list[str]:
    """A state table the ruleset added later may be missing from the turns written before it
    (they read it as empty), never from a turn after one that has it."""
    added = [name for name, columns in game.ruleset.added.items() if columns is None]
    if not added:
        return []
    problems: list[str] = []
    since: dict[str, int] = {}
    for t in turns:
        try:
            files = game.store.manifest(t).get("files", {})
        except StoreError:
            continue  # reported with the turn
        for name in added:
            rel = f"tables/{name}.parquet"
            if rel in files:
                since.setdefault(name, t)
            elif name in since:
                problems.append(f"{game.store.turn_path(t)}: {rel} is missing (turn "
                                f"{since[name]} had it)")
    return problems


def _check_revision(game: Game, t: int, rev: int, prev: State | None,
                    problems: list[str], notices: list[str]) -> TurnData | None:
    store = game.store
    found = store.check_turn(t, rev)
    if found:
        problems.extend(found)
        return None
    try:
        data = store.read_turn(t, rev, verify=False)
    except StoreError as e:
        problems.append(str(e))
        return None
    manifest = store.manifest(t, rev)
    where = f"turn {t}" + (f" revision {rev}" if rev else "")
    try:
        version, rules = _rules(game, manifest, where, problems)
    except GameError:
        raise
    except ValueError as e:
        problems.append(f"{where}: the rules it records cannot be read: {e}")
        return data
    # what differs when the turn is replayed: tampering at a version this gmkit resolves, an
    # upgrade's notice at one it no longer has
    differs: list[str] | _Notice = problems if rules is not None else \
        _Notice(notices, where, game, version)
    if manifest.get("given"):
        # a given position: its files are checked against their hashes above; it is not set up
        # again, and only the game's first turn may be one
        if t != store.turns()[0]:
            problems.append(f"{where}: recorded as a given position, but it is not the game's "
                            "first turn")
        return data
    if t == 0:
        differs.extend(_check_setup(game, data, manifest, rules))
        return data
    if not data.seed_commitment:
        problems.append(f"{where}: no seed commitment recorded (every turn after the set-up has "
                        "one)")
    if prev is None:
        return data
    seed = store.read_seed(t)
    if seed is None:
        problems.append(f"{where}: no seed kept or revealed; cannot re-resolve")
        return data
    if data.seed_commitment and not gdice.check_reveal(seed, data.seed_commitment):
        problems.append(f"{where}: the seed does not match the posted commitment")
        return data
    # the seal against the committed posts, the beacon's signature and round, and a beacon
    # where the game requires one; the dice are replayed with the derived seed
    found, beacon = fairdice.verify_problems(where, manifest, t, data.orders, data.entered)
    problems.extend(found)
    problems.extend(fairdice.record_problems(store.root, where, t, manifest))
    try:
        replay = rules if rules is not None else game.ruleset.rules(_overrides(game, manifest))
        again = game.resolve_again(prev, data.orders, seed, t, data.entered, replay, beacon)
    except (ValueError, KeyError, StoreError) as e:
        differs.append(f"{where}: re-resolving failed: {e}")
        return data
    differs.extend(_compare(where, data, again))
    enacted = enacted_record(game.ruleset, prev, again.state, game.context(replay))
    if manifest.get("enacted", []) != enacted:
        differs.append(f"{where}: the rule changes recorded as enacted "
                       f"({manifest.get('enacted', [])}) are not what the turn enacts "
                       f"({enacted})")
    if (data.outcome or None) != (again.outcome or None):
        differs.append(f"{where}: the recorded outcome ({data.outcome or 'none'}) is not what "
                       f"the turn resolves to ({again.outcome or 'none'})")
    return data


def _given(game: Game, turn: int) -> bool:
    """Whether ``turn``'s manifest records a given position (unreadable: reported elsewhere)."""
    try:
        return bool(game.store.manifest(turn).get("given"))
    except StoreError:
        return False


class _Notice:
    """Where the differences of a turn resolved under a ruleset version this gmkit no longer
    has go: the first becomes one notice, the rest are implied by it."""

    def __init__(self, notices: list[str], where: str, game: Game, version: str):
        self.notices, self.where, self.version = notices, where, version
        self.ruleset = game.ruleset.name
        self.said = False

    def append(self, difference: str) -> None:
        """Record ``difference`` (only the first one is shown)."""
        if self.said:
            return
        self.said = True
        first = difference.removeprefix(f"{self.where}: ")
        self.notices.append(f"{self.where}: resolved under {self.ruleset} {self.version}; this "
                            f"gmkit resolves it differently (first difference: {first})")

    def extend(self, differences: list[str]) -> None:
        """Record each of ``differences`` (only the first one is shown)."""
        for d in differences:
            self.append(d)


def _overrides(game: Game, manifest: Mapping[str, Any]) -> Mapping[str, Any]:
    """The rule overrides a turn was resolved with (today's for a turn that did not record
    them)."""
    if isinstance(manifest.get("rules"), dict):
        return dict(manifest["rules"])
    return game.rules.overrides


def _rules(game: Game, manifest: Mapping[str, Any], where: str, problems: list[str]
           ) -> tuple[str, Params | None]:
    """The ruleset version a turn records, and the rules it replays with under that version:
    None for a version the ruleset retired (it replays no longer: a difference is a notice);
    today's rules, with a problem, for a version the ruleset never had. A version above the
    current one raises :class:`GameError`: the turn needs a newer gmkit."""
    version = recorded_version(manifest)
    ruleset = game.ruleset
    kind = ruleset.version_kind(version)
    if kind == "newer":
        raise GameError(f"{where} was resolved under {ruleset.name} {version}, above this "
                        f"gmkit's {ruleset.name} {ruleset.version}: it needs a newer gmkit")
    if kind == "unknown":
        problems.append(f"{where}: records {ruleset.name} version {version!r}, which the "
                        f"ruleset never had (its versions: {ruleset.known_versions()}); "
                        "replayed under the current one")
        return version, ruleset.rules(_overrides(game, manifest), lenient=True)
    return version, ruleset.rules_of_version(version, _overrides(game, manifest), lenient=True)


def _check_setup(game: Game, data: TurnData, manifest: Mapping[str, Any],
                 rules: Params | None = None) -> list[str]:
    """Turn 0 set up again from its recorded players, rules (``rules``: under the version it
    was set up with) and board."""
    if not isinstance(manifest.get("players"), list):
        return []  # a game written before turns recorded their set-up
    board_path = game.board_path
    board = board_path.read_bytes() if board_path is not None else None
    if manifest.get("board") != (hashlib.sha256(board).hexdigest() if board else None):
        return []  # the board has changed: reported once, by the configuration check
    try:
        players = game.players_from_config({"players": manifest["players"]})
        again = game.ruleset.setup(Context(
            rules if rules is not None else game.ruleset.rules(manifest.get("rules")),
            game.board, 0, tuple(players)))
    except (ValueError, KeyError) as e:
        return [f"turn 0: setting the game up again failed: {e}"]
    return [f"turn 0: table '{name}' is not what the recorded players, rules and board set up"
            for name, frame in data.state.tables.items()
            if not frame.equals(again.tables.get(name, pl.DataFrame()))]


def _config_problems(game: Game, latest: int) -> list[str]:
    """``game.toml`` and the board against what the last turn was resolved with, plus the
    changes recorded since; and every turn's rules against the previous turn's plus the changes
    it recorded."""
    store = game.store
    out: list[str] = []
    manifests = {}
    for t in store.turns():
        try:
            manifests[t] = store.manifest(t)
        except StoreError:
            continue
    recorded = [t for t in sorted(manifests) if isinstance(manifests[t].get("rules"), dict)]
    for a, b in zip(recorded, recorded[1:]):
        want = apply_rule_changes(manifests[a]["rules"], manifests[b].get("changes", []))
        if manifests[b]["rules"] != want:
            out.append(f"turn {b}: resolved with rules {_diff(want, manifests[b]['rules'])} "
                       f"that no recorded change made after turn {a}")
        if manifests[b].get("players") != manifests[a].get("players") and not any(
                c.get("kind") == "players" for c in manifests[b].get("changes", [])):
            out.append(f"turn {b}: resolved with other players than turn {a}, and no recorded "
                       "change made them")
        if manifests[b].get("board") != manifests[a].get("board"):
            out.append(f"turn {b}: resolved on another board than turn {a}")
    if not recorded or latest not in manifests or latest != recorded[-1]:
        return out
    last = manifests[latest]
    config = game.config
    toml = game.root / "game.toml"
    pending = [c for c in game.recorded_changes() if c.get("from_turn", 0) > latest]
    want_rules = apply_rule_changes(last["rules"], pending)
    if dict(config.get("rules", {})) != want_rules:
        out.append(f"{toml}: [rules] {_diff(want_rules, dict(config.get('rules', {})))} differ "
                   f"from what turn {latest} was resolved with, and no recorded change "
                   "('gmkit rules --set') made them")
    if dict(config.get("dice", {})) != dict(last.get("dice", {})):
        out.append(f"{toml}: [dice] differs from what turn {latest} was resolved with (it is "
                   "set when the game is created)")
    if str(config.get("ruleset", "")) != last.get("ruleset"):
        out.append(f"{toml}: the ruleset is not the one turn {latest} was resolved with")
    moved = [c for c in pending if c.get("kind") == "players" and "players_after" in c]
    want_players = moved[-1]["players_after"] if moved else last.get("players")
    if [dict(p) for p in config.get("players", [])] != want_players:
        out.append(f"{toml}: the players differ from those turn {latest} was resolved with, and "
                   "no recorded change made them")
    board_path = game.board_path
    board = hashlib.sha256(board_path.read_bytes()).hexdigest() if board_path else None
    if board != last.get("board"):

        where = board_path or game.root / (board_copy_name(game.ruleset) or MAP_FILE)
        out.append(f"{where}: the board is not the one turn {latest} was resolved on")
    return out


def _diff(want: Mapping[str, Any], got: Mapping[str, Any]) -> str:
    keys = sorted(k for k in {*want, *got} if want.get(k) != got.get(k))
    return ", ".join(f"{k}: {want.get(k, 'default')!r} -> {got.get(k, 'default')!r}"
                     for k in keys) or "(none)"


def _orphans(game: Game, turns: list[int]) -> list[str]:
    """Traces of turns that are not there: a revealed seed, a consumed post."""
    latest = max(turns, default=-1)
    out = []
    for seed in sorted((game.root / "revealed").glob("*.seed")):
        if seed.stem.isdigit() and int(seed.stem) not in turns:
            out.append(f"{seed}: a revealed seed of turn {int(seed.stem)}, which is not "
                       "committed (a deleted turn?)")
    for post in sorted((game.root / "pending" / "used").glob("*.json")):
        head = post.name.split("-", 1)[0]
        if head.isdigit() and int(head) > latest:
            out.append(f"{post}: a post consumed by turn {int(head)}, which is not committed "
                       "(a deleted turn?)")
    return out


def _used_posts(game: Game, kept: Mapping[int, TurnData]) -> list[str]:
    """Each post kept in ``pending/used`` against the turn that consumed it: readable, named
    after its turn and number, and the same player, secrecy and text as the turn recorded."""
    out = []
    for path in sorted((game.root / "pending" / "used").glob("*.json")):
        head = path.name.split("-", 1)[0]
        if not head.isdigit() or int(head) not in kept:
            continue  # a post of a turn that is not there is reported with the orphans
        try:
            rec = read_json_file(path)
        except StoreError as e:
            out.append(str(e))
            continue
        orders = kept[int(head)].orders
        row = orders.filter(pl.col("seq") == rec.get("seq")) if isinstance(
            rec.get("seq"), int) else orders.clear()
        if rec.get("turn") != int(head) or row.height != 1:
            out.append(f"{path}: not a post turn {int(head)} consumed")
            continue
        stored = row.row(0, named=True)
        differ = [k for k in ("player", "secret", "text") if rec.get(k) != stored.get(k)]
        if differ:
            out.append(f"{path}: its {', '.join(differ)} differ(s) from post #{rec['seq']} "
                       f"as turn {int(head)} recorded it")
    return out


def _compare(where: str, stored: TurnData, again: TurnData) -> list[str]:
    out = []
    for name, frame in stored.state.tables.items():
        if not frame.equals(again.state.tables.get(name, pl.DataFrame())):
            out.append(f"{where}: table '{name}' differs when the turn is resolved again")
    if not _comparable_rolls(stored.rolls).equals(_comparable_rolls(again.rolls)):
        out.append(f"{where}: the rolls differ when the turn is resolved again")
    if not stored.events.equals(again.events):
        out.append(f"{where}: the events differ when the turn is resolved again")
    return out


def _comparable_rolls(rolls: pl.DataFrame) -> pl.DataFrame:
    """Rolls with what changed only in how draws are logged made alike: a single die's id with
    or without its ``#0`` (turns logged before it was printed), a shuffle's expression by its
    number of items (``shuffle(3)`` before the input order was logged)."""
    if rolls.is_empty() or not {"draw_id", "expression", "result"} <= set(rolls.columns):
        return rolls
    expression = pl.col("expression").fill_null("")
    single = expression.str.contains(r"^1d\d+$")
    shuffle = expression.str.starts_with("shuffle(")
    items = pl.col("result").map_elements(_items, pl.Int64)
    return rolls.with_columns(
        pl.when(single & pl.col("draw_id").str.ends_with("#0"))
        .then(pl.col("draw_id").str.strip_suffix("#0")).otherwise(pl.col("draw_id"))
        .alias("draw_id"),
        pl.when(shuffle).then(pl.format("shuffle({})", items)).otherwise(pl.col("expression"))
        .alias("expression"))


def _unhashed_ids(where: str, rolls: pl.DataFrame) -> list[str]:
    """Single dice printed under an id that is not the one their value is hashed from (turns
    logged before a single die's id carried its ``#0``): still accepted, and said."""
    if rolls.is_empty() or not {"draw_id", "expression"} <= set(rolls.columns):
        return []
    bare = rolls.filter(pl.col("expression").fill_null("").str.contains(r"^1d\d+$")
                        & ~pl.col("draw_id").str.ends_with("#0"))["draw_id"].to_list()
    if not bare:
        return []
    return [f"{where}: {len(bare)} single-die draw(s) printed without the '#0' of the id their "
            f"value is hashed from (e.g. {bare[0]!r} is drawn as {bare[0] + '#0'!r}); they "
            "recompute with it"]


def _items(result: str) -> int:
    value = json.loads(result)
    return len(value) if isinstance(value, list) else 0


def check_anchor(game: Game, record_hash: str) -> tuple[bool, str]:
    """Whether the folder still holds the history whose turn record (a manifest hash printed in
    a report) is ``record_hash``; the message says where it is: in the current history, in a
    revision a later one superseded (and why), or in turns a rollback set aside (and why)."""
    want = record_hash.strip().lower()
    store = game.store
    for t in store.turns():
        revs = store.revisions(t)
        for rev in revs:
            try:
                h = store.manifest_hash(t, rev)
            except (OSError, StoreError):
                continue
            if h != want:
                continue
            if rev == revs[-1]:
                return True, (f"{want[:16]}… is turn {t}"
                              + (f" revision {rev}" if rev else "") + ", in the current history")
            newer = store.manifest(t, revs[-1])
            return True, (f"{want[:16]}… is turn {t} revision {rev}, superseded by revision "
                          f"{revs[-1]} (reason: {newer.get('reason') or 'not given'})")
    for rec in store.rollbacks():
        for entry in rec.get("set_aside", []):
            if isinstance(entry, dict) and entry.get("manifest") == want:
                return True, (f"{want[:16]}… is turn {entry.get('turn')}, set aside by a rollback "
                              f"to turn {rec.get('to_turn')} at {rec.get('at')} (reason: "
                              f"{rec.get('reason') or 'not given'})")
    return False, (f"{want[:16]}…: no turn of this game has this record, in its history, its "
                   "revisions or its rollbacks: the history a player saw is no longer here")
