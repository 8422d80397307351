"""The AZTLAN board: ``aztlan.geojson`` (package data, the ruleset's ``board.packaged``), the board's
facts from the rules and its checks (:mod:`.geography`), and the script that built the file
(``maps/build_aztlan_board.py`` in the source tree)."""
