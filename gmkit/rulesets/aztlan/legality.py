"""AZTLAN's orders judged: every problem of every player's orders against the board, by line.

:func:`check` reads all players' orders together: permissions to pass (4.1) and what the
supported armies do (5.5) come from the others' orders.  Each order arrives in its
:class:`~gmkit.core.envelope.Envelope`; a problem names the envelope's line
(:attr:`~gmkit.core.envelope.Envelope.number`).  :func:`gmkit.rulesets.aztlan.orders.validate`
is the ruleset's entry.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import cast

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.envelope import Envelope, Orders
from gmkit.core.orders import IllegalOrderError, OrderError, join_alternatives
from gmkit.rulesets.aztlan.names import player_name
from gmkit.rulesets.aztlan.order_types import (
    ARMY_ORDERS,
    MAX_FORCE,
    MAX_MOVE,
    NEUTRAL,
    ArmyOrder,
    Attack,
    Contingency,
    CutSupport,
    DivineSupport,
    Give,
    Hold,
    Move,
    Order,
    Permit,
    Sacrifice,
    Support,
)
from gmkit.rulesets.aztlan.position import Position, homeless
from gmkit.rulesets.aztlan.words import contingency_text, possessive
from gmkit.rulesets.aztlan.board.geography import DESERT, EMPIRES, home_centres

__all__ = ["check"]

_TRIAD = ("Aztecs", "Chalcans", "Tlaxcalans")


def _lines(found: Sequence[int]) -> str:
    return ("line " if len(found) == 1 else "lines ") + join_alternatives(
        [str(n) for n in found], "and")


#: One of a player's orders in its envelope (its line is the envelope's ``number``).
Sent = Envelope[Order]


class _Checker:
    """Judges one player's orders; problems are gathered by line."""

    def __init__(self, position: Position, game_map: PolygonBoard, pid: str,
                 orders: list[Sent], everyone: Mapping[str, list[Sent]],
                 permits: Mapping[tuple[str, str], frozenset[str] | None]) -> None:
        self.pos = position
        self.map = game_map
        self.pid = pid
        self.orders = orders
        self.everyone = everyone
        self.permits = permits
        self.homes = home_centres()
        self.errors: list[OrderError] = []

    # -- helpers ------------------------------------------------------------------

    def bad(self, sent: Sent, reason: str) -> None:
        self.errors.append(sent.reject(reason))

    def owner(self, sector: str) -> str | None:
        held = self.pos.armies.get(sector)
        return held[0] if held and held[1] > 0 else None

    def mine(self, sector: str) -> int:
        held = self.pos.armies.get(sector)
        return held[1] if held and held[0] == self.pid else 0

    def is_city(self, sector: str) -> bool:
        region = self.map.regions.get(sector)
        return region is not None and region.props.get("city") is True

    def adjacent(self, a: str, b: str) -> bool:
        return a in self.map.regions and b in self.map.land_neighbours(a)

    def closed_city(self, sector: str) -> str | None:
        """Why a Move or retreat may not enter ``sector`` (2.4, 4.2, 5.3), or ``None``."""
        if not self.is_city(sector):
            return None
        owner = self.pos.cities.get(sector)
        if owner == self.pid:
            return None
        if owner is None:
            if self.owner(sector) is None:
                return None  # destroyed by the Chichimecs: the first to come takes it (7.4)
            return (f"{sector} is an independent city: only an Attack takes it, a Move never "
                    "enters it (2.4, 5.3, 5.8)")
        granted = self.permits.get((owner, self.pid), frozenset())
        if granted is None or sector in granted:
            return None
        return (f"{sector} is a city of the {possessive(owner)}: only an Attack takes it, or a Move with "
                "their permission (2.4, 4.2, 5.3)")

    def border(self, sector: str, attack: bool) -> str | None:
        """The 1450 and 1451 border restrictions (6.1, 6.2)."""
        empire = self.homes.get(sector)
        if empire is None or empire == self.pid:
            return None
        if self.pos.year == 1450 and self.pid in _TRIAD and empire in _TRIAD:
            return (f"{sector} is in the {possessive(empire)} homeland: in 1450 the Aztecs, Chalcans and "
                    "Tlaxcalans may not cross each other's borders (6.1)")
        if (attack and self.pos.year == 1451
                and {self.pid, empire} == {"Aztecs", "Tlaxcalans"}):
            return (f"{sector} is in the {possessive(empire)} homeland: in 1451 the Aztecs and Tlaxcalans "
                    "may not attack each other's homeland (6.2)")
        return None

    # -- the checks -------------------------------------------------------------------

    def run(self) -> list[OrderError]:
        sent = self.orders
        army = [e for e in sent if isinstance(e.order, ARMY_ORDERS)]
        by_sector: dict[str, list[Sent]] = defaultdict(list)
        for e in army:
            by_sector[cast(ArmyOrder, e.order).origin].append(e)
        attacks: dict[str, Sent] = {}
        for e in sent:
            if isinstance(e.order, Attack) and e.order.target not in attacks:
                attacks[e.order.target] = e

        for e in sent:
            o = e.order
            if isinstance(o, ARMY_ORDERS):
                self.check_force(e, o)
            if isinstance(o, Attack):
                self.check_attack(e, o, attacks)
            elif isinstance(o, CutSupport):
                self.check_cut(e, o)
            elif isinstance(o, Support):
                self.check_support(e, o)
            elif isinstance(o, DivineSupport):
                self.check_divine(e, o, sent)
            elif isinstance(o, Hold):
                if self.pid == "Chichimecs":
                    self.bad(e, "Chichimecs may Attack, Support, Cut Support, Stand or Move, "
                                "never Hold (7.1)")
            elif isinstance(o, Move):
                self.check_move(e, o, attacks)
            elif isinstance(o, Sacrifice):
                self.check_sacrifice(e, o, sent)
            elif isinstance(o, Give):
                self.check_give(e, o)
            elif isinstance(o, Permit):
                self.check_permit(e, o)
            retreat = getattr(o, "retreat", ())
            if retreat:
                self.check_retreat(e, cast(ArmyOrder, o), retreat)

        for sector, group in by_sector.items():
            self.check_split(sector, group)
        self.check_stacking(army)
        return sorted(self.errors, key=lambda e: e.line or 0)

    def check_force(self, e: Sent, o: ArmyOrder) -> None:
        if o.origin not in self.map.regions:
            self.bad(e, f"no sector {o.origin} on the board")
            return
        if not 1 <= o.count <= MAX_FORCE:
            self.bad(e, f"a force is a single, double or triple army, not {o.count} (5.3, 5.9)")
        if not self.mine(o.origin):
            owner = self.owner(o.origin)
            there = (f"the armies there are the {possessive(owner)}" if owner and owner != NEUTRAL
                     else "its garrison is independent" if owner else "it is empty")
            self.bad(e, f"no army of yours in {o.origin}: {there}")

    def check_split(self, sector: str, group: list[Sent]) -> None:
        have = self.mine(sector)
        if have:
            total = 0
            for e in group:
                total += cast(ArmyOrder, e.order).count
                if total > have:
                    rest = [g.number for g in group if g is not e]
                    also = f" (with {_lines(rest)})" if rest else ""
                    self.bad(e, f"{total} armies ordered from {sector}{also}, but only {have} of "
                                f"yours {'stands' if have == 1 else 'stand'} there: each army takes one order (5.2, 5.9)")
        holds = [e for e in group if isinstance(e.order, Hold)]
        others = [e for e in group if not isinstance(e.order, (Hold, Give))]
        if holds and others:
            kinds = join_alternatives(sorted({type(x.order).__name__ for x in others}), "and")
            lines = _lines([x.number for x in others])
            for e in holds:
                self.bad(e, f"part of the armies in {sector} cannot Hold while others there "
                            f"have other orders ({kinds}, {lines}) (5.6.2)")

    def check_target(self, e: Sent, o: Attack | CutSupport, verb: str) -> bool:
        if o.target == o.origin:
            self.bad(e, f"{o.origin} cannot {verb} itself")
            return False
        if o.origin in self.map.regions and not self.adjacent(o.origin, o.target):
            self.bad(e, f"{o.target} is not adjacent to {o.origin}: an army can only {verb} an "
                        f"adjacent sector (5.3, 5.4); {o.origin} borders "
                        f"{', '.join(sorted(self.map.land_neighbours(o.origin), key=_order_key))}")
        return True

    def check_attack(self, e: Sent, o: Attack, attacks: Mapping[str, Sent]) -> None:
        if not self.check_target(e, o, "attack"):
            return
        if self.mine(o.target) or (self.is_city(o.target)
                                   and self.pos.cities.get(o.target) == self.pid):
            self.bad(e, f"{o.target} is yours: Attack is an assault on enemy-held territory; "
                        "use Move (5.3, 5.8)")
        first = attacks.get(o.target)
        if first is not None and first is not e:
            self.bad(e, f"you already attack {o.target} from "
                        f"{cast(Attack, first.order).origin} (line {first.number}): "
                        "one player attacks a sector with only one force (5.3)")
        why = self.border(o.target, attack=True)
        if why:
            self.bad(e, why)

    def check_cut(self, e: Sent, o: CutSupport) -> None:
        if not self.check_target(e, o, "cut the support of"):
            return
        owner = self.owner(o.target)
        if owner is None:
            self.bad(e, f"no army in {o.target} whose support could be cut (5.4)")
        elif owner == self.pid:
            self.bad(e, f"the armies in {o.target} are yours: cut the support of an enemy (5.4)")
        why = self.border(o.target, attack=True)
        if why:
            self.bad(e, why)

    def check_support(self, e: Sent, o: Support) -> None:
        if not o.contingencies:
            self.bad(e, f"the support of {o.origin} names no army to support (5.5)")
        for c in o.contingencies:
            what = contingency_text(c)
            if not self.check_case(e, c, what):
                continue
            if c.action in ("attack", "move") and c.target is not None:
                if c.target == c.supported:
                    self.bad(e, f"cannot support {what}: an army does not {c.action} its own "
                                "sector")
                    continue
                if c.target != o.origin and not self.adjacent(o.origin, c.target):
                    self.bad(e, f"cannot support {what}: {c.target} is not adjacent to "
                                f"{o.origin}; a supporter must border the sector it supports "
                                "into (5.5)")
                if c.action == "attack" and not self.adjacent(c.supported, c.target):
                    self.bad(e, f"cannot support {what}: {c.target} is not adjacent to "
                                f"{c.supported}, so that attack cannot happen (5.3)")
            elif c.supported == o.origin:
                self.bad(e, f"cannot support {what}: an army does not support its own sector "
                            "(support it from a neighbouring sector, 5.5)")
            elif not self.adjacent(o.origin, c.supported):
                self.bad(e, f"cannot support {what}: {c.supported} is not adjacent to "
                            f"{o.origin} (5.5)")
            self.check_supporting_supporter(e, o, c, what)

    def check_case(self, e: Sent, c: Contingency, what: str) -> bool:
        """A contingency's sectors are on the board (else False) and an army is there."""
        if c.supported not in self.map.regions or (
                c.target is not None and c.target not in self.map.regions):
            self.bad(e, f"cannot support {what}: no such sector on the board")
            return False
        if self.owner(c.supported) is None:
            self.bad(e, f"cannot support {what}: there is no army in {c.supported}")
        return True

    def check_divine(self, e: Sent, o: DivineSupport, sent: list[Sent]) -> None:
        have = self.pos.magic.get(self.pid, 0)
        if o.count < 1:
            self.bad(e, "give at least one magical support")
            return
        total = sum(x.order.count for x in sent if isinstance(x.order, DivineSupport)
                    and x.number <= e.number)
        if total > have:
            self.bad(e, f"{total} magical support{'s' * (total != 1)} given, but the gods grant "
                        f"you {have} this turn: one per army sacrificed last turn, for this turn "
                        "only (3.5.3)")
        for c in o.contingencies:
            what = contingency_text(c)
            if not self.check_case(e, c, what):
                continue
            if c.action == "attack" and c.target is not None and not self.adjacent(
                    c.supported, c.target):
                self.bad(e, f"cannot support {what}: {c.target} is not adjacent to "
                            f"{c.supported}, so that attack cannot happen (5.3)")
            self.check_supporting_supporter(e, o, c, what)

    def check_supporting_supporter(self, e: Sent, o: Support | DivineSupport, c: Contingency,
                                   what: str) -> None:
        owner = self.owner(c.supported)
        if owner is None:
            return
        there = [x for x in self.everyone.get(owner, [])
                 if isinstance(x.order, ARMY_ORDERS) and x.order.origin == c.supported]
        supports = [x for x in there if isinstance(x.order, Support)]
        active = [x for x in there if not isinstance(x.order, (Support, Give))]
        origin = o.origin if isinstance(o, Support) else None
        if supports and not active and not (owner == self.pid and c.supported == origin):
            lines = f" ({_lines([x.number for x in supports])})" if owner == self.pid else ""
            self.bad(e, f"cannot support {what}: the army in {c.supported} is itself ordered to "
                        f"support{lines}, and an army that supports cannot be supported (5.5)")

    def check_move(self, e: Sent, o: Move, attacks: Mapping[str, Sent]) -> None:
        if not 1 <= len(o.path) <= MAX_MOVE:
            self.bad(e, f"a Move passes one to three sectors, not {len(o.path)} (5.8); "
                        "split longer journeys over several turns")
        here = o.origin
        seen = {o.origin}
        for step in o.path:
            if step in seen:
                self.bad(e, f"the Move passes {step} twice")
            elif here in self.map.regions and not self.adjacent(here, step):
                self.bad(e, f"{step} is not adjacent to {here}: each step of a Move goes to an "
                            f"adjacent sector (5.8); {here} borders "
                            f"{', '.join(sorted(self.map.land_neighbours(here), key=_order_key))}")
            seen.add(step)
            why = self.closed_city(step)
            if why:
                self.bad(e, why)
            why = self.border(step, attack=False)
            if why:
                self.bad(e, why)
            attacked = attacks.get(step)
            if attacked is not None:
                self.bad(e, f"{step} is the sector you attack (line {attacked.number}): a Move of "
                            "other armies may not go there (5.9)")
            here = step

    def check_retreat(self, e: Sent, o: ArmyOrder, retreat: tuple[str, ...]) -> None:
        if self.pid == "Chichimecs":
            self.bad(e, "Chichimecs cannot retreat: a retreating Chichimec is a dead Chichimec "
                        "(7.1)")
            return
        stops = (o.origin, *o.path) if isinstance(o, Move) else (o.origin,)
        for sector in retreat:
            if sector in stops:
                self.bad(e, f"cannot retreat to {sector}: the army is there already")
                continue
            if not any(self.adjacent(s, sector) for s in stops if s in self.map.regions):
                self.bad(e, f"cannot retreat to {sector}: it is not adjacent to "
                            f"{join_alternatives(list(stops))} (5.7)")
            ally = dict(getattr(o, "retreat_gifts", ())).get(sector)
            if ally is not None:
                if ally == self.pid:
                    self.bad(e, f"cannot give the retreating army to yourself ({sector})")
                elif ally not in EMPIRES or self.homeless(ally) or self.homeless(self.pid):
                    self.bad(e, f"cannot retreat to {sector} as a gift to the {ally}: gifts are "
                                "made and received only by empires keeping a home centre (4.1.1)")
                continue
            why = self.closed_city(sector)
            if why:
                self.bad(e, f"cannot retreat to {sector}: {why.split(': ', 1)[0]}, and no army "
                            "retreats into a city not its own unless given to its owner (5.3, "
                            "5.7.1)")
            why = self.border(sector, attack=False)
            if why:
                self.bad(e, why)

    def check_sacrifice(self, e: Sent, o: Sacrifice, sent: list[Sent]) -> None:
        if not self.is_city(o.city):
            self.bad(e, f"{o.city} is no city: a city performs the sacrifice (3.5.4)")
            return
        if self.pos.cities.get(o.city) != self.pid:
            holder = self.pos.cities.get(o.city)
            self.bad(e, f"{o.city} is not your city ({'independent' if holder is None else holder}"
                        "): only a city of yours performs your sacrifices (3.5.4)")
        if o.count < 1:
            self.bad(e, "sacrifice at least one captive")
            return
        have = self.pos.captives.get(self.pid, 0)
        total = sum(x.order.count for x in sent if isinstance(x.order, Sacrifice)
                    and x.number <= e.number)
        if total > have:
            self.bad(e, f"{total} captive{'s' * (total != 1)} sacrificed, but you hold {have} "
                        "(3.5, 3.5.4)")

    def homeless(self, player: str) -> bool:
        return homeless(player, self.pos.cities)

    def check_give(self, e: Sent, o: Give) -> None:
        if o.to_player == self.pid:
            self.bad(e, "the armies are yours already")
        if o.to_player not in EMPIRES:
            self.bad(e, f"no player '{o.to_player}'")
        if self.homeless(self.pid):
            self.bad(e, f"the {self.pid} have lost all their home centres and can make no gifts "
                        "(4.1.1)")
        if o.to_player in EMPIRES and self.homeless(o.to_player):
            self.bad(e, f"the {o.to_player} have lost all their home centres and can receive no "
                        "gifts (4.1.1)")

    def check_permit(self, e: Sent, o: Permit) -> None:
        if o.to_player == self.pid:
            self.bad(e, "you need no permission to pass through your own sectors")
        for sector in o.sectors or ():
            if not (self.mine(sector) or self.pos.cities.get(sector) == self.pid):
                self.bad(e, f"{sector} is not yours: you can only let others through sectors "
                            "you hold (4.1, 4.2)")

    def check_stacking(self, army: list[Sent]) -> None:
        leaving: dict[str, int] = defaultdict(int)
        arriving: dict[str, list[Sent]] = defaultdict(list)
        for e in army:
            o = e.order
            if isinstance(o, (Attack, Move, Give)):
                leaving[o.origin] += o.count
            if isinstance(o, Attack):
                arriving[o.target].append(e)
            elif isinstance(o, Move) and o.path:
                arriving[o.path[-1]].append(e)
        for sector, movers in arriving.items():
            if sector == DESERT:
                continue  # any number may mass in the desert (7.7)
            staying = max(0, self.mine(sector) - leaving[sector])
            final = staying + sum(cast(ArmyOrder, m.order).count for m in movers)
            if final > MAX_FORCE:
                for e in movers:
                    self.bad(e, f"{final} of your armies would end the turn in {sector}: at most "
                                "three armies stand in one sector (4.1)")


def _order_key(name: str) -> tuple[int, int, str]:
    return (1, int(name), "") if name.isdigit() else (0, 0, name)


def check(position: Position, orders: Orders[Order],
          game_map: PolygonBoard) -> dict[str, list[OrderError]]:
    """Every problem of every player's orders, by player, each naming its line.

    Keys are the players of ``orders``; players without problems are left out.  The orders
    of all players are read together: permissions to pass (4.1) and what the supported
    armies do (5.5) come from the others' orders.
    """
    problems: dict[str, list[OrderError]] = {}
    everyone: dict[str, list[Sent]] = {}
    keys: dict[str, str] = {}
    for key in orders:
        try:
            pid = player_name(key)
        except OrderError as err:
            problems[key] = [IllegalOrderError(f"{err.reason} (players: {', '.join(EMPIRES)})")]
            continue
        keys[pid] = key
        everyone.setdefault(pid, []).extend(orders.of(key))
    permits: dict[tuple[str, str], frozenset[str] | None] = {}
    for pid, sent in everyone.items():
        for e in sent:
            o = e.order
            if isinstance(o, Permit):
                pair = (pid, o.to_player)
                before = permits.get(pair, frozenset())
                permits[pair] = (None if o.sectors is None or before is None
                                 else before | frozenset(o.sectors))
    for pid, sent in everyone.items():
        errs = _Checker(position, game_map, pid, sent, everyone, permits).run()
        if errs:
            problems[keys[pid]] = errs
    return problems
