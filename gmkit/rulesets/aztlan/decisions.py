"""The decisions of one AZTLAN movement turn and the backup rule that breaks their cycles.

A :class:`Turn` reads the orders into forces, gives each support to the first of its
contingencies that happens (5.5), aims each Cut Support at the supports it can cut (5.4), and
then answers two kinds of yes/no decisions through a
:class:`~gmkit.rulesets.aztlan.resolver.Resolver`: ``cut`` (is a support cut?) and ``wins``
(does an attack take its target?), from weights and defences (see
:mod:`gmkit.rulesets.aztlan.adjudicate`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.rulesets.aztlan.forces import Aim, Force, read_forces, void
from gmkit.rulesets.aztlan.order_types import (
    NEUTRAL,
    Attack,
    Contingency,
    CutSupport,
    DivineSupport,
    Hold,
    Move,
    Order,
    Support,
)
from gmkit.rulesets.aztlan.position import Position
from gmkit.rulesets.aztlan.resolver import Decision, Resolver

__all__ = ["Turn"]


class Turn:
    """The forces of one turn and the decisions between them."""

    def __init__(self, position: Position, orders_by_player: Mapping[str, Sequence[Order]],
                 game_map: PolygonBoard) -> None:
        self.pos = position
        self.map = game_map
        self.everywhere = frozenset(game_map.regions)
        self.forces = read_forces(position, orders_by_player, game_map)
        self.by_sector: dict[str, list[Force]] = defaultdict(list)
        for f in self.forces:
            f.attacks = isinstance(f.order, Attack) and f.code is None
            if not f.phantom:
                self.by_sector[f.sector].append(f)
        self.attacks_on: dict[str, list[Force]] = defaultdict(list)
        for f in self.forces:
            if f.attacks:
                self.attacks_on[f.target].append(f)
        self._choose_supports()
        self._supporters: dict[Aim, list[Force]] = defaultdict(list)
        for f in self.forces:
            if f.supports is not None:
                self._supporters[f.supports].append(f)
        self.cutters_of: dict[str, list[Force]] = defaultdict(list)
        self._check_cuts()
        self.resolve = Resolver(self._decide, self._backup)


    # -- who stands where, and whom each support is given to -------------------------

    def staying(self, sector: str) -> list[Force]:
        """The forces in ``sector`` that do not attack out of it."""
        return [f for f in self.by_sector.get(sector, []) if not f.attacks]

    def holding(self, sector: str) -> bool:
        """Whether the armies in ``sector`` Hold (5.6); independent garrisons never do."""
        return any(isinstance(f.order, Hold) and f.player != NEUTRAL
                   for f in self.staying(sector))

    def _choose_supports(self) -> None:
        for f in self.forces:
            if not isinstance(f.order, (Support, DivineSupport)) or f.code is not None:
                continue
            for c in f.order.contingencies:
                chosen = self._applies(f, c)
                if chosen is not None:
                    f.supports, f.contingency = chosen, c
                    break
            else:
                void(f, "none of its contingencies happened (5.5)")

    def _applies(self, s: Force, c: Contingency) -> Aim | None:
        near = self.everywhere if s.divine else self.map.land_neighbours(s.sector)
        if c.action in ("attack", "any"):
            for a in self.by_sector.get(c.supported, []):
                if (a.attacks and (c.target is None or a.target == c.target)
                        and a.target in near):
                    return ("attack", a.fid)
            if c.action == "attack":
                return None
        if c.action == "move":
            for m in self.by_sector.get(c.supported, []):
                if (isinstance(m.order, Move) and m.code is None and c.target in m.order.path
                        and c.target in near):
                    return ("move", m.fid)
            return None
        if c.supported not in near or not self.attacks_on.get(c.supported):
            return None
        defenders = [f for f in self.staying(c.supported) if not isinstance(f.order, Support)]
        if not defenders:
            return None
        holding = self.holding(c.supported)
        if (c.action == "hold" and not holding) or (c.action == "stand" and holding):
            return None
        return ("defend", c.supported)

    def _check_cuts(self) -> None:
        for f in self.forces:
            if not isinstance(f.order, CutSupport) or f.code is not None:
                continue
            there = self.by_sector.get(f.target, [])
            victims = [v for v in there if isinstance(v.order, Support) and v.code is None]
            if not victims:
                what = ("cuts support itself, so nothing happens" if any(
                    isinstance(v.order, CutSupport) for v in there) else "is not supporting")
                void(f, f"the army in {f.target} {what}; the cutter just stands (5.4)")
            else:
                self.cutters_of[f.target].append(f)

    # -- decisions ---------------------------------------------------------------

    def supporters(self, what: Aim) -> list[Force]:
        return self._supporters.get(what, [])

    def weight(self, a: Force) -> int:
        return a.count + sum(s.count for s in self.supporters(("attack", a.fid))
                             if not self.resolve(("cut", s.fid)))

    def defence(self, sector: str, attacker: Force | None = None) -> int:
        total = sum(f.count for f in self.staying(sector))
        total += sum(s.count for s in self.supporters(("defend", sector))
                     if not self.resolve(("cut", s.fid)))
        if attacker is not None:
            for h in self.by_sector.get(sector, []):
                if h.attacks and h.target == attacker.sector:
                    total += self.weight(h)
        return total

    def taken(self, sector: str) -> bool:
        return any(self.resolve(("wins", a.fid)) for a in self.attacks_on.get(sector, []))

    def _decide(self, decision: Decision) -> bool:
        kind, fid = decision
        f = self.forces[fid]
        if kind == "cut":
            if f.divine:
                return False
            if self.taken(f.sector):
                return True
            return any(c.player != f.player and not self.taken(c.sector)
                       for c in self.cutters_of.get(f.sector, []))
        w = self.weight(f)
        if w <= self.defence(f.target, f):
            return False
        return all(self.weight(b) < w for b in self.attacks_on[f.target]
                   if b is not f and not self.beaten_head_to_head(b))

    def beaten_head_to_head(self, b: Force) -> bool:
        """Whether ``b`` is dislodged by the very force it attacks, coming the other way: then
        it has no effect on the sector it tried to take (DATC 6.E.1, Math of Adjudication's
        prevent strength of 0)."""
        return any(h.attacks and h.target == b.sector and self.resolve(("wins", h.fid))
                   for h in self.by_sector.get(b.target, []))

    @staticmethod
    def _backup(cycle: list[Decision]) -> dict[Decision, bool]:
        """The backup rule: every Cut Support in the cycle fails to cut (the supports are
        given); a cycle of attacks alone bounces them all."""
        cuts = {d: False for d in cycle if d[0] == "cut"}
        return cuts or {d: False for d in cycle}  # a cycle of attacks alone: all bounce
