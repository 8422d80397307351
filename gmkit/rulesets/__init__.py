"""The games gmkit runs, one subpackage each; importing this registers them all."""

from gmkit.core.ruleset import find_ruleset, registered
import gmkit.rulesets.aeternus as aeternus  # noqa: F401
import gmkit.rulesets.aztlan as aztlan  # noqa: F401
import gmkit.rulesets.cien as cien  # noqa: F401
import gmkit.rulesets.example as example  # noqa: F401
import gmkit.rulesets.jungle as jungle  # noqa: F401
import gmkit.rulesets.pyramid as pyramid  # noqa: F401

__all__ = ["find_ruleset", "registered"]
