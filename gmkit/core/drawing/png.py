"""An SVG map as a PNG a forum shows: :func:`svg_png` renders it (with ``vl-convert``, no
browser needed) at a given width in pixels, 1200 by default."""

from __future__ import annotations

import re

__all__ = ["FORUM_WIDTH", "svg_png"]

#: The width of a map posted on a forum, in pixels.
FORUM_WIDTH = 1200

_WIDTH = re.compile(r'<svg\b[^>]*?\bwidth="([0-9.]+)"')
_VIEWBOX = re.compile(r'<svg\b[^>]*?\bviewBox="[-0-9.]+ [-0-9.]+ ([0-9.]+) [0-9.]+"')


def svg_png(svg: str, width: int = FORUM_WIDTH) -> bytes:
    """``svg`` rendered as a PNG ``width`` pixels wide (the height follows).

    Raises:
        ValueError: for a width under 100 or over 8000 pixels, or an SVG with no size.
    """
    import vl_convert

    if isinstance(width, bool) or not isinstance(width, int) or not 100 <= width <= 8000:
        raise ValueError(f"width must be a whole number of pixels from 100 to 8000, not "
                         f"{width!r}")
    found = _WIDTH.search(svg) or _VIEWBOX.search(svg)
    if found is None:
        raise ValueError("the SVG gives neither a width nor a viewBox")
    return bytes(vl_convert.svg_to_png(svg, scale=width / float(found.group(1))))
