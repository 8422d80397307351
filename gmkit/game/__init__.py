"""The game folder and its operations: a GM's game bound to its ruleset, board and rules
(:class:`Game`), the changes and corrections it records for coming turns, its fair dice, its
verification, a starting position given as tables, and "what if" replays of a committed turn.

This package's face is :class:`Game` and the few names a caller needs beside it; the modules
hold the rest (:mod:`gmkit.game.verify`, :mod:`gmkit.game.whatif`, :mod:`gmkit.game.position`,
:mod:`gmkit.game.fairdice`, ...)."""
from gmkit.game.changes import GameError, GameOverError
from gmkit.game.game import Game
from gmkit.game.session import ImportRefused, ImportReport, TurnSession, events_frame, rolls_frame
from gmkit.game.setup import board_path, resolved_with, starting_board

__all__ = ["Game", "GameError", "GameOverError", "ImportRefused", "ImportReport", "TurnSession", "board_path",
           "events_frame", "resolved_with", "rolls_frame", "starting_board"]
