"""Board kinds: what every game board answers, whatever its shape.

gmkit knows three kinds of board:

* ``"polygon"``: provinces drawn as polygons, adjacency derived from shared borders
  (:class:`gmkit.core.boards.polygon.PolygonBoard`);
* ``"graph"``: named places and the pairs of places that touch, nothing more
  (:class:`gmkit.core.boards.graph.GraphBoard`);
* ``"hex"``: a grid of hexagons in cube coordinates, unbounded unless told otherwise
  (:class:`gmkit.core.boards.hexgrid.HexBoard`).

Rules code that only needs adjacency and terrain talks to the :class:`Board` protocol, so a
ruleset can move between board kinds without touching its adjudication::

    def can_move(board: Board[P], src: P, dst: P) -> bool:
        return board.contains(dst) and dst in board.neighbours(src)

A place is whatever identifies a spot on the board: a province or place name (``str``) on
polygon and graph boards, a :class:`~gmkit.core.boards.hexgrid.Hex` on a hex grid. Players
type places in orders; :meth:`Board.parse_place` turns the typed text into a place (through
the board's :class:`~gmkit.core.names.NameIndex` when its places have names) and
:meth:`Board.place_text` writes a place back the way a player would type it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Literal, Protocol, TypeVar, runtime_checkable

from gmkit.core.names import NameIndex

__all__ = ["Board", "BoardError", "BoardKind", "BOARD_KINDS", "Place"]

#: The kinds of board gmkit knows.
BoardKind = Literal["polygon", "graph", "hex"]
BOARD_KINDS: tuple[BoardKind, ...] = ("polygon", "graph", "hex")

Place = TypeVar("Place", bound=Hashable)
_P = TypeVar("_P", bound=Hashable)


class BoardError(ValueError):
    """A board file or board data that cannot be used.

    The message names the source (a file name, a package resource or the ``source`` given to a
    loader), then every problem found, each naming the place concerned.

    Attributes:
        source: where the board came from.
        problems: each problem, in words, without the source.
    """

    def __init__(self, source: str, problems: Sequence[str]) -> None:
        self.source = source
        self.problems: tuple[str, ...] = tuple(problems)
        if len(self.problems) == 1:
            message = f"{source}: {self.problems[0]}"
        else:  # the file named once, then every problem on a line of its own
            message = f"{source}: {len(self.problems)} problems:\n" + "\n".join(
                f"  {p}" for p in self.problems
            )
        super().__init__(message)


#: The largest board file gmkit reads (the shipped boards are a few dozen kilobytes).
MAX_BOARD_BYTES = 16 * 1024 * 1024
#: The most places a graph board or polygon map may have (the shipped ones have a few dozen to
#: a few hundred): a board beyond it is refused before it is built, at once.
MAX_PLACES = 10_000


def too_many_places(count: int) -> str:
    """Why a board of ``count`` places is refused."""
    return f"{count:,} places, more than the {MAX_PLACES:,} a board may have"


def read_board_file(path: str | Path) -> bytes:
    """The bytes of a board file: only a regular file (never a pipe or a device, which could
    block or never end) of at most :data:`MAX_BOARD_BYTES`; else :class:`BoardError`."""
    path = Path(path)
    try:
        if not path.is_file():
            what = "no such file" if not path.exists() else "not a regular file"
            raise BoardError(str(path), [f"cannot read the board: {what}"])
        with open(path, "rb") as f:
            data = f.read(MAX_BOARD_BYTES + 1)
    except OSError as e:
        raise BoardError(str(path), [f"cannot read the board: {e.strerror or e}"]) from None
    if len(data) > MAX_BOARD_BYTES:
        raise BoardError(str(path), [f"larger than {MAX_BOARD_BYTES} bytes, the most a board "
                                     "file may be"])
    return data


@runtime_checkable
class Board(Protocol[_P]):
    """What every board kind answers.

    Attributes:
        kind: ``"polygon"``, ``"graph"`` or ``"hex"``.
        names: the index resolving typed names to places for boards whose places have names,
            ``None`` for boards whose places are written as coordinates (hex grids).
    """

    @property
    def kind(self) -> BoardKind:
        """The board's kind, one of :data:`BOARD_KINDS`."""
        ...

    @property
    def names(self) -> NameIndex | None:
        """The name index for order parsing, or ``None`` when places have no names."""
        ...

    def contains(self, place: object) -> bool:
        """Whether ``place`` is a place of this board."""
        ...

    def neighbours(self, place: _P) -> frozenset[_P]:
        """The places adjacent to ``place`` (only places of this board)."""
        ...

    def place_kind(self, place: _P) -> str:
        """The place's terrain or kind: ``"land"``, ``"sea"``, ``"food"``, a biome..."""
        ...

    def parse_place(self, text: str) -> _P:
        """The place a player means by ``text``.

        Raises:
            ValueError: naming ``text`` when it is no place of the board (on named boards an
                :class:`~gmkit.core.orders.UnknownNameError` or
                :class:`~gmkit.core.orders.AmbiguousOrderError`, both ``ValueError``).
        """
        ...

    def place_text(self, place: _P) -> str:
        """``place`` written the way a player types it; :meth:`parse_place` reads it back."""
        ...
