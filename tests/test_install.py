"""gmkit installed from a wheel, away from the repository: every ruleset's default board ships as
package data, and ``gmkit new`` finds it with nothing but the installed package.

Slow: one wheel build (a few seconds, shared by the tests of this file), then a fresh venv, an
install and one ``gmkit new`` per ruleset (about 20 s in all). No network is needed: the wheel is
built with the running environment's setuptools (``--no-build-isolation``) and installed without
dependencies, which the venv takes from the environment running the tests.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
import tomli_w

from gmkit.core.boards import BoardError
from gmkit.core.boards.resources import board_bytes, board_file, board_name, default_board_map, \
    ruleset_package
from gmkit.rulesets import find_ruleset, registered
from gmkit.rulesets.cien import Cien
from gmkit.game.setup import board_copy_name

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = [name for name in registered() if find_ruleset(name).board.packaged]


def _member(name: str) -> str:
    """Where ruleset ``name``'s default board sits inside the wheel."""
    rs = find_ruleset(name)
    assert rs.board.packaged
    return f"{ruleset_package(rs).replace('.', '/')}/{rs.board.packaged}"


def _clean_env() -> dict[str, str]:
    """The environment less anything that would put the repository's gmkit on the path."""
    return {k: v for k, v in os.environ.items()
            if not k.startswith(("PYTHON", "VIRTUAL_ENV", "COVERAGE"))}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel of gmkit built from a copy of the project (so the build leaves nothing behind in
    the repository)."""
    src = tmp_path_factory.mktemp("src")
    shutil.copytree(ROOT / "gmkit", src / "gmkit",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                            "--no-build-isolation", "--no-index", "-q", "-w", str(out), str(src)],
                           cwd=src, env=_clean_env(), capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (found,) = out.glob("gmkit-*.whl")
    return found


def test_registered_rulesets_ship_a_default_board() -> None:
    """The rulesets gmkit comes with each ship their own board, found in their own package."""
    assert {"cien", "aztlan"} <= set(SHIPPED)
    assert _member("cien") == "gmkit/rulesets/cien/board/cien.geojson"
    assert _member("aztlan") == "gmkit/rulesets/aztlan/board/aztlan.geojson"


def test_a_ruleset_without_a_board_has_none() -> None:
    """A ruleset that ships no board: no bytes, no file, no map (``gmkit new`` then makes a
    game without a board unless the GM gives one)."""

    class Boardless(Cien):
        packaged_board = None

    assert board_bytes(Boardless) is None and default_board_map(Boardless) is None
    with board_file(Boardless) as path:
        assert path is None


def test_a_missing_packaged_board_is_named() -> None:
    """A ruleset's board is looked up in the package its class lives in; a board missing there
    (a build without the package data) is an error naming the package and the file."""

    class Lost(Cien):
        packaged_board = "board/nowhere.geojson"

    assert ruleset_package(Cien) == "gmkit.rulesets.cien"
    assert ruleset_package(Lost) == __package__
    with pytest.raises(BoardError, match=rf"{__package__}:board/nowhere\.geojson"):
        board_bytes(Lost)
    assert board_name(Lost) == f"{__package__}:board/nowhere.geojson"


@pytest.mark.slow
@pytest.mark.parametrize("name", SHIPPED)
def test_wheel_holds_each_rulesets_default_board(wheel: Path, name: str) -> None:
    """A ruleset's default board is package data: the wheel holds it, byte for byte."""
    with zipfile.ZipFile(wheel) as z:
        assert z.read(_member(name)) == board_bytes(find_ruleset(name))


@pytest.mark.slow
def test_wheel_holds_every_board_file_of_every_ruleset(wheel: Path) -> None:
    """Every file of a ruleset's ``board/`` folder ships (boards of any kind, not only the
    default ones), with the modules that read and build them."""
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
    boards = [p for p in (ROOT / "gmkit" / "rulesets").glob("*/board/*")
              if p.is_file() and p.suffix not in (".pyc",)]
    assert boards
    missing = [str(p.relative_to(ROOT)) for p in boards
               if p.relative_to(ROOT).as_posix() not in names]
    assert not missing, f"not in the wheel: {missing}"


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with only the wheel installed in it; gmkit's dependencies come from the
    environment running the tests (a nested venv's ``--system-site-packages`` would only reach
    the base interpreter's, so the running environment's site folders are added by a ``.pth``
    file, which puts them after the venv's own)."""
    home = tmp_path_factory.mktemp("venv") / "v"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip",
                    str(home)], check=True, env=_clean_env(), timeout=120)
    python = home / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = "import sysconfig; print(sysconfig.get_path('purelib'))"
    own = subprocess.run([str(python), "-c", purelib], check=True, capture_output=True,
                         text=True, env=_clean_env()).stdout
    outer = dict.fromkeys([*site.getsitepackages(), sysconfig.get_path("purelib")])
    (Path(own.strip()) / "outer-environment.pth").write_text(
        "".join(f"{p}\n" for p in outer if Path(p).is_dir()), encoding="utf-8")
    installed = subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "--no-index",
                                "--ignore-installed", "-q", str(wheel)],
                               env=_clean_env(), capture_output=True, text=True, timeout=300)
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
    return home


def _gmkit(venv: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    script = venv / ("Scripts/gmkit.exe" if os.name == "nt" else "bin/gmkit")
    return subprocess.run([str(script), *args], cwd=cwd, env=_clean_env(),
                          capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_installed_gmkit_is_the_wheel_not_the_repository(venv: Path, tmp_path: Path) -> None:
    """The venv imports gmkit from its own site folder, not from this checkout."""
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    where = subprocess.run([str(python), "-c", "import gmkit; print(gmkit.__file__)"],
                           cwd=tmp_path, env=_clean_env(), capture_output=True, text=True,
                           check=True).stdout.strip()
    assert Path(where).resolve().is_relative_to(venv.resolve()), where


@pytest.mark.slow
@pytest.mark.parametrize("name", SHIPPED)
def test_installed_gmkit_new_uses_the_rulesets_own_board(venv: Path, tmp_path: Path,
                                                         name: str) -> None:
    """``gmkit new`` without ``--map``, run outside the repository: the game gets the board the
    ruleset ships, copied byte for byte into the game folder."""
    rs = find_ruleset(name)
    players = tmp_path / "players.toml"
    players.write_text(tomli_w.dumps({"players": rs.example_players(default_board_map(rs))}),
                       encoding="utf-8")
    made = _gmkit(venv, "new", "game", "--ruleset", name, "--players", str(players),
                  cwd=tmp_path)
    assert made.returncode == 0, made.stdout[-3000:] + made.stderr[-3000:]
    assert "turn 0 committed" in made.stdout
    copy = "map.geojson" if rs.board.kind == "polygon" else board_copy_name(rs)
    assert copy and (tmp_path / "game" / copy).read_bytes() == board_bytes(rs)


@pytest.mark.slow
def test_installed_gmkit_new_takes_a_gms_own_board(venv: Path, tmp_path: Path) -> None:
    """``gmkit new --map FILE``: a GM's own board, anywhere on disk, is the game's board."""
    rs = find_ruleset("cien")
    own = tmp_path / "boards" / "my-cien.geojson"
    own.parent.mkdir()
    blob = board_bytes(rs)
    assert blob is not None
    own.write_bytes(blob.replace(b"Solsauvre", b"Solmarche"))
    homes = rs.example_players(default_board_map(rs))
    for p in homes:
        if p["state"] == "Solsauvre":
            p["state"] = "Solmarche"
    players = tmp_path / "players.toml"
    players.write_text(tomli_w.dumps({"players": homes}), encoding="utf-8")
    made = _gmkit(venv, "new", "game", "--ruleset", "cien", "--players", str(players),
                  "--map", str(own), cwd=tmp_path)
    assert made.returncode == 0, made.stdout[-3000:] + made.stderr[-3000:]
    assert (tmp_path / "game" / "map.geojson").read_bytes() == own.read_bytes()
