"""What a GM and the players trip over in a first evening: every rejection names its post and
line, the first-post rule says which post counts, entered dice must match a draw, the dice ids
printed are the ones derived from (README: "Verifiable dice"), control characters never reach a
page."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from gmkit.cli import main
from gmkit.game import Game

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: object, input: str | None = None) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, [str(a) for a in args], input=input)
    return res.exit_code, res.stdout, res.stderr


@pytest.fixture
def aztlan(tmp_path: Path) -> Path:
    """A copy of the AZTLAN sample, turn 13's posts pending."""
    return Path(shutil.copytree(ROOT / "data" / "sample-aztlan", tmp_path / "g"))


def test_every_rejection_names_its_post_and_line_and_keeps_other_posts_orders(aztlan: Path
                                                                              ) -> None:
    """AZTLAN counts every post of a player: a rejection in the second post names that post
    and its own line, and the first post's order on the same line number still counts."""
    game = Game.open(aztlan)
    first = game.store.pending_posts(13).filter(pl.col("player") == "Aztecs")["seq"].item()
    code, out, _ = cli("orders", aztlan, "--player", "Aztecs", "--allow-empty", "-",
                       input="1A Zzz H")
    assert code == 0
    second = int(out.split("post #")[1].split()[0])
    session = Game.open(aztlan).start()
    problems = [str(e) for e in session.problems.get("Aztecs", []) +
                session.parsed["Aztecs"].errors]
    assert any(p.startswith(f"post #{second}, line 1:") for p in problems), problems
    assert not any(p.startswith(f"post #{first}, line 1:") for p in problems), problems
    kept = [e for e in session.orders.of("Aztecs") if e.post == first and e.line == 1]
    assert kept, "the first post's line 1 was dropped with the second post's line 1"


def test_under_first_post_counts_a_second_post_is_told_it_does_not_count(tmp_path: Path
                                                                         ) -> None:
    """Cien: "You cannot edit your orders once you've send the post!": a second post is
    stored but the GM is told plainly which post counts."""
    game = shutil.copytree(ROOT / "data" / "sample-cien", tmp_path / "g")
    g = Game.open(game)
    player = g.store.pending_posts(g.next_turn)["player"][0]
    first = g.effective_posts(g.store.pending_posts(g.next_turn)).filter(
        pl.col("player") == player)["seq"].item()
    code, out, _ = cli("orders", game, "--player", player, "-",
                       input="[b]Gift 1 Grain to the Emperor[/b]")
    assert code == 0
    assert f"this post does not count" in out and f"post #{first}" in out


def test_control_characters_in_a_post_never_reach_a_page(tmp_path: Path) -> None:
    """A post with NUL and ESC: the reports and the site stay valid HTML (no control
    character copied into them)."""
    game = Path(shutil.copytree(ROOT / "data" / "sample-cien", tmp_path / "g"))
    g = Game.open(game)
    player = g.store.pending_posts(g.next_turn)["player"][1]
    assert cli("withdraw", game, str(g.store.pending_posts(g.next_turn)["seq"][1]),
               "--why", "test")[0] == 0
    assert cli("orders", game, "--player", player, "-",
               input="Hail\x00 GM\x1b[31m!\n[b]Gift 1 Grain to the Emperor[/b]")[0] == 0
    assert cli("commit-seed", game)[0] == 0 and cli("resolve", game)[0] == 0
    for view in ("gm", "public"):
        code, out, _ = cli("report", game, "--view", view)
        assert code == 0 and "\x00" not in out and "\x1b" not in out
    assert cli("publish", game, "--out", tmp_path / "site")[0] == 0
    for page in (tmp_path / "site").glob("*.html"):
        text = page.read_text("utf-8")
        assert "\x00" not in text and "\x1b" not in text


def test_cien_orders_must_be_bold_unless_the_game_reads_plain_lines() -> None:
    """Cien: "For your orders to be valid, they must be bolded using the forum bbcode." A post
    with no bold line has no orders by default; the named option orders_format = 'bold_or_plain'
    reads the plain lines of a post without any BBCode (an e-mail)."""
    from gmkit.core.parts import Context
    from gmkit.rulesets.cien.orders import NOT_BOLD
    from tests.cien.helpers import RULESET, scenario
    from tests.cien.test_cien_rules import SEAS

    state, params = scenario(SEAS, {"Red": ("Coyons", "duchy")}, treasury={"Red": 20})
    post = "5 Grain for Defense of Coyons"
    result = RULESET.parse_post(post, "Red", state, Context(params))
    assert not result.orders and str(result.errors[0]) == NOT_BOLD
    assert RULESET.parse_post(f"[b]{post}[/b]", "Red", state, Context(params)).orders
    email = RULESET.rules({"orders_format": "bold_or_plain"})
    assert RULESET.parse_post(post, "Red", state, Context(email)).orders


def test_the_readmes_python_example_works_on_a_copy_and_leaves_the_sample_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """README, "What a GM does with it": the Python example runs as written (in a scratch
    folder holding a copy of data/) and commits into its copy, never into the bundled
    sample."""
    import re

    readme = (ROOT / "README.md").read_text("utf-8")
    code = re.search(r"From Python, the same workflow.*?```python\n(.*?)```", readme, re.S)[1]
    shutil.copytree(ROOT / "data", tmp_path / "data")
    before = sorted(p.name for p in (ROOT / "data" / "sample-cien" / "turns").iterdir())
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {})
    assert Game.open(tmp_path / "my-copy").latest_turn == Game.open(
        tmp_path / "data" / "sample-cien").latest_turn + 1
    assert sorted(p.name for p in (ROOT / "data" / "sample-cien" / "turns").iterdir()) == before


def test_cli_tables_are_not_squeezed_and_a_revision_shows_its_steps(tmp_path: Path) -> None:
    """CLI tables print as wide as they need ("government" is never broken), and
    'resolve --revise' shows the turn it resolved again, not one line."""
    game = Path(shutil.copytree(ROOT / "data" / "sample-cien", tmp_path / "g"))
    code, out, _ = cli("status", game, "--gm")
    assert code == 0 and "government" in out
    code, out, _ = cli("resolve", game, "--revise", "--why", "a second look")
    assert code == 0 and out.count("== ") >= 3 and "(a second look)" in out
