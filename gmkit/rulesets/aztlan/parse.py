"""AZTLAN's order lines read into typed orders (syntax and names only).

Names are written as the rules write them (2.6, :mod:`gmkit.rulesets.aztlan.names`).
A force is one, two or three of the player's armies in one sector (5.9): a single
army unless ``2A``/``3A``, ``double``/``triple`` or ``2 armies`` is written.  Forms accepted::

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

:func:`parse` reads a post; whether its orders are legal is for
:func:`gmkit.rulesets.aztlan.orders.validate` to judge.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.orders import (
    IllegalOrderError,
    OrderError,
    OrderSyntaxError,
    ParseResult,
    PostLine,
    parse_post,
)
from gmkit.core.names import NameIndex
from gmkit.core.words import OrderWords
from gmkit.rulesets.aztlan.names import names, one_name, player_index, player_name, sector_index
from gmkit.rulesets.aztlan.order_types import (
    Action,
    Attack,
    Contingency,
    CutSupport,
    DivineSupport,
    Give,
    Hold,
    Move,
    Order,
    Permit,
    Sacrifice,
    Stand,
    Support,
)
from gmkit.rulesets.aztlan.words import possessive

__all__ = ["EXAMPLES", "Mine", "WORDS", "parse", "parse_line"]

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

#: The words of AZTLAN's orders: those an order may start with (beside a count, the unit letter
#: or a sector), so that a plain line starting with none of them is not read as an order; and
#: every other word of their forms (the verbs, the supported army's actions), each misspelt one
#: told what it may be.
WORDS = OrderWords(
    starts=("army", "armies", "single", "double", "triple", "one", "two", "three", "permit",
            "allow", "let", "permission", "grant", "give", "gift", "hand", "sacrifice", "sac",
            "gods", "divine", "magic", "magical"),
    others=("attack", "attacks", "attacking", "support", "supports", "supporting", "hold",
            "holds", "holding", "stand", "stands", "standing", "move", "moves", "moving", "cut",
            "cuts", "cutting", "sacrifices", "sacrificing", "given", "gifted", "goes", "passes",
            "handed", "over", "changes", "allegiance", "itself", "themselves", "does", "will",
            "shall", "retreat", "retreats", "retreating", "captives", "captive", "prisoners",
            "in", "at", "from", "of", "to", "into", "on", "against", "for", "the", "through",
            "via", "across", "may", "can", "permitted", "allowed", "pass", "travel", "march",
            "passage", "then", "else", "otherwise", "failing", "that", "or", "if", "not",
            "whatever", "anything", "any", "fast", "firm", "death", "place", "all", "every",
            "my", "our", "none", "nowhere"))

#: The placeholders of a rejection's examples: any sector, and another empire.
SECTOR, EMPIRE = "<sector>", "<empire>"


@dataclass(frozen=True)
class Mine:
    """What a rejection's examples may name of the player's own: two sectors of their armies and
    a city of theirs (each by its designation, rule 2.6), placeholders where they hold none, so
    an example never names another empire's sector."""

    army: str = "<your sector>"
    other: str = "<your other sector>"
    city: str = "<your city>"

    @classmethod
    def of(cls, armies: Sequence[str], cities: Sequence[str]) -> Mine:
        """The player's own, from the designations of their armies' sectors and cities."""
        mine = cls()
        return cls(armies[0] if armies else mine.army,
                   armies[1] if len(armies) > 1 else mine.other,
                   cities[0] if cities else mine.city)

    def examples(self) -> str:
        """The orders a line no form reads is offered to try."""
        a, b = self.army, self.other
        return (f"'A {a} A {SECTOR}', '2A {a} A {SECTOR}', 'A {b} CS {SECTOR}', "
                f"'A {b} S {a} A {SECTOR}, {a} H', 'A {a} H', 'A {a} Stand (retreat {SECTOR})', "
                f"'A {a} M {SECTOR}, {SECTOR}', '{self.city} sac 1', 'A {a} given to {EMPIRE}', "
                f"'permit {EMPIRE} through {a}, {b}'")


#: The examples offered when the player's own sectors are not known.
EXAMPLES = Mine().examples()


def _count(text: str | None) -> int:
    """The number of armies in a designation: ``2A``, ``double army``, ``3 armies``."""
    if not text:
        return 1
    word = text.split()[0].lower()
    digits = re.match(r"\d+", word)
    if digits:
        return int(digits.group())
    return _NUMBER_WORDS[word]


def _captives(text: str, city: str = Mine.city) -> int:
    word = text.lower()
    if word in _NUMBER_WORDS:
        return _NUMBER_WORDS[word]
    if not re.fullmatch(r"\d{1,6}", word):
        raise OrderSyntaxError(f"'{text}' is not a number of captives: e.g. '{city} sac 2'")
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
        return head, names(where, index, "retreat sector"), ()
    sectors: list[str] = []
    gifts: list[tuple[str, str]] = []
    for item in re.split(r"\s*[,;]\s*", where):
        g = _RETREAT_GIFT.match(item)
        if g:
            sector = one_name(g.group("sector"), index, "retreat sector",
                               f"(retreat {SECTOR} given to {EMPIRE})")
            gifts.append((sector, player_name(g.group("who"))))
            sectors.append(sector)
        elif item:
            sectors.extend(names(item, index, "retreat sector"))
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
                                   f"army's sector and what it does, e.g. '{_support(ab)}'")
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
            hint = WORDS.hint(m.group("act"))
            raise OrderSyntaxError(f"unknown action '{m.group('act')}' in the support '{segment}': "
                                   "use A (attack), M (move), H (hold), S/St (stand) or nothing"
                                   + (f"; {hint}" if hint else ""))
        if action in ("attack", "move"):
            if not target_text:
                raise OrderSyntaxError(f"'{segment}': say which sector the supported army "
                                       f"{'attacks' if action == 'attack' else 'moves into'}")
            target = one_name(target_text, index, "sector",
                               f"{segment.split()[0]} {act_word.upper()} {SECTOR}")
            out.append(Contingency(supported, action, target))
        else:
            if target_text:
                raise OrderSyntaxError(f"'{segment}': a supported {action} has no target")
            out.append(Contingency(supported, action))
    if not out:
        raise OrderSyntaxError(f"say which army {ab} supports, e.g. '{_support(ab)}'")
    return tuple(out)


def _support(ab: str) -> str:
    """A support written out, for the army in ``ab``."""
    return f"A {ab} S {SECTOR} A {SECTOR}, {SECTOR} H"


def _abbr(game_map: PolygonBoard, name: str) -> str:
    abbr = game_map.regions[name].props.get("abbr")
    return abbr if isinstance(abbr, str) and abbr else name


def parse_line(line: PostLine, game_map: PolygonBoard, player: str,
               mine: Mine = Mine()) -> Order | None:
    """One line into an order; raises :class:`OrderError` with the reason (its examples name
    only ``mine``, the player's own sectors).

    Reads syntax and names only: whether the order is legal is
    :func:`~gmkit.rulesets.aztlan.orders.validate`'s business, except a gift or permission
    to oneself.
    """
    text = " ".join(line.text.split()).replace("’", "'").strip().rstrip(".!").strip()
    if not text or text.endswith(":"):
        return None  # a heading such as "Aztec orders, Winter 1450:"
    sectors = sector_index(game_map)
    found = (_permit(text, player, sectors) or _sacrifice_first(text, game_map, mine)
             or _divine(text, sectors) or _gift(text, player, sectors, mine))
    if found is not None:
        return found
    m = _HEAD.match(text)
    if m is None:
        raise _not_an_order(text, sectors, mine)
    return _army_order(m, game_map, player, sectors, mine)


def _permit(text: str, player: str, sectors: NameIndex) -> Permit | None:
    """``permit Tlaxcalans through 7, 8``, ``Tlaxcalans may pass`` (4.1)."""
    for number, rx in enumerate(_PERMITS):
        m = rx.match(text)
        if m:
            try:
                who = player_name(m.group("who"))
            except OrderError:
                if number:  # "X may pass" where X is no player: not a permission
                    continue
                raise
            if who == player:
                raise IllegalOrderError(f"the {player} need no permission to pass their own sectors")
            where = m.group("where")
            if where is None or re.fullmatch(r"(?:all|any|every)\w*(?:\s+(?:my|our|of\s+my|of\s+our)"
                                             r")?(?:\s+\w+)?", where.strip(), re.IGNORECASE):
                return Permit(who, None)
            return Permit(who, names(where, sectors, "sector"))
    return None


def _sacrifice_first(text: str, game_map: PolygonBoard, mine: Mine) -> Sacrifice | None:
    """``sacrifice 2 captives in Ten`` (3.5.4)."""
    m = _SAC_FIRST.match(text)
    if not m:
        return None
    city = sector_index(game_map, cities_only=True).resolve(m.group("city"))
    return Sacrifice(city, _captives(m.group("n"), mine.city))


def _divine(text: str, sectors: NameIndex) -> DivineSupport | None:
    """``2 GS Ten A Tla``: the gods' magical supports (3.5.3)."""
    m = _DIVINE.match(text)
    if not m:
        return None
    n = _captives(m.group("n")) if m.group("n") else 1
    return DivineSupport(n, _contingencies(m.group("rest"), sectors, "GS"))


def _gift(text: str, player: str, sectors: NameIndex, mine: Mine) -> Give | None:
    """``give 2A Ten to Tlaxcalans`` (4.1.1)."""
    m = _GIVE.match(text)
    if not m:
        return None
    force = _FORCE_ONLY.match(m.group("force"))
    if not force:
        raise OrderSyntaxError(f"cannot read the army given in '{text}': e.g. "
                               f"'give 2A {mine.army} to {EMPIRE}'")
    origin = sectors.resolve(force.group("origin"))
    return _give(origin, _count(force.group("cnt")), m.group("who"), player)


def _not_an_order(text: str, sectors: NameIndex, mine: Mine) -> OrderSyntaxError:
    """Why a line that names no known verb is not an order."""
    loose = _LOOSE.match(text)
    if loose:
        try:
            origin = sectors.resolve(loose.group("origin"))
        except OrderError:
            origin = ""
        if origin:
            word = loose.group("word")
            if word is None:
                return OrderSyntaxError(f"'{text}' is not an order: say what the army in "
                                        f"{origin} does, e.g. {mine.examples()}")
            hint = WORDS.hint(text, [sectors])
            return OrderSyntaxError(
                f"unknown order '{word}' for {origin}: use A (attack), CS (cut support), "
                "S (support), H (hold), St (stand), M (move), sac (sacrifice) or 'given to'"
                + (f"; {hint}" if hint else ""))
    # "A lovely day" is chatter: the unit letter counts only before a sector or a count
    head = re.sub(r"^(?:the\s+|a\s+)+", "", text, flags=re.IGNORECASE)
    return WORDS.rejected(head, f"not an order: '{text}'", [sectors], mine.examples())


def _sacrifice(origin: str, cnt: str | None, rest: str, game_map: PolygonBoard,
               mine: Mine) -> Sacrifice:
    """``Ten sac 2`` (3.5.4)."""
    city = sector_index(game_map, cities_only=True).resolve(origin)
    if cnt:
        raise OrderSyntaxError("a sacrifice counts captives, not armies: e.g. "
                               f"'{_abbr(game_map, city)} sac 2'")
    rm = _SAC_REST.match(rest)
    if not rm:
        raise OrderSyntaxError(f"say how many captives {city} sacrifices: e.g. "
                               f"'{_abbr(game_map, city)} sac 2' (3.5.4)")
    return Sacrifice(city, _captives(rm.group("n"), mine.city))


def _army_order(m: re.Match[str], game_map: PolygonBoard, player: str, sectors: NameIndex,
                mine: Mine) -> Order:
    """A line read by :data:`_HEAD`: a force, a verb and the rest."""
    kind = next(k for k in _VERBS if m.group(f"v_{k}"))
    rest = m.group("rest").strip()
    cnt = m.group("cnt")
    if kind == "sacrifice":
        return _sacrifice(m.group("origin"), cnt, rest, game_map, mine)
    origin = sectors.resolve(m.group("origin"))
    count = _count(cnt)
    ab = _abbr(game_map, origin)
    if kind == "give":
        return _give(origin, count, rest, player)
    body, retreat, gifts = _split_retreat(rest, sectors)
    if kind == "hold":
        if retreat:
            raise IllegalOrderError("a Holding army never retreats (5.6): use Stand to retreat, "
                                    f"e.g. 'A {ab} Stand (retreat …)'")
        if body and not re.fullmatch(r"(?:fast|firm|to\s+the\s+death|in\s+place)", body, re.IGNORECASE):
            raise OrderSyntaxError(f"nothing follows a Hold: '{body}'")
        return Hold(origin, count)
    if kind == "stand":
        if body:
            raise OrderSyntaxError(f"only a retreat follows a Stand, not '{body}': e.g. "
                                   f"'A {ab} Stand (retreat {SECTOR}, {SECTOR})'")
        return Stand(origin, count, retreat, retreat_gifts=gifts)
    if not body:
        verb = {"attack": "attacks", "cut": "cuts the support of", "support": "supports",
                "move": "moves to"}[kind]
        example = {"attack": f"A {ab} A {SECTOR}", "cut": f"A {ab} CS {SECTOR}",
                   "support": _support(ab), "move": f"A {ab} M {SECTOR}, {SECTOR}"}[kind]
        raise OrderSyntaxError(f"say what {origin} {verb}: e.g. '{example}'")
    if kind == "attack":
        body = re.sub(r"^(?:on|against|into|to)\s+", "", body, flags=re.IGNORECASE)
        return Attack(origin, count, one_name(body, sectors, "sector", f"A {ab} A {SECTOR}"),
                      retreat, retreat_gifts=gifts)
    if kind == "cut":
        body = re.sub(r"^(?:of|on|against|for|at)\s+", "", body, flags=re.IGNORECASE)
        return CutSupport(origin, count, one_name(body, sectors, "sector", f"A {ab} CS {SECTOR}"),
                          retreat, retreat_gifts=gifts)
    if kind == "move":
        return Move(origin, count, names(body, sectors, "sector to move to"), retreat,
                    retreat_gifts=gifts)
    return Support(origin, count, _contingencies(body, sectors, ab), retreat, retreat_gifts=gifts)


def _give(origin: str, count: int, who: str, player: str) -> Give:
    to = player_name(who)
    if to == player:
        raise IllegalOrderError(f"the armies in {origin} are the {possessive(player)} already")
    return Give(origin, count, to)


def parse(post: str, game_map: PolygonBoard, player: str, *,
          secret: bool = False, mine: Mine = Mine()) -> ParseResult[Order]:
    """A whole post of ``player``'s into orders and per-line errors.

    ``player`` is an empire's name (rule 2.1; singular forms accepted).
    Raises :class:`~gmkit.core.orders.UnknownNameError` (a ``ValueError``)
    for an unknown player.  ``secret`` changes nothing in the orders: whether a post was
    secret is kept on each order's :class:`~gmkit.core.envelope.Envelope`.
    """
    who = player_name(player)
    sector_index(game_map)  # build the index once, before the lines
    return parse_post(post, WORDS.reading(lambda line: parse_line(line, game_map, who, mine),
                                          [sector_index(game_map), player_index()]))
