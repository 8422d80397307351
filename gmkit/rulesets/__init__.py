"""The games gmkit runs, one subpackage each; importing this registers them all."""

from gmkit.core.ruleset import find_ruleset, registered
from gmkit.rulesets import aeternus, aztlan, cien, example, jungle, pyramid  # noqa: F401

__all__ = ["find_ruleset", "registered"]
