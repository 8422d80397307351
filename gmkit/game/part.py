"""What each part of a game (:class:`gmkit.game.Game` is put together from parts, one idea each:
its recorded changes, the coming turn's input, its guarded dice) may use of the whole."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gmkit.game.fairdice as fairdice
from gmkit.core.params import Params
from gmkit.core.parts import Context
from gmkit.core.players import PlayerInfo
from gmkit.core.ruleset import Ruleset
from gmkit.core.store import GameStore
from gmkit.core.tables import State


class GamePart:
    """The attributes and methods of a game that its parts use (given by the game)."""

    root: Path
    store: GameStore
    config: dict[str, Any]
    ruleset: Ruleset[Any]
    rules: Params
    seed_maker: Callable[[int], str]
    clock: Callable[[], str]
    dice_setting: fairdice.DiceSetting

    if TYPE_CHECKING:
        @property
        def first_turn(self) -> int: ...

        @property
        def latest_turn(self) -> int: ...

        @property
        def next_turn(self) -> int: ...

        @staticmethod
        def players_from_config(config: Mapping[str, Any], source: str = "game.toml"
                                ) -> list[PlayerInfo]: ...

        def refuse_if_over(self, what: str) -> None: ...

        def state(self, number: int | None = None, *,
                  viewer: Any = None) -> State: ...

        def roster(self, turn: int) -> tuple[Any, Any]: ...

        def context(self, rules: Params | None = None, turn: int | None = None
                    ) -> Context: ...

        def to_move(self, state: State) -> list[str]: ...
