"""Boards shipped inside a ruleset's package, read through :mod:`importlib.resources`.

A ruleset names the board it ships with ``board.packaged``: a resource path relative to the
package its class lives in, ``"board/cien.geojson"`` for :class:`~gmkit.rulesets.cien.Cien` in
``gmkit.rulesets.cien``. The board is package data, so it is there wherever gmkit is installed,
not only in a checkout. A GM's own board is any file passed to ``Game.new(map_path=...)``
(``gmkit new --map``); these helpers only find the board a ruleset ships.

    with board_file(ruleset) as path:       # a real file for as long as the block runs
        game_map = PolygonBoard.from_geojson(path)   # for a polygon board
    blob = board_bytes(ruleset)             # the same board as bytes
"""

from __future__ import annotations

import contextlib
import importlib.resources
import sys
from collections.abc import Iterator
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import ClassVar, Protocol

from gmkit.core.boards import BoardError, BoardKind
from gmkit.core.boards.polygon import PolygonBoard

__all__ = ["board_bytes", "board_file", "board_name", "board_resource", "default_board_map",
           "load_package_map", "package_resource", "ruleset_package"]


class _Spec(Protocol):
    @property
    def packaged(self) -> str | None: ...

    @property
    def kind(self) -> BoardKind: ...


class Ships(Protocol):
    """What these helpers read of a ruleset (or its class): its board (the one it ships, if
    any, and of which kind; see :class:`gmkit.core.parts.BoardSpec`)."""

    @property
    def board(self) -> _Spec: ...


def ruleset_package(ruleset: Ships) -> str:
    """The package a ruleset's class lives in (``"gmkit.rulesets.cien"``): where its
    ``board.packaged`` is looked up."""
    cls = ruleset if isinstance(ruleset, type) else type(ruleset)
    module = sys.modules[cls.__module__]
    return module.__package__ or cls.__module__.rpartition(".")[0]


def package_resource(package: str, resource: str) -> Traversable:
    """The resource ``resource`` (a ``/``-separated path) of ``package``, checked to exist.

    Raises:
        BoardError: naming ``package:resource`` when the package has no such file (a build
            that left out the package data, or a misspelt name).
    """
    found = importlib.resources.files(package).joinpath(*resource.split("/"))
    if not found.is_file():
        raise BoardError(f"{package}:{resource}",
                         ["no such board in the package (is the package data installed?)"])
    return found


def board_resource(ruleset: Ships) -> Traversable | None:
    """The ruleset's default board as a package resource, or ``None`` when it ships none."""
    if not ruleset.board.packaged:
        return None
    return package_resource(ruleset_package(ruleset), ruleset.board.packaged)


def board_name(ruleset: Ships) -> str | None:
    """The ruleset's default board named as ``package:resource`` (for messages), or ``None``."""
    if not ruleset.board.packaged:
        return None
    return f"{ruleset_package(ruleset)}:{ruleset.board.packaged}"


def board_bytes(ruleset: Ships) -> bytes | None:
    """The bytes of the ruleset's default board, or ``None`` when it ships none."""
    found = board_resource(ruleset)
    return None if found is None else found.read_bytes()


@contextlib.contextmanager
def board_file(ruleset: Ships) -> Iterator[Path | None]:
    """A file holding the ruleset's default board while the ``with`` block runs (the file
    itself when the package is a folder, a temporary copy when it is zipped), or ``None`` when
    the ruleset ships no board."""
    found = board_resource(ruleset)
    if found is None:
        yield None
        return
    with importlib.resources.as_file(found) as path:
        yield path


def load_package_map(package: str, resource: str) -> PolygonBoard:
    """The polygon map ``resource`` of ``package``, loaded and checked as
    :meth:`PolygonBoard.from_geojson` does."""
    with importlib.resources.as_file(package_resource(package, resource)) as path:
        return PolygonBoard.from_geojson(path)


def default_board_map(ruleset: Ships) -> PolygonBoard | None:
    """The polygon map the ruleset ships, loaded as a :class:`PolygonBoard`; ``None`` when it
    ships none or plays on another kind of board."""
    if ruleset.board.kind != "polygon":
        return None
    with board_file(ruleset) as path:
        return None if path is None else PolygonBoard.from_geojson(path)
