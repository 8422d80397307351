"""The GM's desk: a game folder opened for interactive play in a notebook.

The turn notebooks (``notebooks/turn.py`` for marimo, ``notebooks/turn.ipynb`` for Jupyter) hold no
game logic: every cell asks a :class:`Desk`. A desk wraps a :class:`~gmkit.game.Game` and keeps
the turn being resolved (a :class:`~gmkit.game.TurnSession`)::

    desk = Desk.open(Desk.working_copy("data/sample-cien", "out/turn-notebook/sample-cien"))
    desk.overview()                                # turn, standings (GM view), who has posted
    desk.preview_post("Red", post, secret=False)   # how a post reads, without storing it
    desk.receive("Red", post)                      # store it
    desk.odds()                                    # exact odds of every conquest
    desk.commitment()                              # post this hash before resolving
    desk.step(); desk.back(); desk.run_all()       # a StepView each: events, dice, changes, map
    desk.enter_die("conquest:attack/Tróys/Red", 7) # a die rolled elsewhere; replays the steps
    desk.commit(); desk.reveal(); desk.publish_reports()

Every failure a GM can cause (a wrong folder, a post without orders, a die that does not fit, a
commit that fails) raises :class:`DeskError` with a message meant to be shown as it is; the game
folder is then exactly as it was before the call.

Dice the GM enters are kept in the store beside the pending posts
(:meth:`~gmkit.core.store.GameStore.save_pending_dice`), so they survive a restart of the
notebook.
"""

from __future__ import annotations

import contextlib
import difflib
import html
import os
import shutil
import threading
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import polars as pl

from gmkit.core.dice import Dice, DiceError, Roll, check_entered, parse_die_value
from gmkit.core.envelope import Orders
from gmkit.core.maps import Arrow
from gmkit.core.orders import OrderError
from gmkit.core.steps import Driver, Event, StepRecord
from gmkit.core.tables import ORDERS_SCHEMA
from gmkit.core.files import StoreError
from gmkit.core.tables import SchemaError, State
from gmkit.game import Game, GameError, TurnSession

__all__ = [
    "Desk",
    "DeskError",
    "Overview",
    "PostPreview",
    "Published",
    "StepView",
    "TurnSoFar",
    "callout_html",
    "frame_html",
    "iframe_html",
    "repo_root",
    "sample_working_copy",
    "svg_image",
    "table_changes",
    "zoomable_map",
]

#: The game bundled with gmkit; the desk never writes into it.
BUNDLED_SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample-cien"
#: Where the notebooks keep their working copy of the sample, relative to the repository root.
WORKING_COPY = Path("out") / "turn-notebook" / "sample-cien"
#: The file that marks a folder as a working copy made by :meth:`Desk.working_copy`.
COPY_MARKER = ".gmkit-working-copy"

#: How many drawn maps the desk keeps (a turn's steps, before and after, the orders).
_SVG_CACHE = 48

_OPEN_ERRORS = (GameError, StoreError, SchemaError, KeyError, OSError, ValueError)


class DeskError(ValueError):
    """Something the GM asked that cannot be done; the message says why, ready to show."""


from gmkit.desk.views import (  # noqa: E402  (re-exported: the desk's views)
    _DICE_SCHEMA, _EVENT_SCHEMA, Overview, PostPreview, Published, StepView, TurnSoFar,
    _dice_frame, callout_html, frame_html, svg_image, table_changes, zoomable_map,
)

# ------------------------------------------------------------------------------------------------
# Helpers
# ------------------------------------------------------------------------------------------------


def repo_root(start: str | Path | None = None) -> Path:
    """The gmkit checkout holding ``data/sample-cien``: searched upwards from ``start`` (default:
    the working directory), else the one this module lives in."""
    here = Path(start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "data" / "sample-cien" / "game.toml").is_file():
            return folder
    return BUNDLED_SAMPLE.parent.parent


def sample_working_copy(root: str | Path | None = None, *, fresh: bool = False,
                        name: str | None = None, into: str | Path | None = None,
                        sample: str = "cien") -> Path:
    """The notebooks' working copy of a bundled sample (``data/sample-<sample>``):
    ``out/turn-notebook/<name>`` (default ``sample-<sample>``) of the checkout found from ``root``
    (or ``into``), made on first use and then reused (``fresh``: made again)."""
    base = repo_root(root)
    source = base / "data" / f"sample-{sample}"
    if "/" in sample or "\\" in sample or not source.is_dir():
        known = sorted(p.name.removeprefix("sample-") for p in (base / "data").glob("sample-*"))
        raise DeskError(f"no bundled sample '{sample}' (known: {', '.join(known)})")
    target = Path(into) if into else base / WORKING_COPY.parent / (name or f"sample-{sample}")
    return Desk.working_copy(source, target, fresh=fresh)


def _parse_value(value: Any) -> Any:
    try:
        return parse_die_value(value)
    except DiceError as e:
        raise DeskError(str(e)) from None


def _check_value(roll: Roll, value: Any) -> None:
    """Check an entered value against a known draw; raise DeskError naming the draw and die."""
    try:
        check_entered(roll, value)
    except DiceError as e:
        raise DeskError(str(e)) from None


# ------------------------------------------------------------------------------------------------
# The desk
# ------------------------------------------------------------------------------------------------


class Desk:
    """A game opened for a GM at a notebook: the turn being played and every action on it."""

    def __init__(self, game: Game):
        self.game = game
        self.session: TurnSession | None = None
        self._views: dict[int, tuple[StepRecord, StepView]] = {}
        self._shadow: tuple[Any, Any, list[Roll]] | None = None
        self._svg: dict[tuple[Any, ...], tuple[State, str]] = {}  # oldest first
        #: The summaries written last by :meth:`publish_reports`.
        self.published: Published | None = None

    # -- opening ---------------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | Path) -> Desk:
        """Open a game folder; a wrong folder is a :class:`DeskError` saying what is wrong."""
        root = Path(path).expanduser()
        if not str(path).strip():
            raise DeskError("no game folder given")
        if not root.exists():
            raise DeskError(f"{root}: no such game folder")
        if not root.is_dir():
            raise DeskError(f"{root}: not a folder (a game is a folder holding game.toml)")
        if root.resolve() == BUNDLED_SAMPLE:
            raise DeskError(f"{root} is the sample game bundled with gmkit; play a working copy "
                            "of it (Desk.working_copy) so that it stays as shipped")
        try:
            game = Game.open(root)
            game.turn()  # the latest committed turn, checked against its manifest
        except _OPEN_ERRORS as e:
            msg = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
            raise DeskError(f"cannot open the game: {msg}") from None
        return cls(game)

    @staticmethod
    def working_copy(source: str | Path, into: str | Path, *, fresh: bool = False) -> Path:
        """A copy of the game folder ``source`` at ``into`` to play on (``source`` is only read).

        Made once and then reused; ``fresh`` replaces a copy made earlier by this method (never
        any other folder). The copy is written aside and renamed into place, so an interrupted
        copy is never mistaken for a game."""
        source, into = Path(source), Path(into)
        if not (source / "game.toml").is_file():
            raise DeskError(f"{source}: not a game folder (no game.toml)")
        if into.exists():
            if not fresh:
                if not (into / "game.toml").is_file():
                    raise DeskError(f"{into}: exists and is not a game folder")
                return into
            if not (into / COPY_MARKER).is_file():
                raise DeskError(f"{into}: not a working copy made by the desk; not replacing it")
            shutil.rmtree(into)
        into.parent.mkdir(parents=True, exist_ok=True)
        staging = into.parent / f".{into.name}.copying-{os.getpid()}"
        shutil.rmtree(staging, ignore_errors=True)
        shutil.copytree(source, staging, ignore=shutil.ignore_patterns(".lock", COPY_MARKER))
        (staging / COPY_MARKER).write_text(f"a working copy of {source.name}\n", "utf-8")
        try:
            os.rename(staging, into)
        except OSError:
            shutil.rmtree(staging, ignore_errors=True)
            if not (into / "game.toml").is_file():
                raise
        return into

    # -- reading ---------------------------------------------------------------------------------
    @property
    def root(self) -> Path:
        return self.game.root

    @property
    def title(self) -> str:
        return self.game.title

    @property
    def turn(self) -> int:
        """The turn orders are for (the one being resolved)."""
        return self.game.next_turn

    def players(self) -> list[str]:
        """Who may post orders: those expected to move first, then the others (a free colour
        may join, for instance)."""
        state = self.game.coming_state()
        ids = self.game.player_ids(state)
        to_move = [p for p in self.game.ruleset.players_to_move(state) if p in ids]
        return to_move + [p for p in ids if p not in to_move]

    def overview(self) -> Overview:
        """The current turn: standings (GM view, with each player's holdings), who has posted."""
        game = self.game
        state = game.state()
        standings = game.ruleset.standings(state, game.rules)
        to_move = game.ruleset.players_to_move(state) or game.player_ids(state)
        posts = game.store.pending_posts(game.next_turn)
        sent = set(posts["player"].to_list())
        if "player" in standings.columns:
            standings = standings.with_columns(
                pl.when(pl.col("player").is_in(list(sent))).then(pl.lit("received"))
                .when(pl.col("player").is_in(list(to_move))).then(pl.lit("waiting"))
                .otherwise(pl.lit("\u2014")).alias("orders"))
            holdings = game.ruleset.holdings(state)
            if holdings is not None:
                standings = standings.join(holdings, on="player", how="left")
        return Overview(game.title, game.ruleset.title, game.latest_turn, game.next_turn,
                        standings, tuple(p for p in to_move if p in sent),
                        tuple(p for p in to_move if p not in sent), posts.height,
                        game.turn().outcome)

    def map_svg(self, state: State | None = None, *, title: str | None = None,
                highlight: Iterable[str] = (), arrows: Sequence[Arrow] = ()) -> str | None:
        """The map drawn for ``state`` (the latest committed state by default) as SVG: the
        ruleset's fills, labels, stacks and arrows, then ``arrows``."""
        state = self.game.state() if state is None else state
        game_map = self.game.map
        marked = tuple(sorted(n for n in highlight if game_map is not None and
                              n in game_map.regions))
        key = (tuple(id(df) for df in state.tables.values()), title, marked, tuple(arrows))
        cached = self._svg.get(key)
        if cached is not None:
            return cached[1]
        svg = self.game.map_svg(state, title=title, arrows=arrows, highlight=marked)
        if svg is None:  # no map, and the ruleset draws no board of its own
            return None
        self._svg[key] = (state, svg)  # the state is kept so that its tables' ids stay unique
        while len(self._svg) > _SVG_CACHE:
            del self._svg[next(iter(self._svg))]
        return svg

    def orders_svg(self, *, title: str | None = None) -> str | None:
        """The orders of the coming turn drawn as arrows on the map of the state before it: the
        orders received so far (those of the turn being resolved once it has started), each
        marked as succeeded or failed once a step run so far has decided it.

        None when the game has no map or the ruleset draws no arrow for these orders."""
        session = self._live_session()
        if session is not None:
            driver = session.driver
            state, orders = driver.start, driver.orders
            events = [e for r in driver.records for e in r.events]
        else:
            state = self.game.state()
            _, _, orders = self.game.read_orders(state, self._pending())
            events = []
        return self._orders_svg(state, orders, events,
                                title or f"Orders of turn {self.turn}")

    def _orders_svg(self, state: State, orders: Orders[Any], events: Sequence[Event],
                    title: str) -> str | None:
        if self.game.map is None and self.game.ruleset.scene(state, self.game.rules) is None:
            return None  # nothing to draw the orders on
        arrows = self.game.ruleset.order_arrows(state, orders, events, self.game.rules)
        return self.map_svg(state, title=title, arrows=arrows) if arrows else None

    # -- posts -----------------------------------------------------------------------------------
    def _player(self, player: str) -> str:
        ids = self.game.player_ids()
        match = [p for p in ids if p.casefold() == str(player or "").strip().casefold()]
        if not match:
            raise DeskError(f"no player '{player}' (players: {', '.join(ids)})")
        return match[0]

    def _pending(self) -> pl.DataFrame:
        return self.game.store.pending_posts(self.game.next_turn)

    def preview_post(self, player: str, text: str, secret: bool = False) -> PostPreview:
        """How a post reads, checked against the state and the other pending posts, without
        storing anything."""
        return self._preview(self._player(player), text or "", bool(secret), None)

    def _preview(self, player: str, text: str, secret: bool, seq: int | None) -> PostPreview:
        game = self.game
        state = game.coming_state()
        parsed = game.ruleset.parse_post(text, player, state, game.rules, secret=secret)
        orders = pl.DataFrame(
            [(line.number, line.text, game.ruleset.describe_order(order))
             for line, order in parsed.orders],
            schema={"line": pl.Int64, "text": pl.String, "reads as": pl.String}, orient="row")
        rejected = pl.DataFrame(
            [(e.line, e.text, e.reason) for e in parsed.errors],
            schema={"line": pl.Int64, "text": pl.String, "reason": pl.String}, orient="row")
        message = None
        if not text.strip():
            message = "the post is empty: paste the player's post or type the orders"
        elif not parsed.orders:
            first = parsed.errors[0] if parsed.errors else None
            if first is None or first.line is None:
                why = first.reason if first else "nothing in it reads as an order"
            else:
                more = len(parsed.errors) - 1
                why = f"every order line was rejected ({first}" + \
                    (f", and {more} more line(s))" if more else ")")
            message = f"no orders could be read from {player}'s post: {why}"
        pending = self._pending()
        if seq is None:
            new_seq = 1 + max(pending["seq"].to_list(), default=0)
            row = pl.DataFrame([{"seq": new_seq, "player": player, "secret": secret,
                                 "received": "", "text": text}], schema=dict(ORDERS_SCHEMA))
            posts = pl.concat([pending, row])
        else:
            new_seq, posts = seq, pending
        counted = set(game.effective_posts(posts)["seq"].to_list())
        counts, note = new_seq in counted, None
        if not counts:
            earlier = [s for s, p in pending.select("seq", "player").iter_rows()
                       if p == player and s != new_seq]
            policy = game.ruleset.counted_posts(game.rules)
            note = (f"this post will not count: under this game's rule only a player's "
                    f"{policy} post counts, and {player} has post(s) "
                    f"{', '.join(f'#{s}' for s in earlier)}; withdraw "
                    f"{'it' if len(earlier) == 1 else 'them'} to let this one count")
            # check it as if it replaced the other(s), so the GM sees whether it would be valid
            posts = posts.filter((pl.col("player") != player) | (pl.col("seq") == new_seq))
        problems: list[str] = []
        if text.strip():
            try:
                _, found, _ = game.read_orders(state, posts)
            except (OrderError, ValueError) as e:  # pragma: no cover - rulesets report, not raise
                found = {player: [OrderError(str(e))]}
            problems = [f"{e}  >  {e.text}" if e.text else str(e)
                        for e in found.get(player, [])]
        return PostPreview(player, secret, text, orders, rejected, tuple(problems),
                           parsed.report(), message, note, counts, seq)

    def receive(self, player: str, text: str, secret: bool = False, *,
                received: str | None = None, allow_empty: bool = False) -> PostPreview:
        """Store a player's post (a post with no orders is refused unless ``allow_empty``) and
        return how it reads; a turn being resolved takes the new orders at once."""
        pid = self._player(player)
        preview = self._preview(pid, text or "", bool(secret), None)
        if preview.message and not allow_empty:
            raise DeskError(f"{preview.message}; nothing was stored")
        stamp = received or datetime.now(timezone.utc).isoformat(timespec="seconds")
        try:
            seq, _ = self.game.store.add_post(self.game.next_turn, pid, text,
                                              secret=bool(secret), received=stamp)
        except (StoreError, OSError) as e:
            raise DeskError(f"the post was not stored: {e}") from None
        self._orders_changed()
        return PostPreview(preview.player, preview.secret, preview.text, preview.orders,
                           preview.rejected, preview.problems, preview.parse_report,
                           preview.message, preview.note, preview.counts, seq)

    def posts(self) -> pl.DataFrame:
        """The pending posts for this turn: seq, player, secret, whether it counts, the text."""
        pending = self._pending()
        counted = set(self.game.effective_posts(pending)["seq"].to_list())
        return pending.sort("seq").select(
            "seq", "player", "secret",
            pl.col("seq").is_in(list(counted)).alias("counts"),
            "received", "text")

    def withdraw(self, seq: int) -> None:
        """Set a pending post aside (kept in ``pending/withdrawn``); a turn being resolved
        drops its orders at once."""
        try:
            seq = int(seq)
        except (TypeError, ValueError):
            raise DeskError(f"{seq!r} is not a post number") from None
        if seq not in self._pending()["seq"].to_list():
            known = ", ".join(f"#{s}" for s in self._pending()["seq"].to_list()) or "none"
            raise DeskError(f"no pending post #{seq} for turn {self.turn} (pending: {known})")
        try:
            self.game.store.withdraw_post(seq)
        except (StoreError, OSError) as e:
            raise DeskError(f"post #{seq} was not withdrawn: {e}") from None
        self._orders_changed()

    def _orders_changed(self) -> None:
        session = self._live_session()
        if session is None:
            return
        posts = self._pending()
        parsed, problems, orders = self.game.read_orders(session.driver.start, posts)
        session.posts, session.parsed, session.problems, session.orders = \
            posts, parsed, problems, orders
        steps_run = len(session.driver.records)
        session.driver.restart(orders=orders)
        self._forget()
        try:
            self._replay(steps_run)
        except DiceError as e:
            session.driver.restart()
            self._forget()
            raise DeskError(f"the orders changed and the steps could not be replayed: {e}; "
                            "back at the start of the turn") from None

    # -- seeds -----------------------------------------------------------------------------------
    def commitment(self) -> str:
        """The dice commitment to post before resolving this turn (makes the seed if needed)."""
        try:
            return self.game.commitment()
        except (GameError, StoreError, OSError) as e:
            raise DeskError(f"no commitment: {e}") from None

    # -- guarding the dice: deadline, seal, beacon ------------------------------------------------
    def dice_guard(self) -> list[str]:
        """What guards this turn's dice, a line each: its commitment, order deadline and, in a
        game mixing its dice with a beacon, its seal and beacon (or what is still to do)."""
        got = self.game.coming_dice()
        lines = [f"Commitment: {got['commitment'] or 'not made yet'}",
                 "Order deadline: " + (got["deadline"]["deadline"] if got["deadline"] else
                                       "not set")]
        if got["beacon_kind"] is not None:
            lines.append("Seal: " + (f"{got['seal']['digest']} ({len(got['seal']['posts'])} "
                                     "post(s))" if got["seal"] else
                                     "not sealed yet (seal after the deadline, before the "
                                     "beacon round)"))
            lines.append(f"Beacon ({got['beacon_kind']}): " + (
                f"{got['beacon']['beacon']['source']} round {got['beacon']['beacon']['round']}"
                if got["beacon"] else "not entered yet"))
        return lines

    def set_deadline(self, time: str) -> str:
        """Set this turn's order deadline (ISO 8601 with its zone); what was set, in words."""
        try:
            entry = self.game.set_deadline(str(time or "").strip())
        except (GameError, StoreError, OSError, ValueError) as e:
            raise DeskError(f"deadline not set: {e}") from None
        return f"Turn {self.turn}'s order deadline is {entry['deadline']}."

    def seal(self) -> str:
        """Seal this turn on the posts in and the dice entered so far (before the beacon
        round); the seal's digest, to post."""
        try:
            entry = self.game.seal(self._saved_dice())
        except (GameError, StoreError, OSError, ValueError) as e:
            raise DeskError(f"not sealed: {e}") from None
        return (f"Turn {self.turn} sealed on {len(entry['posts'])} post(s) and "
                f"{len(entry['entered'])} entered dice: post the seal {entry['digest']}.")

    def enter_beacon(self, *, round: str = "", randomness: str = "", signature: str = "",
                     source: str = "", value: str = "") -> str:
        """Enter this turn's beacon: a drand round and its signature (checked offline), or a
        named source and its value."""
        try:
            entry = self.game.enter_beacon(
                round=round.strip() or None, randomness=randomness.strip() or None,
                signature=signature.strip() or None, source=source.strip() or None,
                value=value if source.strip() else None)
        except (GameError, StoreError, OSError, ValueError) as e:
            raise DeskError(f"beacon refused: {e}") from None
        self.session = None  # the turn now resolves with the beacon-mixed seed
        self._forget()
        got = entry["beacon"]
        return (f"Turn {self.turn}'s beacon: {got['source']} round {got['round']} "
                f"({'signature checked' if got['check'] != 'entered' else 'entered'}).")

    # -- resolving -------------------------------------------------------------------------------
    def _saved_dice(self) -> dict[str, Any]:
        try:
            return self.game.store.pending_dice(self.turn)
        except StoreError as e:
            raise DeskError(str(e)) from None

    def _save_dice(self, entered: Mapping[str, Any]) -> None:
        self.game.store.save_pending_dice(self.turn, entered)

    def _live_session(self) -> TurnSession | None:
        if self.session is not None and self.session.turn != self.game.next_turn:
            self.session = None  # committed elsewhere meanwhile
            self._forget()
        return self.session

    def _forget(self) -> None:
        self._views.clear()
        self._shadow = None

    def begin(self, entered: Mapping[str, Any] | None = None) -> TurnSession:
        """Start resolving this turn with the posts received so far (and the dice entered so
        far); the session is kept on the desk."""
        outcome = self.game.turn().outcome
        if outcome:
            raise DeskError(f"the game is over: {outcome}")
        dice = self._saved_dice()
        dice.update(entered or {})
        try:
            self.session = self.game.start(entered=dice)
        except (GameError, StoreError, OSError) as e:
            raise DeskError(f"cannot start turn {self.turn}: {e}") from None
        self._forget()
        if entered:
            self._save_dice(dice)
        return self.session

    def _ensure(self) -> TurnSession:
        return self._live_session() or self.begin()

    @property
    def position(self) -> int:
        """How many steps have run."""
        session = self._live_session()
        return len(session.driver.records) if session else 0

    @property
    def step_count(self) -> int:
        return len(self.game.ruleset.steps(self.game.rules))

    def _replay(self, steps: int) -> None:
        driver = self._ensure().driver
        while len(driver.records) < steps and not driver.done:
            driver.next()

    def _view(self, index: int) -> StepView:
        driver = self._ensure().driver
        record = driver.records[index]
        cached = self._views.get(index)
        if cached is not None and cached[0] is record:
            return cached[1]
        events = pl.DataFrame(
            [(e.kind, e.player, e.region, "public" if e.public else "GM only", e.text)
             for e in record.events], schema=_EVENT_SCHEMA, orient="row")
        changes: dict[str, pl.DataFrame] = {}
        marked: set[str] = set()
        for name, after in record.after.tables.items():
            before = record.before.tables.get(name)
            diff = table_changes(before, after) if before is not None else None
            if diff is not None:
                changes[name] = diff
                marked.update(diff[diff.columns[0]].to_list())
        # the next unit: a step, or an actor's action of a per-actor step
        if index + 1 < len(driver.records):
            nxt: str | None = driver.records[index + 1].title
        elif driver.next_step is not None:
            actor = driver.next_actor
            nxt = driver.next_step.title + (f": {actor}" if actor else "")
        else:
            nxt = None
        svg = self.map_svg(record.after, title=f"Turn {self.turn}, after step {index + 1}: "
                           f"{record.title}", highlight=marked)
        so_far = [e for r in driver.records[:index + 1] for e in r.events]
        orders_svg = self._orders_svg(driver.start, driver.orders, so_far,
                                      f"Orders of turn {self.turn}, as decided after step "
                                      f"{index + 1} of {len(driver.steps)}")
        view = StepView(index + 1, len(driver.steps), record.step.name, record.title,
                        record.step.rule, events, _dice_frame(record.rolls), changes, svg, nxt,
                        orders_svg)
        self._views[index] = (record, view)
        return view

    def current(self) -> StepView | None:
        """The last step run (None before the first)."""
        return self._view(self.position - 1) if self.position else None

    def views(self) -> list[StepView]:
        """Every step run so far."""
        return [self._view(i) for i in range(self.position)]

    def turn_so_far(self) -> TurnSoFar:
        """The whole turn as resolved so far, at a glance: every step run with its events and
        dice, and the map before the turn and after the last step run."""
        session = self._live_session()
        views = self.views()
        before = after = None
        if session is not None:
            driver = session.driver
            before = self.map_svg(driver.start, title=f"Turn {self.turn}: before the turn")
            if driver.records:
                last = driver.records[-1]
                after = self.map_svg(last.after, title=f"Turn {self.turn}, after step "
                                     f"{len(driver.records)}: {last.step.title}")
        return TurnSoFar(self.turn, self.step_count, tuple(views), before, after)

    @property
    def next_title(self) -> str | None:
        """The title of the step that :meth:`step` would run."""
        session = self._live_session()
        steps = session.driver.steps if session else self.game.ruleset.steps(self.game.rules)
        return steps[self.position].title if self.position < len(steps) else None

    def step(self) -> StepView:
        """Run the next step and show it."""
        driver = self._ensure().driver
        if driver.done:
            raise DeskError("every step has run: commit the turn, or step back to change it")
        try:
            driver.next()
        except DiceError as e:
            raise DeskError(str(e)) from None
        return self._view(len(driver.records) - 1)

    def back(self) -> StepView | None:
        """Undo the last step; returns the step now last (None when back at the start)."""
        session = self._live_session()
        if session is None or not session.driver.records:
            raise DeskError("no step to undo: the turn is at its start")
        session.driver.back()
        return self.current()

    def run_all(self) -> StepView:
        """Run every remaining step; returns the last."""
        driver = self._ensure().driver
        try:
            driver.run_all()
        except DiceError as e:
            raise DeskError(str(e)) from None
        return self._view(len(driver.records) - 1)

    def restart(self) -> None:
        """Back to the start of the turn, with the posts as they are now in the game folder (a
        post added meanwhile by the ``gmkit`` command counts) and the dice entered so far."""
        session = self._live_session()
        if session is not None:
            self.begin(session.entered)

    # -- dice ------------------------------------------------------------------------------------
    def entered(self) -> dict[str, Any]:
        """The dice entered for this turn so far."""
        session = self._live_session()
        return dict(session.entered) if session else self._saved_dice()

    def _all_rolls(self) -> list[Roll]:
        """Every draw of the whole turn with the current orders and entered dice (resolved on
        the side; the turn's own position does not move)."""
        session = self._ensure()
        driver = session.driver
        key = tuple(sorted((k, repr(v)) for k, v in driver.dice.entered.items()))
        if self._shadow is not None and self._shadow[0] is driver.orders \
                and self._shadow[1] == key:
            return self._shadow[2]
        shadow = Driver(driver.steps, driver.start, driver.orders,
                        Dice(driver.dice.seed, driver.dice.turn, entered=dict(driver.dice.entered)),
                        driver.rules, driver.rules_at)
        try:
            shadow.run_all()
        except DiceError:
            pass
        rolls = shadow.rolls
        self._shadow = (driver.orders, key, rolls)
        return rolls

    def draws(self) -> pl.DataFrame:
        """Every draw the turn makes (as resolved now): step, draw id, purpose, die, result,
        source; the ids to use with :meth:`enter_die`."""
        rolls = self._all_rolls()
        frame = _dice_frame(rolls)
        return frame.with_columns(pl.Series("step", [r.step for r in rolls], pl.String)).select(
            "step", *_DICE_SCHEMA)

    def enter_die(self, draw_id: str, value: Any) -> StepView | None:
        """Use a die rolled elsewhere for ``draw_id``; the steps run so far are replayed with it.

        The value is checked against the draw (an 11 on a d10 is refused, naming the draw and
        the die); on any error nothing changes."""
        session = self._ensure()
        draw_id = str(draw_id or "").strip()
        if not draw_id:
            raise DeskError("enter the draw id of the die (e.g. conquest:attack/Tróys/Red)")
        value = _parse_value(value)
        rolls = {r.draw_id: r for r in self._all_rolls()}
        rolls.update({r.draw_id: r for r in session.driver.rolls})
        # a single die answers to its logged "<id>#0" and to the bare "<id>" of older dice files
        known = {k: r for r in rolls.values() for k in r.entry_ids}
        roll = known.get(draw_id)
        if roll is None:
            close = difflib.get_close_matches(draw_id, list(rolls), n=3, cutoff=0.6)
            hint = f"; did you mean {' or '.join(close)}?" if close else \
                f" (draws: {', '.join(list(rolls)[:8])}{', ...' if len(rolls) > 8 else ''})"
            raise DeskError(f"no draw '{draw_id}' in turn {self.turn}{hint}")
        _check_value(roll, value)
        entered = {k: v for k, v in session.entered.items() if k not in roll.entry_ids}
        entered[draw_id] = value
        self._apply_entered(entered)
        return self.current()

    def clear_die(self, draw_id: str) -> StepView | None:
        """Go back to the seeded die for ``draw_id``."""
        session = self._ensure()
        entered = dict(session.entered)
        roll = next((r for r in self._all_rolls() if draw_id in r.entry_ids), None)
        ids = [k for k in (roll.entry_ids if roll is not None else (draw_id,)) if k in entered]
        if not ids:
            raise DeskError(f"no die entered for '{draw_id}'")
        for k in ids:
            del entered[k]
        self._apply_entered(entered)
        return self.current()

    def _apply_entered(self, entered: dict[str, Any]) -> None:
        driver = self._ensure().driver
        old = dict(driver.dice.entered)
        steps_run = len(driver.records)
        driver.restart(entered=entered)
        self._forget()
        try:
            self._replay(steps_run)
            self._save_dice(entered)
        except (DiceError, OSError) as e:
            driver.restart(entered=old)
            self._forget()
            self._replay(steps_run)
            raise DeskError(f"{e}; the die was not entered") from None

    def odds(self) -> pl.DataFrame:
        """Exact odds of every contested action of the orders received so far."""
        session = self._live_session()
        if session is not None:
            return self.game.odds(session)
        state = self.game.coming_state()
        _, _, orders = self.game.read_orders(state, self._pending())
        return self.game.ruleset.odds(state, orders, self.game.rules)

    def problems(self) -> pl.DataFrame:
        """Every rejected line and validation problem of the posts that count: player, problem."""
        game = self.game
        parsed, found, _ = game.read_orders(game.coming_state(), self._pending())
        rows = [(p, f"{e}  >  {e.text}" if e.text else str(e))
                for p, result in parsed.items() for e in [*result.errors, *found.get(p, [])]]
        return pl.DataFrame(rows, schema={"player": pl.String, "problem": pl.String},
                            orient="row")

    # -- committing and publishing ---------------------------------------------------------------
    def commit(self) -> int:
        """Commit the turn once every step has run; returns the committed turn number.

        On failure nothing is half-written: the last good turn and the pending posts are as they
        were, the turn being resolved is kept, and :class:`DeskError` says what went wrong."""
        session = self._live_session()
        if session is None or not session.driver.done:
            raise DeskError(f"run every step of turn {self.turn} before committing it (Run all "
                            "steps), so that the whole turn has been seen")
        before = self.game.latest_turn
        try:
            data = self.game.commit(session)
        except Exception as e:  # noqa: BLE001 - every failure is reported, the state checked
            after = self._latest_or(before)
            if after == session.turn:  # the turn is in; only setting its posts aside failed
                with contextlib.suppress(Exception):
                    self.game.store.clear_posts(session.turn)
                self._committed(session.turn)
                raise DeskError(f"turn {session.turn} was committed, but setting its posts "
                                f"aside failed: {e}") from e
            raise DeskError(f"turn {session.turn} was not committed: {e}. Nothing was written: "
                            f"turn {before} is still the last committed turn and the pending "
                            "posts and entered dice are kept.") from e
        self._committed(data.turn)
        return data.turn

    def _latest_or(self, default: int) -> int:
        try:
            return self.game.latest_turn
        except Exception:  # noqa: BLE001
            return default

    def _committed(self, turn: int) -> None:
        self.game.store.set_aside_dice(turn)
        self.session = None
        self._forget()

    def reveal(self) -> str:
        """Reveal the last committed turn's seed (checked against its commitment).

        Summaries of that turn written before the reveal (which say the seed is not revealed
        yet) are written again with it, into the same folder; :attr:`published` is then the new
        one."""
        try:
            seed = self.game.reveal()
        except (GameError, StoreError, OSError) as e:
            raise DeskError(f"cannot reveal: {e}") from None
        turn = self.game.latest_turn
        earlier = self.published if self.published is not None and \
            self.published.turn == turn else None
        folder = earlier.folder if earlier is not None and earlier.folder is not None \
            else self.root / "reports"
        if (earlier is not None and not earlier.revealed) or (
                earlier is None and (folder / f"turn-{turn:04d}-public.html").exists()):
            self.publish_reports(folder, turn=turn)
        return seed

    def publish_reports(self, out_dir: str | Path | None = None, *,
                        turn: int | None = None) -> Published:
        """Write the public and GM summaries of a committed turn (the latest by default) as HTML
        and BBCode into ``out_dir`` (default: the game folder's ``reports/``).

        Everything is rendered before anything is written, then each file is moved into place."""
        from gmkit.core.reports import render, write_report
        from gmkit.publish.summary import turn_report

        turn = self.game.latest_turn if turn is None else turn
        if turn == self.game.first_turn:
            raise DeskError(f"turn {turn} is the set-up: commit a turn before publishing its "
                            "summary")
        out = Path(out_dir) if out_dir is not None else self.root / "reports"
        try:
            report = turn_report(self.game, turn)
            pages = {view: render(report, view=view, fmt="html") for view in ("public", "gm")}
            posts = {view: render(report, view=view, fmt="bbcode") for view in ("public", "gm")}
        except Exception as e:  # noqa: BLE001
            raise DeskError(f"the summaries of turn {turn} could not be made: {e}; nothing "
                            "was written") from e
        paths: list[Path] = []
        try:
            out.mkdir(parents=True, exist_ok=True)
            for view in ("public", "gm"):
                for fmt in ("html", "bbcode"):
                    paths += write_report(report, out / f"turn-{turn:04d}-{view}.html"
                                          if fmt == "html" else out / f"turn-{turn:04d}-{view}",
                                          view=view, fmt=fmt, rendered=pages[view]
                                          if fmt == "html" else posts[view])
        except Exception as e:  # noqa: BLE001
            raise DeskError(f"writing the summaries failed: {e}") from e
        bbcode = {view: "\n\n".join(parts) for view, parts in posts.items()}
        self.published = Published(turn, tuple(paths), {k: str(v) for k, v in pages.items()},
                                   bbcode, self.game.store.seed_path(turn, revealed=True).exists(),
                                   out.resolve())
        return self.published

    def warm_up(self) -> threading.Thread:
        """Load what writing the summaries needs (the page template, the chart converter)
        in a background thread, so that the GM's first Write the summaries does not wait for
        it; returns the thread."""
        def load() -> None:
            with contextlib.suppress(Exception):
                import gmkit.publish.summary  # noqa: F401
                from gmkit.core.reports import warm_up
                warm_up()

        thread = threading.Thread(target=load, name="gmkit-desk-warm-up", daemon=True)
        thread.start()
        return thread


def iframe_html(page: str, height: int = 520) -> str:
    """A full HTML page shown in a sandboxed iframe (srcdoc)."""
    return (f"<iframe sandbox='' style='width:100%;height:{height}px;border:1px solid #ccc' "
            f"srcdoc=\"{html.escape(page, quote=True)}\"></iframe>")
