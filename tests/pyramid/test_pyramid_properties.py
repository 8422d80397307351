"""Property tests of Pyramid Power Wars: seeded bot playouts on generated boards keep the game's
invariants (no negative stores, one noble per space, forces only on their own land, population
never more than food kept plus births), the same seed gives the same round, and any post is
read without crashing."""

from __future__ import annotations

from typing import Any

import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmkit.core.dice import Dice
from gmkit.core.params import Params
from gmkit.core.steps import Driver
from gmkit.core.tables import State
from gmkit.rulesets.pyramid.board import generate
from gmkit.rulesets.pyramid.bot import random_post
from gmkit.rulesets.pyramid.constants import COLOURS
from gmkit.rulesets.pyramid.orders import parse
from gmkit.rulesets.pyramid.state import SCHEMAS, setup
from gmkit.rulesets.pyramid.steps import steps_for
from gmkit.rulesets.pyramid.validate import validate
from tests.cases import Cases
from tests.pyramid.helpers import rules

seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)
OPTIONS = st.fixed_dictionaries({
    "contest_many": st.sampled_from(["all_at_once", "attackers_first"]),
    "harvest_feeds": st.sampled_from(["this_round", "next_round"]),
    "births_per_food": st.sampled_from([1, 2]),
    "holder_tie": st.sampled_from(["holder_wins", "repelled"]),
    "start_food": st.integers(0, 3),
})


def one_round(state: State, params: Params, seed: str) -> Driver:
    dice = Dice(seed, state.turn + 1)
    posts = {p: random_post(state, p, params, dice.for_step(f"bot/{p}"))
             for p in state["players"]["id"].to_list()}
    parsed = {p: parse(t, state) for p, t in posts.items() if t}
    for p, res in parsed.items():
        assert res.ok, (p, res.report())
    assert validate(state, parsed, params) == {}, posts
    orders = {p: [o for _, o in res.orders] for p, res in parsed.items()}
    driver = Driver(steps_for(params), state, orders, dice, params)
    driver.run_all()
    return driver


def population(state: State) -> dict[str, int]:
    troops = dict(state["troops"].group_by("player").agg(pl.col("count").sum()).iter_rows())
    return {r["id"]: r["serfs"] + r["priests"] + troops.get(r["id"], 0)
            for r in state["players"].iter_rows(named=True)}


def check_invariants(state: State, params: Params) -> None:
    state.checked(SCHEMAS)
    for col in ("food", "stone", "serfs", "priests"):
        assert (state["players"][col] >= 0).all(), col
    for table, col in (("spaces", "serfs"), ("troops", "count"), ("pyramids", "priests"),
                       ("pyramids", "stone"), ("nobles", "glory")):
        assert (state[table][col] >= 0).all(), (table, col)
    spaces = state["nobles"]["space"].to_list()
    assert len(spaces) == len(set(spaces)), "one noble per space"
    holder = dict(state["spaces"].select("name", "holder").iter_rows())
    for table in ("nobles", "troops", "pyramids"):
        for r in state[table].iter_rows(named=True):
            assert holder[r["space"]] == r["player"], (table, r)
    for me in state["players"].iter_rows(named=True):
        at_work = state["spaces"].filter(pl.col("holder") == me["id"])["serfs"].sum()
        staffing = state["pyramids"].filter(pl.col("player") == me["id"])["priests"].sum()
        assert at_work <= me["serfs"] and staffing <= me["priests"]


def test_playouts_keep_the_invariants() -> None:
    """No negative stores, one noble per space, forces only on their own land, and each
    player's population after a round is at most what food kept plus what was born. The run
    meets the cases these are about: an upkeep that kept fewer than lived, births, a contest
    for a land."""
    cases = Cases("an upkeep keeping fewer than lived", "a birth", "a contest")

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seed=seeds, players=st.integers(2, 8), spaces=st.integers(24, 40), options=OPTIONS)
    def check(seed: str, players: int, spaces: int, options: dict[str, Any]) -> None:
        cases.example()
        _playout(seed, players, spaces, options, cases)

    check()
    cases.check()


def _playout(seed: str, players: int, spaces: int, options: dict[str, Any],
             cases: Cases) -> None:
    params = rules(**options)
    state = setup([(c, c) for c in COLOURS[:players]], generate(spaces, seed), params)
    check_invariants(state, params)
    for r in range(1, 6):
        driver = one_round(state, params, seed)
        after = driver.state
        check_invariants(after, params)
        pop = population(after)
        for e in driver.events:
            cases.met("a contest", e.kind == "contest")
            if e.kind == "upkeep":
                cases.met("an upkeep keeping fewer than lived",
                          e.data["kept"] < e.data["population"])
                cases.met("a birth", sum(e.data["born"].values()) > 0)
                assert pop[e.player] <= e.data["kept"] + sum(e.data["born"].values())
                assert e.data["kept"] <= max(e.data["population"],
                                             e.data["food"] * params.population_per_food)
                assert e.data["kept"] <= e.data["food"] * params.population_per_food or \
                    e.data["kept"] == e.data["population"]
        state = after.replace(turn=r)


def test_the_same_seed_gives_the_same_round() -> None:
    """Two resolutions of the same state, posts and seed are identical, event for event. The
    run meets the case where order of resolution matters: forces meeting in a contest (a
    round's own draws, retreats and new nobles' places, are too rare to count on)."""
    cases = Cases("a contest")

    @settings(max_examples=8, deadline=None)
    @given(seed=seeds, players=st.integers(2, 6))
    def check(seed: str, players: int) -> None:
        cases.example()
        params = rules()
        state = setup([(c, c) for c in COLOURS[:players]], generate(30, seed), params)
        for r in range(1, 4):
            one, two = one_round(state, params, seed), one_round(state, params, seed)
            assert one.state.equals(two.state)
            assert one.events == two.events and one.rolls == two.rolls
            cases.met("a contest", any(e.kind == "contest" for e in one.events))
            state = one.state.replace(turn=r)

    check()
    cases.check()


POST_STATE = setup([("Red", "R"), ("Blue", "B")], generate(24, "77" * 32), rules())
LANDS = [*POST_STATE["spaces"]["name"].to_list()[:6], "Nowhere"]
FORMS = ["{n} serfs to {p}", "{n} priests to the war pyramid", "noble 1 to {p}",
         "noble 1 with {n} troops to {p}", "{n} troops from {p} to {q}",
         "build war pyramid: {n} stone", "claim pyramids at {p}",
         "excess food: {n} priests, 1 troops", "starve: troops, serfs, priests"]
# whole order lines with any number and land, so that orders are read and then validated
order_lines = st.builds(lambda form, n, p, q: form.format(n=n, p=p, q=q), st.sampled_from(FORMS),
                        st.integers(0, 12), st.sampled_from(LANDS), st.sampled_from(LANDS))


def test_any_post_is_read_without_crashing() -> None:
    """Whatever is posted, parsing returns orders or per-line errors and never raises, nor
    does validating what was read. The run meets each case: an error naming its line, an
    order read, a problem found against the state."""
    cases = Cases("an error naming its line", "an order read", "a problem against the state")

    @settings(max_examples=200, deadline=None)
    @given(text=st.one_of(st.text(max_size=200), st.lists(
        st.one_of(order_lines, st.text(max_size=20)), max_size=5).map("\n".join)))
    def check(text: str) -> None:
        cases.example()
        result = parse(text, POST_STATE)
        assert all(e.line is not None or "no orders" in str(e) for e in result.errors)
        problems = validate(POST_STATE, {"Red": result}, rules())
        cases.met("an error naming its line", any(e.line is not None for e in result.errors))
        cases.met("an order read", bool(result.orders))
        cases.met("a problem against the state", bool(problems.get("Red")))

    check()
    cases.check()
