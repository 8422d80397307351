"""Incremental union-find over generated hexes: Aeternus's masses (5.3.1) and the land's pieces.

Hexes are numbered by generation order (0, 1, 2...) and never leave the world, and a generated
hex never changes biome, so a mass only ever grows or merges: a union-find (union by size, path
halving) keeps every mass's size and first hex exactly, in near-constant time per hex, with no
flood fill. The same structure, joining every generated hex to its generated neighbours whatever
their biome, tells the lake detection which pieces of land a new hex joins (``lakes.py``).
"""

from __future__ import annotations

from collections.abc import Sequence


class UnionFind:
    """Disjoint sets over ``0 .. n-1``, grown one element at a time.

    Attributes:
        parent: each element's parent (a root is its own parent).
        size: at a root, the number of elements of its set.
        first: at a root, the smallest element of its set (the mass's first generated hex).
    """

    __slots__ = ("parent", "size", "first")

    def __init__(self) -> None:
        self.parent: list[int] = []
        self.size: list[int] = []
        self.first: list[int] = []

    def __len__(self) -> int:
        return len(self.parent)

    def add_joined(self, others: Sequence[int]) -> int:
        """A new element joined at once to the sets of ``others`` (elements, ``-1`` skipped);
        returns it."""
        parent, size, first = self.parent, self.size, self.first
        i = root = len(parent)
        parent.append(i)
        size.append(1)
        first.append(i)
        for j in others:
            if j < 0:
                continue
            while parent[j] != j:
                parent[j] = parent[parent[j]]
                j = parent[j]
            if j == root:
                continue
            if size[root] < size[j]:
                root, j = j, root
            parent[j] = root
            size[root] += size[j]
            if first[j] < first[root]:
                first[root] = first[j]
        return i

    def find(self, i: int) -> int:
        """The root of ``i``'s set."""
        parent = self.parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
