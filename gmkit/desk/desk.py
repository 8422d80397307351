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
import html
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from gmkit.core.dice import Dice, DiceError, Roll
from gmkit.core.envelope import Orders
from gmkit.core.parts import GM_POSTER
from gmkit.core.drawing.orders import DrawnOrders
from gmkit.core.drawing.scene import Arrow
from gmkit.core.steps import Event, StepRecord, condensed
from gmkit.core.files import StoreError
from gmkit.core.tables import SchemaError, State
from gmkit.game import Game, GameError, TurnSession
from gmkit.game.orders_drawn import draw_orders
from gmkit.desk.copies import BUNDLED_SAMPLE, DeskError, working_copy
from gmkit.desk.dicing import DeskDice
from gmkit.desk.posting import DeskPosts
from gmkit.desk.views import (_EVENT_SCHEMA, Overview, Published, StepView, TurnSoFar, _dice_frame,
                              table_changes)


#: How many drawn maps the desk keeps (a turn's steps, before and after, the orders).
_SVG_CACHE = 48
#: hexes on the GM's screen are drawn up to this wide, in pixels (a report's, 36): the map
#: then has room for its title and legend at the size they are read
DESK_HEX_PX = 54.0

_OPEN_ERRORS = (GameError, StoreError, SchemaError, KeyError, OSError, ValueError)




# ------------------------------------------------------------------------------------------------
# The desk
# ------------------------------------------------------------------------------------------------


class Desk(DeskPosts, DeskDice):
    """A game opened for a GM at a notebook: the turn being played and every action on it."""

    def __init__(self, game: Game):
        self.game = game
        self.session: TurnSession | None = None
        self._views: dict[int, tuple[StepRecord, StepView]] = {}
        self._shadow: tuple[Any, Any, list[Roll], int] | None = None
        self._svg: dict[tuple[Any, ...], tuple[tuple[State, ...], str]] = {}  # oldest first
        #: The summaries written last by :meth:`publish_reports`.
        self.published: Published | None = None
        #: The turn committed last at this desk (None before its first commit).
        self.committed_turn: int | None = None
        #: The last committed turn of the folder as this desk last saw it, and the turn whose
        #: resolution here was set aside because another tab (or a command) committed it
        self._seen_turn = game.latest_turn
        self.superseded: int | None = None

    working_copy = staticmethod(working_copy)

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
        to_move = [p for p in self.game.to_move(state) if p in ids]
        return to_move + [p for p in ids if p not in to_move]

    def player_choices(self) -> dict[str, str]:
        """:meth:`players` labelled for a list to choose from (label -> id): each by id and
        name, and, for one not expected to move, why where the players table says (Cien's
        free colours, which a newcomer's post takes, read "Silver (free)"; an eliminated
        player "(eliminated)"); the GM's own inputs "(the GM's inputs)"."""
        state = self.game.coming_state()
        to_move = set(self.game.to_move(state))
        rows: dict[str, dict[str, Any]] = {}
        if "players" in state.tables and "id" in state["players"].columns:
            rows = {str(r["id"]): r for r in state["players"].iter_rows(named=True)}
        out: dict[str, str] = {}
        for pid in self.players():
            row = rows.get(pid, {})
            name = str(row.get("name") or "").strip()
            label = f"{pid} \u2014 {name}" if name and name != pid else pid
            if pid == GM_POSTER:
                label += " (the GM's inputs)"
            elif pid not in to_move:
                status = str(row.get("status") or "").strip()
                label += f" ({status})" if status else " (not expected to move)"
            out[label] = pid
        return out

    def overview(self) -> Overview:
        """The current turn: standings (GM view, with each player's holdings), who has posted."""
        game = self.game
        state = game.state()
        standings = game.ruleset.standings(state, game.context())
        to_move = game.to_move(state) or game.player_ids(state)
        posts = game.store.pending_posts(game.next_turn)
        sent = set(posts["player"].to_list())
        if "player" in standings.columns:
            standings = standings.with_columns(
                pl.when(pl.col("player").is_in(list(sent))).then(pl.lit("received"))
                .when(pl.col("player").is_in(list(to_move))).then(pl.lit("waiting"))
                .otherwise(pl.lit("\u2014")).alias("orders"))
            hold = game.ruleset.presentation.holdings
            holdings = hold(state, game.context()) if hold else None
            if holdings is not None and not _repeats_a_column(standings, holdings):
                standings = standings.join(holdings, on="player", how="left")
        return Overview(game.title, game.ruleset.title, game.latest_turn, game.next_turn,
                        standings, tuple(p for p in to_move if p in sent),
                        tuple(p for p in to_move if p not in sent), posts.height,
                        game.turn().outcome)

    def map_svg(self, state: State | None = None, *, title: str | None = None,
                highlight: Iterable[str] = (), arrows: Sequence[Arrow] = (),
                along: Sequence[State] = (), orders: DrawnOrders | None = None) -> str | None:
        """The map drawn for ``state`` (the latest committed state by default) as SVG: the
        ruleset's fills, labels, stacks and arrows, then ``arrows`` and the ``orders`` drawn
        (see :meth:`orders_svg`); sharing one extent with the maps of the states ``along`` on
        an unbounded hex board."""
        state = self.game.state() if state is None else state
        board = self.game.board
        marked = tuple(sorted(n for n in highlight if board is not None and
                              board.contains(n)))
        states = (state, *along)
        key = (tuple(tuple(id(df) for df in s.tables.values()) for s in states), title, marked,
               tuple(arrows), orders)
        cached = self._svg.get(key)
        if cached is not None:
            return cached[1]
        svg = self.game.map_svg(state, title=title, arrows=arrows, highlight=marked, along=along,
                                orders=orders, hex_px=DESK_HEX_PX)
        if svg is None:  # no map, and the ruleset draws no board of its own
            return None
        self._svg[key] = (states, svg)  # the states are kept so that their tables' ids stay unique
        while len(self._svg) > _SVG_CACHE:
            del self._svg[next(iter(self._svg))]
        return svg

    def orders_svg(self, *, title: str | None = None) -> str | None:
        """The orders of the coming turn drawn on the map of the state before it, as the ruleset
        draws them (:attr:`~gmkit.core.parts.Presentation.orders`: arrows and marks, every
        order, secret ones too, for the GM): the orders received so far (those of the turn being
        resolved once it has started), each marked as succeeded or failed once a step run so
        far has decided it.

        None when the game has no map or the ruleset draws none of these orders."""
        session = self._live_session()
        if session is not None:
            driver = session.driver
            state, orders = driver.start, driver.orders
            events = [e for r in driver.records for e in r.events]
        else:
            coming = self.game.coming_reading()
            state, orders = coming.state, coming.orders
            events = []
        return self._orders_svg(state, orders, events,
                                title or f"Orders of turn {self.turn}")

    def _orders_svg(self, state: State, orders: Orders[Any], events: Sequence[Event],
                    title: str) -> str | None:
        drawn = draw_orders(self.game, state, orders, events)
        return self.map_svg(state, title=title, orders=drawn) if drawn else None

    # -- resolving -------------------------------------------------------------------------------
    def _live_session(self) -> TurnSession | None:
        if self.session is not None and self.session.turn != self.game.next_turn:
            self.superseded = self.session.turn  # committed elsewhere meanwhile
            self.session = None
            self._forget()
        return self.session

    def folder_moved_on(self) -> bool:
        """True when the game folder's last committed turn is not the one this desk saw last:
        another tab of the notebook (each keeps its own resolution of the turn; they share
        the folder) or a ``gmkit`` command committed a turn, or rolled one back, meanwhile.
        What this desk shows is then out of date; a resolution of a turn committed elsewhere
        is set aside (:attr:`superseded` names it)."""
        latest = self._latest_or(self._seen_turn)
        if latest == self._seen_turn:
            return False
        self._seen_turn = latest
        self._live_session()
        return True

    def _forget(self) -> None:
        self._views.clear()
        self._shadow = None

    def begin(self, entered: Mapping[str, Any] | None = None) -> TurnSession:
        """Start resolving this turn with the posts received so far (and the dice entered so
        far); the session is kept on the desk."""
        self.superseded = None  # a resolution of its own from now on
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
    def ready_to_commit(self) -> bool:
        """True once every step of the turn has run here, so that it can be committed."""
        session = self._live_session()
        return session is not None and session.driver.done

    @property
    def step_count(self) -> int:
        """How many units the turn has: see :meth:`unit_count` (a per-actor step counts each
        action, so the position never passes the count)."""
        return self.unit_count()

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
             if isinstance(e, Event) else
             (e.events[0].kind, None, None, "public" if e.public else "GM only", e.text)
             for e in condensed(record.events, self.game.ruleset.presentation.routine)],
            schema=_EVENT_SCHEMA, orient="row")
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
                                      f"{index + 1} of {self.step_count}")
        view = StepView(index + 1, self.step_count, record.step.name, record.title,
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
            last = driver.records[-1] if driver.records else None
            # the two pictures share one extent
            before = self.map_svg(driver.start, title=f"Turn {self.turn}: before the turn",
                                  along=(last.after,) if last else ())
            if last is not None:
                after = self.map_svg(last.after, title=f"Turn {self.turn}, after step "
                                     f"{len(driver.records)}: {last.step.title}",
                                     along=(driver.start,))
        return TurnSoFar(self.turn, self.step_count, tuple(views), before, after)

    @property
    def next_title(self) -> str | None:
        """The title of the step that :meth:`step` would run."""
        session = self._live_session()
        steps = session.driver.steps if session else self.game.ruleset.steps(self.game.context())
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

    # -- committing and publishing ---------------------------------------------------------------
    def commit(self) -> int:
        """Commit the turn once every step has run; returns the committed turn number.

        On failure nothing is half-written: the last good turn and the pending posts are as they
        were, the turn being resolved is kept, and :class:`DeskError` says what went wrong."""
        session = self._live_session()
        if session is None and self.superseded is not None and \
                self.superseded <= self._latest_or(self.superseded):
            turn, self.superseded = self.superseded, None
            self._seen_turn = self._latest_or(self._seen_turn)
            raise DeskError(f"another tab (or a gmkit command) committed turn {turn} while this "
                            f"tab was resolving it: this tab's resolution of turn {turn} is set "
                            f"aside and nothing was written. The folder's last committed turn "
                            f"is {self._seen_turn}; the orders are now for turn {self.turn}.")
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
                self.committed_turn = session.turn
                raise DeskError(f"turn {session.turn} was committed, but setting its posts "
                                f"aside failed: {e}") from e
            raise DeskError(f"turn {session.turn} was not committed: {e}. Nothing was written: "
                            f"turn {before} is still the last committed turn and the pending "
                            "posts and entered dice are kept.") from e
        self._committed(data.turn)
        self.committed_turn = data.turn
        self._seen_turn = data.turn
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
        """Write the reports of a committed turn (the latest by default) for each of its
        readers, as HTML and BBCode, into ``out_dir`` (default: the game folder's
        ``reports/``): the public and GM summaries, and each player's own report in
        ``players/<id>/`` (the same path as ``gmkit report`` and ``gmkit publish``,
        :mod:`gmkit.publish.turns`).

        Everything is rendered before anything is written, then each file is moved into place."""
        from gmkit.publish.turns import readers, render_turn

        turn = self.game.latest_turn if turn is None else turn
        if turn == self.game.first_turn:
            raise DeskError(f"turn {turn} is the set-up: commit a turn before publishing its "
                            "summary")
        out = Path(out_dir) if out_dir is not None else self.root / "reports"
        try:
            rendered = render_turn(self.game, turn, readers(self.game))
        except Exception as e:  # noqa: BLE001
            raise DeskError(f"the summaries of turn {turn} could not be made: {e}; nothing "
                            "was written") from e
        try:
            out.mkdir(parents=True, exist_ok=True)
            written = rendered.write(out)
        except Exception as e:  # noqa: BLE001
            raise DeskError(f"writing the summaries failed: {e}") from e
        pages = {view: str(rendered.text(view, "html")) for view in ("public", "gm")}
        bbcode = {view: "\n\n".join(rendered.text(view, "bbcode")) for view in ("public", "gm")}
        self.published = Published(turn, written.paths, pages, bbcode,
                                   self.game.store.seed_path(turn, revealed=True).exists(),
                                   out.resolve(), written.players)
        return self.published

    def publish_new(self, out_dir: str | Path | None = None) -> Published:
        """Write the summaries of the turn committed last at this desk (what the notebooks'
        Write the summaries does); a :class:`DeskError` says there is nothing new to write when
        no turn was committed here, or when that turn's summaries, as written, are current."""
        turn = self.committed_turn
        latest = self.game.latest_turn
        if turn is None or turn != latest:
            raise DeskError(f"nothing new to write: no turn was committed here since the game "
                            f"was opened (turn {latest} is the last committed). Commit turn "
                            f"{self.turn} first; an earlier turn's summaries: gmkit report GAME "
                            f"--turn {latest}")
        revealed = self.game.store.seed_path(turn, revealed=True).exists()
        if self.published is not None and self.published.turn == turn and \
                self.published.revealed == revealed:
            raise DeskError(f"nothing new to write: the summaries of turn {turn} are already in "
                            f"{self.published.folder}")
        return self.publish_reports(out_dir, turn=turn)

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


def _repeats_a_column(standings: pl.DataFrame, holdings: pl.DataFrame) -> bool:
    """Whether a ruleset's holdings only repeat a column the standings show already."""
    joined = standings.select("player").join(holdings, on="player", how="left")
    if "holdings" not in joined.columns:
        return False
    shown = joined["holdings"].cast(pl.String).fill_null("").to_list()
    return any(standings[c].cast(pl.String).fill_null("").to_list() == shown
               for c in standings.columns if c not in ("player", "holdings")
               and standings[c].dtype in (pl.String, pl.Categorical))
