"""The Crown of Cien's resolution steps, in order, each a pure function citing its rule.

Every step takes ``(state, orders, dice, rules)`` and returns the new state and its events. Tables
are small (51 provinces, 10 colours), so steps work on row dictionaries and rebuild the frames.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from gmkit.core.dice import Dice
from gmkit.core.envelope import Envelope, Orders as CoreOrders
from gmkit.core.params import Params
from gmkit.core.steps import Event, Step
from gmkit.core.tables import State, frame
from gmkit.rulesets.cien.rules import (CAPITAL, EMPEROR, GRAIN, INTRO, LOYALTY, MISSIONS,
                                      PETITIONS, SEAS, VICTORY, WAR)
from gmkit.rulesets.cien.orders import (Conquer, Declare, Defend, Gift, Invest, Join, Order,
                                        Petition, Reward, reach, requirements_met)
from gmkit.rulesets.cien.state import ACTIVE, ELIMINATED, SCHEMAS, income_of, invest_cost
from gmkit.rulesets.cien.geography import geography, holdings
from gmkit.rulesets.cien.battle import allot_defense, battle_wins
from gmkit.rulesets.cien.outcome import winners_of

Orders = CoreOrders[Order]
Rows = list[dict[str, Any]]
NEXT_GOVERNMENT = {"city-state": "republic", "duchy": "kingdom"}


def _rows(state: State, name: str) -> Rows:
    return state[name].to_dicts()


def _frame(rows: Rows, name: str) -> pl.DataFrame:
    # the rows come from the table's own frame: polars need not check each value again
    return frame(rows, SCHEMAS[name], table=name, strict=False)


def _of(orders: Orders, kind: type) -> list[tuple[str, Any]]:
    return [(pid, o) for pid in sorted(orders) for o in orders[pid] if isinstance(o, kind)]


def _sent(orders: Orders, kind: type) -> list[Envelope[Any]]:
    """The envelopes of the orders of ``kind``, player by player, each player's as written
    (the order of :func:`_of`)."""
    return [e for pid in sorted(orders) for e in orders.of(pid) if isinstance(e.order, kind)]


def _by_id(rows: Rows, key: str = "id") -> dict[str, dict[str, Any]]:
    return {r[key]: r for r in rows}


# -- steps ------------------------------------------------------------------------------------

def join(state: State, orders: Orders, dice: Dice, rules: Params) -> tuple[State, list[Event]]:
    """A new player takes an eliminated or free colour and an independent state."""
    players, provinces = _rows(state, "players"), _rows(state, "provinces")
    pl_by, pr_by = _by_id(players), _by_id(provinces, "name")
    events = []
    for pid, o in _of(orders, Join):
        me, prov = pl_by[pid], pr_by[o.province]
        if me["status"] == ACTIVE or prov["owner"] is not None:
            continue
        me.update(status=ACTIVE, government=o.government, home=o.province, rebel=False,
                  joined_turn=state.turn + 1, eliminated_turn=None, name=o.lord or pid,
                  lord=o.lord, arms="", treasury=0, income=0)
        prov["owner"] = pid
        events.append(Event("join", INTRO, f"A new lord takes the colour {pid} and rules "
                            f"{o.province} as a {o.government}.", pid, o.province))
    return state.replace(players=_frame(players, "players"),
                         provinces=_frame(provinces, "provinces")), events


def spend(state: State, orders: Orders, dice: Dice, rules: Params) -> tuple[State, list[Event]]:
    """Grain set aside for defence, investment, conquest and gifts leaves the treasury."""
    players = _rows(state, "players")
    by = _by_id(players)
    events = []
    for r in players:
        r.update(spent_defense=0, spent_invest=0, spent_conquest=0, gifts=0)
    for pid in sorted(orders):
        me = by.get(pid)
        if me is None or me["status"] != ACTIVE:
            continue
        for o in orders[pid]:
            if isinstance(o, Defend):
                me["spent_defense"] += o.grain
            elif isinstance(o, Invest):
                me["spent_invest"] += o.grain
            elif isinstance(o, Conquer):
                me["spent_conquest"] += o.grain
            elif isinstance(o, Gift):
                me["gifts"] += o.grain
            elif isinstance(o, Petition):
                me["gifts"] += o.gift
        total = me["spent_defense"] + me["spent_invest"] + me["spent_conquest"] + me["gifts"]
        me["treasury"] -= total
        events.append(Event("spend", GRAIN, f"{pid} sets aside {total} grain ({me['spent_defense']}"
                            f" defence, {me['spent_invest']} investment, {me['spent_conquest']} "
                            f"conquest, {me['gifts']} gifts); {me['treasury']} remain.", pid,
                            public=False, data={"total": total}))
    return state.replace(players=_frame(players, "players")), events


def petitions(state: State, orders: Orders, dice: Dice,
              rules: Params) -> tuple[State, list[Event]]:
    """Petitions of Advancement (33% per requirement met, +1% per grain gifted) and a Rebel's
    declaration of a Kingdom or Republic."""
    players = _rows(state, "players")
    by = _by_id(players)
    events = []
    for sent in _sent(orders, Petition):
        pid, o = sent.player, sent.order
        me = by[pid]
        met = requirements_met(state, pid, rules)
        chance = min(100, rules.petition_chance * met + o.gift)
        roll = dice.roll(1, 100, purpose=f"{pid}'s Petition of Advancement ({chance}%: {met} "
                         f"requirement(s), gift {o.gift})", rule=PETITIONS, key=f"petition/{pid}",
                         public=not sent.secret, player=pid)
        approved = roll <= chance
        new_gov = NEXT_GOVERNMENT.get(me["government"], me["government"])
        if approved:
            me["government"] = new_gov
        events.append(Event("petition", PETITIONS,
                            f"The Emperor {'grants' if approved else 'refuses'} {pid}'s petition "
                            f"(rolled {roll} against {chance}%)"
                            + (f": {pid} is now a {new_gov.title()}." if approved else "."),
                            pid, public=not sent.secret,
                            data={"approved": approved, "chance": chance, "roll": roll}))
    for pid, o in _of(orders, Declare):
        me = by[pid]
        if me["government"] in NEXT_GOVERNMENT:
            me["government"] = NEXT_GOVERNMENT[me["government"]]
            events.append(Event("declare", LOYALTY, f"{pid} declares itself a "
                                f"{me['government'].title()}; the bonus counts from next turn.",
                                pid))
    return state.replace(players=_frame(players, "players")), events


def investment(state: State, orders: Orders, dice: Dice,
               rules: Params) -> tuple[State, list[Event]]:
    """Each 5 grain invested (3 for a City-State) adds 1 to a state's output from next turn."""
    provinces = _rows(state, "provinces")
    pr_by = _by_id(provinces, "name")
    govs = dict(state["players"].select("id", "government").iter_rows())
    events = []
    for sent in _sent(orders, Invest):
        pid, o = sent.player, sent.order
        cost = invest_cost(govs[pid], rules)
        gain, waste = divmod(o.grain, cost)
        prov = pr_by[o.province]
        prov["output"] += gain
        events.append(Event("invest", GRAIN, f"{pid} invests {o.grain} grain in {o.province}: "
                            f"output +{gain} to {prov['output']}"
                            + (f" ({waste} grain did not make a whole {cost})." if waste else "."),
                            pid, o.province, public=not sent.secret, data={"gain": gain}))
    return state.replace(provinces=_frame(provinces, "provinces")), events


def conquest(state: State, orders: Orders, dice: Dice,
             rules: Params) -> tuple[State, list[Event]]:
    """Conquests: d10 + grain against d10 + defending grain, defence split among attackers,
    the largest winning conquest takes the state, whose output is halved."""
    provinces = _rows(state, "provinces")
    pr_by = _by_id(provinces, "name")
    players = _rows(state, "players")
    pl_by = _by_id(players)
    emperor_alive = bool(state["empire"]["emperor_alive"][0])
    defense = {(pid, o.province): o.grain for pid, o in _of(orders, Defend)}
    attacks: dict[str, list[tuple[str, Conquer]]] = {}
    for pid, o in _of(orders, Conquer):
        attacks.setdefault(o.province, []).append((pid, o))
    events: list[Event] = []
    changes: dict[str, str] = {}
    for target in sorted(attacks):
        prov = pr_by[target]
        owner = prov["owner"]
        newcomer = owner is not None and pl_by[owner]["joined_turn"] == state.turn + 1 \
            and pl_by[owner]["home"] == target
        if owner is None or newcomer:
            d = rules.capital_defense if prov["capital"] else rules.npc_defense
            defender = "the Emperor" if prov["capital"] else (
                f"{owner}, still defended as independent" if newcomer else "independent")
        else:
            d = defense.get((owner, target), 0)
            defender = owner
        fighters = []
        for pid, o in attacks[target]:
            how = reach(state, pid, target)
            force = o.grain - (rules.sea_preparation if how == "sea" else 0)
            fighters.append((pid, o, force, how))
            if target == CAPITAL and owner is None and emperor_alive and not pl_by[pid]["rebel"]:
                pl_by[pid]["rebel"] = True
                events.append(Event("rebel", LOYALTY, f"{pid} attacks the Imperial City of Cien "
                                    "and is marked a Rebel.", pid, target))
            if how == "sea":
                events.append(Event("sea", SEAS, f"{pid} ferries troops across "
                                    f"{_shared_sea(state, pid, target)} to {target}: "
                                    f"{rules.sea_preparation} of {o.grain} grain go on "
                                    f"preparations, {force} fight.", pid, target,
                                    public=True))
        shares = allot_defense(d, [(pid, o.grain) for pid, o, _, _ in fighters],
                               lambda tied: dice.choice(
                                   tied, purpose=f"who faces the leftover defence of {target}",
                                   rule=WAR, key=f"leftover/{target}"),
                               rules.leftover_tie)
        if len(fighters) > 1:
            events.append(Event("split", WAR, f"{target}'s {d} defending grain are spread among "
                                f"{len(fighters)} attackers: " + ", ".join(
                                    f"{shares[p]} against {p}" for p, *_ in fighters) + ".",
                                region=target))
        winners = []
        for pid, o, force, how in fighters:
            share = shares[pid]
            if d == 0:
                events.append(Event("walkover", WAR, f"{target} is undefended: {pid}'s "
                                    f"{force} grain walk in without a fight.", pid, target))
                winners.append((pid, o.grain, force))
                continue
            a = dice.d(rules.die, purpose=f"{pid} attacks {target} with {force}", rule=WAR,
                       key=f"attack/{target}/{pid}", player=pid)
            b = dice.d(rules.die, purpose=f"{target} ({defender}) defends with {share} against "
                       f"{pid}", rule=WAR, key=f"defend/{target}/{pid}",
                       player=owner)
            won = battle_wins(force, a, share, b)
            events.append(Event("battle", WAR, f"{pid} attacks {target}: {force}+{a} = "
                                f"{force + a} against {target}'s ({defender}) {share}+{b} = {share + b}: "
                                + ("the attack succeeds." if won else "the attack is repelled."),
                                pid, target, data={"attack": force, "attack_roll": a,
                                                   "defense": share, "defense_roll": b,
                                                   "won": won}))
            if won:
                winners.append((pid, o.grain, force + a))
        if not winners:
            continue
        best = max(w[1] for w in winners)
        top = [w for w in winners if w[1] == best]
        if len(top) > 1 and rules.winner_tie == "total":
            best_total = max(w[2] for w in top)
            top = [w for w in top if w[2] == best_total]
        if len(top) > 1:
            winner = dice.choice([w[0] for w in top],
                                 purpose=f"roll-off among the tied conquerors of {target}",
                                 rule=WAR, key=f"winner/{target}")
        else:
            winner = top[0][0]
        changes[target] = winner
        if len(winners) > 1:
            events.append(Event("winner", WAR, f"Several conquests of {target} succeed; "
                                f"{winner} dedicated the most and takes it.", winner, target))
    for target, winner in changes.items():
        prov = pr_by[target]
        before = prov["output"]
        half = before // 2 if rules.halving == "floor" else -(-before // 2)
        prov.update(owner=winner, output=half, conquered_turn=state.turn + 1,
                    conquered_from=prov["owner"])
        events.append(Event("conquest", WAR, f"{winner} conquers {target}; looting halves its "
                            f"output from {before} to {half}.", winner, target))
    return state.replace(provinces=_frame(provinces, "provinces"),
                         players=_frame(players, "players")), events


def _shared_sea(state: State, pid: str, target: str) -> str:
    return geography(state).shared_sea(holdings(state).get(pid, frozenset()), target) or "a Great Sea"


def elimination(state: State, orders: Orders, dice: Dice,
                rules: Params) -> tuple[State, list[Event]]:
    """A player with no state left is eliminated; the colour is free for a new player."""
    players = _rows(state, "players")
    held = set(state["provinces"]["owner"].drop_nulls())
    events = []
    for r in players:
        if r["status"] == ACTIVE and r["id"] not in held:
            r.update(status=ELIMINATED, eliminated_turn=state.turn + 1)
            events.append(Event("eliminated", INTRO, f"{r['id']} has lost every state and is "
                                "eliminated; another player may take the colour.", r["id"]))
    return state.replace(players=_frame(players, "players")), events


def emperor(state: State, orders: Orders, dice: Dice,
            rules: Params) -> tuple[State, list[Event]]:
    """The Emperor's death when Cien falls; missions fulfilled (25-grain reward), failed
    (the player becomes a Rebel) or voided."""
    turn = state.turn + 1
    empire = _rows(state, "empire")[0]
    missions = _rows(state, "missions")
    players = _rows(state, "players")
    pl_by = _by_id(players)
    provinces = _rows(state, "provinces")
    pr_by = _by_id(provinces, "name")
    events = []
    cien_owner = pr_by[CAPITAL]["owner"] if CAPITAL in pr_by else None
    if empire["emperor_alive"] and cien_owner is not None:
        empire.update(emperor_alive=False, died_turn=turn, killer=cien_owner)
        events.append(Event("emperor_dies", EMPEROR, f"{cien_owner} captures Cien: Emperor "
                            "Clement VII is presumed killed. Petitions are no longer needed and "
                            "every Imperial Mission is void.", cien_owner, CAPITAL))
        for m in missions:
            if m["status"] == "active":
                m.update(status="voided", ended_turn=turn)
    gifts: dict[str, int] = {}
    for pid, o in _of(orders, Gift):
        gifts[pid] = gifts.get(pid, 0) + o.grain
    rewards = {pid: o.province for pid, o in _of(orders, Reward)}
    conquered_by = {r["name"]: r["owner"] for r in provinces if r["conquered_turn"] == turn}
    for m in missions:
        if m["status"] != "active":
            continue
        me = pl_by[m["player"]]
        if me["status"] != ACTIVE:
            m.update(status="voided", ended_turn=turn)
            events.append(Event("mission_void", MISSIONS, f"{m['player']}'s mission is void: "
                                "the player is gone.", m["player"]))
            continue
        done = False
        if m["kind"] == "provision":
            m["progress"] += gifts.get(m["player"], 0)
            done = m["progress"] >= m["amount"]
        elif m["kind"] == "punishment":
            done = conquered_by.get(m["target"]) == m["player"]
            if not done and pr_by[m["target"]]["owner"] is not None:
                m["progress"] = 0
        elif m["kind"] == "subjugation":
            target = pl_by[m["target"]]
            if target["status"] == ELIMINATED:
                if rules.subjugation_credit == "any":
                    done = True
                else:
                    done = target["eliminated_turn"] == turn and any(
                        r["owner"] == m["player"] and r["conquered_from"] == m["target"]
                        for r in provinces if r["conquered_turn"] == turn)
                if not done:
                    m.update(status="voided", ended_turn=turn)
                    events.append(Event("mission_void", MISSIONS, f"{m['target']} fell to "
                                        f"another hand; {m['player']}'s Subjugation is void.",
                                        m["player"]))
                    continue
        if done:
            m.update(status="fulfilled", ended_turn=turn)
            held = [r for r in provinces if r["owner"] == m["player"]]
            place = rewards.get(m["player"])
            if place is None or pr_by[place]["owner"] != m["player"]:
                place = max(held, key=lambda r: (r["output"], r["name"]))["name"] if held else None
            gain = rules.mission_reward // rules.invest_cost
            if place is not None:
                pr_by[place]["output"] += gain
            events.append(Event("mission_done", MISSIONS, f"{m['player']} fulfils the "
                                f"{_mission_name(m)}: the Emperor invests {rules.mission_reward} "
                                f"grain in {place} (+{gain} output).", m["player"], place))
        elif turn >= m["deadline_turn"]:
            m.update(status="failed", ended_turn=turn)
            if not me["rebel"]:
                me["rebel"] = True
                events.append(Event("rebel", LOYALTY, f"{m['player']} failed the "
                                    f"{_mission_name(m)} in time and is marked a Rebel.",
                                    m["player"]))
    return state.replace(empire=_frame([empire], "empire"),
                         missions=_frame(missions, "missions"),
                         players=_frame(players, "players"),
                         provinces=_frame(provinces, "provinces")), events


def _mission_name(m: dict[str, Any]) -> str:
    if m["kind"] == "provision":
        return f"Provision of Supplies ({m['amount']} grain)"
    if m["kind"] == "punishment":
        return f"Punishment of {m['target']}"
    return f"Subjugation of the Rebel {m['target']}"


def new_mission(state: State, orders: Orders, dice: Dice,
                rules: Params) -> tuple[State, list[Event]]:
    """Every turn the Emperor might task one loyal player with a mission (type and player by
    the dice)."""
    empire = state["empire"].row(0, named=True)
    if not empire["emperor_alive"]:
        return state, []
    turn = state.turn + 1
    missions = _rows(state, "missions")
    busy = {m["player"] for m in missions if m["status"] == "active"}
    players = state["players"].filter(pl.col("status") == ACTIVE)
    loyal = [r for r in players.iter_rows(named=True) if not r["rebel"] and r["id"] not in busy]
    rebels = [r["id"] for r in players.iter_rows(named=True) if r["rebel"]]
    if not loyal:
        return state, []
    if rules.mission_chance <= 0:
        return state, []
    if rules.mission_chance < 100:
        roll = dice.roll(1, 100, purpose=f"does the Emperor give a mission? "
                         f"({rules.mission_chance}%)", rule=MISSIONS, key="mission/chance")
        if roll > rules.mission_chance:
            return state, [Event("no_mission", MISSIONS, f"The Emperor gives no mission this "
                                 f"turn (rolled {roll} over {rules.mission_chance}%).")]
    who = dice.choice([r["id"] for r in loyal], purpose="which player the Emperor tasks",
                      rule=MISSIONS, key="mission/player")
    me = next(r for r in loyal if r["id"] == who)
    neutral = [n for n, o in state["provinces"].select("name", "owner").iter_rows()
               if o is None and n != CAPITAL]
    if rules.punishment_target == "reachable":
        neutral = [n for n in neutral if reach(state, who, n)]
    kinds = ["provision"] + (["punishment"] if neutral else []) + \
        (["subjugation"] if [r for r in rebels if r != who] else [])
    kind = dice.choice(kinds, purpose=f"which mission {who} gets", rule=MISSIONS,
                       key="mission/kind")
    target, amount = None, 0
    if kind == "provision":
        top = max(rules.provision_min, int(me["income"]))
        amount = dice.choice(list(range(rules.provision_min, top + 1)),
                             purpose=f"grain the feast needs ({rules.provision_min} to {top})",
                             rule=MISSIONS, key="mission/amount")
        limit = rules.provision_deadline
    elif kind == "punishment":
        target = dice.choice(sorted(neutral), purpose="which province slighted the Emperor",
                             rule=MISSIONS, key="mission/target")
        limit = rules.punishment_deadline
    else:
        target = dice.choice(sorted(r for r in rebels if r != who),
                             purpose="which Rebel to subjugate", rule=MISSIONS,
                             key="mission/target")
        limit = rules.subjugation_deadline
    deadline = limit if rules.deadline == "max" else dice.d(
        limit, purpose="the mission's deadline in turns", rule=MISSIONS, key="mission/deadline")
    mission = {"id": len(missions) + 1, "player": who, "kind": kind, "target": target,
               "amount": amount, "progress": 0, "given_turn": turn,
               "deadline_turn": turn + deadline, "status": "active", "ended_turn": None}
    missions.append(mission)
    extra = f" The Emperor adds {rules.subjugation_support} grain a turn while it lasts." \
        if kind == "subjugation" else ""
    return state.replace(missions=_frame(missions, "missions")), [
        Event("mission", MISSIONS, f"The Emperor tasks {who} with the {_mission_name(mission)}, "
              f"due by the end of turn {turn + deadline}.{extra}", who, target,
              data={"kind": kind})]


def advancement(state: State, orders: Orders, dice: Dice,
                rules: Params) -> tuple[State, list[Event]]:
    """With the Emperor dead, meeting one requirement advances a state by itself."""
    if bool(state["empire"]["emperor_alive"][0]):
        return state, []
    players = _rows(state, "players")
    events = []
    for r in players:
        if r["status"] == ACTIVE and r["government"] in NEXT_GOVERNMENT and \
                requirements_met(state, r["id"], rules) > 0:
            r["government"] = NEXT_GOVERNMENT[r["government"]]
            events.append(Event("advance", EMPEROR, f"{r['id']} meets a requirement and becomes "
                                f"a {r['government'].title()} (no Emperor to petition).",
                                r["id"]))
    return state.replace(players=_frame(players, "players")), events


def income(state: State, orders: Orders, dice: Dice, rules: Params) -> tuple[State, list[Event]]:
    """Next turn's grain: every held state's output, the government bonus and mission support."""
    inc = income_of(state, rules)
    players = _rows(state, "players")
    events = []
    for r in players:
        if r["id"] in inc:
            r["income"] = inc[r["id"]]
            r["treasury"] += inc[r["id"]]
            events.append(Event("income", GRAIN, f"{r['id']} gathers {inc[r['id']]} grain "
                                f"(treasury {r['treasury']}).", r["id"], public=False))
        elif r["status"] != ACTIVE:
            r["income"] = 0
    return state.replace(players=_frame(players, "players")), events


def victory(state: State, orders: Orders, dice: Dice,
            rules: Params) -> tuple[State, list[Event]]:
    """26 provinces including Cien, 100 income and the right government; or the last standing."""
    empire = _rows(state, "empire")[0]
    if empire["winners"]:
        return state, []
    won, why = winners_of(state, rules)
    if not won:
        return state, []
    empire["winners"] = ",".join(won)
    return state.replace(empire=_frame([empire], "empire")), [
        Event("victory", VICTORY, why, won[0] if len(won) == 1 else None)]


STEPS = [
    Step("join", "New players", INTRO, join),
    Step("spend", "Grain set aside", GRAIN, spend),
    Step("investment", "Investments", GRAIN, investment),
    Step("petitions", "Petitions and declarations", PETITIONS, petitions),
    Step("conquest", "Conquests", WAR, conquest),
    Step("elimination", "Eliminations", INTRO, elimination),
    Step("emperor", "The Emperor and his missions", MISSIONS, emperor),
    Step("new_mission", "A new Imperial Mission", MISSIONS, new_mission),
    Step("advancement", "Advancement without an Emperor", EMPEROR, advancement),
    Step("income", "Income", GRAIN, income),
    Step("victory", "Victory", VICTORY, victory),
]
