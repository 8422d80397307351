"""Finding the noble or pyramid a player's order names, shared by validation and the steps."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gmkit.core.orders import AmbiguousOrderError, IllegalOrderError, OrderError
from gmkit.rulesets.pyramid.order_types import NobleRef, PyramidRef

Row = dict[str, Any]


def find_noble(ref: NobleRef, nobles: Sequence[Row], player: str) -> Row:
    """The player's living noble ``ref`` names; raises an :class:`OrderError` when none."""
    mine = [n for n in nobles if n["player"] == player]
    for n in mine:
        if (ref.number is not None and n["number"] == ref.number) or n["name"] == ref.name:
            return n
    if ref.name is not None and any(n["name"] == ref.name for n in nobles):
        raise IllegalOrderError(f"{ref.name} is not one of your nobles")
    have = ", ".join(f"noble {n['number']} ({n['name']})" for n in mine) or "none"
    raise IllegalOrderError(f"you have no {ref} (your living nobles: {have})")


def find_pyramid(ref: PyramidRef, pyramids: Sequence[Row], player: str, *,
                 space: str | None = None, built: bool | None = None) -> Row:
    """The player's pyramid ``ref`` names, at ``space`` when given; raises an
    :class:`OrderError` when none or several match."""
    mine = [p for p in pyramids if p["player"] == player
            and (built is None or bool(p["built"]) == built)]
    if ref.number is not None:
        found = [p for p in mine if p["number"] == ref.number]
        if found and ref.size is not None and found[0]["size"] != ref.size:
            raise IllegalOrderError(f"pyramid {ref.number} is a {found[0]['size']} pyramid, "
                                    f"not a {ref.size} one")
    else:
        found = [p for p in mine if p["size"] == ref.size]
    where = f" at {space}" if space is not None else ""
    if space is not None:
        elsewhere = found
        found = [p for p in found if p["space"] == space]
        if not found and elsewhere:
            raise IllegalOrderError(f"{ref} is at {elsewhere[0]['space']}, not {space}")
    if not found:
        raise IllegalOrderError(f"you have no {ref}{where}".replace("no the ", "no "))
    if len(found) > 1:
        listed = [f"{p['size']} pyramid {p['number']}" for p in found]
        raise AmbiguousOrderError(f"you have {len(found)} {ref.size} pyramids{where}: say which "
                                  f"({', '.join(listed)})", candidates=listed)
    return found[0]




def build_target(size: str, number: int | None, space: str | None, pyramids: Sequence[Row],
                 player: str, home: str, held: set[str]) -> tuple[Row | None, str]:
    """Which pyramid a build order gives to: ``(row, space)`` for one already begun, or
    ``(None, space)`` for a new one at ``space``.

    By number: that unfinished pyramid. At a space: the unfinished one of that size there, else
    a new one. Neither: the only unfinished one of that size, else a new one at home."""
    begun = [p for p in pyramids if p["player"] == player and not p["built"]
             and p["size"] == size]
    if number is not None:
        found = [p for p in pyramids if p["player"] == player and p["number"] == number]
        if not found:
            raise IllegalOrderError(f"you have no pyramid {number}")
        if found[0]["built"]:
            raise IllegalOrderError(f"pyramid {number} is built already")
        if found[0]["size"] != size:
            raise IllegalOrderError(f"pyramid {number} is a {found[0]['size']} pyramid")
        return found[0], str(found[0]["space"])
    if space is not None:
        here = [p for p in begun if p["space"] == space]
        if here:
            return here[0], space
        if space not in held:
            raise IllegalOrderError(f"cannot build at {space}: you do not hold it")
        return None, space
    if len(begun) > 1:
        listed = [f"{size} pyramid {p['number']}" for p in begun]
        raise AmbiguousOrderError(f"you have {len(begun)} unfinished {size} pyramids: say which "
                                  f"({', '.join(listed)})", candidates=listed)
    if begun:
        return begun[0], str(begun[0]["space"])
    if home not in held:
        raise IllegalOrderError(f"you no longer hold {home}: say where ('build {size} pyramid "
                                "at <land>: ...')")
    return None, home


__all__ = ["OrderError", "build_target", "find_noble", "find_pyramid"]
