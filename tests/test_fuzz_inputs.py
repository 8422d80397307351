"""Hostile input, generated: every ruleset's order parser (and validation), every GM-input
parser and every board reader answers any input with a result or its own kind of error, never a
traceback. Each property runs a bounded number of examples, derandomized, so the whole file runs
in well under a minute."""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmkit.core import dice as gdice
from gmkit.core.boards import BoardError
from gmkit.core.boards.files import read_board
from gmkit.core.orders import MAX_LINE_CHARS, OrderError, ParseResult
from gmkit.core.params import ParamError
from gmkit.core.envelope import Orders
from gmkit.core.parts import GM_POSTER
from gmkit.core.ruleset import find_ruleset, registered
from gmkit.game.fairdice import FairDiceError, parse_time
from gmkit.game import Game, GameError, starting_board
from gmkit.game.intake import config_problems

FUZZ = settings(max_examples=100, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])

#: Words the parsers look for, and the marks around them: what reaches their deeper branches.
WORDS = ["noble", "with", "from", "to", "into", "leads", "move", "build", "war", "pyramid",
         "serfs", "priests", "troops", "Grain", "for", "Conquest", "Defense", "of", "Gift",
         "Petition", "A", "F", "S", "H", "sac", "Ten", "Tex", "city", "unit", "empire", "gold",
         "citizens", "food", "health", "conquered", "by", "tech", "era", "turn", "join", "gains",
         "Propose:", "set", "=", "Vote", "for", "Scout", "Traverse", "Fish", "Forage", "Dig",
         "Attack", "Morning:", "Afternoon:", "1", "-7", "99999999999999999999", "1e308", "nan",
         ",", ":", ";", "->", "#0", "(", ")", "[b]", "[/b]", "[quote]", "<b>", "\u200f", "\x00",
         "Tróys", "Redsand", "Amber", "Red", "Aztecs", "Ocelotl"]

line_text = st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=8)), max_size=25).map(
    " ".join)
post_text = st.one_of(
    st.text(max_size=300),
    st.lists(st.tuples(st.booleans(), line_text), max_size=12).map(
        lambda lines: "\n".join(f"[b]{t}[/b]" if bold else t for bold, t in lines)),
    st.tuples(st.sampled_from(WORDS), st.integers(MAX_LINE_CHARS - 5, MAX_LINE_CHARS + 5)).map(
        lambda wn: ((wn[0] + " ") * wn[1])[:wn[1]]),
)


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Game]:
    """A new game of every registered ruleset (its set-up state is what posts are read
    against)."""
    root = tmp_path_factory.mktemp("fuzz")
    out = {}
    for name in registered():
        rs = find_ruleset(name)
        out[name] = Game.new(root / name, name, rs.example_players(starting_board(rs)[0]))
    return out


@pytest.mark.parametrize("name", registered())
def test_every_order_parser_reads_any_post_without_a_traceback(games: dict[str, Game],
                                                               name: str) -> None:
    """A post of anything: parsed into orders and per-line errors, validated against the
    state; only OrderErrors, each naming a line of the post or none."""
    game = games[name]
    state = game.coming_state()
    posters = [game.player_ids(state)[0]] + ([GM_POSTER] if game.ruleset.lifecycle.gm_posts else [])

    @FUZZ
    @given(post=post_text, poster=st.sampled_from(posters))
    def check(post: str, poster: str) -> None:
        parsed = game.ruleset.parse_post(post, poster, state, game.context())
        assert isinstance(parsed, ParseResult)
        lines = post.count("\n") + post.count("\r") + 1
        for error in parsed.errors:
            assert isinstance(error, OrderError)
            assert error.line is None or 1 <= error.line <= lines + 1
        problems = game.ruleset.validate(state, Orders.parsed({poster: parsed}), game.context())
        assert all(isinstance(e, OrderError) for es in problems.values() for e in es)

    check()


toml_value = st.recursive(
    st.one_of(st.integers(), st.floats(), st.booleans(), st.text(max_size=20)),
    lambda inner: st.lists(inner, max_size=3), max_leaves=6)


@pytest.mark.parametrize("name", registered())
def test_every_rule_value_is_taken_or_refused_by_name(name: str) -> None:
    """``rules --set``, game.toml and a proposal: any value is taken or refused with a
    ParamError naming the rule."""
    rs = find_ruleset(name)
    names = [p.name for p in rs.params] + ["no_such_rule"]

    @FUZZ
    @given(rule=st.sampled_from(names), value=toml_value)
    def check(rule: str, value: Any) -> None:
        try:
            rules = rs.rules({rule: value})
        except ParamError as e:
            assert f"'{rule}'" in str(e)
        else:
            taken = rules[rule]
            assert not isinstance(taken, float) or math.isfinite(taken)
        lenient = rs.rules({rule: value}, lenient=True)
        assert set(lenient.problems) <= {rule}

    check()


@FUZZ
@given(text=st.one_of(st.text(max_size=200), st.lists(
    st.tuples(line_text, st.one_of(st.integers().map(str), line_text)), max_size=8).map(
        lambda kv: "\n".join(f"{k} = {v}" for k, v in kv))))
def test_a_dice_file_is_read_or_refused_naming_its_line(text: str) -> None:
    """The GM's dice file (``--dice``) and a typed die value: a value, or a DiceError."""
    try:
        gdice.parse_entered(text)
    except gdice.DiceError as e:
        assert str(e).startswith("line ")
    try:
        gdice.parse_die_value(text[:40])
    except gdice.DiceError:
        pass


@FUZZ
@given(text=st.text(max_size=60))
def test_a_deadline_is_read_or_refused(text: str) -> None:
    """``gmkit deadline``'s time: an aware datetime or a FairDiceError."""
    try:
        when = parse_time(text)
    except FairDiceError:
        return
    assert when.utcoffset() is not None


json_value = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=12)),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=20)


@FUZZ
@given(config=st.dictionaries(st.sampled_from(["title", "players", "ruleset"]), json_value))
def test_a_game_toml_title_and_players_are_checked_without_a_traceback(config: dict) -> None:
    """The title and player list of game.toml: problems in words, or a GameError."""
    assert all(isinstance(p, str) for p in config_problems(config))
    try:
        Game.players_from_config(config)
    except GameError:
        pass


@FUZZ
@given(export=st.one_of(json_value, st.fixed_dictionaries(
    {"channel": st.fixed_dictionaries({"name": st.sampled_from(["game-actions", "x"])}),
     "messages": st.lists(st.dictionaries(
         st.sampled_from(["id", "timestamp", "author", "content", "reactions",
                          "timestampEdited"]), json_value), max_size=4)})))
def test_a_discord_export_is_read_or_its_problems_named(tmp_path: Path, export: Any) -> None:
    """Aeternus' DiscordChatExporter JSON (``gmkit import``): the posts it makes, or each problem
    in words naming the file; never a traceback."""
    from gmkit.core.intake import Imported
    from gmkit.rulesets.aeternus import Aeternus

    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    got = Aeternus().import_posts([path], _aeternus_intake())
    assert isinstance(got, Imported)
    assert all(isinstance(e, str) and str(path) in e for e in got.errors)
    assert got.errors or isinstance(export, dict)


@functools.cache
def _aeternus_intake() -> Any:
    """What an importer is told of a new Aeternus game of two players (made once)."""
    import tempfile

    from gmkit.core.intake import Intake

    game = Game.new(Path(tempfile.mkdtemp()) / "g", "aeternus",
                    [{"id": "Amber", "discord": "1001"}, {"id": "Birch"}])
    return Intake(game.coming_state(), game.rules, game.players_from_config(game.config), {})


def _geojson(coordinates: Any, name: Any, kind: Any) -> bytes:
    feature = {"type": "Feature", "properties": {"name": name, "kind": kind},
               "geometry": {"type": "Polygon", "coordinates": coordinates}}
    return json.dumps({"type": "FeatureCollection", "features": [feature]}).encode()


number = st.one_of(st.integers(), st.floats(allow_nan=True, allow_infinity=True))
board_data = st.one_of(
    st.tuples(st.just("polygon"), st.just("m.geojson"), st.one_of(
        st.binary(max_size=200),
        json_value.map(lambda v: json.dumps(v).encode()),
        st.tuples(st.lists(st.lists(st.lists(number, max_size=3), max_size=6), max_size=2),
                  st.one_of(st.text(max_size=6), st.none()),
                  st.sampled_from(["land", "sea", "x"])).map(lambda a: _geojson(*a)))),
    st.tuples(st.just("graph"), st.just("g.toml"), st.one_of(
        st.binary(max_size=200),
        st.lists(st.tuples(st.sampled_from(["A", "B", "C"]),
                           st.sampled_from(["land", "sea", ""]),
                           st.lists(st.sampled_from(["A", "B", "C", "D"]), max_size=3),
                           st.lists(number, max_size=3)), max_size=4).map(
            lambda places: "".join(
                f'[places.{p}]\nkind = "{k}"\nadjacent = {json.dumps(a)}\n'
                f'pos = [{", ".join(repr(x) for x in pos)}]\n'
                for p, k, a, pos in places).replace("inf", "inf").encode()))),
    st.tuples(st.just("hex"), st.sampled_from(["h.csv", "h.toml", "h.parquet"]), st.one_of(
        st.binary(max_size=200),
        st.lists(st.tuples(st.integers(), st.integers()), max_size=5).map(
            lambda rows: ("q,r\n" + "".join(f"{q},{r}\n" for q, r in rows)).encode()))),
)


@FUZZ
@given(case=board_data)
def test_every_board_reader_reads_or_refuses_naming_the_file(case: tuple[str, str, bytes]
                                                             ) -> None:
    """A polygon, graph or hex board of any bytes: a board, or a BoardError naming the file."""
    kind, name, data = case
    try:
        read_board(kind, data, name)
    except BoardError as e:
        assert str(e).startswith(f"{name}: ")


def test_the_fuzz_file_covers_every_registered_ruleset() -> None:
    """A ruleset added later is fuzzed too (the parametrisation is over the registry)."""
    assert set(registered()) >= {"cien", "aztlan", "jungle", "aeternus", "pyramid", "example"}
    assert Path(__file__).name.startswith("test_")
