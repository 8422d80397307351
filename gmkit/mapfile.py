"""A turn's map as a file to attach to a forum post: SVG, or PNG rasterised from the same SVG,
drawn from the ruleset's view of the state for the public, the GM or one player."""

from __future__ import annotations

from pathlib import Path

from gmkit.core.store import atomic_write
from gmkit.core.views import Viewer
from gmkit.game import Game, GameError

#: The kinds of file the map is written as.
SUFFIXES = (".svg", ".png")
#: How much larger than the SVG's own size a PNG is drawn, for its labels to be read.
PNG_SCALE = 2.0


def default_name(turn: int, suffix: str = ".png") -> str:
    """The name a GM attaches: ``map-turn-0007.png``."""
    return f"map-turn-{turn:04d}{suffix}"


def map_svg(game: Game, turn: int | None = None, view: str = "public") -> str:
    """The map after ``turn`` (default: the latest committed) as ``view`` sees it, as SVG."""
    turns = game.store.turns()
    t = game.latest_turn if turn is None else turn
    if t not in turns:
        raise GameError(f"--turn {t}: not committed (turns {turns[0]} to {turns[-1]})"
                        if turns else "no turn is committed")
    state = game.ruleset.view(game.state(t), Viewer.parse(view))
    title = "The set-up (turn 0)" if t == 0 else f"After turn {t}"
    svg = game.map_svg(state, title=f"{game.title} \u2014 {title}")
    if svg is None:
        raise GameError(f"{game.title}: this game has no map to draw")
    return svg


def write_map(game: Game, out: Path, turn: int | None = None, view: str = "public") -> Path:
    """Write the map to ``out`` (``.svg`` or ``.png``, by its suffix) and return the path."""
    suffix = out.suffix.lower()
    if suffix not in SUFFIXES:
        raise GameError(f"{out}: write the map as .svg or .png")
    svg = map_svg(game, turn, view)
    if suffix == ".svg":
        atomic_write(out, svg.encode("utf-8"))
    else:
        import vl_convert

        atomic_write(out, vl_convert.svg_to_png(svg, scale=PNG_SCALE))
    return out
