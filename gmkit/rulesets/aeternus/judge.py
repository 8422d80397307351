"""The Judge (3.2): requests for justice, rulings, overturning, confidence votes, removal and
elections.

* A request for justice (``Request: ...``, in #request-for-justice) is answered by the Judge
  (``Ruling on N: ...``), never on the Judge's own request.
* The Judge who made a ruling may overturn it within a week (``Overturn ruling N``); the request
  is then open for a new ruling.
* Within 4 days of a ruling anyone may call a vote of confidence (``Call confidence vote on
  ruling N``), open for 2 days; players vote ``Vote affirm confidence N`` or ``Vote overturn
  confidence N`` (both: unclear, which affirms). The ruling is overturned when strictly more
  vote to overturn than to affirm. Counted when the vote's period has ended.
* The Judge is removed with the assent of two players (``Remove the Judge``), or resigns
  (``Resign as Judge``).
* A reputable player stands for Judge by a message in #judge-elections (``Stand for Judge``;
  read from an export, ``Stand for Judge (message ID)``); the votes are the 👍 and 👎
  reactions of players on that message, read from the first export made after the week ended
  (``Vote for candidacy N`` / ``Vote against candidacy N``, or written so when pasted; a player
  with both reactions counts in each tally). When a week (Monday 00:00 UTC) ends, of the popular
  candidacies of that week (more 👍 than 👎) the one with most 👍 wins, ties to the earliest
  message; with none, the incumbent stays.

Overturned rulings are marked ``overturned``: they have no bearing on the rules (the GM reads
the standing ones).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from gmkit.core.steps import Event
from gmkit.rulesets.aeternus.clock import parse_time, time_text
from gmkit.rulesets.aeternus.doing import Doing
from gmkit.rulesets.aeternus.rules import JUDGEMENT
from gmkit.rulesets.aeternus.state import Table

#: A Monday, 00:00 UTC: weeks are counted from here (1.1).
_MONDAY = datetime(2023, 1, 2, tzinfo=timezone.utc)


@dataclass(frozen=True)
class RequestJustice:
    """3.2: a question or statement for the Judge."""

    text: str


@dataclass(frozen=True)
class Ruling:
    """3.2: the Judge's response to a request."""

    request: int
    text: str


@dataclass(frozen=True)
class Overturn:
    """3.2: the Judge overturns their own ruling within a week."""

    ruling: int


@dataclass(frozen=True)
class CallConfidence:
    """3.2: a public vote of confidence on a ruling."""

    ruling: int


@dataclass(frozen=True)
class JudgeVote:
    """A vote in a confidence vote (``affirm``, ``overturn``, ``unclear``) or on a candidacy
    (``for``, ``against``, ``unclear``)."""

    kind: str
    target: int
    vote: str


@dataclass(frozen=True)
class RemoveJudge:
    """3.2: assent to removing the incumbent Judge."""


@dataclass(frozen=True)
class Resign:
    """3.2: the Judge ceases being the Judge."""


@dataclass(frozen=True)
class Stand:
    """3.2: a candidacy for Judge; ``message`` is its Discord message, when read from an export
    (its 👍 and 👎 reactions are the votes)."""

    message: str = ""


JudgeOrder = RequestJustice | Ruling | Overturn | CallConfidence | JudgeVote | RemoveJudge \
    | Resign | Stand


def week_of(t: datetime) -> int:
    """The week holding ``t`` (weeks start on Monday 00:00 UTC, 1.1)."""
    return (t - _MONDAY).days // 7


def week_end(week: int) -> datetime:
    """When week ``week`` ends."""
    return _MONDAY + timedelta(days=7 * (week + 1))


def _judge(t: Table) -> str | None:
    return t.judge.get("judge") or None


def _next(rows: list[dict[str, Any]]) -> int:
    return max((r["id"] for r in rows), default=0) + 1


def request(d: Doing, order: RequestJustice) -> None:
    """3.2: a request for justice."""
    t = d.table
    rid = _next(t.requests)
    t.requests.append({"id": rid, "player": d.player, "text": order.text,
                       "posted_at": time_text(d.when), "ruling": None})
    d.event("justice", JUDGEMENT, f"{d.player} requests justice (request {rid}): "
            f"{order.text}", None, request=rid)


def rule(d: Doing, order: Ruling) -> None:
    """3.2: the Judge responds to a request by another person."""
    t = d.table
    if _judge(t) != d.player:
        raise d.fail(JUDGEMENT, f"{d.player} is not the Judge")
    req = next((r for r in t.requests if r["id"] == order.request), None)
    if req is None:
        raise d.fail(JUDGEMENT, f"no request {order.request}")
    if req["player"] == d.player:
        raise d.fail(JUDGEMENT, "the Judge does not rule on their own request")
    if req["ruling"] is not None:
        raise d.fail(JUDGEMENT, f"request {order.request} has a standing ruling")
    rid = _next(t.rulings)
    t.rulings.append({"id": rid, "request": order.request, "judge": d.player,
                      "text": order.text, "posted_at": time_text(d.when), "status": "standing"})
    req["ruling"] = rid
    d.event("ruling", JUDGEMENT, f"The Judge {d.player} rules on request {order.request} "
            f"(ruling {rid}): {order.text}", None, ruling=rid)


def _overturn(t: Table, ruling: dict[str, Any]) -> None:
    ruling["status"] = "overturned"
    for req in t.requests:
        if req["ruling"] == ruling["id"]:
            req["ruling"] = None


def overturn(d: Doing, order: Overturn) -> None:
    """3.2: the Judge who made a ruling may overturn it within one week."""
    t = d.table
    ruling = next((r for r in t.rulings if r["id"] == order.ruling), None)
    if ruling is None or ruling["status"] != "standing":
        raise d.fail(JUDGEMENT, f"no standing ruling {order.ruling}")
    if ruling["judge"] != d.player or _judge(t) != d.player:
        raise d.fail(JUDGEMENT, "only the Judge who made a ruling overturns it")
    if d.when - parse_time(ruling["posted_at"]) > timedelta(days=7):
        raise d.fail(JUDGEMENT, "a ruling is overturned by its Judge within one week")
    _overturn(t, ruling)
    d.event("ruling", JUDGEMENT, f"{d.player} overturns ruling {order.ruling}; request "
            f"{ruling['request']} awaits a new ruling.", None, ruling=order.ruling)


def call_confidence(d: Doing, order: CallConfidence) -> None:
    """3.2: within 4 days of a ruling, a vote of confidence open for 2 days."""
    t = d.table
    ruling = next((r for r in t.rulings if r["id"] == order.ruling), None)
    if ruling is None or ruling["status"] != "standing":
        raise d.fail(JUDGEMENT, f"no standing ruling {order.ruling}")
    if d.when - parse_time(ruling["posted_at"]) > timedelta(days=4):
        raise d.fail(JUDGEMENT, "a vote of confidence is called within 4 days of the ruling")
    if any(c["ruling"] == order.ruling for c in t.confidence):
        raise d.fail(JUDGEMENT, f"ruling {order.ruling} has had its vote of confidence")
    cid = _next(t.confidence)
    t.confidence.append({"id": cid, "ruling": order.ruling, "posted_at": time_text(d.when),
                         "ends": time_text(d.when + timedelta(days=2)), "status": "open",
                         "affirm": 0, "overturn": 0})
    d.event("confidence", JUDGEMENT, f"{d.player} calls a vote of confidence on ruling "
            f"{order.ruling} (vote {cid}, open 2 days).", None, confidence=cid)


def vote(d: Doing, order: JudgeVote) -> None:
    """A vote of confidence or on a candidacy."""
    t = d.table
    if order.kind == "confidence":
        c = next((c for c in t.confidence if c["id"] == order.target), None)
        if c is None or c["status"] != "open" or d.when >= parse_time(c["ends"]):
            raise d.fail(JUDGEMENT, f"no open vote of confidence {order.target}")
    else:
        c = next((c for c in t.candidacies if c["id"] == order.target), None)
        if c is None or c["status"] != "open":
            raise d.fail(JUDGEMENT, f"no open candidacy {order.target}")
    t.judge_votes.append({"kind": order.kind, "target": order.target, "player": d.player,
                          "vote": order.vote, "posted_at": time_text(d.when)})
    d.event("vote", JUDGEMENT, f"{d.player} votes {order.vote} on {order.kind} {order.target}.",
            None)


def remove(d: Doing, order: RemoveJudge) -> None:
    """3.2: the Judge is removed with the assent of two players."""
    t = d.table
    judge = _judge(t)
    if judge is None:
        raise d.fail(JUDGEMENT, "there is no Judge")
    t.judge_votes.append({"kind": "removal", "target": 0, "player": d.player,
                          "vote": judge, "posted_at": time_text(d.when)})
    assent = {v["player"] for v in t.judge_votes if v["kind"] == "removal"
              and v["vote"] == judge and parse_time(v["posted_at"]) >=
              parse_time(t.judge["since"])}
    if len(assent) >= 2:
        t.judge = {"judge": None, "since": time_text(d.when)}
        d.event("judge", JUDGEMENT, f"{' and '.join(sorted(assent))} remove the Judge "
                f"{judge}.", None)
    else:
        d.event("judge", JUDGEMENT, f"{d.player} assents to removing the Judge {judge}.", None)


def resign(d: Doing, order: Resign) -> None:
    """3.2: a person ceases being the Judge by publicly stating so."""
    t = d.table
    if _judge(t) != d.player:
        raise d.fail(JUDGEMENT, f"{d.player} is not the Judge")
    t.judge = {"judge": None, "since": time_text(d.when)}
    d.event("judge", JUDGEMENT, f"{d.player} ceases being the Judge.", None)


def stand(d: Doing, order: Stand) -> None:
    """3.2: any reputable player may become a candidate for the Judge."""
    t = d.table
    if not d.reputable():
        raise d.fail(JUDGEMENT, f"{d.player} is not reputable")
    week = week_of(d.when)
    mine = next((c for c in t.candidacies if c["player"] == d.player and c["week"] == week
                 and c["status"] == "open"), None)
    if mine is not None:
        raise d.fail(JUDGEMENT, f"{d.player} is a candidate this week already (candidacy "
                     f"{mine['id']}): one message is the candidacy, its reactions the votes")
    cid = _next(t.candidacies)
    t.candidacies.append({"id": cid, "player": d.player, "posted_at": time_text(d.when),
                          "week": week_of(d.when), "status": "open",
                          "discord_message": order.message or None})
    d.event("candidacy", JUDGEMENT, f"{d.player} stands for Judge (candidacy {cid}).", None,
            candidacy=cid)


def _count(t: Table, kind: str, target: int, ends: datetime) -> dict[str, str]:
    latest: dict[str, str] = {}
    for v in sorted(t.judge_votes, key=lambda v: v["posted_at"]):
        if v["kind"] == kind and v["target"] == target and parse_time(v["posted_at"]) < ends \
                and t.players.get(v["player"], {}).get("active"):
            latest[v["player"]] = v["vote"]
    return latest


def settle(t: Table, now: datetime) -> list[Event]:
    """Count the confidence votes and the elections whose time has come by ``now``."""
    events: list[Event] = []
    for c in t.confidence:
        if c["status"] != "open" or parse_time(c["ends"]) > now:
            continue
        votes = _count(t, "confidence", c["id"], parse_time(c["ends"]))
        over = sum(1 for v in votes.values() if v == "overturn")
        affirm = len(votes) - over  # unclear affirms
        c["affirm"], c["overturn"] = affirm, over
        ruling = next(r for r in t.rulings if r["id"] == c["ruling"])
        if over > affirm and ruling["status"] == "standing":
            c["status"] = "overturned"
            _overturn(t, ruling)
            events.append(Event("confidence", JUDGEMENT, f"Ruling {ruling['id']} is overturned "
                                f"({over} to overturn, {affirm} to affirm).", None))
        else:
            c["status"] = "affirmed"
            events.append(Event("confidence", JUDGEMENT, f"Ruling {ruling['id']} stands "
                                f"({over} to overturn, {affirm} to affirm).", None))
    weeks = sorted({c["week"] for c in t.candidacies if c["status"] == "open"})
    for week in weeks:
        end = week_end(week)
        if end > now:
            continue
        best: tuple[int, str, dict[str, Any]] | None = None
        for c in sorted((c for c in t.candidacies if c["week"] == week
                         and c["status"] == "open"), key=lambda c: c["posted_at"]):
            votes = _count(t, "candidacy", c["id"], end)
            # a player who reacted both 👍 and 👎 (unclear) is counted in each
            yes = sum(1 for v in votes.values() if v in ("for", "unclear"))
            no = sum(1 for v in votes.values() if v in ("against", "unclear"))
            c["status"] = "popular" if yes > no else "unpopular"
            if yes > no and (best is None or yes > best[0]):
                best = (yes, c["posted_at"], c)
        if best is not None:
            best[2]["status"] = "elected"
            t.judge = {"judge": best[2]["player"], "since": time_text(end)}
            events.append(Event("judge", JUDGEMENT, f"{best[2]['player']} is elected Judge "
                                f"({best[0]} for) as the week ends.", best[2]["player"]))
    return events
