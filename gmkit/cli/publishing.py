"""``gmkit`` commands that publish, check or query a game: a turn's report and map, the
verification, what-if replays, the history as CSV, the static site, SQL and balance sweeps.
Each imports what it draws or queries with (altair, duckdb, vl-convert) only when it runs."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from gmkit.cli.app import (GAME, entered_dice, main, player_list, progress_bar, read_text,
                           table_config, viewer_for)

if TYPE_CHECKING:
    import polars as pl


@main.command()
@GAME
@click.option("--turn", type=int, help="The committed turn (default: the latest).")
@click.option("--format", "fmt", type=click.Choice(["html", "bbcode"]), default="html")
@click.option("--view", default="public", metavar="public|gm|player:ID",
              help="Who the report is for: the public (default), the GM, or one player "
                   "(their private report: their secret orders, results and figures too).")
@click.option("--out", type=click.Path(path_type=Path), help="Output file (default: stdout).")
@click.option("--max-chars", type=int, default=20000, help="Longest BBCode post.")
@click.option("--map-file", metavar="NAME",
              help="The map file to attach to the post (written by 'gmkit map'); the BBCode "
                   "says 'Map: attach NAME'.")
def report(game: Path, turn: int | None, fmt: str, view: str, out: Path | None,
           max_chars: int, map_file: str | None) -> None:
    """Write a turn's summary as offline HTML or BBCode, for the public, the GM or a
    player."""
    from gmkit.core.reports import render, write_report
    from gmkit.game import Game
    from gmkit.publish.turns import report_for

    g = Game.open(game)
    view = str(viewer_for(g, view))
    rep = report_for(g, turn, view, map_file=map_file)
    if out is None:
        text = render(rep, view=view, fmt=fmt, max_chars=max_chars)
        click.echo(text if isinstance(text, str) else "\n\n".join(text))
        return
    for path in write_report(rep, out, view=view, fmt=fmt, max_chars=max_chars):
        click.echo(f"wrote {path}")


@main.command("map")
@GAME
@click.option("--turn", type=int, help="The committed turn (default: the latest).")
@click.option("--view", default="public", metavar="public|gm|player:ID",
              help="Who the map is for: the public (default), the GM, or one player.")
@click.option("--out", type=click.Path(path_type=Path),
              help="The file, .png, .svg or .geojson (default: map-turn-NNNN.png here).")
@click.option("--width", type=int, default=1200, show_default=True,
              help="The PNG's width in pixels (forums show 1200 well).")
@click.option("--coords", is_flag=True,
              help="Print each explored or occupied hex's coordinates on a hex map.")
@click.option("--orders", "orders", is_flag=True,
              help="The turn's orders drawn on the map before it (only the orders the view "
                   "may see: no secret order on the public's map).")
def map_command(game: Path, turn: int | None, view: str, out: Path | None,
                width: int, coords: bool, orders: bool) -> None:
    """Write a turn's map as a PNG or SVG file to attach to a forum post ('gmkit report
    --format bbcode --map-file NAME' says to attach it), or as GeoJSON in longitude and
    latitude for GIS tools and web maps; with --orders, the turn's orders drawn on the map
    before it."""
    from gmkit.game import Game
    from gmkit.publish.mapfile import default_name, write_map

    g = Game.open(game)
    viewer = str(viewer_for(g, view))
    t = g.latest_turn if turn is None else turn
    path = write_map(g, out or Path(default_name(t, orders=orders)), t, viewer, width,
                     coordinates=coords, orders=orders)
    if orders:
        click.echo(f"wrote {path} (the orders of turn {t} on the map before it, {viewer} "
                   "view)")
        return
    if path.suffix.lower() == ".geojson":
        click.echo(f"wrote {path} (the map after turn {t}, {viewer} view, in longitude and "
                   "latitude, RFC 7946)")
        return
    click.echo(f"wrote {path} (the map after turn {t}, {viewer} view); attach it with "
               f"'gmkit report {game} --turn {t} --format bbcode --map-file {path.name}'")


@main.command()
@GAME
@click.option("--against", "against", metavar="HASH",
              help="A turn record hash printed in a report: prove the folder still holds it.")
def verify(game: Path, against: str | None) -> None:
    """Check every manifest hash and re-resolve every turn. Exit status: 0 all is well; 1 a
    problem (a file, hash or turn that is not what was committed, a ruleset version the
    ruleset never had); 3 no problem, but turns resolved under a ruleset version this gmkit
    retired resolve differently now (an upgrade, not tampering); 2 the game could not be read,
    or needs a newer gmkit."""
    from gmkit.game import Game
    from gmkit.game.verify import verify_game

    g = Game.open(game)
    found = verify_game(g, against=against, progress=progress_bar("verifying"))
    for p in found.problems:
        click.echo(p)
    for notice in found.notices:
        click.echo(f"notice: {notice}")
    for note in found.notes:
        click.echo(note)
    if found.problems:
        click.echo(f"gmkit: verify found {len(found.problems)} problem(s)", err=True)
        sys.exit(1)
    if found.notices:
        click.echo(f"gmkit: {len(found.notices)} turn(s) were resolved under a ruleset version "
                   "this gmkit retired and resolve differently now; no problem found",
                   err=True)
        sys.exit(3)
    click.echo(f"verified {found.turns} turn(s): every hash matches and every turn "
               "resolves again to the same state, rolls and events")


@main.command("whatif")
@GAME
@click.option("--turn", type=int, required=True, help="The committed turn to resolve again.")
@click.option("--replace", "replaced", multiple=True, type=(int, click.Path(path_type=Path)),
              metavar="SEQ FILE", help="Post SEQ as if it had read FILE.")
@click.option("--add", "added", multiple=True, type=(str, click.Path(path_type=Path)),
              metavar="PLAYER FILE", help="A post of PLAYER reading FILE, after the turn's posts.")
@click.option("--withdraw", "withdrawn", multiple=True, metavar="SEQ[:LINE]",
              help="Post SEQ withdrawn, or only its line LINE (numbered as order problems are).")
@click.option("--dice", "dice_file", type=click.Path(path_type=Path),
              help="Dice entered: one 'draw-id = value' per line (over the recorded ones).")
@click.option("--rule", "assignments", multiple=True, metavar="NAME=VALUE",
              help="A rule set otherwise from this turn on (a TOML value: 3, 0.5, true, \"x\").")
@click.option("--out", type=click.Path(path_type=Path),
              help="Write the resolved turn and the changed tables as Parquet, and both maps as "
                   "SVG, into this folder (outside the game folder).")
@click.option("--no-later", is_flag=True, help="Do not replay the turns after it.")
def whatif_command(game: Path, turn: int, replaced: tuple[tuple[int, Path], ...],
                   added: tuple[tuple[str, Path], ...], withdrawn: tuple[str, ...],
                   dice_file: Path | None, assignments: tuple[str, ...], out: Path | None,
                   no_later: bool) -> None:
    """Resolve a committed turn again with one thing changed and print what would have
    differed: each table's changed rows, the events added and removed, the outcome, and the
    first later turn whose result would differ. Uses the turn's recorded seed, posts, dice and
    rules; never writes in the game folder."""
    import gmkit.game.whatif as whatif

    changes = whatif.Changes(
        replace={seq: read_text(path, "post") for seq, path in replaced},
        add=[(player, read_text(path, "post")) for player, path in added],
        withdraw=[whatif.parse_withdraw(item) for item in withdrawn],
        dice=entered_dice(dice_file), rules=dict(whatif.parse_rule(a) for a in assignments))
    g = whatif.open_game(game)
    if out is not None:
        whatif.check_out(g, out)
    result = whatif.what_if(g, turn, changes, later=not no_later)
    for line in whatif.describe(result):
        click.echo(line)
    if out is not None:
        paths = whatif.write_out(g, result, out)
        click.echo(f"wrote {len(paths)} file(s) in {out}: the turn and what differs as Parquet, "
                   "the map as recorded and as it would have been")


@main.command()
@GAME
@click.argument("table")
@click.option("--out", type=click.Path(path_type=Path),
              help="Write .csv, .json or .parquet (default: print).")
@click.option("--gm", is_flag=True, help="The GM's view: secret posts and GM-only rows too.")
def history(game: Path, table: str, out: Path | None, gm: bool) -> None:
    """Export one table across every turn (with a turn column); the public view unless --gm.
    In CSV and JSON a list cell is JSON and a boolean true or false; printed, a table reads
    yes or no and a dash for a missing value."""
    from gmkit.core.cells import as_text
    from gmkit.game import Game

    g = Game.open(game)
    if out is not None:
        format_for(out, None)  # a file gmkit cannot write is refused before any reading
    df = g.history(table, view="gm" if gm else "public")
    if out is None:
        with table_config(tbl_rows=40, tbl_cols=20, tbl_hide_column_data_types=True):
            click.echo(as_text(df))
        return
    write_table(df, out, None)


def format_for(out: Path | None, fmt: str | None) -> str | None:
    """The format ``--out``/``--format`` ask for (see :func:`gmkit.publish.export.format_for`)."""
    from gmkit.publish.export import format_for as chosen

    return chosen(out, fmt)


def write_table(df: pl.DataFrame, out: Path, fmt: str | None) -> None:
    """Write ``df`` to ``out`` in ``fmt`` (else the format its suffix names), aside and renamed
    into place, and say so."""
    from gmkit.core.files import atomic_write
    from gmkit.publish.export import table_bytes

    chosen = format_for(out, fmt)
    assert chosen is not None
    atomic_write(out, table_bytes(df, chosen))
    click.echo(f"wrote {out} ({df.height} rows, {chosen})")


def csv_text(df: pl.DataFrame) -> str:
    """``df`` as CSV a spreadsheet opens safely (see :mod:`gmkit.publish.export`)."""
    from gmkit.publish.export import csv_text as text

    return text(df)


@main.command()
@GAME
@click.option("--out", type=click.Path(path_type=Path), required=True,
              help="The folder to write the site into: a new or empty folder, or one gmkit "
                   "published before (replaced as a whole, only the pages whose inputs "
                   "changed drawn again); never the game folder.")
@click.option("--players", "players_dir", type=click.Path(path_type=Path),
              help="Also write each player's private pages into DIR/<player id>/ (a folder "
                   "outside the site and the game folder; send each player theirs).")
def publish(game: Path, out: Path, players_dir: Path | None) -> None:
    """Write the game's public static site: an index of turns, each turn's public summary and
    the history charts. It opens offline from the file system."""
    from gmkit.publish.converter import ChartConverter

    # the chart converter loads in a process of its own while the game is read (stopped unused
    # when no chart is drawn)
    with ChartConverter().start() as converter:
        from gmkit.game import Game
        from gmkit.publish.site import publish_counted

        pages, drawn = publish_counted(Game.open(game), out, players=players_dir,
                                       progress=progress_bar("publishing"),
                                       converter=converter)
    public = [p for p in pages if p.parent == out]
    click.echo(f"published {len(public)} page(s) in {out} ({drawn} drawn anew, the others "
               f"unchanged); open {out / 'index.html'}")
    if players_dir is not None:
        click.echo(f"wrote {len(pages) - len(public)} private page(s) in "
                   f"{players_dir}/<player id>/")


@main.command("sql")
@GAME
@click.argument("statement", metavar="[SQL]", required=False)
@click.option("--gm", is_flag=True,
              help="The GM's view: secret posts, hidden rolls and events, every state column.")
@click.option("--view", "view", metavar="VIEWER",
              help="Another viewer: public (the default), gm, or player:ID (what that player "
                   "may see).")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json", "parquet"]),
              help="How the result is written: table (text, the default when printing), csv, "
                   "json or parquet (the default with --out: its suffix's).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the result to this file (.csv, .json or .parquet) instead of "
                   "printing it.")
@click.option("--export", "export_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Also write every table as a Parquet file into this folder.")
def sql_command(game: Path, statement: str | None, gm: bool, view: str | None,
                fmt: str | None, out: Path | None, export_dir: Path | None) -> None:
    """Query the game in SQL (DuckDB): every table across every turn, as the public sees it.

    The state tables, orders, rolls and events are views with turn and revision columns (the
    latest revision of each turn), rolls.result and events.data are JSON, orders.received a
    timestamp, and revisions lists every revision with its manifest hash. Every file is checked
    against its manifest first; the game folder is only read.

    Every row of the result is printed (through a pager on a terminal), or written as CSV,
    JSON or Parquet with --format and --out.
    """
    import gmkit.publish.sql as game_sql
    from gmkit.game import Game, GameError

    if statement is None and export_dir is None:
        raise GameError("give a SQL query, or --export DIR, or both")
    if statement is None and (fmt is not None or out is not None):
        raise GameError("--format and --out write a query's result: give the SQL query")
    if fmt == "table" and out is not None:
        raise GameError("--out writes a file: give --format csv, json or parquet, or none")
    chosen = None if fmt == "table" else format_for(out, fmt)
    if chosen == "parquet" and out is None:
        raise GameError("--format parquet writes a file: give --out FILE.parquet")
    g = Game.open(game)
    for target in (out, export_dir):
        if target is not None and target.resolve().is_relative_to(g.root.resolve()):
            raise GameError(f"{target}: inside the game folder, whose files are never "
                            "touched; write somewhere else")
    if statement is not None:
        df = game_sql.query(g, statement, gm=gm, view=view,
                            progress=progress_bar("reading turns"))
        if out is not None:
            write_table(df, out, chosen)
        elif chosen is not None:
            from gmkit.publish.export import table_bytes

            click.echo(table_bytes(df, chosen).decode("utf-8"), nl=False)
        else:
            show_every_row(df)
    if export_dir is not None:
        paths = game_sql.export(g, export_dir, gm=gm, view=view,
                                progress=progress_bar("reading turns"))
        click.echo(f"wrote {len(paths)} Parquet file(s) in {export_dir} "
                   f"({view or ('gm' if gm else 'public')} view)")


def show_every_row(df: pl.DataFrame) -> None:
    """Print every row and column of ``df`` as a table: through the pager when standard
    output is a terminal, else straight out."""
    with table_config(tbl_rows=-1, tbl_cols=-1, fmt_str_lengths=60,
                      tbl_hide_dataframe_shape=False):
        text = str(df)
    if sys.stdout.isatty():
        click.echo_via_pager(text + "\n")
    else:
        click.echo(text)


@main.command("sweep")
@click.argument("ruleset")
@click.option("--games", type=int, required=True, help="Games per rule variant.")
@click.option("--rules", "assignments", multiple=True, metavar="KEY=VALUE",
              help="A rule value for every game (a TOML value: 3, 0.5, true, \"x\"); repeatable.")
@click.option("--vary", multiple=True, metavar="KEY=V1,V2",
              help="Play every value of a rule as its own variant; repeated, every combination.")
@click.option("--rounds", type=int, default=None,
              help="The round limit: a game stops there if no outcome came first (default 100).")
@click.option("--workers", type=int, default=None,
              help="Local worker processes (default: one per CPU; 0: in this process).")
@click.option("--scheduler", metavar="tcp://HOST:PORT",
              help="Play on this Dask cluster instead (needs 'gmkit[sweep]' here and on the "
                   "workers; start the workers with POLARS_MAX_THREADS=1).")
@click.option("--out", type=click.Path(path_type=Path),
              help="The folder for games.parquet, margins.parquet, sweep.json and sweep.html "
                   "(default: sweep-RULESET).")
@click.option("--seed", default="gmkit", help="The sweep's master seed.")
@click.option("--players", "players_file", type=click.Path(path_type=Path),
              help="TOML file with a [[players]] list (default: the ruleset's example players).")
@click.option("--replay", type=int, metavar="GAME",
              help="Play game GAME of this sweep (the same arguments) again, into --into.")
@click.option("--into", type=click.Path(path_type=Path),
              help="With --replay: the new game folder to play the game into.")
def sweep_command(ruleset: str, games: int, assignments: tuple[str, ...], vary: tuple[str, ...],
                  rounds: int | None, workers: int | None, scheduler: str | None,
                  out: Path | None, seed: str, players_file: Path | None, replay: int | None,
                  into: Path | None) -> None:
    """Play GAMES seeded bot games per rule variant of RULESET to their end or the round limit,
    through the same resolution as a real game, and write the results (one row per game and
    player, the leader's margin per round) as Parquet with a page of charts.

    Any game of a sweep is replayed as an ordinary game folder: run the same command with
    --replay GAME --into FOLDER (GAME is the table's game column); 'gmkit verify FOLDER' checks
    it."""
    import os

    import gmkit.sweeps.sweep as sweep
    from gmkit.game import GameError

    players = player_list(players_file, ruleset, None) if players_file else None
    spec = sweep.plan(ruleset, games, rules=assignments, vary=vary, players=players,
                      rounds=rounds, seed=seed)
    if replay is not None or into is not None:
        if replay is None or into is None:
            raise GameError("--replay GAME and --into FOLDER go together")
        g = sweep.replay(spec, replay, into)
        click.echo(f"replayed game {replay} into {into}: {g.latest_turn} round(s)"
                   + (f"; {g.turn().outcome}" if g.turn().outcome else ""))
        return
    workers = max(1, os.cpu_count() or 1) if workers is None else workers
    result = sweep.run(spec, workers=workers, scheduler=scheduler,
                       progress=progress_bar(f"{len(spec.variants) * games} games"))
    paths = sweep.write(result, out or Path(f"sweep-{spec.ruleset}"))
    click.echo(f"played {len(spec.variants) * games} game(s) in {len(spec.variants)} "
               f"variant(s); wrote {', '.join(str(p) for p in paths)}")
