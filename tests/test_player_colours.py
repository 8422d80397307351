"""Every player's colour in a game is told apart from every other's, by every reader: the Law of
the Jungle's houses Ocelotl and Cipactli were both drawn red (#cc3333 and #ff0000), which a
plain Lab distance let pass; two colours are now told apart when they differ in hue or
lightness as the eye sees them (CIEDE2000) and under each colour-vision deficiency."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from gmkit.core.drawing.cvd import ciede2000, confused, hue_distance, told_apart
from gmkit.core.drawing.palette import DISTINCT, assign
from gmkit.core.tables import State
from gmkit.game import Game

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted(p.name.removeprefix("sample-") for p in (ROOT / "data").glob("sample-*"))


@pytest.mark.parametrize("lab1,lab2,delta", [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0009), 7.1792),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((22.7233, 20.0904, -46.694), (23.0331, 14.973, -42.5619), 2.0373),
])
def test_ciede2000_gives_the_published_differences(lab1, lab2, delta):
    """Sharma, Wu and Dalal's test pairs for CIEDE2000."""
    assert ciede2000(lab1, lab2) == pytest.approx(delta, abs=1e-4)


def test_two_reds_are_not_told_apart_though_their_lab_distance_is_large():
    """#cc3333 and #ff0000 (the Jungle's Ocelotl and Cipactli) both read red."""
    assert hue_distance("#cc3333", "#ff0000") < 12
    assert not told_apart("#cc3333", "#ff0000")
    assert told_apart("#cc3333", "#00ccff")


@pytest.mark.parametrize("name", SAMPLES)
def test_every_samples_player_colours_are_told_apart(name):
    """Every sample's players each have a colour every reader tells from the others' (in
    Aeternus a faction's players share their faction's colour, and factions are told apart)."""
    game = Game.open(ROOT / "data" / f"sample-{name}")
    state = game.state()
    colours = game.colours(state)
    assert set(colours) >= {p.id for p in game.context().players if p.id in colours}
    if name == "aeternus":
        faction = dict(state["players"].select("id", "faction").iter_rows())
        assert len(set(colours.values())) == len(set(faction.values()))
        assert all((colours[a] == colours[b]) == (faction[a] == faction[b])
                   for a in colours for b in colours)
    else:
        assert len(set(colours.values())) == len(colours)
    assert confused(list(colours.values())) == []


def test_every_games_whole_palette_is_told_apart():
    """Every colour a game may give a player, all together: Cien's ten colours (rule
    'Introduction'), AZTLAN's ten empires and the independent grey (2.1), Pyramid's eight,
    the twelve of a game without colours of its own (the Jungle's houses, Aeternus's
    factions, Three Hills' diggers) with the Jungle's grey of no one's units."""
    from gmkit.rulesets.aztlan.drawing import EMPIRE_COLOURS
    from gmkit.rulesets.cien.rules import COLOUR_HEX as CIEN
    from gmkit.rulesets.example.drawing import PALETTE as EXAMPLE
    from gmkit.rulesets.jungle.drawing import NPC
    from gmkit.rulesets.pyramid.rules import COLOUR_HEX as PYRAMID

    for palette in (list(CIEN.values()), list(EMPIRE_COLOURS.values()),
                    list(PYRAMID.values()), [*DISTINCT, NPC], list(EXAMPLE)):
        assert confused(palette) == [], palette


def test_a_jungle_of_twelve_houses_draws_twelve_colours_told_apart():
    from gmkit.rulesets.jungle.drawing import colours

    houses = [f"House {i}" for i in range(12)]
    drawn = colours(State(1, {"houses": pl.DataFrame({"house": houses})}))
    assert len(set(drawn.values())) == 12 and confused(list(drawn.values())) == []


def test_pyramid_players_not_named_for_a_colour_take_colours_apart_from_the_named():
    """A Pyramid player whose id is a colour ('Red') has it; another ('Anubis') takes the
    first named colour no one has, never one close to a colour in play."""
    from gmkit.rulesets.pyramid.drawing import colours

    drawn = colours(State(1, {"players": pl.DataFrame({"id": ["Anubis", "Red", "Seth",
                                                              "Blue"]})}))
    assert drawn["Red"] == "#d55e00" and drawn["Blue"] == "#0072b2"
    assert len(set(drawn.values())) == 4 and confused(list(drawn.values())) == []


def test_assign_keeps_a_fixed_colour_and_repeats_only_past_the_palette():
    drawn = assign(["A", "B", "C"], fixed={"B": "#ff0000"})
    assert drawn["B"] == "#ff0000" and drawn["A"] != "#cc3333"  # #cc3333 reads red too
    assert all(told_apart(drawn[x], drawn["B"]) for x in "AC")
    many = assign([f"p{i}" for i in range(len(DISTINCT) + 2)])
    assert list(many.values())[:len(DISTINCT)] == list(DISTINCT)
    assert list(many.values())[len(DISTINCT):] == list(DISTINCT[:2])
