"""Aeternus's input from Discord: channel exports in DiscordChatExporter's JSON format, read into
the posts gmkit receives.

An export is one channel: ``{"channel": {"name": ...}, "exportedAt": ..., "messages": [{"id",
"timestamp", "timestampEdited", "author": {"id", "name", "nickname"}, "content", "reactions":
[{"emoji": {"name"}, "count", "users": [{"id", "name", "nickname"}]}]}]}``. What each channel
gives (:func:`posts`):

* ``#game-actions`` and ``#trades``: each message's lines, each stamped with the message's time
  (``[2026-01-05T10:30:00+00:00] Traverse North``), so actions resolve in the order posted;
* ``#proposals``: each message is a proposal (``Propose (message ID): ...``; urgent when it
  says so first), stamped with its time; an edited message, or one seen in an earlier export
  and missing from a later one (deleted), gives its author an ``Edited message ID`` line;
* the votes: a proposal's 👍 and 👎 reactions from players, read from the first export made
  after its voting period ended (:func:`votes`): each player who reacted gets a ``Vote ...
  message ID`` line stamped a second before the end; a player with both reactions votes
  ``both`` (unclear, against); reactions of non-players are left out and named.
* ``#request-for-justice``: each message's lines as written (``Ruling on 2: ...``), stamped with
  its time; a message that is no such line is a request in its author's words (``Request:
  ...``).
* ``#judge-elections``: each message is a candidacy (``Stand for Judge (message ID)``) but a
  line written as an order of the Judge's channels (``Vote for candidacy 1``, ``Remove the
  Judge``, kept as written); the votes are a candidacy's
  👍 and 👎 reactions from players, read from the first export made after its week ended
  (:func:`election_votes`): ``Vote for|against|both candidacy N`` stamped a second before the
  week's end (a player with both reactions counts in each tally).

Every message gmkit could not read (no author, no time, an author who is no player) is named in
:attr:`Export.problems` or the problems :func:`posts` returns, so the GM can check it by hand.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gmkit.core.orders import OrderError, PostLine
from gmkit.rulesets.aeternus.clock import parse_time, time_text
from gmkit.rulesets.aeternus.judge import JudgeVote, RemoveJudge, Resign, week_end
from gmkit.rulesets.aeternus.orders import Timed, parse_line

if TYPE_CHECKING:
    from gmkit.game import Game

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


@dataclass(frozen=True)
class Author:
    """Who posted or reacted: Discord's id, user name and server nickname."""

    id: str
    name: str
    nickname: str = ""


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
    """One channel's export: its name, when it was made, its messages and what could not be
    read."""

    channel: str
    exported_at: datetime | None
    messages: list[Message]
    problems: list[str] = field(default_factory=list)


def _author(raw: Any) -> Author | None:
    if not isinstance(raw, Mapping) or not raw.get("id") or not raw.get("name"):
        return None
    return Author(str(raw["id"]), str(raw["name"]), str(raw.get("nickname") or ""))


def read_export(source: str | Path | Mapping[str, Any]) -> Export:
    """An export read from a file, its JSON text or its parsed value; a message that cannot be
    read is named in ``problems`` and left out."""
    if isinstance(source, Mapping):
        data: Any = source
    else:
        text = Path(source).read_text("utf-8") if isinstance(source, Path) or (
            not str(source).lstrip().startswith("{")) else str(source)
        data = json.loads(text)
    channel = str((data.get("channel") or {}).get("name") or "").lstrip("#")
    exported = data.get("exportedAt")
    out = Export(channel, parse_time(exported) if exported else None, [])
    if channel not in CHANNELS:
        out.problems.append(f"channel #{channel or '?'} is none the rules name "
                            f"({', '.join('#' + c for c in CHANNELS)})")
    for n, raw in enumerate(data.get("messages") or []):
        where = f"#{channel} message {raw.get('id', n + 1) if isinstance(raw, Mapping) else n + 1}"
        if not isinstance(raw, Mapping):
            out.problems.append(f"{where}: not a message")
            continue
        author = _author(raw.get("author"))
        try:
            stamp = parse_time(str(raw["timestamp"]))
            edited = parse_time(raw["timestampEdited"]) if raw.get("timestampEdited") else None
        except (KeyError, ValueError):
            out.problems.append(f"{where}: no readable timestamp")
            continue
        if author is None or not raw.get("id"):
            out.problems.append(f"{where}: no author or id")
            continue
        reactions: dict[str, tuple[Author, ...]] = {}
        for reaction in raw.get("reactions") or []:
            emoji = str(((reaction or {}).get("emoji") or {}).get("name") or "")
            users = tuple(a for a in map(_author, reaction.get("users") or []) if a)
            if len(users) < int(reaction.get("count") or 0):
                out.problems.append(f"{where}: {emoji} reaction lists {len(users)} of its "
                                    f"{reaction.get('count')} users")
            reactions[emoji] = users
        out.messages.append(Message(str(raw["id"]), stamp, author, str(raw.get("content") or ""),
                                    edited, reactions))
    return out


def player_of(author: Author, players: Mapping[str, str]) -> str | None:
    """The gmkit player an author is: ``players`` maps Discord ids, user names or nicknames
    to player ids (a player id itself, compared without case, also matches)."""
    for key in (author.id, author.name, author.nickname):
        if key and key in players:
            return players[key]
    ids = {p.casefold(): p for p in players.values()}
    for key in (author.nickname, author.name):
        if key and key.casefold() in ids:
            return ids[key.casefold()]
    return None


def posts(exports: Sequence[Export], players: Mapping[str, str]
          ) -> tuple[list[tuple[str, str]], list[str]]:
    """The posts the exports make, ``(player, text)`` in posting order, and every message that
    could not be read (see the module docstring). ``exports`` are in the order they were made;
    a message is taken once, from the latest export holding it."""
    problems = [p for e in exports for p in e.problems]
    latest: dict[str, tuple[str, Message]] = {}
    seen_in: dict[str, str] = {}
    for e in exports:
        for m in e.messages:
            latest[m.id] = (e.channel, m)
            seen_in[m.id] = e.channel
    deleted = _deleted(exports)
    lines: list[tuple[datetime, str, str, str]] = []
    for mid, (channel, m) in latest.items():
        who = player_of(m.author, players)
        if who is None:
            problems.append(f"#{channel} message {mid}: {m.author.name} is not a player")
            continue
        stamp = f"[{time_text(m.timestamp)}]"
        if channel in (ACTIONS_CHANNEL, TRADES_CHANNEL):
            for k, line in enumerate(ln for ln in m.content.splitlines() if ln.strip()):
                lines.append((m.timestamp, mid, f"{k:04d}", f"{who}\n{stamp} {line.strip()}"))
        elif channel in (JUSTICE_CHANNEL, ELECTIONS_CHANNEL):
            # the Judge's channels: lines written as orders ("Ruling on 2: ...", "Stand for
            # Judge", "Vote for candidacy 1") as they are; any other message in
            # #request-for-justice is a request in its own words
            said = [ln.strip() for ln in m.content.splitlines() if ln.strip()]
            if channel == JUSTICE_CHANNEL and said and not _JUDGE_LINE.match(said[0]):
                said = ["Request: " + " ".join(said)]
            elif channel == ELECTIONS_CHANNEL and said and not _judges_order(said[0]):
                # 3.2: a message in #judge-elections is a candidacy; its reactions the votes
                said = [f"Stand for Judge (message {mid})"]
            for k, line in enumerate(said):
                lines.append((m.timestamp, mid, f"{k:04d}", f"{who}\n{stamp} {line}"))
        elif channel == PROPOSALS_CHANNEL:
            body = " ".join(m.content.split())
            urgent = body.lower().startswith("urgent")
            if urgent:
                body = body[len("urgent"):].lstrip(" :-")
            lines.append((m.timestamp, mid, "0", f"{who}\n{stamp} Propose"
                          f"{' urgent' if urgent else ''} (message {mid}): {body}"))
            if m.edited is not None or mid in deleted:
                when = m.edited or m.timestamp
                lines.append((when, mid, "1", f"{who}\n[{time_text(when)}] Edited message {mid}"))
    out = [tuple(text.split("\n", 1)) for _, _, _, text in sorted(lines)]
    return [(p, t) for p, t in out], problems


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


def _deleted(exports: Sequence[Export]) -> set[str]:
    """Messages seen in an export and missing from a later export of the same channel."""
    out: set[str] = set()
    by_channel: dict[str, list[Export]] = {}
    for e in exports:
        by_channel.setdefault(e.channel, []).append(e)
    for group in by_channel.values():
        for i, e in enumerate(group):
            later = group[i + 1:]
            if not later:
                continue
            last_ids = {m.id for m in later[-1].messages}
            out |= {m.id for m in e.messages if m.id not in last_ids}
    return out


def votes(exports: Sequence[Export], ends: Mapping[str, datetime],
          players: Mapping[str, str]) -> tuple[list[tuple[str, str]], list[str]]:
    """Each proposal's votes, ``(player, text)``: from the first export of #proposals made after
    its voting period ended (``ends`` maps its message id to that time), each player's 👍
    (for), 👎 (against) or both (unclear), stamped a second before the end. Reactions of
    non-players and proposals no export covers yet are named."""
    return _reactions(exports, PROPOSALS_CHANNEL, "proposal",
                      {mid: (end, f"message {mid}") for mid, end in ends.items()}, players)


def election_votes(exports: Sequence[Export], ends: Mapping[str, tuple[datetime, int]],
                   players: Mapping[str, str]) -> tuple[list[tuple[str, str]], list[str]]:
    """3.2: each candidacy's votes, its message's 👍 and 👎 reactions from players, read from the
    first export of #judge-elections made after its week ended (``ends`` maps the candidacy's
    message id to the week's end and the candidacy's number), stamped a second before the end:
    ``Vote for candidacy N`` (both reactions: ``Vote both candidacy N``, counted in each
    tally)."""
    return _reactions(exports, ELECTIONS_CHANNEL, "candidacy",
                      {mid: (end, f"candidacy {cid}") for mid, (end, cid) in ends.items()},
                      players)


def _reactions(exports: Sequence[Export], channel: str, what: str,
               ends: Mapping[str, tuple[datetime, str]], players: Mapping[str, str]
               ) -> tuple[list[tuple[str, str]], list[str]]:
    """The votes read from the reactions on messages of ``channel``: for each message id in
    ``ends`` (its period's end and what a vote line names), from the first export of the
    channel made after the end."""
    out: list[tuple[str, str]] = []
    problems: list[str] = []
    made = sorted((e for e in exports if e.channel == channel and e.exported_at),
                  key=lambda e: e.exported_at or datetime.min)
    for mid, (end, target) in sorted(ends.items(), key=lambda kv: (kv[1][0], kv[0])):
        export = next((e for e in made if e.exported_at and e.exported_at >= end), None)
        if export is None:
            problems.append(f"{what} message {mid}: no export of #{channel} made after its "
                            f"voting period ended ({time_text(end)})")
            continue
        message = next((m for m in export.messages if m.id == mid), None)
        if message is None:
            continue  # deleted: no reactions, so no votes
        reacted: dict[str, set[str]] = {}
        for emoji in (FOR, AGAINST):
            for a in message.reactions.get(emoji, ()):
                who = player_of(a, players)
                if who is None:
                    problems.append(f"{what} message {mid}: {emoji} by {a.name}, who is not a "
                                    "player, does not count")
                    continue
                reacted.setdefault(who, set()).add(emoji)
        stamp = time_text(end - timedelta(seconds=1))
        for who, emojis in sorted(reacted.items()):
            how = "both" if len(emojis) == 2 else ("for" if FOR in emojis else "against")
            out.append((who, f"[{stamp}] Vote {how} {target}"))
    return out, problems


def receive_exports(game: Game, exports: Sequence[Export], players: Mapping[str, str]
                    ) -> list[str]:
    """Receive what the exports say as the game's posts for the coming batch: each message's
    lines as one post of its author with its posting time, then the votes of the proposals whose
    voting period the exports cover. A line already among the pending posts is not received
    again, so exports that overlap may be read one after the other. Returns every problem
    (what could not be read or does not count)."""
    read, problems = posts(exports, players)
    state = game.state()
    ends = {str(r["discord_message"]): parse_time(str(r["ends"]))
            for r in state["proposals"].iter_rows(named=True)
            if r["discord_message"] and r["status"] == "open"}
    tally, more = votes(exports, ends, players)
    weeks = {str(r["discord_message"]): (week_end(int(r["week"])), int(r["id"]))
             for r in state["candidacies"].iter_rows(named=True)
             if r["discord_message"] and r["status"] == "open"}
    elected, also = election_votes(exports, weeks, players)
    tally, more = tally + elected, more + also
    have = {(p, t) for p, t in game.store.pending_posts(game.next_turn)
            .select("player", "text").iter_rows()}
    for player, text in read + tally:
        if (player, text) in have:
            continue
        stamp = text[1:text.index("]")]
        try:
            game.receive_post(player, text, posted=stamp)
        except ValueError as e:  # beyond gmkit's limits: that message is refused, and said
            problems.append(" ".join(str(e).split()))
            continue
        have.add((player, text))
    return problems + more
