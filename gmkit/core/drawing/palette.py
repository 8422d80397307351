"""Players' colours every reader tells apart: the palette of a game whose players have no colour
of their own, and how each player gets one.

Every two colours of :data:`DISTINCT` are told apart under normal vision and the three
dichromacies (:func:`~gmkit.core.drawing.cvd.told_apart`), and from the grey of a piece that is
no one's; :func:`assign` gives each player a colour apart from every colour already given, so
two players of one game are never drawn in two reds.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence

from gmkit.core.drawing.cvd import told_apart

__all__ = ["DISTINCT", "assign"]

#: Twelve colours every two of which every reader tells apart, dark enough for a mark on pale
#: land: red, sky, violet, orange, steel blue, forest green, pale teal, ochre, teal, lilac,
#: navy, plum.
DISTINCT: tuple[str, ...] = ("#cc3333", "#00ccff", "#9900cc", "#ff9900", "#336699", "#225500",
                             "#99cccc", "#bbaa55", "#009999", "#cc66ff", "#003399", "#663366")


def assign(names: Iterable[str], palette: Sequence[str] = DISTINCT,
           fixed: Mapping[str, str] | None = None) -> dict[str, str]:
    """Each of ``names`` (in their order) a colour: its ``fixed`` one when it has one (a
    player named for a colour), else the first colour of ``palette`` told apart from every
    colour given so far. Only a game with more players than the palette holds colours apart
    repeats them, in the palette's order (each piece carries its player's initial too)."""
    given = tuple(dict.fromkeys(names))
    pinned = tuple((n, c) for n, c in (fixed or {}).items() if n in given)
    return dict(zip(given, _assigned(given, tuple(palette), pinned)))


@functools.lru_cache(maxsize=64)
def _assigned(names: tuple[str, ...], palette: tuple[str, ...],
              pinned: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    fixed = dict(pinned)
    used = list(fixed.values())
    out: list[str] = []
    repeat = 0
    for name in names:
        colour = fixed.get(name)
        if colour is None:
            colour = next((c for c in palette if c not in used
                           and all(told_apart(c, u) for u in used)), None)
            if colour is None:
                colour, repeat = palette[repeat % len(palette)], repeat + 1
            used.append(colour)
        out.append(colour)
    return tuple(out)
