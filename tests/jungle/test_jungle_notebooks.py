"""The Law of the Jungle in the notebooks: the turn notebook opens the bundled sample
(``--sample jungle``) with the cities' hexes, units and characters on the hex board; the desk
steps through the two action rounds character by character; the history notebook follows each
house's Fame over the council sessions."""

from __future__ import annotations

from pathlib import Path

import pytest

from gmkit.publish import history
from gmkit.desk import Desk, sample_working_copy

from tests.sample_notebooks import export_turn_notebook, run_history_notebook, sample_tree

ROOT = Path(__file__).resolve().parent.parent.parent
SAMPLE = ROOT / "data" / "sample-jungle"


def _tree() -> dict[str, str]:
    return sample_tree(SAMPLE)


def test_the_sample_has_at_least_eight_houses_several_sessions_in() -> None:
    """The sample game: at least eight houses, several council sessions committed, the next
    session's posts (the GM's figures among them) pending."""
    desk = Desk.open(SAMPLE)
    assert desk.game.ruleset.name == "jungle"
    assert len(desk.game.state()["houses"]) >= 8
    assert desk.game.latest_turn >= 3
    pending = desk.game.store.pending_posts(desk.game.next_turn)
    assert "gm" in pending["player"].to_list()  # the GM's own post, no player's


def test_the_desk_steps_the_two_rounds_character_by_character(tmp_path: Path) -> None:
    """CHARACTER ACTIONS: the GM steps action by action: each round's order of play, then each
    character's action titled with his name, in the Morning and in the Afternoon."""
    copy = sample_working_copy(ROOT, sample="jungle", into=tmp_path / "sj")
    desk = Desk.open(copy)
    titles = []
    while True:
        view = desk.step()
        titles.append(view.title)
        if view.done:
            break
    first = titles.index("First actions: order of play")
    second = titles.index("Second actions: order of play")
    assert first < second
    morning = titles[first + 1:second]
    assert morning and all(t.startswith("First actions: ") for t in morning[:-1])
    assert any(t.startswith("Second actions: ") for t in titles[second + 1:])
    assert titles[-1] == "The session ends"


def test_turn_notebook_exports_the_jungle_sample_on_the_hex_board(tmp_path: Path) -> None:
    """The turn notebook on the sample: the hex map with the cities and their Tlatoani, the
    standings by house with their Fame, the commitment of the coming session's dice; the
    bundled sample is left untouched."""
    before = _tree()
    out = tmp_path / "turn.html"
    game = sample_working_copy(ROOT, sample="jungle", into=tmp_path / "sample-jungle")
    page = export_turn_notebook(game, out, timeout=300)
    assert "svg xmlns" in page and "Tenochtitlan" in page, "the map"
    assert "fame" in page, "the standings"
    latest = Desk.open(game).game.latest_turn
    assert f"Dice commitment for turn {latest + 1}" in page
    assert _tree() == before, "the bundled sample was modified"


def test_history_notebook_follows_fame_per_house_and_per_character(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The victory is the most total Fame: the history notebook's metrics include each house's
    Fame, living characters, titles and the gods' favour, session by session; and it follows
    Fame per character (the public view: no character's XP)."""
    defs = run_history_notebook(SAMPLE, monkeypatch, "jungle")
    series = defs["series"]
    assert {"fame", "characters", "titles", "favour"} <= set(history.metrics(series))
    fame = series.filter((series["metric"] == "fame") & (series["player"] == "Ocelotl"))
    assert fame["turn"].to_list() == list(range(0, Desk.open(SAMPLE).game.latest_turn + 1))
    chars = defs["subject_series"]
    assert {"fame", "titles"} <= set(history.metrics(chars)) and "xp" not in set(chars["metric"])
    assert chars.filter(chars["metric"] == "fame")["value"].max() > 0
    assert set(chars["player"]) <= set(Desk.open(SAMPLE).game.player_ids())
