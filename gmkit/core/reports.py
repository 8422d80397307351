"""Turn summaries: one offline HTML page and the same summary as BBCode forum posts.

After a turn is resolved the GM publishes a :class:`TurnReport`. It renders two ways:

* :func:`render_html`: a single self-contained HTML file (inline CSS, inline SVG maps and chart,
  a Content-Security-Policy that forbids every request), so it opens offline and cannot phone
  home;
* :func:`render_bbcode`: forum post(s), split into parts under a length limit.

A report is drawn for a viewer (:class:`gmkit.core.views.Viewer`): the *GM* view holds
everything, the *public* view what everyone may see, a *player* view (``"player:Red"``) what the
public sees plus that player's own secret orders, results and private figures. Reports of a
game are built for their viewer by :func:`gmkit.publish.summary.turn_report` (maps and standings drawn
from the ruleset's view of the state). :func:`view_report` narrows a report already built, with
the same rules: it removes the
posts, events and rolls the viewer may not see, GM-only standings values and GM notes. It
cannot redraw maps: a map in a GM report stays as drawn.

Every string that may come from a player (names, order text, event text, lord names, links,
table cells) is escaped in both formats: HTML by Jinja2's autoescaping, BBCode by
:func:`bbcode_escape`. The map SVGs are trusted markup from gmkit's own map renderer and are
inserted as they are; they must be drawn from public information when the public view is
published. The chart is converted to static SVG by vl-convert (which escapes text) and then
sanitized (no scripts, event handlers, foreign objects or external references).

This module renders HTML and re-exports the rest: the data and its views
(:mod:`gmkit.core.report_model`), BBCode (:mod:`gmkit.core.report_bbcode`) and the chart
(:mod:`gmkit.core.report_chart`). It is generic: it never imports a ruleset.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from gmkit.core.report_bbcode import bbcode_escape, render_bbcode
from gmkit.core.report_chart import chart_svg, sanitize_svg
from gmkit.core.cells import cell_text
from gmkit.core.report_model import (FORMATS, VERIFY_SENTENCE, VIEWS, _CONTROL, EventLine,
                                     OrderPost, RollLine, StepSection, TurnReport,
                                     _seed_check, _source_label, safe_link, verify_message,
                                     view_report)
from gmkit.core.files import atomic_write
from gmkit.core.views import Viewer

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
    "render",
    "render_bbcode",
    "render_html",
    "safe_link",
    "sanitize_svg",
    "view_report",
    "warm_up",
    "write_report",
]


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


def render_html(report: TurnReport, *, convert: Callable[[Any], str] = chart_svg) -> str:
    """The report as one self-contained HTML page, in the view ``report`` holds.

    No external request of any kind: inline CSS, inline SVG, and a Content-Security-Policy of
    ``default-src 'none'; style-src 'unsafe-inline'; img-src data:``. All text is autoescaped;
    only the trusted map SVGs and the sanitized chart SVG are inserted as markup. A report that
    says it holds the public view is passed through :func:`view_report` again (idempotent), so
    one built by hand with ``view="public"`` cannot leak what it should not hold.

    ``convert`` turns the chart (as the view keeps it) into its SVG: :func:`chart_svg` here, or
    the same in another process (:class:`gmkit.publish.converter.ChartConverter`).
    """
    if report.view != "gm":
        report = view_report(report, report.view)  # idempotent; a hand-built report is filtered
    viewer = report.viewer
    standings = None
    if report.standings is not None:
        hidden = set(report.gm_only_columns)
        standings = {
            "columns": [(c, c in hidden) for c in report.standings.columns],
            "rows": [[cell_text(v) for v in row] for row in report.standings.iter_rows()],
        }
    context = {
        "r": report,
        "is_public": viewer.is_public,
        "private_to": viewer.player_id,
        "badge": _badge(viewer),
        "hidden_tag": "private" if viewer.is_player else "GM only",
        "standings": standings,
        "chart_svg": convert(report.chart) if report.chart is not None else None,
        "links": [(label, safe_link(url), url) for label, url in report.links],
        "seed_ok": _seed_check(report),
        "verify_sentence": VERIFY_SENTENCE.split("{cmd}", 1),
        "verify_message": verify_message(report.turn),
        "source_label": _source_label,
    }
    return _environment().get_template("report.html.j2").render(context)



# --------------------------------------------------------------------------------------------
# Convenience
# --------------------------------------------------------------------------------------------


def render(
    report: TurnReport, *, view: str = "public", fmt: str = "html", max_chars: int = 20000
) -> str | list[str]:
    """``report`` in ``view`` as HTML (a string) or BBCode (a list of parts)."""
    if fmt not in FORMATS:
        raise ValueError(f"fmt must be one of {', '.join(FORMATS)}, not {fmt!r}")
    shown = view_report(report, view)
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

