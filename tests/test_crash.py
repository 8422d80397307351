"""A game folder under crashes and races: every writing command killed at every file-system
mutation it makes, and two of each writing command run at once. Afterwards the folder must
open, verify, show its status and take the command again; nothing committed is lost and no half
turn, half post, reused seed or resurrected post appears.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from gmkit.cli import main
from gmkit.game import Game
from gmkit.game.verify import verify_game
from tests import crashes
from tests.test_cli import PLAYERS_TOML

ATTACK_POST = "[b]12 Grain for Conquest of Tróys[/b]"


def cli(*args: object) -> tuple[int, str]:
    res = CliRunner().invoke(main, [str(a) for a in args])
    return res.exit_code, res.output


@pytest.fixture(scope="module")
def bases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Game folders at the points each command starts from: a fresh game, a turn ready to
    resolve, three turns played."""
    import json as _json

    from shapely.geometry import mapping

    from tests.cien.helpers import grid_map
    from tests.test_cli import GRID

    base = tmp_path_factory.mktemp("bases")
    features = [{"type": "Feature", "geometry": mapping(r.geometry),
                 "properties": {"name": r.name, "kind": r.kind, "capital": r.name == "Cien"}}
                for r in grid_map(GRID).regions.values()]
    (base / "map.geojson").write_text(
        _json.dumps({"type": "FeatureCollection", "features": features}), "utf-8")
    (base / "players.toml").write_text(PLAYERS_TOML, "utf-8")
    (base / "post.txt").write_text(ATTACK_POST, "utf-8")
    fresh = base / "fresh"
    assert cli("new", fresh, "--ruleset", "cien", "--players", base / "players.toml",
               "--map", base / "map.geojson", "--no-commit-ahead")[0] == 0
    ready = base / "ready"
    shutil.copytree(fresh, ready)
    assert cli("orders", ready, "--player", "Red", base / "post.txt")[0] == 0
    assert cli("commit-seed", ready)[0] == 0
    played = base / "played"
    shutil.copytree(fresh, played)
    for _ in range(3):
        assert cli("orders", played, "--player", "Red", base / "post.txt")[0] == 0
        assert cli("commit-seed", played)[0] == 0
        assert cli("resolve", played)[0] == 0, cli("resolve", played)
        assert cli("reveal", played)[0] == 0
    assert cli("orders", played, "--player", "Gold", base / "post.txt")[0] == 0
    assert cli("publish", played, "--out", base / "site")[0] == 0
    # a game committing ahead: each commit makes and pins the next turn's seed
    ahead = base / "ahead"
    assert cli("new", ahead, "--ruleset", "cien", "--players", base / "players.toml",
               "--map", base / "map.geojson")[0] == 0
    for _ in range(3):
        assert cli("orders", ahead, "--player", "Red", base / "post.txt")[0] == 0
        assert cli("resolve", ahead)[0] == 0
    assert cli("orders", ahead, "--player", "Gold", base / "post.txt")[0] == 0
    return {"fresh": fresh, "ready": ready, "played": played, "ahead": ahead, "files": base}


def _copy(src: Path, into: Path) -> Path:
    if into.exists():
        shutil.rmtree(into)
    shutil.copytree(src, into)
    return into


def _check_folder(root: Path) -> Game:
    """The folder opens (completing an interrupted rollback), verifies and shows its status."""
    game = Game.open(root)
    found = verify_game(game)
    assert found.problems == [], found.problems
    code, out = cli("status", root)
    assert code == 0, out
    return game


def _one_line_or_ok(code: int, out: str) -> None:
    assert code == 0 or (code == 2 and len(out.strip().splitlines()) == 1
                         and out.startswith("gmkit: ")), out


# every writing command, the base it starts from, and what must hold after it was killed
CASES: dict[str, tuple[str, list[str]]] = {
    "orders": ("ready", ["orders", "{g}", "--player", "Gold", "{f}/post.txt"]),
    "commit-seed": ("fresh", ["commit-seed", "{g}"]),
    "resolve": ("ready", ["resolve", "{g}"]),
    "reveal": ("played", ["reveal", "{g}", "--turn", "3"]),
    "revise": ("played", ["resolve", "{g}", "--revise", "--why", "a fixed die"]),
    "rollback": ("played", ["rollback", "{g}", "--to", "1", "--why", "a forgotten post"]),
    "rules": ("ready", ["rules", "{g}", "--set", "base_output=12", "--why", "house rule"]),
    "withdraw": ("ready", ["withdraw", "{g}", "1", "--why", "filed under the wrong player"]),
    "publish": ("played", ["publish", "{g}", "--out", "{w}/site"]),
    # committing ahead: the next turn's seed is made and pinned as the turn is committed, and a
    # rollback puts a fresh one in place with its record
    "resolve-ahead": ("ahead", ["resolve", "{g}"]),
    "revise-ahead": ("ahead", ["resolve", "{g}", "--revise", "--why", "a fixed die"]),
    "rollback-ahead": ("ahead", ["rollback", "{g}", "--to", "1", "--why", "a forgotten post"]),
}


def _argv(template: list[str], game: Path, files: Path, work: Path) -> list[str]:
    return [a.format(g=game, f=files, w=work) for a in template]


def _extra_checks(name: str, base: Path, game: Path) -> None:
    g = Game.open(game)
    if name in ("rollback", "rollback-ahead"):
        latest = g.latest_turn
        assert latest in (1, 3)
        if latest == 1:  # rolled back: nothing of turns 2 and 3 is left to reuse
            # (committing ahead, turn 2 has its fresh seed, which verify checks against the
            # rollback's record)
            fresh = "0002.seed" if name == "rollback-ahead" else None
            assert [p.name for p in (game / "secret").glob("000[23].seed")] == \
                ([fresh] if fresh and (game / "secret" / fresh).exists() else [])
            assert not list((game / "secret").glob("*.fresh"))
            assert not list((game / "revealed").glob("000[23].seed"))
            assert g.store.pending_posts(2).height == 0
    if name == "commit-seed":
        seeds = list((game / "secret").glob("*.seed"))
        assert len(seeds) <= 1
    if name == "orders":
        texts = [json.loads(p.read_text("utf-8"))["seq"]
                 for p in (game / "pending" / "posts").glob("*.json")]
        assert len(texts) == len(set(texts))


@pytest.mark.parametrize("name", sorted(CASES))
def test_killed_at_every_mutation_the_folder_survives(name: str, bases: dict[str, Path],
                                                       tmp_path: Path) -> None:
    """A command killed at any file-system mutation (a power cut, kill -9) leaves a game folder
    that opens, verifies, shows its status, and takes the same command again."""
    base_name, template = CASES[name]
    files = bases["files"]
    work = tmp_path / "w"
    work.mkdir()
    game = _copy(bases[base_name], tmp_path / "g")
    if name == "publish":
        shutil.copytree(files / "site", work / "site")
    argv = _argv(template, game, files, work)
    code, total, out = crashes.run(tmp_path, argv)
    assert code == 0, out
    assert total > 0
    for k in range(1, total + 1):
        game = _copy(bases[base_name], tmp_path / "g")
        if name == "publish":
            _copy(files / "site", work / "site")
        code, _, out = crashes.run(tmp_path, argv, kill_at=k)
        assert code is None, f"not killed at {k}: {out}"
        _check_folder(game)
        _extra_checks(name, bases[base_name], game)
        code, out = cli(*argv)
        _one_line_or_ok(code, out)
        _check_folder(game)
        if name == "publish":
            assert (work / "site" / "index.html").is_file()
            assert not [p for p in work.iterdir() if p.name.startswith(".site.")]


def test_killed_new_can_be_run_again(bases: dict[str, Path], tmp_path: Path) -> None:
    """A killed 'gmkit new' leaves no half game: running it again creates the game."""
    files = bases["files"]
    argv = ["new", str(tmp_path / "g"), "--ruleset", "cien", "--players",
            str(files / "players.toml"), "--map", str(files / "map.geojson")]
    code, total, out = crashes.run(tmp_path, argv)
    assert code == 0, out
    for k in range(1, total + 1):
        shutil.rmtree(tmp_path / "g")
        assert crashes.run(tmp_path, argv, kill_at=k)[0] is None
        if (tmp_path / "g").exists():
            _check_folder(tmp_path / "g")
            continue
        code, out = cli(*argv)
        assert code == 0, out
        _check_folder(tmp_path / "g")
        assert not [p for p in tmp_path.iterdir() if p.name.startswith(".g.new-")]


# -- races -------------------------------------------------------------------------------------

def _together(bases: dict[str, Path], tmp_path: Path, base: str,
              first: list[str], second: list[str]) -> tuple[Path, list[tuple[int, str]]]:
    game = _copy(bases[base], tmp_path / "g")
    files = bases["files"]
    results = crashes.run_together(tmp_path, _argv(first, game, files, tmp_path),
                                   _argv(second, game, files, tmp_path))
    for code, out in results:
        assert "TRACEBACK" not in out and "Traceback" not in out, out
        # a refusal ends with one 'gmkit:' line (a resolve may have printed its steps first)
        assert code == 0 or (code == 2 and out.strip().splitlines()[-1].startswith("gmkit: ")), out
    return game, results


def test_two_commit_seeds_at_once_print_one_commitment(bases: dict[str, Path],
                                                       tmp_path: Path) -> None:
    """Seed creation happens once, under the lock: two 'commit-seed' at once print the same
    commitment, and it is the one of the seed kept."""
    for _ in range(5):
        game, results = _together(bases, tmp_path, "fresh", ["commit-seed", "{g}"],
                                  ["commit-seed", "{g}"])
        printed = {re.search(r"[0-9a-f]{64}", out).group(0) for _, out in results}
        assert len(printed) == 1
        assert printed == {Game.open(game).commitment()}


def test_two_resolves_at_once_commit_one_turn(bases: dict[str, Path], tmp_path: Path) -> None:
    """Two 'resolve' at once commit the turn once; the second never commits an empty next turn
    with a seed whose commitment was never posted."""
    for _ in range(3):
        game, results = _together(bases, tmp_path, "ready", ["resolve", "{g}"],
                                  ["resolve", "{g}"])
        assert sorted(code for code, _ in results) == [0, 2]
        g = _check_folder(game)
        assert g.latest_turn == 1
        assert not (game / "secret" / "0002.seed").exists()


def test_two_posts_at_once_are_both_kept(bases: dict[str, Path], tmp_path: Path) -> None:
    """Two posts stored at once both land, with different numbers, in the coming turn."""
    game, results = _together(bases, tmp_path, "ready",
                              ["orders", "{g}", "--player", "Gold", "{f}/post.txt"],
                              ["orders", "{g}", "--player", "Red", "{f}/post.txt"])
    assert [c for c, _ in results] == [0, 0]
    posts = Game.open(game).store.pending_posts(1)
    assert posts.height == 3 and posts["seq"].n_unique() == 3


def test_a_post_racing_a_commit_is_never_lost(bases: dict[str, Path], tmp_path: Path) -> None:
    """A post stored while the turn is committed lands in the turn the store says, and is
    either consumed by it or pending (for the coming turn, or late for the committed one)."""
    for _ in range(4):
        game, results = _together(bases, tmp_path, "ready", ["resolve", "{g}"],
                                  ["orders", "{g}", "--player", "Gold", "{f}/post.txt"])
        assert [c for c, _ in results] == [0, 0], results
        said = int(re.search(r"post #\d+ for turn (\d+)", results[1][1]).group(1))
        g = _check_folder(game)
        seqs = set(g.turn(1).orders["seq"].to_list()) | set(
            g.store.pending_posts(said)["seq"].to_list())
        assert len(seqs) == 2, (said, seqs)


def test_two_rollbacks_at_once(bases: dict[str, Path], tmp_path: Path) -> None:
    """Two rollbacks at once: the game ends at the earlier turn with nothing reusable left."""
    game, _ = _together(bases, tmp_path, "played", ["rollback", "{g}", "--to", "2"],
                        ["rollback", "{g}", "--to", "1"])
    g = _check_folder(game)
    assert g.latest_turn == 1


def test_two_publishes_at_once(bases: dict[str, Path], tmp_path: Path) -> None:
    """Two publishes into one folder at once leave one whole site."""
    _together(bases, tmp_path, "played", ["publish", "{g}", "--out", "{w}/site"],
              ["publish", "{g}", "--out", "{w}/site"])
    assert (tmp_path / "site" / "index.html").is_file()


WritingCheck = Callable[[Path], None]


def test_a_post_set_aside_while_the_posts_are_read_is_not_an_error(
        bases: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Readers take no lock: a commit may move a consumed post to ``pending/used`` between a
    reader's listing of the posts and its reading of one. That post was consumed; reading the
    pending posts goes on without it (it once ended ``gmkit orders`` with 'missing')."""
    import gmkit.core.pending as pending

    game = Game.open(_copy(bases["ready"], tmp_path / "g"))
    (post,) = sorted((game.root / "pending" / "posts").glob("*.json"))
    real = pending.read_json_file
    used = game.root / "pending" / "used"

    def moved_under_us(path: Path, kind: type = dict) -> object:
        if path == post and post.exists():
            used.mkdir(exist_ok=True)
            post.rename(used / f"0001-{post.name}")
        return real(path, kind)

    monkeypatch.setattr(pending, "read_json_file", moved_under_us)
    assert game.store.pending_posts(1).height == 0
    monkeypatch.setattr(pending, "read_json_file", real)
    assert json.loads((used / f"0001-{post.name}").read_text("utf-8"))["player"] == "Red"
