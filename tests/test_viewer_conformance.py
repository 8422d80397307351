"""Every registered ruleset, every viewer: no output shows a viewer what they may not see.

A seeded playout through the real workflow in which every secret post carries a canary (a line
naming its sender and turn, kept in the post's text). Every output drawn for a viewer (each
turn's report as HTML and BBCode with its maps and standings, the history frames and maps, the
published site and each player's private pages, ``gmkit status``) may hold only the canaries that
viewer may see: the GM all of them, the public none, a player their own. The ruleset's GM-only
standings columns show no other player's value to a player and no column at all to the public.

Hidden state is checked the same way: a given starting position holds a canary value in every
whole-number cell that someone may not see (and the rules can play), and each viewer's outputs
show none of the values hidden from them, while each player's show their own.
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
from gmkit.core.drawing.orders import ref_parts
from gmkit.core.reports import render_bbcode, render_html
from gmkit.core.ruleset import find_ruleset, registered
from gmkit.core.tables import State
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
                # in the post's own form: a bold line in a post of bold orders, a plain
                # line in a plain one (a bold line there would make the rest chatter)
                post += (f"\n[b]{canary}[/b]\n" if "[b]" in post.lower()
                         else f"\n{canary}\n")
                planted[pid].add(canary)
            # a bot may pass: its post (and the canary) is stored all the same
            game.receive_post(pid, post, secret=secret, received="2026-01-01T00:00:00+00:00",
                              allow_empty=True)
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


ORDERS = re.compile(r'data-orders="([^"]*)"')


def _drawn(svg: str | None) -> set[str]:
    """The orders a map draws (see :func:`gmkit.core.drawing.orders.order_ref`)."""
    return {ref for refs in ORDERS.findall(svg or "") for ref in refs.split()}


def test_each_viewers_map_of_a_turn_draws_the_orders_they_may_see_and_no_other(played):
    """A turn's orders are drawn on the map before it as each viewer may see them (the viewer
    canaries of the orders, each order's name on the map): the public's map draws every
    public order the GM's draws and no secret one; a player's, their own secret ones too and
    no one else's."""
    game, _, _ = played
    secret_seen = 0
    for turn in range(1, game.latest_turn + 1):
        secret = {(p, seq) for p, seq, hidden in
                  game.turn(turn).orders.select("player", "seq", "secret").iter_rows() if hidden}
        every = _drawn(turn_report(game, turn, viewer="gm").map_before_svg)
        assert every, f"turn {turn}: the GM's map draws no order"
        hidden = {r for r in every if ref_parts(r)[:2] in secret}
        secret_seen += len(hidden)
        for viewer in _viewers(game)[1:]:
            seen = _drawn(turn_report(game, turn, viewer=viewer).map_before_svg)
            own = {r for r in hidden if ref_parts(r)[0] == viewer.player_id}
            assert seen - (every - hidden) - own == set(), (turn, str(viewer))
            assert (every - hidden) | own <= seen, (turn, str(viewer))
    assert secret_seen, "no secret order was drawn on the GM's maps: nothing was checked"


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

HIDDEN = re.compile(r"(?<![\w.])(9\d\d\d)(?![\w.])")
#: The rulesets whose players know figures of their own that the public does not.
OWN_FIGURES = {"cien": "a lord's own treasury and spending",
               "jungle": "a house's own stores and its characters' skills",
               "pyramid": "a player's own food, stone, serfs and priests"}
FIRST_CANARY, CANARY_STEP = 9100, 10  # far enough apart that one turn's changes cross none


def _hidden_cells(game: Game) -> dict[str, dict[str, dict[int, int]]]:
    """The cells someone may not see in ``game``'s state (the GM's value, blanked in the
    public's view or in a player's): per table and whole-number column, each such row with a
    canary value (9100, 9110, ...) to plant there."""
    gm = game.state()
    views = [game.state(viewer=v) for v in _viewers(game) if not v.is_gm]
    out: dict[str, dict[str, dict[int, int]]] = {}
    k = 0
    for name, frame in gm.tables.items():
        for column, dtype in frame.schema.items():
            if not dtype.is_integer():
                continue
            for row, value in enumerate(frame[column].to_list()):
                if value is None or all(_shows(v, name, column, row, value) for v in views):
                    continue
                out.setdefault(name, {}).setdefault(column, {})[row] = \
                    FIRST_CANARY + CANARY_STEP * k
                k += 1
    assert FIRST_CANARY + CANARY_STEP * k < 10_000, "too many hidden cells for the canaries"
    return out


def _shows(state: State, table: str, column: str, row: int, value: int) -> bool:
    frame = state.tables.get(table)
    return (frame is not None and column in frame.columns and row < frame.height
            and frame[column][row] == value)


def _canaries_shown(game: Game, viewer: Viewer) -> set[str]:
    """The canary-sized values of every committed state as ``viewer`` may see it."""
    out: set[str] = set()
    for turn in game.store.turns():
        for frame in game.state(turn, viewer=viewer).tables.values():
            for column, dtype in frame.schema.items():
                if dtype.is_integer():
                    out |= {str(v) for v in frame[column].to_list()
                            if v is not None and 9000 <= v < 10_000}
    return out


def _outputs(game: Game, viewer: Viewer, tmp: Path) -> str:
    """Every output drawn for ``viewer`` of turns 0 and 1: the report (HTML, BBCode, both
    maps, and as ``gmkit report`` writes it in each format), the history's frames and maps,
    SQL, ``gmkit status`` and the published site (the public's pages, or the player's own
    pages published beside it)."""
    parts = []
    report = turn_report(game, game.first_turn + 1, viewer=viewer)
    parts += [render_html(report), *render_bbcode(report), report.map_before_svg or "",
              report.map_after_svg or ""]
    for fmt in ("html", "bbcode"):
        res = CliRunner().invoke(main, ["report", str(game.root), "--turn",
                                        str(game.first_turn + 1), "--view", str(viewer),
                                        "--format", fmt])
        assert res.exit_code == 0, res.output
        parts.append(res.output)
    parts += [history.player_series(game, view=viewer).write_ndjson(),
              history.timeline(game, view=viewer).write_ndjson(),
              *(history.map_at(game, t, view=viewer) for t in game.store.turns())]
    for table in game.ruleset.schemas:
        parts.append(game.history(table, view=viewer).write_ndjson())
    if not viewer.is_gm:
        from gmkit import sql

        con = sql.views(game, view=viewer)  # every view SQL offers, across every turn
        try:
            names = con.sql("select table_name from information_schema.tables "
                            "where table_schema = 'main'").fetchall()
            parts += [pl.DataFrame(con.sql(f'select * from "{n}"')).write_ndjson()
                      for (n,) in names]
        finally:
            con.close()
    if not viewer.is_player:  # ``gmkit status`` is the public's or the GM's
        status = CliRunner().invoke(main, ["status", str(game.root)]
                                    + ([] if viewer.is_public else ["--gm"]))
        assert status.exit_code == 0, status.output
        parts.append(status.output)
    if not viewer.is_gm:
        parts.append(_pages(game, viewer, tmp))
    return "\n".join(parts)


def _pages(game: Game, viewer: Viewer, tmp: Path) -> str:
    """The published pages ``viewer`` reads: the public site, or a player's own pages (both
    published once, into ``tmp``)."""
    site, players = tmp / "site", tmp / "players"
    if not site.exists():
        publish(game, site, players=players, workers=1)
    folder = site if viewer.is_public else players / str(viewer.player_id)
    pages = [p.read_text("utf-8") for p in sorted(folder.rglob("*.html"))]
    assert pages, folder
    return "\n".join(pages)


def _planted(probe: Game, cells: dict[str, dict[str, dict[int, int]]]
             ) -> dict[str, pl.DataFrame]:
    """The probe's state with the canaries of ``cells`` planted where the rules can play them:
    a cell the ruleset's check of a state names (serfs on land nobody holds, say) keeps its
    value and loses its canary (``cells`` is changed to match)."""
    while True:
        tables = {}
        for t, f in probe.state().tables.items():
            for c, rows in cells.get(t, {}).items():
                value = pl.lit(None, f.schema[c])
                for row, v in rows.items():
                    value = pl.when(pl.int_range(pl.len()) == row).then(pl.lit(v)) \
                        .otherwise(value)
                f = f.with_columns(pl.coalesce(value, pl.col(c)).cast(f.schema[c]).alias(c))
            tables[t] = f
        found = probe.ruleset.state_problems(State(probe.latest_turn, tables), probe.context())
        named = [(p.table, p.column, p.row) for p in found
                 if p.row is not None and p.row - 1 in cells.get(p.table, {}).get(p.column or "",
                                                                                   {})]
        if not found:
            return tables
        assert named, [p.line() for p in found]  # a problem of the canaries' making only
        for table, column, row in named:
            del cells[table][column or ""][row - 1]  # type: ignore[operator]


@pytest.fixture(scope="module", params=RULESETS)
def hidden_game(request, tmp_path_factory) -> tuple[Game, set[str], Path, str]:
    """A game of the ruleset whose starting position (a given one) holds a canary value in
    every whole-number cell someone may not see (where the rules can play one), played one
    turn; with the planted values and a folder for its published pages."""
    name = request.param
    tmp = tmp_path_factory.mktemp(f"hidden-{name}")
    rs = find_ruleset(name)
    board = starting_board(rs)[0]
    players = rs.example_players(board)
    probe = Game.new(tmp / "probe", name, players)
    cells = _hidden_cells(probe)
    if not cells:
        pytest.skip(f"{rs.title} keeps no whole-number state from anyone")
    tables = _planted(probe, cells)
    game = Game.new(tmp / "game", name, players, state=tables)
    turn = game.next_turn
    game.store.write_seed(turn, derived_seed("hidden", "turn", turn))
    state = game.state()
    for pid in game.to_move(state):
        dice = Dice(derived_seed("hidden", "bot", turn), turn, f"bot/{pid}")
        game.receive_post(pid, game.bot_post(state, pid, dice),
                          received="2026-01-01T00:00:00+00:00", allow_empty=True)  # may pass
    game.commit(game.start())
    planted = {str(v) for c in cells.values() for rows in c.values() for v in rows.values()}
    return game, planted, tmp, name


def test_hidden_state_canaries_reach_no_public_output(hidden_game):
    """What only the GM may see of the state (a Cien treasury, a Pyramid player's food and
    serfs, a Jungle house's stores, a Three Hills digger's gold) planted with canary values in
    a given starting position: the GM's outputs show them, no public output does, maps and
    history included."""
    game, planted, tmp, _ = hidden_game
    gm = set(HIDDEN.findall(_outputs(game, Viewer.gm(), tmp))) & planted
    assert gm, f"the GM's outputs show none of the planted values {sorted(planted)}"
    hidden = (planted | _canaries_shown(game, Viewer.gm())) - \
        _canaries_shown(game, Viewer.public())
    leaked = set(HIDDEN.findall(_outputs(game, Viewer.public(), tmp))) & hidden
    assert not leaked, f"public outputs show hidden values {sorted(leaked)}"


def test_hidden_state_canaries_reach_each_player_only_as_their_own(hidden_game):
    """Each player's outputs (their report in each format with its maps, their history, SQL
    and private pages) show none of the values hidden from them (another player's private
    figures: a Cien treasury, a Pyramid player's food and serfs, a Jungle house's stores and
    characters' skills; the GM-only ones: a Three Hills digger's gold), and do show their own,
    which the public's outputs never do: all of them in their history, some on their pages.
    Every player of every ruleset is checked."""
    game, planted, tmp, name = hidden_game
    everything = planted | _canaries_shown(game, Viewer.gm())
    public = _canaries_shown(game, Viewer.public())
    owners = 0
    for pid in [p.id for p in game.players_from_config(game.config)]:
        viewer = Viewer.player(pid)
        visible = _canaries_shown(game, viewer)
        found = set(HIDDEN.findall(_outputs(game, viewer, tmp)))
        leaked = found & (everything - visible)
        assert not leaked, f"{viewer}'s outputs show values hidden from them {sorted(leaked)}"
        own = (visible - public) & planted
        if own:
            owners += 1
            assert own <= found, f"{viewer}'s outputs miss their own values {sorted(own - found)}"
            pages = set(HIDDEN.findall(_pages(game, viewer, tmp)))
            assert own & pages, f"{viewer}'s pages show none of their own values {sorted(own)}"
    if name in OWN_FIGURES:
        assert owners, f"no player of {game.ruleset.title} sees {OWN_FIGURES[name]}"
