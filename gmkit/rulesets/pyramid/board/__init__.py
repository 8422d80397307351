"""Boards of land spaces for Pyramid Power Wars: the shipped board and a seeded generator.

A board is a :class:`~gmkit.core.boards.graph.GraphBoard` whose places are land spaces of kind
``food`` or ``stone`` (RESOURCES: Land), each with a position to draw it, plus start areas: for
each number of players from 2 to 8, one area per player, its home (a food land) first and a
stone land next to it. The shipped board ``two-lands.toml`` keeps the areas under a top-level
``[start_areas]`` table (keys "2" to "8"); :func:`generate` makes a board of any size from gmkit
dice, so the same seed always gives the same board.
"""

from __future__ import annotations

import functools
import math
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from gmkit.core.boards import Board, BoardError
from gmkit.core.boards.graph import GraphBoard, GraphPlace
from gmkit.core.dice import Dice
from gmkit.rulesets.pyramid.rules import FOOD_LAND, LAND_KINDS, STONE_LAND

MIN_PLAYERS, MAX_PLAYERS = 2, 8
DEFAULT_BOARD = "two-lands.toml"

_PREFIXES = ("Red", "Black", "Gold", "High", "Low", "Sun", "Moon", "Reed", "Palm", "Ibis",
             "Jackal", "Falcon", "Lotus", "Bull", "Cobra", "Salt", "Copper", "Sand", "Star",
             "Dawn", "Dusk", "Scarab", "Lion", "Vulture")
_SUFFIXES = ("sand", "field", "marsh", "quarry", "bank", "gate", "well", "cliff", "isle",
             "reach", "ford", "hill", "plain", "grove", "rock", "oasis")


@dataclass(frozen=True)
class LandBoard:
    """A board of land spaces with its start areas.

    Attributes:
        board: the places (kind food or stone, positions) and their adjacency.
        start_areas: for each number of players, one area per player (home first).
    """

    board: GraphBoard
    start_areas: Mapping[int, tuple[tuple[str, ...], ...]]

    def areas(self, players: int) -> tuple[tuple[str, ...], ...]:
        """The start areas for ``players`` players."""
        if players not in self.start_areas:
            raise BoardError(self.board.source, [f"no start areas for {players} players (the "
                                                 f"board has {sorted(self.start_areas)})"])
        return self.start_areas[players]

    def spaces(self) -> list[dict[str, object]]:
        """The spaces as rows: name, kind, x, y (in board order)."""
        out: list[dict[str, object]] = []
        for pid, place in self.board.places.items():
            x, y = place.pos or (0.0, 0.0)
            out.append({"name": pid, "kind": place.kind, "x": x, "y": y})
        return out


def check(board: GraphBoard, areas: Mapping[int, Sequence[Sequence[str]]]) -> LandBoard:
    """A :class:`LandBoard`, once every rule of a land board holds; else a
    :class:`~gmkit.core.boards.BoardError` naming every problem."""
    problems: list[str] = []
    for pid, place in board.places.items():
        if place.kind not in LAND_KINDS:
            problems.append(f"place {pid!r}: kind {place.kind!r} is not food or stone")
        if place.pos is None:
            problems.append(f"place {pid!r}: no position to draw it")
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        if n not in areas:
            problems.append(f"no start areas for {n} players")
    for n, listed in sorted(areas.items()):
        if len(listed) != n:
            problems.append(f"start areas for {n} players: {len(listed)} areas, not {n}")
        taken: dict[str, int] = {}
        for i, area in enumerate(listed, 1):
            where = f"start areas for {n} players, area {i}"
            if len(area) < 2:
                problems.append(f"{where}: a home and at least one more land are needed")
                continue
            unknown = [a for a in area if a not in board]
            if unknown:
                problems.append(f"{where}: unknown place(s) {', '.join(map(repr, unknown))}")
                continue
            home = area[0]
            if board.place_kind(home) != FOOD_LAND:
                problems.append(f"{where}: the home {home!r} is not a food land")
            if not any(board.place_kind(a) == STONE_LAND for a in area):
                problems.append(f"{where}: no stone land")
            for a in area[1:]:
                if a not in board.neighbours(home):
                    problems.append(f"{where}: {a!r} is not next to the home {home!r}")
            for a in area:
                if a in taken:
                    problems.append(f"{where}: {a!r} is also in area {taken[a]}")
                taken[a] = i
    if problems:
        raise BoardError(board.source, problems)
    return LandBoard(board, {n: tuple(tuple(a) for a in listed)
                             for n, listed in sorted(areas.items())})


def load(filename: str = DEFAULT_BOARD) -> LandBoard:
    """A board shipped with the ruleset, read through :mod:`importlib.resources`."""
    source = f"gmkit/rulesets/pyramid/board/{filename}"
    try:
        text = resources.files(__name__).joinpath(filename).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError) as e:
        raise BoardError(source, [f"cannot read the board: {e}"]) from None
    return of_board(GraphBoard.from_toml(text, source=source))


def of_board(board: GraphBoard) -> LandBoard:
    """The land board a graph board describes: its places, and the start areas of its
    ``[start_areas]`` table (:attr:`GraphBoard.extra`), checked as :func:`check` does.

    Raises:
        BoardError: naming the board's source and every problem (no start areas, an area
            naming an unknown place or one another area holds...).
    """
    raw = board.extra.get("start_areas")
    if raw is None:
        raise BoardError(board.source, ["no [start_areas] table: for each number of players "
                                        "from 2 to 8, one area per player, its home first"])
    if not isinstance(raw, Mapping):
        raise BoardError(board.source, ["start_areas must be a table of player counts"])
    problems = [f"start_areas key {k!r} is not a number of players" for k in raw
                if not str(k).isdigit()]
    problems += [f"start areas for {k} players: a list of areas (lists of place names) is "
                 "needed" for k, v in raw.items()
                 if not (isinstance(v, list) and all(isinstance(a, list) and
                                                     all(isinstance(x, str) for x in a)
                                                     for a in v))]
    if problems:
        raise BoardError(board.source, problems)
    return check(board, {int(k): v for k, v in raw.items()})


@functools.lru_cache(maxsize=4)
def shipped_board(filename: str = DEFAULT_BOARD) -> LandBoard:
    """A board shipped with the ruleset, read and checked once."""
    return load(filename)


def default_board() -> GraphBoard:
    """The graph board shipped with the ruleset (``board/two-lands.toml``)."""
    return shipped_board().board


def land_of(board: Board[Any] | None) -> LandBoard:
    """The land board of a game made on ``board`` (a graph board with start areas), else the
    shipped board when there is none.

    Raises:
        BoardError: naming the board and why the rules cannot be played on it.
    """
    if board is None:
        return shipped_board()
    if not isinstance(board, GraphBoard):
        raise BoardError(str(getattr(board, "source", "board")),
                         [f"a {board.kind} board: Pyramid Power Wars plays on a graph board "
                          "of land spaces"])
    return of_board(board)


def check_board(board: Board[Any] | None) -> list[str]:
    """LAND and SETUP: every space food or stone land with a position, and start areas for
    2 to 8 players naming places of the board, each a home with a stone land next to it,
    no place in two areas."""
    try:
        land_of(board)
    except BoardError as e:
        return list(e.problems)
    return []


def _distances(board: GraphBoard, start: str) -> dict[str, int]:
    seen = {start: 0}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        for b in sorted(board.neighbours(here)):
            if b not in seen:
                seen[b] = seen[here] + 1
                todo.append(b)
    return seen


def generate(spaces: int, dice: Dice | str, *, name: str = "") -> LandBoard:
    """A board of ``spaces`` land spaces (at least 24) drawn from gmkit dice (or a seed).

    Spaces sit on a jittered grid, each joined to its grid neighbours and across one diagonal
    of each grid square; kinds are food or stone (3 to 2); eight homes are picked far apart
    (farthest first, so the first ``n`` suit ``n`` players) and each gets a stone neighbour.
    """
    if spaces < 3 * MAX_PLAYERS:
        raise BoardError(name or "generated board",
                         [f"{spaces} spaces are too few for {MAX_PLAYERS} start areas "
                          f"(at least {3 * MAX_PLAYERS})"])
    if isinstance(dice, str):
        dice = Dice(dice, 0, "board")
    rule = "RESOURCES: Land"
    cols = math.ceil(math.sqrt(spaces * 1.5))
    cells = [(i % cols, i // cols) for i in range(spaces)]
    names = [f"{p}{s}" for p in _PREFIXES for s in _SUFFIXES]
    names = dice.shuffle(names, purpose="board: names", rule=rule, key="names")[:spaces]
    index = {cell: names[i] for i, cell in enumerate(cells)}
    adjacency: dict[str, set[str]] = {n: set() for n in names}

    def join(a: tuple[int, int], b: tuple[int, int]) -> None:
        if a in index and b in index:
            adjacency[index[a]].add(index[b])
            adjacency[index[b]].add(index[a])

    for c, r in cells:
        join((c, r), (c + 1, r))
        join((c, r), (c, r + 1))
        if all(x in index for x in ((c + 1, r), (c, r + 1), (c + 1, r + 1))):
            if dice.choice(["\\", "/"], purpose=f"board: diagonal {c},{r}", rule=rule,
                           key=f"diagonal/{c}/{r}") == "\\":
                join((c, r), (c + 1, r + 1))
            else:
                join((c + 1, r), (c, r + 1))
    kinds = {n: dice.choice(list(LAND_KINDS), weights=[3, 2], purpose=f"board: kind of {n}",
                            rule=rule, key=f"kind/{n}") for n in names}
    positions = {}
    for (c, r), n in index.items():
        jx = dice.uniform(purpose=f"board: x of {n}", rule=rule, key=f"x/{n}")
        jy = dice.uniform(purpose=f"board: y of {n}", rule=rule, key=f"y/{n}")
        positions[n] = (round(c * 100 + (jx - 0.5) * 40, 1),
                        round(r * 90 + (c % 2) * 45 + (jy - 0.5) * 30, 1))
    homes: list[str] = [dice.choice(names, purpose="board: first home", rule=rule, key="home")]
    dist = {homes[0]: _distances(_bare(names, adjacency), homes[0])}
    partners: list[str] = []
    used: set[str] = set()
    while True:
        home = homes[-1]
        free = sorted(b for b in adjacency[home] if b not in used and b not in homes)
        partner = dice.choice(free, purpose=f"board: stone land next to {home}", rule=rule,
                              key=f"partner/{home}")
        partners.append(partner)
        used |= {home, partner}
        if len(homes) == MAX_PLAYERS:
            break
        graph = _bare(names, adjacency)
        candidates = [n for n in names if n not in used
                      and any(b not in used for b in adjacency[n])]
        if not candidates:
            raise BoardError(name or "generated board",
                             [f"no room for start area {len(homes) + 1} on {spaces} spaces"])
        best = max(candidates, key=lambda n: (min(dist[h].get(n, 0) for h in homes),
                                              -names.index(n)))
        homes.append(best)
        dist[best] = _distances(graph, best)
    for h, p in zip(homes, partners):
        kinds[h], kinds[p] = FOOD_LAND, STONE_LAND
    places = [GraphPlace(n, kinds[n], pos=positions[n]) for n in names]
    source = name or f"generated board ({spaces} spaces, seed {dice.seed[:8]}…)"
    board = GraphBoard(places, {n: sorted(v) for n, v in adjacency.items()}, name=name,
                       kinds=list(LAND_KINDS), source=source)
    areas = {n: [(h, p) for h, p in zip(homes[:n], partners[:n])]
             for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
    return check(board, areas)


def _bare(names: Sequence[str], adjacency: Mapping[str, set[str]]) -> GraphBoard:
    return GraphBoard([GraphPlace(n, FOOD_LAND) for n in names],
                      {n: sorted(v) for n, v in adjacency.items()}, source="draft")


def to_toml(land: LandBoard) -> str:
    """A land board written as TOML that :func:`load` reads back."""
    lines = [f'name = "{land.board.name}"', 'kinds = ["food", "stone"]', ""]
    for pid, place in land.board.places.items():
        x, y = place.pos or (0.0, 0.0)
        adjacent = ", ".join(f'"{b}"' for b in sorted(land.board.neighbours(pid)))
        lines += [f'[places."{pid}"]', f'kind = "{place.kind}"', f"pos = [{x}, {y}]",
                  f"adjacent = [{adjacent}]", ""]
    lines.append("[start_areas]")
    for n, areas in land.start_areas.items():
        listed = ", ".join("[" + ", ".join(f'"{a}"' for a in area) + "]" for area in areas)
        lines.append(f'"{n}" = [{listed}]')
    return "\n".join(lines) + "\n"
