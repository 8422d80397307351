"""Aeternus's actions as players post them (in #game-actions, #proposals, #trades), read into
typed orders, one per line, with an error naming each line that is none.

Forms accepted (case does not matter; a hex is a coordinate ``(1, 0, 2)`` or directions from the
player's hex ``North`` / ``2 North, Mouth``; items by name or unambiguous prefix)::

    Scout North and Ashe          Scout (0,0,2); (1,0,1)        Traverse North   Move to (0,1,0)
    Fish                          Fish North with Advanced Rod  Forage
    Construct Flag                Build Boardwalk on North      Craft Binoculars
    Use Explosives                Burn Flag on Mouth (a torch)  Stag to (4,0,0)
    Trade with Bob: give 2 Wood, 1 Thread; get 1 Steel
    Name quality 8 Diamond        Declare Bob reputable
    Join                          Leave                         Leave faction
    Propose: <text>               Propose urgent: <text>   (a line "set RULE = VALUE" in the text)
    Vote for 3    Vote against 3    Vote 👍 3    Vote both 3 (unclear: against)
    Request merge with Bob as The Stags          Vote for merge 1
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gmkit.core.boards.hexgrid import Hex
from gmkit.core.envelope import Orders
from gmkit.core.orders import (IllegalOrderError, OrderSyntaxError, ParseResult, PostLine,
                               parse_post)
from gmkit.core.names import NameIndex
from gmkit.core.parts import Context
from gmkit.core.ruleset import Problems
from gmkit.core.tables import State
from gmkit.core.words import OrderWords
from gmkit.rulesets.aeternus.clock import parse_time, time_text
from gmkit.rulesets.aeternus.coords import (DIRECTION_NAMES, CoordError, UnknownDirectionError,
                                           from_cube, parse_direction, to_cube)
from gmkit.rulesets.aeternus.judge import (
    CallConfidence,
    JudgeOrder,
    JudgeVote,
    Overturn,
    RemoveJudge,
    RequestJustice,
    Resign,
    Ruling,
    Stand,
)
from gmkit.rulesets.aeternus.rules import CONSTRUCTIBLE, ITEMS, RECIPES, RODS


@dataclass(frozen=True)
class Place:
    """A hex as written: an absolute coordinate, or a step from the player's hex."""

    hex: Hex
    relative: bool
    text: str = ""

    def resolve(self, here: tuple[int, int]) -> tuple[int, int]:
        """The axial hex meant, from the player's hex ``here``."""
        if self.relative:
            return (here[0] + self.hex.q, here[1] + self.hex.r)
        return (self.hex.q, self.hex.r)

    def __str__(self) -> str:
        if self.relative:
            return self.text or f"+{from_cube(self.hex)}"
        return str(from_cube(self.hex))


@dataclass(frozen=True)
class Scout:
    """6.1: look at up to two hexes next to one's own (within two with binoculars)."""

    targets: tuple[Place, ...]


@dataclass(frozen=True)
class Traverse:
    """6.2: move into an adjacent hex."""

    target: Place


@dataclass(frozen=True)
class Fish:
    """6.3: fish into a lake on or next to one's hex, with a rod or none."""

    target: Place | None = None
    rod: str | None = None


@dataclass(frozen=True)
class Forage:
    """6.4: forage one's Barren, featureless hex."""


@dataclass(frozen=True)
class Construct:
    """5.3.4: build a feature on or next to one's hex."""

    feature: str
    target: Place | None = None


@dataclass(frozen=True)
class Craft:
    """7.4: craft an item from its recipe."""

    item: str


@dataclass(frozen=True)
class Use:
    """7.1.2: use an item (Explosives)."""

    item: str


@dataclass(frozen=True)
class Burn:
    """7.4.4: a torch destroys a Flag or Boardwalk on or next to one's hex."""

    feature: str
    target: Place | None = None


@dataclass(frozen=True)
class Stag:
    """5.3.3.4: travel the stagways to another Stag Station."""

    target: Place


@dataclass(frozen=True)
class Trade:
    """7.1.1: consent to a trade with another player."""

    partner: str
    gives: tuple[tuple[int, str], ...]
    gets: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class NameQuality:
    """7.3.2.1: name an unnamed medallion quality."""

    quality: int
    name: str


@dataclass(frozen=True)
class Declare:
    """2: declare an unreputable player reputable."""

    player: str


@dataclass(frozen=True)
class Join:
    """2: become a player."""


@dataclass(frozen=True)
class Leave:
    """2: cease being a player."""


@dataclass(frozen=True)
class LeaveFaction:
    """2.1.2: leave one's faction for a new one of one's own name."""


@dataclass(frozen=True)
class Propose:
    """3.1: a proposal, urgent or standard; ``rules`` are the rule values it sets."""

    text: str
    urgent: bool = False
    rules: tuple[tuple[str, str], ...] = ()
    #: The Discord message it was posted in, when read from an export.
    message: str = ""


@dataclass(frozen=True)
class Vote:
    """3.1: a reaction on a proposal (for, against, or unclear) or on a merge request."""

    target: int
    vote: str
    merge: bool = False
    #: The proposal's Discord message, when the vote is a reaction read from an export.
    message: str = ""


@dataclass(frozen=True)
class Edited:
    """3.1: the message of one's proposal was edited or deleted (seen in a Discord export)."""

    message: str


@dataclass(frozen=True)
class RequestMerge:
    """2.1.1: ask to merge one's faction with another under a new name."""

    faction: str
    name: str


@dataclass(frozen=True)
class Timed:
    """An action with the time it was posted, as a line pasted from Discord carries it:
    ``[2026-01-05 10:00] Traverse North`` (UTC unless the time names a zone)."""

    order: Action
    at: str


Action = (Scout | Traverse | Fish | Forage | Construct | Craft | Use | Burn | Stag | Trade
         | NameQuality | Declare | Join | Leave | LeaveFaction | Propose | Vote | RequestMerge
         | Edited | JudgeOrder)
Order = Action | Timed

#: AP-spending actions (6), the rest cost nothing.
AP_ACTIONS = (Scout, Traverse, Fish, Forage)

_ITEM_INDEX = NameIndex(ITEMS, kind="item")
_FEATURE_INDEX = NameIndex(list(CONSTRUCTIBLE), kind="feature")
_TRIPLE = re.compile(r"[\(\[]\s*-?\d+\s*[,;\s]\s*-?\d+\s*[,;\s]\s*-?\d+\s*[\)\]]")
_WHERE = r"(?:\s+(?:on|at|in|into|to|towards?)\s+(?P<where>.+?))?"
_FORMS: list[tuple[str, re.Pattern[str]]] = [
    ("scout", re.compile(r"^scout\s+(?P<where>.+?)$", re.I)),
    ("traverse", re.compile(r"^(?:traverse|move|go|walk)(?:\s+(?:to|into|towards?))?\s+"
                            r"(?P<where>.+?)$", re.I)),
    ("fish", re.compile(r"^fish(?:ing)?(?:\s+(?:in|into|at)\b)?(?P<where>.*?)"
                        r"(?:\bwith\s+(?:an?\s+|my\s+|the\s+)?(?P<rod>.+?))?$", re.I)),
    ("forage", re.compile(r"^forage(?:\s+here)?$", re.I)),
    ("construct", re.compile(r"^(?:construct|build)\s+(?:an?\s+)?(?P<what>.+?)" + _WHERE + "$",
                             re.I)),
    ("craft", re.compile(r"^craft\s+(?:an?\s+|some\s+)?(?P<what>.+?)$", re.I)),
    ("use", re.compile(r"^use\s+(?:an?\s+|my\s+|the\s+)?(?P<what>.+?)$", re.I)),
    ("burn", re.compile(r"^(?:burn|torch|destroy)\s+(?:the\s+|a\s+)?(?P<what>flag|boardwalk)"
                        + _WHERE + r"(?:\s+with\s+(?:a\s+|my\s+)?torch)?$", re.I)),
    ("stag", re.compile(r"^(?:stag|travel\s+(?:the\s+)?stagways?|take\s+the\s+stagways?)"
                        r"(?:\s+to)?\s+(?P<where>.+?)$", re.I)),
    ("trade", re.compile(r"^trade\s+(?:with\s+)?(?P<who>[^:]+?)\s*:\s*(?:give\s+)?(?P<gives>.*?)"
                         r"\s*;\s*(?:get|receive|for)\s+(?P<gets>.*)$", re.I)),
    ("name", re.compile(r"^name\s+quality\s+(?P<n>\d+)\s*(?:as|:)?\s+(?P<name>.+)$", re.I)),
    ("declare", re.compile(r"^declare\s+(?P<who>.+?)\s+reputable$", re.I)),
    ("leave_faction", re.compile(r"^leave\s+(?:my\s+|the\s+)?faction$", re.I)),
    ("join", re.compile(r"^join(?:\s+the\s+game)?$", re.I)),
    ("leave", re.compile(r"^leave(?:\s+the\s+game)?$", re.I)),
    ("propose", re.compile(r"^propos(?:e|al)(?P<urgent>\s+urgent(?:ly)?|\s*\(urgent\))?"
                           r"(?:\s*\(message\s+(?P<msg>\d+)\))?\s*:\s*(?P<text>.+)$", re.I)),
    ("vote_message", re.compile(r"^vote\s+(?P<how>for|against|yes|no|both|unclear|👍|👎)\s+"
                                r"(?:on\s+)?message\s+(?P<msg>\d+)$", re.I)),
    ("justice", re.compile(r"^request(?:\s+for\s+justice)?\s*:\s*(?P<text>.+)$", re.I)),
    ("ruling", re.compile(r"^(?:ruling|rule)\s+on\s+(?:request\s+)?#?(?P<n>\d+)\s*:\s*"
                          r"(?P<text>.+)$", re.I)),
    ("overturn", re.compile(r"^overturn\s+ruling\s+#?(?P<n>\d+)$", re.I)),
    ("confidence", re.compile(r"^call\s+(?:a\s+)?(?:vote\s+of\s+)?confidence(?:\s+vote)?\s+on"
                              r"\s+ruling\s+#?(?P<n>\d+)$", re.I)),
    ("judge_vote", re.compile(r"^vote\s+(?P<how>affirm|overturn|for|against|both|unclear|👍|👎)"
                              r"\s+(?:on\s+)?(?P<kind>confidence|candidacy)\s+#?(?P<n>\d+)$",
                              re.I)),
    ("remove_judge", re.compile(r"^remove\s+the\s+judge$", re.I)),
    ("resign", re.compile(r"^(?:resign|step\s+down)(?:\s+as\s+(?:the\s+)?judge)?$", re.I)),
    ("stand", re.compile(r"^(?:stand\s+for|run\s+for|candidacy\s+for)\s+(?:the\s+)?judge"
                         r"(?:\s*\(message\s+(?P<msg>\d+)\))?$", re.I)),
    ("edited", re.compile(r"^(?:edited|deleted)\s+message\s+(?P<msg>\d+)$", re.I)),
    ("vote", re.compile(r"^vote\s+(?P<how>for|against|yes|no|both|unclear|👍|👎)\s+"
                        r"(?:on\s+)?(?P<merge>merge\s+)?(?:proposal\s+)?#?(?P<n>\d+)$", re.I)),
    ("merge", re.compile(r"^(?:request\s+(?:a\s+)?)?merge\s+with\s+(?P<who>.+?)\s+as\s+"
                         r"(?P<name>.+)$", re.I)),
]
SET_RULE = re.compile(r"\bset\s+(?P<rule>[a-z_][a-z0-9_]*)\s*=\s*(?P<value>[^;,]+)", re.I)
_AMOUNT = re.compile(r"^(?:(?P<n>\d+)\s*x?\s+)?(?P<item>.+)$")
_VOTES = {"for": "for", "yes": "for", "👍": "for", "against": "against", "no": "against",
          "👎": "against", "both": "unclear", "unclear": "unclear"}


def parse_place(text: str) -> Place:
    """A hex written as a coordinate or directions from the player's hex."""
    t = text.strip().rstrip(".")
    m = re.fullmatch(r"[\(\[]?\s*(-?\d+)\s*[,;\s]\s*(-?\d+)\s*[,;\s]\s*(-?\d+)\s*[\)\]]?", t)
    if m:
        x, y, z = (int(g) for g in m.groups())
        return Place(to_cube(x, y, z), False)
    if t.lower() in ("here", "my hex"):
        return Place(Hex(0, 0), True, "here")
    try:
        return Place(parse_direction(t), True, t)
    except CoordError as e:
        hint = f"; {e.hint}" if isinstance(e, UnknownDirectionError) and e.hint else ""
        raise OrderSyntaxError(f"{text!r} is neither a coordinate like (1, 0, 2) nor directions "
                               f"like 'North' or '2 North, Mouth' (5.2){hint}") from None


def _places(text: str) -> tuple[Place, ...]:
    """One or two hexes: coordinates, or direction walks separated by 'and' or ';'."""
    triples = _TRIPLE.findall(text)
    if triples:
        rest = _TRIPLE.sub(" ", text)
        if rest.strip(" ,;andAND"):
            raise OrderSyntaxError(f"cannot read the hexes in {text!r}")
        return tuple(parse_place(t) for t in triples)
    parts = [p for p in re.split(r"\s*(?:;|\band\b|&)\s*", text, flags=re.I) if p.strip()]
    if len(parts) == 1 and "," in parts[0] and not re.search(r"\d", parts[0]):
        parts = [p for p in parts[0].split(",") if p.strip()]
    return tuple(parse_place(p) for p in parts)


def _amounts(text: str) -> tuple[tuple[int, str], ...]:
    out: list[tuple[int, str]] = []
    for part in re.split(r"\s*(?:,|\band\b)\s*", text.strip()):
        if not part or part.lower() in ("nothing", "none"):
            continue
        m = _AMOUNT.match(part.strip())
        assert m is not None
        out.append((int(m["n"] or 1), _ITEM_INDEX.resolve(m["item"])))
    return tuple(out)


_STAMP = re.compile(r"^\[\s*(?P<at>\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d)?"
                    r"(?:Z|[+-]\d\d:?\d\d)?)\s*\]\s*(?P<rest>.+)$")


def parse_line(line: PostLine) -> Order | None:
    """One line into an order; raises :class:`OrderError` saying why it is none. A line may
    start with the time it was posted in brackets (:class:`Timed`)."""
    m = _STAMP.match(line.text.strip())
    if m:
        try:
            at = parse_time(m["at"].replace(" ", "T").replace("Z", "+00:00"))
        except ValueError:
            raise OrderSyntaxError(f"{m['at']!r} is not a time") from None
        inner = parse_line(PostLine(line.number, m["rest"], line.bold))
        return None if inner is None else Timed(_untimed(inner), time_text(at))
    return _action(line)


def _untimed(order: Order) -> Action:
    return order.order if isinstance(order, Timed) else order


def _action(line: PostLine) -> Action:
    text = line.text.strip().rstrip(".")
    for kind, form in _FORMS:
        m = form.match(text)
        if not m:
            continue
        g = m.groupdict()
        if kind == "scout":
            targets = _places(g["where"])
            if not 1 <= len(targets) <= 2:
                raise IllegalOrderError("6.1: a scout selects two hexes")
            return Scout(targets)
        if kind == "traverse":
            return Traverse(parse_place(g["where"]))
        if kind == "fish":
            rod = _ITEM_INDEX.resolve(g["rod"]) if g.get("rod") else None
            if rod is not None and rod not in RODS:
                raise IllegalOrderError(f"{rod} is no fishing rod ({', '.join(RODS)})")
            where = (g.get("where") or "").strip()
            return Fish(parse_place(where) if where else None, rod)
        if kind == "forage":
            return Forage()
        if kind == "construct":
            where = parse_place(g["where"]) if g.get("where") else None
            return Construct(_FEATURE_INDEX.resolve(g["what"]), where)
        if kind == "craft":
            item = _ITEM_INDEX.resolve(g["what"])
            if item not in RECIPES:
                raise IllegalOrderError(f"{item} cannot be crafted (7.4: "
                                        f"{', '.join(RECIPES)})")
            return Craft(item)
        if kind == "use":
            return Use(_ITEM_INDEX.resolve(g["what"]))
        if kind == "burn":
            where = parse_place(g["where"]) if g.get("where") else None
            return Burn(g["what"].capitalize(), where)
        if kind == "stag":
            return Stag(parse_place(g["where"]))
        if kind == "trade":
            return Trade(g["who"].strip(), _amounts(g["gives"]), _amounts(g["gets"]))
        if kind == "name":
            return NameQuality(int(g["n"]), g["name"].strip())
        if kind == "declare":
            return Declare(g["who"].strip())
        if kind == "leave_faction":
            return LeaveFaction()
        if kind == "join":
            return Join()
        if kind == "leave":
            return Leave()
        if kind == "propose":
            body = g["text"].strip()
            rules = tuple((r["rule"], r["value"].strip()) for r in SET_RULE.finditer(body))
            return Propose(body, bool(g.get("urgent")), rules, g.get("msg") or "")
        if kind == "vote_message":
            return Vote(0, _VOTES[g["how"].lower()], False, g["msg"])
        if kind == "edited":
            return Edited(g["msg"])
        if kind == "justice":
            return RequestJustice(g["text"].strip())
        if kind == "ruling":
            return Ruling(int(g["n"]), g["text"].strip())
        if kind == "overturn":
            return Overturn(int(g["n"]))
        if kind == "confidence":
            return CallConfidence(int(g["n"]))
        if kind == "judge_vote":
            how = g["how"].lower()
            if g["kind"].lower() == "confidence":
                vote = {"affirm": "affirm", "for": "affirm", "👍": "affirm", "overturn":
                        "overturn", "against": "overturn", "👎": "overturn"}.get(how, "unclear")
            else:
                vote = _VOTES.get(how, "unclear")
                vote = "unclear" if vote not in ("for", "against") else vote
            return JudgeVote(g["kind"].lower(), int(g["n"]), vote)
        if kind == "remove_judge":
            return RemoveJudge()
        if kind == "resign":
            return Resign()
        if kind == "stand":
            return Stand(g["msg"] or "")
        if kind == "vote":
            return Vote(int(g["n"]), _VOTES[g["how"].lower()], bool(g.get("merge")))
        if kind == "merge":
            return RequestMerge(g["who"].strip(), g["name"].strip())
    raise WORDS.rejected(text, f"not an action: '{line.text}'", [_ITEM_INDEX, _FEATURE_INDEX],
                         "'Traverse North', 'Scout North and Ashe', 'Fish', 'Forage', "
                         "'Craft Binoculars', 'Construct Flag', 'Vote for 3'")


#: The words of Aeternus's actions: those an action starts with, so that a plain line starting
#: with none of them is not read as one; and every other word of their forms (the directions
#: among them), each misspelt one told what it may be.
WORDS = OrderWords(
    starts=("scout", "traverse", "move", "go", "walk", "fish", "fishing", "forage", "construct",
            "build", "craft", "use", "burn", "torch", "destroy", "stag", "travel", "take",
            "trade", "name", "declare", "leave", "join", "propose", "proposal", "vote",
            "request", "ruling", "rule", "overturn", "call", "remove", "resign", "step",
            "stand", "run", "candidacy", "edited", "deleted", "merge"),
    others=(*DIRECTION_NAMES, "to", "into", "towards", "toward", "in", "at", "on", "with",
            "an", "a", "my", "the", "some", "here", "flag", "boardwalk", "stagways",
            "stagway", "give", "get", "receive", "for", "quality", "as", "reputable",
            "faction", "game", "urgent", "urgently", "message", "against", "yes", "no", "both",
            "unclear", "affirm", "justice", "of", "confidence", "judge", "down", "nothing",
            "none"))


def parse(post: str) -> ParseResult[Order]:
    """A whole post into orders and per-line errors."""
    return parse_post(post, WORDS.reading(parse_line, [_ITEM_INDEX, _FEATURE_INDEX]))


def describe(order: Order) -> str:
    """An order in words, to read back to the player."""
    if isinstance(order, Timed):
        return f"[{order.at}] {describe(order.order)}"
    if isinstance(order, Scout):
        return "scout " + " and ".join(map(str, order.targets))
    if isinstance(order, Traverse):
        return f"traverse to {order.target}"
    if isinstance(order, Fish):
        where = f" into {order.target}" if order.target else ""
        return f"fish{where}" + (f" with {order.rod}" if order.rod else "")
    if isinstance(order, Construct):
        return f"construct {order.feature}" + (f" on {order.target}" if order.target else "")
    if isinstance(order, (Craft, Use)):
        return f"{type(order).__name__.lower()} {order.item}"
    if isinstance(order, Burn):
        return f"burn the {order.feature}" + (f" on {order.target}" if order.target else "")
    if isinstance(order, Stag):
        return f"travel the stagways to {order.target}"
    if isinstance(order, Trade):
        def items(xs: tuple[tuple[int, str], ...]) -> str:
            return ", ".join(f"{n} {i}" for n, i in xs) or "nothing"
        return f"trade with {order.partner}: give {items(order.gives)}; get {items(order.gets)}"
    if isinstance(order, Propose):
        return ("urgent " if order.urgent else "") + f"proposal: {order.text}"
    if isinstance(order, Vote):
        if order.message:
            return f"vote {order.vote} message {order.message}"
        return f"vote {order.vote} {'merge' if order.merge else 'proposal'} {order.target}"
    if isinstance(order, Edited):
        return f"edited message {order.message}"
    if isinstance(order, RequestMerge):
        return f"request a merge with {order.faction} as {order.name}"
    if isinstance(order, RequestJustice):
        return f"request justice: {order.text}"
    if isinstance(order, Ruling):
        return f"rule on request {order.request}"
    if isinstance(order, Overturn):
        return f"overturn ruling {order.ruling}"
    if isinstance(order, CallConfidence):
        return f"call a vote of confidence on ruling {order.ruling}"
    if isinstance(order, JudgeVote):
        return f"vote {order.vote} on {order.kind} {order.target}"
    if isinstance(order, (RemoveJudge, Resign, Stand)):
        return {RemoveJudge: "remove the Judge", Resign: "resign as Judge",
                Stand: "stand for Judge"}[type(order)]
    if isinstance(order, NameQuality):
        return f"name quality {order.quality} {order.name}"
    if isinstance(order, Declare):
        return f"declare {order.player} reputable"
    return type(order).__name__.lower().replace("faction", " faction")


def joins(result: ParseResult[Order]) -> bool:
    """2: whether a post sets forth its author's intent to become a player (a ``Join``)."""
    return any(isinstance(o.order if isinstance(o, Timed) else o, Join)
               for _, o in result.orders)


def validate(state: State, orders: Orders[Order], ctx: Context) -> Problems:
    """What can be known before resolution: the poster is a player, or joins (2: a join
    message makes its author a player from that moment, so their later actions of the batch
    stand). Everything that depends on the state left by earlier actions (AP, position, items,
    the seven days since leaving) is checked as each action resolves, in the order posted, and
    a failed action is an event naming its line."""
    known = set(state["players"]["id"].to_list())
    problems: Problems = {}
    for pid in orders:
        sent = orders.of(pid)
        if pid in known or any(isinstance(_untimed(e.order), Join) for e in sent):
            continue
        errs = [e.reject(f"{pid} is not a player: post 'Join' first (2)")
                for e in sent if not isinstance(e.order, Join)]
        if errs:
            problems[pid] = errs
    return problems
