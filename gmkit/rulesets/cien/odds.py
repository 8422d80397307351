"""Exact odds of every conquest before the dice are rolled (enumerated, not sampled)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

import polars as pl

from gmkit.core.params import Params
from gmkit.core.tables import State
from gmkit.rulesets.cien.battle import allot_defense, leftover_candidates
from gmkit.rulesets.cien.orders import Conquer, Defend, Order, reach

LOST = None


def _battle(force: int, share: int, die: int) -> list[tuple[int | None, Fraction]]:
    """Outcomes of one battle: (attacker's total if won, else None) with probabilities."""
    out: list[tuple[int | None, Fraction]] = []
    lose = Fraction(0)
    for a in range(1, die + 1):
        beaten = max(0, min(die, force + a - share - 1))  # defender rolls b with share+b < force+a
        p_win = Fraction(beaten, die * die)
        if p_win:
            out.append((force + a, p_win))
        lose += Fraction(1, die) - p_win
    if lose:
        out.append((LOST, lose))
    return out


def _always(pid: str) -> Callable[[list[str]], str]:
    return lambda _: pid


def take_chances(defense: int, fighters: Sequence[tuple[str, int, int]], rules: Params
                 ) -> dict[str, tuple[Fraction, Fraction]]:
    """For each attacker ``(id, grain dedicated, grain that fights)``: the probability that its
    battle succeeds and that it ends up holding the state."""
    die = int(rules.die)
    forces = [(pid, force) for pid, _, force in fighters]
    dedicated = [(pid, g) for pid, g, _ in fighters]
    grain = dict(dedicated)
    tied = leftover_candidates(dedicated)
    base, left = divmod(defense, len(fighters))
    if left and len(tied) > 1 and rules.leftover_tie == "roll":
        allotments = [(allot_defense(defense, dedicated, _always(t)), Fraction(1, len(tied)))
                      for t in tied]
    else:
        allotments = [(allot_defense(defense, dedicated, lambda ts: ts[0], rules.leftover_tie),
                       Fraction(1))]
    win = {pid: Fraction(0) for pid, _ in forces}
    take = {pid: Fraction(0) for pid, _ in forces}
    for shares, p_allot in allotments:
        if defense == 0:
            per: list[list[tuple[int | None, Fraction]]] = [[(force, Fraction(1))]
                                                           for _, force in forces]
        else:
            per = [_battle(force, shares[pid], die) for pid, force in forces]
        for combo in itertools.product(*per):
            p = p_allot
            for _, q in combo:
                p *= q
            winners = [(forces[i][0], total) for i, (total, _) in enumerate(combo)
                       if total is not LOST]
            for pid, _ in winners:
                win[pid] += p
            if not winners:
                continue
            best = max(grain[w] for w, _ in winners)
            top = [(w, t) for w, t in winners if grain[w] == best]
            if len(top) > 1 and rules.winner_tie == "total":
                bt = max(t for _, t in top)
                top = [(w, t) for w, t in top if t == bt]
            for w, _ in top:
                take[w] += p / len(top)
    return {pid: (win[pid], take[pid]) for pid, _ in forces}


def conquest_odds(state: State, orders: Mapping[str, Sequence[Order]],
                  rules: Params) -> pl.DataFrame:
    """One row per conquest order: the defence it meets and its exact chances."""
    owner = dict(state["provinces"].select("name", "owner").iter_rows())
    capital = dict(state["provinces"].select("name", "capital").iter_rows())
    defense = {(pid, o.province): o.grain for pid in orders for o in orders[pid]
               if isinstance(o, Defend)}
    attacks: dict[str, list[tuple[str, int, int]]] = {}
    for pid in sorted(orders):
        for o in orders[pid]:
            if isinstance(o, Conquer):
                how = reach(state, pid, o.province)
                force = o.grain - (rules.sea_preparation if how == "sea" else 0)
                attacks.setdefault(o.province, []).append((pid, o.grain, force))
    rows = []
    for target in sorted(attacks):
        who = owner[target]
        d = (rules.capital_defense if capital[target] else rules.npc_defense) if who is None \
            else defense.get((who, target), 0)
        chances = take_chances(d, attacks[target], rules)
        for pid, grain, force in attacks[target]:
            p_win, p_take = chances[pid]
            rows.append({"target": target, "defender": who or "independent", "defense": d,
                         "attacker": pid, "grain": grain, "fighting": force,
                         "p_battle": float(p_win), "p_take": float(p_take),
                         "exact": f"{p_take.numerator}/{p_take.denominator}"})
    schema = {"target": pl.String, "defender": pl.String, "defense": pl.Int64,
              "attacker": pl.String, "grain": pl.Int64, "fighting": pl.Int64,
              "p_battle": pl.Float64, "p_take": pl.Float64, "exact": pl.String}
    return pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)
