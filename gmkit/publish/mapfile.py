"""A turn's map as a file: SVG, or PNG rasterised from the same SVG on an opaque background, to
attach to a forum post; or GeoJSON (RFC 7946: longitude and latitude, shared borders, each place
with the state it shows) for GIS tools and web maps, whatever the board's kind. Each is drawn
from the ruleset's view of the state for the public, the GM or one player."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gmkit.core.boards.graph import GraphBoard
from gmkit.core.boards.hexgrid import HexBoard
from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.drawing.png import FORUM_WIDTH, svg_png
from gmkit.core.files import atomic_write
from gmkit.core.views import Viewer
from gmkit.game import Game, GameError

#: The kinds of file the map is written as.
SUFFIXES = (".svg", ".png", ".geojson")


def default_name(turn: int, suffix: str = ".png", *, orders: bool = False) -> str:
    """The name a GM attaches: ``map-turn-0007.png`` (``map-turn-0007-orders.png`` for the
    map of the turn's orders)."""
    return f"map-turn-{turn:04d}{'-orders' if orders else ''}{suffix}"


def map_svg(game: Game, turn: int | None = None, view: str = "public", *,
            coordinates: bool = False, orders: bool = False) -> str:
    """The map after ``turn`` (default: the latest committed) as ``view`` sees it, as SVG
    (``coordinates``: each named hex's coordinates printed on a hex map); with ``orders``,
    the map before ``turn`` with the turn's orders ``view`` may see drawn on it (the public
    sees no secret order, a player their own too)."""
    t = _committed(game, turn)
    if orders:
        if t <= game.first_turn:
            raise GameError(f"--orders: turn {t} is the set-up, which has no orders")
        shown = game.turn_orders(t, Viewer.parse(view))
        svg = game.map_svg(shown.before, title=f"{game.title} \u2014 the orders of turn {t}",
                           coordinates=coordinates, orders=shown.drawn)
        if svg is None:
            raise GameError(f"{game.title}: this game has no map to draw")
        return svg
    state = game.state(t, viewer=Viewer.parse(view))
    title = "The set-up (turn 0)" if t == 0 else f"After turn {t}"
    svg = game.map_svg(state, title=f"{game.title} \u2014 {title}", coordinates=coordinates)
    if svg is None:
        raise GameError(f"{game.title}: this game has no map to draw")
    return svg


def map_png(game: Game, turn: int | None = None, view: str = "public",
            width: int = FORUM_WIDTH, *, orders: bool = False) -> bytes:
    """The map after ``turn`` (default: the latest committed) as ``view`` sees it, as the PNG
    ``width`` pixels wide a forum shows (what the notebooks' "download the map" gives); with
    ``orders``, the turn's orders on the map before it (see :func:`map_svg`)."""
    return svg_png(map_svg(game, turn, view, orders=orders), width)


def download_link(game: Game, turn: int | None = None, view: str = "public",
                  width: int = FORUM_WIDTH) -> str:
    """An HTML link that downloads :func:`map_png` as ``map-turn-NNNN.png`` (for Jupyter,
    where no download widget is at hand)."""
    import base64
    import html

    t = _committed(game, turn)
    data = base64.b64encode(map_png(game, t, view, width)).decode("ascii")
    name = html.escape(default_name(t))
    return (f'<a download="{name}" href="data:image/png;base64,{data}" '
            f'style="display:inline-block;padding:4px 10px;border:1px solid #888;'
            f'border-radius:4px;text-decoration:none">Download the map for the forum '
            f"({name}, {width} px)</a>")


def _committed(game: Game, turn: int | None) -> int:
    turns = game.store.turns()
    t = game.latest_turn if turn is None else turn
    if t not in turns:
        raise GameError(f"--turn {t}: not committed (turns {turns[0]} to {turns[-1]})"
                        if turns else "no turn is committed")
    return t


def map_geojson(game: Game, turn: int | None = None, view: str = "public") -> dict[str, Any]:
    """The game's map after ``turn`` as RFC 7946 GeoJSON, in longitude and latitude (see
    :mod:`gmkit.core.geoexport`): each place's stored properties, the turn's ``fill`` colour (as
    geojson.io and other web maps read it), ``label`` and pieces, and the columns of the state
    tables its ruleset declares for places (:attr:`~gmkit.core.parts.Presentation.place_tables`)
    as ``view`` sees them, with ``turn``. A polygon map is placed by the frame its file names,
    else its ruleset's ``board.frame``, else the local frame of a fictional land; a graph or
    hex board by the plane frame (its origin at 0° N 0° E, one scale for every turn)."""
    from gmkit.core.geoexport import (FrameError, plane_extent, plane_frame, plane_to_rfc7946,
                                      to_rfc7946)
    from gmkit.core.placerows import declared_places

    from gmkit.core.drawing.board_geojson import graph_geojson, hex_geojson, place_properties

    t = _committed(game, turn)
    path = game.root / "map.geojson"
    board = game.board
    state = game.state(t, viewer=Viewer.parse(view))
    presentation = game.ruleset.presentation
    scene = presentation.scene(state, game.context()) if presentation.scene else None
    if board is None or scene is None:
        raise GameError(f"{game.title}: this game has no map to write as GeoJSON")
    shown = place_properties(scene, game.colours(state))
    declared = declared_places(state, presentation.place_tables,
                               hexes=isinstance(board, HexBoard))
    own = presentation.places(state) if presentation.places else {}
    places = set(shown) | set(declared) | set(own)
    props = {p: {"turn": t, **shown.get(p, {}), **declared.get(p, {}), **own.get(str(p), {})}
             for p in places}
    try:
        if isinstance(board, GraphBoard):
            return plane_to_rfc7946(graph_geojson(board, props), plane_frame(plane_extent(board)))
        if isinstance(board, HexBoard):
            return plane_to_rfc7946(hex_geojson(board, scene, props),
                                    plane_frame(plane_extent(board)))
    except FrameError as e:
        raise GameError(f"{game.title}: {e}") from None
    if not isinstance(board, PolygonBoard) or not path.exists():
        raise GameError(f"{game.title}: this game has no polygon map to write as GeoJSON")
    by_name = {name: {"turn": t, **props.get(name, {})} for name in board.regions}
    try:
        return to_rfc7946(json.loads(path.read_text(encoding="utf-8")), by_name,
                          adjacency=board.adjacency,
                          frame=game.ruleset.board.frame)
    except FrameError as e:
        raise GameError(f"{path}: {e}") from None


def write_map(game: Game, out: Path, turn: int | None = None, view: str = "public",
              width: int = FORUM_WIDTH, *, coordinates: bool = False,
              orders: bool = False) -> Path:
    """Write the map to ``out`` (``.svg``, ``.png`` ``width`` pixels wide, or ``.geojson``, by
    its suffix) and return the path; ``coordinates`` prints each named hex's coordinates on a
    hex map; ``orders`` draws the turn's orders on the map before it (SVG and PNG)."""
    suffix = out.suffix.lower()
    if suffix not in SUFFIXES:
        raise GameError(f"{out}: write the map as .svg, .png or .geojson")
    if suffix == ".geojson" and orders:
        raise GameError("--orders: the orders are drawn on a picture (.png or .svg), not "
                        "written to GeoJSON")
    if suffix == ".geojson":
        data = map_geojson(game, turn, view)
        atomic_write(out, (json.dumps(data, ensure_ascii=False) + "\n").encode("utf-8"))
        return out
    svg = map_svg(game, turn, view, coordinates=coordinates, orders=orders)
    if suffix == ".svg":
        atomic_write(out, svg.encode("utf-8"))
    else:
        try:
            atomic_write(out, svg_png(svg, width))
        except ValueError as e:
            raise GameError(f"--width {width}: {e}") from None
    return out
