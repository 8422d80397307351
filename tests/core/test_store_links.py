"""A committed turn keeps the files it left unchanged as hard links to the previous turn's: every
turn folder stays a complete snapshot that is never written again, a file that cannot be linked
is copied, a previous file altered by hand is never carried into a new turn, and an altered
shared file shows in the check of every turn that shares it."""

from __future__ import annotations

import errno
import hashlib
import multiprocessing
import os
import shutil
from pathlib import Path

import polars as pl
import pytest

import gmkit.core.files as files_mod
import gmkit.core.store as store_mod
from gmkit.core.files import StoreError, TamperError, sync_all
from gmkit.core.store import GameStore, TurnData
from gmkit.core.tables import ORDERS_SCHEMA, State
from gmkit.game import Game, events_frame, rolls_frame
from gmkit.sweeps.playout import new_game

SCHEMAS = {"board": {"name": pl.String, "owner": pl.Int64},
           "score": {"player": pl.String, "points": pl.Int64}}
FLOATS = {"board": {"name": pl.String, "weight": pl.Float64}}


def turn_data(turn: int, points: int, *, owner: int = 1, entered: dict | None = None
              ) -> TurnData:
    """A turn of a two-table ruleset: the board changes only with ``owner``, the score with
    ``points``."""
    state = State(turn, {"board": pl.DataFrame({"name": ["A", "B"], "owner": [owner, 2]}),
                         "score": pl.DataFrame({"player": ["Red"], "points": [points]})})
    return TurnData(turn, state, pl.DataFrame(schema=dict(ORDERS_SCHEMA)), rolls_frame([]),
                    events_frame([]), entered or {})


@pytest.fixture
def store(tmp_path: Path) -> GameStore:
    """A store with turns 0 and 1 committed; the board is the same in both."""
    s = GameStore.create(tmp_path / "g", {"ruleset": "none"}, SCHEMAS)
    s.commit(turn_data(0, 0))
    s.commit(turn_data(1, 5))
    return s


def inode(store: GameStore, turn: int, rel: str) -> int:
    return (store.turn_path(turn) / rel).stat().st_ino


def test_an_unchanged_table_is_the_previous_turns_file_and_a_changed_one_is_new(
        store: GameStore) -> None:
    """The board no turn changed is one file shared by both turns, under the same hash; the score
    that changed is a file of its own; each turn still lists and checks every file."""
    assert inode(store, 1, "tables/board.parquet") == inode(store, 0, "tables/board.parquet")
    assert inode(store, 1, "tables/score.parquet") != inode(store, 0, "tables/score.parquet")
    m0, m1 = store.manifest(0)["files"], store.manifest(1)["files"]
    assert m0.keys() == m1.keys()
    assert m1["tables/board.parquet"] == m0["tables/board.parquet"]
    assert m1["tables/score.parquet"] != m0["tables/score.parquet"]
    assert store.check_turn(0) == [] and store.check_turn(1) == []
    assert store.read_state(1)["score"]["points"].to_list() == [5]


def test_the_frames_read_before_the_commit_link_the_table_without_encoding_it(
        store: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table equal to the one the store read from the previous turn is linked without being
    encoded again; the turn is the same as one committed by a store that read nothing."""
    shutil.copytree(store.root, store.root.parent / "other")
    other = GameStore(store.root.parent / "other", SCHEMAS)
    store.read_state()  # as a game reads the state it resolves from
    encoded: list[list[str]] = []
    real = store_mod.parquet_bytes

    def counting(df: pl.DataFrame) -> bytes:
        encoded.append(df.columns)
        return real(df)

    monkeypatch.setattr(store_mod, "parquet_bytes", counting)
    store.commit(turn_data(2, 9))
    after_reading, encoded[:] = list(encoded), []
    other.commit(turn_data(2, 9))
    assert ["name", "owner"] not in after_reading and ["name", "owner"] in encoded
    assert store.manifest(2)["files"] == other.manifest(2)["files"]
    assert inode(store, 2, "tables/board.parquet") == inode(store, 1, "tables/board.parquet")
    assert inode(other, 2, "tables/board.parquet") == inode(other, 1, "tables/board.parquet")


@pytest.mark.parametrize("refusal", [errno.EXDEV, errno.EPERM, errno.EMLINK])
def test_a_file_system_without_hard_links_gets_a_copy(
        store: GameStore, monkeypatch: pytest.MonkeyPatch, refusal: int) -> None:
    """Where the file system refuses a hard link (another device, none allowed, too many), the
    unchanged file is copied: the same bytes and hash, a file of its own, a clean turn."""
    def refuse(src: object, dst: object) -> None:
        raise OSError(refusal, os.strerror(refusal))

    monkeypatch.setattr(files_mod.os, "link", refuse)
    store.commit(turn_data(2, 7))
    monkeypatch.undo()
    rel = "tables/board.parquet"
    assert inode(store, 2, rel) != inode(store, 1, rel)
    assert (store.turn_path(2) / rel).read_bytes() == (store.turn_path(1) / rel).read_bytes()
    assert store.manifest(2)["files"][rel] == store.manifest(1)["files"][rel]
    assert store.check_turn(2) == []


def test_a_link_failing_for_another_reason_writes_the_file_afresh(
        store: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """A previous file that vanished under the commit (the link finds nothing) is no failure:
    the turn writes its own file, as a turn without a previous one would."""
    def vanished(src: object, dst: object) -> None:
        raise FileNotFoundError(errno.ENOENT, "gone", str(src))

    monkeypatch.setattr(files_mod.os, "link", vanished)
    store.commit(turn_data(2, 7))
    monkeypatch.undo()
    assert store.check_turn(2) == []
    assert inode(store, 2, "tables/board.parquet") != inode(store, 1, "tables/board.parquet")


def test_a_previous_file_altered_by_hand_is_never_linked_into_the_next_turn(
        store: GameStore) -> None:
    """When the previous turn's unchanged table was altered in place since it was committed, the
    next turn writes its own, right, bytes: the alteration stays in the turn it was made in."""
    path = store.turn_path(1) / "tables/board.parquet"
    original = path.read_bytes()
    with path.open("r+b") as f:  # tampering in place, as a hand edit could
        f.seek(len(original) // 2)
        f.write(b"\x00\x01\x02")
    fresh = GameStore(store.root, SCHEMAS)  # a store that read nothing
    fresh.commit(turn_data(2, 7))
    assert fresh.check_turn(2) == []
    assert inode(fresh, 2, "tables/board.parquet") != path.stat().st_ino
    assert (fresh.turn_path(2) / "tables/board.parquet").read_bytes() == original
    assert any("content does not match" in p for p in fresh.check_turn(1))


def test_a_shared_file_altered_in_place_fails_every_turn_that_shares_it(
        store: GameStore) -> None:
    """A hand edit of a file two turns share changes both: the check of each reports it, and
    reading either turn refuses the file."""
    path = store.turn_path(1) / "tables/board.parquet"
    with path.open("r+b") as f:
        f.seek(8)
        f.write(b"\xff\xfe")
    for turn in (0, 1):
        assert any("board.parquet: content does not match" in p
                   for p in store.check_turn(turn)), turn
        with pytest.raises(TamperError):
            store.read_state(turn)


def test_a_frame_altered_after_it_was_read_is_stored_as_it_now_is(store: GameStore) -> None:
    """The store keeps its own copy of the frames it read: a caller that alters a frame it was
    given in place commits the altered table, never the previous turn's file."""
    state = store.read_state()
    board = state["board"]
    board[0, "owner"] = 3  # in place
    store.commit(TurnData(2, state.replace(2), pl.DataFrame(schema=dict(ORDERS_SCHEMA)),
                          rolls_frame([]), events_frame([])))
    assert store.read_state(2)["board"]["owner"].to_list() == [3, 2]
    assert inode(store, 2, "tables/board.parquet") != inode(store, 1, "tables/board.parquet")
    assert store.check_turn(2) == []


def test_a_float_table_equal_but_for_the_sign_of_zero_is_not_linked(tmp_path: Path) -> None:
    """-0.0 equals 0.0 but is other bytes: the turn stores what it resolved, sign and all."""
    store = GameStore.create(tmp_path / "f", {"ruleset": "none"}, FLOATS)

    def turn(t: int, weight: float) -> TurnData:
        return TurnData(t, State(t, {"board": pl.DataFrame({"name": ["A"], "weight": [weight]})}),
                        pl.DataFrame(schema=dict(ORDERS_SCHEMA)), rolls_frame([]),
                        events_frame([]))

    store.commit(turn(0, 0.0))
    store.read_state()
    store.commit(turn(1, -0.0))
    weight = store.read_state(1)["board"]["weight"][0]
    assert str(weight) == "-0.0"
    assert store.check_turn(1) == []


def test_a_rollback_keeps_shared_files_in_both_the_attic_and_the_turns(
        store: GameStore) -> None:
    """Rolling back moves a turn folder whole into the attic; the file it shares with the turn
    kept stays whole in both, and the turn played again links it anew."""
    store.commit(turn_data(2, 7))
    kept = (store.turn_path(1) / "tables/board.parquet").read_bytes()
    (moved,) = store.rollback(1, "a wrong order")
    assert (moved / "tables/board.parquet").read_bytes() == kept
    assert store.check_turn(1) == []
    store.commit(turn_data(2, 8))
    assert store.check_turn(2) == []
    assert inode(store, 2, "tables/board.parquet") == inode(store, 1, "tables/board.parquet")
    assert store.read_state(2)["score"]["points"].to_list() == [8]


def test_a_new_revision_links_the_turn_before_not_the_revision_it_replaces(
        store: GameStore) -> None:
    """A re-resolved turn is a snapshot after the turn before: its unchanged board links that
    turn's file, and the revision it follows stays as it was."""
    store.commit(turn_data(2, 7, owner=4))
    store.commit(turn_data(2, 8), new_revision=True)
    assert store.revisions(2) == [0, 1]
    assert inode(store, 2, "tables/board.parquet") == inode(store, 1, "tables/board.parquet")
    assert store.read_state(2, 0)["board"]["owner"].to_list() == [4, 2]
    assert store.check_turn(2, 0) == [] and store.check_turn(2, 1) == []


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Cien game of three turns (copied per test)."""
    players = [{"id": "Red", "name": "Alice", "state": "Coyons", "government": "duchy"},
               {"id": "Gold", "name": "Bob", "state": "Tróys", "government": "city-state"}]
    root = tmp_path_factory.mktemp("links") / "g"
    new_game(root, "cien", players, 3, master="links")
    return root


def test_a_game_commits_turns_that_verify_with_their_tables_shared(played: Path) -> None:
    """A played game whose unchanged tables are linked from turn to turn verifies clean."""
    game = Game.open(played)
    shared = [rel for rel in game.store.manifest(3)["files"]
              if (game.store.turn_path(3) / rel).stat().st_nlink > 1]
    assert shared, "a Cien turn leaves some tables as they were"
    assert game.verify() == []


def test_verify_reports_a_shared_file_altered_in_place_in_every_turn_sharing_it(
        played: Path, tmp_path: Path) -> None:
    """Altering by hand a table file the last two turns share is reported by ``verify`` for
    both turns, not only for the one whose folder was edited."""
    root = tmp_path / "g"
    shutil.copytree(played, root)  # a copy has files of its own: share them as a commit does
    for rel in Game.open(played).store.manifest(3)["files"]:
        if (played / "turns/0003.r0" / rel).stat().st_ino == \
                (played / "turns/0002.r0" / rel).stat().st_ino:
            os.unlink(root / "turns/0003.r0" / rel)
            os.link(root / "turns/0002.r0" / rel, root / "turns/0003.r0" / rel)
    store = Game.open(root).store
    rel = next(rel for rel, digest in store.manifest(3)["files"].items()
               if rel.startswith("tables/") and store.manifest(2)["files"].get(rel) == digest)
    path = store.turn_path(3) / rel
    assert path.stat().st_ino == (store.turn_path(2) / rel).stat().st_ino
    with path.open("r+b") as f:
        f.seek(4)
        f.write(b"\x00\x00\x00")
    problems = Game.open(root).verify()
    for turn in ("0002.r0", "0003.r0"):
        assert any(f"{turn}/{rel}: content does not match" in p for p in problems), problems


def _sync_in_child(folder: str) -> None:
    sync_all([Path(folder) / "a", Path(folder) / "b", Path(folder)])


def test_syncing_in_a_forked_child_does_not_hang(tmp_path: Path) -> None:
    """The threads that sync files together are not inherited by a forked process (they do not
    exist there): a child that commits syncs with threads of its own."""
    for name in "ab":
        (tmp_path / name).write_bytes(b"x")
    sync_all([tmp_path / "a", tmp_path / "b"])  # the parent's threads exist now
    child = multiprocessing.get_context("fork").Process(target=_sync_in_child,
                                                        args=(str(tmp_path),))
    child.start()
    child.join(30)
    if child.is_alive():
        child.kill()
        pytest.fail("syncing in a forked child hung")
    assert child.exitcode == 0


def test_sync_all_reports_a_missing_file(tmp_path: Path) -> None:
    """A file that cannot be synced is an error, not a silent success."""
    (tmp_path / "a").write_bytes(b"x")
    with pytest.raises(FileNotFoundError):
        sync_all([tmp_path / "a", tmp_path / "missing"])


def test_hashes_listed_are_the_bytes_on_disk(store: GameStore) -> None:
    """Every file of every turn, linked or written, hashes to what its manifest lists."""
    store.commit(turn_data(2, 5, entered={"d1": 3}))
    for turn in store.turns():
        for rel, digest in store.manifest(turn)["files"].items():
            assert hashlib.sha256((store.turn_path(turn) / rel).read_bytes()).hexdigest() \
                == digest, (turn, rel)
    with pytest.raises(StoreError):
        store.commit(turn_data(2, 5))
