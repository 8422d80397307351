"""The board a game is made with (the shipped one, or the GM's own with ``gmkit new --map``) is
the board every part of the ruleset sees: set-up, orders, steps, the bot and the map. A game of
every ruleset is made on a board of its own (places renamed) and plays a turn; a board a ruleset
cannot play is refused at ``new`` with the reason."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from gmkit.core.boards.hexgrid import Hex, spiral
from gmkit.core.boards.resources import board_bytes, package_resource, ruleset_package
from gmkit.core.ruleset import find_ruleset, registered
from gmkit.game import Game, GameError, starting_board
from gmkit.sweeps.playout import play
from gmkit.rulesets.jungle.world import CITIES


def _toml(data: dict[str, Any]) -> str:
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


def _renamed_graph(text: str, rename: dict[str, str]) -> str:
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
    return _toml(out)


def _packaged_text(ruleset: str) -> str:
    rs = find_ruleset(ruleset)
    assert rs.board.packaged
    return package_resource(ruleset_package(rs), rs.board.packaged).read_text("utf-8")


def _renamed_geojson(ruleset: str, rename: dict[str, str]) -> str:
    blob = board_bytes(find_ruleset(ruleset))
    assert blob is not None
    data = json.loads(blob)
    for f in data["features"]:
        f["properties"]["name"] = rename.get(f["properties"]["name"], f["properties"]["name"])
    return json.dumps(data)


def _own_board(tmp_path: Path, name: str) -> tuple[Path, str]:
    """A board of the ruleset's own kind written by a GM, and a place name only it has."""
    if name == "example":
        rename = {"Camp": "Base", "West Hill": "Ash Hill", "North Hill": "Oak Hill",
                  "East Hill": "Elm Hill", "Ford": "Bridge"}
        path = tmp_path / "hills.toml"
        path.write_text(_renamed_graph(_packaged_text(name), rename))
        return path, "Oak Hill"
    if name == "pyramid":
        text = _packaged_text(name)
        rename = {p: f"{p} Nome" for p in tomllib.loads(text)["places"]}
        path = tmp_path / "nile.toml"
        path.write_text(_renamed_graph(text, rename))
        return path, next(iter(rename.values()))
    if name == "cien":
        path = tmp_path / "cien.geojson"
        path.write_text(_renamed_geojson(name, {"Brévanne": "Brevania"}))
        return path, "Brevania"
    if name == "aztlan":
        path = tmp_path / "aztlan.geojson"
        path.write_text(_renamed_geojson(name, {"Actopan": "Actopanco"}))
        return path, "Actopanco"
    if name == "jungle":
        hexes = {(h.q, h.r) for _, (q, r), *_ in CITIES for h in spiral(Hex(q, r), 2)}
        path = tmp_path / "valley.csv"
        pl.DataFrame({"q": [q for q, _ in sorted(hexes)], "r": [r for _, r in sorted(hexes)],
                      "kind": ["jungle"] * len(hexes)}).write_csv(path)
        return path, ""
    if name == "aeternus":
        path = tmp_path / "world.toml"
        path.write_text('unbounded = true\ndefault_kind = "indeterminate"\n')
        return path, ""
    raise AssertionError(f"no own board written for {name}")


@pytest.mark.parametrize("name", registered())
def test_a_game_on_a_board_of_its_own_plays_a_turn(tmp_path, name):
    """The GM's own board (places renamed) is the board of the state, the orders, the steps
    and the map: a game made on it plays a turn, verifies, and its map draws it."""
    rs = find_ruleset(name)
    path, own_place = _own_board(tmp_path, name)
    board = starting_board(rs, path)[0]
    assert rs.board.check(board) == []
    game = Game.new(tmp_path / "g", name, rs.example_players(board), map_path=path)
    play(game, 1, master="own board")
    assert game.store.turns()[-1] == 1
    assert game.verify() == []
    svg = game.map_svg(game.state())
    if own_place:
        assert own_place in svg, "the map draws the GM's board"
        state_text = " ".join(str(v) for t in game.state().tables.values()
                              for c in t.columns if t.schema[c] == pl.String
                              for v in t[c].to_list())
        assert own_place in state_text or name == "aztlan", "the state holds the GM's board"


def _refused(tmp_path: Path, name: str, text: str, suffix: str = ".toml") -> str:
    rs = find_ruleset(name)
    path = tmp_path / f"bad{suffix}"
    path.write_text(text)
    with pytest.raises(GameError) as e:
        Game.new(tmp_path / "g", name, rs.example_players(starting_board(rs)[0]),
                 map_path=path)
    assert not (tmp_path / "g").exists(), "nothing half-stored"
    return str(e.value)


def test_pyramid_refuses_start_areas_naming_unknown_or_shared_places(tmp_path):
    """SETUP: each player's start area lies on the board, one area per place."""
    data = tomllib.loads(_packaged_text("pyramid"))
    areas = data["start_areas"]
    areas["2"] = [areas["2"][0], areas["2"][0]]
    areas["3"][0] = ["Atlantis", *areas["3"][0][1:]]
    message = _refused(tmp_path, "pyramid", _toml(data))
    assert "cannot be played on this board" in message
    assert "'Atlantis'" in message and "is also in area 1" in message


def test_pyramid_refuses_a_board_without_start_areas(tmp_path):
    """SETUP: a board of land spaces alone gives the players no start area."""
    data = tomllib.loads(_packaged_text("pyramid"))
    del data["start_areas"]
    assert "no [start_areas] table" in _refused(tmp_path, "pyramid", _toml(data))


def test_jungle_refuses_a_bounded_board_where_the_cities_do_not_fit(tmp_path):
    """LOCATIONS: the Aztec cities and their workable hexes must lie on the board."""
    rows = "\n".join(f"[[hexes]]\nq = {h.q}\nr = {h.r}" for h in spiral(Hex(0, 0), 1))
    message = _refused(tmp_path, "jungle", rows + "\n")
    assert "does not fit" in message and CITIES[-1][0] in message


def test_aeternus_refuses_a_bounded_world(tmp_path):
    """5 - World: the grid is infinite and generated as it is explored."""
    rows = "\n".join(f"[[hexes]]\nq = {h.q}\nr = {h.r}" for h in spiral(Hex(0, 0), 2))
    assert "infinite grid" in _refused(tmp_path, "aeternus", rows + "\n")


def test_three_hills_refuses_a_board_without_a_camp(tmp_path):
    """1. The diggers start at the Camp: a board with no camp cannot start a game."""
    text = _packaged_text("example").replace('kind = "camp"', 'kind = "ford"')
    assert "'camp'" in _refused(tmp_path, "example", text)
