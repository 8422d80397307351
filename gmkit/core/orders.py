"""Reading players' orders out of a forum post.

Players of play-by-forum games post their orders as the **bold** lines of a
forum message (``[b]...[/b]`` in BBCode, or ``<b>...</b>`` / ``<strong>`` on
forums that speak HTML).  Orders sent by e-mail or private message usually
have no bold at all; then every non-empty line counts as an order line.

This module is generic: it knows nothing about any particular game.  It

* finds the order lines in a pasted post (:func:`extract_lines`), keeping the
  line numbers of the original post so that messages can point at them;
* resolves the names players type (:class:`~gmkit.core.names.NameIndex`), ignoring case and
  accents and accepting unambiguous prefixes;
* runs a ruleset-specific line parser over every order line and gathers the
  typed orders and the reasons for rejected lines (:func:`parse_post`).

A line parser is any callable taking a :class:`PostLine` and returning an
order, ``None`` for a line that is not an order (it is then ignored), or
raising an :class:`OrderError` explaining why the line cannot be an order.
A plain line (a post without bold) that starts neither with an order keyword
nor with a known name ("Good luck all!") raises :class:`NotAnOrderError`: it
is not read as an order (:attr:`ParseResult.unread`) rather than rejected::

    result = parse_post(post, ruleset_line_parser)
    if not result.ok:
        print(result.report())
    # line 3: no province 'Troies'; did you mean Tróys?  >  10 Grain for Conquest of Troies
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

__all__ = [
    "AmbiguousOrderError",
    "IllegalOrderError",
    "LimitError",
    "MAX_LINE_CHARS",
    "MAX_POST_CHARS",
    "NO_ORDERS_MESSAGE",
    "NotAnOrderError",
    "OrderError",
    "OrderSyntaxError",
    "ParseResult",
    "PostLine",
    "UnknownNameError",
    "extract_lines",
    "join_alternatives",
    "merge_posts",
    "in_line_order",
    "parse_post",
    "quoted",
    "size_problems",
]

T = TypeVar("T")

#: The most characters a post may have, and one line of it: beyond them a post is refused whole
#: (never stored), so every parser reads any post it is given in bounded time.
MAX_POST_CHARS = 20_000
MAX_LINE_CHARS = 1_000

NO_ORDERS_MESSAGE = (
    "no orders found in the post: orders must be bold ([b]...[/b]) or plain lines"
)


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


class OrderError(ValueError):
    """A line of a post that cannot become an order.

    Attributes:
        line: 1-based number of the line in the original post, or ``None``
            when the error is not (yet) tied to a line.
        text: the text of the offending line (may be empty).
        reason: why the line was rejected, in words meant for the player.

    ``str(err)`` is ``"line {line}: {reason}"`` when the line is known and
    just the reason otherwise.  Line parsers usually raise errors without a
    line; :func:`parse_post` attaches it with :meth:`at`.
    """

    def __init__(self, reason: str, *, line: int | None = None, text: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.text = text
        #: The post (its sequence number) and its own line, when a player's orders came in
        #: several posts (see :func:`merge_posts`); ``line`` is then unique across them.
        self.post: int | None = None
        self.post_line: int | None = None

    def __str__(self) -> str:
        if self.post is not None:
            return f"post #{self.post}, line {self.post_line}: {self.reason}"
        if self.line is None:
            return self.reason
        return f"line {self.line}: {self.reason}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.reason!r}, line={self.line!r}, text={self.text!r})"

    def at(self, line: int, text: str) -> OrderError:
        """Return a copy of this error (same class) tied to ``line`` / ``text``.

        The copy keeps every other attribute (``name``, ``suggestions``...) and
        does not call ``__init__``, so subclasses with their own constructor
        signatures are copied faithfully.
        """
        cls = type(self)
        new = cls.__new__(cls)
        new.__dict__.update(self.__dict__)
        new.args = self.args
        new.__cause__ = self.__cause__
        new.line = line
        new.text = text
        return new


class OrderSyntaxError(OrderError):
    """The line cannot be parsed as an order at all."""


class NotAnOrderError(OrderSyntaxError):
    """The line starts neither with an order keyword nor with a known name: chatter rather
    than a mistyped order. On a plain line (a post without bold, where every line is read) it
    is not read as an order and is no rejection (:attr:`ParseResult.unread`); on a bold line,
    which the player marked as an order, it is rejected as any syntax error is."""


class LimitError(OrderSyntaxError):
    """A post, a line or a value beyond what gmkit reads (a size limit, an absurd number): the
    whole post is refused, never stored."""


class IllegalOrderError(OrderError):
    """The line parses, but the order breaks a rule of the game."""


class AmbiguousOrderError(OrderError):
    """The line could mean several things, e.g. a prefix matching several names.

    Attributes:
        candidates: the possible meanings, when known.
    """

    def __init__(
        self,
        reason: str,
        *,
        candidates: Sequence[str] = (),
        line: int | None = None,
        text: str = "",
    ) -> None:
        super().__init__(reason, line=line, text=text)
        self.candidates: list[str] = list(candidates)


class UnknownNameError(OrderError):
    """A name in the line matches nothing known.

    Attributes:
        name: the name as the player typed it.
        kind: what sort of name was expected (``"province"``, ``"nation"``...).
        suggestions: close known names, best first (possibly empty).
    """

    def __init__(
        self,
        reason: str,
        *,
        name: str = "",
        kind: str = "name",
        suggestions: Sequence[str] = (),
        line: int | None = None,
        text: str = "",
    ) -> None:
        super().__init__(reason, line=line, text=text)
        self.name = name
        self.kind = kind
        self.suggestions: list[str] = list(suggestions)


def join_alternatives(items: Sequence[str], word: str = "or") -> str:
    """Join ``items`` for a message: ``"A"``, ``"A or B"``, ``"A, B or C"``."""
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


# ---------------------------------------------------------------------------
# Extracting order lines from a post
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PostLine:
    """One order line of a post.

    Attributes:
        number: 1-based number of the line in the original post text.
        text: the line with all markup removed and whitespace collapsed.
        bold: ``True`` if the line came from bold text, ``False`` if it is a
            plain line of a post without any bold.
    """

    number: int
    text: str
    bold: bool


# Tokens that change the extraction state.  They never contain a newline
# (only spaces and tabs are allowed inside them) so line numbers stay exact.
# Attribute lengths are bounded to keep matching linear on hostile input.
_STATE_TOKEN = re.compile(
    r"""
      (?P<quote_open>  \[[ \t]*quote(?![A-Za-z0-9])[^\]\n]{0,500}\]
                     | <[ \t]*blockquote(?![A-Za-z0-9])[^>\n]{0,500}> )
    | (?P<quote_close> \[[ \t]*/[ \t]*quote[ \t]*\]
                     | <[ \t]*/[ \t]*blockquote[ \t]*> )
    | (?P<bold_open>   \[[ \t]*b[ \t]*\]
                     | <[ \t]*(?:b|strong)(?:[ \t][^>\n]{0,500})?> )
    | (?P<bold_close>  \[[ \t]*/[ \t]*b[ \t]*\]
                     | <[ \t]*/[ \t]*(?:b|strong)[ \t]*> )
    """,
    re.IGNORECASE | re.VERBOSE,
)

# Formatting tags removed from order text.  A closed list, so that a player's
# own brackets ("[Paris]") are not mistaken for markup.
_TAG_NAMES = (
    r"b|i|u|s|em|strong|strike|del|ins|color|colour|size|font|face|url|link|"
    r"email|img|center|centre|left|right|justify|align|indent|quote|blockquote|"
    r"code|pre|tt|mono|spoiler|hide|list|ul|ol|li|sub|sup|highlight|glow|"
    r"shadow|blur|bgcolor|background|table|tr|td|th|hr|br|p|div|span|a|"
    r"small|big|h[1-6]|heading|abbr|acronym|noparse|mention|user|attach|"
    r"youtube|video|media|fieldset|legend"
)
_MARKUP = re.compile(
    rf"""
      \[(?P<star>\*)\]
    | \[[ \t]*/?[ \t]*(?P<bb>{_TAG_NAMES})
         (?:[ \t]*=[^\[\]\n]{{0,500}}|[ \t]+[\w-]{{1,40}}[ \t]*=[^\[\]\n]{{0,500}})?[ \t]*/?[ \t]*\]
    | <[ \t]*/?[ \t]*(?P<html>{_TAG_NAMES})
         (?:[ \t]+[\w-]{{1,40}}[ \t]*=[^<>\n]{{0,500}})?[ \t]*/?[ \t]*>
    """,
    re.IGNORECASE | re.VERBOSE,
)
# Tags that separate words; the others (colour, size...) may sit inside one.
_BLOCK_TAGS = frozenset(
    "br hr p div li ul ol list td th tr table center centre left right justify "
    "align indent quote blockquote code pre h1 h2 h3 h4 h5 h6 heading".split()
)

# "- ", "* ", "• ", "1. ", "1) ", "(1) " at the start of a line.
_LIST_MARKER = re.compile(r"^(?:[-*+•·–—]|\(?\d{1,3}[.)])\s+")

# Invisible characters that sneak into copied forum text.
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))


def _markup_replacement(match: re.Match[str]) -> str:
    name = (match.group("bb") or match.group("html") or "*").lower()
    return " " if name == "*" or name in _BLOCK_TAGS else ""


def _strip_markup(text: str) -> str:
    """Remove formatting tags from ``text`` (no whitespace clean-up).

    Inline tags vanish (``Tr[color=red]ó[/color]ys`` is ``Tróys``); block
    tags such as ``[br]`` or ``[*]`` leave a space.
    """
    if "[" not in text and "<" not in text:
        return text
    return _MARKUP.sub(_markup_replacement, text)


def _clean(text: str) -> str:
    """Turn the raw text of a line into order text."""
    text = _strip_markup(text)
    if "&" in text:
        text = html.unescape(text)
    text = " ".join(text.translate(_INVISIBLE).split())
    text = _LIST_MARKER.sub("", text, count=1)
    return text.strip()


def extract_lines(post: str) -> list[PostLine]:
    """Return the order lines of a forum post.

    If the post has any bold text (``[b]...[/b]``, ``<b>...</b>`` or
    ``<strong>...</strong>``; tags are case-insensitive) the order lines are
    the non-empty lines inside bold blocks and everything else is ignored.  A
    bold block may span several lines (each physical line becomes its own
    :class:`PostLine`) and may contain other tags such as ``[color=red]``; an
    unclosed ``[b]`` runs to the end of the post.  Several bold pieces on the
    same physical line are joined with a space when non-bold text separates
    them.

    Without any bold, every non-empty line is an order line (orders sent by
    e-mail or private message).

    Anything inside ``[quote]...[/quote]`` (or ``<blockquote>``) is ignored in
    both cases, so quoting the GM is harmless; an unclosed quote runs to the
    end of the post.  Leading list markers (``- ``, ``* ``, ``1. ``, ``1) ``,
    ``[*]``) are dropped.  Line numbers count the lines of the original post;
    ``\\r\\n``, ``\\r`` and ``\\n`` each end a line.

    A tag defused by gmkit's own BBCode (a zero-width space after ``[`` or ``<``, as in
    ``[\u200bb]``) reads as the tag it shows, so a line copied from a summary is read as the
    order it is.

    Never raises on any string; a post without any order line gives ``[]``.
    """
    text = post.replace("\r\n", "\n").replace("\r", "\n")
    text = text.replace("[\u200b", "[").replace("<\u200b", "<")

    # pieces[i] holds the (text, is_bold) chunks of line i+1 outside quotes.
    pieces: list[list[tuple[str, bool]]] = [[]]
    quote_depth = 0
    bold_depth = 0
    has_bold = False

    def feed(chunk: str) -> None:
        if quote_depth:
            pieces.extend([] for _ in range(chunk.count("\n")))
            return
        bold = bold_depth > 0
        first, *rest = chunk.split("\n")
        pieces[-1].append((first, bold))
        pieces.extend([(part, bold)] for part in rest)

    pos = 0
    for match in _STATE_TOKEN.finditer(text):
        feed(text[pos : match.start()])
        pos = match.end()
        kind = match.lastgroup
        if kind == "quote_open":
            quote_depth += 1
        elif kind == "quote_close":
            quote_depth = max(0, quote_depth - 1)
        elif quote_depth:
            pass  # bold inside a quote is the quoted author's, not the player's
        elif kind == "bold_open":
            bold_depth += 1
            has_bold = True
        elif kind == "bold_close":
            bold_depth = max(0, bold_depth - 1)
    feed(text[pos:])

    lines: list[PostLine] = []
    for index, line_pieces in enumerate(pieces):
        if has_bold:
            raw = _join_bold(line_pieces)
            if raw is None:
                continue
        else:
            raw = "".join(chunk for chunk, _ in line_pieces)
        order_text = _clean(raw)
        if order_text:
            lines.append(PostLine(number=index + 1, text=order_text, bold=has_bold))
    return lines


def _join_bold(line_pieces: list[tuple[str, bool]]) -> str | None:
    """Join the bold chunks of one line; ``None`` if the line has none.

    Non-bold text between two bold chunks becomes a single space, unless it
    is only markup (``[b]Mo[/b][i][b]ve[/b]`` stays ``Move``).
    """
    out: list[str] = []
    separated = False
    for chunk, bold in line_pieces:
        if bold:
            if separated and out:
                out.append(" ")
            out.append(chunk)
            separated = False
        elif _strip_markup(chunk):
            separated = True
    return "".join(out) if out else None


# ---------------------------------------------------------------------------
# Parsing a whole post
# ---------------------------------------------------------------------------


#: A reason citing lines of the player's orders: "line 2", "lines 2 and 5", "lines 1, 2 and 4".
_LINE_REFERENCE = re.compile(r"\blines? (?P<numbers>\d+(?:(?:, | and )\d+)*)(?![.\d])")


@dataclass
class ParseResult(Generic[T]):
    """The outcome of :func:`parse_post`.

    Attributes:
        orders: each accepted order with the line it came from, in post order.
        errors: one error per rejected line, in post order, each tied to its
            line (or a single line-less error when the post had no orders).
        unread: the plain lines that start neither with an order keyword nor with a known
            name ("Good luck all!"), in post order: not read as orders, and no rejection.
    """

    orders: list[tuple[PostLine, T]] = field(default_factory=list)
    errors: list[OrderError] = field(default_factory=list)
    unread: list[PostLine] = field(default_factory=list)
    #: For orders merged from several posts: each line number -> (post, line in that post).
    sources: dict[int, tuple[int, int]] = field(default_factory=dict)

    def source(self, line: int) -> tuple[int | None, int]:
        """The post and the line in it that a (merged) line number stands for."""
        post, own = self.sources.get(line, (None, line))
        return post, own

    def placed(self, error: OrderError) -> OrderError:
        """``error`` naming its post and that post's line when the orders came in several
        posts (unchanged otherwise); a line its reason names (``"repeats line 2"``, numbered
        across the posts) is named the same way, by its post when it is another post's."""
        if not self.sources or error.line is None or error.line not in self.sources:
            return error
        copy = error.at(error.line, error.text)
        copy.post, copy.post_line = self.sources[error.line]
        reason = self._named_lines(error.reason, copy.post)
        if reason != error.reason:
            copy.reason, copy.args = reason, (reason,)
        return copy

    def _named_lines(self, reason: str, own_post: int | None) -> str:
        """``reason`` with every ``line N`` / ``lines N and M`` it cites (numbered across the
        posts) written as the player numbers them: ``line 2`` in the same post,
        ``post #37, line 2`` in another."""

        def one(number: int) -> str:
            post, line = self.sources[number]
            return f"line {line}" if post == own_post else f"post #{post}, line {line}"

        def named(match: re.Match[str]) -> str:
            numbers = [int(n) for n in re.findall(r"\d+", match["numbers"])]
            if not all(n in self.sources for n in numbers):
                return match.group(0)
            return join_alternatives([one(n) for n in numbers], "and")

        return _LINE_REFERENCE.sub(named, reason)

    @property
    def ok(self) -> bool:
        """True if no line was rejected."""
        return not self.errors

    def report(self) -> str:
        """Plain text for the GM to paste back to the player.

        One line per rejected line, in line order, the reason followed by the line itself::

            line 3: no province 'Troies'; did you mean Tróys?  >  10 Grain for Conquest of Troies

        Empty when every line was accepted.
        """
        return "\n".join(map(quoted, in_line_order(self.errors)))


def quoted(error: OrderError) -> str:
    """A rejection as the GM reads it back: where, why, then the line as written::

        line 3: no province 'Troies'; did you mean Tróys?  >  10 Grain for Conquest of Troies
    """
    return f"{error}  >  {error.text}" if error.text else str(error)


def in_line_order(errors: Sequence[OrderError]) -> list[OrderError]:
    """``errors`` sorted by the line they reject (a line-less error first; one line's several
    errors in the order given)."""
    return sorted(errors, key=lambda e: -1 if e.line is None else e.line)


def merge_posts(results: Sequence[tuple[int, ParseResult[T]]]) -> ParseResult[T]:
    """One player's several posts (``(post number, result)`` in the order received) as one
    result whose line numbers are unique across them: the lines of each later post follow
    the last line of the one before. ``sources`` maps every line back to its post and own line,
    so each rejection can name both (:meth:`ParseResult.placed`). A single post is returned
    as it is."""
    if len(results) == 1:
        return results[0][1]
    out: ParseResult[T] = ParseResult()
    shift = 0
    for seq, result in results:
        top = 0
        for line, order in result.orders:
            moved = PostLine(line.number + shift, line.text, line.bold)
            out.orders.append((moved, order))
            out.sources[moved.number] = (seq, line.number)
            top = max(top, line.number)
        for err in result.errors:
            if err.line is None:
                copy = err.at(0, err.text)
                copy.line = None
            else:
                copy = err.at(err.line + shift, err.text)
                out.sources[err.line + shift] = (seq, err.line)
                top = max(top, err.line)
            copy.post = seq
            copy.post_line = err.line
            out.errors.append(copy)
        for line in result.unread:
            out.unread.append(PostLine(line.number + shift, line.text, line.bold))
            out.sources[line.number + shift] = (seq, line.number)
            top = max(top, line.number)
        shift += top
    return out


def size_problems(post: str) -> list[LimitError]:
    """What makes ``post`` too big to read: more than :data:`MAX_POST_CHARS` characters, or a
    line (``\\r\\n``, ``\\r`` or ``\\n`` ends one) of more than :data:`MAX_LINE_CHARS`;
    each named, by line. Empty when the post is within the limits."""
    if len(post) > MAX_POST_CHARS:
        return [LimitError(f"the post has {len(post)} characters, more than the {MAX_POST_CHARS} "
                           "a post may have: split it")]
    out = []
    for number, line in enumerate(post.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
        if len(line) > MAX_LINE_CHARS:
            out.append(LimitError(f"{len(line)} characters, more than the {MAX_LINE_CHARS} a "
                                  "line may have", line=number, text=line[:60] + "…"))
    return out


def parse_post(post: str, parse_line: Callable[[PostLine], T | None]) -> ParseResult[T]:
    """Parse every order line of ``post`` with ``parse_line``.

    ``parse_line`` returns an order, ``None`` for a line that is not an order
    (silently ignored), or raises :class:`OrderError`; such errors are
    collected, tied to their line when they are not already, and parsing goes
    on with the next line. A :class:`NotAnOrderError` on a plain line puts the
    line among those not read as orders (:attr:`ParseResult.unread`) instead.
    Any other exception is a bug in the line parser and propagates.

    A post without any order line yields one :class:`OrderSyntaxError`
    (without a line number) saying so; a post beyond the size limits
    (:func:`size_problems`) yields those errors (:class:`LimitError`) and no line is read.
    """
    result: ParseResult[T] = ParseResult()
    too_big = size_problems(post)
    if too_big:
        result.errors.extend(too_big)
        return result
    lines = extract_lines(post)
    if not lines:
        result.errors.append(OrderSyntaxError(NO_ORDERS_MESSAGE))
        return result
    for line in lines:
        try:
            order = parse_line(line)
        except NotAnOrderError as err:
            if line.bold:
                result.errors.append(err if err.line is not None else err.at(line.number,
                                                                              line.text))
            else:
                result.unread.append(line)
            continue
        except OrderError as err:
            result.errors.append(err if err.line is not None else err.at(line.number, line.text))
            continue
        if order is not None:
            result.orders.append((line, order))
    return result
