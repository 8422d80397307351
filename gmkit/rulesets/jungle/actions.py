"""The Law of the Jungle's character actions as typed values.

Every action names the character who acts (``who``), the part of the session it is for (``slot``
1, the Morning, or 2, the Afternoon), the post line it came from and the house that posted it
(``by``: a slave's owner may post the slave's Morning action). ``both`` marks an action that uses
both of the character's actions (Travel without a trade route, Order with a doubled word limit,
Defend twice).

The order they resolve in is the flow's (:mod:`gmkit.rulesets.jungle.resolve`).
"""

from __future__ import annotations

from dataclasses import dataclass

from gmkit.rulesets.jungle.attack import AttackType


@dataclass(frozen=True, kw_only=True)
class Action:
    """What every action carries: who acts, in which part, from which line and post."""

    who: str
    slot: int = 1
    line: int = 0
    by: str = ""
    both: bool = False

    @property
    def keyword(self) -> str:
        """The action's bold keyword."""
        return type(self).__name__


@dataclass(frozen=True, kw_only=True)
class Sacrifice(Action):
    """Sacrifice one's own character or slave, in the same location, to a God."""

    victim: str
    god: str


@dataclass(frozen=True, kw_only=True)
class Offering(Action):
    """Offer XP, Wisdom, Fame or the house's food (by God) for a blessing."""

    god: str
    amount: int


@dataclass(frozen=True, kw_only=True)
class Move(Action):
    """A peasant or citizen moves to another workable hex of the same city."""

    q: int
    r: int


@dataclass(frozen=True, kw_only=True)
class Travel(Action):
    """Travel to another city, becoming a peasant there on a chosen (or drawn) workable hex."""

    city: str
    q: int | None = None
    r: int | None = None


@dataclass(frozen=True, kw_only=True)
class Enlist(Action):
    """Join a unit (or move from one unit to another)."""

    unit: str


@dataclass(frozen=True, kw_only=True)
class Order(Action):
    """A Captain's orders to his unit; ``words`` counted as posted."""

    unit: str
    text: str
    words: int


@dataclass(frozen=True, kw_only=True)
class Desert(Action):
    """Leave a unit for a workable hex of any city; Fame halved."""

    city: str
    q: int | None = None
    r: int | None = None


@dataclass(frozen=True, kw_only=True)
class Disband(Action):
    """A Captain disbands his unit: its characters become peasants in the nearest city."""

    unit: str = ""


@dataclass(frozen=True, kw_only=True)
class Retire(Action):
    """A Captain retires with a bonus of half his Fame, to a hex of any city."""

    city: str
    q: int | None = None
    r: int | None = None


@dataclass(frozen=True, kw_only=True)
class Toil(Action):
    """A peasant works his hex for its output (a tenant's goes to his landlord)."""


@dataclass(frozen=True, kw_only=True)
class Evict(Action):
    """A citizen moves a tenant to another tile of the city."""

    tenant: str
    q: int
    r: int


@dataclass(frozen=True, kw_only=True)
class Procreate(Action):
    """Raise a child: food (Current Characters + 1)^2, a new peasant on the same hex."""

    child: str = ""


@dataclass(frozen=True, kw_only=True)
class Recruit(Action):
    """Recruit a character for Fame (Current Characters + 1)^2."""

    recruit: str = ""


@dataclass(frozen=True, kw_only=True)
class Attack(Action):
    """An attack of one of the nine types; joint partners, principal and the item in question
    (Challenge, Overthrow) as posted."""

    kind: AttackType
    target: str
    desperate: bool = False
    joint: tuple[str, ...] = ()
    principal: str | None = None
    item: str | None = None

    @property
    def participants(self) -> frozenset[str]:
        """Everyone this line names as attacking."""
        return frozenset((self.who, *self.joint))


@dataclass(frozen=True, kw_only=True)
class Defend(Action):
    """Prepare to defend: attributes doubled for defense from now on this session."""


@dataclass(frozen=True, kw_only=True)
class Propose(Action):
    """A Tlatoani proposes a diplomatic agreement (told to the GM)."""

    text: str


@dataclass(frozen=True, kw_only=True)
class Spend(Action):
    """A Tlatoani spends the empire's gold, within his limit."""

    gold: int
    text: str


@dataclass(frozen=True, kw_only=True)
class Research(Action):
    """Research a technology with the character's beakers."""

    tech: str


@dataclass(frozen=True, kw_only=True)
class Produce(Action):
    """Produce a building or unit in the character's city with his hammers."""

    item: str


@dataclass(frozen=True, kw_only=True)
class Give(Action):
    """Give Fame, food or gold (``amount``), or a slave, a captaincy, land or a city
    (``subject``) to a character in the same location."""

    thing: str
    to: str
    amount: int = 0
    subject: str | None = None


@dataclass(frozen=True, kw_only=True)
class Train(Action):
    """Raise an attribute by 1 for (Current Level + 1)^2 gold."""

    attribute: str


@dataclass(frozen=True, kw_only=True)
class Purchase(Action):
    """Buy X beakers, hammers or food for 3X gold."""

    what: str
    amount: int


@dataclass(frozen=True, kw_only=True)
class JoinHouses(Action):
    """Join houses with the house of ``other`` (both houses' highest-Fame characters)."""

    other: str


@dataclass(frozen=True, kw_only=True)
class SplitHouses(Action):
    """Split a joined house (the GM names the leaving part)."""


@dataclass(frozen=True, kw_only=True)
class Annex(Action):
    """A citizen of a puppet city annexes it and becomes its Tlatoani."""


@dataclass(frozen=True, kw_only=True)
class Support(Action):
    """Spend Fame in support of adopting a social policy."""

    policy: str
    fame: int


ACTION_TYPES: tuple[type[Action], ...] = (
    Sacrifice, Offering, Move, Travel, Enlist, Order, Desert, Disband, Retire, Toil, Evict,
    Procreate, Recruit, Attack, Defend, Propose, Spend, Research, Produce, Give, Train, Purchase,
    JoinHouses, SplitHouses, Annex, Support)
