"""Where AZTLAN's beaten forces go (5.7, 5.7.1, 5.7.2), made after the moves into the sectors
they left valid: a retreat, a capture (3.5), or, for Chichimecs and independent garrisons that
could retreat, disbanding (7.1, 2.2)."""

from __future__ import annotations

import math
from collections.abc import Mapping

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.rulesets.aztlan.combat import Tally
from gmkit.rulesets.aztlan.forces import CHICHIMECS, MAX_STACK, Force, force_name, is_city
from gmkit.rulesets.aztlan.order_types import NEUTRAL
from gmkit.rulesets.aztlan.results import Capture, Code
from gmkit.rulesets.aztlan.board.geography import DESERT

__all__ = ["retreat_to", "settle_retreats"]


def settle_retreats(tally: Tally, final: dict[str, tuple[str, int]], game_map: PolygonBoard) -> None:
    """Every beaten force retreats, is captured or disbands, in the order of the sectors'
    names; ``final`` (the armies after the moves) gains the retreats."""
    cities = tally.cities
    for f, a in sorted(tally.homeless, key=lambda p: (p[0].sector, p[0].fid)):
        where = retreat_to(f, a, final, cities, game_map)
        before = f"; {f.reason}" if f.reason else ""
        if where is not None and f.player == CHICHIMECS:
            f.code, f.reason = Code.DISBANDED, (
                f"disbanded: beaten by {force_name(a)}; a retreating Chichimec is a dead Chichimec "
                "(7.1)" + before)
            tally.lost[f.player] += f.count
        elif where is not None and f.player == NEUTRAL:
            f.code, f.reason = Code.DISBANDED, (
                f"disbanded: beaten by {force_name(a)}, the independent garrison could retreat, so "
                "it disbands instead of being captured (2.2)" + before)
            tally.lost[f.player] += f.count
        elif where is not None:
            owner, have = final.get(where, (f.player, 0))
            ally = owner if owner != f.player else (
                cities.get(where) if cities.get(where) not in (None, f.player) else None)
            final[where] = (ally or f.player, have + f.count)
            f.to, f.given_to = where, ally
            gift = f" and was given to the {ally} (5.7.1)" if ally else ""
            f.code, f.reason = Code.RETREATED, (f"retreated to {where}{gift}: beaten by "
                                                f"{force_name(a)} (5.7)" + before)
        else:
            f.code, f.reason = Code.CAPTURED, (
                f"captured: beaten by {force_name(a)} with no friendly or vacant sector to retreat "
                "to (3.5)" + before)
            held_in = a.target if is_city(game_map, a.target) else a.sector
            tally.captures.append(Capture(a.player, f.count, held_in, f.player, a.target))
            tally.lost[f.player] += f.count


def retreat_to(f: Force, beaten_by: Force, final: Mapping[str, tuple[str, int]],
                cities: Mapping[str, str | None], game_map: PolygonBoard) -> str | None:
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
        if is_city(game_map, sector) and city != holder and not (
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
