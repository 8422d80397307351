"""Finding the indeterminate hexes that a newly generated hex cuts off (5.3.1.6), incrementally.

A Lake forms where "an indeterminate hex is not adjacent to a hex of the infinitely large mass of
indeterminate hexes": an indeterminate hex in a *finite* region of indeterminate hexes. Regions
only split when a hex is generated, and only where the new hex closes a loop of generated hexes:

1. **The ring test** (constant time). Walk the six neighbours of the new hex ``h`` around the ring;
   the generated ones form ``k`` runs (separated by indeterminate ones). On a hex grid the number
   of indeterminate regions grows by ``k`` minus the number of distinct pieces of land (connected
   generated hexes, kept by a union-find, ``masses.py``) those runs belonged to before ``h``. Most
   new hexes touch one run, or runs of separate pieces, and nothing more is done.
2. **The search** (only when a loop closed). One breadth-first search starts in each
   indeterminate run around ``h``, all advancing one hex at a time in turn ("both sides at
   once"). A search that reaches a hex of another still running search is the same region: it
   stops and leaves the region to the other. A search that runs out of hexes has walked a whole
   finite region: that region is cut off. When one search is left it is the infinite region and
   everything stops, so the work is bounded by the size of the smaller side(s), never by the size
   of the world.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Container, Sequence

from gmkit.rulesets.aeternus.coords import AXIAL_STEPS
from gmkit.rulesets.aeternus.masses import UnionFind

Axial = tuple[int, int]


def ring_runs(neighbours: Sequence[int]) -> list[int]:
    """The ring positions (0-5) where a run of generated neighbours starts.

    ``neighbours`` holds, in direction order, each neighbour's generation index or ``-1`` when
    indeterminate. A ring wholly generated or wholly indeterminate has no run boundaries: ``[]``.
    """
    return [d for d in range(6) if neighbours[d] >= 0 and neighbours[d - 1] < 0]


def new_regions(neighbours: Sequence[int], land: UnionFind) -> int:
    """How many more indeterminate regions there are once ``h`` is generated (ring test).

    Call it *before* joining ``h`` to its neighbours in ``land``."""
    starts = ring_runs(neighbours)
    if len(starts) < 2:
        return 0
    roots = {land.find(neighbours[d]) for d in starts}
    return len(starts) - len(roots)


def cut_off(h: Axial, neighbours: Sequence[int], generated: Container[Axial]) -> list[list[Axial]]:
    """The finite indeterminate regions next to ``h`` once it is generated (``h`` already counts
    as generated in ``generated``), each sorted, in the ring order of where their search began.

    Only call it when :func:`new_regions` is positive and ``h`` was in the infinite region;
    otherwise the last two searches could both be infinite and would only stop when they meet.
    """
    q0, r0 = h
    seeds = [(q0 + AXIAL_STEPS[d][0], r0 + AXIAL_STEPS[d][1]) for d in range(6)
             if neighbours[d] < 0 and neighbours[d - 1] >= 0]
    n = len(seeds)
    queues = [deque([s]) for s in seeds]
    seen: list[set[Axial]] = [{s} for s in seeds]
    owner: dict[Axial, int] = {}
    merged_into = list(range(n))
    live = [True] * n
    finite: list[int] = []
    for i, s in enumerate(seeds):
        owner.setdefault(s, i)

    def resolve(i: int) -> int:
        while merged_into[i] != i:
            i = merged_into[i]
        return i

    running = n
    while running > 1:
        for i in range(n):
            if not live[i]:
                continue
            queue = queues[i]
            if not queue:
                live[i] = False
                running -= 1
                finite.append(i)
                if running <= 1:
                    break
                continue
            q, r = queue.popleft()
            mine = seen[i]
            for dq, dr in AXIAL_STEPS:
                nb = (q + dq, r + dr)
                if nb in mine or nb in generated:
                    continue
                other = owner.get(nb)
                if other is not None:
                    j = resolve(other)
                    if j != i and live[j]:
                        merged_into[i] = j
                        live[i] = False
                        running -= 1
                        break
                else:
                    owner[nb] = i
                mine.add(nb)
                queue.append(nb)
            if running <= 1:
                break
    return [sorted(seen[i]) for i in sorted(finite)]
