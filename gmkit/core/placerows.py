"""What a state says of each place of its board, as a ruleset declares it
(:class:`~gmkit.core.parts.PlaceTable`): the properties every feature of the map's GeoJSON
export carries, read from the state's tables (as the viewer sees them), so a GIS tool reads the
state the map shows, not only its colours."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from datetime import date, datetime
from typing import Any

from gmkit.core.boards.hexgrid import Hex
from gmkit.core.parts import PlaceTable
from gmkit.core.tables import State

__all__ = ["declared_places", "json_value"]


def json_value(value: Any) -> Any:
    """A table cell as GeoJSON holds it: a time as ISO 8601 text, a list as a list."""
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    return value


def _place(row: dict[str, Any], key: tuple[str, ...], hexes: bool) -> Hashable:
    if hexes:
        return Hex(int(row[key[0]]), int(row[key[1]]))
    return row[key[0]]


def declared_places(state: State, tables: Sequence[PlaceTable], *, hexes: bool
                    ) -> dict[Hashable, dict[str, Any]]:
    """Each place's properties from the declared ``tables`` of ``state`` (a place is a
    :class:`~gmkit.core.boards.hexgrid.Hex` when ``hexes``, else its name); a table the state
    lacks gives nothing."""
    out: dict[Hashable, dict[str, Any]] = {}
    for spec in tables:
        if spec.table not in state.tables:
            continue
        wanted = [*spec.key, *spec.columns, *([spec.kind] if spec.kind else [])]
        frame = state[spec.table].select(list(dict.fromkeys(wanted)))
        for row in frame.iter_rows(named=True):
            if any(row[k] is None for k in spec.key):
                continue
            props = out.setdefault(_place(row, spec.key, hexes), {})
            values = {c: json_value(row[c]) for c in spec.columns}
            if spec.many:
                props.setdefault(spec.many, []).append(values)
            else:
                props.update(values)
                if spec.kind:
                    props["kind"] = row[spec.kind]
    return out
