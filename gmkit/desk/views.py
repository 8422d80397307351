"""What the GM's desk shows: tables and callouts as HTML, maps as pictures, and the views a
notebook cell draws (the overview of a turn, a post's preview, a step, the turn so far, what was
published). Pure presentation: nothing here reads or writes a game folder; :mod:`gmkit.desk.desk`
builds these views and re-exports them."""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from gmkit.core.dice import Roll
from gmkit.core.cells import cell_text
from gmkit.core.table_diff import changes


_cell = cell_text


#: Cells up to this many characters keep to one line; longer ones wrap, at a readable width.
_ONE_LINE = 40


def _td(value: Any, wrap_all: bool = False) -> str:
    text = _cell(value)
    wrap = "white-space:nowrap" if len(text) <= _ONE_LINE and "\n" not in text else \
        ("" if wrap_all else "min-width:18em;max-width:48em")
    return (f"<td style='padding:2px 8px;vertical-align:top;{wrap}'>"
            f"{html.escape(text).replace(chr(10), '<br>')}</td>")


def frame_html(df: pl.DataFrame | None, *, empty: str = "none", caption: str | None = None,
               wrap: bool = False) -> str:
    """A small frame as an escaped HTML table (no scripts, no styles beyond inline ones).

    Short cells keep to one line and long ones wrap at a readable width; a table wider than
    the page scrolls sideways rather than squeezing its rows to a few words a line (``wrap``:
    the table is as wide as the page and long cells wrap to the room left). Booleans read
    yes/no and missing values a dash."""
    cap = f"<caption style='text-align:left;font-weight:bold'>{html.escape(caption)}</caption>" \
        if caption else ""
    if df is None or df.is_empty():
        return (f"<p><b>{html.escape(caption)}</b>: " if caption else "<p>") + \
            f"<i>{html.escape(empty)}</i></p>"
    head = "".join(f"<th style='text-align:left;padding:2px 8px'>{html.escape(c)}</th>"
                   for c in df.columns)
    body = "".join("<tr>" + "".join(_td(v, wrap) for v in row) + "</tr>"
                   for row in df.iter_rows())
    width = "width:100%;" if wrap else ""
    return (f"<div class='gmkit-table' style='overflow-x:auto;max-width:100%'>"
            f"<table style='{width}border-collapse:collapse;margin:4px 0'>{cap}<thead>"
            f"<tr style='border-bottom:1px solid #999'>{head}</tr></thead><tbody>{body}"
            f"</tbody></table></div>")


_CALLOUT_COLOURS = {"danger": ("#fdecea", "#b3261e"), "warn": ("#fff8e1", "#8a6d00"),
                    "success": ("#e8f5e9", "#1b5e20"), "info": ("#e3f2fd", "#0d47a1"),
                    "neutral": ("#f5f5f5", "#333333")}


def callout_html(message: str, kind: str = "neutral") -> str:
    """A message box (the Jupyter counterpart of ``mo.callout``)."""
    bg, fg = _CALLOUT_COLOURS.get(kind, _CALLOUT_COLOURS["neutral"])
    return (f"<div style='background:{bg};color:{fg};border-left:4px solid {fg};"
            f"padding:6px 10px;margin:4px 0;white-space:pre-wrap'>{html.escape(message)}</div>")


_SVG_TITLE = re.compile(r"<title>(.*?)</title>", re.S)


def svg_image(svg: str, *, style: str = "width:100%;height:auto") -> str:
    """An SVG map as one ``<img>`` (a data URL, its title as the alternative text and as a
    caption, so that the page's text still names it).

    A browser draws it as a picture instead of a thousand elements in the page, which is what
    makes a notebook's click show its result at once: marimo turns every element of its HTML
    outputs into a React node, and AZTLAN's two maps alone hold some two thousand. The regions'
    hover titles are lost; their labels stay."""
    found = _SVG_TITLE.search(svg)
    title = html.escape(html.unescape(found.group(1)) if found else "map", quote=True)
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return (f"<figure style='margin:0'><img style='{style}' alt='{title}' "
            f"src='data:image/svg+xml;base64,{data}'><figcaption style='font-size:smaller;"
            f"color:#555'>{title}</figcaption></figure>")


_SVG_SIZE = re.compile(r"<svg\b[^>]*?\bwidth=\"([\d.]+)\"[^>]*?\bheight=\"([\d.]+)\"")


def _natural_size(svg: str) -> tuple[float, float] | None:
    """The width and height an SVG document is drawn at, in pixels, when it says."""
    found = _SVG_SIZE.search(svg[:2000])
    return (float(found.group(1)), float(found.group(2))) if found else None


def zoomable_map(svg: str, zoom: int = 100, *, as_image: bool = False) -> str:
    """A map the GM can zoom (``zoom`` percent of its own size, 25 to 800) and pan (the frame
    scrolls both ways): a hex world or a large board read at any scale.

    At 100% and below the map is never wider than the frame nor taller than most of the
    window (it is drawn smaller, whole, never larger than its own size, so its title and
    legend keep the size they were set in); above 100% it grows past the frame, which
    scrolls. The map stays inline SVG (its regions' hover titles kept), or a picture with
    ``as_image`` (see :func:`svg_image`)."""
    zoom = max(25, min(800, int(zoom)))
    natural = _natural_size(svg)
    width = f"{natural[0] * zoom / 100:.0f}px" if natural else f"{zoom}%"
    fit = "max-width:100%;max-height:80vh;" if zoom <= 100 else "max-width:none;"
    style = f"display:block;width:{width};height:auto;{fit}"
    if as_image:
        inner = svg_image(svg, style=style)
    else:
        # the style goes last in the picture's opening tag
        end = svg.find(">", svg.find("<svg"))
        inner = svg if end < 0 else f"{svg[:end]} style='{style}'{svg[end:]}"
    return (f"<div class='gmkit-map-frame' data-zoom='{zoom}' style='overflow:auto;"
            f"max-height:85vh;border:1px solid #ddd'>{inner}</div>")


def _stacked_maps(maps: Iterable[str], as_images: bool, zoom: int) -> str:
    """Maps shown together (a step's orders and its result, a turn before and after): one
    above the other, each as wide as the page allows, zoomed alike."""
    return ("<div class='gmkit-step-maps' style='display:flex;flex-direction:column;gap:8px'>"
            + "".join(zoomable_map(m, zoom, as_image=as_images) for m in maps) + "</div>")


@dataclass(frozen=True)
class Overview:
    """The turn at a glance: what is committed, the standings (GM view) and who has posted."""

    title: str
    ruleset: str
    latest_turn: int
    turn: int
    standings: pl.DataFrame
    sent: tuple[str, ...]
    waiting: tuple[str, ...]
    posts: int
    outcome: str | None = None

    def summary(self) -> str:
        """One paragraph in words."""
        if self.outcome:
            return (f"{self.title} ({self.ruleset}): the game is over after turn "
                    f"{self.latest_turn}: {self.outcome}")
        sent = ", ".join(self.sent) or "nobody yet"
        waiting = ", ".join(self.waiting) or "nobody"
        return (f"{self.title} ({self.ruleset}): turn {self.latest_turn} is committed; orders are "
                f"for turn {self.turn}. {self.posts} post(s) received. Orders from: {sent}. "
                f"Waiting for: {waiting}.")

    def standings_html(self) -> str:
        """The standings, a row a player at a glance, then each player's holdings in a table
        of their own, as wide as the page (a long list of places in the standings' row made
        it many lines tall)."""
        if "holdings" not in self.standings.columns or "player" not in self.standings.columns:
            return frame_html(self.standings, caption="Standings (GM view)")
        return (frame_html(self.standings.drop("holdings"), caption="Standings (GM view)")
                + frame_html(self.standings.select("player", "holdings"), caption="Holdings",
                             wrap=True))

    def to_html(self) -> str:
        return f"<p>{html.escape(self.summary())}</p>" + self.standings_html()


@dataclass(frozen=True)
class PostPreview:
    """How a post reads: the orders in words, the rejected lines and the validation problems.

    ``counts`` is False when the game's rule on several posts means this one would not count
    (``note`` says why); ``seq`` is set once the post is stored.
    """

    player: str
    secret: bool
    text: str
    orders: pl.DataFrame  # line, text, reads as (less the lines rejected)
    rejected: pl.DataFrame  # line, text, reason: by the parser or the rules, in line order
    problems: tuple[str, ...]  # rejections of the player's other posts of the turn
    parse_report: str  # the rejected lines, quoted back
    message: str | None = None  # e.g. the post has no orders
    note: str | None = None  # e.g. an earlier post of this player counts instead
    counts: bool = True
    seq: int | None = None
    #: accepted lines that would be void if they resolved as the state stands now
    void_now: tuple[str, ...] = ()
    #: plain lines that start neither with an order word nor a known name ("Good luck all!"):
    #: not read as orders, and no rejection (line, text)
    unread: pl.DataFrame = field(
        default_factory=lambda: pl.DataFrame(schema={"line": pl.Int64, "text": pl.String}))

    @property
    def ok(self) -> bool:
        """True when every line was read and nothing is wrong with the orders."""
        return self.message is None and self.rejected.is_empty() and not self.problems

    def report(self) -> str:
        """The text to quote back to the player: every rejected line with its reason."""
        lines = [self.parse_report] if self.parse_report else []
        return "\n".join(lines + list(self.problems))

    def to_text(self) -> str:
        """The preview as plain text."""
        out = [f"{self.player}'s {'secret' if self.secret else 'public'} post"
               + (f" (stored as #{self.seq})" if self.seq is not None else "") + ":"]
        if self.message:
            out.append(f"  ! {self.message}")
        for line, text, words in self.orders.iter_rows():
            out.append(f"  line {line}: {words}   <  {text}")
        rejected = self.report()
        if rejected:
            out.append("rejected (quote this back):")
            out += [f"  {r}" for r in rejected.splitlines()]
        if not self.unread.is_empty():
            out.append("not read as orders:")
            out += [f"  line {line}: {text}" for line, text in self.unread.iter_rows()]
        if self.void_now:
            out.append("accepted, but void if resolved now:")
            out += [f"  {v}" for v in self.void_now]
        if self.note:
            out.append(f"note: {self.note}")
        if self.ok:
            out.append("every line reads as an order; nothing is wrong.")
        return "\n".join(out)

    def to_html(self) -> str:
        parts = []
        if self.message:
            parts.append(callout_html(self.message, "danger"))
        parts.append(frame_html(self.orders, caption="Read as orders", empty="no order read"))
        report = self.report()
        if report:
            parts.append("<p><b>Rejected, ready to quote back:</b></p><pre style='white-space:"
                         f"pre-wrap;background:#fdecea;padding:6px'>{html.escape(report)}</pre>")
        if not self.unread.is_empty():
            parts.append(frame_html(self.unread, caption="Not read as orders (no order word or "
                                    "known name starts them)", empty=""))
        if self.void_now:
            parts.append(callout_html("Accepted, but void if resolved now: "
                                      + "; ".join(self.void_now), "warn"))
        if self.note:
            parts.append(callout_html(self.note, "warn"))
        if self.ok:
            parts.append(callout_html("Every line reads as an order; nothing is wrong.",
                                      "success"))
        return "".join(parts)


@dataclass(frozen=True)
class StepView:
    """One resolution step as the GM looks at it."""

    index: int  # 1-based
    count: int
    name: str
    title: str
    rule: str
    events: pl.DataFrame  # kind, player, region, shown, text
    dice: pl.DataFrame  # draw_id, purpose, expression, faces, result, source, shown
    changes: Mapping[str, pl.DataFrame]  # table -> key, field, before, after
    map_svg: str | None
    next_title: str | None
    orders_svg: str | None = None  # the state before the turn with its orders drawn

    @property
    def done(self) -> bool:
        """True when this was the last step (or the last actor's action of the last step)."""
        return self.next_title is None

    def heading(self) -> str:
        return f"Step {self.index} of {self.count}: {self.title}"

    def to_text(self) -> str:
        """The step as plain text (events, dice, changes)."""
        out = [self.heading(), f"  rule: {self.rule}"]
        out += [f"  event: {text}" + ("" if shown == "public" else " [GM only]")
                for text, shown in self.events.select("text", "shown").iter_rows()]
        for r in self.dice.iter_rows(named=True):
            out.append(f"  die {r['draw_id']}: {r['purpose']}: {r['expression']} -> "
                       f"{r['result']} ({r['source']})")
        for table, frame in self.changes.items():
            for row in frame.iter_rows():
                *key, what, was, now = row
                out.append(f"  {table} {key[0] + ': ' if key else ''}{what} {was} -> {now}")
        if not self.events.height and not self.dice.height and not self.changes:
            out.append("  nothing happened in this step")
        out.append(f"  next: {self.next_title}" if self.next_title else "  every step has run")
        return "\n".join(out)

    def to_html(self, *, with_map: bool = True, maps_as_images: bool = False,
                zoom: int = 100) -> str:
        """The step as HTML; its maps inline SVG, or pictures with ``maps_as_images`` (see
        :func:`svg_image`), each at ``zoom`` percent (see :func:`zoomable_map`)."""
        parts = [f"<h4 style='margin:4px 0'>{html.escape(self.heading())}</h4>",
                 f"<p><i>Rule: {html.escape(self.rule)}</i></p>"]
        # the maps first, so the GM sees the board before the tables
        maps = [m for m in (self.orders_svg, self.map_svg) if m] if with_map else []
        if maps:
            parts.append(_stacked_maps(maps, maps_as_images, zoom))
        parts += [frame_html(self.events, caption="Events", empty="no event"),
                  frame_html(self.dice, caption="Dice", empty="no die rolled")]
        if self.changes:
            parts += [frame_html(frame, caption=f"Changes to {table}")
                      for table, frame in self.changes.items()]
        else:
            parts.append("<p><b>Changes</b>: <i>no table changed</i></p>")
        parts.append(f"<p>Next: {html.escape(self.next_title)}</p>" if self.next_title
                     else "<p>Every step has run: the turn can be committed.</p>")
        return "".join(parts)


@dataclass(frozen=True)
class TurnSoFar:
    """The turn being resolved at a glance: every step run (events and dice, no map each) with
    the map before the turn and after the last step run."""

    turn: int
    count: int
    steps: tuple[StepView, ...]
    map_before: str | None
    map_after: str | None

    @property
    def done(self) -> bool:
        """True when every step has run."""
        return len(self.steps) == self.count

    def heading(self) -> str:
        state = "every step has run" if self.done else \
            f"{len(self.steps)} of {self.count} steps run"
        return f"Turn {self.turn} so far: {state}"

    def to_text(self) -> str:
        return "\n".join([self.heading(), *(v.to_text() for v in self.steps)])

    def to_html(self, *, maps_as_images: bool = False, zoom: int = 100) -> str:
        """The turn so far as HTML; its maps inline SVG, or pictures with ``maps_as_images``
        (see :func:`svg_image`), each at ``zoom`` percent (see :func:`zoomable_map`)."""
        parts = [f"<h4 style='margin:4px 0'>{html.escape(self.heading())}</h4>"]
        maps = [m for m in (self.map_before, self.map_after) if m]
        if maps:
            parts.append(_stacked_maps(maps, maps_as_images, zoom))
        for view in self.steps:
            parts.append(f"<h5 style='margin:8px 0 2px'>{html.escape(view.heading())}</h5>")
            parts.append(frame_html(view.events.select("player", "shown", "text"),
                                    empty="no event"))
            if view.dice.height:
                parts.append(frame_html(view.dice.select("draw_id", "purpose", "expression",
                                                         "faces", "result", "source"),
                                        caption="Dice"))
        if not self.steps:
            parts.append("<p><i>No step run yet.</i></p>")
        return "".join(parts)


@dataclass(frozen=True)
class Published:
    """The summaries written for a committed turn, and the folder they were written to."""

    turn: int
    paths: tuple[Path, ...]
    html: Mapping[str, str]  # view -> page
    bbcode: Mapping[str, str]  # view -> post(s), parts separated by a blank line
    revealed: bool
    folder: Path | None = None
    #: Each player's own report (player id -> files), beside the public and GM ones.
    players: Mapping[str, tuple[Path, ...]] = field(default_factory=dict)

    def summary(self) -> str:
        """What was written where, and whether the seed was revealed when it was."""
        folder = self.folder or (self.paths[0].parent if self.paths else Path("."))
        text = (f"wrote the summaries of turn {self.turn} into {folder}: "
                + ", ".join(p.name for p in self.paths))
        if self.players:
            text += f", and each player's report in players/ ({len(self.players)} players)"
        if not self.revealed:
            text += (f". The seed of turn {self.turn} is not revealed yet, so they say so; "
                     "Reveal the seed writes them again with it")
        return text


# -- the frames a step's view shows: its draws and what changed in each table -------------

def _faces_result(roll: Roll) -> tuple[str, str]:
    value = roll.result
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        faces = " + ".join(map(str, value))
        return faces, str(sum(value))
    if isinstance(value, float):
        return "", f"{value:.6f}"
    if isinstance(value, list):
        return "", ", ".join(map(str, value))
    return "", str(value)


_DICE_SCHEMA = {"draw_id": pl.String, "purpose": pl.String, "expression": pl.String,
                "faces": pl.String, "result": pl.String, "source": pl.String, "shown": pl.String}
_EVENT_SCHEMA = {"kind": pl.String, "player": pl.String, "region": pl.String,
                 "shown": pl.String, "text": pl.String}


def _dice_frame(rolls: Iterable[Roll]) -> pl.DataFrame:
    rows = []
    for r in rolls:
        faces, result = _faces_result(r)
        rows.append((r.draw_id, r.purpose, r.expression, faces, result, r.source,
                     "public" if r.public else "GM only"))
    return pl.DataFrame(rows, schema=_DICE_SCHEMA, orient="row")


def table_changes(before: pl.DataFrame, after: pl.DataFrame) -> pl.DataFrame | None:
    """What changed in one table (None when nothing did): see
    :func:`gmkit.core.table_diff.changes` (rows named by their key, a changed field a line)."""
    return changes(before, after)


def iframe_html(page: str, height: int = 520) -> str:
    """A full HTML page shown in a sandboxed iframe (srcdoc)."""
    return (f"<iframe sandbox='' style='width:100%;height:{height}px;border:1px solid #ccc' "
            f"srcdoc=\"{html.escape(page, quote=True)}\"></iframe>")
