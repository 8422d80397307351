"""What every ruleset's sample-notebook tests share: the bundled sample's files (to prove a test
leaves them untouched), the turn notebook exported as HTML on a working copy, and the history
notebook run on a game folder."""

from __future__ import annotations

import hashlib
import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
TURN = ROOT / "notebooks" / "turn.py"
HISTORY = ROOT / "notebooks" / "history.py"


def sample_tree(sample: Path) -> dict[str, str]:
    """Every file of a bundled sample and its sha256 (its lock file aside)."""
    return {str(p.relative_to(sample)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(sample.rglob("*")) if p.is_file() and p.name != ".lock"}


def export_turn_notebook(game: Path, out: Path, timeout: int = 300) -> str:
    """The turn notebook exported as HTML on ``game`` (as ``marimo export html`` writes it);
    returns the page."""
    res = subprocess.run([str(Path(sys.executable).with_name("marimo")), "export", "html",
                          str(TURN), "-o", str(out), "--", "--game", str(game)],
                         cwd=out.parent, capture_output=True, text=True, timeout=timeout)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return out.read_text("utf-8")


def run_history_notebook(game: Path, monkeypatch: pytest.MonkeyPatch, name: str,
                         *more: str) -> dict[str, Any]:
    """The history notebook run as a script on ``game`` (``more``: further arguments, such as
    ``--view gm``); returns its cells' definitions."""
    monkeypatch.setattr(sys, "argv", [str(HISTORY), "--game", str(game), *more])
    spec = importlib.util.spec_from_file_location(f"history_notebook_{name}", HISTORY)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    _, defs = module.app.run()
    return dict(defs)
