"""AZTEC GODS: the festival, offerings, sacrifices and the Priests' blessings.

Each God takes and gives one thing: Huitzilopochtli XP, Quetzalcoatl Wisdom, Tezcatlipoca Fame,
Tlaloc the house's food. An offering of X is blessed with ``X x Random x 1.5 (x 2 at the God's
festival)``, rounded down like every gain of the text. A sacrifice is worth
``floor(sqrt(attribute x 2 at festival))`` (Tlaloc: ``floor(sqrt(10 x 2 at festival - XP))``, 0
when negative) plus a Defiant Slave's N, and makes the sacrificer "Priest of God X (N)", the Ns
of one God added up. At the God's festival each Priest is blessed with ``floor(N x Random)``.
"""

from __future__ import annotations

import math

from gmkit.core.dice import Dice
from gmkit.core.params import Params
from gmkit.core.steps import Event
from gmkit.core.tables import State
import gmkit.rulesets.jungle.actions as A
from gmkit.rulesets.jungle.rules import GOD_NAMES, GODS
from gmkit.rulesets.jungle.edit import add_to, add_to_house, char, house
from gmkit.rulesets.jungle.effects import Result, Void
from gmkit.rulesets.jungle.lifecycle import add_title, kill
from gmkit.rulesets.jungle.places import Places
from gmkit.rulesets.jungle.state import festival, frame, owner_of, rows, titles_of

#: What each God takes and gives: a character attribute, or the house's food.
GIFT = {"Huitzilopochtli": "xp", "Quetzalcoatl": "wisdom", "Tezcatlipoca": "fame",
        "Tlaloc": "food"}
PRIEST = "priest_of"
DEFIANT = "defiant_slave"


def draw_festival(state: State, dice: Dice) -> tuple[State, list[Event]]:
    """"Every council session, a festival is held in honor of one of the Gods, selected at
    random"."""
    god = dice.choice(list(GOD_NAMES), purpose="the God of this session's festival", rule=GODS,
                      key="festival")
    gods = frame([{"god": g, "festival": g == god} for g in GOD_NAMES], "gods")
    return state.replace(gods=gods), [Event("festival", GODS, f"The festival of {god} is held.",
                                            data={"god": god})]


def festival_factor(state: State, god: str, rules: Params) -> int:
    """2 during the God's own festival, else 1."""
    return int(rules.festival_factor) if festival(state) == god else 1


def sacrifice_value(god: str, victim: dict[str, int], factor: int, rules: Params) -> int:
    """The value N of a sacrifice (before a Defiant Slave's N is added)."""
    if god == "Tlaloc":
        inside = int(rules.tlaloc_base) * factor - victim["xp"]
        return math.isqrt(inside) if inside > 0 else 0
    return math.isqrt(max(0, victim[GIFT[god]] * factor))  # a gift below nothing gives nothing


def sacrifice(state: State, a: A.Sacrifice, dice: Dice, rules: Params) -> Result:
    """SACRIFICE: "only one of your own characters or a character that you have captured as a
    slave ... in the same location"."""
    me, victim = char(state, a.who), char(state, a.victim)
    _need(victim["alive"], f"{a.victim} is dead already")
    _need(a.victim != a.who, "a character cannot sacrifice himself")
    _need(victim["house"] == me["house"] or owner_of(state, a.victim) == a.who,
          f"{a.victim} is neither of {a.who}'s house nor his slave")
    _need(Places(state).same(a.who, a.victim), f"{a.victim} is not in the same location")
    factor = festival_factor(state, a.god, rules)
    n = sacrifice_value(a.god, victim, factor, rules)
    defiant = sum(t["value"] or 0 for t in titles_of(state, a.victim, DEFIANT))
    state, events = kill(state, a.victim, f"is sacrificed to {a.god} by {a.who}", dice, rules)
    state = add_title(state, a.who, PRIEST, a.god, n + defiant, add=True)
    return state, events + [Event("sacrifice", GODS, f"{a.who} becomes Priest of {a.god} "
                                  f"({n + defiant}).", a.by, data={"character": a.who,
                                                                   "god": a.god,
                                                                   "n": n + defiant})]


def offering(state: State, a: A.Offering, dice: Dice, rules: Params) -> Result:
    """OFFERING: give X of what the God takes; the blessing is X x Random x 1.5 (x 2 at his
    festival)."""
    what = GIFT[a.god]
    me = char(state, a.who)
    have = house(state, me["house"])["food"] if what == "food" else me[what]
    _need(0 < a.amount <= have, f"{a.who} has {have} {what} to offer")
    u = dice.uniform(purpose=f"{a.god}'s blessing of {a.who}'s offering", rule=GODS,
                     key=f"offering/{a.who}")
    blessing = math.floor(a.amount * u * float(rules.offering_factor)
                          * festival_factor(state, a.god, rules) + 1e-12)
    if what == "food":
        state = add_to_house(state, a.by or me["house"], food=blessing - a.amount)
    else:
        state = add_to(state, a.who, **{what: blessing - a.amount})
    events = [Event("offering", GODS, f"{a.who} offers {a.amount} {what} to {a.god} and is "
                    f"blessed with {blessing}.", a.by, data={"character": a.who,
                                                             "blessing": blessing})]
    if what == "xp" and char(state, a.who)["xp"] <= 0:
        state, more = kill(state, a.who, "gives his life to Huitzilopochtli", dice, rules)
        events += more
    return state, events


def bless_priests(state: State, dice: Dice, rules: Params) -> tuple[State, list[Event]]:
    """"During future festivals ..., Priests ... are rewarded with a blessing of N x (Random
    Number), rounded down" (this session's sacrifices count from the next festival)."""
    god = festival(state)
    events: list[Event] = []
    if god is None:
        return state, events
    priests = [t for t in rows(state, "titles") if t["title"] == PRIEST and t["subject"] == god]
    for t in sorted(priests, key=lambda t: t["character"]):
        me = char(state, t["character"])
        if not me["alive"]:
            continue
        u = dice.uniform(purpose=f"{god}'s blessing of his Priest {t['character']}", rule=GODS,
                         key=f"priest/{t['character']}")
        gift = math.floor((t["value"] or 0) * u + 1e-12)
        what = GIFT[god]
        if what == "food":
            state = add_to_house(state, me["house"], food=gift)
        else:
            state = add_to(state, t["character"], **{what: gift})
        events.append(Event("blessing", GODS, f"{god} blesses his Priest {t['character']} with "
                            f"{gift} {what}.", me["house"], data={"character": t["character"],
                                                                  "gift": gift}))
    return state, events


def _need(ok: bool, reason: str) -> None:
    if not ok:
        raise Void(reason)
