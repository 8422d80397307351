"""The ``gmkit`` command's group and what its commands share: how a failure is reported (one
line, exit status 2), how tables print, reading a text or TOML file, and the viewer a
``--view`` names. The commands themselves are in :mod:`gmkit.cli.folder`,
:mod:`gmkit.cli.turn` and :mod:`gmkit.cli.publishing`."""

from __future__ import annotations

import errno
import shutil
import sys
import tomllib
from pathlib import Path
from typing import Any

import click
import polars as pl

from gmkit.core.dice import DiceError, parse_entered
from gmkit.core.boards.polygon import MapError
from gmkit.core.orders import OrderError
from gmkit.core.params import ParamError
from gmkit.core.files import StoreError
from gmkit.core.tables import SchemaError
from gmkit.core.views import Viewer
from gmkit.game import Game, GameError

EXPECTED = (GameError, StoreError, DiceError, MapError, ParamError, SchemaError, OrderError,
            KeyError, tomllib.TOMLDecodeError, ValueError, TypeError)


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
        except EXPECTED as e:
            msg = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
            lines = f"gmkit: {msg}".splitlines() if msg else [f"gmkit: {type(e).__name__}"]
            # a headline ending in ':' lists one problem a line under it; else one line
            for line in lines if lines[0].endswith(":") else lines[:1]:
                click.echo(line, err=True)
            sys.exit(2)


def table_config(**options: Any) -> pl.Config:
    """How tables print: as wide as they need (never a word broken over two lines), on a
    terminal or in a file."""
    width = max(shutil.get_terminal_size((200, 40)).columns, 200)
    return pl.Config(tbl_width_chars=width, fmt_str_lengths=max(options.pop(
        "fmt_str_lengths", 60), 40), **options)


def progress_bar(what: str) -> Any:
    """A progress callback ``(done, total)`` drawing a bar on a terminal's standard error, and
    silent when standard error is not a terminal."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        click.echo(f"\r{what} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}",
                   err=True, nl=done >= total)

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
            raise GameError(f"{path}: the {what} is not a regular file")
        with open(path, "rb") as f:
            blob = f.read(limit + 1)
    if len(blob) > limit:
        raise GameError(f"{path or 'standard input'}: the {what} is larger than {limit} bytes, "
                        "the most gmkit reads")
    try:
        return blob.decode("utf-8")
    except UnicodeDecodeError as e:
        raise GameError(f"{path or 'standard input'}: the {what} is not UTF-8 text (byte "
                        f"0x{blob[e.start]:02x} at offset {e.start}); save it as UTF-8") from None


def toml_file(path: Path, what: str) -> dict[str, Any]:
    """A TOML file's table; malformed TOML is a one-line error naming the file."""
    try:
        return tomllib.loads(read_text(path, what))
    except tomllib.TOMLDecodeError as e:
        raise GameError(f"{path}: malformed TOML: {e}") from None


GAME = click.argument("game", type=click.Path(path_type=Path))


@click.group(cls=Group)
@click.version_option(package_name="gmkit")
def main() -> None:
    """gmkit: the game master's kit for play-by-forum strategy games."""


def viewer_for(g: Game, view: str) -> Viewer:
    """The viewer ``--view`` names; a player must be one of the game's."""
    v = Viewer.parse(view)
    if v.is_player and v.player_id not in [p.id for p in g.everyone()]:
        raise GameError(f"--view {view}: no player {v.player_id!r} in this game")
    return v


def entered_dice(path: Path | None) -> dict[str, Any]:
    """The dice a `--dice` file enters (none without a file); errors name the file."""
    if path is None:
        return {}
    try:
        return parse_entered(read_text(path, "dice file"))
    except DiceError as e:
        raise DiceError(f"{path}: {e}") from None


def player_list(players_file: Path, ruleset: str, map_path: Path | None) -> list[dict[str, Any]]:
    """The player list of ``players.toml``, checked by the ruleset: the first problem is one
    line naming the file, the player and the field."""
    from gmkit.core.boards import BoardError
    from gmkit.core.ruleset import find_ruleset
    from gmkit.game import starting_board

    listed = toml_file(players_file, "player list")
    players = listed.get("players")
    if players is None:
        other = [k for k, v in listed.items() if isinstance(v, list)]
        raise GameError(f"{players_file}: no [[players]] table"
                        + (f" (found [[{other[0]}]]: write [[players]])" if other else
                           ": list each player as a [[players]] table"))
    if not isinstance(players, list) or not all(isinstance(x, dict) for x in players):
        raise GameError(f"{players_file}: 'players' must be a list of [[players]] tables")
    rs = find_ruleset(ruleset)
    try:
        board = starting_board(rs, map_path)[0]
    except BoardError as e:
        raise GameError(str(e)) from None
    check = rs.lifecycle.check_players
    problems = check(Game.players_from_config({"players": players}, str(players_file)),
                     board) if check else []
    if problems:
        more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
        raise GameError(f"{players_file}: {problems[0]}{more}")
    return players
