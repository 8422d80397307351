"""The names a player may write in AZTLAN's orders: the empires, and the board's sectors.

Names are written as the rules write them (2.6): a city by its three-letter designation
(``Ten``, ``Tto``...), its full name (case and accents do not matter) or an unambiguous prefix;
a numbered sector by its number; the desert as ``Chi`` or ``desert``; an empire by its name,
singular forms accepted (2.1).
"""

from __future__ import annotations

import functools
import re

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.orders import OrderSyntaxError, join_alternatives
from gmkit.core.names import NameIndex
from gmkit.rulesets.aztlan.board.geography import DESERT, DESERT_ABBR, EMPIRES

__all__ = ["names", "one_name", "player_index", "player_name", "sector_index"]

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
def sector_index(game_map: PolygonBoard, cities_only: bool = False) -> NameIndex:
    """Names a player may use for the board's land sectors (or only its cities).

    Full names, rule 2.6 designations (``Ten``, ``Tto``, ``7``) and, for the
    desert, ``Chi`` and ``desert``.
    """
    land = [n for n in game_map.land()
            if not cities_only or game_map.regions[n].props.get("city") is True]
    aliases: dict[str, str] = {}
    for name in land:
        abbr = game_map.regions[name].props.get("abbr")
        if isinstance(abbr, str) and abbr and abbr != name:
            aliases[abbr] = name
    if DESERT in land:
        aliases.update({DESERT_ABBR: DESERT, "desert": DESERT, "the desert": DESERT})
    return NameIndex(land, kind="city" if cities_only else "sector", aliases=aliases)


def player_name(text: str) -> str:
    """The empire named by ``text`` (``the Aztecs``, ``Aztec``, ``Mexica``)."""
    return player_index().resolve(re.sub(r"^\s*the\s+", "", text, flags=re.IGNORECASE))


def names(text: str, index: NameIndex, what: str) -> tuple[str, ...]:
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


def one_name(text: str, index: NameIndex, what: str, example: str) -> str:
    """Resolve exactly one name; ``example`` shows the player how to write it."""
    found = names(text, index, what)
    if len(found) != 1:
        raise OrderSyntaxError(f"name one {what}, not {len(found)} ({join_alternatives(list(found), 'and')}): "
                               f"e.g. '{example}'")
    return found[0]

