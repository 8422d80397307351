"""Hostile input, generated: every ruleset's order parser (and validation), every GM-input
parser and every board reader answers any input with a result or its own kind of error, never a
traceback. Each property runs a bounded number of examples, derandomized, so the whole file runs
in well under a minute, and fails when its run never met the cases it is about (an order read as
well as an error, a file read as well as one refused); the generated input mixes in whole orders
and near-valid files so that it does."""

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
from tests.cases import Cases

FUZZ = settings(max_examples=100, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])

#: Words the parsers look for, and the marks around them: what reaches their deeper branches.
#: Each game's own order words come from its declaration (``Ruleset.words``), so a new game
#: is fuzzed with its words by declaring them; these are the marks, numbers and names around.
MARKS = ["A", "F", "S", "H", "1", "-7", "99999999999999999999", "1e308", "nan", ",", ":", ";",
         "->", "#0", "(", ")", "=", "[b]", "[/b]", "[quote]", "<b>", "\u200f", "\x00",
         "Propose:", "Morning:", "Afternoon:", "Tróys", "Redsand", "Amber", "Red", "Aztecs",
         "Ocelotl", "Ten", "Tex"]
WORDS = sorted({w for name in registered() if (declared := find_ruleset(name).words)
                for word in declared.words for w in (word, word.capitalize())}) + MARKS

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
    state; only OrderErrors, each naming a line of the post or none. The run meets an error
    naming its line and an order read (so validation has something to check)."""
    game = games[name]
    state = game.coming_state()
    posters = [game.player_ids(state)[0]] + (
        [GM_POSTER] if game.ruleset.lifecycle.gm_posts else [])
    cases = Cases("an error naming its line", "an order read")
    # the ruleset's own orders (its bot's), whole or with a word slipped in, amid anything
    mover = game.to_move(state)[0]
    bot = [game.bot_post(state, mover, gdice.Dice(f"{k:064x}", 1, "fuzz"))
           for k in range(4)]
    orders = [line for post in bot for line in post.splitlines() if line]
    assert orders, f"{game.ruleset.title}'s bot posted no order to start from"

    def slipped(text: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.tuples(text, st.integers(0, 300), st.one_of(
            st.just(""), st.sampled_from(WORDS))).map(lambda o: o[0][:o[1]] + o[2] + o[0][o[1]:])

    # two of its posts at once: orders read well that may clash (grain spent twice)
    twice = st.lists(st.sampled_from(bot), min_size=2, max_size=2).map("\n".join)
    posts = st.one_of(post_text, slipped(st.sampled_from(bot)), twice, st.lists(
        st.one_of(slipped(st.sampled_from(orders)), line_text), min_size=1, max_size=6).map(
            "\n".join))

    @FUZZ
    @given(post=posts, poster=st.sampled_from(posters))
    def check(post: str, poster: str) -> None:
        cases.example()
        parsed = game.ruleset.parse_post(post, poster, state, game.context())
        assert isinstance(parsed, ParseResult)
        lines = post.count("\n") + post.count("\r") + 1
        for error in parsed.errors:
            assert isinstance(error, OrderError)
            assert error.line is None or 1 <= error.line <= lines + 1
        problems = game.ruleset.validate(state, Orders.parsed({poster: parsed}), game.context())
        assert all(isinstance(e, OrderError) for es in problems.values() for e in es)
        cases.met("an error naming its line", any(e.line is not None for e in parsed.errors))
        cases.met("an order read", bool(parsed.orders))

    check()
    cases.check()


toml_value = st.recursive(
    st.one_of(st.integers(), st.floats(), st.booleans(), st.text(max_size=20)),
    lambda inner: st.lists(inner, max_size=3), max_leaves=6)


@pytest.mark.parametrize("name", registered())
def test_every_rule_value_is_taken_or_refused_by_name(name: str) -> None:
    """``rules --set``, game.toml and a proposal: any value is taken or refused with a
    ParamError naming the rule."""
    rs = find_ruleset(name)
    names = [p.name for p in rs.params] + ["no_such_rule"]
    cases = Cases("a value taken", "a value refused")

    @FUZZ
    @given(rule=st.sampled_from(names), value=toml_value)
    def check(rule: str, value: Any) -> None:
        cases.example()
        try:
            rules = rs.rules({rule: value})
        except ParamError as e:
            assert f"'{rule}'" in str(e)
            cases.met("a value refused")
        else:
            taken = rules[rule]
            assert not isinstance(taken, float) or math.isfinite(taken)
            cases.met("a value taken")
        lenient = rs.rules({rule: value}, lenient=True)
        assert set(lenient.problems) <= {rule}

    check()
    cases.check()


def test_a_dice_file_is_read_or_refused_naming_its_line() -> None:
    """The GM's dice file (``--dice``) and a typed die value: a value, or a DiceError; the run
    meets a file read with a value in it and one refused."""
    cases = Cases("a dice file read with a value", "a dice file refused")

    @FUZZ
    @given(text=st.one_of(st.text(max_size=200), st.lists(
        st.tuples(line_text, st.one_of(st.integers().map(str), line_text)), max_size=8).map(
            lambda kv: "\n".join(f"{k} = {v}" for k, v in kv))))
    def check(text: str) -> None:
        cases.example()
        try:
            entered = gdice.parse_entered(text)
        except gdice.DiceError as e:
            assert str(e).startswith("line ")
            cases.met("a dice file refused")
        else:
            cases.met("a dice file read with a value", bool(entered))
        try:
            gdice.parse_die_value(text[:40])
        except gdice.DiceError:
            pass

    check()
    cases.check()


def test_a_deadline_is_read_or_refused() -> None:
    """``gmkit deadline``'s time: an aware datetime or a FairDiceError; the run meets both."""
    cases = Cases("a time read", "a time refused")

    @FUZZ
    @given(text=st.one_of(st.text(max_size=60), st.datetimes(
        timezones=st.one_of(st.none(), st.timezones())).map(lambda d: d.isoformat())))
    def check(text: str) -> None:
        cases.example()
        try:
            when = parse_time(text)
        except FairDiceError:
            cases.met("a time refused")
            return
        assert when.utcoffset() is not None
        cases.met("a time read")

    check()
    cases.check()


json_value = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=12)),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=20)


def test_a_game_toml_title_and_players_are_checked_without_a_traceback() -> None:
    """The title and player list of game.toml: problems in words, or a GameError; the run
    meets a problem named and a player list refused."""
    cases = Cases("a problem named", "a player list refused")

    @FUZZ
    @given(config=st.dictionaries(st.sampled_from(["title", "players", "ruleset"]),
                                  json_value))
    def check(config: dict) -> None:
        cases.example()
        problems = config_problems(config)
        assert all(isinstance(p, str) for p in problems)
        cases.met("a problem named", bool(problems))
        try:
            Game.players_from_config(config)
        except GameError:
            cases.met("a player list refused")

    check()
    cases.check()


def test_a_discord_export_is_read_or_its_problems_named(tmp_path: Path) -> None:
    """Aeternus' DiscordChatExporter JSON (``gmkit import``): the posts it makes, or each problem
    in words naming the file; never a traceback. The run meets a problem named and a post
    made."""
    from gmkit.core.intake import Imported
    from gmkit.rulesets.aeternus import Aeternus

    cases = Cases("a problem named", "a post made")
    # messages close to well formed (a player's or a stranger's, a time or not), so some are read
    message = st.fixed_dictionaries({
        "id": st.integers(1, 10**6).map(str), "type": st.just("Default"),
        "timestamp": st.sampled_from(["2026-01-02T10:00:00+00:00", "yesterday"]),
        "timestampEdited": st.none(), "reactions": st.just([]),
        "content": st.sampled_from(["Forage", "Scout North", "Join", "hello", ""]),
        "author": st.fixed_dictionaries({"id": st.sampled_from(["1001", "1999"]),
                                         "name": st.just("amber"), "isBot": st.booleans()})})
    near = st.fixed_dictionaries(
        {"channel": st.fixed_dictionaries({"name": st.sampled_from(["game-actions", "x"])}),
         "messages": st.lists(message, min_size=1, max_size=3)})

    @FUZZ
    @given(export=st.one_of(json_value, st.fixed_dictionaries(
        {"channel": st.fixed_dictionaries({"name": st.sampled_from(["game-actions", "x"])}),
         "messages": st.lists(st.dictionaries(
             st.sampled_from(["id", "timestamp", "author", "content", "reactions",
                              "timestampEdited"]), json_value), max_size=4)}), near))
    def check(export: Any) -> None:
        cases.example()
        path = tmp_path / "export.json"
        path.write_text(json.dumps(export))
        got = Aeternus.importer.read([path], _aeternus_intake())
        assert isinstance(got, Imported)
        assert all(isinstance(e, str) and str(path) in e for e in got.errors)
        assert got.errors or isinstance(export, dict)
        cases.met("a problem named", bool(got.errors))
        cases.met("a post made", bool(got.posts))

    check()
    cases.check()


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


def _graph(pairs: list[tuple[str, str]], kinds: list[str]) -> bytes:
    """A graph board of places A, B, C whose adjacency is ``pairs`` both ways."""
    return "".join(
        f'[places.{p}]\nkind = "{k}"\npos = [{i}, 0]\nadjacent = '
        f'{json.dumps(sorted({b for a, b in pairs if a == p} | {a for a, b in pairs if b == p}))}\n'
        for i, (p, k) in enumerate(zip("ABC", kinds))).encode()


point = st.tuples(st.integers(-5, 5), st.integers(-5, 5)).map(list)
# boards close to well formed (a ring of points, adjacency both ways), so that some are read
near_boards = st.one_of(
    st.tuples(st.just("polygon"), st.just("m.geojson"), st.tuples(
        st.lists(point, min_size=3, max_size=6).map(lambda ring: [ring + ring[:1]]),
        st.sampled_from(["A", "", "Sea 1"]), st.sampled_from(["land", "sea", "x"])).map(
            lambda a: _geojson(*a))),
    st.tuples(st.just("graph"), st.just("g.toml"), st.tuples(
        st.lists(st.sampled_from([("A", "B"), ("B", "C"), ("A", "C"), ("A", "A"), ("C", "D")]),
                 min_size=2, max_size=4),
        st.lists(st.sampled_from(["land", "sea"]), min_size=3, max_size=3)).map(
            lambda a: _graph(*a))),
    st.tuples(st.just("hex"), st.just("h.csv"), st.lists(
        st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=1, max_size=5).map(
            lambda rows: ("q,r\n" + "".join(f"{q},{r}\n" for q, r in rows)).encode())),
)
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
    near_boards,
)


def test_every_board_reader_reads_or_refuses_naming_the_file() -> None:
    """A polygon, graph or hex board of any bytes: a board, or a BoardError naming the file;
    the run meets both, for each kind of board."""
    kinds = ("polygon", "graph", "hex")
    cases = Cases(*(f"a {k} board {w}" for k in kinds for w in ("read", "refused")))

    @FUZZ
    @given(case=board_data)
    def check(case: tuple[str, str, bytes]) -> None:
        cases.example()
        kind, name, data = case
        try:
            read_board(kind, data, name)
        except BoardError as e:
            assert str(e).startswith(f"{name}: ")
            cases.met(f"a {kind} board refused")
        else:
            cases.met(f"a {kind} board read")

    check()
    cases.check()


def test_the_fuzz_file_covers_every_registered_ruleset() -> None:
    """A ruleset added later is fuzzed too (the parametrisation is over the registry)."""
    assert set(registered()) >= {"cien", "aztlan", "jungle", "aeternus", "pyramid", "example"}
    assert Path(__file__).name.startswith("test_")
