"""What a ruleset declares as data, and the one context its hooks receive.

A ruleset (:class:`gmkit.core.ruleset.Ruleset`) implements six hooks (set up, parse a post,
validate orders, the steps, the outcome, the standings); each receives one :class:`Context`.
Everything else it offers is declared as data, the way a python-chess variant declares its
starting position or a boardgame.io game its ``playerView``: which board it plays on
(:class:`BoardSpec`), what each viewer may see (:class:`Views`), how it is shown
(:class:`Presentation`), how players come and go and rules change (:class:`LifeCycle`), what
chat exports it reads (:class:`Importer`). A part a ruleset does not declare has a default
that does nothing. The functions a part holds are plain functions of the ruleset's modules,
never methods: a part is a table of what the game offers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from gmkit.core.boards import Board, BoardKind
from gmkit.core.params import Params
from gmkit.core.players import PlayerInfo
from gmkit.core.tables import State
from gmkit.core.views import STANDINGS, OwnerOf, Private, PrivateRows

if TYPE_CHECKING:
    from gmkit.core.drawing.orders import DrawnOrders
    from gmkit.core.drawing.scene import Scene
    from gmkit.core.envelope import Orders
    from gmkit.core.intake import Imported, Intake
    from gmkit.core.orders import ParseResult
    from gmkit.core.steps import Event


class Context:
    """What every hook receives besides the state: the rules in force, the game's board, the
    turn being played (the coming one while orders come in), and the players it is played with.

    A test or a scenario makes one from rules alone (``Context(rules)``); the workflow makes it
    from the game folder (:meth:`gmkit.game.Game.context`), with the board read from the folder
    when a hook first asks for it (``load_board``), so a command that never looks at the board
    never reads it."""

    __slots__ = ("rules", "turn", "players", "_board", "_load")

    def __init__(self, rules: Params, board: Board[Any] | None = None, turn: int = 0,
                 players: tuple[PlayerInfo, ...] = (), *,
                 load_board: Callable[[], Board[Any] | None] | None = None) -> None:
        self.rules = rules
        self.turn = turn
        self.players = tuple(players)
        self._board = board
        self._load = load_board if board is None else None

    @property
    def board(self) -> Board[Any] | None:
        """The game's board (read when first asked for)."""
        if self._load is not None:
            self._board, self._load = self._load(), None
        return self._board

    def with_rules(self, rules: Params) -> Context:
        """This context with other rules in force (a rule enacted in the middle of a turn)."""
        out = Context(rules, self._board, self.turn, self.players, load_board=self._load)
        return out

    def __repr__(self) -> str:
        return f"Context(turn={self.turn}, players={[p.id for p in self.players]})"


@dataclass(frozen=True)
class Headline:
    """The standings column a summary charts per subject, and its words (with the columns the
    tooltip shows)."""

    column: str
    label: str
    tooltip: tuple[str, ...] = ()


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


@dataclass(frozen=True)
class BoardSpec:
    """The board a ruleset plays on.

    ``kind``: "polygon", "graph" or "hex". ``packaged``: the board it ships, as a resource path
    relative to its package (``"board/cien.geojson"``); a new game keeps a copy, so every turn's
    manifest records it; the GM may give their own (``gmkit new --map``). ``default``: the board
    of a game whose folder holds no board file (an unbounded hex grid). ``check``: every reason
    the rules cannot be played on a board, each naming the place at fault (``Game.new`` refuses
    a board with any). ``frame``: where a polygon map lies on the Earth, for its GeoJSON export
    (see :mod:`gmkit.core.geoexport`)."""

    kind: BoardKind = "polygon"
    packaged: str | None = None
    default: Callable[[], Board[Any]] | None = None
    check: Callable[[Board[Any] | None], list[str]] | None = None
    frame: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Views:
    """What each viewer may see of a state (see :meth:`gmkit.core.ruleset.Ruleset.view`),
    declared once.

    ``hidden``: the hidden state, one declaration each (:class:`~gmkit.core.views.Private`
    columns, :class:`~gmkit.core.views.PrivateRows` rows): what only the GM and a row's owner
    see, or the GM alone. The public sees every state with all of it hidden, a player with
    all of it hidden but their own; the GM sees everything. Declarations on the table
    :data:`STANDINGS` hide the standings' columns the same way (the standings are made from a
    state, not kept in it). ``owner_of``: which owner value is a player's, for the
    declarations that do not say (a house, a faction; by default the player's id).
    ``vacant``: per table, what marks a row that stands for nobody (Cien's free colours, kept
    in its players table for a newcomer to take): a table shown across the turns (the
    history, SQL) lists only the rows that stand for someone (:meth:`occupied`)."""

    hidden: tuple[Private | PrivateRows, ...] = ()
    owner_of: OwnerOf | None = None
    vacant: Mapping[str, pl.Expr] = field(default_factory=dict)

    @property
    def gm_only(self) -> tuple[str, ...]:
        """The standings' columns hidden from the public (a player sees their own row's):
        those of the declarations on :data:`STANDINGS`."""
        return tuple(dict.fromkeys(c for d in self.hidden if isinstance(d, Private)
                                   and d.table == STANDINGS for c in d.columns))

    def occupied(self, table: str, frame: pl.DataFrame) -> pl.DataFrame:
        """``frame``, the ruleset's table ``table``, without the rows that stand for nobody
        (:attr:`vacant`)."""
        rule = self.vacant.get(table)
        return frame if rule is None else frame.filter(rule.fill_null(False).not_())


@dataclass(frozen=True)
class PlaceTable:
    """A state table whose rows say something of the board's places, declared for the map's
    GeoJSON: each place's feature carries ``columns`` of its row, under their names, as the
    viewer sees them. ``key`` names the place: one column (a province, a land) or ``("q",
    "r")`` on a hex grid. ``kind``: the column that is the place's kind (the feature's
    ``kind``). ``many``: a table with several rows a place (the armies in a sector, the
    players on a hex) gives the feature one property of that name, the list of its rows'
    ``columns``; else the table has one row a place."""

    table: str
    key: tuple[str, ...]
    columns: tuple[str, ...]
    kind: str | None = None
    many: str | None = None


@dataclass(frozen=True)
class Presentation:
    """How the workflow shows a game, without knowing its columns.

    ``colours(state, ctx)``: each player's CSS colour, the one palette of maps and charts.
    ``scene(state, ctx)``: what to draw on the game's board. ``orders(state, orders, events,
    ctx)``: how a turn's orders are drawn on the map of the state before it
    (:class:`~gmkit.core.drawing.orders.DrawnOrders`: arrows for orders from one place to
    another, marks for orders that stay on their place, each naming its orders); it is given a
    viewer's state, the orders that viewer may see and the events so far they may see (which
    mark each order as succeeded or failed), and draws from nothing else, so a public map shows
    no secret order. ``describe(order)``: an order in words, read back to its
    player. ``headline``: the standings column a summary charts. ``labels``: words for
    standings columns. ``subject``: whom the standings rank ("player", "house", "character",
    "faction"). ``series``: other subjects the history follows (name -> words) and
    ``subject_table(state, subject, ctx)`` their rows (``entity``, ``player``, numeric
    metrics). ``holdings(state, ctx)``: what each player holds, in words (``player``,
    ``holdings``). ``place_tables``: the state tables whose rows the map's GeoJSON export gives
    each place (:class:`PlaceTable`); ``places(state)``: more of each place for it, which no
    table holds as it is. ``links(state)``: player-supplied links shown with a turn (label, url).
    ``routine(event)``: for an event a reader need not read one by one (an army that stands
    unattacked), the words of its group: a step's listing (``gmkit resolve``, the notebook's
    step) counts each group in one line (:func:`~gmkit.core.steps.condensed`); the reports and
    the stored events keep every one."""

    colours: Callable[[State, Context], dict[str, str]] | None = None
    scene: Callable[[State, Context], Scene | None] | None = None
    orders: Callable[[State, Orders[Any], Sequence[Event], Context], DrawnOrders] | None = None
    describe: Callable[[Any], str] = str
    headline: Headline | None = None
    labels: Mapping[str, str] = field(default_factory=dict)
    subject: str = "player"
    series: Mapping[str, str] = field(default_factory=dict)
    subject_table: Callable[[State, str, Context], pl.DataFrame | None] | None = None
    holdings: Callable[[State, Context], pl.DataFrame | None] | None = None
    places: Callable[[State], dict[str, dict[str, Any]]] | None = None
    place_tables: tuple[PlaceTable, ...] = ()
    links: Callable[[State], list[tuple[str, str]]] | None = None
    routine: Callable[[Event], str | None] | None = None


@dataclass(frozen=True)
class LifeCycle:
    """How players come and go, who is to move, and how rules change in play.

    ``to_move(state)``: who is expected to post for the coming turn. ``example_players(board)``:
    a player list for samples and playouts. ``check_players(players, board)``: every problem of
    a player list before set-up, naming the player and field. ``joins(parsed)``: whether a
    post from a non-player makes them one (Aeternus's rule 2). ``joined(state, before, after,
    ctx)``: the state for the first turn played with players ``after`` when the turn before had
    ``before``. ``enacted(before, after, ctx)``: the rule values a turn's own resolution changed
    (a passed proposal). ``gm_posts``: the GM posts inputs of their own each turn, as
    :data:`GM_POSTER`. ``counted``: which of a player's posts count, ``"all"``, ``"first"`` or
    ``"last"``, or a function of the rules giving one. ``chance``: whether an ordinary turn
    draws at random (False for a game of pure orders). ``place_fields``: the fields of a
    player's entry in ``players.toml`` that name a place of the board (Cien's ``state``),
    matched as orders match names."""

    to_move: Callable[[State], list[str]] | None = None
    example_players: Callable[[Board[Any] | None], list[dict[str, Any]]] | None = None
    check_players: Callable[[Sequence[PlayerInfo], Board[Any] | None], list[str]] | None = None
    joins: Callable[[ParseResult[Any]], bool] | None = None
    joined: Callable[[State, Sequence[PlayerInfo], Sequence[PlayerInfo], Context],
                     State] | None = None
    enacted: Callable[[State, State, Context], list[RuleChange]] | None = None
    gm_posts: bool = False
    counted: str | Callable[[Params], str] = "all"
    chance: bool = True
    place_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Importer:
    """Chat exports a ruleset reads: ``reads`` in words ("DiscordChatExporter JSON, one file
    per channel"); ``read(files, intake)`` the posts they hold (see :mod:`gmkit.core.intake`),
    each author matched to a player through ``intake``; gmkit stores them all or none, an
    importer never stores anything itself."""

    reads: str
    read: Callable[[Sequence[Path], Intake], Imported]


@dataclass(frozen=True)
class Bot:
    """A seeded random player: ``post(state, player, ctx, dice)`` is a post it would send (for
    sample games, playouts and benchmarks), every draw from ``dice``."""

    post: Callable[[State, str, Context, Any], str]


#: Who posts the GM's own inputs of a turn (see :attr:`LifeCycle.gm_posts`).
GM_POSTER = "gm"
