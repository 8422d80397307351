"""How far apart colours look, to every reader.

:func:`cvd_distance` is the CIE76 difference (Lab ΔE) between two ``#rrggbb`` colours as seen
with normal vision, protanopia, deuteranopia and tritanopia (simulated with the full-severity
matrices of Machado, Oliveira and Fernandes 2009, in linear RGB), the smallest of the four;
:func:`closest_pair` finds the pair of a palette that is hardest to tell apart. A palette whose
closest pair is over about 12 can be told apart by nearly every reader; pieces carry an
initial too, so colour is never the only cue.

CIE76 weighs a difference of saturation as much as one of hue, so two reds (``#cc3333`` and
``#ff0000``, 35 apart) pass it that every reader calls red alike. :func:`hue_distance` is the
CIEDE2000 difference under normal vision, which weighs hue and lightness as the eye does (those
two reds: 11.6); :func:`told_apart` asks both, over :data:`HUE_APART` and :data:`CVD_APART`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

__all__ = ["CVD_APART", "HUE_APART", "ciede2000", "closest_pair", "confused", "cvd_distance",
           "hue_distance", "told_apart"]

#: The least CIEDE2000 difference under normal vision of two colours a reader names apart.
HUE_APART = 15.0
#: The least CIE76 difference under every dichromacy of two colours told apart.
CVD_APART = 12.0

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


def hue_distance(a: str, b: str) -> float:
    """The CIEDE2000 difference between ``a`` and ``b`` under normal vision."""
    return ciede2000(_lab(_linear(a)), _lab(_linear(b)))


def ciede2000(lab1: Sequence[float], lab2: Sequence[float]) -> float:
    """The CIEDE2000 difference of two Lab colours (Sharma, Wu and Dalal 2005)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1, a2 = a1 * (1 + g), a2 * (1 + g)
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    dh = 0.0 if not c1 * c2 else (h2 - h1 + 180) % 360 - 180
    d_l, d_c = l2 - l1, c2 - c1
    d_h = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    if not c1 * c2:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30))
         + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6))
         - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    r_t = (-2 * math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7))
           * math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2)))))
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2
                     + r_t * (d_c / s_c) * (d_h / s_h))


def told_apart(a: str, b: str) -> bool:
    """Whether every reader tells ``a`` from ``b``: over :data:`HUE_APART` under normal vision
    (:func:`hue_distance`) and over :data:`CVD_APART` under each dichromacy
    (:func:`cvd_distance`)."""
    return hue_distance(a, b) >= HUE_APART and cvd_distance(a, b) > CVD_APART


def confused(palette: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair of ``palette``'s distinct colours some reader would take for one another
    (none for a palette every reader tells apart)."""
    return [(a, b) for a, b in itertools.combinations(dict.fromkeys(palette), 2)
            if not told_apart(a, b)]
