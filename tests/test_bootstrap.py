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


def test_the_test_install_covers_jupyter_and_sweeps(tmp_path, monkeypatch):
    """The test tools hold Jupyter and Dask: ``jupyter`` after ``test`` installs nothing."""
    mod, calls = _bootstrap(tmp_path, monkeypatch)
    mod.setup("test")
    mod.setup("jupyter")
    mod.setup("sweep")
    assert _installs(calls) == [".[test]"]
    import tomllib
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    for wider, narrower in mod.COVERS.items():
        for extra in narrower:
            assert set(extras[extra]) <= set(extras[wider]), (wider, extra)


def test_the_install_falls_back_to_pip_when_uv_cannot_install(tmp_path, monkeypatch, capsys):
    """uv installs where it can; where it fails (no uv for this platform, say), pip installs
    the same target and the GM is told."""
    import subprocess

    mod, calls = _bootstrap(tmp_path, monkeypatch)

    def run(*args, **kw):
        calls.append([str(a) for a in args])
        if "uv" in [str(a) for a in args]:
            raise subprocess.CalledProcessError(1, args)

    monkeypatch.setattr(mod, "_run", run)
    mod.setup("")
    assert calls[-1][-2:] == ["-e", "."] and "uv" not in calls[-1]
    assert "installing with pip instead" in capsys.readouterr().out


def test_jupyter_opens_as_root_too(tmp_path, monkeypatch):
    """As root (a container) Jupyter refuses to start unless given ``--allow-root``: the
    ``jupyter`` command passes it then, and only then."""
    import subprocess

    mod, _ = _bootstrap(tmp_path, monkeypatch)
    ran: list[list[str]] = []

    class Done:
        returncode = 0

    monkeypatch.setattr(subprocess, "run", lambda cmd, **kw: ran.append(cmd) or Done())
    game = tmp_path / "mygame"
    monkeypatch.setattr(mod, "ROOT", tmp_path / "checkout")
    (mod.ROOT / "notebooks").mkdir(parents=True)
    (mod.ROOT / "notebooks" / "turn.ipynb").write_text("{}")
    for euid in (0, 1000):
        monkeypatch.setattr(mod.os, "geteuid", lambda euid=euid: euid)
        assert mod.jupyter(mod._python(), [str(game)]) == 0
    as_root, as_user = ran
    assert "--allow-root" in as_root and "--allow-root" not in as_user
    assert "notebook" in as_root and str(mod.ROOT / "out" / "notebooks" / "turn.ipynb") in as_root


def test_jupyter_saves_into_the_gms_copy_never_the_tracked_notebook(tmp_path, monkeypatch):
    """Jupyter rewrites the notebook it opens (its outputs, its kernel's metadata): the
    ``jupyter`` command opens the GM's copy in ``out/notebooks/``, made once and then kept
    (what the GM ran and saved stays), and never the notebook tracked in ``notebooks/``."""
    import subprocess

    mod, _ = _bootstrap(tmp_path, monkeypatch)
    monkeypatch.setattr(mod, "ROOT", tmp_path / "checkout")
    tracked = mod.ROOT / "notebooks" / "turn.ipynb"
    tracked.parent.mkdir(parents=True)
    tracked.write_text('{"tracked": true}')
    opened: list[str] = []

    class Done:
        returncode = 0

    def jupyter_saves(cmd, **kw):
        notebook = Path(next(c for c in cmd if str(c).endswith(".ipynb")))
        opened.append(str(notebook))
        notebook.write_text('{"saved by jupyter": true}')
        return Done()

    monkeypatch.setattr(subprocess, "run", jupyter_saves)
    mod.jupyter(mod._python(), [str(tmp_path / "mygame")])
    mod.jupyter(mod._python(), [str(tmp_path / "mygame")])
    copy = mod.ROOT / "out" / "notebooks" / "turn.ipynb"
    assert opened == [str(copy), str(copy)]
    assert tracked.read_text() == '{"tracked": true}'
    assert copy.read_text() == '{"saved by jupyter": true}'
