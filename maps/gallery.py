#!/usr/bin/env python3
"""The gallery of every sample game's maps, before and after its latest turn.

    python maps/gallery.py            # writes maps/gallery/
    python maps/gallery.py OUT --png  # elsewhere, with the forum PNGs of every map

For each sample under ``data/`` it writes ``<game>-before.svg`` (the public map after the turn
before the latest, with the latest turn's public orders drawn on it, as ``gmkit map --orders``
draws it) and ``<game>-after.svg`` (after the latest, as ``gmkit map`` draws it); the two
pictures of a hex game share one extent. ``--png`` adds each map as the
1200-pixel PNG a forum shows. A crop of AZTLAN's Valley of Mexico, where every empire starts,
is written too (``aztlan-valley-*.svg``). The label test (``tests/test_map_labels_browser.py``)
measures the text of these very maps in a browser.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gmkit.core.drawing.board_svg import scene_svg  # noqa: E402
from gmkit.core.drawing.hex_svg import share_extent  # noqa: E402
from gmkit.core.drawing.orders import on_scene  # noqa: E402
from gmkit.core.drawing.png import svg_png  # noqa: E402
from gmkit.core.views import Viewer  # noqa: E402
from gmkit.game import Game  # noqa: E402

GALLERY = ROOT / "maps" / "gallery"
#: The PNGs kept in the repository: the two pictures the README shows.
KEPT_PNG = ("aztlan-valley-after", "jungle-after")
#: AZTLAN's Valley of Mexico in the drawing's pixels (x, y, width, height).
VALLEY = (285.0, 300.0, 230.0, 180.0)


def samples() -> list[Path]:
    """Every sample game folder."""
    return sorted(p for p in (ROOT / "data").glob("sample-*") if (p / "game.toml").exists())


def maps_of(game: Game) -> dict[str, str]:
    """The public maps of ``game`` before its latest turn, with that turn's public orders, and
    after it, sharing one extent."""
    latest = game.latest_turn
    public = Viewer.public()
    draw = game.ruleset.presentation.scene
    if draw is None:
        return {}
    ctx = game.context()
    scenes = {}
    if latest > game.first_turn:
        shown = game.turn_orders(latest, public)
        before = draw(shown.before, ctx)
        if before is None:
            return {}
        title = (f"{game.title}: the orders of turn {latest}" if shown.drawn else
                 f"{game.title}: after turn {latest - 1}")
        scenes["before"] = on_scene(dataclasses.replace(before, title=title), shown.drawn)
    after = draw(game.state(latest, viewer=public), ctx)
    if after is None:
        return {}
    title = "The set-up (turn 0)" if latest == 0 else f"{game.title}: after turn {latest}"
    scenes["after"] = dataclasses.replace(after, title=title)
    board = game.board
    assert board is not None
    out = {}
    for when, scene in scenes.items():
        if board.kind == "hex":
            scene = share_extent(scene, [s for w, s in scenes.items() if w != when])
        out[when] = scene_svg(board, scene)
    return out


def valley(svg: str) -> str:
    """AZTLAN's map cropped to the Valley of Mexico (its viewBox narrowed)."""
    x, y, w, h = VALLEY
    scale = 3
    svg = re.sub(r'<svg ([^>]*?)width="\d+" height="\d+" viewBox="[^"]*"',
                 f'<svg \\1width="{w * scale:.0f}" height="{h * scale:.0f}" '
                 f'viewBox="{x} {y} {w} {h}"', svg, count=1)
    return svg


def build(out: Path, png: bool = False) -> list[Path]:
    """Write the gallery into ``out``; the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for folder in samples():
        game = Game.open(folder)
        name = folder.name.removeprefix("sample-")
        pictures = {f"{name}-{when}": svg for when, svg in maps_of(game).items()}
        if name == "aztlan":
            pictures.update({f"aztlan-valley-{when}": valley(svg)
                             for when, svg in maps_of(game).items()})
        for stem, svg in pictures.items():
            path = out / f"{stem}.svg"
            path.write_text(svg, encoding="utf-8")
            written.append(path)
            if png or stem in KEPT_PNG:
                path = out / f"{stem}.png"
                path.write_bytes(svg_png(svg, 1200 if "valley" not in stem else 900))
                written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=GALLERY)
    parser.add_argument("--png", action="store_true", help="a forum PNG of every map too")
    args = parser.parse_args(argv)
    for path in build(args.out, args.png):
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
