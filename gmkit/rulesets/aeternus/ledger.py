"""The nomic ledger (3.1): proposals, their votes, and what an accepted proposal changes.

* A proposal is urgent or standard (the default). Only a reputable player submits an urgent
  one; its voting period begins when it is submitted and ends two days after, and it is popular
  with at most two votes against. A standard proposal's voting period is the phase that starts
  after it was submitted; it is popular with more votes for than against.
* A vote is a 👍 or 👎 reaction from a player, as it stands when the voting period ends: each
  player's latest vote posted before the end counts; both reactions at once (``unclear``) count
  against; votes of non-players and votes after the end do not count.
* At the end of its voting period a popular proposal takes effect unless its message was edited
  or deleted; several ending together take effect in the order they were created.
* An accepted proposal's ``set RULE = VALUE`` lines are recorded in ``rule_changes``; each that
  names a rule of the rules table with a value it takes is enacted (:func:`enacted_changes`,
  the ruleset's ``enacted``) at once: in force for every action posted after the end of the
  voting period, in the same batch as in the batches after it (recorded with the turn like a
  GM's ``gmkit rules --set``). Rule text gmkit cannot read, and a proposal with none, is a note
  in the ledger.

:func:`close_due` runs after each action with the time of the action that follows it (so a
proposal whose period ends between two actions takes effect between them), and at the end of
each batch with the clock of the latest action.
"""

from __future__ import annotations

import tomllib
from datetime import datetime, timedelta
from typing import Any

from gmkit.core.params import Params
from gmkit.core.parts import RuleChange
from gmkit.core.ruleset import Ruleset
from gmkit.core.steps import Event
from gmkit.rulesets.aeternus.clock import parse_time, phase_bounds, time_text
from gmkit.rulesets.aeternus.doing import Doing
from gmkit.rulesets.aeternus.orders import SET_RULE, Edited, Propose, Vote
from gmkit.rulesets.aeternus.rules import PROPOSALS, STANDARD, URGENT
from gmkit.rulesets.aeternus.state import Table
from gmkit.core.tables import State

OPEN, ACCEPTED, REJECTED, VOID = "open", "accepted", "rejected", "void"


def voting_period(t: Table, posted: datetime, urgent: bool, rules: Params
                  ) -> tuple[datetime, datetime]:
    """When a proposal's voting period begins and ends (3.1.1, 3.1.2)."""
    if urgent:
        return posted, posted + timedelta(days=rules.urgent_days)
    return phase_bounds(t.phase_of(posted) + 1, t.cycle_start)


def propose(d: Doing, order: Propose) -> None:
    """3.1: a proposal posted in #proposals."""
    t = d.table
    if order.urgent and not d.reputable():
        raise d.fail(URGENT, f"{d.player} is not reputable: only a reputable player submits an "
                     "urgent proposal")
    start, end = voting_period(t, d.when, order.urgent, d.rules)
    new_id = max((p["id"] for p in t.proposals), default=0) + 1
    t.proposals.append({"id": new_id, "author": d.player, "urgent": order.urgent,
                        "text": order.text, "posted_at": time_text(d.when),
                        "ends": time_text(end), "status": OPEN, "votes_for": 0,
                        "votes_against": 0, "edited": False, "discord_message": order.message})
    for rule_name, value in order.rules:
        if rule_name not in d.rules:
            d.event("proposal", PROPOSALS, f"Proposal {new_id} sets {rule_name!r}, which is no "
                    "rule gmkit knows: it will be a note.", None)
    d.event("proposal", URGENT if order.urgent else STANDARD,
            f"{d.player} proposes ({'urgent' if order.urgent else 'standard'}, proposal "
            f"{new_id}): {order.text} — voting from {time_text(start)} to {time_text(end)}.",
            None, proposal=new_id)


def vote(d: Doing, order: Vote) -> None:
    """3.1: a 👍 or 👎 reaction on a proposal (the latest before the end counts)."""
    t = d.table
    prop = find(t, order.target, order.message)
    if prop is None:
        raise d.fail(PROPOSALS, f"no proposal {order.message or order.target}")
    if prop["status"] != OPEN or d.when >= parse_time(prop["ends"]):
        raise d.fail(PROPOSALS, f"the voting period of proposal {order.target} has ended")
    t.votes.append({"proposal": prop["id"], "player": d.player, "vote": order.vote,
                    "posted_at": time_text(d.when)})
    d.event("vote", PROPOSALS, f"{d.player} votes {order.vote} proposal {prop['id']}.", None,
            proposal=prop["id"])


def find(t: Table, proposal: int, message: str = "") -> dict[str, Any] | None:
    """A proposal by number, or by the Discord message it was posted in."""
    if message:
        return next((p for p in t.proposals if p["discord_message"] == message), None)
    return next((p for p in t.proposals if p["id"] == proposal), None)


def edited(d: Doing, order: Edited) -> None:
    """3.1: a proposal whose message was edited or deleted does not take effect."""
    prop = find(d.table, 0, order.message)
    if prop is None or prop["author"] != d.player:
        raise d.fail(PROPOSALS, f"{d.player} posted no proposal in message {order.message}")
    prop["edited"] = True
    d.event("proposal", PROPOSALS, f"Proposal {prop['id']} was edited or deleted: it will not "
            "take effect.", None, proposal=prop["id"])


def tally(t: Table, prop: dict[str, object]) -> tuple[int, int]:
    """Votes for and against a proposal at the end of its voting period: each player's latest
    reaction before the end; unclear counts against; non-players do not count."""
    ends = parse_time(str(prop["ends"]))
    latest: dict[str, str] = {}
    for v in sorted(t.votes, key=lambda v: v["posted_at"]):
        if v["proposal"] != prop["id"] or parse_time(v["posted_at"]) >= ends:
            continue
        p = t.players.get(v["player"])
        if p is None or not p["active"]:
            continue
        latest[v["player"]] = v["vote"]
    yes = sum(1 for v in latest.values() if v == "for")
    return yes, len(latest) - yes


def popular(prop: dict[str, object], yes: int, no: int, rules: Params) -> bool:
    """3.1.1 / 3.1.2: popular for its class."""
    if prop["urgent"]:
        return no <= rules.urgent_max_against
    return yes > no


def close_due(t: Table, now: datetime, rules: Params) -> list[Event]:
    """Close every open proposal whose voting period ended by ``now``, in creation order."""
    events: list[Event] = []
    for prop in sorted(t.proposals, key=lambda p: (p["ends"], p["posted_at"], p["id"])):
        if prop["status"] != OPEN or parse_time(prop["ends"]) > now:
            continue
        yes, no = tally(t, prop)
        prop["votes_for"], prop["votes_against"] = yes, no
        rule = URGENT if prop["urgent"] else STANDARD
        if prop["edited"]:
            prop["status"] = VOID
            events.append(Event("proposal", PROPOSALS, f"Proposal {prop['id']} was edited or "
                                "deleted: it does not take effect.", prop["author"]))
            continue
        if not popular(prop, yes, no, rules):
            prop["status"] = REJECTED
            events.append(Event("proposal", rule, f"Proposal {prop['id']} is not popular "
                                f"({yes} for, {no} against).", prop["author"]))
            continue
        prop["status"] = ACCEPTED
        from_phase = t.phase_of(parse_time(prop["ends"]))
        changes = [(m["rule"], m["value"].strip()) for m in SET_RULE.finditer(str(prop["text"]))]
        for name, value in changes:
            t.rule_changes.append({"proposal": prop["id"], "rule_name": name, "value": value,
                                   "from_phase": from_phase})
        refused = [found for found in (_refused(rules, n, v) for n, v in changes) if found]
        what = ("; " + ", ".join(f"{n} = {v}" for n, v in changes)
                + " from now on") if changes else "; it is a note in the ledger"
        if refused:  # a value its rule does not take is never enacted: say which and why
            what += " (not enacted: " + "; ".join(refused) + ")"
        events.append(Event("proposal", rule, f"Proposal {prop['id']} takes effect ({yes} for, "
                            f"{no} against){what}.", prop["author"],
                            data={"proposal": prop["id"], "changes": len(changes)}))
    return events


def mark_edited(t: Table, proposal: int) -> None:
    """A proposal whose message was edited or deleted (seen in an export): it cannot take
    effect."""
    for p in t.proposals:
        if p["id"] == proposal:
            p["edited"] = True


def enacted_changes(before: State, after: State, ruleset: Ruleset[Any]) -> list[RuleChange]:
    """The rule changes proposals accepted between ``before`` and ``after`` set: each new row of
    ``rule_changes`` naming a rule of the rules table with a value that rule takes (read as
    TOML, else as text). A line naming no rule, or a value the rule refuses, stays a note in the
    ledger; the proposal's event says what it set."""
    if after["rule_changes"].height <= before["rule_changes"].height:
        return []  # rows are only ever added: nothing new (asked before every action)
    old = {(r["proposal"], r["rule_name"]) for r in before["rule_changes"].iter_rows(named=True)}
    known = {p.name for p in ruleset.params}
    out: list[RuleChange] = []
    for r in after["rule_changes"].iter_rows(named=True):
        name = str(r["rule_name"])
        if (r["proposal"], name) in old or name not in known:
            continue
        value = _rule_value(str(r["value"]))
        try:
            ruleset.rules({name: value})
        except ValueError:
            continue
        out.append(RuleChange(name, value, f"proposal {r['proposal']} accepted", at_once=True))
    return out


def _refused(rules: Params, name: str, value: str) -> str | None:
    """Why a rule of the table does not take the value a proposal sets (None when it does, or
    when the line names no rule: a note in the ledger)."""
    param = rules.table.get(name)
    return None if param is None else param.problem(_rule_value(value))


def _rule_value(text: str) -> Any:
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text
