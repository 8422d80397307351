"""The words a game's orders are written with: telling a mistyped order from chatter, and saying
which word a misspelt one may be.

Every ruleset declares its order words once, as an :class:`OrderWords`: the words an order may
start with (``starts``: "defend", "vote", "starve") and every other word its forms use
(``others``: "grain", "for", "against", "serfs"). A line no order form read is then

* an order attempt when it starts as an order does (a number, an order word or a slip of one,
  a known name), rejected, or chatter ("Good luck all!") not read at all
  (:meth:`OrderWords.starts_an_order`, :func:`unread_or_rejected`);
* told which of its words is a slip of an order word, whatever its place in the line (and so is
  a line an order form read but found wrong, through :meth:`OrderWords.reading`)::

      >>> words = OrderWords(["vote"], ["for", "against"])
      >>> words.hint("Vote aginst 4")
      "'aginst': did you mean 'against'?"

A word is a slip of an order word when one edit (a letter left out, added, changed, or two
letters swapped) turns it into one, two edits for a word of six letters or more, and a word of
two letters when its letters swapped are one (``ot`` for ``to``); a single letter is never
judged, and neither are the known names of the line (places, characters:
the :class:`~gmkit.core.names.NameIndex` of each, which says itself what a misspelt name may be).
"""

from __future__ import annotations

import copy
import difflib
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from gmkit.core.names import NameIndex, normalize
from gmkit.core.orders import (NotAnOrderError, OrderError, OrderSyntaxError, PostLine,
                               join_alternatives)

__all__ = ["OrderWords", "allowance", "edits", "starts_like_an_order", "unread_or_rejected"]

T = TypeVar("T")
E = TypeVar("E", bound=OrderError)

#: A word of a line: a run of letters (digits, marks and punctuation part words).
_WORD = re.compile(r"[^\W\d_]+")
_FIRST_WORD = re.compile(r"[^\W_]+")


def edits(a: str, b: str, most: int) -> int:
    """How many edits turn ``a`` into ``b`` (a letter left out, added or changed, or two
    neighbours swapped: the optimal string alignment distance), or ``most + 1`` once it is
    more than ``most``."""
    if abs(len(a) - len(b)) > most:
        return most + 1
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > most:
            return most + 1
        before, row = row, current
    return row[-1]


def allowance(word: str) -> int:
    """How many edits away a (normalized) word may be from an order word and still be a slip of
    it: one up to five letters, two from six; a word of two letters only by its two letters
    swapped (``ot`` for ``to``), and one of a single letter never."""
    return 0 if len(word) < 2 else 1 if len(word) <= 5 else 2


def _cased(meant: str, typed: str) -> str:
    """``meant`` written in the case of ``typed`` (``Grian`` -> ``Grain``, ``VOET`` ->
    ``VOTE``)."""
    if len(typed) > 1 and typed.isupper():
        return meant.upper()
    if typed[:1].isupper():
        return meant[:1].upper() + meant[1:]
    return meant


class OrderWords:
    """The words of a game's orders.

    Args:
        starts: the words an order may start with (besides a number or a known name).
        others: every other word the orders' forms use; a phrase counts word by word.

    Matching ignores case and accents (:func:`~gmkit.core.names.normalize`).
    """

    def __init__(self, starts: Iterable[str] = (), others: Iterable[str] = ()) -> None:
        self.starts: tuple[str, ...] = tuple(starts)
        self._starts = tuple(dict.fromkeys(k for k in map(normalize, self.starts) if k))
        self._words: dict[str, str] = {}
        for phrase in (*self.starts, *others):
            for word in _WORD.findall(phrase):
                key = normalize(word)
                if key:
                    self._words.setdefault(key, word.lower())

    def __repr__(self) -> str:
        return f"OrderWords({len(self._starts)} starts, {len(self._words)} words)"

    @property
    def words(self) -> tuple[str, ...]:
        """Every order word, as declared (lower case), starts first."""
        return tuple(self._words.values())

    def __contains__(self, word: object) -> bool:
        """Whether ``word`` is one of the order words (case and accents aside)."""
        return isinstance(word, str) and normalize(word) in self._words

    def meant(self, word: str, n: int = 2) -> list[str]:
        """The order words ``word`` is a slip of, closest first (at most ``n``); none when it
        is an order word or near none."""
        key = normalize(word)
        most = allowance(key)
        if not most or key in self._words:
            return []
        if len(key) == 2:
            return [self._words[key[::-1]]] if key[::-1] in self._words else []
        found = sorted((d, i, w) for i, w in enumerate(self._words)
                       if (d := edits(key, w, most)) <= most)
        if not found:
            return []
        best = found[0][0]
        return [self._words[w] for d, _, w in found if d == best][:n]

    def misspelt(self, text: str, names: Iterable[NameIndex] = ()) -> list[tuple[str, list[str]]]:
        """Each word of ``text`` that is a slip of an order word, as typed, with the words it
        may be; a known name (or an accepted prefix of one) of ``names`` is never one."""
        indexes = list(names)
        blanked = list(text)
        for index in indexes:
            for start, end, _ in index.find_in(text):
                blanked[start:end] = " " * (end - start)
        out: list[tuple[str, list[str]]] = []
        for m in _WORD.finditer("".join(blanked)):
            typed = m.group()
            if any(_names_it(index, typed) for index in indexes):
                continue
            meant = self.meant(typed)
            if meant and all(typed != t for t, _ in out):
                out.append((typed, [_cased(w, typed) for w in meant]))
        return out

    def hint(self, text: str, names: Iterable[NameIndex] = ()) -> str:
        """What the misspelt words of ``text`` may be, in words for the player
        (``'Grian': did you mean 'Grain'?``); empty when none is."""
        return _did_you_mean(self.misspelt(text, names))

    def starts_an_order(self, text: str, names: Iterable[NameIndex] = ()) -> bool:
        """Whether ``text`` starts as an order does: with a number, with one of the starting
        words (the word, a prefix of three letters or more of it, or a slip of it), or with a
        known name of one of ``names`` (matched as the index matches names: case and accents
        aside, a prefix of the index's shortest accepted length). A line that does not ("Good
        luck all!") is chatter, not a mistyped order::

            >>> OrderWords(["march", "hold"]).starts_an_order("Marhc to Paris")
            True
            >>> OrderWords(["march", "hold"]).starts_an_order("Good luck all!")
            False
        """
        first = _FIRST_WORD.search(text)
        if first is None:
            return False
        word = normalize(first.group())
        if not word:
            return False
        if word[0].isdigit():
            return True
        keys = self._starts
        if any(word == key or (len(word) >= 3 and key.startswith(word)) for key in keys):
            return True
        if len(word) >= 4 and (difflib.get_close_matches(word, keys, n=1, cutoff=0.8)
                               or any(edits(word, key, 1) <= 1 for key in keys)):
            return True
        return any(_names_it(index, word) for index in names)

    def reading(self, parse_line: Callable[[PostLine], T],
                names: Iterable[NameIndex] = ()) -> Callable[[PostLine], T]:
        """``parse_line`` whose every rejection of a line also says what each misspelt order
        word of the line may be (unless its reason says already), wherever the line
        went wrong: ``no sector 'fro'; 'fro': did you mean 'for' or 'from'?``."""
        indexes = list(names)

        def read(line: PostLine) -> T:
            try:
                return parse_line(line)
            except OrderError as err:
                slips = [(typed, meant) for typed, meant in self.misspelt(line.text, indexes)
                         if not _answered(err.reason, typed)]
                if not slips:
                    raise
                raise _with_reason(err, f"{err.reason}; {_did_you_mean(slips)}") from None

        return read

    def rejected(self, text: str, reason: str, names: Iterable[NameIndex] = (),
                 examples: str = "") -> OrderSyntaxError:
        """The error for a line no order form read: an :class:`OrderSyntaxError` when the line
        starts as an order does (:meth:`starts_an_order`: a mistyped order, rejected), else a
        :class:`NotAnOrderError` (chatter: a plain line of it is not read as an order, see
        :func:`~gmkit.core.orders.parse_post`). Its reason is ``reason``, then what each
        misspelt word may be (:meth:`hint`), then ``examples`` (``(try ...)``)."""
        indexes = list(names)
        kind = OrderSyntaxError if self.starts_an_order(text, indexes) else NotAnOrderError
        hint = self.hint(text, indexes)
        return kind(reason + (f"; {hint}" if hint else "")
                    + (f" (try {examples})" if examples else ""))


def _did_you_mean(slips: Sequence[tuple[str, Sequence[str]]]) -> str:
    """``'Grian': did you mean 'Grain'?``, for each word typed and the words it may be."""
    return "; ".join(f"'{typed}': did you mean "
                     + join_alternatives([f"'{w}'" for w in meant]) + "?"
                     for typed, meant in slips)


def _answered(reason: str, typed: str) -> bool:
    """Whether ``reason`` says already what the word ``typed`` may be (``no sector 'Tla';
    did you mean ...``)."""
    at = reason.find(f"'{typed}'")
    return at >= 0 and "did you mean" in reason[at:]


def _with_reason(err: E, reason: str) -> E:
    """A copy of ``err`` (same class, line and every other attribute) saying ``reason``."""
    out = copy.copy(err)
    out.reason, out.args = reason, (reason,)
    return out


def _names_it(index: NameIndex, word: str) -> bool:
    """Whether ``word`` is a name of ``index``, or a prefix of one it would accept."""
    key = normalize(word)
    return bool(key) and (key in index or (len(key) >= index.min_prefix
                                            and bool(index.prefix_matches(key))))


def _as_words(keywords: Iterable[str] | OrderWords) -> OrderWords:
    return keywords if isinstance(keywords, OrderWords) else OrderWords(keywords)


def starts_like_an_order(text: str, keywords: Iterable[str] | OrderWords = (),
                         names: Iterable[NameIndex] = ()) -> bool:
    """Whether ``text`` starts as an order does (see :meth:`OrderWords.starts_an_order`;
    ``keywords``: the words an order starts with, or the game's :class:`OrderWords`)::

        >>> starts_like_an_order("Marhc to Paris", ["march", "hold"])
        True
        >>> starts_like_an_order("Good luck all!", ["march", "hold"])
        False
    """
    return _as_words(keywords).starts_an_order(text, names)


def unread_or_rejected(text: str, reason: str, keywords: Iterable[str] | OrderWords = (),
                       names: Sequence[NameIndex] = (), *, examples: str = ""
                       ) -> OrderSyntaxError:
    """The error for a line no order pattern read (see :meth:`OrderWords.rejected`):
    rejected with what each misspelt word may be when it starts as an order does, else
    chatter."""
    return _as_words(keywords).rejected(text, reason, names, examples)
