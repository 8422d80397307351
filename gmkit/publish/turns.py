"""A committed turn's report for each of its readers: the one path from a game folder to the pages
and posts that the desk, ``gmkit report`` and ``gmkit publish`` write.

Each report is built for its viewer (:func:`gmkit.publish.summary.turn_report`: the state and
maps, posts, rolls and events that viewer may see), every text is rendered before anything is
written, and each file is then written atomically (:func:`gmkit.core.reports.write_report`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from gmkit.core.reports import TurnReport, render, write_report
from gmkit.core.intake import player_id_problem
from gmkit.core.views import Viewer
from gmkit.game import Game
from gmkit.publish.summary import turn_report

#: The formats a turn's report is written in.
FORMATS = ("html", "bbcode")


class FolderError(ValueError):
    """A reader's folder that cannot be made (a player id that is no plain folder name)."""


def readers(game: Game) -> list[Viewer]:
    """Everyone a turn's report is written for: the public, the GM, and each player."""
    return [Viewer.public(), Viewer.gm(), *(Viewer.player(p.id) for p in game.everyone())]


def player_folder(players: Path, pid: str) -> Path:
    """``players/<pid>``; a player id that is no plain folder name is refused."""
    found = player_id_problem(pid)
    if found:
        raise FolderError(found)
    return players / pid


def report_for(game: Game, turn: int | None, viewer: Viewer | str, *,
               map_file: str | None = None) -> TurnReport:
    """The report of a committed turn (the latest for None) as ``viewer`` may see it; with
    ``map_file``, the BBCode asks the reader to see that attached map file."""
    report = turn_report(game, turn, viewer=viewer)
    if map_file:
        report = dataclasses.replace(report, map_file=Path(map_file).name)
    return report


@dataclass(frozen=True)
class Written:
    """The files written for a turn: the public and GM reports, and each player's."""

    paths: tuple[Path, ...]
    players: Mapping[str, tuple[Path, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class RenderedTurn:
    """A turn's reports rendered for their readers, not written yet."""

    turn: int
    reports: Mapping[str, TurnReport]
    texts: Mapping[tuple[str, str], str | list[str]]  # (viewer, format) -> text

    def text(self, viewer: Viewer | str, fmt: str) -> str | list[str]:
        """The rendered page (HTML) or posts (BBCode parts) of one reader."""
        return self.texts[(str(viewer), fmt)]

    def write(self, out: Path) -> Written:
        """Write every reader's report: ``out/turn-NNNN-public`` and ``-gm`` (``.html`` and
        ``.bbcode``), and each player's into ``out/players/<id>/turn-NNNN``."""
        paths: list[Path] = []
        players: dict[str, list[Path]] = {}
        for (view, fmt), text in self.texts.items():
            viewer = Viewer.parse(view)
            if viewer.is_player:
                pid = str(viewer.player_id)
                base = player_folder(out / "players", pid) / f"turn-{self.turn:04d}"
            else:
                base = out / f"turn-{self.turn:04d}-{view}"
            target = base.with_name(base.name + ".html") if fmt == "html" else base
            got = write_report(self.reports[view], target, view=view, fmt=fmt, rendered=text)
            if viewer.is_player:
                players.setdefault(str(viewer.player_id), []).extend(got)
            else:
                paths.extend(got)
        return Written(tuple(paths), {k: tuple(v) for k, v in players.items()})


def render_turn(game: Game, turn: int, viewers: Sequence[Viewer | str], *,
                fmts: Sequence[str] = FORMATS) -> RenderedTurn:
    """Every reader's report of ``turn``, built for that reader and rendered in ``fmts``."""
    reports = {str(Viewer.parse(v)): report_for(game, turn, v) for v in viewers}
    texts = {(view, fmt): render(report, view=view, fmt=fmt)
             for view, report in reports.items() for fmt in fmts}
    return RenderedTurn(turn, reports, texts)
