"""Dice nobody can bend, from the turn notebook's desk: the coming turn's commitment, deadline,
seal and beacon shown where the GM resolves, and each of them done there as ``gmkit deadline``,
``seal`` and ``beacon`` do it (one ``Game`` door for both). And a new game commits ahead unless
told not to: turn N+1's commitment goes out with turn N's summary, before any order of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from gmkit.desk import Desk, DeskError
from gmkit.game import Game
from tests.test_beacon_game import POSTS, VECTORS, deadline_for
from tests.test_cli import files, run  # noqa: F401  (fixture)


@pytest.fixture
def desk(files: Path) -> Desk:  # noqa: F811
    res = run("new", files / "g", "--ruleset", "cien", "--players", files / "players.toml",
              "--map", files / "map.geojson", "--beacon", "drand-quicknet")
    assert res.exit_code == 0, res.output
    return Desk.open(files / "g")


def test_the_desk_deadlines_seals_and_takes_the_beacon_then_resolves_with_it(desk: Desk):
    """Deadline, posts, seal, beacon from the desk: each step shown in its guard lines, the
    turn resolves with the beacon-mixed seed and verifies."""
    v = VECTORS[0]
    before = desk.dice_guard()
    assert before[1] == "Order deadline: not set" and before[2].startswith("Seal: not sealed")
    assert "deadline is" in desk.set_deadline(deadline_for(v))
    for player, text in POSTS.items():
        desk.game.receive_post(player, text)
    sealed = desk.seal()
    assert "2 post(s)" in sealed
    assert "signature checked" in desk.enter_beacon(round=str(v["round"]),
                                                    randomness=v["randomness"],
                                                    signature=v["signature"])
    guard = desk.dice_guard()
    assert guard[3] == f"Beacon (drand-quicknet): drand:quicknet round {v['round']}"
    desk.run_all()
    desk.commit()
    game = Game.open(desk.root)
    assert game.store.manifest(1)["beacon"]["round"] == str(v["round"]) and game.verify() == []


def test_a_bad_deadline_or_a_tampered_beacon_is_refused_in_one_line(desk: Desk):
    """Refusals name what is wrong and change nothing."""
    v = VECTORS[0]
    with pytest.raises(DeskError, match="deadline not set"):
        desk.set_deadline("next tuesday")
    desk.set_deadline(deadline_for(v))
    with pytest.raises(DeskError, match="beacon refused: .*not sealed"):
        desk.enter_beacon(round=str(v["round"]), signature=v["signature"])
    desk.seal()
    bad = ("0" if v["signature"][0] != "0" else "1") + v["signature"][1:]
    with pytest.raises(DeskError) as e:
        desk.enter_beacon(round=str(v["round"]), signature=bad)
    assert "\n" not in str(e.value)
    assert desk.dice_guard()[3].endswith("not entered yet")


def test_a_new_game_commits_ahead_by_default(files: Path):  # noqa: F811
    """`gmkit new` makes turn 1's commitment at once and each turn's when the turn before
    commits; `--no-commit-ahead` leaves it to the GM."""
    run("new", files / "a", "--ruleset", "cien", "--players", files / "players.toml",
        "--map", files / "map.geojson")
    assert Game.open(files / "a").dice_setting.ahead
    run("new", files / "b", "--ruleset", "cien", "--players", files / "players.toml",
        "--map", files / "map.geojson", "--no-commit-ahead")
    assert not Game.open(files / "b").dice_setting.ahead
