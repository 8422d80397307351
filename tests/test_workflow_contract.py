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
        assert rs.presentation.subject in standings.columns
        colours = rs.presentation.colours(game.state(), game.rules)
        assert all(isinstance(c, str) and c for c in colours.values())
        headline = rs.presentation.headline
        if headline is not None:
            assert headline.column in standings.columns


#: The workflow's packages from the bottom up: a module imports only from its own package or a
#: lower one (gmkit.history, gmkit.charts and gmkit.sql are names of gmkit.publish's modules).
LAYERS = {"__init__.py": 0, "game": 1, "publish": 2, "sweeps": 2, "history.py": 2.5,
          "charts.py": 2.5, "sql.py": 2.5,
          "desk": 3, "cli": 4}


def _imported(module: str) -> set[str]:
    """Every gmkit module a workflow module imports, wherever the import stands."""
    path = ROOT / "gmkit" / module
    tree = ast.parse(path.read_text("utf-8"))
    package = ".".join(("gmkit", *Path(module).with_suffix("").parts[:-1]))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package.split(".")[:len(package.split(".")) - node.level + 1],
                                 *([base] if base else [])])
            out |= {base} | {f"{base}.{a.name}" for a in node.names}
    return {m for m in out if m.startswith("gmkit")}


@pytest.mark.parametrize("module", WORKFLOW)
def test_workflow_imports_run_one_way_and_name_no_ruleset(module: str) -> None:
    """A workflow module imports the core, the rulesets' registry and its own or a lower
    workflow package, never a ruleset's own modules (it asks the registry) nor a package above
    it (the game folder's package is imported by publishing and the desk, never the reverse)."""
    own = LAYERS[Path(module).parts[0]]
    for name in _imported(module):
        parts = name.split(".")
        if parts[1] == "rulesets":
            assert len(parts) == 2 or parts[2] in ("find_ruleset", "registered"), \
                f"{module} imports the ruleset module {name}"
            continue
        if parts[1] == "core":
            continue
        if not (ROOT / "gmkit" / parts[1]).is_dir():
            top = f"{parts[1]}.py"
        else:
            top = parts[1]
        if top == Path(module).parts[0]:
            continue
        assert top in LAYERS and LAYERS[top] <= own and not (
            LAYERS[top] == own and top in ("publish", "sweeps")), \
            f"{module} imports {name}, above or beside it"


def test_the_import_check_meets_every_workflow_package() -> None:
    """The check above reads the imports of every workflow package (it met the case it is
    about): each package's modules import something of gmkit."""
    met = {Path(m).parts[0] for m in WORKFLOW if _imported(m)}
    assert set(LAYERS) - {"__init__.py"} <= met, sorted(set(LAYERS) - met)
