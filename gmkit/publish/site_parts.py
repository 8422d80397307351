"""The costly parts of a published site, kept in it for the next publish: each turn's map
frame, standings rows and logs, and each chart's SVG, taken from the site published before when
their key matches (:mod:`gmkit.publish.site_inputs`), else drawn (:class:`Parts`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import polars as pl

from gmkit.core.report_chart import chart_spec, chart_svg
from gmkit.core.views import Viewer
from gmkit.game import Game
from gmkit.publish.site_inputs import (CACHE, OldSite, SiteInputs, carry, code_fingerprint,
                                       digest)

__all__ = ["Parts", "chart_name"]


class Parts:
    """Where the history page's costly parts come from: each turn's map frame and standings
    rows, and each chart's SVG, taken from the site published before when their key matches
    (:mod:`gmkit.publish.site_inputs`), else drawn; every part used is put in ``staging`` for
    the next publish. Without ``inputs`` everything is drawn and nothing kept."""

    def __init__(self, inputs: SiteInputs | None = None, old: OldSite | None = None,
                 staging: Path | None = None, progress: Callable[[], None] | None = None,
                 convert: Callable[[Any], str] = chart_svg):
        self.inputs, self.old, self.staging = inputs, old, staging
        self.progress = progress or (lambda: None)
        self.pool: ThreadPoolExecutor | None = None
        self.convert = convert  # a chart's SVG: here, or in a converter process

    def _cached(self, name: str) -> Path | None:
        """The part ``name`` carried into the new site from the old, if the old has it."""
        if self.old is None or self.staging is None:
            return None
        found = self.old.part(name)
        if found is None:
            return None
        carry(found, self.staging / CACHE / name)
        return found

    def keep(self, name: str, data: bytes) -> None:
        """Put the part ``name`` in the new site for the next publish (when it keeps parts)."""
        if self.staging is not None and self.inputs is not None:
            (self.staging / CACHE).mkdir(exist_ok=True)
            (self.staging / CACHE / name).write_bytes(data)

    def map_frame(self, game: Game, turn: int, viewer: Viewer) -> str:
        """The map after ``turn`` (:func:`gmkit.publish.history.map_at`)."""
        import gmkit.publish.history as history

        name = f"map-{self.inputs.state_key(turn)}.svg" if self.inputs else ""
        found = self._cached(name) if name else None
        if found is not None:
            return found.read_text("utf-8")
        svg = history.map_at(game, turn, view=viewer)
        self.keep(name, svg.encode("utf-8"))
        self.progress()
        return svg

    def series(self, game: Game, viewer: Viewer) -> pl.DataFrame:
        """:func:`gmkit.publish.history.player_series`, turn by turn."""
        import polars as pl

        import gmkit.publish.history as history

        if self.inputs is None:
            return history.player_series(game, view=viewer)
        frames = []
        for turn in self.inputs.turns:
            # JSON text, as every file of a site is (a reader or a test can search it all)
            name = f"series-{self.inputs.state_key(turn)}.json"
            found = self._cached(name)
            if found is not None:
                frames.append(pl.DataFrame(json.loads(found.read_text("utf-8")),
                                           schema=history.SERIES_SCHEMA))
                continue
            frame = history.turn_series(game, game.state(turn), viewer)
            self.keep(name, json.dumps(frame.to_dicts()).encode("utf-8"))
            frames.append(frame)
        return history.series_of(frames)

    def logs(self, game: Game, viewer: Viewer) -> tuple[pl.DataFrame, pl.DataFrame]:
        """The events and rolls of every turn as ``viewer`` may see them, with ``turn`` (as
        :meth:`Game.history` gives them), turn by turn."""
        from gmkit.core.tables import LOG_SCHEMAS
        from gmkit.core.views import visible_events, visible_rolls

        if self.inputs is None:
            return (visible_events(game.history("events"), viewer),
                    visible_rolls(game.history("rolls"), viewer))
        schemas = {name: {"turn": pl.Int64, **LOG_SCHEMAS[name]} for name in ("events", "rolls")}
        frames: dict[str, list[pl.DataFrame]] = {"events": [], "rolls": []}
        for turn in self.inputs.turns:
            name = f"logs-{self.inputs.state_key(turn)}.json"
            found = self._cached(name)
            if found is not None:
                rows = json.loads(found.read_text("utf-8"))
            else:
                data = game.store.read_turn(turn)
                seen = {"events": visible_events(data.events, viewer),
                        "rolls": visible_rolls(data.rolls, viewer)}
                rows = {k: v.with_columns(pl.lit(turn, pl.Int64).alias("turn"))
                        .select(list(schemas[k])).to_dicts() for k, v in seen.items()}
                self.keep(name, json.dumps(rows, ensure_ascii=False).encode("utf-8"))
            for k in frames:
                frames[k].append(pl.DataFrame(rows[k], schema=schemas[k]))
        events, rolls = (pl.concat(frames[k], how="vertical") for k in ("events", "rolls"))
        return events, rolls

    def chart(self, kind: str, data: pl.DataFrame,
              draw: Callable[[Any], dict[str, Any]], *extra: Any) -> Future[str]:
        """The SVG of the chart ``draw(specs)`` makes of ``data`` (``specs``:
        :mod:`gmkit.publish.chart_specs`, which writes each chart as a plain Vega-Lite spec;
        ``kind`` and ``extra``: what else it is drawn from), drawn only when not kept already:
        the spec is written here and converted in :attr:`pool` (the converter runs outside the
        interpreter lock, so the charts of a page convert side by side while this thread draws
        the maps)."""
        name = f"chart-{digest(code_fingerprint(), kind, data.to_dicts(), extra)}.svg" \
            if self.inputs else ""
        found = self._cached(name) if name else None
        if found is not None:
            done: Future[str] = Future()
            done.set_result(found.read_text("utf-8"))
            return done
        import gmkit.publish.chart_specs as specs

        spec = draw(specs)
        assert self.pool is not None, "charts are drawn within _history"
        return self.pool.submit(self._convert, name, spec)

    def _convert(self, name: str, spec: dict[str, Any]) -> str:
        svg = self.convert(spec)
        self.keep(name, svg.encode("utf-8"))
        return svg

    def svg(self, chart: Any) -> str:
        """A turn page's chart as SVG, kept in the site by its spec (the page of the turn
        before a new one is drawn again, its chart unchanged)."""
        spec = chart_spec(chart)
        if self.inputs is None:
            return self.convert(spec)
        name = chart_name(spec)
        found = self._cached(name)
        return found.read_text("utf-8") if found is not None else self._convert(name, spec)


def chart_name(spec: dict[str, Any]) -> str:
    """The name a turn page's chart is kept under in the site, by its spec."""
    return f"chart-{digest(code_fingerprint(), 'spec', spec)}.svg"
