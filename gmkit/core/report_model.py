"""A turn report's data (:class:`TurnReport` and its lines) and the one way it is narrowed for
a viewer (:func:`view_report`), with the helpers both renderings share (safe links, cells, the
seed check). Rendered by :mod:`gmkit.core.reports` (HTML) and :mod:`gmkit.core.report_bbcode`.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import polars as pl

from gmkit.core.views import Viewer, sees, sees_post

if TYPE_CHECKING:
    import altair


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
    shared_with: tuple[str, ...] = ()  # other players a non-public roll concerns


@dataclass(frozen=True)
class EventLine:
    """Something that happened in a step; ``player`` names the player it concerns, if any, and
    ``shared_with`` the other players a non-public one concerns."""

    kind: str
    rule: str
    text: str
    public: bool = True
    player: str | None = None
    shared_with: tuple[str, ...] = ()


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
    #: Each rollback's replacement of the announced next commitment, in words ("announced X,
    #: replaced by Y at the rollback of ... (why)").
    next_commitment_replaced: tuple[str, ...] = ()
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
            events=tuple(e for e in step.events if sees(v, e.public, e.player, e.shared_with)),
            rolls=tuple(r for r in step.rolls if sees(v, r.public, r.player, r.shared_with)),
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
# BBCode
# --------------------------------------------------------------------------------------------
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
