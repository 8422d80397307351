"""The notebooks' desk: a game folder opened for a turn played in a notebook (:class:`Desk`), the
views its cells draw (tables, callouts, maps as pictures), the working copies it plays on, and
the ipywidgets panel over it (:mod:`gmkit.desk.panel`, imported on its own so that marimo
notebooks never load ipywidgets)."""
from gmkit.desk.copies import (BUNDLED_SAMPLE, COPY_MARKER, DeskError, repo_root,
                               sample_working_copy)
from gmkit.desk.desk import Desk
from gmkit.desk.views import (Overview, PostPreview, Published, StepView, TurnSoFar, callout_html,
                              frame_html, iframe_html, svg_image, table_changes, zoomable_map)

__all__ = ["BUNDLED_SAMPLE", "COPY_MARKER", "Desk", "DeskError", "Overview", "PostPreview",
           "Published", "StepView", "TurnSoFar", "callout_html", "frame_html", "iframe_html",
           "repo_root", "sample_working_copy", "svg_image", "table_changes", "zoomable_map"]
