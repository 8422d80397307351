"""Nothing lost, nothing forged: what publishing, late posts, rollbacks, seeds, tampering, bad
files and leftovers can and cannot do to a game folder (README, "The game folder")."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import stat
import threading
import time
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from gmkit.cli import main
from gmkit.core.files import parquet_bytes
from gmkit.game import Game
from gmkit.game.verify import check_anchor, verify_game
from tests.test_crash import ATTACK_POST, bases  # noqa: F401  (module fixture)


def cli(*args: object, input: str | bytes | None = None) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, [str(a) for a in args], input=input)
    return res.exit_code, res.stdout, res.stderr


def one_line(code: int, out: str, err: str) -> str:
    assert code == 2, (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gmkit: "), err
    assert "Traceback" not in out + err
    return lines[0]


@pytest.fixture
def played(bases: dict[str, Path], tmp_path: Path) -> Path:  # noqa: F811
    """Three turns played and revealed, a post pending for turn 4."""
    shutil.copytree(bases["played"], tmp_path / "g")
    return tmp_path / "g"


@pytest.fixture
def ready(bases: dict[str, Path], tmp_path: Path) -> Path:  # noqa: F811
    """Turn 0 with Red's post and the commitment of turn 1 shown."""
    shutil.copytree(bases["ready"], tmp_path / "g")
    return tmp_path / "g"


def forge(game: Path, turn: int, rel: str, frame: pl.DataFrame | None = None,
          manifest: dict | None = None) -> None:
    """Rewrite a turn's file or manifest as a forger who re-links the whole chain would."""
    g = Game.open(game)
    folder = g.store.turn_path(turn)
    m = json.loads((folder / "manifest.json").read_text())
    if frame is not None:
        blob = parquet_bytes(frame)
        (folder / rel).write_bytes(blob)
        m["files"][rel] = hashlib.sha256(blob).hexdigest()
    m.update(manifest or {})
    (folder / "manifest.json").write_text(json.dumps(m, indent=1, sort_keys=True))
    for later in [t for t in g.store.turns() if t > turn]:  # re-link the chain after it
        prev = hashlib.sha256((g.store.turn_path(later - 1) / "manifest.json")
                              .read_bytes()).hexdigest()
        path = g.store.turn_path(later) / "manifest.json"
        lm = json.loads(path.read_text())
        lm["previous"] = prev
        path.write_text(json.dumps(lm, indent=1, sort_keys=True))


# -- 1. publish never deletes what it did not publish ------------------------------------------

class TestPublishTarget:
    def test_publish_into_the_game_folder_or_inside_it_is_refused(self, played: Path) -> None:
        """Publishing into the game folder, or any folder inside it, is refused and deletes
        nothing."""
        for out in (played, played / "turns", played / "pending" / "site"):
            before = sorted(str(p) for p in played.rglob("*"))
            line = one_line(*cli("publish", played, "--out", out))
            assert "game folder" in line
            assert sorted(str(p) for p in played.rglob("*")) == before
        assert verify_game(Game.open(played)).ok

    def test_publish_over_a_folder_it_did_not_publish_is_refused(self, played: Path,
                                                                 tmp_path: Path) -> None:
        """A folder with the user's files is never replaced; one gmkit published is."""
        docs = tmp_path / "Documents"
        docs.mkdir()
        (docs / "thesis.txt").write_text("years of work")
        line = one_line(*cli("publish", played, "--out", docs))
        assert "did not publish" in line and (docs / "thesis.txt").read_text() == "years of work"
        assert "holds the game folder" in one_line(*cli("publish", played, "--out", tmp_path))
        site = tmp_path / "site"
        assert cli("publish", played, "--out", site)[0] == 0
        assert (site / ".gmkit-site").is_file()
        assert cli("publish", played, "--out", site)[0] == 0  # its own site is replaced

    def test_publish_with_only_the_set_up_is_one_line(self, bases: dict[str, Path],  # noqa: F811
                                                      tmp_path: Path) -> None:
        """publish before any turn is played: one line, nothing written."""
        game = shutil.copytree(bases["fresh"], tmp_path / "g")
        assert "no turn has been played" in one_line(*cli("publish", game, "--out",
                                                          tmp_path / "s"))


# -- 2. posts are never silently lost -----------------------------------------------------------

class TestLatePosts:
    def test_a_post_stored_while_resolving_stays_pending_as_late(self, ready: Path) -> None:
        """Commit consumes exactly the posts the session read; a post that arrives later stays
        with its turn, marked late, and the status says so."""
        game = Game.open(ready)
        session = game.start()
        got = Game.open(ready).receive_post("Gold", "[b]7 Grain for Defense of Arles[/b]")
        assert got.turn == 1
        assert game.unread_posts(session)["seq"].to_list() == [got.seq]
        game.commit(session)
        assert game.late_posts()["seq"].to_list() == [got.seq]
        assert game.store.pending_posts(2).height == 0  # never the next turn's by accident
        code, out, _ = cli("status", ready)
        assert code == 0 and f"late post #{got.seq} from Gold for turn 1" in out

    def test_a_late_post_is_carried_or_included_by_re_resolving(self, ready: Path) -> None:
        """The GM re-resolves to include a late post, or carries it explicitly."""
        game = Game.open(ready)
        session = game.start()
        late = game.receive_post("Gold", "[b]7 Grain for Defense of Arles[/b]")
        game.commit(session)
        data = game.re_resolve(include_late=True, reason="Gold's post came in on time")
        assert late.seq in data.orders["seq"].to_list()
        assert game.late_posts().height == 0
        assert game.store.manifest(1)["reason"] == "Gold's post came in on time"
        assert verify_game(game).ok
        # a second one carried instead
        session = game.start()
        again = game.receive_post("Red", ATTACK_POST)
        assert game.unread_posts(session).height == 1
        game.commit(session)
        assert cli("carry", ready, again.seq)[0] == 0
        assert game.store.pending_posts(3)["seq"].to_list() == [again.seq]

    def test_a_post_for_a_committed_turn_is_refused_naming_the_turn(self, ready: Path) -> None:
        """A post is stored for the turn the store reads under its lock; asked for a turn
        committed meanwhile, it is refused saying which turn orders are for."""
        game = Game.open(ready)
        game.commit(game.start())
        with pytest.raises(Exception, match="turn 1 is committed already.*turn 2"):
            game.store.add_post(1, "Red", ATTACK_POST, secret=False, received="x")
        code, out, _ = cli("orders", ready, "--player", "Red", "-", input=ATTACK_POST)
        assert code == 0 and "for turn 2" in out


# -- 3. rollback is atomic and never reuses a seed ---------------------------------------------

class TestRollback:
    def test_an_interrupted_rollback_is_completed_by_the_next_command(
            self, played: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """A rollback killed after 5 moves is completed by the next command: the rolled-back
        turns' seeds and posts are set aside, and commit-seed prints a fresh commitment."""
        revealed = Game.open(played).store.read_seed(2)
        real = os.rename
        calls = {"n": 0}

        def dying(src, dst, *a, **kw):  # type: ignore[no-untyped-def]
            calls["n"] += 1
            if calls["n"] > 5:
                raise KeyboardInterrupt("killed")
            return real(src, dst, *a, **kw)

        monkeypatch.setattr(os, "rename", dying)
        with pytest.raises(KeyboardInterrupt):
            Game.open(played).rollback(1, "a forgotten post")
        monkeypatch.setattr(os, "rename", real)
        code, out, _ = cli("commit-seed", played)
        assert code == 0 and "turn 2" in out
        assert hashlib.sha256(revealed.encode()).hexdigest() not in out
        game = Game.open(played)
        assert game.latest_turn == 1 and game.store.pending_posts(2).height == 0
        assert game.store.rollbacks()[-1]["reason"] == "a forgotten post"

    def test_a_seed_of_another_timeline_is_never_committed_again(self, played: Path) -> None:
        """A seed that was committed for a rolled-back turn is refused."""
        game = Game.open(played)
        old = game.store.read_seed(2)
        game.rollback(1)
        with pytest.raises(Exception, match="rollback set aside"):
            game.store.write_seed(2, old)


# -- 4. a seed is created once -------------------------------------------------------------------

def test_threads_asking_for_a_commitment_at_once_get_one(ready: Path) -> None:
    """Seed creation happens once, under the lock, and never overwrites."""
    (ready / "secret" / "0001.seed").unlink()
    seen: list[str] = []
    threads = [threading.Thread(target=lambda: seen.append(Game.open(ready).commitment()))
               for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(seen)) == 1


# -- 5. verify has no blind spot -----------------------------------------------------------------

class TestVerify:
    def test_deleting_turns_is_found(self, played: Path) -> None:
        """Deleting the latest turn fails against the hash players saw; deleting every turn is
        a problem by itself."""
        game = Game.open(played)
        seen = game.turn().manifest_hash
        shutil.rmtree(game.store.turn_path(3))
        found = verify_game(Game.open(played), against=seen)
        assert not found.ok and any("no longer here" in p for p in found.problems)
        assert any("revealed seed of turn 3" in p for p in found.problems)
        shutil.rmtree(played / "turns")
        (played / "turns").mkdir()
        assert any("no committed turn" in p for p in verify_game(Game.open(played)).problems)

    def test_a_report_hash_superseded_by_a_revision_passes_and_says_why(self, played: Path
                                                                       ) -> None:
        """--against a superseded hash passes, naming the revision and its reason."""
        game = Game.open(played)
        seen = game.turn().manifest_hash
        game.re_resolve(reason="a die entered wrongly")
        code, out, _ = cli("verify", played, "--against", seen)
        assert code == 0 and "superseded by revision 1 (reason: a die entered wrongly)" in out

    def test_a_report_hash_set_aside_by_a_rollback_passes_and_says_why(self, played: Path
                                                                       ) -> None:
        """--against a rolled-back turn's hash passes, naming the rollback and its reason."""
        game = Game.open(played)
        seen = game.turn().manifest_hash
        game.rollback(2, "a forgotten post")
        ok, note = check_anchor(Game.open(played), seen)
        assert ok and "rollback to turn 2" in note and "a forgotten post" in note

    def test_forged_outcome_and_removed_commitment_are_found(self, played: Path) -> None:
        """A forged game-over outcome, or a removed seed commitment, even with the chain
        re-linked, is reported."""
        forge(played, 3, "", manifest={"outcome": "Gold wins by forgery"})
        assert any("recorded outcome" in p for p in verify_game(Game.open(played)).problems)
        forge(played, 3, "", manifest={"outcome": None, "seed_commitment": None})
        assert any("no seed commitment" in p for p in verify_game(Game.open(played)).problems)

    def test_edited_posts_are_found(self, played: Path) -> None:
        """Editing a post's text with the chain re-linked changes what the turn resolves to;
        flipping the secret flag or a timestamp is caught against the hash players saw."""
        seen = Game.open(played).turn(3).manifest_hash
        orders = Game.open(played).turn(3).orders
        forge(played, 3, "orders.parquet",
              orders.with_columns(pl.lit(True).alias("secret"),
                                  pl.lit("2020-01-01T00:00:00+00:00").alias("received")))
        found = verify_game(Game.open(played), against=seen)
        assert any("no longer here" in p for p in found.problems)
        first = Game.open(played).turn(1).orders
        forge(played, 1, "orders.parquet", first.with_columns(
            pl.lit("[b]1 Grain for Conquest of Tróys[/b]").alias("text")))
        assert any("turn 1: " in p and "differ" in p
                   for p in verify_game(Game.open(played)).problems)

    def test_a_hand_edit_of_the_rules_is_reported_and_a_recorded_change_is_not(
            self, played: Path) -> None:
        """Rules per turn: a rule changed with 'gmkit rules --set' after turn 2 verifies for
        every turn and shows in the next turn's manifest; a hand edit of [rules] is reported."""
        code, out, err = cli("rules", played, "--set", "base_output=12", "--why", "house rule")
        assert code == 0, err
        assert verify_game(Game.open(played)).ok
        game = Game.open(played)
        game.store.add_post(None, "Red", ATTACK_POST, secret=False, received="x")
        game.commit(game.start())
        assert game.store.manifest(4)["rules"] == {"base_output": 12}
        assert game.store.manifest(4)["changes"][0]["why"] == "house rule"
        assert verify_game(Game.open(played)).ok
        toml = (played / "game.toml").read_text().replace("base_output = 12",
                                                          "base_output = 15")
        (played / "game.toml").write_text(toml)
        assert any("[rules]" in p for p in verify_game(Game.open(played)).problems)

    def test_a_changed_board_is_reported(self, played: Path) -> None:
        """The board a turn was resolved on is recorded; a changed map file is reported."""
        path = played / "map.geojson"
        path.write_text(path.read_text().replace('"Arles"', '"Arle"'))
        assert any("board" in p for p in verify_game(Game.open(played)).problems)

    def test_superseded_revisions_renamed_and_shadow_folders_are_found(self, played: Path
                                                                      ) -> None:
        """Every revision is checked; a renamed revision folder and a shadow folder are
        reported."""
        game = Game.open(played)
        game.re_resolve(reason="again")
        old = played / "turns" / "0003.r0" / "events.parquet"
        old.write_bytes(old.read_bytes()[:-3] + b"xyz")
        assert any("0003.r0" in p for p in verify_game(Game.open(played)).problems)
        shutil.copytree(played / "turns" / "0002.r0", played / "turns" / "00002.r0")
        os.rename(played / "turns" / "0003.r1", played / "turns" / "0003.r7")
        problems = verify_game(Game.open(played)).problems
        assert any("00002.r0: not a turn folder" in p for p in problems)
        assert any("0003.r7" in p and "does not match its manifest" in p for p in problems)


# -- 6. one line, never a traceback --------------------------------------------------------------

class TestOneLineErrors:
    def test_bad_files_give_one_line_naming_the_file(self, played: Path, tmp_path: Path
                                                     ) -> None:
        """Invalid UTF-8 in a post, a Windows-1252 game.toml, a manifest whose files are a
        list, entered.json as a list, a non-ASCII byte in a seed, players = 5: every command
        exits non-zero with one line."""
        post = tmp_path / "post.txt"
        post.write_bytes(b"[b]5 Grain for Defense of Tr\xf3ys[/b]")
        line = one_line(*cli("orders", played, "--player", "Red", post))
        assert str(post) in line and "UTF-8" in line

        seed = played / "revealed" / "0002.seed"
        seed.write_bytes(b"\xe9" + seed.read_bytes()[1:])
        assert str(seed) in one_line(*cli("verify", played))
        seed.unlink()

        entered = played / "turns" / "0001.r0" / "entered.json"
        forge(played, 1, "", manifest={})
        entered.write_text("[]")
        forge_hash = hashlib.sha256(b"[]").hexdigest()
        m = json.loads((played / "turns/0001.r0/manifest.json").read_text())
        m["files"]["entered.json"] = forge_hash
        (played / "turns/0001.r0/manifest.json").write_text(json.dumps(m))
        code, out, err = cli("report", played, "--turn", "1")
        assert "entered.json" in one_line(code, out, err)

        m["files"] = list(m["files"])
        (played / "turns/0001.r0/manifest.json").write_text(json.dumps(m))
        assert "'files' must map" in one_line(*cli("report", played, "--turn", "1"))

        toml = played / "game.toml"
        text = toml.read_text("utf-8")
        toml.write_bytes(text.replace("Cien", "Cién").encode("cp1252"))
        for command in (["status"], ["verify"], ["commit-seed"], ["resolve"], ["reveal"],
                        ["report"], ["history", "players"], ["rules"], ["publish", "--out",
                                                                        tmp_path / "s"]):
            line = one_line(*cli(command[0], played, *command[1:]))
            assert "game.toml" in line and "UTF-8" in line
        import tomllib

        import tomli_w

        toml.write_text(tomli_w.dumps({**tomllib.loads(text), "players": 5}), "utf-8")
        assert "players" in one_line(*cli("status", played))

    def test_a_full_disk_and_a_read_only_folder_give_one_line(
            self, ready: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """A full disk or a read-only folder: one line naming the file; nothing half-written."""
        import gmkit.core.store as store

        def full(*a, **kw):  # type: ignore[no-untyped-def]
            raise OSError(errno.ENOSPC, "No space left on device", str(ready / "turns"))

        monkeypatch.setattr(store, "_write_bytes", full)
        line = one_line(*cli("resolve", ready))
        assert "disk is full" in line
        monkeypatch.undo()
        real_open = Path.open

        def read_only(self, mode="r", *a, **kw):  # type: ignore[no-untyped-def]
            if any(c in mode for c in "wax+") and ready in self.parents:
                raise PermissionError(errno.EACCES, "Permission denied", str(self))
            return real_open(self, mode, *a, **kw)

        monkeypatch.setattr(Path, "open", read_only)
        assert "read-only" in one_line(*cli("orders", ready, "--player", "Gold", "-",
                                            input=ATTACK_POST))
        monkeypatch.undo()
        assert verify_game(Game.open(ready)).ok and Game.open(ready).latest_turn == 0


# -- 7. resolve twice ------------------------------------------------------------------------------

def test_resolve_needs_posts_and_a_shown_commitment(ready: Path) -> None:
    """A second resolve does not commit an empty next turn with an unposted commitment."""
    assert cli("resolve", ready)[0] == 0
    line = one_line(*cli("resolve", ready))
    assert "no dice commitment" in line
    assert cli("commit-seed", ready)[0] == 0
    assert "no post" in one_line(*cli("resolve", ready))
    assert Game.open(ready).latest_turn == 1


# -- 8. leftovers and small traps ------------------------------------------------------------------

class TestLeftovers:
    def test_staging_folders_of_killed_commits_are_cleared(self, ready: Path) -> None:
        """A killed commit's staging folder goes at the next commit."""
        (ready / "turns" / ".staging-abc").mkdir()
        (ready / "turns" / ".staging-abc" / "half.parquet").write_bytes(b"x")
        assert cli("resolve", ready)[0] == 0
        assert not list((ready / "turns").glob(".staging-*"))

    def test_new_turn_folders_respect_the_umask(self, ready: Path) -> None:
        """Turn folders get the modes the umask allows, like the older ones (not 0700)."""
        old = os.umask(0o022)
        try:
            assert cli("resolve", ready)[0] == 0
        finally:
            os.umask(old)
        mode = stat.S_IMODE((ready / "turns" / "0001.r0").stat().st_mode)
        assert mode == 0o755

    def test_a_fifo_planted_as_a_post_is_reported_not_waited_on(self, ready: Path) -> None:
        """A pipe among the pending posts is named, never opened (which would hang)."""
        os.mkfifo(ready / "pending" / "posts" / "00009.json")
        start = time.monotonic()
        line = one_line(*cli("status", ready))
        assert "not a regular file" in line and time.monotonic() - start < 30

    def test_invisible_characters_never_make_two_names_look_alike(self, ready: Path) -> None:
        """A bidi mark or NUL inside a name is ignored when matching, and shown escaped when
        the name is unknown."""
        code, out, _ = cli("orders", ready, "--player", "Gold", "-",
                           input="[b]5 Grain for Defense of Ar\u200fles[/b]")
        assert code == 0 and "0 problem(s)" in out
        code, out, err = cli("orders", ready, "--player", "Gold", "-",
                             input="[b]5 Grain for Defense of Xr\u200fles[/b]")
        assert "Xr\\u200fles" in out + err

    def test_history_of_orders_is_public_unless_asked(self, played: Path, tmp_path: Path
                                                      ) -> None:
        """history exports the public view by default (no secret post), the GM view with --gm,
        and no cell is a live spreadsheet formula."""
        game = Game.open(played)
        game.store.add_post(None, "Gold", "=HYPERLINK(\"x\")", secret=False, received="x")
        game.store.add_post(None, "Red", "my secret plan", secret=True, received="x")
        game.commit(game.start())
        out = tmp_path / "orders.csv"
        assert cli("history", played, "orders", "--out", out)[0] == 0
        text = out.read_text("utf-8")
        assert "my secret plan" not in text and "'=HYPERLINK" in text
        assert cli("history", played, "orders", "--out", out, "--gm")[0] == 0
        assert "my secret plan" in out.read_text("utf-8")


def test_folders_are_synced_after_posts_seeds_and_rollbacks(
        played: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stored post, a new seed and a rollback's renames are made durable: the folder holding
    the new entry is synced (on XFS or btrfs an unsynced entry can vanish at a power cut)."""
    import gmkit.core.files as files
    import gmkit.core.pending as pending
    import gmkit.core.rollback as rollback
    import gmkit.core.store as store

    synced: list[Path] = []
    real = files.fsync_dir
    for module in (files, store, pending, rollback):  # the atomic writer's and the store's syncs
        monkeypatch.setattr(module, "fsync_dir", lambda p: (synced.append(Path(p)), real(p)))
    game = Game.open(played)
    game.store.add_post(None, "Red", ATTACK_POST, secret=False, received="x")
    assert played / "pending" / "posts" in synced
    synced.clear()
    game.commitment()
    assert played / "secret" in synced
    synced.clear()
    game.rollback(1, "test")
    assert {played / "attic", played / "turns", played / "secret", played} <= set(synced)


def test_the_posting_time_is_kept_and_orders_are_taken_as_posted(ready: Path) -> None:
    """An order's envelope keeps when the player posted it (the forum's time, when the GM has
    it) and when gmkit stored it; 'as received' is by posting time, then post number."""
    code, out, err = cli("orders", ready, "--player", "Gold", "--posted",
                         "2026-01-01T08:00:00+00:00", "-",
                         input="[b]5 Grain for Defense of Arles[/b]")
    assert code == 0, err
    assert "needs its time zone" in one_line(*cli("orders", ready, "--player", "Gold",
                                                  "--posted", "2026-01-01T08:00", "-",
                                                  input=ATTACK_POST))
    game = Game.open(ready)
    session = game.start()
    first = session.orders.received()[0]
    assert (first.player, first.posted) == ("Gold", "2026-01-01T08:00:00+00:00")
    game.commit(session)
    assert game.turn(1).orders.filter(pl.col("player") == "Gold")["posted"].to_list() == \
        ["2026-01-01T08:00:00+00:00"]


class TestRulesAndPlayersPerTurn:
    def test_a_turns_rules_and_changes_are_shown_in_its_reports(self, played: Path) -> None:
        """The GM report lists the rules the turn was resolved with; a recorded change shows in
        the next turn's public report with its reason."""
        assert cli("rules", played, "--set", "base_output=12", "--why", "a richer land")[0] == 0
        game = Game.open(played)
        game.commit(game.start())
        code, gm_html, _ = cli("report", played, "--view", "gm")
        assert code == 0 and "Rules in force this turn" in gm_html and "base_output" in gm_html
        code, public, _ = cli("report", played, "--view", "public", "--format", "bbcode")
        assert "rule base_output is now 12" in public and "a richer land" in public
        assert "Rules in force" not in public

    def test_players_change_only_through_a_recorded_command(self, played: Path) -> None:
        """A player replaced with 'gmkit players' verifies and shows in the next report; a hand
        edit of the players in game.toml is reported."""
        code, out, err = cli("players", played, "replace", "Gold", "--field", "name=Carol",
                             "--why", "Bob moved away")
        assert code == 0, err
        assert "Gold: name 'Bob' -> 'Carol'" in out
        assert verify_game(Game.open(played)).ok
        game = Game.open(played)
        game.commit(game.start())
        assert verify_game(Game.open(played)).ok
        code, public, _ = cli("report", played, "--format", "bbcode")
        assert "Bob moved away" in public
        toml = played / "game.toml"
        toml.write_text(toml.read_text().replace('"Carol"', '"Mallory"'))
        assert any("players differ" in p for p in verify_game(Game.open(played)).problems)
