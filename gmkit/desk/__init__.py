"""The notebooks' desk: a game folder opened for a turn played in a notebook (:class:`Desk`), the
views its cells draw (tables, callouts, maps as pictures), and the ipywidgets panel over it
(:mod:`gmkit.desk.panel`, imported on its own so that marimo notebooks never load ipywidgets)."""
from gmkit.desk.desk import (BUNDLED_SAMPLE, COPY_MARKER, Desk, DeskError, iframe_html,
                             sample_working_copy)
from gmkit.desk.views import (Published, callout_html, frame_html, svg_image,
                              table_changes, zoomable_map)

__all__ = ["BUNDLED_SAMPLE", "COPY_MARKER", "Desk", "DeskError", "Published", "callout_html",
           "frame_html", "iframe_html", "sample_working_copy", "svg_image", "table_changes",
           "zoomable_map"]
