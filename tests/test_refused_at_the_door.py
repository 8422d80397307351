"""Bad input refused at the door: a post beyond the size limits, a line too long, an absurd
figure, a post in which no line is an order, a post "file" that is a device or a pipe. Each is
refused with a non-zero exit and one line per problem naming the line or value, and nothing is
stored."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gmkit.core.orders import MAX_LINE_CHARS, MAX_POST_CHARS, LimitError, size_problems
from gmkit.game import Game
from gmkit.sweeps.playout import new_game
from gmkit.rulesets.pyramid.rules import COLOURS
from tests.test_cli import files, game, one_line_failure, run  # noqa: F401  (fixtures)

HOUSES = ("Ocelotl", "Quetzal")


def _pending(root: Path) -> int:
    g = Game.open(root)
    return g.store.pending_posts(g.next_turn).height


@pytest.fixture
def jungle(tmp_path: Path) -> Path:
    players = [{"id": h, "name": f"House {h}"} for h in HOUSES]
    return Game.new(tmp_path / "j", "jungle", players, title="limits").root


@pytest.fixture
def pyramid(tmp_path: Path) -> Path:
    players = [{"id": c, "name": c} for c in COLOURS[:2]]
    return new_game(tmp_path / "p", "pyramid", players, 0, "limits").root


@pytest.mark.parametrize("line,value", [
    ("empire: gold 99999999999999999999999", "gold 99999999999999999999999"),
    ("city Tenochtitlan: citizens 1e20, food 2", "citizens 1e20"),
])
def test_an_absurd_civilization_figure_is_refused_at_its_line_and_never_stored(
        jungle: Path, line: str, value: str) -> None:
    """The Law of the Jungle's civilization figures: a number beyond the figure limit refuses
    the GM's post with the line and the value named; nothing is stored, so no later resolve
    meets it."""
    post = f"empire: gold 100\n{line}\n"
    res = run("orders", jungle, "--player", "gm", "-", input=post)
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert lines[0] == "gmkit: gm's post is refused, nothing was stored:"
    assert len(lines) == 2 and lines[1].startswith("  line 2: ") and value in lines[1]
    assert _pending(jungle) == 0


def test_a_post_beyond_the_size_limit_is_refused_whole(pyramid: Path) -> None:
    """A post of more than MAX_POST_CHARS characters is refused in one line; nothing stored."""
    post = ("[b]2 serfs to Redsand[/b]\n" * (MAX_POST_CHARS // 20))
    res = run("orders", pyramid, "--player", "Red", "-", input=post)
    assert res.exit_code == 2
    assert f"more than the {MAX_POST_CHARS} a post may have" in res.stderr
    assert _pending(pyramid) == 0


def test_a_6_kb_pyramid_line_is_refused_naming_its_line_never_backtracked_over(
        pyramid: Path) -> None:
    """The line that once took a backtracking expression minutes (6 KB of 'noble 1 with from
    ...' with no destination) is refused by the line limit, naming the line; the next line of
    the post is not stored either."""
    long = "noble 1 " + "with from 1 " * 500
    res = run("orders", pyramid, "--player", "Red", "-", input=f"2 serfs to Redsand\n{long}\n")
    assert res.exit_code == 2
    lines = res.stderr.strip().splitlines()
    assert lines[1].startswith(f"  line 2: {len(long)} characters, more than the "
                               f"{MAX_LINE_CHARS} a line may have")
    assert _pending(pyramid) == 0


def test_size_problems_names_every_line_too_long() -> None:
    """Every line beyond the limit is named, each once."""
    post = "ok\n" + "x" * (MAX_LINE_CHARS + 1) + "\nok\r\n" + "y" * (MAX_LINE_CHARS + 5)
    found = size_problems(post)
    assert [e.line for e in found] == [2, 4]
    assert all(isinstance(e, LimitError) for e in found)
    assert size_problems("x" * MAX_LINE_CHARS) == []


def test_a_post_in_which_no_line_is_an_order_is_refused_unless_allowed(
        game: Path) -> None:  # noqa: F811
    """``gmkit orders`` refuses a post with no order line (under "first post counts" it would
    block the player's corrected post), naming why; ``--allow-empty`` stores it."""
    res = run("orders", game, "--player", "Red", "-", input="Hello all, orders tomorrow!")
    line = one_line_failure(res)
    assert "no line of Red's post is an order" in line and "--allow-empty" in line
    assert _pending(game) == 0
    res = run("orders", game, "--player", "Red", "-", input="[b]10 Grain for Defense of Coyons[/b]")
    assert res.exit_code == 0, res.output
    assert "this post does not count" not in res.stdout
    res = run("orders", game, "--player", "Gold", "--allow-empty", "-", input="Hello")
    assert res.exit_code == 0, res.output
    assert _pending(game) == 2


def test_receive_post_refuses_a_post_with_no_order_as_the_cli_and_the_desk_do(
        game: Path) -> None:  # noqa: F811
    """``Game.receive_post`` is the door ``gmkit orders`` and the desk go through: by default
    it refuses a post in which no line is an order, storing nothing, and stores it when told
    (``allow_empty=True``, as the samples' builders and the playouts say they do)."""
    from gmkit.desk import Desk, DeskError
    from gmkit.game import GameError

    g = Game.open(game)
    with pytest.raises(GameError, match="no line of Red's post is an order"):
        g.receive_post("Red", "Hello all, orders tomorrow!")
    with pytest.raises(DeskError, match="nothing was stored"):
        Desk(g).receive("Red", "Hello all, orders tomorrow!")
    assert _pending(game) == 0
    g.receive_post("Red", "Hello all, orders tomorrow!", allow_empty=True)
    assert _pending(game) == 1


def test_a_post_of_a_rejected_line_only_is_refused_naming_the_line(game: Path) -> None:  # noqa: F811
    """A post whose only order line is rejected is refused too: the reason names the line."""
    res = run("orders", game, "--player", "Red", "-", input="[b]10 Grain for Conquest of Nowhere[/b]")
    line = one_line_failure(res)
    assert "line 1:" in line and "Nowhere" in line
    assert _pending(game) == 0


@pytest.mark.parametrize("device", ["/dev/zero", "fifo"])
def test_a_post_file_that_is_a_device_or_a_pipe_is_refused(game: Path, tmp_path: Path,  # noqa: F811
                                                             device: str) -> None:
    """``/dev/zero`` or a named pipe given as the post is refused at once (never read into
    memory, never waited on)."""
    path = Path(device)
    if device == "fifo":
        path = tmp_path / "post.fifo"
        os.mkfifo(path)
    elif not path.exists():
        pytest.skip("no /dev/zero here")
    line = one_line_failure(run("orders", game, "--player", "Red", path))
    assert f"{path}: the post is not a regular file" in line


def test_an_imported_discord_message_beyond_the_line_limit_refuses_the_import(
        tmp_path: Path) -> None:
    """``gmkit import``: a message with a line of more than MAX_LINE_CHARS characters is named
    (file, message, line) and the import stores nothing, as any error of an import does."""
    import json

    from gmkit.game import ImportRefused
    from tests.aeternus.test_discord import _export, _message

    game = Game.new(tmp_path / "a", "aeternus", [{"id": "Amber", "discord": "1001"},
                                                 {"id": "Birch", "discord": "1002"}])
    raw = _export("game-actions", "2026-01-01T12:00:00+00:00", [
        _message("10", "2026-01-01T10:00:00+00:00", "amber", "Forage"),
        _message("11", "2026-01-01T10:05:00+00:00", "birch", "Scout " + "x" * MAX_LINE_CHARS),
    ])
    path = tmp_path / "actions.json"
    path.write_text(json.dumps(raw), "utf-8")
    with pytest.raises(ImportRefused) as refused:
        game.import_posts([path])
    assert any("#game-actions message 11" in p and "line 1" in p and str(path) in p
               for p in refused.value.problems), refused.value.problems
    assert Game.open(game.root).store.pending_posts(1).is_empty()
