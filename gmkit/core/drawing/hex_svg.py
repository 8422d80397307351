"""A :class:`~gmkit.core.drawing.scene.Scene` on a hex board, as a self-contained SVG string.

Hexes are drawn as ONE ``<path>`` per fill colour: the ``d`` of a path holds every hex of that
colour (a move to the hex's first corner, then the same six relative lines for all), built
with polars string columns rather than a Python loop, so a hundred thousand hexes draw in a
fraction of a second. Outlines, arrows, marks and labels follow, in that order, on top; being
few, they are drawn one element each, placed together so that none lies on another
(:mod:`gmkit.core.drawing.overlay`). The viewBox fits the hexes drawn: all hexes of a bounded
board (with half a hex to spare), or on an unbounded board the hexes the scene names and its
``extent`` with one whole ring of their neighbours around them, left blank, so the reader sees
where the known world ends (:func:`unbounded_bounds`).

    svg = hex_svg(board, Scene(kind_fills={"sea": "#a9c9e6"}, labels=(Label(Hex(0, 0), "Rome"),)))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Sequence

import numpy as np
import polars as pl

from gmkit.core.boards.hexframe import neighbours_frame, to_pixel_exprs
from gmkit.core.boards.hexgrid import DIRECTIONS, Hex, HexBoard, Layout, Point
from gmkit.core.drawing.overlay import overlay_svg
from gmkit.core.drawing.scene import Scene
from gmkit.core.drawing.svg_parts import framed_svg, xml_text

__all__ = ["HEX_PX", "HEX_WIDTH", "hex_svg", "share_extent", "unbounded_bounds"]

_GRID = "#4a4a4a"


def _hex_frame(hexes: list[Hex]) -> pl.DataFrame:
    return pl.DataFrame({"q": [h.q for h in hexes], "r": [h.r for h in hexes]},
                        schema={"q": pl.Int64, "r": pl.Int64})


def _extent_only(scene: Scene) -> pl.DataFrame:
    """The hexes of ``scene.extent`` that nothing else in the scene names: taken into the
    picture's extent, not drawn."""
    if not scene.extent:
        return _hex_frame([])
    shown = scene.places(extent=False)
    only = _hex_frame([h for h in dict.fromkeys(scene.extent)
                       if h not in shown and isinstance(h, Hex)])
    if scene.fill_frame is not None:
        only = only.join(_qr(scene.fill_frame), on=["q", "r"], how="anti")
    return only


def _drawn_hexes(board: HexBoard, scene: Scene) -> pl.DataFrame:
    """The hexes to draw (``q``, ``r`` and the board's kind column when it has one)."""
    named = scene.places()
    not_hex = [p for p in named if not isinstance(p, Hex)]
    if not_hex:
        raise ValueError(f"not hexes: {', '.join(map(repr, not_hex[:5]))}")
    hexes: list[Hex] = [p for p in named if isinstance(p, Hex)]
    named_frame = _hex_frame(hexes)
    if board.frame is not None:
        frame = board.frame
        off = named_frame.join(frame, on=["q", "r"], how="anti")
        if scene.fill_frame is not None:
            off = pl.concat([off, _qr(scene.fill_frame).join(frame, on=["q", "r"], how="anti")])
        if off.height:
            shown = ", ".join(f"{q},{r}" for q, r in off.unique(maintain_order=True).rows()[:5])
            raise ValueError(f"hex(es) not on the board: {shown}")
        keep = ["q", "r"] + ([board.kind_column] if board.kind_column in frame.columns else [])
        return frame.select(keep)
    parts = [named_frame.join(_extent_only(scene), on=["q", "r"], how="anti")]
    if scene.fill_frame is not None:
        parts.append(_qr(scene.fill_frame))
    return pl.concat(parts).unique(maintain_order=True)


def _scene_hexes(scene: Scene) -> pl.DataFrame:
    """Every hex ``scene`` names or takes in (``q``, ``r``), its fill frame's too."""
    parts = [_hex_frame([p for p in scene.places() if isinstance(p, Hex)])]
    if scene.fill_frame is not None:
        parts.append(_qr(scene.fill_frame))
    return pl.concat(parts).unique()


def share_extent(scene: Scene, others: Sequence[Scene]) -> Scene:
    """``scene`` taking in every hex the ``others`` show as well (added to its
    :attr:`~Scene.extent`, so they are not drawn in it), so that pictures shown together (a
    turn's before and after) share one extent on an unbounded board."""
    if not others:
        return scene
    extra = (pl.concat([_scene_hexes(o) for o in others]).unique()
             .join(_scene_hexes(scene), on=["q", "r"], how="anti").sort("q", "r"))
    if not extra.height:
        return scene
    return dataclasses.replace(
        scene, extent=(*scene.extent, *(Hex(q, r) for q, r in extra.iter_rows())))


def unbounded_bounds(centres: tuple[float, float, float, float],
                     layout: Layout) -> tuple[float, float, float, float]:
    """The picture's extent (``x0, y0, x1, y1``) on an unbounded board, given the bounding box
    of the centres of the hexes it must show: those hexes and every one of their neighbours,
    whole (a margin of one ring of hexes all around)."""
    origin = layout.to_pixel(Hex(0, 0))
    steps = [layout.to_pixel(d) for d in DIRECTIONS]
    corners = layout.corner_offsets()
    return (centres[0] + min(p.x - origin.x for p in steps) + min(c.x for c in corners),
            centres[1] + min(p.y - origin.y for p in steps) + min(c.y for c in corners),
            centres[2] + max(p.x - origin.x for p in steps) + max(c.x for c in corners),
            centres[3] + max(p.y - origin.y for p in steps) + max(c.y for c in corners))


def _qr(df: pl.DataFrame) -> pl.DataFrame:
    missing = [c for c in ("q", "r") if c not in df.columns]
    if missing:
        raise ValueError(f"fill_frame: missing column(s) {', '.join(missing)}")
    return df.select(pl.col("q").cast(pl.Int64), pl.col("r").cast(pl.Int64))


def _with_fills(hexes: pl.DataFrame, board: HexBoard, scene: Scene) -> pl.DataFrame:
    """``hexes`` with a ``fill`` column, by the scene's priority (see :class:`Scene`)."""
    default = pl.lit(scene.default_fill, dtype=pl.String)
    kind_col = board.kind_column
    if scene.kind_fills and kind_col in hexes.columns:
        fill = (pl.col(kind_col).cast(pl.String).fill_null(board.default_kind)
                .replace_strict(dict(scene.kind_fills), default=default, return_dtype=pl.String))
    elif scene.kind_fills:
        fill = pl.lit(scene.kind_fills.get(board.default_kind, scene.default_fill),
                      dtype=pl.String)
    else:
        fill = default
    out = hexes.select("q", "r", fill.alias("fill"))
    overrides = []
    if scene.fill_frame is not None:
        overrides.append(scene.fill_frame.select(
            pl.col("q").cast(pl.Int64), pl.col("r").cast(pl.Int64), pl.col("fill")))
    if scene.fills:
        overrides.append(pl.DataFrame(
            {"q": [h.q for h in scene.fills], "r": [h.r for h in scene.fills],  # type: ignore[attr-defined]
             "fill": list(scene.fills.values())},
            schema={"q": pl.Int64, "r": pl.Int64, "fill": pl.String}))
    for over in overrides:
        over = over.unique(["q", "r"], keep="last", maintain_order=True).rename({"fill": "_over"})
        out = out.join(over, on=["q", "r"], how="left", maintain_order="left").select(
            "q", "r", pl.coalesce("_over", "fill").alias("fill"))
    return out


def _relative_ring(corners: tuple[Point, ...]) -> str:
    """The six relative lines around a hex from its first corner, closed: ``l..l..z``.

    Offsets are rounded once, symmetrically, so every hex closes on itself."""
    steps = []
    for i in range(1, 6):
        dx = round(corners[i][0] - corners[i - 1][0], 2)
        dy = round(corners[i][1] - corners[i - 1][1], 2)
        steps.append(f"{dx:g} {dy:g}")
    return "l" + " ".join(steps) + "z"


def _edge_corners(layout: Layout) -> list[tuple[int, int]]:
    """For each direction, the two corners of the hex edge facing it."""
    origin = layout.to_pixel(Hex(0, 0))
    corners = layout.corner_offsets()
    out = []
    for d in range(6):
        tx, ty = layout.to_pixel(DIRECTIONS[d])
        vx, vy = tx - origin.x, ty - origin.y
        best = max(range(6), key=lambda i: (corners[i][0] + corners[(i + 1) % 6][0]) * vx
                   + (corners[i][1] + corners[(i + 1) % 6][1]) * vy)
        out.append((best, (best + 1) % 6))
    return out


def _outline_path(hexes: tuple[Hashable, ...], layout: Layout) -> str:
    """The boundary of a group of hexes: the edges whose far side is not in the group."""
    group = pl.DataFrame({"q": [h.q for h in hexes], "r": [h.r for h in hexes]},  # type: ignore[attr-defined]
                         schema={"q": pl.Int64, "r": pl.Int64}).unique()
    edges = neighbours_frame(group).join(group, left_on=["nq", "nr"], right_on=["q", "r"],
                                         how="anti")
    if edges.height == 0:
        return ""
    x, y = to_pixel_exprs(layout)
    centres = edges.select(x.alias("x"), y.alias("y"), "direction")
    corners = np.array(layout.corner_offsets())
    ends = np.array(_edge_corners(layout))
    d = centres["direction"].to_numpy().astype(np.int64)
    cx, cy = centres["x"].to_numpy(), centres["y"].to_numpy()
    a = corners[ends[d, 0]]
    b = corners[ends[d, 1]]
    return "".join(
        f"M{x0:.1f} {y0:.1f}L{x1:.1f} {y1:.1f}"
        for x0, y0, x1, y1 in zip(cx + a[:, 0], cy + a[:, 1], cx + b[:, 0], cy + b[:, 1])
    )


def _coordinates_svg(scene: Scene, layout: Layout) -> str:
    """A transparent hex with its coordinates as a tooltip (``(q, r, s)``) over every hex the
    scene names (filled, labelled or holding a piece), so a reader can find "(-3, 0, 3)" on
    the map; plain hexes get none, so a large board stays a few fill paths."""
    named = [scene.fill_frame.select(pl.col("q").cast(pl.Int64), pl.col("r").cast(pl.Int64))
             ] if scene.fill_frame is not None else []
    places = [p for p in scene.places() if isinstance(p, Hex)]
    if places:
        named.append(pl.DataFrame({"q": [h.q for h in places], "r": [h.r for h in places]},
                                  schema={"q": pl.Int64, "r": pl.Int64}))
    if not named:
        return ""
    hexes = pl.concat(named).unique(maintain_order=True).join(
        _extent_only(scene), on=["q", "r"], how="anti")  # the extent alone shows nothing
    corners = layout.corner_offsets()
    x, y = to_pixel_exprs(layout)
    ring = _relative_ring(corners)
    rows = hexes.select(pl.concat_str(
        pl.lit('<path d="M'), (x + corners[0][0]).round(1).cast(pl.String), pl.lit(" "),
        (y + corners[0][1]).round(1).cast(pl.String), pl.lit(ring), pl.lit('"><title>('),
        pl.col("q").cast(pl.String), pl.lit(", "), pl.col("r").cast(pl.String), pl.lit(", "),
        (-pl.col("q") - pl.col("r")).cast(pl.String), pl.lit(")</title></path>")).alias("svg"))
    out = ('<g data-layer="coordinates" fill="#ffffff" fill-opacity="0">'
           + "".join(rows["svg"].to_list()) + "</g>")
    if scene.coordinates:  # printed small at the foot of each hex, under its label and pieces
        size = max(layout.size)
        text = hexes.select(pl.concat_str(
            pl.lit('<text x="'), x.round(1).cast(pl.String), pl.lit('" y="'),
            (y + size * 0.72).round(1).cast(pl.String), pl.lit('">'),
            pl.col("q").cast(pl.String), pl.lit(","), pl.col("r").cast(pl.String), pl.lit(","),
            (-pl.col("q") - pl.col("r")).cast(pl.String), pl.lit("</text>")).alias("svg"))
        out += (f'<g data-layer="coordinate-text" font-size="{size * 0.26:.2f}" '
                'text-anchor="middle" fill="#333333" font-family="sans-serif">'
                + "".join(text["svg"].to_list()) + "</g>")
    return out


#: the widest a hex map is drawn, and the widest a hex in it, in pixels, unless told otherwise
HEX_WIDTH, HEX_PX = 800.0, 36.0


def hex_svg(
    board: HexBoard,
    scene: Scene,
    layout: Layout | None = None,
    *,
    width: float | None = HEX_WIDTH,
    grid: str | None = _GRID,
    max_hex_px: float = HEX_PX,
) -> str:
    """``scene`` drawn on ``board`` as an SVG document.

    Args:
        board: the hex board; a bounded board draws all its hexes, an unbounded one the hexes
            the scene names (its ``extent`` is taken in, with a ring of one hex around, but
            not drawn).
        scene: what to draw.
        layout: orientation, hex size and origin (default: pointy, size 10).
        width: the widest the SVG may be, in pixels (``None`` for the natural size); a small
            map is drawn narrower, no hex wider than ``max_hex_px``. The height follows.
        grid: colour of the hex borders, ``None`` for none.

    Raises:
        ValueError: a place that is not a hex, or a hex that is not on a bounded board.
    """
    layout = layout or Layout()
    if grid is not None:
        from gmkit.core.drawing.colours import check_colour

        check_colour(grid)
    hexes = _with_fills(_drawn_hexes(board, scene), board, scene)
    corners = layout.corner_offsets()
    size = max(layout.size)
    font = size * 0.8
    out: list[str] = []

    x, y = to_pixel_exprs(layout)
    # the hexes the picture takes in: those drawn and, on an unbounded board, the extent's
    taken = hexes.select("q", "r") if board.bounded else pl.concat(
        [hexes.select("q", "r"), _extent_only(scene)])
    if taken.height:
        bounds = taken.select(x.min().alias("x0"), x.max().alias("x1"),
                              y.min().alias("y0"), y.max().alias("y1")).row(0)
    else:
        bounds = (0.0, 0.0, 0.0, 0.0)
    if hexes.height:
        px = hexes.select(x.alias("x"), y.alias("y"), "fill")
        ring = _relative_ring(corners)
        start = pl.concat_str(
            pl.lit("M"), (pl.col("x") + corners[0][0]).round(1).cast(pl.String), pl.lit(" "),
            (pl.col("y") + corners[0][1]).round(1).cast(pl.String), pl.lit(ring))
        classes = (px.group_by("fill", maintain_order=True)
                   .agg(start.str.join("").alias("d"), pl.len().alias("n")))
        stroke = (f' stroke="{grid}" stroke-width="{size * 0.05:.2f}" stroke-linejoin="round"'
                  if grid else "")
        out.append(f'<g data-layer="fills"{stroke}>')
        for fill, d, n in classes.iter_rows():
            out.append(f'<path fill="{fill}" data-fill="{fill}" data-hexes="{n}" d="{d}"/>')
        out.append("</g>")

    dx = max(abs(c[0]) for c in corners)
    dy = max(abs(c[1]) for c in corners)
    if board.bounded:
        margin = size * 0.5
        minx, maxx = bounds[0] - dx - margin, bounds[1] + dx + margin
        miny, maxy = bounds[2] - dy - margin, bounds[3] + dy + margin
    else:
        minx, miny, maxx, maxy = unbounded_bounds(
            (bounds[0], bounds[2], bounds[1], bounds[3]), layout)
    map_w = maxx - minx
    # pixels a unit: the map fills ``width`` unless a hex would then be wider than max_hex_px
    pixels = 1.0 if width is None else min(width / max(map_w, 1e-9), max_hex_px / (2 * dx))
    out.append(_coordinates_svg(scene, layout))

    def anchor(place: Hashable) -> tuple[float, float]:
        return layout.to_pixel(place)  # type: ignore[arg-type]

    for outline in scene.outlines:
        d = _outline_path(outline.places, layout)
        if d:
            dash = (f' stroke-dasharray="{" ".join(f"{v * size / 10:.1f}" for v in outline.dash)}"'
                    if outline.dash else "")
            title = f"<title>{xml_text(outline.title)}</title>" if outline.title else ""
            out.append(f'<path data-layer="outline" d="{d}" fill="none" stroke="{outline.colour}" '
                       f'stroke-width="{outline.width * size / 10:.2f}" stroke-linecap="round"'
                       f"{dash}>{title}</path>")
    marked = {m.place for m in scene.marks}
    token = size * 0.7
    out.append(overlay_svg(
        scene, scene.labels, anchor, font * 0.8, token, (minx, miny, maxx, maxy),
        clear=size * 0.45, arrow_font=font, mark_dy=size * 0.25 if scene.labels else 0.0,
        label_dy=lambda p: -size * 0.45 if p in marked else 0.0))
    return framed_svg(out, (minx, miny, maxx, maxy), scene, px=pixels,
                      aria=scene.title or "hex map")


