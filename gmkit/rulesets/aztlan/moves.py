"""The Moves of one AZTLAN movement turn (5.8, 5.8.1, 4.1, 4.2, 7.5), made after combat on the
board as combat left it (see :mod:`gmkit.rulesets.aztlan.adjudicate`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gmkit.rulesets.aztlan.decisions import Turn
from gmkit.rulesets.aztlan.forces import CHICHIMECS, MAX_STACK, Force, force_name, is_city
from gmkit.rulesets.aztlan.order_types import Move, Order, Permit
from gmkit.rulesets.aztlan.results import Code
from gmkit.rulesets.aztlan.words import armies_phrase
from gmkit.rulesets.aztlan.board.geography import DESERT

__all__ = ["Moves", "permits"]


def permits(orders_by_player: Mapping[str, Sequence[Order]]
             ) -> dict[tuple[str, str], frozenset[str] | None]:
    """(granter, grantee) -> the sectors granted, ``None`` for all of them (4.1)."""
    permits: dict[tuple[str, str], frozenset[str] | None] = {}
    for player, orders in orders_by_player.items():
        for o in orders:
            if isinstance(o, Permit):
                before = permits.get((player, o.to_player), frozenset())
                permits[(player, o.to_player)] = (
                    None if o.sectors is None or before is None else before | frozenset(o.sectors))
    return permits


class Moves:
    """The Moves of one turn (5.8, 5.8.1, 4.1, 4.2, 7.5), made on the board as
    combat left it (see the module's notes)."""

    def __init__(self, turn: Turn, movers: list[Force], final: dict[str, tuple[str, int]],
                 cities: Mapping[str, str | None],
                 permits: Mapping[tuple[str, str], frozenset[str] | None],
                 lost: dict[str, int]) -> None:
        self.t = turn
        self.movers = movers
        self.final = final
        self.cities = cities
        self.permits = permits
        self.lost = lost
        owner, n = final.get(DESERT, ("", 0))
        #: The Chichimecs in the desert that do not move out of it (7.5).
        self.hordes = n if owner == CHICHIMECS else 0
        self.reach: dict[int, int] = {}
        self.why: dict[int, str] = {}

    @staticmethod
    def path(m: Force) -> tuple[str, ...]:
        assert isinstance(m.order, Move)
        return m.order.path

    def permitted(self, owner: str, player: str, sector: str) -> bool:
        granted = self.permits.get((owner, player), frozenset())
        return granted is None or sector in granted

    def eaten_at(self, m: Force, sector: str) -> bool:
        return (sector == DESERT and m.player != CHICHIMECS and self.hordes > 0
                and m.count <= self.hordes)

    def blocked(self, m: Force, sector: str, occupant: tuple[str, int] | None) -> str | None:
        """Why ``m`` may not enter ``sector`` (2.4, 4.1, 4.2, 5.3, 5.8), or ``None``."""
        p = m.player
        if sector == DESERT and occupant is not None and occupant[0] == CHICHIMECS:
            return None  # the hordes are met by numbers, not by permission (7.5)
        if is_city(self.t.map, sector):
            owner = self.cities.get(sector)
            if owner is None and occupant is not None:
                return (f"{sector} is an independent city, never friendly: only an Attack "
                        "takes it (2.4, 5.3, 5.8)")
            if owner is not None and owner != p and not self.permitted(owner, p, sector):
                return (f"{sector} is a city of the {owner}: only an Attack takes it, or a Move "
                        "with their permission (2.4, 4.2)")
        if occupant is not None and occupant[0] != p and not self.permitted(occupant[0], p, sector):
            return (f"{sector} is held by the {occupant[0]}, who gave no permission to pass "
                    "(4.1)")
        return None

    def walk(self, m: Force, occupied: Mapping[str, tuple[str, int]], upto: int) -> int:
        """How far ``m`` gets along its path (at most ``upto`` sectors); sets its reason."""
        for i, sector in enumerate(self.path(m)[:upto]):
            why = self.blocked(m, sector, occupied.get(sector))
            if why is not None:
                self.why[m.fid] = why
                return i
            if self.eaten_at(m, sector):
                return i + 1
        return upto

    def eaten(self, m: Force) -> bool:
        r = self.reach[m.fid]
        return r > 0 and self.eaten_at(m, self.path(m)[r - 1])

    def end(self, m: Force) -> str:
        r = self.reach[m.fid]
        return self.path(m)[r - 1] if r else m.sector

    def hostile(self, a: Force, b: Force, sector: str) -> bool:
        return (a.player != b.player and not self.permitted(a.player, b.player, sector)
                and not self.permitted(b.player, a.player, sector))

    def backing(self, m: Force, sector: str) -> int:
        """The armies of uncut supports given to ``m`` moving into ``sector`` (5.5, 5.8.1)."""
        return sum(s.count for s in self.t.supporters(("move", m.fid))
                   if s.contingency is not None and s.contingency.target == sector
                   and not self.t.resolve(("cut", s.fid)))

    def scouts(self) -> None:
        """5.8.1: hostile moves into the same sector stop before it, unless one is
        supported there more strongly than all the others."""
        reach = dict(self.reach)
        for m in self.movers:
            for i, sector in enumerate(self.path(m)[:reach[m.fid]]):
                rivals = [o for o in self.movers if o is not m and self.hostile(m, o, sector)
                          and sector in self.path(o)[:reach[o.fid]]]
                if not rivals:
                    continue
                mine = self.backing(m, sector)
                best = max(rivals, key=lambda o: self.backing(o, sector))
                if mine > self.backing(best, sector):
                    continue
                self.reach[m.fid] = i
                support = (f"{force_name(best)} was supported there with {armies_phrase(self.backing(best, sector))}"
                           if self.backing(best, sector) > mine else
                           "neither was supported more strongly")
                self.why[m.fid] = (f"its scouts met those of {force_name(best)} moving into {sector}; "
                                   f"{support}, so it stops before {sector} (5.8.1)")
                break

    def occupancy(self) -> dict[str, tuple[str, int]]:
        """The armies after combat plus the moving forces that stay where they began."""
        occupied = dict(self.final)
        for m in self.movers:
            if self.reach[m.fid] == 0:
                owner, n = occupied.get(m.sector, (m.player, 0))
                occupied[m.sector] = (m.player if n == 0 else owner, n + m.count)
        return occupied

    def can_end(self, m: Force, sector: str, occupied: Mapping[str, tuple[str, int]]) -> str | None:
        """Why ``m`` may not end the turn in ``sector`` (4.1), or ``None``."""
        owner, n = occupied.get(sector, (m.player, 0))
        if sector == DESERT and owner == CHICHIMECS and m.player != CHICHIMECS:
            owner, n = m.player, 0  # driven off or eating it (7.5)
        others = [o for o in self.movers if o is not m and self.reach[o.fid] > 0
                  and not self.eaten(o) and self.end(o) == sector]
        if owner != m.player or any(o.player != m.player for o in others):
            return (f"armies of another player end the turn in {sector}: one player's armies "
                    "per sector (4.1)")
        total = n + m.count + sum(o.count for o in others)
        if sector != DESERT and total > MAX_STACK:
            return (f"{total} armies would end the turn in {sector}: at most three per sector "
                    "(4.1)")
        return None

    def run(self) -> None:
        for m in self.movers:
            self.reach[m.fid] = self.walk(m, self.final, len(self.path(m)))
        self.scouts()
        changed = True
        while changed:
            changed = False
            occupied = self.occupancy()
            for m in self.movers:
                r = self.walk(m, occupied, self.reach[m.fid])
                if r < self.reach[m.fid]:
                    self.reach[m.fid], changed = r, True
                if self.eaten(m):
                    continue
                while self.reach[m.fid] > 0:
                    why = self.can_end(m, self.end(m), occupied)
                    if why is None:
                        break
                    self.why[m.fid] = why
                    self.reach[m.fid] -= 1
                    changed = True
                    occupied = self.occupancy()
        self.settle()

    def settle(self) -> None:
        drivers = [m for m in self.movers
                   if m.player != CHICHIMECS and DESERT in self.path(m)[:self.reach[m.fid]]
                   and not self.eaten(m)]
        if self.hordes and drivers:
            del self.final[DESERT]
            self.lost[CHICHIMECS] += self.hordes
        for m in self.movers:
            path, r = self.path(m), self.reach[m.fid]
            why = self.why.get(m.fid, "")
            if self.eaten(m):
                self.lost[m.player] += m.count
                m.code, m.reason = Code.EATEN, (
                    f"eaten: {armies_phrase(m.count)} entering the {DESERT} did not outnumber the "
                    f"{armies_phrase(self.hordes)} of the Chichimecs there (7.5, 7.5.1)")
                continue
            end = self.end(m)
            owner, n = self.final.get(end, (m.player, 0))
            assert owner == m.player, f"two players end the turn in {end} (4.1)"
            self.final[end] = (m.player, n + m.count)
            off = (f"; the {armies_phrase(self.hordes)} of the Chichimecs in the {DESERT} leave the "
                   "board (7.5.2)" if self.hordes and m in drivers else "")
            if r == len(path):
                by = f" by {', '.join(path)}" if len(path) > 1 else ""
                m.code, m.reason = Code.SUCCEEDS, f"moves to {end}{by} (5.8){off}"
            elif r:
                m.code, m.reason = Code.STOPPED, f"stopped in {end}: {why}{off}"
            else:
                m.code, m.reason = Code.BOUNCED, f"bounced: {why}; it stays in {m.sector}"
