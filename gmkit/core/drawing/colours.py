"""Colours a drawing accepts: ``#hex`` or a plain colour name, never anything that could carry
markup or CSS into an SVG."""

from __future__ import annotations

import re

__all__ = ["check_colour"]

_HEX_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")
_NAMED_COLOUR = re.compile(r"[A-Za-z]{1,40}")


def check_colour(colour: str) -> str:
    """Return ``colour`` if it is a safe CSS colour, else raise ``ValueError``.

    Only ``#rgb``, ``#rgba``, ``#rrggbb`` and ``#rrggbbaa`` hex colours and
    plain named colours made of letters (``"red"``, ``"steelblue"``) are
    accepted, so that a colour can never smuggle markup or CSS into an SVG.
    """
    if not isinstance(colour, str) or not (
        _HEX_COLOUR.fullmatch(colour) or _NAMED_COLOUR.fullmatch(colour)
    ):
        raise ValueError(
            f"unsafe or invalid colour {colour!r}: use #hex or a named colour"
        )
    return colour
