"""A new game joins the test suite by declaring itself: a ruleset kept outside gmkit (here a
throw-away copy of Three Hills under another name, in a package of its own in a temporary
folder) is found through ``GMKIT_RULESETS``, and every test that runs over each registered
ruleset runs over it too, with no test file edited: the contract, the seeded playouts, the
viewers' canaries, the fuzzed posts, the board of its own, the playable states, the
corrections, SQL and the golden transcript (written first, as a new game's author does, with
``python -m gmkit.sweeps.transcript``).

Slow: one run of those test files, for the one game (a minute or two)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NAME = "throwaway"
PACKAGE = "throwaway_hills"

#: every test file whose tests run over each registered ruleset
CONFORMANCE = ["tests/test_conformance.py", "tests/test_viewer_conformance.py",
               "tests/test_fuzz_inputs.py", "tests/test_own_board.py", "tests/test_golden.py",
               "tests/test_sql.py", "tests/test_workflow_contract.py",
               "tests/workflow/test_playable_state.py", "tests/workflow/test_corrections_play.py",
               "tests/workflow/test_given_position.py"]


def _throwaway_package(where: Path) -> Path:
    """Three Hills copied into ``where/throwaway_hills``, registered as ``throwaway``."""
    source = ROOT / "gmkit" / "rulesets" / "example"
    target = where / PACKAGE
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
    for path in target.rglob("*.py"):
        text = path.read_text("utf-8").replace("gmkit.rulesets.example", PACKAGE)
        if path.name == "__init__.py":
            text = re.sub(r'name = "example"', f'name = "{NAME}"', text)
            text = re.sub(r"aliases = \([^)]*\)", f'aliases = ("{NAME}-hills",)', text)
            text = re.sub(r"class ThreeHills\(", "class ThrowawayHills(", text)
        path.write_text(text, "utf-8")
    return target


@pytest.mark.slow
def test_a_game_outside_gmkit_runs_the_whole_conformance_suite(tmp_path):
    """The throw-away game is registered by naming its module, its golden transcript is
    written, and the conformance tests run over it and pass: no test knows its name."""
    _throwaway_package(tmp_path)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]),
           "GMKIT_RULESETS": PACKAGE, "GMKIT_GOLDEN_DIR": str(tmp_path / "golden")}
    listed = subprocess.run([sys.executable, "-c", "from gmkit.rulesets import registered; "
                             "print(registered())"], env=env, cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    assert NAME in listed.stdout, listed.stdout + listed.stderr
    (tmp_path / "golden").mkdir()
    golden = subprocess.run([sys.executable, "-m", "gmkit.sweeps.transcript", NAME], env=env,
                            cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert golden.returncode == 0, golden.stderr[-3000:]
    (tmp_path / "golden" / f"{NAME}.txt").write_text(golden.stdout, "utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "-o", "addopts=", "-k", NAME, *CONFORMANCE], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=1500)
    summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else run.stderr
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    passed = int(re.search(r"(\d+) passed", summary).group(1))
    assert passed >= 20 and "failed" not in summary and "error" not in summary, summary
