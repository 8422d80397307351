"""The games gmkit runs, one subpackage each. Importing this lets the core's registry import a
ruleset when it is first asked for: by its name, only that one (the ``gmkit`` command loads
just the ruleset its game names); by an alias, or for the list of names, all of them."""

import importlib
import importlib.util
import pkgutil

from gmkit.core.ruleset import add_loader, find_ruleset, registered

__all__ = ["find_ruleset", "registered"]


def _load(name: str | None) -> None:
    """Import the ruleset package ``name`` if there is one; every one for None."""
    if name is None:
        for found in pkgutil.iter_modules(__path__):
            if found.ispkg:
                importlib.import_module(f"{__name__}.{found.name}")
    elif name.isidentifier() and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        importlib.import_module(f"{__name__}.{name}")


add_loader(_load)
