"""The desk's posts: a post previewed as it would read before it is stored, received, listed
with whether it counts, and withdrawn."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timezone

import polars as pl

from gmkit.core.dice import DiceError
from gmkit.core.orders import quoted
from gmkit.core.tables import ORDERS_SCHEMA
from gmkit.core.files import StoreError
from gmkit.game import GameError
from gmkit.desk.copies import DeskError
from gmkit.desk.views import PostPreview
from gmkit.desk.part import DeskPart
from gmkit.game.intake import refuse_unread


class DeskPosts(DeskPart):
    """The posts of a :class:`~gmkit.desk.Desk` (the part of the desk that receives them)."""

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
        pending = self._pending()
        if seq is None:  # the post as if stored now: the coming turn read with it
            new_seq = 1 + max(pending["seq"].to_list(), default=0)
            row = pl.DataFrame([{"seq": new_seq, "player": player, "secret": secret,
                                 "received": "", "text": text}], schema=dict(ORDERS_SCHEMA))
            turn = game.reading_of(state, pl.concat([pending, row], how="diagonal_relaxed"),
                                   turn=game.next_turn)
        else:
            new_seq, turn = seq, game.coming_reading()
        got = turn.post(new_seq)
        parsed = got.parsed
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
        note = None
        if not got.counts:
            earlier = [s for s, p in pending.select("seq", "player").iter_rows()
                       if p == player and s != new_seq]
            policy = game.ruleset.counted_posts(game.rules)
            note = (f"this post will not count: under this game's rule only a player's "
                    f"{policy} post counts, and {player} has post(s) "
                    f"{', '.join(f'#{s}' for s in earlier)}; withdraw "
                    f"{'it' if len(earlier) == 1 else 'them'} to let this one count (it is "
                    "checked here as if it counted)")
        # this post's lines: read, rejected (by the parser or the rules), not read as orders
        read = got.reading
        orders = pl.DataFrame(
            [(line.number, line.text, game.ruleset.presentation.describe(order))
             for line, order in read.read],
            schema={"line": pl.Int64, "text": pl.String, "reads as": pl.String}, orient="row")
        rejected = pl.DataFrame(
            [(e.line, e.text, e.reason) for e in read.rejected],
            schema={"line": pl.Int64, "text": pl.String, "reason": pl.String}, orient="row")
        unread = pl.DataFrame([(line.number, line.text) for line in read.unread],
                              schema={"line": pl.Int64, "text": pl.String}, orient="row")
        problems = tuple(quoted(e) for e in read.elsewhere)
        void_now = tuple(str(e) for e in got.void_now) if text.strip() else ()
        return PostPreview(player, secret, text, orders, rejected, problems,
                           "\n".join(read.rejections()), message, note, got.counts, seq,
                           void_now, unread)

    def receive(self, player: str, text: str, secret: bool = False, *,
                received: str | None = None, allow_empty: bool = False) -> PostPreview:
        """Store a player's post (a post with no orders is refused unless ``allow_empty``) and
        return how it reads; a turn being resolved takes the new orders at once."""
        pid = self._player(player)
        try:
            self.game.refuse_if_over("no orders are taken after the last turn")
        except GameError as e:
            raise DeskError(str(e)) from None
        preview = self._preview(pid, text or "", bool(secret), None)
        try:  # beyond gmkit's limits (a post's size, a line's, an absurd number): never stored
            refuse_unread(pid, self.game.parse(text or "", pid, self.game.coming_state(),
                                               secret=bool(secret)), True)
        except GameError as e:
            raise DeskError(" ".join(str(e).split())) from None
        if preview.message and not allow_empty:
            raise DeskError(f"{preview.message}; nothing was stored")
        stamp = received or datetime.now(timezone.utc).isoformat(timespec="seconds")
        try:
            seq, _ = self.game.store.add_post(self.game.next_turn, pid, text,
                                              secret=bool(secret), received=stamp)
        except (StoreError, OSError) as e:
            raise DeskError(f"the post was not stored: {e}") from None
        self._orders_changed()
        return dataclasses.replace(preview, seq=seq)

    def posts(self) -> pl.DataFrame:
        """The pending posts for this turn: seq, player, secret, whether it counts, the text."""
        pending = self._pending()
        counted = set(self.game.effective_posts(pending)["seq"].to_list())
        return pending.sort("seq").select(
            "seq", "player", "secret",
            pl.col("seq").is_in(list(counted)).alias("counts"),
            "received", "text")

    def withdraw(self, seq: int, reason: str = "") -> None:
        """Set a pending post aside (kept in ``pending/withdrawn`` with ``reason``, why the GM
        withdraws it); a turn being resolved drops its orders at once."""
        try:
            seq = int(seq)
        except (TypeError, ValueError):
            raise DeskError(f"{seq!r} is not a post number") from None
        if seq not in self._pending()["seq"].to_list():
            known = ", ".join(f"#{s}" for s in self._pending()["seq"].to_list()) or "none"
            raise DeskError(f"no pending post #{seq} for turn {self.turn} (pending: {known})")
        try:
            self.game.store.withdraw_post(seq, str(reason or "").strip())
        except (StoreError, OSError) as e:
            raise DeskError(f"post #{seq} was not withdrawn: {e}") from None
        self._orders_changed()

    def _orders_changed(self) -> None:
        session = self._live_session()
        if session is None:
            return
        posts = self._pending()
        read = self.game.reading_of(session.driver.start, posts, turn=session.turn)
        session.posts, session.parsed, session.problems, session.orders, session.reading = \
            posts, read.parsed, read.problems, read.orders, read
        orders = read.orders
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
