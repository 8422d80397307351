"""Tables at a glance, outside the notebook: every table a report, the published site or a command
shows a reader says "yes"/"no" for a boolean and a dash for a missing value (as the notebook
does), never False, None or null; and a table across the turns (``gmkit history``, ``gmkit sql``)
lists only the game's players, never Cien's free colours kept for a newcomer."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from gmkit.cli import main
from gmkit.core.cells import DASH, as_text, cell_text
from gmkit.core.views import Viewer
from gmkit.game import Game

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted(p.name.removeprefix("sample-") for p in (ROOT / "data").glob("sample-*"))
#: A cell a reader should never read.
RAW = re.compile(r"<td>\s*(?:False|True|None|null|nan)\s*</td>")


def test_a_cell_reads_yes_or_no_a_dash_and_two_decimals():
    assert [cell_text(v) for v in (True, False, None, 3.0, 0.1 + 0.2, 7, "Red", [], ["a", 1])] \
        == ["yes", "no", DASH, "3", "0.30", "7", "Red", DASH, "a, 1"]
    printed = as_text(pl.DataFrame({"rebel": [False, None], "treasury": [None, 4]}))
    assert printed.to_dicts() == [{"rebel": "no", "treasury": DASH},
                                  {"rebel": DASH, "treasury": "4"}]


def test_the_sites_table_says_yes_or_no_and_a_dash():
    from gmkit.publish.site import _table

    html = _table([{"player": "Red", "rebel": False, "mission": None, "luck": 0.1 + 0.2},
                   {"player": "Gold", "rebel": True, "mission": "punishment", "luck": 2.0}])
    cells = re.findall(r"<td>([^<]*)</td>", html)
    assert cells == ["Red", "no", DASH, "0.30", "Gold", "yes", "punishment", "2"]


@pytest.mark.parametrize("name", SAMPLES)
def test_the_published_index_shows_every_sample_standings_at_a_glance(name):
    """The site's index: the standings after the last turn (Cien's 'rebel' column reads 'no'
    where it printed 'False')."""
    from gmkit.publish.site import _index

    game = Game.open(ROOT / "data" / f"sample-{name}")
    page = _index(game, game.store.turns(), Viewer.public())
    assert not RAW.search(page), RAW.search(page)
    if name == "cien":
        assert "<td>no</td>" in page


@pytest.mark.parametrize("name,rule", [("jungle", "flat_gain_each"),
                                       ("aeternus", "lake_corruption")])
def test_the_gm_reports_rules_table_says_yes_or_no(name, rule):
    """A rule that is on or off reads 'yes' or 'no' in the GM's table of rules in force."""
    from gmkit.core.reports import render_html
    from gmkit.publish.summary import turn_report

    game = Game.open(ROOT / "data" / f"sample-{name}")
    report = turn_report(game, game.latest_turn, viewer="gm")
    rows = {n: (v, d) for n, v, d, _ in report.rules}
    assert rows[rule][1] == "yes" and rows[rule][0] in ("yes", "no")
    page = render_html(report)
    assert f"<td>{rule}</td><td>{rows[rule][0]}</td>" in page
    assert not RAW.search(page), RAW.search(page)


def test_the_sweep_pages_tables_say_yes_or_no():
    from gmkit.sweeps.page import _table

    cells = re.findall(r"<td>([^<]*)</td>", str(_table([{"rule": True, "left": None,
                                                          "rate": 0.125}])))
    assert cells == ["yes", DASH, "0.125"]


def test_gmkit_status_prints_the_standings_at_a_glance():
    res = CliRunner().invoke(main, ["status", str(ROOT / "data" / "sample-cien")])
    assert res.exit_code == 0, res.output
    table = res.output[res.output.index("┌"):res.output.index("┘")]
    assert "┆ no " in table and DASH in table
    assert not re.search(r"\b(?:false|true|null)\b", table)


def test_gmkit_history_prints_yes_no_and_a_dash_but_exports_the_values(tmp_path):
    game = str(ROOT / "data" / "sample-cien")
    res = CliRunner().invoke(main, ["history", game, "players"])
    assert res.exit_code == 0, res.output
    assert "┆ no " in res.output and not re.search(r"\b(?:false|true|null)\b", res.output)
    out = tmp_path / "players.csv"
    assert CliRunner().invoke(main, ["history", game, "players", "--out", str(out)]).exit_code == 0
    assert "false" in out.read_text()


# -- only the game's players ---------------------------------------------------------------------

def _players(game: Game) -> set[str]:
    return {p.id for p in game.context().players}


@pytest.mark.parametrize("view", ["public", "gm"])
def test_cien_history_and_sql_list_only_the_games_players_not_its_free_colours(view):
    """Cien's free colours (colours no player took, kept for a newcomer, rule 'New players')
    are no players: the players table across the turns lists the six who play, in every
    view."""
    from gmkit.publish.sql import query

    game = Game.open(ROOT / "data" / "sample-cien")
    players = _players(game)
    history = game.history("players", view=view)
    assert set(history["id"].to_list()) == players and "free" not in history["status"].to_list()
    assert history.height == len(players) * len(game.store.turns())
    sql = query(game, "SELECT DISTINCT id FROM players", gm=view == "gm")
    assert set(sql["id"].to_list()) == players


def test_cien_a_rebuilt_state_keeps_the_free_colours_a_newcomer_may_take():
    """The rows are left out of the tables a reader is shown, not out of the game: a state
    rebuilt from the history still has its free colours."""
    from gmkit.publish.history import states

    game = Game.open(ROOT / "data" / "sample-cien")
    last = list(states(game))[-1]
    assert "free" in last["players"]["status"].to_list()


@pytest.mark.parametrize("name", SAMPLES)
def test_every_samples_players_table_across_the_turns_lists_only_its_players(name):
    from gmkit.publish.sql import query

    game = Game.open(ROOT / "data" / f"sample-{name}")
    if "players" not in game.ruleset.schemas or "id" not in game.ruleset.schemas["players"]:
        pytest.skip("no players table with an id")
    players = _players(game)
    assert set(game.history("players", view="public")["id"].to_list()) <= players
    assert set(query(game, "SELECT DISTINCT id FROM players")["id"].to_list()) <= players
