"""A seeded random AZTLAN player: legal, aggressive posts for sample games, playouts and benchmarks.

Every choice goes through gmkit's dice, so the same seed writes the same posts. Each force
attacks, supports a neighbour, stands, holds or moves; captives are sacrificed, magical supports
spent; now and then a lone army is given away. Lines the validator rejects are dropped, so the
post is legal on its own (others' orders can still void a support).
"""

from __future__ import annotations

from gmkit.core.dice import Dice
from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.envelope import Orders
from gmkit.core.parts import Context
from gmkit.core.tables import State
import gmkit.rulesets.aztlan.orders as az
from gmkit.rulesets.aztlan.state import ACTIVE, CHICHIMECS, board, position
from gmkit.rulesets.aztlan.board.geography import DESERT, EMPIRES

RULE = "5.2"


def _key(sector: str) -> tuple[int, int, str]:
    return (1, int(sector), "") if sector.isdigit() else (0, 0, sector)


def random_post(state: State, pid: str, ctx: Context, dice: Dice) -> str:
    """A post of order lines for ``pid`` (empty when the empire is out of the game)."""
    me = state["players"].filter(state["players"]["id"] == pid)
    if me.is_empty() or me["status"][0] != ACTIVE:
        return ""
    b = board(state)
    pos = position(state)
    abbr = {n: str(b.regions[n].props.get("abbr") or n) for n in b.regions}
    mine = {s: n for s, (o, n) in pos.armies.items() if o == pid}
    lines: list[str] = []
    attacks: dict[str, str] = {}  # origin -> target
    targets: set[str] = set()
    kinds = ["attack", "support", "stand", "move"] + ([] if pid == CHICHIMECS else ["hold"])
    weights = [5, 2, 2, 1] + ([] if pid == CHICHIMECS else [1])
    plans: dict[str, str] = {}
    for sector in sorted(mine, key=_key):
        plans[sector] = dice.choice(kinds, weights=weights, purpose=f"{pid} bot: order",
                                    rule=RULE)
    for sector in sorted(mine, key=_key):
        if plans[sector] != "attack":
            continue
        options = sorted((t for t in b.land_neighbours(sector)
                          if pos.armies.get(t, ("", 0))[0] != pid and t not in targets
                          and t != DESERT), key=_key)
        if not options:
            plans[sector] = "stand"
            continue
        target = dice.choice(options, purpose=f"{pid} bot: target", rule=RULE)
        targets.add(target)
        attacks[sector] = target
        n = mine[sector]
        lines.append(f"{n}A {abbr[sector]} A {abbr[target]}")
    for sector in sorted(mine, key=_key):
        plan, n, ab = plans[sector], mine[sector], abbr[sector]
        near = b.land_neighbours(sector)
        if plan == "support":
            helped = sorted(((o, t) for o, t in attacks.items() if t in near and o != sector),
                            key=lambda p: _key(p[0]))
            friends = sorted((s for s in near if s in mine and plans.get(s) in ("stand", "hold")),
                             key=_key)
            cases = [f"{abbr[o]} A {abbr[t]}" for o, t in helped[:2]] + [
                f"{abbr[s]} {'H' if plans[s] == 'hold' else 'St'}" for s in friends[:1]]
            if cases:
                lines.append(f"{n}A {ab} S " + ", ".join(cases))
                continue
            plan = "stand"
        if plan == "hold":
            lines.append(f"{n}A {ab} H")
        elif plan == "move":
            free = sorted((s for s in near if s != DESERT and s not in targets
                           and (pos.armies.get(s, ("", 0))[1] == 0 or s in mine)
                           and not (b.regions[s].props.get("city") is True
                                    and pos.cities.get(s) != pid)), key=_key)
            if free:
                to = dice.choice(free, purpose=f"{pid} bot: move", rule=RULE)
                lines.append(f"1A {ab} M {abbr[to]}")
                if n > 1:
                    lines.append(f"{n - 1}A {ab} St")
            else:
                lines.append(f"{n}A {ab} St")
        elif plan == "stand":
            lines.append(f"{n}A {ab} St")
    captives = pos.captives.get(pid, 0)
    own_cities = sorted(c for c, o in pos.cities.items() if o == pid)
    if captives and own_cities:
        where = dice.choice(own_cities, purpose=f"{pid} bot: altar", rule="3.5.4")
        lines.append(f"{abbr[where]} sac {captives}")
    magic = pos.magic.get(pid, 0)
    if magic and attacks:
        origin = dice.choice(sorted(attacks, key=_key), purpose=f"{pid} bot: the gods' aim",
                             rule="3.5.3")
        lines.append(f"{magic} GS {abbr[origin]} A {abbr[attacks[origin]]}")
    others = sorted(p for p in state["players"].filter(state["players"]["status"] == ACTIVE)["id"]
                    if p != pid and EMPIRES.get(p))
    lone = sorted((s for s, n in mine.items() if n == 1 and s not in attacks
                   and plans.get(s) == "stand" and b.regions[s].props.get("city") is not True
                   and s != DESERT), key=_key)
    if others and lone and EMPIRES.get(pid) and dice.d(
            100, purpose=f"{pid} bot: a gift?", rule="4.1.1") <= 2:
        lines = [ln for ln in lines if not ln.startswith(f"1A {abbr[lone[0]]} ")]
        to = dice.choice(others, purpose=f"{pid} bot: gift to", rule="4.1.1")
        lines.append(f"A {abbr[lone[0]]} given to {to}")
    return _legal(lines, state, pid, b)


def _legal(lines: list[str], state: State, pid: str, b: PolygonBoard) -> str:
    """Drop the lines the validator rejects (again: a dropped line can free another)."""
    pos = position(state)
    for _ in range(3):
        result = az.parse("\n".join(lines), b, pid)
        problems = az.check(pos, Orders.parsed({pid: result}), b).get(pid, [])
        bad = {p.line for p in problems} | {e.line for e in result.errors}
        if not bad:
            break
        lines = [ln for i, ln in enumerate(lines, start=1) if i not in bad]
    return "\n".join(lines)
