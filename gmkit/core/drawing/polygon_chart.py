"""Polygon boards as Altair charts, for notebooks: each region a geoshape (identity projection,
north up) in its fill colour, with its name and any extra fields as a tooltip.

The static SVG drawing is :mod:`gmkit.core.drawing.polygon_svg`; this module only builds the
interactive chart.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.drawing.colours import check_colour
from gmkit.core.drawing.polygon_svg import KIND_FILLS

if TYPE_CHECKING:  # pragma: no cover - only for type checkers
    import altair

__all__ = ["polygon_chart"]

_STROKE = "#4a4a4a"


def polygon_chart(
    board: PolygonBoard,
    fills: Mapping[str, str] | None = None,
    tooltip: Mapping[str, Mapping[str, Any]] | None = None,
    title: str | None = None,
) -> altair.Chart:
    """``board`` as an Altair chart (geoshapes with an identity projection).

    Args:
        board: the polygon board.
        fills: colour per region name; unnamed regions get their kind's colour
            (:data:`~gmkit.core.drawing.polygon_svg.KIND_FILLS`).
        tooltip: extra tooltip fields per region name, e.g.
            ``{"Tróys": {"owner": "Ann", "troops": 3}}``; every field
            named anywhere is shown for every region.
        title: the chart's title.

    Raises ``ValueError`` for an unsafe colour or an unknown region.
    """
    import altair as alt

    fills = dict(fills or {})
    tooltip = {
        name: {str(k): v for k, v in extra.items()} for name, extra in (tooltip or {}).items()
    }
    for what, names in (("fills", fills), ("tooltip", tooltip)):
        unknown = [n for n in names if n not in board.regions]
        if unknown:
            raise ValueError(f"{what}: unknown region(s) {', '.join(map(repr, unknown))}")
    for colour in fills.values():
        check_colour(colour)
    # Extra fields get neutral keys so that any field name (dots, quotes,
    # brackets) is safe; the real name is shown as the tooltip's title.
    fields: list[str] = []
    for extra in tooltip.values():
        for key in extra:
            if key not in fields:
                fields.append(key)
    keys = {f: f"field{k}" for k, f in enumerate(fields)}

    values = []
    for feature in board.features():
        props = feature["properties"]
        name, kind = props["name"], props["kind"]
        fill = fills.get(name) or KIND_FILLS[kind]
        new_props: dict[str, Any] = {"name": name, "kind": kind, "fill": fill}
        for key, value in tooltip.get(name, {}).items():
            if value is not None and not isinstance(value, (str, int, float, bool)):
                value = str(value)
            new_props[keys[key]] = value
        values.append({**feature, "properties": new_props})

    minx, miny, maxx, maxy = board.bounds
    width = 600
    height = round(width * (maxy - miny) / max(maxx - minx, 1e-12))
    tips = [alt.Tooltip("properties.name:N", title="name")]
    for f in fields:
        numeric = all(
            isinstance(extra[f], (int, float)) and not isinstance(extra[f], bool)
            for extra in tooltip.values()
            if f in extra and extra[f] is not None
        )
        field_ = f"properties.{keys[f]}"
        tips.append(
            alt.Tooltip(field_, type="quantitative", title=f)
            if numeric
            else alt.Tooltip(field_, type="nominal", title=f)
        )
    chart = (
        alt.Chart(alt.Data(values=values))
        .mark_geoshape(stroke=_STROKE, strokeWidth=0.6)
        .encode(color=alt.Color("properties.fill:N", scale=None), tooltip=tips)
        .project(type="identity", reflectY=True)
        .properties(width=width, height=height)
    )
    if title:
        chart = chart.properties(title=title)
    return chart
