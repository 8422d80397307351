"""Pyramid Power Wars in the notebooks: the turn notebook opens the bundled sample (``--sample
pyramid``) with its board drawn (land by kind and holder, nobles, troops, pyramids), and the
history notebook follows each house's land, population, glory and pyramids over the rounds."""

from __future__ import annotations

from pathlib import Path

import pytest

from gmkit.publish import history
from gmkit.desk import Desk, sample_working_copy

from tests.sample_notebooks import export_turn_notebook, run_history_notebook, sample_tree

ROOT = Path(__file__).resolve().parent.parent.parent
SAMPLE = ROOT / "data" / "sample-pyramid"


def _tree() -> dict[str, str]:
    return sample_tree(SAMPLE)


def test_sample_working_copy_of_the_pyramid_sample(tmp_path: Path) -> None:
    """``sample='pyramid'`` copies ``data/sample-pyramid``: at least five houses, several
    rounds in, the next round's posts pending."""
    copy = sample_working_copy(ROOT, sample="pyramid", into=tmp_path / "pyr")
    desk = Desk.open(copy)
    game = desk.game
    assert game.ruleset.name == "pyramid"
    assert len(game.players_from_config(game.config)) >= 5
    assert game.latest_turn >= 3
    assert game.store.pending_posts(game.next_turn).height >= 1


def test_turn_notebook_exports_the_pyramid_sample_with_its_board(tmp_path: Path) -> None:
    """The turn notebook on the Pyramid Power Wars sample: the board with land by holder and
    nobles, troops and pyramids as marks, the standings ranked by pyramid power and land; the
    bundled sample is left untouched."""
    before = _tree()
    out = tmp_path / "turn.html"
    game = sample_working_copy(ROOT, sample="pyramid", into=tmp_path / "sample-pyramid")
    page = export_turn_notebook(game, out, timeout=240)
    assert "svg xmlns" in page and "Redsand" in page, "the board"
    for piece in ("noble", "troops"):
        assert f"data-piece=\\&quot;{piece}" in page or f'data-piece="{piece}' in page \
            or f"data-piece=\\\"{piece}" in page, piece
    assert "pyramid_power" in page, "the standings"
    assert _tree() == before, "the bundled sample was modified"


@pytest.mark.parametrize("metric", ["lands", "population", "glory", "pyramids"])
def test_history_notebook_follows_land_population_glory_and_pyramids(
        monkeypatch: pytest.MonkeyPatch, metric: str) -> None:
    """The history notebook's metrics include each house's land, population, glory and
    pyramids, round by round, in the GM's view (``--view gm``: a house's population is its
    own business, so the public view charts what stands on the map)."""
    defs = run_history_notebook(SAMPLE, monkeypatch, "pyramid", "--view", "gm")
    series = defs["series"]
    assert metric in history.metrics(series)
    red = series.filter((series["metric"] == metric) & (series["player"] == "Red"))
    assert red["turn"].to_list() == list(range(0, 7))
    if metric == "lands":
        assert red["value"][0] == 2  # a home and a stone land next to it
