"""AZTLAN in the notebooks: the turn notebook opens the bundled AZTLAN sample (``--sample aztlan``)
with its armies drawn as stacks, and the history notebook follows each empire's cities (1.4) over
the years."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gmkit.publish import history
from gmkit.desk import Desk, DeskError, sample_working_copy

from tests.sample_notebooks import export_turn_notebook, run_history_notebook, sample_tree

ROOT = Path(__file__).resolve().parent.parent.parent
SAMPLE = ROOT / "data" / "sample-aztlan"


def _tree() -> dict[str, str]:
    return sample_tree(SAMPLE)


def test_sample_working_copy_of_the_aztlan_sample(tmp_path: Path) -> None:
    """``sample='aztlan'`` copies ``data/sample-aztlan``; an unknown sample is named."""
    copy = sample_working_copy(ROOT, sample="aztlan", into=tmp_path / "az")
    desk = Desk.open(copy)
    assert desk.game.ruleset.name == "aztlan"
    with pytest.raises(DeskError, match="no bundled sample 'atlantis'"):
        sample_working_copy(ROOT, sample="atlantis", into=tmp_path / "x")


def test_turn_notebook_exports_the_aztlan_sample_with_stacks(tmp_path: Path) -> None:
    """The turn notebook on the AZTLAN sample: the map with armies as stacks coloured by empire
    (2.2, 4.1), the standings with each empire's cities, and the commitment of the coming turn's
    dice (the Chichimec die, 7.0); the bundled sample is left untouched."""
    before = _tree()
    out = tmp_path / "turn.html"
    game = sample_working_copy(ROOT, sample="aztlan", into=tmp_path / "sample-aztlan")
    page = export_turn_notebook(game, out, timeout=240)
    assert "svg xmlns" in page and "Tenochtitlan" in page, "the map"
    stacks = re.findall(r"(Aztecs|Tlaxcalans|Chalcans|Chichimecs): \d arm(?:y|ies) in ", page)
    assert {"Aztecs", "Tlaxcalans", "Chichimecs"} <= set(stacks), "the stacks"
    assert "centres" in page, "the standings"
    assert "Dice commitment for turn 13" in page
    assert "Orders of turn 13" in page, "the posted orders drawn as arrows before resolving"
    assert _tree() == before, "the bundled sample was modified"


def test_history_notebook_follows_centres_per_empire(monkeypatch: pytest.MonkeyPatch) -> None:
    """1.4: the history notebook's metrics include each empire's cities, turn by turn."""
    defs = run_history_notebook(SAMPLE, monkeypatch, "aztlan")
    series = defs["series"]
    assert "centres" in history.metrics(series)
    centres = series.filter((series["metric"] == "centres") & (series["player"] == "Aztecs"))
    assert centres["turn"].to_list() == list(range(0, 13))
    assert centres["value"][0] == 3  # Tenochtitlan, Texcoco, Tacuba (2.5)
