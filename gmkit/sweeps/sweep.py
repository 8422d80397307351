"""Balance sweeps: many seeded bot games of a ruleset per rule variant, to see how a rule choice
changes a game before the GM announces it.

A sweep is planned (:func:`plan`: the ruleset, the players, a rule variant per combination of
``--vary`` values, N games each), played (:func:`run`) and written (:func:`write`) as two tables
and a page (:mod:`gmkit.sweeps.page`):

* ``games.parquet``: one row per game and player: the game's number, variant, seed and rounds,
  how it ended and who won, the player's seat, and every column of the ruleset's standings
  after the last round (the GM's figures);
* ``margins.parquet``: one row per game and round: the leader and their margin over the
  runner-up in the ruleset's headline figure (its first numeric standings column when it names
  none).

Every game is played by the rulesets' seeded bots exactly as :func:`gmkit.sweeps.playout.play` plays
it into a game folder: the same bot posts (same dice, same post numbers, the same posts secret),
read, validated and resolved by :meth:`gmkit.game.Game.resolve_again`, the code that resolves
and verifies a real turn; only the folder writes are left out. So any game of a sweep is
replayed as an ordinary game folder by :func:`replay` (``gmkit sweep ... --replay GAME --into
FOLDER``), with the same final standings.

Game ``k`` of every variant plays from the same seed (paired games: a difference between
variants is the rules', not the dice's). The tables depend on the seeds alone, never on where
the games ran: local worker processes (:func:`local_pool`, polars held to one thread each) or a
Dask cluster (``scheduler``).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import multiprocessing
import os
import tempfile
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import polars as pl

from gmkit.core.boards.resources import default_board_map
from gmkit.core.dice import Dice
from gmkit.core.params import ParamError
from gmkit.core.ruleset import Ruleset, find_ruleset
from gmkit.core.tables import ORDERS_SCHEMA
from gmkit.core.files import atomic_write, parquet_bytes
from gmkit.core.tables import State
from gmkit.game import Game
from gmkit.sweeps.playout import derived_seed, play
from gmkit.sweeps.spec import GameTask, Sweep, SweepError, SweepSpec, Variant

#: The round limit when none is given.
DEFAULT_ROUNDS = 100
#: What the ``ended`` column says of a game stopped by the round limit.
ROUND_LIMIT = "round limit"
#: The columns a sweep adds to each standings row (a standings column of the same name is kept
#: as ``<name>_final``).
GAME_COLUMNS = ("game", "variant", "seed", "rounds", "ended", "winner", "seat", "rank", "won")
#: When the bots' posts are said to arrive (as in :mod:`gmkit.sweeps.playout`).
RECEIVED = "2026-01-01T00:00:00+00:00"


def rule_value(raw: str) -> Any:
    """A rule value as written on the command line: a TOML value (``3``, ``0.5``, ``true``,
    ``"x"``), else the text itself."""
    try:
        return tomllib.loads(f"v = {raw.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        return raw.strip()


def parse_assignment(text: str, option: str = "--rules") -> tuple[str, str]:
    """``KEY=VALUE`` split in two (the value still as written)."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip() or not raw.strip():
        raise SweepError(f"{option} {text!r}: write KEY=VALUE")
    return key.strip(), raw


def plan(ruleset: str, games: int, *, rules: Sequence[str] = (), vary: Sequence[str] = (),
         players: Sequence[Mapping[str, Any]] | None = None, rounds: int | None = None,
         seed: str = "gmkit") -> SweepSpec:
    """A sweep of ``games`` games per variant: ``rules`` (``KEY=VALUE``) apply to every game,
    each ``vary`` (``KEY=V1,V2``) multiplies the variants by its values. Every key and value is
    checked against the ruleset's rules table; ``players`` default to its example players."""
    rs = find_ruleset(ruleset)
    if games < 1:
        raise SweepError(f"--games {games}: play at least one game")
    rounds = DEFAULT_ROUNDS if rounds is None else rounds
    if rounds < 1:
        raise SweepError(f"--rounds {rounds}: allow at least one round")
    base: dict[str, Any] = {}
    for text in rules:
        key, raw = parse_assignment(text)
        base[key] = rule_value(raw)
        _check_rules(rs, {key: base[key]}, f"--rules {text}")
    axes: list[list[tuple[str, Any]]] = []
    for text in vary:
        key, raw = parse_assignment(text, "--vary")
        values = [rule_value(v) for v in raw.split(",") if v.strip()]
        for value in values:
            _check_rules(rs, {key: value}, f"--vary {text}")
        axes.append([(key, v) for v in values])
    variants = tuple(Variant(", ".join(f"{k}={v}" for k, v in combo) or "base",
                             {**base, **dict(combo)})
                     for combo in itertools.product(*axes))
    if players is None:
        players = rs.example_players(default_board_map(rs))
    if not players:
        raise SweepError(f"ruleset '{rs.name}' offers no example players: give a player list")
    return SweepSpec(rs.name, games, variants, tuple(dict(p) for p in players), rounds, seed)


def _check_rules(rs: Ruleset[Any], overrides: Mapping[str, Any], where: str) -> None:
    try:
        rs.rules(overrides)
    except ParamError as e:
        raise SweepError(f"{where}: {e}") from None


# -- playing one game ------------------------------------------------------------------------------
def bot_posts(game: Game, state: State, master: str, seq: int) -> pl.DataFrame:
    """The posts :func:`gmkit.sweeps.playout.receive_bot_posts` would store for the coming turn, as
    the orders table the store would give back (numbered from ``seq + 1``)."""
    turn = state.turn + 1
    rows = []
    for i, pid in enumerate(game.to_move(state)):
        dice = Dice(derived_seed(master, "bot", turn), turn, f"bot/{pid}")
        rows.append({"seq": seq + i + 1, "player": pid,
                     "secret": (i + turn) % 3 == 0, "received": RECEIVED,
                     "text": game.bot_post(state, pid, dice), "posted": None})
    return pl.DataFrame(rows, schema=dict(ORDERS_SCHEMA))


def score_column(rs: Ruleset[Any], standings: pl.DataFrame) -> str | None:
    """The standings figure a leader leads by: the ruleset's headline, else its first numeric
    column."""
    head = rs.presentation.headline
    if head is not None and head.column in standings.columns:
        return head.column
    return next((c for c, t in standings.schema.items() if t.is_numeric()), None)


def subject_column(standings: pl.DataFrame) -> str:
    """The standings column naming whom a row ranks (``player``, else the first)."""
    return "player" if "player" in standings.columns else standings.columns[0]


def _margin_row(rs: Ruleset[Any], standings: pl.DataFrame, turn: int) -> dict[str, Any]:
    score = score_column(rs, standings)
    if score is None or standings.is_empty():
        return {"round": turn, "leader": None, "figure": score, "leader_score": None,
                "margin": None}
    who = subject_column(standings)
    ranked = standings.with_row_index("_order").sort([score, "_order"], descending=[True, False],
                                                     nulls_last=True)
    values = [float(v) if v is not None else None for v in ranked[score].to_list()]
    top = values[0]
    second = values[1] if len(values) > 1 else None
    return {"round": turn, "leader": str(ranked[who][0]), "figure": score, "leader_score": top,
            "margin": None if top is None else top - (second if second is not None else top)}


def play_game(game: Game, task: GameTask) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Play one game of a sweep from the set-up of ``game`` (a fresh game folder of the task's
    ruleset, players and rules; nothing is written to it): its final standings row per player
    and its margin per round."""
    rs, rules = game.ruleset, game.rules
    ctx = game.context()
    state = game.state(0)
    seq, margins = 0, []
    outcome = rs.outcome(state, ctx)
    while outcome is None and state.turn < task.rounds:
        turn = state.turn + 1
        posts = bot_posts(game, state, task.seed, seq)
        seq += posts.height
        data = game.resolve_again(state, posts, derived_seed(task.seed, "turn", turn), turn,
                                  {}, rules)
        state = data.state
        outcome = rs.outcome(state, ctx)
        margins.append(_margin_row(rs, rs.standings(state, ctx), turn))
    standings = rs.standings(state, ctx)
    who = subject_column(standings)
    seats = {str(p["id"]): i + 1 for i, p in enumerate(task.players)}
    winners = list(outcome.winners) if outcome else []
    clash = [c for c in standings.columns if c in GAME_COLUMNS]
    final = standings.rename({c: f"{c}_final" for c in clash})
    ids = [str(x) for x in standings[who].to_list()]
    head = pl.DataFrame({
        "game": [task.game] * len(ids), "variant": [task.variant.label] * len(ids),
        "seed": [task.seed] * len(ids), "rounds": [state.turn] * len(ids),
        "ended": [outcome.termination.name.lower().replace("_", " ") if outcome else ROUND_LIMIT]
        * len(ids),
        "winner": [", ".join(winners) if winners else None] * len(ids),
        "seat": [seats.get(i) for i in ids], "rank": list(range(1, len(ids) + 1)),
        "won": [i in winners for i in ids]},
        schema={"game": pl.Int64, "variant": pl.String, "seed": pl.String, "rounds": pl.Int64,
                "ended": pl.String, "winner": pl.String, "seat": pl.Int64, "rank": pl.Int64,
                "won": pl.Boolean})
    margin = pl.DataFrame(margins, schema={"round": pl.Int64, "leader": pl.String,
                                           "figure": pl.String, "leader_score": pl.Float64,
                                           "margin": pl.Float64})
    margin = margin.select(pl.lit(task.game, pl.Int64).alias("game"),
                           pl.lit(task.variant.label).alias("variant"),
                           pl.lit(task.seed).alias("seed"), pl.all())
    return pl.concat([head, final], how="horizontal"), margin


@contextlib.contextmanager
def set_up(task: GameTask) -> Iterator[Game]:
    """A fresh game of the task's ruleset, players and rules in a temporary folder (removed
    afterwards), to play games from."""
    with tempfile.TemporaryDirectory(prefix="gmkit-sweep-") as tmp:
        yield Game.new(Path(tmp) / "game", task.ruleset, task.players,
                       rules=dict(task.variant.rules))


def play_chunk(tasks: Sequence[GameTask]) -> list[tuple[int, pl.DataFrame, pl.DataFrame]]:
    """Play games of one variant (a worker's unit of work): one set-up, then each game."""
    if not tasks:
        return []
    with set_up(tasks[0]) as game:
        return [(t.game, *play_game(game, t)) for t in tasks]


# -- running many ----------------------------------------------------------------------------------
Progress = Callable[[int, int], None]


def chunks(tasks: Sequence[GameTask], workers: int) -> list[list[GameTask]]:
    """The games cut into units of work of one variant each, about four per worker."""
    size = max(1, min(25, -(-len(tasks) // max(1, 4 * workers))))
    out: list[list[GameTask]] = []
    for _, group in itertools.groupby(tasks, key=lambda t: t.variant.label):
        block = list(group)
        out += [block[i:i + size] for i in range(0, len(block), size)]
    return out


@contextlib.contextmanager
def _environment(**values: str) -> Iterator[None]:
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def polars_threads() -> int:
    """The size of this process's polars thread pool."""
    return int(pl.thread_pool_size())


@contextlib.contextmanager
def local_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """``workers`` fresh worker processes, each holding polars to one thread.

    polars sizes its thread pool once, when it is first imported, from ``POLARS_MAX_THREADS``; a
    worker imports it while it starts (unpickling its first call imports gmkit), before any
    initializer could run. So the variable is set in this process's environment while the
    workers are spawned (all at the first call, for spawned workers), and restored then."""
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
    with pool:
        with _environment(POLARS_MAX_THREADS="1"):
            pool.submit(polars_threads).result()  # starts every worker
        yield pool


def _collect(futures: Sequence[Future[Any]], total: int, progress: Progress | None
             ) -> list[tuple[int, pl.DataFrame, pl.DataFrame]]:
    out: list[tuple[int, pl.DataFrame, pl.DataFrame]] = []
    for f in as_completed(futures):
        out += f.result()
        if progress is not None:
            progress(len(out), total)
    return out


def _run_dask(units: Sequence[Sequence[GameTask]], scheduler: str, total: int,
              progress: Progress | None) -> list[tuple[int, pl.DataFrame, pl.DataFrame]]:
    try:
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError:
        raise SweepError("--scheduler needs dask.distributed: pip install "
                         "'gmkit[sweep]'") from None
    out: list[tuple[int, pl.DataFrame, pl.DataFrame]] = []
    with Client(scheduler) as client:
        futures = [client.submit(play_chunk, list(u), pure=False) for u in units]
        for f in dask_completed(futures):
            out += f.result()
            if progress is not None:
                progress(len(out), total)
    return out


def run(spec: SweepSpec, *, workers: int = 0, scheduler: str | None = None,
        progress: Progress | None = None) -> Sweep:
    """Play every game of ``spec``: on a Dask cluster given its ``scheduler`` address, else on
    ``workers`` local worker processes, else (``workers`` 0) in this process. ``progress`` is
    called with the games done and the total as they come in."""
    tasks = spec.tasks()
    total = len(tasks)
    units = chunks(tasks, max(1, workers))
    if scheduler is not None:
        results = _run_dask(units, scheduler, total, progress)
    elif workers > 0:
        with local_pool(workers) as pool:
            results = _collect([pool.submit(play_chunk, u) for u in units], total, progress)
    else:
        results = []
        for u in units:
            results += play_chunk(u)
            if progress is not None:
                progress(len(results), total)
    results.sort(key=lambda r: r[0])
    games = pl.concat([r[1] for r in results], how="diagonal_relaxed")
    margins = pl.concat([r[2] for r in results], how="diagonal_relaxed")
    return Sweep(spec, games, margins)


# -- replaying and writing -------------------------------------------------------------------------
def replay(spec: SweepSpec, game: int, into: str | Path) -> Game:
    """Game ``game`` of the sweep played again into the new game folder ``into``: an ordinary
    game, its turns committed and their seeds revealed, that ``gmkit verify`` checks."""
    tasks = spec.tasks()
    if not 0 <= game < len(tasks):
        raise SweepError(f"--replay {game}: the sweep has games 0 to {len(tasks) - 1}")
    task = tasks[game]
    g = Game.new(into, task.ruleset, task.players, rules=dict(task.variant.rules),
                 title=f"Sweep game {task.game} ({task.variant.label}, seed {task.seed})")
    return play(g, task.rounds, task.seed)


def write(sweep: Sweep, out: str | Path) -> list[Path]:
    """Write ``games.parquet``, ``margins.parquet``, ``sweep.json`` (the plan) and
    ``sweep.html`` (the charts) into the folder ``out``."""
    from gmkit.sweeps.page import render_page

    out = Path(out)
    if (out / "game.toml").exists():
        raise SweepError(f"{out} is a game folder: write the sweep elsewhere (--out)")
    out.mkdir(parents=True, exist_ok=True)
    files = {"games.parquet": parquet_bytes(sweep.games),
             "margins.parquet": parquet_bytes(sweep.margins),
             "sweep.json": json.dumps(sweep.spec.to_dict(), indent=1, ensure_ascii=False,
                                      default=str).encode(),
             "sweep.html": render_page(sweep).encode("utf-8")}
    for name, blob in files.items():
        atomic_write(out / name, blob)
    return [out / name for name in files]
