"""``players.toml`` as ``gmkit new`` reads it: every mistake of the list in one run, one line
each naming the file, the player and the field; a player's starting state matched as an order
names a province (case, accents, an unambiguous prefix), with "did you mean" when it is close
to one."""

from __future__ import annotations

import tomllib
from pathlib import Path

from click.testing import CliRunner, Result

from gmkit.cli import main


def run(*args: object) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def players_toml(tmp_path: Path, *players: dict[str, str]) -> Path:
    path = tmp_path / "players.toml"
    path.write_text("\n".join("[[players]]\n" + "".join(f'{k} = "{v}"\n' for k, v in p.items())
                              for p in players), "utf-8")
    return path


def cien(pid: str, name: str, state: str, government: str = "duchy") -> dict[str, str]:
    return {"id": pid, "name": name, "state": state, "government": government}


def test_every_mistake_of_a_cien_player_list_is_a_line_of_its_own(tmp_path: Path) -> None:
    """Three players with a mistake each (a colour that is none, a state of no map, a
    government neither a duchy nor a city-state): the three are named in one run, each on a
    line naming the file, the player and the field, and no game is made."""
    path = players_toml(tmp_path, cien("Golden", "Alice", "Coyons"),
                        cien("Gold", "Bob", "Atlantis"),
                        cien("Red", "Carol", "Sevoy", "kingdom"))
    res = run("new", tmp_path / "g", "--ruleset", "cien", "--players", path)
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert lines[0] == f"gmkit: {path}: 3 mistakes, no game was created:", lines
    assert len(lines) == 4, lines
    for line, who, what in zip(lines[1:], ("Alice", "Bob", "Carol"),
                               ("id 'Golden'", "state 'Atlantis'", "government 'kingdom'")):
        assert line.startswith(f"{path}: ") and f"'{who}'" in line and what in line, line
    assert "more problem" not in res.stderr
    assert not (tmp_path / "g").exists()


def test_a_state_is_matched_as_an_order_names_a_province(tmp_path: Path) -> None:
    """A state typed without its accent and in lower case (``troys``), or as an unambiguous
    prefix (``Eclus``), is the province it names, as in an order; game.toml keeps the map's
    spelling."""
    path = players_toml(tmp_path, cien("Red", "Alice", "troys"),
                        cien("Gold", "Bob", "Eclus", "city-state"))
    res = run("new", tmp_path / "g", "--ruleset", "cien", "--players", path)
    assert res.exit_code == 0, res.output
    listed = tomllib.loads((tmp_path / "g" / "game.toml").read_text("utf-8"))["players"]
    assert [p["state"] for p in listed] == ["Tróys", "Éclusaine"]


def test_a_misspelt_state_asks_did_you_mean_and_an_ambiguous_one_lists_the_states(
        tmp_path: Path) -> None:
    """``Troies`` is no state but close to Tróys (did you mean Tróys?); ``Ro`` could be
    Rochebrune or Roquefière: both mistakes are named, each once."""
    path = players_toml(tmp_path, cien("Red", "Alice", "Troies"), cien("Gold", "Bob", "Ro"))
    res = run("new", tmp_path / "g", "--ruleset", "cien", "--players", path)
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()[1:]
    assert len(lines) == 2, res.stderr
    assert "'Alice'" in lines[0] and "state 'Troies'" in lines[0] \
        and "did you mean Tróys?" in lines[0], lines[0]
    assert "'Bob'" in lines[1] and "state 'Ro' could be Rochebrune or Roquefière" in lines[1]


def test_a_field_the_ruleset_does_not_read_as_a_place_is_kept_as_typed(tmp_path: Path) -> None:
    """The example ruleset reads no ``state``: a player's ``state`` that happens to begin like
    a place of its board is stored as typed, never rewritten."""
    path = tmp_path / "players.toml"
    path.write_text('[[players]]\nid = "Red"\nname = "A"\nstate = "for"\n\n'
                    '[[players]]\nid = "Blue"\nname = "B"\n', "utf-8")
    res = run("new", tmp_path / "g", "--ruleset", "example", "--players", path)
    assert res.exit_code == 0, res.output
    listed = tomllib.loads((tmp_path / "g" / "game.toml").read_text("utf-8"))["players"]
    assert listed[0]["state"] == "for"
