"""Step 3 of a round, contested land: claims on land, the contest between the sides that claim
it (:mod:`gmkit.rulesets.pyramid.contest`), retreats, and the land settled."""

from __future__ import annotations


from collections.abc import Sequence

from gmkit.core.dice import Dice
from gmkit.core.params import Params
from gmkit.core.steps import Event, Step
from gmkit.core.tables import State
from gmkit.rulesets.pyramid.rules import CONFLICT, CONTEST, NOBLES, STAFFING
from gmkit.rulesets.pyramid.contest import Side, resolve
from gmkit.rulesets.pyramid.orders import Claim, Lead
from gmkit.rulesets.pyramid.state import adjacency, frame, functioning, rows
from gmkit.rulesets.pyramid.phase import Orders, Result, of_kind, players_by_id, told_void


# -- 3. contested land ------------------------------------------------------------------------

def _claims(orders: Orders) -> set[tuple[str, str]]:
    out = {(pid, o.space) for pid, o in of_kind(orders, Claim)}
    out |= {(pid, o.path[-1]) for pid, o in of_kind(orders, Lead) if o.claim and o.path}
    return out


def contest(state: State, orders: Orders, dice: Dice, rules: Params) -> Result:
    """Land entered by another player's forces goes to the victor of the ladder; the loser's
    troops and pyramids are destroyed and its noble becomes the victor's DEAD; an attacking
    noble gains glory, a victor half the glory of each noble it defeats (WAR, RESOURCES)."""
    round_ = state.turn + 1
    players = players_by_id(state)
    spaces = {s["name"]: s for s in rows(state, "spaces")}
    nobles = rows(state, "nobles")
    troops = rows(state, "troops")
    pyramids = rows(state, "pyramids")
    dead = rows(state, "dead")
    claims = _claims(orders)
    events: list[Event] = []
    retreats: list[tuple[str, str]] = []
    taken: set[tuple[str, str]] = set()
    contested = sorted({n["space"] for n in nobles if n["moved_from"] is not None
                        and spaces[n["space"]]["holder"] != n["player"]})
    for space_name in contested:
        space = spaces[space_name]
        holder = space["holder"]
        present = ({n["player"] for n in nobles if n["space"] == space_name}
                   | {t["player"] for t in troops if t["space"] == space_name}
                   | {p["player"] for p in pyramids if p["space"] == space_name
                      and p["moved_from"] is not None})
        if holder is not None:
            present.add(holder)
        sides = []
        for pid in sorted(present):
            noble = next((n for n in nobles if n["space"] == space_name and n["player"] == pid),
                         None)
            fighting = tuple(sorted(str(p["size"]) for p in pyramids
                                    if p["space"] == space_name and p["player"] == pid
                                    and functioning(p, rules)))
            sides.append(Side(pid, sum(t["count"] for t in troops if t["space"] == space_name
                                       and t["player"] == pid), fighting,
                              noble["name"] if noble else None, pid == holder))
            if noble is not None and pid != holder and noble["moved_from"] is not None:
                noble["glory"] += int(rules.glory_per_attempt)
                events.append(Event("glory", NOBLES, f"{noble['name']} ({pid}) leads an attempt "
                                    f"to take {space_name}: +{rules.glory_per_attempt} glory.",
                                    pid, space_name, data={"glory": noble["glory"]}))
        verdict = resolve(sides, rules)
        described = "; ".join(
            f"{s.player}{' (holder)' if s.holder else ''}: "
            f"{s.noble or 'no noble'}, {s.troops} troops"
            + (f", {' '.join(s.pyramids)} pyramid(s)" if s.pyramids else "") for s in sides)
        events.append(Event("contest", CONTEST, f"{space_name} is contested ({described}): "
                            + ", then ".join(r.value for r in verdict.rungs) + "; "
                            + (f"{verdict.victor} holds it." if verdict.victor
                               else "no one holds it."), verdict.victor, space_name,
                            data={"rungs": [r.name for r in verdict.rungs],
                                  "victor": verdict.victor, "holder": holder,
                                  "sides": [s.player for s in sides]}))
        for winner, loser in verdict.defeats:
            wnoble = next((n for n in nobles if n["space"] == space_name
                           and n["player"] == winner), None)
            lnoble = next((n for n in nobles if n["space"] == space_name
                           and n["player"] == loser), None)
            lost_troops = sum(t["count"] for t in troops
                              if t["space"] == space_name and t["player"] == loser)
            troops = [t for t in troops if not (t["space"] == space_name and t["player"] == loser)]
            lost_pyr = [p for p in pyramids if p["space"] == space_name
                        and p["player"] == loser and functioning(p, rules)]
            pyramids = [p for p in pyramids if not any(p is q for q in lost_pyr)]
            text = f"{winner} defeats {loser} at {space_name}"
            if lost_troops or lost_pyr:
                text += (": " + " and ".join(([f"{lost_troops} troops"] if lost_troops else [])
                                             + [f"{p['size']} pyramid {p['number']}"
                                                for p in lost_pyr]) + " destroyed")
            if lnoble is not None:
                nobles = [n for n in nobles if n is not lnoble]
                dead.append({"name": lnoble["name"], "glory": lnoble["glory"], "held_by": winner,
                             "from_player": loser, "died_round": round_})
                text += f"; {lnoble['name']} (glory {lnoble['glory']}) is {winner}'s DEAD"
                if wnoble is not None:
                    gain = int(lnoble["glory"]) // int(rules.defeat_glory_divisor)
                    wnoble["glory"] += gain
                    text += f"; {wnoble['name']} gains {gain} glory"
            events.append(Event("defeat", CONFLICT, text + ".", winner, space_name,
                                data={"loser": loser, "troops": lost_troops,
                                      "pyramids": len(lost_pyr),
                                      "dead": lnoble["name"] if lnoble else None}))
        if verdict.victor is not None and verdict.victor != holder:
            space.update(holder=verdict.victor, serfs=0)
            for p in [p for p in pyramids if p["space"] == space_name
                      and p["player"] != verdict.victor]:
                if (verdict.victor, space_name) in claims or rules.claim_unordered == "claim":
                    me = players[verdict.victor]
                    me["pyramids_made"] += 1
                    events.append(Event("claim", STAFFING, f"{verdict.victor} claims "
                                        f"{p['player']}'s unstaffed {p['size']} pyramid at "
                                        f"{space_name} (now its pyramid {me['pyramids_made']}).",
                                        verdict.victor, space_name))
                    p.update(player=verdict.victor, number=me["pyramids_made"], priests=0)
                else:
                    pyramids = [q for q in pyramids if q is not p]
                    events.append(Event("razed", STAFFING, f"{verdict.victor} destroys "
                                        f"{p['player']}'s unstaffed {p['size']} pyramid at "
                                        f"{space_name}.", verdict.victor, space_name))
        retreats += [(pid, space_name) for pid in verdict.retreat]
        if verdict.victor is not None and verdict.victor != holder:
            taken.add((verdict.victor, space_name))
    for pid, o in of_kind(orders, Claim):
        if (pid, o.space) not in taken:
            events += told_void(rules, pid, o, f"{pid} did not take {o.space} this round, so there "
                            "is nothing to claim there", STAFFING, region=o.space)
    state = state.replace(players=frame(list(players.values()), "players"),
                          spaces=frame(list(spaces.values()), "spaces"),
                          nobles=frame(nobles, "nobles"), troops=frame(troops, "troops"),
                          pyramids=frame(pyramids, "pyramids"), dead=frame(dead, "dead"))
    state, more = _retreat(state, retreats, dice, rules)
    return _settle(state), events + more


def _retreat(state: State, retreats: Sequence[tuple[str, str]], dice: Dice,
             rules: Params) -> Result:
    """Forces that retreat intact go back where they came from; if another noble now stands
    there, to a neighbouring land of theirs without a noble (chosen by dice); with none, they
    are cut off: troops and pyramids lost, the noble the DEAD of whoever holds their origin."""
    round_ = state.turn + 1
    spaces = {s["name"]: s for s in rows(state, "spaces")}
    adj = adjacency(state)
    nobles, troops = rows(state, "nobles"), rows(state, "troops")
    pyramids, dead = rows(state, "pyramids"), rows(state, "dead")
    events: list[Event] = []
    for pid, space_name in retreats:
        noble = next((n for n in nobles if n["space"] == space_name and n["player"] == pid
                      and n["moved_from"] is not None), None)
        origins = {n["moved_from"] for n in nobles if n is noble}
        origins |= {t["moved_from"] for t in troops if t["space"] == space_name
                    and t["player"] == pid and t["moved_from"] is not None}
        origins |= {p["moved_from"] for p in pyramids if p["space"] == space_name
                    and p["player"] == pid and p["moved_from"] is not None}
        for origin in sorted(origins):
            others = {n["space"] for n in nobles if n is not noble}
            target: str | None = origin
            if spaces[origin]["holder"] != pid or origin in others:
                free = sorted(b for b in adj[origin] | {origin}
                              if spaces[b]["holder"] == pid and b not in others)
                target = dice.choice(free, purpose=f"{pid}'s retreat from {space_name}",
                                     rule=CONTEST, key=f"retreat/{pid}/{space_name}") \
                    if free else None
            goes = [x for x in troops + pyramids if x["space"] == space_name
                    and x["player"] == pid and x["moved_from"] == origin]
            if target is None:
                troops = [t for t in troops if not any(t is g for g in goes)]
                pyramids = [p for p in pyramids if not any(p is g for g in goes)]
                text = f"{pid}'s forces retreating from {space_name} are cut off and lost"
                if noble is not None and noble["moved_from"] == origin:
                    nobles = [n for n in nobles if n is not noble]
                    keeper = spaces[origin]["holder"]
                    if keeper is not None and keeper != pid:
                        dead.append({"name": noble["name"], "glory": noble["glory"],
                                     "held_by": keeper, "from_player": pid,
                                     "died_round": round_})
                        text += f"; {noble['name']} is {keeper}'s DEAD"
                events.append(Event("cut_off", CONTEST, text + ".", pid, space_name))
                continue
            for g in goes:
                g.update(space=target, moved_from=None)
            if noble is not None and noble["moved_from"] == origin:
                noble.update(space=target, moved_from=None)
            events.append(Event("retreat", CONTEST, f"{pid}'s forces retreat intact from "
                                f"{space_name} to {target}.", pid, target))
    return state.replace(nobles=frame(nobles, "nobles"), troops=frame(troops, "troops"),
                         pyramids=frame(pyramids, "pyramids"), dead=frame(dead, "dead")), events


def _settle(state: State) -> State:
    """Movement marks cleared and troop stacks merged by player and space."""
    stacks: dict[tuple[str, str], int] = {}
    for t in rows(state, "troops"):
        key = (t["player"], t["space"])
        stacks[key] = stacks.get(key, 0) + int(t["count"])
    troops = [{"player": p, "space": s, "count": c, "moved_from": None}
              for (p, s), c in sorted(stacks.items()) if c > 0]
    nobles = [dict(n, moved_from=None) for n in rows(state, "nobles")]
    pyramids = [dict(p, moved_from=None) for p in rows(state, "pyramids")]
    return state.replace(troops=frame(troops, "troops"), nobles=frame(nobles, "nobles"),
                         pyramids=frame(pyramids, "pyramids"))
