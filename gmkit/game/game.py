"""A GM's game: a game folder bound to its ruleset, map and rules, and the turn workflow.

The workflow of a turn::

    game = Game.open("data/sample-cien")
    game.commitment()                      # post this hash before resolving
    game.receive_post("Red", post_text)    # each player's post: parsed at once, stored
    turn = game.start(entered={...})       # a TurnSession: orders read, problems, odds
    turn.driver.next() / .back() / .run_all()
    game.commit(turn)                      # atomic; the turn is never overwritten
    game.reveal()                          # publish the seed so anyone can verify
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

import gmkit.rulesets  # noqa: F401  (registers every ruleset)
import gmkit.game.fairdice as fairdice
import gmkit.game.pins as pins
import gmkit.core.dice as gdice
from gmkit.core.beacon import Beacon
from gmkit.core.boards import Board, BoardError
from gmkit.core.dice import Dice
import gmkit.core.drawing.scene as sc
from gmkit.core.parts import Context
from gmkit.core.players import PlayerInfo
from gmkit.core.ruleset import Ruleset, find_ruleset, recorded_version
from gmkit.core.steps import Driver, RulesAt
from gmkit.core.params import Params
from gmkit.core.tables import ORDERS_SCHEMA
from gmkit.core.store import GameStore, TurnData, sha256_file
from gmkit.core.files import StoreError
from gmkit.core.rollback import FreshSeed
from gmkit.core.tables import State
from gmkit.core.views import Viewer, visible_events, visible_orders
from gmkit.game.changes import CHANGES_FILE, GameError, GameOverError, enacted_record
from gmkit.core.files import atomic_write
from gmkit.game.corrections import apply_corrections
from gmkit.game.dicing import GuardedDice
from gmkit.game.intake import config_problems
from gmkit.game.posts import ComingTurn
from gmkit.game.orders_drawn import TurnOrders, turn_orders
from gmkit.game.session import TurnSession, events_frame, rolls_frame
from gmkit.game.setup import (MAP_FILE, RECORD_KEYS, board_path, given_position, resolved_with,
                              starting_board)

if TYPE_CHECKING:
    from gmkit.core.drawing.orders import DrawnOrders


class Game(ComingTurn, GuardedDice):
    """A game folder opened with its ruleset, rules and map."""

    def __init__(self, root: str | Path):
        self.root = Path(root)
        if not self.root.is_dir():
            raise GameError(f"{self.root}: no such game folder")
        self.config = GameStore.read_config(self.root)
        try:
            self.ruleset: Ruleset = find_ruleset(str(self.config.get("ruleset", "")))
        except KeyError as e:
            raise GameError(f"{self.root / 'game.toml'}: {e.args[0]}") from None
        self.store = GameStore(self.root, self.ruleset.schemas, self.ruleset.added)
        self._complete_change()
        self._complete_enacted()
        rules = self.config.get("rules", {})
        if not isinstance(rules, dict):
            raise GameError(f"{self.root / 'game.toml'}: [rules] must be a table")
        self.players_from_config(self.config, source=str(self.root / "game.toml"))
        try:
            # a value a rule does not take opens (see rules.problems); no turn resolves with it
            self.rules = self.ruleset.rules(rules, lenient=True)
        except ValueError as e:
            raise GameError(f"{self.root / 'game.toml'}: {e}") from None
        if self.store.rollback_pending():
            try:
                self.store.recover()
            except (OSError, StoreError) as e:
                raise GameError(f"{self.root}: an interrupted rollback must be completed before "
                                f"anything else, and could not be: {e}") from None
        self._latest: tuple[tuple[Any, ...], TurnData] | None = None
        self._recent: dict[tuple[Any, ...], TurnData] = {}
        self._lock = threading.Lock()
        self._board: Board[Any] | None = None
        #: How a turn's secret seed is made (a playout derives it from its master seed).
        self.seed_maker: Callable[[int], str] = lambda turn: gdice.new_seed()
        #: The time a commitment is recorded as made (a playout fixes it, as its posts' times).
        self.clock: Callable[[], str] = fairdice.now_text
        self.dice_setting = fairdice.dice_setting(self.config)

    @property
    def board(self) -> Board[Any] | None:
        """The board the game is played on, of its ruleset's kind: the folder's own copy
        (``map.geojson``, ``board.toml``...), else the board the ruleset gives
        (:meth:`~gmkit.core.ruleset.Ruleset.board`, an unbounded hex grid say); loaded on first
        use."""
        if self._board is None:
            from gmkit.core.boards.files import load_board  # the board's kind's reader

            path = self.board_path
            self._board = load_board(self.ruleset.board.kind, path) if path is not None \
                else self.ruleset.default_board()
        return self._board

    @property
    def board_path(self) -> Path | None:
        """The file in the game folder holding the board the game is played on (its
        ``map.geojson``, or the copy of the board its ruleset ships), whose hash each turn's
        manifest records; None when there is none."""
        return board_path(self.root, self.ruleset)

    @classmethod
    def open(cls, root: str | Path) -> Game:
        """Open a game folder."""
        return cls(root)

    @property
    def title(self) -> str:
        """The game's title."""
        return str(self.config.get("title", self.root.name))

    @staticmethod
    def players_from_config(config: Mapping[str, Any], source: str = "game.toml"
                            ) -> list[PlayerInfo]:
        """The players ``game.toml`` lists."""
        out = []
        players = config.get("players", [])
        if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
            raise GameError(f"{source}: 'players' must be a list of [[players]] tables, not "
                            f"{players!r}"[:200])
        for i, p in enumerate(players, 1):
            if "id" not in p:
                raise GameError(f"{source}: player {i} has no id")
            extra = {k: v for k, v in p.items() if k not in ("id", "name")}
            out.append(PlayerInfo(str(p["id"]), str(p.get("name", p["id"])), extra))
        return out

    @classmethod
    def new(cls, root: str | Path, ruleset: str, players: Sequence[Mapping[str, Any]], *,
            title: str = "", map_path: str | Path | None = None,
            rules: Mapping[str, Any] | None = None,
            dice: fairdice.DiceSetting | None = None,
            state: State | Mapping[str, pl.DataFrame] | str | Path | None = None,
            turn: int = 0, seed_maker: Callable[[int], str] | None = None,
            clock: Callable[[], str] | None = None) -> Game:
        """Create a game folder and commit its set-up as turn 0; ``dice`` says how the game
        guards its dice (with ``ahead``, the next turn's commitment is made at once, its seed
        from ``seed_maker`` and its time from ``clock`` when given: a reproducible game).

        ``state`` starts the game from a given position instead of the ruleset's set-up: a
        folder of tables (see :mod:`gmkit.game.position`), or the tables themselves, checked against
        the ruleset's schemas (every problem at once, naming file, row and column). ``turn``
        is the turn that position is the state after (0 by default: the game's first turn is
        ``turn + 1``). The manifest records the position as given: ``verify`` checks its
        hashes and does not set it up again."""
        rs = find_ruleset(ruleset)
        found = config_problems({"title": title or rs.title, "players": list(players)})
        if found:
            raise GameError(found[0])
        try:
            board, board_bytes, copy_name = starting_board(rs, map_path)
        except BoardError as e:
            raise GameError(str(e)) from None
        unplayable = rs.board.check(board) if rs.board.check else []
        if unplayable:
            where = str(map_path) if map_path else "the shipped board"
            raise GameError(f"{where}: {rs.title} cannot be played on this board: "
                            + "; ".join(unplayable))
        # the board is kept in the folder (map.geojson, or board.toml...), recorded by each turn
        map_bytes = board_bytes if copy_name == MAP_FILE else None
        files: dict[str, bytes] = {}
        if copy_name is not None and copy_name != MAP_FILE and board_bytes is not None:
            files[copy_name] = board_bytes
        config: dict[str, Any] = {"title": title or f"A game of {rs.title}", "ruleset": rs.name,
                                  "rules": dict(rules or {}),
                                  "players": [dict(p) for p in players]}
        if dice is not None and dice.to_config():
            config["dice"] = dice.to_config()
        fairdice.dice_setting(config)
        params = rs.rules(rules)
        record = resolved_with(config, board_bytes, rs.version)
        infos = cls.players_from_config(config)
        if state is None:
            if turn != 0:
                raise GameError("a starting turn other than 0 needs a given position (state)")
            start = rs.setup(Context(params, board, 0, tuple(infos)))
        else:
            start = given_position(rs, state, turn,
                                   Context(params, board, turn + 1, tuple(infos)))
            record["given"] = True
        turn0 = TurnData(start.turn, start, pl.DataFrame(schema=dict(ORDERS_SCHEMA)),
                         rolls_frame([]), events_frame([]))
        if dice is not None and dice.ahead:
            # the first turn's seed is made with the game, its commitment pinned by the set-up
            first = start.turn + 1
            seed = (seed_maker or (lambda turn: gdice.new_seed()))(first)
            pinned, seed_file, dice_file = fairdice.first_commitment(
                first, seed, (clock or fairdice.now_text)())
            record[pins.PIN] = pinned
            files.update({seed_file: (seed + "\n").encode("ascii"), **dice_file})
        GameStore.create(root, config, rs.schemas, turn0, map_bytes, record=record, files=files)
        game = cls(root)
        if seed_maker is not None:
            game.seed_maker = seed_maker
        if clock is not None:
            game.clock = clock
        if game.dice_setting.ahead:
            game.commitment(game.next_turn)
        return game

    @property
    def first_turn(self) -> int:
        """The game's set-up: turn 0, or the turn a given position is the state after."""
        turns = self.store.turns()
        return turns[0] if turns else 0

    # -- reading ---------------------------------------------------------------------------------
    @property
    def latest_turn(self) -> int:
        """The last committed turn."""
        return self.store.latest()

    @property
    def next_turn(self) -> int:
        """The turn being played now (orders are for it)."""
        return self.store.latest() + 1

    def game_over(self) -> str | None:
        """How the game ended (who won, and why), once its outcome is decided; None while it
        goes on."""
        return self.store.manifest(self.latest_turn).get("outcome") or None

    def refuse_if_over(self, what: str) -> None:
        """Raise :class:`GameOverError` (saying the game is over and who won) when it is."""
        over = self.game_over()
        if over:
            raise GameOverError(f"the game is over after turn {self.latest_turn}: {over} "
                                f"({what})")

    def turn(self, number: int | None = None, revision: int | None = None) -> TurnData:
        """A committed turn, checked. The last few turns read are kept in memory while none of
        their files changes (a changed or replaced file is read and checked again)."""
        latest = self.store.latest()
        number = latest if number is None else number
        if revision is not None:
            return self.store.read_turn(number, revision)
        key = _stamp(self.store.turn_path(number))
        if number == latest:
            if self._latest is None or self._latest[0] != key:
                self._latest = (key, self.store.read_turn(number))
            return self._latest[1]
        with self._lock:
            cached = self._recent.get(key)
        if cached is None:
            cached = self.store.read_turn(number)
            with self._lock:
                self._recent[key] = cached
                while len(self._recent) > 4:
                    self._recent.pop(next(iter(self._recent)))
        return cached

    def state(self, number: int | None = None, *, viewer: Viewer | str | None = None) -> State:
        """The state after a committed turn (the latest by default), as ``viewer`` may see it
        (the GM's whole state when no viewer is named)."""
        latest = self.store.latest()
        if number is None or number == latest:
            if self._latest is not None:
                state = self.turn().state
            else:  # its state tables alone, kept while none of the turn's files changes
                key = _stamp(self.store.turn_path(latest))
                kept = self.__dict__.get("_latest_state")
                if kept is None or kept[0] != key:
                    kept = self._latest_state = (key, self.store.read_state())
                state = kept[1]
        else:
            with self._lock:
                kept = self._recent.get(_stamp(self.store.turn_path(number)))
            state = kept.state if kept is not None else self.store.read_state(number)
        return state if viewer is None else self.viewed(state, viewer)

    def viewed(self, state: State, viewer: Viewer | str) -> State:
        """A state of this game (a turn's, or one built from it) as ``viewer`` may see it: the
        one door for hidden state outside the game (the ruleset's view)."""
        return self.ruleset.view(state, viewer, self.context())

    def context(self, rules: Params | None = None, turn: int | None = None) -> Context:
        """What the ruleset's hooks receive: ``rules`` (the game's rules in force by default),
        the game's board, ``turn`` (the coming one by default) and the players ``game.toml``
        lists."""
        return Context(self.rules if rules is None else rules, None,
                       self.next_turn if turn is None else turn,
                       tuple(self.players_from_config(self.config)),
                       load_board=lambda: self.board)

    def to_move(self, state: State) -> list[str]:
        """Who is expected to post for the turn after ``state``
        (:attr:`~gmkit.core.parts.LifeCycle.to_move`; nobody named when the ruleset says not)."""
        to_move = self.ruleset.lifecycle.to_move
        return to_move(state) if to_move else []

    def colours(self, state: State) -> dict[str, str]:
        """Each player's colour in ``state`` (:attr:`~gmkit.core.parts.Presentation.colours`)."""
        colours = self.ruleset.presentation.colours
        return colours(state, self.context()) if colours else {}

    def bot_post(self, state: State, player: str, dice: Dice) -> str:
        """A seeded random player's post for ``player`` (empty when the ruleset has no bot)."""
        bot = self.ruleset.bot
        return bot.post(state, player, self.context(), dice) if bot else ""

    def history(self, table: str, *, view: str | Viewer = "gm",
                whole: bool = False) -> pl.DataFrame:
        """A table across every turn, with a ``turn`` column, as ``view`` (``"gm"``,
        ``"public"``, ``"player:ID"``) may see it: posts, rolls and events through
        :mod:`gmkit.core.views`, state tables through the ruleset's :meth:`Ruleset.view`;
        a state table's rows that stand for nobody (``Views.vacant``: Cien's free colours) are
        left out unless ``whole`` (a state rebuilt from the history needs them)."""
        try:
            viewer = Viewer.parse(view)
        except ValueError as e:
            raise GameError(str(e)) from None
        df = self.store.history(table)
        if not whole and table in self.ruleset.schemas:
            df = self.ruleset.views.occupied(table, df)
        if viewer.is_gm:
            return df
        if table == "orders":
            return visible_orders(df, viewer)
        if table in ("rolls", "events"):
            return visible_events(df, viewer)
        frames = [self.viewed(self.state(t), viewer)[table]
                  .with_columns(pl.lit(t, pl.Int64).alias("turn")) for t in self.store.turns()]
        if not whole:
            frames = [self.ruleset.views.occupied(table, f) for f in frames]
        return pl.concat(frames, how="diagonal_relaxed").select(df.columns) if frames else df

    def undo_correction(self) -> dict[str, Any]:
        """Withdraw the last correction recorded for the coming turn (a mistyped value the
        turn cannot resolve with, say) and return it; refused once the turn is sealed."""
        with self.store.lock():
            if fairdice.current(fairdice.read_record(self.root, self.next_turn), "seals"):
                raise GameError(f"turn {self.next_turn} is sealed for its beacon: its "
                                "corrections stand")
            changes = [c for c in self.recorded_changes()
                       if c.get("from_turn", 0) > self.latest_turn]
            mine = [i for i, c in enumerate(changes) if c.get("kind") == "correction"
                    and c.get("from_turn") == self.next_turn]
            if not mine:
                raise GameError(f"no correction is recorded for turn {self.next_turn}")
            undone = changes.pop(mine[-1])
            atomic_write(self.root / "pending" / CHANGES_FILE,
                         json.dumps(changes, indent=1, ensure_ascii=False,
                                    default=str).encode())
        return undone

    # -- resolving -------------------------------------------------------------------------------
    def _session(self, state: State, posts: pl.DataFrame, seed: str, turn: int,
                 entered: Mapping[str, Any] | None, rules: Params | None = None,
                 beacon: Beacon | None = None,
                 roster: tuple[Any, Any] | None = None) -> TurnSession:
        """A turn resolving from ``state``; ``roster`` is the players the turn before was
        played with and this turn's (as ``game.toml`` or a manifest lists them): when they
        differ, the ruleset's :meth:`~gmkit.core.ruleset.Ruleset.joined` brings the state in
        line first."""
        rules = self.rules if rules is None else rules
        corrections = self.corrections_for(turn)
        coming = None
        if turn == self.next_turn and rules is self.rules and state is self.state() and \
                roster == self.roster(turn):
            state = self.coming_state()  # as every front end read the coming turn
            coming = self.coming_reading()
        else:
            state = apply_corrections(self.ruleset, self._joined(state, roster, rules),
                                      corrections)
        if coming is not None and coming.state is state and coming.rules is rules and \
                coming.posts.equals(posts):
            read = coming  # the reading every front end showed, not built again
        else:
            read = self.reading_of(state, posts, rules, turn=turn)
        dice_seed = seed if beacon is None else fairdice.derive_seed(seed, beacon)
        dice = Dice(dice_seed, turn, entered=dict(entered or {}))
        driver = Driver(self.ruleset.steps(self.context(rules)), state, read.orders, dice,
                        rules, self._rules_at(rules))
        return TurnSession(turn, seed, posts, read.parsed, read.problems, read.orders, driver,
                           beacon, corrections, read)

    def _rules_at(self, rules: Params) -> RulesAt | None:
        """What rules each unit of a turn resolves with, for a ruleset that enacts rules (None:
        the turn's rules throughout)."""
        if self.ruleset.lifecycle.enacted is None:
            return None
        ruleset, ctx = self.ruleset, self.context(rules)
        return lambda start, state: ruleset.rules_at(start, state, ctx)

    def roster(self, turn: int) -> tuple[Any, Any]:
        """The players turn ``turn - 1`` was played with and those of ``turn`` (its manifest's
        once committed, ``game.toml``'s for the coming turn); None for a turn that recorded
        none (a game written before turns recorded their players)."""
        latest = self.latest_turn
        if turn - 1 > latest:  # resolved in memory beyond the folder (a sweep's games)
            return None, None
        before = self.store.manifest(turn - 1).get("players")
        if turn <= latest:
            return before, self.store.manifest(turn).get("players")
        return before, [dict(p) for p in self.config.get("players", [])]

    def start(self, entered: Mapping[str, Any] | None = None, *,
              preview: bool = False) -> TurnSession:
        """Begin resolving the coming turn with the posts received so far; in a game that mixes
        its dice with a beacon, with the posts and entered dice it was sealed on, once its
        beacon is in. A ``preview`` of a turn without its beacon yet (to see the odds and the
        draw ids) rolls the secret seed alone and can never be committed."""
        turn = self.next_turn
        self.refuse_if_over("no turn is resolved after the last")
        self.rules.refuse_problems(f"{self.root / 'game.toml'}: [rules]")
        self.commitment(turn)
        seed = self.store.read_seed(turn)
        assert seed is not None
        posts = self.store.pending_posts(turn)
        roster = self.roster(turn)
        if self.dice_setting.beacon is None or preview:
            return self._session(self.state(), posts, seed, turn, entered, roster=roster)
        posts, sealed, beacon = fairdice.sealed_input(self.store, turn, self.dice_setting, posts,
                                                      entered)
        return self._session(self.state(), posts, seed, turn, sealed, beacon=beacon,
                             roster=roster)

    def odds(self, session: TurnSession) -> pl.DataFrame:
        """Exact odds of the contested actions of a session's orders."""
        return self.ruleset.odds(session.driver.start, session.orders, self.context())

    def _turn_data(self, session: TurnSession) -> TurnData:
        state = session.result(session.turn)
        driver = session.driver
        events = [(r.step.name, e) for r in driver.records for e in r.events]
        rules = driver.rules if driver.rules_at is None else driver.rules_at(driver.start, state)
        outcome = self.ruleset.outcome(state, self.context(rules, session.turn))  # with the rules in force at the end
        return TurnData(session.turn, state, session.posts, rolls_frame(driver.rolls),
                        events_frame(events), session.entered, gdice.commitment(session.seed),
                        outcome.reason if outcome else None)

    def commit(self, session: TurnSession) -> TurnData:
        """Write the resolved turn atomically and set its posts aside."""
        if session.turn != self.next_turn:
            raise GameError(f"this session resolves turn {session.turn} but the next turn is "
                            f"{self.next_turn}")
        outcome = self.store.manifest(self.latest_turn).get("outcome")
        if outcome:
            raise GameError(f"the game is over: {outcome}")
        data = self._turn_data(session)
        record = self.record()
        changes = [c for c in self.recorded_changes() if c.get("from_turn") == session.turn]
        if [c for c in changes if c.get("kind") == "correction"] != session.corrections:
            raise GameError(f"a correction of turn {session.turn}'s state was recorded after "
                            "the turn was read: start it again to resolve it with the correction")
        if changes:
            record["changes"] = changes
        # when the commitment was made, ahead or when asked: the manifest's hash keeps it
        record.update(fairdice.manifest_part(self.store, session.turn,
                                             gdice.commitment(session.seed)))
        enacted = enacted_record(self.ruleset, session.driver.start, data.state,
                                 self.context(session.driver.rules))
        if enacted:
            record["enacted"] = enacted
        if self.dice_setting.beacon is not None and (
                session.beacon is None or record.get("beacon") != session.beacon.to_dict()):
            raise GameError(f"turn {session.turn} needs a beacon ([dice] beacon = "
                            f"{self.dice_setting.beacon!r}): seal it, enter the beacon, and "
                            "resolve with it")
        with self.store.lock():
            self._pin_next(record, session.turn, data.outcome)
            folder = self.store.commit(data, posts=session.seqs, record=record)
            self._record_enacted(session.turn, record.get("enacted", []))
        return self._committed(data, folder)

    def _pin_next(self, record: dict[str, Any], turn: int, outcome: str | None) -> None:
        """In a game that commits ahead, make the seed of the turn after ``turn`` (none after
        the last) and pin its commitment in ``turn``'s ``record`` (:mod:`gmkit.game.pins`): made
        before the turn is committed, so a killed commit leaves a seed the next one pins."""
        if self.dice_setting.ahead and not outcome:
            record[pins.PIN] = fairdice.pin_next(self.store, turn + 1,
                                                 lambda: self.seed_maker(turn + 1), self.clock)

    def record(self, reason: str = "") -> dict[str, Any]:
        """What a turn committed now is resolved with (rules, players, board) for its
        manifest, so ``verify`` replays it with these and reports a hand edit of
        ``game.toml``."""
        path = self.board_path
        out = resolved_with(self.config, path.read_bytes() if path is not None else None,
                            self.ruleset.version)
        if reason:
            out["reason"] = reason
        return out

    def _committed(self, data: TurnData, folder: Path) -> TurnData:
        done = dataclasses.replace(data, revision=int(folder.name.rsplit(".r", 1)[1]),
                                   manifest_hash=sha256_file(folder / "manifest.json"))
        self._latest = (_stamp(folder), done)
        return done

    def re_resolve(self, entered: Mapping[str, Any] | None = None,
                   posts: pl.DataFrame | None = None, *, include_late: bool = False,
                   reason: str = "") -> TurnData:
        """Resolve the latest turn again (a fixed order or die) as a new revision; the old
        revision is kept. ``include_late`` adds the posts that arrived after the turn was
        read; ``reason`` is recorded with the revision."""
        turn = self.latest_turn
        if turn == self.first_turn:
            raise GameError(f"turn {turn} is the set-up; there is nothing to re-resolve")
        old = self.turn(turn)
        seed = self.store.read_seed(turn)
        if seed is None:
            raise GameError(f"turn {turn} has no seed kept")
        posts = old.orders if posts is None else posts
        if include_late:
            posts = pl.concat([posts, self.store.pending_posts(turn)]).unique(
                "seq", keep="first").sort("seq")
        manifest = self.store.manifest(turn)
        beacon = Beacon.from_dict(manifest["beacon"]) if "beacon" in manifest else None
        entered = old.entered if entered is None else entered
        if beacon is not None and fairdice.seal_digest(turn, posts, entered) != \
                manifest.get("seal", {}).get("digest"):
            raise GameError(f"turn {turn} was sealed before its beacon: it can be resolved again "
                            "only on the sealed posts and dice (roll it back to change them)")
        rules = self.ruleset.rules(manifest["rules"]) if isinstance(manifest.get("rules"), dict) \
            else self.rules  # the rules the turn was resolved with, not those of the next
        # under the ruleset version it was resolved with, where this gmkit still has it
        version = recorded_version(manifest)
        kept = self.ruleset.rules_of_version(version, rules.overrides)
        version = version if kept is not None else self.ruleset.version
        rules = kept if kept is not None else rules
        session = self._session(self.state(turn - 1), posts, seed, turn, entered, rules,
                                beacon=beacon, roster=self.roster(turn))
        data = self._turn_data(session)
        record = {**manifest}
        record = {k: record[k] for k in (*RECORD_KEYS, *fairdice.MANIFEST_KEYS, "changes")
                  if k in record} or self.record()
        record["reason"] = reason or "not given"
        record["ruleset_version"] = version
        enacted = enacted_record(self.ruleset, session.driver.start, data.state,
                                 self.context(session.driver.rules))
        record.pop("enacted", None)
        if enacted:
            record["enacted"] = enacted
        with self.store.lock():
            if pins.PIN not in record:  # a turn committed before turns pinned the next
                self._pin_next(record, turn, data.outcome)
            folder = self.store.commit(data, new_revision=True, posts=session.seqs, record=record)
            self._record_enacted(turn, record.get("enacted", []))
        return self._committed(data, folder)

    def rollback(self, to_turn: int, reason: str = "") -> list[Path]:
        """Set aside every turn after ``to_turn`` (kept in the folder's attic); a game that
        commits ahead makes turn ``to_turn + 1``'s fresh commitment at once, recorded as
        replacing the one set aside."""
        with self.store.lock():
            fresh = None
            if self.dice_setting.ahead and not self.store.manifest(to_turn).get("outcome"):
                # the fresh seed goes in with the rollback, whose record keeps its commitment
                pinned = pins.pinned(self.store, to_turn + 1)
                seed = self.store.read_seed(to_turn + 1)
                old = pinned.commitment if pinned is not None else \
                    gdice.commitment(seed) if seed is not None else None
                fresh = FreshSeed(self.seed_maker(to_turn + 1), self.clock(), old)
            moved = self.store.rollback(to_turn, reason, fresh)
            if self.dice_setting.ahead and not self.game_over():
                self.commitment(to_turn + 1)
        return moved

    # -- verifying -------------------------------------------------------------------------------
    def verify(self, against: str | None = None) -> list[str]:
        """Check every manifest and re-resolve every turn from its stored orders, seed, entered
        dice and recorded rules; returns the problems found (empty when all is well). See
        :mod:`gmkit.game.verify`."""
        from gmkit.game.verify import verify_game

        return verify_game(self, against=against).problems

    def resolve_again(self, before: State, posts: pl.DataFrame, seed: str, turn: int,
                      entered: Mapping[str, Any], rules: Params,
                      beacon: Beacon | None = None) -> TurnData:
        """A committed turn resolved again from what it stored, with the rules and players it
        recorded (and the beacon its dice were mixed with)."""
        return self._turn_data(self._session(before, posts, seed, turn, entered, rules, beacon,
                                             roster=self.roster(turn)))

    # -- recorded changes --------------------------------------------------------------------------
    # -- maps ------------------------------------------------------------------------------------
    def map_svg(self, state: State, *, title: str | None = None,
                arrows: Sequence[sc.Arrow] = (), highlight: Iterable[str] = (),
                coordinates: bool = False, along: Sequence[State] = (),
                orders: DrawnOrders | None = None, hex_px: float | None = None) -> str | None:
        """The map drawn for ``state`` as SVG (None for a game whose ruleset draws no map):
        the ruleset's scene (:attr:`~gmkit.core.parts.Presentation.scene`) drawn on the game's
        :attr:`board` by the renderer of the board's kind, with ``arrows`` added (of the kinds
        the scene declares) and the ``orders`` drawn on it (see :meth:`turn_orders`, with a
        legend entry per kind); ``highlight`` places get a thicker outline on a polygon map;
        ``coordinates`` prints each named hex's coordinates on a hex map. On an unbounded hex
        board the picture also takes in (without drawing them) the hexes the maps of the
        states ``along`` show, so pictures shown together (a turn's before and after) share
        one extent; ``hex_px``: the widest a hex is drawn, in pixels (see
        :func:`~gmkit.core.drawing.board_svg.scene_svg`)."""
        draw = self.ruleset.presentation.scene
        ctx = self.context()
        scene = draw(state, ctx) if draw else None
        if scene is None:
            return None
        board = self.board
        if board is None:
            raise GameError(f"ruleset '{self.ruleset.name}' draws a scene but the game has no "
                            "board to draw it on")
        if along and draw is not None and board.kind == "hex":
            from gmkit.core.drawing.hex_svg import share_extent  # drawing only when asked

            others = [s for s in (draw(other, ctx) for other in along) if s is not None]
            scene = share_extent(scene, others)
        if title is not None or arrows or coordinates:
            scene = dataclasses.replace(scene, title=scene.title if title is None else title,
                                        arrows=(*scene.arrows, *arrows),
                                        coordinates=coordinates or scene.coordinates)
        if orders:
            from gmkit.core.drawing.orders import on_scene  # drawing only when asked

            scene = on_scene(scene, orders)
        from gmkit.core.drawing.board_svg import scene_svg  # drawing only when asked

        return scene_svg(board, scene, highlight=highlight, hex_px=hex_px)


    def turn_orders(self, turn: int, viewer: Viewer | str = "gm",
                    revision: int | None = None) -> TurnOrders:
        """A committed turn's orders as ``viewer`` may see them, with the state before the
        turn as they see it and the ruleset's drawing of those orders (see
        :mod:`gmkit.game.orders_drawn`): what a map of the turn's orders shows them."""
        return turn_orders(self, turn, viewer, revision)


def _stamp(folder: Path) -> tuple[Any, ...]:
    """What identifies the content of a turn folder cheaply: every file's name, inode, size and
    modification time."""
    out = []
    for path in sorted(folder.rglob("*")):
        st = path.stat()
        out.append((str(path), st.st_ino, st.st_size, st.st_mtime_ns))
    return tuple(out)
