"""AZTLAN's adjudication: Attack, Cut Support, Support, Hold, Stand (rules 5.2-5.7)
and Move (5.8, 5.8.1, 4.1, 4.2, 7.5).

:func:`adjudicate` takes the position at the start of a movement turn, every
player's typed orders (:mod:`gmkit.rulesets.aztlan.orders`) and the board, and
returns an :class:`Adjudication`: an outcome code and a sentence for every
force, the armies per sector after combat and moves, the captives taken,
the armies lost and the cities whose peace counter starts again (5.3, 3.2.1).

How it is built
---------------
Following Lucas Kruijswijk's *The Math of Adjudication* (DATC), the outcome
of the turn is a set of yes/no **decisions** that depend on each other:

* ``cut(S)`` for every Support: is it cut?  Yes when its sector is taken
  (5.5.1) or when an enemy Cut Support is aimed at it by a cutter whose own
  sector is not taken (5.4);
* ``wins(A)`` for every Attack: does it take its target?  Its **weight**
  (5.3: the force's 1-3 armies plus every army of the uncut supports given
  to it) must be greater than the target's **defence** (the armies there that
  do not attack out, plus the armies of uncut supports given to them, plus,
  when the target's own force attacks back into the attacker's sector, that
  force's weight) and greater than the weight of every other attack on the
  same sector.

Weights and defences are sums over ``cut`` decisions; a sector is taken when
one of the attacks on it wins.  A :class:`_Resolver` works the decisions out
recursively; when a decision turns out to depend on itself it guesses both
answers, and if both give the same result that is the answer.  Otherwise the
cycle has two consistent answers or none, and the **backup rule** applies:

    *every Cut Support in the cycle fails to cut* (the supports in the cycle
    are given, the cutters are reported VOID), then the rest is worked out
    again.

The typical cycle is a Cut Support from the very sector that the support
helps to attack: if the support counts, the cutter is dislodged and its cut
fails (5.4); if the cut counts, the attack is too weak and the cutter stays.
The backup rule picks the first, which is what standard Diplomacy does (a
unit cannot cut the support of an attack on itself) and what 5.4 and 5.5.1
say about cut supports and dislodged cutters.  A cycle of ``wins`` decisions
alone (an attack beaten head to head has no effect on the sector it attacked,
DATC 6.E.1, so one attack's success can hang on another's) is broken by
letting every attack in it fail: they bounce, as in a standstill.

Rulings where the rules are silent
----------------------------------
* A support adds all the armies of the supporting force (a double army
  supporting adds 2).  Its contingencies are read in order and the first one
  that happens is given (5.5): an attack contingency when the named force
  attacks that sector; a hold or stand contingency when the named sector is
  attacked and its armies hold or stand (a supporting force cannot be
  supported, 5.5); ``any`` either way (attack or defence, never a move); a
  move contingency when the named force moves through that sector and the
  supporter borders it (5.5, 5.8.1).
* Attacking forces do not defend the sector they leave (5.7), except
  against a force attacking them back (then the two weights meet).  An
  attack that fails returns home; if home was taken meanwhile it is
  defeated there like a Standing army.
* A failed attack on Holding armies annihilates the attacking force, its
  supporters unhurt (5.6, 5.6.1 examples 1, 4, 5); a failed attack on
  anything else bounces.
* Mutual slaughter (5.6) kills every Holding army and as many attacking
  armies, the attacking force first, then its supporters (the attacker's
  own before allies', by sector).  If the whole attacking force dies,
  surviving supporters move in, as many armies as the attacking force had
  (5.6.1 example 3).  Defensive supporters of the holders are never hurt.
* A capture is recorded with the sector it happened in; the captives belong
  to the captor (the turn's sacrifice step keeps them, 3.5.4).
* A defeated Standing force retreats to the first valid sector of its
  ordered retreats, else to the valid neighbour "as nearly opposite the
  direction from which the attack came as is possible" (5.7.2): the one whose
  direction from the beaten sector's centre makes the smallest angle with the
  attack's direction, then the one farther from the attacker, then by name.  A
  sector is valid if no other player's armies end the turn there, there is
  room for the force (4.1), it is not a city of another player or an
  independent city (5.3) and it is not where the winning attack came from.
  Retreats are settled in the order of the sectors' names.
* Neutral garrisons always Stand (2.2, 3.4); defeated, they disband if they
  could retreat and are captured only when they could not.

Moves
-----
Combat comes first, then movement; moves depend on the combat decisions of
the sectors they cross, combat never on moves, so no cycle joins the two.

* **Attacks are aimed where armies start.**  A moving force counts as
  Standing in its own sector during combat (5.7): it helps defend it, and if
  the sector is taken it is beaten there like any Standing army (it retreats
  or is captured) and does not move.  It is never attacked in transit nor at
  its destination in the same turn, and adds nothing to the defence of the
  sectors it enters.
* A Move goes one to three adjacent sectors (5.8); a path that is not is
  VOID and the force stands.  Each step must enter friendly or unoccupied
  country on the board as combat left it (a sector taken by an attack is
  the attacker's; one vacated by a successful attack or move is free): an
  own city; another player's city only with a Permit from its owner (2.4,
  4.2); an independent city with a garrison never (2.4, 5.3, 5.8; an empty
  one destroyed by the Chichimecs may be entered, 7.4); a non-city sector
  that is vacant, the player's own, or another player's with a Permit from
  them (4.1).
* **A blocked move stops before the sector it could not enter**, in the
  last sector it reached: code STOPPED, or BOUNCED when it never left its
  own sector.  A move reaching the end of its path SUCCEEDS.
* Scouts (5.8.1) are settled on the routes as far as each can go: when
  moves of different players (neither permitting the other there) would
  enter the same sector, each stops before it unless the armies of uncut
  supports given to it for that sector (a Support contingency ``move`` with
  that target, from a sector adjacent to it) are more than every rival's.
  Two moves into each other's vacated sectors share no sector and both go
  ahead; moves of one player never stop each other's scouts.
* The end of the turn (4.1): a move that would leave another player's
  armies and its own in one sector, or more than three armies in one
  sector, stops one sector earlier, and so on back to its own sector.
  This is worked to a fixed point: each move's reach only shrinks, moves
  that stay at home block the others again, so swaps and chains of moves
  into sectors being vacated succeed when nothing stops them.
* Permission to pass an ally's sector is not permission to end the turn
  there while his armies stay (4.1); an ally's empty city entered with
  permission stays his city.
* The Chichimec Desert (7.5): a player's force entering it, to stop or to
  pass, must outnumber the Chichimec armies that stay there, else it is
  EATEN (7.5.1).  Each force is compared on its own; when one outnumbers
  them they all leave the board (7.5.2).  Any number of armies may mass
  there (7.7); other players' armies there are passed as in 4.1.
* Retreats are made after the moves, into sectors left valid by them.

Also here
---------
* The gods' magical supports (3.5.3, :class:`DivineSupport`): weight added
  like any support, from no sector, never cut, never hurt.
* A retreat into an ally's sector, ordered with the army given to him (5.7.1).
* A player may support another's attack on his own armies: nothing in the
  rules forbids it (standard Diplomacy would not count it).

Elsewhere
---------
Sacrifices, gifts, eliminations, builds, the Chichimec die and hordes and
victory are steps of the turn (:mod:`gmkit.rulesets.aztlan.steps`); the 1450
and 1451 borders (6.1, 6.2) are checked when orders are validated.
"""

from __future__ import annotations

import enum
import math
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from gmkit.core.maps import GameMap
from gmkit.rulesets.aztlan.orders import (
    MAX_MOVE,
    NEUTRAL,
    Attack,
    Contingency,
    CutSupport,
    DivineSupport,
    Hold,
    Move,
    Order,
    Permit,
    Position,
    Stand,
    Support,
    armies_phrase,
)
from gmkit.rulesets.aztlan.board.geography import DESERT

__all__ = ["Adjudication", "Capture", "Code", "Result", "adjudicate"]

MAX_STACK = 3
CHICHIMECS = "Chichimecs"

CombatOrder = Attack | CutSupport | Support | DivineSupport | Hold | Stand | Move
#: Where the gods' magical supports (3.5.3) are reported: they have no sector.
GODS = "the gods"
#: A decision: ("cut", support's force id) or ("wins", attack's force id).
Decision = tuple[str, int]
#: What a support is given to: ("attack", attack's force id), ("move", move's force
#: id) or ("defend", sector).
Aim = tuple[str, int | str]


class Code(enum.Enum):
    """What became of a force's order."""

    SUCCEEDS = "succeeds"
    BOUNCED = "bounced"
    CUT = "cut"
    ANNIHILATED = "annihilated"
    SLAUGHTERED = "slaughtered"
    CAPTURED = "captured"
    STOPPED = "stopped"
    EATEN = "eaten"
    RETREATED = "retreated"
    DISBANDED = "disbanded"
    VOID = "void"


@dataclass(frozen=True)
class Result:
    """The outcome of one force's order; ``order`` is ``None`` for armies
    that were given no order (they stand, 5.7)."""

    player: str
    sector: str
    count: int
    order: CombatOrder | None
    code: Code
    reason: str
    #: Where a RETREATED force went (5.7), and the ally it was given to there (5.7.1).
    to: str | None = None
    given_to: str | None = None


@dataclass(frozen=True)
class Capture:
    """``count`` armies of ``owner`` captured in ``sector`` by ``captor``,
    held in ``held_in`` for sacrifice (3.5)."""

    captor: str
    count: int
    held_in: str
    owner: str
    sector: str


@dataclass(frozen=True)
class Adjudication:
    """The combat and moves of one movement turn.

    Attributes:
        results: every force's outcome: the players' orders (players by
            name, each in the order given), then the armies that had no
            order (they stand), by sector.
        armies: each occupied sector's ``(owner, count)`` after combat and moves.
        cities: each city's owner after combat (a city taken by an Attack
            is the attacker's, 4.2).
        captures: the armies captured for sacrifice (3.5, 3.5.1).
        lost: each player's armies gone from the board: annihilated,
            slaughtered, disbanded, captured, eaten in the desert or
            driven off it (7.5.1, 7.5.2).
        peace_reset: the cities attacked this turn, whose count of turns of
            peace starts again (3.2.1, 5.3); Cut Support does not count (3.2.2).
    """

    results: tuple[Result, ...]
    armies: dict[str, tuple[str, int]]
    cities: dict[str, str | None]
    captures: tuple[Capture, ...]
    lost: dict[str, int]
    peace_reset: frozenset[str]

    def result(self, sector: str) -> Result:
        """The result of the one force ordered from (or standing in) ``sector``."""
        found = [r for r in self.results if r.sector == sector]
        if len(found) != 1:
            raise KeyError(f"{len(found)} results for {sector}, not one")
        return found[0]


# ---------------------------------------------------------------------------
# The resolver
# ---------------------------------------------------------------------------


class _Resolver:
    """Kruijswijk's guess-and-check resolution of interdependent yes/no decisions."""

    def __init__(self, adjudicate: Callable[[Decision], bool],
                 backup: Callable[[list[Decision]], dict[Decision, bool]]) -> None:
        self._adjudicate = adjudicate
        self._backup = backup
        self._state: dict[Decision, str] = {}
        self._value: dict[Decision, bool] = {}
        self._deps: list[Decision] = []

    def __call__(self, d: Decision) -> bool:
        state = self._state.get(d)
        if state == "resolved":
            return self._value[d]
        if state == "guessing":
            if d not in self._deps:
                self._deps.append(d)
            return self._value[d]
        mark = len(self._deps)
        self._state[d], self._value[d] = "guessing", False
        first = self._adjudicate(d)
        if len(self._deps) == mark:
            self._settle(d, first)
            return first
        if self._deps[mark] != d:
            # Part of a larger cycle still being guessed: keep the guess open.
            self._deps.append(d)
            self._value[d] = first
            return first
        self._reopen(mark)
        self._state[d], self._value[d] = "guessing", True
        second = self._adjudicate(d)
        if first == second:
            self._reopen(mark)
            self._settle(d, first)
            return first
        cycle = list(dict.fromkeys([d, *self._deps[mark:]]))
        self._reopen(mark)
        for decision, value in self._backup(cycle).items():
            self._settle(decision, value)
        return self(d)

    def _settle(self, d: Decision, value: bool) -> None:
        self._state[d], self._value[d] = "resolved", value

    def _reopen(self, mark: int) -> None:
        for d in self._deps[mark:]:
            self._state.pop(d, None)
        del self._deps[mark:]


# ---------------------------------------------------------------------------
# Forces
# ---------------------------------------------------------------------------


@dataclass
class _Force:
    fid: int
    player: str
    sector: str
    count: int
    order: CombatOrder | None
    code: Code | None = None
    reason: str = ""
    # What the force supports: ("attack", attack force id) or ("defend", sector).
    supports: Aim | None = None
    contingency: Contingency | None = None
    #: A valid Attack: the force leaves its sector (5.7).
    attacks: bool = False
    #: An order for armies the player does not have: no force on the board.
    phantom: bool = False
    #: Magical supports of the gods (3.5.3): no sector, never cut, never hurt.
    divine: bool = False
    #: Where the force retreated to (5.7), and the ally it was given to there (5.7.1).
    to: str | None = None
    given_to: str | None = None

    @property
    def target(self) -> str:
        assert isinstance(self.order, (Attack, CutSupport))
        return self.order.target

    @property
    def retreat(self) -> tuple[str, ...]:
        return getattr(self.order, "retreat", ()) if self.order is not None else ()


_SIZE = {1: "single army", 2: "double army", 3: "triple army"}


def _adj(player: str) -> str:
    if player == NEUTRAL:
        return "independent"
    return {"Aztecs": "Aztec", "Tlaxcalans": "Tlaxcalan", "Chalcans": "Chalcan",
            "Tarascans": "Tarascan", "Meztitlans": "Meztitlan", "Yopis": "Yopi",
            "Totonacs": "Totonac", "Chichimecs": "Chichimec",
            "Soconuscans": "Soconuscan"}.get(player, player)


def _name(f: _Force) -> str:
    size = _SIZE.get(f.count, f"{f.count} armies")
    return f"the {_adj(f.player)} {size} in {f.sector}"


class _Turn:
    def __init__(self, position: Position, orders_by_player: Mapping[str, Sequence[Order]],
                 game_map: GameMap) -> None:
        self.pos = position
        self.map = game_map
        self.everywhere = frozenset(game_map.regions)
        self.forces: list[_Force] = []
        self._read(orders_by_player)
        self.by_sector: dict[str, list[_Force]] = defaultdict(list)
        for f in self.forces:
            f.attacks = isinstance(f.order, Attack) and f.code is None
            if not f.phantom:
                self.by_sector[f.sector].append(f)
        self.attacks_on: dict[str, list[_Force]] = defaultdict(list)
        for f in self.forces:
            if f.attacks:
                self.attacks_on[f.target].append(f)
        self._choose_supports()
        self._supporters: dict[Aim, list[_Force]] = defaultdict(list)
        for f in self.forces:
            if f.supports is not None:
                self._supporters[f.supports].append(f)
        self.cutters_of: dict[str, list[_Force]] = defaultdict(list)
        self._check_cuts()
        self.resolve = _Resolver(self._decide, self._backup)

    # -- reading the orders -------------------------------------------------------

    def _void(self, f: _Force, why: str) -> None:
        f.code, f.reason = Code.VOID, f"void: {why}"

    def _read(self, orders_by_player: Mapping[str, Sequence[Order]]) -> None:
        left = {s: (p, n) for s, (p, n) in self.pos.armies.items()}
        attacked_by: set[tuple[str, str]] = set()
        for player in sorted(orders_by_player):
            if player == NEUTRAL:
                continue
            for o in orders_by_player[player]:
                if isinstance(o, DivineSupport):
                    self.forces.append(_Force(len(self.forces), player, GODS, o.count, o,
                                              phantom=True, divine=True))
                    continue
                if not isinstance(o, (Attack, CutSupport, Support, Hold, Stand, Move)):
                    continue
                owner, have = left.get(o.origin, ("", 0))
                if owner != player or not 1 <= o.count <= have:
                    self.forces.append(_Force(len(self.forces), player, o.origin, o.count, o,
                                              Code.VOID, f"void: no {_SIZE.get(o.count, 'force')}"
                                              f" of the {player} left to order in {o.origin}",
                                              phantom=True))
                    continue
                left[o.origin] = (owner, have - o.count)
                f = _Force(len(self.forces), player, o.origin, o.count, o)
                self.forces.append(f)
                if isinstance(o, Move):
                    why = self._bad_path(o)
                    if why:
                        self._void(f, f"{why}; the army stands (5.8)")
                elif isinstance(o, (Attack, CutSupport)):
                    if o.target not in self.map.land_neighbours(o.origin):
                        self._void(f, f"{o.target} is not adjacent to {o.origin}; "
                                      "the army stands (5.3, 5.4)")
                    elif self.pos.armies.get(o.target, ("", 0))[0] == player:
                        self._void(f, f"{o.target} is held by the {player} themselves; "
                                      "the army stands (5.3)")
                    elif isinstance(o, Attack) and (player, o.target) in attacked_by:
                        self._void(f, f"the {player} already attack {o.target}: one force "
                                      "per sector (5.3); the army stands")
                    elif isinstance(o, Attack):
                        attacked_by.add((player, o.target))
        for sector in sorted(left):
            owner, n = left[sector]
            if n > 0:
                self.forces.append(_Force(len(self.forces), owner, sector, n, None))

    def _bad_path(self, o: Move) -> str | None:
        if not 1 <= len(o.path) <= MAX_MOVE:
            return f"a Move passes one to three sectors, not {len(o.path)}"
        here, seen = o.origin, {o.origin}
        for step in o.path:
            if step in seen:
                return f"the Move passes {step} twice"
            if here not in self.map.regions or step not in self.map.land_neighbours(here):
                return f"{step} is not adjacent to {here}"
            seen.add(step)
            here = step
        return None

    def _staying(self, sector: str) -> list[_Force]:
        return [f for f in self.by_sector.get(sector, []) if not f.attacks]

    def _holding(self, sector: str) -> bool:
        return any(isinstance(f.order, Hold) and f.player != NEUTRAL
                   for f in self._staying(sector))

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
                self._void(f, "none of its contingencies happened (5.5)")

    def _applies(self, s: _Force, c: Contingency) -> Aim | None:
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
        defenders = [f for f in self._staying(c.supported) if not isinstance(f.order, Support)]
        if not defenders:
            return None
        holding = self._holding(c.supported)
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
                self._void(f, f"the army in {f.target} {what}; the cutter just stands (5.4)")
            else:
                self.cutters_of[f.target].append(f)

    # -- decisions ---------------------------------------------------------------

    def supporters(self, what: Aim) -> list[_Force]:
        return self._supporters.get(what, [])

    def weight(self, a: _Force) -> int:
        return a.count + sum(s.count for s in self.supporters(("attack", a.fid))
                             if not self.resolve(("cut", s.fid)))

    def defence(self, sector: str, attacker: _Force | None = None) -> int:
        total = sum(f.count for f in self._staying(sector))
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

    def beaten_head_to_head(self, b: _Force) -> bool:
        """Whether ``b`` is dislodged by the very force it attacks, coming the other way: then
        it has no effect on the sector it tried to take (DATC 6.E.1, Math of Adjudication's
        prevent strength of 0)."""
        return any(h.attacks and h.target == b.sector and self.resolve(("wins", h.fid))
                   for h in self.by_sector.get(b.target, []))

    @staticmethod
    def _backup(cycle: list[Decision]) -> dict[Decision, bool]:
        cuts = {d: False for d in cycle if d[0] == "cut"}
        return cuts or {d: False for d in cycle}  # a cycle of attacks alone: all bounce


# ---------------------------------------------------------------------------
# Adjudication
# ---------------------------------------------------------------------------


def adjudicate(position: Position, orders_by_player: Mapping[str, Sequence[Order]],
               game_map: GameMap) -> Adjudication:
    """Resolve the combat and the moves of one movement turn (see the module's notes).

    ``orders_by_player`` maps each player to their typed orders (Permits
    are read for the moves, 4.1; orders other than Attack, Cut Support,
    Support, Hold, Stand, Move and Permit are ignored, and so are orders for :data:`NEUTRAL`: independent garrisons
    stand).  Armies with no order stand.  The position is not changed.
    """
    t = _Turn(position, orders_by_player, game_map)
    forces = t.forces
    lost: dict[str, int] = defaultdict(int)
    cities = dict(position.cities)
    captures: list[Capture] = []
    fates: list[tuple[str, str, int]] = []  # (sector, player, armies) arriving or returning
    stay: dict[int, int] = {}  # armies of each force that end the combat where they began
    homeless: list[tuple[_Force, _Force]] = []  # (defeated force, the attack that beat it)
    active = [f for f in forces if f.code is None]

    # Supports and cuts.
    for f in active:
        if isinstance(f.order, (Support, DivineSupport)):
            assert f.supports is not None
            kind, what = f.supports
            if kind == "move":
                assert isinstance(what, int) and f.contingency is not None
                aim = f"{_name(forces[what])} moving into {f.contingency.target}"
            elif isinstance(what, int):
                helped = forces[what]
                aim = f"{_name(helped)} attacking {helped.target}"
            else:
                aim = f"the armies in {what}"
            if f.divine:
                f.code, f.reason = Code.SUCCEEDS, (f"the gods add {f.count} to the weight of "
                                                   f"{aim} (3.5.3)")
            elif t.resolve(("cut", f.fid)):
                cutters = [c for c in t.cutters_of.get(f.sector, [])
                           if c.player != f.player and not t.taken(c.sector)]
                by = (f"cut by {_name(cutters[0])} (5.4)" if cutters
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

    # Attacks.
    winners: dict[str, _Force] = {}
    for a in active:
        if a.attacks and t.resolve(("wins", a.fid)):
            winners[a.target] = a
    for a in active:
        if not a.attacks or a.target in winners and winners[a.target] is a:
            continue
        w, d = t.weight(a), t.defence(a.target, a)
        if w <= d and t._holding(a.target):
            a.code = Code.ANNIHILATED
            a.reason = (f"annihilated: attacked the Holding armies in {a.target} with weight {w} "
                        f"against {d} (5.6)")
            lost[a.player] += a.count
            continue
        a.code = Code.BOUNCED
        if w <= d:
            there = t._staying(a.target)
            who = (_name(there[0]) if len(there) == 1 and not t.supporters(("defend", a.target))
                   else f"the defence of {a.target}")
            a.reason = (f"bounced: {who} had {'equal' if w == d else 'greater'} weight "
                        f"({d} against {w}) (5.7)")
        else:
            rival = max((b for b in t.attacks_on[a.target]
                         if b is not a and not t.beaten_head_to_head(b)), key=t.weight)
            a.reason = (f"bounced: {_name(rival)} attacked {a.target} with "
                        f"{'equal' if t.weight(rival) == w else 'greater'} weight")
        if a.sector in winners:
            homeless.append((a, winners[a.sector]))
        else:
            fates.append((a.sector, a.player, a.count))

    # Sectors not taken keep their standing armies; moving forces move after combat.
    movers: list[_Force] = []
    for f in forces:
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
        stay[f.fid] = f.count

    # Taken sectors: Hold odds (5.6, 3.5.1), or the defeat of Standing armies (5.7).
    for target in sorted(winners):
        a = winners[target]
        w, d = t.weight(a), t.defence(target, a)
        staying = t._staying(target)
        if _is_city(game_map, target):
            cities[target] = a.player
        holders = [f for f in staying if isinstance(f.order, Hold)] if t._holding(target) else []
        for f in staying:
            if f not in holders:
                homeless.append((f, a))
        if not holders:
            a.code = Code.SUCCEEDS
            a.reason = f"takes {target} with weight {w} against a defence of {d} (5.3, 5.7)"
            fates.append((target, a.player, a.count))
            continue
        k = sum(h.count for h in holders)
        owner = holders[0].player
        lost[owner] += k
        if w >= 3 * d:
            for h in holders:
                h.code, h.reason = Code.CAPTURED, (
                    f"captured: {_name(a)} attacked with weight {w} against {d}, odds of 3 to 1 "
                    "(3.5.1)")
            captures.append(Capture(a.player, k, target if _is_city(game_map, target) else a.sector,
                                    owner, target))
            a.code, a.reason = Code.SUCCEEDS, (f"takes {target} with weight {w} against {d} "
                                               f"and captures {armies_phrase(k)} (3.5.1)")
            fates.append((target, a.player, a.count))
            continue
        for h in holders:
            h.code, h.reason = Code.SLAUGHTERED, (
                f"slaughtered: {_name(a)} attacked with weight {w} against {d}, better than "
                "1 to 1 but less than 3 to 1 (5.6)")
        helpers = sorted((s for s in t.supporters(("attack", a.fid))
                          if s.code is Code.SUCCEEDS and not s.divine),
                         key=lambda s: (s.player != a.player, s.sector))
        dead = min(a.count, k)
        lost[a.player] += dead
        rest = k - dead
        left = {s.fid: s.count for s in helpers}
        for s in helpers:
            n = min(left[s.fid], rest)
            if n:
                rest -= n
                left[s.fid] -= n
                lost[s.player] += n
                s.reason += f", losing {armies_phrase(n)} in the slaughter at {target} (5.6)"
        if a.count > dead:
            a.code, a.reason = Code.SUCCEEDS, (
                f"takes {target} with weight {w} against {d}, losing {armies_phrase(dead)} in the "
                "mutual slaughter (5.6)")
            fates.append((target, a.player, a.count - dead))
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
                    fates.append((target, s.player, n))
                    s.reason += f"; {armies_phrase(n)} moved into {target} to fill the gap (5.6.1)"
            if _is_city(game_map, target):
                cities[target] = entrant or position.cities.get(target)
        for s in helpers:
            stay[s.fid] = left[s.fid]

    final: dict[str, tuple[str, int]] = {}
    fates = [(forces[fid].sector, forces[fid].player, n) for fid, n in stay.items()] + fates
    for sector, player, n in fates:
        if n <= 0:
            continue
        owner, have = final.get(sector, (player, 0))
        assert owner == player, f"two players end the turn in {sector} (4.1)"
        final[sector] = (player, have + n)

    _Moves(t, movers, final, cities, _permits(orders_by_player), lost).run()

    # Retreats (5.7, 5.7.2), captures (3.5); independent garrisons disband (2.2).
    for f, a in sorted(homeless, key=lambda p: (p[0].sector, p[0].fid)):
        where = _retreat_to(f, a, final, cities, game_map)
        before = f"; {f.reason}" if f.reason else ""
        if where is not None and f.player == CHICHIMECS:
            f.code, f.reason = Code.DISBANDED, (
                f"disbanded: beaten by {_name(a)}; a retreating Chichimec is a dead Chichimec "
                "(7.1)" + before)
            lost[f.player] += f.count
        elif where is not None and f.player == NEUTRAL:
            f.code, f.reason = Code.DISBANDED, (
                f"disbanded: beaten by {_name(a)}, the independent garrison could retreat, so "
                "it disbands instead of being captured (2.2)" + before)
            lost[f.player] += f.count
        elif where is not None:
            owner, have = final.get(where, (f.player, 0))
            ally = owner if owner != f.player else (
                cities.get(where) if cities.get(where) not in (None, f.player) else None)
            final[where] = (ally or f.player, have + f.count)
            f.to, f.given_to = where, ally
            gift = f" and was given to the {ally} (5.7.1)" if ally else ""
            f.code, f.reason = Code.RETREATED, (f"retreated to {where}{gift}: beaten by "
                                                f"{_name(a)} (5.7)" + before)
        else:
            f.code, f.reason = Code.CAPTURED, (
                f"captured: beaten by {_name(a)} with no friendly or vacant sector to retreat "
                "to (3.5)" + before)
            captures.append(Capture(a.player, f.count,
                                    a.target if _is_city(game_map, a.target) else a.sector,
                                    f.player, a.target))
            lost[f.player] += f.count

    peace = frozenset(f.target for f in forces if f.attacks and _is_city(game_map, f.target))
    results = tuple(Result(f.player, f.sector, f.count, f.order, f.code or Code.SUCCEEDS,
                           f.reason, f.to, f.given_to) for f in forces)
    return Adjudication(results, dict(sorted(final.items())), cities, tuple(captures),
                        {p: n for p, n in sorted(lost.items()) if n}, peace)


def _permits(orders_by_player: Mapping[str, Sequence[Order]]
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


class _Moves:
    """The Moves of one turn (5.8, 5.8.1, 4.1, 4.2, 7.5), made on the board as
    combat left it (see the module's notes)."""

    def __init__(self, turn: _Turn, movers: list[_Force], final: dict[str, tuple[str, int]],
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
    def path(m: _Force) -> tuple[str, ...]:
        assert isinstance(m.order, Move)
        return m.order.path

    def permitted(self, owner: str, player: str, sector: str) -> bool:
        granted = self.permits.get((owner, player), frozenset())
        return granted is None or sector in granted

    def eaten_at(self, m: _Force, sector: str) -> bool:
        return (sector == DESERT and m.player != CHICHIMECS and self.hordes > 0
                and m.count <= self.hordes)

    def blocked(self, m: _Force, sector: str, occupant: tuple[str, int] | None) -> str | None:
        """Why ``m`` may not enter ``sector`` (2.4, 4.1, 4.2, 5.3, 5.8), or ``None``."""
        p = m.player
        if sector == DESERT and occupant is not None and occupant[0] == CHICHIMECS:
            return None  # the hordes are met by numbers, not by permission (7.5)
        if _is_city(self.t.map, sector):
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

    def walk(self, m: _Force, occupied: Mapping[str, tuple[str, int]], upto: int) -> int:
        """How far ``m`` gets along its path (at most ``upto`` sectors); sets its reason."""
        for i, sector in enumerate(self.path(m)[:upto]):
            why = self.blocked(m, sector, occupied.get(sector))
            if why is not None:
                self.why[m.fid] = why
                return i
            if self.eaten_at(m, sector):
                return i + 1
        return upto

    def eaten(self, m: _Force) -> bool:
        r = self.reach[m.fid]
        return r > 0 and self.eaten_at(m, self.path(m)[r - 1])

    def end(self, m: _Force) -> str:
        r = self.reach[m.fid]
        return self.path(m)[r - 1] if r else m.sector

    def hostile(self, a: _Force, b: _Force, sector: str) -> bool:
        return (a.player != b.player and not self.permitted(a.player, b.player, sector)
                and not self.permitted(b.player, a.player, sector))

    def backing(self, m: _Force, sector: str) -> int:
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
                support = (f"{_name(best)} was supported there with {armies_phrase(self.backing(best, sector))}"
                           if self.backing(best, sector) > mine else
                           "neither was supported more strongly")
                self.why[m.fid] = (f"its scouts met those of {_name(best)} moving into {sector}; "
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

    def can_end(self, m: _Force, sector: str, occupied: Mapping[str, tuple[str, int]]) -> str | None:
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


def _retreat_to(f: _Force, beaten_by: _Force, final: Mapping[str, tuple[str, int]],
                cities: Mapping[str, str | None], game_map: GameMap) -> str | None:
    """Where ``f`` retreats: its first valid ordered retreat (into an ally's sector only when
    the order gives him the army, 5.7.1), else the valid neighbour most nearly opposite the
    direction the winning attack came from (5.7.2)."""
    came_from = beaten_by.sector
    gifts = dict(getattr(f.order, "retreat_gifts", ()))

    def valid(sector: str, holder: str) -> bool:
        if sector in (came_from, f.sector, DESERT) or sector not in game_map.regions:
            return False
        if sector not in game_map.land_neighbours(f.sector):
            return False
        city = cities.get(sector)
        if _is_city(game_map, sector) and city != holder and not (
                holder != f.player and city in (None, f.player)):
            return False
        owner, have = final.get(sector, (holder, 0))
        return owner == holder and have + f.count <= MAX_STACK

    for sector in f.retreat:
        ally = gifts.get(sector)
        if ally is not None and (final.get(sector, ("", 0))[0] == ally
                                 or cities.get(sector) == ally) and valid(sector, ally):
            return sector
        if valid(sector, f.player):
            return sector
    candidates = [s for s in game_map.land_neighbours(f.sector) if valid(s, f.player)]
    if not candidates:
        return None
    origin = game_map.regions[came_from].geometry.centroid
    here = game_map.regions[f.sector].geometry.centroid
    ax, ay = here.x - origin.x, here.y - origin.y  # the direction the attack came in

    def away(sector: str) -> tuple[float, float]:
        """How nearly opposite the attack a retreat goes (the cosine), then how far from it."""
        c = game_map.regions[sector].geometry.centroid
        bx, by = c.x - here.x, c.y - here.y
        norm = math.hypot(ax, ay) * math.hypot(bx, by) or 1.0
        return (round((ax * bx + ay * by) / norm, 9), c.distance(origin))

    return max(sorted(candidates), key=away)


def _is_city(game_map: GameMap, sector: str) -> bool:
    region = game_map.regions.get(sector)
    return region is not None and region.props.get("city") is True
