"""Corrections between turns: the GM sets a cell of the state the coming turn starts from (an
erratum, a ruling), recorded for that turn, applied before it resolves, kept in its manifest so
``verify`` replays it, shown in its GM report and, where the public view shows the cell, in its
public report; nothing committed is rewritten.

Played on Three Hills, whose hills' gold is public and whose diggers' gold is secret.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gmkit.cli import main
from gmkit.core.reports import render
from gmkit.core.ruleset import find_ruleset
from gmkit.game import Game, GameError
from gmkit.sweeps.playout import play
from gmkit.publish.summary import turn_report
from gmkit.game.verify import verify_game


def _game(root: Path) -> Game:
    rs = find_ruleset("example")
    return play(Game.new(root, "example", rs.example_players(None)), 1)


def _hill(game: Game) -> str:
    return str(game.state()["hills"]["place"][0])


def test_a_correction_applies_to_the_coming_turn_and_verifies(tmp_path: Path) -> None:
    """The corrected cell is in the state the turn starts from (orders read against it), in
    the turn's manifest, and the turn replays to the same result."""
    game = _game(tmp_path / "g")
    before = game.latest_turn
    hill = _hill(game)
    files = sorted(p.read_bytes() for p in (tmp_path / "g" / "turns").rglob("*") if p.is_file())
    change = game.correct("hills", f"{hill}: gold_left=0", "the hill was empty: an erratum")
    assert change["old"] != 0 and change["value"] == 0 and change["public"] is True
    assert game.coming_state()["hills"].filter(place=hill)["gold_left"].item() == 0
    after = sorted(p.read_bytes() for p in (tmp_path / "g" / "turns").rglob("*") if p.is_file())
    assert files == after, "nothing committed is rewritten"
    play(game, 1)
    turn = before + 1
    assert game.start_of(turn)["hills"].filter(place=hill)["gold_left"].item() == 0
    assert game.state()["hills"].filter(place=hill)["gold_left"].item() == 0, \
        "an empty hill yields no gold"
    recorded = game.store.manifest(turn)["changes"]
    assert [c["kind"] for c in recorded] == ["correction"]
    assert game.corrections_for(turn + 1) == []
    assert verify_game(Game.open(game.root)).ok


def test_a_public_cell_is_shown_publicly_a_secret_one_to_the_gm_only(tmp_path: Path) -> None:
    """The hills' gold is public: its correction is in the public report. A digger's gold is
    secret (a GM-only column): its correction is in the GM's report only."""
    game = _game(tmp_path / "g")
    hill = _hill(game)
    game.correct("hills", f"{hill}: gold_left=4", "recounted the hill")
    secret = game.correct("diggers", "Amber: gold=7", "Amber's purse was miscounted")
    assert secret["public"] is False
    play(game, 1)
    gm = render(turn_report(game), view="gm", fmt="html")
    public = render(turn_report(game), view="public", fmt="html")
    public_bb = render(turn_report(game), view="public", fmt="bbcode")
    assert "recounted the hill" in gm and "recounted the hill" in public
    assert "Amber&#39;s purse was miscounted" in gm or "Amber's purse was miscounted" in gm
    assert "purse" not in public and "purse" not in public_bb
    assert verify_game(Game.open(game.root)).ok


@pytest.mark.parametrize("table, setting, words", [
    ("castles", "Amber: gold=1", "no table 'castles'"),
    ("diggers", "Zed: gold=1", "has no row id=Zed"),
    ("diggers", "Amber: silver=1", "has no column 'silver'"),
    ("diggers", "Amber: gold=lots", "'lots' is not a whole number"),
    ("diggers", "Amber gold 1", "write 'KEY: COLUMN=VALUE'"),
])
def test_a_correction_naming_what_is_not_there_is_refused(tmp_path: Path, table: str,
                                                          setting: str, words: str) -> None:
    """An unknown table, row or column, or a value not of the column's type, is refused with
    one clear line; nothing is recorded."""
    game = _game(tmp_path / "g")
    with pytest.raises(GameError, match=words):
        game.correct(table, setting, "why not")
    assert game.corrections_for(game.next_turn) == []


def test_a_correction_needs_a_reason(tmp_path: Path) -> None:
    game = _game(tmp_path / "g")
    with pytest.raises(GameError, match="say why"):
        game.correct("diggers", "Amber: gold=1", " ")


def test_rows_are_named_by_columns_where_the_first_is_not_enough(tmp_path: Path) -> None:
    game = _game(tmp_path / "g")
    change = game.correct("diggers", "id=Birch,name=Birch the digger: name=Birch the bold",
                          "a new name")
    assert change["key"] == {"id": "Birch", "name": "Birch the digger"}
    assert game.coming_state()["diggers"].filter(id="Birch")["name"].item() == "Birch the bold"


def test_a_correction_recorded_after_the_turn_was_read_stops_its_commit(tmp_path: Path) -> None:
    """The turn must resolve from the corrected state: a session read before the correction is
    not committed."""
    game = _game(tmp_path / "g")
    session = game.start()
    game.correct("hills", f"{_hill(game)}: gold_left=1", "late ruling")
    with pytest.raises(GameError, match="recorded after the turn was read"):
        game.commit(session)
    game.commit(game.start())
    assert verify_game(Game.open(game.root)).ok


def test_gmkit_correct(tmp_path: Path) -> None:
    game = _game(tmp_path / "g")
    hill = _hill(game)
    ok = CliRunner().invoke(main, ["correct", str(game.root), "--table", "hills", "--set",
                                   f"{hill}: gold_left=2", "--why", "a ruling"])
    assert ok.exit_code == 0, ok.output
    assert f"turn {game.next_turn} correction of hills place={hill}: gold_left" in ok.output
    bad = CliRunner().invoke(main, ["correct", str(game.root), "--table", "hills", "--set",
                                    f"{hill}: depth=2", "--why", "a ruling"])
    assert bad.exit_code == 2 and "has no column 'depth'" in bad.output
    changes = json.loads((game.root / "pending" / "changes.json").read_text())
    assert len(changes) == 1


def test_a_corrected_turn_resolved_again_keeps_its_correction(tmp_path: Path) -> None:
    """A re-resolution (a fixed order) starts from the same corrected state and records the
    correction again; the turn after starts uncorrected."""
    game = _game(tmp_path / "g")
    hill = _hill(game)
    game.correct("hills", f"{hill}: gold_left=0", "an erratum")
    play(game, 1)
    data = game.re_resolve(reason="a fixed order")
    assert data.state["hills"].filter(place=hill)["gold_left"].item() == 0
    assert [c["kind"] for c in game.store.manifest(data.turn)["changes"]] == ["correction"]
    assert game.corrections_for(game.next_turn) == []
    assert verify_game(Game.open(game.root)).ok


def test_a_correction_s_text_is_escaped_in_the_reports(tmp_path: Path) -> None:
    """A value or reason with markup is shown as text, never run."""
    game = _game(tmp_path / "g")
    game.correct("diggers", "Birch: name=<script>alert(1)</script>", "[url=x]<i>ruling</i>[/url]")
    play(game, 1)
    public = render(turn_report(game), view="public", fmt="html")
    bbcode = render(turn_report(game), view="public", fmt="bbcode")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in public and "<script>alert" not in public
    assert "[url=x]" not in bbcode


def test_status_lists_the_corrections_recorded_for_the_coming_turn(tmp_path: Path) -> None:
    """The public status counts them and shows only those of public cells; --gm shows all."""
    game = _game(tmp_path / "g")
    game.correct("hills", f"{_hill(game)}: gold_left=5", "recount")
    game.correct("diggers", "Amber: gold=3", "purse")
    public = CliRunner().invoke(main, ["status", str(game.root)]).output
    gm = CliRunner().invoke(main, ["status", str(game.root), "--gm"]).output
    assert "corrections of turn 2's start: 2 (--gm shows them all)" in public
    assert "recount" in public and "purse" not in public
    assert "recount" in gm and "purse" in gm


def test_a_turn_sealed_for_its_beacon_takes_no_correction(tmp_path: Path) -> None:
    """Dice mixed with a public beacon are bent by nobody: once the turn is sealed, its
    starting state is no longer corrected (it could be, knowing the beacon)."""
    from gmkit.game.fairdice import DiceSetting

    rs = find_ruleset("example")
    game = Game.new(tmp_path / "g", "example", rs.example_players(None),
                    dice=DiceSetting(True, "named"))
    game.set_deadline("2026-01-01T00:00:00+00:00")
    game.correct("hills", f"{_hill(game)}: gold_left=3", "before the seal")
    game.seal()
    with pytest.raises(GameError, match="sealed for its beacon"):
        game.correct("hills", f"{_hill(game)}: gold_left=2", "after the seal")
    assert len(game.corrections_for(game.next_turn)) == 1


def test_the_last_correction_can_be_withdrawn_before_the_turn(tmp_path: Path) -> None:
    """A mistyped correction is withdrawn before the turn resolves (``--undo``): the turn
    starts from the state without it."""
    game = _game(tmp_path / "g")
    hill = _hill(game)
    old = game.coming_state()["hills"].filter(place=hill)["gold_left"].item()
    game.correct("hills", f"{hill}: gold_left=4", "a ruling")
    game.correct("hills", f"{hill}: gold_left=40", "a typo")
    out = CliRunner().invoke(main, ["correct", str(game.root), "--undo"])
    assert out.exit_code == 0 and "withdrawn: correction of hills" in out.output
    assert game.coming_state()["hills"].filter(place=hill)["gold_left"].item() == 4
    game.undo_correction()
    assert game.coming_state()["hills"].filter(place=hill)["gold_left"].item() == old
    with pytest.raises(GameError, match="no correction is recorded"):
        game.undo_correction()
    play(game, 1)
    assert "changes" not in game.store.manifest(game.latest_turn)
