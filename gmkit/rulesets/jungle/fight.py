"""An attack action against the state: who fights, with what, where, and what the result does.

CHARACTER ATTACKS meet the state here: the attackers (one, or every participant of a joint
attack, the principal first), the defenders (the target; his landlord, "required to defend any of
his tenants"; and any character who has resolved a Defend action, of the target's house or of his
landlord's, in the same location), the location strength, and the Defend, desperate and title
multipliers. :func:`gmkit.rulesets.jungle.attack.resolve_attack` decides; :func:`fight` writes
the outcome back: attributes, stolen stores, slaves, an escape, a seized item, titles and deaths.
"""

from __future__ import annotations

from collections.abc import Sequence

from gmkit.core.dice import Dice
from gmkit.core.params import Params
from gmkit.core.steps import Event
from gmkit.core.tables import State
import gmkit.rulesets.jungle.actions as A
from gmkit.rulesets.jungle.attack import (LEVELS, Attack, AttackOutcome, AttackType, Fighter,
                                          resolve_attack, title_bonus)
from gmkit.rulesets.jungle.edit import add_to, add_to_house, char, house, members
from gmkit.rulesets.jungle.effects import Result, need, _give_land, _tenancy
from gmkit.rulesets.jungle.lifecycle import (add_title, drop_titles, enslave, free_slave, kill,
                                             make_tlatoani, set_captain)
from gmkit.rulesets.jungle.odds import band_odds
from gmkit.rulesets.jungle.places import Places
from gmkit.rulesets.jungle.state import PEASANT, landlord_of, owner_of, rows, titles_of
from gmkit.rulesets.jungle.edit import update


def level_of(state: State, name: str, kind: AttackType) -> str | None:
    """A character's title level at an attack type (experienced, skilled, master or None)."""
    have = [t["title"] for t in titles_of(state, name) if t["subject"] == kind.value
            and t["title"] in LEVELS]
    return max(have, key=LEVELS.index) if have else None


def defenders_of(state: State, target: str, attackers: Sequence[str]) -> list[str]:
    """The principal defender first, then his landlord and the defending characters who join."""
    places = Places(state)
    t = char(state, target)
    landlord = landlord_of(state, target)
    out = [target]
    if landlord and char(state, landlord)["alive"] and places.same(landlord, target):
        out.append(landlord)
    houses = {t["house"]} | ({char(state, landlord)["house"]} if landlord else set())
    for c in sorted(rows(state, "characters"), key=lambda c: c["name"]):
        if (c["alive"] and c["defending"] > 0 and c["house"] in houses and c["name"] not in out
                and c["name"] not in attackers and places.same(c["name"], target)):
            out.append(c["name"])
    return out


def _check_item(state: State, kind: AttackType, target: str, item: str | None) -> str:
    """The item a Challenge or Overthrow is for, held by the target: 'city:X', 'land',
    'unit:X' or 'slave:X'."""
    text = (item or "").strip()
    cities = {c["city"]: c for c in rows(state, "cities")}
    units = {u["unit"]: u for u in rows(state, "units")}
    low = text.lower()
    for name, c in cities.items():
        if name.lower() == low:
            need(c["tlatoani"] == target, f"{target} does not rule {name}")
            return f"city:{name}"
    for name, u in units.items():
        if name.lower() == low:
            need(u["captain"] == target, f"{target} is not the Captain of {name}")
            return f"unit:{name}"
    if low in ("land", "his land", "the land", "tile", "hex"):
        need(any(h["citizen"] == target for h in rows(state, "hexes")),
              f"{target} holds no land")
        return "land"
    slave = next((c["name"] for c in rows(state, "characters") if c["name"].lower() == low), None)
    need(slave is not None, f"no city, unit, land or slave '{text}' to {kind.value.lower()} for")
    need(owner_of(state, slave or "") == target, f"{slave} is not {target}'s slave")
    return f"slave:{slave}"


def prepare(state: State, attackers: Sequence[A.Attack], principal: str, key: str,
            rules: Params) -> tuple[Attack, str | None]:
    """The attack as :mod:`attack` resolves it, checked against the state when its turn comes."""
    first = attackers[0]
    kind, target = first.kind, first.target
    names = [principal] + sorted(a.who for a in attackers if a.who != principal)
    places = Places(state)
    need(char(state, target)["alive"], f"{target} is dead")
    for n in names:
        need(char(state, n)["alive"], f"{n} is dead")
        need(places.same(n, target), f"{n} is not in the same location as {target}")
    item = None
    if kind is AttackType.STEAL:
        house_of = char(state, target)["house"]
        top = max(c["fame"] for c in members(state, house_of))
        need(char(state, target)["fame"] == top,
              f"a steal may only target the highest-Fame member of house {house_of}")
    if kind is AttackType.ESCAPE:
        need(owner_of(state, principal) == target, f"{principal} is not a slave of {target}")
    if kind is AttackType.CAPTURE:
        need(owner_of(state, target) != principal, f"{target} is {principal}'s slave already")
    if kind in (AttackType.CHALLENGE, AttackType.OVERTHROW):
        item = _check_item(state, kind, target, first.item)
        if item.startswith("unit:"):
            need(char(state, principal)["unit"] == item[5:],
                  f"only a member of {item[5:]} can take its captaincy")
    desperate = {a.who for a in attackers if a.desperate}
    defenders = defenders_of(state, target, names)

    def fighter(name: str, factor: int, is_desperate: bool = False) -> Fighter:
        c = char(state, name)
        return Fighter(name, {k: int(c[k]) for k in ("xp", "fame", "wisdom", "craftsmanship")},
                       factor, title_bonus(level_of(state, name, kind), rules), is_desperate)

    att = tuple(fighter(n, int(rules.desperate_factor) if n in desperate else 1, n in desperate)
                for n in names)
    dfn = tuple(fighter(n, int(rules.defend_factor) ** int(char(state, n)["defending"]))
                for n in defenders)
    where = principal if rules.location_strength_of == "attacker" else target
    h = house(state, char(state, target)["house"])
    levels = {n: lv for n in names if (lv := level_of(state, n, kind)) is not None}
    attack = Attack(key, kind, att, dfn, places.strength(where), (h["food"], h["gold"]),
                    frozenset(n for n in defenders if level_of(state, n, kind) == "skilled"),
                    frozenset(n for n in defenders if level_of(state, n, kind) == "master"),
                    levels)
    return attack, item


def fight(state: State, attackers: Sequence[A.Attack], principal: str, dice: Dice,
          rules: Params) -> Result:
    """Resolve one attack (single or joint) and write its outcome into the state."""
    first = attackers[0]
    key = f"attack/{principal}/{first.slot}"
    attack, item = prepare(state, attackers, principal, key, rules)
    a_str, d_str = attack.strengths()
    odds = band_odds(a_str, d_str, attack.location, rules)
    out = resolve_attack(attack, dice, rules)
    state = apply_outcome(state, attack, out, item, first)
    names = [f.name for f in attack.attackers]
    text = (f"{' and '.join(names)} {'desperately ' if first.desperate else ''}attack"
            f"{'s' if len(names) == 1 else ''} {first.target} ({first.kind.value}): strength "
            f"{a_str:.2f} against {d_str:.2f} + location {attack.location:.2f}; result "
            f"{out.result:.3f} ({out.band.name.replace('_', ' ').lower()}).")
    events = [Event("attack", attack.spec.rule, text, first.by,
                    data={"attackers": names, "defenders": [f.name for f in attack.defenders],
                          "band": out.band.name, "u": out.u, "result": out.result,
                          "changes": {k: dict(v) for k, v in out.changes.items()},
                          "odds": {b.name: p for b, p in odds.items()}})]
    for name in [f.name for f in attack.attackers + attack.defenders]:
        if char(state, name)["alive"] and char(state, name)["xp"] <= 0:
            state, more = kill(state, name, f"dies of wounds ({first.kind.value})", dice, rules)
            events += more
    return state, events


def apply_outcome(state: State, attack: Attack, out: AttackOutcome, item: str | None,
                  first: A.Attack) -> State:
    """Write an attack's outcome: attributes, loot, slaves, escape, item and titles."""
    for name, deltas in out.changes.items():
        state = add_to(state, name, **deltas)
    for name, (food, gold) in out.stolen.items():
        state = add_to_house(state, char(state, name)["house"], food=food, gold=gold)
    if out.stolen:
        victim = char(state, first.target)["house"]
        state = add_to_house(state, victim, food=-sum(f for f, _ in out.stolen.values()),
                             gold=-sum(g for _, g in out.stolen.values()))
    for slave, owner in out.enslaved:
        state = enslave(state, slave, owner)
    if out.escaped:
        state = free_slave(state, attack.attackers[0].name)
    if out.seized and item:
        state = seize(state, item, first.target, attack.attackers[0].name)
    for name, level in out.titles:
        for lv in LEVELS:
            state = drop_titles(state, character=name, title=lv, subject=first.kind.value)
        state = add_title(state, name, level, first.kind.value)
    return state


def seize(state: State, item: str, loser: str, winner: str) -> State:
    """The item of a Challenge or Overthrow passes to the principal attacker."""
    kind, _, name = item.partition(":")
    if kind == "city":
        state = update(state, "characters", "name", loser, **{"class": PEASANT})
        state = make_tlatoani(state, name, winner)
        return _tenancy(state, loser)
    if kind == "unit":
        return set_captain(state, name, winner)
    if kind == "land":
        return _give_land(state, loser, winner)
    return enslave(state, name, winner)
