"""The coming turn's input: its starting state (the last turn's end with the players who joined
and the GM's corrections), the posts received, alone or imported from chat exports, and the
orders read from the posts that count."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import polars as pl

import gmkit.game.fairdice as fairdice
from gmkit.core.envelope import Orders
from gmkit.core.intake import Intake, player_id_problem
from gmkit.core.orders import LimitError, OrderError, ParseResult
from gmkit.core.parts import GM_POSTER
from gmkit.core.ruleset import Ruleset
from gmkit.core.players import PlayerInfo
from gmkit.core.params import Params
from gmkit.core.store import GameStore
from gmkit.core.tables import State
from gmkit.game.changes import CHANGES_FILE, GameError, RecordedChanges
from gmkit.game.intake import refuse_unread
from gmkit.game.session import ImportRefused, ImportReport, Received, TurnSession
from gmkit.game.turnreading import TurnReading
from gmkit.core.files import atomic_write
from gmkit.game.corrections import apply_corrections, make_correction



#: posts read lately and kept (see :meth:`ComingTurn.parse`)
_PARSED_KEPT = 512


class ComingTurn(RecordedChanges):
    """The coming turn's input (the part of :class:`gmkit.game.Game` that reads it): its
    starting state, with corrections and newcomers, the posts received and the orders read from
    them."""

    # -- orders ----------------------------------------------------------------------------------
    def coming_state(self) -> State:
        """The state the coming turn starts from: the last committed one, brought in line by
        the ruleset's :meth:`~gmkit.core.ruleset.Ruleset.joined` when the players changed since
        (so a newcomer posts at once, and their posts read against it). The same value while
        the last turn, the players and the corrections are (so what was read against it is
        read once)."""
        last = self.state()
        roster = self.roster(self.next_turn)
        corrections = self.corrections_for(self.next_turn)
        key = (id(last), id(self.rules), json.dumps([roster, corrections], sort_keys=True,
                                                     default=str))
        kept = getattr(self, "_coming", None)
        if kept is not None and kept[0] == key and kept[1] is last:
            return kept[2]
        state = self._joined(last, roster, self.rules)
        state = apply_corrections(self.ruleset, state, corrections)
        self._coming = (key, last, state)
        return state

    def start_of(self, turn: int) -> State:
        """The state a committed turn started from: the turn before's, brought in line with
        the players it was played with and corrected as it recorded (what its orders were read
        against)."""
        manifest = self.store.manifest(turn)
        rules = self.ruleset.rules(manifest["rules"]) if isinstance(manifest.get("rules"), dict) \
            else self.rules
        before = self.state(turn - 1)
        roster, corrections = self.roster(turn), self.corrections_for(turn)
        key = (turn, id(before), json.dumps([manifest.get("rules"), roster, corrections],
                                            sort_keys=True, default=str))
        kept: dict[tuple[Any, ...], tuple[State, State]] = self.__dict__.setdefault(
            "_starts", {})
        found = kept.get(key)
        if found is not None and found[0] is before:
            return found[1]  # the same value, so what was read against it is read once
        state = apply_corrections(self.ruleset, self._joined(before, roster, rules), corrections)
        kept[key] = (before, state)
        while len(kept) > 4:
            del kept[next(iter(kept))]
        return state

    def corrections_for(self, turn: int) -> list[dict[str, Any]]:
        """The corrections of the state turn ``turn`` starts from (see
        :mod:`gmkit.game.corrections`): those its manifest records once committed, those recorded
        for it while it is the coming turn."""
        latest = self.latest_turn
        if turn <= latest:
            changes = self.store.manifest(turn).get("changes", [])
        elif turn == latest + 1:
            changes = [c for c in self.recorded_changes() if c.get("from_turn") == turn]
        else:
            return []
        return [dict(c) for c in changes if isinstance(changes, list) and isinstance(c, dict)
                and c.get("kind") == "correction"]

    def correct(self, table: str, setting: str, why: str) -> dict[str, Any]:
        """Correct one cell of the state the coming turn starts from (an erratum, a ruling):
        ``setting`` is ``KEY: COLUMN=VALUE``, the value read as the column's type. Recorded
        for the coming turn with ``why``, applied before it resolves, kept in its manifest (so
        ``verify`` replays it) and shown in its reports; nothing committed is rewritten. A
        correction that would leave a state the rules cannot play is refused
        (``Ruleset.state_problems``) and nothing is recorded."""
        return self.correct_all(table, [setting], why)[0]

    def correct_all(self, table: str, settings: Sequence[str], why: str
                    ) -> list[dict[str, Any]]:
        """Several corrections of ``table`` (see :meth:`correct`), each checked against the
        state with the ones before it, recorded together or, when one is refused, none."""
        with self.store.lock():
            if fairdice.current(fairdice.read_record(self.root, self.next_turn), "seals"):
                raise GameError(f"turn {self.next_turn} is sealed for its beacon: its starting "
                                "state is corrected before the seal, never after")
            state, ctx, made = self.coming_state(), self.context(), []
            for setting in settings:
                change = make_correction(self.ruleset, state, table, setting, why,
                                         self.next_turn, ctx)
                state = apply_corrections(self.ruleset, state, [change])
                made.append(change)
            changes = [c for c in self.recorded_changes()
                       if c.get("from_turn", 0) > self.latest_turn]
            atomic_write(self.root / "pending" / CHANGES_FILE,
                         json.dumps([*changes, *made], indent=1, ensure_ascii=False,
                                    default=str).encode())
        return made

    def _joined(self, state: State, roster: tuple[Any, Any] | None, rules: Params) -> State:
        """``state`` brought in line by the ruleset's ``joined`` when ``roster`` (the players
        of the turn before and of this turn, see :meth:`roster`) differ; else as it is."""
        if roster is None or roster[0] is None or roster[1] is None or roster[0] == roster[1]:
            return state
        joined = self.ruleset.lifecycle.joined
        if joined is None:
            return state
        return joined(state, self.players_from_config({"players": roster[0]}),
                      self.players_from_config({"players": roster[1]}), self.context(rules))

    def player_ids(self, state: State | None = None) -> list[str]:
        """Who may send orders (players table ids when the ruleset has one)."""
        state = state or self.coming_state()
        if "players" in state.tables:
            ids = state["players"]["id"].to_list()
        else:
            ids = [p.id for p in self.players_from_config(self.config)]
        if self.ruleset.lifecycle.gm_posts and GM_POSTER not in ids:
            ids.append(GM_POSTER)  # the GM's own inputs of the turn
        return ids

    def receive_post(self, player: str, text: str, *, secret: bool = False,
                     received: str | None = None, posted: str | None = None,
                     allow_empty: bool = False) -> Received:
        """Store a player's post and say which turn it landed in (read under the game's lock,
        so a turn committed meanwhile never swallows it) and how it reads. A post beyond
        gmkit's limits (its size, a line's, an absurd number) is refused whole, each problem
        named, and nothing is stored; so is a post in which no line is an order, unless
        ``allow_empty`` (as ``gmkit orders`` and the desk refuse it unless told)."""
        self.refuse_if_over("no orders are taken after the last turn")
        state = self.coming_state()
        ids = self.player_ids(state)
        match = [p for p in ids if p.casefold() == player.strip().casefold()]
        if not match:
            match = [self._newcomer(player.strip(), text, state, secret)]
        stamp = received or datetime.now(timezone.utc).isoformat(timespec="seconds")
        if posted is not None:
            try:
                when = datetime.fromisoformat(posted)
            except ValueError:
                raise GameError(f"posted time {posted!r} is not an ISO 8601 time such as "
                                "2026-11-23T20:15:00+00:00") from None
            if when.tzinfo is None:
                raise GameError(f"posted time {posted!r} needs its time zone (e.g. +00:00)")
        parsed = self.parse(text, match[0], state, secret=secret)
        refuse_unread(match[0], parsed, allow_empty)
        seq, turn = self.store.add_post(None, match[0], text, secret=secret, received=stamp,
                                        posted=posted)
        if turn != state.turn + 1:  # a turn was committed while the post came in
            parsed = self.parse(text, match[0], self.coming_state(), secret=secret)
        return Received(seq, turn, match[0], parsed)

    def _newcomer(self, player: str, text: str, state: State, secret: bool) -> str:
        """``player``, who is no player yet, may post: their post makes them one (the ruleset's
        :meth:`~gmkit.core.ruleset.Ruleset.joins`), or an earlier post of theirs for the coming
        turn did. Otherwise refused, naming the players."""
        joining = self.newcomers(state)
        known = {p.casefold(): p for p in joining}
        if player.casefold() in known:
            return known[player.casefold()]
        parsed = self.parse(text, player, state, secret=secret)
        joins = self.ruleset.lifecycle.joins
        if joins is None or not joins(parsed):
            ids = self.player_ids(state)
            raise GameError(f"no player '{player}' (players: {', '.join(ids)})")
        problem = player_id_problem(player) or (
            f"{player!r} is the GM's poster, not a player id" if player.casefold() == GM_POSTER
            else None)
        if problem is not None:
            raise GameError(problem)
        return player

    def newcomers(self, state: State | None = None) -> list[str]:
        """Who is joining with the coming turn: posters of its pending posts who are no
        players yet (their first post made them one, see :meth:`_newcomer`); ``state`` is the
        coming state when the caller has it."""
        ids = {p.casefold() for p in self.player_ids(state or self.coming_state())}
        pending = self.store.pending_posts(self.next_turn)["player"].unique(maintain_order=True)
        return [p for p in pending.to_list() if p.casefold() not in ids]

    def everyone(self) -> list[PlayerInfo]:
        """Every player of the game: as ``game.toml`` lists them, then those who joined by a
        post (Aeternus) and are expected to move in the latest state."""
        listed = self.players_from_config(self.config)
        have = {p.id for p in listed}
        return listed + [PlayerInfo(pid, pid) for pid in self.to_move(self.state())
                         if pid not in have and pid != GM_POSTER]

    def import_posts(self, files: Sequence[str | Path]) -> ImportReport:
        """Receive the posts chat exports hold (the ruleset's importer reads them): all of them
        at once, or none when any file or message holds an error (raised as one
        :class:`GameError`, a line per problem). A message received before is not received
        again."""
        paths = [Path(f) for f in files]
        intake = Intake(self.coming_state(), self.rules, self.players_from_config(self.config),
                        self.store.received_sources())
        try:
            if self.ruleset.importer is None:
                raise ValueError(f"{self.ruleset.title} reads no chat exports: receive each "
                                 "post with 'gmkit orders'")
            got = self.ruleset.importer.read(paths, intake)
        except ValueError as e:
            raise GameError(str(e)) from None
        errors = list(got.errors)
        for post in got.posts:
            problem = player_id_problem(post.player) if post.newcomer else None
            if problem is not None:
                errors.append(f"{post.where or post.source}: {problem}")
            parsed = self.parse(post.text, post.player, intake.state)
            errors += [f"{post.where or post.source}: {e}" for e in parsed.errors
                       if isinstance(e, LimitError)]  # beyond gmkit's limits
        if errors:
            raise ImportRefused(errors)
        stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
        seqs, turn = self.store.add_posts(
            [{"player": p.player, "text": p.text, "secret": False, "received": stamp,
              "posted": p.posted, "source": p.source, "account": p.account} for p in got.posts])
        stored = [(seq, p) for seq, p in zip(seqs, got.posts) if seq is not None]
        return ImportReport(turn, stored, list(got.notices))

    def late_posts(self) -> pl.DataFrame:
        """Posts that came in for a turn after it was read for resolving (see
        :meth:`GameStore.late_posts`)."""
        return self.store.late_posts()

    def unread_posts(self, session: TurnSession) -> pl.DataFrame:
        """Posts for the session's turn that arrived after the session read the posts: the turn
        should be resolved again to include them."""
        pending = self.store.pending_posts(session.turn)
        return pending.filter(~pl.col("seq").is_in(session.seqs))

    def carry(self, seq: int) -> int:
        """Carry a late post to the coming turn; returns that turn."""
        return self.store.carry_post(seq)

    def effective_posts(self, posts: pl.DataFrame, rules: Params | None = None) -> pl.DataFrame:
        """The posts that count: per the ruleset's rule (:meth:`Ruleset.counted_posts`), a
        player's first or latest post; all of them when the ruleset has no such rule."""
        policy = self.ruleset.counted_posts(self.rules if rules is None else rules)
        posts = posts.sort("seq")
        if policy == "first":
            return posts.unique("player", keep="first", maintain_order=True)
        if policy == "last":
            return posts.unique("player", keep="last", maintain_order=True)
        return posts

    def parse(self, text: str, player: str, state: State, *, secret: bool = False,
              rules: Params | None = None) -> ParseResult[Any]:
        """A post as the ruleset reads it against ``state``: read once, then kept while the
        game is open (the same text, poster, state and rules read the same)."""
        rules = self.rules if rules is None else rules
        key = (id(state), id(rules), player, secret, text)
        kept: dict[tuple[Any, ...], tuple[State, Params, ParseResult[Any]]] = \
            self.__dict__.setdefault("_parsed", {})
        found = kept.get(key)
        if found is not None and found[0] is state and found[1] is rules:
            return found[2]
        result = self.ruleset.parse_post(text, player, state, self.context(rules),
                                         secret=secret)
        kept[key] = (state, rules, result)  # the state kept, so its id names it meanwhile
        while len(kept) > _PARSED_KEPT:
            del kept[next(iter(kept))]
        return result

    def reading_of(self, state: State, posts: pl.DataFrame, rules: Params | None = None,
                   turn: int | None = None) -> TurnReading:
        """``posts`` read for the turn starting from ``state`` (see
        :class:`~gmkit.game.turnreading.TurnReading`): which count, each line read, rejected
        or unread, the rules' problems and the orders that will be carried out."""
        rules = self.rules if rules is None else rules
        turn = state.turn + 1 if turn is None else turn
        key = (id(state), id(rules), turn, tuple(posts.sort("seq").select(
            "seq", "player", "secret", "text").iter_rows()))
        kept: dict[tuple[Any, ...], tuple[State, TurnReading]] = self.__dict__.setdefault(
            "_readings", {})
        found = kept.get(key)
        if found is not None and found[0] is state and found[1].posts.equals(posts):
            return found[1]
        ruleset = self.ruleset

        def parse(text: str, player: str, at: State, secret: bool, with_rules: Params
                  ) -> ParseResult[Any]:
            return self.parse(text, player, at, secret=secret, rules=with_rules)

        def validate(at: State, orders: Orders[Any], with_rules: Params
                     ) -> dict[str, list[OrderError]]:
            return dict(ruleset.validate(at, orders, self.context(with_rules)))

        def void_now(at: State, orders: Orders[Any], with_rules: Params
                     ) -> dict[str, list[OrderError]]:
            return dict(ruleset.void_now(at, orders, self.context(with_rules)))

        got = TurnReading.read(turn, state, posts, self.effective_posts(posts, rules), rules,
                               parse, validate, void_now)
        kept[key] = (state, got)  # the state kept, so its id names it while the entry stays
        while len(kept) > 8:
            del kept[next(iter(kept))]
        return got

    def coming_reading(self) -> TurnReading:
        """The coming turn's reading: its pending posts against the state it starts from
        (corrections and newcomers included). Built once while the posts, the state and the
        rules stay as they are (see :meth:`reading_of`); every front end shows this one."""
        return self.reading_of(self.coming_state(), self.store.pending_posts(self.next_turn),
                               turn=self.next_turn)

    def read_orders(self, state: State, posts: pl.DataFrame, rules: Params | None = None
                    ) -> tuple[dict[str, ParseResult[Any]], dict[str, list[OrderError]],
                               Orders[Any]]:
        """The posts that count read and validated, as :meth:`reading_of` reads them: each
        player's posts read as one, the rules' problems by player, and the accepted orders,
        each in its envelope (who, which post and line, when, secret or not)."""
        got = self.reading_of(state, posts, rules)
        return got.parsed, got.problems, got.orders
