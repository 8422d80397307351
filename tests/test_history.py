"""A game's history (gmkit.publish.history) and its charts (gmkit.publish.charts), on a copy of the sample game:
players over every turn, the public view hiding GM-only figures and events, timeline filters,
the dice report's luck figure on rolls whose percentile is known, the map at any turn, and every
chart rendering to static SVG offline."""

from __future__ import annotations

import json
import shutil
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from gmkit.publish import charts
from gmkit.publish import history
from gmkit.core.dice import ENTERED, SEEDED, Roll, dice_distribution
from gmkit.core.reports import chart_svg
from gmkit.core.store import TurnData
from gmkit.game import Game, GameError, events_frame, rolls_frame

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample-cien"


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    folder = tmp_path_factory.mktemp("history") / "sample-cien"
    shutil.copytree(SAMPLE, folder)
    return Game.open(folder)


# -- players over the turns -----------------------------------------------------------------------

def test_series_has_every_turn_for_every_player(game: Game) -> None:
    turns = game.store.turns()
    active = game.to_move(game.state(turns[0]))
    for view in history.VIEWS:
        series = history.player_series(game, view=view)
        assert series.schema == pl.Schema({"turn": pl.Int64, "player": pl.String,
                                           "metric": pl.String, "value": pl.Float64})
        for metric in history.metrics(series):
            rows = series.filter(pl.col("metric") == metric)
            assert sorted(rows["turn"].unique().to_list()) == turns
            for turn in turns:
                assert set(rows.filter(pl.col("turn") == turn)["player"]) == set(active)


def test_series_values_are_the_standings_of_each_turn(game: Game) -> None:
    series = history.player_series(game, view="gm")
    for turn in (0, 3, game.latest_turn):
        standings = game.ruleset.standings(game.state(turn), game.rules)
        for row in standings.iter_rows(named=True):
            got = series.filter((pl.col("turn") == turn) & (pl.col("player") == row["player"]))
            assert dict(zip(got["metric"], got["value"])) == {
                m: float(row[m]) for m in history.metrics(series)}


def test_public_view_has_no_gm_only_metric(game: Game) -> None:
    gm = history.metrics(history.player_series(game, view="gm"))
    public = history.metrics(history.player_series(game, view="public"))
    assert gm == ["provinces", "income", "treasury", "spent_conquest", "spent_defense",
                  "spent_invest"]
    assert "treasury" not in public
    assert not set(public) & set(game.ruleset.views.gm_only)
    assert public == [m for m in gm if m not in game.ruleset.views.gm_only]
    with pytest.raises(ValueError, match="view"):
        history.player_series(game, view="players")


def _long_game(tmp_path: Path, turns: int) -> Game:
    """The sample with its last turn repeated up to ``turns`` (a stand-in for a long game: the
    history tables are read the same way)."""
    folder = tmp_path / "long"
    shutil.copytree(SAMPLE, folder)
    last = max((folder / "turns").iterdir())
    for t in range(int(last.name[:4]) + 1, turns + 1):
        dest = folder / "turns" / f"{t:04d}.r0"
        shutil.copytree(last, dest)
        manifest = json.loads((dest / "manifest.json").read_text())
        manifest["turn"] = t
        (dest / "manifest.json").write_text(json.dumps(manifest))
    return Game.open(folder)


def test_series_covers_every_turn_of_a_long_game(tmp_path: Path) -> None:
    """The per-player series has a point for every committed turn (its speed on a 100-turn game
    is measured in bench/run.py, not here)."""
    game = _long_game(tmp_path, 100)
    series = history.player_series(game, view="gm")
    assert series["turn"].n_unique() == 101
    assert series["turn"].min() == 0 and series["turn"].max() == 100


# -- the timeline ---------------------------------------------------------------------------------

def test_timeline_filters_and_views(game: Game) -> None:
    events = game.history("events")
    gm = history.timeline(game, view="gm")
    public = history.timeline(game)
    assert gm.columns == ["turn", "step", "kind", "player", "region", "text", "public"]
    assert gm.height == events.height
    assert public.height == events["public"].sum() < gm.height
    assert public["public"].all()

    red = history.timeline(game, players=["Red"], view="gm")
    assert red.height > 0 and set(red["player"]) == {"Red"}
    battles = history.timeline(game, kinds=["battle"])
    assert battles.height > 0 and set(battles["kind"]) == {"battle"}
    both = history.timeline(game, players=["Red", "Gold"], kinds=["battle", "conquest"])
    assert set(both["player"]) <= {"Red", "Gold"} and set(both["kind"]) <= {"battle", "conquest"}
    assert both.height == public.filter(pl.col("player").is_in(["Red", "Gold"])
                                        & pl.col("kind").is_in(["battle", "conquest"])).height
    assert history.timeline(game, kinds=[]).height == 0


def test_filter_helpers(game: Game) -> None:
    public, gm = history.event_kinds(game), history.event_kinds(game, view="gm")
    assert public == sorted(public) and set(public) < set(gm)
    hidden = set(game.history("events").filter(~pl.col("public"))["kind"])
    assert "spend" in gm and "spend" in hidden and "spend" not in public
    assert history.players(game) == ["Red", "Gold", "Green", "Cyan", "Orange", "Purple"]
    colours = history.player_colours(game)
    assert set(history.players(game)) <= set(colours)  # Orange, knocked out, keeps its colour


# -- the dice -------------------------------------------------------------------------------------

def _exact_percentile(dice: dict[int, int], total: int) -> float:
    dist = {0: Fraction(1)}
    for sides, count in dice.items():
        dist = _convolve(dist, dice_distribution(count, sides))
    below = sum(p for t, p in dist.items() if t < total)
    return float(100 * (below + dist.get(total, Fraction(0)) / 2))


def _convolve(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for (x, p), (y, q) in product(a.items(), b.items()):
        out[x + y] = out.get(x + y, Fraction(0)) + p * q
    return out


@pytest.mark.parametrize("dice,totals", [
    ({10: 1}, range(1, 11)),
    ({6: 2}, range(2, 13)),
    ({6: 2, 10: 1}, range(3, 23)),
    ({4: 3, 100: 1}, [4, 50, 60, 112]),
])
def test_luck_percentile_is_exact(dice: dict[int, int], totals: range) -> None:
    for total in totals:
        assert history.luck_percentile(dice, total) == pytest.approx(
            _exact_percentile(dice, total), abs=1e-9)


def test_luck_percentile_of_many_dice() -> None:
    assert history.luck_percentile({10: 1}, 10) == pytest.approx(95.0)
    assert history.luck_percentile({10: 300}, 1650) == pytest.approx(50.0, abs=1e-6)
    assert history.luck_percentile({10: 300, 100: 40}, 300 + 40) < 1e-9
    assert history.luck_percentile({10: 300, 100: 40}, 3000 + 4000) > 100 - 1e-9


def _roll(step: str, key: str, expression: str, result: object, *, player: str | None,
          source: str = SEEDED, public: bool = True) -> Roll:
    return Roll(7, step, f"{step}:{key}", f"test roll {key}", "test", expression, result,
                source, public, player)


@pytest.fixture
def dice_game(tmp_path: Path) -> Game:
    """The sample plus a turn whose rolls are known: Lucky rolls five 10s on 1d10, Unlucky
    five 1s (two entered by the GM), Even a 2d6 showing 7, and some draws that are not dice."""
    folder = tmp_path / "dice"
    shutil.copytree(SAMPLE, folder)
    game = Game.open(folder)
    rolls = [_roll("test", f"lucky{i}", "1d10", [10], player="Lucky") for i in range(5)]
    rolls += [_roll("test", f"unlucky{i}", "1d10", [1], player="Unlucky",
                    source=ENTERED if i < 2 else SEEDED) for i in range(5)]
    rolls += [_roll("test", "even", "2d6", [3, 4], player="Even"),
              _roll("test", "secret", "1d10", [1], player="Lucky", public=False),
              _roll("test", "pick", "choice(a, b)", "a", player="Lucky"),
              _roll("test", "u", "U[0,1)", 0.99, player="Lucky")]
    state = game.state().replace(turn=7)
    game.store.commit(TurnData(7, state, game.turn().orders.head(0), rolls_frame(rolls),
                               events_frame([])))
    return game


def test_dice_report_on_known_rolls(dice_game: Game) -> None:
    public = history.dice_report(dice_game)
    assert public.columns == ["player", "rolls", "entered", "dice", "total", "expected_total",
                              "total_minus_expected", "mean_face", "expected_face", "luck"]
    rows = {r["player"]: r for r in public.iter_rows(named=True)}
    lucky, unlucky, even = rows["Lucky"], rows["Unlucky"], rows["Even"]
    assert (lucky["rolls"], lucky["dice"], lucky["total"], lucky["entered"]) == (5, 5, 50, 0)
    assert lucky["mean_face"] == 10 and lucky["expected_face"] == 5.5
    assert lucky["total_minus_expected"] == 50 - 27.5
    assert lucky["luck"] == pytest.approx(100 * (1 - 0.5 * 0.1 ** 5))
    assert lucky["luck"] > 99.99 and unlucky["luck"] < 0.01
    assert unlucky["entered"] == 2 and unlucky["total"] == 5
    assert even["dice"] == 2 and even["expected_face"] == 3.5 and even["luck"] == pytest.approx(50)
    # the players of game.toml first, then the others, then the rolls of no player
    assert public["player"].to_list()[-1] == history.NO_PLAYER
    assert public["player"].to_list()[:6] == ["Red", "Gold", "Green", "Cyan", "Orange",
                                              "Purple"]

    gm = {r["player"]: r for r in history.dice_report(dice_game, view="gm").iter_rows(named=True)}
    assert gm["Lucky"]["rolls"] == 6 and gm["Lucky"]["total"] == 51  # the hidden roll counts
    assert gm["Lucky"]["luck"] < lucky["luck"]


def test_dice_report_of_the_sample(game: Game) -> None:
    report = history.dice_report(game)
    rolls = game.history("rolls").filter(pl.col("expression").str.contains(r"^\d+d\d+$"))
    assert report["rolls"].sum() == rolls.height
    independent = report.filter(pl.col("player") == history.NO_PLAYER)
    assert independent["rolls"].item() == rolls["player"].null_count()
    assert report["luck"].is_between(0, 100).all()


# -- the map --------------------------------------------------------------------------------------

def test_map_at_any_turn(game: Game) -> None:
    first, last = history.map_at(game, 0), history.map_at(game, game.latest_turn)
    for svg in (first, last):
        assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "set-up" in first and f"After turn {game.latest_turn}" in last
    assert first != last
    with pytest.raises(ValueError, match="not committed"):
        history.map_at(game, game.latest_turn + 1)


def test_open_game_says_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(GameError, match="no such game folder"):
        history.open_game(tmp_path / "nowhere")
    with pytest.raises(GameError, match="not a game folder"):
        history.open_game(tmp_path)
    with pytest.raises(GameError, match="no game folder given"):
        history.open_game("  ")


# -- charts ---------------------------------------------------------------------------------------

def _no_external_data(spec: object) -> bool:
    if isinstance(spec, dict):
        return "url" not in spec and all(_no_external_data(v) for v in spec.values())
    if isinstance(spec, list):
        return all(_no_external_data(v) for v in spec)
    return True


def test_every_chart_renders_to_svg_offline(game: Game) -> None:
    colours = history.player_colours(game)
    series = history.player_series(game, view="gm")
    built: dict[str, Any] = {f"series {m}": charts.series_chart(series, m, colours=colours)
                             for m in ("provinces", "treasury")}
    built["metrics"] = charts.metrics_chart(series, colours=colours)
    built["timeline"] = charts.timeline_chart(history.timeline(game, view="gm"), colours=colours)
    built["empty timeline"] = charts.timeline_chart(history.timeline(game, kinds=[]))
    built["dice"] = charts.dice_chart(history.dice_report(game), colours=colours)
    for name, chart in built.items():
        assert _no_external_data(chart.to_dict()), name
        svg = chart_svg(chart)
        assert svg.startswith("<svg") and "</svg>" in svg, name
    assert "Red" in chart_svg(built["dice"])
    assert colours["Red"] in chart_svg(built["series provinces"])


def test_metric_labels() -> None:
    assert charts.metric_label("provinces", {"provinces": "provinces held"}) == "provinces held"
    assert charts.metric_label("provinces") == "provinces"
    assert charts.metric_label("spent_conquest") == "spent on conquest"
    assert charts.metric_label("some_figure") == "some figure"


def test_a_subject_the_ruleset_does_not_follow_is_named_with_those_it_does(tmp_path):
    """History follows other subjects only where the ruleset says so (the Law of the Jungle's
    characters); any other is refused in one line listing the ones it follows."""
    import pytest as _pytest

    from gmkit.publish import history as _history
    from gmkit.game import Game as _Game

    game = _Game.new(tmp_path / "g", "example", [{"id": "Amber"}, {"id": "Birch"}])
    with _pytest.raises(ValueError, match="follows no subject 'character' .*none"):
        _history.subject_series(game, "character")
