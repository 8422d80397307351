"""The Jupyter panel (gmkit.desk.panel) over a copy of the sample game, as a GM uses it: each button
says what it did beside the buttons the GM pressed, a refused die stays in its field, a
withdrawn post is no longer offered, and summaries written before the reveal say so, name their
folder and are shown again once the seed is revealed."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from gmkit.desk import Desk
from gmkit.game import Game

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample-cien"
SEED = hashlib.sha256(b"gmkit panel tests").hexdigest()
RED_ATTACK = "conquest:attack/Vauclerc/Red#0"

pytest.importorskip("ipywidgets")


@pytest.fixture
def panel(tmp_path: Path):
    from gmkit.desk.panel import DeskPanel

    game = Desk.working_copy(SAMPLE, tmp_path / "sample-cien")
    store = Game.open(game).store
    if store.read_seed(7) is None:  # a sample that commits ahead already keeps turn 7's
        store.write_seed(7, SEED)
    return DeskPanel(Desk.open(game), out_dir=tmp_path / "reports")


def test_each_message_shows_beside_the_buttons_the_gm_pressed(panel) -> None:
    """A step's outcome shows in the resolution section, a refused die in the dice section, a
    refused post in the orders section: where the GM acted, not at the top of the page."""
    panel["next"].click()
    assert "Step 1 of" in panel["said_resolve"].value
    assert panel["said_dice"].value == "" and panel["said_orders"].value == ""
    panel["draw"].value = RED_ATTACK
    panel["value"].value = "11"
    panel["enter"].click()
    assert "does not fit" in panel["said_dice"].value
    assert "#b3261e" in panel["said_dice"].value, "a refusal is red"
    assert panel.message[0] == "danger"
    panel["player"].value = "Gold"
    panel["text"].value = "Hello all, no orders from me this turn."
    panel["store"].click()
    assert panel["said_orders"].value and panel.message[0] == "danger"
    assert "does not fit" in panel["said_dice"].value, "each section keeps its own message"


def test_a_refused_die_stays_in_its_field_and_an_entered_one_clears_it(panel) -> None:
    """A value the desk refuses is left in the field for the GM to correct; a value taken is
    cleared, ready for the next die."""
    panel["next"].click()
    panel["draw"].value = RED_ATTACK
    panel["value"].value = "11"
    panel["enter"].click()
    assert panel["value"].value == "11"
    panel["value"].value = "10"
    panel["enter"].click()
    assert panel.message == ("success", f"die {RED_ATTACK} = 10 entered")
    assert panel["value"].value == ""
    assert 10 in panel.desk.entered().values()


def test_a_withdrawn_post_is_no_longer_offered(panel) -> None:
    """After Withdraw, the posts table and the list of posts to withdraw no longer hold the
    post; nothing chosen is a plain message, not an error from the store."""
    offered = [seq for _, seq in panel["seq"].options]
    assert 37 in offered and ">37<" in panel["posts"].value
    panel["seq"].value = 37
    panel["why"].value = "posted twice"
    panel["withdraw"].click()
    assert panel.message == ("success", "post #37 withdrawn: posted twice")
    assert "post #37 withdrawn" in panel["said_withdraw"].value
    assert 37 not in [seq for _, seq in panel["seq"].options]
    assert ">37<" not in panel["posts"].value
    panel["withdraw"].click()
    assert panel.message == ("danger", "choose the post to withdraw")


def test_summaries_written_before_the_reveal_say_so_name_their_folder_and_are_refreshed(
        panel, tmp_path: Path) -> None:
    """Write the summaries before Reveal says the seed is not revealed yet and where the files
    went; Reveal writes them again with the seed and the panel shows the new ones."""
    panel["run_all"].click()
    panel["commit"].click()
    assert "committed" in panel["said_publish"].value
    panel["publish"].click()
    kind, text = panel.message
    folder = (tmp_path / "reports").resolve()
    assert kind == "success" and str(folder) in text and "not revealed yet" in text
    assert str(folder) in panel["published"].value
    assert "not revealed yet" in panel["published"].value
    before = panel["published"].value
    panel["reveal"].click()
    kind, text = panel.message
    assert kind == "success" and f"written again with it into {folder}" in text
    assert panel["published"].value != before
    assert "not revealed yet" not in panel["published"].value
    seed = Game.open(tmp_path / "sample-cien").store.read_seed(7)  # SEED, or the sample's own
    assert seed and seed in (folder / "turn-0007-public.html").read_text(encoding="utf-8")


def test_the_preview_updates_while_typing(panel) -> None:
    """The preview of a pasted post follows the text as it is typed (no need to leave the
    field)."""
    assert panel["text"].continuous_update
    panel["player"].value = "Red"
    panel["text"].value = "[b]10 Grain for Conquest of Troies[/b]"
    assert "did you mean" in panel["preview"].value


def test_the_panel_has_the_notebooks_tabs_and_guards_the_dice(panel) -> None:
    """The panel shows the GM's work in the turn notebook's tabs, and its "Odds and commitment"
    tab guards the dice as the notebook does: the order deadline is set there (a bad time is
    refused in red and stays in its field), and the guard lists it."""
    from gmkit.desk.panel import TABS

    notebook = (ROOT / "notebooks" / "turn.py").read_text("utf-8")
    assert all(f'"{title}"' in notebook for title in TABS)
    assert tuple(panel.widget.titles) == TABS and len(panel.widget.children) == len(TABS)
    panel["deadline"].value = "next Tuesday"
    panel["set_deadline"].click()
    assert panel.message[0] == "danger" and "deadline not set" in panel["said_guard"].value
    assert panel["deadline"].value == "next Tuesday"
    panel["deadline"].value = "2030-01-01T18:00:00+00:00"
    panel["set_deadline"].click()
    assert panel.message[0] == "success" and "2030-01-01T18:00:00" in panel["said_guard"].value
    assert "Order deadline: 2030-01-01T18:00:00" in panel["guard"].value


def test_a_withdrawal_without_its_reason_is_refused_and_the_post_stays(panel) -> None:
    """A withdrawal asks for its reason, as ``gmkit withdraw --why`` does: none given, nothing
    is withdrawn; given, it is kept with the post set aside."""
    panel["seq"].value = 37
    panel["withdraw"].click()
    assert panel.message[0] == "danger" and "say why post #37" in panel.message[1]
    assert 37 in [seq for _, seq in panel["seq"].options]
    panel["seq"].value = 37
    panel["why"].value = "filed under the wrong player"
    panel["withdraw"].click()
    kept = panel.desk.root / "pending" / "withdrawn" / "00037.json"
    assert "filed under the wrong player" in kept.read_text("utf-8")


def test_write_the_summaries_before_committing_writes_nothing_old(panel, tmp_path) -> None:
    """Before a commit, Write the summaries says there is nothing new to write (it used to
    write the previous turn's); after Commit it writes the turn just committed, and the
    summaries shown before a commit are cleared by it."""
    panel["publish"].click()
    assert panel.message[0] == "danger" and "nothing new to write" in panel.message[1]
    assert not (tmp_path / "reports").exists() and panel["published"].value == ""
    panel["run_all"].click()
    panel["commit"].click()
    panel["publish"].click()
    assert panel.message[0] == "success" and "summaries of turn 7" in panel.message[1]
    written = sorted(p.name for p in (tmp_path / "reports").iterdir() if p.is_file())
    assert written[0].startswith("turn-0007")  # (each player's report is in players/)
    panel["publish"].click()
    assert "nothing new to write" in panel.message[1]


def test_the_tab_labels_take_the_width_they_need(panel) -> None:
    """The panel's tab labels are not cut ("Commit and publish" in full): the panel carries
    the style that lets each tab take its label's width."""
    from gmkit.desk.panel import TAB_STYLE, TABS

    assert "gmkit-panel" in panel.widget._dom_classes
    assert list(panel.widget.titles) == list(TABS)
    first = panel.widget.children[0]
    assert any(getattr(c, "value", "") == TAB_STYLE for c in first.children)
    assert "max-width: none" in TAB_STYLE and "flex: 0 0 auto" in TAB_STYLE


def test_notebook_checkpoints_are_ignored_by_git() -> None:
    """Jupyter's .ipynb_checkpoints folders (beside any notebook) are never committed."""
    import shutil
    import subprocess

    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    got = subprocess.run(["git", "check-ignore", "-q",
                          "notebooks/.ipynb_checkpoints/turn-checkpoint.ipynb"], cwd=ROOT)
    assert got.returncode == 0


def test_the_turn_tab_links_the_forum_map_of_the_latest_turn(panel) -> None:
    """The forum image: a "download the map" link in the panel itself (Jupyter), the public
    map after the latest turn as a PNG, made again once the GM commits the next turn."""
    import base64
    import re

    def linked() -> tuple[str, bytes]:
        html = panel["map_download"].value
        name = re.search(r'download="([^"]+)"', html)[1]
        return name, base64.b64decode(re.search(r"base64,([^\"]+)", html)[1])

    name, png = linked()
    assert name == "map-turn-0006.png" and png[:8] == b"\x89PNG\r\n\x1a\n"
    panel["run_all"].click()
    panel["commit"].click()
    assert panel.desk.game.latest_turn == 7, panel.message
    assert linked()[0] == "map-turn-0007.png"
