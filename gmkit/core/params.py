"""Rules as data: a ruleset's numbers and options, each with its rule section and meaning.

A ruleset declares a table of :class:`Param`; a game's ``game.toml`` may override any of them under
``[rules]`` (house rules). Where a rule's text is ambiguous, the literal reading is the default and
the alternative is a named choice of an option.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any


class ParamError(ValueError):
    """An unknown rule name or a value of the wrong kind, or outside its range, in a game's
    overrides."""


#: The largest magnitude any rule value may have (a range's bound never exceeds it).
LIMIT = 10**9


@dataclass(frozen=True)
class Param:
    """One rule constant or option, with the values it takes: ``choices``, or for a number the
    range ``low`` to ``high`` (both included), or for a text the ``check`` that says what is
    wrong with one (None when it is fine). A flag (True or False) takes either."""

    name: str
    default: Any
    rule: str
    meaning: str
    choices: tuple[Any, ...] | None = None
    low: int | float | None = None
    high: int | float | None = None
    check: Callable[[str], str | None] | None = None

    @property
    def kind(self) -> str:
        """What the rule takes, as a GM reads it: its choices, its range or its kind."""
        if self.choices is not None:
            return "one of " + ", ".join(map(repr, self.choices))
        if isinstance(self.default, bool):
            return "true or false"
        if isinstance(self.default, (int, float)):
            whole = "a whole number" if isinstance(self.default, int) else "a number"
            return f"{whole} from {_num(self.low, -LIMIT)} to {_num(self.high, LIMIT)}"
        return "a text"

    def problem(self, value: Any) -> str | None:
        """What is wrong with ``value`` for this rule, naming the rule and the values it takes
        (None when the rule takes it)."""
        bad = f"rule '{self.name}' must be {self.kind}, not {value!r}"
        if self.choices is not None:
            return None if value in self.choices and type(value) in map(type, self.choices) \
                else bad
        if isinstance(self.default, bool):
            return None if isinstance(value, bool) else bad
        if isinstance(self.default, (int, float)):
            number = (int, float) if isinstance(self.default, float) else (int,)
            if isinstance(value, bool) or not isinstance(value, number) or value != value:
                return bad
            low = -LIMIT if self.low is None else self.low
            high = LIMIT if self.high is None else self.high
            return None if low <= value <= high else bad
        if not isinstance(value, str) or len(value) > 200:
            return f"rule '{self.name}' must be a text of at most 200 characters, not {value!r}"
        found = self.check(value) if self.check is not None else None
        return f"rule '{self.name}': {found}, not {value!r}" if found else None


def iso_time(text: str) -> str | None:
    """A text check: an ISO 8601 time with its zone (``2026-01-01T00:00:00+00:00``)."""
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        return "must be an ISO 8601 time such as 2026-01-01T00:00:00+00:00"
    return None if when.utcoffset() is not None else "must be a time with its zone (+00:00)"


def words_of(words: Iterable[str], *, several: bool = False) -> Callable[[str], str | None]:
    """A text check: one of ``words`` (``several``: a comma-separated list of them)."""
    allowed = tuple(words)

    def check(text: str) -> str | None:
        items = text.split(",") if several else [text]
        if all(item.strip() in allowed for item in items) and text.strip():
            return None
        return ("must be a comma-separated list of " if several else "must be one of ") + \
            ", ".join(allowed)
    return check


def _num(value: int | float | None, default: int) -> str:
    return f"{default if value is None else value:g}" if isinstance(value, float) else \
        str(default if value is None else value)


class Params(Mapping[str, Any]):
    """The rule values in force for one game: defaults with the game's overrides applied.

    A value a rule does not take raises :class:`ParamError`; with ``lenient`` (a game that
    already stores one opens) it is listed in :attr:`problems` instead, by rule name: an unknown
    rule or a value of the wrong kind leaves the default in force, a value outside its range is
    kept (the turns resolved with it replay with it), and no new turn is resolved until it is
    fixed."""

    def __init__(self, table: Iterable[Param], overrides: Mapping[str, Any] | None = None, *,
                 lenient: bool = False):
        self.table = {p.name: p for p in table}
        values = {name: p.default for name, p in self.table.items()}
        #: What is wrong with the overrides (lenient only), by rule name.
        self.problems: dict[str, str] = {}
        for name, value in (overrides or {}).items():
            found: str | None
            if name not in self.table:
                found = f"unknown rule '{name}' (known: {', '.join(sorted(self.table))})"
            else:
                found = self.table[name].problem(value)
            if found is None:
                values[name] = value
                continue
            if not lenient:
                raise ParamError(found)
            self.problems[name] = found
            p = self.table.get(name)
            if p is not None and p.choices is None and _same_kind(p.default, value) and \
                    isinstance(value, (int, float)):
                values[name] = value  # out of range, but the turns it resolved replay with it
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
        """One row per rule: name, value, default, the values it takes, section and meaning
        (for notebooks and docs)."""
        return [{"name": n, "value": self._values[n], "default": p.default, "takes": p.kind,
                 "rule": p.rule, "meaning": p.meaning} for n, p in self.table.items()]

    def refuse_problems(self, where: str) -> None:
        """Raise :class:`ParamError` naming ``where`` and every rule whose value is not taken
        (a lenient table's :attr:`problems`); nothing when all is well."""
        if self.problems:
            raise ParamError(f"{where}: " + "; ".join(self.problems.values())
                             + " (change it with 'gmkit rules GAME --set NAME=VALUE --why ...' "
                             "or restore the default with '--unset NAME')")


def _same_kind(default: Any, value: Any) -> bool:
    """A value of the kind a rule's default is (a number for a number: only its range is
    wrong)."""
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float)) and value == value
    return type(value) is type(default)


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
