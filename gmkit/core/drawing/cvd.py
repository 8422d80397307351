"""How far apart colours look to readers with a colour-vision deficiency.

:func:`cvd_distance` is the CIE76 difference (Lab ΔE) between two ``#rrggbb`` colours as seen
with normal vision, protanopia, deuteranopia and tritanopia (simulated with the full-severity
matrices of Machado, Oliveira and Fernandes 2009, in linear RGB), the smallest of the four;
:func:`closest_pair` finds the pair of a palette that is hardest to tell apart. A palette whose
closest pair is over about 12 can be told apart by nearly every reader; pieces carry an
initial too, so colour is never the only cue.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

__all__ = ["closest_pair", "cvd_distance"]

_MATRICES = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def _linear(colour: str) -> tuple[float, float, float]:
    if not (colour.startswith("#") and len(colour) == 7):
        raise ValueError(f"a #rrggbb colour is needed, not {colour!r}")
    out = []
    for i in (1, 3, 5):
        c = int(colour[i:i + 2], 16) / 255
        out.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    return out[0], out[1], out[2]


def _lab(rgb: Sequence[float]) -> tuple[float, float, float]:
    r, g, b = (min(max(c, 0.0), 1.0) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def cvd_distance(a: str, b: str) -> float:
    """The smallest Lab difference between ``a`` and ``b`` over normal vision and the three
    dichromacies."""
    la, lb = _linear(a), _linear(b)
    best = float("inf")
    for m in _MATRICES.values():
        sa = [sum(m[i][j] * la[j] for j in range(3)) for i in range(3)]
        sb = [sum(m[i][j] * lb[j] for j in range(3)) for i in range(3)]
        pa, pb = _lab(sa), _lab(sb)
        best = min(best, sum((p - q) ** 2 for p, q in zip(pa, pb)) ** 0.5)
    return best


def closest_pair(palette: Sequence[str]) -> tuple[float, str, str]:
    """The pair of ``palette`` hardest to tell apart, and how far apart it looks."""
    return min(((cvd_distance(a, b), a, b) for a, b in itertools.combinations(palette, 2)),
               default=(float("inf"), "", ""))
