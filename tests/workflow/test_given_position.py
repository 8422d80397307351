"""Starting a game from a given position (a game begun on paper, a scenario, a tutorial).

For every registered ruleset a played game's state is written out as a position (one file per
table: CSV, or Parquet for tables with list columns), a new game is made from it as the state
after that game's turn, one more turn is played from it and the whole folder verifies; the
position's manifest records it as given, so ``verify`` checks its hashes and does not set it
up again. A position that does not fit the ruleset's schemas is refused with one line per
problem naming the file, row and column, and no game folder is left behind.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from gmkit.cli import main
from gmkit.core.dice import Dice
from gmkit.core.ruleset import find_ruleset, registered
from gmkit.game import Game, board_path
from gmkit.sweeps.playout import play
from gmkit.game.position import PositionError, write_position
from gmkit.game.verify import verify_game

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "old-games"


def _played(name: str, tmp_path: Path) -> Game:
    """A game of ``name`` some turns in: the kept sample game, or a fresh playout."""
    if (FIXTURES / name).is_dir():
        return Game.open(FIXTURES / name)
    rs = find_ruleset(name)
    return play(Game.new(tmp_path / "played", name, rs.example_players(rs.default_board())), 3)


def _bot_turn(game: Game) -> None:
    state = game.coming_state()
    for pid in game.to_move(state):
        post = game.bot_post(state, pid, Dice("cd" * 32, game.next_turn, pid))
        if post.strip():
            game.receive_post(pid, post, received="2026-01-01T00:00:00+00:00")
    game.commit(game.start())


@pytest.mark.parametrize("name", registered())
def test_a_game_starts_from_a_given_position_plays_and_verifies(name: str,
                                                                  tmp_path: Path) -> None:
    """Every ruleset starts from a position given as tables, at the turn it was taken after."""
    source = _played(name, tmp_path)
    at = source.latest_turn
    given = source.state()
    written = write_position(given, tmp_path / "position")
    assert {p.stem for p in written} == set(source.ruleset.schemas)
    board = board_path(source.root, source.ruleset)
    game = Game.new(tmp_path / "g", name, source.config.get("players", []),
                    rules=source.config.get("rules", {}), map_path=board,
                    state=tmp_path / "position", turn=at)
    assert game.store.turns() == [at] and game.next_turn == at + 1
    assert game.store.manifest(at)["given"] is True
    assert game.state().equals(given), "the position reads back as it was written"
    _bot_turn(game)
    assert game.latest_turn == at + 1
    found = verify_game(Game.open(game.root))
    assert found.problems == [] and found.notices == []


def test_a_given_position_is_checked_by_its_hashes_not_set_up_again(tmp_path: Path) -> None:
    """The position's files are history: a changed one is reported; the set-up is not redone
    (it would differ: these are not the tables the ruleset sets up)."""
    rs = find_ruleset("example")
    source = play(Game.new(tmp_path / "played", "example", rs.example_players(None)), 2)
    game = Game.new(tmp_path / "g", "example", rs.example_players(None),
                    state=source.state(), turn=2)
    _bot_turn(game)
    assert verify_game(Game.open(game.root)).ok
    hills = game.store.turn_path(2) / "tables" / "hills.parquet"
    frame = pl.read_parquet(hills).with_columns(pl.col("gold_left") + 1)
    frame.write_parquet(hills)
    problems = verify_game(Game.open(game.root)).problems
    assert any("hills.parquet" in p for p in problems)


def test_a_given_position_at_turn_0_is_the_first_turn(tmp_path: Path) -> None:
    """Without a starting turn the position is turn 0 and turn 1 is played next."""
    rs = find_ruleset("example")
    source = Game.new(tmp_path / "played", "example", rs.example_players(None))
    write_position(source.state(), tmp_path / "pos")
    game = Game.new(tmp_path / "g", "example", rs.example_players(None), state=tmp_path / "pos")
    assert game.latest_turn == 0 and game.next_turn == 1
    _bot_turn(game)
    assert verify_game(Game.open(game.root)).ok


def _position_with_faults(tmp_path: Path) -> Path:
    rs = find_ruleset("example")
    source = Game.new(tmp_path / "played", "example", rs.example_players(None))
    pos = tmp_path / "pos"
    write_position(source.state(), pos)
    diggers = (pos / "diggers.csv").read_text().splitlines()
    head = diggers[0].split(",")
    cells = diggers[2].split(",")
    cells[head.index("gold")] = "lots"
    diggers[2] = ",".join(cells)
    (pos / "diggers.csv").write_text("\n".join(diggers) + "\n")
    hills = pl.read_csv(pos / "hills.csv").drop("gold_left")
    (pos / "hills.csv").write_text(hills.write_csv())
    (pos / "castles.csv").write_text("id\nx\n")
    return pos


def test_a_position_that_does_not_fit_the_schemas_is_refused_naming_file_row_and_column(
        tmp_path: Path) -> None:
    """Every problem at once, each on its line: a cell of the wrong type (file, row, column), a
    column missing, a table the ruleset does not have; no game folder is made."""
    pos = _position_with_faults(tmp_path)
    rs = find_ruleset("example")
    with pytest.raises(PositionError) as caught:
        Game.new(tmp_path / "g", "example", rs.example_players(None), state=pos)
    problems = caught.value.problems
    assert f"{pos / 'diggers.csv'}: row 2, column 'gold': 'lots' is not a whole number" in problems
    assert f"{pos / 'hills.csv'}: column 'gold_left' is missing" in problems
    assert any(p.startswith(f"{pos / 'castles.csv'}: no table 'castles'") for p in problems)
    assert len(problems) == 3
    assert not (tmp_path / "g").exists()


def test_gmkit_new_with_state_prints_one_line_per_problem(tmp_path: Path) -> None:
    pos = _position_with_faults(tmp_path)
    players = tmp_path / "players.toml"
    players.write_text('[[players]]\nid = "Amber"\n\n[[players]]\nid = "Birch"\n')
    result = CliRunner().invoke(main, ["new", str(tmp_path / "g"), "--ruleset", "example",
                                       "--players", str(players), "--state", str(pos)])
    assert result.exit_code == 2
    lines = result.output.splitlines()
    assert any("row 2, column 'gold'" in line for line in lines)
    assert any("column 'gold_left' is missing" in line for line in lines)
    assert not (tmp_path / "g").exists()


def test_gmkit_new_with_state_and_turn_starts_there(tmp_path: Path) -> None:
    rs = find_ruleset("example")
    source = play(Game.new(tmp_path / "played", "example", rs.example_players(None)), 2)
    write_position(source.state(), tmp_path / "pos")
    players = tmp_path / "players.toml"
    players.write_text("".join(f'[[players]]\nid = "{p["id"]}"\nname = "{p["name"]}"\n\n'
                               for p in rs.example_players(None)))
    result = CliRunner().invoke(main, ["new", str(tmp_path / "g"), "--ruleset", "example",
                                       "--players", str(players), "--state",
                                       str(tmp_path / "pos"), "--turn", "2"])
    assert result.exit_code == 0, result.output
    assert "turn 2 committed (the given position)" in result.output
    assert "turn 3 dice commitment" in result.output
    manifest = json.loads((tmp_path / "g" / "turns" / "0002.r0" / "manifest.json").read_text())
    assert manifest["given"] is True and manifest["previous"] is None


def test_a_starting_turn_without_a_position_is_refused(tmp_path: Path) -> None:
    rs = find_ruleset("example")
    with pytest.raises(ValueError, match="needs a given position"):
        Game.new(tmp_path / "g", "example", rs.example_players(None), turn=3)


def test_a_fraction_in_a_whole_number_column_of_a_parquet_table_is_refused(
        tmp_path: Path) -> None:
    """A Parquet table may give a column in a wider or narrower type, but never lose a value:
    2.5 gold is named, not cut to 2."""
    rs = find_ruleset("example")
    source = Game.new(tmp_path / "played", "example", rs.example_players(None))
    pos = tmp_path / "pos"
    write_position(source.state(), pos)
    diggers = pl.read_csv(pos / "diggers.csv").with_columns(
        pl.Series("gold", [0.0, 2.5, 1.0]), pl.col("arrived").cast(pl.Int32))
    (pos / "diggers.csv").unlink()
    diggers.write_parquet(pos / "diggers.parquet")
    with pytest.raises(PositionError) as caught:
        Game.new(tmp_path / "g", "example", rs.example_players(None), state=pos)
    assert caught.value.problems == [
        f"{pos / 'diggers.parquet'}: row 2, column 'gold': 2.5 is not a whole number"]
