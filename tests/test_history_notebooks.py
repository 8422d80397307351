"""The history notebooks, run as a reader would run them, on a copy of the sample game.

* ``notebooks/history.ipynb`` (Jupyter + ipywidgets) is re-executed by nbval and its outputs are
  compared with the saved ones; what changes from run to run (chart ids, widget model ids, memory
  addresses, timings) is sanitized, nothing is skipped wholesale.
* ``notebooks/history.py`` (marimo) runs headless as a script, runs in-process with its cells'
  values checked, and exports to HTML with the map in it; a wrong game folder gives a clear
  message, not a traceback.

The marimo runs go side by side (each takes a few seconds, mostly importing altair).
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample-cien"
NOTEBOOKS = ROOT / "notebooks"
IPYNB = NOTEBOOKS / "history.ipynb"
MARIMO = NOTEBOOKS / "history.py"
TIMEOUT = 300

SANITIZE = r"""
[altair chart ids]
regex: altair-viz-[0-9a-f]{8,}
replace: altair-viz-ID

[vega embed ids]
regex: (vega-embed|vg-tooltip-element|view)-[0-9a-f]{8,}
replace: \1-ID

[widget model ids]
regex: "model_id": ?"[0-9a-f]+"
replace: "model_id": "ID"

[memory addresses]
regex: 0x[0-9a-fA-F]{6,}
replace: 0xADDR

[timings]
regex: \b\d+(\.\d+)? ?(ns|µs|ms)\b
replace: TIME

[cell timings]
regex: (Wall time|CPU times|Elapsed|took):? [^\n]*
replace: \1: TIME
"""


def _plain(text: str) -> str:
    """Exported HTML with the escapes of its embedded outputs undone (JSON ``\\u003C``, HTML
    entities, nested)."""
    for _ in range(4):
        text = html.unescape(text)
        text = re.sub(r"\\+u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), text)
        text = text.replace('\\"', '"')
    return text


def _run_all(tmp: Path, runs: dict[str, list[str | Path]]) -> dict[str, tuple[int, str]]:
    """Run commands side by side from the repository; their exit codes and output, by name."""
    env = {**os.environ, "GMKIT_GAME": str(tmp / "sample-cien"),
           # marimo keeps session caches beside a notebook unless Python has a cache prefix
           "PYTHONPYCACHEPREFIX": str(tmp / "pycache")}
    env.pop("PYTEST_ADDOPTS", None)
    procs = {}
    try:
        for name, args in runs.items():
            with (tmp / f"{name}.log").open("w") as log:
                procs[name] = subprocess.Popen([str(a) for a in args], cwd=ROOT, env=env,
                                               stdout=log, stderr=subprocess.STDOUT)
        return {name: (proc.wait(timeout=TIMEOUT), (tmp / f"{name}.log").read_text())
                for name, proc in procs.items()}
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()


@pytest.fixture
def game(tmp_path: Path) -> Path:
    shutil.copytree(SAMPLE, tmp_path / "sample-cien")
    return tmp_path / "sample-cien"


def test_sanitize_patterns_are_read_by_nbval() -> None:
    from nbval.plugin import get_sanitize_patterns

    patterns = dict(get_sanitize_patterns(SANITIZE))
    assert len(patterns) == 6
    sample = ('<div id="altair-viz-8184c85960f443a7952f6ed249c6d5df"></div> '
              '"model_id": "0f1e2d3c4b5a69788796a5b4c3d2e1f0" <object at 0x7f3a2b1c9d80>')
    for regex, replace in patterns.items():
        sample = re.sub(regex, replace, sample)
    assert sample == '<div id="altair-viz-ID"></div> "model_id": "ID" <object at 0xADDR>'


def test_jupyter_notebook_reads_the_game_from_its_first_cell() -> None:
    nb = json.loads(IPYNB.read_text("utf-8"))
    first = "".join(nb["cells"][0]["source"])
    assert 'os.environ.get("GMKIT_GAME", "../data/sample-cien")' in first
    assert (NOTEBOOKS / "../data/sample-cien").resolve() == SAMPLE
    assert any(cell.get("outputs") for cell in nb["cells"]), "saved without outputs"


def test_jupyter_notebook_outputs_match_with_nbval(tmp_path: Path, game: Path) -> None:
    sanitize = tmp_path / "sanitize.cfg"
    sanitize.write_text(SANITIZE)
    code, log = _run_all(tmp_path, {"nbval": [
        sys.executable, "-m", "pytest", "--nbval", IPYNB, "--nbval-current-env",
        "--nbval-sanitize-with", sanitize, "-p", "no:cacheprovider", "-p", "no:randomly",
        "-q", "-o", "addopts="]})["nbval"]
    assert code == 0, log
    assert re.search(r"\b\d+ passed\b", log) and "failed" not in log, log


def test_marimo_notebook_headless_and_exported(tmp_path: Path, game: Path) -> None:
    """Headless as a script; exported to HTML with the map in it; exported for a wrong folder
    with a clear message instead of a traceback."""
    export = [sys.executable, "-m", "marimo", "export", "html"]
    wrong = tmp_path / "no-such-game"
    done = _run_all(tmp_path, {
        "script": [sys.executable, MARIMO, "--", "--game", game],
        "export": [*export, MARIMO, "-o", tmp_path / "history.html", "--", "--game", game],
        "export-wrong": [*export, "--no-include-code", MARIMO, "-o", tmp_path / "wrong.html",
                         "--", "--game", wrong],
    })
    for name, (code, log) in done.items():
        assert code == 0, f"{name}:\n{log}"
        assert "Traceback" not in log, f"{name}:\n{log}"

    page = _plain((tmp_path / "history.html").read_text("utf-8"))
    assert re.search(r'<svg xmlns="http://www.w3.org/2000/svg"[^>]*aria-label="[^"]*After turn 6',
                     page), "the map after turn 6 is not in the exported page"
    assert "How lucky each player has been" in page  # the dice chart
    assert "no such game folder" not in page and "not a game folder" not in page

    page = _plain((tmp_path / "wrong.html").read_text("utf-8"))
    assert "Cannot open this game folder." in page
    assert f"{wrong}: no such game folder" in page
    assert "Traceback" not in page and "GameError" not in page
    assert not (NOTEBOOKS / "__marimo__" / "session" / "history.py.json").exists()


def test_marimo_app_cells(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from gmkit.publish import history

    def run(*args: str) -> dict:
        monkeypatch.setattr(sys, "argv", [str(MARIMO), *args])
        spec = importlib.util.spec_from_file_location("history_notebook", MARIMO)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _, defs = module.app.run()
        return defs

    public = run("--game", str(game))
    assert public["game"].root == game and public["view"].value == "public"
    assert public["metric"].value == "provinces"
    assert "treasury" not in history.metrics(public["series"])
    assert public["map_turn"].value == 6
    assert public["events"]["public"].all()
    gm = run("--view", "gm")  # the sample game by default (only read)
    assert gm["game"].root.resolve() == SAMPLE
    assert gm["view"].value == "gm" and "treasury" in history.metrics(gm["series"])
    assert gm["events"].height > public["events"].height
