"""The combat of one AZTLAN movement turn told force by force: supports and cuts, attacks that
fail, armies that stand, and the sectors taken (Hold odds, 5.6, 3.5.1, or Standing armies
beaten, 5.7).  What combat leaves behind is gathered in a :class:`Tally`."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

from gmkit.rulesets.aztlan.decisions import Turn
from gmkit.rulesets.aztlan.forces import Force, force_name, is_city
from gmkit.rulesets.aztlan.order_types import CutSupport, DivineSupport, Hold, Move, Support
from gmkit.rulesets.aztlan.results import Capture, Code
from gmkit.rulesets.aztlan.words import armies_phrase

__all__ = ["Tally", "keep_standing", "report_supports", "settle_attacks", "settle_taken"]


@dataclass
class Tally:
    """What combat leaves behind, gathered as the forces are settled."""

    #: Each city's owner, as attacks take them.
    cities: dict[str, str | None]
    #: Each player's armies gone from the board.
    lost: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    captures: list[Capture] = field(default_factory=list)
    #: (sector, player, armies) arriving or returning.
    fates: list[tuple[str, str, int]] = field(default_factory=list)
    #: The armies of each force that end the combat where they began.
    stay: dict[int, int] = field(default_factory=dict)
    #: (defeated force, the attack that beat it): they retreat or are captured after the moves.
    homeless: list[tuple[Force, Force]] = field(default_factory=list)

    def armies(self, forces: list[Force]) -> dict[str, tuple[str, int]]:
        """Each occupied sector's ``(owner, count)`` after combat, before the moves."""
        final: dict[str, tuple[str, int]] = {}
        fates = [(forces[fid].sector, forces[fid].player, n) for fid, n in self.stay.items()]
        for sector, player, n in fates + self.fates:
            if n <= 0:
                continue
            owner, have = final.get(sector, (player, 0))
            assert owner == player, f"two players end the turn in {sector} (4.1)"
            final[sector] = (player, have + n)
        return final


def report_supports(t: Turn, active: list[Force]) -> None:
    """Each support's and each Cut Support's outcome, from the ``cut`` decisions (5.4, 5.5)."""
    for f in active:
        if isinstance(f.order, (Support, DivineSupport)):
            assert f.supports is not None
            kind, what = f.supports
            if kind == "move":
                assert isinstance(what, int) and f.contingency is not None
                aim = f"{force_name(t.forces[what])} moving into {f.contingency.target}"
            elif isinstance(what, int):
                helped = t.forces[what]
                aim = f"{force_name(helped)} attacking {helped.target}"
            else:
                aim = f"the armies in {what}"
            if f.divine:
                f.code, f.reason = Code.SUCCEEDS, (f"the gods add {f.count} to the weight of "
                                                   f"{aim} (3.5.3)")
            elif t.resolve(("cut", f.fid)):
                cutters = [c for c in t.cutters_of.get(f.sector, [])
                           if c.player != f.player and not t.taken(c.sector)]
                by = (f"cut by {force_name(cutters[0])} (5.4)" if cutters
                      else f"{f.sector} was taken (5.5.1)")
                f.code, f.reason = Code.CUT, f"cut: its support of {aim} failed, {by}"
            else:
                f.code, f.reason = Code.SUCCEEDS, f"supports {aim}"
        elif isinstance(f.order, CutSupport):
            if t.taken(f.sector):
                f.code, f.reason = Code.VOID, (f"void: the cutter was dislodged from {f.sector}, "
                                               "so the support stands (5.4)")
            elif any(t.resolve(("cut", v.fid)) for v in t.by_sector[f.target]
                     if v.supports is not None):
                f.code, f.reason = Code.SUCCEEDS, f"cuts the support of the army in {f.target} (5.4)"
            else:
                f.code, f.reason = Code.VOID, (
                    f"void: the cut and the support of the army in {f.target} depend on each "
                    "other in a cycle; by the backup rule the support stands")


def settle_attacks(t: Turn, active: list[Force], tally: Tally) -> dict[str, Force]:
    """The winning attack on each sector taken; the attacks that fail are annihilated on
    Holding armies (5.6) or bounce, home or, if home was taken, to be beaten there (5.7)."""
    winners: dict[str, Force] = {}
    for a in active:
        if a.attacks and t.resolve(("wins", a.fid)):
            winners[a.target] = a
    for a in active:
        if not a.attacks or a.target in winners and winners[a.target] is a:
            continue
        w, d = t.weight(a), t.defence(a.target, a)
        if w <= d and t.holding(a.target):
            a.code = Code.ANNIHILATED
            a.reason = (f"annihilated: attacked the Holding armies in {a.target} with weight {w} "
                        f"against {d} (5.6)")
            tally.lost[a.player] += a.count
            continue
        a.code = Code.BOUNCED
        if w <= d:
            there = t.staying(a.target)
            who = (force_name(there[0]) if len(there) == 1 and not t.supporters(("defend", a.target))
                   else f"the defence of {a.target}")
            a.reason = (f"bounced: {who} had {'equal' if w == d else 'greater'} weight "
                        f"({d} against {w}) (5.7)")
        else:
            rival = max((b for b in t.attacks_on[a.target]
                         if b is not a and not t.beaten_head_to_head(b)), key=t.weight)
            a.reason = (f"bounced: {force_name(rival)} attacked {a.target} with "
                        f"{'equal' if t.weight(rival) == w else 'greater'} weight")
        if a.sector in winners:
            tally.homeless.append((a, winners[a.sector]))
        else:
            tally.fates.append((a.sector, a.player, a.count))
    return winners


def keep_standing(t: Turn, winners: Mapping[str, Force], tally: Tally) -> list[Force]:
    """Sectors not taken keep their standing armies; the moving forces there, returned, move
    after combat."""
    movers: list[Force] = []
    for f in t.forces:
        if f.attacks or f.phantom or f.sector in winners:
            continue
        if f.code is None and isinstance(f.order, Move):
            movers.append(f)
            continue
        if f.code is None:
            attacked = bool(t.attacks_on.get(f.sector))
            f.code = Code.SUCCEEDS
            f.reason = ("held its ground" if attacked else "was not attacked") + (
                " (5.6)" if isinstance(f.order, Hold) else " (5.7)")
        tally.stay[f.fid] = f.count
    return movers


def settle_taken(t: Turn, target: str, a: Force, tally: Tally) -> None:
    """``a`` took ``target``: the Standing armies there are beaten (they retreat or are captured
    after the moves, 5.7); Holding armies are captured at odds of 3 to 1 (3.5.1), else
    slaughtered with as many attackers (5.6)."""
    w, d = t.weight(a), t.defence(target, a)
    staying = t.staying(target)
    if is_city(t.map, target):
        tally.cities[target] = a.player
    holders = [f for f in staying if isinstance(f.order, Hold)] if t.holding(target) else []
    for f in staying:
        if f not in holders:
            tally.homeless.append((f, a))
    if not holders:
        a.code = Code.SUCCEEDS
        a.reason = f"takes {target} with weight {w} against a defence of {d} (5.3, 5.7)"
        tally.fates.append((target, a.player, a.count))
        return
    k = sum(h.count for h in holders)
    owner = holders[0].player
    tally.lost[owner] += k
    if w >= 3 * d:
        for h in holders:
            h.code, h.reason = Code.CAPTURED, (
                f"captured: {force_name(a)} attacked with weight {w} against {d}, odds of 3 to 1 "
                "(3.5.1)")
        held_in = target if is_city(t.map, target) else a.sector
        tally.captures.append(Capture(a.player, k, held_in, owner, target))
        a.code, a.reason = Code.SUCCEEDS, (f"takes {target} with weight {w} against {d} "
                                           f"and captures {armies_phrase(k)} (3.5.1)")
        tally.fates.append((target, a.player, a.count))
        return
    _slaughter(t, target, a, holders, (w, d), tally)


def _slaughter(t: Turn, target: str, a: Force, holders: list[Force], odds: tuple[int, int],
               tally: Tally) -> None:
    """Mutual slaughter (5.6): every Holding army and as many attacking armies die, the
    attacking force first, then its supporters; surviving supporters fill the gap (5.6.1)."""
    w, d = odds
    k = sum(h.count for h in holders)
    for h in holders:
        h.code, h.reason = Code.SLAUGHTERED, (
            f"slaughtered: {force_name(a)} attacked with weight {w} against {d}, better than "
            "1 to 1 but less than 3 to 1 (5.6)")
    helpers = sorted((s for s in t.supporters(("attack", a.fid))
                      if s.code is Code.SUCCEEDS and not s.divine),
                     key=lambda s: (s.player != a.player, s.sector))
    dead = min(a.count, k)
    tally.lost[a.player] += dead
    rest = k - dead
    left = {s.fid: s.count for s in helpers}
    for s in helpers:
        n = min(left[s.fid], rest)
        if n:
            rest -= n
            left[s.fid] -= n
            tally.lost[s.player] += n
            s.reason += f", losing {armies_phrase(n)} in the slaughter at {target} (5.6)"
    if a.count > dead:
        a.code, a.reason = Code.SUCCEEDS, (
            f"takes {target} with weight {w} against {d}, losing {armies_phrase(dead)} in the "
            "mutual slaughter (5.6)")
        tally.fates.append((target, a.player, a.count - dead))
    else:
        a.code, a.reason = Code.SLAUGHTERED, (
            f"slaughtered: took {target} with weight {w} against {d} but died with its "
            "holders (5.6)")
        gap, entrant = a.count, ""
        for s in helpers:
            n = min(left[s.fid], gap)
            if n and entrant in ("", s.player):
                entrant = s.player
                gap -= n
                left[s.fid] -= n
                tally.fates.append((target, s.player, n))
                s.reason += f"; {armies_phrase(n)} moved into {target} to fill the gap (5.6.1)"
        if is_city(t.map, target):
            tally.cities[target] = entrant or t.pos.cities.get(target)
    for s in helpers:
        tally.stay[s.fid] = left[s.fid]
