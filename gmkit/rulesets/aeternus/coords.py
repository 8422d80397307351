"""Aeternus's hex coordinates (rules 5.1 and 5.2), mapped to the cube coordinates of the core grid.

The rules' directions, listed clockwise and 60 degrees apart::

    North (0, 0, 1)   Ashe (0, 1, 0)   Mouth (1, 0, 0)
    South (0, 0, -1)  Zest (0, -1, 0)  Weast (-1, 0, 0)

so the x axis points to Mouth, y to Ashe and z to North, and since Ashe lies between North and
Mouth, **Ashe = North + Mouth**: the three axes are not independent (unlike the cube axes, which
sum to zero) and a hex can be reached by many step counts ``(x, y, z)``. The rules give each hex
one coordinate, "the minimal number of steps from the origin along x, y and z in that order".

The mapping. The rules' steps are cube vectors of :mod:`gmkit.core.boards.hexgrid` (a flat-top
drawing, ``r`` growing southwards, so North is a hex's top edge)::

    Mouth = x step = Hex(1, 0, -1)     Ashe = y step = Hex(1, -1, 0)     North = z step = Hex(0, -1, 1)

    rules -> cube:   q = x + y,   r = -(y + z),   s = z - x          (any triple, canonical or not)
    cube -> rules:   a = q,  b = -r,  y = median(a, 0, b),  x = a - y,  z = b - y

Why the median: every triple reaching the hex ``(q, r)`` is ``(a - y, y, b - y)`` for some
integer ``y``, and its number of steps ``|a - y| + |y| + |b - y|`` is least exactly when ``y`` is
the median of ``a``, ``0`` and ``b`` — a single integer, so the minimal coordinate is unique
(then it has at most two non-zero ordinates, on neighbouring directions, and its step count is
the hex distance from the origin). "In that order" only says the steps are walked along x first,
then y, then z; it does not change where they lead. For example Mouth + North is ``(1, 0, 1)``
written out, but its coordinate is ``(0, 1, 0)`` (one step Ashe).

Players write a coordinate as the rules show it, ``(1, 0, 2)``, ``1,0,2`` or ``[1 0 2]``; a
triple that is not minimal still names the hex it leads to (``(1, 0, 2)`` is ``(0, 1, 1)``)
unless ``strict``. Directions are named in full or by their initials, which are all different
(N, A, M, S, Z, W), and can be chained as a walk: ``"2 North, Mouth"`` from a start hex.
"""

from __future__ import annotations

import difflib
import re
from typing import NamedTuple

import gmkit.core.boards.hexgrid as grid
from gmkit.core.boards.hexgrid import Hex

__all__ = [
    "DIRECTION_NAMES",
    "DIRECTION_VECTORS",
    "DIRECTIONS",
    "Coord",
    "CoordError",
    "NonCanonicalError",
    "UnknownDirectionError",
    "AXIAL_STEPS",
    "canonical",
    "direction",
    "from_axial",
    "from_cube",
    "hex_text",
    "is_canonical",
    "parse_direction",
    "parse_hex",
    "to_axial",
    "to_cube",
]


class CoordError(ValueError):
    """Text that is no Aeternus coordinate or direction."""


class UnknownDirectionError(CoordError):
    """A word that is no direction, with the directions it is close to (``suggestions``)."""

    def __init__(self, word: str, suggestions: list[str]) -> None:
        self.word = word
        self.suggestions = suggestions
        hint = f"; did you mean {' or '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"{word!r} is not a direction{hint} (5.2: "
                         f"{', '.join(DIRECTION_NAMES)})")

    @property
    def hint(self) -> str:
        """``"'Nroth': did you mean North?"``, or empty without a close direction."""
        if not self.suggestions:
            return ""
        return f"{self.word!r}: did you mean {' or '.join(self.suggestions)}?"


class NonCanonicalError(CoordError):
    """A triple that names a hex but is not its minimal coordinate (only when ``strict``).

    Attributes:
        canonical: the hex's coordinate.
    """

    def __init__(self, text: str, canonical: Coord) -> None:
        self.canonical = canonical
        super().__init__(f"{text!r} is not a minimal coordinate (5.1): the hex it leads to is "
                         f"{canonical}")


class Coord(NamedTuple):
    """A hex's coordinate as the rules write it: steps along x (Mouth), y (Ashe), z (North)."""

    x: int
    y: int
    z: int

    def __str__(self) -> str:
        return f"({self.x}, {self.y}, {self.z})"


#: The cardinal directions of 5.2, in the rules' (clockwise) order, as rules vectors.
DIRECTION_NAMES: tuple[str, ...] = ("North", "Ashe", "Mouth", "South", "Zest", "Weast")
DIRECTION_VECTORS: dict[str, Coord] = {
    "North": Coord(0, 0, 1), "Ashe": Coord(0, 1, 0), "Mouth": Coord(1, 0, 0),
    "South": Coord(0, 0, -1), "Zest": Coord(0, -1, 0), "Weast": Coord(-1, 0, 0),
}
#: The same directions as core unit steps, keyed by name: the rules' i-th direction (clockwise
#: on a flat-top drawing) is the core grid's direction ``(2 - i) % 6`` (counter-clockwise).
DIRECTIONS: dict[str, Hex] = {n: grid.direction(2 - i) for i, n in enumerate(DIRECTION_NAMES)}
#: The same directions as ``(dq, dr)`` axial steps, in the same order (each a neighbour of the
#: next, the last of the first): the ring walked around a hex by the generator.
AXIAL_STEPS: tuple[tuple[int, int], ...] = tuple((d.q, d.r) for d in DIRECTIONS.values())


def to_axial(x: int, y: int, z: int) -> tuple[int, int]:
    """The axial ``(q, r)`` of the hex reached by ``x``, ``y``, ``z`` steps (any triple)."""
    return x + y, -(y + z)


def from_axial(q: int, r: int) -> Coord:
    """The rules' (minimal) coordinate of the hex at axial ``(q, r)``."""
    a, b = q, -r
    y = sorted((a, 0, b))[1]
    return Coord(a - y, y, b - y)


def to_cube(x: int, y: int, z: int) -> Hex:
    """The core hex reached by ``x`` steps Mouth, ``y`` Ashe and ``z`` North (any triple)."""
    q, r = to_axial(x, y, z)
    return Hex(q, r)


def from_cube(h: Hex) -> Coord:
    """The rules' coordinate of a core hex."""
    return from_axial(h.q, h.r)


def canonical(x: int, y: int, z: int) -> Coord:
    """The minimal coordinate of the hex that ``(x, y, z)`` leads to."""
    return from_axial(*to_axial(x, y, z))


def is_canonical(x: int, y: int, z: int) -> bool:
    """Whether ``(x, y, z)`` is its hex's coordinate (the minimal one)."""
    return canonical(x, y, z) == (x, y, z)


def hex_text(h: Hex) -> str:
    """A core hex written as the rules write it: ``"(0, 1, 1)"``."""
    return str(from_cube(h))


def direction(name: str) -> Hex:
    """One direction as a core unit step; full names or initials, any case."""
    return DIRECTIONS[_direction_name(name)]


def _direction_name(word: str) -> str:
    w = word.strip().lower()
    for n in DIRECTION_NAMES:
        if w and (n.lower() == w or (len(w) == 1 and n[0].lower() == w)):
            return n
    close = difflib.get_close_matches(w, [n.lower() for n in DIRECTION_NAMES], n=2, cutoff=0.6)
    raise UnknownDirectionError(word.strip(), [n.capitalize() for n in close])


_TRIPLE = re.compile(r"^[\(\[]?\s*(-?\d+)\s*[,;\s]\s*(-?\d+)\s*[,;\s]\s*(-?\d+)\s*[\)\]]?$")
_WALK_PART = re.compile(r"^(?:(\d+)\s*[x×*]?\s*)?([A-Za-z]+)$")


def parse_direction(text: str) -> Hex:
    """A walk written with direction names, as one vector: ``"North"``, ``"2 North, Mouth"``,
    ``"N N M"``. Parts are separated by commas, spaces, ``+`` or ``then``."""
    parts = [p for p in re.split(r"\s*(?:,|\+|\bthen\b)\s*", text.strip()) if p]
    if not parts:
        raise CoordError("empty direction")
    q = r = 0
    for part in parts:
        words = part.split()
        # "2 North" is one part; "N N M" is three.
        chunks = [part] if len(words) == 2 and words[0].isdigit() else words
        for chunk in chunks:
            m = _WALK_PART.match(chunk.strip())
            if not m:
                raise CoordError(f"{chunk!r} is not a direction (5.2: "
                                 f"{', '.join(DIRECTION_NAMES)})")
            count = int(m.group(1)) if m.group(1) else 1
            step = DIRECTIONS[_direction_name(m.group(2))]
            q, r = q + count * step.q, r + count * step.r
    return Hex(q, r)


def parse_hex(text: str, *, start: Hex | None = None, strict: bool = False) -> Hex:
    """The hex a player means: a triple ``(x, y, z)`` / ``x,y,z`` or a walk of direction names
    from ``start`` (the origin if not given).

    Raises:
        NonCanonicalError: with ``strict``, a triple that is not minimal (names the right one).
        CoordError: anything else that is neither.
    """
    t = text.strip()
    m = _TRIPLE.match(t)
    if m:
        x, y, z = (int(g) for g in m.groups())
        h = to_cube(x, y, z)
        if strict and not is_canonical(x, y, z):
            raise NonCanonicalError(t, from_cube(h))
        return h
    try:
        step = parse_direction(t)
    except CoordError as e:
        hint = f"; {e.hint}" if isinstance(e, UnknownDirectionError) and e.hint else ""
        raise CoordError(f"{text!r} is neither a coordinate like (1, 0, 2) nor directions like "
                         f"'2 North, Mouth'{hint}") from None
    base = start if start is not None else Hex(0, 0)
    return base + step
