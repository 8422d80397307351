"""Orders in their envelopes: who sent each order, from which post, when, and whether in secret.

An order class holds only what the order says (``Conquest(province, grain)``); everything about
how it came in is on its :class:`Envelope`: the player, the post's sequence number, the line in
that post, whether the post was secret, when the player posted it (the forum's or Discord's time,
when the GM has it) and when gmkit stored it.

The rules receive a turn's accepted orders as :class:`Orders`, which is at once

* a mapping ``player -> [order, ...]`` (each player's orders in the order they were written),
  which is what most simultaneous-orders games want;
* the envelopes in the order received (:meth:`Orders.received`: by posting time, then post
  number, then line), for games resolved action by action as posted;
* the envelopes of given kinds (:meth:`Orders.of_kind`) and each player's
  (:meth:`Orders.of`), so a step asks an envelope whether its order was secret (its results then
  stay out of public reports) or which line it came from.

Every envelope has a stable identity, its :attr:`Envelope.key` ``(player, post, line, index)``
(``index`` tells apart several orders read from one line), so nothing needs ``id(order)``:
:meth:`Orders.by_key` and :meth:`Orders.only_keys` look envelopes up by key. A per-actor step
whose actors are single actions names each by :meth:`Orders.actor` (``"Amber.3"``: Amber's
third order as written) and finds it again by :meth:`Orders.acting`; no ruleset parses those
names (see :func:`gmkit.core.flow.actions_as_posted`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Any, Generic, TypeVar

from gmkit.core.orders import IllegalOrderError, OrderError, ParseResult

O = TypeVar("O")
T = TypeVar("T")

#: An envelope's identity: ``(player, post, line, index)``.
Key = tuple[str, int, int, int]


@dataclass(frozen=True)
class Envelope(Generic[O]):
    """One accepted order and how it came in."""

    order: O
    player: str
    post: int  # the post's sequence number in the game
    line: int  # the line of the post the order was read from
    secret: bool = False
    posted: str | None = None  # when the player posted it (ISO 8601), if known
    stored: str = ""  # when gmkit stored the post (ISO 8601)
    #: The line's number among the player's lines of the turn: its line in the post for a
    #: single post, unique across a player's several posts (see
    #: :func:`~gmkit.core.orders.merge_posts`). A validator names the line by it.
    number: int = 0
    text: str = ""  # the line as the player wrote it

    def __post_init__(self) -> None:
        if not self.number:
            object.__setattr__(self, "number", self.line)

    def reject(self, reason: str, kind: type[OrderError] | None = None) -> OrderError:
        """The error rejecting this order's line (an :class:`IllegalOrderError` by default)."""
        return (kind or IllegalOrderError)(reason, line=self.number, text=self.text)

    index: int = 0  # which of the orders read from the same line (0: the first)

    @property
    def key(self) -> Key:
        """The envelope's identity in its turn, ``(player, post, line, index)``: stable across
        readings of the same posts, unlike ``id()``.

        >>> Envelope("build", "Red", 12, 3).key
        ('Red', 12, 3, 0)
        """
        return (self.player, self.post, self.line, self.index)

    @property
    def when(self) -> datetime:
        """When the order was posted (else stored), for ordering "as received"; an unreadable
        or missing time sorts first."""
        for stamp in (self.posted, self.stored):
            if stamp:
                try:
                    t = datetime.fromisoformat(stamp)
                except ValueError:
                    continue
                return t if t.tzinfo else t.replace(tzinfo=timezone.utc)
        return datetime.min.replace(tzinfo=timezone.utc)


class Orders(Mapping[str, list[O]]):
    """A turn's accepted orders: a mapping of player to orders, and their envelopes."""

    def __init__(self, envelopes: Iterable[Envelope[O]] = ()):
        # several orders read from one line get indexes 0, 1, ... in the order given, so that
        # every envelope's key is its own (an envelope whose key is free is kept as it is)
        unique: list[Envelope[O]] = []
        taken: set[Key] = set()
        for e in envelopes:
            while e.key in taken:
                e = replace(e, index=e.index + 1)
            taken.add(e.key)
            unique.append(e)
        self._envelopes = tuple(unique)
        self._by_key = {e.key: e for e in self._envelopes}
        self._in_order: dict[Any, tuple[list[Envelope[O]], dict[Key, int]]] = {}
        self._actors: dict[str, Envelope[O]] | None = None
        self._actor_of: dict[Key, str] = {}
        self._derived: dict[str, Any] = {}
        by_player: dict[str, list[O]] = {}
        envelopes_of: dict[str, list[Envelope[O]]] = {}
        for e in self._envelopes:
            by_player.setdefault(e.player, []).append(e.order)
            envelopes_of.setdefault(e.player, []).append(e)
        self._by_player = by_player
        self._envelopes_of = envelopes_of

    @classmethod
    def plain(cls, orders: Mapping[str, Sequence[O]]) -> Orders[O]:
        """Orders with no post behind them (a test, a scenario): each in an envelope of its
        player, post 0, line by position."""
        if isinstance(orders, Orders):
            return orders
        return cls(Envelope(o, player, 0, i + 1) for player, os in orders.items()
                   for i, o in enumerate(os))

    @classmethod
    def parsed(cls, results: Mapping[str, ParseResult[O]]) -> Orders[O]:
        """The orders of parsed posts, one post per player (a test, a preview): each in an
        envelope of its player, post 0, its line."""
        return cls(Envelope(o, player, 0, line.number, text=line.text)
                   for player, result in results.items() for line, o in result.orders)

    # -- the mapping: player -> orders -----------------------------------------------------------
    def __getitem__(self, player: str) -> list[O]:
        return self._by_player[player]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_player)

    def __len__(self) -> int:
        return len(self._by_player)

    def __repr__(self) -> str:
        return f"Orders({len(self._envelopes)} order(s) of {len(self)} player(s))"

    # -- envelopes -------------------------------------------------------------------------------
    @property
    def envelopes(self) -> tuple[Envelope[O], ...]:
        """Every envelope, each player's in the order written."""
        return self._envelopes

    def of(self, player: str) -> list[Envelope[O]]:
        """One player's envelopes, in the order written."""
        return list(self._envelopes_of.get(player, ()))

    def received(self, when: Callable[[Envelope[O]], datetime] | None = None
                 ) -> list[Envelope[O]]:
        """Every envelope as received: by posting time (storing time when the posting time is
        unknown), then post number, then line. ``when`` gives an envelope's time instead of
        :attr:`Envelope.when` (a line that carries its own time); the order is worked out once
        per ``when`` function.

        >>> orders = Orders([Envelope("b", "Red", 2, 1), Envelope("a", "Blue", 1, 1)])
        >>> [e.order for e in orders.received()]
        ['a', 'b']
        """
        return list(self._ordered(when)[0])

    def _ordered(self, when: Callable[[Envelope[O]], datetime] | None
                 ) -> tuple[list[Envelope[O]], dict[Key, int]]:
        got = self._in_order.get(when)
        if got is None:
            time = when or (lambda e: e.when)
            ordered = sorted(self._envelopes, key=lambda e: (time(e), e.post, e.line, e.index))
            got = self._in_order[when] = (ordered, {e.key: i for i, e in enumerate(ordered)})
        return got

    def following(self, envelope: Envelope[O],
                  when: Callable[[Envelope[O]], datetime] | None = None) -> Envelope[O] | None:
        """The envelope received next after ``envelope`` (see :meth:`received`), None for the
        last.

        >>> orders = Orders([Envelope("b", "Red", 2, 1), Envelope("a", "Blue", 1, 1)])
        >>> orders.following(orders.by_key(("Blue", 1, 1, 0))).order
        'b'
        """
        ordered, position = self._ordered(when)
        try:
            i = position[envelope.key]
        except KeyError:
            raise KeyError(f"{envelope.key} is not an order of this turn") from None
        return ordered[i + 1] if i + 1 < len(ordered) else None

    def derived(self, key: str, build: Callable[[Orders[O]], T]) -> T:
        """What ``build(self)`` derives from these orders (the round's actions by character):
        built the first time it is asked for under ``key``, the same object after, for as long
        as these orders are resolved (a step's act function runs once per actor with the same
        orders). Treat it as read-only.

        >>> orders = Orders([Envelope("dig", "Red", 1, 1)])
        >>> orders.derived("players", lambda o: sorted(o)) is orders.derived("players", list)
        True
        """
        if key not in self._derived:
            self._derived[key] = build(self)
        return self._derived[key]  # type: ignore[no-any-return]

    # -- identity by key ---------------------------------------------------------------------------
    def by_key(self, key: Key) -> Envelope[O]:
        """The envelope whose :attr:`Envelope.key` is ``key``; KeyError naming it otherwise.

        >>> Orders([Envelope("build", "Red", 12, 3)]).by_key(("Red", 12, 3, 0)).order
        'build'
        """
        try:
            return self._by_key[key]
        except KeyError:
            raise KeyError(f"no order of this turn has the key {key!r} "
                           "(player, post, line, index)") from None

    def only_keys(self, keys: Iterable[Key]) -> Orders[O]:
        """These orders restricted to the envelopes whose keys are among ``keys``.

        >>> orders = Orders([Envelope("a", "Red", 1, 1), Envelope("b", "Red", 1, 2)])
        >>> orders.only_keys([("Red", 1, 2, 0)])["Red"]
        ['b']
        """
        kept = set(keys)
        return Orders(e for e in self._envelopes if e.key in kept)

    # -- one action as one actor of a per-actor step -------------------------------------------
    def _actor_index(self) -> dict[str, Envelope[O]]:
        if self._actors is None:
            self._actors = {f"{p}.{k}": e for p, es in self._envelopes_of.items()
                            for k, e in enumerate(es, 1)}
            self._actor_of = {e.key: name for name, e in self._actors.items()}
        return self._actors

    def actor(self, envelope: Envelope[O]) -> str:
        """The name of ``envelope`` as an actor of a per-actor step: ``"<player>.<k>"`` for the
        player's k-th order as written (``"Amber.3"``). :meth:`acting` finds it again.

        >>> orders = Orders([Envelope("a", "Amber", 1, 1), Envelope("b", "Amber", 1, 2)])
        >>> orders.actor(orders.envelopes[1])
        'Amber.2'
        """
        self._actor_index()
        try:
            return self._actor_of[envelope.key]
        except KeyError:
            raise KeyError(f"{envelope.key} is not an order of this turn") from None

    def acting(self, actor: str) -> Envelope[O]:
        """The envelope an actor name of :meth:`actor` names; KeyError naming it otherwise.

        >>> orders = Orders([Envelope("a", "Amber", 1, 1), Envelope("b", "Amber", 1, 2)])
        >>> orders.acting("Amber.2").order
        'b'
        """
        try:
            return self._actor_index()[actor]
        except KeyError:
            raise KeyError(f"{actor!r} names no order of this turn (as <player>.<k>)") from None

    def of_kind(self, *kinds: type[Any]) -> list[Envelope[O]]:
        """The envelopes whose order is of one of ``kinds``, as received."""
        return [e for e in self.received() if isinstance(e.order, kinds)]

    def accepted(self, problems: Mapping[str, Sequence[OrderError]]) -> Orders[O]:
        """These orders without the lines ``problems`` reject (by player and line number)."""
        bad = {(player, e.line) for player, errs in problems.items() for e in errs
               if e.line is not None}
        return Orders(e for e in self._envelopes if (e.player, e.number) not in bad)

    def only(self, keep: Iterable[Envelope[O]]) -> Orders[O]:
        """These orders restricted to ``keep`` (envelopes of this turn, matched by key: see
        :meth:`only_keys`)."""
        return self.only_keys(e.key for e in keep)
