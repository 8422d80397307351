"""An SVG map as a PNG a forum shows: :func:`svg_png` renders it (with ``vl-convert``, no
browser needed) at a given width in pixels, 1200 by default, on an opaque background: the
maps' dark titles, labels and legends stay readable on a forum's dark theme, where a
transparent picture would show them on black."""

from __future__ import annotations

import re

__all__ = ["BACKGROUND", "FORUM_WIDTH", "on_background", "svg_png"]

#: The width of a map posted on a forum, in pixels.
FORUM_WIDTH = 1200

_WIDTH = re.compile(r'<svg\b[^>]*?\bwidth="([0-9.]+)"')
_VIEWBOX = re.compile(r'<svg\b[^>]*?\bviewBox="[-0-9.]+ [-0-9.]+ ([0-9.]+) [0-9.]+"')
_BOX = re.compile(r'<svg\b[^>]*?\bviewBox="([-0-9.e]+)[ ,]+([-0-9.e]+)[ ,]+([0-9.e]+)[ ,]+'
                  r'([0-9.e]+)"')
_HEIGHT = re.compile(r'<svg\b[^>]*?\bheight="([0-9.]+)"')
_OPEN = re.compile(r"<svg\b[^>]*>")
#: The colour a PNG's background is filled with (the pages' white).
BACKGROUND = "#ffffff"


def on_background(svg: str, colour: str = BACKGROUND) -> str:
    """``svg`` with a rectangle of ``colour`` under everything it draws, covering its whole
    view box (or its width and height)."""
    box = _BOX.search(svg)
    if box:
        x, y, w, h = box.groups()
    else:
        width, height = _WIDTH.search(svg), _HEIGHT.search(svg)
        if width is None or height is None:
            raise ValueError("the SVG gives neither a viewBox nor a width and height")
        x, y, w, h = "0", "0", width.group(1), height.group(1)
    opening = _OPEN.search(svg)
    if opening is None:
        raise ValueError("no <svg> element")
    rect = f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{colour}"/>'
    return svg[:opening.end()] + rect + svg[opening.end():]


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
    return bytes(vl_convert.svg_to_png(on_background(svg), scale=width / float(found.group(1))))
