"""A game's whole history as tables: players over the turns, the events, the dice and the map.

Everything here is read through the core's across-turns tables (:meth:`Game.history`), never by
reading a game folder's files by hand, and it is generic: no ruleset is imported. Each function
takes a ``view``: ``"public"`` (the default) keeps only what everyone may see, ``"gm"`` keeps
everything, ``"player:ID"`` (or a :class:`~gmkit.core.views.Viewer`) what that player may see:
the public view plus their own secret results and private figures.

* :func:`player_series` — one row per turn, player and numeric standings column ("metric");
* :func:`timeline` — the event log across turns, filterable by players and kinds;
* :func:`dice_report` — per player: rolls, dice, average face against the expected one, and how
  lucky the player has been as a percentile (50 = average);
* :func:`map_at` — the map SVG after any turn.

The rendering of these frames as charts lives in :mod:`gmkit.publish.charts`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from html import escape
from pathlib import Path

import polars as pl

from gmkit.core.cells import readable
from gmkit.core.dice import DiceSpec, dice_distribution
from gmkit.core.files import StoreError
from gmkit.core.tables import State
from gmkit.core.views import Viewer, visible_events, visible_rolls
from gmkit.game import Game, GameError

__all__ = [
    "VIEWS",
    "NO_PLAYER",
    "dice_report",
    "event_kinds",
    "luck_percentile",
    "map_at",
    "open_game",
    "metrics",
    "player_colours",
    "player_series",
    "players",
    "series_of",
    "turn_series",
    "readable",
    "states",
    "subject_series",
    "timeline",
]

VIEWS = ("public", "gm")

#: How a roll or event that belongs to no player (independent states, an emperor...) is shown.
NO_PLAYER = "\u2014"

SERIES_SCHEMA = {"turn": pl.Int64, "player": pl.String, "metric": pl.String, "value": pl.Float64}
TIMELINE_COLUMNS = ("turn", "step", "kind", "player", "region", "text", "public")
DICE_SCHEMA = {"player": pl.String, "rolls": pl.Int64, "entered": pl.Int64, "dice": pl.Int64,
               "total": pl.Int64, "expected_total": pl.Float64,
               "total_minus_expected": pl.Float64, "mean_face": pl.Float64,
               "expected_face": pl.Float64, "luck": pl.Float64}



def _viewer(view: str | Viewer) -> Viewer:
    """The viewer a ``view`` argument names; ValueError for anything else."""
    return Viewer.parse(view)


def open_game(path: str | Path) -> Game:
    """Open a game folder to explore its history; raises :class:`GameError` with a message fit
    to show (no such folder, not a game folder, no committed turn...)."""
    text = str(path).strip()
    if not text:
        raise GameError("no game folder given")
    try:
        game = Game.open(Path(text).expanduser())
        if not game.store.turns():
            raise GameError(f"{text}: no turn is committed yet; there is no history to show")
    except GameError:
        raise
    except (StoreError, OSError, ValueError) as e:
        raise GameError(str(e)) from None
    return game


# ------------------------------------------------------------------------------------------------
# States and players over the turns
# ------------------------------------------------------------------------------------------------


class _TableHistory:
    """The state tables of every turn, each read (through :meth:`Game.history`) only when some
    turn's table is first asked for, then split by turn."""

    def __init__(self, game: Game):
        self.game = game
        self.split: dict[str, dict[int, pl.DataFrame]] = {}

    def table(self, name: str, turn: int) -> pl.DataFrame:
        if name not in self.split:
            parts = self.game.history(name, whole=True).partition_by(
                "turn", as_dict=True, maintain_order=True, include_key=False)
            self.split[name] = {int(key[0]): df
                                for key, df in parts.items()}
        part = self.split[name].get(turn)
        return part if part is not None else \
            pl.DataFrame(schema=dict(self.game.ruleset.schemas[name]))


class _TurnTables(Mapping[str, pl.DataFrame]):
    """One turn's tables, read on first use."""

    def __init__(self, source: _TableHistory, turn: int):
        self.source, self.turn = source, turn

    def __getitem__(self, name: str) -> pl.DataFrame:
        if name not in self.source.game.ruleset.schemas:
            raise KeyError(name)
        return self.source.table(name, self.turn)

    def __iter__(self) -> Iterator[str]:
        return iter(self.source.game.ruleset.schemas)

    def __len__(self) -> int:
        return len(self.source.game.ruleset.schemas)


class _HistoryState(State):
    """A :class:`State` whose tables are read from the game's history when first used, so that
    standings that need three tables of six read only those three."""

    def __post_init__(self) -> None:  # keep the lazy mapping as it is
        pass


def states(game: Game) -> Iterator[State]:
    """The state after every committed turn, in order. Tables are read through the game's
    across-turns tables, each table once for all turns and only when first used."""
    source = _TableHistory(game)
    for turn in game.store.turns():
        yield _HistoryState(turn, _TurnTables(source, turn))


def _subject_column(game: Game, standings: pl.DataFrame) -> str:
    """The standings column naming whom they rank (the ruleset's ``presentation.subject``)."""
    subject = game.ruleset.presentation.subject
    if subject not in standings.columns:
        raise ValueError(f"the {game.ruleset.title} standings have no '{subject}' column "
                         "(the ruleset's presentation.subject)")
    return subject


def player_series(game: Game, view: str | Viewer = "public") -> pl.DataFrame:
    """The players' standings over every committed turn, long: ``turn, player, metric, value``.

    Every numeric column of the ruleset's standings is a metric (for the Crown of Cien:
    provinces, income, treasury, spent_conquest, spent_defense, spent_invest), in the standings'
    column order; ``value`` is a Float64. The standings are those of the ruleset's view of each
    state for the viewer: the public view drops the ruleset's GM-only standings columns, a
    player's keeps them for that player alone.
    """
    v = _viewer(view)
    return series_of([turn_series(game, state, v) for state in states(game)])


def turn_series(game: Game, state: State, view: str | Viewer = "public") -> pl.DataFrame:
    """One turn's rows of :func:`player_series` (``state``: the GM's state after the turn),
    unordered; :func:`series_of` puts turns' rows together as :func:`player_series` does."""
    v = _viewer(view)
    hidden = set(game.ruleset.views.gm_only) if not v.is_gm else set()
    standings = game.ruleset.standings(game.viewed(state, v), game.context())
    if v.is_player and hidden:
        who = _subject_column(game, standings)
        standings = standings.with_columns(
            pl.when(pl.col(who) == v.player_id).then(pl.col(c)).otherwise(None).alias(c)
            for c in hidden if c in standings.columns)
    who = _subject_column(game, standings)
    numeric = [c for c, t in standings.schema.items()
               if c != who and (v.is_player or c not in hidden) and t.is_numeric()]
    if not numeric or standings.is_empty():
        return pl.DataFrame(schema=SERIES_SCHEMA)
    return standings.select(
        pl.lit(state.turn, pl.Int64).alias("turn"),
        pl.col(who).cast(pl.String).alias("player"),
        *[pl.col(c).cast(pl.Float64) for c in numeric],
    ).unpivot(index=["turn", "player"], variable_name="metric", value_name="value") \
        .filter(pl.col("value").is_not_null() | ~pl.col("metric").is_in(list(hidden))) \
        .cast(SERIES_SCHEMA)  # type: ignore[arg-type]


def series_of(frames: Iterable[pl.DataFrame]) -> pl.DataFrame:
    """Turns' :func:`turn_series` rows (in turn order) as one :func:`player_series` frame:
    metric by metric, in the order they first appear, each in turn order."""
    frames = [f for f in frames if not f.is_empty()]
    if not frames:
        return pl.DataFrame(schema=SERIES_SCHEMA)
    out = pl.concat(frames, how="vertical_relaxed").cast(SERIES_SCHEMA)  # type: ignore[arg-type]
    order = {m: i for i, m in enumerate(out["metric"].unique(maintain_order=True).to_list())}
    return (out.with_columns(pl.col("metric").replace_strict(order, return_dtype=pl.Int64)
                             .alias("_m"))
            .sort(["_m", "turn"], maintain_order=True).drop("_m"))


SUBJECT_SCHEMA = {"turn": pl.Int64, "entity": pl.String, "player": pl.String,
                  "metric": pl.String, "value": pl.Float64}


def subject_series(game: Game, subject: str, view: str | Viewer = "public") -> pl.DataFrame:
    """Another subject than the standings' over every committed turn, long: ``turn, entity,
    player, metric, value`` (``entity``: the character, say) (the ruleset's :meth:`~gmkit.core.ruleset.Ruleset.subject_table` of
    each state as the viewer sees it; a value the viewer may not see is left out)."""
    if subject not in game.ruleset.presentation.series:
        known = ", ".join(game.ruleset.presentation.series) or "none"
        raise ValueError(f"{game.ruleset.title} follows no subject '{subject}' (it follows: "
                         f"{known})")
    v = _viewer(view)
    frames = []
    subject_table = game.ruleset.presentation.subject_table
    for state in states(game):
        table = None if subject_table is None else subject_table(game.viewed(state, v), subject, game.context())
        if table is None or table.is_empty():
            continue
        numeric = [c for c, t in table.schema.items()
                   if c not in ("entity", "player") and t.is_numeric()]
        if not numeric:
            continue
        frames.append(table.select(
            pl.lit(state.turn, pl.Int64).alias("turn"),
            pl.col("entity").cast(pl.String), pl.col("player").cast(pl.String),
            *[pl.col(c).cast(pl.Float64) for c in numeric],
        ).unpivot(index=["turn", "entity", "player"], variable_name="metric",
                  value_name="value").filter(pl.col("value").is_not_null()))
    if not frames:
        return pl.DataFrame(schema=SUBJECT_SCHEMA)
    return pl.concat(frames, how="vertical_relaxed").cast(SUBJECT_SCHEMA)  # type: ignore[arg-type]


def metrics(series: pl.DataFrame) -> list[str]:
    """The metrics of a :func:`player_series` frame, in order."""
    return series["metric"].unique(maintain_order=True).to_list()


def players(game: Game, view: str | Viewer = "public") -> list[str]:
    """The game's players, for a filter: those ``game.toml`` lists, in its order, then anyone
    else the event log names."""
    out = [p.id for p in game.everyone()]
    for pid in _events(game, view)["player"].drop_nulls().unique(maintain_order=True).to_list():
        if pid not in out:
            out.append(pid)
    return out


def player_colours(game: Game) -> dict[str, str]:
    """Each player's colour as the ruleset gives it, over the set-up and the latest turn
    (so a player knocked out since still has theirs)."""
    out: dict[str, str] = {}
    turns = game.store.turns()
    for turn in dict.fromkeys([turns[-1], turns[0]] if turns else []):
        for player, colour in game.colours(game.state(turn)).items():
            out.setdefault(player, colour)
    return out


# ------------------------------------------------------------------------------------------------
# Events
# ------------------------------------------------------------------------------------------------


def _events(game: Game, view: str | Viewer) -> pl.DataFrame:
    return visible_events(game.history("events"), _viewer(view))


def timeline(game: Game, *, players: Iterable[str] | None = None,
             kinds: Iterable[str] | None = None,
             view: str | Viewer = "public", events: pl.DataFrame | None = None
             ) -> pl.DataFrame:
    """The events of every turn: ``turn, step, kind, player, region, text, public``.

    ``players`` / ``kinds`` keep only the events of those players / kinds (None keeps all; an
    empty selection keeps none). The public view drops the events that are not public; a
    player's keeps those that concern that player. ``events``: the viewer's events across
    the turns when already read (as ``view`` sees them, with ``turn``).
    """
    events = _events(game, view) if events is None else events
    if players is not None:
        events = events.filter(pl.col("player").is_in(list(players)))
    if kinds is not None:
        events = events.filter(pl.col("kind").is_in(list(kinds)))
    return events.select(TIMELINE_COLUMNS)


def event_kinds(game: Game, view: str | Viewer = "public") -> list[str]:
    """The kinds of event the game's history holds (sorted), for a filter."""
    return sorted(_events(game, view)["kind"].drop_nulls().unique().to_list())


# ------------------------------------------------------------------------------------------------
# Dice
# ------------------------------------------------------------------------------------------------


def _parse_dice(expression: str) -> tuple[int, int] | None:
    spec = DiceSpec.of(expression)  # the log writes dice one way only
    if spec is None:
        return None
    return (spec.count, spec.sides) if spec.count >= 1 and spec.sides >= 1 else None


def _convolve(a: list[float], b: list[float]) -> list[float]:
    import numpy as np

    if len(a) * len(b) <= 4_000_000:
        return np.convolve(a, b).tolist()
    n = len(a) + len(b) - 1
    size = 1 << (n - 1).bit_length()
    out = np.fft.irfft(np.fft.rfft(a, size) * np.fft.rfft(b, size), size)[:n]
    return np.clip(out, 0.0, None).tolist()


def _sum_pmf(count: int, sides: int) -> tuple[int, list[float]]:
    """``(lowest total, probabilities from it)`` of the sum of ``count`` dice of ``sides``: the
    core's distribution of one die, convolved with itself in floats (the core's exact fractions
    take seconds for a few hundred dice)."""
    one = dice_distribution(1, sides)
    die = [float(one[t]) for t in range(1, sides + 1)]
    result: list[float] = [1.0]
    power, n = die, count
    while n:  # exponentiation by squaring over convolutions
        if n & 1:
            result = _convolve(result, power)
        n >>= 1
        if n:
            power = _convolve(power, power)
    return count, result


def luck_percentile(dice: Mapping[int, int], total: int) -> float:
    """Where ``total`` falls, from 0 to 100, in the exact distribution of the sum of ``dice``
    (sides -> how many dice): ``100 * (P(sum < total) + P(sum == total) / 2)``.

    The half of the tie makes an average result score 50 whatever the dice, the best possible
    result near 100 and the worst near 0 (a single d10 showing 10 scores 95).
    """
    low, pmf = 0, [1.0]
    for sides, count in sorted(dice.items()):
        if count <= 0:
            continue
        start, part = _sum_pmf(count, sides)
        low += start
        pmf = _convolve(pmf, part)
    i = total - low
    if i < 0:
        return 0.0
    if i >= len(pmf):
        return 100.0
    below = sum(pmf[:i])
    return max(0.0, min(100.0, 100.0 * (below + pmf[i] / 2)))


def dice_report(game: Game, view: str | Viewer = "public",
                rolls: pl.DataFrame | None = None) -> pl.DataFrame:
    """How each player's dice fell over the whole game, one row per player.

    Only dice (``NdK`` expressions) count, not choices, shuffles or uniform draws; dice entered
    by the GM count too (``entered`` says how many). Rolls of no player are under ``"—"``. The
    public view keeps only public rolls, a player's also the hidden rolls of that player. Columns: ``player, rolls, entered, dice, total,
    expected_total, total_minus_expected, mean_face, expected_face, luck`` where the expected
    figures take ``(K + 1) / 2`` per die of K faces and ``luck`` is :func:`luck_percentile` of the
    player's total of faces (0 to 100, 50 = average; rounded to 6 decimals, so that it reads the
    same whatever the platform's last bit of floating-point rounding). ``rolls``: the
    viewer's rolls across the turns when already read (as ``view`` sees them).
    """
    if rolls is None:
        rolls = visible_rolls(game.history("rolls"), _viewer(view))
    acc: dict[str, dict] = {}
    for row in rolls.select("expression", "result", "source", "player").iter_rows(named=True):
        parsed = _parse_dice(row["expression"])
        if parsed is None:
            continue
        count, sides = parsed
        try:
            faces = json.loads(row["result"])
        except (TypeError, ValueError):
            continue
        if isinstance(faces, int) and not isinstance(faces, bool):
            faces = [faces]
        if not isinstance(faces, list) or not all(isinstance(f, int) for f in faces):
            continue
        who = row["player"] if row["player"] is not None else NO_PLAYER
        a = acc.setdefault(who, {"rolls": 0, "entered": 0, "dice": {}, "total": 0})
        a["rolls"] += 1
        a["entered"] += row["source"] == "entered"
        a["dice"][sides] = a["dice"].get(sides, 0) + len(faces)
        a["total"] += sum(faces)
    order = [p.id for p in game.players_from_config(game.config) if p.id in acc]
    order += sorted(p for p in acc if p not in order and p != NO_PLAYER)
    order += [NO_PLAYER] if NO_PLAYER in acc else []
    rows = []
    for who in order:
        a = acc[who]
        n = sum(a["dice"].values())
        expected = sum(c * (k + 1) / 2 for k, c in a["dice"].items())
        rows.append({"player": who, "rolls": a["rolls"], "entered": a["entered"], "dice": n,
                     "total": a["total"], "expected_total": expected,
                     "total_minus_expected": a["total"] - expected,
                     "mean_face": a["total"] / n, "expected_face": expected / n,
                     "luck": round(luck_percentile(a["dice"], a["total"]), 6)})
    return pl.DataFrame(rows, schema=DICE_SCHEMA, orient="row")


# ------------------------------------------------------------------------------------------------
# The map
# ------------------------------------------------------------------------------------------------


def map_at(game: Game, turn: int, view: str | Viewer = "public") -> str:
    """The map as SVG after ``turn`` (turn 0: the set-up), drawn from the ruleset's view of the
    state for ``view``; a small SVG saying so for a game without a map. Raises ValueError for a
    turn that is not committed."""
    v = _viewer(view)
    turns = game.store.turns()
    if turn not in turns:
        raise ValueError(f"turn {turn} is not committed (turns {turns[0]} to {turns[-1]})"
                         if turns else "no turn is committed")
    title = "The set-up (turn 0)" if turn == 0 else f"After turn {turn}"
    svg = game.map_svg(game.state(turn, viewer=v),
                       title=f"{game.title} \u2014 {title}")
    if svg is None:
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="320" height="40">'
                f'<text x="8" y="24">{escape(game.title)}: no map</text></svg>')
    return svg
