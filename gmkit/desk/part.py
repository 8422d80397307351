"""What each part of the desk (:class:`gmkit.desk.Desk` is put together from parts: its posts,
its dice) may use of the whole."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from gmkit.core.dice import Roll
from gmkit.desk.views import StepView
from gmkit.game import Game, TurnSession


class DeskPart:
    """The attributes and methods of the desk that its parts use (given by the desk)."""

    game: Game
    session: TurnSession | None
    _shadow: tuple[Any, Any, list[Roll], int] | None

    if TYPE_CHECKING:
        @property
        def root(self) -> Path: ...

        @property
        def turn(self) -> int: ...

        def _forget(self) -> None: ...

        def _ensure(self) -> TurnSession: ...

        def _live_session(self) -> TurnSession | None: ...

        def _view(self, index: int) -> StepView: ...

        def _replay(self, steps: int) -> None: ...

        def _pending(self) -> pl.DataFrame: ...

        def current(self) -> StepView | None: ...
