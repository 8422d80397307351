"""The Crown of Cien's board: ``cien.geojson`` (package data, the ruleset's ``board.packaged``), and
the script that built it (:mod:`.build`, run as ``python -m gmkit.rulesets.cien.board.build``)."""
