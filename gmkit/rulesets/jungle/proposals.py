"""PROPOSING CHANGES TO THE RULES: a proposal and its offering of 25 points.

"Simply send me a PM with your wonderful new idea ... Include with your proposal an offering of 25
points of XP, Wisdom, Craftsmanship and/or Fame from one or more of your non-slave characters.
The offering doesn't gaurentee your proposal will be accepted, but without it Yahzuk will not
consider your words." A house posts it as one line (it is no character's action)::

    [b]Rule proposal: Tlatoani may spend twice their limit; offering Gualpa 10 XP, Itzel 15 Fame[/b]

The points are taken as the session opens (Fame and XP as they then stand); a proposal whose
offering falls short, or names a slave or another house's character, is not considered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gmkit.core.dice import Dice
from gmkit.core.envelope import Orders
from gmkit.core.orders import OrderSyntaxError
from gmkit.core.params import Params
from gmkit.core.steps import Event
from gmkit.core.tables import State
from gmkit.rulesets.jungle.edit import add_to, char
from gmkit.rulesets.jungle.lifecycle import kill
from gmkit.rulesets.jungle.state import owner_of

PROPOSALS = "PROPOSING CHANGES TO THE RULES"
OFFERING = 25
LINE = re.compile(r"^\s*rule\s+(?:change\s+)?proposal\s*:\s*(?P<text>.+?)\s*;\s*offering\s+"
                  r"(?P<parts>.+)$", re.I)
PART = re.compile(r"^(?P<who>.+?)\s+(?P<n>\d+)\s+(?P<a>xp|wisdom|craftsmanship|fame)$", re.I)


@dataclass(frozen=True)
class RuleProposal:
    """A proposal to change the rules and the points offered with it (character, attribute,
    points)."""

    text: str
    offering: tuple[tuple[str, str, int], ...]
    by: str = ""

    @property
    def total(self) -> int:
        """The points offered."""
        return sum(n for _, _, n in self.offering)


def parse_line(text: str, house: str, resolve: object) -> RuleProposal | None:
    """The proposal a line makes, or None when the line is no proposal; ``resolve`` turns a
    typed name into a character's."""
    m = LINE.match(text)
    if not m:
        return None
    parts = []
    for piece in filter(None, (p.strip() for p in re.split(r",|\band\b", m["parts"]))):
        pm = PART.match(piece)
        if not pm:
            raise OrderSyntaxError(f"cannot read the offering '{piece}': write '<Character> "
                                   "<points> XP|Wisdom|Craftsmanship|Fame'")
        who = resolve(pm["who"].strip())  # type: ignore[operator]
        parts.append((str(who), pm["a"].lower(), int(pm["n"])))
    return RuleProposal(m["text"], tuple(parts), house)


def proposals(state: State, orders: Orders[object], dice: Dice,
              rules: Params) -> tuple[State, list[Event]]:
    """Each proposal's offering taken, or the proposal not considered with the reason."""
    events: list[Event] = []
    for player in orders:
        for sent in orders.of(player):
            p = sent.order
            if not isinstance(p, RuleProposal):
                continue
            reason = None
            if p.total < OFFERING:
                reason = f"the offering is {p.total} points, not {OFFERING}"
            for who, attr, n in p.offering:
                me = char(state, who)
                if reason is None and (me["house"] != p.by or not me["alive"]):
                    reason = f"{who} is no living character of house {p.by}"
                elif reason is None and owner_of(state, who) is not None:
                    reason = f"{who} is a slave"
                elif reason is None and me[attr] < n:
                    reason = f"{who} has {me[attr]} {attr}, not {n}"
            secret = sent.secret
            if reason is not None:
                events.append(Event("proposal", PROPOSALS, f"A rule proposal of house {p.by} is "
                                    f"not considered: {reason}.", p.by, public=not secret))
                continue
            for who, attr, n in p.offering:
                state = add_to(state, who, **{attr: -n})
                if attr == "xp" and char(state, who)["xp"] <= 0:
                    state, more = kill(state, who, "gives his life for a rule proposal", dice,
                                       rules)
                    events += more
            events.append(Event("proposal", PROPOSALS, f"House {p.by} offers {p.total} points "
                                f"with a rule proposal: {p.text}", p.by, public=not secret,
                                data={"text": p.text, "offering": [list(x) for x in
                                                                   p.offering]}))
    return state, events
