"""What the tests that make a board of a game's own share: a small TOML writer, a graph board
or a polygon map with its places renamed, a ruleset's shipped board as text."""

from __future__ import annotations

import json
import tomllib
from typing import Any

from gmkit.core.boards.resources import board_bytes, package_resource, ruleset_package
from gmkit.core.ruleset import find_ruleset


def toml_text(data: dict[str, Any]) -> str:
    """A small TOML writer for the board tables these tests make."""
    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v)
        return "[" + ", ".join(value(x) for x in v) + "]"

    lines = [f"{k} = {value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    for k, v in data.items():
        if not isinstance(v, dict):
            continue
        plain = {sub: entry for sub, entry in v.items() if not isinstance(entry, dict)}
        if plain:
            lines.append(f"\n[{k}]")
            lines += [f"{json.dumps(sub)} = {value(entry)}" for sub, entry in plain.items()]
        for sub, entry in v.items():
            if isinstance(entry, dict):
                lines.append(f"\n[{k}.{json.dumps(sub)}]")
                lines += [f"{kk} = {value(vv)}" for kk, vv in entry.items()]
    return "\n".join(lines) + "\n"


def renamed_graph(text: str, rename: dict[str, str]) -> str:
    """A graph board's TOML with its places renamed everywhere they are named."""
    data = tomllib.loads(text)
    name = lambda p: rename.get(p, p)  # noqa: E731
    places = {name(pid): {**entry, **({"adjacent": [name(a) for a in entry["adjacent"]]}
                                       if "adjacent" in entry else {})}
              for pid, entry in data["places"].items()}
    out: dict[str, Any] = {k: v for k, v in data.items() if k not in ("places", "start_areas")}
    if "edges" in data:
        out["edges"] = [[name(a), name(b)] for a, b in data["edges"]]
    if "start_areas" in data:
        out["start_areas"] = {k: [[name(p) for p in area] for area in v]
                              for k, v in data["start_areas"].items()}
    out["places"] = places
    return toml_text(out)


def packaged_text(ruleset: str) -> str:
    rs = find_ruleset(ruleset)
    assert rs.board.packaged
    return package_resource(ruleset_package(rs), rs.board.packaged).read_text("utf-8")


def renamed_geojson(ruleset: str, rename: dict[str, str]) -> str:
    blob = board_bytes(find_ruleset(ruleset))
    assert blob is not None
    data = json.loads(blob)
    for f in data["features"]:
        f["properties"]["name"] = rename.get(f["properties"]["name"], f["properties"]["name"])
    return json.dumps(data)
