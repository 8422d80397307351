"""Who sees what: the viewer, the rules of visibility over the log, the rulesets' views of the
state, reports narrowed for a viewer, and the players' own pages kept apart."""

from __future__ import annotations

import polars as pl
import pytest
from click.testing import CliRunner

from gmkit.cli import main
from gmkit.core.dice import Roll
from gmkit.core.reports import (EventLine, OrderPost, RollLine, StepSection, TurnReport,
                                render_bbcode, render_html, view_report)
from gmkit.core.steps import Event
from gmkit.core.views import (Viewer, sees_event, sees_post, visible_events, visible_orders,
                              visible_rolls)
from gmkit.game import Game
from gmkit.sweeps.playout import play
from gmkit.publish.site import PublishError, publish


def test_viewer_is_written_and_parsed_back():
    """A viewer is the GM, the public, or one player, written "gm", "public", "player:ID"."""
    for v in (Viewer.gm(), Viewer.public(), Viewer.player("Red")):
        assert Viewer.parse(str(v)) == v
    assert Viewer.parse("player:Red").player_id == "Red"
    for bad in ("players", "player:", "player", "GM", "player: Red", ""):
        with pytest.raises(ValueError):
            Viewer.parse(bad)


def test_public_is_seen_by_all_and_a_secret_by_the_gm_and_its_player():
    """Public events and rolls everyone sees; a non-public one the GM and the player it
    concerns; one that concerns no player the GM alone."""
    red, gold = Viewer.player("Red"), Viewer.player("Gold")
    open_ev = Event("battle", "1", "open", player="Red")
    red_secret = Event("spend", "1", "grain", player="Red", public=False)
    nobody = Roll(1, "s", "s:1", "hidden", "1", "1d6", [3], "seeded", public=False)
    assert all(sees_event(v, open_ev) for v in (Viewer.public(), red, gold, Viewer.gm()))
    assert [sees_event(v, red_secret) for v in (Viewer.gm(), Viewer.public(), red, gold)] == \
        [True, False, True, False]
    assert [sees_event(v, nobody) for v in (Viewer.gm(), Viewer.public(), red)] == \
        [True, False, False]
    assert sees_post(red, "Red", True) and not sees_post(gold, "Red", True)
    assert sees_post(Viewer.public(), "Red", False)


def test_visible_frames_follow_the_same_rules():
    """The stored log frames are filtered by the same rules."""
    log = pl.DataFrame({"public": [True, False, False], "player": ["Red", "Red", None]})
    assert visible_events(log, "gm").height == 3
    assert visible_events(log, "public").height == 1
    assert visible_rolls(log, "player:Red").height == 2
    assert visible_rolls(log, "player:Gold").height == 1
    posts = pl.DataFrame({"secret": [False, True, True], "player": ["Gold", "Red", "Gold"]})
    assert visible_orders(posts, "public")["player"].to_list() == ["Gold"]
    assert visible_orders(posts, "player:Red")["player"].to_list() == ["Gold", "Red"]
    assert visible_orders(posts, Viewer.gm()).height == 3


def test_a_secret_shared_with_other_players_is_seen_by_them_alone():
    """A non-public event or roll may concern several players (two houses joined into one): the
    GM, its player and the players it is shared with see it; no one else does, in the log's
    frames as in the events themselves, and a log written before events could be shared reads
    as shared with no one."""
    ev = Event("offering", "1", "grain", player="Red", public=False, shared_with=("Blue",))
    roll = Roll(1, "s", "s:1", "offering", "1", "U", 0.5, "seeded", public=False, player="Red",
                shared_with=("Blue",))
    for item in (ev, roll):
        assert [sees_event(v, item) for v in ("gm", "public", "player:Red", "player:Blue",
                                              "player:Gold")] == [True, False, True, True, False]
    log = pl.DataFrame({"public": [False, False, True], "player": ["Red", "Gold", None],
                        "shared_with": [["Blue"], None, None]})
    assert visible_events(log, "player:Blue")["player"].to_list() == ["Red", None]
    assert visible_rolls(log, "player:Gold")["player"].to_list() == ["Gold", None]
    assert visible_events(log.drop("shared_with"), "player:Blue").height == 1


@pytest.fixture(scope="module")
def cien(tmp_path_factory) -> Game:
    root = tmp_path_factory.mktemp("views") / "game"
    players = [{"id": "Red", "name": "Lord Red", "state": "Solsauvre", "government": "duchy"},
               {"id": "Gold", "name": "Lord Gold", "state": "Coyons",
                "government": "city-state"},
               {"id": "Green", "name": "Lord Green", "state": "Guicardie",
                "government": "duchy"}]
    return play(Game.new(root, "cien", players), 2, master="views")


def test_cien_player_sees_their_own_treasury_only(cien):
    """Cien: a lord's treasury and defence and investment spending are the GM's publicly;
    each player sees their own row's figures, and no one else's."""
    state = cien.state()
    rs = cien.ruleset
    assert rs.view(state, Viewer.gm()) is state
    public = rs.view(state, "public")["players"]
    assert public["treasury"].null_count() == public.height
    mine = rs.view(state, Viewer.player("Red"))["players"]
    gm = state["players"]
    for column in rs.views.gm_only:
        assert mine.filter(pl.col("id") == "Red")[column].to_list() == \
            gm.filter(pl.col("id") == "Red")[column].to_list()
        others = mine.filter(pl.col("id") != "Red")[column]
        assert others.null_count() == others.len()
    # what the public state already showed is unchanged
    assert mine.drop(rs.views.gm_only).equals(public.drop(rs.views.gm_only))
    assert rs.view(state, "public")["players"]["treasury"].null_count() == public.height


def test_aztlan_player_sees_the_open_board():
    """AZTLAN: the board is open, so a player's view of the state is the public one."""
    from gmkit.core.ruleset import find_ruleset
    from gmkit.core.tables import State

    rs = find_ruleset("aztlan")
    state = State(1, {"players": pl.DataFrame({"id": ["Aztecs"], "magic": [1]})})
    assert rs.view(state, "player:Aztecs").equals(rs.view(state, "public"))


def _report() -> TurnReport:
    return TurnReport(
        "G", "R", 2, view="gm",
        steps=(StepSection("s", "Step", "1", events=(
            EventLine("e", "1", "open"), EventLine("e", "1", "red alone", False, "Red"),
            EventLine("e", "1", "gold alone", False, "Gold")),
            rolls=(RollLine("s:1", "red roll", "1", "1d6", "4", "seeded", False, "Red"),)),),
        standings=pl.DataFrame({"player": ["Red", "Gold"], "gold": [7, 9]}),
        gm_only_columns=("gold",),
        orders=(OrderPost("Red", True, "red secret", ("red problem",)),
                OrderPost("Gold", False, "gold open", ("gold problem",))),
        gm_notes=("note",))


def test_report_for_a_player_holds_their_secrets_and_no_one_elses():
    """A player's report: the public's, plus their own secret post with its problems, their
    own hidden events and rolls, and their own row of the GM-only columns."""
    red = view_report(_report(), "player:Red")
    events = [e.text for s in red.steps for e in s.events]
    assert events == ["open", "red alone"] and red.steps[0].rolls
    assert [(o.player, o.problems) for o in red.orders] == \
        [("Red", ("red problem",)), ("Gold", ())]
    assert red.standings is not None
    assert red.standings["gold"].to_list() == [7, None] and not red.gm_notes
    again = view_report(red, "player:Red")
    assert again.steps == red.steps and again.orders == red.orders
    html = render_html(red)
    assert "Private to Red" in html and "gold alone" not in html and "GM view" not in html
    assert "Private to Red" in render_bbcode(red)[0]


def test_a_view_only_narrows():
    """The public view of a player's report drops their secrets; the GM's view, or another
    player's, cannot be rebuilt from a narrower one."""
    red = view_report(_report(), "player:Red")
    pub = view_report(red, "public")
    direct = view_report(_report(), "public")
    assert pub.steps == direct.steps and pub.orders == direct.orders
    assert pub.standings is not None and pub.standings.equals(direct.standings)
    assert [o.player for o in pub.orders] == ["Gold"] and "gold" not in pub.standings.columns
    for narrow, wide in ((red, "gm"), (red, "player:Gold"), (pub, "player:Red"), (pub, "gm")):
        with pytest.raises(ValueError):
            view_report(narrow, wide)
    with pytest.raises(ValueError):
        TurnReport("g", "r", 1, view="everyone")


def test_cli_writes_a_players_private_report(cien, tmp_path):
    """``gmkit report --view player:ID`` writes that player's report; an unknown player is
    refused."""
    runner = CliRunner()
    res = runner.invoke(main, ["report", str(cien.root), "--view", "player:Red",
                               "--format", "bbcode"])
    assert res.exit_code == 0 and "Private to Red" in res.output
    res = runner.invoke(main, ["report", str(cien.root), "--view", "player:Nobody"])
    assert res.exit_code == 2 and "no player" in res.output


def test_players_pages_are_refused_inside_the_site_or_the_game(cien, tmp_path):
    """The players' folder lies outside the public site and the game folder."""
    site = tmp_path / "site"
    for bad in (site / "players", site, cien.root / "players", tmp_path):
        with pytest.raises(PublishError):
            publish(cien, site, players=bad, workers=1)
    assert not site.exists()
