"""How a player's post reads, line by line, as the GM is shown it: the orders read (and not
rejected since), the lines rejected, in line order and each quoting its line, whether the
parser or the rules refused them, and the lines not read as orders at all ("Good luck all!").

Every place that shows a post's reading (``gmkit orders``, ``gmkit import``, ``gmkit
resolve``, the notebook's post panel, the turn report's problems) goes through
:func:`reading`, so a rejected line is never also listed among the orders read."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gmkit.core.orders import OrderError, ParseResult, PostLine, in_line_order, quoted

__all__ = ["Reading", "reading"]


@dataclass(frozen=True)
class Reading:
    """One post's (or one player's posts') reading.

    Attributes:
        read: the orders read, each with its line, in line order, less those the rules
            rejected.
        rejected: every rejection (the parser's and the rules'), in line order.
        unread: the plain lines not read as orders, in line order.
        elsewhere: rejections of the player's other posts of the turn (when one post of
            several is shown), each naming its post.
    """

    read: tuple[tuple[PostLine, Any], ...]
    rejected: tuple[OrderError, ...]
    unread: tuple[PostLine, ...]
    elsewhere: tuple[OrderError, ...] = ()

    def rejections(self) -> list[str]:
        """Each rejection as the GM reads it back: where, why, then the line as written."""
        return [quoted(e) for e in self.rejected]

    def lines(self, describe: Callable[[Any], str]) -> list[str]:
        """The whole reading in words, a line each: the orders read (``describe`` says one in
        words), then ``rejected:`` and ``not read as orders:`` when there are any."""
        out = [f"  line {line.number}: {describe(order)}" for line, order in self.read]
        if self.rejected:
            out += ["rejected:", *(f"  {text}" for text in self.rejections())]
        if self.unread:
            out += ["not read as orders:",
                    *(f"  line {line.number}: {line.text}" for line in self.unread)]
        if self.elsewhere:
            out += ["rejected in the player's other posts:",
                    *(f"  {quoted(e)}" for e in self.elsewhere)]
        return out


def reading(parsed: ParseResult[Any], problems: Sequence[OrderError] = (), *,
            post: int | None = None) -> Reading:
    """``parsed`` (a post, or a player's posts merged) with the rules' ``problems`` of it.

    With ``post``, ``parsed`` is that one post of a player who may have several: a problem of
    that post is told by its own line, those of the player's other posts go to
    :attr:`Reading.elsewhere`."""
    mine: list[OrderError] = []
    elsewhere: list[OrderError] = []
    for error in problems:
        if post is not None and error.post is not None:
            if error.post != post:
                elsewhere.append(error)
                continue
            own = error.at(error.post_line if error.post_line is not None else 0, error.text)
            own.post = own.post_line = None
            mine.append(own)
        else:
            mine.append(error)
    # a rule's rejection quotes its line as the parser's do
    texts = {line.number: line.text for line, _ in parsed.orders}
    mine = [e.at(e.line, texts[e.line]) if not e.text and e.line in texts else e for e in mine]
    rejected = in_line_order([*parsed.errors, *mine])
    lines = {e.line for e in rejected}
    read = tuple(sorted(((line, order) for line, order in parsed.orders
                         if line.number not in lines), key=lambda lo: lo[0].number))
    return Reading(read, tuple(rejected), tuple(sorted(parsed.unread, key=lambda l: l.number)),
                   tuple(in_line_order(elsewhere)))
