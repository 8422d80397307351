"""A position's files have limits, as every other file gmkit reads: each a regular file of at
most ``MAX_POSITION_BYTES`` (32 MiB) holding at most ``MAX_POSITION_ROWS`` (a million) rows, so a
91 MB table of two million rows is refused naming the file, before it is read, while an Aeternus
world of 100,000 hexes is taken."""

from __future__ import annotations

import os
from pathlib import Path

import polars as pl
import pytest

import gmkit.game.position as position
from bench.position_limits import world_position
from gmkit.core.ruleset import find_ruleset
from gmkit.game import Game
from gmkit.game.position import (MAX_POSITION_BYTES, MAX_POSITION_ROWS, PositionError,
                                 write_position)


def _three_hills(tmp_path: Path) -> Path:
    rs = find_ruleset("example")
    pos = tmp_path / "pos"
    write_position(Game.new(tmp_path / "source", "example", rs.example_players(None)).state(),
                   pos)
    return pos


def _refused(tmp_path: Path, pos: Path) -> list[str]:
    rs = find_ruleset("example")
    with pytest.raises(PositionError) as caught:
        Game.new(tmp_path / "g", "example", rs.example_players(None), state=pos)
    assert not (tmp_path / "g").exists(), "nothing half-made"
    return caught.value.problems


def test_an_aeternus_world_of_100000_hexes_is_taken(tmp_path: Path) -> None:
    """The limits take a 100,000-hex world several times over; the game starts from it."""
    folder, turn, ctx = world_position(tmp_path / "pos")
    assert (folder / "world.parquet").stat().st_size * 5 <= MAX_POSITION_BYTES
    game = Game.new(tmp_path / "g", "aeternus", [{"id": p.id, "name": p.name}
                                                  for p in ctx.players],
                    state=folder, turn=turn)
    assert game.state()["world"].height > 100_000
    assert game.state()["world"].height * 5 <= MAX_POSITION_ROWS


def test_a_file_larger_than_the_limit_is_refused_unread(tmp_path: Path) -> None:
    """A 91 MB table is refused by its size, named, without reading a byte of it."""
    pos = _three_hills(tmp_path)
    (pos / "routes.csv").unlink()
    with open(pos / "routes.parquet", "wb") as f:
        f.truncate(91_000_000)  # sparse: no disk is used
    assert _refused(tmp_path, pos) == [
        f"{pos / 'routes.parquet'}: 91,000,000 bytes, more than {MAX_POSITION_BYTES:,}, the most "
        "a file of a position may be"]


def test_a_table_of_more_rows_than_the_limit_is_refused_naming_the_file(tmp_path: Path) -> None:
    """Two million rows compress to a small Parquet file: their count is read from the file's
    footer and refused before the table is."""
    pos = _three_hills(tmp_path)
    (pos / "routes.csv").unlink()
    pl.DataFrame({"a": ["Camp"] * 2_000_000, "b": ["Ford"] * 2_000_000}).write_parquet(
        pos / "routes.parquet")
    assert (pos / "routes.parquet").stat().st_size < MAX_POSITION_BYTES
    assert _refused(tmp_path, pos) == [
        f"{pos / 'routes.parquet'}: 2,000,000 rows, more than {MAX_POSITION_ROWS:,}, the most a "
        "table of a position may hold"]


def test_a_csv_table_of_more_rows_than_the_limit_is_refused(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """A CSV table's rows are its lines after the header, counted before it is parsed."""
    monkeypatch.setattr(position, "MAX_POSITION_ROWS", 5)
    pos = _three_hills(tmp_path)
    (pos / "routes.csv").write_text("a,b\n" + "Camp,Ford\n" * 6)
    assert _refused(tmp_path, pos) == [
        f"{pos / 'routes.csv'}: 6 rows, more than 5, the most a table of a position may hold"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_in_place_of_a_table_is_refused_without_blocking(tmp_path: Path) -> None:
    pos = _three_hills(tmp_path)
    (pos / "hills.csv").unlink()
    os.mkfifo(pos / "hills.csv")
    assert _refused(tmp_path, pos) == [f"{pos / 'hills.csv'}: not a regular file"]
