"""``verify`` checks the posts kept in ``pending/used``, the title and duplicate player ids;
``gmkit new`` refuses a player id ``publish --players`` could not use; the posts folder is synced
after consumed posts move."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gmkit.core import pending as gpending
from gmkit.core import store as gstore
from gmkit.game import Game
from tests.test_cli import PLAYERS_TOML, files, game, one_line_failure, run  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def played(game: Path) -> Path:  # noqa: F811
    """One turn committed: a post consumed and kept in pending/used."""
    assert run("commit-seed", game).exit_code == 0
    res = run("orders", game, "--player", "Red", "-", input="[b]10 Grain for Defense of Coyons[/b]")
    assert res.exit_code == 0, res.output
    assert run("resolve", game).exit_code == 0
    return game


def test_a_consumed_post_rewritten_in_pending_used_is_reported(played: Path) -> None:
    """The copy of a consumed post kept in pending/used must say what the turn recorded."""
    used = next((played / "pending" / "used").glob("0001-*.json"))
    rec = json.loads(used.read_text())
    rec["text"] = "[b]10 Grain for Conquest of Arles[/b]"
    used.write_text(json.dumps(rec))
    res = run("verify", played)
    assert res.exit_code == 1
    assert f"{used}: its text differ(s) from post #{rec['seq']} as turn 1 recorded it" \
        in res.stdout


def test_an_unreadable_post_in_pending_used_is_reported(played: Path) -> None:
    used = next((played / "pending" / "used").glob("0001-*.json"))
    used.write_text("{not json")
    res = run("verify", played)
    assert res.exit_code == 1 and str(used) in res.stdout


def test_duplicate_player_ids_and_a_bad_title_in_game_toml_are_reported(played: Path) -> None:
    """A hand-edited game.toml listing a player twice, or a title with a control character,
    is reported by verify, naming the file and the value."""
    toml = played / "game.toml"
    g = Game.open(played)
    config = dict(g.config)
    config["title"] = "Test\u0007Crown"
    config["players"] = [*config["players"], {**config["players"][0], "name": "Again"}]
    g.store.write_config(config)  # as a hand edit would leave it
    res = run("verify", played)
    assert res.exit_code == 1
    assert f"{toml}: player id 'Red' is listed 2 times" in res.stdout
    assert f"{toml}: the title must be one line of text" in res.stdout


@pytest.mark.parametrize("pid", ["../Red", "a/b", " Red", ".."])
def test_new_refuses_a_player_id_publish_could_not_use(files: Path, pid: str) -> None:  # noqa: F811
    """``gmkit new`` refuses an id that cannot name the player's folder of private pages."""
    (files / "players.toml").write_text(PLAYERS_TOML.replace('id = "Red"', f'id = "{pid}"'))
    res = run("new", files / "g", "--ruleset", "example", "--players", files / "players.toml")
    line = one_line_failure(res)
    assert f"player id {pid!r} cannot name a folder" in line
    assert not (files / "g").exists()


def test_new_refuses_a_player_listed_twice(files: Path) -> None:  # noqa: F811
    (files / "players.toml").write_text(PLAYERS_TOML.replace('id = "Gold"', 'id = "Red"'))
    res = run("new", files / "g", "--ruleset", "example", "--players", files / "players.toml")
    assert "player id 'Red' is listed 2 times" in one_line_failure(res)


def test_the_posts_folder_is_synced_after_consumed_posts_move(
        game: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """Committing a turn moves its posts to pending/used, then syncs both folders."""
    synced: list[Path] = []
    real = gstore.fsync_dir
    for module in (gstore, gpending):  # the store's commit, and its pending input's move
        monkeypatch.setattr(module, "fsync_dir", lambda p: (synced.append(Path(p)), real(p)))
    assert run("commit-seed", game).exit_code == 0
    assert run("orders", game, "--player", "Red", "-",
               input="[b]10 Grain for Defense of Coyons[/b]").exit_code == 0
    synced.clear()
    assert run("resolve", game).exit_code == 0
    assert game / "pending" / "posts" in synced and game / "pending" / "used" in synced
    assert not list((game / "pending" / "posts").glob("*.json"))


def test_the_samples_still_verify_with_these_checks(tmp_path: Path) -> None:
    """Every post the sample kept in pending/used is what its turn recorded."""
    g = shutil.copytree(ROOT / "data" / "sample-aztlan", tmp_path / "s")
    res = run("verify", g)
    assert res.exit_code == 0, res.output
    assert list((Path(g) / "pending" / "used").glob("*.json"))
    assert Game.open(g).latest_turn > 0
