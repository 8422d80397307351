"""Charts converted to SVG in a process of their own, while the publishing process draws the rest.

Loading the chart converter (vl-convert's JavaScript engine) takes about half a second, during
which the process that loads it runs nothing else (the converter holds the interpreter lock while
it starts). After a new turn, the site's charts (the history's and the new turn pages'
standings) are most of the work of publishing: a :class:`ChartConverter` loads the converter in
a worker process of its own, started before the game is even read, and converts every chart
there while the publishing process reads the game and draws the pages. The worker runs
vl-convert only; the SVG it gives is sanitized here, so a chart's SVG is the one
:func:`gmkit.core.reports.chart_svg` gives, byte for byte.
"""

from __future__ import annotations

import multiprocessing
import threading
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from types import TracebackType
from typing import Any

from gmkit.core.report_chart import chart_spec, sanitize_svg, vegalite_svg

#: A chart converted first, to load the converter before the first real chart arrives.
WARM_UP: dict[str, Any] = {"data": {"values": [{"a": 1}]}, "mark": "point",
                           "encoding": {"x": {"field": "a", "type": "quantitative"}}}


def _serve(conn: Connection) -> None:
    """The worker process: load the converter, then answer each spec received with
    ``(True, svg)`` or ``(False, message)``, until the connection closes or sends None."""
    vegalite_svg(WARM_UP)
    while True:
        try:
            spec = conn.recv()
        except (EOFError, OSError):
            return
        if spec is None:
            return
        try:
            conn.send((True, vegalite_svg(spec)))
        except Exception as e:  # noqa: BLE001 - told to the publishing process, raised there
            conn.send((False, f"{type(e).__name__}: {e}"))


class ChartConverter:
    """Converts charts (altair charts or Vega-Lite specs) to sanitized SVG in one worker
    process, started by :meth:`start` (or the first conversion) and stopped by :meth:`close`
    (used or not). Calling it converts one chart and waits for its SVG; threads may call it
    side by side (the worker converts one chart at a time, as vl-convert does anyway)."""

    def __init__(self) -> None:
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None
        self._lock = threading.Lock()

    @property
    def running(self) -> bool:
        """Whether the worker process is running."""
        return self._process is not None and self._process.is_alive()

    def start(self) -> ChartConverter:
        """Start the worker process, which loads the converter at once (without waiting)."""
        with self._lock:
            if self._process is None:
                context = multiprocessing.get_context("spawn")
                ours, theirs = context.Pipe()
                process = context.Process(target=_serve, args=(theirs,), daemon=True,
                                          name="gmkit-chart-converter")
                process.start()
                theirs.close()
                self._process, self._conn = process, ours
        return self

    def __call__(self, chart: Any) -> str:
        """The chart as static, sanitized SVG (:func:`gmkit.core.reports.chart_svg`)."""
        spec = chart_spec(chart)
        self.start()
        with self._lock:
            if self._conn is None:
                raise RuntimeError("the chart converter was closed")
            try:
                self._conn.send(spec)
                ok, got = self._conn.recv()
            except (EOFError, OSError):
                raise RuntimeError("the chart converter's process stopped") from None
        if not ok:
            raise ValueError(f"the chart could not be converted: {got}")
        return sanitize_svg(got)

    def close(self) -> None:
        """Stop the worker process, whatever it is doing (loading the converter unused)."""
        with self._lock:
            if self._process is not None and self._conn is not None:
                self._process.terminate()
                self._process.join()
                self._conn.close()
            self._process = self._conn = None

    def __enter__(self) -> ChartConverter:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
