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

from bench.notebook_clicks import _DEEP, browser, missing_browser, toasts, watch_toasts

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


def _check_pages(clone: Path, gm_port: int, tmp_path: Path) -> None:
    """Every notebook on every sample, served by the GM's install alone (``clone/.venv`` as
    ``bootstrap.py gm`` made it) and read in headless Chromium: each page shows what it is for
    and raises no notification (marimo's red "An internal error occurred" is raised for any
    cell that fails)."""
    if missing_browser() is not None:
        pytest.skip(str(missing_browser()))
    python = clone / ".venv" / "bin" / "python"
    has_pytest = subprocess.run([str(python), "-c", "import pytest"], capture_output=True)
    assert has_pytest.returncode != 0, "the GM's install holds pytest: not the GM's install"
    driver = browser()
    watch_toasts(driver)
    try:
        _wait_usable(driver, f"http://127.0.0.1:{gm_port}/", "turn", 300)
        assert toasts(driver) == [], "cien, turn notebook"
        for sample in sorted(p.name.removeprefix("sample-") for p in (clone / "data").glob(
                "sample-*")):
            game = tmp_path / "games" / sample
            shutil.copytree(clone / "data" / f"sample-{sample}", game)
            pages = [("history", ["--game", str(game)])]
            if sample != "cien":  # cien's is the page bootstrap.py gm opened
                pages.insert(0, ("turn", ["--sample", sample, "--work", str(tmp_path / "work")]))
            for notebook, args in pages:
                port = _free_port()
                server = subprocess.Popen(
                    [str(python), "-m", "marimo", "run", f"notebooks/{notebook}.py",
                     "--headless", "--port", str(port), "--no-token", "--", *args],
                    cwd=clone, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                    start_new_session=True)
                try:
                    _wait_usable(driver, f"http://127.0.0.1:{port}/", notebook, 300)
                    assert toasts(driver) == [], f"{sample}, {notebook} notebook"
                finally:
                    os.killpg(server.pid, signal.SIGTERM)
                    log = server.communicate(timeout=60)[0]
                assert "Traceback" not in log, f"{sample}, {notebook} notebook:\n{log[-3000:]}"
    finally:
        driver.quit()


#: what a page shows once it is usable: the turn notebook's standings and map (an SVG wider
#: than an icon), the history notebook's charts
_USABLE = _DEEP + """
const text = window.__text();
const wide = window.__deep('svg').filter(s => s.getBoundingClientRect().width > 200).length;
return {turn: text.includes('Standings') && wide > 0,
        history: window.__deep('.vega-embed svg.marks, .vega-embed canvas').length >= 3,
        problem: text.includes('Cannot open') || text.includes('No game opened')};
"""


def _wait_usable(driver, url: str, notebook: str, timeout: float) -> float:
    """Load ``url`` and wait, with a generous limit, until the page is usable; returns the
    seconds it took."""
    t0 = time.monotonic()
    while True:  # the server may still be starting
        try:
            urllib.request.urlopen(url, timeout=5).close()
            break
        except OSError:
            assert time.monotonic() - t0 < timeout, f"{url}: the server never answered"
            time.sleep(0.3)
    driver.get(url)
    while True:
        state = driver.execute_script(_USABLE)
        assert not state["problem"], f"{url}: {state}"
        if state[notebook]:
            return time.monotonic() - t0
        assert time.monotonic() - t0 < timeout, f"{url}: the {notebook} notebook never showed"
        time.sleep(0.3)


@pytest.mark.skipif(os.environ.get("GMKIT_NEWCOMER") == "inner",
                    reason="already inside a newcomer run")
@pytest.mark.skipif(not (ROOT / ".git").exists() or shutil.which("git") is None,
                    reason="needs a git checkout to clone")
def test_newcomer_runs_both_readme_commands_on_a_fresh_clone(tmp_path):
    """Clone what is committed, then run the README's commands there exactly as written: the
    main job sets everything up and opens the GM's turn notebook on the sample game (served on
    localhost; the browser, where Chromium is installed, reads it and every other notebook on
    every sample with the GM's install alone: usable, no error); Jupyter opens, as root too;
    the command-line demo resolves a turn of the sample; the test command sets up and runs
    tests (here one file, so the suite does not run itself)."""
    clone = tmp_path / "gmkit"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    port = _free_port()
    env.update(GMKIT_NEWCOMER="inner", GMKIT_HEADLESS="1", GMKIT_PORT=str(port))
    proc, page = _serve_until_up(["python3", "bootstrap.py", "gm"], clone, env,
                                 f"http://127.0.0.1:{port}/", timeout=1500)
    try:
        assert "marimo" in page.lower()
        _check_pages(clone, port, tmp_path)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        out = proc.communicate(timeout=60)[0]
    assert "Traceback" not in out, out[-3000:]
    assert "uv" in out and "marimo==" in out, "the install lists what it installs"
    jport = _free_port()
    jupyter, _ = _serve_until_up(["python3", "bootstrap.py", "jupyter", "jungle"], clone,
                                 {**env, "GMKIT_PORT": str(jport)},
                                 f"http://127.0.0.1:{jport}/api", timeout=900)
    os.killpg(jupyter.pid, signal.SIGTERM)
    jupyter.communicate(timeout=60)
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
