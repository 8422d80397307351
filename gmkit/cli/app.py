"""The ``gmkit`` command's group and what its commands share: how a failure is reported (one
line, exit status 2), how tables print, reading a text or TOML file, and the viewer a
``--view`` names. The commands themselves are in :mod:`gmkit.cli.folder`,
:mod:`gmkit.cli.turn` and :mod:`gmkit.cli.publishing`."""

from __future__ import annotations

import errno
import shutil
import sys
from pathlib import Path
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from gmkit import __version__

if TYPE_CHECKING:
    import polars as pl

    from gmkit.core.views import Viewer
    from gmkit.game import Game


def expected_errors() -> tuple[type[BaseException], ...]:
    """The failures a command reports in one line (a bad file, order, die or rule, a game that
    refuses): imported when one is raised, so that a command that fails nothing loads none of
    the modules that define them."""
    import tomllib

    from gmkit.core.boards.polygon import MapError
    from gmkit.core.dice import DiceError
    from gmkit.core.files import StoreError
    from gmkit.core.orders import OrderError
    from gmkit.core.params import ParamError
    from gmkit.core.tables import SchemaError
    from gmkit.game import GameError

    return (GameError, StoreError, DiceError, MapError, ParamError, SchemaError, OrderError,
            KeyError, tomllib.TOMLDecodeError, ValueError, TypeError)


def game_error(message: str) -> Exception:
    """A :class:`~gmkit.game.GameError` (a one-line failure of a command) with ``message``."""
    from gmkit.game import GameError

    return GameError(message)


def os_error(e: OSError) -> str:
    """An operating-system failure in one line: the file and what went wrong."""
    what = {errno.ENOSPC: "the disk is full", errno.EROFS: "the file system is read-only",
            errno.EACCES: "permission denied", errno.EPERM: "permission denied",
            errno.EDQUOT: "the disk quota is exceeded"}.get(e.errno or 0, e.strerror or str(e))
    where = f"{e.filename}: " if e.filename else ""
    return f"{where}{what}; the game folder keeps its last good state"


class Group(click.Group):
    """The command group: an expected failure is one line on standard error, exit status 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except OSError as e:
            click.echo(f"gmkit: {os_error(e)}".splitlines()[0], err=True)
            sys.exit(2)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise  # click's own: --help, a usage error, Ctrl-C
        except Exception as e:
            if not isinstance(e, expected_errors()):
                raise
            msg = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
            lines = f"gmkit: {msg}".splitlines() if msg else [f"gmkit: {type(e).__name__}"]
            # a headline ending in ':' lists one problem a line under it; else one line
            for line in lines if lines[0].endswith(":") else lines[:1]:
                click.echo(line, err=True)
            sys.exit(2)


def table_config(**options: Any) -> pl.Config:
    """How tables print: as wide as they need (never a word broken over two lines), on a
    terminal or in a file."""
    import polars as pl

    width = max(shutil.get_terminal_size((200, 40)).columns, 200)
    return pl.Config(tbl_width_chars=width, fmt_str_lengths=max(options.pop(
        "fmt_str_lengths", 60), 40), **options)


def progress_bar(what: str) -> Callable[[int, int], None] | None:
    """A progress callback ``(done, total)`` drawing click's progress bar on a terminal (for a
    command that may run for seconds: publish, verify, sweep, sql); None when standard output is not
    a terminal, so that nothing but the command's own lines reaches a file or a pipe. A count
    starting again (the next site of a publish) starts a new bar."""
    if not sys.stdout.isatty():
        return None
    state: dict[str, Any] = {"bar": None, "done": 0}

    def show(done: int, total: int) -> None:
        bar = state["bar"]
        if bar is not None and (done < state["done"] or total != bar.length):
            bar.render_finish()
            bar = None
        if bar is None:
            bar = state["bar"] = click.progressbar(length=total, label=what, file=sys.stdout)
            state["done"] = 0
        bar.update(done - state["done"])
        state["done"] = done
        if done >= total:
            bar.render_finish()
            state["bar"] = None
            state["done"] = 0

    return show


#: The most bytes a file the GM hands a command may have (a post has its own, smaller limit).
MAX_FILE_BYTES = 4 * 1024 * 1024


def read_text(path: Path | None, what: str = "file", limit: int = MAX_FILE_BYTES) -> str:
    """A UTF-8 text file (``-`` or None: standard input) of at most ``limit`` bytes, and only a
    regular file (never a pipe or a device); a bad byte is named with its offset."""
    if path is None or str(path) == "-":
        blob = sys.stdin.buffer.read(limit + 1)
    else:
        if not Path(path).is_file():
            raise game_error(f"{path}: the {what} is not a regular file")
        with open(path, "rb") as f:
            blob = f.read(limit + 1)
    if len(blob) > limit:
        raise game_error(f"{path or 'standard input'}: the {what} is larger than {limit} bytes, "
                        "the most gmkit reads")
    try:
        return blob.decode("utf-8")
    except UnicodeDecodeError as e:
        raise game_error(f"{path or 'standard input'}: the {what} is not UTF-8 text (byte "
                        f"0x{blob[e.start]:02x} at offset {e.start}); save it as UTF-8") from None


def toml_file(path: Path, what: str) -> dict[str, Any]:
    """A TOML file's table; malformed TOML is a one-line error naming the file."""
    import tomllib

    try:
        return tomllib.loads(read_text(path, what))
    except tomllib.TOMLDecodeError as e:
        raise game_error(f"{path}: malformed TOML: {e}") from None


GAME = click.argument("game", type=click.Path(path_type=Path))


@click.group(cls=Group)
@click.version_option(version=__version__, prog_name="gmkit")
def main() -> None:
    """gmkit: the game master's kit for play-by-forum strategy games."""
    skip_unused_imports()


#: What a package imports at great cost for a feature no gmkit command uses: jsonschema
#: (imported by altair, which draws the charts) compiles the grammars of rfc3987_syntax, if it
#: is installed, for seconds, only to offer checks of the "iri" string format that gmkit never
#: asks for (its charts skip schema validation).
UNUSED_IMPORTS = ("rfc3987_syntax",)


def skip_unused_imports() -> None:
    """Make the :data:`UNUSED_IMPORTS` unavailable to this ``gmkit`` process (the packages
    that try them go without), unless already imported: a command that draws charts starts
    seconds sooner. Only the command's own process is concerned, never a notebook's."""
    for name in UNUSED_IMPORTS:
        sys.modules.setdefault(name, None)  # type: ignore[arg-type]


def viewer_for(g: Game, view: str) -> Viewer:
    """The viewer ``--view`` names; a player must be one of the game's."""
    from gmkit.core.views import Viewer

    v = Viewer.parse(view)
    if v.is_player and v.player_id not in [p.id for p in g.everyone()]:
        raise game_error(f"--view {view}: no player {v.player_id!r} in this game")
    return v


def entered_dice(path: Path | None) -> dict[str, Any]:
    """The dice a `--dice` file enters (none without a file); errors name the file."""
    from gmkit.core.dice import DiceError, parse_entered

    if path is None:
        return {}
    try:
        return parse_entered(read_text(path, "dice file"))
    except DiceError as e:
        raise DiceError(f"{path}: {e}") from None


def player_list(players_file: Path, ruleset: str, map_path: Path | None) -> list[dict[str, Any]]:
    """The player list of ``players.toml``, its places matched as orders match names and
    checked by the ruleset: every mistake is a line naming the file, the player and the field
    (see :mod:`gmkit.game.playerlist`)."""
    from gmkit.core.boards import BoardError
    from gmkit.core.ruleset import find_ruleset
    from gmkit.game import starting_board
    from gmkit.game.playerlist import read_player_list

    text = read_text(players_file, "player list")
    rs = find_ruleset(ruleset)
    try:
        board = starting_board(rs, map_path)[0]
    except BoardError as e:
        raise game_error(str(e)) from None
    return read_player_list(players_file, text, rs, board)
