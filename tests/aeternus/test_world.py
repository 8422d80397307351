"""Aeternus's world generation (5.3): the biome pool, lakes, landmarks, corruption, the log."""

from __future__ import annotations

import math
from collections import deque
from fractions import Fraction

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gmkit.core.dice import Dice, seeded_int, seeded_uniform
from gmkit.rulesets.aeternus.coords import AXIAL_STEPS, from_axial, to_axial
from gmkit.rulesets.aeternus.draws import SeedDraws
from gmkit.rulesets.aeternus.records import FIELDS, draw_id, pick_index, pool_weights
from gmkit.rulesets.aeternus.world import (
    WORLD_SCHEMA,
    World,
    odds,
    pool_table,
    replay,
    requests,
    verify,
)
from tests.cases import Cases

SEED = "5e" * 32
F = Fraction


def world_of(cells: dict[tuple[int, int], str], params: dict | None = None,
             features: dict[tuple[int, int], tuple[str, ...]] | None = None) -> World:
    """A world of the given axial hexes and biomes (generated in the listed order)."""
    n = len(cells)
    coords = [from_axial(q, r) for q, r in cells]
    frame = pl.DataFrame({
        "q": [q for q, _ in cells], "r": [r for _, r in cells],
        "s": [-q - r for q, r in cells],
        "x": [c.x for c in coords], "y": [c.y for c in coords], "z": [c.z for c in coords],
        "biome": list(cells.values()), "mass": [0] * n, "mass_size": [1] * n,
        "landmark": ["Barren"] * n,
        "features": [list((features or {}).get(h, ())) for h in cells],
        "corrupted": [False] * n, "generated_order": list(range(n)), "generated_turn": [0] * n,
        "cause": ["generate"] * n,
    }, schema=WORLD_SCHEMA)
    return World.from_frame(frame, params)


def record(world: World, i: int) -> dict:
    return dict(zip(FIELDS, world.log.records[i]))


# -- the biome pool (5.3.1) ----------------------------------------------------------------

# Around the hex H = (1, 0, 0) (axial (1, 0)): North of it a Forest and Ashe of it a Forest
# (one mass of 2), Weast of it the origin, a Meadow, with a Meadow North of the origin (a mass
# of 2); Mouth, South and Zest of it indeterminate.
SMALL = {(0, 0): "Meadow", (0, -1): "Meadow", (1, -1): "Forest", (2, -1): "Forest"}
H = (1, 0)


def test_pool_has_one_entry_per_adjacent_hex_of_weight_bias_over_mass():
    """5.3.1: 'each adjacent hex is added to a randomisation pool, where its weight in the pool
    is equal to B/M' — Forest 10/2 twice (North, Ashe), Meadow 12/2 (Weast) — 'An additional
    "random" entry with weight 3'."""
    world = world_of(SMALL)
    assert pool_table(world, H) == [("Forest", F(5)), ("Forest", F(5)), ("Meadow", F(6)),
                                    ("random", F(3))]


def test_biome_odds_by_hand():
    """Total 5 + 5 + 6 + 3 = 19; "random" draws from the weights Meadow 7, Deceased Dunes 4,
    Forest 5, Perilous Pass 3, Swamp 5, Lake 0 (total 24)."""
    r = F(3, 19)
    assert odds(world_of(SMALL), H) == {
        "Meadow": F(6, 19) + r * F(7, 24), "Deceased Dunes": r * F(4, 24),
        "Forest": F(10, 19) + r * F(5, 24), "Perilous Pass": r * F(3, 24),
        "Swamp": r * F(5, 24),
    }
    assert sum(odds(world_of(SMALL), H).values()) == 1


def test_pool_per_mass_option():
    """Option pool_entry = mass: one entry per adjacent mass, Forest 10/2 once."""
    world = world_of(SMALL, {"pool_entry": "mass"})
    assert pool_table(world, H) == [("Forest", F(5)), ("Meadow", F(6)), ("random", F(3))]


def test_generator_draws_from_that_pool():
    """The generated hex's record holds the pool it drew from: (biome, bias, mass size) per
    adjacent hex in direction order."""
    world = world_of(SMALL)
    [i] = world.generate(H, seed=SEED, turn=1)
    rec = record(world, len(world.log) - 1)
    assert rec["order"] == i
    assert rec["pool"] == (2, 10, 2, 2, 10, 2, 0, 12, 2)
    weights, rnd, d = pool_weights(rec["pool"], 3)
    assert (weights, rnd, d) == ([10, 10, 12], 6, 2)


def test_pool_draw_is_exact_at_every_boundary():
    """The pool's uniform u = k / 2**53 picks entry i exactly when u * total falls in its
    share: the boundaries are the cumulative weights over the total."""
    weights, total = [10, 10, 12], 38
    acc = 0
    for i, w in enumerate([*weights, 6]):
        lo = acc
        acc += w
        first = math.ceil(F(lo, total) * 2**53)
        last = math.ceil(F(acc, total) * 2**53) - 1
        assert pick_index(first, weights, total) == i
        assert pick_index(last, weights, total) == i


def test_first_hex_next_to_nothing_draws_random_only():
    """With no generated neighbour the pool is "random" alone: no pool draw is made."""
    world = World.new()
    world.generate((5, 5), seed=SEED, turn=1)
    rec = record(world, 1)
    assert rec["pool"] == () and rec["pool_k"] == -1 and rec["random_roll"] >= 0


# -- Deceased Dunes and Swamp (5.3.1.2, 5.3.1.5) -------------------------------------------

def test_dunes_weigh_nothing_next_to_a_swamp():
    """5.3.1.2: 'When generating next to a swamp, the weight and bias of Deceased Dunes are 0'
    (and 5.3.1.5 the other way round)."""
    world = world_of({(0, 0): "Swamp", (1, -1): "Deceased Dunes", (5, 5): "Deceased Dunes"})
    # (1, 0) touches the Swamp (Weast) and the Dunes (North): neither can be drawn.
    assert pool_table(world, (1, 0)) == [("Deceased Dunes", F(0)), ("Swamp", F(0)),
                                         ("random", F(3))]
    assert set(odds(world, (1, 0))) == {"Meadow", "Forest", "Perilous Pass"}
    # (-1, 0) touches only the Swamp: Swamp 10/1, no Dunes even by "random".
    assert odds(world, (-1, 0)) == {
        "Meadow": F(3, 13) * F(7, 20), "Forest": F(3, 13) * F(5, 20),
        "Perilous Pass": F(3, 13) * F(3, 20), "Swamp": F(10, 13) + F(3, 13) * F(5, 20)}
    # next to the lone Dunes: no Swamp
    assert "Swamp" not in odds(world, (5, 4))


# -- lakes (5.3.1.6) -----------------------------------------------------------------------

def ring(center: tuple[int, int], radius: int) -> list[tuple[int, int]]:
    q, r = center[0] + AXIAL_STEPS[4][0] * radius, center[1] + AXIAL_STEPS[4][1] * radius
    out = []
    for d in (2, 1, 0, 5, 4, 3):  # walk round: North, Ashe, Mouth, ... as from the Zest corner
        for _ in range(radius):
            out.append((q, r))
            q, r = q + AXIAL_STEPS[d][0], r + AXIAL_STEPS[d][1]
    return out


def enclosure(center: tuple[int, int], radius: int) -> dict[tuple[int, int], str]:
    """A ring of Forest at ``radius`` round ``center``, all but its last hex."""
    cells = ring(center, radius)
    assert len(set(cells)) == 6 * radius
    return {h: "Forest" for h in cells[:-1]}


def test_lake_at_once_when_the_last_hex_closes_the_ring():
    """5.3.1.6: 'If an indeterminate hex is not adjacent to a hex of the infinitely large mass
    of indeterminate hexes, it generates with a Lake biome and a Barren landmark' — at once."""
    cells = enclosure((10, 0), 2)
    last = ring((10, 0), 2)[-1]
    world = world_of(cells)
    out = world.generate(last, seed=SEED, turn=3)
    inside = {(10, 0)} | set(ring((10, 0), 1))
    assert len(out) == 1 + 7
    frame = world.frame()
    lakes = frame.filter(pl.col("biome") == "Lake")
    assert set(zip(lakes["q"], lakes["r"])) == inside
    assert set(lakes["cause"]) == {"enclosed"} and set(lakes["landmark"]) == {"Barren"}
    assert set(lakes["mass_size"]) == {7} and lakes["mass"].n_unique() == 1
    assert set(lakes["generated_turn"]) == {3}
    assert not world.enclosed


def test_lake_hex_by_hex_when_generated():
    """Option lake_timing = when_generated: cut-off hexes stay indeterminate and each becomes
    Lake when a rule generates it."""
    cells = enclosure((10, 0), 2)
    last = ring((10, 0), 2)[-1]
    world = world_of(cells, {"lake_timing": "when_generated"})
    assert world.generate(last, seed=SEED, turn=3) == [len(cells)]
    inside = {(10, 0)} | set(ring((10, 0), 1))
    assert world.enclosed == inside
    world.generate((10, 0), seed=SEED, turn=4)
    assert world.biome_of((10, 0)) == "Lake"
    assert world.mass_of((10, 0))[1] == 1
    world.generate(ring((10, 0), 1)[0], seed=SEED, turn=4)
    assert world.mass_of((10, 0))[1] == 2
    assert world.enclosed == inside - {(10, 0), ring((10, 0), 1)[0]}
    assert "Lake" not in world.frame().filter(pl.col("cause") == "enclosed")["biome"].to_list()


def test_a_region_opening_elsewhere_is_no_lake():
    """A ring with a gap leaves its inside joined to the infinite mass: no lake."""
    cells = enclosure((10, 0), 2)
    cells.pop(ring((10, 0), 2)[0])
    world = world_of(cells)
    world.generate(ring((10, 0), 2)[-1], seed=SEED, turn=1)
    assert "Lake" not in world.frame()["biome"].to_list()


def test_from_frame_finds_the_regions_already_cut_off():
    """Reading back a world (lake_timing when_generated) finds its cut-off regions again."""
    cells = enclosure((10, 0), 1)
    world = world_of(cells, {"lake_timing": "when_generated"})
    world.generate(ring((10, 0), 1)[-1], seed=SEED, turn=1)
    again = World.from_frame(world.frame(), {"lake_timing": "when_generated"})
    assert again.enclosed == {(10, 0)}


# -- landmarks and corruption (5.3.2, 5.3.3.1) ---------------------------------------------

def test_landmark_weights_town_two_on_meadow():
    """5.3.2: Barren 20, Town 1; 'If the hex's biome is 'Meadow', weight 2'."""
    world = World.new()
    for q in range(1, 40):
        world.generate((q, 0), seed=SEED, turn=1)
    for rec in world.log.records[1:]:
        rec_d = dict(zip(FIELDS, rec))
        assert rec_d["town_weight"] == (2 if rec_d["biome"] == 0 else 1)
        x, y, z = from_axial(rec_d["q"], rec_d["r"])
        dice = Dice(SEED, 1, "generate")
        drawn = dice.choice(["Barren", "Town"], weights=[20, rec_d["town_weight"]],
                            purpose="landmark", rule="5.3.2", key=f"({x},{y},{z})/landmark")
        assert drawn == ("Barren", "Town")[rec_d["landmark"]]
        assert dice.roll(1, 100, purpose="corruption", rule="5.3.3.1",
                         key=f"({x},{y},{z})/corrupt") == rec_d["corrupt_roll"]


def first_corrupt_town() -> tuple[World, int]:
    for n in range(5000):
        world = World.new()
        seed = f"{n:064x}"
        world.generate((0, -1), seed=seed, turn=1)
        rec = record(world, 1)
        if rec["corrupted"] and rec["landmark"] == 1:
            return world, 1
    raise AssertionError("no corrupt Town in 5000 seeds")


def test_corruption_at_generation_clears_the_landmark():
    """5.3.3.1: 'When a hex is generated, it has a 5% chance to be corrupt. When a hex is
    corrupted, the landmark of this hex is set to 'barren''. The log keeps the Town drawn."""
    world, i = first_corrupt_town()
    assert record(world, i)["corrupt_roll"] <= 5
    row = world.frame().row(i, named=True)
    assert row["corrupted"] and row["landmark"] == "Barren" and row["features"] == []
    assert world.log.frame()["landmark"][i] == "Town"


def test_corrupting_a_hex_removes_its_features_and_landmark():
    """5.3.3.1: 'all features barring 'corrupted' are removed'."""
    world = world_of({(0, 0): "Meadow", (0, -1): "Forest"},
                     features={(0, -1): ("Flag", "Boardwalk")})
    world.landmark[1] = 1
    assert world.corrupt((0, -1))
    row = world.frame().row(1, named=True)
    assert row["corrupted"] and row["features"] == [] and row["landmark"] == "Barren"
    assert not world.corrupt((0, -1))


# -- randomness, the log, replay -----------------------------------------------------------

def growth_order(n: int, salt: int) -> list[tuple[int, int]]:
    """A deterministic scatter of hexes near the origin (neighbours and two-step jumps)."""
    out, have = [], {(0, 0)}
    k = salt
    while len(out) < n:
        k = (k * 6364136223846793005 + 1442695040888963407) % 2**64
        base = list(have)[(k >> 20) % len(have)] if len(have) < 50 else out[(k >> 20) % len(out)]
        d1, d2 = AXIAL_STEPS[(k >> 8) % 6], AXIAL_STEPS[(k >> 12) % 6]
        h = (base[0] + d1[0], base[1] + d1[1])
        if (k >> 16) % 4 == 0:
            h = (h[0] + d2[0], h[1] + d2[1])
        if h not in have:
            have.add(h)
            out.append(h)
    return out


def test_same_seed_same_order_same_world():
    order = growth_order(300, 7)
    a, b = World.new(), World.new()
    for w in (a, b):
        w.generate_all(order, seed=SEED, turn=2)
    assert a.frame().equals(b.frame())
    assert a.log.frame().equals(b.log.frame())
    c = World.new()
    c.generate_all(order, seed="77" * 32, turn=2)
    assert not a.frame().equals(c.frame())


def test_replay_and_verify_from_the_seeds_and_the_order():
    """The world is the record of what was generated in order: replaying the requests with the
    turns' seeds gives it back; a changed hex is reported."""
    seeds = {1: SEED, 2: "a1" * 32}
    world = World.new()
    order = growth_order(400, 3)
    world.generate_all(order[:200], seed=seeds[1], turn=1)
    world.generate_all(order[200:], seed=seeds[2], turn=2)
    frame = world.frame()
    assert replay(requests(frame), seeds).frame().equals(frame)
    assert verify(frame, seeds) == []
    forged = frame.with_columns(
        pl.when(pl.col("generated_order") == 5).then(pl.lit("Swamp"))
        .otherwise(pl.col("biome")).alias("biome"))
    problems = verify(forged, seeds)
    assert problems and "#5" in problems[0] and "Swamp" in problems[0]


def test_rolls_are_the_seeded_draws():
    """Every logged roll is the documented derivation of its draw id."""
    world = World.new()
    world.generate_all(growth_order(150, 11), seed=SEED, turn=4)
    rolls = world.log.rolls()
    assert len(rolls) >= 3 * 150 - 10
    for roll in rolls:
        purpose = roll.draw_id.rsplit("/", 1)[1]
        if purpose == "biome":
            u = float(roll.expression.split("=", 1)[1].split(" ", 1)[0])
            assert u == seeded_uniform(SEED, 4, roll.draw_id)
        elif purpose == "corrupt#0":
            assert roll.result == [seeded_int(SEED, 4, roll.draw_id, 100) + 1]
        else:
            weights = [int(p.rsplit(":", 1)[1]) for p in
                       roll.expression[len("choice("):-1].split(", ")]
            labels = [p.rsplit(":", 1)[0] for p in roll.expression[len("choice("):-1].split(", ")]
            left, i = seeded_int(SEED, 4, roll.draw_id, sum(weights)), 0
            while left >= weights[i]:
                left -= weights[i]
                i += 1
            assert roll.result == labels[i]
    assert world.log.frame().height == len(world)


@given(st.text(min_size=1, max_size=30), st.integers(0, 10**6), st.integers(1, 10**12))
@settings(max_examples=60, deadline=None)
def test_fast_draws_equal_the_core_dice(draw, turn, n):
    draws = SeedDraws(SEED, turn)
    assert draws.below(draw, n) == seeded_int(SEED, turn, draw, n)
    assert draws.uniform_k(draw) / 2**53 == seeded_uniform(SEED, turn, draw)


def test_draw_ids_name_the_hex_in_rules_coordinates():
    assert draw_id(*to_axial(0, 1, 1), "biome") == "generate:(0,1,1)/biome"


# -- properties: masses and lakes against recounts from scratch ----------------------------

def flood_masses(frame: pl.DataFrame) -> dict[tuple[int, int], int]:
    """Every hex's mass size, by flood fill (the reference, in the test only)."""
    biome = {(q, r): b for q, r, b in zip(frame["q"], frame["r"], frame["biome"])}
    size: dict[tuple[int, int], int] = {}
    for start in biome:
        if start in size:
            continue
        seen, todo = {start}, deque([start])
        while todo:
            q, r = todo.popleft()
            for dq, dr in AXIAL_STEPS:
                nb = (q + dq, r + dr)
                if nb not in seen and biome.get(nb) == biome[start]:
                    seen.add(nb)
                    todo.append(nb)
        for h in seen:
            size[h] = len(seen)
    return size


def holes(generated: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The indeterminate hexes cut off from infinity, by flood fill of a bounding box."""
    if not generated:
        return set()
    qs = [q for q, _ in generated]
    rs = [r for _, r in generated]
    q0, q1, r0, r1 = min(qs) - 1, max(qs) + 1, min(rs) - 1, max(rs) + 1
    box = {(q, r) for q in range(q0, q1 + 1) for r in range(r0, r1 + 1)} - generated
    outside = {h for h in box if h[0] in (q0, q1) or h[1] in (r0, r1)}
    todo = deque(outside)
    while todo:
        q, r = todo.popleft()
        for dq, dr in AXIAL_STEPS:
            nb = (q + dq, r + dr)
            if nb in box and nb not in outside:
                outside.add(nb)
                todo.append(nb)
    return box - outside


hex_at = st.tuples(st.integers(-4, 4), st.integers(-4, 4))
orders = st.lists(hex_at, min_size=1, max_size=70)


def _ring_then_centre(centre: tuple[int, int], before: list[tuple[int, int]],
                      after: list[tuple[int, int]]) -> list[tuple[int, int]]:
    q, r = centre
    return [*before, *((q + dq, r + dr) for dq, dr in AXIAL_STEPS), *after, centre]


# requests that close a ring round a hex before asking for it: the hex is cut off first
enclosing = st.builds(_ring_then_centre, hex_at, st.lists(hex_at, max_size=10),
                      st.lists(hex_at, max_size=10))


def test_masses_equal_a_recount_from_scratch():
    """A mass is 'a connected group of hexes of the same biome type': the incremental count
    equals a flood fill after any generation order. The run meets masses of several hexes."""
    cases = Cases("a mass of several hexes")

    @given(orders, st.sampled_from(["hex", "mass"]))
    @settings(max_examples=60, deadline=None)
    def check(order, pool_entry):
        cases.example()
        world = World.new({"pool_entry": pool_entry})
        world.generate_all(order, seed=SEED, turn=1)
        frame = world.frame()
        ref = flood_masses(frame)
        assert {(q, r): s for q, r, s in zip(frame["q"], frame["r"], frame["mass_size"])} == ref
        ids = frame.group_by("mass").agg(pl.len(), pl.col("mass_size").first())
        assert (ids["len"] == ids["mass_size"]).all()
        assert set(frame["mass"]) == set(frame.group_by("mass").agg(
            pl.col("generated_order").min())["generated_order"])
        cases.met("a mass of several hexes", (ids["len"] > 1).any())

    check()
    cases.check()


def test_lakes_at_once_equal_a_recount_of_enclosed_regions():
    """lake_timing at_once: after each request the hexes cut off are generated as Lake; a full
    recount of enclosed regions after each step says which, and none stays indeterminate. The
    run meets hexes cut off."""
    cases = Cases("a hex cut off")

    @given(st.one_of(orders, enclosing))
    @settings(max_examples=60, deadline=None)
    def check(order):
        cases.example()
        _lakes_at_once(order, cases)

    check()
    cases.check()


def _lakes_at_once(order, cases):
    world = World.new()
    generated, lakes = {(0, 0)}, set()
    for h in order:
        world.generate(h, seed=SEED, turn=1)
        if h not in generated:
            generated.add(h)
            cut = holes(generated)
            lakes |= cut
            generated |= cut
    frame = world.frame()
    assert set(zip(frame["q"], frame["r"])) == generated
    got = frame.filter(pl.col("cause") == "enclosed")
    assert set(zip(got["q"], got["r"])) == lakes
    assert set(got["biome"]) <= {"Lake"}
    assert not holes(generated)
    cases.met("a hex cut off", bool(lakes))


def test_lakes_when_generated_equal_a_recount_of_enclosed_regions():
    """lake_timing when_generated: a requested hex is Lake exactly when it was cut off before,
    and the world's cut-off set is the recount of enclosed regions. The run meets a hex cut off
    and then requested."""
    cases = Cases("a hex requested after it was cut off")

    @given(st.one_of(orders, enclosing))
    @settings(max_examples=60, deadline=None)
    def check(order):
        cases.example()
        _lakes_when_generated(order, cases)

    check()
    cases.check()


def _lakes_when_generated(order, cases):
    world = World.new({"lake_timing": "when_generated"})
    generated = {(0, 0)}
    expect_lake = set()
    for h in order:
        if h not in generated:
            if h in holes(generated):
                expect_lake.add(h)
            generated.add(h)
        world.generate(h, seed=SEED, turn=1)
        assert world.enclosed == holes(generated)
    frame = world.frame()
    got = frame.filter(pl.col("biome") == "Lake")
    assert set(zip(got["q"], got["r"])) == expect_lake
    cases.met("a hex requested after it was cut off", bool(expect_lake))


def test_dunes_never_touch_a_swamp():
    """5.3.1.2 and 5.3.1.5 together: a generated Deceased Dunes hex never borders a Swamp. The
    run meets Dunes with neighbours generated, and Swamps (worlds grown hex by hex from the
    origin, under several seeds)."""
    cases = Cases("a Dunes hex with a neighbour", "a Swamp hex")
    grown = st.builds(growth_order, st.integers(10, 80), st.integers(0, 2**32))

    @given(st.one_of(orders, grown), st.sampled_from(["0f" * 32, SEED, "a7" * 32, "31" * 32]))
    @settings(max_examples=40, deadline=None)
    def check(order, seed):
        cases.example()
        world = World.new()
        world.generate_all(order, seed=seed, turn=1)
        biome = {(q, r): world.biome[i] for (q, r), i in world.index.items()}
        for (q, r), b in biome.items():
            if b == 1:
                near = [biome.get((q + dq, r + dr)) for dq, dr in AXIAL_STEPS]
                assert 4 not in near
                cases.met("a Dunes hex with a neighbour", any(n is not None for n in near))
            cases.met("a Swamp hex", b == 4)

    check()
    cases.check()


def test_dunes_and_swamps_on_a_large_world():
    world = World.new()
    world.generate_all(growth_order(3000, 1), seed=SEED, turn=1)
    frame = world.frame()
    assert {"Deceased Dunes", "Swamp"} <= set(frame["biome"])
    for (q, r), i in world.index.items():
        if world.biome[i] == 1:
            assert all(world.biome[world.index[(q + dq, r + dr)]] != 4
                       for dq, dr in AXIAL_STEPS if (q + dq, r + dr) in world.index)


@pytest.mark.parametrize("timing", ["at_once", "when_generated"])
def test_world_frame_reads_back(timing):
    world = World.new({"lake_timing": timing})
    world.generate_all(growth_order(500, 5), seed=SEED, turn=1)
    frame = world.frame()
    again = World.from_frame(frame, {"lake_timing": timing})
    assert again.frame().equals(frame)
    assert again.enclosed == world.enclosed


# -- dice the GM entered ---------------------------------------------------------------------

def test_5_3_generation_draws_entered_by_the_gm_from_a_roll_made_elsewhere():
    """5.3 with 4's "generally trusted and fair method": each of a hex's draws may be a roll the
    GM made elsewhere, entered under its draw id (the pool's by what it gave or as a number in
    [0, 1), the random biome and the landmark by name, the corruption as a d100); the log shows
    each as entered, the others as seeded."""
    world = world_of(SMALL)
    start = len(world.log)
    entered = {draw_id(*H, "biome"): "forest", draw_id(*H, "landmark"): "Town",
               draw_id(*H, "corrupt#0"): 50}
    [i] = world.generate(H, seed=SEED, turn=1, entered=entered)
    row = world.frame().row(i, named=True)
    assert (row["biome"], row["landmark"], row["corrupted"]) == ("Forest", "Town", False)
    sources = {r.draw_id.rsplit("/", 1)[1]: (r.result, r.source) for r in world.log.rolls(start)}
    assert sources == {"biome": ("Forest", "entered"), "landmark": ("Town", "entered"),
                       "corrupt#0": ([50], "entered")}
    # the pool's "random" entry entered, then the random biome by name; a corrupt d100 of 5
    world = world_of(SMALL)
    [i] = world.generate(H, seed=SEED, turn=1, entered={
        draw_id(*H, "biome"): "random", draw_id(*H, "random"): "Swamp",
        draw_id(*H, "corrupt"): 5})
    row = world.frame().row(i, named=True)
    assert (row["biome"], row["corrupted"], row["landmark"]) == ("Swamp", True, "Barren")
    assert [r.source for r in world.log.rolls(start)] == ["entered", "entered", "seeded",
                                                          "entered"]
    # a number in [0, 1) draws from the pool as the seeded number would: 0 is its first entry
    world = world_of(SMALL)
    [i] = world.generate(H, seed=SEED, turn=1, entered={draw_id(*H, "biome"): 0.0})
    assert world.frame()["biome"][i] == pool_table(world_of(SMALL), H)[0][0]


@pytest.mark.parametrize("purpose, value, says", [
    ("biome", "Lake", "Forest, Meadow, random"), ("biome", 1.5, "not a number in [0, 1)"),
    ("landmark", "Castle", "Barren, Town"), ("corrupt#0", 101, "1 to 100")])
def test_5_3_an_entered_generation_draw_that_cannot_be_is_refused_by_its_draw_id(
        purpose, value, says):
    """5.3: a value the draw cannot give is refused, naming the draw and what it can give."""
    from gmkit.core.dice import DiceError

    world = world_of(SMALL)
    with pytest.raises(DiceError) as got:
        world.generate(H, seed=SEED, turn=1, entered={draw_id(*H, purpose): value})
    assert draw_id(*H, purpose.split("#")[0]) in str(got.value) and says in str(got.value)
    assert H not in world


def test_5_3_2_a_corruption_die_entered_twice_is_refused():
    """5.3.2: the corruption d100 entered both as ``corrupt`` and ``corrupt#0`` is refused (as
    any die entered twice), not one of them silently used."""
    from gmkit.core.dice import DiceError

    with pytest.raises(DiceError, match="entered twice"):
        world_of(SMALL).generate(H, seed=SEED, turn=1, entered={
            draw_id(*H, "corrupt"): 3, draw_id(*H, "corrupt#0"): 90})
