"""Tests for gmkit.core.store (the game folder) and the turn workflow of gmkit.game.game that rests on
it: atomic commits, turns never overwritten, revisions, rollback into the attic, tamper and schema
checks, the manifest chain, history across turns, pending posts, seeds and verification."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import polars as pl
import pytest
from shapely.geometry import mapping

import gmkit.core.store as store_mod
from gmkit.core.dice import ENTERED, SEEDED, check_reveal, commitment
from gmkit.core.tables import ORDERS_SCHEMA
from gmkit.core.store import GameStore, TurnData, sha256_file
from gmkit.core.files import StoreError, TamperError, parquet_bytes
from gmkit.core.tables import State
from gmkit.game import Game, GameError, events_frame, rolls_frame
from gmkit.sweeps.playout import new_game, play
from tests.cien.helpers import grid_map

# ---------------------------------------------------------------------------
# fixtures: a tiny store, and a small Cien game on a grid map
# ---------------------------------------------------------------------------

SCHEMAS = {"t": {"a": pl.Int64, "b": pl.String}}

GRID = """
Coyons Tróys Sevoy Cien Arles
Guicardie Solsauvre Vauclerc Cien Brest
~1 ~1 ~2 ~2 ~3
"""

PLAYERS = [
    {"id": "Red", "name": "Alice", "state": "Coyons", "government": "duchy"},
    {"id": "Gold", "name": "Bob", "state": "Arles", "government": "city-state"},
]


def write_map(path: Path, grid: str = GRID) -> Path:
    """A grid map written as a GeoJSON file."""
    features = [{"type": "Feature", "geometry": mapping(r.geometry),
                 "properties": {"name": r.name, "kind": r.kind, "capital": r.name == "Cien"}}
                for r in grid_map(grid).regions.values()]
    path.write_text(json.dumps({"type": "FeatureCollection", "features": features}), "utf-8")
    return path


def turn_data(turn: int, value: int = 0, **kw) -> TurnData:
    """A turn of the tiny one-table ruleset."""
    state = State(turn, {"t": pl.DataFrame({"a": [turn, value], "b": ["x", "y"]})})
    return TurnData(turn, state, pl.DataFrame(schema=dict(ORDERS_SCHEMA)), rolls_frame([]),
                    events_frame([]), **kw)


@pytest.fixture
def store(tmp_path: Path) -> GameStore:
    """A store with turns 0..2 committed."""
    s = GameStore.create(tmp_path / "g", {"ruleset": "none"}, SCHEMAS)
    for t in range(3):
        s.commit(turn_data(t))
    return s


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A pristine game folder: two players, six turns of bot playout (copied per test)."""
    base = tmp_path_factory.mktemp("played")
    new_game(base / "g", "cien", PLAYERS, 6, map_path=write_map(base / "map.geojson"))
    return base / "g"


@pytest.fixture
def game(played: Path, tmp_path: Path) -> Game:
    """A private copy of the played game."""
    shutil.copytree(played, tmp_path / "g")
    return Game.open(tmp_path / "g")


@pytest.fixture
def fresh(tmp_path: Path) -> Game:
    """A new game at turn 0."""
    return Game.new(tmp_path / "fresh", "cien", PLAYERS,
                    map_path=write_map(tmp_path / "map.geojson"))


def visible_turn_dirs(root: Path) -> list[str]:
    return sorted(p.name for p in (root / "turns").iterdir() if not p.name.startswith("."))


# ---------------------------------------------------------------------------
# atomic commits
# ---------------------------------------------------------------------------


class TestAtomicCommit:
    def test_crash_at_rename_leaves_previous_turn_intact(
            self, store: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
        """Store docstring: a crash at any point leaves the last good turn intact and no half
        turn visible (here: the final rename fails)."""
        before = store.manifest_hash(2)

        def boom(src, dst):  # noqa: ANN001
            raise OSError("simulated crash")

        monkeypatch.setattr(os, "rename", boom)
        with pytest.raises(OSError, match="simulated crash"):
            store.commit(turn_data(3))
        monkeypatch.undo()
        assert store.turns() == [0, 1, 2]
        assert store.manifest_hash(2) == before
        assert store.read_turn().turn == 2
        assert [p.name for p in (store.root / "turns").iterdir()
                if p.name.startswith(".staging")] == []
        assert visible_turn_dirs(store.root) == ["0000.r0", "0001.r0", "0002.r0"]
        store.commit(turn_data(3))  # and the turn can then be committed normally
        assert store.turns() == [0, 1, 2, 3]

    @pytest.mark.parametrize("fail_at", ["first", "middle", "last"])
    def test_crash_while_writing_files(self, store: GameStore, monkeypatch: pytest.MonkeyPatch,
                                       tmp_path: Path, fail_at: str) -> None:
        """A crash while the turn's files are being written (the first, a middle one, the manifest
        last; the files the turn left unchanged are linked, not written) shows no new turn."""
        real = store_mod._write_bytes
        calls = {"n": 0}

        def counting(path: Path, data: bytes) -> None:
            calls["n"] += 1
            real(path, data)

        monkeypatch.setattr(store_mod, "_write_bytes", counting)
        shutil.copytree(store.root, tmp_path / "rehearsal")
        turn = turn_data(3, entered={"d1": 4})
        GameStore(tmp_path / "rehearsal", SCHEMAS).commit(turn)
        writes, calls["n"] = calls["n"], 0
        assert writes == 3, "the turn writes its table, its entered dice and its manifest"
        at = {"first": 1, "middle": writes // 2 + 1, "last": writes}[fail_at]

        def flaky(path: Path, data: bytes) -> None:
            calls["n"] += 1
            if calls["n"] == at:
                raise OSError("disk full")
            real(path, data)

        monkeypatch.setattr(store_mod, "_write_bytes", flaky)
        with pytest.raises(OSError, match="disk full"):
            store.commit(turn)
        assert store.turns() == [0, 1, 2]
        assert store.check_turn(2) == []
        assert list((store.root / "turns").glob(".staging*")) == []

    def test_hard_crash_leftover_staging_is_not_a_turn(
            self, store: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
        """A hard crash (no clean-up at all) can leave the hidden staging folder behind: it is
        never seen as a turn, and the turn can be committed afterwards."""
        def boom(src, dst):  # noqa: ANN001
            raise OSError("power cut")

        monkeypatch.setattr(os, "rename", boom)
        monkeypatch.setattr(store_mod.shutil, "rmtree", lambda *a, **k: None)
        with pytest.raises(OSError):
            store.commit(turn_data(3))
        monkeypatch.undo()
        leftovers = list((store.root / "turns").glob(".staging*"))
        assert leftovers, "the simulated hard crash should leave the staging folder"
        assert store.turns() == [0, 1, 2]
        assert store.latest() == 2
        store.commit(turn_data(3, 9))
        assert store.read_turn(3).state["t"]["a"].to_list() == [3, 9]

    def test_commit_checks_schema_before_writing(self, store: GameStore) -> None:
        """Tables docstring: every table is checked on write; a bad frame commits nothing."""
        bad = TurnData(3, State(3, {"t": pl.DataFrame({"a": [1], "c": ["x"]})}),
                       pl.DataFrame(schema=dict(ORDERS_SCHEMA)), rolls_frame([]),
                       events_frame([]))
        with pytest.raises(ValueError, match="c"):
            store.commit(bad)
        assert store.turns() == [0, 1, 2]


# ---------------------------------------------------------------------------
# never overwritten; revisions
# ---------------------------------------------------------------------------


class TestNeverOverwritten:
    def test_committing_a_turn_again_raises(self, store: GameStore) -> None:
        """A committed turn is never overwritten: committing turn 2 again is refused."""
        before = sha256_file(store.turn_path(2) / "tables" / "t.parquet")
        with pytest.raises(StoreError, match="re-resolve"):
            store.commit(turn_data(2, 99))
        with pytest.raises(StoreError):
            store.commit(turn_data(1, 99))
        assert sha256_file(store.turn_path(2) / "tables" / "t.parquet") == before
        assert store.revisions(2) == [0]

    def test_turns_cannot_be_skipped(self, store: GameStore) -> None:
        """The next commit must be the next turn."""
        with pytest.raises(StoreError, match="cannot be committed"):
            store.commit(turn_data(5))

    def test_new_revision_keeps_r0_and_the_latest_is_current(self, store: GameStore) -> None:
        """new_revision: the old revision is kept, r1 is added and becomes current."""
        r0 = store.read_turn(2)
        path = store.commit(turn_data(2, 42), new_revision=True)
        assert path.name == "0002.r1"
        assert store.revisions(2) == [0, 1]
        assert store.turns() == [0, 1, 2]
        current = store.read_turn(2)
        assert current.revision == 1
        assert current.state["t"]["a"].to_list() == [2, 42]
        old = store.read_turn(2, 0)
        assert old.revision == 0 and old.state.equals(r0.state)
        assert old.manifest_hash == r0.manifest_hash
        store.commit(turn_data(2, 43), new_revision=True)
        assert store.revisions(2) == [0, 1, 2]
        assert store.read_turn(2).state["t"]["a"].to_list() == [2, 43]
        # the next turn chains to the current revision
        store.commit(turn_data(3))
        assert store.manifest(3)["previous"] == store.manifest_hash(2, 2)
        assert store.check_turn(3) == []

    def test_only_the_latest_turn_gets_a_new_revision(self, store: GameStore) -> None:
        """Revisions are for re-resolving the latest turn only."""
        with pytest.raises(StoreError, match="only the latest turn"):
            store.commit(turn_data(1, 5), new_revision=True)
        assert store.revisions(1) == [0]


# ---------------------------------------------------------------------------
# rollback
# ---------------------------------------------------------------------------


class TestRollback:
    def test_rollback_moves_later_turns_into_the_attic(self, store: GameStore) -> None:
        """rollback: every turn after the target is set aside in attic/, kept intact."""
        store.commit(turn_data(3, 7))
        hashes = {t: store.manifest_hash(t) for t in (2, 3)}
        moved = store.rollback(1)
        assert store.turns() == [0, 1]
        assert sorted(p.name.split("-", 1)[1] for p in moved) == ["0002.r0", "0003.r0"]
        for p in moved:
            assert p.parent == store.root / "attic" and p.is_dir()
            assert (p / "tables" / "t.parquet").is_file()
        kept = {p.name.split("-", 1)[1]: sha256_file(p / "manifest.json") for p in moved}
        assert kept == {"0002.r0": hashes[2], "0003.r0": hashes[3]}
        # play goes on from turn 1
        store.commit(turn_data(2, 8))
        assert store.read_turn(2).state["t"]["a"].to_list() == [2, 8]
        # a second rollback does not clash with the first one's attic entries
        store.rollback(1)
        assert len([p for p in (store.root / "attic").iterdir() if p.is_dir()]) == 3
        assert [r["to_turn"] for r in store.rollbacks()] == [1, 1]

    def test_rollback_keeps_every_revision(self, store: GameStore) -> None:
        """A rolled-back turn's old revisions go to the attic too."""
        store.commit(turn_data(2, 1), new_revision=True)
        moved = store.rollback(1)
        assert sorted(p.name.split("-", 1)[1] for p in moved) == ["0002.r0", "0002.r1"]

    def test_rollback_to_an_unknown_turn_moves_nothing(self, store: GameStore) -> None:
        """Rolling back to a turn that does not exist is an error and must leave the game as it
        was (no turn set aside)."""
        with pytest.raises(StoreError, match="no turn"):
            store.rollback(-1)
        assert store.turns() == [0, 1, 2]
        assert list((store.root / "attic").iterdir()) == []


# ---------------------------------------------------------------------------
# tampering and schemas
# ---------------------------------------------------------------------------


def flip_byte(path: Path, where: int | None = None) -> None:
    data = bytearray(path.read_bytes())
    i = len(data) // 2 if where is None else where
    data[i] ^= 0xFF
    path.write_bytes(bytes(data))


def rewrite_with_fixed_manifest(folder: Path, rel: str, blob: bytes) -> None:
    """Replace a file of a turn and update its manifest hash (a careful forger)."""
    (folder / rel).write_bytes(blob)
    manifest = json.loads((folder / "manifest.json").read_bytes())
    manifest["files"][rel] = sha256_file(folder / rel)
    (folder / "manifest.json").write_bytes(json.dumps(manifest, indent=1, sort_keys=True).encode())


class TestTampering:
    def test_flipped_byte_in_a_table_is_reported_naming_the_file(self, store: GameStore) -> None:
        """Every file is checked against its manifest hash when read."""
        target = store.turn_path(1) / "tables" / "t.parquet"
        flip_byte(target)
        with pytest.raises(TamperError) as err:
            store.read_turn(1)
        assert str(target) in str(err.value)
        assert any(str(target) in p for p in store.check_turn(1))
        store.read_turn(2)  # other turns are still readable

    def test_missing_and_unlisted_files(self, store: GameStore) -> None:
        """A file removed from or added to a turn folder is reported."""
        folder = store.turn_path(2)
        (folder / "entered.json").unlink()
        (folder / "extra.txt").write_text("x")
        problems = store.check_turn(2)
        assert any("entered.json" in p and "missing" in p for p in problems)
        assert any("extra.txt" in p and "not listed" in p for p in problems)
        with pytest.raises(TamperError):
            store.read_turn(2)

    def test_edited_manifest_breaks_the_chain_at_the_next_turn(self, store: GameStore) -> None:
        """Each manifest holds the previous turn's manifest hash: editing turn 1's manifest is
        reported by turn 2's check."""
        path = store.turn_path(1) / "manifest.json"
        manifest = json.loads(path.read_bytes())
        manifest["seed_commitment"] = "0" * 64
        path.write_bytes(json.dumps(manifest, indent=1, sort_keys=True).encode())
        problems = store.check_turn(2)
        assert len(problems) == 1
        assert "previous-turn hash" in problems[0] and "turn 1" in problems[0]
        assert str(store.turn_path(2)) in problems[0]

    def test_malformed_manifest(self, store: GameStore) -> None:
        """A manifest that is not JSON is reported as tampering, naming it."""
        path = store.turn_path(2) / "manifest.json"
        path.write_text("{not json")
        with pytest.raises(TamperError, match="manifest"):
            store.read_turn(2)
        assert str(path) in store.check_turn(2)[0]

    def test_wrong_schema_names_the_file_and_the_column(self, store: GameStore) -> None:
        """Every file is checked against its schema when read: a table with a renamed column
        (and a forged manifest hash) is an error naming the file and the column."""
        folder = store.turn_path(2)
        df = pl.read_parquet(folder / "tables" / "t.parquet").rename({"b": "renamed"})
        rewrite_with_fixed_manifest(folder, "tables/t.parquet", parquet_bytes(df))
        assert store.check_turn(2) == []
        with pytest.raises(StoreError) as err:
            store.read_turn(2)
        msg = str(err.value)
        assert str(folder / "tables" / "t.parquet") in msg
        assert "b" in msg.split("missing column(s)")[1]
        assert "renamed" in msg

    def test_wrong_type_names_the_file_and_the_column(self, store: GameStore) -> None:
        """A column of the wrong type is an error naming the file and the column."""
        folder = store.turn_path(2)
        df = pl.read_parquet(folder / "tables" / "t.parquet").with_columns(
            pl.col("a").cast(pl.String))
        rewrite_with_fixed_manifest(folder, "tables/t.parquet", parquet_bytes(df))
        with pytest.raises(StoreError, match=r"t\.parquet.*a is String"):
            store.read_turn(2)

    def test_not_a_parquet_file(self, store: GameStore) -> None:
        """Garbage with a forged hash is reported as an unreadable Parquet file."""
        folder = store.turn_path(2)
        rewrite_with_fixed_manifest(folder, "rolls.parquet", b"garbage")
        with pytest.raises(StoreError, match=r"rolls\.parquet: not a readable Parquet"):
            store.read_turn(2)


# ---------------------------------------------------------------------------
# history and pending posts
# ---------------------------------------------------------------------------


class TestHistoryAndPosts:
    def test_history_has_a_turn_column_across_turns(self, game: Game) -> None:
        """history(table): one table across every turn, with a turn column first."""
        hist = game.store.history("players")
        assert hist.columns[0] == "turn"
        assert hist["turn"].dtype == pl.Int64
        assert sorted(set(hist["turn"].to_list())) == game.store.turns()
        for t in game.store.turns():
            assert hist.filter(pl.col("turn") == t).drop("turn").equals(game.state(t)["players"])
        rolls = game.history("rolls")
        assert set(rolls["turn"].to_list()) <= set(game.store.turns())

    def test_history_of_an_unknown_table_lists_the_known(self, store: GameStore) -> None:
        """An unknown table name is an error listing the known tables."""
        with pytest.raises(StoreError, match="known: t, orders, rolls, events"):
            store.history("nope")

    def test_history_verify_refuses_tampered_turns(self, store: GameStore) -> None:
        """history(verify=True) checks every turn's hashes."""
        flip_byte(store.turn_path(1) / "events.parquet")
        with pytest.raises(TamperError, match="events.parquet"):
            store.history("t", verify=True)

    def test_pending_posts_persist_and_clear_after_commit(self, fresh: Game) -> None:
        """Posts received are kept on disk until the turn is committed, then set aside (kept in
        pending/used) and stored in the turn's orders."""
        text = "[b]5 Grain for Defense of Coyons[/b]"
        fresh.receive_post("red", text, received="2026-01-01T00:00:00+00:00")
        reopened = Game.open(fresh.root)
        posts = reopened.store.pending_posts(1)
        assert posts.height == 1
        assert posts.row(0, named=True) == {"seq": 1, "player": "Red", "secret": False,
                                             "received": "2026-01-01T00:00:00+00:00",
                                             "text": text, "posted": None}
        session = reopened.start()
        fresh.receive_post("Gold", "[b]5 Grain for Defense of Arles[/b]")  # after the session read
        reopened.commit(session)
        late = reopened.store.pending_posts(1)
        assert late["seq"].to_list() == [2]  # the late post stays with its turn
        assert reopened.late_posts()["seq"].to_list() == [2]
        assert [p.name for p in (fresh.root / "pending" / "used").iterdir()] == \
            ["0001-00001.json"]
        assert reopened.turn(1).orders["text"].to_list() == [text]

    def test_withdraw_post(self, fresh: Game) -> None:
        """A withdrawn post no longer counts but is kept."""
        fresh.receive_post("Red", "[b]5 Grain for Defense of Coyons[/b]")
        fresh.store.withdraw_post(1)
        assert fresh.store.pending_posts(1).height == 0
        assert (fresh.root / "pending" / "withdrawn" / "00001.json").is_file()
        with pytest.raises(StoreError, match="no such pending post"):
            fresh.store.withdraw_post(1)

    def test_withdrawn_posts_are_all_kept(self, fresh: Game) -> None:
        """Store docstring: a withdrawn post is set aside, kept in pending/withdrawn; withdrawing
        a second post must not replace the first one's copy."""
        fresh.receive_post("Red", "[b]5 Grain for Defense of Coyons[/b]")
        fresh.store.withdraw_post(1)
        fresh.receive_post("Red", "[b]6 Grain for Defense of Coyons[/b]")
        seq = int(fresh.store.pending_posts(1)["seq"][0])
        fresh.store.withdraw_post(seq)
        kept = [json.loads(p.read_text("utf-8"))["text"]
                for p in (fresh.root / "pending" / "withdrawn").iterdir()]
        assert sorted(kept) == ["[b]5 Grain for Defense of Coyons[/b]",
                                "[b]6 Grain for Defense of Coyons[/b]"]


# ---------------------------------------------------------------------------
# the turn workflow (gmkit.game.game)
# ---------------------------------------------------------------------------


class TestGame:
    def test_receive_rejects_an_unknown_player_listing_players(self, fresh: Game) -> None:
        """receive_post(): a post from nobody in the game is refused, the message listing players."""
        with pytest.raises(GameError) as err:
            fresh.receive_post("Mauve", "[b]5 Grain for Defense of Coyons[/b]")
        msg = str(err.value)
        assert "Mauve" in msg and "Red" in msg and "Gold" in msg
        assert fresh.store.pending_posts(1).height == 0

    def test_receive_reads_the_post(self, fresh: Game) -> None:
        """receive_post() returns how the post reads, with per-line errors."""
        result = fresh.receive_post("Red", "[b]5 Grain for Defense of Coyons[/b]\n"
                                           "[b]10 Grain for Conquest of Troies[/b]").parsed
        assert len(result.orders) == 1
        assert [str(e) for e in result.errors] == [
            "line 2: no province 'Troies'; did you mean Tróys?"]

    def test_commit_refuses_when_the_game_is_over(self, fresh: Game) -> None:
        """A game with an outcome takes no more turns: it says so before a turn is begun."""
        state = fresh.state()
        won = state.replace(turn=1, empire=state["empire"].with_columns(
            pl.lit("Red").alias("winners")))
        fresh.store.commit(TurnData(1, won, pl.DataFrame(schema=dict(ORDERS_SCHEMA)),
                                    rolls_frame([]), events_frame([]),
                                    outcome="Red won the Crown of Cien."))
        with pytest.raises(GameError, match="the game is over after turn 1: Red won"):
            fresh.start()
        assert fresh.store.turns() == [0, 1]
        assert play(fresh, 3).store.turns() == [0, 1]

    def test_commit_refuses_a_stale_session(self, fresh: Game) -> None:
        """A session for a turn that is no longer the next one cannot be committed."""
        s1 = fresh.start()
        s2 = fresh.start()
        fresh.commit(s1)
        with pytest.raises(GameError, match="next turn is 2"):
            fresh.commit(s2)

    def test_reveal_before_commit_refuses(self, fresh: Game) -> None:
        """A seed is revealed only once its turn is committed."""
        posted = fresh.commitment()
        with pytest.raises(GameError, match="not committed"):
            fresh.reveal(1)
        with pytest.raises(GameError, match="not committed"):
            fresh.reveal()  # turn 0, the set-up, has no dice
        assert not fresh.store.seed_path(1, revealed=True).exists()
        fresh.commit(fresh.start())
        seed = fresh.reveal(1)
        assert check_reveal(seed, posted)
        assert fresh.turn(1).seed_commitment == posted == commitment(seed)
        assert fresh.store.seed_path(1, revealed=True).read_text().strip() == seed

    def test_commitment_is_stable_until_commit(self, fresh: Game) -> None:
        """The commitment posted before resolving is the one the committed turn records."""
        c = fresh.commitment()
        assert fresh.commitment() == c
        fresh.commit(fresh.start())
        assert fresh.turn(1).seed_commitment == c
        assert fresh.commitment() != c

    def test_re_resolve_with_an_entered_die(self, game: Game) -> None:
        """re_resolve: a changed die makes a new revision (the old kept) whose roll log says the
        die was entered; verify still passes."""
        turn = game.latest_turn
        old = game.turn()
        dice_rows = old.rolls.filter(pl.col("expression").str.starts_with("1d"))
        assert dice_rows.height, "the sample playout's last turn should have a die roll"
        row = dice_rows.row(0, named=True)
        sides = int(row["expression"][2:])
        value = int(row["total"]) % sides + 1  # a different face
        data = game.re_resolve({row["draw_id"]: value})
        assert data.turn == turn and data.revision == 1
        assert game.store.revisions(turn) == [0, 1]
        new_row = data.rolls.filter(pl.col("draw_id") == row["draw_id"]).row(0, named=True)
        assert new_row["source"] == ENTERED
        assert new_row["result"] == f"[{value}]"
        others = data.rolls.filter(pl.col("draw_id") != row["draw_id"])
        assert set(others["source"].to_list()) <= {SEEDED}
        assert data.entered == {row["draw_id"]: value}
        kept = game.turn(turn, 0)
        assert kept.rolls.equals(old.rolls) and kept.entered == {}
        assert game.verify() == []

    def test_re_resolve_of_the_set_up_refuses(self, fresh: Game) -> None:
        """Turn 0 is the set-up: nothing to re-resolve."""
        with pytest.raises(GameError, match="set-up"):
            fresh.re_resolve({})

    def test_verify_passes_on_a_fresh_playout(self, game: Game) -> None:
        """verify: every hash matches and every turn resolves again to the same state, rolls and
        events (six turns of playout)."""
        assert game.latest_turn >= 5
        assert game.verify() == []

    def test_verify_reports_a_flipped_byte(self, game: Game) -> None:
        """verify reports a file whose hash no longer matches, naming it."""
        target = game.store.turn_path(3) / "rolls.parquet"
        flip_byte(target)
        problems = game.verify()
        assert any(str(target) in p for p in problems)

    def test_verify_reports_forged_events(self, game: Game) -> None:
        """A forger who rewrites the events and fixes the manifest hash is caught by resolving
        the turn again (the latest turn: no later manifest chains to it)."""
        folder = game.store.turn_path(game.latest_turn)
        events = pl.read_parquet(folder / "events.parquet")
        assert events.height
        forged = events.with_columns(pl.lit("Nothing happened.").alias("text"))
        rewrite_with_fixed_manifest(folder, "events.parquet", parquet_bytes(forged))
        problems = game.verify()
        assert problems == [f"turn {game.latest_turn}: the events differ when the turn is "
                            "resolved again"]

    def test_verify_reports_forged_rolls_and_the_chain(self, game: Game) -> None:
        """Forged rolls in turn 3 (with a fixed manifest hash) differ from a re-resolution, and
        the changed manifest breaks turn 4's link."""
        folder = game.store.turn_path(3)
        rolls = pl.read_parquet(folder / "rolls.parquet")
        assert rolls.height, "turn 3 of the sample playout should have a roll"
        forged = rolls.with_columns(pl.lit("conquest:forged").alias("draw_id"))
        rewrite_with_fixed_manifest(folder, "rolls.parquet", parquet_bytes(forged))
        problems = game.verify()
        assert "turn 3: the rolls differ when the turn is resolved again" in problems
        assert any("previous-turn hash" in p and "0004.r0" in p for p in problems)

    def test_verify_reports_a_deleted_manifest(self, game: Game) -> None:
        """verify returns the problems it finds rather than failing: a deleted manifest is
        reported for its own turn and for the next turn's chain link."""
        folder = game.store.turn_path(2)
        (folder / "manifest.json").unlink()
        problems = game.verify()
        assert any(str(folder / "manifest.json") in p and "missing manifest" in p
                   for p in problems)
        assert any("0003.r0" in p for p in problems)

    def test_verify_reports_a_wrong_schema(self, game: Game) -> None:
        """verify reports a table of the wrong schema, naming the file and the column."""
        folder = game.store.turn_path(game.latest_turn)
        df = pl.read_parquet(folder / "tables" / "players.parquet").rename({"treasury": "gold"})
        rewrite_with_fixed_manifest(folder, "tables/players.parquet", parquet_bytes(df))
        problems = game.verify()
        assert any("players.parquet" in p and "treasury" in p for p in problems)
        with pytest.raises(StoreError, match="players.parquet.*treasury"):
            game.turn()

    def test_verify_reports_a_wrong_seed(self, game: Game) -> None:
        """A revealed seed that does not match the commitment is reported."""
        t = game.latest_turn
        game.store.seed_path(t, revealed=True).write_text("ab" * 32 + "\n")
        assert f"turn {t}: the seed does not match the posted commitment" in game.verify()

    def test_same_master_seed_same_game(self, played: Path, tmp_path: Path) -> None:
        """Playout docstring: the same call builds the same game byte for byte."""
        again = new_game(tmp_path / "again", "cien", PLAYERS, 6,
                         map_path=write_map(tmp_path / "map.geojson"))
        for t in again.store.turns():
            a = again.store.turn_path(t)
            b = Game.open(played).store.turn_path(t)
            files = sorted(p.relative_to(a).as_posix() for p in a.rglob("*") if p.is_file())
            assert files == sorted(p.relative_to(b).as_posix() for p in b.rglob("*")
                                   if p.is_file())
            for rel in files:
                assert (a / rel).read_bytes() == (b / rel).read_bytes(), f"turn {t}: {rel}"


def test_a_table_or_column_added_since_a_turn_was_written_reads_as_empty_or_null(store):
    """A game begun with an earlier gmkit still opens: a state table or column its ruleset
    declares added (``Ruleset.added``) reads, in an older turn, as an empty table or a null
    column; one not declared so is still reported missing, naming the file."""
    newer = {"t": {"a": pl.Int64, "b": pl.String, "c": pl.Boolean},
             "kept_aside": {"who": pl.String}}
    later = GameStore(store.root, newer, {"t": ("c",), "kept_aside": None})
    state = later.read_state(2)
    assert state["t"]["c"].to_list() == [None, None] and state["t"]["a"].to_list() == [2, 0]
    assert state["kept_aside"].is_empty() and dict(state["kept_aside"].schema) == {
        "who": pl.String}
    assert later.read_turn(1).state["kept_aside"].is_empty()
    assert later.history("t")["c"].null_count() == 6
    with pytest.raises(StoreError, match="kept_aside.parquet: missing"):
        GameStore(store.root, newer, {"t": ("c",)}).read_state(2)
    with pytest.raises(StoreError, match="missing column"):
        GameStore(store.root, newer, {"kept_aside": None}).read_state(2)
