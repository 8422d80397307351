"""Golden turn transcripts: a seeded playout of each ruleset, compared line for line with the
transcript kept in ``tests/golden/``. After a deliberate rule change, regenerate it with
``python -m gmkit.sweeps.transcript <ruleset> > tests/golden/<ruleset>.txt`` and read the diff."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from gmkit.rulesets import registered
from gmkit.sweeps.transcript import transcript

GOLDEN = Path(__file__).parent / "golden"
#: where a game kept outside gmkit keeps its transcript (``GMKIT_GOLDEN_DIR``), beside these
ELSEWHERE = [Path(d) for d in os.environ.get("GMKIT_GOLDEN_DIR", "").split(os.pathsep) if d]


@pytest.mark.parametrize("name", registered())
def test_playout_matches_golden_transcript(name):
    """Every roll and event of six seeded turns is as recorded (a registered ruleset without a
    transcript fails: write it with the command above)."""
    path = next((d / f"{name}.txt" for d in (GOLDEN, *ELSEWHERE)
                 if (d / f"{name}.txt").is_file()), GOLDEN / f"{name}.txt")
    assert path.is_file(), f"no golden transcript for the ruleset {name!r}: {path}"
    want = path.read_text("utf-8")
    got = transcript(name)
    diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                        "golden", "now", n=1))
    assert got == want, diff[:4000]


def test_every_golden_transcript_belongs_to_a_registered_ruleset():
    """A transcript left behind by a ruleset that is gone (or renamed) is no test at all."""
    elsewhere = {p.stem for d in ELSEWHERE for p in d.glob("*.txt")}
    assert sorted(p.stem for p in GOLDEN.glob("*.txt")) == [
        n for n in registered() if n not in elsewhere]
