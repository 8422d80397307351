"""Graph and hex boards as GeoJSON, with what a scene shows on each place.

A polygon map is exported in longitude and latitude by :mod:`gmkit.core.geoexport`. A graph or
hex board has no place on the Earth: it is drawn here in the board's own plane, which the
FeatureCollection names in ``gmkit_frame``, and :func:`gmkit.core.geoexport.plane_to_rfc7946`
places it in longitude and latitude:

* graph board (``"kind": "graph"``): each place a Point at its ``pos`` with y flipped (x east,
  y north, in the board file's units), each link a LineString between two places;
* hex board (``"kind": "hex"``): each hex a Polygon, pointy-top, of circumradius 1 unit,
  centred at x = √3·(q + r/2), y = −1.5·r (x east, y north), with ``q``, ``r``, ``s``.

Every feature carries what the scene shows on the place (:func:`place_properties`): its fill,
its label, the pieces on it (each with its tooltip, colour and count) and its owner (the
player whose colour fills it), beside what the ruleset gives per place.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from typing import Any

from gmkit.core.boards.graph import GraphBoard
from gmkit.core.boards.hexgrid import Hex, HexBoard
from gmkit.core.drawing.scene import Scene

__all__ = ["graph_geojson", "hex_geojson", "place_properties"]


def place_properties(scene: Scene, colours: Mapping[str, str]) -> dict[Hashable, dict[str, Any]]:
    """What ``scene`` shows on each place it names: ``fill``, ``label``, ``pieces`` and the
    ``owner`` whose colour (in ``colours``, player -> colour) fills it; a piece or fill of a
    colour several players share names none of them (the ruleset's place tables say who)."""
    # a colour names its player only when no other player has it (a faction's members share
    # their faction's): a piece of a shared colour names nobody rather than the wrong one
    holders: dict[str, list[str]] = {}
    for player, colour in colours.items():
        holders.setdefault(colour.lower(), []).append(player)
    owner_of = {colour: players[0] for colour, players in holders.items() if len(players) == 1}
    out: dict[Hashable, dict[str, Any]] = {}
    for place, fill in scene.fills.items():
        props = out.setdefault(place, {})
        props["fill"] = fill
        if fill.lower() in owner_of:
            props["owner"] = owner_of[fill.lower()]
    for label in scene.labels:
        out.setdefault(label.place, {}).setdefault("label", label.text)
    for mark in scene.marks:
        out.setdefault(mark.place, {}).setdefault("pieces", []).append(
            {"piece": mark.piece, "count": mark.count, "colour": mark.colour,
             "who": owner_of.get(mark.colour.lower()), "title": mark.title})
    return out


def _collection(features: list[dict[str, Any]], frame: dict[str, Any]) -> dict[str, Any]:
    return {"type": "FeatureCollection", "gmkit_frame": frame, "features": features}


def graph_geojson(board: GraphBoard, props: Mapping[Hashable, Mapping[str, Any]]
                  ) -> dict[str, Any]:
    """The graph board's places as Points and links as LineStrings, in the board's plane."""
    pos = {p: (place.pos or (0.0, 0.0)) for p, place in board.places.items()}
    features: list[dict[str, Any]] = []
    for pid, place in board.places.items():
        x, y = pos[pid]
        features.append({"type": "Feature", "geometry": {"type": "Point",
                                                         "coordinates": [x, -y]},
                         "properties": {"name": board.place_text(pid), "place": pid,
                                        "kind": place.kind, **props.get(pid, {})}})
    for a, b in board.edges():
        (ax, ay), (bx, by) = pos[a], pos[b]
        features.append({"type": "Feature", "geometry": {
            "type": "LineString", "coordinates": [[ax, -ay], [bx, -by]]},
            "properties": {"link": [a, b]}})
    return _collection(features, {"kind": "graph", "units": "the board file's pos units",
                                  "axes": "x east, y north (pos y flipped)"})


def _corners(q: int, r: int) -> list[list[float]]:
    cx, cy = math.sqrt(3) * (q + r / 2), -1.5 * r
    ring = [[round(cx + math.cos(math.radians(30 + 60 * k)), 4),
             round(cy + math.sin(math.radians(30 + 60 * k)), 4)] for k in range(6)]
    return [*ring, ring[0]]


def hex_geojson(board: HexBoard, scene: Scene, props: Mapping[Hashable, Mapping[str, Any]]
                ) -> dict[str, Any]:
    """The hexes a drawing of ``scene`` shows (all of a bounded board's; the scene's on an
    unbounded one) as Polygons in the hex plane, each with its coordinates."""
    hexes: dict[tuple[int, int], Hex] = {}
    if board.frame is not None:
        hexes.update({(q, r): Hex(q, r) for q, r in board.frame.select("q", "r").iter_rows()})
    if scene.fill_frame is not None:
        hexes.update({(int(q), int(r)): Hex(int(q), int(r))
                      for q, r in scene.fill_frame.select("q", "r").iter_rows()})
    hexes.update({(h.q, h.r): h for h in scene.places() if isinstance(h, Hex)})
    fills = ({(int(q), int(r)): f for q, r, f in scene.fill_frame.select("q", "r", "fill")
              .iter_rows()} if scene.fill_frame is not None else {})
    features = []
    for (q, r), h in sorted(hexes.items()):
        extra = dict(props.get(h, {}))
        if "fill" not in extra and (q, r) in fills:
            extra["fill"] = fills[(q, r)]
        features.append({"type": "Feature",
                         "geometry": {"type": "Polygon", "coordinates": [_corners(q, r)]},
                         "properties": {"q": q, "r": r, "s": -q - r,
                                        "kind": board.place_kind(h), **extra}})
    return _collection(features, {"kind": "hex", "orientation": "pointy",
                                  "hex_radius": 1.0,
                                  "centre": "x = sqrt(3) * (q + r / 2), y = -1.5 * r",
                                  "axes": "x east, y north"})
