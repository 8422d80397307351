"""A player recomputes the dice from the published site alone (README, "Verifiable dice"): read a
turn page's draw ids, expressions, results, turn number and revealed seed, paste the README's code
as it stands, and get every public seeded roll again: dice, choices (plain and weighted) and
shuffles."""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gmkit.cli import main
from gmkit.core.boards.resources import default_board_map
from gmkit.core.dice import Dice, commitment, new_seed
from gmkit.core.reports import RollLine, StepSection, TurnReport, render_html
from gmkit.core.ruleset import find_ruleset
from gmkit.game import Game, rolls_frame
from gmkit.sweeps.playout import play
from gmkit.publish.summary import _result_text

ROOT = Path(__file__).resolve().parents[1]

ROW = re.compile(r'<code class="draw">(?P<id>.*?)</code></td>\s*<td>.*?</td>\s*'
                 r"<td><code>(?P<expression>.*?)</code></td>\s*"
                 r"<td><strong>(?P<result>.*?)</strong></td>\s*<td>(?P<source>.*?)</td>", re.S)
TURN = re.compile(r'<div class="subtitle">[^<]*· Turn (\d+)')
SEED = re.compile(r"<dt>Revealed seed</dt>\s*<dd><code>([0-9a-f]{64})</code>")
COMMITMENT = re.compile(r"<dt>Seed commitment \(sha256\)</dt>\s*<dd><code>([0-9a-f]{64})</code>")
DICE = re.compile(r"^(\d+)d(\d+)$")


def readme_code() -> dict[str, Callable[..., Any]]:
    """The README's "Verifiable dice" code block, pasted verbatim and run."""
    text = (ROOT / "README.md").read_text("utf-8")
    section = text[text.index("## Verifiable dice"):]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block, "README's Verifiable dice section has no python block"
    names: dict[str, Any] = {}
    exec(compile(block.group(1), "README.md", "exec"), names)
    return names


def page_rolls(page: str) -> tuple[int, str, str, list[dict[str, str]]]:
    """What a player reads on a turn page: the turn, the revealed seed, the commitment, the
    rolls (each as printed)."""
    turn, seed, posted = TURN.search(page), SEED.search(page), COMMITMENT.search(page)
    assert turn and seed and posted, "a revealed turn page prints its turn, seed and commitment"
    rows = [{k: html.unescape(v) for k, v in m.groupdict().items()} for m in ROW.finditer(page)]
    return int(turn.group(1)), seed.group(1), posted.group(1), rows


def recompute(code: dict[str, Callable[..., Any]], seed: str, turn: int,
              row: dict[str, str]) -> str:
    """A roll as the README says to recompute it, written as the page prints its result."""
    draw_id, expression = row["id"], row["expression"]
    dice = DICE.match(expression)
    if dice:
        faces = code["dice"](seed, turn, draw_id, int(dice.group(1)), int(dice.group(2)))
        return str(faces[0]) if len(faces) == 1 else \
            f"{' + '.join(map(str, faces))} = {sum(faces)}"
    if expression.startswith("choice(") and expression.endswith(")"):
        parts = expression[len("choice("):-1].split(", ")
        if all(re.search(r":\d+$", p) for p in parts):
            options = [p.rsplit(":", 1)[0] for p in parts]
            weights = [int(p.rsplit(":", 1)[1]) for p in parts]
            return str(code["choice"](seed, turn, draw_id, options, weights))
        return str(code["choice"](seed, turn, draw_id, parts))
    if expression.startswith("shuffle(") and expression.endswith(")"):
        items = expression[len("shuffle("):-1].split(", ")
        return ", ".join(code["shuffle"](seed, turn, draw_id, items))
    if expression == "U[0,1)":
        return f"{code['uniform'](seed, turn, draw_id):.6f}"
    raise AssertionError(f"the README does not say how to recompute {expression!r}")


def check_page(code: dict[str, Callable[..., Any]], page: str) -> list[str]:
    """Recompute every seeded roll of a page; the kinds of roll seen (die, choice, ...)."""
    turn, seed, posted, rows = page_rolls(page)
    assert code["commitment_ok"](seed, posted)
    kinds = []
    for row in rows:
        assert unicodedata.is_normalized("NFC", row["id"])
        if row["source"].strip() != "seeded":
            continue
        assert recompute(code, seed, turn, row) == row["result"], (turn, row)
        kind = row["expression"].split("(")[0]
        weighted = kind == "choice" and re.search(r":\d+\)$", row["expression"])
        kinds.append("die" if DICE.match(kind) else "weighted choice" if weighted else kind)
    return kinds


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Played games (dice and choices in cien, a shuffle in the example game), every seed
    revealed, each published with ``gmkit publish``."""
    out = []
    for ruleset, master in (("cien", "golden"), ("example", "a")):
        tmp = tmp_path_factory.mktemp(ruleset)
        rs = find_ruleset(ruleset)
        game = Game.new(tmp / "game", ruleset, rs.example_players(default_board_map(rs)),
                        title=f"recompute {ruleset}")
        play(game, 6, master)
        for t in game.store.turns()[1:]:
            game.reveal(t)
        res = CliRunner().invoke(main, ["publish", str(tmp / "game"), "--out",
                                        str(tmp / "site")])
        assert res.exit_code == 0, res.output
        out.append(tmp / "site")
    return out


def test_a_player_recomputes_every_public_roll_of_a_published_game_with_the_readme_code(
        sites: list[Path]) -> None:
    """README, "Verifiable dice": with the revealed seed, the turn number and each roll's id and
    expression as a turn page prints them, the README's code gives every seeded roll's result
    (the ids printed are the ids derived from)."""
    code = readme_code()
    kinds: list[str] = []
    pages = 0
    for site in sites:
        for path in sorted(site.glob("turn-*.html")):
            kinds += check_page(code, path.read_text("utf-8"))
            pages += 1
    assert pages >= 10  # a game may end before its sixth turn
    assert {"die", "choice", "shuffle"} <= set(kinds), set(kinds)
    assert len(kinds) >= 50


def test_weighted_choices_several_dice_and_uniform_numbers_are_recomputed_from_a_page() -> None:
    """README, "Verifiable dice": a weighted choice walks the weights, the i-th die of NdK comes
    from '<id>#<i>', a shuffle swaps from the last item down, a uniform number is the top 53 bits;
    each recomputed from a public turn page with the README's code."""
    seed = new_seed()
    dice = Dice(seed, 4, "battle")
    for n in range(20):
        dice.choice(["Red", "Green", "Blue"], weights=[5, 0, 2], purpose="weighted",
                    rule="1", key=f"w/{n}")
        dice.roll(3, 6, purpose="three dice", rule="1", key=f"three/Tróys/{n}")
        dice.d(20, purpose="one die", rule="1", key=f"one/{n}")
        dice.shuffle(["Ámbar", "Birch", "Cedar", "Dune"], purpose="order", rule="1",
                     key=f"order/{n}")
        dice.uniform(purpose="chance", rule="1", key=f"u/{n}")
    frame = rolls_frame(dice.log)
    rolls = tuple(RollLine(r["draw_id"], r["purpose"], r["rule"], r["expression"],
                           _result_text(r["result"], r["expression"]), r["source"], r["public"],
                           r["player"]) for r in frame.iter_rows(named=True))
    page = render_html(TurnReport("Game", "Rules", 4, view="public", seed=seed,
                                  seed_commitment=commitment(seed),
                                  steps=(StepSection("battle", "Battle", "1", rolls=rolls),)))
    kinds = check_page(readme_code(), page)
    assert sorted(set(kinds)) == ["U[0,1)", "die", "shuffle", "weighted choice"]
    assert len(kinds) == 100


def test_the_commitment_is_the_sha256_of_the_64_hex_characters_not_of_the_seed_file() -> None:
    """README, "Verifiable dice": the commitment is sha256 over the 64 hex characters; the seed
    file's trailing newline is not part of it."""
    code = readme_code()
    seed = new_seed()
    assert code["commitment_ok"](seed, commitment(seed))
    assert not code["commitment_ok"](seed + "\n", commitment(seed))
