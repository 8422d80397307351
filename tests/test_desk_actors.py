"""The GM steps through a per-actor step action by action in the desk: each action is a step
view of its own, titled with its actor, and the next one is named (gmkit.core.flow, the
example ruleset's digging in order of arrival)."""

from __future__ import annotations

from pathlib import Path

from gmkit.core.boards.resources import default_board_map
from gmkit.core.ruleset import find_ruleset
from gmkit.desk import Desk
from gmkit.game import Game
from gmkit.sweeps.playout import play, receive_bot_posts


def test_the_desk_steps_through_each_actors_action(tmp_path: Path) -> None:
    rs = find_ruleset("example")
    game = play(Game.new(tmp_path / "g", "example", rs.example_players(default_board_map(rs))),
                1, master="desk")
    receive_bot_posts(game, "desk")
    desk = Desk.open(tmp_path / "g")
    titles = []
    nexts = []
    while True:
        view = desk.step()
        titles.append(view.title)
        nexts.append(view.next_title)
        if view.done:
            break
    order = next(i for i, t in enumerate(titles) if t.endswith("order of play"))
    actions = titles[order + 1:]
    # each action is a unit of its own, titled with its actor, and announced by the one before
    assert all(t.startswith("Digging: ") or ": " not in t for t in actions), titles
    for i in range(len(titles) - 1):
        assert titles[i + 1].startswith(nexts[i]), (nexts, titles)
    assert view.done and nexts[-1] is None
