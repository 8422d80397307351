"""What makes a map readable at a glance, for every sample game: colour is never the only cue
(each player's pieces carry an initial, and Pyramid's palette stays apart for colour-blind
readers), the legend lists what the map shows, and every colour a map gives a player is that
player's colour."""

from __future__ import annotations

from pathlib import Path

import pytest

from gmkit.core.drawing.cvd import closest_pair, cvd_distance
from gmkit.core.drawing.scene import initials
from gmkit.core.views import Viewer
from gmkit.game import Game
from gmkit.rulesets.pyramid.rules import COLOUR_HEX as PYRAMID_COLOURS

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "data").glob("sample-*"))


def _scene(folder: Path):
    game = Game.open(folder)
    state = game.ruleset.view(game.state(), Viewer.public())
    return game, state, game.ruleset.presentation.scene(state, game.rules)


def test_green_and_teal_are_told_apart_by_colour_blind_readers():
    """Pyramid's eight player colours: the closest pair, under normal vision and the three
    dichromacies, is over 12 (Lab); Green and Teal were 7.6 apart before."""
    distance, a, b = closest_pair(list(PYRAMID_COLOURS.values()))
    assert distance > 12, (a, b)
    assert cvd_distance(PYRAMID_COLOURS["Green"], PYRAMID_COLOURS["Teal"]) > 12


@pytest.mark.parametrize("name", ["cien", "aztlan", "pyramid", "jungle", "aeternus", "example"])
def test_every_games_palette_is_told_apart_by_colour_blind_readers(name):
    """Colour is never the only cue, and the colours themselves stay apart: every game's
    player palette, under normal vision and the three dichromacies, has no two colours closer
    than 12 (Lab), nor a player's colour that close to the no-one grey of its map."""
    from gmkit.rulesets.aeternus.drawing import PALETTE as AETERNUS
    from gmkit.rulesets.aztlan.drawing import EMPIRE_COLOURS
    from gmkit.rulesets.cien.rules import COLOUR_HEX as CIEN
    from gmkit.rulesets.example.drawing import PALETTE as EXAMPLE
    from gmkit.rulesets.jungle.drawing import NPC, PALETTE as JUNGLE

    palettes = {"cien": list(CIEN.values()), "aztlan": list(EMPIRE_COLOURS.values()),
                "pyramid": list(PYRAMID_COLOURS.values()), "jungle": [*JUNGLE, NPC],
                "aeternus": list(AETERNUS), "example": list(EXAMPLE)}
    distance, a, b = closest_pair(palettes[name])
    assert distance > 12, (a, b, round(distance, 1))


def test_initials_tell_every_name_apart():
    names = ["Red", "Rose", "Rust", "Ruby Red", "Ruby Rose", "red", "R"]
    marks = initials(names)
    assert len(set(marks.values())) == len(names)
    assert all(1 <= len(m) <= 3 for m in marks.values())
    assert marks["Red"] == "R" and marks["Rose"] == "Ro"


@pytest.mark.parametrize("folder", SAMPLES, ids=lambda p: p.name)
def test_every_piece_says_whose_it_is(folder):
    """Colour is never the only cue: every piece of a player carries its initial."""
    game, state, scene = _scene(folder)
    assert scene is not None
    colours = game.ruleset.presentation.colours(state, game.rules)
    for mark in scene.marks:
        if mark.colour in colours.values() and mark.piece not in ("flag",):
            assert mark.text, mark


@pytest.mark.parametrize("folder", SAMPLES, ids=lambda p: p.name)
def test_the_legend_lists_each_colour_shown(folder):
    """Every colour of a piece on the map is in the legend (a player's, eliminated or not)."""
    _, _, scene = _scene(folder)
    assert scene is not None
    legend = {e.colour for e in scene.legend}
    assert {m.colour for m in scene.marks if m.piece != "flag"} <= legend | {"#9e9e9e"}


def test_an_eliminated_empire_still_on_the_board_is_in_the_legend_as_such():
    """AZTLAN: an empire out of the game whose cities or armies remain is listed, marked
    eliminated (the Chalcans of the sample)."""
    _, state, scene = _scene(ROOT / "data" / "sample-aztlan")
    out = [p for p, s in state["players"].select("id", "status").iter_rows() if s != "active"]
    labels = [e.label for e in scene.legend]
    for pid in out:
        shown = any(pid in str(o) for o in state["cities"]["owner"].to_list())
        assert (f"{pid} (eliminated)" in labels) == shown or not shown


def test_aeternus_legend_lists_only_the_biomes_on_the_map_and_each_player():
    """The legend is compact: the biomes the map shows, not all of them, and each player by
    name with the initial on their token."""
    _, state, scene = _scene(ROOT / "data" / "sample-aeternus")
    shown = set(state["world"]["biome"].to_list())
    labels = [e.label for e in scene.legend]
    from gmkit.rulesets.aeternus.drawing import BIOME_FILLS

    assert {b for b in BIOME_FILLS if b in labels} == {b for b in BIOME_FILLS if b in shown}
    for pid in state["players"].filter(state["players"]["active"])["id"].to_list():
        assert any(label.split(" ")[1] == pid for label in labels if " " in label), pid


@pytest.mark.parametrize("folder", SAMPLES, ids=lambda p: p.name)
def test_the_legend_is_never_taller_than_the_map(folder):
    """Legend: compact, under the map or beside it, never taller than the map itself
    (measured in the SVG: the legend's rows against the drawing)."""
    import re

    game = Game.open(folder)
    for turn in (game.latest_turn - 1, game.latest_turn):
        svg = game.map_svg(game.state(turn, viewer=Viewer.public()), title="t")
        assert svg is not None
        _, top, _, height = map(float, re.search(r'viewBox="([^"]+)"', svg)[1].split())
        legend = svg[svg.index('data-layer="legend"'):]
        font = float(re.search(r'font-size="([\d.]+)"', legend)[1])
        # each entry's text sits at the middle of its row
        rows = [float(y) for y in re.findall(r'<text x="[^"]+" y="([-\d.]+)"', legend)]
        legend_top, legend_bottom = min(rows) - font * 0.5, max(rows) + font * 0.5
        drawing_top = top + font * 18 / 13 * 1.8  # under the title's band
        under = legend_top > drawing_top + font
        drawing_bottom = legend_top - font * 0.5 if under else top + height
        assert 0 < legend_bottom - legend_top <= drawing_bottom - drawing_top, turn
