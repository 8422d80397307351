"""The README's two commands, run as a newcomer would: on a fresh clone, with nothing set up."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_readme_gives_exactly_two_commands_and_ci_runs_the_test_one():
    """A newcomer needs one command to run the main job and one to run every test."""
    readme = (ROOT / "README.md").read_text("utf-8")
    block = re.search(r"## Two commands.*?```sh\n(.*?)```", readme, re.S)
    assert block, "the README has no 'Two commands' block"
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines()
                if line.strip()]
    assert commands == ["python3 bootstrap.py gm", "python3 bootstrap.py test"]
    assert "python3 bootstrap.py test" in (ROOT / ".ci" / "run").read_text()
    assert os.access(ROOT / ".ci" / "run", os.X_OK)


@pytest.mark.skipif(os.environ.get("GMKIT_NEWCOMER") == "inner",
                    reason="already inside a newcomer run")
@pytest.mark.skipif(not (ROOT / ".git").exists() or shutil.which("git") is None,
                    reason="needs a git checkout to clone")
def test_newcomer_runs_both_readme_commands_on_a_fresh_clone(tmp_path):
    """Clone what is committed, then run the README's commands there exactly as written: the main
    job resolves a turn of the sample game and writes its summaries; the test command sets up
    and runs tests (here one file, so the suite does not run itself)."""
    clone = tmp_path / "gmkit"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    env["GMKIT_NEWCOMER"] = "inner"
    gm = subprocess.run([sys.executable if not shutil.which("python3") else "python3",
                         "bootstrap.py", "gm"], cwd=clone, env=env, capture_output=True,
                        text=True, timeout=1500)
    assert gm.returncode == 0, gm.stdout[-3000:] + gm.stderr[-3000:]
    played = sorted((clone / "out").glob("sample-cien-*"))
    assert played, gm.stdout[-2000:]
    html = (played[0] / "summary-public.html").read_text("utf-8")
    assert "<svg" in html and "turn 7" in html.lower()
    assert "verified 8 turn(s)" in gm.stdout
    test = subprocess.run(["python3", "bootstrap.py", "test", "tests/core/test_dice.py"],
                          cwd=clone, env=env, capture_output=True, text=True, timeout=1500)
    assert test.returncode == 0, test.stdout[-3000:] + test.stderr[-3000:]
    assert re.search(r"\d+ passed", test.stdout)
