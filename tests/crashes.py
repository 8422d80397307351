"""Kill a gmkit command at a chosen file-system mutation, or run two at once.

A trial runs one ``gmkit`` command in a child process forked from an already-imported server
(multiprocessing's forkserver with gmkit preloaded), so each trial costs a fork, not an
interpreter start. An audit hook counts the mutations the command makes inside the game's
folder tree (opening a file to write, creating a folder, renaming, removing, changing a mode or
linking) and kills the process with SIGKILL at the chosen one, as a power cut or ``kill -9``
would: no ``finally`` runs, no buffer is flushed.
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
MUTATIONS = {"os.rename", "os.remove", "os.rmdir", "os.mkdir", "os.link", "os.symlink",
             "os.truncate", "os.chmod", "shutil.rmtree", "shutil.move"}

_state: dict[str, Any] = {"root": None, "kill_at": 0, "count": 0}


def _is_mutation(event: str, args: tuple[Any, ...]) -> str | None:
    """The path a mutating event touches, or None when the event changes nothing."""
    if event == "open":
        path, mode, flags = args
        if isinstance(path, int):
            return None
        writes = (any(c in mode for c in "wax+") if isinstance(mode, str)
                  else bool(flags & WRITE_FLAGS))
        return os.fsdecode(path) if writes else None
    if event in MUTATIONS and args and isinstance(args[0], (str, bytes, os.PathLike)):
        return os.fsdecode(args[0])
    return None


def _hook(event: str, args: tuple[Any, ...]) -> None:
    root = _state["root"]
    if root is None:
        return
    path = _is_mutation(event, args)
    if path is None or not os.path.abspath(path).startswith(root):
        return
    _state["count"] += 1
    if _state["count"] == _state["kill_at"]:
        os.kill(os.getpid(), signal.SIGKILL)


def _run(root: str, argv: Sequence[str], kill_at: int, out: str,
         barrier: Any = None) -> None:
    """The child: run ``gmkit argv`` in-process, counting mutations under ``root``; write the
    exit code, the output and the number of mutations to ``out``."""
    sys.addaudithook(_hook)
    from gmkit.cli import main

    buf = io.StringIO()
    code = 0
    if barrier is not None:
        barrier.wait()
    _state.update(root=os.path.abspath(root), kill_at=kill_at, count=0)
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        try:
            main(list(argv), standalone_mode=False)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
        except BaseException as e:  # noqa: BLE001 - a traceback is a failure the test reports
            code = 99
            buf.write(f"TRACEBACK {type(e).__name__}: {e}")
    _state["root"] = None
    Path(out).write_text(f"{code}\n{_state['count']}\n{buf.getvalue()}", "utf-8")


_context: Any = None


def context() -> Any:
    """The forkserver context, with gmkit preloaded."""
    global _context
    if _context is None:
        _context = multiprocessing.get_context("forkserver")
        _context.set_forkserver_preload(["gmkit.cli", "gmkit.game.game", "gmkit.publish.site",
                                         "tests.crashes"])
    return _context


def run(root: Path, argv: Sequence[str], *, kill_at: int = 0,
        timeout: float = 120) -> tuple[int | None, int, str]:
    """Run ``gmkit argv`` in a forked child, killed at mutation ``kill_at`` (0: never).
    Returns ``(exit code or None when killed, mutations counted, output)``."""
    out = root.parent / f".trial-{os.getpid()}-{kill_at}.txt"
    with contextlib.suppress(FileNotFoundError):
        out.unlink()
    proc = context().Process(target=_run, args=(str(root), [str(a) for a in argv], kill_at,
                                                str(out)))
    proc.start()
    proc.join(timeout)
    if proc.is_alive():
        proc.kill()
        raise AssertionError(f"gmkit {' '.join(map(str, argv))} hung")
    if proc.exitcode == -signal.SIGKILL:
        return None, kill_at, ""
    code, count, output = out.read_text("utf-8").split("\n", 2)
    out.unlink()
    return int(code), int(count), output


def run_together(root: Path, first: Sequence[str], second: Sequence[str],
                 timeout: float = 120) -> list[tuple[int, str]]:
    """Run two commands at the same moment (released by one barrier); their exit codes and
    outputs."""
    ctx = context()
    barrier = ctx.Barrier(2)
    outs = [root.parent / f".together-{os.getpid()}-{i}.txt" for i in range(2)]
    procs = [ctx.Process(target=_run, args=(str(root), [str(a) for a in argv], 0, str(out),
                                            barrier))
             for argv, out in zip((first, second), outs)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout)
        if p.is_alive():
            p.kill()
            raise AssertionError("a command hung")
    results = []
    for out in outs:
        code, _, output = out.read_text("utf-8").split("\n", 2)
        out.unlink()
        results.append((int(code), output))
    return results
