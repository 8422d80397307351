#!/usr/bin/env python3
"""Set gmkit up in a local virtual environment, then run the main job or the tests.

    python3 bootstrap.py gm      # set up, then open the GM's turn notebook on the sample game
    python3 bootstrap.py test    # set up, then run every test
    python3 bootstrap.py demo    # set up, then resolve a turn of the sample from the command line
    python3 bootstrap.py jupyter [SAMPLE|PATH]   # the turn notebook in Jupyter instead

Needs only Python 3.11+ and pip. The environment lives in ``.venv`` and is reinstalled only when
``pyproject.toml`` changes.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
SAMPLE = ROOT / "data" / "sample-cien"
#: the extras whose packages another extra's install already holds (pyproject.toml's lists)
COVERS = {"test": {"jupyter", "sweep"}}


def _python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _run(*args: object, **kw: object) -> None:
    print("+", " ".join(str(a) for a in args), flush=True)
    subprocess.run([str(a) for a in args], check=True, cwd=ROOT, **kw)  # type: ignore[arg-type]


def setup(extras: str = "") -> Path:
    """Create ``.venv`` and install gmkit (``extras``: ``test`` for the test tools, ``jupyter``
    for Jupyter); return the venv's python. Nothing is installed again while ``pyproject.toml``
    is unchanged and what was installed covers what is asked."""
    if sys.version_info < (3, 11):
        sys.exit(f"gmkit needs Python 3.11 or newer, not {sys.version.split()[0]}")
    stamp = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    marker = VENV / ".gmkit-installed"
    wanted = {e for e in extras.split(",") if e}
    try:
        was = json.loads(marker.read_text())
        have = set(was["extras"]) if was["stamp"] == stamp else None
    except (OSError, ValueError, KeyError, TypeError):
        have = None
    covered = (have or set()).union(*(COVERS.get(e, set()) for e in have or ()))
    if have is not None and wanted <= covered and _python().exists():
        return _python()
    if not _python().exists():
        print(f"creating {VENV.name}", flush=True)
        venv.EnvBuilder(with_pip=True, clear=False).create(VENV)
    target = f".[{','.join(sorted(wanted))}]" if wanted else "."
    print(f"installing gmkit{target[1:]} and what it needs into {VENV.name} "
          "(each package is listed as it is installed)", flush=True)
    _install(target)
    marker.write_text(json.dumps({"stamp": stamp, "extras": sorted(wanted | (have or set()))}))
    return _python()


def _install(target: str) -> None:
    """Install ``target`` (editable) into the venv with uv, a fast installer from PyPI, where
    it can be had; else with pip, as always."""
    try:
        _run(_python(), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "uv")
        _run(_python(), "-m", "uv", "pip", "install", "--python", _python(), "-e", target)
    except subprocess.CalledProcessError:
        print("uv could not install; installing with pip instead", flush=True)
        _run(_python(), "-m", "pip", "install", "--progress-bar", "off", "-e", target)


def browser() -> None:
    """Install Debian's Chromium and its driver for the real-browser tests, when this machine
    can (root with apt-get); otherwise those tests say they were skipped and why."""
    if shutil.which("chromium") and shutil.which("chromedriver"):
        return
    if os.name != "posix" or os.geteuid() != 0 or not shutil.which("apt-get"):
        print("note: chromium and chromium-driver are not installed; the browser tests will be "
              "skipped (install them with your package manager)", flush=True)
        return
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    try:
        _run("apt-get", "update", "-qq", env=env, stdout=subprocess.DEVNULL)
        _run("apt-get", "install", "-y", "-qq", "chromium", "chromium-driver", env=env,
             stdout=subprocess.DEVNULL)
    except subprocess.CalledProcessError:
        print("note: could not install chromium; the browser tests will be skipped", flush=True)


def gm(python: Path, extra: list[str]) -> int:
    """Open the GM's turn notebook (marimo, code hidden) on a working copy of the sample game
    (``gm aztlan``: of the AZTLAN sample; ``gm PATH``: on the game folder PATH).

    ``GMKIT_PORT`` chooses the port (default 2718); ``GMKIT_HEADLESS=1`` opens no browser."""
    port = os.environ.get("GMKIT_PORT", "2718")
    cmd = [python, "-m", "marimo", "run", ROOT / "notebooks" / "turn.py", "--host", "127.0.0.1",
           "--port", port, "--no-token"]
    if os.environ.get("GMKIT_HEADLESS"):
        cmd.append("--headless")
    if extra:
        which = extra[0]
        sample = (ROOT / "data" / f"sample-{which}").is_dir() and "/" not in which
        cmd += ["--", "--sample" if sample else "--game",
                which if sample else Path(which).resolve()]
    print(f"\nThe GM's turn notebook: http://127.0.0.1:{port}/  (Ctrl-C to stop)", flush=True)
    try:
        return subprocess.run([str(c) for c in cmd], cwd=ROOT).returncode
    except KeyboardInterrupt:
        return 0


def demo(python: Path) -> int:
    """Resolve the next turn of a copy of the sample game from the command line and write its
    summaries."""
    out = ROOT / "out"
    out.mkdir(exist_ok=True)
    n = 1
    while (out / f"sample-cien-{n}").exists():
        n += 1
    game = out / f"sample-cien-{n}"
    shutil.copytree(SAMPLE, game)
    gmkit = [python, "-m", "gmkit.cli"]
    _run(*gmkit, "status", game)
    _run(*gmkit, "commit-seed", game)
    _run(*gmkit, "odds", game)
    _run(*gmkit, "resolve", game)
    _run(*gmkit, "reveal", game)
    for view in ("public", "gm"):
        _run(*gmkit, "report", game, "--view", view, "--out", game / f"summary-{view}.html")
    _run(*gmkit, "report", game, "--format", "bbcode", "--out", game / "summary-public.bbcode")
    _run(*gmkit, "verify", game)
    print(f"\nThe turn is committed in {game.relative_to(ROOT)}; open "
          f"{(game / 'summary-public.html').relative_to(ROOT)} in a browser.")
    return 0


def test(python: Path, extra: list[str]) -> int:
    """Check the type hints, then run the whole test suite (or the tests named in ``extra``)."""
    if not extra:
        types = [str(python), "-m", "mypy", "gmkit"]
        print("+", " ".join(types), flush=True)
        if subprocess.run(types, cwd=ROOT).returncode:
            return 1
    # loadgroup: the tests sharing a browser's server (xdist_group) stay on one worker
    cmd = [str(python), "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-q", *extra]
    print("+", " ".join(cmd), flush=True)
    return subprocess.run(cmd, cwd=ROOT).returncode


def jupyter(python: Path, extra: list[str]) -> int:
    """Open the GM's turn notebook in Jupyter on a working copy of a bundled sample (``jupyter
    aztlan``) or on a game folder (``jupyter PATH``); ``jupyter history PATH`` opens the
    history notebook on a game folder. As root (in a container, say) too. Jupyter opens the
    GM's own copy of the notebook, ``out/notebooks/``, made on first use: what it saves never
    changes the notebook tracked in ``notebooks/``.

    ``GMKIT_PORT`` chooses the port (default 8888); ``GMKIT_HEADLESS=1`` opens no browser."""
    notebook = "turn.ipynb"
    if extra and extra[0] == "history":
        notebook, extra = "history.ipynb", extra[1:]
    which = extra[0] if extra else "cien"
    if (ROOT / "data" / f"sample-{which}").is_dir() and "/" not in which:
        made = subprocess.run(
            [str(python), "-c", "from gmkit.desk import sample_working_copy; "
             f"print(sample_working_copy(sample={which!r}))"],
            cwd=ROOT, check=True, capture_output=True, text=True)
        game = made.stdout.strip()
    else:
        game = str(Path(which).resolve())
    # Jupyter saves what it runs into the notebook it opens: the GM's copy, never the one
    # tracked in notebooks/
    copy = ROOT / "out" / "notebooks" / notebook
    if not copy.exists():
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / "notebooks" / notebook, copy)
    print(f"\nThe notebook {copy.relative_to(ROOT)} (your copy of notebooks/{notebook}; "
          f"delete it for a fresh one) opens on {game}  (Ctrl-C to stop)", flush=True)
    env = {**os.environ, "GMKIT_GAME": game}
    cmd = [str(python), "-m", "jupyter", "notebook", str(copy),
           f"--port={os.environ.get('GMKIT_PORT', '8888')}"]
    if os.environ.get("GMKIT_HEADLESS"):
        cmd.append("--no-browser")
    if os.name == "posix" and os.geteuid() == 0:
        # as root (a container, say) Jupyter refuses to start unless told it may
        cmd.append("--allow-root")
    try:
        return subprocess.run(cmd, cwd=ROOT, env=env).returncode
    except KeyboardInterrupt:
        return 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("gm", "test", "demo", "setup", "jupyter"):
        print(__doc__)
        return 2
    # the GM's commands install what the notebooks need; the tests, everything
    python = setup({"test": "test", "jupyter": "jupyter"}.get(argv[0], ""))
    if argv[0] == "gm":
        return gm(python, argv[1:])
    if argv[0] == "jupyter":
        return jupyter(python, argv[1:])
    if argv[0] == "demo":
        return demo(python)
    if argv[0] == "test":
        browser()
        return test(python, argv[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
