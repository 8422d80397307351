"""Aeternus in the notebooks: the turn notebook opens the bundled sample cycle
(``--sample aeternus``) with the explored world drawn on the hex board, and the history notebook
follows each player's fish over the phases; the sample itself verifies."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from gmkit.publish import history
from gmkit.desk import Desk, sample_working_copy
from gmkit.game import Game

from tests.sample_notebooks import export_turn_notebook, run_history_notebook, sample_tree

ROOT = Path(__file__).resolve().parent.parent.parent
SAMPLE = ROOT / "data" / "sample-aeternus"


def _tree() -> dict[str, str]:
    return sample_tree(SAMPLE)


def test_the_sample_cycle_verifies_and_holds_proposals_a_ruling_and_a_merge(tmp_path: Path) -> None:
    """A sample cycle of six players over several phases, with proposals taking effect, the
    Judge's rulings and factions merging (2.1.1, 3.1, 3.2), every turn replayed by verify."""
    game = Game.open(sample_working_copy(ROOT, sample="aeternus", into=tmp_path / "ae"))
    assert len(game.player_ids()) >= 6 and game.latest_turn >= 6
    assert game.verify() == []
    events = pl.concat([game.turn(t).events for t in game.store.turns()[1:]])
    texts = events["text"].to_list()
    assert any("takes effect" in t for t in texts), "a proposal accepted"
    assert any(" merge as " in t and "requests" not in t for t in texts), "a merge"
    assert any("rules on request" in t for t in texts), "a ruling"
    assert game.state()["clock"]["phase"][0] >= 6, "several phases"


def test_turn_notebook_exports_the_aeternus_sample(tmp_path: Path) -> None:
    """The turn notebook on the Aeternus sample: the explored world on the hex board, the
    players' standings and the commitment of the coming batch's dice; the bundled sample is
    left untouched."""
    before = _tree()
    out = tmp_path / "turn.html"
    game = sample_working_copy(ROOT, sample="aeternus", into=tmp_path / "sample-aeternus")
    assert Desk.open(game).game.ruleset.name == "aeternus"
    page = export_turn_notebook(game, out, timeout=240)
    assert "svg xmlns" in page, "the map"
    assert "Amber" in page and "inventory" in page, "the standings"
    assert "Dice commitment for turn 9" in page
    assert _tree() == before, "the bundled sample was modified"


def test_history_notebook_follows_the_fish_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """7.3: the history notebook's metrics include each player's fish, phase by phase."""
    defs = run_history_notebook(SAMPLE, monkeypatch, "aeternus")
    series = defs["series"]
    assert "fish" in history.metrics(series)
    fish = series.filter((series["metric"] == "fish") & (series["player"] == "Dune"))
    assert fish["turn"].to_list() == list(range(0, 9))
    assert fish["value"][0] == 0 and fish["value"][-1] > 0
