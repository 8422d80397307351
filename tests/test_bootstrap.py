"""The set-up commands: the GM's installs only what the notebooks need, the tests everything,
and nothing is installed again while the project file is unchanged and what is there covers
what is asked."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _bootstrap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[ModuleType, list]:
    spec = importlib.util.spec_from_file_location("bootstrap_under_test", ROOT / "bootstrap.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("")
    monkeypatch.setattr(mod, "VENV", venv)
    calls: list = []
    monkeypatch.setattr(mod, "_run", lambda *args, **kw: calls.append([str(a) for a in args]))
    return mod, calls


def _installs(calls: list) -> list[str]:
    return [c[-1] for c in calls if "install" in c and "-e" in c]


def test_the_gm_command_installs_gmkit_without_the_test_tools(tmp_path, monkeypatch):
    mod, calls = _bootstrap(tmp_path, monkeypatch)
    mod.setup("")
    assert _installs(calls) == ["."]
    mod.setup("")
    assert _installs(calls) == ["."]  # nothing again
    mod.setup("test")
    assert _installs(calls) == [".", ".[test]"]
    mod.setup("")  # the tests' install covers the GM's
    assert _installs(calls) == [".", ".[test]"]
    marker = json.loads((mod.VENV / ".gmkit-installed").read_text())
    stamp = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    assert marker == {"stamp": stamp, "extras": ["test"]}


def test_a_changed_project_file_or_an_old_marker_installs_again(tmp_path, monkeypatch):
    mod, calls = _bootstrap(tmp_path, monkeypatch)
    (mod.VENV / ".gmkit-installed").write_text("0123abcd")  # an older gmkit's marker
    mod.setup("jupyter")
    assert _installs(calls) == [".[jupyter]"]
    (mod.VENV / ".gmkit-installed").write_text(json.dumps({"stamp": "old", "extras": ["test"]}))
    mod.setup("")
    assert _installs(calls) == [".[jupyter]", "."]


def test_an_unknown_command_prints_the_usage(tmp_path, monkeypatch, capsys):
    mod, calls = _bootstrap(tmp_path, monkeypatch)
    assert mod.main(["play"]) == 2 and calls == []
    assert "bootstrap.py jupyter" in capsys.readouterr().out


def test_the_projects_extras_hold_what_each_command_installs():
    import tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    deps = " ".join(project["dependencies"])
    assert "marimo" in deps and "pytest" not in deps and "dask" not in deps
    assert "selenium" not in deps and "mypy" not in deps
    extras = project["optional-dependencies"]
    assert any(d.startswith("jupyter") for d in extras["jupyter"])
    assert any(d.startswith("pytest") for d in extras["test"])
    assert sys.version_info >= (3, 11)
