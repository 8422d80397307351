"""The small interface every ruleset offers, and the registry that finds one by name or alias.

A ruleset is a subclass of :class:`Ruleset` living in ``gmkit/rulesets/<game>/``. The core only
knows this interface; it never imports a ruleset.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

import polars as pl

from gmkit.core.boards import Board, BoardKind
from gmkit.core.dice import Dice
from gmkit.core.drawing.scene import Arrow, Scene
from gmkit.core.envelope import Orders
from gmkit.core.orders import OrderError, ParseResult
from gmkit.core.players import PlayerInfo
from gmkit.core.params import Param, Params, apply_rule_changes
from gmkit.core.steps import Event, Outcome, Step
from gmkit.core.tables import Schema, State
from gmkit.core.views import Viewer, blank_columns

if TYPE_CHECKING:
    from gmkit.core.intake import Imported, Intake


@dataclass(frozen=True)
class Headline:
    """The standings column a summary charts per subject, and its words (with the columns the
    tooltip shows)."""

    column: str
    label: str
    tooltip: tuple[str, ...] = ()


#: The version a turn's manifest without one was resolved under (see :attr:`Ruleset.version`).
FIRST_VERSION = "1"


def recorded_version(manifest: Mapping[str, Any]) -> str:
    """The ruleset version a turn's manifest records (:data:`FIRST_VERSION` when none)."""
    return str(manifest.get("ruleset_version", FIRST_VERSION))


#: Who posts the GM's own inputs of a turn (see :attr:`Ruleset.gm_posts`).
GM_POSTER = "gm"


@dataclass(frozen=True)
class RuleChange:
    """A rule value a turn's own resolution changes (a proposal the players passed), in force
    from the next turn on: ``value`` None restores the ruleset's default. ``at_once``: in force
    already for the rest of the turn that enacted it, from the unit after the one that did (a
    rule taking effect "at the end of its voting period", in the middle of a batch)."""

    name: str
    value: Any
    why: str
    at_once: bool = False


#: The type of one order of a ruleset (``Ruleset[CienOrder]``).
O = TypeVar("O")


class Ruleset(ABC, Generic[O]):
    """One game's rules: set-up, orders, resolution steps, outcome and views, typed by the
    ruleset's order type ``O``.

    The board: a ruleset plays on a board of ``board_kind`` (``"polygon"``, ``"graph"`` or
    ``"hex"``): the one it ships, named by ``packaged_board`` (copied into each game folder, so
    a turn's manifest records it), or the GM's own (``gmkit new --map``); a board with no file
    (an unbounded hex grid) comes from :meth:`board`. Every ruleset says what to draw on the
    game's board for a state with one :class:`~gmkit.core.drawing.scene.Scene`
    (:meth:`scene`), its players' colours from one palette (:meth:`player_colours`).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    params: ClassVar[tuple[Param, ...]] = ()
    schemas: ClassVar[Mapping[str, Schema]] = {}
    #: The kind of board the game is played on: "polygon", "graph" or "hex".
    board_kind: ClassVar[BoardKind] = "polygon"
    #: The board the ruleset ships (a polygon map's GeoJSON, a graph board's TOML...), as a
    #: resource path relative to its package (``"board/cien.geojson"``); a new game keeps a
    #: copy of it.
    packaged_board: ClassVar[str | None] = None
    #: Whether the GM posts inputs of their own each turn (the figures of a companion game, say),
    #: as the poster :data:`GM_POSTER`: read by :meth:`parse_post` and :meth:`validate` like a
    #: player's post, with the same line-naming errors, and stored with the turn. The GM is no
    #: player: no standings, no colour, no report of their own.
    gm_posts: ClassVar[bool] = False
    #: Whether an ordinary turn draws at random (False for a game of pure orders whose only
    #: draws break rare ties, such as Pyramid Power Wars).
    chance: ClassVar[bool] = True
    #: Where a polygon map lies on the Earth, for its GeoJSON export in longitude and latitude
    #: (see :mod:`gmkit.core.geoexport`); None: the map file's own frame, else a local one.
    map_frame: ClassVar[Mapping[str, Any] | None] = None

    def rules(self, overrides: Mapping[str, Any] | None = None, *,
              lenient: bool = False) -> Params:
        """The rule values in force, given a game's overrides (``lenient``: a value a rule does
        not take is listed in the table's ``problems`` rather than refused)."""
        return Params(self.params, overrides, lenient=lenient)

    @abstractmethod
    def setup(self, players: Sequence[PlayerInfo], board: Board[Any] | None,
              rules: Params) -> State:
        """The state of turn 0 on ``board``, the game's board of :attr:`board_kind` (the GM's
        own or the one the ruleset ships; a polygon board is a
        :class:`~gmkit.core.boards.polygon.PolygonBoard`, see :func:`~gmkit.core.boards.polygon.polygon_board`). What of
        the board the rules need later belongs in the state, so a GM's own board plays as
        well as the shipped one."""

    @abstractmethod
    def parse_post(self, post: str, player: str, state: State, rules: Params, *,
                   secret: bool = False) -> ParseResult[O]:
        """Read one player's post into typed orders and per-line errors (``secret``: the post was
        private, so what follows from it stays out of public reports)."""

    @abstractmethod
    def validate(self, state: State, orders: Mapping[str, ParseResult[O]],
                 rules: Params) -> dict[str, list[OrderError]]:
        """Every problem of every player's orders against the state, by player, each naming its
        line."""

    @abstractmethod
    def steps(self, rules: Params) -> list[Step]:
        """The ordered resolution steps of a turn."""

    @abstractmethod
    def outcome(self, state: State, rules: Params) -> Outcome | None:
        """The game's outcome, or None while it goes on."""

    @abstractmethod
    def standings(self, state: State, rules: Params) -> pl.DataFrame:
        """One row per player; columns listed in :meth:`gm_only_columns` are hidden publicly."""

    def gm_only_columns(self) -> tuple[str, ...]:
        """Standings columns the public must not see."""
        return ()

    def public_state(self, state: State) -> State:
        """The state with hidden data removed; :meth:`view` uses it for the public."""
        return state

    def view(self, state: State, viewer: Viewer | str) -> State:
        """The state as ``viewer`` may see it: the one door for hidden state data.

        The GM sees ``state``; the public sees :meth:`public_state` with every
        :meth:`gm_only_columns` column blanked (null) in each table that has it; a player sees
        :meth:`player_state`.
        """
        v = Viewer.parse(viewer)
        if v.is_gm:
            return state
        if v.is_public:
            public = self.public_state(state)
            blanked = blank_columns(public.tables, self.gm_only_columns(), self.schemas)
            return State(public.turn, {**public.tables, **blanked}) if blanked else public
        assert v.player_id is not None
        return self.player_state(state, v.player_id)

    def player_state(self, state: State, player: str) -> State:
        """What ``player`` may see: by default the public view; a ruleset adds what its rules
        let a player know of their own (their treasury, their hidden units...)."""
        return self.view(state, Viewer.public())

    def board(self) -> Board[Any] | None:
        """The board of a game whose folder holds no board file (an unbounded
        :class:`~gmkit.core.boards.hexgrid.HexBoard`); None by default (the game's board is
        its copy of :attr:`packaged_board` or of the GM's own)."""
        return None

    def scene(self, state: State, rules: Params) -> Scene | None:
        """What to draw on the game's board for ``state``: fills, labels, pieces, outlines,
        the legend (each colour, symbol and terrain shown) and the kinds of arrows
        :meth:`order_arrows` gives; None for a ruleset that draws no map."""
        return None

    # -- presentation: what the workflow shows, without knowing the ruleset's columns --------------
    #: Whom the standings rank: "player", "house", "character" or "faction".
    standings_subject: ClassVar[str] = "player"

    def place_properties(self, state: State) -> dict[str, dict[str, Any]]:
        """What the state says of each place beyond what the map shows (a province's output,
        its holder), for the map's GeoJSON export; none by default."""
        return {}

    def player_colours(self, state: State, rules: Params) -> dict[str, str]:
        """Each player's colour (CSS), for charts and maps: the one palette the scene's fills,
        pieces and legend take theirs from. None by default."""
        return {}

    def headline(self) -> Headline | None:
        """The standings column a turn's summary charts (None: no chart)."""
        return None

    def metric_labels(self) -> Mapping[str, str]:
        """Words for the standings' columns where the column name is not enough."""
        return {}

    def series_subjects(self) -> Mapping[str, str]:
        """Other subjects the history follows over the turns besides the standings' (Law of the
        Jungle's characters beside its houses): name -> words, e.g. ``{"character":
        "characters"}``. None by default."""
        return {}

    def subject_table(self, state: State, subject: str, rules: Params) -> pl.DataFrame | None:
        """One row per ``subject`` (one of :meth:`series_subjects`) in ``state``, a state
        already viewed for its reader: an ``entity`` column (its name), a ``player`` column
        (whose it is, for colours) and numeric metric columns (null where the viewer may not
        see the value)."""
        return None

    def holdings(self, state: State) -> pl.DataFrame | None:
        """What each player holds, in words (columns ``player``, ``holdings``), for the GM's
        overview; None when the ruleset has nothing to list."""
        return None

    def links(self, state: State) -> list[tuple[str, str]]:
        """Player-supplied links to show with a turn (label, url): a coat of arms, say."""
        return []

    def order_arrows(self, state: State, orders: Orders[O],
                     events: Sequence[Event], rules: Params) -> list[Arrow]:
        """The orders of a turn drawn as arrows on the map of ``state`` (the state before the
        turn); ``events`` are the turn's events so far, to mark each order as succeeded or
        failed once it is decided. None by default."""
        return []

    def odds(self, state: State, orders: Mapping[str, Sequence[O]],
             rules: Params) -> pl.DataFrame:
        """Exact odds of the contested actions the orders set up (empty when none)."""
        return pl.DataFrame()

    def void_now(self, state: State, orders: Mapping[str, Sequence[O]],
                 rules: Params) -> dict[str, list[OrderError]]:
        """Accepted orders that would be void if they resolved on ``state`` as it stands, by
        player, each naming its line and why: shown with a post's preview so that what the
        preview accepts is either carried out or shown void, never rejected (the state may
        change before the order's turn comes). None by default."""
        return {}

    def accepted(self, parsed: Mapping[str, ParseResult[O]],
                 problems: Mapping[str, Sequence[OrderError]]) -> dict[str, list[O]]:
        """The orders that go to resolution: each player's parsed orders minus rejected lines."""
        bad = {player: {p.line for p in errs if p.line is not None}
               for player, errs in problems.items()}
        return {player: [o for line, o in result.orders if line.number not in bad.get(player, set())]
                for player, result in parsed.items()}

    def bot_post(self, state: State, player: str, rules: Params, dice: Dice) -> str:
        """A seeded random player's post (for sample games, playouts and benchmarks); an empty
        post (no orders) unless the ruleset offers a bot."""
        return ""

    def check_players(self, players: Sequence[PlayerInfo], board: Board[Any] | None
                      ) -> list[str]:
        """Every problem of a player list before set-up, each naming the player and the field
        (e.g. ``player 2 'Alice': state 'Coyon' is no state of the map``); none by default."""
        return []

    def check_board(self, board: Board[Any] | None) -> list[str]:
        """Every reason the rules cannot be played on ``board`` (the board a new game is made
        with: the one the ruleset ships, or the GM's own), each naming the place or area at
        fault; none by default. :meth:`Game.new <gmkit.game.Game.new>` refuses a board with
        any."""
        return []

    def example_players(self, board: Board[Any] | None) -> list[dict[str, Any]]:
        """A player list for sample games and conformance playouts."""
        return []

    def joined(self, state: State, before: Sequence[PlayerInfo], after: Sequence[PlayerInfo],
               rules: Params) -> State:
        """The state at the start of the first turn played with the players ``after`` when the
        turn before was played with ``before`` (a player added, replaced or removed with
        ``gmkit players``): a newcomer's first holdings, a leaver's pieces. Unchanged by
        default (Cien's newcomers join with an order instead)."""
        return state

    def enacted(self, before: State, after: State, rules: Params) -> list[RuleChange]:
        """The rule values this turn's resolution changed, from ``before`` to ``after`` (a
        nomic's passed proposal): recorded with the turn and in force from the next one, like
        a GM's ``gmkit rules --set``; those ``at_once`` also for the rest of the turn (asked
        before each unit with the turn's start state and the unit's, so keep it cheap when
        nothing changed). None by default."""
        return []

    def rules_at(self, start: State, state: State, rules: Params) -> Params:
        """The rules in force for the unit of the turn about to resolve from ``state``: the
        turn's ``rules`` with the ``at_once`` changes the turn enacted since ``start``."""
        now = [c for c in self.enacted(start, state, rules) if c.at_once]
        if not now:
            return rules
        return Params(rules.table.values(), apply_rule_changes(
            rules.overrides, [{"kind": "rules", "name": c.name, "value": c.value} for c in now]),
            lenient=bool(rules.problems))

    #: State tables (``None``) and columns (a tuple of names, by table) added to the schemas
    #: after games were written: an older turn reads them as an empty table or a null column,
    #: so a game begun with an earlier gmkit still opens, resolves and verifies.
    added: ClassVar[Mapping[str, tuple[str, ...] | None]] = {}

    #: The version of this ruleset's resolution: changed whenever this gmkit would resolve a
    #: recorded turn differently (a rule fixed, a default changed, a set-up redrawn). Every
    #: turn's manifest records the version it was resolved under (a manifest without one was
    #: resolved under :data:`FIRST_VERSION`); ``docs/changelog.md`` lists each version.
    version: ClassVar[str] = "1"
    #: Older versions this gmkit still resolves, as data: old version -> the rule values that
    #: make today's code resolve a turn as that version did (a fixed rule keeps its old
    #: behaviour behind a named option; the old version maps the option to its old value).
    #: ``verify`` replays a turn of such a version with these values under the turn's own
    #: overrides; a turn of a version neither current nor listed here is reported as resolved
    #: under a version this gmkit no longer has, not as tampered with.
    legacy: ClassVar[Mapping[str, Mapping[str, Any]]] = {}

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

    #: What :meth:`import_posts` reads ("DiscordChatExporter JSON, one file per channel"); None
    #: for a ruleset whose posts are pasted or sent one by one.
    imports: ClassVar[str | None] = None

    def import_posts(self, files: Sequence[Path], intake: Intake) -> Imported:
        """The posts chat exports hold (see :mod:`gmkit.core.intake`): each author matched to a
        player through ``intake``, each post with its posting time and its source (received
        once: a source in ``intake.received`` is not given again). gmkit stores them all, or
        none when the result holds an error; an importer never stores anything itself.

        Raises:
            ValueError: when the ruleset reads no exports.
        """
        raise ValueError(f"{self.title} reads no chat exports: receive each post with "
                         "'gmkit orders'")

    def counted_posts(self, rules: Params) -> str:
        """Which of a player's several posts for a turn count: ``"all"`` (the default), or only
        the ``"first"`` or the ``"last"`` when a rule of the game says so."""
        return "all"

    def joins(self, parsed: ParseResult[O]) -> bool:
        """Whether a post from someone who is not a player makes them one (a message of intent
        to join, as Aeternus's rule 2 has): it is then received under the poster's name, and
        their later posts of the same turn too. False by default: players are listed in
        ``game.toml`` (``gmkit players add``)."""
        return False

    def players_to_move(self, state: State) -> list[str]:
        """Who is expected to post orders for the coming turn."""
        return []

    def describe_order(self, order: O) -> str:
        """An order in words, to read back to the player."""
        return str(order)


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
