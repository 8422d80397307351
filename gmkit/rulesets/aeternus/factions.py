"""Factions (2.1): merging by request and vote, leaving, deletion, influence, and victory (8).

* A merge request names the other faction and the new name; only members of the two factions
  may vote. With ``merge_vote = members_majority`` (the rules give no voting period) it is
  accepted once more than half of the members of both vote for it; with ``phase_end`` it is
  counted at the end of the phase it was made in, more for than against.
* A player who leaves a faction founds one of their own name; a faction with no members left is
  deleted and its flags destroyed (2.1.2).
* Influence: hexes occupied (flags) over members; influential when positive.
* Victory: the first faction occupying at least 10 hexes with at least twice the influence of
  every other influential faction.

Members are the active players of the faction.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import polars as pl

from gmkit.core.parts import Context
from gmkit.core.steps import Event
from gmkit.core.tables import State
from gmkit.rulesets.aeternus.clock import parse_time, time_text
from gmkit.rulesets.aeternus.doing import Doing
from gmkit.rulesets.aeternus.orders import LeaveFaction, RequestMerge, Vote
from gmkit.rulesets.aeternus.rules import (
    FLAG_F,
    LEAVING,
    MEMBERS_MAJORITY,
    MERGING,
    PHASE_END,
)
from gmkit.rulesets.aeternus.state import Table


def members(t: Table, faction: str) -> list[str]:
    """The active players of a faction."""
    return sorted(p["id"] for p in t.players.values() if p["active"] and p["faction"] == faction)


def factions(t: Table) -> list[str]:
    """Every faction with a member."""
    return sorted({p["faction"] for p in t.players.values() if p["active"]})


def influence(t: Table) -> dict[str, tuple[int, int, Fraction]]:
    """Each faction's (hexes occupied, members, influence) (2.1.2)."""
    occupied = Counter(t.flags.values())
    sizes = Counter(p["faction"] for p in t.players.values() if p["active"])
    return {f: (occupied[f], n, Fraction(occupied[f], n)) for f, n in sorted(sizes.items())}


def winner(t: Table, hexes: int, ratio: int) -> str | None:
    """The faction that has won (8), if any."""
    inf = influence(t)
    for f, (occ, _, mine) in sorted(inf.items()):
        if occ < hexes:
            continue
        others = [v for g, (_, _, v) in inf.items() if g != f and v > 0]
        if all(mine >= ratio * v for v in others):
            return f
    return None


def _destroy_flags(t: Table, faction: str) -> int:
    gone = [h for h, f in t.flags.items() if f == faction]
    for h in gone:
        t.remove_feature(h, FLAG_F)
    return len(gone)


def drop_if_empty(d: Doing, faction: str) -> None:
    """2.1.2: a faction with no members is deleted and all its flags destroyed."""
    if members(d.table, faction):
        return
    n = _destroy_flags(d.table, faction)
    d.event("faction", LEAVING, f"The faction {faction} has no members left and is deleted"
            + (f"; its {n} flag(s) are destroyed." if n else "."), None, faction=faction)


def leave_faction(d: Doing, order: LeaveFaction) -> None:
    """2.1.2: leave one's faction, creating a new faction with one's own name."""
    old = str(d.me["faction"])
    if old == d.player:
        raise d.fail(LEAVING, f"{d.player} is alone in their own faction")
    if d.player in factions(d.table):
        raise d.fail(LEAVING, f"a faction named {d.player} exists already")
    d.me["faction"] = d.player
    d.event("faction", LEAVING, f"{d.player} leaves {old} and founds the faction "
            f"{d.player}.", None, faction=d.player)
    drop_if_empty(d, old)


def request_merge(d: Doing, order: RequestMerge) -> None:
    """2.1.1: a merge request of one's faction with another, naming the new faction."""
    t = d.table
    mine = str(d.me["faction"])
    other = next((f for f in factions(t) if f.casefold() == order.faction.casefold()), None)
    if other is None:
        # a player's name stands for their faction
        p = next((p for p in t.players.values() if p["id"].casefold() ==
                  order.faction.casefold() and p["active"]), None)
        other = None if p is None else str(p["faction"])
    if other is None or other == mine:
        raise d.fail(MERGING, f"no other faction {order.faction!r}")
    if order.name in factions(t) and order.name not in (mine, other):
        raise d.fail(MERGING, f"a faction named {order.name} exists already")
    new_id = max((m["id"] for m in t.merges), default=0) + 1
    t.merges.append({"id": new_id, "requester": d.player, "faction_a": mine,
                     "faction_b": other, "new_name": order.name,
                     "posted_at": time_text(d.when), "status": "open"})
    d.event("merge", MERGING, f"{d.player} requests that {mine} and {other} merge as "
            f"{order.name} (merge {new_id}).", None, merge=new_id)


def vote_merge(d: Doing, order: Vote) -> None:
    """2.1.1: members of the two factions vote on a merge request."""
    t = d.table
    req = next((m for m in t.merges if m["id"] == order.target), None)
    if req is None or req["status"] != "open":
        raise d.fail(MERGING, f"no open merge request {order.target}")
    if d.me["faction"] not in (req["faction_a"], req["faction_b"]):
        raise d.fail(MERGING, f"only members of {req['faction_a']} and {req['faction_b']} "
                     "vote on this merge")
    t.merge_votes = [v for v in t.merge_votes
                     if not (v["merge"] == order.target and v["player"] == d.player)]
    t.merge_votes.append({"merge": order.target, "player": d.player, "vote": order.vote})
    d.event("vote", MERGING, f"{d.player} votes {order.vote} merge {order.target}.", None)
    if d.rules.merge_vote == MEMBERS_MAJORITY:
        settle_merges(t, d.phase, d.rules.merge_vote, d.events, only=order.target)


def settle_merges(t: Table, phase: int, reading: str, events: list[Event],
                  only: int | None = None) -> None:
    """Accept or refuse the open merge requests that can be decided now (see the module
    docstring)."""
    for req in t.merges:
        if req["status"] != "open" or (only is not None and req["id"] != only):
            continue
        a, b = req["faction_a"], req["faction_b"]
        voters = set(members(t, a)) | set(members(t, b))
        votes = {v["player"]: v["vote"] for v in t.merge_votes
                 if v["merge"] == req["id"] and v["player"] in voters}
        yes = sum(1 for v in votes.values() if v == "for")
        no = len(votes) - yes
        if reading == PHASE_END:
            if t.phase_of(parse_time(req["posted_at"])) >= phase:
                continue
            accepted = yes > no
        else:
            if 2 * yes <= len(voters) and 2 * no < len(voters):
                continue
            accepted = 2 * yes > len(voters)
        if not accepted:
            req["status"] = "refused"
            events.append(Event("merge", MERGING, f"Merge {req['id']} of {a} and {b} is "
                                f"refused ({yes} for, {no} against).", req["requester"]))
            continue
        req["status"] = "accepted"
        name = req["new_name"]
        for p in t.players.values():
            if p["faction"] in (a, b):
                p["faction"] = name
        for h, f in list(t.flags.items()):
            if f in (a, b):
                t.flags[h] = name
        events.append(Event("merge", MERGING, f"{a} and {b} merge as {name} ({yes} for, "
                            f"{no} against); their flags are {name}'s.", req["requester"],
                            data={"merge": req["id"], "faction": name}))
        for other in t.merges:
            if other["status"] == "open" and {other["faction_a"], other["faction_b"]} & {a, b}:
                other["status"] = "void"
                events.append(Event("merge", MERGING, f"Merge {other['id']} lapses: "
                                    f"{a} and {b} are now {name}.", other["requester"]))


def subject_table(state: State, subject: str, ctx: Context) -> pl.DataFrame | None:
    """Each faction's hexes occupied by its flags, its members and its influence (hexes per
    member, 2.1.2), the figures its victory (8) is judged by; None for another subject."""
    if subject != "faction":
        return None
    members = (state["players"].filter(pl.col("faction").is_not_null())
               .group_by("faction").agg(pl.len().cast(pl.Int64).alias("members")))
    hexes = state["flags"].group_by("faction").agg(pl.len().cast(pl.Int64).alias("hexes"))
    return (members.join(hexes, on="faction", how="left")
            .with_columns(pl.col("hexes").fill_null(0))
            .with_columns((pl.col("hexes") / pl.col("members")).alias("influence"))
            .sort("faction")
            .select(pl.col("faction").alias("entity"), pl.col("faction").alias("player"),
                    "hexes", "members", "influence"))
