"""Rules as data: a ruleset's numbers and options, each with its rule section and meaning.

A ruleset declares a table of :class:`Param`; a game's ``game.toml`` may override any of them under
``[rules]`` (house rules). Where a rule's text is ambiguous, the literal reading is the default and
the alternative is a named choice of an option.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


class ParamError(ValueError):
    """An unknown rule name or a value of the wrong kind in a game's overrides."""


@dataclass(frozen=True)
class Param:
    """One rule constant or option."""

    name: str
    default: Any
    rule: str
    meaning: str
    choices: tuple[Any, ...] | None = None


class Params(Mapping[str, Any]):
    """The rule values in force for one game: defaults with the game's overrides applied."""

    def __init__(self, table: Iterable[Param], overrides: Mapping[str, Any] | None = None):
        self.table = {p.name: p for p in table}
        values = {name: p.default for name, p in self.table.items()}
        for name, value in (overrides or {}).items():
            if name not in self.table:
                raise ParamError(f"unknown rule '{name}' (known: {', '.join(sorted(self.table))})")
            p = self.table[name]
            if p.choices is not None and value not in p.choices:
                raise ParamError(f"rule '{name}' must be one of {list(p.choices)}, not {value!r}")
            if p.choices is None and type(value) is not type(p.default) and not (
                    isinstance(p.default, float) and isinstance(value, int)):
                raise ParamError(f"rule '{name}' must be a {type(p.default).__name__}, "
                                 f"not {value!r}")
            values[name] = value
        self._values = values
        self.overrides = dict(overrides or {})

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["_values"][name]
        except KeyError:
            raise AttributeError(name) from None

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def describe(self) -> list[dict[str, Any]]:
        """One row per rule: name, value, default, section and meaning (for notebooks and docs)."""
        return [{"name": n, "value": self._values[n], "default": p.default, "rule": p.rule,
                 "meaning": p.meaning} for n, p in self.table.items()]


def apply_rule_changes(rules: Mapping[str, Any], changes: Any) -> dict[str, Any]:
    """``rules`` with the rule changes among ``changes`` applied in order (a change's value None
    restores the ruleset's default); changes of another kind are passed over."""
    out = dict(rules)
    for change in changes if isinstance(changes, list) else []:
        if isinstance(change, dict) and change.get("kind") == "rules":
            if change.get("value") is None:
                out.pop(str(change.get("name")), None)
            else:
                out[str(change.get("name"))] = change.get("value")
    return out
