"""The GM's turn notebooks: the Jupyter one re-run by nbval against its saved outputs, the marimo
one run headless as a script and exported to HTML, both on copies of the sample game."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gmkit.desk import Desk

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample-cien"
MARIMO_NOTEBOOK = ROOT / "notebooks" / "turn.py"
JUPYTER_NOTEBOOK = ROOT / "notebooks" / "turn.ipynb"

#: Output that changes from run to run, replaced before nbval compares.
SANITIZE = r"""
[widget model ids]
regex: (?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])
replace: WIDGET-ID

[altair and vega ids]
regex: (altair-viz|vega-embed|vega-lite-chart)-[0-9a-zA-Z-]+
replace: CHART-ID

[memory addresses]
regex: 0x[0-9a-fA-F]+
replace: 0xADDRESS

[timestamps]
regex: \d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?
replace: TIMESTAMP

[temporary paths]
regex: (/private)?(/var/folders|/tmp|/var/tmp)/[^\s'"<>)]*
replace: TEMP-PATH
"""


def sample_tree() -> dict[str, str]:
    return {str(p.relative_to(SAMPLE)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(SAMPLE.rglob("*")) if p.is_file() and p.name != ".lock"}


@pytest.fixture
def game(tmp_path: Path):
    before = sample_tree()
    yield Desk.working_copy(SAMPLE, tmp_path / "sample-cien")
    assert sample_tree() == before, "the bundled sample was modified"


def run(*args: object, env: dict[str, str] | None = None, timeout: int = 240,
        cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], cwd=cwd, env={**os.environ, **(env or {})},
                          capture_output=True, text=True, timeout=timeout)


def marimo() -> str:
    return str(Path(sys.executable).with_name("marimo"))


# -- Jupyter ---------------------------------------------------------------------------------------

def test_jupyter_notebook_matches_its_saved_outputs(game, tmp_path):
    """nbval runs every cell and compares it with the outputs saved in the notebook; the demo
    cells use a fresh copy of the sample and a fixed seed, so they come out the same."""
    sanitize = tmp_path / "sanitize.cfg"
    sanitize.write_text(SANITIZE, "utf-8")
    res = run(sys.executable, "-m", "pytest", "--nbval", JUPYTER_NOTEBOOK,
              "--nbval-sanitize-with", sanitize, "--nbval-current-env", "-q",
              "-p", "no:cacheprovider", "-o", "addopts=",
              env={"GMKIT_GAME": str(game), "GMKIT_DEMO": str(tmp_path / "demo-sample-cien")})
    assert res.returncode == 0, res.stdout[-6000:] + res.stderr[-3000:]
    assert " passed" in res.stdout and "failed" not in res.stdout
    assert (tmp_path / "demo-sample-cien" / "reports" / "turn-0007-public.html").exists()


def test_jupyter_notebook_is_saved_with_outputs_and_no_machine_paths():
    text = JUPYTER_NOTEBOOK.read_text("utf-8")
    nb = json.loads(text)
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert "GAME" in "".join(code[0]["source"]) and "GMKIT_GAME" in "".join(code[0]["source"])
    assert all(c["outputs"] for c in code[2:]), "every demo cell is saved with its output"
    assert not any(c["outputs"] and c["outputs"][0].get("output_type") == "error" for c in code)
    for leak in (str(ROOT), str(Path.home()), "/tmp/"):
        assert leak not in text, f"the saved notebook names a path of this machine: {leak}"


# -- marimo ----------------------------------------------------------------------------------------

def test_marimo_notebook_runs_headless_as_a_script(game):
    """``python notebooks/turn.py --game PATH`` runs every cell and exits 0 (its time against
    importing marimo, polars and altair is measured in bench/run.py, not here)."""
    res = run(sys.executable, MARIMO_NOTEBOOK, "--game", game)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert "Traceback" not in res.stderr
    assert (game / "secret" / "0007.seed").exists(), "the commitment was shown"


def test_marimo_notebook_exports_to_html_with_the_map_and_standings(game, tmp_path):
    out = tmp_path / "turn.html"
    res = run(marimo(), "export", "html", MARIMO_NOTEBOOK, "-o", out, "--", "--game", game,
              cwd=tmp_path)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    page = out.read_text("utf-8")
    assert "svg xmlns" in page and "Solsauvre" in page, "the map"
    assert "Standings (GM view)" in page and "Fredegonde" in page, "the standings"
    assert "Where the turn stands" in page and "turn 7: 5 post(s)" in page
    assert "Dice commitment for turn 7" in page
    assert "cannot open the game" not in page and "no such game folder" not in page


def test_marimo_notebook_on_a_wrong_game_folder_shows_a_clear_message(tmp_path):
    out = tmp_path / "turn.html"
    res = run(marimo(), "export", "html", MARIMO_NOTEBOOK, "-o", out, "--", "--game",
              tmp_path / "no-such-game", cwd=tmp_path)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    page = out.read_text("utf-8")
    assert "No game opened" in page and "no-such-game: no such game folder" in page
    assert "Traceback" not in page and "svg xmlns" not in page


def test_marimo_notebook_buttons_drive_the_desk(game, monkeypatch):
    """The cells' button handlers, called as a click would: each runs a desk action and says what
    happened; a mistake is shown as a danger message and changes nothing."""
    import importlib.util

    monkeypatch.setattr(sys, "argv", [str(MARIMO_NOTEBOOK), "--game", str(game)])
    spec = importlib.util.spec_from_file_location("turn_notebook", MARIMO_NOTEBOOK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    _, defs = module.app.run()
    desk, said = defs["desk"], defs["get_said"]

    def click(name: str) -> tuple[str, str]:
        defs[name]._on_click(None)  # what marimo calls when the button is clicked
        section = {"enter_button": "dice", "commit_button": "publish"}.get(name, "resolve")
        return said()[section]

    assert desk.root == game and desk.position == 0
    assert click("next_button") == ("success", "Step 1 of 11: New players")
    assert click("all_button")[0] == "success" and desk.position == 11
    assert click("back_button") == ("success", "back to Step 10 of 11: Income")
    kind, text = click("enter_button")  # no draw chosen
    assert kind == "danger" and "draw id" in text and desk.entered() == {}
    assert click("restart_button")[0] == "success" and desk.position == 0
    kind, text = click("commit_button")
    assert kind == "danger" and "run every step" in text and desk.game.latest_turn == 6
    click("all_button")
    assert click("commit_button")[1].startswith("turn 7 committed")
    kind, text = click("commit_button")  # a second click commits nothing more
    assert kind == "danger" and desk.game.latest_turn == 7


def test_the_turn_notebooks_intro_names_every_sample_it_opens():
    """The turn notebook says how to open each bundled sample (and a folder of one's own): every
    ``data/sample-NAME`` is named in its introduction."""
    intro = (ROOT / "notebooks" / "turn.py").read_text("utf-8").split("# The GM's turn", 1)[1]
    intro = intro.split('""")', 1)[0]
    samples = sorted(p.name.removeprefix("sample-") for p in (ROOT / "data").glob("sample-*"))
    assert len(samples) == 5
    assert all(f"`{name}`" in intro for name in samples), samples
    assert "--game PATH" in intro and "bootstrap.py jupyter" in intro
