"""The GM's desk (gmkit.desk.desk), the API behind the turn notebooks, on a copy of the sample game:
the overview, previews that store nothing, stepping, dice entered by the GM, a commit that fails
half-way, and published summaries that keep secret posts secret."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from gmkit.core import store as gstore
from gmkit.desk import BUNDLED_SAMPLE, COPY_MARKER, Desk, DeskError, table_changes
from gmkit.game import Game

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample-cien"
SEED = hashlib.sha256(b"gmkit desk tests").hexdigest()
RED_ATTACK = "conquest:attack/Vauclerc/Red#0"


def tree_digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != ".lock"}


@pytest.fixture(scope="module")
def sample_digest() -> dict[str, str]:
    return tree_digest(SAMPLE)


@pytest.fixture
def desk(tmp_path: Path, sample_digest: dict[str, str]):
    game = Desk.working_copy(SAMPLE, tmp_path / "sample-cien")
    # the tests' own seed for the coming turn in place of the one the sample committed ahead
    for made in (game / "secret" / "0007.seed", game / "dice" / "0007.json"):
        made.unlink(missing_ok=True)
    Game.open(game).store.write_seed(7, SEED)
    yield Desk.open(game)
    assert tree_digest(SAMPLE) == sample_digest, "the bundled sample was modified"


# -- opening -------------------------------------------------------------------------------------

def test_working_copy_is_made_once_then_reused_and_never_replaces_a_foreign_folder(tmp_path):
    into = tmp_path / "copy"
    assert Desk.working_copy(SAMPLE, into) == into
    assert (into / COPY_MARKER).is_file() and (into / "game.toml").is_file()
    (into / "pending" / "note.txt").write_text("kept")
    Desk.working_copy(SAMPLE, into)
    assert (into / "pending" / "note.txt").exists(), "an existing copy is reused"
    Desk.working_copy(SAMPLE, into, fresh=True)
    assert not (into / "pending" / "note.txt").exists(), "fresh makes a new copy"
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "game.toml").write_text("")
    with pytest.raises(DeskError, match="not a working copy"):
        Desk.working_copy(SAMPLE, foreign, fresh=True)
    assert (foreign / "game.toml").exists()
    assert not list(tmp_path.glob(".*copying*"))


@pytest.mark.parametrize("make, expected", [
    (lambda p: p / "nowhere", "no such game folder"),
    (lambda p: (p / "file.txt").write_text("x") and p / "file.txt", "not a folder"),
    (lambda p: (p / "empty").mkdir() or p / "empty", "no game.toml"),
    (lambda p: (p / "bad").mkdir() or (p / "bad" / "game.toml").write_text("ruleset = [")
     and p / "bad", "malformed TOML"),
    (lambda p: (p / "odd").mkdir() or (p / "odd" / "game.toml").write_text('ruleset = "chess"')
     and p / "odd", "no ruleset 'chess'"),
])
def test_a_wrong_game_folder_is_a_clear_desk_error(tmp_path, make, expected):
    with pytest.raises(DeskError, match=expected) as err:
        Desk.open(make(tmp_path))
    assert "Traceback" not in str(err.value)


def test_the_bundled_sample_is_never_opened_in_place():
    with pytest.raises(DeskError, match="working copy"):
        Desk.open(BUNDLED_SAMPLE)


# -- the turn at a glance ------------------------------------------------------------------------

def test_overview_lists_who_has_and_has_not_sent_orders(desk):
    ov = desk.overview()
    assert (ov.turn, ov.latest_turn, ov.posts) == (7, 6, 5)
    assert set(ov.sent) == {"Red", "Gold", "Green", "Cyan", "Purple"} and ov.waiting == ()
    gold = desk.posts().filter(desk.posts()["player"] == "Gold")["seq"].item()
    desk.withdraw(gold)
    ov = desk.overview()
    assert ov.waiting == ("Gold",) and "Gold" not in ov.sent
    assert "Waiting for: Gold." in ov.summary()
    row = ov.standings.filter(ov.standings["player"] == "Gold").row(0, named=True)
    assert row["orders"] == "waiting" and row["treasury"] is not None and row["income"] > 0
    assert "Coyons (20)" in row["holdings"]
    orange = ov.standings.filter(ov.standings["player"] == "Orange").row(0, named=True)
    assert orange["orders"] == "\u2014", "an eliminated player is not waited for"
    svg = desk.map_svg()
    assert svg.startswith("<svg") and "Coyons" in svg


# -- posts ---------------------------------------------------------------------------------------

def test_preview_of_a_misspelt_province_says_did_you_mean_and_stores_nothing(desk):
    before = tree_digest(desk.root)
    post = ("Orders of Red\n[b]10 Grain for Conquest of Troies[/b]\n"
            "[b]2 Grain for Defense of Solsauvre[/b]\nLong live the Emperor!")
    pv = desk.preview_post("red", post)
    assert not pv.ok and pv.seq is None
    assert "line 2: no province 'Troies'; did you mean Tróys?" in pv.report()
    assert "10 Grain for Conquest of Troies" in pv.report(), "the line is quoted back"
    assert pv.orders["reads as"].to_list() == ["defend Solsauvre with 2 grain"]
    assert pv.orders["line"].to_list() == [3]
    assert not pv.counts and "#37" in pv.note, "Red's first post counts under the sample's rule"
    assert "did you mean" in pv.to_html() and "did you mean" in pv.to_text()
    assert tree_digest(desk.root) == before, "a preview stores nothing"


def test_preview_shows_validation_problems_against_the_pending_posts(desk):
    desk.withdraw(37)
    pv = desk.preview_post("Red", "[b]500 Grain for Defense of Solsauvre[/b]")
    assert pv.counts and not pv.problems, "the player has no other post"
    assert pv.rejected["line"].to_list() == [1] and "grain" in pv.rejected["reason"][0]
    assert pv.orders.is_empty(), "a line the rules reject is not also listed as read"
    assert "500 Grain for Defense of Solsauvre" in pv.report(), "the rejection quotes its line"
    assert not pv.ok


def test_a_post_with_no_orders_is_a_clear_message_and_is_not_stored(desk):
    pending = desk.posts().height
    for text in ("", "   \n  "):
        pv = desk.preview_post("Gold", text)
        assert pv.message and "empty" in pv.message
        with pytest.raises(DeskError, match="nothing was stored"):
            desk.receive("Gold", text)
    pv = desk.preview_post("Gold", "Hello all, [i]no orders[/i] from me this turn.")
    assert pv.message and "no orders could be read" in pv.message and not pv.ok
    with pytest.raises(DeskError, match="no orders could be read.*nothing was stored"):
        desk.receive("Gold", "Hello all, [i]no orders[/i] from me this turn.")
    assert desk.posts().height == pending
    with pytest.raises(DeskError, match="no player 'Mauve'"):
        desk.preview_post("Mauve", "[b]5 Grain for Defense of Coyons[/b]")


def test_receive_and_withdraw_change_the_turn_being_resolved(desk):
    desk.step()
    desk.step()
    assert desk.position == 2
    desk.withdraw(37)
    assert desk.position == 2, "the steps run so far are replayed"
    assert "Red" not in [r for r in desk.current().events["player"].to_list()]
    got = desk.receive("Red", "[b]3 Grain for Defense of Solsauvre[/b]", secret=True)
    assert got.seq == 42 and got.counts and got.ok
    assert any("Red sets aside 3 grain" in t for t in desk.current().events["text"].to_list())
    assert desk.posts()["seq"].to_list() == [38, 39, 40, 41, 42]
    with pytest.raises(DeskError, match="no pending post #37"):
        desk.withdraw(37)


# -- resolving -----------------------------------------------------------------------------------

def test_step_back_and_run_all(desk):
    assert desk.current() is None and desk.next_title == "New players"
    commitment = desk.commitment()
    assert commitment == hashlib.sha256(SEED.encode()).hexdigest()
    first = desk.step()
    assert (first.index, first.count, first.title) == (1, 11, "New players")
    views = [desk.step() for _ in range(4)]
    conquest = views[-1]
    assert conquest.name == "conquest" and conquest.rule
    assert set(conquest.dice.columns) >= {"draw_id", "purpose", "expression", "faces", "result",
                                          "source"}
    assert RED_ATTACK in conquest.dice["draw_id"].to_list()
    assert set(conquest.dice["source"].to_list()) == {"seeded"}
    assert conquest.events.height >= 5 and conquest.map_svg.startswith("<svg")
    assert "provinces" in conquest.changes
    invest = views[1]
    assert invest.name == "investment"
    changed = invest.changes["provinces"]
    assert changed.columns == ["name", "field", "before", "after"]
    assert ("Coyons", "output", "20", "22") in changed.rows()
    assert "output 20 -> 22" in invest.to_text() or "Coyons: output 20 -> 22" in invest.to_text()
    back = desk.back()
    assert back.name == "petitions" and desk.position == 4
    again = desk.step()
    assert again.dice.rows() == conquest.dice.rows(), "same seed, same dice"
    last = desk.run_all()
    assert last.done and last.next_title is None and desk.position == 11
    with pytest.raises(DeskError, match="every step has run"):
        desk.step()
    desk.restart()
    assert desk.position == 0 and desk.current() is None
    with pytest.raises(DeskError, match="no step to undo"):
        desk.back()


def test_stepping_again_after_a_restart_gives_the_same_steps(desk):
    """Stepping through, restarting and stepping again gives the same events and dice (the
    speed of a step is measured in bench/run.py, not here)."""
    first = [desk.step() for _ in range(desk.step_count)]
    desk.restart()
    again = [desk.step() for _ in range(desk.step_count)]
    assert [v.to_text() for v in first] == [v.to_text() for v in again]


def test_an_out_of_range_die_is_refused_naming_the_draw_and_the_die(desk):
    for _ in range(5):
        desk.step()
    before = desk.current().dice.rows()
    with pytest.raises(DeskError) as err:
        desk.enter_die(RED_ATTACK, 11)
    msg = str(err.value)
    assert RED_ATTACK in msg and "d10" in msg and "11" in msg
    for bad, what in ((0, "d10"), ("3 4", "1d10"), ("seven", "1d10"), ("", "enter a value")):
        with pytest.raises(DeskError, match=what):
            desk.enter_die(RED_ATTACK, bad)
    with pytest.raises(DeskError, match="did you mean conquest:attack/Vauclerc/Red"):
        desk.enter_die("conquest:attack/Vauclerk/Red", 5)
    assert desk.current().dice.rows() == before and desk.entered() == {}
    assert not (desk.root / "pending" / "dice-0007.txt").exists()


def test_a_valid_die_changes_the_result_and_shows_source_entered(desk):
    for _ in range(5):
        desk.step()
    seeded = {r["draw_id"]: r for r in desk.current().dice.iter_rows(named=True)}
    value = 1 if seeded[RED_ATTACK]["result"] != "1" else 2
    defend = RED_ATTACK.replace("attack", "defend")
    view = desk.enter_die(RED_ATTACK, str(value))
    desk.enter_die(defend, 10)
    view = desk.current()
    assert view.name == "conquest" and desk.position == 5
    rows = {r["draw_id"]: r for r in view.dice.iter_rows(named=True)}
    assert rows[RED_ATTACK]["result"] == str(value) and rows[RED_ATTACK]["source"] == "entered"
    assert rows[defend]["source"] == "entered"
    assert [t for t in view.events["text"].to_list() if t.startswith("Red attacks")][0].endswith(
        "the attack is repelled.")
    assert desk.entered() == {RED_ATTACK: value, defend: 10}
    saved = (desk.root / "pending" / "dice-0007.txt").read_text("utf-8")
    assert f"{RED_ATTACK} = {value}" in saved
    # a new desk on the same folder (the notebook restarted) keeps the entered dice
    again = Desk.open(desk.root)
    assert again.entered() == {RED_ATTACK: value, defend: 10}
    desk.clear_die(defend)
    assert desk.entered() == {RED_ATTACK: value}
    assert desk.draws().filter(desk.draws()["draw_id"] == defend)["source"].item() == "seeded"


def test_a_single_die_is_entered_under_its_bare_id_and_cleared_under_the_printed_one(desk):
    """A single die is printed as '<id>#0'; a GM used to the bare '<id>' (dice files written
    before) enters it that way, and entering it again under either id replaces the value."""
    for _ in range(5):
        desk.step()
    bare = RED_ATTACK.removesuffix("#0")
    desk.enter_die(bare, 3)
    rows = {r["draw_id"]: r for r in desk.current().dice.iter_rows(named=True)}
    assert rows[RED_ATTACK]["result"] == "3" and rows[RED_ATTACK]["source"] == "entered"
    desk.enter_die(RED_ATTACK, 4)
    assert desk.entered() == {RED_ATTACK: 4}
    desk.clear_die(bare)
    assert desk.entered() == {}


def test_table_changes_lists_rows_added_and_one_row_tables():
    import polars as pl
    a = pl.DataFrame({"x": [True], "y": [1]})
    b = pl.DataFrame({"x": [False], "y": [1]})
    assert table_changes(a, b).rows() == [("x", "yes", "no")]
    assert table_changes(a, b).columns == ["field", "before", "after"]  # no empty key column
    assert table_changes(a, a) is None
    c = pl.DataFrame({"a": ["p", "p"], "b": ["q", "r"]})
    d = pl.DataFrame({"a": ["p", "p"], "b": ["q", "s"]})
    assert set(table_changes(c, d)["field"].to_list()) == {"(removed)", "(new row)"}


# -- committing ----------------------------------------------------------------------------------

def test_a_commit_failing_half_way_leaves_the_last_turn_and_the_posts(desk, monkeypatch):
    desk.run_all()
    desk.enter_die(RED_ATTACK, 3)
    turns_before = tree_digest(desk.root / "turns")
    posts_before = desk.posts()
    writes = []
    real = gstore._write_bytes

    def failing(path, data):
        writes.append(path)
        if len(writes) == 4:
            raise OSError("disk full")
        real(path, data)

    monkeypatch.setattr(gstore, "_write_bytes", failing)
    with pytest.raises(DeskError) as err:
        desk.commit()
    assert len(writes) == 4, "the failure came half-way through writing the turn"
    msg = str(err.value)
    assert "turn 7 was not committed" in msg and "disk full" in msg and "turn 6" in msg
    assert tree_digest(desk.root / "turns") == turns_before
    assert not list((desk.root / "turns").glob(".staging*"))
    assert desk.game.latest_turn == 6 and Game.open(desk.root).store.check_turn(6) == []
    assert desk.posts().equals(posts_before)
    assert desk.entered() == {RED_ATTACK: 3} and desk.position == 11
    monkeypatch.setattr(gstore, "_write_bytes", real)
    assert desk.commit() == 7
    data = Game.open(desk.root).turn(7)
    assert data.entered == {RED_ATTACK: 3}
    assert desk.posts().is_empty() and desk.overview().turn == 8
    assert (desk.root / "pending" / "used" / "dice-0007.txt").exists()


def test_commit_reveal_publish_keeps_secret_posts_out_of_the_public_summaries(desk, tmp_path):
    canary_note, canary_order = "CANARY-NOTE-5d1f", "CANARY-ORDER-9b2e"
    desk.withdraw(39)  # Green's secret post; replaced by one carrying the canaries
    got = desk.receive("Green", f"Between us: {canary_note}, tell no one.\n"
                       "[b]9 Grain for Conquest of Dombrecy[/b]\n"
                       f"[b]4 Grain for Defense of {canary_order}[/b]\n"
                       "[b]3 Grain for Defense of Sevoy[/b]", secret=True)
    assert got.counts and len(got.rejected) == 1 and canary_order in got.report()
    with pytest.raises(DeskError, match="turn 0 is the set-up"):
        desk.publish_reports(tmp_path / "none", turn=0)
    assert not (tmp_path / "none").exists()
    with pytest.raises(DeskError, match="run every step"):
        desk.commit()
    desk.run_all()
    assert desk.commit() == 7
    with pytest.raises(DeskError, match="run every step of turn 8"):
        desk.commit()
    seed = desk.reveal()
    assert seed == SEED
    out = tmp_path / "reports"
    pub = desk.publish_reports(out)
    names = sorted(p.name for p in pub.paths)
    assert names == ["turn-0007-gm.bbcode", "turn-0007-gm.html", "turn-0007-public.bbcode",
                     "turn-0007-public.html"]
    assert pub.revealed and pub.turn == 7
    assert all(p.parent == out and p.stat().st_size > 0 for p in pub.paths)
    gm = b"".join(p.read_bytes() for p in pub.paths if "-gm" in p.name)
    assert canary_note.encode() in gm and canary_order.encode() in gm, "GM view shows it all"
    for path in out.rglob("*"):
        if "public" in path.name:
            data = path.read_bytes()
            for canary in (canary_note, canary_order):
                assert canary.encode() not in data, f"{canary} leaked into {path.name}"
                assert canary.encode("utf-16-le") not in data
    assert canary_note not in pub.bbcode["public"] and canary_note not in pub.html["public"]
    assert "<svg" in pub.html["public"] and "[b]" in pub.bbcode["public"]
    assert SEED in pub.html["public"]


def test_the_desk_writes_each_players_own_report_as_gmkit_report_does(desk, tmp_path):
    """Each player gets their own report from the desk, the same page ``gmkit report --view
    player:ID`` makes: Green's secret post is in Green's report and in no other player's."""
    from gmkit.core.reports import render
    from gmkit.publish.turns import report_for

    canary = "CANARY-GREEN-40c7"
    desk.withdraw(39)  # Green's secret post; replaced by one carrying the canary
    desk.receive("Green", f"Between us: {canary}.\n[b]9 Grain for Conquest of Dombrecy[/b]",
                 secret=True)
    desk.run_all()
    desk.commit()
    pub = desk.publish_reports(tmp_path / "reports")
    assert set(pub.players) == {p.id for p in desk.game.everyone()} and len(pub.players) > 1
    for pid, paths in pub.players.items():
        assert sorted(p.name for p in paths) == ["turn-0007.bbcode", "turn-0007.html"]
        page = next(p for p in paths if p.suffix == ".html").read_text("utf-8")
        view = f"player:{pid}"
        assert page == render(report_for(Game.open(desk.root), 7, view), view=view, fmt="html")
        assert (canary in page) == (pid == "Green"), pid


def test_step_maps_are_titled_with_the_turn_being_resolved_and_the_step_as_written(desk):
    """A step's map names the turn being resolved (7, not the last committed 6) and the step's
    title as the rules write it."""
    view = desk.step()
    assert f"Turn 7, after step 1: {view.title}" in (view.map_svg or "")
    assert "Turn 6" not in (view.map_svg or "")


def test_the_whole_turn_so_far_shows_every_step_its_dice_and_the_maps_before_and_after(desk):
    """After Run all steps the GM sees every step's events and dice, and the map before the
    turn and after its last step."""
    desk.run_all()
    whole = desk.turn_so_far()
    assert whole.done and len(whole.steps) == desk.step_count == 11
    page = whole.to_html()
    for view in desk.views():
        assert view.heading() in page
        for draw in view.dice["draw_id"].to_list():
            assert draw in page
    assert "Turn 7: before the turn" in (whole.map_before or "")
    assert "Turn 7, after step 11" in (whole.map_after or "")
    assert RED_ATTACK in page


def test_maps_shown_as_pictures_are_the_same_maps_each_in_one_element(desk):
    """A notebook shows a step's maps as pictures (one element each, titled as the map is), so
    that a click's result is drawn at once; the pictures are the very maps of the step."""
    import base64
    import re

    view = desk.step()
    whole = desk.turn_so_far()
    for page, maps in ((view.to_html(maps_as_images=True), [view.orders_svg, view.map_svg]),
                       (whole.to_html(maps_as_images=True), [whole.map_before, whole.map_after])):
        maps = [m for m in maps if m]
        assert maps and "<svg" not in page and page.count("<img") == len(maps)
        shown = [base64.b64decode(d).decode("utf-8")
                 for d in re.findall(r"src='data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)'", page)]
        assert shown == maps
        titles = re.findall(r"alt='([^']*)'", page)
        assert titles == [re.search(r"<title>(.*?)</title>", m).group(1) for m in maps]
    assert whole.to_html().count("<svg") == 2, "inline maps stay the default"


def test_summaries_written_before_the_reveal_say_so_and_the_reveal_writes_them_again(desk,
                                                                                    tmp_path):
    """Summaries written before the seed is revealed say so, naming their folder; Reveal the
    seed writes them again with it into the same folder."""
    desk.run_all()
    desk.commit()
    out = tmp_path / "early"
    early = desk.publish_reports(out)
    assert not early.revealed and early.folder == out.resolve()
    said = early.summary()
    assert str(out.resolve()) in said and "not revealed yet" in said
    assert SEED not in (out / "turn-0007-public.html").read_text("utf-8")
    assert desk.reveal() == SEED
    assert desk.published is not None and desk.published.revealed
    assert SEED in (out / "turn-0007-public.html").read_text("utf-8")
    assert "not revealed" not in desk.published.summary()


def test_the_map_zooms_and_pans_in_a_scrolling_frame():
    """The GM zooms a large map (a hex world) and pans it: the map keeps its inline SVG (hover
    titles and all) at the chosen share of its own size in a frame that scrolls; the zoom is
    held to 25-800%. At 100% and below it fits the frame and the window, never drawn larger
    than its own size (its title and legend keep the size they were set in)."""
    from gmkit.desk import zoomable_map

    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="300" '
           'height="480"><title>t</title></svg>')
    page = zoomable_map(svg, 250)
    assert "overflow:auto" in page and "width:750px" in page and "<title>t</title>" in page
    assert "max-width:none" in page
    assert "width:2400px" in zoomable_map(svg, 5000) and "width:75px" in zoomable_map(svg, 1)
    first_sight = zoomable_map(svg, 100)
    assert "width:300px" in first_sight and "max-width:100%;max-height:80vh" in first_sight
    picture = zoomable_map(svg, 100, as_image=True)
    assert "<img style='display:block;width:300px" in picture and "<svg" not in picture
    sizeless = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"></svg>'
    assert "width:250%" in zoomable_map(sizeless, 250)

def test_a_commit_made_in_another_tab_is_said_in_words(tmp_path):
    """Two desks on one folder (two browser tabs of one notebook): each resolves the turn on
    its own; once one commits, the other sees that the folder moved on, and its own commit is
    refused in words naming the turn committed elsewhere, writing nothing."""
    game = tmp_path / "game"
    shutil.copytree(BUNDLED_SAMPLE, game)
    first, second = Desk.open(game), Desk.open(game)
    turn = first.turn
    first.run_all()
    second.run_all()
    assert second.ready_to_commit and not second.folder_moved_on()
    assert first.commit() == turn
    assert not first.folder_moved_on()  # its own commit is no news to it
    latest = sorted((game / "turns").iterdir())
    with pytest.raises(DeskError, match=rf"another tab \(or a gmkit command\) committed turn "
                                        rf"{turn} while this tab was resolving it"):
        second.commit()
    assert sorted((game / "turns").iterdir()) == latest  # nothing written
    assert second.turn == turn + 1 and not second.ready_to_commit
    third = Desk.open(game)
    third.run_all()
    Desk.open(game).run_all()
    assert Desk.open(game).turn == turn + 1
    assert third.commit() == turn + 1
    assert second.folder_moved_on() and second.superseded is None  # it had no resolution
