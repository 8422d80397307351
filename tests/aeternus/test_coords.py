"""Aeternus's coordinates (5.1, 5.2): the rules' minimal (x, y, z) and the core cube grid."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gmkit.core.boards.hexgrid import Hex, distance
from gmkit.rulesets.aeternus.coords import (
    AXIAL_STEPS,
    DIRECTION_NAMES,
    DIRECTION_VECTORS,
    DIRECTIONS,
    Coord,
    CoordError,
    NonCanonicalError,
    canonical,
    direction,
    from_cube,
    hex_text,
    is_canonical,
    parse_direction,
    parse_hex,
    to_cube,
)

small = st.integers(-60, 60)
hexes = st.builds(Hex, small, small)


def test_directions_are_the_rules_vectors():
    """5.2: (0, 0, 1) -> North, (0, 1, 0) -> Ashe, (1, 0, 0) -> Mouth, and their opposites
    South, Zest, Weast."""
    for name in DIRECTION_NAMES:
        assert to_cube(*DIRECTION_VECTORS[name]) == DIRECTIONS[name]
        assert from_cube(DIRECTIONS[name]) == DIRECTION_VECTORS[name]
    assert DIRECTIONS["South"] == -DIRECTIONS["North"]
    assert DIRECTIONS["Zest"] == -DIRECTIONS["Ashe"]
    assert DIRECTIONS["Weast"] == -DIRECTIONS["Mouth"]


def test_directions_are_listed_clockwise_sixty_degrees_apart():
    """The directions 'radiate from the edges of a hex', listed in turn: each is a neighbour of
    the next, so Ashe, between North and Mouth, is North + Mouth; and so round the hex."""
    steps = [DIRECTIONS[n] for n in DIRECTION_NAMES]
    for i in range(6):
        assert distance(steps[i], steps[(i + 1) % 6]) == 1
        assert steps[i] + steps[(i + 2) % 6] == steps[(i + 1) % 6]
    assert DIRECTIONS["Ashe"] == DIRECTIONS["North"] + DIRECTIONS["Mouth"]
    assert canonical(1, 0, 1) == Coord(0, 1, 0)
    assert AXIAL_STEPS == tuple((s.q, s.r) for s in steps)


def test_flat_top_north_is_up():
    """North is a hex's top edge on the core grid's flat-top drawing (r grows southwards)."""
    from gmkit.core.boards.hexgrid import FLAT, Layout

    layout = Layout(FLAT)
    north = layout.to_pixel(DIRECTIONS["North"])
    mouth = layout.to_pixel(DIRECTIONS["Mouth"])
    assert north.x == pytest.approx(0) and north.y < 0
    assert mouth.x > 0 and mouth.y > 0


@given(hexes)
def test_minimal_coordinate_is_unique(h):
    """5.1: 'the minimal number of steps from the origin along x, y and z': of all the triples
    leading to a hex, exactly one has the fewest steps, and it is the hex's coordinate; its step
    count is the hex's distance from the origin."""
    a, b = h.q, -h.r
    candidates = [(a - y, y, b - y) for y in range(-130, 131)]
    steps = [abs(x) + abs(y) + abs(z) for x, y, z in candidates]
    best = min(steps)
    minimal = [c for c, n in zip(candidates, steps) if n == best]
    assert minimal == [tuple(from_cube(h))]
    assert best == distance(h, Hex(0, 0))
    assert all(to_cube(*c) == h for c in candidates[::37])


@given(hexes)
def test_round_trip_cube_rules_cube(h):
    """Every hex has one rules coordinate, and it leads back to the hex."""
    c = from_cube(h)
    assert to_cube(*c) == h
    assert is_canonical(*c)
    assert parse_hex(str(c), strict=True) == h
    assert parse_hex(hex_text(h)) == h


@given(small, small, small)
def test_any_triple_names_the_hex_of_its_canonical_form(x, y, z):
    """A non-minimal triple (steps walked out) reaches the hex whose coordinate is its
    canonical form."""
    c = canonical(x, y, z)
    assert to_cube(*c) == to_cube(x, y, z)
    assert is_canonical(*c)
    assert is_canonical(x, y, z) == ((x, y, z) == tuple(c))


@given(hexes, st.sampled_from(DIRECTION_NAMES))
def test_stepping_in_a_direction_adds_its_vector(h, name):
    """Walking one step in a named direction adds that direction's rules vector (then the
    result is written minimally)."""
    x, y, z = from_cube(h)
    dx, dy, dz = DIRECTION_VECTORS[name]
    assert from_cube(h + direction(name)) == canonical(x + dx, y + dy, z + dz)


@pytest.mark.parametrize("text", ["(0, 1, 1)", "0,1,1", "[0 1 1]", " ( 0 ,1, 1 ) ", "0;1;1"])
def test_players_write_coordinates_with_or_without_brackets(text):
    assert parse_hex(text) == to_cube(0, 1, 1)


def test_a_non_minimal_triple_names_its_hex_unless_strict():
    """(1, 0, 2) is one step Mouth and two North: the hex (0, 1, 1)."""
    assert hex_text(parse_hex("(1, 0, 2)")) == "(0, 1, 1)"
    with pytest.raises(NonCanonicalError, match=r"\(0, 1, 1\)") as e:
        parse_hex("(1, 0, 2)", strict=True)
    assert e.value.canonical == Coord(0, 1, 1)


def test_directions_by_name_or_initial_as_a_walk():
    """Direction names in full or by initial, any case, chained from a start hex."""
    assert parse_direction("north") == DIRECTIONS["North"]
    assert parse_direction("Z") == DIRECTIONS["Zest"]
    assert hex_text(parse_hex("2 North, Mouth")) == "(0, 1, 1)"
    assert parse_hex("N N M") == parse_hex("north+north+mouth")
    assert parse_hex("Weast", start=to_cube(1, 0, 0)) == Hex(0, 0)
    assert parse_hex("2 South then Ashe") == to_cube(0, 1, -2)


@pytest.mark.parametrize("text", ["", "Up", "(1, 2)", "1,2,3,4", "Northeast", "(a, b, c)"])
def test_unreadable_text_is_refused(text):
    with pytest.raises(CoordError):
        parse_hex(text)
