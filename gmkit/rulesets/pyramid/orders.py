"""Pyramid Power Wars' orders: the lines players post, read into typed orders and checked
against the state.

Short forms, as posted in a forum (case and accents do not matter; lands, nobles and DEAD by name
or unambiguous prefix)::

    4 serfs to Redsand                      serfs work a land you hold (standing until changed)
    5 priests to the war pyramid            priests staff a pyramid ('pyramid 2' by number)
    noble 1 with 3 troops and the battle pyramid to Oasis Gate
    noble Khufu with 1 troops and the scout pyramid to Redsand then Oasis Gate, claim pyramids
    noble 2 to Redsand                      a noble alone, through your own land
    2 troops and pyramid 3 from Redsand to Oasis Gate      without a noble: own land only
    build war pyramid: 3 stone, dead: Amenhotep, Khufu
    build scout pyramid at Redsand: 1 stone
    claim pyramids at Oasis Gate            take rather than destroy unstaffed pyramids there
    excess food: 2 priests, 1 troops        what excess food becomes (a pattern, repeated)
    starve: troops, serfs, priests          which kinds vanish first when food runs short

Long forms::

    assign 4 units of serfs to the land of Redsand
    assign 5 units of priests to pyramid 2
    noble Amenhotep leads 3 troops and the battle pyramid from Redsand to Oasis Gate
    build a war pyramid at Redsand with 3 stone and the dead Amenhotep and Khufu
    convert excess food into 2 priests and 1 troops
    if food runs short lose troops first, then serfs

Parsing knows names, not the state's rules; :func:`validate` checks the orders against the
state, every problem at once, each naming its line. The pieces live in modules of their own and
are all importable from here: the orders as typed values
(:mod:`~gmkit.rulesets.pyramid.order_types`) and the checks of one player's orders
(:mod:`~gmkit.rulesets.pyramid.validate`, with the allocation of a post's serfs and priests in
:mod:`~gmkit.rulesets.pyramid.allocation`).
"""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import replace

import polars as pl

from gmkit.core.envelope import Orders
from gmkit.core.names import NameIndex
from gmkit.core.orders import OrderSyntaxError, ParseResult, PostLine, parse_post
from gmkit.core.params import Params
from gmkit.core.parts import Context
from gmkit.core.ruleset import Problems
from gmkit.core.tables import State
from gmkit.core.words import OrderWords
from gmkit.rulesets.pyramid.order_types import (AssignSerfs, Births, Build, Claim, Lead, Move,
                                                NobleRef, Order, PyramidRef, StaffPyramid,
                                                Starve)
from gmkit.rulesets.pyramid.rules import POPULATION, SIZES
from gmkit.rulesets.pyramid.state import lands_of
from gmkit.rulesets.pyramid.validate import check_orders

_KIND = {"serf": "serfs", "serfs": "serfs", "priest": "priests", "priests": "priests",
         "troop": "troops", "troops": "troops", "soldier": "troops", "soldiers": "troops"}
_SIZE_RX = "|".join(SIZES)
_UNITS = r"(?:units?\s+of\s+)?"
_SEP = re.compile(r"\s*(?:,\s*(?:and\s+)?|\band\b|\+|&)\s*", re.I)

_ASSIGN = re.compile(rf"^(?:assign\s+)?(?P<n>\d+)\s+{_UNITS}(?P<k>serfs?|priests?)\s+"
                     r"(?:to|on|at|in|staffing|staff)\s+(?:the\s+land\s+of\s+)?(?P<t>.+)$", re.I)
_STAFF = re.compile(r"^staff\s+(?P<t>.+?)\s+with\s+(?P<n>\d+)\s+priests?$", re.I)
#: A noble's lead: ``noble N ...`` or ``Name leads ...``, then what they lead, where from and
#: the path. Each way of naming the noble is its own expression, tried only when its cheap
#: test (:data:`_CAN_NOBLE`, :data:`_CAN_NAMED`) says it matches: a lead that cannot match would
#: otherwise be backtracked over in cubic time (a line of "with" and "from" and no "to" after).
_LEAD_TAIL = (r"\s*(?:(?:with|leads|leading)\s+(?P<what>.+?)\s+)?"
              r"(?:from\s+(?P<origin>.+?)\s+)?(?:moves?\s+)?(?:to|into)\s+(?P<path>.+)$")
_LEAD_NOBLE = re.compile(r"^noble\s+(?P<noble>.+?)" + _LEAD_TAIL, re.I)
_LEAD_NAMED = re.compile(r"^(?P<named>[^\d\s][^,]*?)\s+(?=leads\b)" + _LEAD_TAIL, re.I)
#: Exactly when each matches: the noble's words then a destination after them (the groups
#: between are optional, and the noble's lazy words take them in); for ``Name leads``, what is
#: led (at least one character) then a destination, since "leads" itself opens that group.
_CAN_NOBLE = re.compile(r"noble\s+.+?(?:to|into)\s+.", re.I)
_CAN_NAMED = re.compile(r"[^\d\s][^,]*?\s+leads\s+.+?\s+(?:to|into)\s+.", re.I)
_MOVE = re.compile(r"^(?:move\s+)?(?P<what>.+?)\s+from\s+(?P<origin>.+?)\s+(?:to|into)\s+"
                   r"(?P<path>.+)$", re.I)
_BUILD = re.compile(rf"^(?:build|continue)\s+(?:an?\s+|the\s+)?(?P<size>{_SIZE_RX})\s+pyramid"
                    r"(?:\s+(?P<num>\d+))?(?:\s+(?:at|in|on)\s+(?P<space>[^:]+?))?"
                    r"(?:\s*(?::|,|with\b)\s*(?P<rest>.*))?$", re.I)
_CLAIM = re.compile(r"^claim\s+(?:the\s+|all\s+)?(?:unstaffed\s+)?(?:pyramids?|"
                    rf"(?:{_SIZE_RX})\s+pyramids?)\s+(?:at|in|on)\s+(?P<space>.+)$", re.I)
_BIRTHS = re.compile(r"^(?:(?:convert\s+)?excess\s+food|births?|new\s+population)\s*"
                     r"(?::|->|=|into|becomes?|to)?\s*(?:into\s+)?(?P<list>.+)$", re.I)
_STARVE = re.compile(r"^(?:starve|starving|hunger|if\s+hungry|vanish|"
                     r"if\s+food\s+runs\s+short)\s*(?::|->|=)?\s*(?:lose\s+)?(?P<list>.+)$", re.I)
_CLAIM_TAIL = re.compile(r"\s*[,;]?\s*(?:and\s+)?claim(?:ing)?(?:\s+(?:the\s+|all\s+)?"
                         r"(?:unstaffed\s+)?pyramids?)?$", re.I)
_PYRAMID = re.compile(rf"^(?:the\s+|a\s+|an\s+|my\s+)?(?:(?P<size>{_SIZE_RX})\s+)?pyramid"
                      r"(?:\s+(?:no\.?\s*|#)?(?P<num>\d+))?$", re.I)
#: What a lead and _MOVE need to match at all ("to" or "into" before a destination, and "from"
#: before it for a move): tested first, so a line that cannot match is never backtracked over.
_TO = re.compile(r"(?:to|into)\s+.", re.I)
_FROM_TO = re.compile(r"\sfrom\s(?:(?!\sfrom\s).)*?(?:to|into)\s+.", re.I)
_TROOPS = re.compile(r"^(?P<n>\d+)\s+" + _UNITS + r"(?:troops?|soldiers?)$", re.I)

#: What a rejection offers as a DEAD, which stay their holder's secret, and as a land when the
#: player holds none.
A_DEAD, YOUR_LAND = "<a DEAD of yours>", "<your land>"
BUILD = f"'build war pyramid: 3 stone, dead: {A_DEAD}'"


def examples(state: State | None, player: str | None) -> str:
    """The orders a rejection offers to try, naming only ``player``'s own land (their home
    first) and placeholders for any other place: never a land another player holds."""
    land = YOUR_LAND
    if state is not None and player is not None:
        held = lands_of(state, player)
        homes = state["players"].filter(pl.col("id") == player)["home"].to_list()
        land = homes[0] if homes and homes[0] in held else (held[0] if held else YOUR_LAND)
    return (f"'4 serfs to {land}', '5 priests to the war pyramid', "
            "'noble 1 with 3 troops and the battle pyramid to <a land next to yours>', "
            f"'2 troops from {land} to <a land next to it>', {BUILD}, "
            "'claim pyramids at <a land>', 'excess food: 2 priests, 1 troops', "
            "'starve: troops, serfs'")


class Names:
    """The name indexes one post is read with: lands, living nobles, DEAD."""

    def __init__(self, spaces: tuple[str, ...], nobles: tuple[str, ...], dead: tuple[str, ...]):
        self.spaces = NameIndex(spaces, kind="land")
        self.nobles = NameIndex(nobles, kind="noble")
        self.dead = NameIndex(dead, kind="DEAD")


@functools.lru_cache(maxsize=16)
def _names(spaces: tuple[str, ...], nobles: tuple[str, ...], dead: tuple[str, ...]) -> Names:
    return Names(spaces, nobles, dead)


def names_of(state: State) -> Names:
    """The name indexes for a state."""
    return _names(tuple(state["spaces"]["name"].to_list()),
                  tuple(state["nobles"]["name"].to_list()), tuple(state["dead"]["name"].to_list()))


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().rstrip(".!;")).replace("’", "'")


def _count(text: str) -> int:
    if len(text) > 6:
        raise OrderSyntaxError(f"{text[:8]}… is more units than any player has")
    return int(text)


def _pyramid(text: str) -> PyramidRef:
    m = _PYRAMID.match(text.strip())
    if not m or not (m.group("size") or m.group("num")):
        raise OrderSyntaxError(f"'{text}' is not a pyramid (say 'pyramid 2' or 'the war "
                               "pyramid'; sizes: " + ", ".join(SIZES) + ")")
    return PyramidRef(m.group("size").lower() if m.group("size") else None,
                      _count(m.group("num")) if m.group("num") else None)


def _forces(text: str | None) -> tuple[int, tuple[PyramidRef, ...]]:
    if not text:
        return 0, ()
    troops, pyramids = 0, []
    for item in (i for i in _SEP.split(text) if i.strip()):
        m = _TROOPS.match(item.strip())
        if m:
            troops += _count(m.group("n"))
        else:
            pyramids.append(_pyramid(item))
    return troops, tuple(pyramids)


def _path(text: str, names: Names) -> tuple[str, ...]:
    parts = re.split(r"\s*(?:,\s*then|,|\bthen\b|->|→|>)\s*", text.strip(), flags=re.I)
    return tuple(names.spaces.resolve(p) for p in parts if p.strip())


def _kinds_list(text: str) -> list[tuple[str, int]]:
    out = []
    for item in (i for i in re.split(r"\s*(?:,|\bthen\b|\band\b|;)\s*", text, flags=re.I)
                 if i.strip()):
        m = re.match(r"^(?:(?P<n>\d+)\s+)?(?:units?\s+of\s+)?(?P<k>[a-z]+)(?:\s+first)?$",
                     item.strip(), re.I)
        kind = _KIND.get(m.group("k").lower()) if m else None
        if m is None or kind is None:
            word = m.group("k").lower() if m else item.strip().lower()
            close = difflib.get_close_matches(word, list(_KIND), n=1, cutoff=0.6)
            hint = f"; did you mean {_KIND[close[0]]}?" if close else ""
            raise OrderSyntaxError(f"'{item}' is not a kind of population{hint} (serfs, "
                                   "priests, troops)")
        out.append((kind, _count(m.group("n")) if m.group("n") else 1))
    if not out:
        raise OrderSyntaxError("name at least one kind of population (serfs, priests, troops)")
    return out


def _noble(text: str, names: Names) -> NobleRef:
    text = text.strip()
    if text.isdigit():
        return NobleRef(number=_count(text))
    return NobleRef(name=names.nobles.resolve(text))


def _build(m: re.Match[str], names: Names, line: int) -> Build:
    rest = (m.group("rest") or "").strip()
    stone, dead_text = 0, ""
    dm = re.search(r"(?:^|[,;]|\band\b)\s*(?:the\s+)?dead\s*:?\s*(?P<d>.*)$", rest, re.I)
    if dm:
        dead_text, rest = dm.group("d"), rest[: dm.start()]
    sm = re.fullmatch(r"\s*(?:(?P<n>\d+)\s+stones?)?\s*", rest, re.I)
    if sm is None:
        raise OrderSyntaxError(f"cannot read '{rest.strip()}' (write {BUILD})")
    if sm.group("n"):
        stone = _count(sm.group("n"))
    dead = tuple(names.dead.resolve(d) for d in _SEP.split(dead_text) if d.strip())
    if stone == 0 and not dead:
        raise OrderSyntaxError(f"give the pyramid stone or DEAD (write {BUILD})")
    space = names.spaces.resolve(m.group("space")) if m.group("space") else None
    number = _count(m.group("num")) if m.group("num") else None
    return Build(m.group("size").lower(), stone, dead, space, number, line)


def parse_line(line: PostLine, names: Names, tries: str | None = None) -> Order | None:
    """One line into an order; raises :class:`~gmkit.core.orders.OrderError` with the reason
    (``tries``: the examples a line no form reads is offered, see :func:`examples`)."""
    text = _clean(line.text)
    if not text:
        return None
    n = line.number
    if m := _ASSIGN.match(text):
        count = _count(m.group("n"))
        if m.group("k").lower().startswith("serf"):
            return AssignSerfs(names.spaces.resolve(m.group("t")), count, n)
        return StaffPyramid(_pyramid(m.group("t")), count, n)
    if m := _STAFF.match(text):
        return StaffPyramid(_pyramid(m.group("t")), _count(m.group("n")), n)
    if m := _BUILD.match(text):
        return _build(m, names, n)
    if m := _CLAIM.match(text):
        return Claim(names.spaces.resolve(m.group("space")), n)
    if m := _BIRTHS.match(text):
        return Births(tuple(_kinds_list(m.group("list"))), n)
    if m := _STARVE.match(text):
        kinds = tuple(dict.fromkeys(k for k, _ in _kinds_list(m.group("list"))))
        return Starve(kinds, n)
    claim = False
    if cm := _CLAIM_TAIL.search(text):
        claim, text = True, text[: cm.start()]
    if not _TO.search(text):
        raise _not_an_order(text, names, tries)
    if m := lead_match(text):
        noble = _noble(m.groupdict().get("noble") or m.group("named"), names)
        troops, pyramids = _forces(m.group("what"))
        origin = names.spaces.resolve(m.group("origin")) if m.group("origin") else None
        return Lead(noble, troops, pyramids, _path(m.group("path"), names), claim, origin, n)
    if _FROM_TO.search(text) and (m := _MOVE.match(text)):
        troops, pyramids = _forces(m.group("what"))
        return Move(names.spaces.resolve(m.group("origin")), troops, pyramids,
                    _path(m.group("path"), names), n)
    raise _not_an_order(text, names, tries)


def lead_match(text: str) -> re.Match[str] | None:
    """The match of a noble's lead in a cleaned line (None when the line is none), found in
    time linear in the line's length (see :data:`_LEAD_NOBLE`)."""
    if _CAN_NOBLE.match(text):
        return _LEAD_NOBLE.match(text)
    if _CAN_NAMED.match(text):
        return _LEAD_NAMED.match(text)
    return None


#: The words of Pyramid's orders: those an order starts with (beside a number, a land or a
#: noble), so that a plain line starting with none of them is not read as an order; and every
#: other word of their forms, each misspelt one told what it may be.
WORDS = OrderWords(
    starts=("assign", "staff", "noble", "move", "build", "continue", "claim", "convert",
            "excess", "births", "birth", "new", "starve", "starving", "hunger", "if", "vanish",
            "troops", "serfs", "priests"),
    others=(*SIZES, *_KIND, "units", "unit", "of", "to", "on", "at", "in", "into", "the", "a",
            "an", "my", "all", "and", "then", "land", "staffing", "with", "leads", "leading",
            "from", "moves", "pyramid", "pyramids", "no", "stone", "stones", "dead", "claiming",
            "unstaffed", "food", "population", "becomes", "hungry", "runs", "short", "lose",
            "first"))


def _not_an_order(text: str, names: Names, tries: str | None = None) -> OrderSyntaxError:
    """Why no order pattern read ``text``: a mistyped order, or chatter not read at all."""
    return WORDS.rejected(text, f"not an order: '{text}'", [names.spaces, names.nobles],
                          examples(None, None) if tries is None else tries)


def parse(post: str, state: State, player: str | None = None) -> ParseResult[Order]:
    """A whole post of ``player``'s into orders and per-line errors."""
    names = names_of(state)
    tries = examples(state, player)
    return parse_post(post, WORDS.reading(lambda line: parse_line(line, names, tries),
                                          [names.spaces, names.nobles, names.dead]))


def numbered(orders: Orders[Order], rules: Params) -> Orders[Order]:
    """The orders with each one's ``line`` as the rules number a player's lines: once across
    their posts (``line_numbers = across_posts``: the envelope's number), so two orders of two
    posts never share one, or by the line of its own post (``each_post``, the reading of
    versions 1 and 2). Validation and every step read the same numbers."""
    if rules.line_numbers != "across_posts":
        return orders

    def renumber(sent: Orders[Order]) -> Orders[Order]:
        return Orders(e if e.order.line == e.number else replace(e, order=replace(
            e.order, line=e.number)) for e in sent.envelopes)

    return orders.derived("pyramid numbered lines", renumber)


def validate(state: State, orders: Orders[Order], ctx: Context) -> Problems:
    """Every problem of every player's orders, by player (players without problems absent),
    each naming the line as the player's orders number it, once across their posts
    (``line_numbers = each_post``: by its line in its own post)."""
    problems: Problems = {}
    numbered_orders = numbered(orders, ctx.rules)
    for pid in orders:
        errs = check_orders(state, pid, numbered_orders[pid], ctx.rules)
        if errs:
            problems[pid] = errs
    return problems


def _forces_text(troops: int, pyramids: tuple[PyramidRef, ...]) -> str:
    parts = ([f"{troops} troops"] if troops else []) + [str(p) for p in pyramids]
    return " and ".join(parts) if parts else "nothing"


def describe(order: Order) -> str:
    """An order in words, as the GM reads it back to the player."""
    if isinstance(order, AssignSerfs):
        return f"{order.count} serfs work {order.space}"
    if isinstance(order, StaffPyramid):
        return f"{order.count} priests staff {order.pyramid}"
    if isinstance(order, Lead):
        return (f"{order.noble} leads {_forces_text(order.troops, order.pyramids)} to "
                f"{' then '.join(order.path)}" + (", claiming pyramids" if order.claim else ""))
    if isinstance(order, Move):
        return (f"{_forces_text(order.troops, order.pyramids)} move from {order.origin} to "
                f"{' then '.join(order.path)}")
    if isinstance(order, Build):
        where = f" at {order.space}" if order.space else ""
        num = f" {order.number}" if order.number is not None else ""
        dead = f", DEAD {', '.join(order.dead)}" if order.dead else ""
        return f"build {order.size} pyramid{num}{where}: {order.stone} stone{dead}"
    if isinstance(order, Claim):
        return f"claim unstaffed pyramids at {order.space}"
    if isinstance(order, Births):
        return "excess food becomes " + ", ".join(f"{c} {k}" for k, c in order.pattern)
    return "when food runs short, lose " + ", then ".join(order.kinds) + " first"


__all__ = ["AssignSerfs", "Births", "Build", "Claim", "Lead", "Move", "NobleRef", "Order",
           "POPULATION", "PyramidRef", "StaffPyramid", "Starve", "check_orders", "describe",
           "names_of", "parse", "parse_line", "validate"]
