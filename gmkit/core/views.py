"""Who sees what: the one door for hidden information.

A :class:`Viewer` is the GM, the public, or one player. Every output of gmkit (turn reports,
standings, maps, history, the published site) is drawn for a viewer, from the ruleset's view of
the state (:meth:`gmkit.core.ruleset.Ruleset.view`) and from the events, rolls and order posts
that viewer may see, as decided here:

* the GM sees everything;
* a public event, roll or post is seen by everyone;
* a non-public event or roll is seen by the GM and by the player it concerns (its ``player``
  field), and also by the players it is shared with (``shared_with``: both houses of a
  join): a player sees the results of their own secret orders and their own private figures;
* a secret post is seen by the GM and by the player who sent it.

Hidden columns of the state are declared once, as data: :class:`Private` (columns only the GM
and each row's owner see, or only the GM) and :class:`PrivateRows` (rows only the GM and their
owner see), applied for a viewer by :func:`hide_private`.

This module is generic: it never imports a ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from gmkit.core.tables import SchemaError, State

__all__ = [
    "GM",
    "PLAYER",
    "PUBLIC",
    "Private",
    "PrivateRows",
    "Viewer",
    "hide_private",
    "sees",
    "sees_event",
    "sees_post",
    "visible_events",
    "visible_orders",
    "visible_rolls",
]

GM, PUBLIC, PLAYER = "gm", "public", "player"


@dataclass(frozen=True)
class Viewer:
    """Who an output is for: the GM, the public, or one player (``player_id`` names them).

    Made by ``Viewer.gm()``, ``Viewer.public()``, ``Viewer.player("Red")``, or parsed from
    ``"gm"``, ``"public"`` or ``"player:Red"`` (:meth:`parse`; ``str()`` writes it back).
    """

    kind: str
    player_id: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in (GM, PUBLIC, PLAYER):
            raise ValueError(f"a viewer is the GM, the public or a player, not {self.kind!r}")
        if (self.kind == PLAYER) != bool(self.player_id):
            raise ValueError("a player viewer names exactly one player" if self.kind == PLAYER
                             else f"the {self.kind} viewer names no player")

    @classmethod
    def gm(cls) -> Viewer:
        """The game master: sees everything."""
        return cls(GM)

    @classmethod
    def public(cls) -> Viewer:
        """Everyone: sees only what is public."""
        return cls(PUBLIC)

    @classmethod
    def player(cls, player: str) -> Viewer:
        """One player: what the public sees, plus their own secrets."""
        return cls(PLAYER, player)

    @classmethod
    def parse(cls, text: str | Viewer) -> Viewer:
        """A viewer from ``"gm"``, ``"public"`` or ``"player:ID"`` (a Viewer is returned as it
        is); raises ValueError for anything else."""
        if isinstance(text, Viewer):
            return text
        if isinstance(text, str):
            if text in (GM, PUBLIC):
                return cls(text)
            kind, sep, who = text.partition(":")
            if sep and kind == PLAYER and who.strip() == who and who:
                return cls(PLAYER, who)
        raise ValueError(f"view must be 'gm', 'public' or 'player:ID', not {text!r}")

    @property
    def is_gm(self) -> bool:
        return self.kind == GM

    @property
    def is_public(self) -> bool:
        return self.kind == PUBLIC

    @property
    def is_player(self) -> bool:
        return self.kind == PLAYER

    def __str__(self) -> str:
        return f"{PLAYER}:{self.player_id}" if self.kind == PLAYER else self.kind


def sees(viewer: Viewer | str, public: bool, player: str | None = None,
         shared_with: Sequence[str] | None = ()) -> bool:
    """Whether ``viewer`` may see something marked ``public`` that concerns ``player`` (and,
    besides, the players in ``shared_with``)."""
    v = Viewer.parse(viewer)
    if public or v.is_gm:
        return True
    return v.is_player and ((player is not None and player == v.player_id)
                            or v.player_id in (shared_with or ()))


def _field(item: Any, name: str) -> Any:
    return item.get(name) if isinstance(item, Mapping) else getattr(item, name, None)


def sees_event(viewer: Viewer | str, item: Any) -> bool:
    """Whether ``viewer`` may see an event or a roll: anything with ``public`` and ``player``
    (an :class:`~gmkit.core.steps.Event`, a :class:`~gmkit.core.dice.Roll`, a report line or a
    row of the stored log as a mapping)."""
    return sees(viewer, bool(_field(item, "public")), _field(item, "player"),
                _field(item, "shared_with"))


def sees_post(viewer: Viewer | str, player: str, secret: bool) -> bool:
    """Whether ``viewer`` may see an order post of ``player`` (``secret``: sent privately)."""
    return sees(viewer, not secret, player)


def _mine(viewer: Viewer, column: str) -> pl.Expr:
    return (pl.col(column) == viewer.player_id).fill_null(False)


def visible_events(df: pl.DataFrame, viewer: Viewer | str) -> pl.DataFrame:
    """The rows of a stored events frame (with ``public``, ``player`` and ``shared_with``)
    ``viewer`` may see."""
    v = Viewer.parse(viewer)
    if v.is_gm:
        return df
    if v.is_public:
        return df.filter(pl.col("public"))
    mine = _mine(v, "player")
    if "shared_with" in df.columns:
        mine = mine | pl.col("shared_with").list.contains(v.player_id).fill_null(False)
    return df.filter(pl.col("public") | mine)


def visible_rolls(df: pl.DataFrame, viewer: Viewer | str) -> pl.DataFrame:
    """The rows of a stored rolls frame (with ``public``, ``player`` and ``shared_with``)
    ``viewer`` may see."""
    return visible_events(df, viewer)


def visible_orders(df: pl.DataFrame, viewer: Viewer | str) -> pl.DataFrame:
    """The rows of a stored orders frame (with ``secret`` and ``player``) ``viewer`` may see:
    the public sees no secret post, a player sees the public posts and their own secret ones."""
    v = Viewer.parse(viewer)
    if v.is_gm:
        return df
    if v.is_public:
        return df.filter(~pl.col("secret"))
    return df.filter(~pl.col("secret") | _mine(v, "player"))


def blank_columns(tables: Mapping[str, pl.DataFrame], columns: tuple[str, ...],
                  schemas: Mapping[str, Mapping[str, Any]] | None = None
                  ) -> dict[str, pl.DataFrame]:
    """The tables among ``tables`` that hold one of ``columns``, with those columns set to null
    (only the tables that change; ``schemas`` tells which tables hold a column without reading
    them)."""
    out = {}
    for name in tables:
        names = schemas[name] if schemas is not None and name in schemas else tables[name].columns
        hit = [c for c in columns if c in names]
        if hit:
            df = tables[name]
            out[name] = df.with_columns(pl.lit(None, df.schema[c]).alias(c) for c in hit)
    return out


# -- hidden columns and rows, declared -----------------------------------------------------------
#: The name a declaration gives the standings (made from a state, not a table of it) to hide
#: their columns as a table's: ``Private(STANDINGS, "player", ("treasury",))``.
STANDINGS = "standings"
#: Which value(s) of an owner column are a player's own (default: the player's id itself):
#: ``(state, player) -> value``, or a list/set/tuple of values (a house, its characters).
OwnerOf = Callable[[State, str], Any]


@dataclass(frozen=True)
class Private:
    """Columns of ``table`` that only the GM and each row's owner may see: the player whose
    value is in the row's ``owner`` column (``owner_of`` says which value is a player's, here
    or for every declaration in :func:`hide_private`; by default their id). With ``owner``
    None the columns are the GM's alone (:meth:`gm_only`).

    >>> Private("players", "id", ("treasury",))
    Private(table='players', owner='id', columns=('treasury',))
    """

    table: str
    owner: str | None
    columns: tuple[str, ...]
    owner_of: OwnerOf | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "columns", tuple(self.columns))
        if not self.columns:
            raise ValueError(f"Private({self.table!r}): name at least one column to hide")

    @classmethod
    def gm_only(cls, table: str, *columns: str) -> Private:
        """Columns of ``table`` no one but the GM sees, on any row.

        >>> Private.gm_only("players", "mission").owner is None
        True
        """
        return cls(table, None, columns)


@dataclass(frozen=True)
class PrivateRows:
    """Rows of ``table`` that only the GM and their owner (the ``owner`` column; ``owner_of``
    as for :class:`Private`) may see: everyone else sees the table without them. With
    ``owner`` None the table is the GM's alone (everyone else sees it empty). ``shown``
    selects rows everyone sees whoever owns them (a pyramid once built).

    >>> PrivateRows("pyramids", "player", shown=pl.col("built")).owner
    'player'
    """

    table: str
    owner: str | None
    owner_of: OwnerOf | None = field(default=None, compare=False, repr=False)
    shown: pl.Expr | None = field(default=None, compare=False, repr=False)


def _owned(state: State, owner: str | None, viewer: Viewer,
           owner_of: OwnerOf | None) -> pl.Expr:
    if owner is None or not viewer.is_player:
        return pl.lit(False)
    assert viewer.player_id is not None
    mine = viewer.player_id if owner_of is None else owner_of(state, viewer.player_id)
    if isinstance(mine, (list, set, frozenset, tuple)):
        return pl.col(owner).is_in(list(mine)).fill_null(False)
    return (pl.col(owner) == mine).fill_null(False)


def hide_private(state: State, privates: Iterable[Private | PrivateRows],
                 viewer: Viewer | str, *, owner_of: OwnerOf | None = None) -> State:
    """The state as ``viewer`` may see it under ``privates``: for the GM, ``state`` itself;
    for the public, every private column null on every row and every private row gone; for a
    player, the same but on the rows they own (``owner_of`` says which owner value is theirs,
    a house, a faction, for declarations that do not say; by default their id). Declarations
    apply in order, each to the table as the ones before left it. Columns keep their types;
    tables the state does not hold are skipped; a private column the table lacks raises
    :class:`SchemaError`.

    >>> s = State(1, {"players": pl.DataFrame({"id": ["Red", "Blue"], "gold": [3, 5]})})
    >>> gold = [Private("players", "id", ("gold",))]
    >>> hide_private(s, gold, "player:Red")["players"]["gold"].to_list()
    [3, None]
    >>> hide_private(s, gold, "public")["players"]["gold"].to_list()
    [None, None]
    """
    v = Viewer.parse(viewer)
    if v.is_gm:
        return state
    changed: dict[str, pl.DataFrame] = {}
    for p in privates:
        if p.table not in state.tables:
            continue
        df = changed.get(p.table, state[p.table])
        mine = _owned(state, p.owner, v, p.owner_of or owner_of)
        if p.owner is not None and p.owner not in df.columns:
            raise SchemaError(f"{p.table}: no owner column {p.owner} to hide rows by")
        if isinstance(p, PrivateRows):
            df = df.filter(mine if p.shown is None else mine | p.shown.fill_null(False))
        else:
            lacking = [c for c in p.columns if c not in df.columns]
            if lacking:
                raise SchemaError(f"{p.table}: no column(s) {', '.join(lacking)} to hide")
            df = df.with_columns(pl.when(mine).then(pl.col(c))
                                 .otherwise(pl.lit(None, df.schema[c])).alias(c)
                                 for c in p.columns)
        changed[p.table] = df
    return State(state.turn, {**state.tables, **changed}) if changed else state
