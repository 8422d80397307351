"""Publishing again into a site trusts nothing the site holds: what it keeps from the last
publish it checks against its inputs. A player's private page copied into the public site, an
index rewritten to keep a superseded revision's page, a dice entry of the index or the checker's
data with a seeded roll relabelled "entered" (a new value) or removed: each is drawn again from
the game, and the site is the one a publish into a new folder draws."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from gmkit.core.views import Viewer
from gmkit.game import Game
from gmkit.publish import dicecheck
from gmkit.publish.site import publish_counted
from gmkit.publish.site_inputs import INDEX, SiteInputs
from gmkit.sweeps.playout import play
from tests.test_site_incremental import PLAYERS, assert_fresh, files, publish


@pytest.fixture
def game(tmp_path: Path) -> Game:
    game = Game.new(tmp_path / "game", "cien", PLAYERS, title="Trust")
    return play(game, 4, master="trust")


def _index(site: Path) -> dict[str, Any]:
    return json.loads((site / INDEX).read_text("utf-8"))


def _seeded(entry: dict[str, Any]) -> int:
    """The position of the first seeded roll of an entry."""
    return next(i for i, r in enumerate(entry["rolls"]) if r["source"] == "seeded")


def test_a_private_page_copied_into_the_public_site_is_drawn_again(
        game: Game, tmp_path: Path) -> None:
    """A player's private page (their secret posts and results) copied over the public page of
    its turn does not stay public: the next publish draws the public page again."""
    site, players = tmp_path / "site", tmp_path / "players"
    publish_counted(Game.open(game.root), site, workers=1, players=players)
    private = players / "Red" / "turn-0003.html"
    assert private.read_bytes() != (site / "turn-0003.html").read_bytes()
    (site / "turn-0003.html").write_bytes(private.read_bytes())
    assert publish(game, site) >= 1
    assert "private to Red" not in (site / "turn-0003.html").read_text("utf-8")
    assert_fresh(game, site, tmp_path)


def test_an_index_rewritten_to_keep_a_superseded_revision_is_not_trusted(
        game: Game, tmp_path: Path) -> None:
    """The turn re-resolved as a new revision, and the site's index rewritten to say its old
    page was drawn from the new inputs: the page names the inputs it was drawn from, and the
    next publish draws the new revision's page."""
    site = tmp_path / "site"
    publish(game, site)
    g = Game.open(game.root)
    assert g.re_resolve(None, reason="a ruling").revision == 1
    index = _index(site)
    inputs = SiteInputs(Game.open(game.root), Viewer.public())
    for t in inputs.turns[1:]:
        name, key = f"turn-{t:04d}.html", inputs.turn_key(t)
        page = index["pages"][name]
        if isinstance(page, dict):
            page["key"] = key
        else:
            index["pages"][name] = key
        index["entries"][str(t)]["key"] = key
    (site / INDEX).write_text(json.dumps(index), "utf-8")
    publish(game, site)
    assert "revision 1" in (site / "turn-0004.html").read_text("utf-8")
    assert_fresh(game, site, tmp_path)


@pytest.mark.parametrize("forgery", ["entered", "removed"])
def test_a_kept_dice_entry_is_checked_against_the_turns_record(
        game: Game, tmp_path: Path, forgery: str) -> None:
    """A seeded roll of a turn's kept dice entry relabelled "entered" with a new value (which
    the checker cannot recompute), or removed: the next publish takes the entry from the turn's
    record, so the checker carries the roll as it was rolled."""
    site = tmp_path / "site"
    publish(game, site)
    index = _index(site)
    entry = index["entries"]["2"]["entry"]
    k = _seeded(entry)
    if forgery == "entered":
        entry["rolls"][k].update(source="entered", result="6")
    else:
        del entry["rolls"][k]
    (site / INDEX).write_text(json.dumps(index), "utf-8")
    play(Game.open(game.root), 1, master="trust", reveal=False)  # the checker is drawn again
    publish(game, site)
    assert_fresh(game, site, tmp_path)
    doc = dicecheck.read_document((site / dicecheck.PAGE).read_text("utf-8"))
    want = dicecheck.recorded_entry(Game.open(game.root), 2, Viewer.public())
    assert doc["turns"][1] == json.loads(json.dumps(want))


def test_the_checkers_own_data_edited_is_drawn_again(game: Game, tmp_path: Path) -> None:
    """The checker page's data edited in place (a seeded roll removed), nothing new in the
    game: the page is not the one the index recorded, so it is drawn again."""
    site = tmp_path / "site"
    publish(game, site)
    page = site / dicecheck.PAGE
    html = page.read_text("utf-8")
    doc = dicecheck.read_document(html)
    del doc["turns"][1]["rolls"][_seeded(doc["turns"][1])]
    forged = re.sub(r'(<script type="application/json" id="dice-data">)(.*?)(</script>)',
                    lambda m: m.group(1) + dicecheck._json_in_html(doc) + m.group(3), html,
                    flags=re.S)
    page.write_text(forged, "utf-8")
    assert publish(game, site) >= 1
    assert_fresh(game, site, tmp_path)


def test_every_entry_the_record_gives_is_the_one_the_turn_page_prints(
        game: Game, tmp_path: Path) -> None:
    """The entry taken from a turn's record (to check what a site kept) is the entry a turn
    page is drawn from, for the public and for a player."""
    from gmkit.publish.site import _turn_report

    g = Game.open(game.root)
    for viewer in (Viewer.public(), Viewer.player("Red")):
        for t in range(1, g.latest_turn + 1):
            _, entry = _turn_report(g, t, viewer)
            assert json.loads(json.dumps(entry)) == json.loads(json.dumps(
                dicecheck.recorded_entry(g, t, viewer)))


def test_a_cached_part_altered_in_the_site_is_drawn_again(game: Game, tmp_path: Path) -> None:
    """A part of the history kept in the site (a turn's map) altered in place is not used:
    the history page is drawn as a fresh publish draws it."""
    site = tmp_path / "site"
    publish(game, site)
    cached = sorted((site / ".gmkit-cache").glob("map-*.svg"))
    assert cached
    for part in cached:
        part.write_text(part.read_text("utf-8").replace("<svg", "<svg data-forged='1'", 1),
                        "utf-8")
    play(Game.open(game.root), 1, master="trust", reveal=False)  # the history is drawn again
    publish(game, site)
    assert "data-forged" not in (site / "history.html").read_text("utf-8")
    assert_fresh(game, site, tmp_path)
    assert files(site)  # the site is whole
