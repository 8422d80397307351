"""Commands that answer at once: ``gmkit --version`` and ``--help`` load no table, game or
ruleset code, and a command over a game loads the board readers and the drawing code only when
its ruleset or the command uses them. (Timings are in ``bench/run.py``; these check what is
loaded, which is what makes them fast.)"""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import sys
from gmkit.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
import json
print(json.dumps(sorted(m for m in sys.modules)), file=sys.stderr)
"""


def loaded(*args: str) -> tuple[str, set[str]]:
    """What ``gmkit ARGS`` printed and every module it loaded."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    got = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True,
                         env=env, cwd=ROOT, timeout=120)
    return got.stdout, set(json.loads(got.stderr.strip().splitlines()[-1]))


HEAVY = ("polars", "numpy", "shapely", "gmkit.game", "gmkit.core.store", "gmkit.rulesets")


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["status", "--help"]])
def test_version_and_help_load_no_game_code(args: list[str]) -> None:
    """``--version`` and ``--help`` answer from the command's own definitions: no polars, no
    game, store or ruleset module is imported."""
    out, modules = loaded(*args)
    assert out.strip()
    for heavy in HEAVY:
        assert heavy not in modules, heavy


def test_version_is_the_installed_distributions() -> None:
    """The version printed is the installed package's own."""
    out, _ = loaded("--version")
    assert out.strip() == f"gmkit, version {importlib.metadata.version('gmkit')}"


def test_status_of_a_graph_game_loads_no_polygon_or_hex_code(tmp_path: Path) -> None:
    """Pyramid Power Wars plays on a graph: ``gmkit status`` of its game loads neither the
    polygon maps (shapely, numpy), the hex grids nor any drawing code."""
    game = shutil.copytree(ROOT / "data" / "sample-pyramid", tmp_path / "g",
                           ignore=shutil.ignore_patterns(".lock"))
    out, modules = loaded("status", str(game))
    assert "orders now for turn" in out
    for heavy in ("numpy", "shapely", "gmkit.core.boards.polygon", "gmkit.core.boards.hexgrid",
                  "gmkit.core.drawing.svg_parts", "gmkit.rulesets.cien"):
        assert heavy not in modules, heavy


def test_a_command_drawing_charts_skips_the_iri_grammars(tmp_path: Path) -> None:
    """``gmkit sweep`` draws its charts with altair, whose jsonschema would compile
    rfc3987_syntax's grammars (seconds) for a string format gmkit never checks: the command
    goes without them, and its charts are drawn all the same."""
    out, modules = loaded("sweep", "example", "--games", "1", "--rounds", "2", "--workers", "0",
                          "--out", str(tmp_path / "sweep"))
    assert "wrote" in out and "altair" in modules
    assert "rfc3987_syntax.syntax_helpers" not in modules
    assert "<svg" in (tmp_path / "sweep" / "sweep.html").read_text("utf-8")


def test_publish_draws_its_charts_without_altair_and_converts_them_elsewhere(
        tmp_path: Path) -> None:
    """``gmkit publish`` writes its charts as plain Vega-Lite specs (no altair) and converts
    them in a process of its own: the command's process loads neither altair nor the
    converter, and the site's charts are drawn all the same."""
    game = shutil.copytree(ROOT / "data" / "sample-pyramid", tmp_path / "g",
                           ignore=shutil.ignore_patterns(".lock"))
    out, modules = loaded("publish", str(game), "--out", str(tmp_path / "site"))
    assert "published" in out
    assert "altair" not in modules and "vl_convert" not in modules
    assert "<svg" in (tmp_path / "site" / "history.html").read_text("utf-8")


def test_svg_text_and_attributes_are_escaped_as_xml_sax_does() -> None:
    """The drawing code escapes text and attribute values itself (importing xml.sax.saxutils
    would load urllib and http for every command); hostile values come out exactly as the
    standard library escapes them, quotes chosen alike."""
    import itertools
    import re
    from xml.sax.saxutils import escape, quoteattr

    from gmkit.core.drawing.svg_parts import xml_attr, xml_text

    pieces = ["a", "&", "<", ">", '"', "'", "\n", "\r", "\t", "&amp;", "\x01", "é", "]]>"]
    for k in range(1, 4):
        for combo in itertools.product(pieces, repeat=k):
            text = "".join(combo)
            clean = re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]", "", text)
            assert xml_text(text) == escape(clean)
            assert xml_attr(text) == quoteattr(clean, {"\n": "&#10;", "\r": "&#13;",
                                                       "\t": "&#9;"})
