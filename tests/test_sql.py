"""SQL over a game folder (gmkit.publish.sql): every table across every turn as a view holding each turn
once at its latest revision, the public view that leaves out secret posts, hidden rolls and events
and passes the state through the ruleset's ``public_state``, decoded JSON and timestamps, Parquet
export, and a tampered file reported rather than read."""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timezone
from pathlib import Path

import polars as pl
import pytest

from gmkit.publish import sql
from gmkit.core.ruleset import find_ruleset, registered
from gmkit.core.files import StoreError, TamperError
from gmkit.game import Game, GameError, starting_board
from gmkit.sweeps.playout import play, receive_bot_posts

CANARY = "CANARY-SECRET-5be2"
PLAYERS = [{"id": "Red", "name": "Aude", "state": "Solsauvre", "government": "duchy"},
           {"id": "Gold", "name": "Berengar", "state": "Coyons", "government": "city-state"},
           {"id": "Green", "name": "Clothilde", "state": "Guicardie"}]
SECRET_RECEIVED = "2026-02-03T04:05:06+02:00"


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    """Three turns of Cien; in turn 3 Gold sends a secret post carrying a canary line, and the
    turn is then re-resolved without one of the other players' posts (revision 1)."""
    tmp = tmp_path_factory.mktemp("sql")
    game = Game.new(tmp / "game", "cien", PLAYERS, title="SQL test")
    play(game, 2, master="sql")
    game.store.write_seed(game.next_turn, "cd" * 32)
    game.receive_post("Gold", f"{CANARY} my secret plan\n[b]5 Grain for Defense of Coyons[/b]",
                      secret=True, received=SECRET_RECEIVED)
    receive_bot_posts(game, "sql", secret_every=0)
    game.commit(game.start())
    orders = game.turn().orders
    game.re_resolve(posts=orders.filter(pl.col("player") != _dropped(orders)))
    return game


def _dropped(orders: pl.DataFrame) -> str:
    """The player whose posts the re-resolution leaves out: the first public poster not Gold."""
    return str(orders.filter(~pl.col("secret") & (pl.col("player") != "Gold"))["player"][0])


def _strings(frame: pl.DataFrame) -> str:
    return "\n".join(str(v) for c in frame.columns for v in frame[c].to_list())


# -- across turns ---------------------------------------------------------------------------------

def test_each_turn_appears_once_at_its_latest_revision(game: Game) -> None:
    """A table across turns holds every committed turn once, at its current revision: the
    re-resolved turn 3 shows revision 1 and the posts of revision 1 only; a state table holds
    the rows that stand for someone (not Cien's free colours)."""
    con = sql.views(game, gm=True)
    for table in [*game.ruleset.schemas, *sql.LOGS]:
        got = con.sql(f'SELECT turn, list(DISTINCT revision) AS revs, count(*) AS n FROM "{table}"'
                      " GROUP BY turn ORDER BY turn").fetchall()
        for turn, revs, n in got:
            assert revs == [game.store.revisions(turn)[-1]], (table, turn)
            data = game.turn(turn)
            stored = game.ruleset.views.occupied(table, data.state.tables[table]) \
                if table in data.state.tables else \
                {"orders": data.orders, "rolls": data.rolls, "events": data.events}[table]
            assert n == stored.height, (table, turn)
    players = con.sql("SELECT turn, revision, count(*) FROM players GROUP BY ALL ORDER BY turn")
    assert players.fetchall() == [
        (t, 1 if t == 3 else 0,
         game.state(t)["players"].filter(pl.col("status") != "free").height) for t in range(4)]
    r0 = game.store.read_turn(3, 0).orders
    posters = con.sql("SELECT DISTINCT player FROM orders WHERE turn = 3").fetchall()
    assert (_dropped(r0),) not in posters
    assert _dropped(r0) in r0["player"].to_list()


def test_revisions_list_every_revision_with_its_manifest_hash(game: Game) -> None:
    """The revisions view lists every revision of every turn, the current one marked, with the
    sha256 of its manifest."""
    got = sql.query(game, "SELECT turn, revision, current, manifest_hash FROM revisions "
                          "ORDER BY turn, revision")
    want = [(t, r, r == game.store.revisions(t)[-1], game.store.manifest_hash(t, r))
            for t in game.store.turns() for r in game.store.revisions(t)]
    assert got.rows() == want
    assert (3, 0, False, game.store.manifest_hash(3, 0)) in want


def test_logs_keep_their_order_as_position(game: Game) -> None:
    """``position`` numbers each turn's log from 1 in the order it was written."""
    events = sql.query(game, "SELECT position, text FROM events WHERE turn = 3 ORDER BY position",
                       gm=True)
    assert events["position"].to_list() == list(range(1, game.turn(3).events.height + 1))
    assert events["text"].to_list() == game.turn(3).events["text"].to_list()


# -- the public view ------------------------------------------------------------------------------

def test_secret_post_is_absent_from_the_public_view(game: Game) -> None:
    """Secret posts are not in the public view at all (nor is their text anywhere in it); the GM
    view has them."""
    public = sql.views(game)
    for (table,) in public.sql("SELECT table_name FROM information_schema.tables "
                               "WHERE table_schema = 'main'").fetchall():
        hits = public.sql(f"""SELECT count(*) FROM "{table}" t WHERE t::VARCHAR LIKE ?""",
                          params=[f"%{CANARY}%"]).fetchone()
        assert hits == (0,), table
    assert public.sql("SELECT count(*) FROM orders WHERE secret").fetchone() == (0,)
    gm = sql.query(game, f"SELECT turn, player, secret FROM orders WHERE text LIKE '%{CANARY}%'",
                   gm=True)
    assert gm.rows() == [(3, "Gold", True)]


def test_hidden_rolls_and_events_are_absent_from_the_public_view(game: Game) -> None:
    """Rolls and events whose ``public`` is false are only in the GM view."""
    for log in ("rolls", "events"):
        gm = sql.query(game, f"SELECT count(*) FILTER (NOT public) AS hidden, count(*) AS n "
                             f"FROM {log}", gm=True).row(0)
        public = sql.query(game, f"SELECT count(*) FILTER (NOT public) AS hidden, count(*) AS n "
                                 f"FROM {log}").row(0)
        assert public == (0, gm[1] - gm[0])
    assert sql.query(game, "SELECT count(*) FROM events WHERE NOT public", gm=True).item() > 0


@pytest.mark.parametrize("view", ["public", "gm"])
def test_state_tables_pass_through_the_rulesets_public_state(game: Game, view: str) -> None:
    """Each turn's state tables are the ruleset's ``public_state`` of that turn in the public
    view, and the stored state in the GM view, each with the rows that stand for someone."""
    gm = view == "gm"
    con = sql.views(game, gm=gm)
    differs = False
    for turn in game.store.turns():
        stored = game.state(turn)
        want = stored if gm else game.viewed(stored, "public")
        for name, frame in want.tables.items():
            got = pl.DataFrame(con.sql(f'SELECT * EXCLUDE (turn, revision) FROM "{name}" '
                                       f"WHERE turn = {turn}"))
            assert got.equals(game.ruleset.views.occupied(name, frame)), (turn, name)
            differs |= not frame.equals(stored[name])
    # Cien's public state blanks the GM-only figures, so the two views differ
    assert differs == (not gm)


def _as_queried(rs: object, table: str, frame: pl.DataFrame) -> pl.DataFrame:
    """A state table as SQL gives it: the columns its ruleset declares times, as times."""
    times = getattr(rs, "times", {}).get(table, ())
    return frame.with_columns(
        pl.col(c).map_elements(lambda v: datetime.fromisoformat(v).astimezone(timezone.utc),
                               return_dtype=pl.Datetime("us", "UTC"))
        for c in times if c in frame.columns)


@pytest.mark.parametrize("name", registered())
def test_every_ruleset_gets_a_view_per_table(tmp_path: Path, name: str) -> None:
    """Every registered ruleset: one view per state table and log, plus ``revisions``; the
    public state tables are what the ruleset's one door (``view``) shows the public, and a
    player's are what it shows that player, with their own secret posts and no one else's
    (each with the rows that stand for someone)."""
    rs = find_ruleset(name)
    game_map = starting_board(rs)[0]
    game = play(Game.new(tmp_path / "g", name, rs.example_players(game_map)), 1, master="sql")
    con = sql.views(game)
    views = {r[0] for r in con.sql("SELECT table_name FROM information_schema.tables "
                                   "WHERE table_schema = 'main'").fetchall()}
    assert views == {*rs.schemas, *sql.LOGS, "revisions"}
    public = rs.view(game.state(), "public")
    for table, frame in public.tables.items():
        got = pl.DataFrame(con.sql(f'SELECT * EXCLUDE (turn, revision) FROM "{table}" '
                                   f"WHERE turn = {game.latest_turn}"))
        assert got.equals(_as_queried(rs, table, rs.views.occupied(table, frame))), table
    posts = game.turn().orders
    player = posts["player"][0]
    mine = sql.views(game, view=f"player:{player}")
    for table, frame in rs.view(game.state(), f"player:{player}").tables.items():
        got = pl.DataFrame(mine.sql(f'SELECT * EXCLUDE (turn, revision) FROM "{table}" '
                                    f"WHERE turn = {game.latest_turn}"))
        assert got.equals(_as_queried(rs, table, rs.views.occupied(table, frame))), table
    seen = {(r[0], r[1]) for r in mine.sql("SELECT player, secret FROM orders").fetchall()}
    assert all(p == player for p, secret in seen if secret)


# -- decoded values -------------------------------------------------------------------------------

def test_json_columns_are_decoded_and_queryable(game: Game) -> None:
    """``events.data`` and ``rolls.result`` are JSON: a field of an event's data is selected in
    SQL and equals the stored value."""
    con = sql.views(game, gm=True)
    assert con.sql("SELECT DISTINCT typeof(data) FROM events").fetchall() == [("JSON",)]
    assert con.sql("SELECT DISTINCT typeof(result) FROM rolls").fetchall() == [("JSON",)]
    turn, position, key = con.sql(
        "SELECT turn, position, json_keys(data)[1] FROM events WHERE json_keys(data) <> [] "
        "ORDER BY turn, position LIMIT 1").fetchone() or (None, None, None)
    stored = json.loads(game.turn(turn).events["data"][position - 1])
    got = con.sql("SELECT data->$path AS value FROM events WHERE turn = $turn "
                  "AND position = $position",
                  params={"path": f"$.{key}", "turn": turn, "position": position}).fetchone()
    assert got is not None and json.loads(got[0]) == stored[key]
    rolls = game.history("rolls")
    first = json.loads(rolls["result"][0])
    got = con.sql("SELECT result FROM rolls ORDER BY turn, position LIMIT 1").fetchone()
    assert got is not None and json.loads(got[0]) == first


def test_received_is_a_timestamp_with_time_zone(game: Game) -> None:
    """``orders.received`` is a TIMESTAMP WITH TIME ZONE: the secret post received at
    04:05:06+02:00 reads 02:05:06 UTC."""
    got = sql.query(game, f"SELECT received FROM orders WHERE text LIKE '%{CANARY}%'", gm=True)
    assert got.schema["received"] == pl.Datetime("us", "UTC")
    assert got["received"].to_list() == [datetime(2026, 2, 3, 2, 5, 6, tzinfo=timezone.utc)]
    con = sql.views(game)
    assert con.sql("SELECT DISTINCT typeof(received) FROM orders").fetchall() == \
        [("TIMESTAMP WITH TIME ZONE",)]



def test_every_time_is_a_timestamp_with_its_zone_in_sql_and_its_exports(tmp_path: Path) -> None:
    """Aeternus's times (``players.joined``, a proposal's ``ends``, the clock...) and
    ``orders.posted`` are read as TIMESTAMP WITH TIME ZONE from the text the turns stored (the
    sample's turns, written before), so SQL and its Parquet export give times, not text."""
    root = Path(__file__).resolve().parent.parent / "data" / "sample-aeternus"
    g = Game.open(root)
    con = sql.views(g, gm=True)
    for table, columns in {**g.ruleset.times, "orders": ("posted", "received")}.items():
        for column in columns:
            kinds = con.sql(f'SELECT DISTINCT typeof("{column}") FROM "{table}"').fetchall()
            assert kinds in ([("TIMESTAMP WITH TIME ZONE",)], []), (table, column, kinds)
    joined = sql.query(g, "SELECT id, joined FROM players WHERE turn = 1 ORDER BY id")
    assert joined.schema["joined"] == pl.Datetime("us", "UTC") and joined["joined"].null_count() \
        < joined.height
    posted = sql.query(g, "SELECT posted FROM orders", gm=True)
    assert posted.height and posted.schema["posted"] == pl.Datetime("us", "UTC")
    sql.export(g, tmp_path / "out")
    assert pl.read_parquet(tmp_path / "out" / "players.parquet").schema["joined"] == \
        pl.Datetime("us", "UTC")


def test_a_stored_value_that_cannot_be_decoded_names_its_file(tmp_path: Path) -> None:
    """A post received with a time that is not a timestamp is reported with its turn's file."""
    game = Game.new(tmp_path / "g", "cien", PLAYERS)
    game.store.write_seed(1, "ef" * 32)
    game.receive_post("Red", "[b]1 Grain for Defense of Solsauvre[/b]", received="last Tuesday")
    game.commit(game.start())
    with pytest.raises(StoreError, match=r"0001\.r0/orders\.parquet: received 'last Tuesday' "
                                         "is not a timestamp"):
        sql.views(game)


# -- queries and export ---------------------------------------------------------------------------

def test_query_returns_a_polars_frame(game: Game) -> None:
    """A query's result is a polars frame with the views' columns."""
    got = sql.query(game.root, "SELECT turn, count(*) AS n FROM players GROUP BY turn "
                               "ORDER BY turn")
    assert got.columns == ["turn", "n"] and got["turn"].to_list() == game.store.turns()


def test_bad_sql_is_reported_as_a_sql_error(game: Game) -> None:
    """A query DuckDB cannot run raises SqlError (a GameError) saying why."""
    with pytest.raises(sql.SqlError, match="nope"):
        sql.query(game, "SELECT nope FROM players")
    with pytest.raises(GameError):
        sql.query(game, "SELECT * FROM no_such_table")


def test_a_query_cannot_read_the_files_behind_the_views(game: Game) -> None:
    """A query sees the checked views only: reading a stored file from SQL is refused."""
    path = game.store.turn_path(3) / "orders.parquet"
    with pytest.raises(sql.SqlError):
        sql.query(game, f"SELECT * FROM read_parquet('{path}')", gm=True)


def test_export_writes_readable_parquet(game: Game, tmp_path: Path) -> None:
    """Every view is written as Parquet that polars reads back row for row; the public export
    has no secret text."""
    out = tmp_path / "export"
    paths = sql.export(game, out)
    names = [*game.ruleset.schemas, *sql.LOGS, "revisions"]
    assert paths == [out / f"{n}.parquet" for n in names]
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in paths)
    for name, path in zip(names, paths):
        frame = pl.read_parquet(path)
        want = sql.query(game, f'SELECT * FROM "{name}"')
        assert frame.columns == want.columns and frame.height == want.height, name
        assert CANARY not in _strings(frame), name
    orders = pl.read_parquet(out / "orders.parquet")
    assert orders.schema["received"] == pl.Datetime("us", "UTC")
    assert CANARY in _strings(pl.read_parquet(sql.export(game, tmp_path / "gm", gm=True)[
        names.index("orders")]))


def test_export_refuses_the_game_folder(game: Game) -> None:
    """Export never writes inside the game folder."""
    with pytest.raises(GameError, match="inside the game folder"):
        sql.export(game, game.root / "sql")
    assert not (game.root / "sql").exists()


# -- tampering ------------------------------------------------------------------------------------

def test_a_tampered_file_is_reported_not_read(game: Game, tmp_path: Path) -> None:
    """A file that does not match its manifest hash raises the store's error naming the file;
    no connection is made and nothing is exported."""
    folder = tmp_path / "tampered"
    shutil.copytree(game.root, folder)
    target = next((folder / "turns").glob("0002.r*")) / "events.parquet"
    target.write_bytes(target.read_bytes() + b"\0")
    with pytest.raises(TamperError, match=r"0002\.r0/events\.parquet: content does not match"):
        sql.views(folder)
    with pytest.raises(TamperError, match="events.parquet"):
        sql.query(folder, "SELECT count(*) FROM players WHERE turn = 0")
    with pytest.raises(TamperError):
        sql.export(folder, tmp_path / "out")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
