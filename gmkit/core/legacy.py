"""Rulesets written to the interface before :mod:`gmkit.core.parts`, on the current one.

A ruleset subclassing :class:`LegacyRuleset` keeps its methods (``player_colours(state, rules)``,
``board()``, ``players_to_move(state)``...); this class declares the parts from them and lets its
hooks take a :class:`~gmkit.core.parts.Context` (and still the rules alone, as their tests call
them). It exists while rulesets move to the declared parts, one by one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from gmkit.core.envelope import Orders
from gmkit.core.orders import OrderError, ParseResult, PostLine
from gmkit.core.params import Params
from gmkit.core.parts import (BoardSpec, Bot, Context, Importer, LifeCycle, Presentation,
                              Views)
from gmkit.core.ruleset import O, Problems, Ruleset
from gmkit.core.tables import State


def _rules(arg: Any) -> Any:
    return arg.rules if isinstance(arg, Context) else arg


def _rules_last(f: Callable[..., Any], at: int) -> Callable[..., Any]:
    """``f`` taking a context (or the rules) at position ``at`` (after self) and given rules."""
    @functools.wraps(f)
    def wrapped(self: Any, *args: Any, **kw: Any) -> Any:
        args = tuple(_rules(a) if i == at else a for i, a in enumerate(args))
        if "rules" in kw:
            kw["rules"] = _rules(kw["rules"])
        if "ctx" in kw:
            kw["rules"] = _rules(kw.pop("ctx"))
        return f(self, *args, **kw)
    return wrapped


def _parsed(orders: Orders[Any]) -> dict[str, ParseResult[Any]]:  # noqa: D401
    """Orders as the per-player parse results the old ``validate`` read (line numbers unique
    per player)."""
    out: dict[str, ParseResult[Any]] = {}
    for e in orders.envelopes:
        out.setdefault(e.player, ParseResult()).orders.append(
            (PostLine(e.number, e.text, False), e.order))
    return out


class _Part:
    """A part declared from a legacy ruleset's methods, when first read."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type[LegacyRuleset[Any]]) -> Any:
        return owner._legacy_parts()[self.name]


class LegacyRuleset(Ruleset[O]):
    """A ruleset of the former interface (see the module's docstring)."""

    _rules_at = {"steps": 0, "outcome": 1, "standings": 1, "parse_post": 3, "odds": 2,
                 "void_now": 2}

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        for name, at in cls._rules_at.items():
            if name in cls.__dict__:
                setattr(cls, name, _rules_last(cls.__dict__[name], at))
        for name in ("setup", "validate"):
            if name in cls.__dict__:
                setattr(cls, f"_legacy_{name}", cls.__dict__[name])
                setattr(cls, name, getattr(LegacyRuleset, f"_{name}"))
        if callable(cls.__dict__.get("board")):
            setattr(cls, "_legacy_board", cls.__dict__["board"])
        if "view" in cls.__dict__:  # a ruleset that changed the whole view: the door itself
            whole = cls.__dict__["view"]
            setattr(cls, "view", lambda self, s, v, ctx=None: whole(self, s, v))
        for part in ("board", "views", "presentation", "lifecycle", "importer", "bot"):
            setattr(cls, part, _Part(part))

    @classmethod
    def _legacy_parts(cls) -> dict[str, Any]:
        cached = cls.__dict__.get("_parts_cache")
        if cached is not None:
            return cached  # type: ignore[no-any-return]
        inst = cls()

        def own(name: str) -> Any:
            for k in cls.__mro__:
                if k is LegacyRuleset:
                    return None
                if name in k.__dict__:
                    return getattr(inst, name)
            return None

        def by_rules(name: str) -> Any:
            f = own(name)
            return None if f is None else (lambda *a: f(*a[:-1], _rules(a[-1])))

        def attr(name: str, default: Any) -> Any:
            return getattr(cls, name, default)

        public, player = own("public_state"), own("player_state")
        gm_only, headline = own("gm_only_columns"), own("headline")
        labels, series, holdings = own("metric_labels"), own("series_subjects"), own("holdings")
        arrows, joined, enacted = own("order_arrows"), own("joined"), own("enacted")
        counted, importer, bot = own("counted_posts"), own("import_posts"), own("bot_post")
        parts: dict[str, Any] = {
            "board": BoardSpec(kind=attr("board_kind", "polygon"),
                               packaged=attr("packaged_board", None),
                               default=own("_legacy_board"), check=own("check_board"),
                               frame=attr("map_frame", None)),
            "views": Views(
                gm_only=gm_only() if gm_only else (),
                public=(lambda s, c: public(s)) if public else None,
                player=(lambda s, p, who, c: player(s, who)) if player else None),
            "presentation": Presentation(
                colours=by_rules("player_colours"), scene=by_rules("scene"),
                arrows=(lambda s, o, ev, c: arrows(s, o, ev, _rules(c))) if arrows else None,
                describe=own("describe_order") or str,
                headline=headline() if headline else None,
                labels=labels() if labels else {}, subject=attr("standings_subject", "player"),
                series=series() if series else {}, subject_table=by_rules("subject_table"),
                holdings=(lambda s, c: holdings(s)) if holdings else None,
                places=own("place_properties"), links=own("links")),
            "lifecycle": LifeCycle(
                to_move=own("players_to_move"), example_players=own("example_players"),
                check_players=own("check_players"), joins=own("joins"),
                joined=(lambda s, b, a, c: joined(s, b, a, _rules(c))) if joined else None,
                enacted=(lambda b, a, c: enacted(b, a, _rules(c))) if enacted else None,
                gm_posts=attr("gm_posts", False), counted=counted if counted else "all",
                chance=attr("chance", True)),
            "importer": Importer(attr("imports", ""), importer)
            if importer is not None and attr("imports", None) else None,
            "bot": Bot(lambda s, p, c, d: bot(s, p, _rules(c), d)) if bot else None,
        }
        setattr(cls, "_parts_cache", parts)
        return parts

    def _setup(self, *args: Any) -> State:
        if len(args) == 1 and isinstance(args[0], Context):
            ctx = args[0]
            return self._legacy_setup(ctx.players, ctx.board, ctx.rules)  # type: ignore
        return self._legacy_setup(*args)  # type: ignore

    def _validate(self, state: State, orders: Orders[O] | Mapping[str, ParseResult[O]],
                  ctx: Context | Params) -> Problems:
        parsed = _parsed(orders) if isinstance(orders, Orders) else orders
        found: dict[str, list[OrderError]] = self._legacy_validate(  # type: ignore
            state, parsed, _rules(ctx))
        return found

