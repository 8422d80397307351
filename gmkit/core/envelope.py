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
* the envelopes of given kinds (:meth:`Orders.of_kind`);
* the envelope of any order (:meth:`Orders.envelope`), so a step can ask whether an order was
  secret (its results then stay out of public reports) or which line it came from.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Generic, TypeVar

from gmkit.core.orders import IllegalOrderError, OrderError, ParseResult

O = TypeVar("O")


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
        self._envelopes = tuple(envelopes)
        by_player: dict[str, list[O]] = {}
        envelopes_of: dict[str, list[Envelope[O]]] = {}
        for e in self._envelopes:
            by_player.setdefault(e.player, []).append(e.order)
            envelopes_of.setdefault(e.player, []).append(e)
        self._by_player = by_player
        self._envelopes_of = envelopes_of
        self._of = {id(e.order): e for e in self._envelopes}

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

    def received(self) -> list[Envelope[O]]:
        """Every envelope as received: by posting time (storing time when the posting time is
        unknown), then post number, then line."""
        return sorted(self._envelopes, key=lambda e: (e.when, e.post, e.line))

    def of_kind(self, *kinds: type[Any]) -> list[Envelope[O]]:
        """The envelopes whose order is of one of ``kinds``, as received."""
        return [e for e in self.received() if isinstance(e.order, kinds)]

    def envelope(self, order: O) -> Envelope[O]:
        """The envelope of an order of this turn (by identity)."""
        try:
            return self._of[id(order)]
        except KeyError:
            raise KeyError(f"{order!r} is not an order of this turn") from None

    def is_secret(self, order: O) -> bool:
        """Whether an order came in a secret post (False for an order with no envelope)."""
        e = self._of.get(id(order))
        return e.secret if e is not None else False

    def accepted(self, problems: Mapping[str, Sequence[OrderError]]) -> Orders[O]:
        """These orders without the lines ``problems`` reject (by player and line number)."""
        bad = {(player, e.line) for player, errs in problems.items() for e in errs
               if e.line is not None}
        return Orders(e for e in self._envelopes if (e.player, e.number) not in bad)

    def only(self, keep: Iterable[Envelope[O]]) -> Orders[O]:
        """These orders restricted to ``keep`` (envelopes of this turn)."""
        ids = {id(e) for e in keep}
        return Orders(e for e in self._envelopes if id(e) in ids)
