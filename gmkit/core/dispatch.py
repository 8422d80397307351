"""From an order's type to its effect, and what happens when the action turns out void.

A game resolved action by action keeps one effect function per kind of order. A
:class:`Dispatch` maps order classes to those functions and calls the right one for an
:class:`~gmkit.core.envelope.Envelope`; an effect that finds, when its turn comes, that the
action cannot be taken raises :class:`VoidAction` with the rule and the reason, and the
dispatch answers with what its ``on_void`` callback makes of it: by default
:func:`void_result`, the state unchanged and the core's :func:`~gmkit.core.steps.void_event`
told to the player; a ruleset with its own words for a void action passes its own callback.

Effects take ``(subject, order, *args)``: ``subject`` is what the effect works on (a
:class:`~gmkit.core.tables.State`, or a ruleset's own record of the action under way) and
``args`` whatever else the ruleset passes (the dice, the rules in force).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from gmkit.core.envelope import Envelope
from gmkit.core.steps import Event, void_event
from gmkit.core.tables import State

__all__ = ["Dispatch", "UnknownAction", "VoidAction", "void_result"]

S = TypeVar("S")
R = TypeVar("R")


class VoidAction(Exception):
    """An accepted action that cannot be taken when its turn comes: the ``rule`` that voids
    it and the ``reason``, in words a player can read (``str()`` of it is the reason).

    >>> str(VoidAction("4.2", "Amber has no AP left"))
    'Amber has no AP left'
    """

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(reason)
        self.rule = rule
        self.reason = reason


class UnknownAction(TypeError):
    """An order of a type the dispatch has no effect for (a ruleset's own error, not the
    player's: validation accepted an order nothing resolves)."""


def void_result(state: State, envelope: Envelope[Any], void: VoidAction,
                *args: Any) -> tuple[State, list[Event]]:
    """The default answer to a void action: ``state`` unchanged and one
    :func:`~gmkit.core.steps.void_event` told to the player who posted it, naming the line.

    >>> _, [e] = void_result(State(1), Envelope("dig", "Amber", 3, 2), VoidAction("4", "no AP"))
    >>> e.kind, e.rule, e.text, e.public
    ('void', '4', 'Amber: line 2 is void: no AP.', False)
    """
    return state, [void_event(envelope.player, void.rule, void.reason, line=envelope.line)]


class Dispatch(Generic[S, R]):
    """Order class -> effect; called with a subject and an envelope, it runs the effect of
    the envelope's order, or, when the effect raises :class:`VoidAction`, returns
    ``on_void(subject, envelope, void, *args)`` (default :func:`void_result`, which fits
    effects returning ``(state, events)``).

    An order's effect is the one registered for its class, else for its nearest registered
    base class; an order of no registered class raises :class:`UnknownAction`.

    >>> class Dig:
    ...     pass
    >>> def dig(state, order, depth):
    ...     if depth > 3:
    ...         raise VoidAction("4.1", "too deep")
    ...     return state, [Event("dig", "4.1", f"dug {depth}")]
    >>> dispatch = Dispatch({Dig: dig})
    >>> _, [e] = dispatch(State(1), Envelope(Dig(), "Amber", 7, 1), 2)
    >>> e.text
    'dug 2'
    >>> _, [e] = dispatch(State(1), Envelope(Dig(), "Amber", 7, 1), 5)
    >>> e.kind, e.text
    ('void', 'Amber: line 1 is void: too deep.')
    """

    def __init__(self, effects: Mapping[type[Any], Callable[..., R]], *,
                 on_void: Callable[..., R] | None = None) -> None:
        self.effects: dict[type[Any], Callable[..., R]] = dict(effects)
        # the default fits effects returning (state, events), which R cannot say
        self.on_void: Callable[..., R] = (
            on_void if on_void is not None else void_result)  # type: ignore[assignment]

    def effect(self, order: Any) -> Callable[..., R]:
        """The effect of ``order``: its class's, else its nearest registered base's."""
        for cls in type(order).__mro__:
            fn = self.effects.get(cls)
            if fn is not None:
                return fn
        raise UnknownAction(f"no effect for an order of type {type(order).__name__} "
                            f"({order!r})")

    def __contains__(self, order: Any) -> bool:
        """Whether an order has an effect here."""
        return any(cls in self.effects for cls in type(order).__mro__)

    def __call__(self, subject: S, envelope: Envelope[Any], *args: Any) -> R:
        """The effect of ``envelope``'s order on ``subject`` (``effect(subject, order,
        *args)``), or ``on_void(subject, envelope, void, *args)`` when it is void."""
        fn = self.effect(envelope.order)
        try:
            return fn(subject, envelope.order, *args)
        except VoidAction as void:
            return self.on_void(subject, envelope, void, *args)
