"""The README's two commands, run as a newcomer would: on a fresh clone, with nothing set up."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
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


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _serve_until_up(cmd: list[str], cwd: Path, env: dict[str, str], url: str,
                    timeout: float) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(url, timeout=5) as page:
                return proc, page.read().decode("utf-8", "replace")
        except OSError:
            time.sleep(2)
    os.killpg(proc.pid, signal.SIGTERM)
    out = proc.communicate(timeout=30)[0]
    raise AssertionError(f"the notebook never answered at {url}:\n{out[-3000:]}")


@pytest.mark.skipif(os.environ.get("GMKIT_NEWCOMER") == "inner",
                    reason="already inside a newcomer run")
@pytest.mark.skipif(not (ROOT / ".git").exists() or shutil.which("git") is None,
                    reason="needs a git checkout to clone")
def test_newcomer_runs_both_readme_commands_on_a_fresh_clone(tmp_path):
    """Clone what is committed, then run the README's commands there exactly as written: the
    main job sets everything up and opens the GM's turn notebook on the sample game (served on
    localhost; this test asks for no browser and stops it once it answers); the command-line
    demo resolves a turn of the sample; the test command sets up and runs tests (here one file,
    so the suite does not run itself)."""
    clone = tmp_path / "gmkit"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    port = _free_port()
    env.update(GMKIT_NEWCOMER="inner", GMKIT_HEADLESS="1", GMKIT_PORT=str(port))
    proc, page = _serve_until_up(["python3", "bootstrap.py", "gm"], clone, env,
                                 f"http://127.0.0.1:{port}/", timeout=1500)
    try:
        assert "marimo" in page.lower()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.communicate(timeout=60)
    demo = subprocess.run(["python3", "bootstrap.py", "demo"], cwd=clone, env=env,
                          capture_output=True, text=True, timeout=900)
    assert demo.returncode == 0, demo.stdout[-3000:] + demo.stderr[-3000:]
    played = sorted((clone / "out").glob("sample-cien-*"))
    assert played, demo.stdout[-2000:]
    html = (played[0] / "summary-public.html").read_text("utf-8")
    assert "<svg" in html and "turn 7" in html.lower()
    assert "verified 8 turn(s)" in demo.stdout
    assert not (clone / "data" / "sample-cien" / "turns" / "0007.r0").exists()
    test = subprocess.run(["python3", "bootstrap.py", "test", "tests/core/test_dice.py"],
                          cwd=clone, env=env, capture_output=True, text=True, timeout=1500)
    assert test.returncode == 0, test.stdout[-3000:] + test.stderr[-3000:]
    assert re.search(r"\d+ passed", test.stdout)
