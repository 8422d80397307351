"""The Crown of Cien's board: ``cien.geojson`` (package data, the ruleset's ``board.packaged``), and
the script that built it (``maps/build_cien_board.py`` in the source tree)."""
