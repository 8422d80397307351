"""Where the desk's games come from: the sample bundled with gmkit, and working copies of a game
folder to play on (the source is only read); and the desk's error, whose message is shown as it
is."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path



class DeskError(ValueError):
    """Something the GM asked that cannot be done; the message says why, ready to show."""


#: The game bundled with gmkit; the desk never writes into it.
BUNDLED_SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample-cien"
#: Where the notebooks keep their working copy of the sample, relative to the repository root.
WORKING_COPY = Path("out") / "turn-notebook" / "sample-cien"
#: The file that marks a folder as a working copy made by :meth:`Desk.working_copy`.
COPY_MARKER = ".gmkit-working-copy"


def repo_root(start: str | Path | None = None) -> Path:
    """The gmkit checkout holding ``data/sample-cien``: searched upwards from ``start`` (default:
    the working directory), else the one this module lives in."""
    here = Path(start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "data" / "sample-cien" / "game.toml").is_file():
            return folder
    return BUNDLED_SAMPLE.parent.parent


def sample_working_copy(root: str | Path | None = None, *, fresh: bool = False,
                        name: str | None = None, into: str | Path | None = None,
                        sample: str = "cien") -> Path:
    """The notebooks' working copy of a bundled sample (``data/sample-<sample>``):
    ``out/turn-notebook/<name>`` (default ``sample-<sample>``) of the checkout found from ``root``
    (or ``into``), made on first use and then reused (``fresh``: made again)."""
    base = repo_root(root)
    source = base / "data" / f"sample-{sample}"
    if "/" in sample or "\\" in sample or not source.is_dir():
        known = sorted(p.name.removeprefix("sample-") for p in (base / "data").glob("sample-*"))
        raise DeskError(f"no bundled sample '{sample}' (known: {', '.join(known)})")
    target = Path(into) if into else base / WORKING_COPY.parent / (name or f"sample-{sample}")
    return working_copy(source, target, fresh=fresh)



def working_copy(source: str | Path, into: str | Path, *, fresh: bool = False) -> Path:
    """A copy of the game folder ``source`` at ``into`` to play on (``source`` is only read).

    Made once and then reused; ``fresh`` replaces a copy made earlier by this method (never
    any other folder). The copy is written aside and renamed into place, so an interrupted
    copy is never mistaken for a game."""
    source, into = Path(source), Path(into)
    if not (source / "game.toml").is_file():
        raise DeskError(f"{source}: not a game folder (no game.toml)")
    if into.exists():
        marked = (into / COPY_MARKER).is_file()
        if not fresh and (into / "game.toml").is_file():
            return into
        if not marked:
            raise DeskError(f"{into}: exists and is not a working copy made by the desk "
                            "(no game.toml, or not marked as a copy); not replacing it: "
                            "move it away, or open another folder")
        shutil.rmtree(into, ignore_errors=True)  # a copy to make again (fresh, or broken)
    try:
        into.parent.mkdir(parents=True, exist_ok=True)
        # a staging folder of its own per call: the sessions of one notebook server share
        # one process, and two of them may make the copy at once
        staging = Path(tempfile.mkdtemp(prefix=f".{into.name}.copying-", dir=into.parent))
        try:
            shutil.copytree(source, staging / "game",
                            ignore=shutil.ignore_patterns(".lock", COPY_MARKER))
            (staging / "game" / COPY_MARKER).write_text(
                f"a working copy of {source.name}\n", "utf-8")
            with contextlib.suppress(OSError):  # another session made it meanwhile
                os.rename(staging / "game", into)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    except OSError as e:
        raise DeskError(f"the working copy {into} could not be made: {e}") from None
    if not (into / "game.toml").is_file():
        raise DeskError(f"the working copy {into} could not be made; delete the folder "
                        "and open the notebook again")
    return into
