"""AZTLAN's orders judged: every problem of every player's orders against the board, by line.

:func:`validate` reads all players' orders together: permissions to pass (4.1) and what the
supported armies do (5.5) come from the others' orders.  Each player's orders arrive as the
``(PostLine, order)`` pairs of a :class:`~gmkit.core.orders.ParseResult`; a problem names the
line its order came from.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import cast

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.orders import (
    IllegalOrderError,
    OrderError,
    ParseResult,
    PostLine,
    join_alternatives,
)
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

__all__ = ["validate"]

_TRIAD = ("Aztecs", "Chalcans", "Tlaxcalans")


def _lines(found: Sequence[int]) -> str:
    return ("line " if len(found) == 1 else "lines ") + join_alternatives(
        [str(n) for n in found], "and")


class _Checker:
    """Judges one player's orders; problems are gathered by line."""

    def __init__(self, position: Position, game_map: PolygonBoard, pid: str,
                 orders: list[tuple[PostLine, Order]],
                 everyone: Mapping[str, list[tuple[PostLine, Order]]],
                 permits: Mapping[tuple[str, str], frozenset[str] | None]) -> None:
        self.pos = position
        self.map = game_map
        self.pid = pid
        self.orders = orders
        self.everyone = everyone
        self.permits = permits
        self.homes = home_centres()
        self.errors: list[OrderError] = []
        #: Each order's line, and each line's text (orders are told apart by identity).
        self.lines = {id(o): ln.number for ln, o in orders}
        self._text: dict[int, str] = {}
        for ln, _ in orders:
            self._text.setdefault(ln.number, ln.text)

    # -- helpers ------------------------------------------------------------------

    def line(self, order: Order) -> int:
        """The line of one of the player's orders."""
        return self.lines[id(order)]

    def bad(self, order: Order, reason: str) -> None:
        line = self.line(order)
        self.errors.append(IllegalOrderError(reason, line=line, text=self._text.get(line, "")))

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
        orders: list[Order] = [o for _, o in self.orders]
        army_orders = [o for o in orders if isinstance(o, ARMY_ORDERS)]
        by_sector: dict[str, list[ArmyOrder]] = defaultdict(list)
        for a in army_orders:
            by_sector[a.origin].append(a)
        attacks: dict[str, Attack] = {}
        for o in orders:
            if isinstance(o, Attack) and o.target not in attacks:
                attacks[o.target] = o

        for o in orders:
            if isinstance(o, ARMY_ORDERS):
                self.check_force(o)
            if isinstance(o, Attack):
                self.check_attack(o, attacks)
            elif isinstance(o, CutSupport):
                self.check_cut(o)
            elif isinstance(o, Support):
                self.check_support(o)
            elif isinstance(o, DivineSupport):
                self.check_divine(o, orders)
            elif isinstance(o, Hold):
                if self.pid == "Chichimecs":
                    self.bad(o, "Chichimecs may Attack, Support, Cut Support, Stand or Move, "
                                "never Hold (7.1)")
            elif isinstance(o, Move):
                self.check_move(o, attacks)
            elif isinstance(o, Sacrifice):
                self.check_sacrifice(o, orders)
            elif isinstance(o, Give):
                self.check_give(o)
            elif isinstance(o, Permit):
                self.check_permit(o)
            retreat = getattr(o, "retreat", ())
            if retreat:
                self.check_retreat(cast(ArmyOrder, o), retreat)

        for sector, group in by_sector.items():
            self.check_split(sector, group)
        self.check_stacking(army_orders)
        return sorted(self.errors, key=lambda e: e.line or 0)

    def check_force(self, o: ArmyOrder) -> None:
        if o.origin not in self.map.regions:
            self.bad(o, f"no sector {o.origin} on the board")
            return
        if not 1 <= o.count <= MAX_FORCE:
            self.bad(o, f"a force is a single, double or triple army, not {o.count} (5.3, 5.9)")
        if not self.mine(o.origin):
            owner = self.owner(o.origin)
            there = (f"the armies there are the {possessive(owner)}" if owner and owner != NEUTRAL
                     else "its garrison is independent" if owner else "it is empty")
            self.bad(o, f"no army of yours in {o.origin}: {there}")

    def check_split(self, sector: str, group: list[ArmyOrder]) -> None:
        have = self.mine(sector)
        if have:
            total = 0
            for o in group:
                total += o.count
                if total > have:
                    rest = [self.line(g) for g in group if g is not o]
                    also = f" (with {_lines(rest)})" if rest else ""
                    self.bad(o, f"{total} armies ordered from {sector}{also}, but only {have} of "
                                f"yours {'stands' if have == 1 else 'stand'} there: each army takes one order (5.2, 5.9)")
        holds = [o for o in group if isinstance(o, Hold)]
        others = [o for o in group if not isinstance(o, (Hold, Give))]
        if holds and others:
            kinds = join_alternatives(sorted({type(o).__name__ for o in others}), "and")
            for o in holds:
                self.bad(o, f"part of the armies in {sector} cannot Hold while others there "
                            f"have other orders ({kinds}, {_lines([self.line(x) for x in others])}) (5.6.2)")

    def check_target(self, o: Attack | CutSupport, verb: str) -> bool:
        if o.target == o.origin:
            self.bad(o, f"{o.origin} cannot {verb} itself")
            return False
        if o.origin in self.map.regions and not self.adjacent(o.origin, o.target):
            self.bad(o, f"{o.target} is not adjacent to {o.origin}: an army can only {verb} an "
                        f"adjacent sector (5.3, 5.4); {o.origin} borders "
                        f"{', '.join(sorted(self.map.land_neighbours(o.origin), key=_order_key))}")
        return True

    def check_attack(self, o: Attack, attacks: Mapping[str, Attack]) -> None:
        if not self.check_target(o, "attack"):
            return
        if self.mine(o.target) or (self.is_city(o.target)
                                   and self.pos.cities.get(o.target) == self.pid):
            self.bad(o, f"{o.target} is yours: Attack is an assault on enemy-held territory; "
                        "use Move (5.3, 5.8)")
        first = attacks.get(o.target)
        if first is not None and first is not o:
            self.bad(o, f"you already attack {o.target} from {first.origin} (line {self.line(first)}): "
                        "one player attacks a sector with only one force (5.3)")
        why = self.border(o.target, attack=True)
        if why:
            self.bad(o, why)

    def check_cut(self, o: CutSupport) -> None:
        if not self.check_target(o, "cut the support of"):
            return
        owner = self.owner(o.target)
        if owner is None:
            self.bad(o, f"no army in {o.target} whose support could be cut (5.4)")
        elif owner == self.pid:
            self.bad(o, f"the armies in {o.target} are yours: cut the support of an enemy (5.4)")
        why = self.border(o.target, attack=True)
        if why:
            self.bad(o, why)

    def check_support(self, o: Support) -> None:
        if not o.contingencies:
            self.bad(o, f"the support of {o.origin} names no army to support (5.5)")
        for c in o.contingencies:
            what = contingency_text(c)
            if not self.check_case(o, c, what):
                continue
            if c.action in ("attack", "move") and c.target is not None:
                if c.target == c.supported:
                    self.bad(o, f"cannot support {what}: an army does not {c.action} its own sector")
                    continue
                if c.target != o.origin and not self.adjacent(o.origin, c.target):
                    self.bad(o, f"cannot support {what}: {c.target} is not adjacent to "
                                f"{o.origin}; a supporter must border the sector it supports "
                                "into (5.5)")
                if c.action == "attack" and not self.adjacent(c.supported, c.target):
                    self.bad(o, f"cannot support {what}: {c.target} is not adjacent to "
                                f"{c.supported}, so that attack cannot happen (5.3)")
            elif c.supported == o.origin:
                self.bad(o, f"cannot support {what}: an army does not support its own sector "
                            "(support it from a neighbouring sector, 5.5)")
            elif not self.adjacent(o.origin, c.supported):
                self.bad(o, f"cannot support {what}: {c.supported} is not adjacent to "
                            f"{o.origin} (5.5)")
            self.check_supporting_supporter(o, c, what)

    def check_case(self, o: Support | DivineSupport, c: Contingency, what: str) -> bool:
        """A contingency's sectors are on the board (else False) and an army is there."""
        if c.supported not in self.map.regions or (
                c.target is not None and c.target not in self.map.regions):
            self.bad(o, f"cannot support {what}: no such sector on the board")
            return False
        if self.owner(c.supported) is None:
            self.bad(o, f"cannot support {what}: there is no army in {c.supported}")
        return True

    def check_divine(self, o: DivineSupport, orders: list[Order]) -> None:
        have = self.pos.magic.get(self.pid, 0)
        if o.count < 1:
            self.bad(o, "give at least one magical support")
            return
        total = sum(x.count for x in orders if isinstance(x, DivineSupport)
                    and self.line(x) <= self.line(o))
        if total > have:
            self.bad(o, f"{total} magical support{'s' * (total != 1)} given, but the gods grant "
                        f"you {have} this turn: one per army sacrificed last turn, for this turn "
                        "only (3.5.3)")
        for c in o.contingencies:
            what = contingency_text(c)
            if not self.check_case(o, c, what):
                continue
            if c.action == "attack" and c.target is not None and not self.adjacent(
                    c.supported, c.target):
                self.bad(o, f"cannot support {what}: {c.target} is not adjacent to "
                            f"{c.supported}, so that attack cannot happen (5.3)")
            self.check_supporting_supporter(o, c, what)

    def check_supporting_supporter(self, o: Support | DivineSupport, c: Contingency,
                                   what: str) -> None:
        owner = self.owner(c.supported)
        if owner is None:
            return
        there = [x for _, x in self.everyone.get(owner, [])
                 if isinstance(x, ARMY_ORDERS) and x.origin == c.supported]
        supports = [x for x in there if isinstance(x, Support)]
        active = [x for x in there if not isinstance(x, (Support, Give))]
        origin = o.origin if isinstance(o, Support) else None
        if supports and not active and not (owner == self.pid and c.supported == origin):
            lines = f" ({_lines([self.line(x) for x in supports])})" if owner == self.pid else ""
            self.bad(o, f"cannot support {what}: the army in {c.supported} is itself ordered to "
                        f"support{lines}, and an army that supports cannot be supported (5.5)")

    def check_move(self, o: Move, attacks: Mapping[str, Attack]) -> None:
        if not 1 <= len(o.path) <= MAX_MOVE:
            self.bad(o, f"a Move passes one to three sectors, not {len(o.path)} (5.8); "
                        "split longer journeys over several turns")
        here = o.origin
        seen = {o.origin}
        for step in o.path:
            if step in seen:
                self.bad(o, f"the Move passes {step} twice")
            elif here in self.map.regions and not self.adjacent(here, step):
                self.bad(o, f"{step} is not adjacent to {here}: each step of a Move goes to an "
                            f"adjacent sector (5.8); {here} borders "
                            f"{', '.join(sorted(self.map.land_neighbours(here), key=_order_key))}")
            seen.add(step)
            why = self.closed_city(step)
            if why:
                self.bad(o, why)
            why = self.border(step, attack=False)
            if why:
                self.bad(o, why)
            attacked = attacks.get(step)
            if attacked is not None:
                self.bad(o, f"{step} is the sector you attack (line {self.line(attacked)}): a Move of "
                            "other armies may not go there (5.9)")
            here = step

    def check_retreat(self, o: ArmyOrder, retreat: tuple[str, ...]) -> None:
        if self.pid == "Chichimecs":
            self.bad(o, "Chichimecs cannot retreat: a retreating Chichimec is a dead Chichimec "
                        "(7.1)")
            return
        stops = (o.origin, *o.path) if isinstance(o, Move) else (o.origin,)
        for sector in retreat:
            if sector in stops:
                self.bad(o, f"cannot retreat to {sector}: the army is there already")
                continue
            if not any(self.adjacent(s, sector) for s in stops if s in self.map.regions):
                self.bad(o, f"cannot retreat to {sector}: it is not adjacent to "
                            f"{join_alternatives(list(stops))} (5.7)")
            ally = dict(getattr(o, "retreat_gifts", ())).get(sector)
            if ally is not None:
                if ally == self.pid:
                    self.bad(o, f"cannot give the retreating army to yourself ({sector})")
                elif ally not in EMPIRES or self.homeless(ally) or self.homeless(self.pid):
                    self.bad(o, f"cannot retreat to {sector} as a gift to the {ally}: gifts are "
                                "made and received only by empires keeping a home centre (4.1.1)")
                continue
            why = self.closed_city(sector)
            if why:
                self.bad(o, f"cannot retreat to {sector}: {why.split(': ', 1)[0]}, and no army "
                            "retreats into a city not its own unless given to its owner (5.3, "
                            "5.7.1)")
            why = self.border(sector, attack=False)
            if why:
                self.bad(o, why)

    def check_sacrifice(self, o: Sacrifice, orders: list[Order]) -> None:
        if not self.is_city(o.city):
            self.bad(o, f"{o.city} is no city: a city performs the sacrifice (3.5.4)")
            return
        if self.pos.cities.get(o.city) != self.pid:
            holder = self.pos.cities.get(o.city)
            self.bad(o, f"{o.city} is not your city ({'independent' if holder is None else holder}"
                        "): only a city of yours performs your sacrifices (3.5.4)")
        if o.count < 1:
            self.bad(o, "sacrifice at least one captive")
            return
        have = self.pos.captives.get(self.pid, 0)
        total = sum(x.count for x in orders if isinstance(x, Sacrifice)
                    and self.line(x) <= self.line(o))
        if total > have:
            self.bad(o, f"{total} captive{'s' * (total != 1)} sacrificed, but you hold {have} "
                        "(3.5, 3.5.4)")

    def homeless(self, player: str) -> bool:
        return homeless(player, self.pos.cities)

    def check_give(self, o: Give) -> None:
        if o.to_player == self.pid:
            self.bad(o, "the armies are yours already")
        if o.to_player not in EMPIRES:
            self.bad(o, f"no player '{o.to_player}'")
        if self.homeless(self.pid):
            self.bad(o, f"the {self.pid} have lost all their home centres and can make no gifts "
                        "(4.1.1)")
        if o.to_player in EMPIRES and self.homeless(o.to_player):
            self.bad(o, f"the {o.to_player} have lost all their home centres and can receive no "
                        "gifts (4.1.1)")

    def check_permit(self, o: Permit) -> None:
        if o.to_player == self.pid:
            self.bad(o, "you need no permission to pass through your own sectors")
        for sector in o.sectors or ():
            if not (self.mine(sector) or self.pos.cities.get(sector) == self.pid):
                self.bad(o, f"{sector} is not yours: you can only let others through sectors "
                            "you hold (4.1, 4.2)")

    def check_stacking(self, army_orders: list[ArmyOrder]) -> None:
        leaving: dict[str, int] = defaultdict(int)
        arriving: dict[str, list[Attack | Move]] = defaultdict(list)
        for o in army_orders:
            if isinstance(o, (Attack, Move, Give)):
                leaving[o.origin] += o.count
            if isinstance(o, Attack):
                arriving[o.target].append(o)
            elif isinstance(o, Move) and o.path:
                arriving[o.path[-1]].append(o)
        for sector, movers in arriving.items():
            if sector == DESERT:
                continue  # any number may mass in the desert (7.7)
            staying = max(0, self.mine(sector) - leaving[sector])
            final = staying + sum(m.count for m in movers)
            if final > MAX_FORCE:
                for o in movers:
                    self.bad(o, f"{final} of your armies would end the turn in {sector}: at most "
                                "three armies stand in one sector (4.1)")


def _order_key(name: str) -> tuple[int, int, str]:
    return (1, int(name), "") if name.isdigit() else (0, 0, name)


def validate(position: Position, parsed_by_player: Mapping[str, ParseResult[Order]],
             game_map: PolygonBoard) -> dict[str, list[OrderError]]:
    """Every problem of every player's orders, by player, each naming its line.

    Keys are those of ``parsed_by_player``; players without problems are left
    out.  The orders of all players are read together: permissions to pass
    (4.1) and what the supported armies do (5.5) come from the others' orders.
    """
    problems: dict[str, list[OrderError]] = {}
    everyone: dict[str, list[tuple[PostLine, Order]]] = {}
    keys: dict[str, str] = {}
    for key, result in parsed_by_player.items():
        try:
            pid = player_name(key)
        except OrderError as err:
            problems[key] = [IllegalOrderError(f"{err.reason} (players: {', '.join(EMPIRES)})")]
            continue
        keys[pid] = key
        everyone.setdefault(pid, []).extend(result.orders)
    permits: dict[tuple[str, str], frozenset[str] | None] = {}
    for pid, orders in everyone.items():
        for _, o in orders:
            if isinstance(o, Permit):
                pair = (pid, o.to_player)
                before = permits.get(pair, frozenset())
                permits[pair] = (None if o.sectors is None or before is None
                                 else before | frozenset(o.sectors))
    for pid, orders in everyone.items():
        errs = _Checker(position, game_map, pid, orders, everyone, permits).run()
        if errs:
            problems[keys[pid]] = errs
    return problems
