"""Property tests of the Crown of Cien through the real workflow (gmkit.sweeps.playout): for random seeds,
players and a few turns of bot playouts the game's invariants hold (no negative treasury, one owner
per province and only active players own, verification passes), the same seed builds byte-identical
tables, and any post, however garbled, is read without crashing, each error naming its line."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from unittest import mock

import polars as pl
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from shapely.geometry import mapping

from gmkit.core.envelope import Orders
from gmkit.rulesets.cien.orders import NOT_BOLD
from gmkit.core.orders import NO_ORDERS_MESSAGE
from gmkit.core.parts import Context
from gmkit.core.tables import LOG_SCHEMAS
from gmkit.core.files import parquet_bytes
from gmkit.game import Game
from gmkit.sweeps.playout import new_game
from gmkit.rulesets.cien.rules import CAPITAL, COLOURS
from tests.cases import Cases
from tests.cien.helpers import RULESET, grid_map, scenario

GRID = """
Coyons Tróys Sevoy Cien Arles
Guicardie Solsauvre Vauclerc Cien Brest
~1 ~1 ~2 ~2 ~3
"""
MAP = grid_map(GRID)
LAND = sorted(MAP.land())
HOMES = [n for n in LAND if n != CAPITAL]

GAME_SETTINGS = settings(max_examples=15, deadline=None,
                         suppress_health_check=[HealthCheck.too_slow])


def map_file(folder: Path) -> Path:
    """The grid map as a GeoJSON file."""
    features = [{"type": "Feature", "geometry": mapping(r.geometry),
                 "properties": {"name": r.name, "kind": r.kind, "capital": r.name == CAPITAL}}
                for r in MAP.regions.values()]
    path = folder / "map.geojson"
    path.write_text(json.dumps({"type": "FeatureCollection", "features": features}), "utf-8")
    return path


@st.composite
def player_lists(draw: st.DrawFn) -> list[dict[str, str]]:
    """One to four players, each with a distinct colour and home state."""
    n = draw(st.integers(min_value=1, max_value=4))
    homes = draw(st.permutations(HOMES))[:n]
    colours = draw(st.permutations(COLOURS))[:n]
    govs = draw(st.lists(st.sampled_from(["duchy", "city-state"]), min_size=n, max_size=n))
    return [{"id": c, "name": f"Player {i}", "state": h, "government": g}
            for i, (c, h, g) in enumerate(zip(colours, homes, govs))]


masters = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=12)


def build(folder: Path, players: list[dict[str, str]], turns: int, master: str) -> Game:
    """A bot playout on the grid map. Durability is not what these properties are about, so
    fsync is skipped to keep them fast (the store tests cover the commit itself)."""
    with mock.patch("os.fsync"):
        return new_game(folder / "g", "cien", players, turns, master, map_path=map_file(folder))


# ---------------------------------------------------------------------------
# invariants of played games
# ---------------------------------------------------------------------------


def test_playout_invariants() -> None:
    """For every committed turn of a bot playout: no treasury is negative (grain cannot be spent
    that is not there), every province appears once (so has at most one owner), every owner is an
    active player of that turn, and Game.verify() finds nothing to report. The run meets the
    cases these are about: a treasury spent to nothing, and provinces changing hands."""
    cases = Cases("a treasury spent to nothing", "a province changing hands")

    @GAME_SETTINGS
    @given(players=player_lists(), turns=st.integers(min_value=1, max_value=3), master=masters)
    def check(players: list[dict[str, str]], turns: int, master: str) -> None:
        cases.example()
        _playout_invariants(players, turns, master, cases)

    check()
    cases.check()


def _playout_invariants(players: list[dict[str, str]], turns: int, master: str,
                        cases: Cases) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        game = build(Path(tmp), players, turns, master)
        assert game.store.turns() == list(range(game.latest_turn + 1))
        assert game.latest_turn == turns or game.turn().outcome
        # the state's every row, as the rules keep it (the free colours too)
        players_hist = game.history("players", whole=True)
        provinces_hist = game.history("provinces", whole=True)
        for t in game.store.turns():
            pls = players_hist.filter(pl.col("turn") == t)
            prov = provinces_hist.filter(pl.col("turn") == t)
            negative = pls.filter(pl.col("treasury") < 0)
            assert negative.is_empty(), f"turn {t}: negative treasury\n{negative}"
            assert sorted(prov["name"].to_list()) == LAND, f"turn {t}: provinces not one each"
            active = set(pls.filter(pl.col("status") == "active")["id"].to_list())
            owners = set(prov["owner"].drop_nulls().to_list())
            assert owners <= active, f"turn {t}: owners {owners - active} are not active"
            assert pls["id"].n_unique() == pls.height
        assert game.verify() == []
        later = players_hist.filter(pl.col("turn") > 0)
        cases.met("a treasury spent to nothing", (later["treasury"] == 0).any())
        owners = provinces_hist.group_by("name").agg(pl.col("owner").n_unique())
        cases.met("a province changing hands", (owners["owner"] > 1).any())


def test_same_seed_same_orders_byte_identical_tables() -> None:
    """Determinism: two games built independently from the same seed (so the same orders) have
    byte-identical state tables, roll logs and event logs at every turn; dice were rolled."""
    cases = Cases("a turn with dice rolled")

    @settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(players=player_lists(), turns=st.integers(min_value=1, max_value=3), master=masters)
    def check(players: list[dict[str, str]], turns: int, master: str) -> None:
        cases.example()
        _same_seed_same_tables(players, turns, master, cases)

    check()
    cases.check()


def _same_seed_same_tables(players: list[dict[str, str]], turns: int, master: str,
                           cases: Cases) -> None:
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        one = build(Path(a), players, turns, master)
        two = build(Path(b), players, turns, master)
        assert one.store.turns() == two.store.turns()
        for t in one.store.turns():
            x, y = one.turn(t), two.turn(t)
            for name in RULESET.schemas:
                assert parquet_bytes(x.state[name]) == parquet_bytes(y.state[name]), \
                    f"turn {t}: table {name} differs"
            for name in LOG_SCHEMAS:
                assert parquet_bytes(getattr(x, name)) == parquet_bytes(getattr(y, name)), \
                    f"turn {t}: {name} differ"
            assert x.manifest_hash == y.manifest_hash
            cases.met("a turn with dice rolled", x.rolls.height > 0)


# ---------------------------------------------------------------------------
# fuzzed posts
# ---------------------------------------------------------------------------

STATE, PARAMS = scenario(GRID, {"Red": ("Coyons", "duchy"), "Gold": ("Arles", "city-state")},
                         owners={"Tróys": "Red"})

FRAGMENTS = [
    "[b]", "[/b]", "[B]", "[/ b]", "<b>", "</b>", "<strong>", "</strong>", "[quote]",
    "[/quote]", "[quote=GM]", "<blockquote>", "</blockquote>", "[i]", "[/i]", "[color=red]",
    "[/color]", "[size=5]", "[*]", "[list]", "[/list]", "[url=http://x]", "[/url]", "[br]",
    "\n", "\r\n", "\r", " ", "\t", "&amp;", "&#x", "\u200b", "- ", "1. ",
    "10 Grain for Conquest of ", "5 Grain for Defense of ", "3 grain for investing of ",
    "Invest 5 in ", "Attack ", " with 7", "Petition for Advancement, gift ", "Gift 5 Grain to the "
    "Emperor", "Declare Kingdom", "Declare Republic", "Reward to ", "Join as Teal with ",
    " as a Duchy", ", lord ", "Coyons", "Tróys", "TROYS", "Troies", "Cien", "Imperial City",
    "Sa", "Great Sea 1", "Vauclerc", "Brest", "0", "7", "35", "99999999999999999999",
    "grain", ".", "!", ";", ",", "[", "]", "<", ">", "é",
]

PLACES = ["Coyons", "Tróys", "Troies", "Sevoy", "Cien", "Arles", "Guicardie", "Solsauvre",
          "Vauclerc", "Brest", "Great Sea 1", "Nowhere"]
ORDERS = ["{n} Grain for Conquest of {p}", "{n} Grain for Defense of {p}", "Invest {n} in {p}",
          "Gift {n} Grain to the Emperor", "Petition for Advancement, gift {n}",
          "Declare Kingdom", "Reward to {p}"]
# whole order lines (bold, with any grain and place), so orders are read and then checked
order_lines = st.builds(lambda form, n, p: "[b]" + form.format(n=n, p=p) + "[/b]",
                        st.sampled_from(ORDERS), st.integers(0, 60), st.sampled_from(PLACES))

posts = st.one_of(
    st.text(max_size=300),
    st.lists(st.sampled_from(FRAGMENTS), max_size=30).map("".join),
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=8)), max_size=25)
    .map("".join),
    st.lists(st.one_of(order_lines, st.sampled_from(FRAGMENTS)), max_size=8).map("\n".join),
    order_lines,
)


def line_count(post: str) -> int:
    return post.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1


def test_fuzzed_posts_never_crash_and_errors_name_a_line() -> None:
    """Orders module: parsing never fails on any post; every error names its line (a line of
    the post) except the single 'no orders found' error; checking the orders against the state
    then never fails either and names a line for every problem. The run meets each case:
    an error naming its line, an order read, a problem found against the state, an order
    accepted."""
    cases = Cases("an error naming its line", "an order read", "a problem against the state",
                  "an order accepted")

    @settings(max_examples=300, deadline=None)
    @given(post=posts, secret=st.booleans())
    @example(post="", secret=False)
    @example(post="[b][/b]\n[quote][b]Hold Coyons[/b]", secret=False)
    @example(post="[b]Join as Teal with Vauclerc as a Duchy, lord [/b]", secret=True)
    def check(post: str, secret: bool) -> None:
        cases.example()
        _fuzzed_post(post, secret, cases)

    check()
    cases.check()


def _fuzzed_post(post: str, secret: bool, cases: Cases) -> None:
    result = RULESET.parse_post(post, "Red", STATE, Context(PARAMS), secret=secret)
    if len(result.errors) == 1 and result.errors[0].line is None:
        assert str(result.errors[0]) in (NO_ORDERS_MESSAGE, NOT_BOLD)
        assert result.orders == []
    else:
        for err in result.errors:
            assert str(err).startswith("line "), str(err)
            assert 1 <= err.line <= line_count(post)
    for line, order in result.orders:
        assert 1 <= line.number <= line_count(post)
        assert not hasattr(order, "line") and not hasattr(order, "secret")  # on its envelope
    problems = RULESET.validate(STATE, Orders.parsed({"Red": result}), Context(PARAMS))
    for err in problems.get("Red", []):
        assert str(err).startswith("line "), str(err)
    kept = Orders.parsed({"Red": result}).accepted(problems)
    accepted = kept["Red"] if "Red" in kept else []
    assert len(accepted) <= len(result.orders)
    cases.met("an error naming its line", any(e.line is not None for e in result.errors))
    cases.met("an order read", bool(result.orders))
    cases.met("a problem against the state", bool(problems.get("Red")))
    cases.met("an order accepted", bool(accepted))


def test_a_huge_number_is_an_error_not_a_crash() -> None:
    """Orders module: a line parser raises OrderError for a line that cannot be an order; a
    grain figure too long to be a number (900 digits) is such a line, reported on its line,
    not a crash; at 5000 digits the line is beyond the line limit, and the post is refused
    naming it."""
    post = "[b]5 Grain for Defense of Coyons[/b]\n[b]" + "9" * 900 + \
        " Grain for Defense of Coyons[/b]"
    result = RULESET.parse_post(post, "Red", STATE, Context(PARAMS))
    assert len(result.orders) == 1
    assert [e.line for e in result.errors] == [2]
    result = RULESET.parse_post(post.replace("9" * 900, "9" * 5000), "Red", STATE,
                                Context(PARAMS))
    assert not result.orders
    assert [(type(e).__name__, e.line) for e in result.errors] == [("LimitError", 2)]
