"""Text in an SVG: escaping every value written into a drawing, and the width a text takes.

All text and attribute values of gmkit's drawings go through :func:`xml_text` and
:func:`xml_attr`; :func:`text_width` estimates a text's width from per-character widths a little
wider than DejaVu Sans, the font the drawings name first (:data:`FONT_FAMILY`), so an estimated
box holds the real text.
"""

from __future__ import annotations

import re

__all__ = ["FONT_FAMILY", "text_width", "xml_attr", "xml_text"]

# Characters that XML 1.0 does not allow at all, even escaped.
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


# Written here as xml.sax.saxutils writes them: importing that module loads urllib.request and
# http.client, a tenth of a second, for every command that draws or merely loads a ruleset.
def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def xml_text(value: object) -> str:
    """``value`` escaped as XML character data."""
    return _escape(_XML_INVALID.sub("", str(value)))


def xml_attr(value: object) -> str:
    """``value`` quoted and escaped as an XML attribute value (quotes included)."""
    text = _escape(_XML_INVALID.sub("", str(value)))
    text = text.replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', "&quot;") + '"'


#: The font the drawings ask for, first the one :func:`text_width` is made for.
FONT_FAMILY = "DejaVu Sans, Verdana, Arial, sans-serif"

_NARROW = set("iljtfrI.,:;'|!()[] ")
_WIDE = set("mwMWOQDGHNUC@%&")


def text_width(text: str, font: float) -> float:
    """A width in pixels that ``text`` set in ``font`` pixels does not exceed (one line)."""
    units = 0.0
    for ch in text:
        if ch in _NARROW:
            units += 0.40
        elif ch in _WIDE:
            units += 1.0
        elif ch.isupper() or ch.isdigit():
            units += 0.78
        else:
            units += 0.66
    return units * font
