"""AZTLAN's orders: the lines players post, read into typed orders, and checked.

Names are written as the rules write them (2.6): a city by its three-letter
designation (``Ten``, ``Tto``...), its full name (case and accents do not
matter) or an unambiguous prefix; a numbered sector by its number; the desert
as ``Chi`` or ``desert``.  A force is one, two or three of the player's armies
in one sector (5.9): a single army unless ``2A``/``3A``, ``double``/``triple``
or ``2 armies`` is written.  Forms accepted::

    A Ten A Tla                    Ten attacks Tlaxcala       2A Ten A Cho
    double army Ten attacks Cho    triple army in Ten does attack Tla
    A Tex CS Cho                   Tex cut support Cho
    A Tex S Ten A Cho, Ten H, Cha S        (contingencies in order of priority,
                                            split by commas, ';' or 'then')
    Tex supports Ten attacking Cho then Ten holding
    A Ten H                        Ten holds
    A Ten Stand (retreat 7, Tex)   (retreats, in order of preference, 5.7.2;
                                    also after an attack, cut support, support or move)
    A Ten M Tex, Zem, 7            Ten M Tex Zem 7            Ten moves to Tex
    Tit sac 1                      Ten sacrifices 2           sacrifice 2 captives in Ten
    A Ten given to Tlaxcalans      give 2A Ten to Tlaxcalans
    permit Tlaxcalans through 7, 8         Tlaxcalans may pass

In a contingency of a support, the supported force's action is ``A``
(attack, with its target), ``M`` (move, with the one sector the support is
for), ``H`` (hold), ``S``/``St`` (stand) or nothing (whatever it does).  ``S``
means *stand* there because an army that supports cannot be supported (5.5).

Splitting a stack (5.9) is several lines from one sector, each with its count.

:func:`parse` reads a post (syntax and names only); :func:`validate` judges
every player's orders against a :class:`Position` and the board and returns
every problem, each tied to its line.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Union, cast

from gmkit.core.maps import GameMap
from gmkit.core.orders import (
    IllegalOrderError,
    NameIndex,
    OrderError,
    OrderSyntaxError,
    ParseResult,
    PostLine,
    join_alternatives,
    parse_post,
)
from gmkit.rulesets.aztlan.board.geography import DESERT, DESERT_ABBR, EMPIRES, home_centres

__all__ = [
    "NEUTRAL",
    "Action",
    "Attack",
    "Contingency",
    "CutSupport",
    "DivineSupport",
    "Give",
    "Hold",
    "Move",
    "Order",
    "Permit",
    "Position",
    "Sacrifice",
    "Stand",
    "Support",
    "armies_phrase",
    "describe",
    "homeless",
    "parse",
    "parse_line",
    "player_index",
    "possessive",
    "sector_index",
    "validate",
]

#: The owner of the armies of independent cities (2.2, 3.4) in :attr:`Position.armies`.
NEUTRAL = "neutral"

#: The most armies in one force and in one sector (4.1, 5.9).
MAX_FORCE = 3
#: The most sectors a Move passes (5.8).
MAX_MOVE = 3

Action = Literal["attack", "hold", "stand", "move", "any"]


# ---------------------------------------------------------------------------
# Orders
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Contingency:
    """One case of a Support (5.5): the force in ``supported`` doing ``action``.

    ``target`` is the sector attacked or moved into (``attack``/``move``),
    ``None`` for ``hold``, ``stand`` and ``any`` (whatever it does).
    """

    supported: str
    action: Action
    target: str | None = None


@dataclass(frozen=True)
class Attack:
    """``count`` armies in ``origin`` attack the adjacent ``target`` (5.3)."""

    origin: str
    count: int
    target: str
    retreat: tuple[str, ...] = ()
    line: int = 0
    secret: bool = False
    #: Retreats into an ally's sector by giving him the army: (sector, ally) (5.7.1).
    retreat_gifts: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class CutSupport:
    """``count`` armies in ``origin`` cut the support of the army in ``target`` (5.4)."""

    origin: str
    count: int
    target: str
    retreat: tuple[str, ...] = ()
    line: int = 0
    secret: bool = False
    #: Retreats into an ally's sector by giving him the army: (sector, ally) (5.7.1).
    retreat_gifts: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Support:
    """``count`` armies in ``origin`` support the first contingency that happens (5.5)."""

    origin: str
    count: int
    contingencies: tuple[Contingency, ...]
    retreat: tuple[str, ...] = ()
    line: int = 0
    secret: bool = False
    #: Retreats into an ally's sector by giving him the army: (sector, ally) (5.7.1).
    retreat_gifts: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class DivineSupport:
    """``count`` of the player's magical supports (3.5.3) given to the first contingency that
    happens; the gods need no sector and cannot be cut."""

    count: int
    contingencies: tuple[Contingency, ...]
    line: int = 0
    secret: bool = False


@dataclass(frozen=True)
class Hold:
    """``count`` armies in ``origin`` hold to the death, never retreating (5.6)."""

    origin: str
    count: int
    line: int = 0
    secret: bool = False


@dataclass(frozen=True)
class Stand:
    """``count`` armies in ``origin`` stand; ``retreat`` in order of preference (5.7)."""

    origin: str
    count: int
    retreat: tuple[str, ...] = ()
    line: int = 0
    secret: bool = False
    #: Retreats into an ally's sector by giving him the army: (sector, ally) (5.7.1).
    retreat_gifts: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Move:
    """``count`` armies in ``origin`` move along ``path``, one to three sectors (5.8)."""

    origin: str
    count: int
    path: tuple[str, ...]
    retreat: tuple[str, ...] = ()
    line: int = 0
    secret: bool = False
    #: Retreats into an ally's sector by giving him the army: (sector, ally) (5.7.1).
    retreat_gifts: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Sacrifice:
    """``city`` sacrifices ``count`` captives (3.5.3, 3.5.4)."""

    city: str
    count: int
    line: int = 0
    secret: bool = False


@dataclass(frozen=True)
class Give:
    """``count`` armies in ``origin`` are given to ``to_player`` for good (4.1.1)."""

    origin: str
    count: int
    to_player: str
    line: int = 0
    secret: bool = False


@dataclass(frozen=True)
class Permit:
    """``to_player`` may pass through ``sectors`` of the player's (all when ``None``) (4.1)."""

    to_player: str
    sectors: tuple[str, ...] | None = None
    line: int = 0
    secret: bool = False


Order = Union[Attack, CutSupport, Support, DivineSupport, Hold, Stand, Move, Sacrifice, Give,
              Permit]
ArmyOrder = Union[Attack, CutSupport, Support, Hold, Stand, Move, Give]
_ARMY_ORDERS = (Attack, CutSupport, Support, Hold, Stand, Move, Give)


# ---------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------

_PLAYER_ALIASES = {
    "Aztec": "Aztecs", "Mexica": "Aztecs", "Tlaxcalan": "Tlaxcalans", "Chalcan": "Chalcans",
    "Tarascan": "Tarascans", "Meztitlan": "Meztitlans", "Yopi": "Yopis",
    "Totonac": "Totonacs", "Chichimec": "Chichimecs", "Soconuscan": "Soconuscans",
    "Soconusco Mayans": "Soconuscans", "Mayans": "Soconuscans", "Hot Countries": "Hot Country",
}


@functools.lru_cache(maxsize=1)
def player_index() -> NameIndex:
    """The empires' names (rule 2.1), singular forms accepted."""
    return NameIndex(EMPIRES, kind="player", aliases=_PLAYER_ALIASES)


@functools.lru_cache(maxsize=8)
def sector_index(game_map: GameMap, cities_only: bool = False) -> NameIndex:
    """Names a player may use for the board's land sectors (or only its cities).

    Full names, rule 2.6 designations (``Ten``, ``Tto``, ``7``) and, for the
    desert, ``Chi`` and ``desert``.
    """
    names = [n for n in game_map.land()
             if not cities_only or game_map.regions[n].props.get("city") is True]
    aliases: dict[str, str] = {}
    for name in names:
        abbr = game_map.regions[name].props.get("abbr")
        if isinstance(abbr, str) and abbr and abbr != name:
            aliases[abbr] = name
    if DESERT in names:
        aliases.update({DESERT_ABBR: DESERT, "desert": DESERT, "the desert": DESERT})
    return NameIndex(names, kind="city" if cities_only else "sector", aliases=aliases)


def _player(text: str) -> str:
    return player_index().resolve(re.sub(r"^\s*the\s+", "", text, flags=re.IGNORECASE))


def _names(text: str, index: NameIndex, what: str) -> tuple[str, ...]:
    """Resolve a list of names: ``Tex, Zem, 7``, ``Tex Zem 7``, ``Tex - Zem then 7``."""
    text = re.sub(r"[,;/()\[\]]|->|[-–—>]|\b(?:then|and|or|via|through|thru|to|into|finally)\b",
                  " ", text, flags=re.IGNORECASE)
    tokens = [t for t in text.split() if t.lower() != "the"]
    if not tokens:
        raise OrderSyntaxError(f"no {what} given")
    out: list[str] = []
    i = 0
    while i < len(tokens):
        for j in range(min(len(tokens), i + 3), i + 1, -1):
            joined = " ".join(tokens[i:j])
            if joined in index:
                out.append(index.resolve(joined))
                i = j
                break
        else:
            out.append(index.resolve(tokens[i]))
            i += 1
    return tuple(out)


def _one_name(text: str, index: NameIndex, what: str, example: str) -> str:
    names = _names(text, index, what)
    if len(names) != 1:
        raise OrderSyntaxError(f"name one {what}, not {len(names)} ({join_alternatives(list(names), 'and')}): "
                               f"e.g. '{example}'")
    return names[0]


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------

_NAME = r"(?:chichimec\s+desert|the\s+desert|[^\s,;:()']+)"
_COUNT = (r"(?:[1-9]\d{0,5}\s*a(?:rm(?:y|ies))?"
          r"|(?:single|double|triple|one|two|three|[1-9]\d{0,5})(?:\s+arm(?:y|ies))?)")
_FORCE = (rf"(?:the\s+)?(?:(?P<cnt>{_COUNT})\s+)?(?:(?:army|armies|a)\s+)?"
          rf"(?:(?:in|at|from|of)\s+)?(?P<origin>{_NAME})")
_VERBS = {
    "cut": r"cuts?\s+supports?(?:\s+(?:of|on|against|for))?|cutting\s+support|c/s|c\.s\.?|cs|cuts?",
    "sacrifice": r"sacrifices?|sacrificing|sacs?",
    "attack": r"attacks?|attacking|att|atk|a",
    "support": r"supports?|supporting|supp?|s",
    "hold": r"holds?|holding|h",
    "stand": r"stands?|standing|st",
    "move": r"moves?|moving|mov|mv|m",
    "give": (r"(?:is\s+|are\s+)?(?:given|gifted|goes|go|passes|handed)\s+(?:over\s+)?to"
             r"|changes?\s+(?:its\s+|their\s+)?allegiance\s+to|gives?\s+(?:itself\s+|themselves\s+)?to"),
}
_VERB = "|".join(f"(?P<v_{kind}>{rx})" for kind, rx in _VERBS.items())
_HEAD = re.compile(
    rf"^{_FORCE}\s*[:,]?\s+(?:(?:does|do|will|shall|to)\s+)?(?:{_VERB})(?=$|[\s,;:(])"
    rf"\s*[:,]?\s*(?P<rest>.*)$", re.IGNORECASE)
_LOOSE = re.compile(rf"^{_FORCE}\s*[:,]?(?:\s+(?P<word>\S+).*)?$", re.IGNORECASE)
_GIVE = re.compile(r"^(?:give|gift|hand\s+over)\s+(?P<force>.+?)\s+to\s+(?P<who>.+)$", re.IGNORECASE)
_FORCE_ONLY = re.compile(rf"^{_FORCE}$", re.IGNORECASE)
_PASS = r"(?:pass|move|go|travel|march)"
_WHERE = r"(?:\s+(?:through|thru|via|in|into|across|over)\s+(?P<where>.+))?"
_PERMITS = [
    re.compile(rf"^(?:permit|allow|let|permission\s+(?:for|to)|grant\s+(?:passage|permission)\s+to)"
               rf"\s+(?P<who>.+?)(?:\s+(?:to\s+)?{_PASS})?{_WHERE}$", re.IGNORECASE),
    re.compile(rf"^(?P<who>.+?)\s+(?:may|can|(?:is|are)\s+(?:permitted|allowed)\s+to)\s+{_PASS}"
               rf"{_WHERE}$", re.IGNORECASE),
]
_SAC_FIRST = re.compile(r"^(?:sacrifice|sac)\s+(?P<n>\S+)(?:\s+(?:captives?|prisoners?|armies|army|a))?"
                        r"\s+(?:in|at)\s+(?P<city>.+)$", re.IGNORECASE)
_DIVINE = re.compile(r"^(?:(?P<n>[1-9]\d{0,5}|one|two|three)\s*)?(?:gods?|divine|magic(?:al)?|g)"
                     r"\s*(?:s|supports?|support|sup)(?=\s)\s*(?:of\s+|for\s+|to\s+)?(?P<rest>.+)$", re.IGNORECASE)
_SAC_REST = re.compile(r"^(?P<n>\S+)(?:\s+(?:captives?|prisoners?|armies|army|a))?$", re.IGNORECASE)
_RETREAT = re.compile(r"(?:^|[\s,;(])\(?\s*(?:retreats?|retreating|ret|r)\b\.?\s*(?:(?:to|into)\b|:)?"
                      r"\s*(?P<where>[^()]*?)\s*\)?\s*$", re.IGNORECASE)
_CONTINGENCY_SPLIT = re.compile(
    r"\s*(?:[,;]|\b(?:then|else|otherwise|failing\s+that|or(?:\s+else)?|if\s+not)\b)\s*", re.IGNORECASE)
_SEGMENT = re.compile(
    rf"^(?:the\s+)?(?:(?:[1-9]a|single|double|triple)\s+)?(?:(?:army|armies|a)\s+)?(?:(?:in|at)\s+)?"
    rf"(?P<sup>{_NAME}?)(?:'s)?"
    r"(?:\s+(?P<act>[^\s,;]+)(?:\s+(?:(?:on|into|to|against|in)\s+)?(?P<tgt>.+?))?)?$", re.IGNORECASE)
_ACTIONS: dict[str, Action] = {
    **dict.fromkeys(("a", "att", "atk", "attack", "attacks", "attacking"), "attack"),
    **dict.fromkeys(("h", "hold", "holds", "holding"), "hold"),
    **dict.fromkeys(("s", "st", "stand", "stands", "standing"), "stand"),
    **dict.fromkeys(("m", "mv", "mov", "move", "moves", "moving"), "move"),
    **dict.fromkeys(("any", "anything", "whatever"), "any"),
}
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "single": 1, "double": 2, "triple": 3}

EXAMPLES = ("'A Ten A Tla', '2A Ten A Tla', 'A Tex CS Tla', 'A Tex S Ten A Tla, Ten H', "
            "'A Ten H', 'A Ten Stand (retreat Tac, Coy)', 'A Ten M Tex, Zem, 15', 'Ten sac 1', "
            "'A Ten given to Tlaxcalans', 'permit Tlaxcalans through Ten, Tex'")


def _count(text: str | None) -> int:
    """The number of armies in a designation: ``2A``, ``double army``, ``3 armies``."""
    if not text:
        return 1
    word = text.split()[0].lower()
    digits = re.match(r"\d+", word)
    if digits:
        return int(digits.group())
    return _NUMBER_WORDS[word]


def _captives(text: str) -> int:
    word = text.lower()
    if word in _NUMBER_WORDS:
        return _NUMBER_WORDS[word]
    if not re.fullmatch(r"\d{1,6}", word):
        raise OrderSyntaxError(f"'{text}' is not a number of captives: e.g. 'Ten sac 2'")
    return int(word)


_RETREAT_GIFT = re.compile(r"^(?P<sector>.+?)\s+(?:(?:as\s+a\s+)?(?:given|gift(?:ed)?)\s+to)\s+"
                           r"(?P<who>.+)$", re.IGNORECASE)


def _split_retreat(rest: str, index: NameIndex
                   ) -> tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]]:
    """Take a trailing retreat clause (``(retreat 7, Tex)``) off ``rest``; a retreat into an
    ally's sector names the gift (``(retreat 7 given to Tlaxcalans)``, 5.7.1)."""
    m = _RETREAT.search(rest)
    if not m:
        return rest, (), ()
    where = m.group("where").strip()
    head = rest[: m.start()].strip().rstrip(",;").strip()
    if not where or where.lower() in ("none", "no", "nowhere"):
        return head, (), ()
    if not re.search(r"\b(?:given|gift(?:ed)?)\s+to\b", where, re.IGNORECASE):
        return head, _names(where, index, "retreat sector"), ()
    sectors: list[str] = []
    gifts: list[tuple[str, str]] = []
    for item in re.split(r"\s*[,;]\s*", where):
        g = _RETREAT_GIFT.match(item)
        if g:
            sector = _one_name(g.group("sector"), index, "retreat sector",
                               "(retreat 7 given to Tlaxcalans)")
            gifts.append((sector, _player(g.group("who"))))
            sectors.append(sector)
        elif item:
            sectors.extend(_names(item, index, "retreat sector"))
    return head, tuple(sectors), tuple(gifts)


def _contingencies(text: str, index: NameIndex, ab: str) -> tuple[Contingency, ...]:
    out: list[Contingency] = []
    for segment in _CONTINGENCY_SPLIT.split(text):
        segment = segment.strip()
        if not segment:
            continue
        m = _SEGMENT.match(segment)
        if not m or not m.group("sup"):
            raise OrderSyntaxError(f"cannot read the support '{segment}': write the supported "
                                   f"army's sector and what it does, e.g. 'A {ab} S Ten A Tla, Ten H'")
        supported = index.resolve(m.group("sup"))
        act_word = (m.group("act") or "").lower().rstrip(".")
        target_text = m.group("tgt")
        if not act_word:
            out.append(Contingency(supported, "any"))
            continue
        if act_word in ("support", "supports", "supporting", "sup", "supp", "cs"):
            raise IllegalOrderError(f"'{segment}': an army that supports or cuts support cannot "
                                    "be supported (5.5); support its attack, hold, stand or move")
        action = _ACTIONS.get(act_word)
        if action is None:
            raise OrderSyntaxError(f"unknown action '{m.group('act')}' in the support '{segment}': "
                                   "use A (attack), M (move), H (hold), S/St (stand) or nothing")
        if action in ("attack", "move"):
            if not target_text:
                raise OrderSyntaxError(f"'{segment}': say which sector the supported army "
                                       f"{'attacks' if action == 'attack' else 'moves into'}")
            target = _one_name(target_text, index, "sector",
                               f"{segment.split()[0]} {act_word.upper()} Tla")
            out.append(Contingency(supported, action, target))
        else:
            if target_text:
                raise OrderSyntaxError(f"'{segment}': a supported {action} has no target")
            out.append(Contingency(supported, action))
    if not out:
        raise OrderSyntaxError(f"say which army {ab} supports, e.g. 'A {ab} S Ten A Tla, Ten H'")
    return tuple(out)


def _abbr(game_map: GameMap, name: str) -> str:
    abbr = game_map.regions[name].props.get("abbr")
    return abbr if isinstance(abbr, str) and abbr else name


def parse_line(line: PostLine, game_map: GameMap, player: str,
               secret: bool = False) -> Order | None:
    """One line into an order; raises :class:`OrderError` with the reason.

    Reads syntax and names only: whether the order is legal is
    :func:`validate`'s business, except a gift or permission to oneself.
    """
    text = " ".join(line.text.split()).replace("’", "'").strip().rstrip(".!").strip()
    if not text or text.endswith(":"):
        return None  # a heading such as "Aztec orders, Winter 1450:"
    sectors = sector_index(game_map)
    common: dict[str, Any] = {"line": line.number, "secret": secret}

    for number, rx in enumerate(_PERMITS):
        m = rx.match(text)
        if m:
            try:
                who = _player(m.group("who"))
            except OrderError:
                if number:  # "X may pass" where X is no player: not a permission
                    continue
                raise
            if who == player:
                raise IllegalOrderError(f"the {player} need no permission to pass their own sectors")
            where = m.group("where")
            if where is None or re.fullmatch(r"(?:all|any|every)\w*(?:\s+(?:my|our|of\s+my|of\s+our)"
                                             r")?(?:\s+\w+)?", where.strip(), re.IGNORECASE):
                return Permit(who, None, **common)
            return Permit(who, _names(where, sectors, "sector"), **common)

    m = _SAC_FIRST.match(text)
    if m:
        city = sector_index(game_map, cities_only=True).resolve(m.group("city"))
        return Sacrifice(city, _captives(m.group("n")), **common)

    m = _DIVINE.match(text)
    if m:
        n = _captives(m.group("n")) if m.group("n") else 1
        return DivineSupport(n, _contingencies(m.group("rest"), sectors, "GS"), **common)

    m = _GIVE.match(text)
    if m:
        force = _FORCE_ONLY.match(m.group("force"))
        if not force:
            raise OrderSyntaxError(f"cannot read the army given in '{text}': e.g. "
                                   "'give 2A Ten to Tlaxcalans'")
        origin = sectors.resolve(force.group("origin"))
        return _give(origin, _count(force.group("cnt")), m.group("who"), player, common)

    m = _HEAD.match(text)
    if m is None:
        loose = _LOOSE.match(text)
        if loose:
            try:
                origin = sectors.resolve(loose.group("origin"))
            except OrderError:
                origin = ""
            if origin:
                word = loose.group("word")
                if word is None:
                    raise OrderSyntaxError(f"'{text}' is not an order: say what the army in "
                                           f"{origin} does, e.g. {EXAMPLES}")
                raise OrderSyntaxError(
                    f"unknown order '{word}' for {origin}: use A (attack), CS (cut support), "
                    "S (support), H (hold), St (stand), M (move), sac (sacrifice) or 'given to'")
        raise OrderSyntaxError(f"not an order: '{text}' (try {EXAMPLES})")

    kind = next(k for k in _VERBS if m.group(f"v_{k}"))
    rest = m.group("rest").strip()
    cnt = m.group("cnt")
    if kind == "sacrifice":
        city = sector_index(game_map, cities_only=True).resolve(m.group("origin"))
        if cnt:
            raise OrderSyntaxError("a sacrifice counts captives, not armies: e.g. "
                                   f"'{_abbr(game_map, city)} sac 2'")
        rm = _SAC_REST.match(rest)
        if not rm:
            raise OrderSyntaxError(f"say how many captives {city} sacrifices: e.g. "
                                   f"'{_abbr(game_map, city)} sac 2' (3.5.4)")
        return Sacrifice(city, _captives(rm.group("n")), **common)

    origin = sectors.resolve(m.group("origin"))
    count = _count(cnt)
    ab = _abbr(game_map, origin)
    if kind == "give":
        return _give(origin, count, rest, player, common)
    body, retreat, gifts = _split_retreat(rest, sectors)
    if gifts:
        common["retreat_gifts"] = gifts
    if kind == "hold":
        if retreat:
            raise IllegalOrderError("a Holding army never retreats (5.6): use Stand to retreat, "
                                    f"e.g. 'A {ab} Stand (retreat …)'")
        if body and not re.fullmatch(r"(?:fast|firm|to\s+the\s+death|in\s+place)", body, re.IGNORECASE):
            raise OrderSyntaxError(f"nothing follows a Hold: '{body}'")
        return Hold(origin, count, line=line.number, secret=secret)
    if kind == "stand":
        if body:
            raise OrderSyntaxError(f"only a retreat follows a Stand, not '{body}': e.g. "
                                   f"'A {ab} Stand (retreat 7, Tex)'")
        return Stand(origin, count, retreat, **common)
    if not body:
        verb = {"attack": "attacks", "cut": "cuts the support of", "support": "supports",
                "move": "moves to"}[kind]
        example = {"attack": f"A {ab} A Tla", "cut": f"A {ab} CS Tla",
                   "support": f"A {ab} S Ten A Tla, Ten H", "move": f"A {ab} M Tex, Zem, 15"}[kind]
        raise OrderSyntaxError(f"say what {origin} {verb}: e.g. '{example}'")
    if kind == "attack":
        body = re.sub(r"^(?:on|against|into|to)\s+", "", body, flags=re.IGNORECASE)
        return Attack(origin, count, _one_name(body, sectors, "sector", f"A {ab} A Tla"),
                      retreat, **common)
    if kind == "cut":
        body = re.sub(r"^(?:of|on|against|for|at)\s+", "", body, flags=re.IGNORECASE)
        return CutSupport(origin, count, _one_name(body, sectors, "sector", f"A {ab} CS Tla"),
                          retreat, **common)
    if kind == "move":
        return Move(origin, count, _names(body, sectors, "sector to move to"), retreat, **common)
    return Support(origin, count, _contingencies(body, sectors, ab), retreat, **common)


def _give(origin: str, count: int, who: str, player: str, common: dict[str, Any]) -> Give:
    to = _player(who)
    if to == player:
        raise IllegalOrderError(f"the armies in {origin} are the {possessive(player)} already")
    return Give(origin, count, to, **common)


def parse(post: str, game_map: GameMap, player: str, *,
          secret: bool = False) -> ParseResult[Order]:
    """A whole post of ``player``'s into orders and per-line errors.

    ``player`` is an empire's name (rule 2.1; singular forms accepted).
    Raises :class:`~gmkit.core.orders.UnknownNameError` (a ``ValueError``)
    for an unknown player.
    """
    who = _player(player)
    sector_index(game_map)  # build the index once, before the lines
    return parse_post(post, lambda line: parse_line(line, game_map, who, secret))


# ---------------------------------------------------------------------------
# Describing
# ---------------------------------------------------------------------------


def _force(count: int, origin: str) -> str:
    word = {1: "army", 2: "double army", 3: "triple army"}.get(count, f"{count} armies")
    return f"{word} in {origin}"


def _contingency(c: Contingency) -> str:
    if c.action == "attack":
        return f"{c.supported} attacking {c.target}"
    if c.action == "move":
        return f"{c.supported} moving into {c.target}"
    if c.action == "any":
        return f"{c.supported} (whatever it does)"
    return f"{c.supported} {c.action}ing"


def describe(order: Order) -> str:
    """An order in words, as the GM reads it back to the player."""
    tag = " (secret)" if order.secret else ""
    retreat = getattr(order, "retreat", ())
    gifts = dict(getattr(order, "retreat_gifts", ()))
    then = (", retreating to " + join_alternatives(
        [f"{r} (given to the {gifts[r]})" if r in gifts else r for r in retreat])
        if retreat else "")
    if isinstance(order, Attack):
        return f"{_force(order.count, order.origin)} attacks {order.target}{then}{tag}"
    if isinstance(order, CutSupport):
        return f"{_force(order.count, order.origin)} cuts the support of {order.target}{then}{tag}"
    if isinstance(order, Support):
        cases = "; else ".join(_contingency(c) for c in order.contingencies)
        return f"{_force(order.count, order.origin)} supports {cases}{then}{tag}"
    if isinstance(order, DivineSupport):
        cases = "; else ".join(_contingency(c) for c in order.contingencies)
        gods = "a magical support" if order.count == 1 else f"{order.count} magical supports"
        return f"{gods} of the gods for {cases}{tag}"
    if isinstance(order, Hold):
        return f"{_force(order.count, order.origin)} holds{tag}"
    if isinstance(order, Stand):
        return f"{_force(order.count, order.origin)} stands{then}{tag}"
    if isinstance(order, Move):
        via = f" via {', '.join(order.path[:-1])}" if len(order.path) > 1 else ""
        return f"{_force(order.count, order.origin)} moves to {order.path[-1]}{via}{then}{tag}"
    if isinstance(order, Sacrifice):
        return f"{order.city} sacrifices {order.count} captive{'s' * (order.count != 1)}{tag}"
    if isinstance(order, Give):
        return f"{_force(order.count, order.origin)} is given to the {order.to_player}{tag}"
    where = "all their sectors" if order.sectors is None else ", ".join(order.sectors)
    return f"the {order.to_player} may pass through {where}{tag}"


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------


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
    def initial(cls, game_map: GameMap) -> Position:
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


_TRIAD = ("Aztecs", "Chalcans", "Tlaxcalans")
_SIZE = {1: "a single army", 2: "a double army", 3: "a triple army"}


def armies_phrase(n: int) -> str:
    """``1 army``, ``3 armies``."""
    return f"{n} arm{'y' if n == 1 else 'ies'}"


def homeless(player: str, cities: Mapping[str, str | None]) -> bool:
    """Whether an empire with home centres (2.5) holds none of them (3.4, 4.1.1)."""
    homes = EMPIRES.get(player, ())
    return bool(homes) and not any(cities.get(c) == player for c in homes)


def possessive(player: str) -> str:
    """``Aztecs`` -> ``Aztecs'``, ``Hot Country`` -> ``Hot Country's``."""
    return f"{player}'" if player.endswith("s") else f"{player}'s"


def _lines(found: Sequence[int]) -> str:
    return ("line " if len(found) == 1 else "lines ") + join_alternatives(
        [str(n) for n in found], "and")


class _Checker:
    """Judges one player's orders; problems are gathered by line."""

    def __init__(self, position: Position, game_map: GameMap, pid: str,
                 orders: list[tuple[PostLine, Order]],
                 everyone: Mapping[str, list[tuple[PostLine, Order]]],
                 permits: Mapping[tuple[str, str], frozenset[str] | None]) -> None:
        self.pos = position
        self.map = game_map
        self.pid = pid
        self.orders = orders
        self.everyone = everyone
        self.permits = permits
        self.homes = home_centres()
        self.errors: list[OrderError] = []
        self._text: dict[int, str] = {}

    # -- helpers ------------------------------------------------------------------

    def bad(self, order: Order, reason: str) -> None:
        self.errors.append(IllegalOrderError(reason, line=order.line,
                                             text=self._text.get(order.line, "")))

    def owner(self, sector: str) -> str | None:
        held = self.pos.armies.get(sector)
        return held[0] if held and held[1] > 0 else None

    def mine(self, sector: str) -> int:
        held = self.pos.armies.get(sector)
        return held[1] if held and held[0] == self.pid else 0

    def is_city(self, sector: str) -> bool:
        region = self.map.regions.get(sector)
        return region is not None and region.props.get("city") is True

    def adjacent(self, a: str, b: str) -> bool:
        return a in self.map.regions and b in self.map.land_neighbours(a)

    def closed_city(self, sector: str) -> str | None:
        """Why a Move or retreat may not enter ``sector`` (2.4, 4.2, 5.3), or ``None``."""
        if not self.is_city(sector):
            return None
        owner = self.pos.cities.get(sector)
        if owner == self.pid:
            return None
        if owner is None:
            if self.owner(sector) is None:
                return None  # destroyed by the Chichimecs: the first to come takes it (7.4)
            return (f"{sector} is an independent city: only an Attack takes it, a Move never "
                    "enters it (2.4, 5.3, 5.8)")
        granted = self.permits.get((owner, self.pid), frozenset())
        if granted is None or sector in granted:
            return None
        return (f"{sector} is a city of the {possessive(owner)}: only an Attack takes it, or a Move with "
                "their permission (2.4, 4.2, 5.3)")

    def border(self, sector: str, attack: bool) -> str | None:
        """The 1450 and 1451 border restrictions (6.1, 6.2)."""
        empire = self.homes.get(sector)
        if empire is None or empire == self.pid:
            return None
        if self.pos.year == 1450 and self.pid in _TRIAD and empire in _TRIAD:
            return (f"{sector} is in the {possessive(empire)} homeland: in 1450 the Aztecs, Chalcans and "
                    "Tlaxcalans may not cross each other's borders (6.1)")
        if (attack and self.pos.year == 1451
                and {self.pid, empire} == {"Aztecs", "Tlaxcalans"}):
            return (f"{sector} is in the {possessive(empire)} homeland: in 1451 the Aztecs and Tlaxcalans "
                    "may not attack each other's homeland (6.2)")
        return None

    # -- the checks -------------------------------------------------------------------

    def run(self) -> list[OrderError]:
        orders = [o if o.line else replace(o, line=ln.number) for ln, o in self.orders]
        for (line, _), o in zip(self.orders, orders):
            self._text.setdefault(o.line, line.text)
        army_orders = [o for o in orders if isinstance(o, _ARMY_ORDERS)]
        by_sector: dict[str, list[ArmyOrder]] = defaultdict(list)
        for o in army_orders:
            by_sector[o.origin].append(o)
        attacks: dict[str, Attack] = {}
        for o in orders:
            if isinstance(o, Attack) and o.target not in attacks:
                attacks[o.target] = o

        for o in orders:
            if isinstance(o, _ARMY_ORDERS):
                self.check_force(o)
            if isinstance(o, Attack):
                self.check_attack(o, attacks)
            elif isinstance(o, CutSupport):
                self.check_cut(o)
            elif isinstance(o, Support):
                self.check_support(o)
            elif isinstance(o, DivineSupport):
                self.check_divine(o, orders)
            elif isinstance(o, Hold):
                if self.pid == "Chichimecs":
                    self.bad(o, "Chichimecs may Attack, Support, Cut Support, Stand or Move, "
                                "never Hold (7.1)")
            elif isinstance(o, Move):
                self.check_move(o, attacks)
            elif isinstance(o, Sacrifice):
                self.check_sacrifice(o, orders)
            elif isinstance(o, Give):
                self.check_give(o)
            elif isinstance(o, Permit):
                self.check_permit(o)
            retreat = getattr(o, "retreat", ())
            if retreat:
                self.check_retreat(cast(ArmyOrder, o), retreat)

        for sector, group in by_sector.items():
            self.check_split(sector, group)
        self.check_stacking(army_orders)
        return sorted(self.errors, key=lambda e: e.line or 0)

    def check_force(self, o: ArmyOrder) -> None:
        if o.origin not in self.map.regions:
            self.bad(o, f"no sector {o.origin} on the board")
            return
        if not 1 <= o.count <= MAX_FORCE:
            self.bad(o, f"a force is a single, double or triple army, not {o.count} (5.3, 5.9)")
        if not self.mine(o.origin):
            owner = self.owner(o.origin)
            there = (f"the armies there are the {possessive(owner)}" if owner and owner != NEUTRAL
                     else "its garrison is independent" if owner else "it is empty")
            self.bad(o, f"no army of yours in {o.origin}: {there}")

    def check_split(self, sector: str, group: list[ArmyOrder]) -> None:
        have = self.mine(sector)
        if have:
            total = 0
            for o in group:
                total += o.count
                if total > have:
                    rest = [g.line for g in group if g is not o]
                    also = f" (with {_lines(rest)})" if rest else ""
                    self.bad(o, f"{total} armies ordered from {sector}{also}, but only {have} of "
                                f"yours {'stands' if have == 1 else 'stand'} there: each army takes one order (5.2, 5.9)")
        holds = [o for o in group if isinstance(o, Hold)]
        others = [o for o in group if not isinstance(o, (Hold, Give))]
        if holds and others:
            kinds = join_alternatives(sorted({type(o).__name__ for o in others}), "and")
            for o in holds:
                self.bad(o, f"part of the armies in {sector} cannot Hold while others there "
                            f"have other orders ({kinds}, {_lines([x.line for x in others])}) (5.6.2)")

    def check_target(self, o: Attack | CutSupport, verb: str) -> bool:
        if o.target == o.origin:
            self.bad(o, f"{o.origin} cannot {verb} itself")
            return False
        if o.origin in self.map.regions and not self.adjacent(o.origin, o.target):
            self.bad(o, f"{o.target} is not adjacent to {o.origin}: an army can only {verb} an "
                        f"adjacent sector (5.3, 5.4); {o.origin} borders "
                        f"{', '.join(sorted(self.map.land_neighbours(o.origin), key=_order_key))}")
        return True

    def check_attack(self, o: Attack, attacks: Mapping[str, Attack]) -> None:
        if not self.check_target(o, "attack"):
            return
        if self.mine(o.target) or (self.is_city(o.target)
                                   and self.pos.cities.get(o.target) == self.pid):
            self.bad(o, f"{o.target} is yours: Attack is an assault on enemy-held territory; "
                        "use Move (5.3, 5.8)")
        first = attacks.get(o.target)
        if first is not None and first is not o:
            self.bad(o, f"you already attack {o.target} from {first.origin} (line {first.line}): "
                        "one player attacks a sector with only one force (5.3)")
        why = self.border(o.target, attack=True)
        if why:
            self.bad(o, why)

    def check_cut(self, o: CutSupport) -> None:
        if not self.check_target(o, "cut the support of"):
            return
        owner = self.owner(o.target)
        if owner is None:
            self.bad(o, f"no army in {o.target} whose support could be cut (5.4)")
        elif owner == self.pid:
            self.bad(o, f"the armies in {o.target} are yours: cut the support of an enemy (5.4)")
        why = self.border(o.target, attack=True)
        if why:
            self.bad(o, why)

    def check_support(self, o: Support) -> None:
        if not o.contingencies:
            self.bad(o, f"the support of {o.origin} names no army to support (5.5)")
        for c in o.contingencies:
            what = _contingency(c)
            if not self.check_case(o, c, what):
                continue
            if c.action in ("attack", "move") and c.target is not None:
                if c.target == c.supported:
                    self.bad(o, f"cannot support {what}: an army does not {c.action} its own sector")
                    continue
                if c.target != o.origin and not self.adjacent(o.origin, c.target):
                    self.bad(o, f"cannot support {what}: {c.target} is not adjacent to "
                                f"{o.origin}; a supporter must border the sector it supports "
                                "into (5.5)")
                if c.action == "attack" and not self.adjacent(c.supported, c.target):
                    self.bad(o, f"cannot support {what}: {c.target} is not adjacent to "
                                f"{c.supported}, so that attack cannot happen (5.3)")
            elif c.supported == o.origin:
                self.bad(o, f"cannot support {what}: an army does not support its own sector "
                            "(support it from a neighbouring sector, 5.5)")
            elif not self.adjacent(o.origin, c.supported):
                self.bad(o, f"cannot support {what}: {c.supported} is not adjacent to "
                            f"{o.origin} (5.5)")
            self.check_supporting_supporter(o, c, what)

    def check_case(self, o: Support | DivineSupport, c: Contingency, what: str) -> bool:
        """A contingency's sectors are on the board (else False) and an army is there."""
        if c.supported not in self.map.regions or (
                c.target is not None and c.target not in self.map.regions):
            self.bad(o, f"cannot support {what}: no such sector on the board")
            return False
        if self.owner(c.supported) is None:
            self.bad(o, f"cannot support {what}: there is no army in {c.supported}")
        return True

    def check_divine(self, o: DivineSupport, orders: list[Order]) -> None:
        have = self.pos.magic.get(self.pid, 0)
        if o.count < 1:
            self.bad(o, "give at least one magical support")
            return
        total = sum(x.count for x in orders if isinstance(x, DivineSupport) and x.line <= o.line)
        if total > have:
            self.bad(o, f"{total} magical support{'s' * (total != 1)} given, but the gods grant "
                        f"you {have} this turn: one per army sacrificed last turn, for this turn "
                        "only (3.5.3)")
        for c in o.contingencies:
            what = _contingency(c)
            if not self.check_case(o, c, what):
                continue
            if c.action == "attack" and c.target is not None and not self.adjacent(
                    c.supported, c.target):
                self.bad(o, f"cannot support {what}: {c.target} is not adjacent to "
                            f"{c.supported}, so that attack cannot happen (5.3)")
            self.check_supporting_supporter(o, c, what)

    def check_supporting_supporter(self, o: Support | DivineSupport, c: Contingency,
                                   what: str) -> None:
        owner = self.owner(c.supported)
        if owner is None:
            return
        there = [x for _, x in self.everyone.get(owner, [])
                 if isinstance(x, _ARMY_ORDERS) and x.origin == c.supported]
        supports = [x for x in there if isinstance(x, Support)]
        active = [x for x in there if not isinstance(x, (Support, Give))]
        origin = o.origin if isinstance(o, Support) else None
        if supports and not active and not (owner == self.pid and c.supported == origin):
            lines = f" ({_lines([x.line for x in supports])})" if owner == self.pid else ""
            self.bad(o, f"cannot support {what}: the army in {c.supported} is itself ordered to "
                        f"support{lines}, and an army that supports cannot be supported (5.5)")

    def check_move(self, o: Move, attacks: Mapping[str, Attack]) -> None:
        if not 1 <= len(o.path) <= MAX_MOVE:
            self.bad(o, f"a Move passes one to three sectors, not {len(o.path)} (5.8); "
                        "split longer journeys over several turns")
        here = o.origin
        seen = {o.origin}
        for step in o.path:
            if step in seen:
                self.bad(o, f"the Move passes {step} twice")
            elif here in self.map.regions and not self.adjacent(here, step):
                self.bad(o, f"{step} is not adjacent to {here}: each step of a Move goes to an "
                            f"adjacent sector (5.8); {here} borders "
                            f"{', '.join(sorted(self.map.land_neighbours(here), key=_order_key))}")
            seen.add(step)
            why = self.closed_city(step)
            if why:
                self.bad(o, why)
            why = self.border(step, attack=False)
            if why:
                self.bad(o, why)
            attacked = attacks.get(step)
            if attacked is not None:
                self.bad(o, f"{step} is the sector you attack (line {attacked.line}): a Move of "
                            "other armies may not go there (5.9)")
            here = step

    def check_retreat(self, o: ArmyOrder, retreat: tuple[str, ...]) -> None:
        if self.pid == "Chichimecs":
            self.bad(o, "Chichimecs cannot retreat: a retreating Chichimec is a dead Chichimec "
                        "(7.1)")
            return
        stops = (o.origin, *o.path) if isinstance(o, Move) else (o.origin,)
        for sector in retreat:
            if sector in stops:
                self.bad(o, f"cannot retreat to {sector}: the army is there already")
                continue
            if not any(self.adjacent(s, sector) for s in stops if s in self.map.regions):
                self.bad(o, f"cannot retreat to {sector}: it is not adjacent to "
                            f"{join_alternatives(list(stops))} (5.7)")
            ally = dict(getattr(o, "retreat_gifts", ())).get(sector)
            if ally is not None:
                if ally == self.pid:
                    self.bad(o, f"cannot give the retreating army to yourself ({sector})")
                elif ally not in EMPIRES or self.homeless(ally) or self.homeless(self.pid):
                    self.bad(o, f"cannot retreat to {sector} as a gift to the {ally}: gifts are "
                                "made and received only by empires keeping a home centre (4.1.1)")
                continue
            why = self.closed_city(sector)
            if why:
                self.bad(o, f"cannot retreat to {sector}: {why.split(': ', 1)[0]}, and no army "
                            "retreats into a city not its own unless given to its owner (5.3, "
                            "5.7.1)")
            why = self.border(sector, attack=False)
            if why:
                self.bad(o, why)

    def check_sacrifice(self, o: Sacrifice, orders: list[Order]) -> None:
        if not self.is_city(o.city):
            self.bad(o, f"{o.city} is no city: a city performs the sacrifice (3.5.4)")
            return
        if self.pos.cities.get(o.city) != self.pid:
            holder = self.pos.cities.get(o.city)
            self.bad(o, f"{o.city} is not your city ({'independent' if holder is None else holder}"
                        "): only a city of yours performs your sacrifices (3.5.4)")
        if o.count < 1:
            self.bad(o, "sacrifice at least one captive")
            return
        have = self.pos.captives.get(self.pid, 0)
        total = sum(x.count for x in orders if isinstance(x, Sacrifice) and x.line <= o.line)
        if total > have:
            self.bad(o, f"{total} captive{'s' * (total != 1)} sacrificed, but you hold {have} "
                        "(3.5, 3.5.4)")

    def homeless(self, player: str) -> bool:
        return homeless(player, self.pos.cities)

    def check_give(self, o: Give) -> None:
        if o.to_player == self.pid:
            self.bad(o, "the armies are yours already")
        if o.to_player not in EMPIRES:
            self.bad(o, f"no player '{o.to_player}'")
        if self.homeless(self.pid):
            self.bad(o, f"the {self.pid} have lost all their home centres and can make no gifts "
                        "(4.1.1)")
        if o.to_player in EMPIRES and self.homeless(o.to_player):
            self.bad(o, f"the {o.to_player} have lost all their home centres and can receive no "
                        "gifts (4.1.1)")

    def check_permit(self, o: Permit) -> None:
        if o.to_player == self.pid:
            self.bad(o, "you need no permission to pass through your own sectors")
        for sector in o.sectors or ():
            if not (self.mine(sector) or self.pos.cities.get(sector) == self.pid):
                self.bad(o, f"{sector} is not yours: you can only let others through sectors "
                            "you hold (4.1, 4.2)")

    def check_stacking(self, army_orders: list[ArmyOrder]) -> None:
        leaving: dict[str, int] = defaultdict(int)
        arriving: dict[str, list[Attack | Move]] = defaultdict(list)
        for o in army_orders:
            if isinstance(o, (Attack, Move, Give)):
                leaving[o.origin] += o.count
            if isinstance(o, Attack):
                arriving[o.target].append(o)
            elif isinstance(o, Move) and o.path:
                arriving[o.path[-1]].append(o)
        for sector, movers in arriving.items():
            if sector == DESERT:
                continue  # any number may mass in the desert (7.7)
            staying = max(0, self.mine(sector) - leaving[sector])
            final = staying + sum(m.count for m in movers)
            if final > MAX_FORCE:
                for o in movers:
                    self.bad(o, f"{final} of your armies would end the turn in {sector}: at most "
                                "three armies stand in one sector (4.1)")


def _order_key(name: str) -> tuple[int, int, str]:
    return (1, int(name), "") if name.isdigit() else (0, 0, name)


def validate(position: Position, parsed_by_player: Mapping[str, ParseResult[Order]],
             game_map: GameMap) -> dict[str, list[OrderError]]:
    """Every problem of every player's orders, by player, each naming its line.

    Keys are those of ``parsed_by_player``; players without problems are left
    out.  The orders of all players are read together: permissions to pass
    (4.1) and what the supported armies do (5.5) come from the others' orders.
    """
    problems: dict[str, list[OrderError]] = {}
    everyone: dict[str, list[tuple[PostLine, Order]]] = {}
    keys: dict[str, str] = {}
    for key, result in parsed_by_player.items():
        try:
            pid = _player(key)
        except OrderError as err:
            problems[key] = [IllegalOrderError(f"{err.reason} (players: {', '.join(EMPIRES)})")]
            continue
        keys[pid] = key
        everyone.setdefault(pid, []).extend(result.orders)
    permits: dict[tuple[str, str], frozenset[str] | None] = {}
    for pid, orders in everyone.items():
        for _, o in orders:
            if isinstance(o, Permit):
                pair = (pid, o.to_player)
                before = permits.get(pair, frozenset())
                permits[pair] = (None if o.sectors is None or before is None
                                 else before | frozenset(o.sectors))
    for pid, orders in everyone.items():
        errs = _Checker(position, game_map, pid, orders, everyone, permits).run()
        if errs:
            problems[keys[pid]] = errs
    return problems
