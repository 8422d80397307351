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
one of the attacks on it wins.  A
:class:`~gmkit.rulesets.aztlan.resolver.Resolver` works the decisions out
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

Where it is
-----------
In :mod:`gmkit.rulesets.aztlan`: ``results`` (what the adjudication says), ``forces`` (the
orders read onto the armies), ``resolver`` (guess and check), ``decisions`` (supports, cuts,
weights and defences, the backup rule), ``combat`` (each force's outcome in combat), ``moves``
and ``retreat``; :func:`adjudicate` puts them together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.rulesets.aztlan.combat import (
    Tally,
    keep_standing,
    report_supports,
    settle_attacks,
    settle_taken,
)
from gmkit.rulesets.aztlan.decisions import Turn
from gmkit.rulesets.aztlan.forces import CHICHIMECS, MAX_STACK, is_city
from gmkit.rulesets.aztlan.moves import Moves, permits
from gmkit.rulesets.aztlan.order_types import Order
from gmkit.rulesets.aztlan.results import GODS, Adjudication, Capture, Code, CombatOrder, Result
from gmkit.rulesets.aztlan.position import Position
from gmkit.rulesets.aztlan.retreat import settle_retreats

__all__ = ["CHICHIMECS", "GODS", "MAX_STACK", "Adjudication", "Capture", "Code", "CombatOrder",
           "Result", "adjudicate"]


def adjudicate(position: Position, orders_by_player: Mapping[str, Sequence[Order]],
               game_map: PolygonBoard) -> Adjudication:
    """Resolve the combat and the moves of one movement turn (see the module's notes).

    ``orders_by_player`` maps each player to their typed orders (Permits
    are read for the moves, 4.1; orders other than Attack, Cut Support,
    Support, Hold, Stand, Move and Permit are ignored, and so are orders for
    :data:`~gmkit.rulesets.aztlan.order_types.NEUTRAL`: independent garrisons stand).  Armies with no order stand.  The position is not changed.
    """
    t = Turn(position, orders_by_player, game_map)
    tally = Tally(dict(position.cities))
    active = [f for f in t.forces if f.code is None]
    report_supports(t, active)
    winners = settle_attacks(t, active, tally)
    movers = keep_standing(t, winners, tally)
    for target in sorted(winners):
        settle_taken(t, target, winners[target], tally)
    final = tally.armies(t.forces)
    Moves(t, movers, final, tally.cities, permits(orders_by_player), tally.lost).run()
    settle_retreats(tally, final, game_map)

    peace = frozenset(f.target for f in t.forces if f.attacks and is_city(game_map, f.target))
    results = tuple(Result(f.player, f.sector, f.count, f.order, f.code or Code.SUCCEEDS,
                           f.reason, f.to, f.given_to, f.written) for f in t.forces)
    return Adjudication(results, dict(sorted(final.items())), tally.cities, tuple(tally.captures),
                        {p: n for p, n in sorted(tally.lost.items()) if n}, peace)
