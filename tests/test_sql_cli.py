"""``gmkit sql`` for analysts: every row of a result printed (through a pager on a terminal),
or written as CSV, JSON or Parquet; and the cells of an export written alike in every format
(a list as JSON, a boolean true or false), never as Python's repr text."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner, Result

from gmkit.cli import main

ROOT = Path(__file__).resolve().parents[1]

PAIRS = ("SELECT turn, name, capital, [name, owner] AS pair FROM provinces "
         "ORDER BY turn, name")


def run(*args: object) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return Path(shutil.copytree(ROOT / "data" / "sample-cien",
                                tmp_path_factory.mktemp("sql") / "g",
                                ignore=shutil.ignore_patterns(".lock")))


def test_every_row_of_a_result_is_printed(game: Path) -> None:
    """A result of hundreds of rows is printed whole, not cut to its first and last rows."""
    res = run("sql", game, "SELECT name || '#' || turn AS k FROM provinces")
    assert res.exit_code == 0, res.output
    from gmkit.game import Game

    g = Game.open(game)
    names = g.state(0)["provinces"]["name"].to_list()
    assert g.latest_turn > 1 and len(names) * (g.latest_turn + 1) > 300
    assert "…" not in res.output
    for name in names:
        for turn in range(g.latest_turn + 1):
            assert f"{name}#{turn}" in res.output


def test_a_result_on_a_terminal_goes_through_the_pager(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal the whole table is handed to the pager (the GM scrolls it)."""
    import gmkit.cli.publishing as publishing

    paged: list[str] = []
    monkeypatch.setattr(publishing.sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(publishing.click, "echo_via_pager", lambda text: paged.append(text))
    publishing.show_every_row(pl.DataFrame({"n": list(range(500))}))
    assert len(paged) == 1 and "│ 499 │" in paged[0] and "│ 250 │" in paged[0]


def test_csv_writes_a_list_as_json_and_a_boolean_as_true_or_false(game: Path,
                                                                   tmp_path: Path) -> None:
    """CSV: the list cell reads back as JSON, the boolean as the word polars and DuckDB
    write; printed and written alike."""
    printed = run("sql", game, PAIRS, "--format", "csv")
    assert printed.exit_code == 0, printed.output
    written = run("sql", game, PAIRS, "--out", tmp_path / "r.csv")
    assert written.exit_code == 0, written.output
    text = (tmp_path / "r.csv").read_text("utf-8")
    assert text == printed.output
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows and {r["capital"] for r in rows} == {"true", "false"}
    assert all(json.loads(r["pair"])[0] == r["name"] for r in rows)
    assert "['" not in text and "True" not in text


def test_json_and_parquet_hold_the_result_as_queried(game: Path, tmp_path: Path) -> None:
    """JSON: an array of rows with real lists and booleans; Parquet: the frame itself."""
    res = run("sql", game, PAIRS, "--format", "json")
    assert res.exit_code == 0, res.output
    rows = json.loads(res.output)
    assert rows[0]["pair"][0] == rows[0]["name"] and isinstance(rows[0]["capital"], bool)
    assert run("sql", game, PAIRS, "--out", tmp_path / "r.parquet").exit_code == 0
    back = pl.read_parquet(tmp_path / "r.parquet")
    assert back.height == len(rows) and back["pair"].dtype == pl.List(pl.String)
    assert back.row(0, named=True) == rows[0]


@pytest.mark.parametrize(("args", "words"), [
    (["--format", "parquet"], "--out FILE.parquet"),
    (["--out", "r.xlsx"], ".csv, .json or .parquet"),
    (["--format", "table", "--out", "r.csv"], "--format csv, json or parquet"),
])
def test_a_result_gmkit_cannot_write_is_refused_in_one_line(game: Path, tmp_path: Path,
                                                            args: list[str], words: str) -> None:
    res = run("sql", game, "SELECT 1 AS x", *[tmp_path / a if a.startswith("r.") else a
                                              for a in args])
    assert res.exit_code == 2 and words in res.stderr, res.output


def test_a_result_is_never_written_into_the_game_folder(game: Path) -> None:
    res = run("sql", game, "SELECT 1 AS x", "--out", game / "x.csv")
    assert res.exit_code == 2 and "inside the game folder" in res.stderr
    assert not (game / "x.csv").exists()


def test_history_csv_and_json_write_booleans_and_lists_as_the_sql_results_do(
        game: Path, tmp_path: Path) -> None:
    """``gmkit history --out``: a boolean column (a player's rebel flag) is true or false in
    CSV and a JSON boolean, as in ``gmkit sql``'s results."""
    assert run("history", game, "players", "--out", tmp_path / "p.csv").exit_code == 0
    assert run("history", game, "players", "--out", tmp_path / "p.json").exit_code == 0
    rows = list(csv.DictReader(io.StringIO((tmp_path / "p.csv").read_text("utf-8"))))
    assert {r["rebel"] for r in rows} <= {"true", "false"} and rows
    listed = json.loads((tmp_path / "p.json").read_text("utf-8"))
    assert len(listed) == len(rows) and all(isinstance(r["rebel"], bool) for r in listed)


def test_reading_the_turns_tells_its_progress(game: Path) -> None:
    """A long query (every turn read and checked) tells its progress turn by turn, for the
    bar a terminal shows."""
    from gmkit.game import Game
    from gmkit.publish.sql import query

    told: list[tuple[int, int]] = []
    query(game, "SELECT 1 AS x", progress=lambda done, total: told.append((done, total)))
    turns = len(Game.open(game).store.turns())
    assert told == [(n, turns) for n in range(1, turns + 1)]
