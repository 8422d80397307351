"""The games gmkit runs, one subpackage each. Importing this lets the core's registry import a
ruleset when it is first asked for: by its name, only that one (the ``gmkit`` command loads
just the ruleset its game names); by an alias, or for the list of names, all of them.

A game kept outside gmkit joins the same way: a package installed with an entry point in the
group ``gmkit.rulesets`` (``[project.entry-points."gmkit.rulesets"] mygame = "mygame"``), or,
while it is written, a module named in the environment variable ``GMKIT_RULESETS`` (a comma
between several); importing it registers its ruleset (``@register``)."""

import importlib
import importlib.metadata
import importlib.util
import os
import pkgutil

from gmkit.core.ruleset import add_loader, find_ruleset, registered

__all__ = ["find_ruleset", "registered"]


def _load(name: str | None) -> None:
    """Import the ruleset package ``name`` if there is one; every one for None (the games
    kept outside gmkit too)."""
    if name is None:
        for found in pkgutil.iter_modules(__path__):
            if found.ispkg:
                importlib.import_module(f"{__name__}.{found.name}")
        _load_outside()
    elif name.isidentifier() and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        importlib.import_module(f"{__name__}.{name}")


def _load_outside() -> None:
    """Import the games kept outside gmkit: the modules ``GMKIT_RULESETS`` names, then the
    ``gmkit.rulesets`` entry points of the installed packages."""
    named = os.environ.get("GMKIT_RULESETS", "").split(",")
    for module in filter(None, (m.strip() for m in named)):
        importlib.import_module(module)
    for point in importlib.metadata.entry_points(group="gmkit.rulesets"):
        point.load()


add_loader(_load)
