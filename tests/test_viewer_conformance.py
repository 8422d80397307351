"""Every registered ruleset, every viewer: no output shows a viewer what they may not see.

A seeded playout through the real workflow in which every secret post carries a canary (a line
naming its sender and turn, kept in the post's text). Every output drawn for a viewer (each
turn's report as HTML and BBCode with its maps and standings, the history frames and maps, the
published site and each player's private pages, ``gmkit status``) may hold only the canaries that
viewer may see: the GM all of them, the public none, a player their own. The ruleset's GM-only
standings columns show no other player's value to a player and no column at all to the public.
"""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from gmkit.publish import history
from gmkit.cli import main
from gmkit.core.dice import Dice
from gmkit.core.reports import render_bbcode, render_html
from gmkit.core.ruleset import find_ruleset, registered
from gmkit.core.views import Viewer
from gmkit.game import Game, starting_board
from gmkit.sweeps.playout import derived_seed
from gmkit.publish.site import publish
from gmkit.publish.summary import turn_report

RULESETS = registered()
TURNS = 3
CANARY = re.compile(r"CANARY(\d\d)T(\d\d\d)X")


def _canary(index: int, turn: int) -> str:
    return f"CANARY{index:02d}T{turn:03d}X"


def _play(root: Path, name: str) -> tuple[Game, dict[str, set[str]]]:
    """A seeded game in which each player posts in secret every other turn, each secret post
    ending with its canary line; returns the game and each player's canaries."""
    rs = find_ruleset(name)
    game_map = starting_board(rs)[0]
    game = Game.new(root, name, rs.example_players(game_map))
    ids = [p.id for p in game.players_from_config(game.config)]
    planted: dict[str, set[str]] = {pid: set() for pid in ids}
    for _ in range(TURNS):
        if game.turn().outcome:
            break
        turn = game.next_turn
        game.store.write_seed(turn, derived_seed("viewers", "turn", turn))
        state = game.state()
        for i, pid in enumerate(game.to_move(state)):
            dice = Dice(derived_seed("viewers", "bot", turn), turn, f"bot/{pid}")
            post = game.bot_post(state, pid, dice)
            secret = (ids.index(pid) + turn) % 2 == 0
            if secret:
                canary = _canary(ids.index(pid), turn)
                post += f"\n[b]{canary}[/b]\n"
                planted[pid].add(canary)
            game.receive(pid, post, secret=secret, received="2026-01-01T00:00:00+00:00")
        game.commit(game.start())
        game.reveal(turn)
    return game, planted


@pytest.fixture(scope="module", params=RULESETS)
def played(request, tmp_path_factory):
    root = tmp_path_factory.mktemp(f"viewers-{request.param}")
    game, planted = _play(root / "game", request.param)
    assert any(planted.values()), "the playout planted no canary"
    return game, planted, root


def _viewers(game: Game) -> list[Viewer]:
    ids = [p.id for p in game.players_from_config(game.config)]
    return [Viewer.gm(), Viewer.public(), *(Viewer.player(pid) for pid in ids)]


def _allowed(viewer: Viewer, planted: dict[str, set[str]]) -> set[str]:
    if viewer.is_gm:
        return set().union(*planted.values())
    if viewer.is_public:
        return set()
    assert viewer.player_id is not None
    return planted[viewer.player_id]


def _found(text: str) -> set[str]:
    return {m.group(0) for m in CANARY.finditer(text)}


def _check(text: str, viewer: Viewer, planted: dict[str, set[str]], what: str) -> set[str]:
    found = _found(text)
    leaked = found - _allowed(viewer, planted)
    assert not leaked, f"{what} for {viewer} shows {sorted(leaked)}"
    return found


def test_turn_reports_show_each_viewer_only_their_canaries(played):
    """Each turn's report (HTML with its maps, standings and chart; BBCode) holds no secret
    post but the viewer's own; a player's report holds every one of their own."""
    game, planted, _ = played
    for viewer in _viewers(game):
        seen: set[str] = set()
        for turn in range(1, game.latest_turn + 1):
            report = turn_report(game, turn, viewer=viewer)
            assert report.view == str(viewer)
            seen |= _check(render_html(report), viewer, planted, f"turn {turn} HTML")
            seen |= _check("\n".join(render_bbcode(report)), viewer, planted,
                           f"turn {turn} BBCode")
            for svg in (report.map_before_svg, report.map_after_svg):
                _check(svg or "", viewer, planted, f"turn {turn} map")
        assert seen == _allowed(viewer, planted), viewer


def test_gm_only_standings_values_reach_only_their_player(played):
    """A GM-only standings column is absent from the public's standings and history, and a
    player sees its value on their own row only."""
    game, _, _ = played
    hidden = game.ruleset.views.gm_only
    for viewer in _viewers(game):
        for turn in range(1, game.latest_turn + 1):
            standings = turn_report(game, turn, viewer=viewer).standings
            assert standings is not None
            if viewer.is_public:
                assert not set(hidden) & set(standings.columns)
            elif viewer.is_player:
                others = standings.filter(pl.col("player") != viewer.player_id)
                for column in hidden:
                    assert others[column].null_count() == others.height, (viewer, column)
        series = history.player_series(game, view=viewer)
        private = series.filter(pl.col("metric").is_in(list(hidden)))
        if viewer.is_public:
            assert private.is_empty()
        elif viewer.is_player:
            assert set(private["player"].to_list()) <= {viewer.player_id}
        if not viewer.is_gm and "players" in game.ruleset.schemas:
            players = game.history("players", view=viewer)
            for column in hidden:
                if column in players.columns:
                    shown = players.filter(pl.col(column).is_not_null())
                    assert set(shown["id"].to_list()) <= (
                        {viewer.player_id} if viewer.is_player else set())


def test_history_frames_and_maps_show_each_viewer_only_their_canaries(played):
    """The history (series, timeline, dice, posts, maps) drawn for a viewer holds only what
    that viewer may see."""
    game, planted, _ = played
    for viewer in _viewers(game):
        frames = [history.player_series(game, view=viewer), history.timeline(game, view=viewer),
                  history.dice_report(game, view=viewer),
                  game.history("orders", view=viewer), game.history("events", view=viewer),
                  game.history("rolls", view=viewer)]
        text = "\n".join(f.write_ndjson() for f in frames)
        text += "".join(history.map_at(game, t, view=viewer) for t in game.store.turns())
        seen = _check(text, viewer, planted, "history")
        assert seen == _allowed(viewer, planted), viewer


def test_published_site_and_player_pages_show_only_what_each_may_see(played, tmp_path):
    """The public site holds no canary; each player's pages, in a folder of their own, hold
    their own canaries and no one else's, and the public pages link to none of them."""
    game, planted, _ = played
    site, private = tmp_path / "site", tmp_path / "players"
    publish(game, site, players=private, workers=1)
    public_text = "".join(p.read_text("utf-8") for p in site.rglob("*") if p.is_file())
    _check(public_text, Viewer.public(), planted, "the public site")
    assert "players/" not in public_text
    for pid, canaries in planted.items():
        folder = private / pid
        assert (folder / "index.html").is_file()
        text = "".join(p.read_text("utf-8") for p in folder.rglob("*") if p.is_file())
        assert _check(text, Viewer.player(pid), planted, "the player's pages") == canaries


def test_cli_status_and_reports_show_each_viewer_only_their_canaries(played):
    """``gmkit status`` prints the public standings (no GM-only column) unless ``--gm``;
    ``gmkit report --view`` writes each viewer's report."""
    game, planted, _ = played
    runner = CliRunner()
    out = runner.invoke(main, ["status", str(game.root)])
    assert out.exit_code == 0, out.output
    _check(out.output, Viewer.public(), planted, "status")
    gm = runner.invoke(main, ["status", str(game.root), "--gm"])
    assert gm.exit_code == 0, gm.output
    header = next((line for line in out.output.splitlines() if line.startswith("│")), "")
    assert header, out.output
    for column in game.ruleset.views.gm_only:
        assert column not in {c.strip() for c in header.strip("│").split("┆")}, (column, header)
    for viewer in _viewers(game):
        for fmt in ("html", "bbcode"):
            res = runner.invoke(main, ["report", str(game.root), "--turn", "2", "--view",
                                       str(viewer), "--format", fmt])
            assert res.exit_code == 0, res.output
            _check(res.output, viewer, planted, f"gmkit report ({fmt})")


# -- canaries in hidden state -----------------------------------------------------------------

HIDDEN = re.compile(r"(?<![\w.])(9[1-4]\d\d)(?![\w.])")


def _hidden_cells(game: Game) -> dict[str, dict[str, int]]:
    """The cells the public may not see in ``game``'s state (the GM's value, blanked in the
    public view): per table, each such whole-number column of its first row, with a canary
    value (9101, 9102, ...) to plant there."""
    gm, public = game.state(), game.state(viewer=Viewer.public())
    out: dict[str, dict[str, int]] = {}
    k = 0
    for name, frame in gm.tables.items():
        seen = public.tables.get(name)
        if frame.is_empty():
            continue
        for column, dtype in frame.schema.items():
            if not dtype.is_integer():
                continue
            shown = None if seen is None or column not in seen.columns else seen[column][0]
            if frame[column][0] is not None and shown != frame[column][0]:
                k += 1
                out.setdefault(name, {})[column] = 9100 + k
    return out


def _outputs(game: Game, viewer: Viewer, tmp: Path) -> str:
    """Every output drawn for ``viewer`` of turns 0 and 1: reports with their maps, the
    history's frames and maps, SQL, ``gmkit status`` and the published site."""
    parts = []
    report = turn_report(game, game.first_turn + 1, viewer=viewer)
    parts += [render_html(report), *render_bbcode(report), report.map_before_svg or ""]
    parts += [history.player_series(game, view=viewer).write_ndjson(),
              history.timeline(game, view=viewer).write_ndjson(),
              history.map_at(game, game.first_turn, view=viewer)]
    for table in game.ruleset.schemas:
        parts.append(game.history(table, view=viewer).write_ndjson())
    if viewer.is_public:
        from gmkit import sql

        parts += [sql.query(game, f'select * from "{t}"').write_ndjson()
                  for t in game.ruleset.schemas]
        status = CliRunner().invoke(main, ["status", str(game.root)])
        assert status.exit_code == 0, status.output
        parts.append(status.output)
        publish(game, tmp / "site", workers=1)
        parts += [p.read_text("utf-8") for p in (tmp / "site").rglob("*.html")]
    else:
        status = CliRunner().invoke(main, ["status", str(game.root), "--gm"])
        parts.append(status.output)
    return "\n".join(parts)


@pytest.mark.parametrize("name", RULESETS)
def test_hidden_state_canaries_reach_no_public_output(name, tmp_path):
    """What only the GM may see of the state (a Cien treasury, a Pyramid player's food and
    serfs, a Jungle house's stores, a Three Hills digger's gold) planted with canary values in
    a given starting position: the GM's outputs show them, no public output does, maps and
    history included."""
    rs = find_ruleset(name)
    board = starting_board(rs)[0]
    players = rs.example_players(board)
    probe = Game.new(tmp_path / "probe", name, players)
    cells = _hidden_cells(probe)
    if not cells:
        pytest.skip(f"{rs.title} keeps no whole-number state from the public")
    tables = {t: f.with_columns(pl.when(pl.int_range(pl.len()) == 0).then(pl.lit(v))
                                .otherwise(pl.col(c)).cast(f.schema[c]).alias(c)
                                for c, v in cells.get(t, {}).items())
              for t, f in probe.state().tables.items()}
    game = Game.new(tmp_path / "game", name, players, state=tables)
    turn = game.next_turn
    game.store.write_seed(turn, derived_seed("hidden", "turn", turn))
    state = game.state()
    for pid in game.to_move(state):
        dice = Dice(derived_seed("hidden", "bot", turn), turn, f"bot/{pid}")
        game.receive(pid, game.bot_post(state, pid, dice),
                     received="2026-01-01T00:00:00+00:00")
    game.commit(game.start())
    planted = {str(v) for c in cells.values() for v in c.values()}
    gm = set(HIDDEN.findall(_outputs(game, Viewer.gm(), tmp_path))) & planted
    assert gm, f"the GM's outputs show none of the planted values {sorted(planted)}"
    leaked = set(HIDDEN.findall(_outputs(game, Viewer.public(), tmp_path))) & planted
    assert not leaked, f"public outputs show hidden values {sorted(leaked)}"
