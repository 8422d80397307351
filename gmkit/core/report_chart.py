"""A report's chart as static SVG: an altair chart converted by vl-convert, then sanitized (no
scripts, event handlers, foreign objects or external references)."""

from __future__ import annotations

import hashlib
import json
import re
import xml.etree.ElementTree as ET
from typing import Any


# --------------------------------------------------------------------------------------------
# Chart
# --------------------------------------------------------------------------------------------

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
_BANNED_ELEMENTS = {"script", "foreignobject", "iframe", "object", "embed", "a", "style",
                    "animate", "set", "animatemotion", "animatetransform", "handler", "listener"}
_URL_IN_CSS = re.compile(r"url\(\s*(?!['\"]?#)", re.I)


#: the charts converted last, by their spec's hash: a turn's reports for every reader mostly
#: draw one chart, which is converted once (oldest first; a conversion is deterministic)
_CONVERTED: dict[str, str] = {}
_KEPT = 32


def chart_svg(chart: Any) -> str:
    """An altair chart as static, sanitized SVG (no JavaScript needed to view it).

    Converted by vl-convert with no external data allowed, then stripped of anything that could
    run code or make a request: script/foreignObject/style/animation elements, ``on*``
    attributes, and ``href``/``url(...)`` references other than ``#fragment`` or
    ``data:image/...``. A spec converted lately is not converted again.
    """
    spec = chart_spec(chart)
    key = hashlib.sha256(json.dumps(spec, sort_keys=True, default=str).encode()).hexdigest()
    found = _CONVERTED.get(key)
    if found is None:
        found = _CONVERTED[key] = sanitize_svg(vegalite_svg(spec))
        while len(_CONVERTED) > _KEPT:
            del _CONVERTED[next(iter(_CONVERTED))]
    return found


def chart_spec(chart: Any) -> Any:
    """An altair chart's Vega-Lite spec; a spec (a dict) as it is. gmkit's charts are built from
    code, not user specs: altair's schema validation, which costs far more than the conversion
    itself, is skipped."""
    return chart.to_dict(validate=False) if hasattr(chart, "to_dict") else chart


def vegalite_svg(spec: Any) -> str:
    """A Vega-Lite spec converted to SVG by vl-convert with no external data allowed, not yet
    sanitized (:func:`sanitize_svg`; :func:`chart_svg` does both)."""
    import vl_convert

    return str(vl_convert.vegalite_to_svg(spec, allowed_base_urls=[]))


def sanitize_svg(svg: str) -> str:
    """Parse ``svg`` and return it without scripts, event handlers or external references.

    Elements outside the SVG namespace and attributes outside the SVG/xlink namespaces are
    dropped too; the result is re-serialized, so it is well-formed.
    """
    root = ET.fromstring(svg)
    if root.tag != f"{{{SVG_NS}}}svg":
        raise ValueError("not an SVG document")
    _clean(root)
    out: list[str] = []
    _serialize(root, out, top=True)
    return "".join(out)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1].lower()


def _safe_ref(value: str) -> bool:
    v = value.strip().lower()
    return v.startswith("#") or v.startswith("data:image/")


def _clean(elem: ET.Element) -> None:
    for child in list(elem):
        if (
            not isinstance(child.tag, str)
            or not child.tag.startswith(f"{{{SVG_NS}}}")
            or _local(child.tag) in _BANNED_ELEMENTS
        ):
            elem.remove(child)
            continue
        _clean(child)
    for name in list(elem.attrib):
        local = _local(name)
        value = elem.attrib[name]
        if (
            (name.startswith("{") and not name.startswith(f"{{{XLINK_NS}}}"))
            or local.startswith("on")
            or (local in ("href", "src") and not _safe_ref(value))
            or _URL_IN_CSS.search(value)
            or "javascript:" in value.lower()
        ):
            del elem.attrib[name]


def _serialize(elem: ET.Element, out: list[str], top: bool = False) -> None:
    from xml.sax.saxutils import escape, quoteattr

    tag = elem.tag.split("}", 1)[1]
    attrs = [f'xmlns="{SVG_NS}"', f'xmlns:xlink="{XLINK_NS}"'] if top else []
    for name, value in elem.attrib.items():
        qname = "xlink:" + name.split("}", 1)[1] if name.startswith("{") else name
        attrs.append(f"{qname}={quoteattr(value)}")
    out.append(f"<{tag}" + "".join(" " + a for a in attrs))
    if len(elem) == 0 and not elem.text:
        out.append("/>")
    else:
        out.append(">")
        if elem.text:
            out.append(escape(elem.text))
        for child in elem:
            _serialize(child, out)
        out.append(f"</{tag}>")
    if elem.tail and not top:
        out.append(escape(elem.tail))


