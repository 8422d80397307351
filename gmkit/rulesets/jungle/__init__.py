"""The Law of the Jungle: houses of Aztec characters scheming inside a Civilization game.

Rules: the GM yahzuk's text. Players run houses of characters (peasants, soldiers, citizens,
specialists and Tlatoani); twice a council session each character acts, in an order set by Fame;
between sessions the GM plays ten gameturns of a Civilization game and enters what it shows. See
``docs/rules-notes/law-of-the-jungle.md`` for how each ambiguous passage is read and the named
options that choose another reading.

The modules are the pure pieces of the ruleset: ``constants`` (the rules table), ``state``
(schemas and the GM's civilization figures), ``attack`` and ``odds`` (character attacks and their
exact odds), ``food``, ``actions`` and ``orders`` (typed actions read from posts, resolved one at
a time), ``gods``, ``gameturns`` (research and production draws), ``cities`` and ``units``.
"""
