"""The ``gmkit`` command: create a game, take orders, commit and reveal seeds, resolve, report,
verify and export history. Every failure exits non-zero with a one-line reason."""

from __future__ import annotations

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
from gmkit.core.store import StoreError
from gmkit.core.tables import SchemaError
from gmkit.game import Game, GameError

EXPECTED = (GameError, StoreError, DiceError, MapError, ParamError, SchemaError, OrderError,
            KeyError, FileNotFoundError, tomllib.TOMLDecodeError)


class _Group(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except EXPECTED as e:
            msg = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
            click.echo(f"gmkit: {msg}".splitlines()[0], err=True)
            sys.exit(2)


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
              help="GeoJSON map (default: the ruleset's map from maps/).")
@click.option("--title", default="", help="The game's title.")
@click.option("--rules", "rules_file", type=click.Path(path_type=Path),
              help="TOML file of rule overrides (house rules).")
def new(game: Path, ruleset: str, players_file: Path, map_path: Path | None, title: str,
        rules_file: Path | None) -> None:
    """Create a game folder from a ruleset, a map and a player list, and commit turn 0."""
    players = tomllib.loads(players_file.read_text("utf-8")).get("players", [])
    rules = tomllib.loads(rules_file.read_text("utf-8")) if rules_file else {}
    g = Game.new(game, ruleset, players, title=title, map_path=map_path, rules=rules)
    click.echo(f"created {g.title} ({g.ruleset.title}) in {game}: turn 0 committed")


@main.command()
@GAME
def status(game: Path) -> None:
    """Show the current turn, the standings and who has sent orders."""
    g = Game.open(game)
    click.echo(f"{g.title} ({g.ruleset.title}): turn {g.latest_turn} committed, "
               f"orders now for turn {g.next_turn}")
    if g.turn().outcome:
        click.echo(f"game over: {g.turn().outcome}")
    with pl.Config(tbl_rows=50, tbl_cols=20, tbl_hide_dataframe_shape=True):
        click.echo(g.ruleset.standings(g.state(), g.rules))
    sent = set(g.store.pending_posts(g.next_turn)["player"].to_list())
    waiting = [p for p in g.ruleset.players_to_move(g.state()) if p not in sent]
    click.echo(f"orders received from: {', '.join(sorted(sent)) or 'nobody yet'}")
    click.echo(f"waiting for: {', '.join(waiting) or 'nobody'}")


@main.command()
@GAME
@click.option("--player", required=True, help="Who sent the post (e.g. the colour in Cien).")
@click.option("--secret", is_flag=True, help="The post was private (a PM or e-mail).")
@click.argument("post", type=click.File("r", encoding="utf-8"), default="-")
def orders(game: Path, player: str, secret: bool, post: Any) -> None:
    """Store a player's post (a file, or - for standard input) and show how it reads."""
    g = Game.open(game)
    text = post.read()
    result = g.receive(player, text, secret=secret)
    for line, order in result.orders:
        click.echo(f"  line {line.number}: {g.ruleset.describe_order(order)}")
    problems = g.read_orders(g.state(), g.store.pending_posts(g.next_turn))[1]
    bad = [str(e) for e in result.errors] + [str(e) for e in problems.get(player, [])]
    if bad:
        click.echo("rejected:")
        for msg in bad:
            click.echo(f"  {msg}")
    click.echo(f"stored {'secret ' if secret else ''}post for turn {g.next_turn}: "
               f"{len(result.orders)} order(s), {len(bad)} problem(s)")


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
        return parse_entered(path.read_text("utf-8"))
    except DiceError as e:
        raise DiceError(f"{path}: {e}") from None


@main.command()
@GAME
@click.option("--dice", "dice_file", type=click.Path(path_type=Path),
              help="Dice rolled elsewhere: one 'draw-id = value' per line.")
@click.option("--dry-run", is_flag=True, help="Resolve and show, but commit nothing.")
@click.option("--revise", is_flag=True,
              help="Re-resolve the latest committed turn as a new revision (the old is kept).")
def resolve(game: Path, dice_file: Path | None, dry_run: bool, revise: bool) -> None:
    """Resolve the coming turn step by step and commit it."""
    g = Game.open(game)
    entered = _entered(dice_file)
    if revise:
        data = g.re_resolve(entered or None)
        click.echo(f"turn {data.turn} re-resolved as revision {data.revision}")
        return
    session = g.start(entered)
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
    for draw_id in session.unused_entered:
        click.echo(f"warning: entered die '{draw_id}' matches no roll of this turn", err=True)
    if dry_run:
        click.echo("dry run: nothing committed")
        return
    data = g.commit(session)
    click.echo(f"turn {data.turn} committed (commitment {data.seed_commitment})")
    if data.outcome:
        click.echo(f"game over: {data.outcome}")


@main.command()
@GAME
def odds(game: Path) -> None:
    """Show the exact odds of the contested actions in the orders received so far."""
    g = Game.open(game)
    table = g.odds(g.start())
    with pl.Config(tbl_rows=200, tbl_cols=20, tbl_hide_dataframe_shape=True):
        click.echo(table if not table.is_empty() else "no contested action")


@main.command()
@GAME
@click.option("--turn", type=int, help="The committed turn (default: the latest).")
@click.option("--format", "fmt", type=click.Choice(["html", "bbcode"]), default="html")
@click.option("--view", type=click.Choice(["public", "gm"]), default="public")
@click.option("--out", type=click.Path(path_type=Path), help="Output file (default: stdout).")
@click.option("--max-chars", type=int, default=20000, help="Longest BBCode post.")
def report(game: Path, turn: int | None, fmt: str, view: str, out: Path | None,
           max_chars: int) -> None:
    """Write a turn's summary as offline HTML or BBCode, public or GM view."""
    from gmkit.core.reports import render, write_report
    from gmkit.summary import turn_report

    g = Game.open(game)
    rep = turn_report(g, turn)
    if out is None:
        text = render(rep, view=view, fmt=fmt, max_chars=max_chars)
        click.echo(text if isinstance(text, str) else "\n\n".join(text))
        return
    for path in write_report(rep, out, view=view, fmt=fmt, max_chars=max_chars):
        click.echo(f"wrote {path}")


@main.command()
@GAME
def verify(game: Path) -> None:
    """Check every manifest hash and re-resolve every turn; exit 1 when anything differs."""
    g = Game.open(game)
    problems = g.verify()
    for p in problems:
        click.echo(p)
    if problems:
        click.echo(f"gmkit: verify found {len(problems)} problem(s)", err=True)
        sys.exit(1)
    click.echo(f"verified {len(g.store.turns())} turn(s): every hash matches and every turn "
               "resolves again to the same state, rolls and events")


@main.command()
@GAME
@click.argument("table")
@click.option("--out", type=click.Path(path_type=Path),
              help="Write .csv or .parquet (default: print).")
def history(game: Path, table: str, out: Path | None) -> None:
    """Export one table across every turn (with a turn column)."""
    g = Game.open(game)
    df = g.history(table)
    if out is None:
        with pl.Config(tbl_rows=40, tbl_cols=20):
            click.echo(df)
    elif out.suffix == ".parquet":
        df.write_parquet(out)
        click.echo(f"wrote {out} ({df.height} rows)")
    elif out.suffix == ".csv":
        df.write_csv(out)
        click.echo(f"wrote {out} ({df.height} rows)")
    else:
        raise GameError(f"{out}: write .csv or .parquet")


@main.command()
@GAME
@click.option("--out", type=click.Path(path_type=Path), required=True,
              help="The folder to write the site into (replaced as a whole).")
def publish(game: Path, out: Path) -> None:
    """Write the game's public static site: an index of turns, each turn's public summary and
    the history charts. It opens offline from the file system."""
    from gmkit.site import publish as publish_site

    pages = publish_site(Game.open(game), out)
    click.echo(f"published {len(pages)} page(s) in {out}; open {out / 'index.html'}")


@main.command()
@GAME
@click.option("--to", "to_turn", type=int, required=True, help="The turn to go back to.")
def rollback(game: Path, to_turn: int) -> None:
    """Set aside every turn after --to (kept in the game folder's attic, never deleted)."""
    g = Game.open(game)
    moved = g.rollback(to_turn)
    click.echo(f"rolled back to turn {to_turn}; set aside {len(moved)} turn folder(s)")


if __name__ == "__main__":  # pragma: no cover
    main()
