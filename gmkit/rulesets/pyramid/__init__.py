"""Pyramid Power Wars: serfs, priests and troops on a board of food and stone lands.

Nobles lead troops and pyramids to take land; the defeated become the victor's DEAD, whose glory
raises new pyramids. The pieces here are pure: the rules table (``constants``), the state tables
(``state``), the board data (``board``), the orders (``orders``), the resolution steps (``steps``)
and a seeded random player (``bot``). ``docs/rules-notes/pyramid-power-wars.md`` lists every
reading of the text and the named option that chooses another.
"""
