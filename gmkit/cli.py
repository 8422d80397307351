"""The ``gmkit`` command: create a game, take orders, commit and reveal seeds, resolve, report,
verify and export history. Every failure exits non-zero with a one-line reason."""

from __future__ import annotations

import csv
import difflib
import errno
import io
import shutil
import sys
import tomllib
from pathlib import Path
from typing import Any

import click
import polars as pl

from gmkit.core.dice import DiceError, parse_entered
from gmkit.core.maps import MapError
from gmkit.core.orders import OrderError
from gmkit.core.params import ParamError
from gmkit.core.files import StoreError
from gmkit.core.tables import SchemaError
from gmkit.core.views import Viewer
from gmkit.game import Game, GameError, ImportRefused

EXPECTED = (GameError, StoreError, DiceError, MapError, ParamError, SchemaError, OrderError,
            KeyError, tomllib.TOMLDecodeError, ValueError, TypeError)


def _os_error(e: OSError) -> str:
    """An operating-system failure in one line: the file and what went wrong."""
    what = {errno.ENOSPC: "the disk is full", errno.EROFS: "the file system is read-only",
            errno.EACCES: "permission denied", errno.EPERM: "permission denied",
            errno.EDQUOT: "the disk quota is exceeded"}.get(e.errno or 0, e.strerror or str(e))
    where = f"{e.filename}: " if e.filename else ""
    return f"{where}{what}; the game folder keeps its last good state"


class _Group(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except OSError as e:
            click.echo(f"gmkit: {_os_error(e)}".splitlines()[0], err=True)
            sys.exit(2)
        except EXPECTED as e:
            msg = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
            click.echo(f"gmkit: {msg}".splitlines()[0] if msg else f"gmkit: {type(e).__name__}",
                       err=True)
            sys.exit(2)


def _table_config(**options: Any) -> pl.Config:
    """How tables print: as wide as they need (never a word broken over two lines), on a
    terminal or in a file."""
    width = max(shutil.get_terminal_size((200, 40)).columns, 200)
    return pl.Config(tbl_width_chars=width, fmt_str_lengths=max(options.pop(
        "fmt_str_lengths", 60), 40), **options)


def _progress(what: str) -> Any:
    """A progress callback ``(done, total)`` drawing a bar on a terminal's standard error, and
    silent when standard error is not a terminal."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        click.echo(f"\r{what} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}",
                   err=True, nl=done >= total)

    return show


def _read_text(path: Path | None, what: str = "file") -> str:
    """A UTF-8 text file (``-`` or None: standard input); a bad byte is named with its
    offset."""
    blob = sys.stdin.buffer.read() if path is None or str(path) == "-" else Path(path).read_bytes()
    try:
        return blob.decode("utf-8")
    except UnicodeDecodeError as e:
        raise GameError(f"{path or 'standard input'}: the {what} is not UTF-8 text (byte "
                        f"0x{blob[e.start]:02x} at offset {e.start}); save it as UTF-8") from None


def _toml(path: Path, what: str) -> dict[str, Any]:
    try:
        return tomllib.loads(_read_text(path, what))
    except tomllib.TOMLDecodeError as e:
        raise GameError(f"{path}: malformed TOML: {e}") from None


GAME = click.argument("game", type=click.Path(path_type=Path))


@click.group(cls=_Group)
@click.version_option(package_name="gmkit")
def main() -> None:
    """gmkit: the game master's kit for play-by-forum strategy games."""


@main.command()
@GAME
@click.option("--ruleset", required=True, help="Ruleset name or alias, e.g. cien.")
@click.option("--players", "players_file", required=True, type=click.Path(path_type=Path),
              help="TOML file with a [[players]] list (id, name and ruleset fields).")
@click.option("--map", "map_path", type=click.Path(path_type=Path),
              help="A board of your own, of the ruleset's kind: a GeoJSON map, a graph in TOML, "
                   "a hex table in Parquet, CSV or TOML (default: the board the ruleset "
                   "ships).")
@click.option("--title", default="", help="The game's title.")
@click.option("--rules", "rules_file", type=click.Path(path_type=Path),
              help="TOML file of rule overrides (house rules).")
@click.option("--commit-ahead/--no-commit-ahead", default=True, show_default=True,
              help="Make each turn's dice commitment when the turn before is committed, so "
                   "it goes out with the turn before's summary, before any order of its "
                   "turn (--no-commit-ahead: when the GM first asks for it).")
@click.option("--beacon", metavar="KIND",
              help="Mix every turn's dice with a public beacon: drand-quicknet, or named (a "
                   "source entered by hand, such as a lottery draw); implies --commit-ahead.")
@click.option("--state", "state_dir", type=click.Path(path_type=Path),
              help="Start from a given position instead of the ruleset's set-up: a folder with "
                   "one file per state table, <table>.parquet or <table>.csv (CSV for tables "
                   "without list columns).")
@click.option("--turn", "start_turn", type=int, default=0, show_default=True,
              help="With --state: the turn the position is the state after (the first turn "
                   "played is the next).")
def new(game: Path, ruleset: str, players_file: Path, map_path: Path | None, title: str,
        rules_file: Path | None, commit_ahead: bool, beacon: str | None,
        state_dir: Path | None, start_turn: int) -> None:
    """Create a game folder from a ruleset, a map and a player list, commit turn 0 (or the
    given position), and print the next turn's dice commitment (the game's announcement)."""
    from gmkit.game.fairdice import DiceSetting, dice_setting
    from gmkit.game.position import PositionError

    setting = dice_setting({"dice": DiceSetting(commit_ahead, beacon).to_config()})
    players = _players(players_file, ruleset, map_path)
    rules = _toml(rules_file, "rules file") if rules_file else {}
    if start_turn and state_dir is None:
        raise GameError("--turn needs --state: a starting turn other than 0 is a given position")
    try:
        g = Game.new(game, ruleset, players, title=title, map_path=map_path, rules=rules,
                     dice=setting, state=state_dir, turn=start_turn)
    except PositionError as e:
        for problem in e.problems:
            click.echo(problem, err=True)
        click.echo(f"gmkit: the position in {state_dir} has {len(e.problems)} problem(s); no "
                   "game was created", err=True)
        sys.exit(2)
    first = g.latest_turn
    click.echo(f"created {g.title} ({g.ruleset.title}) in {game}: turn {first} committed"
               + (" (the given position)" if state_dir is not None else ""))
    click.echo(f"turn {first + 1} dice commitment: {g.commitment(first + 1)}")


def _players(players_file: Path, ruleset: str, map_path: Path | None) -> list[dict[str, Any]]:
    """The player list of ``players.toml``, checked by the ruleset: the first problem is one
    line naming the file, the player and the field."""
    from gmkit.core.boards import BoardError
    from gmkit.core.ruleset import find_ruleset
    from gmkit.game import starting_board

    listed = _toml(players_file, "player list")
    players = listed.get("players")
    if players is None:
        other = [k for k, v in listed.items() if isinstance(v, list)]
        raise GameError(f"{players_file}: no [[players]] table"
                        + (f" (found [[{other[0]}]]: write [[players]])" if other else
                           ": list each player as a [[players]] table"))
    if not isinstance(players, list) or not all(isinstance(x, dict) for x in players):
        raise GameError(f"{players_file}: 'players' must be a list of [[players]] tables")
    rs = find_ruleset(ruleset)
    try:
        board = starting_board(rs, map_path)[0]
    except BoardError as e:
        raise GameError(str(e)) from None
    problems = rs.check_players(Game.players_from_config({"players": players},
                                                         str(players_file)), board)
    if problems:
        more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
        raise GameError(f"{players_file}: {problems[0]}{more}")
    return players


def _viewer(g: Game, view: str) -> Viewer:
    """The viewer ``--view`` names; a player must be one of the game's."""
    v = Viewer.parse(view)
    if v.is_player and v.player_id not in [p.id for p in g.everyone()]:
        raise GameError(f"--view {view}: no player {v.player_id!r} in this game")
    return v


@main.command()
@GAME
@click.option("--gm", is_flag=True, help="The GM's standings, with the GM-only columns.")
def status(game: Path, gm: bool) -> None:
    """Show the current turn, the standings (the public's unless --gm) and who has sent
    orders."""
    g = Game.open(game)
    viewer = Viewer.gm() if gm else Viewer.public()
    standings = g.ruleset.standings(g.ruleset.view(g.state(), viewer), g.rules)
    if not gm:
        standings = standings.drop(list(g.ruleset.gm_only_columns()), strict=False)
    click.echo(f"{g.title} ({g.ruleset.title}): turn {g.latest_turn} committed, "
               f"orders now for turn {g.next_turn}")
    if g.turn().outcome:
        click.echo(f"game over: {g.turn().outcome}")
    _coming_dice(g)
    with _table_config(tbl_rows=50, tbl_cols=20, tbl_hide_dataframe_shape=True):
        click.echo(standings)
    sent = set(g.store.pending_posts(g.next_turn)["player"].to_list())
    waiting = [p for p in g.ruleset.players_to_move(g.state()) if p not in sent]
    click.echo(f"orders received from: {', '.join(sorted(sent)) or 'nobody yet'}")
    click.echo(f"waiting for: {', '.join(waiting) or 'nobody'}")
    corrections = g.corrections_for(g.next_turn)
    if corrections:
        from gmkit.game.corrections import correction_words

        shown = [c for c in corrections if gm or c.get("public") is True]
        click.echo(f"corrections of turn {g.next_turn}'s start: {len(corrections)}"
                   + ("" if len(shown) == len(corrections) else " (--gm shows them all)"))
        for c in shown:
            click.echo(f"  {correction_words(c)}")
    for row in g.late_posts().iter_rows(named=True):
        click.echo(f"late post #{row['seq']} from {row['player']} for turn {row['turn']} came "
                   "in after the turn was read: re-resolve it to include the post ('gmkit "
                   f"resolve --revise --include-late') or carry it ('gmkit carry {game} "
                   f"{row['seq']}')")


def _coming_dice(g: Game) -> None:
    """The coming turn's commitment, deadline, seal and beacon, as status shows them."""
    got = g.coming_dice()
    turn = got["turn"]
    click.echo(f"turn {turn} dice commitment: "
               f"{got['commitment'] or 'not made yet (gmkit commit-seed)'}")
    deadline = got["deadline"]
    click.echo(f"turn {turn} order deadline: "
               f"{deadline['deadline'] if deadline else 'not set (gmkit deadline)'}")
    if got["beacon_kind"] is not None:
        sealed, beacon = got["seal"], got["beacon"]
        click.echo(f"turn {turn} seal: {sealed['digest'] if sealed else 'not sealed yet'}; "
                   f"beacon ({got['beacon_kind']}): "
                   + (f"{beacon['beacon']['source']} round {beacon['beacon']['round']}"
                      if beacon else "not entered yet"))


@main.command()
@GAME
@click.argument("time", metavar="TIME")
def deadline(game: Path, time: str) -> None:
    """Set the coming turn's order deadline (ISO 8601 with its zone, e.g.
    2026-11-30T20:00:00+00:00); the summary of the turn before announces it."""
    g = Game.open(game)
    entry = g.set_deadline(time)
    click.echo(f"turn {g.next_turn} order deadline: {entry['deadline']}")


@main.command()
@GAME
@click.option("--dice", "dice_file", type=click.Path(path_type=Path),
              help="Dice rolled elsewhere, sealed with the posts: one 'draw-id = value' a line.")
def seal(game: Path, dice_file: Path | None) -> None:
    """Seal the coming turn before its beacon round: record and print the sha256 of its posts
    (their numbers, players and texts) and the GM-entered dice; only these count."""
    g = Game.open(game)
    entry = g.seal(_entered(dice_file))
    click.echo(f"turn {g.next_turn} sealed on {len(entry['posts'])} post(s) and "
               f"{len(entry['entered'])} entered die/dice: seal {entry['digest']}")


@main.command("beacon")
@GAME
@click.option("--turn", type=int, help="The turn (default: the coming one).")
@click.option("--round", "round_", metavar="R", help="The beacon's round (drand: a number).")
@click.option("--randomness", metavar="HEX", help="drand: the round's randomness (optional).")
@click.option("--signature", metavar="HEX", help="drand: the round's signature.")
@click.option("--source", metavar="KIND:NAME", help="A named source, e.g. lottery:EuroMillions.")
@click.option("--value", help="A named source: the value as published.")
def beacon_command(game: Path, turn: int | None, round_: str | None, randomness: str | None,
                   signature: str | None, source: str | None, value: str | None) -> None:
    """Enter the sealed turn's public beacon (a drand round, its signature checked offline and
    its round the first after the deadline; or a named source), mixed into its dice seed."""
    g = Game.open(game)
    turn = g.next_turn if turn is None else turn
    if source is not None and value is None:
        raise GameError("a named beacon needs --value (the value as published)")
    if source is None and (signature is None or round_ is None or not round_.isdigit()):
        raise GameError("a drand beacon needs --round R (a number) and --signature HEX")
    entry = g.enter_beacon(round=round_, randomness=randomness, signature=signature,
                           source=source, value=value, turn=turn)
    got = entry["beacon"]
    click.echo(f"turn {turn} beacon: {got['source']} round {got['round']} value {got['value']} "
               f"({'signature checked' if got['check'] != 'entered' else 'entered'})")


@main.command("import")
@GAME
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
def import_command(game: Path, files: tuple[Path, ...]) -> None:
    """Receive the posts chat exports hold (for a ruleset that reads them: Aeternus reads
    DiscordChatExporter JSON), a post per message with its posting time. All or nothing: a
    file or message that cannot be read stops the import, each problem named, and nothing is
    stored. A message received before is not received again; what is read but does not count
    (a stranger's message, an edit the rules ignore) is listed."""
    g = Game.open(game)
    try:
        report = g.import_posts(list(files))
    except ImportRefused as e:
        for problem in e.problems:
            click.echo(f"  {problem}", err=True)
        raise
    state = g.coming_state()
    for seq, post in report.stored:
        parsed = g.ruleset.parse_post(post.text, post.player, state, g.rules)
        joining = " (joins the game)" if post.newcomer else ""
        click.echo(f"  post #{seq} {post.player}{joining}, {post.where or post.source}: "
                   f"{len(parsed.orders)} order(s)")
        for err in parsed.errors:
            click.echo(f"    rejected {err}")
    for notice in report.notices:
        click.echo(f"  {notice}")
    click.echo(f"received {len(report.stored)} post(s) for turn {report.turn} from "
               f"{len(files)} file(s); {len(report.notices)} notice(s) to check by hand")


@main.command()
@GAME
@click.option("--player", required=True, help="Who sent the post (e.g. the colour in Cien).")
@click.option("--secret", is_flag=True, help="The post was private (a PM or e-mail).")
@click.option("--posted", metavar="TIME",
              help="When the player posted it (the forum's or Discord's time, ISO 8601).")
@click.argument("post", type=click.Path(path_type=Path, allow_dash=True), default="-")
def orders(game: Path, player: str, secret: bool, posted: str | None, post: Path) -> None:
    """Store a player's post (a file, or - for standard input) and show how it reads."""
    g = Game.open(game)
    text = _read_text(post, "post")
    got = g.receive_post(player, text, secret=secret, posted=posted)
    result = got.parsed
    for line, order in result.orders:
        click.echo(f"  line {line.number}: {g.ruleset.describe_order(order)}")
    problems = g.read_orders(g.state(), g.store.pending_posts(got.turn))[1]
    bad = [str(e) for e in result.errors] + [str(e) for e in problems.get(got.player, [])]
    if bad:
        click.echo("rejected:")
        for msg in bad:
            click.echo(f"  {msg}")
    click.echo(f"stored {'secret ' if secret else ''}post #{got.seq} for turn {got.turn}: "
               f"{len(result.orders)} order(s), {len(bad)} problem(s)")
    pending = g.store.pending_posts(got.turn)
    counting = g.effective_posts(pending)
    if got.seq not in counting["seq"].to_list():
        other = counting.filter(pl.col("player") == got.player)["seq"].to_list()
        rule = g.ruleset.counted_posts(g.rules)
        click.echo(f"this post does not count: under the rules only {got.player}'s "
                   f"{'first' if rule == 'first' else 'latest'} post counts, which is post "
                   f"#{other[0] if other else '?'} (withdraw it with 'gmkit withdraw' to let "
                   "another count)")


@main.command("commit-seed")
@GAME
def commit_seed(game: Path) -> None:
    """Print the commitment (sha256 of the secret seed) to post before resolving."""
    g = Game.open(game)
    click.echo(f"turn {g.next_turn} dice commitment: {g.commitment()}")


@main.command()
@GAME
@click.option("--turn", type=int, help="The committed turn (default: the latest).")
def reveal(game: Path, turn: int | None) -> None:
    """Reveal a committed turn's seed so anyone can recompute its rolls."""
    g = Game.open(game)
    seed = g.reveal(turn)
    click.echo(f"turn {turn if turn is not None else g.latest_turn} seed: {seed}")


def _entered(path: Path | None) -> dict[str, Any]:
    if path is None:
        return {}
    try:
        return parse_entered(_read_text(path, "dice file"))
    except DiceError as e:
        raise DiceError(f"{path}: {e}") from None


@main.command()
@GAME
@click.option("--dice", "dice_file", type=click.Path(path_type=Path),
              help="Dice rolled elsewhere: one 'draw-id = value' per line.")
@click.option("--dry-run", is_flag=True, help="Resolve and show, but commit nothing.")
@click.option("--revise", is_flag=True,
              help="Re-resolve the latest committed turn as a new revision (the old is kept).")
@click.option("--include-late", is_flag=True,
              help="With --revise: include the posts that came in after the turn was read.")
@click.option("--why", default="", help="With --revise: why the turn is resolved again.")
@click.option("--allow-empty", is_flag=True, help="Resolve a turn with no post at all.")
@click.option("--unannounced", is_flag=True,
              help="Resolve although no commitment was shown first (run commit-seed first).")
@click.option("--force", is_flag=True, help="Commit although an entered die matches no draw.")
def resolve(game: Path, dice_file: Path | None, dry_run: bool, revise: bool,
            include_late: bool, why: str, allow_empty: bool, unannounced: bool,
            force: bool) -> None:
    """Resolve the coming turn step by step and commit it."""
    g = Game.open(game)
    entered = _entered(dice_file)
    if revise:
        data = g.re_resolve(entered or None, include_late=include_late, reason=why)
        titles = {st.name: st for st in g.ruleset.steps(g.rules)}
        for name in data.events["step"].unique(maintain_order=True).to_list():
            st = titles.get(name)
            click.echo(f"== {st.title} [{st.rule}]" if st else f"== {name}")
            for drawn_row in data.rolls.filter(pl.col("step") == name).iter_rows(named=True):
                click.echo(f"   die {drawn_row['draw_id']}: {drawn_row['purpose']}: "
                           f"{drawn_row['expression']} -> {drawn_row['result']} "
                           f"({drawn_row['source']})")
            for text in data.events.filter(pl.col("step") == name)["text"].to_list():
                click.echo(f"   {text}")
        click.echo(f"turn {data.turn} re-resolved as revision {data.revision}"
                   + (f" ({why})" if why else ""))
        return
    turn = g.next_turn
    if g.store.read_seed(turn) is None and not unannounced and not dry_run:
        raise GameError(f"turn {turn} has no dice commitment yet: run 'gmkit commit-seed' and "
                        "post the hash before resolving (or pass --unannounced)")
    if g.store.pending_posts(turn).is_empty() and not allow_empty:
        raise GameError(f"turn {turn} has no post: nothing to resolve (pass --allow-empty to "
                        "resolve it anyway)")
    session = g.start(entered, preview=dry_run)
    if dry_run and g.dice_setting.beacon is not None and session.beacon is None:
        click.echo("preview: the turn's dice will come from its beacon; these are not them")
    for player, errs in sorted(session.problems.items()):
        for e in errs:
            click.echo(f"{player}: rejected {e}")
    for player, result in sorted(session.parsed.items()):
        for e in result.errors:
            click.echo(f"{player}: rejected {e}")
    while not session.driver.done:
        rec = session.driver.next()
        click.echo(f"== {rec.step.title} [{rec.step.rule}]")
        for r in rec.rolls:
            click.echo(f"   die {r.draw_id}: {r.purpose}: {r.expression} -> {r.result} "
                       f"({r.source})")
        for event in rec.events:
            click.echo(f"   {event.text}")
    drawn = [r.draw_id for r in session.driver.rolls]
    unused = [(d, difflib.get_close_matches(d, drawn, n=3, cutoff=0.5))
              for d in session.unused_entered]
    for draw_id, near in unused:
        click.echo(f"warning: entered die '{draw_id}' matches no draw of this turn"
                   + (f" (did you mean {', '.join(near)}?)" if near else ""), err=True)
    if dry_run:
        click.echo("dry run: nothing committed")
        return
    if unused and not force:
        raise GameError(f"entered die '{unused[0][0]}' matches no draw of turn {turn}: nothing "
                        "committed (fix the dice file, or pass --force to commit without it)")
    data = g.commit(session)
    click.echo(f"turn {data.turn} committed (commitment {data.seed_commitment})")
    if data.outcome:
        click.echo(f"game over: {data.outcome}")


@main.command()
@GAME
def odds(game: Path) -> None:
    """Show the exact odds of the contested actions in the orders received so far."""
    g = Game.open(game)
    table = g.odds(g.start(preview=True))
    with _table_config(tbl_rows=200, tbl_cols=20, tbl_hide_dataframe_shape=True):
        click.echo(table if not table.is_empty() else "no contested action")


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
    import dataclasses

    from gmkit.core.reports import render, write_report
    from gmkit.publish.summary import turn_report

    g = Game.open(game)
    view = str(_viewer(g, view))
    rep = turn_report(g, turn, viewer=view)
    if map_file:
        rep = dataclasses.replace(rep, map_file=Path(map_file).name)
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
def map_command(game: Path, turn: int | None, view: str, out: Path | None) -> None:
    """Write a turn's map as a PNG or SVG file to attach to a forum post ('gmkit report
    --format bbcode --map-file NAME' says to attach it), or as GeoJSON in longitude and
    latitude for GIS tools and web maps."""
    from gmkit.publish.mapfile import default_name, write_map

    g = Game.open(game)
    viewer = str(_viewer(g, view))
    t = g.latest_turn if turn is None else turn
    path = write_map(g, out or Path(default_name(t)), t, viewer)
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
    problem (a file, hash or turn that is not what was committed); 3 no problem, but turns
    resolved under a ruleset version this gmkit no longer has resolve differently now (an
    upgrade, not tampering); 2 the game could not be read."""
    from gmkit.game.verify import verify_game

    g = Game.open(game)
    found = verify_game(g, against=against, progress=_progress("verifying"))
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
                   "this gmkit no longer has and resolve differently now; no problem found",
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
        replace={seq: _read_text(path, "post") for seq, path in replaced},
        add=[(player, _read_text(path, "post")) for player, path in added],
        withdraw=[whatif.parse_withdraw(item) for item in withdrawn],
        dice=_entered(dice_file), rules=dict(whatif.parse_rule(a) for a in assignments))
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
              help="Write .csv or .parquet (default: print).")
@click.option("--gm", is_flag=True, help="The GM's view: secret posts and GM-only rows too.")
def history(game: Path, table: str, out: Path | None, gm: bool) -> None:
    """Export one table across every turn (with a turn column); the public view unless --gm."""
    from gmkit.core.files import atomic_write, parquet_bytes

    g = Game.open(game)
    df = g.history(table, view="gm" if gm else "public")
    if out is None:
        with _table_config(tbl_rows=40, tbl_cols=20):
            click.echo(df)
    elif out.suffix == ".parquet":
        atomic_write(out, parquet_bytes(df))
        click.echo(f"wrote {out} ({df.height} rows)")
    elif out.suffix == ".csv":
        atomic_write(out, csv_text(df).encode("utf-8"))
        click.echo(f"wrote {out} ({df.height} rows)")
    else:
        raise GameError(f"{out}: write .csv or .parquet")


#: What a spreadsheet reads as the start of a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_text(df: pl.DataFrame) -> str:
    """A frame as CSV in which no text cell is a live spreadsheet formula: a cell starting with
    ``= + - @`` (or a tab or carriage return) gets a leading apostrophe, as spreadsheets
    advise."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(df.columns)
    text_cols = {c for c, t in df.schema.items() if t == pl.String}
    for row in df.iter_rows():
        writer.writerow(["" if v is None else
                         ("'" + v if c in text_cols and isinstance(v, str)
                          and v.startswith(FORMULA_START) else v)
                         for c, v in zip(df.columns, row)])
    return buf.getvalue()


@main.command()
@GAME
@click.option("--out", type=click.Path(path_type=Path), required=True,
              help="The folder to write the site into: a new or empty folder, or one gmkit "
                   "published before (replaced as a whole); never the game folder.")
@click.option("--players", "players_dir", type=click.Path(path_type=Path),
              help="Also write each player's private pages into DIR/<player id>/ (a folder "
                   "outside the site and the game folder; send each player theirs).")
def publish(game: Path, out: Path, players_dir: Path | None) -> None:
    """Write the game's public static site: an index of turns, each turn's public summary and
    the history charts. It opens offline from the file system."""
    from gmkit.publish.site import publish as publish_site

    pages = publish_site(Game.open(game), out, players=players_dir)
    public = [p for p in pages if p.parent == out]
    click.echo(f"published {len(public)} page(s) in {out}; open {out / 'index.html'}")
    if players_dir is not None:
        click.echo(f"wrote {len(pages) - len(public)} private page(s) in "
                   f"{players_dir}/<player id>/")


@main.command()
@GAME
@click.option("--to", "to_turn", type=int, required=True, help="The turn to go back to.")
@click.option("--why", default="", help="Why the turns are rolled back (recorded).")
def rollback(game: Path, to_turn: int, why: str) -> None:
    """Set aside every turn after --to (kept in the game folder's attic, never deleted)."""
    g = Game.open(game)
    moved = g.rollback(to_turn, why)
    click.echo(f"rolled back to turn {to_turn}; set aside {len(moved)} turn folder(s)")
    if g.dice_setting.ahead:
        click.echo(f"turn {to_turn + 1} dice commitment: {g.commitment()}")


@main.command()
@GAME
@click.option("--table", help="The state table to correct.")
@click.option("--set", "settings", multiple=True, metavar="'KEY: COLUMN=VALUE'",
              help="The cell to set: the row by its first column's value (or by COLUMN=VALUE "
                   "pairs, comma-separated; nothing for a table of one row), the column, the "
                   "new value (read as the column's type; empty or null for null).")
@click.option("--why", default="", help="Why (an erratum, a ruling): shown in the report.")
@click.option("--undo", is_flag=True,
              help="Withdraw the last correction recorded for the coming turn instead.")
def correct(game: Path, table: str | None, settings: tuple[str, ...], why: str,
            undo: bool) -> None:
    """Correct the state the coming turn starts from, recorded for that turn (applied before it
    resolves, shown in its reports, replayed by verify); nothing committed is rewritten."""
    from gmkit.game.corrections import correction_words

    g = Game.open(game)
    if undo:
        if table or settings:
            raise GameError("--undo withdraws the last correction: give no --table or --set")
        click.echo(f"withdrawn: {correction_words(g.undo_correction())}")
        return
    if not table or not settings:
        raise GameError("name the table (--table) and the cell (--set 'KEY: COLUMN=VALUE')")
    for setting in settings:
        change = g.correct(table, setting, why)
        click.echo(f"turn {change['from_turn']} {correction_words(change)}"
                   + ("" if change["public"] else " (not public: in the GM's report only)"))


@main.command()
@GAME
@click.option("--set", "assignments", multiple=True, metavar="NAME=VALUE",
              help="Change a rule from the coming turn on (a TOML value: 3, 0.5, true, \"x\").")
@click.option("--unset", "unset", multiple=True, metavar="NAME",
              help="Restore a rule's default from the coming turn on.")
@click.option("--why", default="", help="Why the rule changes (shown in the next report).")
def rules(game: Path, assignments: tuple[str, ...], unset: tuple[str, ...], why: str) -> None:
    """Show the rules in force, or change one from the coming turn on (recorded)."""
    g = Game.open(game)
    for item in assignments:
        name, sep, raw = item.partition("=")
        if not sep or not name.strip():
            raise GameError(f"--set {item!r}: write NAME=VALUE")
        try:
            value = tomllib.loads(f"v = {raw.strip()}")["v"]
        except tomllib.TOMLDecodeError:
            value = raw.strip()
        change = g.set_rule(name.strip(), value, why)
        click.echo(f"rule {change['name']} = {change['value']!r} from turn "
                   f"{change['from_turn']} (was {change['old']!r}): {change['why']}")
    for name in unset:
        change = g.set_rule(name.strip(), None, why)
        click.echo(f"rule {change['name']} back to its default from turn {change['from_turn']}")
    if not assignments and not unset:
        with _table_config(tbl_rows=200, tbl_cols=10, fmt_str_lengths=80,
                       tbl_hide_dataframe_shape=True):
            click.echo(pl.DataFrame([{**r, "value": repr(r["value"]),
                                      "default": repr(r["default"])}
                                     for r in g.rules.describe()]))


@main.command()
@GAME
@click.argument("action", type=click.Choice(["list", "add", "replace", "remove"]),
                default="list")
@click.argument("player", required=False)
@click.option("--field", "fields", multiple=True, metavar="NAME=VALUE",
              help="A field of the player (name, and the ruleset's: state, government...).")
@click.option("--why", default="", help="Why the players change (shown in the next report).")
def players(game: Path, action: str, player: str | None, fields: tuple[str, ...],
            why: str) -> None:
    """List the players, or add, replace (a new person takes over) or remove one from the
    coming turn on (recorded)."""
    g = Game.open(game)
    if action == "list":
        for p in g.players_from_config(g.config):
            click.echo(f"{p.id}: {p.name}")
        return
    if not player:
        raise GameError(f"players {action}: name the player (its id)")
    values: dict[str, Any] = {}
    for item in fields:
        name, sep, raw = item.partition("=")
        if not sep or not name.strip():
            raise GameError(f"--field {item!r}: write NAME=VALUE")
        values[name.strip()] = raw.strip()
    change = g.change_player(action, player, values, why)
    click.echo(f"{change['what']} from turn {change['from_turn']}: {change['why']}")


@main.command()
@GAME
@click.argument("seq", type=int)
@click.option("--why", required=True, help="Why the GM withdraws the post (recorded).")
def withdraw(game: Path, seq: int, why: str) -> None:
    """Withdraw a pending post (a GM correction, such as a post filed under the wrong player);
    it is kept in pending/withdrawn with the reason."""
    g = Game.open(game)
    g.store.withdraw_post(seq, why)
    click.echo(f"post #{seq} withdrawn: {why}")


@main.command()
@GAME
@click.argument("seq", type=int)
def carry(game: Path, seq: int) -> None:
    """Carry a late post (one that came in after its turn was read) to the coming turn."""
    g = Game.open(game)
    turn = g.carry(seq)
    click.echo(f"post #{seq} carried to turn {turn}")


@main.command("sql")
@GAME
@click.argument("statement", metavar="[SQL]", required=False)
@click.option("--gm", is_flag=True,
              help="The GM's view: secret posts, hidden rolls and events, every state column.")
@click.option("--view", "view", metavar="VIEWER",
              help="Another viewer: public (the default), gm, or player:ID (what that player "
                   "may see).")
@click.option("--export", "export_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Also write every table as a Parquet file into this folder.")
def sql_command(game: Path, statement: str | None, gm: bool, view: str | None,
                export_dir: Path | None) -> None:
    """Query the game in SQL (DuckDB): every table across every turn, as the public sees it.

    The state tables, orders, rolls and events are views with turn and revision columns (the
    latest revision of each turn), rolls.result and events.data are JSON, orders.received a
    timestamp, and revisions lists every revision with its manifest hash. Every file is checked
    against its manifest first; the game folder is only read.
    """
    import gmkit.publish.sql as game_sql

    if statement is None and export_dir is None:
        raise GameError("give a SQL query, or --export DIR, or both")
    g = Game.open(game)
    if statement is not None:
        df = game_sql.query(g, statement, gm=gm, view=view)
        with _table_config(tbl_rows=40, tbl_cols=20, fmt_str_lengths=60):
            click.echo(df)
    if export_dir is not None:
        paths = game_sql.export(g, export_dir, gm=gm, view=view)
        click.echo(f"wrote {len(paths)} Parquet file(s) in {export_dir} "
                   f"({view or ('gm' if gm else 'public')} view)")


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

    players = _players(players_file, ruleset, None) if players_file else None
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
                       progress=_progress(f"{len(spec.variants) * games} games"))
    paths = sweep.write(result, out or Path(f"sweep-{spec.ruleset}"))
    click.echo(f"played {len(spec.variants) * games} game(s) in {len(spec.variants)} "
               f"variant(s); wrote {', '.join(str(p) for p in paths)}")


if __name__ == "__main__":  # pragma: no cover
    main()
