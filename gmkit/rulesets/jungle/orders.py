"""A council session's posts: each house's two rounds of actions, and the GM's civilization
figures, read into typed orders with every rejected line and its reason.

A house posts both rounds at once. Lines under a heading ``Morning`` (or ``First actions``) are
first actions, lines under ``Afternoon`` (``Second actions``) second actions; without headings a
character's first line is his Morning action and his second line his Afternoon action::

    [b]Morning[/b]
    [b]Gualpa: Attack (Duel) Xoco[/b]
    [b]Afternoon[/b]
    [b]Gualpa: Toil[/b]

The GM (poster ``gm``, :data:`gmkit.core.ruleset.GM_POSTER`) posts what the Civilization game shows, one line per city,
unit or completed item (:mod:`gmkit.rulesets.jungle.figures`); each line becomes a
:class:`FigureLine` order, checked against the state with the same line-naming errors as orders
(an unknown city, a negative health, a unit that does not exist), and stored with the turn as
the post it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union

import polars as pl

from gmkit.core.envelope import Orders
from gmkit.core.orders import OrderError, OrderSyntaxError, ParseResult, PostLine, size_problems
from gmkit.core.names import NameIndex
from gmkit.core.params import Params
from gmkit.core.parts import Context
from gmkit.core.ruleset import Problems
from gmkit.core.tables import State, frame
import gmkit.rulesets.jungle.actions as A
from gmkit.rulesets.jungle.figures import Figures, check_figures, parse_figures
from gmkit.rulesets.jungle.action_lines import parse as parse_round
from gmkit.rulesets.jungle.proposals import LINE, RuleProposal, parse_line
from gmkit.rulesets.jungle.state import FIGURE_SCHEMAS, house_of_player
from gmkit.rulesets.jungle.world import CIV

# possessive runs (``*+``) and a name read up to its colon: linear on any line
HEADING = re.compile(r"^(?:\[/?b\]|</?b>|\s)*+(?P<h>morning|first actions?|afternoon|"
                     r"second actions?)(?:\s*+:)?(?:\[/?b\]|</?b>|\s)*+$", re.I)
NAME = re.compile(r"^(?:\[[^\]]*+\]|<[^>]*+>|\s)*+(?P<n>[^:\[\]<>]++):")


@dataclass(frozen=True)
class FigureLine:
    """One line of the GM's civilization figures: the table it fills and its row."""

    table: str
    row: tuple[tuple[str, Any], ...]

    def as_dict(self) -> dict[str, Any]:
        """The row as a mapping of column to value."""
        return dict(self.row)


#: What a post holds: a character's action, a rule proposal, or a line of the civilization
#: figures.
JungleOrder = Union[A.Action, RuleProposal, FigureLine]
TAGS = re.compile(r"\[/?[a-z]+(?:=[^\]]*)?\]|<[^>]+>", re.I)


def _lines(post: str) -> list[str]:
    """The physical lines of a post as every other reader numbers them: ``\\r\\n``, ``\\r``
    or ``\\n`` ends one (not the other separators ``str.splitlines`` knows)."""
    return post.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _slots(post: str) -> list[int]:
    """The round (1 or 2) each physical line of a post belongs to; 0 for a heading."""
    lines = _lines(post)
    headed = any(HEADING.match(x) for x in lines)
    out: list[int] = []
    slot = 1
    seen: set[str] = set()
    for text in lines:
        if LINE.match(TAGS.sub("", text)):
            out.append(0)
            continue
        m = HEADING.match(text)
        if m:
            slot = 1 if m["h"].lower().startswith(("morning", "first")) else 2
            out.append(0)
            continue
        if headed:
            out.append(slot)
            continue
        n = NAME.match(text)
        key = n["n"].strip().casefold() if n else ""
        out.append(2 if key and key in seen else 1)
        if key:
            seen.add(key)
    return out


def parse_house(post: str, state: State, house: str, rules: Params) -> ParseResult[JungleOrder]:
    """A house's post for both rounds into actions and per-line errors (line numbers are the
    post's own)."""
    lines = _lines(post)
    slots = _slots(post)
    out: ParseResult[JungleOrder] = ParseResult()
    empty: list[OrderError] = []
    for slot in (1, 2):
        text = "\n".join(x if s == slot else "" for x, s in zip(lines, slots))
        if not text.strip():
            continue
        result = parse_round(text, state, house, slot, rules)
        out.orders += result.orders
        out.unread += result.unread
        for e in result.errors:
            (empty if e.line is None else out.errors).append(e)
    people = NameIndex(state["characters"]["name"].to_list(), kind="character")
    for number, text in enumerate(lines, 1):
        plain = TAGS.sub("", text).strip()
        try:
            proposal = parse_line(plain, house, people.resolve)
        except OrderError as err:
            out.errors.append(err.at(number, plain))
            continue
        if proposal is not None:
            out.orders.append((PostLine(number, plain, True), proposal))
    out.orders.sort(key=lambda lo: lo[0].number)
    out.errors.sort(key=lambda e: e.line or 0)
    read = {line.number for line, _ in out.orders} | {e.line for e in out.errors}
    out.unread = sorted((x for x in out.unread if x.number not in read), key=lambda x: x.number)
    if not out.orders and not out.errors:
        out.errors = empty[:1] or [OrderSyntaxError("no action in this post: write "
                                                    "'[b]<Character>: <Action>[/b]'")]
    return out


def figures_of(orders: Sequence[object], texts: Mapping[int, str] | None = None) -> Figures:
    """The figure frames of a civilization post's orders (``texts``: each line's text, for
    error messages)."""
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in FIGURE_SCHEMAS}
    for order in orders:
        if isinstance(order, FigureLine):
            rows[order.table].append(order.as_dict())
    tables = {name: frame(r, FIGURE_SCHEMAS[name], table=name) for name, r in rows.items()}
    return Figures(tables, [], dict(texts or {}))


def parse_civ(post: str) -> ParseResult[JungleOrder]:
    """The GM's figures, one :class:`FigureLine` per line read."""
    figures = parse_figures(post)
    out: ParseResult[JungleOrder] = ParseResult(errors=list(figures.errors))
    for name, table in figures.tables.items():
        for row in table.to_dicts():
            line = PostLine(int(row["line"]), figures.texts.get(int(row["line"]), ""), True)
            out.orders.append((line, FigureLine(name, tuple(row.items()))))
    out.orders.sort(key=lambda lo: lo[0].number)
    if not out.orders and not out.errors:
        out.errors.append(OrderSyntaxError("no figure in this post: try 'city Tenochtitlan: "
                                           "citizens 3, food 2'"))
    return out


def parse(post: str, player: str, state: State, rules: Params) -> ParseResult[JungleOrder]:
    """A post of a house's player or of the GM's desk (refused whole beyond the size
    limits)."""
    too_big = size_problems(post)
    if too_big:
        return ParseResult(errors=list(too_big))
    if player == CIV:
        return parse_civ(post)
    return parse_house(post, state, house_of_player(state, player), rules)


def validate(state: State, orders: Orders[JungleOrder], ctx: Context) -> Problems:
    """Every problem the lines do not show alone, by player, each naming its line: the
    figures checked against the state; a character given two actions for a round across a
    house's several posts."""
    problems: Problems = {}
    for player in orders:
        sent = orders.of(player)
        errs: list[OrderError] = []
        if player == CIV:
            texts = {e.number: e.text for e in sent}
            checked = check_figures(state, figures_of([e.order for e in sent], texts),
                                    ctx.rules)
            errs = [e for e in checked.errors if e.line is not None]
        else:
            seen: dict[tuple[str, int, str], int] = {}
            for e in sent:
                order = e.order
                if isinstance(order, RuleProposal):
                    continue
                if not isinstance(order, A.Action):
                    errs.append(e.reject("only the GM's desk posts figures"))
                    continue
                key = (order.who, order.slot, order.by)
                if key in seen:
                    errs.append(e.reject(
                        f"{order.who} already has a {'Morning' if order.slot == 1 else 'Afternoon'}"
                        f" action (line {seen[key]})"))
                else:
                    seen[key] = e.number
        if errs:
            problems[player] = errs
    return problems


def describe(order: JungleOrder) -> str:
    """An order in words, to read back to the player."""
    if isinstance(order, RuleProposal):
        offered = ", ".join(f"{who} {n} {attr}" for who, attr, n in order.offering)
        return f"rule proposal ({order.total} points: {offered}): {order.text}"
    if isinstance(order, FigureLine):
        row = order.as_dict()
        name = row.get("city") or row.get("unit") or row.get("item") or "the empire"
        values = ", ".join(f"{k} {v}" for k, v in row.items()
                           if k not in ("line", "city", "unit", "item") and v is not None)
        return f"{order.table.replace('_', ' ')}: {name}: {values}"
    part = "Morning" if order.slot == 1 else "Afternoon"
    fields = {k: v for k, v in vars(order).items()
              if k not in ("who", "slot", "line", "by", "both") and v not in (None, "", ())}
    detail = ", ".join(f"{k} {getattr(v, 'value', v)}" for k, v in fields.items())
    both = " (both actions)" if order.both else ""
    return f"{part}: {order.who}: {order.keyword}{both}{' — ' + detail if detail else ''}"
