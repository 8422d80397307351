"""``gmkit publish``: a game as a static site that opens offline from the file system.

The site holds an index of turns, each turn's summary, the history charts, and a page that
checks the dice in the player's browser (:mod:`gmkit.publish.dicecheck`). Every page is self-contained
(inline CSS, static SVG, no request); only the dice checker runs a script, its own, allowed by
hash. Everything on it is drawn for one
viewer (:class:`gmkit.core.views.Viewer`): the public site for the public, through the same door
as every other output (the ruleset's view of the state, the events, rolls and posts the viewer
may see), so nothing secret can reach it. Each player's private pages are drawn the same way for
that player and written to a folder of their own, apart from the public site and never linked
from it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import jinja2

import gmkit.publish.dicecheck as dicecheck
from gmkit.core.reports import CSP, chart_svg, html_environment, render_html
from gmkit.core.files import fsync_dir, current_umask
from gmkit.core.views import Viewer
from gmkit.game import Game
from gmkit.publish.turns import FolderError, player_folder, report_for

PAGE = html_environment().from_string("""\
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{ csp }}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ title }}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:1100px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}
h1{margin-bottom:.2em} .sub{color:#666;margin-top:0}
nav a{margin-right:1em} table{border-collapse:collapse;margin:1em 0}
td,th{border-bottom:1px solid #ddd;padding:.3em .8em;text-align:left}
.turns{columns:4 10em} .figure{margin:1.5em 0;overflow-x:auto} .scroll{overflow-x:auto;max-width:100%}
td{white-space:nowrap}
.maps input{display:none} .maps label{display:inline-block;padding:.1em .45em;margin:.1em;
border:1px solid #bbb;border-radius:4px;cursor:pointer;font-size:.9em}
.maps .frame{display:none} .banner{background:#fff4d6;border:1px solid #e0b84a;padding:.6em 1em}
{% for t in map_turns %}#m{{ t }}:checked ~ .frames .f{{ t }}{display:block}
#m{{ t }}:checked ~ .labels label[for=m{{ t }}]{background:#222;color:#fff}
{% endfor %}
</style></head><body>
<nav><a href="index.html">Index</a><a href="history.html">History</a><a href="{{ check }}">Check the dice</a></nav>
<h1>{{ title }}</h1><p class="sub">{{ subtitle }}</p>
{{ body|safe }}
</body></html>
""")


def _page(title: str, subtitle: str, body: str, map_turns: Sequence[int] = ()) -> str:
    return PAGE.render(title=title, subtitle=subtitle, body=body, csp=CSP,
                       map_turns=list(map_turns), check=dicecheck.PAGE)


def _cell(value: Any) -> Any:
    """A table cell as a reader reads it: a float with two decimals (never ``0.30000000004``)."""
    return f"{value:,.2f}" if isinstance(value, float) else value


def _table(rows: list[dict[str, Any]]) -> str:
    """Rows as an HTML table that scrolls sideways inside its box when wider than the page."""
    env = html_environment(undefined=jinja2.Undefined)
    return env.from_string(
        '<div class="scroll"><table><tr>{% for k in rows[0] %}<th>{{ k }}</th>{% endfor %}</tr>'
        "{% for r in rows %}<tr>{% for v in r.values() %}<td>{{ '—' if v is none else cell(v) }}"
        "</td>{% endfor %}</tr>{% endfor %}</table></div>").render(rows=rows, cell=_cell) \
        if rows else "<p>—</p>"


def _dice_rows(report: Any) -> list[dict[str, Any]]:
    """The luck table's rows for a page: luck as a percentile (``73.4%``, 50% = average), the
    other figures with two decimals."""
    return [{**r, "luck": None if r["luck"] is None else f"{r['luck']:.1f}%"}
            for r in report.to_dicts()]


def _subtitle(game: Game, viewer: Viewer, text: str) -> str:
    return f"{text} · private to {viewer.player_id}" if viewer.is_player else text


def _index(game: Game, turns: Sequence[int], viewer: Viewer) -> str:
    env = html_environment(undefined=jinja2.Undefined)
    state = game.state(viewer=viewer)
    standings = game.ruleset.standings(state, game.context())
    if not viewer.is_player:
        standings = standings.drop(list(game.ruleset.views.gm_only), strict=False)
    outcome = game.turn().outcome
    body = env.from_string("""
{% if outcome %}<p class="banner">{{ outcome }}</p>{% endif %}
<div class="figure">{{ map|safe }}</div>
<h2>Standings after turn {{ latest }}</h2>{{ standings|safe }}
<h2>Turns</h2><ul class="turns">
{% for t in turns %}<li><a href="turn-{{ '%04d' % t }}.html">Turn {{ t }}</a></li>{% endfor %}
</ul>""").render(outcome=outcome, map=game.map_svg(state, title=f"After turn {turns[-1]}") or "",
                 latest=game.latest_turn, standings=_table(standings.to_dicts()),
                 turns=turns)
    return _page(game.title, _subtitle(
        game, viewer, f"{game.ruleset.title} · {len(turns)} turn(s) played"), body)


def _history(game: Game, viewer: Viewer) -> str:
    import gmkit.publish.charts as charts
    import gmkit.publish.history as history

    series = history.player_series(game, view=viewer)
    colours = game.colours(game.state(viewer=viewer))
    labels = game.ruleset.presentation.labels
    parts = ["<h2>Players over the turns</h2>"]
    for metric in series["metric"].unique(maintain_order=True).to_list():
        chart = charts.series_chart(series, metric, colours=colours, labels=labels)
        parts.append(f'<div class="figure">{chart_svg(chart)}</div>')
    timeline = history.timeline(game, view=viewer)
    if timeline.height:
        parts.append("<h2>Timeline</h2>")
        parts.append(f'<div class="figure">{chart_svg(charts.timeline_chart(timeline, colours=colours))}</div>')
    report = history.dice_report(game, view=viewer)
    parts.append("<h2>The dice</h2>")
    if report.height:
        parts.append(f'<div class="figure">{chart_svg(charts.dice_chart(report, colours=colours))}</div>')
    parts.append(_table(_dice_rows(report)))
    turns = game.store.turns()
    frames = "".join(f'<div class="frame f{t}">{history.map_at(game, t, view=viewer)}</div>'
                     for t in turns)
    radios = "".join(f'<input type="radio" name="map" id="m{t}"'
                     f'{" checked" if t == turns[-1] else ""}>' for t in turns)
    buttons = "".join(f'<label for="m{t}">{t}</label>' for t in turns)
    parts.append(f'<h2>The map, turn by turn</h2><div class="maps">{radios}'
                 f'<div class="labels">{buttons}</div><div class="frames">{frames}</div></div>')
    return _page(f"{game.title}: history", _subtitle(game, viewer, game.ruleset.title),
                 "".join(parts), map_turns=turns)


NAV = ('<nav style="margin:1em 2em"><a href="index.html">Index</a> · '
       '<a href="history.html">History</a> · <a href="' + dicecheck.PAGE + '">Check the dice</a>'
       '{prev}{next}</nav>')


def _turn_page(game: Game, t: int, turns: Sequence[int], viewer: Viewer
               ) -> tuple[str, dict[str, Any]]:
    """A turn's page and its entry in the site's dice document: the page prints its dice from
    that entry, as the checker reads them."""
    report = report_for(game, t, viewer)
    entry = dicecheck.turn_entry(report, game.store.manifest(t, report.revision))
    html = render_html(dicecheck.apply_entry(report, entry))
    links = NAV.format(
        prev=f' · <a href="turn-{t - 1:04d}.html">turn {t - 1}</a>' if t - 1 in turns else "",
        next=f' · <a href="turn-{t + 1:04d}.html">turn {t + 1}</a>' if t + 1 in turns else "")
    return html.replace("<body>", "<body>" + links, 1), entry


def _turn_pages(root: str, some: Sequence[int], turns: Sequence[int],
                viewer: str) -> list[tuple[int, tuple[str, dict[str, Any]]]]:
    """Turn pages and their dice entries, rendered in a worker process (its own Game on the
    same folder)."""
    game = Game.open(root)
    return [(t, _turn_page(game, t, turns, Viewer.parse(viewer))) for t in some]


#: The file that marks a folder as a site gmkit published (the only kind it replaces).
MARKER = ".gmkit-site"


class PublishError(ValueError):
    """A site that cannot be written where asked; the message says why."""


def check_target(game: Game, out: Path) -> None:
    """Refuse a folder publishing must not replace: the game folder, a folder inside it or
    holding it, and any existing folder with content that gmkit did not publish."""
    target, root = out.resolve(), game.root.resolve()
    if target == root or root in target.parents:
        raise PublishError(f"{out}: is the game folder or inside it; publish the site elsewhere")
    if target in root.parents:
        raise PublishError(f"{out}: holds the game folder; publish the site elsewhere")
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise PublishError(f"{out}: exists and is not a folder")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise PublishError(f"{out}: exists and holds files gmkit did not publish; choose a new "
                           "or empty folder (only a site gmkit published is replaced)")


def _clear_leftovers(out: Path) -> None:
    """Remove what killed runs of publish left beside ``out`` (only folders it marked)."""
    for old in out.parent.glob(f".{out.name}.gmkit-*"):
        if old.is_dir() and not old.is_symlink() and (
                (old / MARKER).is_file() or not any(old.iterdir())):
            shutil.rmtree(old, ignore_errors=True)


def check_players_target(game: Game, site: Path, players: Path) -> None:
    """Refuse a players' folder inside (or holding, or being) the public site or the game
    folder: each player's pages must stay apart from what is published and from the game."""
    target = players.resolve()
    for other, what in ((site.resolve(), "the public site"), (game.root.resolve(),
                                                               "the game folder")):
        if target == other or other in target.parents or target in other.parents:
            raise PublishError(f"{players}: is, holds or is inside {what}; write the players' "
                               "pages in a folder of their own")


def _write_site(game: Game, out: Path, turns: Sequence[int], viewer: Viewer,
                workers: int) -> list[Path]:
    """Draw every page for ``viewer`` and put them in ``out`` (replaced atomically)."""
    check_target(game, out)
    out.parent.mkdir(parents=True, exist_ok=True)
    _clear_leftovers(out)
    staging = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.gmkit-new-"))
    try:
        os.chmod(staging, 0o777 & ~current_umask())
        (staging / MARKER).write_text(f"pages published by gmkit from {game.title} for "
                                      f"{viewer}\n", "utf-8")
        if workers > 1 and len(turns) >= 2 * workers:
            context = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
                futures = [pool.submit(_turn_pages, str(game.root), turns[i::workers], turns,
                                       str(viewer))
                           for i in range(workers)]
                history_html = _history(game, viewer)
                index_html = _index(game, turns, viewer)
                pages = dict(pair for f in futures for pair in f.result())
        else:
            pages = {t: _turn_page(game, t, turns, viewer) for t in turns}
            history_html = _history(game, viewer)
            index_html = _index(game, turns, viewer)
        for t, (html, _) in pages.items():
            (staging / f"turn-{t:04d}.html").write_text(html, "utf-8")
        doc = dicecheck.document(game.title, game.ruleset.title, viewer,
                                 [entry for _, entry in pages.values()])
        (staging / dicecheck.PAGE).write_text(dicecheck.checker_page(doc), "utf-8")
        (staging / "history.html").write_text(history_html, "utf-8")
        (staging / "index.html").write_text(index_html, "utf-8")
        check_target(game, out)  # again: the folder may have changed while the pages were drawn
        if out.exists():
            old = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.gmkit-old-"))
            os.rmdir(old)
            os.rename(out, old)
            os.rename(staging, out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.rename(staging, out)
        fsync_dir(out.parent)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return sorted(out.glob("*.html"))


def publish(game: Game, out: str | Path, *, workers: int = 2,
            players: str | Path | None = None) -> list[Path]:
    """Write the public site of a game into ``out`` (replaced atomically); returns its pages:
    the index, the history, each turn's page and the dice checker (``check-dice.html``), whose
    document is the one the turn pages print their dice from (:mod:`gmkit.publish.dicecheck`).

    ``out`` must be new, empty, or a site gmkit published before (it carries a marker file);
    the game folder, anything inside it and any other folder are refused.

    With ``players``, each player of ``game.toml`` also gets their private pages (the same
    pages drawn for that player: their own secret orders, results and figures) in
    ``players/<player id>/``, each replaced atomically like the site; ``players`` must lie
    outside the site and the game folder. Their pages are returned after the site's.

    With ``workers`` > 1 the turn pages are drawn in that many worker processes while this one
    draws the history (chart drawing holds the interpreter lock, so threads would not help)."""
    out = Path(out)
    check_target(game, out)
    folders: list[tuple[Viewer, Path]] = []
    if players is not None:
        check_players_target(game, out, Path(players))
        for info in game.everyone():
            try:
                folder = player_folder(Path(players), info.id)
            except FolderError as e:
                raise PublishError(str(e)) from None
            check_target(game, folder)
            folders.append((Viewer.player(info.id), folder))
    turns = [t for t in game.store.turns() if t > game.first_turn]
    if not turns:
        raise PublishError(f"{game.root}: no turn has been played yet; nothing to publish")
    written = _write_site(game, out, turns, Viewer.public(), workers)
    for viewer, folder in folders:
        written += _write_site(game, folder, turns, viewer, workers)
    return written
