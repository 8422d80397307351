"""The small interface every ruleset offers, and the registry that finds one by name or alias.

A ruleset is a subclass of :class:`Ruleset` living in ``gmkit/rulesets/<game>/``: six hooks,
the rest declared as data (:mod:`gmkit.core.parts`). The core only knows this interface; it
never imports a ruleset.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic, TypeVar

import polars as pl

from gmkit.core.boards import Board
from gmkit.core.dice import Dice
from gmkit.core.envelope import Orders
from gmkit.core.orders import OrderError, ParseResult
from gmkit.core.params import Param, Params, apply_rule_changes
from gmkit.core.parts import (BoardSpec, Bot, Context, Importer, LifeCycle, Presentation,
                              Views)
from gmkit.core.playable import Playable, StateProblem, state_problems
from gmkit.core.steps import Outcome, Step
from gmkit.core.tables import Schema, State
from gmkit.core.views import Viewer, hide_private
from gmkit.core.words import OrderWords


#: The version a turn's manifest without one was resolved under (see :attr:`Ruleset.version`).
FIRST_VERSION = "1"
#: A ruleset version: a whole number from 1, written without leading zeros.
_NUMBER = re.compile(r"[1-9][0-9]*")


def recorded_version(manifest: Mapping[str, Any]) -> str:
    """The ruleset version a turn's manifest records (:data:`FIRST_VERSION` when none)."""
    return str(manifest.get("ruleset_version", FIRST_VERSION))


#: The type of one order of a ruleset (``Ruleset[CienOrder]``).
O = TypeVar("O")

#: Every problem of a turn's orders, by player, each naming its line.
Problems = dict[str, list[OrderError]]


class Ruleset(ABC, Generic[O]):
    """One game's rules, typed by the ruleset's order type ``O``: six hooks, each given one
    :class:`~gmkit.core.parts.Context`, and the rest declared as data.

    The hooks: :meth:`setup`, :meth:`parse_post`, :meth:`validate`, :meth:`steps`,
    :meth:`outcome`, :meth:`standings`; two more where the rules set up contests
    (:meth:`odds`) or let an accepted order turn void (:meth:`void_now`). The data: the rules
    table (:attr:`params`, with its :attr:`version`), the state's :attr:`schemas` and what a
    playable state is (:attr:`playable`), the :attr:`board` it plays on, what each viewer may
    see (:attr:`views`), how it is shown (:attr:`presentation`), how players come and go
    (:attr:`lifecycle`), the chat exports it reads (:attr:`importer`) and its seeded
    :attr:`bot`. See ``docs/adding-a-ruleset.md``.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    #: The rules table: every rule with its default, range and words (``rules.py``).
    params: ClassVar[tuple[Param, ...]] = ()
    #: The state's tables.
    schemas: ClassVar[Mapping[str, Schema]] = {}
    #: What a state the rules can play is, beyond its columns and types (keys, references,
    #: ranges, words, and one cross-row check): see :mod:`gmkit.core.playable`. Checked by
    #: :meth:`state_problems` before a given position or a correction is taken.
    playable: ClassVar[Playable] = Playable()
    #: State tables (``None``) and columns (a tuple of names, by table) added to the schemas
    #: after games were written: an older turn reads them as an empty table or a null column,
    #: so a game begun with an earlier gmkit still opens, resolves and verifies.
    added: ClassVar[Mapping[str, tuple[str, ...] | None]] = {}
    #: The version of this ruleset's resolution: changed whenever this gmkit would resolve a
    #: recorded turn differently (a rule fixed, a default changed, a set-up redrawn). Every
    #: turn's manifest records the version it was resolved under (a manifest without one was
    #: resolved under :data:`FIRST_VERSION`); ``docs/changelog.md`` lists each version.
    version: ClassVar[str] = FIRST_VERSION
    #: Older versions this gmkit still resolves, as data: old version -> the rule values that
    #: make today's code resolve a turn as that version did (a fixed rule keeps its old
    #: behaviour behind a named option; the old version maps the option to its old value).
    #: ``verify`` replays a turn of such a version with these values under the turn's own
    #: overrides.
    legacy: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    #: Older versions this ruleset had and this gmkit can no longer replay: a turn of one that
    #: replays differently is a notice (an upgrade), not tampering. With :attr:`version` and
    #: :attr:`legacy` they are every version the ruleset knows; a turn recording any other is a
    #: problem, or needs a newer gmkit when its version is above the current one.
    retired: ClassVar[tuple[str, ...]] = ()
    #: State columns holding a time as ISO 8601 text with its zone, by table (``{"players":
    #: ("joined",)}``): read as timestamps with their zone where the game is queried (SQL and
    #: its exports), in old turns and new alike.
    times: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    board: ClassVar[BoardSpec] = BoardSpec()
    views: ClassVar[Views] = Views()
    presentation: ClassVar[Presentation] = Presentation()
    lifecycle: ClassVar[LifeCycle] = LifeCycle()
    importer: ClassVar[Importer | None] = None
    #: A seeded random player (None: the ruleset offers none).
    bot: ClassVar[Bot | None] = None
    #: The words its orders are written with (see :mod:`gmkit.core.words`): what tells a
    #: mistyped order from chatter, and what the tests feed its parser to reach its forms.
    words: ClassVar[OrderWords | None] = None

    # -- the hooks -------------------------------------------------------------------------------
    @abstractmethod
    def setup(self, ctx: Context) -> State:
        """The state of turn 0 for ``ctx.players`` on ``ctx.board``, the game's board (the GM's
        own or the one the ruleset ships; a polygon board is a
        :class:`~gmkit.core.boards.polygon.PolygonBoard`). What of the board the rules need
        later belongs in the state, so a GM's own board plays as well as the shipped one."""

    @abstractmethod
    def parse_post(self, post: str, player: str, state: State, ctx: Context, *,
                   secret: bool = False) -> ParseResult[O]:
        """Read one player's post into typed orders and per-line errors (``secret``: the post was
        private, so what follows from it stays out of public reports)."""

    @abstractmethod
    def validate(self, state: State, orders: Orders[O], ctx: Context) -> Problems:
        """Every problem of the turn's orders against the state, by player, each naming its
        line (the envelope's :attr:`~gmkit.core.envelope.Envelope.line`)."""

    @abstractmethod
    def steps(self, ctx: Context) -> list[Step]:
        """The turn's resolution, step by step, each citing its rule."""

    @abstractmethod
    def outcome(self, state: State, ctx: Context) -> Outcome | None:
        """The game's outcome, or None while it goes on."""

    @abstractmethod
    def standings(self, state: State, ctx: Context) -> pl.DataFrame:
        """One row per subject (see :attr:`Presentation.subject`); columns listed in
        :attr:`Views.gm_only` are hidden from all but the GM."""

    def odds(self, state: State, orders: Orders[O], ctx: Context) -> pl.DataFrame:
        """Exact odds of the contested actions the orders set up (empty when none)."""
        return pl.DataFrame()

    def void_now(self, state: State, orders: Orders[O], ctx: Context) -> Problems:
        """Accepted orders that would be void if they resolved on ``state`` as it stands, by
        player, each naming its line and why: shown with a post's preview so that what the
        preview accepts is either carried out or shown void, never rejected (the state may
        change before the order's turn comes). None by default."""
        return {}

    # -- what the core derives from the declarations ----------------------------------------------
    def rules(self, overrides: Mapping[str, Any] | None = None, *,
              lenient: bool = False) -> Params:
        """The rule values in force, given a game's overrides (``lenient``: a value a rule does
        not take is listed in the table's ``problems`` rather than refused)."""
        return Params(self.params, overrides, lenient=lenient)

    def rules_of_version(self, version: str, overrides: Mapping[str, Any] | None = None, *,
                         lenient: bool = False) -> Params | None:
        """The rules a turn resolved under ``version`` with ``overrides`` replays with: the
        overrides alone at the current version, over the version's :attr:`legacy` values at an
        older one this gmkit keeps; None for a version it does not know."""
        if version == self.version:
            return self.rules(overrides, lenient=lenient)
        if version not in self.legacy:
            return None
        return self.rules({**self.legacy[version], **dict(overrides or {})}, lenient=lenient)

    def state_problems(self, state: State, ctx: Context) -> list[StateProblem]:
        """Every reason the rules cannot play ``state`` (a state of :attr:`schemas`), each
        naming its table, row and column: :attr:`playable` as declared, with the core's limits
        on every number (:func:`gmkit.core.playable.state_problems`)."""
        return state_problems(self.playable, state, ctx, self.schemas)

    def version_kind(self, version: str) -> str:
        """What this gmkit knows of a ruleset version a turn records: ``"current"``,
        ``"legacy"`` (an older one it replays exactly, :attr:`legacy`), ``"retired"`` (an older
        one it no longer replays, :attr:`retired`), ``"newer"`` (a number above the current
        version: a newer gmkit resolved the turn) or ``"unknown"`` (one this ruleset never had:
        ``"0"``, ``"abc"``, ``""``)."""
        if version == self.version:
            return "current"
        if version in self.legacy:
            return "legacy"
        if version in self.retired:
            return "retired"
        if _NUMBER.fullmatch(version) and _NUMBER.fullmatch(self.version) \
                and int(version) > int(self.version):
            return "newer"
        return "unknown"

    def known_versions(self) -> str:
        """The versions this ruleset knows, in words (for a message)."""
        return ", ".join([f"{self.version} (current)", *self.legacy,
                          *(f"{v} (retired)" for v in self.retired)])

    def view(self, state: State, viewer: Viewer | str, ctx: Context | None = None) -> State:
        """The state as ``viewer`` may see it: the one door for hidden state data.

        The GM sees ``state``; the public sees it with everything :attr:`Views.hidden`
        declares hidden; a player sees the same but on what they own (see
        :func:`~gmkit.core.views.hide_private`)."""
        v = Viewer.parse(viewer)
        if v.is_gm:
            return state
        return hide_private(state, self.views.hidden, v, owner_of=self.views.owner_of)

    def rules_at(self, start: State, state: State, ctx: Context) -> Params:
        """The rules in force for the unit of the turn about to resolve from ``state``: the
        turn's rules with the ``at_once`` changes the turn enacted since ``start``."""
        enacted = self.lifecycle.enacted
        now = [c for c in enacted(start, state, ctx) if c.at_once] if enacted else []
        rules = ctx.rules
        if not now:
            return rules
        return Params(rules.table.values(), apply_rule_changes(
            rules.overrides, [{"kind": "rules", "name": c.name, "value": c.value} for c in now]),
            lenient=bool(rules.problems))

    def counted_posts(self, rules: Params) -> str:
        """Which of a player's several posts for a turn count: ``"all"``, or only the
        ``"first"`` or the ``"last"`` (:attr:`LifeCycle.counted`)."""
        counted = self.lifecycle.counted
        return counted if isinstance(counted, str) else counted(rules)

    def example_players(self, board: Board[Any] | None) -> list[dict[str, Any]]:
        """A player list for sample games and playouts (:attr:`LifeCycle.example_players`;
        none when the ruleset offers none)."""
        make = self.lifecycle.example_players
        return make(board) if make else []

    def default_board(self) -> Board[Any] | None:
        """The board of a game whose folder holds no board file (:attr:`BoardSpec.default`)."""
        return self.board.default() if self.board.default else None


_REGISTRY: dict[str, type[Ruleset[Any]]] = {}
_R = TypeVar("_R", bound="type[Ruleset[Any]]")


def register(cls: _R) -> _R:
    """Class decorator: make a ruleset findable by its name and aliases."""
    for key in (cls.name, *cls.aliases):
        key = key.casefold()
        if key in _REGISTRY and _REGISTRY[key] is not cls:
            raise ValueError(f"ruleset name '{key}' registered twice")
        _REGISTRY[key] = cls
    return cls


#: Who can import rulesets that are not registered yet: called with a name (or None: all).
_LOADERS: list[Callable[[str | None], None]] = []


def add_loader(load: Callable[[str | None], None]) -> None:
    """Let :func:`find_ruleset` and :func:`registered` import rulesets when first asked:
    ``load(name)`` imports the one so named (if any), ``load(None)`` every one (an alias is
    found by importing them all)."""
    _LOADERS.append(load)


def find_ruleset(name: str) -> Ruleset[Any]:
    """A ruleset instance by name or alias (case-insensitive)."""
    for asked in (name.casefold(), None):
        if name.casefold() in _REGISTRY:
            break
        for load in _LOADERS:
            load(asked)
    try:
        return _REGISTRY[name.casefold()]()
    except KeyError:
        known = sorted({c.name for c in _REGISTRY.values()})
        raise KeyError(f"no ruleset '{name}' (known: {', '.join(known) or 'none'})") from None


def registered() -> list[str]:
    """The names of the registered rulesets."""
    for load in _LOADERS:
        load(None)
    return sorted({c.name for c in _REGISTRY.values()})
