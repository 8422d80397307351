"""A seeded random player for Cien: plausible posts for sample games, playouts and benchmarks.

Every choice goes through gmkit's dice, so the same seed writes the same posts.
"""

from __future__ import annotations

import polars as pl

from gmkit.core.dice import Dice
from gmkit.core.parts import Context
from gmkit.core.tables import State
from gmkit.rulesets.cien.rules import CAPITAL, TURN
from gmkit.rulesets.cien.orders import reach, requirements_met
from gmkit.rulesets.cien.state import ACTIVE, invest_cost


def random_post(state: State, pid: str, ctx: Context, dice: Dice) -> str:
    """A forum post of bold order lines for ``pid`` that spends within its treasury."""
    rules = ctx.rules
    me = state["players"].filter(pl.col("id") == pid).row(0, named=True)
    if me["status"] != ACTIVE:
        free = sorted(n for n, o in state["provinces"].select("name", "owner").iter_rows()
                      if o is None and n != CAPITAL)
        if not free:
            return "Waiting for a free state."
        where = dice.choice(free, purpose=f"{pid} bot: state to join with", rule=TURN)
        return f"[b]Join as {pid} with {where} as a Duchy[/b]"
    budget = int(me["treasury"])
    held = state["provinces"].filter(pl.col("owner") == pid)["name"].to_list()
    owners = dict(state["provinces"].select("name", "owner").iter_rows())
    targets = sorted({n for n in owners if owners[n] != pid and reach(state, pid, n) is not None
                      and (n != CAPITAL or len(held) >= 12)})
    lines: list[str] = []

    def share(part: int) -> int:
        return max(0, budget * part // 100)

    if targets and budget >= 8:
        target = dice.choice(targets, purpose=f"{pid} bot: target", rule=TURN)
        grain = max(6 if reach(state, pid, target) == "sea" else 1,
                    share(dice.choice([30, 45, 60], purpose=f"{pid} bot: war share", rule=TURN)))
        if grain <= budget:
            lines.append(f"{grain} Grain for Conquest of {target}.")
            budget -= grain
    if held and budget >= 5:
        place = dice.choice(sorted(held), purpose=f"{pid} bot: investment", rule=TURN)
        grain = share(dice.choice([20, 35, 50], purpose=f"{pid} bot: invest share", rule=TURN))
        grain -= grain % invest_cost(me["government"], rules)
        if grain > 0:
            lines.append(f"{grain} Grain for Investing of {place}.")
            budget -= grain
    border = [n for n in sorted(held)
              if state["borders"].filter((pl.col("a") == n)
                                         & pl.col("b").is_in([t for t in owners
                                                              if owners[t] != pid])).height]
    for n in border[:3]:
        if budget <= 0:
            break
        grain = min(budget, max(1, budget // 3))
        lines.append(f"{grain} Grain for Defense of {n}.")
        budget -= grain
    alive = bool(state["empire"]["emperor_alive"][0])
    if (alive and not me["rebel"] and me["government"] in ("city-state", "duchy")
            and requirements_met(state, pid, rules) > 0):
        gift = min(budget, 10)
        lines.append(f"Petition for Advancement, gift {gift} grain.")
        budget -= gift
    missions = state["missions"].filter((pl.col("player") == pid) & (pl.col("status") == "active")
                                        & (pl.col("kind") == "provision"))
    if missions.height and budget > 0:
        need = int(missions["amount"][0] - missions["progress"][0])
        lines.append(f"Gift {min(need, budget)} Grain to the Emperor.")
    body = "\n".join(f"[b]{line}[/b]" for line in lines) or "[b]5 Grain for Defense of " \
        f"{held[0]}[/b]" if held else ""
    return f"Orders of {pid} for this turn:\n{body}\nLong live the Emperor!"
