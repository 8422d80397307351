"""Hex grids in cube coordinates: the properties Red Blob Games' formulas promise, and the
vectorised column functions agreeing with the scalar ones."""

from __future__ import annotations

import pickle
from collections import deque

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gmkit.core.boards import Board, BoardError
from gmkit.core.boards.hexgrid import (
    DIRECTIONS,
    FLAT,
    POINTY,
    Hex,
    HexBoard,
    Layout,
    cube_round,
    distance,
    distance_expr,
    from_pixel,
    hex_text,
    line,
    neighbour,
    neighbour_pairs,
    neighbours,
    neighbours_frame,
    parse_hex,
    ring,
    ring_frame,
    spiral,
    spiral_frame,
    to_pixel,
)
from gmkit.core.orders import UnknownNameError

coord = st.integers(-10_000, 10_000)
hexes = st.builds(Hex, coord, coord)
small = st.builds(Hex, st.integers(-6, 6), st.integers(-6, 6))
radii = st.integers(0, 12)
layouts = st.builds(
    Layout.of,
    st.sampled_from(["pointy", "flat"]),
    st.tuples(st.floats(0.5, 200), st.floats(0.5, 200)),
    st.tuples(st.floats(-1000, 1000), st.floats(-1000, 1000)),
)


def bfs_distance(a: Hex, b: Hex) -> int:
    """Steps of a shortest walk from ``a`` to ``b`` through neighbours."""
    seen = {a: 0}
    todo = deque([a])
    while todo:
        h = todo.popleft()
        if h == b:
            return seen[h]
        for n in neighbours(h):
            if n not in seen:
                seen[n] = seen[h] + 1
                todo.append(n)
    raise AssertionError("unreachable")


# -- the Hex value ---------------------------------------------------------------------------


@given(hexes)
def test_coordinates_always_sum_to_zero(h: Hex) -> None:
    """q + r + s == 0 for every hex, and for every neighbour of it."""
    assert h.q + h.r + h.s == 0
    for n in neighbours(h):
        assert n.q + n.r + n.s == 0


def test_hex_rejects_coordinates_not_summing_to_zero() -> None:
    """A cube coordinate off the plane q + r + s = 0 is no hex."""
    with pytest.raises(ValueError, match="q \\+ r \\+ s must be 0"):
        Hex(1, 1, 1)
    with pytest.raises(TypeError):
        Hex(1.5, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Hex(True, 0)


def test_hex_is_an_immutable_hashable_value() -> None:
    """Hexes compare, hash and pickle by value and cannot be changed."""
    h = Hex(2, -1)
    assert h == Hex(2, -1, -1) and hash(h) == hash(Hex(2, -1, -1))
    assert len({h, Hex(2, -1)}) == 1
    assert pickle.loads(pickle.dumps(h)) == h
    with pytest.raises(AttributeError):
        h.q = 3  # type: ignore[misc]
    assert sorted([Hex(1, 0), Hex(0, 1), Hex(0, 0)]) == [Hex(0, 0), Hex(0, 1), Hex(1, 0)]


def test_six_directions_are_the_unit_steps() -> None:
    """The six directions are distinct, each one step from the origin, opposite in pairs."""
    origin = Hex(0, 0)
    assert len(set(DIRECTIONS)) == 6
    assert all(distance(origin, d) == 1 for d in DIRECTIONS)
    assert all(DIRECTIONS[i] == -DIRECTIONS[(i + 3) % 6] for i in range(6))
    assert neighbour(origin, 0) == Hex(1, 0, -1)


# -- distance ---------------------------------------------------------------------------------


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    """Identity, symmetry and the triangle inequality."""
    assert distance(a, a) == 0
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, b) == distance(b, a)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@settings(max_examples=60)
@given(small, small)
def test_distance_is_the_shortest_neighbour_walk(a: Hex, b: Hex) -> None:
    """The distance equals the number of steps of a shortest walk through neighbours."""
    assert distance(a, b) == bfs_distance(a, b)


@given(hexes)
def test_every_neighbour_is_one_step_away(h: Hex) -> None:
    """Each of the six neighbours is at distance 1, and they are distinct."""
    around = neighbours(h)
    assert len(set(around)) == 6
    assert all(distance(h, n) == 1 for n in around)


# -- rings, spirals, lines --------------------------------------------------------------------


@given(hexes, radii)
def test_ring_has_six_r_hexes_all_at_distance_r(center: Hex, radius: int) -> None:
    """A ring of radius r > 0 has 6r distinct hexes, each r steps from the centre, each
    adjacent to the next."""
    hs = ring(center, radius)
    assert len(hs) == (6 * radius if radius else 1)
    assert len(set(hs)) == len(hs)
    assert all(distance(center, h) == radius for h in hs)
    if radius:
        assert all(distance(a, b) == 1 for a, b in zip(hs, hs[1:] + hs[:1]))


@given(hexes, radii)
def test_spiral_has_one_plus_three_r_r_plus_one_hexes(center: Hex, radius: int) -> None:
    """A spiral of radius r holds the 1 + 3r(r+1) hexes within r steps, the centre first."""
    hs = spiral(center, radius)
    assert len(hs) == 1 + 3 * radius * (radius + 1)
    assert len(set(hs)) == len(hs)
    assert hs[0] == center
    assert all(distance(center, h) <= radius for h in hs)


def test_negative_radius_is_refused() -> None:
    with pytest.raises(ValueError, match="radius"):
        ring(Hex(0, 0), -1)
    with pytest.raises(ValueError, match="radius"):
        spiral_frame(Hex(0, 0), -1)


@given(hexes, st.builds(Hex, st.integers(-40, 40), st.integers(-40, 40)))
def test_line_has_distance_plus_one_hexes_each_adjacent_to_the_next(a: Hex, step: Hex) -> None:
    """A line from a to b has distance(a, b) + 1 hexes, starts at a, ends at b, and walks one
    step at a time."""
    b = a + step
    hs = line(a, b)
    assert len(hs) == distance(a, b) + 1
    assert hs[0] == a and hs[-1] == b
    assert all(distance(x, y) == 1 for x, y in zip(hs, hs[1:]))


# -- pixels ----------------------------------------------------------------------------------


@given(hexes, layouts)
def test_hex_to_pixel_to_hex_round_trips(h: Hex, layout: Layout) -> None:
    """The centre of a hex lies in that hex, for pointy- and flat-top layouts."""
    assert layout.from_pixel(*layout.to_pixel(h)) == h


@given(hexes, st.sampled_from([POINTY, FLAT]))
def test_corners_lie_one_size_from_the_centre(h: Hex, orientation: object) -> None:
    layout = Layout(orientation, size=Layout.of().size)  # type: ignore[arg-type]
    cx, cy = layout.to_pixel(h)
    for x, y in layout.corners(h):
        assert abs(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 - 10.0) < 1e-9


@given(st.floats(-1e4, 1e4), st.floats(-1e4, 1e4))
def test_cube_round_lands_on_the_nearest_centre(q: float, r: float) -> None:
    """The rounded hex is no farther (in cube space) than any of its neighbours."""
    h = cube_round(q, r)
    assert h.q + h.r + h.s == 0
    assert abs(h.q - q) <= 1 and abs(h.r - r) <= 1


# -- text -----------------------------------------------------------------------------------


@given(hexes)
def test_text_form_round_trips(h: Hex) -> None:
    assert parse_hex(hex_text(h)) == h
    assert parse_hex(f" ({h.q}, {h.r}, {h.s}) ") == h


@pytest.mark.parametrize("text", ["", "3", "3,x", "1,2,3", "1.5,2", "a,b"])
def test_bad_hex_text_is_named_in_the_error(text: str) -> None:
    with pytest.raises(ValueError) as err:
        parse_hex(text)
    assert repr(text) in str(err.value)


# -- the vectorised twins --------------------------------------------------------------------


@settings(max_examples=40)
@given(st.lists(hexes, min_size=1, max_size=30))
def test_neighbours_frame_agrees_with_neighbours(hs: list[Hex]) -> None:
    df = pl.DataFrame({"q": [h.q for h in hs], "r": [h.r for h in hs], "tag": list(range(len(hs)))})
    out = neighbours_frame(df)
    expected = [(i, d, n.q, n.r) for i, h in enumerate(hs) for d, n in enumerate(neighbours(h))]
    assert out.select("tag", "direction", "nq", "nr").rows() == expected


@settings(max_examples=40)
@given(st.lists(st.tuples(hexes, hexes), min_size=1, max_size=30))
def test_distance_expr_agrees_with_distance(pairs: list[tuple[Hex, Hex]]) -> None:
    df = pl.DataFrame({
        "q1": [a.q for a, _ in pairs], "r1": [a.r for a, _ in pairs],
        "q2": [b.q for _, b in pairs], "r2": [b.r for _, b in pairs],
    })
    got = df.select(distance_expr("q1", "r1", "q2", "r2")).to_series().to_list()
    assert got == [distance(a, b) for a, b in pairs]


@settings(max_examples=40)
@given(st.lists(hexes, min_size=1, max_size=30), layouts)
def test_to_pixel_and_from_pixel_agree_with_the_layout(hs: list[Hex], layout: Layout) -> None:
    df = pl.DataFrame({"q": [h.q for h in hs], "r": [h.r for h in hs]})
    px = to_pixel(df, layout)
    assert px.select("x", "y").rows() == [tuple(layout.to_pixel(h)) for h in hs]
    back = from_pixel(px.drop("q", "r"), layout)
    assert back.select("q", "r").rows() == [(h.q, h.r) for h in hs]


@settings(max_examples=40)
@given(st.lists(st.tuples(st.floats(-1e4, 1e4), st.floats(-1e4, 1e4)), min_size=1, max_size=30),
       layouts)
def test_from_pixel_agrees_with_the_layout_anywhere(points: list[tuple[float, float]],
                                                     layout: Layout) -> None:
    df = pl.DataFrame({"x": [p[0] for p in points], "y": [p[1] for p in points]})
    got = from_pixel(df, layout).select("q", "r").rows()
    assert got == [(h.q, h.r) for h in (layout.from_pixel(x, y) for x, y in points)]


@given(hexes, radii)
def test_ring_and_spiral_frames_agree_with_ring_and_spiral(center: Hex, radius: int) -> None:
    assert ring_frame(center, radius).rows() == [(h.q, h.r) for h in ring(center, radius)]
    assert spiral_frame(center, radius).rows() == [(h.q, h.r) for h in spiral(center, radius)]


# -- the board -------------------------------------------------------------------------------


def test_unbounded_board_has_every_hex_and_six_neighbours() -> None:
    board = HexBoard()
    far = Hex(10**9, -(10**9))
    assert isinstance(board, Board) and board.kind == "hex"
    assert board.contains(far) and not board.contains("0,0")
    assert board.neighbours(far) == frozenset(neighbours(far))
    assert board.place_kind(far) == "land"
    assert board.parse_place("3,-2") == Hex(3, -2) and board.place_text(Hex(3, -2)) == "3,-2"


def test_bounded_board_keeps_only_its_hexes_and_their_kinds() -> None:
    """On a board of known hexes, neighbours stop at the edge and kinds come from the frame."""
    df = spiral_frame(Hex(0, 0), 1).with_columns(
        kind=pl.when(pl.col("q") == 0).then(pl.lit("sea")).otherwise(pl.lit("land")))
    board = HexBoard(df)
    assert len(board) == 7
    assert board.neighbours(Hex(1, 0)) == {Hex(0, 0), Hex(1, -1), Hex(0, 1)}
    assert board.place_kind(Hex(0, 1)) == "sea" and board.place_kind(Hex(1, 0)) == "land"
    assert not board.contains(Hex(2, 0))
    with pytest.raises(UnknownNameError, match="no hex 2,0"):
        board.parse_place("2,0")
    with pytest.raises(ValueError, match="'nowhere'"):
        board.parse_place("nowhere")
    # every adjacency of the board, as a vectorised join, agrees with neighbours()
    pairs = {(Hex(q, r), Hex(nq, nr)) for q, r, _, nq, nr in board.edges().rows()}
    assert pairs == {(h, n) for h in board for n in board.neighbours(h)}
    assert neighbour_pairs(df).height == 2 * 12


def test_bounded_board_rejects_repeated_hexes_and_a_wrong_s() -> None:
    df = pl.DataFrame({"q": [0, 0, 1], "r": [0, 0, 0], "s": [0, 0, 5]})
    with pytest.raises(BoardError) as err:
        HexBoard(df, source="world.parquet")
    assert "world.parquet" in str(err.value)
    assert "0,0" in str(err.value) and "(1, 0, 5)" in str(err.value)
