"""``gmkit`` commands over a game folder: create it, show its standings, record rule and player
changes and corrections for coming turns, and roll back."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from gmkit.cli.app import GAME, main, player_list, table_config, toml_file

if TYPE_CHECKING:
    from gmkit.game import Game


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
    from gmkit.game import Game, GameError
    from gmkit.game.fairdice import DiceSetting, dice_setting
    from gmkit.game.position import PositionError

    setting = dice_setting({"dice": DiceSetting(commit_ahead, beacon).to_config()})
    players = player_list(players_file, ruleset, map_path)
    rules = toml_file(rules_file, "rules file") if rules_file else {}
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


@main.command()
@GAME
@click.option("--gm", is_flag=True, help="The GM's standings, with the GM-only columns.")
def status(game: Path, gm: bool) -> None:
    """Show the current turn, the standings (the public's unless --gm) and who has sent
    orders."""
    from gmkit.core.cells import as_text
    from gmkit.core.views import Viewer
    from gmkit.game import Game

    g = Game.open(game)
    viewer = Viewer.gm() if gm else Viewer.public()
    standings = g.ruleset.standings(g.state(viewer=viewer), g.context())
    if not gm:
        standings = standings.drop(list(g.ruleset.views.gm_only), strict=False)
    click.echo(f"{g.title} ({g.ruleset.title}): turn {g.latest_turn} committed, "
               f"orders now for turn {g.next_turn}")
    for problem in g.rules.problems.values():
        click.echo(f"game.toml: {problem}; no turn is resolved until it is changed ('gmkit "
                   "rules --set' or '--unset')")
    if g.turn().outcome:
        click.echo(f"game over: {g.turn().outcome}")
    _coming_dice(g)
    with table_config(tbl_rows=50, tbl_cols=20, tbl_hide_dataframe_shape=True,
                      tbl_hide_column_data_types=True):
        click.echo(as_text(standings))
    sent = set(g.store.pending_posts(g.next_turn)["player"].to_list())
    waiting = [p for p in g.to_move(g.state()) if p not in sent]
    click.echo(f"orders received from: {', '.join(sorted(sent)) or 'nobody yet'}")
    click.echo(f"waiting for: {', '.join(waiting) or 'nobody'}")
    if gm and sent:  # what the coming turn will reject, as it reads the posts that count
        coming = g.coming_reading()
        rejected = {p: coming.rejections(p) for p in sorted(sent)}
        if any(rejected.values()):
            click.echo("rejected lines of the posts that count:")
            for player, lines in rejected.items():
                for line in lines:
                    click.echo(f"  {player}: {line}")
        else:
            click.echo("no line of the posts that count is rejected")
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
@click.option("--set", "assignments", multiple=True, metavar="NAME=VALUE",
              help="Change a rule from the coming turn on (a TOML value: 3, 0.5, true, \"x\").")
@click.option("--unset", "unset", multiple=True, metavar="NAME",
              help="Restore a rule's default from the coming turn on.")
@click.option("--why", default="", help="Why the rule changes (shown in the next report).")
def rules(game: Path, assignments: tuple[str, ...], unset: tuple[str, ...], why: str) -> None:
    """Show the rules in force, or change one from the coming turn on (recorded)."""
    import tomllib

    import polars as pl

    from gmkit.game import Game, GameError

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
                   f"{change['from_turn']} ({_was(g, change)}): {change['why']}")
    for name in unset:
        change = g.set_rule(name.strip(), None, why)
        click.echo(f"rule {change['name']} back to its default "
                   f"{g.rules.table[change['name']].default!r} from turn {change['from_turn']} "
                   f"({_was(g, change)})")
    for problem in g.rules.problems.values():
        click.echo(f"gmkit: game.toml: {problem}; no turn is resolved until it is changed",
                   err=True)
    if not assignments and not unset:
        with table_config(tbl_rows=200, tbl_cols=10, fmt_str_lengths=80,
                       tbl_hide_dataframe_shape=True):
            click.echo(pl.DataFrame([{**r, "value": repr(r["value"]),
                                      "default": repr(r["default"])}
                                     for r in g.rules.describe()]))


def _was(g: Game, change: dict[str, Any]) -> str:
    """The value a rule had before a change: the one set, or the default."""
    if change["old"] is None:
        return f"was the default {g.rules.table[change['name']].default!r}"
    return f"was {change['old']!r}"


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
    from gmkit.game import Game, GameError

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
@click.option("--table", help="The state table to correct.")
@click.option("--set", "settings", multiple=True, metavar="'KEY: COLUMN=VALUE'",
              help="The cell to set: the row by its first column's value (or by COLUMN=VALUE "
                   "pairs, comma-separated; nothing for a table of one row), the column, the "
                   "new value (read as the column's type; empty or null for null). Repeat it "
                   "for several cells: all are recorded, or none.")
@click.option("--why", default="", help="Why (an erratum, a ruling): shown in the report.")
@click.option("--undo", is_flag=True,
              help="Withdraw the last correction recorded for the coming turn instead.")
def correct(game: Path, table: str | None, settings: tuple[str, ...], why: str,
            undo: bool) -> None:
    """Correct the state the coming turn starts from, recorded for that turn (applied before it
    resolves, shown in its reports, replayed by verify); nothing committed is rewritten. A
    correction leaving a state the rules cannot play is refused, each problem named."""
    from gmkit.game import Game, GameError
    from gmkit.game.corrections import correction_words

    g = Game.open(game)
    if undo:
        if table or settings:
            raise GameError("--undo withdraws the last correction: give no --table or --set")
        click.echo(f"withdrawn: {correction_words(g.undo_correction())}")
        return
    if not table or not settings:
        raise GameError("name the table (--table) and the cell (--set 'KEY: COLUMN=VALUE')")
    for change in g.correct_all(table, settings, why):  # all recorded, or none
        click.echo(f"turn {change['from_turn']} {correction_words(change)}"
                   + ("" if change["public"] else " (not public: in the GM's report only)"))


@main.command()
@GAME
@click.option("--to", "to_turn", type=int, required=True, help="The turn to go back to.")
@click.option("--why", default="", help="Why the turns are rolled back (recorded).")
def rollback(game: Path, to_turn: int, why: str) -> None:
    """Set aside every turn after --to (kept in the game folder's attic, never deleted)."""
    from gmkit.game import Game

    g = Game.open(game)
    moved = g.rollback(to_turn, why)
    click.echo(f"rolled back to turn {to_turn}; set aside {len(moved)} turn folder(s)")
    if g.dice_setting.ahead and not g.game_over():
        click.echo(f"turn {to_turn + 1} dice commitment: {g.commitment()}")
