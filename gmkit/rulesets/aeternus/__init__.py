"""Aeternus: an infinite, procedurally generated hex world for a play-by-forum game.

These are the first pieces of the ruleset, pure and usable alone: the rules' coordinates and
their mapping to gmkit's cube grid (``coords``), the world's numbers and named options
(``constants``), and the generation of the world by rule 5.3 — masses, lakes, landmarks and
corruption, with every draw from the turn's seed logged (``world``, ``masses``, ``lakes``,
``records``). The ruleset itself (orders, turn steps, registration) is not written yet.
"""
