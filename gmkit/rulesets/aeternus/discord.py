"""Aeternus's input from Discord: channel exports in DiscordChatExporter's JSON format, read into
the posts gmkit receives.

An export is one channel: ``{"channel": {"name": ...}, "exportedAt": ..., "dateRange": {"after",
"before"}, "messages": [{"id", "timestamp", "timestampEdited", "author": {"id", "name",
"nickname"}, "content", "reactions": [{"emoji": {"name"}, "count", "users": [...]}]}]}``.

Each message is one post, received once under its channel and id (``discord:game-actions/1234``):
the exporter exports whole channels, so the same messages come again every day and only what is
new counts. What each channel gives (:func:`read_posts`):

* ``#game-actions`` and ``#trades``: the message's lines as written, posted at the message's time,
  so actions resolve in the order posted. A message of intent to join (rule 2: ``Join``) from
  someone who is no player makes them one, keyed by their Discord account;
* ``#proposals``: the message is a proposal (``Propose (message ID): ...``; urgent when it says so
  first). An edited message, or one received before and missing from a later export covering its
  time (deleted), gives its author an ``Edited message ID`` post: it does not take effect (3.1);
* the votes: a proposal's 👍 and 👎 reactions from players, read from the first export made after
  its voting period ended (:func:`tally`): a ``Vote ... message ID`` post per player, posted a
  second before the end; a player with both reactions votes ``both`` (unclear, against);
* ``#request-for-justice``: the message's lines as written (``Ruling on 2: ...``); a message that
  is no such line is a request in its author's words (``Request: ...``);
* ``#judge-elections``: the message is a candidacy (``Stand for Judge (message ID)``) unless it is
  an order of the Judge's channels written out; the votes are its reactions, read from the first
  export made after its week ended (``Vote for|against|both candidacy N``).

An author is a player only through their Discord account: the player's ``discord`` field in
``game.toml`` (an account id, or a user name where no id is recorded), or the account a player
joined from. A player without a ``discord`` field is matched by user name (said once per import).
A nickname or display name never makes anyone a player.

Errors stop the import (nothing is stored): a file too large or not JSON, nesting too deep, a
field of the wrong type, a time that is no time or out of range, two messages with one id. Notices
list what was read and does not count: a stranger's message, a reaction of a non-player, an edit of
a message outside #proposals.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from gmkit.core.intake import Imported, ImportedPost, Intake, player_id_problem
from gmkit.core.orders import OrderError, PostLine
from gmkit.rulesets.aeternus.clock import parse_time, time_text
from gmkit.rulesets.aeternus.judge import JudgeVote, RemoveJudge, Resign, week_end
from gmkit.rulesets.aeternus.orders import Timed, joins, parse, parse_line

ACTIONS_CHANNEL = "game-actions"
PROPOSALS_CHANNEL = "proposals"
TRADES_CHANNEL = "trades"
JUSTICE_CHANNEL = "request-for-justice"
ELECTIONS_CHANNEL = "judge-elections"
#: A line of the Judge's channels already written as an order (3.2).
_JUDGE_LINE = re.compile(r"^\s*(request\s*:|ruling\s+on\b|overturn\b|call\b|vote\b|remove\b|"
                         r"resign\b|stand\b)", re.I)

CHANNELS = (ACTIONS_CHANNEL, PROPOSALS_CHANNEL, TRADES_CHANNEL, JUSTICE_CHANNEL,
            ELECTIONS_CHANNEL)
FOR, AGAINST = "👍", "👎"
#: The largest export read, in bytes (a year of a busy channel is a few MB).
MAX_EXPORT_BYTES = 64 * 2**20
#: The deepest nesting of JSON read (an export nests about six deep).
MAX_DEPTH = 32
#: The longest message read, in characters (Discord allows 4,000).
MAX_CONTENT = 4000
#: Discord began in 2015; no message is older.
_EARLIEST = datetime(2015, 1, 1, tzinfo=timezone.utc)
_DIGITS = re.compile(r"^[0-9]{1,20}$")


@dataclass(frozen=True)
class Author:
    """Who posted or reacted: Discord's account id, user name and server nickname."""

    id: str
    name: str
    nickname: str = ""

    @property
    def account(self) -> str:
        """The account as gmkit records it with a post (``discord:1234``)."""
        return f"discord:{self.id}"


@dataclass(frozen=True)
class Message:
    """One message as exported."""

    id: str
    timestamp: datetime
    author: Author
    content: str
    edited: datetime | None = None
    reactions: Mapping[str, tuple[Author, ...]] = field(default_factory=dict)


@dataclass
class Export:
    """One channel's export: its name, when it was made, the span of time it covers, its
    messages, the errors that stop an import and notices for the GM."""

    channel: str
    exported_at: datetime | None
    messages: list[Message]
    problems: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    after: datetime | None = None
    before: datetime | None = None
    name: str = ""

    def covers(self, when: datetime) -> bool:
        """Whether a message posted at ``when`` would be in this export if it still existed."""
        return ((self.after is None or when > self.after)
                and (self.before is None or when < self.before)
                and (self.exported_at is None or when <= self.exported_at))


class _Bad(ValueError):
    """A field of an export that cannot be read."""


def _depth(value: Any) -> int:
    """How deep a parsed JSON value nests (iteratively: no recursion to exhaust)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        deepest = max(deepest, d)
        if d > MAX_DEPTH:
            return d
        if isinstance(v, dict):
            stack += [(x, d + 1) for x in v.values()]
        elif isinstance(v, list):
            stack += [(x, d + 1) for x in v]
    return deepest


def _load(source: str | Path | Mapping[str, Any], name: str) -> Any:
    """The parsed JSON of an export, or :class:`_Bad` naming what is wrong."""
    if isinstance(source, Mapping):
        return source
    text: str
    if isinstance(source, Path) or not str(source).lstrip().startswith("{"):
        path = Path(source)
        try:
            st = os.stat(path)
        except OSError as e:
            raise _Bad(f"cannot be read ({e.strerror or e})") from None
        if not path.is_file():
            raise _Bad("is not a regular file")
        if st.st_size > MAX_EXPORT_BYTES:
            raise _Bad(f"is {st.st_size:,} bytes, over the {MAX_EXPORT_BYTES:,} read; export the "
                       "channel in parts (DiscordChatExporter --after/--before)")
        try:
            with path.open("rb") as f:
                blob = f.read(MAX_EXPORT_BYTES + 1)
            text = blob.decode("utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise _Bad(f"cannot be read as UTF-8 text ({e})") from None
    else:
        text = str(source)
        if len(text) > MAX_EXPORT_BYTES:
            raise _Bad(f"is over the {MAX_EXPORT_BYTES:,} bytes read")
    try:
        data = json.loads(text)
    except RecursionError:
        raise _Bad(f"nests deeper than {MAX_DEPTH} levels; not an export") from None
    except ValueError as e:
        raise _Bad(f"is not JSON ({e})") from None
    if _depth(data) > MAX_DEPTH:
        raise _Bad(f"nests deeper than {MAX_DEPTH} levels; not an export")
    return data


def _time(raw: Any, what: str) -> datetime:
    if not isinstance(raw, str) or len(raw) > 40:
        raise _Bad(f"{what} must be a time such as 2026-01-05T10:30:00+00:00, not {raw!r:.60}")
    try:
        t = parse_time(raw)
        t.astimezone(timezone.utc)
    except (ValueError, OverflowError):
        raise _Bad(f"{what} {raw!r} is no time") from None
    if not _EARLIEST <= t <= datetime(2200, 1, 1, tzinfo=timezone.utc):
        raise _Bad(f"{what} {raw!r} is out of range (2015 to 2200)")
    return t


#: A UTF-16 surrogate left alone (JSON's ``"\\ud800"`` with no partner): no Unicode text.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _text(raw: Any, what: str, *, limit: int = 200, empty: bool = False) -> str:
    if not isinstance(raw, str) or (not empty and not raw.strip()):
        raise _Bad(f"{what} must be a text, not {raw!r:.60}")
    if len(raw) > limit:
        raise _Bad(f"{what} is {len(raw):,} characters, over the {limit:,} read")
    lone = _SURROGATE.search(raw)
    if lone:
        raise _Bad(f"{what} holds a lone UTF-16 surrogate (U+{ord(lone.group()):04X}) at "
                   f"character {lone.start() + 1}, which is no Unicode text (half of an emoji "
                   "the export cut?)")
    return raw


def _author(raw: Any, what: str) -> Author:
    if not isinstance(raw, Mapping):
        raise _Bad(f"{what} must be an object with an id and a name, not {raw!r:.60}")
    uid = raw.get("id")
    if not isinstance(uid, str) or not _DIGITS.fullmatch(uid):
        raise _Bad(f"{what} id must be Discord's number as text, not {uid!r:.60}")
    nickname = raw.get("nickname")
    if nickname is not None and not isinstance(nickname, str):
        raise _Bad(f"{what} nickname must be a text, not {nickname!r:.60}")
    nickname = _text((nickname or "")[:200], f"{what} nickname", empty=True)
    return Author(uid, _text(raw.get("name"), f"{what} name"), nickname)


def _message(raw: Any, channel: str, exported: datetime | None, problems: list[str],
             notices: list[str], where: str) -> Message:
    if not isinstance(raw, Mapping):
        raise _Bad("is not a message object")
    mid = raw.get("id")
    if not isinstance(mid, str) or not _DIGITS.fullmatch(mid):
        raise _Bad(f"id must be Discord's number as text, not {mid!r:.60}")
    stamp = _time(raw.get("timestamp"), "timestamp")
    if exported is not None and stamp > exported + timedelta(minutes=1):
        raise _Bad(f"timestamp {time_text(stamp)} is after the export was made "
                   f"({time_text(exported)})")
    edited = (_time(raw["timestampEdited"], "timestampEdited")
              if raw.get("timestampEdited") is not None else None)
    content = _text(raw.get("content", ""), "content", limit=MAX_CONTENT, empty=True)
    author = _author(raw.get("author"), "author")
    reactions: dict[str, tuple[Author, ...]] = {}
    listed = raw.get("reactions") or []
    if not isinstance(listed, list):
        raise _Bad(f"reactions must be a list, not {listed!r:.60}")
    for k, reaction in enumerate(listed):
        if not isinstance(reaction, Mapping) or not isinstance(reaction.get("emoji"), Mapping):
            raise _Bad(f"reaction {k + 1} must be an object with an emoji")
        emoji = _text(reaction["emoji"].get("name"), f"reaction {k + 1} emoji", limit=64)
        users = reaction.get("users") or []
        count = reaction.get("count", len(users) if isinstance(users, list) else 0)
        if not isinstance(users, list) or not isinstance(count, int) or isinstance(count, bool):
            raise _Bad(f"reaction {emoji} must list its users and count them")
        people = tuple(_author(u, f"reaction {emoji} user") for u in users)
        if len(people) < count:
            notices.append(f"{where}: its {emoji} reaction lists {len(people)} of its {count} "
                           "users; only those listed count")
        reactions[emoji] = reactions.get(emoji, ()) + people
    return Message(mid, stamp, author, content, edited, reactions)


def read_export(source: str | Path | Mapping[str, Any], name: str = "") -> Export:
    """An export read from a file, its JSON text or its parsed value. Every message that
    cannot be read is an error in ``problems`` naming the file and the message id (an import
    holding any stores nothing); a message whose id comes twice is reported, not dropped."""
    name = name or (str(source) if isinstance(source, Path) else "")
    label = f"{name}: " if name else ""
    try:
        data = _load(source, name)
    except _Bad as e:
        return Export("", None, [], [f"{name or 'the export'} {e}"], name=name)
    if not isinstance(data, Mapping):
        return Export("", None, [], [f"{label}not a DiscordChatExporter export (a JSON object "
                                     "with a channel and messages)"], name=name)
    out = Export("", None, [], name=name)
    try:
        channel_raw = data.get("channel")
        if not isinstance(channel_raw, Mapping):
            raise _Bad("has no channel object")
        out.channel = _text(channel_raw.get("name"), "channel name").lstrip("#")
        if data.get("exportedAt") is not None:
            out.exported_at = _time(data["exportedAt"], "exportedAt")
        span = data.get("dateRange") or {}
        if not isinstance(span, Mapping):
            raise _Bad("dateRange must be an object")
        out.after = _time(span["after"], "dateRange.after") if span.get("after") else None
        out.before = _time(span["before"], "dateRange.before") if span.get("before") else None
        messages = data.get("messages")
        if not isinstance(messages, list):
            raise _Bad("has no list of messages")
    except _Bad as e:
        out.problems.append(f"{label}{e}")
        return out
    if out.channel not in CHANNELS:
        out.problems.append(f"{label}channel #{out.channel} is none the rules name "
                            f"({', '.join('#' + c for c in CHANNELS)})")
        return out
    seen: dict[str, int] = {}
    for n, raw in enumerate(messages):
        rid = raw.get("id") if isinstance(raw, Mapping) else None
        where = f"{label}#{out.channel} message " + (
            rid if isinstance(rid, str) and _DIGITS.fullmatch(rid) else f"number {n + 1}")
        try:
            m = _message(raw, out.channel, out.exported_at, out.problems, out.notices, where)
        except _Bad as e:
            out.problems.append(f"{where}: {e}")
            continue
        if m.id in seen:
            out.problems.append(f"{where}: the id comes twice in the export (messages "
                                f"{seen[m.id]} and {n + 1}); a message has one id")
            continue
        seen[m.id] = n + 1
        out.messages.append(m)
    return out


# -- who is who -------------------------------------------------------------------------------
class Accounts:
    """Discord accounts matched to players (never by nickname): by the account id a player's
    ``discord`` field or a received post records, else by user name."""

    def __init__(self, intake: Intake) -> None:
        self.by_id: dict[str, str] = {}
        self.by_name: dict[str, str] = {}
        self.notices: list[str] = []
        self.players = {p.id for p in intake.players}
        state = intake.state
        if "players" in state.tables:
            self.players |= set(state["players"]["id"].to_list())
        for p in intake.players:
            account = str(p.extra.get("discord") or "").strip()
            if _DIGITS.fullmatch(account):
                self.by_id[account] = p.id
            elif account:
                self.by_name[account.casefold()] = p.id
            else:
                self.by_name.setdefault(p.id.casefold(), p.id)
                self.notices.append(f"{p.id} has no 'discord' account in game.toml: matched by "
                                    f"the Discord user name '{p.id}'")
        for account, player in intake.accounts().items():
            if account.startswith("discord:"):
                self.by_id.setdefault(account.removeprefix("discord:"), player)
        self._named: dict[str, str] = {}  # user names matched in this import: name -> account

    def player(self, author: Author) -> str | None:
        """The player ``author`` is, or None (a name already matched to another account
        does not match: a renamed stranger cannot take a player's name)."""
        if author.id in self.by_id:
            return self.by_id[author.id]
        who = self.by_name.get(author.name.casefold())
        if who is None:
            return None
        if any(p == who for p in self.by_id.values()):
            return None  # the player is known by another account
        first = self._named.setdefault(author.name.casefold(), author.id)
        return who if first == author.id else None

    def newcomer_id(self, author: Author) -> str:
        """The id a newcomer gets: their user name, made a valid id and told apart from the
        players' ids."""
        base = re.sub(r"[^\w.-]", "", author.name).lstrip(".-")[:48] or "player"
        pid = base
        taken = {p.casefold() for p in self.players}
        if pid.casefold() in taken | {"gm"} or player_id_problem(pid) is not None:
            pid = f"{base}-{author.id[-4:]}"
        self.players.add(pid)
        self.by_id[author.id] = pid
        return pid


# -- posts ------------------------------------------------------------------------------------
def _source(channel: str, mid: str, what: str = "") -> str:
    return f"discord:{channel}/{mid}" + (f"/{what}" if what else "")


def _judges_order(text: str) -> bool:
    """Whether a line of #judge-elections is one of the Judge's orders written out (a vote on a
    candidacy, a removal, a resignation): it is kept as written. Any other message, a
    candidacy written "Stand for Judge" included, is a candidacy with its message's number."""
    try:
        order = parse_line(PostLine(1, text, False))
    except OrderError:
        return False
    order = order.order if isinstance(order, Timed) else order
    return isinstance(order, (JudgeVote, RemoveJudge, Resign))


def _text_of(channel: str, m: Message) -> str:
    """A message as the post it makes (see the module docstring)."""
    said = [ln.strip() for ln in m.content.splitlines() if ln.strip()]
    if channel == JUSTICE_CHANNEL and said and not _JUDGE_LINE.match(said[0]):
        return "Request: " + " ".join(said)
    if channel == ELECTIONS_CHANNEL and said and not _judges_order(said[0]):
        return f"Stand for Judge (message {m.id})"  # 3.2: its reactions are the votes
    if channel == PROPOSALS_CHANNEL:
        body = " ".join(m.content.split())
        urgent = body.lower().startswith("urgent")
        if urgent:
            body = body[len("urgent"):].lstrip(" :-")
        return f"Propose{' urgent' if urgent else ''} (message {m.id}): {body}"
    return "\n".join(said)


def read_posts(exports: Sequence[Export], intake: Intake) -> Imported:
    """The posts the exports make that were not received before, with the errors and notices
    (see the module docstring). ``exports`` may come in any order; a message is read from the
    latest export holding it."""
    out = Imported()
    for e in exports:
        out.errors += e.problems
        out.notices += e.notices
    accounts = Accounts(intake)
    out.notices += accounts.notices
    received = intake.received
    made = sorted(exports, key=lambda e: e.exported_at or datetime.min.replace(
        tzinfo=timezone.utc))
    latest: dict[tuple[str, str], tuple[Export, Message]] = {}
    for e in made:
        for m in e.messages:
            latest[(e.channel, m.id)] = (e, m)
    for (channel, mid), (export, m) in sorted(latest.items(),
                                              key=lambda kv: (kv[1][1].timestamp, kv[0])):
        where = f"{export.name + ': ' if export.name else ''}#{channel} message {mid}"
        source = _source(channel, mid)
        before = received.get(source)
        if before is not None:
            if m.edited is not None and channel != PROPOSALS_CHANNEL and (
                    _text_of(channel, m) != before.get("text")):
                out.notices.append(f"{where} was edited after it was received "
                                   f"({time_text(m.edited)}): the edit is ignored (only a "
                                   "proposal's edit counts, 3.1)")
        who = accounts.player(m.author)
        newcomer = False
        if who is None and before is None:
            if channel == ACTIONS_CHANNEL and joins(parse(m.content)):
                who, newcomer = accounts.newcomer_id(m.author), True
            else:
                out.notices.append(f"{where}: {m.author.name} (account {m.author.id}) is not a "
                                   "player; not counted")
                continue
        if who is None:
            continue
        text = _text_of(channel, m)
        if before is None and text:
            out.posts.append(ImportedPost(who, text, time_text(m.timestamp), source,
                                          m.author.account, newcomer, where))
        if channel == PROPOSALS_CHANNEL and m.edited is not None:
            _edited(out, received, channel, mid, who, m.edited, m.author, where)
    _deletions(out, made, received, accounts)
    return out


def _edited(out: Imported, received: Mapping[str, Any], channel: str, mid: str, who: str,
            when: datetime, author: Author, where: str) -> None:
    """3.1: an edited or deleted proposal does not take effect: its ``Edited`` post, once."""
    source = _source(channel, mid, "edited")
    if source not in received and all(p.source != source for p in out.posts):
        out.posts.append(ImportedPost(who, f"Edited message {mid}", time_text(when), source,
                                      author.account, False, where))


def _deletions(out: Imported, made: Sequence[Export], received: Mapping[str, Any],
               accounts: Accounts) -> None:
    """Messages received before (or read from an earlier export now) and missing from the
    latest export of their channel that covers their time: a deleted proposal gets its
    ``Edited`` post; in other channels the GM is told."""
    latest: dict[str, Export] = {}
    for e in made:
        latest[e.channel] = e
    known: dict[tuple[str, str], tuple[str, datetime, str | None]] = {}
    for source, rec in received.items():
        parts = source.removeprefix("discord:").split("/")
        if not source.startswith("discord:") or len(parts) != 2 or not rec.get("posted"):
            continue
        known[(parts[0], parts[1])] = (str(rec["player"]), parse_time(str(rec["posted"])),
                                       rec.get("account"))
    for e in made:
        for m in e.messages:
            who = accounts.player(m.author)
            if who is not None:
                known.setdefault((e.channel, m.id), (who, m.timestamp, m.author.account))
    for (channel, mid), (who, when, account) in sorted(known.items(), key=lambda kv: kv[1][1]):
        last = latest.get(channel)
        if last is None or not last.covers(when) or any(m.id == mid for m in last.messages):
            continue
        where = f"{last.name + ': ' if last.name else ''}#{channel} message {mid}"
        if channel == PROPOSALS_CHANNEL:
            _edited(out, received, channel, mid, who, when,
                    Author((account or "discord:0").removeprefix("discord:"), who), where)
        elif _source(channel, mid) in received:
            out.notices.append(f"{where} was received and is now deleted: the deletion is "
                               "ignored (only a proposal's counts, 3.1)")


def tally(exports: Sequence[Export], intake: Intake) -> Imported:
    """The votes: each open proposal's and candidacy's reactions from players, read from the
    first export of its channel made after its voting period (a candidacy's week) ended, a post
    per player posted a second before the end, received once. Reactions of non-players and
    periods no export covers yet are notices."""
    state = intake.state
    accounts = Accounts(intake)  # of the game as it stands: not this import's newcomers
    out = Imported()
    proposals = {str(r["discord_message"]): (parse_time(str(r["ends"])),
                                             f"message {r['discord_message']}")
                 for r in state["proposals"].iter_rows(named=True)
                 if r["discord_message"] and r["status"] == "open"}
    _reactions(out, exports, PROPOSALS_CHANNEL, "proposal", proposals, accounts, intake)
    weeks = {str(r["discord_message"]): (week_end(int(r["week"])), f"candidacy {r['id']}")
             for r in state["candidacies"].iter_rows(named=True)
             if r["discord_message"] and r["status"] == "open"}
    _reactions(out, exports, ELECTIONS_CHANNEL, "candidacy", weeks, accounts, intake)
    return out


def _reactions(out: Imported, exports: Sequence[Export], channel: str, what: str,
               ends: Mapping[str, tuple[datetime, str]], accounts: Accounts,
               intake: Intake) -> None:
    made = sorted((e for e in exports if e.channel == channel and e.exported_at),
                  key=lambda e: e.exported_at or datetime.min)
    for mid, (end, target) in sorted(ends.items(), key=lambda kv: (kv[1][0], kv[0])):
        export = next((e for e in made if e.exported_at and e.exported_at >= end), None)
        if export is None:
            if any(e.channel == channel for e in exports):
                out.notices.append(f"{what} message {mid}: no export of #{channel} made after "
                                   f"its voting period ended ({time_text(end)}) yet")
            continue
        message = next((m for m in export.messages if m.id == mid), None)
        if message is None:
            continue  # deleted: no reactions, so no votes
        reacted: dict[str, tuple[Author, set[str]]] = {}
        for emoji in (FOR, AGAINST):
            for a in message.reactions.get(emoji, ()):
                who = accounts.player(a)
                if who is None:
                    out.notices.append(f"{what} message {mid}: {emoji} by {a.name} (account "
                                       f"{a.id}), who is not a player, does not count")
                    continue
                reacted.setdefault(who, (a, set()))[1].add(emoji)
        stamp = time_text(end - timedelta(seconds=1))
        for who, (a, emojis) in sorted(reacted.items()):
            how = "both" if len(emojis) == 2 else ("for" if FOR in emojis else "against")
            source = _source(channel, mid, f"vote/{a.id}")
            if source not in intake.received:
                out.posts.append(ImportedPost(who, f"Vote {how} {target}", stamp, source,
                                              a.account, False,
                                              f"#{channel} message {mid}: {who}'s reaction"))


#: What :func:`import_exports` reads, in words.
READS = ("DiscordChatExporter JSON, one file per channel (#game-actions, #trades, #proposals, "
         "#request-for-justice, #judge-elections)")


def import_exports(files: Iterable[Path | str | Mapping[str, Any]], intake: Intake) -> Imported:
    """Everything the export files give (:func:`read_posts`, then :func:`tally`), a post per
    message received once: authors are players through their Discord account (a player's
    ``discord`` field in ``game.toml``, or the account they joined from); a join message makes
    its author a player. gmkit stores them all or none."""
    exports = [read_export(Path(f) if isinstance(f, str) else f) for f in files]
    out = read_posts(exports, intake)
    votes = tally(exports, intake)
    out.posts += votes.posts
    out.notices += votes.notices
    return out
