"""One round's lines of a house's post read into typed actions, with every rejected line and
its reason (:mod:`gmkit.rulesets.jungle.orders` splits a post into its two rounds).

A line is ``<Character>: <Action>`` in bold, one action per character per part (Morning or
Afternoon); names by unambiguous prefix, case and accents ignored::

    [b]Gualpa: Attack (Duel) Xoco[/b]
    [b]Gualpa: Desperate Attack (Assassinate) Xoco[/b]
    [b]Gualpa: Joint Attack (Duel) Xoco with Itzel; principal Itzel[/b]
    [b]Itzel: Challenge Xoco for Tenochtitlan[/b]           (Attack (Challenge) ... for ...)
    [b]Itzel: Research Bronze Working[/b]     [b]Itzel: Produce Granary[/b]
    [b]Tochtli: Order Warrior 1: hold the hill and attack barbarians nearby[/b]
    [b]Tochtli: Order (both actions) Warrior 1: ...[/b]     (a doubled word limit)
    [b]Xoco: Sacrifice Mixtli to Tlaloc[/b]    [b]Xoco: Offering 3 to Huitzilopochtli[/b]
    [b]Xoco: Move 1,-1[/b]   Travel Tlatelolco 2,0   Enlist Warrior 1   Desert Tenochtitlan 1,0
    Disband   Retire Tenochtitlan 0,1   Toil   Evict Mixtli 1,1   Procreate Ome   Recruit Ehecatl
    Defend   Propose open borders with Inca   Spend 30 on a Granary   Give 5 gold to Itzel
    Give Mixtli to Itzel (a slave)   Give captaincy of Warrior 1 to Itzel   Give land to Itzel
    Give Tenochtitlan to Itzel   Train Wisdom   Purchase 4 beakers   Join Houses with Itzel
    Split Houses   Annex   Support Tradition with 5 Fame

A line for another house's character is refused with the reason, except a Morning action a slave's
owner demands of his slave. Orders over the unit's word limit (5 x level, 15 without a level,
doubled with both actions) are kept and reported: the unit becomes confused and fortifies.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from gmkit.core.orders import (IllegalOrderError, NotAnOrderError, OrderError, OrderSyntaxError,
                               ParseResult, PostLine, parse_post)
from gmkit.core.names import NameIndex, normalize
from gmkit.core.params import Params
from gmkit.core.tables import State
from gmkit.core.words import OrderWords
import gmkit.rulesets.jungle.actions as A
from gmkit.rulesets.jungle.attack import AttackType
from gmkit.rulesets.jungle.rules import GOD_NAMES


class WordLimitError(IllegalOrderError):
    """Orders longer than the unit can understand: kept, but the unit will fortify."""


GODS = NameIndex(GOD_NAMES, kind="God", aliases={"Hutzilopochtli": "Huitzilopochtli",
                                                  "War": "Huitzilopochtli",
                                                  "Knowledge": "Quetzalcoatl",
                                                  "Rulership": "Tezcatlipoca",
                                                  "Fertility": "Tlaloc"})
TYPES = NameIndex([t.value for t in AttackType], kind="attack type")
ATTRIBUTES = NameIndex(["XP", "Fame", "Craftsmanship", "Wisdom"], kind="attribute",
                       aliases={"Combat Experience": "XP", "Experience": "XP"})
HEX = r"(?P<q>-?\d+)\s*[,/ ]\s*(?P<r>-?\d+)"
BOTH = re.compile(r"\s*\((?:using\s+)?both(?:\s+actions)?\)\s*", re.I)


def words_in(text: str) -> int:
    """The words of an order, as a forum counts them (runs of non-space characters)."""
    return len(text.split())


def word_limit(level: int | None, both: bool, rules: Params) -> int:
    """5 x (the unit's current level), 15 for a unit without a level; doubled with both
    actions."""
    base = int(rules.words_without_level) if level is None else int(rules.words_per_level) * level
    return base * (2 if both else 1)


class Reader:
    """Reads one house's lines against the state: who may act, and the names a line uses."""

    def __init__(self, state: State, house: str, slot: int, rules: Params):
        self.state, self.house, self.slot, self.rules = state, house, slot, rules
        chars = state["characters"]
        self.chars = {r["name"]: r for r in chars.iter_rows(named=True)}
        self.people = NameIndex(chars["name"].to_list(), kind="character")
        self.cities = NameIndex(state["cities"]["city"].to_list(), kind="city")
        self.units = NameIndex(state["units"]["unit"].to_list(), kind="unit")
        self.levels = dict(state["units"].select("unit", "level").iter_rows())
        mine = [n for n, r in self.chars.items() if r["house"] == house]
        self.owned_slaves = {s: o for s, o in state["slaves"].iter_rows() if o in mine}
        #: Who a rejection's example names: one of the house's own living characters.
        self.example = next((n for n in mine if self.chars[n]["alive"]), "<Character>")
        #: The names a line may use, never judged as misspelt order words.
        self.names = [self.people, self.cities, self.units, GODS, TYPES, ATTRIBUTES]

    def actor(self, name: str) -> str:
        """The character a line is for, if this house may order him now."""
        who = self.people.resolve(name)
        me = self.chars[who]
        if not me["alive"]:
            raise IllegalOrderError(f"{who} is dead")
        if me["house"] != self.house:
            if who in self.owned_slaves and self.slot == 1:
                return who
            if who in self.owned_slaves:
                raise IllegalOrderError(f"{who} is a slave of {self.owned_slaves[who]}, but an "
                                        "owner may only demand a slave's Morning action")
            raise IllegalOrderError(f"{who} belongs to house {me['house']}, not to house "
                                    f"{self.house}")
        if not me["may_act"]:
            raise IllegalOrderError(f"{who} is new and may not act until the next council "
                                    "session")
        return who

    def line(self, line: PostLine) -> A.Action | None:
        """One line into an action (raises :class:`OrderError` with the reason)."""
        text = line.text.strip().rstrip(".!")
        if not text:
            return None
        if ":" not in text:
            raise WORDS.rejected(text, "expected '<Character>: <Action>', e.g. "
                                 f"'{self.example}: Toil'", [self.people])
        name, body = (p.strip() for p in text.split(":", 1))
        if not (NAMES_ONLY.starts_an_order(name, [self.people])
                or WORDS.starts_an_order(body)):
            raise NotAnOrderError(f"'{name}' is no character and '{body}' no action")
        who = self.actor(name)
        both = bool(BOTH.search(body.split(":", 1)[0]))
        body = BOTH.sub(" ", body, count=1).strip() if both else body
        if both and self.slot != 1:
            raise IllegalOrderError("both actions can only be claimed with the first action")
        common: dict[str, Any] = {"who": who, "slot": self.slot, "line": line.number,
                                  "by": self.house, "both": both}
        for rx, build in RULES_OF_LINES:
            m = rx.match(body)
            if m:
                return build(self, m, common)
        raise self.unread(body)

    def unread(self, body: str) -> OrderSyntaxError:
        """Why no action's form read ``body``: an action whose other words are amiss (each
        misspelt one told what it may be, and the action's form), or no action at all (and
        which it may be)."""
        word, _, rest = body.partition(" ")
        action = _LEADS.get(normalize(word))
        if action is not None:
            hint = WORDS.hint(body, self.names)
            return OrderSyntaxError(f"cannot read the {action} action '{body}'"
                                    + (f"; {hint}" if hint else "")
                                    + f" (write '{FORMS[action]}')")
        close = _ACTIONS.suggest(word, 2) or list(dict.fromkeys(
            _LEADS[k] for k in map(normalize, WORDS.meant(word)) if k in _LEADS))
        hint = WORDS.hint(rest, self.names)
        return OrderSyntaxError(f"no action '{word}'"
                                + (f"; did you mean {' or '.join(close)}?" if close else "")
                                + (f"; {hint}" if hint else "")
                                + f" (known actions: {', '.join(KEYWORDS)})")

    # -- name helpers ------------------------------------------------------------------------
    def person(self, text: str) -> str:
        return self.people.resolve(text.strip())

    def city(self, text: str) -> str:
        return self.cities.resolve(text.strip())

    def unit(self, text: str) -> str:
        return self.units.resolve(text.strip())


def _hex(m: re.Match[str]) -> dict[str, Any]:
    q, r = m.groupdict().get("q"), m.groupdict().get("r")
    return {"q": _int(q, "hexes") if q is not None else None,
            "r": _int(r, "hexes") if r is not None else None}


def _attack(rd: Reader, m: re.Match[str], c: dict[str, Any]) -> A.Action:
    kind = AttackType(TYPES.resolve(m["type"]))
    rest = m["rest"].strip()
    principal = joint = item = None
    pm = re.search(r"[,;]?\s*principal(?:\s+attacker)?\s*[:=]?\s+(?P<p>[^,;]+)$", rest, re.I)
    if pm:
        principal, rest = pm["p"].strip(), rest[:pm.start()].strip()
    wm = re.search(r"\s+(?:with|together with|jointly with)\s+(?P<w>.+)$", rest, re.I)
    if wm:
        joint, rest = wm["w"], rest[:wm.start()].strip()
    fm = re.search(r"\s+(?:for|over)\s+(?P<i>.+)$", rest, re.I)
    if fm:
        item, rest = fm["i"].strip(), rest[:fm.start()].strip()
    target = rd.person(rest)
    partners = tuple(rd.person(p) for p in re.split(r"\s*(?:,|\band\b|&)\s*", joint or "") if p)
    mods = m["mods"].lower().split()
    is_joint = "joint" in mods or bool(partners)
    if is_joint and not partners:
        raise OrderSyntaxError("a joint attack names every other participant: '... with "
                               "<Character>, <Character>'")
    if c["who"] in partners or target in partners or target == c["who"]:
        raise IllegalOrderError("the target and the participants must all be different "
                                "characters")
    lead = rd.person(principal) if principal else None
    if lead is not None and lead not in (c["who"], *partners):
        raise IllegalOrderError(f"the principal attacker {lead} is not one of the attackers")
    if kind in (AttackType.CHALLENGE, AttackType.OVERTHROW) and item is None:
        raise OrderSyntaxError(f"a {kind.value} is for an item: '... for <city>', 'for land', "
                               "'for <unit>' or 'for <slave>'")
    return A.Attack(kind=kind, target=target, desperate="desperate" in mods, joint=partners,
                    principal=lead, item=item, **c)


def _order(rd: Reader, m: re.Match[str], c: dict[str, Any]) -> A.Action:
    unit = rd.unit(m["unit"])
    text = m["text"].strip()
    return A.Order(unit=unit, text=text, words=words_in(text), **c)


def _give(rd: Reader, m: re.Match[str], c: dict[str, Any]) -> A.Action:
    to = rd.person(m["to"])
    what = m["what"].strip()
    am = re.match(r"^(?P<n>\d+)\s+(?P<t>fame|food|gold)$", what, re.I)
    if am:
        return A.Give(thing=am["t"].lower(), amount=_int(am["n"], am["t"].lower()), to=to, **c)
    cm = re.match(r"^(?:the\s+)?captaincy\s+(?:of\s+)?(?P<u>.+)$", what, re.I)
    if cm:
        return A.Give(thing="captaincy", subject=rd.unit(cm["u"]), to=to, **c)
    if re.match(r"^(?:my\s+|the\s+)?(?:land|citizenship(?:\s+over\s+.*)?|tile|hex)$", what, re.I):
        return A.Give(thing="land", to=to, **c)
    rm = re.match(r"^(?:the\s+)?(?:rulership|throne)\s+(?:of\s+)?(?P<c>.+)$", what, re.I)
    if rm:
        return A.Give(thing="city", subject=rd.city(rm["c"]), to=to, **c)
    sm = re.match(r"^(?:the\s+)?(?:ownership\s+of\s+)?(?:slave\s+)?(?P<s>.+)$", what, re.I)
    name = sm["s"] if sm else what
    if name in rd.cities:
        return A.Give(thing="city", subject=rd.city(name), to=to, **c)
    return A.Give(thing="slave", subject=rd.person(name), to=to, **c)


def _int(text: str, what: str) -> int:
    if len(text.lstrip("-")) > 9:
        raise OrderSyntaxError(f"{text[:12]}… is more {what} than anyone has")
    return int(text)


Build = Callable[[Reader, re.Match[str], dict[str, Any]], A.Action]
_R: list[tuple[str, Build]] = [
    (r"^(?P<mods>(?:(?:joint|desperate)\s+)*)attack\s*\(\s*(?P<type>[\w ]+?)"
     r"\s*\)\s*(?P<rest>.+)$", _attack),
    (r"^(?P<mods>(?:(?:joint|desperate)\s+)*)(?:attack\s+)?"
     r"(?P<type>duel|assassinate|debate|discredit|challenge|overthrow|steal|capture|escape)"
     r"\s*(?:from|against)?\s+(?P<rest>.+)$", _attack),
    (r"^order\s+(?:to\s+)?(?P<unit>[^:]+?)\s*:\s*(?P<text>.+)$", _order),
    (r"^sacrifice\s+(?P<v>.+?)\s+to\s+(?P<g>.+)$",
     lambda rd, m, c: A.Sacrifice(victim=rd.person(m["v"]), god=GODS.resolve(m["g"]), **c)),
    (r"^(?:offering|offer|make an offering of)\s+(?P<n>\d+)(?:\s+(?:xp|wisdom|fame|food))?"
     r"\s+to\s+(?P<g>.+)$",
     lambda rd, m, c: A.Offering(god=GODS.resolve(m["g"]), amount=_int(m["n"], "points"), **c)),
    (rf"^move\s+(?:to\s+)?(?:hex\s+)?{HEX}$", lambda rd, m, c: A.Move(**_hex(m), **c)),
    (rf"^travel\s+(?:to\s+)?(?P<c>.+?)(?:\s+(?:hex\s+)?{HEX})?$",
     lambda rd, m, c: A.Travel(city=rd.city(m["c"]), **_hex(m), **c)),
    (r"^enlist\s+(?:in\s+|into\s+)?(?P<u>.+)$", lambda rd, m, c: A.Enlist(unit=rd.unit(m["u"]),
                                                                             **c)),
    (rf"^desert\s+(?:to\s+)?(?P<c>.+?)(?:\s+(?:hex\s+)?{HEX})?$",
     lambda rd, m, c: A.Desert(city=rd.city(m["c"]), **_hex(m), **c)),
    (r"^disband(?:\s+(?P<u>.+))?$",
     lambda rd, m, c: A.Disband(unit=rd.unit(m["u"]) if m["u"] else "", **c)),
    (rf"^retire\s+(?:to\s+)?(?P<c>.+?)(?:\s+(?:hex\s+)?{HEX})?$",
     lambda rd, m, c: A.Retire(city=rd.city(m["c"]), **_hex(m), **c)),
    (r"^toil$", lambda rd, m, c: A.Toil(**c)),
    (rf"^evict\s+(?P<t>.+?)\s+(?:to\s+)?(?:hex\s+)?{HEX}$",
     lambda rd, m, c: A.Evict(tenant=rd.person(m["t"]), **_hex(m), **c)),
    (r"^procreate(?:\s*[:,-]?\s*(?:named\s+)?(?P<n>.+))?$",
     lambda rd, m, c: A.Procreate(child=(m["n"] or "").strip(), **c)),
    (r"^recruit(?:\s*[:,-]?\s*(?:named\s+)?(?P<n>.+))?$",
     lambda rd, m, c: A.Recruit(recruit=(m["n"] or "").strip(), **c)),
    (r"^defend$", lambda rd, m, c: A.Defend(**c)),
    (r"^propose\s+(?P<t>.+)$", lambda rd, m, c: A.Propose(text=m["t"].strip(), **c)),
    (r"^spend\s+(?P<n>\d+)(?:\s+gold)?\s+(?:on|for)\s+(?P<t>.+)$",
     lambda rd, m, c: A.Spend(gold=_int(m["n"], "gold"), text=m["t"].strip(), **c)),
    (r"^research\s+(?P<t>.+)$", lambda rd, m, c: A.Research(tech=m["t"].strip(), **c)),
    (r"^produce\s+(?P<t>.+)$", lambda rd, m, c: A.Produce(item=m["t"].strip(), **c)),
    (r"^give\s+(?P<what>.+?)\s+to\s+(?P<to>[^,;]+)$", _give),
    (r"^train\s+(?P<a>.+)$",
     lambda rd, m, c: A.Train(attribute=ATTRIBUTES.resolve(m["a"]).lower(), **c)),
    (r"^purchase\s+(?P<n>\d+)\s+(?:points?\s+of\s+)?(?P<w>beakers?|hammers?|food|science beakers?|"
     r"production hammers?)$",
     lambda rd, m, c: A.Purchase(what=_purchase(m["w"]), amount=_int(m["n"], "points"), **c)),
    (r"^join\s+houses?\s+(?:with\s+)?(?P<o>.+)$",
     lambda rd, m, c: A.JoinHouses(other=rd.person(m["o"]), **c)),
    (r"^split\s+houses?$", lambda rd, m, c: A.SplitHouses(**c)),
    (r"^annex(?:\s+.*)?$", lambda rd, m, c: A.Annex(**c)),
    (r"^(?:support|policy)\s+(?P<p>.+?)\s+(?:with\s+)?(?P<n>\d+)(?:\s+fame)?$",
     lambda rd, m, c: A.Support(policy=m["p"].strip(), fame=_int(m["n"], "Fame"), **c)),
]
RULES_OF_LINES = [(re.compile(rx, re.I), build) for rx, build in _R]
KEYWORDS = ("Attack (Type)", "Sacrifice", "Offering", "Move", "Travel", "Enlist", "Order",
            "Desert", "Disband", "Retire", "Toil", "Evict", "Procreate", "Recruit", "Defend",
            "Propose", "Spend", "Research", "Produce", "Give", "Train", "Purchase",
            "Join Houses", "Split Houses", "Annex", "Support")

#: The actions as names, for the did-you-mean of an unknown one.
_ACTIONS = NameIndex(KEYWORDS, kind="action")

#: Each action's form, as a rejection of a line that names it shows it (placeholders for
#: names: never another house's character).
FORMS = {
    "Attack": "Attack (Duel) <Character>", "Sacrifice": "Sacrifice <Character> to <God>",
    "Offering": "Offering 3 to <God>", "Move": "Move 1,-1", "Travel": "Travel <City> 2,0",
    "Enlist": "Enlist <Unit>", "Order": "Order <Unit>: <what it does>",
    "Desert": "Desert <City> 1,0", "Disband": "Disband", "Retire": "Retire <City> 0,1",
    "Toil": "Toil", "Evict": "Evict <Character> 1,1", "Procreate": "Procreate <Name>",
    "Recruit": "Recruit <Name>", "Defend": "Defend", "Propose": "Propose <terms>",
    "Spend": "Spend 30 on <what>", "Research": "Research <Technology>",
    "Produce": "Produce <Item>", "Give": "Give 5 gold to <Character>",
    "Train": "Train Wisdom", "Purchase": "Purchase 4 beakers",
    "Join Houses": "Join Houses with <Character>", "Split Houses": "Split Houses",
    "Annex": "Annex", "Support": "Support <Policy> with 5 Fame",
}
#: The first word of a line of each action (its modifiers and attack types too).
_LEADS = {normalize(k.split()[0]): k for k in FORMS} | dict.fromkeys(
    map(normalize, ("joint", "desperate", *(t.value for t in AttackType))), "Attack")

#: The words of the actions: those an action starts with (so that a line whose part after the
#: colon starts with none of them, nor its part before with a character, is not read as an
#: action) and every other word of their forms, each misspelt one told what it may be.
WORDS = OrderWords(
    starts=(*(k.split()[0] for k in KEYWORDS), "joint", "desperate",
            *(t.value for t in AttackType)),
    others=("type", "houses", "with", "together", "jointly", "for", "over", "principal", "attacker", "to", "in",
            "into", "hex", "from", "against", "both", "actions", "using", "offer", "make", "an",
            "a", "of", "xp", "wisdom", "fame", "food", "gold", "on", "captaincy", "the", "my",
            "land", "citizenship", "tile", "rulership", "throne", "ownership", "slave",
            "points", "point", "beakers", "beaker", "hammers", "hammer", "science",
            "production", "house", "policy", "named", "craftsmanship", "experience",
            "combat"))
#: A character's name is the only thing a line's part before its colon starts with.
NAMES_ONLY = OrderWords()


def _purchase(word: str) -> str:
    w = word.lower()
    return "beakers" if "beaker" in w else "hammers" if "hammer" in w else "food"


def parse(post: str, state: State, house: str, slot: int,
          rules: Params) -> ParseResult[A.Action]:
    """A house's post for one part (1 Morning, 2 Afternoon) into actions and per-line errors.

    One action per character per part; an order over its unit's word limit is kept and reported
    (:class:`WordLimitError`)."""
    reader = Reader(state, house, slot, rules)
    result = parse_post(post, WORDS.reading(reader.line, reader.names))
    seen: dict[str, int] = {}
    kept = []
    for line, action in result.orders:
        if action.who in seen:
            result.errors.append(IllegalOrderError(
                f"{action.who} already has an action this part (line {seen[action.who]}): one "
                "action per character per part", line=line.number, text=line.text))
            continue
        seen[action.who] = line.number
        kept.append((line, action))
        if isinstance(action, A.Order):
            limit = word_limit(reader.levels.get(action.unit), action.both, rules)
            if action.words > limit:
                result.errors.append(WordLimitError(
                    f"{action.words} words is over the word limit of {action.unit} ({limit}): "
                    "the unit will become confused and fortify", line=line.number,
                    text=line.text))
    result.orders = kept
    result.errors.sort(key=lambda e: e.line or 0)
    return result


def demanded(state: State, actions: list[A.Action]) -> list[A.Action]:
    """Morning actions posted for a slave by his owner's house (the owner's demands)."""
    houses = dict(state["characters"].select("name", "house").iter_rows())
    return [a for a in actions if a.slot == 1 and houses.get(a.who) != a.by]


def order_errors(result: ParseResult[A.Action]) -> list[OrderError]:
    """The errors of a parse that drop a line (word-limit warnings excluded)."""
    return [e for e in result.errors if not isinstance(e, WordLimitError)]

