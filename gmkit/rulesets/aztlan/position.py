"""What AZTLAN's orders are judged and adjudicated against: the board at the start of a turn."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.rulesets.aztlan.order_types import NEUTRAL
from gmkit.rulesets.aztlan.board.geography import DESERT, EMPIRES, home_centres

__all__ = ["Position", "homeless"]


@dataclass(frozen=True)
class Position:
    """What validation needs to know of the board at the start of a turn.

    Attributes:
        armies: each occupied sector's ``(owner, count)``; independent
            cities' garrisons belong to :data:`NEUTRAL`.
        cities: each city's owner, ``None`` for an independent city (or, with
            no army in it, one destroyed by the Chichimecs, 7.4).
        captives: each player's captives held for sacrifice (3.5); a sacrifice
            may take place in any of the player's cities (3.5.4).
        year, season: the game turn (1450 to 1519; Winter, Spring, Summer, Fall).
        magic: each player's magical supports for this turn, one per army
            sacrificed on the turn before (3.5.3).
    """

    armies: Mapping[str, tuple[str, int]] = field(default_factory=dict)
    cities: Mapping[str, str | None] = field(default_factory=dict)
    captives: Mapping[str, int] = field(default_factory=dict)
    year: int = 1450
    season: str = "Winter"
    magic: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def initial(cls, game_map: PolygonBoard) -> Position:
        """Winter 1450 (2.2, 2.5): one army in every city, two in Tenochtitlan
        and Tzintzuntzan, the home centres their empires', two Chichimec
        armies in the desert."""
        homes = home_centres()
        cities = [n for n in game_map.land() if game_map.regions[n].props.get("city") is True]
        armies: dict[str, tuple[str, int]] = {
            c: (homes.get(c, NEUTRAL), 2 if c in ("Tenochtitlan", "Tzintzuntzan") else 1)
            for c in cities
        }
        armies[DESERT] = ("Chichimecs", 2)
        return cls(armies, {c: homes.get(c) for c in cities}, {}, 1450, "Winter")


def homeless(player: str, cities: Mapping[str, str | None]) -> bool:
    """Whether an empire with home centres (2.5) holds none of them (3.4, 4.1.1)."""
    homes = EMPIRES.get(player, ())
    return bool(homes) and not any(cities.get(c) == player for c in homes)

