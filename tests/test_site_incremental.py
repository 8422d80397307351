"""``gmkit publish`` into a site it wrote before draws again only the pages whose inputs
changed, and never leaves a page stale: after a new turn, a re-resolved turn (a new revision), a
rolled-back turn, a revealed seed or a changed rule, every page is the page a publish into a new
folder draws, byte for byte; the pages whose inputs did not change are carried over untouched
(the same file)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gmkit.game import Game
from gmkit.publish.site import publish_counted
from gmkit.publish.site_inputs import INDEX
from gmkit.sweeps.playout import play

PLAYERS = [{"id": "Red", "name": "Aldric", "state": "Solsauvre", "government": "duchy"},
           {"id": "Gold", "name": "Berengar", "state": "Coyons", "government": "city-state"},
           {"id": "Green", "name": "Clothilde", "state": "Guicardie", "government": "duchy"}]


@pytest.fixture
def game(tmp_path: Path) -> Game:
    game = Game.new(tmp_path / "game", "cien", PLAYERS, title="Incremental")
    return play(game, 4, master="incremental")


def publish(game: Game, out: Path) -> int:
    """Publish (in this process) and return how many pages were drawn."""
    return publish_counted(Game.open(game.root), out, workers=1)[1]


def files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*"))
            if p.is_file()}


def inodes(site: Path) -> dict[str, int]:
    return {p.name: p.stat().st_ino for p in site.glob("*.html")}


def assert_fresh(game: Game, site: Path, tmp_path: Path) -> None:
    """Every page of ``site`` is what a publish into a new folder draws, and no other page is
    there."""
    fresh = tmp_path / f"fresh-{len(list(tmp_path.glob('fresh-*')))}"
    publish(game, fresh)
    got, want = files(site), files(fresh)
    pages = {n for n in want if n.endswith(".html")}
    assert {n for n in got if n.endswith(".html")} == pages
    for name in pages:
        assert got[name] == want[name], f"{name} is stale"
    assert got[INDEX] == want[INDEX]


def test_publishing_again_with_nothing_new_draws_nothing(game: Game, tmp_path: Path) -> None:
    site = tmp_path / "site"
    assert publish(game, site) == 4 + 3  # the turn pages, index, history, dice checker
    before, ino = files(site), inodes(site)
    assert publish(game, site) == 0
    assert files(site) == before and inodes(site) == ino


def test_a_new_turn_draws_its_page_the_turn_before_and_the_whole_game_pages(
        game: Game, tmp_path: Path) -> None:
    """A new turn: its page, the page of the turn before (its link to the new turn and the
    commitment it announces) and the pages drawn from every turn are drawn; the other turn
    pages are the same files as before."""
    site = tmp_path / "site"
    publish(game, site)
    ino = inodes(site)
    play(game, 1, master="incremental", reveal=False)
    assert publish(game, site) == 2 + 3
    now = inodes(site)
    for t in (1, 2, 3):
        assert now[f"turn-{t:04d}.html"] == ino[f"turn-{t:04d}.html"]
    assert now["turn-0004.html"] != ino["turn-0004.html"]
    assert_fresh(game, site, tmp_path)


def test_a_new_turn_published_with_the_chart_converter_process_is_byte_identical(
        game: Game, tmp_path: Path) -> None:
    """A new turn published as the command does (worker processes allowed): its few pages are
    drawn here and every chart, the history's and the turn pages', is converted in the chart
    converter's process; the pages are those a publish converting in this process draws."""
    site = tmp_path / "site"
    publish(game, site)
    play(game, 1, master="incremental")
    assert publish_counted(Game.open(game.root), site, workers=2)[1] == 2 + 3
    assert_fresh(game, site, tmp_path)


def test_a_revealed_seed_redraws_its_turn(game: Game, tmp_path: Path) -> None:
    """FAIR DICE: revealing a turn's seed puts it on that turn's page (anyone can recompute
    the rolls): the page is drawn again."""
    play(game, 1, master="incremental", reveal=False)
    site = tmp_path / "site"
    publish(game, site)
    seed = Game.open(game.root).reveal(5)
    assert seed not in (site / "turn-0005.html").read_text("utf-8")
    assert publish(game, site) >= 1
    assert seed in (site / "turn-0005.html").read_text("utf-8")
    assert_fresh(game, site, tmp_path)


def test_a_re_resolved_turn_redraws_its_page(game: Game, tmp_path: Path) -> None:
    """A turn resolved again as a new revision: its page shows the new revision."""
    site = tmp_path / "site"
    publish(game, site)
    g = Game.open(game.root)
    data = g.re_resolve(None, reason="a ruling")
    assert data.revision == 1
    assert publish(game, site) >= 1
    assert_fresh(game, site, tmp_path)


def test_rolled_back_turns_leave_no_page_and_replayed_ones_are_new(game: Game,
                                                                    tmp_path: Path) -> None:
    """Turns set aside by a rollback leave the site; turns played again in their place are
    drawn from the new timeline, never the old."""
    site = tmp_path / "site"
    publish(game, site)
    old_four = (site / "turn-0004.html").read_bytes()
    g = Game.open(game.root)
    g.rollback(2, "a mistake in turn 3")
    publish(game, site)
    assert not (site / "turn-0003.html").exists() and not (site / "turn-0004.html").exists()
    assert_fresh(game, site, tmp_path)
    play(Game.open(game.root), 2, master="another timeline")
    publish(game, site)
    assert (site / "turn-0004.html").read_bytes() != old_four
    assert_fresh(game, site, tmp_path)


def test_a_changed_rule_redraws_what_it_affects(game: Game, tmp_path: Path) -> None:
    """A rule changed from the coming turn on (recorded beside game.toml): no page is left
    drawn from before the change."""
    site = tmp_path / "site"
    publish(game, site)
    Game.open(game.root).set_rule("base_output", 12, "house rule")
    assert publish(game, site) > 0
    assert_fresh(game, site, tmp_path)


def test_a_damaged_index_draws_every_page(game: Game, tmp_path: Path) -> None:
    """An index gmkit cannot read (cut short, edited) trusts nothing: every page is drawn."""
    site = tmp_path / "site"
    publish(game, site)
    (site / INDEX).write_text("{not json", "utf-8")
    assert publish(game, site) == 4 + 3
    assert_fresh(game, site, tmp_path)


def test_publish_shows_progress_on_a_terminal_only(game: Game, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The progress bar is click's, drawn when standard output is a terminal; into a pipe
    or file, the command prints its own line only."""
    import io
    import sys

    from click.testing import CliRunner

    from gmkit.cli import main
    from gmkit.cli.app import progress_bar

    res = CliRunner().invoke(main, ["publish", str(game.root), "--out", str(tmp_path / "s")])
    assert res.exit_code == 0, res.output
    assert res.output.count("\n") == 1 and "published 7 page(s)" in res.output
    assert progress_bar("publishing") is None

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stdout", screen)
    shown = progress_bar("publishing")
    assert shown is not None
    for done in range(1, 5):
        shown(done, 4)
    assert "publishing" in screen.getvalue() and "100%" in screen.getvalue()


def test_a_full_publish_in_worker_processes_keeps_the_turn_charts_for_the_next(
        game: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The turn pages drawn in worker processes send back their charts' SVG, kept in the site:
    after a new turn, the page of the turn before is drawn again without converting its chart
    (only the new turn's and the history's are converted), and every page is still fresh."""
    import gmkit.publish.site as site_module

    site = tmp_path / "site"
    assert publish_counted(Game.open(game.root), site, workers=2)[1] == 4 + 3
    kept = {p.name for p in (site / ".gmkit-cache").glob("chart-*.svg")}
    game_before = Game.new(tmp_path / "copy", "cien", PLAYERS, title="Incremental")
    here = tmp_path / "drawn-here"
    publish(play(game_before, 4, master="incremental"), here)
    assert kept == {p.name for p in (here / ".gmkit-cache").glob("chart-*.svg")}, (
        "the worker processes keep each turn page's chart as drawing here does")
    play(game, 1, master="incremental", reveal=False)
    converted: list[str] = []
    real = site_module.chart_svg

    def spy(chart):  # type: ignore[no-untyped-def]
        converted.append(site_module.chart_name(chart) if isinstance(chart, dict) else "")
        return real(chart)

    monkeypatch.setattr(site_module, "chart_svg", spy)
    publish(game, site)
    assert converted and not set(converted) & kept, (
        "the page of the turn before converted a chart the full publish kept")
    assert_fresh(game, site, tmp_path)
