"""Turn summaries: one offline HTML page and the same summary as BBCode forum posts.

After a turn is resolved the GM publishes a :class:`TurnReport`. It renders two ways:

* :func:`render_html`: a single self-contained HTML file (inline CSS, inline SVG maps and chart,
  a Content-Security-Policy that forbids every request), so it opens offline and cannot phone
  home;
* :func:`render_bbcode`: forum post(s), split into parts under a length limit.

A report is drawn for a viewer (:class:`gmkit.core.views.Viewer`): the *GM* view holds
everything, the *public* view what everyone may see, a *player* view (``"player:Red"``) what the
public sees plus that player's own secret orders, results and private figures. Reports of a
game are built for their viewer by :func:`gmkit.summary.turn_report` (maps and standings drawn
from the ruleset's view of the state). :func:`view_report` narrows a report already built, with
the same rules (:func:`public_view` and :func:`for_view` are its short forms): it removes the
posts, events and rolls the viewer may not see, GM-only standings values and GM notes. It
cannot redraw maps: a map in a GM report stays as drawn.

Every string that may come from a player (names, order text, event text, lord names, links,
table cells) is escaped in both formats: HTML by Jinja2's autoescaping, BBCode by
:func:`bbcode_escape`. The map SVGs are trusted markup from gmkit's own map renderer and are
inserted as they are; they must be drawn from public information when the public view is
published. The chart is converted to static SVG by vl-convert (which escapes text) and then
sanitized (no scripts, event handlers, foreign objects or external references).

This module is generic: it never imports a ruleset.
"""

from __future__ import annotations

import copy
import json
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit

import polars as pl

from gmkit.core.store import atomic_write
from gmkit.core.views import Viewer, sees, sees_post

if TYPE_CHECKING:
    import altair

__all__ = [
    "EventLine",
    "OrderPost",
    "RollLine",
    "StepSection",
    "TurnReport",
    "VIEWS",
    "FORMATS",
    "CSP",
    "bbcode_escape",
    "chart_svg",
    "for_view",
    "public_view",
    "render",
    "render_bbcode",
    "render_html",
    "safe_link",
    "sanitize_svg",
    "view_report",
    "warm_up",
    "write_report",
]

#: The fixed views; a player's view is written ``"player:ID"``.
VIEWS = ("gm", "public")
FORMATS = ("html", "bbcode")

#: The smallest part length :func:`render_bbcode` accepts.
MIN_BBCODE_CHARS = 200

ZWSP = "\u200b"

#: How a player checks the dice from this report alone; ``{cmd}`` stands for the message.
VERIFY_SENTENCE = (
    "To check the dice yourself: the sha256 of the revealed seed's 64 hex characters is the "
    "commitment posted before the turn; every seeded roll listed here is recomputed from "
    "HMAC-SHA256 keyed with the seed's bytes over {cmd} (the draw id as printed, attempt 0 "
    "first), as gmkit's README shows step by step with code (\u201cVerifiable dice\u201d: "
    "dice, choices, shuffles); rolls marked \u201centered by GM\u201d were rolled elsewhere "
    "and cannot be recomputed."
)


def verify_message(turn: int) -> str:
    """The message a turn's draws are derived from, as the report prints it."""
    return f"gmkit/1|{turn}|<draw id>|<attempt>"


# --------------------------------------------------------------------------------------------
# Data model
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RollLine:
    """One logged draw as shown in a report; ``source`` is ``"seeded"`` or ``"entered"``."""

    draw_id: str
    purpose: str
    rule: str
    expression: str
    result: str
    source: str  # "seeded" | "entered"
    public: bool = True
    player: str | None = None  # the player the roll concerns, if any


@dataclass(frozen=True)
class EventLine:
    """Something that happened in a step; ``player`` names the player it concerns, if any."""

    kind: str
    rule: str
    text: str
    public: bool = True
    player: str | None = None


@dataclass(frozen=True)
class StepSection:
    """One resolution step of the turn, with its events and dice."""

    name: str
    title: str
    rule: str
    events: tuple[EventLine, ...] = ()
    rolls: tuple[RollLine, ...] = ()


@dataclass(frozen=True)
class OrderPost:
    """An order post received from a player; ``problems`` lists what the GM found wrong."""

    player: str
    secret: bool
    text: str
    problems: tuple[str, ...] = ()


@dataclass(frozen=True)
class TurnReport:
    """Everything a turn summary shows, in the view named by ``view``.

    ``map_before_svg`` / ``map_after_svg`` are trusted SVG markup from gmkit's map renderer
    (already escaped). ``chart`` is an altair chart, rendered to static SVG. ``links`` are
    ``(label, url)`` pairs; only ``http(s)`` urls become links, anything else is shown as text.
    """

    game_title: str
    ruleset_title: str
    turn: int
    revision: int = 0
    view: str = "gm"  # "gm" | "public" | "player:ID"; what this object currently holds
    map_before_svg: str | None = None
    map_after_svg: str | None = None
    steps: tuple[StepSection, ...] = ()
    standings: pl.DataFrame | None = None
    gm_only_columns: tuple[str, ...] = ()  # standings columns hidden from the public
    chart: altair.TopLevelMixin | dict[str, Any] | None = None  # altair chart or Vega-Lite spec
    orders: tuple[OrderPost, ...] = ()
    seed_commitment: str | None = None  # sha256 hex posted before the turn
    seed: str | None = None  # revealed seed hex, None until revealed
    record_hash: str | None = None  # sha256 of the turn's manifest: the history players saw
    previous_hash: str | None = None  # the previous turn's manifest hash
    outcome: str | None = None  # e.g. "Red wins: ..." or None
    gm_notes: tuple[str, ...] = ()  # GM-only remarks
    #: The rules the turn was resolved with: (name, value, default, rule section), GM view.
    rules: tuple[tuple[str, str, str, str], ...] = ()
    #: Changes of rules or players that took effect with this turn, in words (public).
    changes: tuple[str, ...] = ()
    links: tuple[tuple[str, str], ...] = ()  # (label, url), e.g. player coat-of-arms links
    #: The next turn's dice commitment and order deadline, announced with this summary.
    next_commitment: str | None = None
    next_deadline: str | None = None
    #: What this turn's dice guarantee ("committed before orders", "beacon-mixed ...", "dice
    #: entered by the GM ..."), and warnings against them (a commitment made after an order).
    guarantees: tuple[str, ...] = ()
    dice_warnings: tuple[str, ...] = ()
    beacon: str | None = None  # the public beacon mixed into the dice, in words
    seal: str | None = None  # the seal of the posts and entered dice, before the beacon
    #: The map file the GM attaches to the forum post (written by ``gmkit map``), or None.
    map_file: str | None = None

    def __post_init__(self) -> None:
        Viewer.parse(self.view)  # raises ValueError for an unknown view

    @property
    def viewer(self) -> Viewer:
        """Who this report is for."""
        return Viewer.parse(self.view)


# --------------------------------------------------------------------------------------------
# Views
# --------------------------------------------------------------------------------------------


def view_report(report: TurnReport, viewer: Viewer | str) -> TurnReport:
    """``report`` narrowed to what ``viewer`` may see (see :mod:`gmkit.core.views`).

    The public view drops secret posts (and the GM's problem notes on public ones), non-public
    events and rolls, the ``gm_only_columns`` of the standings (also from the chart's inline
    data; a chart that uses such a column anywhere else, e.g. an axis or tooltip, is dropped)
    and the GM notes. A player's view keeps their own secret posts with the problems found in
    their posts, the events and rolls that concern them, and their own row of the GM-only
    columns (the other rows' values blanked). Idempotent, and a view can only narrow: the GM's
    view cannot be rebuilt from another, nor one player's from another's or the public's
    (raises ValueError). Unchanged parts are shared, not copied.
    """
    v = Viewer.parse(viewer)
    have = report.viewer
    if v == have:
        if v.is_gm:
            return report
    elif v.is_gm or (v.is_player and not have.is_gm):
        raise ValueError(f"this report holds the {have} view; the {v} view cannot be rebuilt "
                         "from it")
    hidden = tuple(report.gm_only_columns)
    standings = report.standings
    if standings is not None and hidden:
        standings = _private_standings(standings, hidden, v)
    chart = _scrub_chart(report.chart, hidden) if hidden else report.chart
    steps = tuple(
        replace(
            step,
            events=tuple(e for e in step.events if sees(v, e.public, e.player)),
            rolls=tuple(r for r in step.rolls if sees(v, r.public, r.player)),
        )
        for step in report.steps
    )
    # the problems found in a post are for the GM to quote back privately to its sender: they
    # may carry GM-only figures (a treasury in an over-spending message)
    orders = tuple(o if o.player == v.player_id or not o.problems else replace(o, problems=())
                   for o in report.orders if sees_post(v, o.player, o.secret))
    return replace(
        report,
        view=str(v),
        steps=steps,
        standings=standings,
        gm_only_columns=hidden if v.is_player else (),
        chart=chart,
        orders=orders,
        gm_notes=(),
        rules=(),
    )


def _private_standings(standings: pl.DataFrame, hidden: Sequence[str],
                       viewer: Viewer) -> pl.DataFrame:
    """The standings without ``hidden`` columns (the public), or with them blanked on every
    row but the player's own (a player)."""
    present = [c for c in hidden if c in standings.columns]
    if not present:
        return standings
    if not viewer.is_player:
        return standings.drop(present)
    who = next((c for c in ("player", "id") if c in standings.columns), None)
    mine = (pl.col(who) == viewer.player_id).fill_null(False) if who else pl.lit(False)
    return standings.with_columns(
        pl.when(mine).then(pl.col(c)).otherwise(pl.lit(None, standings.schema[c])).alias(c)
        for c in present)


def public_view(report: TurnReport) -> TurnReport:
    """The public copy of ``report``: :func:`view_report` for the public. Idempotent:
    ``public_view(public_view(r)) == public_view(r)``."""
    return view_report(report, Viewer.public())


def for_view(report: TurnReport, view: str | Viewer) -> TurnReport:
    """``report`` as seen in ``view`` (``"gm"``, ``"public"`` or ``"player:ID"``):
    :func:`view_report`. ``"gm"`` returns a GM report unchanged.

    Raises ValueError for an unknown view, and for a view that cannot be rebuilt from what
    ``report`` holds (the GM view from any other, a player's from the public or another
    player's).
    """
    return view_report(report, view)


def _scrub_chart(chart: Any, hidden: Sequence[str]) -> Any:
    """The chart without the ``hidden`` fields in its inline data, or None if it uses one.

    "Uses" is judged conservatively: a hidden column name appearing anywhere in the spec outside
    the data records (an encoding, tooltip, transform, title...) drops the chart.
    """
    if chart is None or not hidden:
        return chart
    spec = chart.to_dict(validate=False) if hasattr(chart, "to_dict") else copy.deepcopy(chart)
    changed = _drop_fields(spec, set(hidden))
    shape = _without_data(spec)
    text = json.dumps(shape, ensure_ascii=False)
    if any(col in text or json.dumps(col)[1:-1] in text for col in hidden):
        return None  # the chart shows, sorts, filters or computes with a hidden column
    return spec if changed else chart


def _drop_fields(node: Any, hidden: set[str], parent: str | None = None) -> bool:
    """Remove ``hidden`` keys from every inline data record in a Vega-Lite spec (in place)."""
    changed = False
    if isinstance(node, dict):
        for key, value in node.items():
            if (key == "datasets" and parent is None and isinstance(value, dict)) or (
                key == "values" and parent == "data"
            ):
                records = value.values() if key == "datasets" else [value]
                for rows in records:
                    if isinstance(rows, list):
                        for row in rows:
                            if isinstance(row, dict):
                                for col in hidden & row.keys():
                                    del row[col]
                                    changed = True
            else:
                changed |= _drop_fields(value, hidden, key)
    elif isinstance(node, list):
        for item in node:
            changed |= _drop_fields(item, hidden, parent)
    return changed


def _without_data(node: Any, parent: str | None = None) -> Any:
    """A copy of a spec without its inline data records (to look for field references).

    Inline data given as text (``{"values": "a,b\\n1,2", "format": ...}``) cannot be scrubbed
    record by record, so it is kept: a hidden column named in it then drops the chart.
    """
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            if k == "datasets" and parent is None and isinstance(v, dict):
                kept = {name: rows for name, rows in v.items() if isinstance(rows, str)}
                if kept:
                    out[k] = kept
            elif k == "values" and parent == "data" and not isinstance(v, str):
                continue
            else:
                out[k] = _without_data(v, k)
        return out
    if isinstance(node, list):
        return [_without_data(v, parent) for v in node]
    return node


# --------------------------------------------------------------------------------------------
# Chart
# --------------------------------------------------------------------------------------------

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
_BANNED_ELEMENTS = {"script", "foreignobject", "iframe", "object", "embed", "a", "style",
                    "animate", "set", "animatemotion", "animatetransform", "handler", "listener"}
_URL_IN_CSS = re.compile(r"url\(\s*(?!['\"]?#)", re.I)


def chart_svg(chart: Any) -> str:
    """An altair chart as static, sanitized SVG (no JavaScript needed to view it).

    Converted by vl-convert with no external data allowed, then stripped of anything that could
    run code or make a request: script/foreignObject/style/animation elements, ``on*``
    attributes, and ``href``/``url(...)`` references other than ``#fragment`` or
    ``data:image/...``.
    """
    import vl_convert

    # gmkit's charts are built from code, not user specs: skip altair's schema validation,
    # which costs far more than the conversion itself
    spec = chart.to_dict(validate=False) if hasattr(chart, "to_dict") else chart
    svg = vl_convert.vegalite_to_svg(spec, allowed_base_urls=[])
    return sanitize_svg(svg)


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


# --------------------------------------------------------------------------------------------
# Shared helpers
# --------------------------------------------------------------------------------------------


def safe_link(url: str) -> str | None:
    """``url`` if it is an absolute ``http``/``https`` url fit to be a link, else None."""
    if not isinstance(url, str) or not url or any(ord(c) <= 0x20 or ord(c) == 0x7F for c in url):
        return None
    if "\\" in url:
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return url


def _cell(value: Any) -> str:
    """A standings cell as text."""
    if value is None:
        return "\u2014"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if value.is_integer():
            return f"{int(value)}"
        return f"{value:.2f}"
    return str(value)


def _source_label(source: str) -> str:
    return {"seeded": "seeded", "entered": "entered by GM"}.get(source, source)


def _seed_check(report: TurnReport) -> bool | None:
    """Whether the revealed seed matches the commitment (None when either is missing)."""
    if not report.seed or not report.seed_commitment:
        return None
    from gmkit.core.dice import check_reveal

    try:
        return check_reveal(report.seed, report.seed_commitment)
    except (UnicodeError, ValueError):
        return False


# --------------------------------------------------------------------------------------------
# HTML
# --------------------------------------------------------------------------------------------

#: The Content-Security-Policy the page template declares (it forbids every request).
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def _no_controls(value: Any) -> Any:
    """What a template shows, without control characters (NUL, ESC...): they make a page
    invalid HTML. Trusted markup stays markup."""
    import markupsafe

    if isinstance(value, markupsafe.Markup):
        return markupsafe.Markup(_CONTROL.sub("", str(value)))
    if isinstance(value, str):
        return _CONTROL.sub("", value)
    return value


def html_environment(**kw: Any) -> Any:
    """A Jinja environment for gmkit's pages: autoescaping, strict about undefined names, and
    no control character ever reaching a page."""
    import jinja2

    options: dict[str, Any] = {"autoescape": True, "undefined": jinja2.StrictUndefined,
                               "finalize": _no_controls, **kw}
    return jinja2.Environment(**options)


@lru_cache(maxsize=1)
def _environment() -> Any:
    """The reports' Jinja environment, made once (it caches its compiled templates)."""
    import jinja2

    return jinja2.Environment(
        finalize=_no_controls,
        loader=jinja2.PackageLoader("gmkit", "templates"),
        autoescape=jinja2.select_autoescape(
            enabled_extensions=("html", "htm", "xml", "j2"), default_for_string=True,
            default=True,
        ),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def warm_up() -> None:
    """Load what rendering a report needs (the compiled page template, the chart converter), so
    that the first report a GM writes does not wait for it."""
    _environment().get_template("report.html.j2")
    chart_svg({"data": {"values": [{"a": 1}]}, "mark": "point",
               "encoding": {"x": {"field": "a", "type": "quantitative"}}})


def _badge(viewer: Viewer) -> str:
    if viewer.is_player:
        return f"Private to {viewer.player_id}"
    return "Public" if viewer.is_public else "GM only"


def render_html(report: TurnReport) -> str:
    """The report as one self-contained HTML page, in the view ``report`` holds.

    No external request of any kind: inline CSS, inline SVG, and a Content-Security-Policy of
    ``default-src 'none'; style-src 'unsafe-inline'; img-src data:``. All text is autoescaped;
    only the trusted map SVGs and the sanitized chart SVG are inserted as markup. A report that
    says it holds the public view is passed through :func:`public_view` again (idempotent), so
    one built by hand with ``view="public"`` cannot leak what it should not hold.
    """
    if report.view != "gm":
        report = view_report(report, report.view)  # idempotent; a hand-built report is filtered
    viewer = report.viewer
    standings = None
    if report.standings is not None:
        hidden = set(report.gm_only_columns)
        standings = {
            "columns": [(c, c in hidden) for c in report.standings.columns],
            "rows": [[_cell(v) for v in row] for row in report.standings.iter_rows()],
        }
    context = {
        "r": report,
        "is_public": viewer.is_public,
        "private_to": viewer.player_id,
        "badge": _badge(viewer),
        "hidden_tag": "private" if viewer.is_player else "GM only",
        "standings": standings,
        "chart_svg": chart_svg(report.chart) if report.chart is not None else None,
        "links": [(label, safe_link(url), url) for label, url in report.links],
        "seed_ok": _seed_check(report),
        "verify_sentence": VERIFY_SENTENCE.split("{cmd}", 1),
        "verify_message": verify_message(report.turn),
        "source_label": _source_label,
    }
    return _environment().get_template("report.html.j2").render(context)


# --------------------------------------------------------------------------------------------
# BBCode
# --------------------------------------------------------------------------------------------

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_TAG = re.compile(r"\[(/?)(b|i|u|size|url|list|\*)(?:=[^\]\s]*)?\]")


def bbcode_escape(text: Any) -> str:
    """Neutralize untrusted text for BBCode: a zero-width space after every ``[`` and ``<``.

    ``[\\u200b/b]`` is not a tag to any BBCode parser, and ``<\\u200bscript>`` is not a tag to
    an HTML parser on forums that allow raw HTML, yet the text reads exactly the same. Unlike
    ``[noparse]`` this needs no forum support, and unlike entities (``&#91;``) it does not show
    up literally on forums that escape ``&``. Control characters are removed; line breaks are
    kept (see :func:`_bb_inline` for single-line fields).
    """
    s = str(text).replace("\r\n", "\n").replace("\r", "\n")
    s = _CONTROL.sub("", s)
    return s.replace("[", "[" + ZWSP).replace("<", "<" + ZWSP)


def _bb_inline(text: Any) -> str:
    """Escaped untrusted text on one line (line breaks become spaces)."""
    return " ".join(bbcode_escape(text).split("\n"))


def _bb_url(url: str) -> str | None:
    """``url`` percent-encoded so it cannot close a ``[url=...]`` tag, or None if unfit."""
    good = safe_link(url)
    if good is None or "[" in urlsplit(good).netloc:
        return None
    return quote(good, safe=":/?#@!$&'()*+,;=%-._~")


@dataclass
class _Block:
    """Groups of lines that belong together; ``opener``/``closer`` wrap them (a ``[list]``).

    A group (a paragraph, a list item with its continuation lines) is kept in one part when it
    fits in one; a block with ``keep_with_next`` (a heading) stays with what follows it.
    """

    groups: list[list[str]]
    opener: str = ""
    closer: str = ""
    keep_with_next: bool = False


@dataclass
class _Doc:
    blocks: list[_Block] = field(default_factory=list)

    def para(self, *lines: str, keep_with_next: bool = False) -> None:
        self.blocks.append(_Block([list(lines)], keep_with_next=keep_with_next))

    def heading(self, line: str) -> None:
        self.para(line, keep_with_next=True)

    def items(self, items: Iterable[list[str]]) -> None:
        groups = [item for item in items if item]
        if groups:
            self.blocks.append(_Block(groups, "[list]", "[/list]"))


def _item(first: str, more: Iterable[str] = ()) -> list[str]:
    """A ``[*]`` list item: its first line and continuation lines."""
    return ["[*]" + first, *more]


def _bbcode_doc(report: TurnReport, max_chars: int) -> _Doc:
    doc = _Doc()
    viewer = report.viewer
    public = viewer.is_public
    tag = "(private)" if viewer.is_player else "(GM only)"
    title = f"{_bb_inline(report.game_title)} \u2014 turn {report.turn}"
    meta = _bb_inline(report.ruleset_title)
    if report.revision:
        meta += f" \u00b7 revision {report.revision}"
    meta += " \u00b7 " + (
        "[b]Public[/b]" if public else
        f"[b]Private to {_bb_inline(viewer.player_id)} \u2014 send by private message, do not "
        "post[/b]" if viewer.is_player else "[b]GM only \u2014 do not post[/b]")
    doc.para(f"[size=150][b]{title}[/b][/size]", meta)
    if report.outcome:
        doc.para(f"[b]Outcome:[/b] {_bb_inline(report.outcome)}")
    if report.map_file:
        doc.para(f"[b]Map:[/b] attach {_bb_inline(report.map_file)}")

    for number, step in enumerate(report.steps, 1):
        head = f"[u][b]{number}. {_bb_inline(step.title)}[/b][/u]"
        if step.rule:
            head += f" [i]({_bb_inline(step.rule)})[/i]"
        doc.heading(head)
        events = []
        for ev in step.events:
            lines = bbcode_escape(ev.text).split("\n")
            first = ""
            if not ev.public:
                first += f"[b]{tag}[/b] "
            if ev.kind:
                first += f"[i]{_bb_inline(ev.kind)}:[/i] "
            first += lines[0]
            tail = []
            if ev.player:
                tail.append(f"\u2014 {_bb_inline(ev.player)}")
            if ev.rule:
                tail.append(f"[i]({_bb_inline(ev.rule)})[/i]")
            more = lines[1:]
            if tail:
                if more:
                    more[-1] += " " + " ".join(tail)
                else:
                    first += " " + " ".join(tail)
            events.append(_item(first, more))
        if not step.events and not step.rolls:
            doc.para("[i]Nothing to report.[/i]")
        doc.items(events)
        if step.rolls:
            doc.heading("[i]Dice[/i]")
            rolls = []
            for roll in step.rolls:
                line = f"[b]{tag}[/b] " if not roll.public else ""
                line += _bb_inline(roll.purpose)
                if roll.rule:
                    line += f" [i]({_bb_inline(roll.rule)})[/i]"
                line += f": {_bb_inline(roll.expression)} \u2192 [b]{_bb_inline(roll.result)}[/b]"
                src = _source_label(roll.source)
                line += " \u2014 " + (f"[b]{src}[/b]" if roll.source == "entered"
                                      else _bb_inline(src))
                line += f" \u00b7 {_bb_inline(roll.draw_id)}"
                rolls.append(_item(line))
            doc.items(rolls)

    if report.standings is not None:
        doc.heading("[u][b]Standings[/b][/u]")
        hidden = set(report.gm_only_columns)
        cols = [
            _bb_inline(c) + (f" {tag}" if c in hidden else "")
            for c in report.standings.columns
        ]
        doc.para("[i]" + " | ".join(cols) + "[/i]", keep_with_next=True)
        doc.items(
            _item(" | ".join(_bb_inline(_cell(v)) for v in row))
            for row in report.standings.iter_rows()
        )

    if report.orders:
        doc.heading("[u][b]Orders received[/b][/u]")
        orders = []
        for order in report.orders:
            first = f"[b]{_bb_inline(order.player)}[/b]"
            if order.secret:
                first += " [i](secret)[/i]"
            more = [ln for ln in bbcode_escape(order.text).split("\n")]
            more += [f"[i]Problem:[/i] {_bb_inline(p)}" for p in order.problems]
            orders.append(_item(first + ":", more))
        doc.items(orders)

    doc.heading("[u][b]Dice verification[/b][/u]")
    lines = [
        "Seed commitment (sha256): "
        + (_bb_inline(report.seed_commitment) if report.seed_commitment else "[i]none posted[/i]"),
        "Revealed seed: " + (_bb_inline(report.seed) if report.seed else "[i]not yet revealed[/i]"),
    ]
    if report.record_hash:
        lines.append(f"Turn record: {_bb_inline(report.record_hash)} (previous: "
                     f"{_bb_inline(report.previous_hash or 'none')}); keep it to check later "
                     "that this history is still the game's")
    ok = _seed_check(report)
    if ok is True:
        lines.append("The revealed seed matches the commitment.")
    elif ok is False:
        lines.append("[b]The revealed seed does NOT match the commitment.[/b]")
    lines += _bb_fair_dice(report)
    lines.append(VERIFY_SENTENCE.format(cmd=f"[b]{_bb_inline(verify_message(report.turn))}[/b]"))
    doc.para(*lines)

    if report.links:
        doc.heading("[u][b]Links[/b][/u]")
        # The longest [url=...] tag that always fits on a wrapped line.
        limit = (max_chars - 60) // 2
        items = []
        for label, url in report.links:
            enc = _bb_url(url)
            if enc is not None and len(enc) + 6 <= limit:
                items.append(_item(f"[url={enc}]{_bb_inline(label)}[/url]"))
            else:
                items.append(_item(f"{_bb_inline(label)}: {_bb_inline(url)}"))
        doc.items(items)

    if report.changes:
        doc.heading("[u][b]Changes from this turn on[/b][/u]")
        doc.items(_item(_bb_inline(c)) for c in report.changes)
    if report.rules and not public:
        doc.heading("[u][b]Rules in force this turn[/b][/u]")
        doc.items(_item(_bb_inline(f"{n} = {v}" + (f" (default {d})" if v != d else "")
                                   + f" [{r}]")) for n, v, d, r in report.rules)
    if report.gm_notes and not public:
        doc.heading("[u][b]GM notes (not for publication)[/b][/u]")
        doc.items(_item(_bb_inline(n)) for n in report.gm_notes)
    return doc


def _bb_fair_dice(report: TurnReport) -> list[str]:
    """The dice guarantees of a turn and what it announces of the next, as BBCode lines."""
    out = [f"Guarantee: {_bb_inline(g)}" for g in report.guarantees]
    out += [f"[b]Warning:[/b] {_bb_inline(w)}" for w in report.dice_warnings]
    if report.seal:
        out.append(f"Seal (posts and entered dice, before the beacon): {_bb_inline(report.seal)}")
    if report.beacon:
        out.append(f"Beacon: {_bb_inline(report.beacon)}")
    if report.next_commitment:
        out.append(f"Turn {report.turn + 1} dice commitment (sha256): "
                   f"{_bb_inline(report.next_commitment)}")
    if report.next_deadline:
        out.append(f"Turn {report.turn + 1} order deadline: {_bb_inline(report.next_deadline)}")
    return out


def _closer(opener: str) -> str:
    name = opener[1:-1].split("=", 1)[0]
    return f"[/{name}]"


def _wrap(line: str, width: int) -> list[str]:
    """Hard-wrap one line to ``width`` characters, closing and reopening tags at each break."""
    if len(line) <= width:
        return [line]
    tokens: list[tuple[bool, str]] = []
    pos = 0
    for m in _TAG.finditer(line):
        if m.start() > pos:
            tokens.append((False, line[pos:m.start()]))
        tokens.append((True, m.group()))
        pos = m.end()
    if pos < len(line):
        tokens.append((False, line[pos:]))

    out: list[str] = []
    stack: list[str] = []
    chunk = ""
    has_text = False

    def closers(extra: Sequence[str] = ()) -> str:
        return "".join(_closer(t) for t in reversed([*stack, *extra]))

    def flush() -> None:
        nonlocal chunk, has_text
        out.append(chunk + closers())
        chunk = "".join(stack)
        has_text = False

    for is_tag, tok in tokens:
        if is_tag:
            if tok == "[*]":
                chunk += tok
            elif tok.startswith("[/"):
                if stack and not has_text and chunk.endswith(stack[-1]):
                    chunk = chunk[: -len(stack[-1])]  # an empty pair left by a break
                else:
                    chunk += tok
                if stack:
                    stack.pop()
            else:
                if has_text and len(chunk) + len(tok) + len(closers([tok])) + 1 > width:
                    flush()
                stack.append(tok)
                chunk += tok
            continue
        text = tok
        while text:
            room = width - len(chunk) - len(closers())
            if room <= 0:
                if not has_text:
                    raise ValueError(f"max_chars too small to wrap {line[:40]!r}")
                flush()
                continue
            if len(text) <= room:
                chunk += text
                has_text = True
                break
            cut = room
            space = text.rfind(" ", 0, cut)
            if space > cut // 2:
                cut = space + 1
            elif text[cut] == ZWSP and text[cut - 1] in "[<":
                cut -= 1  # never separate an escape from its bracket
            if cut <= 0:
                flush()
                continue
            chunk += text[:cut]
            has_text = True
            text = text[cut:]
            flush()
    if chunk.strip():
        out.append(chunk + closers())
    return [ln.rstrip() for ln in out]


def _size(lines: Sequence[str]) -> int:
    return sum(len(ln) for ln in lines) + max(len(lines) - 1, 0)


def _pack(blocks: Sequence[_Block], budget: int) -> list[list[str]]:
    """Lay blocks into parts of at most ``budget`` characters, breaking only between lines."""
    parts: list[list[str]] = []
    cur: list[str] = []

    def flush() -> None:
        nonlocal cur
        while cur and not cur[-1]:
            cur.pop()
        if cur:
            parts.append(cur)
        cur = []

    wrapped: list[list[list[str]]] = []
    for block in blocks:
        overhead = (len(block.opener) + len(block.closer) + 2) if block.opener else 0
        width = budget - overhead
        if width < 40:
            raise ValueError("max_chars is too small for this report")
        wrapped.append([[w for ln in group for w in _wrap(ln, width)] for group in block.groups])

    def frame(block: _Block) -> tuple[list[str], list[str]]:
        return ([block.opener] if block.opener else []), ([block.closer] if block.closer else [])

    def head(index: int) -> list[str]:
        """The start of a block that must fit where it begins: its first group, or first line."""
        opener, closer = frame(blocks[index])
        first = wrapped[index][0]
        if _size(opener + first + closer) > budget:
            first = first[:1]
        return opener + first + closer

    for index, block in enumerate(blocks):
        opener, closer = frame(block)
        sep = [""] if cur else []
        need = sep + head(index)
        if block.keep_with_next and index + 1 < len(blocks):
            need = sep + [ln for g in wrapped[index] for ln in g] + [""] + head(index + 1)
        if cur and _size(cur + need) > budget:
            flush()
        if cur:
            cur.append("")
        cur += opener
        started = False
        for group in wrapped[index]:
            if started and _size(cur + group + closer) > budget and (
                _size(opener + group + closer) <= budget  # keep the whole group together
                or (_size(cur + group[:2] + closer) > budget  # or at least its first two lines
                    and _size(opener + group[:2] + closer) <= budget)
            ):
                cur += closer
                flush()
                cur = list(opener)
            for line in group:
                if _size(cur + [line] + closer) > budget:
                    cur += closer
                    flush()
                    cur = list(opener)
                cur.append(line)
                started = True
        cur += closer
    flush()
    return parts


def render_bbcode(report: TurnReport, max_chars: int = 20000) -> list[str]:
    """The report as forum post(s) in BBCode, each at most ``max_chars`` characters.

    Tags used: ``[b]``, ``[i]``, ``[u]``, ``[list]``/``[*]``, ``[url=...]`` (only for
    ``http(s)`` links, percent-encoded so the url cannot close the tag) and ``[size=150]`` for the
    title only; no ``[table]`` (not universal) and no maps.

    Escaping: every untrusted string goes through :func:`bbcode_escape`, which inserts a
    zero-width space (U+200B) after every ``[`` and ``<``. The text reads the same but can never
    open or close a BBCode tag (``[/b]`` becomes ``[\\u200b/b]``), nor an HTML tag on forums
    that pass HTML through. Zero-width spaces count towards ``max_chars``.

    Splitting: parts break only between lines, never inside a tag pair; a ``[list]`` cut by a
    break is closed at the end of one part and reopened in the next, so every part's tags are
    balanced. A line longer than a part is hard-wrapped (at a space when one is near), its open
    tags closed and reopened around each break. With more than one part each starts with a line
    ``(part i/n)``.

    As in :func:`render_html`, a report in the public view is filtered by :func:`public_view`.
    """
    if report.view != "gm":
        report = view_report(report, report.view)  # idempotent; see render_html
    if max_chars < MIN_BBCODE_CHARS:
        raise ValueError(f"max_chars must be at least {MIN_BBCODE_CHARS}, not {max_chars}")
    blocks = _bbcode_doc(report, max_chars).blocks
    parts = _pack(blocks, max_chars)
    if len(parts) == 1:
        return ["\n".join(parts[0])]
    digits = 1
    while True:
        biggest = 10**digits - 1
        budget = max_chars - len(f"(part {biggest}/{biggest})") - 1
        parts = _pack(blocks, budget)
        if len(parts) <= biggest:
            break
        digits += 1
    n = len(parts)
    return ["\n".join([f"(part {i}/{n})", *lines]) for i, lines in enumerate(parts, 1)]


# --------------------------------------------------------------------------------------------
# Convenience
# --------------------------------------------------------------------------------------------


def render(
    report: TurnReport, *, view: str = "public", fmt: str = "html", max_chars: int = 20000
) -> str | list[str]:
    """``report`` in ``view`` as HTML (a string) or BBCode (a list of parts)."""
    if fmt not in FORMATS:
        raise ValueError(f"fmt must be one of {', '.join(FORMATS)}, not {fmt!r}")
    shown = for_view(report, view)
    if fmt == "html":
        return render_html(shown)
    return render_bbcode(shown, max_chars=max_chars)


_KNOWN_SUFFIXES = (".html", ".htm", ".bbcode")


def _atomic_write(path: Path, text: str) -> None:
    """A page written whole or not at all (the store's one atomic writer)."""
    atomic_write(path, text.encode("utf-8"))


def write_report(
    report: TurnReport,
    path: str | os.PathLike[str],
    *,
    view: str,
    fmt: str,
    max_chars: int = 20000,
    rendered: str | Sequence[str] | None = None,
) -> list[Path]:
    """Render ``report`` and write it atomically; return the paths written.

    ``rendered`` is the text :func:`render` already made of ``report`` in ``view`` and ``fmt``
    (an HTML string, or the BBCode parts): it is written as it is instead of rendering again.

    HTML goes to ``path`` (``.html`` is added when it has no ``.html``/``.htm`` suffix). BBCode
    goes to ``NAME.bbcode`` for a single part or ``NAME.part1.bbcode``, ``NAME.part2.bbcode``,
    ... where ``NAME`` is ``path`` without a ``.html``/``.htm``/``.bbcode`` suffix; part files
    left over from an earlier, longer rendering of the same NAME are removed (as is the single
    file when parts are written, and the reverse), so the directory never mixes two renderings.
    Each file is written to a temporary file in the same directory, then moved into place.
    """
    if fmt not in FORMATS:
        raise ValueError(f"fmt must be one of {', '.join(FORMATS)}, not {fmt!r}")
    if rendered is None:
        rendered = render(report, view=view, fmt=fmt, max_chars=max_chars)
    elif fmt == "html" and not isinstance(rendered, str):
        raise TypeError("rendered HTML is one string")
    elif fmt != "html" and isinstance(rendered, str):
        raise TypeError("rendered BBCode is a list of parts")
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "html":
        assert isinstance(rendered, str)
        if target.suffix.lower() not in (".html", ".htm"):
            target = target.with_name(target.name + ".html")
        _atomic_write(target, rendered)
        return [target]
    assert not isinstance(rendered, str)
    base = target.name
    if target.suffix.lower() in _KNOWN_SUFFIXES:
        base = target.name[: -len(target.suffix)]
    folder = target.parent
    single = folder / f"{base}.bbcode"
    if len(rendered) == 1:
        paths = [single]
    else:
        paths = [folder / f"{base}.part{i}.bbcode" for i in range(1, len(rendered) + 1)]
    for p, text in zip(paths, rendered):
        _atomic_write(p, text if text.endswith("\n") else text + "\n")
    stale = re.compile(re.escape(base) + r"\.part(\d+)\.bbcode")
    for old in folder.iterdir():
        m = stale.fullmatch(old.name)
        if (m and old not in paths) or (old == single and single not in paths):
            old.unlink()
    return paths
