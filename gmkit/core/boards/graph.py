"""Graph boards: named places and which of them touch, with no geometry but a point per place.

A graph board is the board of games whose map is a diagram: places (cities, oases, temples...),
each of a kind (``"food"``, ``"stone"``, ``"land"``...), joined by routes. It is written as TOML::

    name = "The Nile"                 # optional
    kinds = ["food", "stone"]         # optional: the only kinds allowed
    connected = true                  # optional (default true): every place reachable
    edges = [["Thebes", "Luxor"]]     # optional: undirected pairs (before the tables)

    [places.Memphis]
    kind = "food"
    aliases = ["Men-nefer"]           # optional, other spellings players may type
    pos = [120, 80]                   # optional, where to draw it
    adjacent = ["Thebes", "Giza"]     # optional; must be listed both ways
    capital = true                    # any other key is kept in props

Any other top-level table (Pyramid's ``[start_areas]``) is kept in :attr:`GraphBoard.extra`
for the ruleset to read and check.

    [places.Giza]
    kind = "stone"
    adjacent = ["Memphis"]

or as two polars tables (:meth:`GraphBoard.from_frames`). Loading checks the board and reports
every problem at once, each naming the source and the place: adjacency listed one way only,
an unknown place, a place adjacent to itself, a place that cannot be reached from the others
(unless ``connected = false``), a kind outside ``kinds``. Boards shipped inside a package load
with :func:`load_package_board`.
"""

from __future__ import annotations

import importlib.resources
import re
import tomllib
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

import polars as pl

from gmkit.core.boards import MAX_PLACES, BoardError, read_board_file, too_many_places
from gmkit.core.names import NameIndex

__all__ = ["GraphBoard", "GraphPlace", "load_package_board"]

#: The largest drawing position a place may have, either way (finite, and far beyond a page).
MAX_POSITION = 1e9
#: A place's table header in a board's TOML (``[places.Camp]``), counted before parsing.
_PLACE_HEADER = re.compile(r"^[ \t]*\[[ \t]*places[ \t]*\.", re.M)
_PLACE_KEYS = ("kind", "aliases", "pos", "adjacent", "name")


@dataclass(frozen=True)
class GraphPlace:
    """One place of a graph board.

    Attributes:
        id: the place's key in the board, what :meth:`GraphBoard.neighbours` returns.
        kind: its kind (``"food"``, ``"land"``...).
        name: its display name (the id unless given).
        aliases: other spellings players may type.
        pos: where to draw it, ``(x, y)`` with y growing downwards, or ``None``.
        props: every other field, read-only.
    """

    id: str
    kind: str
    name: str = ""
    aliases: tuple[str, ...] = ()
    pos: tuple[float, float] | None = None
    props: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


class GraphBoard:
    """A board of places joined by routes; satisfies :class:`~gmkit.core.boards.Board`.

    Build one with :meth:`from_toml`, :meth:`from_file`, :meth:`from_frames` or
    :func:`load_package_board`; the constructor takes already-made places and adjacency and runs
    the same checks.

    Raises:
        BoardError: naming ``source`` and each faulty place.
    """

    def __init__(
        self,
        places: Iterable[GraphPlace],
        adjacency: Mapping[str, Iterable[str]],
        *,
        name: str = "",
        kinds: Sequence[str] | None = None,
        connected: bool = True,
        source: str = "graph board",
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        self.name = name
        self.source = source
        #: The board file's other top-level tables (a ruleset's own data about the board, such
        #: as Pyramid's ``start_areas``), read-only.
        self.extra: Mapping[str, Any] = MappingProxyType(dict(extra or {}))
        listed = list(places)
        self.places: Mapping[str, GraphPlace] = MappingProxyType({p.id: p for p in listed})
        adj = {k: tuple(dict.fromkeys(v)) for k, v in adjacency.items()}
        _validate(self.places, adj, kinds, connected, source, listed)
        self._adjacent: dict[str, frozenset[str]] = {
            p: frozenset(adj.get(p, ())) for p in self.places
        }
        try:
            self._names = NameIndex(
                [p.name or p.id for p in self.places.values()],
                kind="place",
                aliases=_aliases(self.places.values()),
            )
        except ValueError as e:
            raise BoardError(source, [str(e)]) from None
        self._by_name = {(p.name or p.id): p.id for p in self.places.values()}

    # -- loaders ----------------------------------------------------------------------------

    @classmethod
    def from_toml(cls, text: str, source: str = "graph board") -> GraphBoard:
        """The board written as TOML ``text``; ``source`` names it in errors. A text holding
        more place tables than a board may have is refused before it is parsed."""
        headers = len(_PLACE_HEADER.findall(text))
        if headers > MAX_PLACES:
            raise BoardError(source, [too_many_places(headers)])
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise BoardError(source, [f"not valid TOML: {e}"]) from None
        except RecursionError:
            raise BoardError(source, ["nested too deeply to be a board"]) from None
        return cls.from_dict(data, source)

    @classmethod
    def from_file(cls, path: str | Path) -> GraphBoard:
        """The board in a TOML file; errors name the file."""
        path = Path(path)
        data = read_board_file(path)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise BoardError(str(path), [f"not UTF-8 text (byte {e.start})"]) from None
        return cls.from_toml(text, source=str(path))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "graph board") -> GraphBoard:
        """The board from parsed TOML (see the module docstring for the fields)."""
        problems: list[str] = []
        raw = data.get("places")
        if not isinstance(raw, Mapping) or not raw:
            raise BoardError(source, ["no [places] table"])
        if len(raw) > MAX_PLACES:
            raise BoardError(source, [too_many_places(len(raw))])
        places: list[GraphPlace] = []
        adjacency: dict[str, list[str]] = {}
        for pid, entry in raw.items():
            if not isinstance(entry, Mapping):
                problems.append(f"place {pid!r}: expected a table")
                continue
            place, adjacent, errs = _place_from(pid, entry)
            problems.extend(errs)
            places.append(place)
            adjacency[pid] = adjacent
        edges = data.get("edges", [])
        if not isinstance(edges, list):
            problems.append("edges must be a list of [place, place] pairs")
            edges = []
        for edge in edges:
            if not (isinstance(edge, list) and len(edge) == 2 and all(isinstance(x, str) for x in edge)):
                problems.append(f"edge {edge!r}: expected a pair of place names")
                continue
            a, b = edge
            adjacency.setdefault(a, []).append(b)
            adjacency.setdefault(b, []).append(a)
        kinds = data.get("kinds")
        if kinds is not None and not (
            isinstance(kinds, list) and all(isinstance(k, str) for k in kinds)
        ):
            problems.append("kinds must be a list of strings")
            kinds = None
        connected = data.get("connected", True)
        if not isinstance(connected, bool):
            problems.append("connected must be true or false")
            connected = True
        if problems:
            raise BoardError(source, problems)
        extra = {k: v for k, v in data.items()
                 if k not in ("places", "edges", "kinds", "connected", "name")}
        return cls(places, adjacency, name=str(data.get("name", "")), kinds=kinds,
                   connected=connected, source=source, extra=extra)

    @classmethod
    def from_frames(
        cls,
        places: pl.DataFrame,
        edges: pl.DataFrame,
        *,
        directed: bool = False,
        name: str = "",
        kinds: Sequence[str] | None = None,
        connected: bool = True,
        source: str = "graph board",
    ) -> GraphBoard:
        """The board from a places table and an edges table.

        ``places`` needs columns ``place`` and ``kind``; optional ``name``, ``aliases`` (a list
        of strings), ``x`` and ``y``; other columns go to props. ``edges`` needs columns ``a``
        and ``b``: each row joins ``a`` and ``b`` both ways, or, with ``directed=True``, only
        from ``a`` to ``b`` (then every row needs its mirror row).
        """
        problems = [f"places table: missing column {c!r}" for c in ("place", "kind")
                    if c not in places.columns]
        problems += [f"edges table: missing column {c!r}" for c in ("a", "b")
                     if c not in edges.columns]
        if problems:
            raise BoardError(source, problems)
        known = {"place", "kind", "name", "aliases", "x", "y"}
        made = []
        for row in places.iter_rows(named=True):
            pos = None
            if row.get("x") is not None and row.get("y") is not None:
                pos = (float(row["x"]), float(row["y"]))
            made.append(GraphPlace(
                id=str(row["place"]), kind=str(row["kind"]), name=str(row.get("name") or ""),
                aliases=tuple(row.get("aliases") or ()), pos=pos,
                props=MappingProxyType({k: v for k, v in row.items() if k not in known}),
            ))
        adjacency: dict[str, list[str]] = {}
        for a, b in edges.select(pl.col("a").cast(pl.String), pl.col("b").cast(pl.String)).rows():
            adjacency.setdefault(a, []).append(b)
            if not directed:
                adjacency.setdefault(b, []).append(a)
        return cls(made, adjacency, name=name, kinds=kinds, connected=connected, source=source)

    # -- the Board protocol -----------------------------------------------------------------

    @property
    def kind(self) -> Literal["graph"]:
        """Always ``"graph"``."""
        return "graph"

    @property
    def names(self) -> NameIndex:
        """The index of place names and aliases, for order parsing."""
        return self._names

    def contains(self, place: object) -> bool:
        """Whether ``place`` is the id of a place of the board."""
        return isinstance(place, str) and place in self.places

    def __contains__(self, place: object) -> bool:
        return self.contains(place)

    def __iter__(self) -> Iterator[str]:
        return iter(self.places)

    def __len__(self) -> int:
        return len(self.places)

    def __repr__(self) -> str:
        return f"GraphBoard({self.name or self.source!r}, {len(self.places)} places)"

    def neighbours(self, place: str) -> frozenset[str]:
        """The places joined to ``place``.

        Raises:
            KeyError: naming the board and ``place`` when it is no place of the board.
        """
        try:
            return self._adjacent[place]
        except KeyError:
            raise KeyError(f"{self.source}: no place {place!r}") from None

    def place_kind(self, place: str) -> str:
        """The kind of ``place``."""
        return self._place(place).kind

    def parse_place(self, text: str) -> str:
        """The id of the place a player means by ``text`` (name, alias or unambiguous prefix).

        Raises:
            UnknownNameError, AmbiguousOrderError: both ``ValueError``, naming ``text``.
        """
        return self._by_name[self._names.resolve(text)]

    def place_text(self, place: str) -> str:
        """The place's display name."""
        p = self._place(place)
        return p.name or p.id

    # -- beyond the protocol ----------------------------------------------------------------

    def position(self, place: str) -> tuple[float, float] | None:
        """Where ``place`` is drawn, or ``None`` when the board gives no position."""
        return self._place(place).pos

    def of_kind(self, kind: str) -> tuple[str, ...]:
        """The places of a kind, in board order."""
        return tuple(p.id for p in self.places.values() if p.kind == kind)

    def edges(self) -> list[tuple[str, str]]:
        """Every route once, as ``(a, b)`` with ``a`` before ``b`` in board order."""
        rank = {p: i for i, p in enumerate(self.places)}
        return sorted(
            ((a, b) for a, around in self._adjacent.items() for b in around if rank[a] < rank[b]),
            key=lambda e: (rank[e[0]], rank[e[1]]),
        )

    def to_frames(self) -> tuple[pl.DataFrame, pl.DataFrame]:
        """The board as a places table (``place``, ``kind``, ``name``, ``x``, ``y``) and an
        undirected edges table (``a``, ``b``), ready for :meth:`from_frames`."""
        ps = list(self.places.values())
        places = pl.DataFrame(
            {
                "place": [p.id for p in ps],
                "kind": [p.kind for p in ps],
                "name": [p.name or p.id for p in ps],
                "x": [p.pos[0] if p.pos else None for p in ps],
                "y": [p.pos[1] if p.pos else None for p in ps],
            },
            schema={"place": pl.String, "kind": pl.String, "name": pl.String,
                    "x": pl.Float64, "y": pl.Float64},
        )
        pairs = self.edges()
        edges = pl.DataFrame(
            {"a": [a for a, _ in pairs], "b": [b for _, b in pairs]},
            schema={"a": pl.String, "b": pl.String},
        )
        return places, edges

    def _place(self, place: str) -> GraphPlace:
        try:
            return self.places[place]
        except KeyError:
            raise KeyError(f"{self.source}: no place {place!r}") from None


def load_package_board(package: str, filename: str) -> GraphBoard:
    """The graph board in TOML file ``filename`` shipped inside ``package`` (package data read
    through :mod:`importlib.resources`); errors name ``package/filename``."""
    source = f"{package.replace('.', '/')}/{filename}"
    try:
        text = importlib.resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError) as e:
        raise BoardError(source, [f"cannot read the board: {e}"]) from None
    return GraphBoard.from_toml(text, source=source)


# ---------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------


def _place_from(pid: str, entry: Mapping[str, Any]) -> tuple[GraphPlace, list[str], list[str]]:
    """A place, its listed neighbours and the problems of its TOML table."""
    errs: list[str] = []
    kind = entry.get("kind")
    if not isinstance(kind, str) or not kind:
        errs.append(f"place {pid!r}: kind must be a non-empty string, got {kind!r}")
        kind = ""
    aliases = entry.get("aliases", [])
    if not (isinstance(aliases, list) and all(isinstance(a, str) for a in aliases)):
        errs.append(f"place {pid!r}: aliases must be a list of strings")
        aliases = []
    display = entry.get("name", "")
    if not isinstance(display, str):
        errs.append(f"place {pid!r}: name must be a string")
        display = ""
    pos = entry.get("pos")
    point: tuple[float, float] | None = None
    if pos is not None:
        if (isinstance(pos, list) and len(pos) == 2
                and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                        and -MAX_POSITION <= v <= MAX_POSITION for v in pos)):
            point = (float(pos[0]), float(pos[1]))
        else:
            errs.append(f"place {pid!r}: pos must be [x, y], two numbers within "
                        f"±{MAX_POSITION:g}, got {str(pos)[:60]}")
    adjacent = entry.get("adjacent", [])
    if not (isinstance(adjacent, list) and all(isinstance(a, str) for a in adjacent)):
        errs.append(f"place {pid!r}: adjacent must be a list of place names")
        adjacent = []
    props = MappingProxyType({k: v for k, v in entry.items() if k not in _PLACE_KEYS})
    place = GraphPlace(pid, kind, display, tuple(aliases), point, props)
    return place, list(adjacent), errs


def _aliases(places: Iterable[GraphPlace]) -> dict[str, str]:
    out: dict[str, str] = {}
    for p in places:
        name = p.name or p.id
        if p.name and p.id != p.name:
            out[p.id] = name
        for a in p.aliases:
            out[a] = name
    return out


def _validate(
    places: Mapping[str, GraphPlace],
    adjacency: Mapping[str, Sequence[str]],
    kinds: Sequence[str] | None,
    connected: bool,
    source: str,
    listed: Sequence[GraphPlace],
) -> None:
    problems: list[str] = []
    if not places:
        problems.append("the board has no places")
    seen: set[str] = set()
    for p in listed:
        if p.id in seen:
            problems.append(f"place {p.id!r} is listed more than once")
        seen.add(p.id)
        if kinds is not None and p.kind not in kinds:
            problems.append(f"place {p.id!r}: kind {p.kind!r} is not one of {', '.join(kinds)}")
    for a, around in adjacency.items():
        if a not in places:
            problems.append(f"unknown place {a!r} (adjacent to {', '.join(map(repr, around))})")
            continue
        for b in around:
            if b == a:
                problems.append(f"place {a!r} is adjacent to itself")
            elif b not in places:
                problems.append(f"place {a!r}: unknown adjacent place {b!r}")
            elif a not in adjacency.get(b, ()):
                problems.append(f"place {a!r} lists {b!r} as adjacent but {b!r} does not list {a!r}")
    if connected and places and not problems:
        start = next(iter(places))
        reached = {start}
        todo = deque([start])
        while todo:
            for b in adjacency.get(todo.popleft(), ()):
                if b not in reached:
                    reached.add(b)
                    todo.append(b)
        cut = [p for p in places if p not in reached]
        if cut:
            problems.append(
                f"place(s) {', '.join(map(repr, cut))} cannot be reached from {start!r} "
                "(set connected = false if that is meant)"
            )
    if problems:
        raise BoardError(source, problems)
