"""A turn's posts read once: which post of each player counts, each post's lines (read,
rejected, left as chatter), the rules' problems of the orders against the state the turn
starts from, the orders that will be carried out, and those void if resolved now.

What the GM and the players most need to trust is this reading, so it is one value, built
once for a state and its posts (:meth:`gmkit.game.Game.coming_reading` for the coming turn,
:meth:`gmkit.game.Game.reading_of` for any), and every front end shows it: ``gmkit orders``,
``import``, ``withdraw``, ``status --gm``, ``odds`` and ``resolve``, the notebook's desk, the
turn reports, the what-if and ``verify``. Each post is read by the ruleset once
(:meth:`gmkit.game.Game.parse` keeps what it read).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from gmkit.core.envelope import Envelope, Orders
from gmkit.core.orders import OrderError, ParseResult, merge_posts, quoted
from gmkit.core.params import Params
from gmkit.core.tables import State
from gmkit.game.reading import Reading, reading

__all__ = ["PostRead", "TurnReading", "bearing_on"]

#: reads a post: (text, player, state, secret, rules) -> what the ruleset read
Parse = Callable[[str, str, State, bool, Params], ParseResult[Any]]
#: validates orders against a state: (state, orders, rules) -> problems by player
Validate = Callable[[State, Orders[Any], Params], Mapping[str, list[OrderError]]]
#: the accepted orders void if resolved now, by player
VoidNow = Callable[[State, Orders[Any], Params], Mapping[str, list[OrderError]]]


@dataclass(frozen=True)
class PostRead:
    """One post as its turn reads it.

    Attributes:
        seq, player, secret: which post.
        counts: whether it counts under the game's rule on several posts.
        reading: its lines read, rejected (the parser's and the rules') and unread; for a
            post that does not count, the problems it would have if it counted in place of
            the one that does.
        void_now: its accepted orders that would be void if the turn resolved now.
        counting: the post of the player that counts instead, when this one does not.
    """

    seq: int
    player: str
    secret: bool
    counts: bool
    parsed: ParseResult[Any]
    reading: Reading
    void_now: tuple[OrderError, ...] = ()
    counting: int | None = None

    def note(self, policy: str) -> str | None:
        """Why the post does not count, in words (None when it does)."""
        if self.counts:
            return None
        which = f"post #{self.counting}" if self.counting is not None else "another post"
        return (f"this post does not count: under this game's rule only {self.player}'s "
                f"{policy} post counts, which is {which} (withdraw it to let this one count); "
                "it is checked here as if it counted")


@dataclass
class TurnReading:
    """A turn's posts read against the state it starts from (see the module's words).

    Attributes:
        turn: the turn the posts are for.
        state: the state the orders are read and checked against (corrections included).
        posts: every post read (pending, or as a committed turn recorded them).
        counting: the posts that count.
        parsed: each player's counting posts, read as one (lines numbered across them).
        problems: the rules' problems of each player's orders, by line.
        orders: the orders that will be carried out (those the rules did not reject).
    """

    turn: int
    state: State
    rules: Params
    posts: pl.DataFrame
    counting: pl.DataFrame
    parsed: dict[str, ParseResult[Any]]
    problems: dict[str, list[OrderError]]
    orders: Orders[Any]
    _parse: Parse = field(repr=False)
    _validate: Validate = field(repr=False)
    _void_now: VoidNow | None = field(repr=False, default=None)
    _posts: dict[int, PostRead] = field(default_factory=dict, repr=False)
    _void: Mapping[str, list[OrderError]] | None = field(default=None, repr=False)

    @classmethod
    def read(cls, turn: int, state: State, posts: pl.DataFrame, counting: pl.DataFrame,
             rules: Params, parse: Parse, validate: Validate,
             void_now: VoidNow | None = None) -> TurnReading:
        """Read ``counting`` (the posts of ``posts`` that count) against ``state``: each post
        read by ``parse``, a player's several posts as one, then every order checked by
        ``validate``; what it rejects leaves the orders."""
        parsed, problems, orders = _read(state, counting, rules, parse, validate)
        return cls(turn, state, rules, posts, counting, parsed, problems, orders, parse,
                   validate, void_now)

    def player_posts(self, player: str) -> list[int]:
        """The numbers of ``player``'s posts read, in order."""
        return sorted(self.posts.filter(pl.col("player") == player)["seq"].to_list())

    def counts(self, seq: int) -> bool:
        """Whether post ``seq`` counts."""
        return seq in set(self.counting["seq"].to_list())

    def void_now(self) -> Mapping[str, list[OrderError]]:
        """The accepted orders that would be void if the turn resolved now, by player."""
        if self._void is None:
            self._void = (self._void_now(self.state, self.orders, self.rules)
                          if self._void_now is not None else {})
        return self._void

    def post(self, seq: int) -> PostRead:
        """Post ``seq`` as the turn reads it (see :class:`PostRead`)."""
        if seq in self._posts:
            return self._posts[seq]
        rows = self.posts.filter(pl.col("seq") == seq)
        if rows.is_empty():
            raise KeyError(f"no post #{seq} in turn {self.turn}")
        row = rows.row(0, named=True)
        player, secret = str(row["player"]), bool(row["secret"])
        parsed = self._parse(row["text"], player, self.state, secret, self.rules)
        if self.counts(seq):
            found = self.problems.get(player, [])
            void = tuple(e for e in self.void_now().get(player, [])
                         if self._of_post(player, e, seq))
            counting = None
        else:  # as if it counted in place of the player's posts that do
            instead = self.counting.filter(pl.col("player") == player)["seq"].to_list()
            alone = pl.concat([self.counting.filter(pl.col("player") != player), rows])
            _, would, _ = _read(self.state, alone, self.rules, self._parse, self._validate)
            found, void, counting = would.get(player, []), (), (instead[0] if instead else None)
        read = reading(parsed, found, post=seq)
        got = PostRead(seq, player, secret, counting is None and self.counts(seq), parsed, read,
                       void, counting)
        self._posts[seq] = got
        return got

    def _of_post(self, player: str, error: OrderError, seq: int) -> bool:
        """Whether a problem of ``player``'s counting posts (read as one) is one of post
        ``seq``'s lines."""
        if error.post is not None:
            return error.post == seq
        parsed = self.parsed.get(player)
        if parsed is None or error.line is None:
            return True
        return parsed.source(error.line)[0] in (None, seq)

    def rejections(self, player: str) -> list[str]:
        """Every rejected line of ``player``'s counting posts, as the GM quotes it back."""
        parsed = self.parsed.get(player)
        if parsed is None:
            return [quoted(e) for e in self.problems.get(player, [])]
        return reading(parsed, self.problems.get(player, [])).rejections()

    def rejected(self) -> list[tuple[str, OrderError]]:
        """Every rejection of the counting posts: (player, error), in line order by player."""
        out = []
        for player in sorted({*self.parsed, *self.problems}):
            parsed = self.parsed.get(player, ParseResult())
            out += [(player, e) for e in reading(parsed, self.problems.get(player, [])).rejected]
        return out


def _read(state: State, counting: pl.DataFrame, rules: Params, parse: Parse,
          validate: Validate) -> tuple[dict[str, ParseResult[Any]],
                                       dict[str, list[OrderError]], Orders[Any]]:
    by_player: dict[str, list[tuple[int, ParseResult[Any]]]] = {}
    rows: dict[int, dict[str, Any]] = {}
    for row in counting.sort("seq").iter_rows(named=True):
        result = parse(row["text"], row["player"], state, bool(row["secret"]), rules)
        by_player.setdefault(row["player"], []).append((row["seq"], result))
        rows[row["seq"]] = row
    # a player's several posts read as one, each line numbered once across them
    parsed = {player: merge_posts(results) for player, results in by_player.items()}
    envelopes: list[Envelope[Any]] = []
    for player, results in by_player.items():
        merged = parsed[player]
        for line, order in merged.orders:
            seq, own = merged.source(line.number)
            row = rows[results[0][0] if seq is None else seq]
            envelopes.append(Envelope(order, player, row["seq"], own, row["secret"],
                                      row.get("posted"), row["received"], line.number,
                                      line.text))
    orders = Orders(sorted(envelopes, key=lambda e: (e.post, e.line)))
    found = validate(state, orders, rules)
    problems = {player: [parsed[player].placed(e) if player in parsed else e for e in errs]
                for player, errs in found.items()}
    return parsed, problems, orders.accepted(found)


def bearing_on(odds: pl.DataFrame, turn: TurnReading) -> list[str]:
    """The rejected orders that bear on the contests of an odds table: for each contest (a
    row), each rejected line whose text names a place or player the row names
    ("Coyons: Gold's line 2 rejected: over-spending  >  5 Grain for Defense of Coyons"), so
    the GM sees why a contest's figures leave an order out."""
    if odds.is_empty():
        return []
    rejected = [(p, e) for p, e in turn.rejected() if e.text]
    players = {p.casefold() for p, _ in rejected} | {p.casefold() for p in turn.parsed}
    out: list[str] = []
    for row in odds.iter_rows(named=True):
        cells = [v for v in row.values() if isinstance(v, str) and len(v) >= 3]
        places = [v for v in cells if v.casefold() not in players]
        if not places:
            continue
        head = places[0]
        for player, error in rejected:
            text = error.text.casefold()
            if any(n.casefold() in text for n in places):
                where = f"line {error.line}" if error.line is not None else "a line"
                line = f"{head}: {player}'s {where} rejected: {error.reason}  >  {error.text}"
                if line not in out:
                    out.append(line)
    return out
