"""``gmkit`` commands of a turn: guard its dice (deadline, seal, beacon, commitment, reveal),
receive its posts (one by one or imported), and resolve it."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import TYPE_CHECKING

import click

from gmkit.cli.app import GAME, entered_dice, main, read_text, table_config

if TYPE_CHECKING:
    from gmkit.game import Game


@main.command()
@GAME
@click.argument("time", metavar="TIME")
def deadline(game: Path, time: str) -> None:
    """Set the coming turn's order deadline (ISO 8601 with its zone, e.g.
    2026-11-30T20:00:00+00:00); the summary of the turn before announces it."""
    from gmkit.game import Game

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
    from gmkit.game import Game

    g = Game.open(game)
    entry = g.seal(entered_dice(dice_file))
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
    from gmkit.game import Game, GameError

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
    from gmkit.game import Game, ImportRefused

    g = Game.open(game)
    try:
        report = g.import_posts(list(files))
    except ImportRefused as e:
        for problem in e.problems:
            click.echo(f"  {problem}", err=True)
        raise
    coming = g.coming_reading()  # the rules' problems of every post, against the coming state
    policy = g.ruleset.counted_posts(g.rules)
    for seq, post in report.stored:
        got = coming.post(seq)
        read = got.reading
        joining = " (joins the game)" if post.newcomer else ""
        unread = f", {len(read.unread)} line(s) not read as orders" if read.unread else ""
        click.echo(f"  post #{seq} {post.player}{joining}, {post.where or post.source}: "
                   f"{len(read.read)} order(s){unread}")
        for text in read.rejections():
            click.echo(f"    rejected {text}")
        for err in got.void_now:
            click.echo(f"    accepted, but void if resolved now: {err}")
        note = got.note(policy)
        if note:
            click.echo(f"    {note}")
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
@click.option("--allow-empty", is_flag=True,
              help="Store the post even when no line of it is an order.")
@click.argument("post", type=click.Path(path_type=Path, allow_dash=True), default="-")
def orders(game: Path, player: str, secret: bool, posted: str | None, allow_empty: bool,
           post: Path) -> None:
    """Store a player's post (a file, or - for standard input) and show how it reads; a post
    in which no line is an order is refused (--allow-empty), and one beyond the size limits
    always."""
    from gmkit.core.orders import MAX_POST_CHARS
    from gmkit.game import Game

    g = Game.open(game)
    g.refuse_if_over("no orders are taken after the last turn")
    text = read_text(post, "post", 4 * MAX_POST_CHARS)  # at most 4 bytes a character
    got = g.receive_post(player, text, secret=secret, posted=posted, allow_empty=allow_empty)
    _show_post(g, got.seq, stored=f"stored {'secret ' if secret else ''}post #{got.seq} for "
                                  f"turn {got.turn}")


def _show_post(g: Game, seq: int, stored: str) -> None:
    """A pending post as the coming turn reads it: its orders in words, every rejected line
    (the parser's and the rules', against the coming state), the lines not read, those void
    if resolved now, and whether it counts (a post that does not is checked as if it did)."""
    got = g.coming_reading().post(seq)
    read = got.reading
    for text in read.lines(g.ruleset.presentation.describe):
        click.echo(text)
    if got.void_now:
        click.echo("accepted, but void if resolved now:")
        for err in got.void_now:
            click.echo(f"  {err}")
    unread = f", {len(read.unread)} line(s) not read as orders" if read.unread else ""
    click.echo(f"{stored}: {len(read.read)} order(s), {len(read.rejected)} problem(s){unread}")
    note = got.note(g.ruleset.counted_posts(g.rules))
    if note:
        click.echo(f"{note}; 'gmkit withdraw' sets a post aside")


@main.command("commit-seed")
@GAME
def commit_seed(game: Path) -> None:
    """Print the commitment (sha256 of the secret seed) to post before resolving."""
    from gmkit.game import Game

    g = Game.open(game)
    g.refuse_if_over("no dice commitment after the last turn")
    click.echo(f"turn {g.next_turn} dice commitment: {g.commitment()}")


@main.command()
@GAME
@click.option("--turn", type=int, help="The committed turn (default: the latest).")
def reveal(game: Path, turn: int | None) -> None:
    """Reveal a committed turn's seed so anyone can recompute its rolls."""
    from gmkit.game import Game

    g = Game.open(game)
    seed = g.reveal(turn)
    click.echo(f"turn {turn if turn is not None else g.latest_turn} seed: {seed}")


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
    import polars as pl

    import json

    from gmkit.core.dice import DiceError
    from gmkit.core.orders import in_line_order, quoted
    from gmkit.core.steps import Event, condensed
    from gmkit.game import Game, GameError
    from gmkit.game.reading import reading

    g = Game.open(game)
    if not revise:
        g.refuse_if_over("no turn is resolved after the last")
    entered = entered_dice(dice_file)
    if revise:
        data = g.re_resolve(entered or None, include_late=include_late, reason=why)
        titles = {st.name: st for st in g.ruleset.steps(g.context())}
        for name in data.events["step"].unique(maintain_order=True).to_list():
            st = titles.get(name)
            click.echo(f"== {st.title} [{st.rule}]" if st else f"== {name}")
            for drawn_row in data.rolls.filter(pl.col("step") == name).iter_rows(named=True):
                click.echo(f"   die {drawn_row['draw_id']}: {drawn_row['purpose']}: "
                           f"{drawn_row['expression']} -> {drawn_row['result']} "
                           f"({drawn_row['source']})")
            shown = [Event(r["kind"], r["rule"], r["text"], r["player"], r["region"],
                           data=json.loads(r["data"] or "{}"))
                     for r in data.events.filter(pl.col("step") == name).iter_rows(named=True)]
            for item in condensed(shown, g.ruleset.presentation.routine):
                click.echo(f"   {item.text}")
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
    # the whole turn is resolved before a line of it is printed: a die entered that does not
    # fit its draw stops it with the error alone, never after half a resolution
    lines: list[str] = []
    if dry_run and g.dice_setting.beacon is not None and session.beacon is None:
        lines.append("preview: the turn's dice will come from its beacon; these are not them")
    for player, result in sorted(session.parsed.items()):
        read = reading(result, session.problems.get(player, []))
        lines += [f"{player}: rejected {text}" for text in read.rejections()]
        if read.unread:
            lines.append(f"{player}: {len(read.unread)} line(s) not read as orders")
    for player in sorted(set(session.problems) - set(session.parsed)):
        lines += [f"{player}: rejected {quoted(e)}"
                  for e in in_line_order(session.problems[player])]
    try:
        while not session.driver.done:
            rec = session.driver.next()
            lines.append(f"== {rec.step.title} [{rec.step.rule}]")
            lines += [f"   die {r.draw_id}: {r.purpose}: {r.expression} -> {r.result} "
                      f"({r.source})" for r in rec.rolls]
            lines += [f"   {item.text}"
                      for item in condensed(rec.events, g.ruleset.presentation.routine)]
    except DiceError as e:
        where = f"{dice_file}: " if dice_file is not None and entered else ""
        raise DiceError(f"{where}{e}; turn {turn} was not resolved and nothing was "
                        "committed") from None
    click.echo("\n".join(lines))
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
    from gmkit.game import Game

    from gmkit.game.turnreading import bearing_on

    g = Game.open(game)
    session = g.start(preview=True)
    table = g.odds(session)
    with table_config(tbl_rows=200, tbl_cols=20, tbl_hide_dataframe_shape=True):
        click.echo(table if not table.is_empty() else "no contested action")
    bearing = bearing_on(table, session.reading) if session.reading is not None else []
    if bearing:
        click.echo("rejected orders these odds leave out:")
        for line in bearing:
            click.echo(f"  {line}")


@main.command()
@GAME
@click.argument("seq", type=int)
@click.option("--why", required=True, help="Why the GM withdraws the post (recorded).")
def withdraw(game: Path, seq: int, why: str) -> None:
    """Withdraw a pending post (a GM correction, such as a post filed under the wrong player);
    it is kept in pending/withdrawn with the reason."""
    from gmkit.game import Game

    import polars as pl

    g = Game.open(game)
    pending = g.store.pending_posts(g.next_turn).filter(pl.col("seq") == seq)
    g.store.withdraw_post(seq, why)
    click.echo(f"post #{seq} withdrawn: {why}")
    if pending.is_empty():
        return
    player = pending["player"][0]
    coming = g.coming_reading()
    now = coming.counting.filter(pl.col("player") == player)["seq"].to_list()
    if not now:
        click.echo(f"{player} has no other post for turn {g.next_turn}: no order of theirs "
                   "counts now")
    for other in now:  # what counts for the player now, as the turn will read it
        _show_post(g, other, stored=f"{player}'s post #{other} counts now")


@main.command()
@GAME
@click.argument("seq", type=int)
def carry(game: Path, seq: int) -> None:
    """Carry a late post (one that came in after its turn was read) to the coming turn."""
    from gmkit.game import Game

    g = Game.open(game)
    turn = g.carry(seq)
    click.echo(f"post #{seq} carried to turn {turn}")
