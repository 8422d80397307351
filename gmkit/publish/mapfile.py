"""A turn's map as a file: SVG, or PNG rasterised from the same SVG, to attach to a forum post;
or GeoJSON (RFC 7946: longitude and latitude, shared borders) for GIS tools and web maps. Each is
drawn from the ruleset's view of the state for the public, the GM or one player."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gmkit.core.files import atomic_write
from gmkit.core.views import Viewer
from gmkit.game import Game, GameError

#: The kinds of file the map is written as.
SUFFIXES = (".svg", ".png", ".geojson")
#: How much larger than the SVG's own size a PNG is drawn, for its labels to be read.
PNG_SCALE = 2.0


def default_name(turn: int, suffix: str = ".png") -> str:
    """The name a GM attaches: ``map-turn-0007.png``."""
    return f"map-turn-{turn:04d}{suffix}"


def map_svg(game: Game, turn: int | None = None, view: str = "public") -> str:
    """The map after ``turn`` (default: the latest committed) as ``view`` sees it, as SVG."""
    t = _committed(game, turn)
    state = game.state(t, viewer=Viewer.parse(view))
    title = "The set-up (turn 0)" if t == 0 else f"After turn {t}"
    svg = game.map_svg(state, title=f"{game.title} \u2014 {title}")
    if svg is None:
        raise GameError(f"{game.title}: this game has no map to draw")
    return svg


def _committed(game: Game, turn: int | None) -> int:
    turns = game.store.turns()
    t = game.latest_turn if turn is None else turn
    if t not in turns:
        raise GameError(f"--turn {t}: not committed (turns {turns[0]} to {turns[-1]})"
                        if turns else "no turn is committed")
    return t


def map_geojson(game: Game, turn: int | None = None, view: str = "public") -> dict[str, Any]:
    """The game's map after ``turn`` as RFC 7946 GeoJSON (see :mod:`gmkit.core.geoexport`):
    each region's stored properties, and the turn's ``fill`` colour (as geojson.io and other
    web maps read it) and ``label`` as ``view`` sees them, with ``turn``. The map is placed in
    longitude and latitude by the frame its file names, else its ruleset's ``map_frame``, else
    the local frame of a fictional land."""
    from gmkit.core.geoexport import FrameError, to_rfc7946

    t = _committed(game, turn)
    path = game.root / "map.geojson"
    if game.map is None or not path.exists():
        raise GameError(f"{game.title}: this game has no polygon map to write as GeoJSON")
    state = game.state(t, viewer=Viewer.parse(view))
    style = game.ruleset.map_style(state, game.rules)
    props = {name: {"turn": t,
                    **({"fill": style.fills[name]} if name in style.fills else {}),
                    **({"label": style.labels[name]} if name in style.labels else {})}
             for name in game.map.regions}
    try:
        return to_rfc7946(json.loads(path.read_text(encoding="utf-8")), props,
                          adjacency=game.map.adjacency,
                          frame=game.ruleset.map_frame)
    except FrameError as e:
        raise GameError(f"{path}: {e}") from None


def write_map(game: Game, out: Path, turn: int | None = None, view: str = "public") -> Path:
    """Write the map to ``out`` (``.svg``, ``.png`` or ``.geojson``, by its suffix) and return
    the path."""
    suffix = out.suffix.lower()
    if suffix not in SUFFIXES:
        raise GameError(f"{out}: write the map as .svg, .png or .geojson")
    if suffix == ".geojson":
        data = map_geojson(game, turn, view)
        atomic_write(out, (json.dumps(data, ensure_ascii=False) + "\n").encode("utf-8"))
        return out
    svg = map_svg(game, turn, view)
    if suffix == ".svg":
        atomic_write(out, svg.encode("utf-8"))
    else:
        import vl_convert

        atomic_write(out, vl_convert.svg_to_png(svg, scale=PNG_SCALE))
    return out
