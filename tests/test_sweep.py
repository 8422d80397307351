"""Balance sweeps (gmkit.sweeps.sweep, ``gmkit sweep``): seeded bot games per rule variant, played
through the same resolution as a real game, the same tables wherever they run, and any game
replayed as an ordinary game folder."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner, Result

from gmkit.sweeps import sweep
from gmkit.cli import main
from gmkit.game import Game
from gmkit.sweeps.page import render_page

#: A short sweep of Three Hills: few games, few rounds.
SMALL = {"rounds": 4, "seed": "test"}


def run_cli(*args: object) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def final_standings(game: Game) -> pl.DataFrame:
    return game.ruleset.standings(game.state(), game.rules)


def test_same_seeds_give_the_same_tables() -> None:
    """N seeded games: the same seeds play the same games, row for row; another seed plays
    others."""
    spec = sweep.plan("example", 3, **SMALL)
    a, b = sweep.run(spec), sweep.run(spec)
    assert a.games.equals(b.games) and a.margins.equals(b.margins)
    other = sweep.run(sweep.plan("example", 3, rounds=4, seed="another"))
    assert not other.games.equals(a.games)


def test_local_workers_and_a_dask_cluster_give_equal_tables() -> None:
    """Local worker processes by default, a Dask cluster given its address: the same results
    for the same seeds either way."""
    distributed = pytest.importorskip("distributed")
    spec = sweep.plan("example", 3, vary=["crowded_hill=roll,holder"], **SMALL)
    local = sweep.run(spec, workers=2)
    with distributed.LocalCluster(processes=False, n_workers=2, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        remote = sweep.run(spec, scheduler=cluster.scheduler_address)
    assert local.games.equals(remote.games)
    assert local.margins.equals(remote.margins)
    assert local.games.equals(sweep.run(spec).games)  # and in this process


def test_local_workers_hold_polars_to_one_thread() -> None:
    """Polars held to one thread per worker."""
    with sweep.local_pool(2) as pool:
        assert [pool.submit(sweep.polars_threads).result() for _ in range(4)] == [1] * 4


def test_vary_plays_one_block_of_games_per_variant() -> None:
    """--vary KEY=V1,V2: N games per rule variant, one block each, game k of each block from
    the same seed."""
    spec = sweep.plan("example", 3, vary=["crowded_hill=roll,holder"], **SMALL)
    games = sweep.run(spec).games.unique("game", maintain_order=True)
    assert games["game"].to_list() == list(range(6))
    assert games["variant"].to_list() == ["crowded_hill=roll"] * 3 + ["crowded_hill=holder"] * 3
    assert games["seed"].to_list()[:3] == games["seed"].to_list()[3:]
    assert [dict(v.rules) for v in spec.variants] == [{"crowded_hill": "roll"},
                                                      {"crowded_hill": "holder"}]


def test_rules_apply_to_every_variant_and_repeated_vary_multiplies_them() -> None:
    """--rules KEY=VALUE holds in every game; two --vary give every combination."""
    spec = sweep.plan("example", 1, rules=["gold_to_win=5"],
                      vary=["crowded_hill=roll,holder", "dig_die=4,8"], **SMALL)
    assert [v.label for v in spec.variants] == [
        "crowded_hill=roll, dig_die=4", "crowded_hill=roll, dig_die=8",
        "crowded_hill=holder, dig_die=4", "crowded_hill=holder, dig_die=8"]
    assert all(v.rules["gold_to_win"] == 5 for v in spec.variants)


def test_a_game_ends_at_its_outcome_or_the_round_limit() -> None:
    """Each game is played to its end (the outcome) or to the round limit."""
    games = sweep.run(sweep.plan("example", 6, rules=["gold_to_win=6"], rounds=6,
                                 seed="ends")).games
    per_game = games.unique("game", maintain_order=True)
    assert (per_game["rounds"] <= 6).all()
    assert set(per_game["ended"]) <= {"victory", "time limit", sweep.ROUND_LIMIT}
    assert per_game.filter(pl.col("ended") == sweep.ROUND_LIMIT)["winner"].null_count() == \
        per_game.filter(pl.col("ended") == sweep.ROUND_LIMIT).height
    decided = games.filter(pl.col("winner").is_not_null())
    assert decided.height and (decided.filter("won")["gold"] >= 6).all()


@pytest.mark.parametrize("ruleset,rounds", [("example", 5), ("cien", 2)])
def test_replay_reproduces_the_games_final_standings(ruleset: str, rounds: int,
                                                     tmp_path: Path) -> None:
    """Any game of a sweep can be replayed as an ordinary game folder, to the same final
    standings; the folder verifies."""
    spec = sweep.plan(ruleset, 2, rounds=rounds, seed="replay")
    table = sweep.run(spec).games
    game = sweep.replay(spec, 1, tmp_path / "game")
    standings = final_standings(game)
    row = table.filter(pl.col("game") == 1)
    assert row["rounds"][0] == game.latest_turn
    assert standings.equals(row.select(standings.columns))
    assert game.verify() == []


def test_an_unknown_rule_key_is_a_clear_one_line_error() -> None:
    """An unknown rule key (or a value of the wrong kind) stops the sweep with one line
    naming the option."""
    for args, words in [(["--vary", "nope=1,2"], "--vary nope=1,2: unknown rule 'nope'"),
                        (["--rules", "nope=1"], "--rules nope=1: unknown rule 'nope'"),
                        (["--rules", "last_turn=soon"],
                         "rule 'last_turn' must be a whole number from 1 to 1000")]:
        res = run_cli("sweep", "example", "--games", "2", "--workers", "0", *args)
        assert res.exit_code == 2, res.output
        lines = res.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("gmkit: ") and words in lines[0], lines


def test_the_command_writes_the_tables_and_the_page_and_replays(tmp_path: Path) -> None:
    """``gmkit sweep`` writes games.parquet, margins.parquet and sweep.html; ``--replay GAME
    --into FOLDER`` with the same arguments plays that game again as a game folder."""
    args = ["sweep", "example", "--games", "2", "--vary", "crowded_hill=roll,holder",
            "--rounds", "3", "--workers", "0", "--seed", "cli"]
    res = run_cli(*args, "--out", tmp_path / "out")
    assert res.exit_code == 0, res.output
    games = pl.read_parquet(tmp_path / "out" / "games.parquet")
    margins = pl.read_parquet(tmp_path / "out" / "margins.parquet")
    assert games["game"].n_unique() == 4 and margins["round"].max() == 3
    assert (tmp_path / "out" / "sweep.html").read_text("utf-8").startswith("<!DOCTYPE html>")
    res = run_cli(*args, "--replay", "3", "--into", tmp_path / "again")
    assert res.exit_code == 0, res.output
    again = final_standings(Game.open(tmp_path / "again"))
    assert again.equals(games.filter(pl.col("game") == 3).select(again.columns))


def _tags(page: str) -> list[tuple[str, list[str]]]:
    """Every element of a page, with its attribute names, as a browser's parser reads them."""
    found: list[tuple[str, list[str]]] = []

    class Parser(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            found.append((tag, [name for name, _ in attrs]))

    Parser().feed(page)
    return found


HOSTILE = '<script>alert("x")</script>'


def test_the_page_has_no_unescaped_player_text(tmp_path: Path) -> None:
    """Player names and ids reach the page escaped: no markup of theirs survives."""
    players = [{"id": "Amber", "name": HOSTILE}, {"id": "B<i>rch", "name": "Birch & co"},
               {"id": "Cedar<img src=x onerror=alert(1)>", "name": "Cedar"}]
    spec = sweep.plan("example", 2, players=players, **SMALL)
    page = render_page(sweep.run(spec))
    assert "<script" not in page.lower() and "<img" not in page and "<i>" not in page
    assert "B&lt;i&gt;rch" in page
    assert "Cedar&lt;img src=x onerror=alert(1)&gt;" in page
    tags = _tags(page)
    assert not {"script", "img", "i"} & {tag for tag, _ in tags}
    assert not [name for _, attrs in tags for name in attrs if name.startswith("on")]
    assert 'http-equiv="Content-Security-Policy"' in page


def test_the_command_has_help() -> None:
    """``gmkit sweep --help`` says what it does, and how to replay a game."""
    res = run_cli("sweep", "--help")
    assert res.exit_code == 0
    assert "--replay" in res.stdout and "--scheduler" in res.stdout
