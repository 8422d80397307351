"""Golden turn transcripts: a seeded playout of each ruleset, compared line for line with the
transcript kept in ``tests/golden/``. After a deliberate rule change, regenerate it with
``python -m gmkit.sweeps.transcript <ruleset> > tests/golden/<ruleset>.txt`` and read the diff."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from gmkit.sweeps.transcript import transcript

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("name", sorted(p.stem for p in GOLDEN.glob("*.txt")))
def test_playout_matches_golden_transcript(name):
    """Every roll and event of six seeded turns is as recorded."""
    want = (GOLDEN / f"{name}.txt").read_text("utf-8")
    got = transcript(name)
    diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                        "golden", "now", n=1))
    assert got == want, diff[:4000]
