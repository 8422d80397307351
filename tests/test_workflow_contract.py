"""The workflow speaks to every ruleset through the core's contract: no workflow module names a
column of a specific ruleset; standings name their subject; colours, the headline chart, the
GM's holdings and links come from the ruleset."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import gmkit.rulesets  # noqa: F401  (registers every ruleset)
from gmkit.core.ruleset import find_ruleset, registered

ROOT = Path(__file__).resolve().parent.parent
#: Every workflow module: all of gmkit's code outside the core and the rulesets.
WORKFLOW = sorted(str(p.relative_to(ROOT / "gmkit")) for p in (ROOT / "gmkit").rglob("*.py")
                  if p.relative_to(ROOT / "gmkit").parts[0] not in ("core", "rulesets"))


def _ruleset_columns() -> set[str]:
    """Every table column of every registered ruleset that is not a generic word."""
    generic = {"id", "name", "player", "turn", "status", "kind", "text", "value", "seq", "title",
               "x", "y", "a", "b",
               # words of the workflow's own tables and formats that a ruleset also uses
               "ended", "winner", "number", "s"}
    cols = {c for name in registered() for schema in find_ruleset(name).schemas.values()
            for c in schema}
    return cols - generic


@pytest.mark.parametrize("module", WORKFLOW)
def test_no_workflow_module_names_a_rulesets_column(module: str) -> None:
    """A workflow module reads a ruleset's tables only through the ruleset: no string literal in
    its code is a column of a ruleset's tables (docstrings and comments may mention them)."""
    tree = ast.parse((ROOT / "gmkit" / module).read_text("utf-8"))
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef,
                                    ast.AsyncFunctionDef))
                  and n.body and isinstance(n.body[0], ast.Expr)
                  and isinstance(n.body[0].value, ast.Constant)}
    named = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
             and isinstance(n.value, str) and id(n) not in docstrings}
    assert not named & _ruleset_columns(), sorted(named & _ruleset_columns())


@pytest.mark.parametrize("name", registered())
def test_standings_name_their_subject_and_colours_come_from_the_ruleset(name: str) -> None:
    """Standings may rank players, houses, characters or factions, and say which; every
    subject's colour comes from the ruleset."""
    from gmkit.game import Game, starting_board
    from gmkit.sweeps.playout import play
    import tempfile

    rs = find_ruleset(name)
    with tempfile.TemporaryDirectory() as d:
        game = play(Game.new(Path(d) / "g", name, rs.example_players(starting_board(rs)[0])), 1,
                    master="contract")
        standings = rs.standings(game.state(), game.rules)
        assert rs.standings_subject in standings.columns
        colours = rs.player_colours(game.state(), game.rules)
        assert all(isinstance(c, str) and c for c in colours.values())
        headline = rs.headline()
        if headline is not None:
            assert headline.column in standings.columns
