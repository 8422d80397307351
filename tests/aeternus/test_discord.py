"""Input from Discord (2, 3.1, 3.2, 6, 7): DiscordChatExporter JSON exports of the rules' channels,
read into posts a GM can trust: a post per message, received once however often a channel is
exported again; joining and leaving by message; authors known by their account, never by a
nickname; edits and deletions as the rules count them; votes from the first export after a
voting period; and hostile exports refused whole, each problem named."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from click.testing import CliRunner

from tests.aeternus.scenario import MONDAY, play, scenario

from gmkit.cli import main
from gmkit.game import Game, GameError
from gmkit.rulesets.aeternus.discord import MAX_EXPORT_BYTES, read_export

O = (0, 0, 0)
IDS = {"amber": "1001", "birch": "1002", "cedar": "1003", "dune": "1004", "stranger": "1999",
       "newbie": "2001", "outsider": "2002", "impostor": "2003"}


def _user(name: str, *, uid: str | None = None, nick: str = "") -> dict[str, Any]:
    return {"id": uid or IDS[name], "name": name, "discriminator": "0000",
            "nickname": nick or name, "color": None, "isBot": False, "roles": [],
            "avatarUrl": "https://cdn.discordapp.com/embed/avatars/0.png"}


def _message(mid: str, when: str, author: str, content: str, *, edited: str | None = None,
             reactions: dict[str, list[str]] | None = None, uid: str | None = None,
             nick: str = "") -> dict[str, Any]:
    return {"id": mid, "type": "Default", "timestamp": when, "timestampEdited": edited,
            "callEndedTimestamp": None, "isPinned": False, "content": content,
            "author": _user(author, uid=uid, nick=nick), "attachments": [], "embeds": [],
            "stickers": [],
            "reactions": [{"emoji": {"id": None, "name": e, "code": "", "isAnimated": False,
                                     "imageUrl": ""},
                           "count": len(users), "users": [_user(u) for u in users]}
                          for e, users in (reactions or {}).items()],
            "mentions": []}


def _export(channel: str, exported: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
    return {"guild": {"id": "1", "name": "Aeternus", "iconUrl": ""},
            "channel": {"id": "2", "type": "GuildTextChat", "categoryId": "3",
                        "category": "game", "name": channel, "topic": None},
            "dateRange": {"after": None, "before": None}, "exportedAt": exported,
            "messages": messages, "messageCount": len(messages)}


def _write(tmp: Path, name: str, raw: Any) -> Path:
    path = tmp / name
    path.write_text(raw if isinstance(raw, str) else json.dumps(raw), "utf-8")
    return path


def _game(tmp: Path, players: list[dict[str, Any]] | None = None) -> Game:
    return Game.new(tmp / "g", "aeternus", players or [
        {"id": "Amber", "discord": IDS["amber"]}, {"id": "Birch", "discord": IDS["birch"]},
        {"id": "Cedar", "discord": "cedar"}, {"id": "Dune"}])


def _pending(game: Game) -> list[tuple[str, str]]:
    return game.store.pending_posts(game.next_turn).select("player", "text").rows()


def _resolve(game: Game) -> None:
    turn = game.start()
    turn.driver.run_all()
    game.commit(turn)


# -- posts ------------------------------------------------------------------------------------
def test_6_a_post_per_message_in_posting_order_each_with_its_time(tmp_path: Path):
    """6: actions resolve in the order posted: each message of #game-actions is one post holding
    its lines, posted at the message's time; a refusal names the message."""
    game = _game(tmp_path)
    path = _write(tmp_path, "actions.json", _export("game-actions", "2026-01-05T12:00:00+00:00", [
        _message("11", "2026-01-05T10:05:00.000+00:00", "birch", "Traverse North"),
        _message("10", "2026-01-05T10:00:00.000+00:00", "amber", "Scout North and Ashe\nForage"),
        _message("12", "2026-01-05T10:07:00+00:00", "amber", "Fly to the moon")]))
    report = game.import_posts([path])
    pending = game.store.pending_posts(game.next_turn)
    assert pending.select("player", "text", "posted").rows() == [
        ("Amber", "Scout North and Ashe\nForage", "2026-01-05T10:00:00+00:00"),
        ("Birch", "Traverse North", "2026-01-05T10:05:00+00:00"),
        ("Amber", "Fly to the moon", "2026-01-05T10:07:00+00:00")]
    assert [p.where for _, p in report.stored][-1].endswith("#game-actions message 12")
    res = CliRunner().invoke(main, ["import", str(game.root), str(path)])
    assert res.exit_code == 0 and "received 0 post(s)" in res.output
    again = _write(tmp_path, "later.json", _export("game-actions", "2026-01-05T13:00:00+00:00", [
        _message("13", "2026-01-05T12:30:00+00:00", "birch", "Forage\nDance a jig\nScout Nroth")]))
    res = CliRunner().invoke(main, ["import", str(game.root), str(again)])
    assert res.exit_code == 0, res.output
    assert "#game-actions message 13" in res.output and "rejected line 3" in res.output
    assert "did you mean North" in res.output and "1 line(s) not read as orders" in res.output


def test_a_message_is_received_once_however_often_its_channel_is_exported(tmp_path: Path):
    """The exporter exports whole channels: the same file imported twice, and a later export
    holding the same messages and a new one, receive each message once."""
    game = _game(tmp_path)
    day1 = [_message("10", "2026-01-05T10:00:00+00:00", "amber", "Forage")]
    first = _write(tmp_path, "a1.json", _export("game-actions", "2026-01-05T12:00:00+00:00", day1))
    second = _write(tmp_path, "a2.json", _export("game-actions", "2026-01-06T12:00:00+00:00", day1 + [
        _message("20", "2026-01-06T10:00:00+00:00", "birch", "Forage")]))
    assert len(game.import_posts([first]).stored) == 1
    assert game.import_posts([first]).stored == []
    _resolve(game)  # the first message is consumed by a turn: still received once
    got = game.import_posts([second, first])
    assert [(p.player, p.text) for _, p in got.stored] == [("Birch", "Forage")]
    assert _pending(game) == [("Birch", "Forage")]


# -- players (2, 7) ---------------------------------------------------------------------------
def test_2_a_join_message_makes_its_author_a_player_keyed_by_their_account(tmp_path: Path):
    """2: "Any person may become a player by posting a message setting forth their intent to
    do so in the channel #game-actions": a newcomer's join message, in an export, makes them a
    player (a faction of their own name, on the origin) from that moment, with no 'players add'
    first; their later messages count; their id is accepted by every command, 'publish
    --players' included."""
    game = _game(tmp_path)
    path = _write(tmp_path, "a.json", _export("game-actions", "2026-01-05T12:00:00+00:00", [
        _message("10", "2026-01-05T10:00:00+00:00", "newbie", "Traverse North"),
        _message("11", "2026-01-05T10:01:00+00:00", "newbie", "I want to play! Join"),
        _message("12", "2026-01-05T10:02:00+00:00", "newbie", "Join the game"),
        _message("13", "2026-01-05T10:03:00+00:00", "newbie", "Forage")]))
    report = game.import_posts([path])
    assert [(p.player, p.text, p.newcomer) for _, p in report.stored] == [
        ("newbie", "Join the game", True), ("newbie", "Forage", False)]
    assert any("message 10" in n and "not a player" in n for n in report.notices)
    _resolve(game)
    row = game.state()["players"].filter(pl.col("id") == "newbie").row(0, named=True)
    assert (row["active"], row["faction"], row["q"], row["r"]) == (True, "newbie", 0, 0)
    assert row["joined"] == "2026-01-05T10:02:00+00:00"
    assert "newbie" in [p.id for p in game.everyone()]
    # later exports know the newcomer by their account, whatever name they take
    later = _write(tmp_path, "b.json", _export("game-actions", "2026-01-06T12:00:00+00:00", [
        _message("20", "2026-01-06T10:00:00+00:00", "renamed", "Forage", uid=IDS["newbie"])]))
    assert [p.player for _, p in game.import_posts([later]).stored] == ["newbie"]
    runner = CliRunner()
    res = runner.invoke(main, ["report", str(game.root), "--view", "player:newbie",
                               "--out", str(tmp_path / "n.html")])
    assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["publish", str(game.root), "--out", str(tmp_path / "site"),
                               "--players", str(tmp_path / "private")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "private" / "newbie").is_dir()


def test_2_a_join_typed_at_the_desk_needs_no_players_add(tmp_path: Path):
    """2: a join message typed by the GM ('gmkit orders --player NAME') makes its poster a
    player; any other post from a non-player is refused, naming the players."""
    game = _game(tmp_path)
    with pytest.raises(GameError, match="no player 'Elm'"):
        game.receive_post("Elm", "Forage")
    got = game.receive_post("Elm", "Join")
    assert got.player == "Elm" and not got.parsed.errors
    assert game.receive_post("elm", "Forage").player == "Elm"  # their next post of the batch
    _, problems, orders = game.read_orders(game.coming_state(),
                                           game.store.pending_posts(game.next_turn))
    assert problems == {} and len(orders.of("Elm")) == 2
    with pytest.raises(GameError, match="cannot name a folder"):
        game.receive_post("../x", "Join")


def test_2_and_7_a_leaver_loses_their_items_and_may_not_rejoin_for_seven_days():
    """2: "provided they have not been a player at any point in the past seven days"; 7: "if it
    would be owned by a non-player, it is instead destroyed": a player who leaves loses their
    items and fish; rejoining within seven days is refused, and after them starts empty on the
    origin."""
    state = scenario({O: "Meadow", (0, 0, 1): "Meadow"}, {"Amber": (0, 0, 1), "Birch": O},
                     items={"Amber": {"Wood": 3, "Steel": 1}},
                     fish=[("Amber", "Standard Fish", 0)])
    state, events, _ = play(state, [("Amber", "Leave")])
    assert state["items"].filter(pl.col("player") == "Amber").is_empty()
    assert state["fish"].filter(pl.col("player") == "Amber").is_empty()
    assert any("3 Wood" in e.text and "destroyed" in e.text for e in events)
    state, events, _ = play(state, [("Amber", "Join")], at=MONDAY + timedelta(days=6))
    assert any("within the past 7 days" in e.text for e in events if e.kind == "failed")
    state, events, _ = play(state, [("Amber", "Join")], at=MONDAY + timedelta(days=8))
    row = state["players"].filter(pl.col("id") == "Amber").row(0, named=True)
    assert (row["active"], row["q"], row["r"], row["faction"]) == (True, 0, 0, "Amber")
    assert state["items"].filter(pl.col("player") == "Amber").is_empty()


# -- who is who (no impersonation) ------------------------------------------------------------
def test_a_nickname_or_display_name_never_makes_anyone_a_player(tmp_path: Path):
    """An author counts as a player only through that player's Discord account (its id; its
    user name where no id is recorded); a stranger who takes a player's nickname, or a player's
    user name once the player is known by another account, is not that player. A player
    without a 'discord' field is matched by user name, and the import says so once."""
    game = _game(tmp_path)
    path = _write(tmp_path, "a.json", _export("game-actions", "2026-01-05T12:00:00+00:00", [
        _message("10", "2026-01-05T10:00:00+00:00", "impostor", "Forage", nick="Amber"),
        _message("11", "2026-01-05T10:01:00+00:00", "amber", "Forage", uid=IDS["impostor"]),
        _message("12", "2026-01-05T10:02:00+00:00", "cedar", "Forage"),
        _message("13", "2026-01-05T10:03:00+00:00", "dune", "Forage"),
        _message("14", "2026-01-05T10:04:00+00:00", "outsider", "Forage", nick="Birch"),
        _message("15", "2026-01-05T10:05:00+00:00", "cedar", "Traverse North",
                 uid=IDS["impostor"])]))
    report = game.import_posts([path])
    assert [(p.player, p.where[-2:]) for _, p in report.stored] == [("Cedar", "12"),
                                                                     ("Dune", "13")]
    said = [n for n in report.notices if "no 'discord' account" in n]
    assert said == ["Dune has no 'discord' account in game.toml: matched by the Discord user "
                    "name 'Dune'"]
    assert sum("not a player" in n for n in report.notices) == 4
    # Dune is now known by the account they posted from: their name no longer matches another
    later = _write(tmp_path, "b.json", _export("game-actions", "2026-01-06T12:00:00+00:00", [
        _message("20", "2026-01-06T10:00:00+00:00", "dune", "Forage", uid=IDS["outsider"])]))
    assert game.import_posts([later]).stored == []


# -- proposals and votes (3.1) ----------------------------------------------------------------
def _proposal(reactions: dict[str, list[str]] | None = None, edited: str | None = None,
              mid: str = "30", text: str = "urgent: set fish_percent = 75") -> dict[str, Any]:
    return _message(mid, "2026-01-05T09:00:00+00:00", "amber", text, edited=edited,
                    reactions=reactions)


def test_3_1_votes_are_the_reactions_read_once_from_the_first_export_after_the_period(
        tmp_path: Path):
    """3.1: a 👍 or 👎 reaction from a player when the voting period ends is a vote; an unclear
    vote (both) counts against; a non-player's reaction does not count; the votes are read from
    the first export made after the period ended, once (importing it again, or a later export
    with other reactions, adds no vote)."""
    game = _game(tmp_path)
    before = _write(tmp_path, "p0.json", _export("proposals", "2026-01-05T12:00:00+00:00",
                                                  [_proposal()]))
    got = game.import_posts([before])
    assert [p.text for _, p in got.stored] == [
        "Propose urgent (message 30): set fish_percent = 75"]
    _resolve(game)
    first = _write(tmp_path, "p1.json", _export("proposals", "2026-01-07T10:00:00+00:00", [
        _proposal({"👍": ["birch", "cedar", "outsider"], "👎": ["cedar", "dune"]})]))
    later = _write(tmp_path, "p2.json", _export("proposals", "2026-01-09T10:00:00+00:00", [
        _proposal({"👎": ["birch", "cedar", "dune"]})]))
    got = game.import_posts([later, first])
    assert sorted((p.player, p.text, p.posted) for _, p in got.stored) == [
        ("Birch", "Vote for message 30", "2026-01-07T08:59:59+00:00"),
        ("Cedar", "Vote both message 30", "2026-01-07T08:59:59+00:00"),
        ("Dune", "Vote against message 30", "2026-01-07T08:59:59+00:00")]
    assert any("outsider" in n and "does not count" in n for n in got.notices)
    assert game.import_posts([first, later]).stored == []
    _resolve(game)
    game.receive_post("Dune", "Forage", posted="2026-01-08T10:00:00+00:00")
    _resolve(game)  # an action after the end of the period: the proposal is counted
    row = game.state()["proposals"].row(0, named=True)
    # 1 for, 2 against: an urgent proposal with no more than two against is popular
    assert (row["status"], row["votes_for"], row["votes_against"]) == ("accepted", 1, 2)


def test_3_1_a_proposal_edited_or_deleted_between_imports_never_takes_effect(tmp_path: Path):
    """3.1: "a proposal takes effect if it is popular ... and the message in which it was
    submitted has been neither deleted nor edited": a proposal received one day and edited, or
    missing from the next day's export (deleted), does not take effect; each counts once."""
    game = _game(tmp_path)
    day1 = _write(tmp_path, "d1.json", _export("proposals", "2026-01-05T12:00:00+00:00", [
        _proposal(mid="40", text="set fish_percent = 75"),
        _proposal(mid="41", text="set fish_percent = 80")]))
    game.import_posts([day1])
    _resolve(game)
    day2 = _write(tmp_path, "d2.json", _export("proposals", "2026-01-06T12:00:00+00:00", [
        _proposal(mid="40", text="set fish_percent = 99", edited="2026-01-06T08:00:00+00:00")]))
    got = game.import_posts([day2])
    assert sorted(p.text for _, p in got.stored) == ["Edited message 40", "Edited message 41"]
    assert game.import_posts([day2]).stored == []
    votes = _write(tmp_path, "d3.json", _export("proposals", "2026-01-12T12:00:00+00:00", [
        _proposal(mid="40", text="set fish_percent = 99", edited="2026-01-06T08:00:00+00:00",
                  reactions={"👍": ["amber", "birch", "cedar"]})]))
    game.import_posts([votes])
    _resolve(game)
    game.receive_post("Dune", "Forage", posted="2026-01-13T10:00:00+00:00")
    _resolve(game)
    assert game.state()["proposals"]["status"].to_list() == ["void", "void"]


def test_an_edit_or_deletion_outside_proposals_is_listed_and_ignored(tmp_path: Path):
    """Only a proposal's edit or deletion counts (3.1): in #game-actions the GM is told and the
    action stands as first received."""
    game = _game(tmp_path)
    day1 = _write(tmp_path, "a1.json", _export("game-actions", "2026-01-05T12:00:00+00:00", [
        _message("10", "2026-01-05T10:00:00+00:00", "amber", "Forage"),
        _message("11", "2026-01-05T10:01:00+00:00", "birch", "Forage")]))
    game.import_posts([day1])
    day2 = _write(tmp_path, "a2.json", _export("game-actions", "2026-01-06T12:00:00+00:00", [
        _message("10", "2026-01-05T10:00:00+00:00", "amber", "Traverse North",
                 edited="2026-01-05T11:00:00+00:00")]))
    got = game.import_posts([day2])
    assert got.stored == []
    assert any("message 10 was edited" in n and "ignored" in n for n in got.notices)
    assert any("message 11 was received and is now deleted" in n for n in got.notices)
    assert _pending(game) == [("Amber", "Forage"), ("Birch", "Forage")]


# -- hostile exports (all or nothing, one line per problem) ------------------------------------
def test_an_import_that_fails_on_any_message_stores_nothing(tmp_path: Path):
    """All or nothing: one bad message among good ones stores none, and the command exits
    non-zero naming the file and the message."""
    game = _game(tmp_path)
    good = _write(tmp_path, "good.json", _export("game-actions", "2026-01-05T12:00:00+00:00", [
        _message("10", "2026-01-05T10:00:00+00:00", "amber", "Forage")]))
    bad = _export("game-actions", "2026-01-05T12:00:00+00:00", [
        _message("11", "2026-01-05T10:00:00+00:00", "birch", "Forage")])
    bad["messages"][0]["timestamp"] = "yesterday"
    badpath = _write(tmp_path, "bad.json", bad)
    res = CliRunner().invoke(main, ["import", str(game.root), str(good), str(badpath)])
    assert res.exit_code != 0
    assert f"{badpath}: #game-actions message 11: timestamp 'yesterday' is no time" in res.output
    assert "nothing was imported" in res.output
    assert _pending(game) == []


def _hostile(tmp: Path, case: str) -> Path:
    ok = _message("10", "2026-01-05T10:00:00+00:00", "amber", "Forage")
    if case == "deep":
        return _write(tmp, "deep.json", "[" * 100_000 + "]" * 100_000)
    if case == "deep-object":
        raw = _export("game-actions", "2026-01-05T12:00:00+00:00", [dict(ok)])
        nest: Any = "x"
        for _ in range(200):
            nest = {"a": nest}
        raw["messages"][0]["embeds"] = [nest]
        return _write(tmp, "deep2.json", raw)
    if case == "huge":
        path = tmp / "huge.json"
        with path.open("wb") as f:
            f.truncate(MAX_EXPORT_BYTES + 1)
        return path
    raw = _export("game-actions", "2026-01-05T12:00:00+00:00", [dict(ok)])
    m = raw["messages"][0]
    if case == "future":
        m["timestamp"] = "+275760-09-13T00:00:00Z"
    elif case == "far-future":
        m["timestamp"] = "9999-12-31T23:59:59+00:00"
    elif case == "after-export":
        m["timestamp"] = "2026-02-01T00:00:00+00:00"
    elif case == "overflow":
        m["timestamp"] = "0001-01-01T00:00:00+01:00"
    elif case == "types":
        m["content"] = {"text": "Forage"}
    elif case == "author-type":
        m["author"] = ["amber"]
    elif case == "id-type":
        m["id"] = 10
    elif case == "reactions":
        m["reactions"] = "👍"
    elif case == "duplicate":
        raw["messages"].append(dict(ok, content="Traverse North"))
    elif case == "not-json":
        return _write(tmp, "x.json", "{not json")
    elif case == "channel":
        raw["channel"]["name"] = "general"
    elif case == "messages":
        raw["messages"] = {"10": ok}
    elif case == "surrogate":  # half of an emoji: JSON's "\ud83d" with no partner
        m["content"] = "Forage \ud83d"
    elif case == "surrogate-name":
        m["author"] = dict(m["author"], nickname="Am\udc00ber")
    return _write(tmp, f"{case}.json", raw)


@pytest.mark.parametrize("case,said", [
    ("deep", "nests deeper than"), ("deep-object", "nests deeper than"),
    ("huge", "over the"), ("future", "is no time"), ("far-future", "out of range"),
    ("overflow", "is no time"), ("after-export", "is after the export was made"), ("types", "content must be a text"),
    ("author-type", "author must be an object"), ("id-type", "message number 1: id must be"),
    ("reactions", "reactions must be a list"), ("duplicate", "the id comes twice"),
    ("not-json", "is not JSON"), ("channel", "channel #general is none the rules name"),
    ("messages", "has no list of messages"),
    ("surrogate", "message 10: content holds a lone UTF-16 surrogate (U+D83D) at character 8"),
    ("surrogate-name", "message 10: author nickname holds a lone UTF-16 surrogate (U+DC00)")])
def test_a_hostile_export_is_refused_whole_naming_the_file_and_message(tmp_path: Path,
                                                                         case: str, said: str):
    """Bad exports (deep nesting, times out of range, wrong types, duplicate ids, a file over the
    size read, not JSON, a lone surrogate that is no Unicode text): one line per problem naming
    the file (and the message), a non-zero exit, nothing stored, never a traceback."""
    game = _game(tmp_path)
    path = _hostile(tmp_path, case)
    res = CliRunner().invoke(main, ["import", str(game.root), str(path)])
    assert res.exit_code != 0 and not isinstance(res.exception, (RecursionError, MemoryError,
                                                                  TypeError, KeyError))
    problem = [ln for ln in res.output.splitlines() if said in ln]
    assert problem and str(path) in problem[0], res.output
    assert _pending(game) == []


def test_a_missing_reaction_user_list_is_told():
    """An export listing fewer reaction users than it counts says so (only those listed are
    votes)."""
    raw = _export("proposals", "2026-01-07T10:00:00+00:00", [_proposal({"👍": ["birch"]})])
    raw["messages"][0]["reactions"][0]["count"] = 3
    export = read_export(raw)
    assert export.problems == [] and "lists 1 of its 3 users" in export.notices[0]


# -- the week of imports (done when) ----------------------------------------------------------
def test_a_week_of_daily_imports_of_three_channels_ends_with_what_the_channels_hold(
        tmp_path: Path):
    """A GM imports the same three exports (#game-actions, #proposals, #trades), each day
    exported whole again, every day for a week, resolving each day: the game ends with exactly
    the messages, votes and players the channels hold."""
    game = _game(tmp_path)
    actions: list[dict[str, Any]] = []
    proposals: list[dict[str, Any]] = []
    trades: list[dict[str, Any]] = []
    start = datetime(2026, 1, 5, tzinfo=timezone.utc)
    mid = 100
    for day in range(7):
        at = start + timedelta(days=day)

        def stamp(minutes: int) -> str:
            return (at + timedelta(hours=9, minutes=minutes)).isoformat()

        mid += 1
        actions.append(_message(str(mid), stamp(0), "amber", "Forage"))
        mid += 1
        actions.append(_message(str(mid), stamp(1), "birch", "Scout North"))
        if day == 1:
            mid += 1
            actions.append(_message(str(mid), stamp(2), "newbie", "Join"))
        if day == 2:
            mid += 1
            proposals.append(_message(str(mid), stamp(3), "cedar", "set fish_percent = 75"))
        if day == 5:
            proposals[0] = dict(proposals[0], reactions=[
                {"emoji": {"name": "👍"}, "count": 2, "users": [_user("amber"), _user("newbie")]},
                {"emoji": {"name": "👎"}, "count": 1, "users": [_user("dune")]}])
            mid += 1
            trades.append(_message(str(mid), stamp(4), "amber", "Trade with Birch: give 1 Wood; "
                                                                "get 1 Stone"))
        exported = (at + timedelta(hours=20)).isoformat()
        files = [_write(tmp_path, f"{c}-{day}.json", _export(c, exported, msgs))
                 for c, msgs in (("game-actions", actions), ("proposals", proposals),
                                 ("trades", trades))]
        game.import_posts(files)
        game.import_posts(files)  # the same files twice: nothing more
        _resolve(game)
    posts = [rec for rec in game.store.received_sources().values()]
    messages = sorted(s.rsplit("/", 1)[-1] for s in game.store.received_sources()
                      if s.count("/") == 1)
    assert messages == sorted(m["id"] for m in actions + proposals + trades)
    votes = sorted((r["player"], r["text"]) for r in posts if "/vote/" in r["source"])
    assert votes == [("Amber", f"Vote for message {proposals[0]['id']}"),
                     ("Dune", f"Vote against message {proposals[0]['id']}"),
                     ("newbie", f"Vote for message {proposals[0]['id']}")]
    players = game.state()["players"]
    assert sorted(players["id"].to_list()) == ["Amber", "Birch", "Cedar", "Dune", "newbie"]
    proposal = game.state()["proposals"].row(0, named=True)
    assert (proposal["votes_for"], proposal["votes_against"]) == (2, 1)


def test_an_import_killed_at_any_file_change_stores_all_its_posts_or_none(tmp_path: Path):
    """All or nothing under a crash: an import killed (kill -9) at any file-system change leaves
    either none of its posts or, once the next command has run, all of them, each once."""
    import shutil

    from tests import crashes

    base = _game(tmp_path / "base").root
    path = _write(tmp_path, "a.json", _export("game-actions", "2026-01-05T12:00:00+00:00", [
        _message(str(10 + k), f"2026-01-05T10:0{k}:00+00:00", ("amber", "birch")[k % 2],
                 "Forage") for k in range(4)]))
    argv = ["import", str(tmp_path / "g"), str(path)]
    shutil.copytree(base, tmp_path / "g")
    code, total, out = crashes.run(tmp_path, argv)
    assert code == 0 and total > 0, out
    for k in range(1, total + 1):
        shutil.rmtree(tmp_path / "g")
        shutil.copytree(base, tmp_path / "g")
        code, _, out = crashes.run(tmp_path, argv, kill_at=k)
        assert code is None, f"not killed at {k}: {out}"
        game = Game.open(tmp_path / "g")
        assert len(_pending(game)) in (0, 4), k
        res = CliRunner().invoke(main, argv)
        assert res.exit_code == 0, res.output
        assert len(_pending(Game.open(tmp_path / "g"))) == 4, k


def test_2_the_leaving_option_keep_items_keeps_what_gmkit_did_before():
    """'leaving = keep_items' (a named option, the reading gmkit resolved with before): a
    leaver keeps their items and comes back where they left."""
    state = scenario({O: "Meadow", (0, 0, 1): "Meadow"}, {"Amber": (0, 0, 1), "Birch": O},
                     items={"Amber": {"Wood": 3}}, leaving="keep_items")
    state, _, _ = play(state, [("Amber", "Leave")], leaving="keep_items")
    assert state["items"].filter(pl.col("player") == "Amber")["count"].to_list() == [3]
    state, _, _ = play(state, [("Amber", "Join")], at=MONDAY + timedelta(days=8),
                       leaving="keep_items")
    row = state["players"].filter(pl.col("id") == "Amber").row(0, named=True)
    assert (row["active"], row["q"], row["r"]) != (True, 0, 0) and row["active"]
