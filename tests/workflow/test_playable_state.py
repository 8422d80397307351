"""Positions and corrections the rules allow: one check of a state (``Ruleset.state_problems``,
declared by each ruleset as :class:`gmkit.core.playable.Playable`), run by ``gmkit new --state``
and ``gmkit correct`` before anything is written or recorded.

For every ruleset: a position breaking a rule is refused with one line per problem naming the
file, row and column, and no game folder is made; a correction breaking a rule is refused
naming the table, row and column, and nothing is recorded; every state a game reaches by play
passes the check (the declarations refuse nothing the rules allow).
"""

from __future__ import annotations

import math
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from click.testing import CliRunner

from gmkit.cli import main
from gmkit.core.playable import PLAYERS
from gmkit.core.ruleset import find_ruleset, registered
from gmkit.core.tables import State
from gmkit.game import Game, GameError, board_path, starting_board
from gmkit.game.position import PositionError, write_position
from gmkit.sweeps.playout import play

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "data"
OLD_GAMES = ROOT / "tests" / "fixtures" / "old-games"


def _game(name: str, tmp_path: Path) -> Game:
    """A working copy of the ruleset's sample game (a fresh playout where none is shipped)."""
    sample = SAMPLES / f"sample-{name}"
    if sample.is_dir():
        return Game.open(shutil.copytree(sample, tmp_path / "game"))
    rs = find_ruleset(name)
    return play(Game.new(tmp_path / "game", name, rs.example_players(rs.default_board())), 3)


def _cell(state: State, table: str, row: int, column: str, value: Any) -> State:
    """``state`` with one cell (row from 0) set."""
    frame = state[table]
    values = frame[column].to_list()
    values[row] = value
    return state.replace(**{table: frame.with_columns(
        pl.Series(column, values, dtype=frame.schema[column]))})


def _where(state: State, table: str, test: Callable[[dict[str, Any]], bool]) -> int:
    """The first row (from 0) of ``table`` for which ``test`` holds."""
    return next(i for i, r in enumerate(state[table].iter_rows(named=True)) if test(r))


def _duplicate(table: str, column: str) -> Callable[[State], State]:
    return lambda s: _cell(s, table, 1, column, s[table][column][0])


def _set(table: str, column: str, value: Any, row: int = 0) -> Callable[[State], State]:
    return lambda s: _cell(s, table, row, column, value)


def _empty(table: str) -> Callable[[State], State]:
    return lambda s: s.replace(**{table: s[table].clear()})


def _cien_border(s: State) -> State:
    """A border the map does not have, one way only (Cien borders Tróys? no: Cien and the
    first province it does not border)."""
    near = set(s["borders"].filter(pl.col("a") == "Cien")["b"].to_list())
    far = next(n for n in s["provinces"]["name"].to_list() if n not in near and n != "Cien")
    return s.replace(borders=pl.concat([s["borders"], pl.DataFrame(
        {"a": ["Cien"], "b": [far]}, schema=s["borders"].schema)]))


def _aztlan_stack(s: State) -> State:
    return _cell(s, "armies", _where(s, "armies", lambda r: r["sector"] != "Chichimec Desert"),
                 "count", 50)


def _pyramid_nobles(s: State) -> State:
    return _cell(s, "nobles", 1, "space", s["nobles"]["space"][0])


#: (ruleset, what is wrong, the change, table, row (from 1; None: the table), column, words)
POSITIONS: list[tuple[str, str, Callable[[State], State], str, int | None, str | None, str]] = [
    ("cien", "a colour twice", _duplicate("players", "id"), "players", 2, "id",
     "is on row 1 too"),
    ("cien", "a province twice", _duplicate("provinces", "name"), "provinces", 2, "name",
     "is on row 1 too"),
    ("cien", "a treasury of 2^63-1", _set("players", "treasury", 2**63 - 1), "players", 1,
     "treasury", "9223372036854775807 is not from 0 to 1,000,000,000"),
    ("cien", "a tyranny", _set("players", "government", "tyranny"), "players", 1,
     "government", "'tyranny' is not one of city-state, duchy, republic, kingdom"),
    ("cien", "an owner who is no player", _set("provinces", "owner", "Mauve"), "provinces", 1,
     "owner", "'Mauve' names no colour"),
    ("cien", "a negative output", _set("provinces", "output", -4), "provinces", 1, "output",
     "-4 is not from 0"),
    ("cien", "no players", _empty("players"), "players", None, None,
     "0 row(s); the rules need at least 10"),
    ("cien", "a border one way", _cien_border, "borders", None, "b",
     "but not the other way round"),
    ("aztlan", "fifty armies in a sector", _aztlan_stack, "armies", None, "count",
     "50 armies in"),
    ("aztlan", "no players", _empty("players"), "players", None, None,
     "0 row(s); the rules need at least 3 (rule 'min_players')"),
    ("aztlan", "NaN coordinates", _set("sectors", "x", math.nan), "sectors", 1, "x",
     "nan is not a number a game can hold"),
    ("aztlan", "a fifth season", _set("game", "season", "Monsoon"), "game", 1, "season",
     "'Monsoon' is not one of Winter, Spring, Summer, Fall"),
    ("pyramid", "two nobles on one space", _pyramid_nobles, "nobles", 2, "space",
     "is on row 1 too"),
    ("pyramid", "a land held by no player", _set("spaces", "holder", "Mauve"), "spaces", 1,
     "holder", "'Mauve' names no player"),
    ("pyramid", "no food below nothing", _set("players", "food", -1), "players", 1, "food",
     "-1 is not from 0"),
    ("aeternus", "a unicorn biome", _set("world", "biome", "unicorn"), "world", 1, "biome",
     "'unicorn' is not one of Meadow"),
    ("aeternus", "a player 10^15 hexes out", _set("players", "q", 10**15), "players", 1, "q",
     "is not from -1000000 to 1000000"),
    ("aeternus", "a player twice", _duplicate("players", "id"), "players", 2, "id",
     "is on row 1 too"),
    ("jungle", "a character twice", _duplicate("characters", "name"), "characters", 2, "name",
     "is on row 1 too"),
    ("jungle", "a character of no house", _set("characters", "house", "Mauve"), "characters",
     1, "house", "'Mauve' names no house"),
    ("jungle", "an emperor", _set("characters", "class", "emperor"), "characters", 1, "class",
     "'emperor' is not one of peasant, soldier, citizen, specialist, tlatoani"),
    ("jungle", "two festivals", _set("gods", "festival", True), "gods", None, "festival",
     "a festival of"),
    ("jungle", "XP below nothing", _set("characters", "xp", -1), "characters", 1, "xp",
     "-1 is not from 0"),
    ("example", "a digger twice", _duplicate("diggers", "id"), "diggers", 2, "id",
     "is on row 1 too"),
    ("example", "a digger on no place", _set("diggers", "place", "Atlantis"), "diggers", 1,
     "place", "'Atlantis' names no row of 'places'"),
    ("example", "a player without a digger", lambda s: s.replace(diggers=s["diggers"].slice(1)),
     "diggers", None, "id", "no row names 'Amber', a player of the game"),
    ("example", "no diggers", _empty("diggers"), "diggers", None, None,
     "0 row(s); the rules need at least 2"),
]


def _names(line: str, file: Path, row: int | None, column: str | None) -> bool:
    """Whether a problem's line names ``file``, then ``row`` and ``column`` where given."""
    where = line.split(": ", 1)[1].split(": ")[0] if ": " in line else ""
    return (line.startswith(f"{file}: ")
            and (row is None or where.startswith(f"row {row} ") or where == f"row {row}"
                 or where.startswith(f"row {row},"))
            and (column is None or f"column '{column}'" in where))


def _file(folder: Path, table: str) -> Path:
    return next(p for p in (folder / f"{table}.csv", folder / f"{table}.parquet") if p.exists())


@pytest.mark.parametrize("name, what, change, table, row, column, words", POSITIONS,
                         ids=[f"{c[0]}: {c[1]}" for c in POSITIONS])
def test_a_position_the_rules_cannot_play_is_refused_naming_file_row_and_column(
        tmp_path: Path, name: str, what: str, change: Callable[[State], State], table: str,
        row: int | None, column: str | None, words: str) -> None:
    """``gmkit new --state``: a position breaking a rule is refused before anything is made,
    each problem on a line naming the file, the row and the column."""
    source = _game(name, tmp_path)
    pos = tmp_path / "position"
    write_position(change(source.state()), pos)
    with pytest.raises(PositionError) as caught:
        Game.new(tmp_path / "new", name, source.config["players"],
                 rules=source.config.get("rules", {}),
                 map_path=board_path(source.root, source.ruleset), state=pos,
                 turn=source.latest_turn)
    lines = caught.value.problems
    assert any(_names(line, _file(pos, table), row, column) and words in line
               for line in lines), lines
    assert not (tmp_path / "new").exists(), "nothing half-made"


def test_gmkit_new_prints_each_problem_of_the_position_and_makes_no_game(tmp_path: Path) -> None:
    source = _game("cien", tmp_path)
    pos = tmp_path / "position"
    write_position(_set("players", "government", "tyranny")(
        _set("provinces", "output", -4)(source.state())), pos)
    players = tmp_path / "players.toml"
    players.write_text("".join(
        f'[[players]]\nid = "{p["id"]}"\nname = "{p["name"]}"\nstate = "{p["state"]}"\n'
        f'government = "{p["government"]}"\n\n' for p in source.config["players"]),
        encoding="utf-8")
    out = CliRunner().invoke(main, ["new", str(tmp_path / "new"), "--ruleset", "cien",
                                    "--players", str(players), "--state", str(pos),
                                    "--turn", str(source.latest_turn)])
    assert out.exit_code == 2
    assert f"{pos / 'players.csv'}: row 1 (Red), column 'government': 'tyranny' is not one of" \
        in out.output
    assert f"{pos / 'provinces.csv'}: row 1 (Aigremont), column 'output': -4 is not from 0" \
        in out.output
    assert "problem(s); no game was created" in out.output
    assert not (tmp_path / "new").exists()


#: (ruleset, table, setting, words naming the table, row and column)
CORRECTIONS: list[tuple[str, str, str, str]] = [
    ("cien", "players", "Red: treasury=9223372036854775807",
     "table 'players': row 1 (Red), column 'treasury': 9223372036854775807 is not from 0"),
    ("cien", "players", "Red: government=tyranny",
     "column 'government': 'tyranny' is not one of"),
    ("cien", "players", "Red: id=Gold", "column 'id': 'Gold' is on row 1 too"),
    ("cien", "provinces", "Aigremont: output=-1", "column 'output': -1 is not from 0"),
    ("cien", "borders", "a=Aigremont,b=Guicardie: b=Cien",
     "Aigremont borders Cien but not the other way round"),
    ("aztlan", "armies", "28: count=50",
     "table 'armies': row 12 (28), column 'count': 50 armies in 28: at most 3 in a sector (4.1"),
    ("aztlan", "players", "Aztecs: status=asleep", "'asleep' is not one of active, eliminated"),
    ("pyramid", "players", "Red: food=-1", "table 'players': row 1 (Red), column 'food'"),
    ("pyramid", "pyramids", "Green: size=pyramidion", "'pyramidion' is not one of scout"),
    ("aeternus", "world", "q=0,r=0: biome=unicorn", "column 'biome': 'unicorn' is not one of"),
    ("aeternus", "players", "Amber: q=1000000000000000",
     "column 'q': 1000000000000000 is not from -1000000 to 1000000"),
    ("jungle", "characters", "Gualpa: house=Mauve", "column 'house': 'Mauve' names no house"),
    ("jungle", "gods", "Huitzilopochtli: festival=true",
     "table 'gods': row 4 (Tlaloc), column 'festival': a festival of Huitzilopochtli is held "
     "already"),
    ("jungle", "session", "5: part=midnight", "'midnight' is not one of morning"),
    ("example", "diggers", "Birch: id=Amber", "column 'id': 'Amber' is on row 1 too"),
    ("example", "hills", "North Hill: gold_left=-3", "column 'gold_left': -3 is not from 0"),
]


@pytest.mark.parametrize("name, table, setting, words", CORRECTIONS,
                         ids=[f"{c[0]}: {c[2]}" for c in CORRECTIONS])
def test_a_correction_the_rules_cannot_play_is_refused_and_nothing_is_recorded(
        tmp_path: Path, name: str, table: str, setting: str, words: str) -> None:
    """``gmkit correct``: a correction breaking a rule is refused, naming the table, row and
    column of each problem it brings; nothing is recorded and the coming turn is as before."""
    game = _game(name, tmp_path)
    changes = game.root / "pending" / "changes.json"
    recorded = changes.read_bytes() if changes.exists() else None
    before = game.coming_state()
    with pytest.raises(GameError) as caught:
        game.correct(table, setting, "a test")
    assert words in str(caught.value)
    assert "would leave a state the rules cannot play; nothing is recorded" in str(caught.value)
    assert (changes.read_bytes() if changes.exists() else None) == recorded
    assert game.coming_state().equals(before)


def test_gmkit_correct_prints_the_problem_and_exits_2(tmp_path: Path) -> None:
    game = _game("cien", tmp_path)
    out = CliRunner().invoke(main, ["correct", str(game.root), "--table", "players", "--set",
                                    "Red: government=tyranny", "--why", "a ruling"])
    assert out.exit_code == 2
    assert "table 'players': row 1 (Red), column 'government': 'tyranny' is not one of " \
        "city-state, duchy, republic, kingdom" in out.output


def test_several_corrections_are_recorded_together_or_not_at_all(tmp_path: Path) -> None:
    """``gmkit correct --set A --set B``: each is checked against the state with the ones
    before it; when one is refused, none is recorded."""
    game = _game("example", tmp_path)
    args = ["correct", str(game.root), "--table", "diggers", "--why", "a recount"]
    out = CliRunner().invoke(main, [*args, "--set", "Amber: gold=4", "--set", "Birch: gold=-1"])
    assert out.exit_code == 2 and "row 2 (Birch), column 'gold': -1 is not from 0" in out.output
    assert game.corrections_for(game.next_turn) == []
    out = CliRunner().invoke(main, [*args, "--set", "Amber: gold=4", "--set", "Birch: gold=5"])
    assert out.exit_code == 0, out.output
    assert [c["value"] for c in game.corrections_for(game.next_turn)] == [4, 5]


def test_a_correction_that_mends_one_problem_is_taken_beside_others_already_there(
        tmp_path: Path) -> None:
    """A correction is refused for what it breaks, never for what was wrong before it (a state
    an older gmkit let through): mending one cell of such a state is taken."""
    game = _game("example", tmp_path)
    game.correct("hills", "North Hill: gold_left=4", "a recount")
    state = game.coming_state()
    bad = _set("diggers", "gold", -2)(state)
    found = game.ruleset.state_problems(bad, game.context())
    assert [p.column for p in found] == ["gold"]
    from gmkit.game.corrections import make_correction

    change = make_correction(game.ruleset, bad, "hills", "North Hill: gold_left=5", "again",
                             game.next_turn, game.context())
    assert change["value"] == 5


@pytest.mark.parametrize("name", registered())
def test_every_declaration_names_columns_of_the_schemas(name: str) -> None:
    """A declaration naming a table or column the state does not have, or a reference between
    columns of different types, is a mistake of the ruleset, caught here for every game."""
    rs = find_ruleset(name)
    for table, column in rs.playable.declared():
        assert table in rs.schemas, (table, column)
        assert not column or column in rs.schemas[table], (table, column)
    for ref in rs.playable.refers:
        if ref.target == PLAYERS:
            continue
        (st, sc), (tt, tc) = (r.split(".") for r in (ref.source, ref.target))
        for a, b in zip(sc.split(","), tc.split(",")):
            have, want = rs.schemas[st][a], rs.schemas[tt][b]
            assert getattr(have, "inner", have) == want, (ref, have, want)


@pytest.mark.parametrize("name", registered())
def test_every_state_a_game_reaches_by_play_is_playable(tmp_path: Path, name: str) -> None:
    """The declarations refuse nothing the rules allow: every turn of the sample game, of a
    fresh seeded playout and of the game an earlier gmkit wrote passes the check."""
    rs = find_ruleset(name)
    games = [_game(name, tmp_path),
             play(Game.new(tmp_path / "fresh", name, rs.example_players(starting_board(rs)[0])),
                  8, master="playable")]
    if (OLD_GAMES / name).is_dir():
        games.append(Game.open(OLD_GAMES / name))
    for game in games:
        for turn in game.store.turns():
            found = game.ruleset.state_problems(game.state(turn), game.context(turn=turn + 1))
            assert found == [], (game.root.name, turn, [p.line() for p in found[:5]])
        found = game.ruleset.state_problems(game.coming_state(), game.context())
        assert found == []
