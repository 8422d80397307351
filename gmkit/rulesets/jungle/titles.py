"""CHARACTER TITLES that pay each council session, and the social policies adopted by Fame.

"Each council session, characters with the title of Inventor receive a science beaker bonus
equal to (N)"; Builders "a production hammer bonus equal to (N)"; Ministers, Conquerors, Heroes
and Destroyers "a Fame bonus equal to (N)". Priests are blessed at their God's festival
(:func:`gmkit.rulesets.jungle.gods.bless_priests`); the attack titles add to strength
(:func:`gmkit.rulesets.jungle.attack.title_bonus`).

DETERMINING SOCIAL POLICIES: "When it is time for a new policy to be adopted, a policy will be
randomly selected. The selection is weighted, in which the strength of each character's support
is equal to the fame spent. The character who's supported policy is adopted receives the title of
Minister of Policy X ... In the event that no characters have supported adopting a social
policy, then adopting a policy will be deferred to a future council session." The GM enters
``policy <any name> era N gameturn G`` when the empire may adopt one; gmkit draws which.
"""

from __future__ import annotations

from typing import Any

from gmkit.core.dice import Dice
from gmkit.core.params import Params
from gmkit.core.steps import Event
from gmkit.core.tables import State
from gmkit.rulesets.jungle.rules import POLICIES, TITLES
from gmkit.rulesets.jungle.edit import add_to, char
from gmkit.rulesets.jungle.gameturns import BUILDER, INVENTOR
from gmkit.rulesets.jungle.lifecycle import add_title
from gmkit.rulesets.jungle.state import frame, rows

MINISTER, CONQUEROR, HERO, DESTROYER = "minister_of", "conqueror_of", "hero_of", "destroyer_of"
#: What each paying title gives each session: an attribute of the character, N of it.
BONUS = {INVENTOR: "beakers", BUILDER: "hammers", MINISTER: "fame", CONQUEROR: "fame",
         HERO: "fame", DESTROYER: "fame"}
WORDS = {INVENTOR: "Inventor of", BUILDER: "Builder of", MINISTER: "Minister of",
         CONQUEROR: "Conqueror of", HERO: "Hero of", DESTROYER: "Destroyer of"}


def session_titles(state: State, dice: Dice, rules: Params) -> tuple[State, list[Event]]:
    """Every living character's paying titles add their N to beakers, hammers or Fame."""
    events: list[Event] = []
    alive = {c["name"]: c for c in rows(state, "characters") if c["alive"]}
    for t in sorted(rows(state, "titles"), key=lambda t: (t["character"], t["title"],
                                                          t["subject"])):
        what = BONUS.get(t["title"])
        n = int(t["value"] or 0)
        if what is None or n <= 0 or t["character"] not in alive:
            continue
        state = add_to(state, t["character"], **{what: n})
        events.append(Event("title bonus", TITLES, f"{t['character']}, {WORDS[t['title']]} "
                            f"{t['subject']} ({n}), gains {n} {what}.",
                            alive[t["character"]]["house"], public=what == "fame",
                            data={"character": t["character"], what: n}))
    return state, events


def conquest_value(kind: str, citizens: int, aztec: str | None) -> int:
    """N of the title a captured, liberated or razed city gives: CONQUEROR "the number of
    citizens in the city AFTER it is captured"; HERO the citizens before, "increased by 2X if
    the liberated city was previously controlled by the Aztecs ... by 3X if ... originally
    founded by the Aztecs" (read as x2, x3); DESTROYER the citizens before x 2, "1/2X if the
    razed city was previously controlled by the Aztecs ... 1/3X if ... originally founded by the
    Aztecs (round down)"."""
    if kind == "conquered":
        return citizens
    if kind == "liberated":
        return citizens * {"previously": 2, "founded": 3}.get(aztec or "", 1)
    return citizens * 2 // {"previously": 2, "founded": 3}.get(aztec or "", 1)


def conquests(state: State, entered: list[dict[str, Any]]) -> tuple[State, list[Event]]:
    """Every character of the unit that captured, liberated or razed a city gets the title of
    Conqueror, Hero or Destroyer of it."""
    title = {"conquered": CONQUEROR, "liberated": HERO, "razed": DESTROYER}
    events: list[Event] = []
    for c in entered:
        kind, unit, city = str(c["kind"]), str(c["unit"]), str(c["city"])
        n = conquest_value(kind, int(c["citizens"]), c["aztec"])
        crew = sorted(x["name"] for x in rows(state, "characters")
                      if x["alive"] and x["unit"] == unit)
        for name in crew:
            state = add_title(state, name, title[kind], city, n)
        events.append(Event("title", TITLES, f"{unit} {kind} {city}: "
                            f"{', '.join(crew) or 'no character'} "
                            f"{'is' if len(crew) == 1 else 'are'} {WORDS[title[kind]]} {city} "
                            f"({n}).", data={"unit": unit, "city": city, "value": n}))
    return state, events


def adopt_policy(state: State, era: int, dice: Dice, rules: Params,
                 key: str) -> tuple[State, list[Event]]:
    """The empire adopts a policy: one support drawn, weighted by the Fame spent; its policy
    is adopted, its supporter made Minister of it (N the era), and the supports of that policy
    are used up."""
    support = [s for s in rows(state, "policy_support") if char(state, s["character"])["alive"]]
    if not support:
        return state, [Event("policy", POLICIES, "No character supports a social policy: the "
                             "adoption is deferred to a future council session.")]
    labels = [f"{s['character']}: {s['policy']} ({s['fame']} Fame)" for s in support]
    got = dice.choice(labels, weights=[max(1, int(s["fame"])) for s in support],
                      purpose="the social policy adopted (weighted by Fame spent)",
                      rule=POLICIES, key=key)
    chosen = support[labels.index(got)]
    state = add_title(state, chosen["character"], MINISTER, chosen["policy"], era)
    left = [s for s in rows(state, "policy_support") if s["policy"] != chosen["policy"]]
    state = state.replace(policy_support=frame(left, "policy_support"))
    return state, [Event("policy", POLICIES, f"Aztlan adopts {chosen['policy']}: "
                         f"{chosen['character']} is Minister of {chosen['policy']} ({era}).",
                         data={"character": chosen["character"], "policy": chosen["policy"]})]
