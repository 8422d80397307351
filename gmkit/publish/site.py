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
from collections.abc import Callable, Mapping, Sequence
import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import jinja2
import polars as pl

import gmkit.publish.dicecheck as dicecheck
from gmkit.core.cells import DASH, cell_text
from gmkit.core.report_chart import chart_spec
from gmkit.core.reports import (CSP, TurnReport, chart_svg, html_environment, render_html,
                                view_report)
from gmkit.core.files import fsync_dir, current_umask
from gmkit.core.views import Viewer
from gmkit.game import Game
from gmkit.publish.converter import ChartConverter
from gmkit.publish.site_inputs import CACHE, OldSite, SiteInputs, carry, stamp, write_index
from gmkit.publish.site_parts import Parts, chart_name
from gmkit.publish.turns import FolderError, player_folder, report_for

#: A progress callback: ``(done, total)`` units of work.
Progress = Callable[[int, int], None]

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


def _table(rows: list[dict[str, Any]]) -> str:
    """Rows as an HTML table that scrolls sideways inside its box when wider than the page;
    each cell as a reader reads it (:func:`~gmkit.core.cells.cell_text`: yes or no, a dash for
    a missing value, two decimals)."""
    env = html_environment(undefined=jinja2.Undefined)
    return env.from_string(
        '<div class="scroll"><table><tr>{% for k in rows[0] %}<th>{{ k }}</th>{% endfor %}</tr>'
        "{% for r in rows %}<tr>{% for v in r.values() %}<td>{{ cell(v) }}"
        "</td>{% endfor %}</tr>{% endfor %}</table></div>").render(rows=rows, cell=cell_text) \
        if rows else f"<p>{DASH}</p>"


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


def _history(game: Game, viewer: Viewer, parts: Parts | None = None) -> str:
    """The history page: the players over the turns, the timeline, the dice, the maps."""
    parts = parts or Parts()
    if parts.pool is not None:
        return _history_page(game, viewer, _history_parts(game, viewer, parts))
    with ThreadPoolExecutor(max_workers=4) as pool:
        parts.pool = pool
        try:
            return _history_page(game, viewer, _history_parts(game, viewer, parts))
        finally:
            parts.pool = None


def _history_page(game: Game, viewer: Viewer, pieces: Sequence[str | Future[str]]) -> str:
    """The history page of its pieces, once its charts are converted."""
    body = "".join(p if isinstance(p, str) else p.result() for p in pieces)
    return _page(f"{game.title}: history", _subtitle(game, viewer, game.ruleset.title),
                 body, map_turns=game.store.turns())


def _history_parts(game: Game, viewer: Viewer, parts: Parts) -> list[str | Future[str]]:
    """The history page's body in pieces: text, and charts still converting."""
    import gmkit.publish.history as history

    series = parts.series(game, viewer)
    colours = game.colours(game.state(viewer=viewer))
    labels = game.ruleset.presentation.labels
    out: list[str | Future[str]] = ["<h2>Players over the turns</h2>"]
    for metric in series["metric"].unique(maintain_order=True).to_list():
        def draw(specs: Any, m: str = metric) -> dict[str, Any]:
            return specs.series_spec(series, m, colours=colours, labels=labels)

        out += ['<div class="figure">',
                parts.chart("series", series.filter(pl.col("metric") == metric), draw, metric,
                            colours, labels), "</div>"]
    events, rolls = parts.logs(game, viewer)
    timeline = history.timeline(game, view=viewer, events=events)
    if timeline.height:
        out.append("<h2>Timeline</h2>")
        out += ['<div class="figure">',
                parts.chart("timeline", timeline, lambda specs: specs.timeline_spec(
                    timeline, colours=colours), colours), "</div>"]
    report = history.dice_report(game, view=viewer, rolls=rolls)
    out.append("<h2>The dice</h2>")
    if report.height:
        out += ['<div class="figure">',
                parts.chart("dice", report, lambda specs: specs.dice_spec(
                    report, colours=colours), colours), "</div>"]
    out.append(_table(_dice_rows(report)))
    turns = game.store.turns()
    frames = "".join(f'<div class="frame f{t}">{parts.map_frame(game, t, viewer)}</div>'
                     for t in turns)
    radios = "".join(f'<input type="radio" name="map" id="m{t}"'
                     f'{" checked" if t == turns[-1] else ""}>' for t in turns)
    buttons = "".join(f'<label for="m{t}">{t}</label>' for t in turns)
    out.append(f'<h2>The map, turn by turn</h2><div class="maps">{radios}'
               f'<div class="labels">{buttons}</div><div class="frames">{frames}</div></div>')
    return out


NAV = ('<nav style="margin:1em 2em"><a href="index.html">Index</a> · '
       '<a href="history.html">History</a> · <a href="' + dicecheck.PAGE + '">Check the dice</a>'
       '{prev}{next}</nav>')


def _turn_report(game: Game, t: int, viewer: Viewer) -> tuple[TurnReport, dict[str, Any]]:
    """A turn's report as its page shows it (in the viewer's view) and its entry in the site's
    dice document: the page prints its dice from that entry, as the checker reads them."""
    report = report_for(game, t, viewer)
    entry = dicecheck.turn_entry(report, game.store.manifest(t, report.revision))
    report = dicecheck.apply_entry(report, entry)
    return (view_report(report, report.view) if report.view != "gm" else report), entry


def _turn_html(report: TurnReport, t: int, turns: Sequence[int],
               convert: Callable[[Any], str] = chart_svg) -> str:
    """A turn's page of its report (``convert``: how its chart becomes SVG)."""
    html = render_html(report, convert=convert)
    links = NAV.format(
        prev=f' · <a href="turn-{t - 1:04d}.html">turn {t - 1}</a>' if t - 1 in turns else "",
        next=f' · <a href="turn-{t + 1:04d}.html">turn {t + 1}</a>' if t + 1 in turns else "")
    return html.replace("<body>", "<body>" + links, 1)


def _turn_pages(root: str, some: Sequence[int], turns: Sequence[int], viewer: str
                ) -> tuple[list[tuple[int, tuple[str, dict[str, Any]]]], dict[str, str]]:
    """Turn pages and their dice entries, rendered in a worker process (its own Game on the
    same folder), with their charts' SVG by the name the site keeps each under (so the page
    of the turn before a new one, drawn again, converts none)."""
    game = Game.open(root)
    charts: dict[str, str] = {}

    def convert(chart: Any) -> str:
        spec = chart_spec(chart)
        charts[chart_name(spec)] = svg = chart_svg(spec)
        return svg

    pages = []
    for t in some:
        report, entry = _turn_report(game, t, Viewer.parse(viewer))
        pages.append((t, (_turn_html(report, t, turns, convert), entry)))
    return pages, charts


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


def _turn_name(turn: int) -> str:
    return f"turn-{turn:04d}.html"


def _in_workers(todo: Sequence[int], workers: int) -> bool:
    """Whether the turn pages ``todo`` are drawn in ``workers`` processes (when there are many)
    rather than here."""
    return workers > 1 and len(todo) >= 2 * workers


def _converted(svg: Future[str]) -> Callable[[Any], str]:
    """A chart's conversion when it is already under way: its SVG, once done."""
    return lambda _chart: svg.result()


def _draw_turns(game: Game, todo: Sequence[int], turns: Sequence[int], viewer: Viewer,
                workers: int, during: Callable[[], None], step: Callable[[int], None],
                prefetch: Callable[[Any], Future[str]] | None = None,
                keep: Callable[[str, bytes], None] | None = None
                ) -> dict[int, tuple[str, dict[str, Any]]]:
    """The pages of the turns ``todo`` and their dice entries, drawn in ``workers`` processes
    when there are many, else here; ``during`` runs here first (its charts convert in
    threads meanwhile); ``step(n)`` after each ``n`` pages. Drawn here, the pages' reports
    come first and ``prefetch`` (a chart to its SVG, to come) converts their charts while
    ``during`` runs; drawn in processes, their charts are kept with ``keep(name, svg)``."""
    if _in_workers(todo, workers):
        size = max(1, min(8, len(todo) // (2 * workers)))
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            futures = [pool.submit(_turn_pages, str(game.root), todo[i:i + size], turns,
                                   str(viewer)) for i in range(0, len(todo), size)]
            during()
            pages: dict[int, tuple[str, dict[str, Any]]] = {}
            for future in as_completed(futures):
                got, svgs = future.result()
                pages.update(got)
                for name, text in svgs.items():
                    if keep is not None:
                        keep(name, text.encode("utf-8"))
                step(len(got))
        return pages
    reports = {t: _turn_report(game, t, viewer) for t in todo}
    charts = {t: prefetch(report.chart) for t, (report, _) in reports.items()
              if prefetch is not None and report.chart is not None}
    during()
    pages = {}
    for t, (report, entry) in reports.items():
        svg = charts.get(t)
        pages[t] = (_turn_html(report, t, turns) if svg is None else
                    _turn_html(report, t, turns, _converted(svg)), entry)
        step(1)
    return pages


def _kept_entries(game: Game, old: OldSite, inputs: SiteInputs, turns: Sequence[int],
                  viewer: Viewer) -> dict[int, Mapping[str, Any]]:
    """Of the dice entries the old site kept for ``turns`` under their turn's key, those that
    are the entries the turns' records give (read side by side: each reads its turn's logs)."""
    from gmkit.core.files import in_parallel

    kept = {t: e for t in turns if (e := old.entry(t, inputs.turn_key(t))) is not None}
    same = in_parallel(lambda t: dicecheck.same_entry(
        kept[t], dicecheck.recorded_entry(game, t, viewer)), list(kept))
    return {t: e for (t, e), ok in zip(kept.items(), same) if ok}


def _write_site(game: Game, out: Path, turns: Sequence[int], viewer: Viewer,
                workers: int, progress: Progress | None = None,
                converter: ChartConverter | None = None) -> tuple[list[Path], int]:
    """Put every page for ``viewer`` in ``out`` (replaced atomically), drawing only those whose
    inputs changed since gmkit last published there (:mod:`gmkit.publish.site_inputs`); the
    others, unchanged, are carried over. Returns the pages and how many were drawn.

    With a ``converter``, the charts of the pages drawn in this process (the history's, and the
    turn pages' when they are few) are converted in its process."""
    check_target(game, out)
    out.parent.mkdir(parents=True, exist_ok=True)
    _clear_leftovers(out)
    inputs = SiteInputs(game, viewer)
    old = OldSite(out, viewer) if (out / MARKER).is_file() else None
    all_key = inputs.all_key(list(turns))
    reuse = {name: old.page(name, key) if old else None for name, key in
             [*((_turn_name(t), inputs.turn_key(t)) for t in turns),
              *((name, all_key) for name in ("history.html", "index.html", dicecheck.PAGE))]}
    entries = {t: old.entry(t, inputs.turn_key(t)) if old else None for t in turns}
    todo = [t for t in turns if reuse[_turn_name(t)] is None or entries[t] is None]
    redraw_all = any(reuse[n] is None for n in ("history.html", "index.html", dicecheck.PAGE))
    if redraw_all and old is not None:
        # the checker is drawn again from the kept entries: each must be its turn's record's
        # (a page whose entry is not is drawn again with it)
        checked = _kept_entries(game, old, inputs, [t for t in turns if t not in todo], viewer)
        todo = [t for t in turns if t in todo or t not in checked]
    maps = [t for t in inputs.turns
            if not (old and old.part(f"map-{inputs.state_key(t)}.svg"))] if redraw_all else []
    total, done = len(todo) + len(maps) + 1, 0
    convert: Callable[[Any], str] = chart_svg
    if converter is not None and redraw_all:
        convert = converter.start()

    def step(n: int = 1) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress(min(done, total), total)

    staging = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.gmkit-new-"))
    try:
        os.chmod(staging, 0o777 & ~current_umask())
        (staging / MARKER).write_text(f"pages published by gmkit from {game.title} for "
                                      f"{viewer}\n", "utf-8")
        drawn: dict[str, str] = {}
        charts = ThreadPoolExecutor(max_workers=4)  # the history's charts, converting
        history: list[str | Future[str]] = []

        parts = Parts(inputs, old, staging, step, convert)
        parts.pool = charts

        def whole_game() -> None:
            """The pages drawn from every turn, when any turn changed: the history's charts
            go on converting while the turn pages are drawn."""
            if not redraw_all:
                return
            history.extend(_history_parts(game, viewer, parts))
            drawn["index.html"] = _index(game, turns, viewer)

        try:
            pages = _draw_turns(game, todo, turns, viewer, workers, whole_game, step,
                                lambda chart: charts.submit(parts.svg, chart), parts.keep)
            if redraw_all:
                drawn["history.html"] = _history_page(game, viewer, history)
        finally:
            charts.shutdown(cancel_futures=True)
        kept: dict[int, tuple[str, Mapping[str, Any]]] = {}
        for t in turns:
            name, key = _turn_name(t), inputs.turn_key(t)
            if t in pages:
                html, entry = pages[t]
                (staging / name).write_text(stamp(html, key), "utf-8")
                kept[t] = (key, entry)
            else:
                carry(reuse[name], staging / name)  # type: ignore[arg-type]
                kept[t] = (key, entries[t])  # type: ignore[assignment]
        if redraw_all:
            doc = dicecheck.document(game.title, game.ruleset.title, viewer,
                                     [dict(entry) for _, entry in kept.values()])
            drawn[dicecheck.PAGE] = dicecheck.checker_page(doc)
            for name, html in drawn.items():
                (staging / name).write_text(stamp(html, all_key), "utf-8")
        else:
            for name in ("history.html", "index.html", dicecheck.PAGE):
                carry(reuse[name], staging / name)  # type: ignore[arg-type]
            if old is not None and (out / CACHE).is_dir():
                for part in (out / CACHE).iterdir():  # the history's parts, for next time
                    if old.part(part.name) is not None \
                            and not (staging / CACHE / part.name).exists():
                        carry(part, staging / CACHE / part.name)
        write_index(staging, viewer, {**{_turn_name(t): key for t, (key, _) in kept.items()},
                                      **{n: all_key for n in ("history.html", "index.html",
                                                              dicecheck.PAGE)}}, kept)
        check_target(game, out)  # again: the folder may have changed while the pages were drawn
        if out.exists():
            old_dir = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.gmkit-old-"))
            os.rmdir(old_dir)
            os.rename(out, old_dir)
            os.rename(staging, out)
            shutil.rmtree(old_dir, ignore_errors=True)
        else:
            os.rename(staging, out)
        fsync_dir(out.parent)
        step()
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return sorted(out.glob("*.html")), len(todo) + (3 if redraw_all else 0)


def publish(game: Game, out: str | Path, *, workers: int = 2,
            players: str | Path | None = None, progress: Progress | None = None
            ) -> list[Path]:
    """Write the public site of a game into ``out`` (replaced atomically); returns its pages:
    the index, the history, each turn's page and the dice checker (``check-dice.html``), whose
    document is the one the turn pages print their dice from (:mod:`gmkit.publish.dicecheck`).

    ``out`` must be new, empty, or a site gmkit published before (it carries a marker file);
    the game folder, anything inside it and any other folder are refused.

    With ``players``, each player of ``game.toml`` also gets their private pages (the same
    pages drawn for that player: their own secret orders, results and figures) in
    ``players/<player id>/``, each replaced atomically like the site; ``players`` must lie
    outside the site and the game folder. Their pages are returned after the site's.

    Into a site (or a player's folder) gmkit published before, only the pages whose inputs
    changed are drawn again (a new turn, a re-resolved or rolled-back one, a revealed seed, a
    changed option, a new gmkit: :mod:`gmkit.publish.site_inputs`); the others are carried over
    unchanged. The pages drawn from every turn (the index, the history, the dice checker) are
    drawn again whenever any turn's inputs changed, the history from the parts of it that did
    not (each turn's map and standings, each chart) kept in the site.

    With ``workers`` > 1 the turn pages are drawn in that many worker processes while this one
    draws the history (drawing a page holds the interpreter lock, so threads would not help;
    only the history's charts convert in threads). The charts drawn in this process (the
    history's, and the turn pages' when only a few pages are drawn after a new turn) are then
    converted in a worker process of their own (:mod:`gmkit.publish.converter`), which loads the
    converter while this one reads the game. ``progress(done, total)`` is told of each page and
    map drawn, site by site."""
    return publish_counted(game, out, workers=workers, players=players, progress=progress)[0]


def publish_counted(game: Game, out: str | Path, *, workers: int = 2,
                    players: str | Path | None = None, progress: Progress | None = None,
                    converter: ChartConverter | None = None) -> tuple[list[Path], int]:
    """:func:`publish`, and how many pages it drew (the others were carried over).

    ``converter``: where the charts drawn in this process are converted (one the caller
    started before opening the game, say, and closes); without it, one is used when
    ``workers`` > 1, started when a chart is to be drawn."""
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
    own = converter is None and workers > 1
    if own:
        converter = ChartConverter()
    try:
        written, drawn = _write_site(game, out, turns, Viewer.public(), workers, progress,
                                     converter)
        for viewer, folder in folders:
            pages, more = _write_site(game, folder, turns, viewer, workers, progress,
                                      converter)
            written, drawn = written + pages, drawn + more
    finally:
        if own and converter is not None:
            converter.close()
    return written, drawn
