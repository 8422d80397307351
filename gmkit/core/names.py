"""The names players type in their orders: matched to a game's names ignoring case, accents,
apostrophes and dashes, and accepting an unambiguous prefix (:class:`NameIndex`); an unknown or
ambiguous name is an :class:`~gmkit.core.orders.OrderError` with suggestions. The other words of
orders, and telling a mistyped order from chatter, are in :mod:`gmkit.core.words`."""

from __future__ import annotations

import difflib
import functools
import unicodedata
from collections.abc import Iterable, Iterator, Mapping

from gmkit.core.orders import AmbiguousOrderError, UnknownNameError, join_alternatives

# ---------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------

_APOSTROPHES = "\u2019\u2018\u02bc\u00b4`\u2032"
_DASHES = "-_\u2010\u2011\u2012\u2013\u2014\u2015\u2212"
# Letters that carry no combining mark to drop but are commonly typed plain.
_FOLD_EXTRA = {
    "ø": "o",
    "æ": "ae",
    "œ": "oe",
    "đ": "d",
    "ð": "d",
    "ł": "l",
    "þ": "th",
    "ı": "i",
}
_CHAR_MAP = str.maketrans(
    {**{c: "'" for c in _APOSTROPHES}, **{c: " " for c in _DASHES}, **_FOLD_EXTRA}
)


#: Unicode categories of characters that are not seen: format characters (bidi marks, zero-width
#: spaces and joiners) and controls (NUL, ESC).
_UNSEEN_CATEGORIES = frozenset({"Cf", "Cc"})


def visible(text: str) -> str:
    """``text`` with every invisible character (a bidi mark, a zero-width space, NUL, ESC)
    written as its ``\\u`` escape, so a message never shows two different names alike::

        >>> visible("Sol\u200fsauvre")
        'Sol\\u200fsauvre'
    """
    return "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) in _UNSEEN_CATEGORIES
                   and not c.isspace() else c for c in text)


@functools.lru_cache(maxsize=4096)
def _fold_char(char: str) -> str:
    """Normalize a single character (without whitespace collapsing)."""
    # Compatibility forms may decompose to capitals ("𝕬" -> "A") and case
    # folding may produce combining marks ("İ" -> "i̇"): decompose on both sides.
    if unicodedata.category(char) in _UNSEEN_CATEGORIES and not char.isspace():
        return ""  # bidi marks, zero-width spaces, NUL and other controls never count
    folded = unicodedata.normalize("NFKD", char.translate(_CHAR_MAP)).casefold()
    folded = unicodedata.normalize("NFKD", folded)
    folded = "".join(c for c in folded if not unicodedata.combining(c))
    return folded.translate(_CHAR_MAP)


def _normalize_with_map(text: str) -> tuple[str, list[int]]:
    """Normalize ``text`` and map each output character to its source index."""
    out: list[str] = []
    source: list[int] = []
    for index, char in enumerate(text):
        for folded in _fold_char(char):
            if folded.isspace():
                if not out or out[-1] == " ":
                    continue
                folded = " "
            out.append(folded)
            source.append(index)
    if out and out[-1] == " ":
        out.pop()
        source.pop()
    return "".join(out), source


@functools.lru_cache(maxsize=16384)
def normalize(name: str) -> str:
    """Return the form of ``name`` used for matching.

    Case-folded, accents removed (NFKD, combining marks dropped), typographic
    apostrophes and backticks mapped to ``'``, hyphens and underscores turned
    into spaces, whitespace collapsed and stripped::

        >>> normalize("  TRÓYS ")
        'troys'
        >>> normalize("Saint-Aubrac’s_Keep")
        "saint aubrac's keep"
    """
    return _normalize_with_map(name)[0]


class NameIndex:
    """Resolves player-typed names to canonical names.

    Matching ignores case, accents, hyphens and spacing (see
    :func:`normalize`).  An exact match of a name or alias wins; otherwise a
    prefix of at least ``min_prefix`` characters matching a single name is
    accepted.

    Args:
        names: the canonical names.
        kind: what the names are, used in messages (``"province"``...).
        aliases: extra spellings, mapping each to its canonical name.
        min_prefix: the shortest (normalized) prefix accepted as a name.

    Raises:
        ValueError: if an alias points to a name that is not in ``names``.
    """

    def __init__(
        self,
        names: Iterable[str],
        kind: str = "province",
        aliases: Mapping[str, str] | None = None,
        *,
        min_prefix: int = 3,
    ) -> None:
        self.names: tuple[str, ...] = tuple(dict.fromkeys(names))
        self.kind = kind
        self.min_prefix = min_prefix
        self._rank = {name: i for i, name in enumerate(self.names)}
        # normalized spelling -> canonical names, in ``names`` order
        self._spellings: dict[str, list[str]] = {}
        for name in self.names:
            self._add(normalize(name), name)
        for alias, target in (aliases or {}).items():
            if target not in self._rank:
                raise ValueError(f"alias {alias!r} points to unknown {kind} {target!r}")
            self._add(normalize(alias), target)

    def _add(self, key: str, name: str) -> None:
        if not key:
            return
        bucket = self._spellings.setdefault(key, [])
        if name not in bucket:
            bucket.append(name)
            bucket.sort(key=self._rank.__getitem__)

    def __repr__(self) -> str:
        return f"NameIndex({len(self.names)} {self.kind} names)"

    def __len__(self) -> int:
        return len(self.names)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __contains__(self, text: object) -> bool:
        """True if ``text`` is exactly (after normalization) a name or alias."""
        return isinstance(text, str) and normalize(text) in self._spellings

    def _ordered(self, names: Iterable[str]) -> list[str]:
        return sorted(set(names), key=self._rank.__getitem__)

    def prefix_matches(self, text: str) -> list[str]:
        """Canonical names having a spelling that starts with ``text`` (normalized)."""
        key = normalize(text)
        if not key:
            return []
        found = (
            name
            for spelling, bucket in self._spellings.items()
            if spelling.startswith(key)
            for name in bucket
        )
        return self._ordered(found)

    def suggest(self, text: str, n: int = 3) -> list[str]:
        """Up to ``n`` known names close to ``text``, best first."""
        key = normalize(text)
        if not key:
            return []
        close = difflib.get_close_matches(key, list(self._spellings), n=n * 4, cutoff=0.6)
        out: list[str] = []
        for spelling in close:
            for name in self._spellings[spelling]:
                if name not in out:
                    out.append(name)
        return out[:n]

    def resolve(self, text: str) -> str:
        """Return the canonical name meant by ``text``.

        Raises:
            AmbiguousOrderError: several names match equally well, e.g.
                ``'Sa' could be Saint-Aubrac or Sauvenne``.
            UnknownNameError: nothing matches, e.g.
                ``no province 'Troies'; did you mean Tróys?``.
        """
        shown = visible(" ".join(text.split()))
        key = normalize(text)
        if not key:
            raise UnknownNameError(f"no {self.kind} name given", name=shown, kind=self.kind)

        exact = self._spellings.get(key)
        if exact:
            if len(exact) == 1:
                return exact[0]
            raise self._ambiguous(shown, exact)

        prefixed = self.prefix_matches(key)
        if len(prefixed) > 1:
            raise self._ambiguous(shown, prefixed)
        if len(prefixed) == 1 and len(key) >= self.min_prefix:
            return prefixed[0]

        # Unknown.  A too-short prefix of a single name suggests that name.
        suggestions = prefixed or self.suggest(key)
        reason = f"no {self.kind} '{shown}'"
        if suggestions:
            reason += f"; did you mean {join_alternatives(suggestions)}?"
        raise UnknownNameError(reason, name=shown, kind=self.kind, suggestions=suggestions)

    def _ambiguous(self, shown: str, candidates: list[str], limit: int = 6) -> AmbiguousOrderError:
        listed = candidates[:limit]
        if len(candidates) > limit:
            listed = [*listed, f"{len(candidates) - limit} more"]
        return AmbiguousOrderError(
            f"'{shown}' could be {join_alternatives(listed)}", candidates=candidates
        )

    def find_in(self, text: str) -> list[tuple[int, int, str]]:
        """Find known names and aliases written out in full in free text.

        Matching is on whole words, ignoring case and accents.  When spellings
        overlap the longest wins (``"Saint-Aubrac-le-Haut"`` over
        ``"Saint-Aubrac"``).  Returns ``(start, end, canonical)`` tuples,
        where ``text[start:end]`` is the occurrence, sorted by ``start``.  A
        spelling shared by several names yields the first of them.
        """
        folded, source = _normalize_with_map(text)
        if not folded:
            return []
        taken = [False] * len(folded)
        found: list[tuple[int, int, str]] = []
        for spelling in sorted(self._spellings, key=len, reverse=True):
            start = folded.find(spelling)
            while start != -1:
                end = start + len(spelling)
                if (
                    (start == 0 or not folded[start - 1].isalnum())
                    and (end == len(folded) or not folded[end].isalnum())
                    and not any(taken[start:end])
                ):
                    taken[start:end] = [True] * (end - start)
                    found.append((source[start], source[end - 1] + 1, self._spellings[spelling][0]))
                start = folded.find(spelling, start + 1)
        found.sort()
        return found
