"""The coming turn's reading, built once and shown the same everywhere: which post of each
player counts, each line read or rejected (by the parser or by the rules, against the coming
state), the orders that will be carried out. ``gmkit orders``, ``withdraw``, ``status --gm``,
``odds`` and ``resolve``, the desk and the reports all show that one value, and each post is
read by the ruleset once per command.

The scenario is the Crown of Cien sample's coming turn, where only a player's first post counts
(Cien, "Orders": the first orders a player posts for a turn are the ones carried out)."""

from __future__ import annotations

import collections
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from gmkit.cli import main
from gmkit.desk import Desk
from gmkit.game import Game
from gmkit.rulesets import find_ruleset

ROOT = Path(__file__).resolve().parent.parent
OVERSPENT = "[b]5 Grain for Investing of Coyons[/b]\n[b]40 Grain for Defense of Coyons[/b]\n"
GOLDS_FIRST = 38  # the sample's pending post of Gold, the one that counts


def run(*args: object, input: str | None = None) -> Result:
    res = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert res.exit_code == 0, res.output
    return res


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """The Cien sample's coming turn, with Cyan's orders changed to a conquest of Gold's
    Coyons (so a contest bears on Coyons) and a second post of Gold that over-spends."""
    folder = tmp_path / "cien"
    shutil.copytree(ROOT / "data" / "sample-cien", folder)
    run("withdraw", folder, "40", "--why", "Cyan sent new orders")
    run("orders", folder, "--player", "Cyan", "-", input="[b]10 Grain for Conquest of Coyons[/b]")
    return folder


def test_a_post_that_does_not_count_shows_the_problems_it_would_have_if_it_counted(game):
    """``gmkit orders``: Gold's second post does not count (the first does), yet it is checked
    against the coming state as if it counted, and says so; before, only the parser's errors
    were shown, and the over-spending surfaced at ``resolve``."""
    out = run("orders", game, "--player", "Gold", "-", input=OVERSPENT).output
    assert "over-spending" in out and "40 Grain for Defense of Coyons" in out
    assert "this post does not count" in out and f"post #{GOLDS_FIRST}" in out
    assert "checked here as if it counted" in out


def test_withdrawing_a_post_prints_the_reading_of_the_post_that_counts_now(game):
    """``gmkit withdraw``: once Gold's first post is withdrawn, the second counts, and the GM
    is told at once how it reads, its over-spending included."""
    run("orders", game, "--player", "Gold", "-", input=OVERSPENT)
    out = run("withdraw", game, str(GOLDS_FIRST), "--why", "Gold changed their mind").output
    assert f"post #{GOLDS_FIRST} withdrawn" in out
    assert "counts now" in out and "over-spending" in out


def test_status_for_the_gm_lists_each_players_rejected_lines_and_the_public_only_who_sent(game):
    """``gmkit status --gm`` lists the rejected lines of the posts that count; the public
    ``status`` names who has sent orders and never what a post says."""
    run("orders", game, "--player", "Gold", "-", input=OVERSPENT)
    run("withdraw", game, str(GOLDS_FIRST), "--why", "Gold changed their mind")
    gm = run("status", game, "--gm").output
    assert "rejected lines of the posts that count" in gm
    assert "Gold: line 2: over-spending" in gm
    public = run("status", game).output
    assert "orders received from:" in public and "Gold" in public
    assert "over-spending" not in public and "Defense of Coyons" not in public


def test_odds_name_the_rejected_orders_that_bear_on_each_contest(game):
    """``gmkit odds``: Coyons is defended by what Gold's counting orders give it; the line
    the rules rejected is named beside the contest, with why, so "defended by 0" has its
    reason."""
    run("orders", game, "--player", "Gold", "-", input=OVERSPENT)
    run("withdraw", game, str(GOLDS_FIRST), "--why", "Gold changed their mind")
    out = run("odds", game).output
    assert "Coyons" in out and "rejected orders these odds leave out" in out
    assert "Coyons: Gold's line 2 rejected: over-spending" in out


def test_the_desk_shows_the_same_reading(game):
    """The notebook's desk reads the coming turn as the commands do: the preview of a post
    that would not count shows its would-be problems; the problems table and the odds' notes
    come from the one reading."""
    desk = Desk.open(game)
    preview = desk.preview_post("Gold", OVERSPENT)
    assert not preview.counts and "as if it counted" in (preview.note or "")
    assert "over-spending" in preview.report()
    desk.receive("Gold", OVERSPENT)
    desk.withdraw(GOLDS_FIRST, "Gold changed their mind")
    problems = desk.problems()
    assert any("over-spending" in p for p in problems.filter(
        problems["player"] == "Gold")["problem"].to_list())
    assert any(n.startswith("Coyons: Gold's line 2 rejected") for n in desk.odds_notes())
    game_ = Game.open(game)
    assert game_.coming_reading().rejections("Gold") == [
        p for p in problems.filter(problems["player"] == "Gold")["problem"].to_list()]


def _reads_per_post(monkeypatch) -> collections.Counter:
    """Count the ruleset's reads of each post (by poster and text)."""
    ruleset = type(find_ruleset("cien"))
    read = ruleset.parse_post
    counts: collections.Counter = collections.Counter()

    def counting(self, post, player, state, ctx, **kw):
        counts[(player, post)] += 1
        return read(self, post, player, state, ctx, **kw)

    monkeypatch.setattr(ruleset, "parse_post", counting)
    return counts


@pytest.mark.parametrize("command", [
    ("orders", "--player", "Gold", "-"), ("status", "--gm"), ("odds",),
    ("withdraw", str(GOLDS_FIRST), "--why", "changed"), ("resolve", "--dry-run")])
def test_each_post_is_read_once_per_command(game, monkeypatch, command):
    """A post's way from the forum to its reading no longer climbs back into the ruleset:
    every command that shows the coming turn reads each post once (``gmkit orders`` read a
    new post three times; ``status`` and ``withdraw`` showed no reading at all)."""
    counts = _reads_per_post(monkeypatch)
    run(command[0], game, *command[1:], input=OVERSPENT if command[0] == "orders" else None)
    assert counts, "no post was read"
    assert max(counts.values()) == 1, counts


def test_resolving_carries_out_the_orders_the_reading_showed(game):
    """``resolve`` and the reading agree: the turn resolves the reading's accepted orders and
    reports its rejections, with no second reading of its own."""
    g = Game.open(game)
    shown = g.coming_reading()
    session = g.start(preview=True)
    assert session.reading is shown
    assert session.orders is shown.orders and session.problems is shown.problems
