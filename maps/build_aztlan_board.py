#!/usr/bin/env python3
"""Rebuild The AZTLAN board (``gmkit/rulesets/aztlan/board/aztlan.geojson``): the same as
``python -m gmkit.rulesets.aztlan.board.build [output.geojson]``."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gmkit.rulesets.aztlan.board.build import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(sys.argv))
