"""Every later turn plays: a correction the check of a state takes (see
``tests/workflow/test_playable_state.py``) never leaves a state the rules cannot resolve.

For each sample game (and a Three Hills playout), from its latest position, one correction of
every column of every table is tried, in turn, each from another row's value, a step from the
cell's own, the other truth value, an empty list or null; the first the check takes is recorded
and the next correction is checked against the state with it. Then two turns are resolved by the
bots through the real workflow, and the game verifies. A correction of a row's key (a moved
stack, a renamed coast) is public where the public sees the row, and the public report shows it.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmkit.core.reports import render
from gmkit.core.ruleset import find_ruleset, registered
from gmkit.game import Game, GameError
from gmkit.game.verify import verify_game
from gmkit.publish.summary import turn_report
from gmkit.sweeps.playout import play

SAMPLES = Path(__file__).resolve().parents[2] / "data"
_AWKWARD = (":", ",", "=")


def _game(name: str, tmp_path: Path) -> Game:
    """A working copy of the ruleset's sample game (a fresh playout where none is shipped)."""
    sample = SAMPLES / f"sample-{name}"
    if sample.is_dir():
        return Game.open(shutil.copytree(sample, tmp_path / "game"))
    rs = find_ruleset(name)
    return play(Game.new(tmp_path / "game", name, rs.example_players(rs.default_board())), 3)


def _text(value: Any) -> str:
    """A value as ``gmkit correct`` reads it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return json.dumps(value)
    return str(value)


def _key(frame: pl.DataFrame, row: int) -> str | None:
    """The key text naming ``row`` of ``frame`` alone (its first column's value, else the
    fewest leading ``COLUMN=VALUE`` pairs that name it); None when no such text can."""
    cells = frame.row(row, named=True)
    usable = [c for c, t in frame.schema.items() if not isinstance(t, (pl.List, pl.Struct))
              and cells[c] is not None and not any(a in _text(cells[c]) for a in _AWKWARD)]
    for n in range(1, len(usable) + 1):
        named = usable[:n]
        if frame.filter(pl.all_horizontal(pl.col(c) == cells[c] for c in named)).height == 1:
            if named == [frame.columns[0]]:
                return _text(cells[named[0]])
            return ",".join(f"{c}={_text(cells[c])}" for c in named)
    return None


def _candidates(frame: pl.DataFrame, column: str, row: int) -> list[Any]:
    """The values tried for one cell, in order: another row's, a step from its own, the other
    truth value or an empty list, then null."""
    dtype = frame.schema[column]
    here = frame[column][row]
    here = here.to_list() if isinstance(here, pl.Series) else here
    out: list[Any] = []
    for value in frame[column].to_list():
        if value is not None and value != here:
            out.append(value)
            break
    if here is not None and dtype.is_integer():
        out.append(here + 1)
    elif here is not None and dtype.is_float() and math.isfinite(here):
        out.append(here + 1.0)
    elif here is not None and dtype == pl.Boolean:
        out.append(not here)
    elif isinstance(dtype, pl.List):
        out.append([])
    return [*out, None]


def _correct_everything(game: Game) -> list[str]:
    """One correction of every column the check takes, each checked against the state with the
    ones before it; the settings recorded."""
    taken = []
    for table in game.ruleset.schemas:
        frame = game.coming_state()[table]
        if frame.height == 0:
            continue
        key = _key(frame, 0)
        if key is None:
            continue
        for column in frame.columns:
            frame = game.coming_state()[table]
            if _key(frame, 0) != key:  # a key corrected before: the row is named anew
                key = _key(frame, 0)
                if key is None:
                    break
            for value in _candidates(frame, column, 0):
                setting = f"{key}: {column}={_text(value)}"
                try:
                    game.correct(table, setting, "every kind of correction")
                except GameError as e:
                    assert "\n" not in str(e) or "would leave a state the rules cannot play" \
                        in str(e), str(e)
                    continue
                taken.append(f"{table} {setting}")
                break
    return taken


@pytest.mark.parametrize("name", registered())
def test_every_later_turn_plays_after_every_accepted_kind_of_correction(
        tmp_path: Path, name: str) -> None:
    """The check of a state is enough: whatever correction it takes, of any column of any table,
    the turns after it resolve (two of them, by the bots, through the real workflow), and the
    game verifies with its corrections replayed."""
    game = _game(name, tmp_path)
    start = game.latest_turn
    taken = _correct_everything(game)
    columns = sum(len(s) for t, s in game.ruleset.schemas.items() if game.state()[t].height)
    assert len(taken) >= columns // 3, (len(taken), columns, taken)
    recorded = game.corrections_for(game.next_turn)
    assert len(recorded) == len(taken)
    play(game, 2)
    assert game.latest_turn == start + 2 or game.turn().outcome
    assert len(game.store.manifest(start + 1)["changes"]) == len(taken)
    found = verify_game(Game.open(game.root))
    assert found.problems == [], found.problems[:5]


#: Cells of any kind: the words and numbers a correction may name, hostile and ordinary.
ODD = [None, 0, -1, 1, 3, 2**63 - 1, -(2**63), 10**15, math.nan, math.inf, -1e300, True, False,
       "", "unicorn", "Red", "Amber", "Cien", "Tenochtitlan", "Meadow", "neutral", "active",
       "duchy", [], ["unicorn"], ["Flag"]]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A game of each ruleset, some turns in, copied afresh for each example."""
    base = tmp_path_factory.mktemp("played")
    return {name: _game(name, base / name).root for name in registered()}


@pytest.mark.parametrize("name", registered())
@settings(max_examples=12, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_correction_is_refused_in_words_or_the_next_turn_plays(
        played: dict[str, Path], tmp_path_factory: pytest.TempPathFactory, name: str,
        data: st.DataObject) -> None:
    """Generated corrections of any cell to another row's value or a hostile one (NaN,
    2^63-1, an unknown word, null, a list): each is refused with a GameError in words, or
    taken, and then the next turn resolves."""
    game = Game.open(shutil.copytree(played[name], tmp_path_factory.mktemp(name) / "g"))
    state = game.coming_state()
    tables = [t for t in game.ruleset.schemas if state[t].height]
    table = data.draw(st.sampled_from(tables))
    frame = state[table]
    row = data.draw(st.integers(0, frame.height - 1))
    key = _key(frame, row)
    if key is None:
        return
    column = data.draw(st.sampled_from(frame.columns))
    value = data.draw(st.one_of(st.sampled_from(ODD),
                                st.sampled_from(frame[column].to_list())))
    try:
        game.correct(table, f"{key}: {column}={_text(value)}", "generated")
    except GameError:
        return
    play(game, 1)


#: (ruleset, table, a correction of a row's key the public sees)
KEY_CORRECTIONS = [
    ("example", "routes", "a=Ford,b=East Hill: b=West Hill"),
    ("cien", "coasts", "province=Aigremont,sea=Great Sea 3: sea=Great Sea 4"),
    ("cien", "coasts", "Aigremont: province=Ardennoy"),
    ("aztlan", "game", "1453: year=1454"),
    ("pyramid", "troops", "player=Gold,space=Crocodile Pool: space=Emmer Levee"),
    ("jungle", "titles", "character=Ome's heir,title=tenant_of: title=experienced"),
    ("aeternus", "items", "player=Amber,item=Wood: item=Resin"),
]


@pytest.mark.parametrize("name, table, setting", KEY_CORRECTIONS,
                         ids=[f"{k[0]}: {k[2]}" for k in KEY_CORRECTIONS])
def test_a_correction_of_a_public_key_is_public(tmp_path: Path, name: str, table: str,
                                                setting: str) -> None:
    """A changed border or coast, a moved stack, a renamed key shows on the public map: the
    correction is public (its row is found by its new key) and the public report shows it, as
    it shows other corrections of public cells."""
    game = _game(name, tmp_path)
    change = game.correct(table, setting, "a key set right")
    assert change["public"] is True
    play(game, 1)
    public = render(turn_report(game, viewer="public"), view="public", fmt="html")
    assert "a key set right" in public
