"""The Crown of Cien's orders: the lines players post, read into typed orders, and checked.

Forms accepted (case and accents do not matter, names by unambiguous prefix)::

    5 Grain for Defense of Coyons          Defend Coyons with 5
    5 Grain for Investing of Coyons        Invest 5 in Coyons
    10 Grain for Conquest of Tróys         Conquer Tróys with 10     Attack Tróys with 10
    Petition for Advancement, gift 20      Petition for Kingdom with a gift of 20 grain
    Gift 15 Grain to the Emperor           (a Provision of Supplies)
    Declare Kingdom                        (a Rebel, or once the Emperor is dead)
    Reward to Coyons                       (where a fulfilled mission's 25 grain go)
    Join as Teal with Vauclerc as a Duchy  (a new player taking an independent state)
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any, Union

import polars as pl

from gmkit.core.envelope import Envelope, Orders
from gmkit.core.names import NameIndex
from gmkit.core.orders import (IllegalOrderError, OrderError, OrderSyntaxError, ParseResult,
                               PostLine, extract_lines, parse_post)
from gmkit.core.params import Params
from gmkit.core.parts import Context
from gmkit.core.ruleset import Problems
from gmkit.core.tables import State
from gmkit.core.words import OrderWords
from gmkit.rulesets.cien.rules import CAPITAL, COLOURS
from gmkit.rulesets.cien.geography import geography, holdings
from gmkit.rulesets.cien.state import ACTIVE


@dataclass(frozen=True)
class Defend:
    """Grain set aside to defend a state you hold."""

    province: str
    grain: int


@dataclass(frozen=True)
class Invest:
    """Grain invested in a state you hold (+1 output per 5, or 3 for a City-State)."""

    province: str
    grain: int


@dataclass(frozen=True)
class Conquer:
    """Grain dedicated to the conquest of a neighbouring state (or one across a Great Sea)."""

    province: str
    grain: int


@dataclass(frozen=True)
class Petition:
    """A Petition of Advancement to the Emperor, with a gift of 0 to 34 grain."""

    gift: int


@dataclass(frozen=True)
class Gift:
    """Grain gifted to the Emperor (a Provision of Supplies)."""

    grain: int


@dataclass(frozen=True)
class Declare:
    """A Rebel (or anyone once the Emperor is dead) declaring a Kingdom or Republic."""

    government: str


@dataclass(frozen=True)
class Reward:
    """The state that receives a fulfilled mission's reward investment."""

    province: str


@dataclass(frozen=True)
class Join:
    """A new player taking a free or eliminated colour and an independent state."""

    colour: str
    province: str
    government: str
    lord: str = ""


Order = Union[Defend, Invest, Conquer, Petition, Gift, Declare, Reward, Join]

N = r"(?P<n>\d+)"
P = r"(?P<p>.+?)"
G = r"(?:grains?\s+)?"
PATTERNS: list[tuple[re.Pattern[str], str]] = [(re.compile(rx, re.I), kind) for rx, kind in [
    (rf"^{N}\s+{G}(?:for|to|on|in)?\s*(?:the\s+)?(?:defen[cs]e|defending)\s+(?:of|in|at|for)\s+{P}$",
     "defend"),
    (rf"^defen[cds]e?s?\s+{P}\s+(?:with|using)\s+{N}(?:\s+grains?)?$", "defend"),
    (rf"^{N}\s+{G}(?:for|to|on|in)?\s*(?:the\s+)?(?:invest(?:ing|ment)?)\s+(?:of|in|into|at)\s+{P}$",
     "invest"),
    (rf"^invest\s+{N}\s+{G}(?:in|into|on)\s+{P}$", "invest"),
    (rf"^{N}\s+{G}(?:for|to|on|in)?\s*(?:the\s+)?(?:conquest|conquering|attack)\s+(?:of|on|against)\s+{P}$",
     "conquer"),
    (rf"^(?:conquer|attack)\s+{P}\s+(?:with|using)\s+{N}(?:\s+grains?)?$", "conquer"),
    (r"^petition(?:\s+(?:of|for)\s+advancement|\s+for\s+(?:a\s+)?(?:kingdom|republic))?"
     r"(?:\s*[,;]?\s*(?:with\s+)?(?:a\s+)?gift(?:ing)?\s*(?:of\s+)?(?P<n>\d+)(?:\s+grains?)?)?$",
     "petition"),
    (rf"^gift\s+{N}\s+{G}(?:to\s+)?(?:the\s+)?emperor$", "gift"),
    (rf"^{N}\s+{G}(?:as\s+a\s+)?gift\s+(?:to\s+|for\s+)?(?:the\s+)?emperor$", "gift"),
    (r"^declare\s+(?:(?:my|our)\s+state\s+)?(?:a\s+)?(?P<g>kingdom|republic)$", "declare"),
    (rf"^(?:mission\s+)?reward\s+(?:to|in|into|for)\s+{P}$", "reward"),
    (r"^join\s+as\s+(?P<c>\w+)\s+(?:with|in|taking)\s+(?P<p>.+?)\s+as\s+(?:a\s+)?"
     r"(?P<g>duchy|city[- ]state)(?:\s*[,;]\s*lord\s+(?P<l>.+))?$", "join"),
]]


#: The words of Cien's orders: those an order starts with (beside a number of grain), so that a
#: plain line starting with none of them, nor with a province, is not read as an order; and
#: every other word of their forms, each misspelt one told what it may be.
WORDS = OrderWords(
    starts=("defend", "defends", "defence", "defense", "invest", "conquer", "attack", "petition",
            "gift", "declare", "mission", "reward", "join"),
    others=("grain", "grains", "for", "to", "on", "in", "into", "at", "of", "the", "a", "with",
            "using", "defending", "investing", "investment", "conquest", "conquering",
            "against", "advancement", "kingdom", "republic", "gifting", "emperor", "as", "my",
            "our", "state", "taking", "duchy", "city", "lord"))

#: What a rejected line offers as examples when the player holds no state (a placeholder where
#: a state of theirs would be).
YOUR_STATE = "<your state>"


def examples(state: State | None, player: str | None) -> str:
    """The orders a rejection offers to try, naming only ``player``'s own states (their home
    first), a placeholder for any other: never a state another player holds."""
    mine = YOUR_STATE
    if state is not None and player is not None:
        held = sorted(state["provinces"].filter(pl.col("owner") == player)["name"].to_list())
        homes = state["players"].filter(pl.col("id") == player)["home"].to_list()
        mine = str(homes[0]) if homes and homes[0] in held else (
            held[0] if held else YOUR_STATE)
    return (f"'5 Grain for Defense of {mine}', '5 Grain for Investing of {mine}', "
            "'10 Grain for Conquest of <a state next to yours>', "
            "'Petition for Advancement, gift 10', 'Gift 5 Grain to the Emperor'")


def _clean(text: str) -> str:
    text = re.sub(r"\s+", " ", text.strip().rstrip(".!;"))
    return text.replace("’", "'")


def parse_line(line: PostLine, provinces: NameIndex, secret: bool = False,
               tries: str | None = None) -> Order | None:
    """One line into an order; raises :class:`OrderError` with the reason (``tries``: the
    examples a line no form reads is offered, see :func:`examples`)."""
    text = _clean(line.text)
    if not text:
        return None
    for rx, kind in PATTERNS:
        m = rx.match(text)
        if not m:
            continue
        g = m.groupdict()
        if g.get("n") and len(g["n"]) > 9:
            raise OrderSyntaxError(f"{g['n'][:12]}… grain is more than any treasury holds")
        n = int(g["n"]) if g.get("n") else 0
        common: dict[str, Any] = {}
        if kind == "defend":
            return Defend(provinces.resolve(g["p"]), n, **common)
        if kind == "invest":
            return Invest(provinces.resolve(g["p"]), n, **common)
        if kind == "conquer":
            return Conquer(provinces.resolve(g["p"]), n, **common)
        if kind == "petition":
            return Petition(n, **common)
        if kind == "gift":
            return Gift(n, **common)
        if kind == "declare":
            return Declare(g["g"].lower(), **common)
        if kind == "reward":
            return Reward(provinces.resolve(g["p"]), **common)
        if kind == "join":
            colour = NameIndex(COLOURS, kind="colour").resolve(g["c"])
            gov = "city-state" if g["g"].lower().startswith("city") else "duchy"
            return Join(colour, provinces.resolve(g["p"]), gov, (g.get("l") or "").strip(),
                        **common)
    raise WORDS.rejected(text, f"not an order: '{text}'", [provinces],
                         examples(None, None) if tries is None else tries)


def describe(order: Order) -> str:
    """An order in words, as the GM reads it back to the player."""
    tag = ""
    if isinstance(order, Defend):
        return f"defend {order.province} with {order.grain} grain{tag}"
    if isinstance(order, Invest):
        return f"invest {order.grain} grain in {order.province}{tag}"
    if isinstance(order, Conquer):
        return f"conquer {order.province} with {order.grain} grain{tag}"
    if isinstance(order, Petition):
        return f"petition for advancement with a gift of {order.gift} grain{tag}"
    if isinstance(order, Gift):
        return f"gift {order.grain} grain to the Emperor{tag}"
    if isinstance(order, Declare):
        return f"declare a {order.government}{tag}"
    if isinstance(order, Reward):
        return f"mission reward to {order.province}{tag}"
    return f"join as {order.colour} with {order.province} as a {order.government}{tag}"


def province_index(state: State) -> NameIndex:
    """Names a player may use for the states on the map."""
    return _index(tuple(state["provinces"]["name"].to_list()))


@functools.lru_cache(maxsize=8)
def _index(names: tuple[str, ...]) -> NameIndex:
    return NameIndex(names, kind="province",
                     aliases={"Imperial City": CAPITAL, "Imperial City of Cien": CAPITAL,
                              "the Imperial City": CAPITAL, "City of Cien": CAPITAL})


def parse(post: str, state: State, *, secret: bool = False,
          plain_lines: bool = False, player: str | None = None) -> ParseResult[Order]:
    """A whole post of ``player``'s into orders and per-line errors. Only bold lines are orders
    ("they must be bolded using the forum bbcode"), unless ``plain_lines`` lets the plain lines
    of a post with no bold at all count (an e-mail)."""
    lines = extract_lines(post)
    if not plain_lines and lines and not any(line.bold for line in lines):
        return ParseResult(errors=[OrderSyntaxError(NOT_BOLD)])
    index = province_index(state)
    tries = examples(state, player)
    return parse_post(post, WORDS.reading(lambda line: parse_line(line, index, secret, tries),
                                          [index]))


#: Why a post with no bold line has no orders (Cien's rule).
NOT_BOLD = ("no orders found: for your orders to be valid, they must be bolded using the forum "
            "bbcode ([b]...[/b]); plain lines count only under the rule orders_format = "
            "'bold_or_plain'")


# -- validation against the state -------------------------------------------------------------

def requirements_met(state: State, pid: str, rules: Params, income: int | None = None) -> int:
    """How many of the two advancement requirements a player fulfils (provinces, income)."""
    held = state["provinces"].filter(pl.col("owner") == pid).height
    if income is None:
        income = int(state["players"].filter(pl.col("id") == pid)["income"].item())
    return int(held >= rules.requirement_provinces) + int(income >= rules.requirement_income)


def reach(state: State, pid: str, target: str) -> str | None:
    """How a player can reach ``target``: 'land', 'sea', or None when it cannot."""
    return geography(state).reach(holdings(state).get(pid, frozenset()), target)


def validate(state: State, orders: Orders[Order], ctx: Context) -> Problems:
    """Every problem of every player's orders, by player, each naming its line."""
    rules = ctx.rules
    players = {r["id"]: r for r in state["players"].iter_rows(named=True)}
    owner = dict(state["provinces"].select("name", "owner").iter_rows())
    alive = bool(state["empire"]["emperor_alive"][0])
    problems: Problems = {}
    claimed_joins: dict[str, str] = {}
    for pid in orders:
        me = players.get(pid)
        if me is None:
            problems[pid] = [IllegalOrderError(f"no player '{pid}' (colours: "
                                               f"{', '.join(COLOURS)})")]
            continue
        errs = _check(orders.of(pid), pid, me, state, owner, alive, claimed_joins, rules)
        if errs:
            problems[pid] = errs
    return problems


def _check(sent: list[Envelope[Order]], pid: str, me: dict[str, Any], state: State,
           owner: dict[str, str | None], alive: bool, claimed_joins: dict[str, str],
           rules: Params) -> list[OrderError]:
    """Every problem of one player's orders (``claimed_joins``: the independent states new
    players claimed so far this turn, added to)."""
    errs: list[OrderError] = []
    spent = 0
    seen: dict[tuple[str, str], int] = {}
    petitions = 0
    for envelope in sent:
        order = envelope.order

        def bad(reason: str) -> None:
            errs.append(envelope.reject(reason))

        if isinstance(order, Join):
            if me["status"] == ACTIVE:
                bad(f"{pid} is still in the game; only a free or eliminated colour "
                    "can be taken by a new player")
            elif order.colour != pid:
                bad(f"this post is for {pid}, not {order.colour}")
            elif owner.get(order.province) is not None or order.province == CAPITAL:
                bad(f"{order.province} is not an independent state")
            elif order.province in claimed_joins.values():
                bad(f"{order.province} is claimed by another new player this turn")
            else:
                claimed_joins[pid] = order.province
            continue
        if me["status"] != ACTIVE:
            bad(f"{pid} is {me['status']}: only 'Join as {pid} with <state> as a "
                "Duchy' can be ordered")
            continue
        key = (type(order).__name__, getattr(order, "province", ""))
        if key in seen and not isinstance(order, Gift):
            bad(f"{type(order).__name__.lower()} order repeated (first on line "
                f"{seen[key]})")
            continue
        seen[key] = envelope.number
        cost = 0
        if isinstance(order, (Defend, Invest)):
            if owner.get(order.province) != pid:
                verb = "defend" if isinstance(order, Defend) else "invest in"
                bad(f"cannot {verb} {order.province}: {pid} does not hold it")
                continue
            if order.grain <= 0:
                bad("the grain must be a positive number")
                continue
            cost = order.grain
        elif isinstance(order, Conquer):
            if owner.get(order.province) == pid:
                bad(f"{order.province} is already {pid}'s")
                continue
            how = reach(state, pid, order.province)
            if how is None:
                bad(f"cannot conquer {order.province}: it is not adjacent to a state "
                    f"{pid} holds, nor across a Great Sea one of them shares")
                continue
            if how == "sea" and order.grain <= rules.sea_preparation:
                bad(f"an attack across a Great Sea spends {rules.sea_preparation} "
                    f"grain on preparations: {order.grain} leaves nothing to fight with")
                continue
            if order.grain <= 0:
                bad("the grain must be a positive number")
                continue
            cost = order.grain
        elif isinstance(order, Petition):
            petitions += 1
            if petitions > 1:
                bad("one petition per turn")
                continue
            if not alive:
                bad("the Emperor is dead: no petition is needed, a state advances "
                    "as soon as it meets a requirement")
                continue
            if me["rebel"]:
                bad("a Rebel petitions no one: use 'Declare Kingdom' or "
                    "'Declare Republic'")
                continue
            if me["government"] not in ("city-state", "duchy"):
                bad(f"{pid} is a {me['government']} already")
                continue
            if requirements_met(state, pid, rules) == 0:
                bad(f"{pid} meets neither requirement ({rules.requirement_provinces} "
                    f"provinces, or income {rules.requirement_income})")
                continue
            if not 0 <= order.gift <= rules.max_gift:
                bad(f"a gift with a petition is 0 to {rules.max_gift} grain")
                continue
            cost = order.gift
        elif isinstance(order, Gift):
            if not alive:
                bad("the Emperor is dead")
                continue
            if order.grain <= 0:
                bad("the gift must be a positive number")
                continue
            cost = order.grain
        elif isinstance(order, Declare):
            want = "republic" if me["government"] in ("city-state", "republic") else "kingdom"
            if order.government != want:
                bad(f"a {me['government']} can only become a {want}")
                continue
            if me["government"] in ("republic", "kingdom"):
                bad(f"{pid} is a {me['government']} already")
                continue
            if alive and not me["rebel"]:
                bad("only a Rebel may declare itself; a loyal vassal petitions")
                continue
            if requirements_met(state, pid, rules) == 0:
                bad(f"{pid} meets neither requirement yet")
                continue
        elif isinstance(order, Reward):
            if owner.get(order.province) != pid:
                bad(f"the reward can only go to a state {pid} holds")
                continue
        if spent + cost > me["treasury"]:
            bad(f"over-spending: this order brings {pid}'s spending to "
                f"{spent + cost} grain, but the treasury holds {me['treasury']}")
            continue
        spent += cost
    return errs
