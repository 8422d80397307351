"""Input from Discord (3.1, 6): DiscordChatExporter JSON exports of the rules' channels, read into
posts: actions in posting order, proposals, edited and deleted messages, and votes from the first
export after a voting period, with unclear reactions and reactions of non-players."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from tests.aeternus.scenario import MONDAY, play, scenario

from gmkit.rulesets.aeternus.clock import parse_time
from gmkit.rulesets.aeternus.discord import posts, read_export, votes

O = (0, 0, 0)
PLAYERS = {"amber#1": "Amber", "birch": "Birch", "cedar": "Cedar", "dune": "Dune"}


def _user(name: str, uid: str | None = None, nick: str = "") -> dict:
    return {"id": uid or str(abs(hash(name)) % 10**8), "name": name, "discriminator": "0000",
            "nickname": nick or name, "color": None, "isBot": False, "roles": [],
            "avatarUrl": "https://cdn.discordapp.com/embed/avatars/0.png"}


def _message(mid: str, when: str, author: str, content: str, *, edited: str | None = None,
             reactions: dict[str, list[str]] | None = None) -> dict:
    return {"id": mid, "type": "Default", "timestamp": when, "timestampEdited": edited,
            "callEndedTimestamp": None, "isPinned": False, "content": content,
            "author": _user(author), "attachments": [], "embeds": [], "stickers": [],
            "reactions": [{"emoji": {"id": None, "name": e, "code": "", "isAnimated": False,
                                     "imageUrl": ""},
                           "count": len(users), "users": [_user(u) for u in users]}
                          for e, users in (reactions or {}).items()],
            "mentions": []}


def _export(channel: str, exported: str, messages: list[dict]) -> dict:
    return {"guild": {"id": "1", "name": "Aeternus", "iconUrl": ""},
            "channel": {"id": "2", "type": "GuildTextChat", "categoryId": "3",
                        "category": "game", "name": channel, "topic": None},
            "dateRange": {"after": None, "before": None}, "exportedAt": exported,
            "messages": messages, "messageCount": len(messages)}


def test_actions_come_in_posting_order_with_each_messages_time(tmp_path: Path):
    """Actions in #game-actions resolve in the order posted, across players and messages."""
    raw = _export("game-actions", "2026-01-05T12:00:00+00:00", [
        _message("11", "2026-01-05T10:05:00.000+00:00", "birch", "Traverse North"),
        _message("10", "2026-01-05T10:00:00.000+00:00", "amber#1", "Scout North and Ashe\nForage"),
        _message("12", "2026-01-05T10:07:00+00:00", "stranger", "Traverse South"),
    ])
    path = tmp_path / "actions.json"
    path.write_text(json.dumps(raw), "utf-8")
    got, problems = posts([read_export(path)], PLAYERS)
    assert got == [("Amber", "[2026-01-05T10:00:00+00:00] Scout North and Ashe"),
                   ("Amber", "[2026-01-05T10:00:00+00:00] Forage"),
                   ("Birch", "[2026-01-05T10:05:00+00:00] Traverse North")]
    assert problems == ["#game-actions message 12: stranger is not a player"]


def test_a_message_that_cannot_be_read_is_named():
    """Every message gmkit could not read is named."""
    raw = _export("game-actions", "2026-01-05T12:00:00+00:00", [
        {"id": "20", "content": "Forage", "author": _user("amber#1")},
        _message("21", "2026-01-05T10:00:00+00:00", "birch", "Forage")])
    export = read_export(raw)
    assert [m.id for m in export.messages] == ["21"]
    assert export.problems == ["#game-actions message 20: no readable timestamp"]


def test_3_1_votes_from_the_first_export_after_the_period_with_unclear_and_outsiders():
    """3.1: a 👍 or 👎 reaction from a player at the time the voting period ends is a vote;
    an unclear vote (both) counts against; a non-player's reaction does not count; the tally
    is read from the first export made after the period ended."""
    prop = _message("30", "2026-01-05T09:00:00+00:00", "amber#1", "urgent: set fish_percent = 75")
    before = _export("proposals", "2026-01-06T09:00:00+00:00", [prop])
    prop_after = _message("30", "2026-01-05T09:00:00+00:00", "amber#1",
                          "urgent: set fish_percent = 75",
                          reactions={"👍": ["birch", "cedar", "outsider"],
                                     "👎": ["cedar", "dune"]})
    first = _export("proposals", "2026-01-07T10:00:00+00:00", [prop_after])
    later = _export("proposals", "2026-01-09T10:00:00+00:00", [
        _message("30", "2026-01-05T09:00:00+00:00", "amber#1", "urgent: set fish_percent = 75",
                 reactions={"👎": ["birch", "cedar", "dune"]})])
    exports = [read_export(e) for e in (before, first, later)]
    got, problems = posts(exports, PLAYERS)
    assert got == [("Amber", "[2026-01-05T09:00:00+00:00] Propose urgent (message 30): set "
                             "fish_percent = 75")]
    end = parse_time("2026-01-07T09:00:00+00:00")
    tally, problems = votes(exports, {"30": end}, PLAYERS)
    assert tally == [("Birch", "[2026-01-07T08:59:59+00:00] Vote for message 30"),
                     ("Cedar", "[2026-01-07T08:59:59+00:00] Vote both message 30"),
                     ("Dune", "[2026-01-07T08:59:59+00:00] Vote against message 30")]
    assert problems == ["proposal message 30: 👍 by outsider, who is not a player, does not "
                        "count"]
    # resolved through the ledger: 1 for, 2 against: an urgent proposal stays popular
    state = scenario({O: "Meadow"}, {p: O for p in ("Amber", "Birch", "Cedar", "Dune")})
    state, _, _ = play(state, [tuple(x) for x in got + tally], at=MONDAY)
    state, _, _ = play(state, [("Dune", "Forage")], at=MONDAY + timedelta(days=3))
    row = state["proposals"].row(0, named=True)
    assert (row["status"], row["votes_for"], row["votes_against"]) == ("accepted", 1, 2)


def test_3_1_edited_and_deleted_proposals_never_take_effect():
    """3.1: a proposal takes effect only if its message has been neither deleted nor edited; a
    message seen in an earlier export and missing from a later one counts as deleted."""
    first = _export("proposals", "2026-01-05T12:00:00+00:00", [
        _message("40", "2026-01-05T09:00:00+00:00", "amber#1", "a note",
                 edited="2026-01-05T09:30:00+00:00"),
        _message("41", "2026-01-05T10:00:00+00:00", "birch", "another note")])
    second = _export("proposals", "2026-01-06T12:00:00+00:00", [
        _message("40", "2026-01-05T09:00:00+00:00", "amber#1", "a note",
                 edited="2026-01-05T09:30:00+00:00")])
    got, _ = posts([read_export(first), read_export(second)], PLAYERS)
    edited = [(p, t) for p, t in got if "Edited" in t]
    assert edited == [("Amber", "[2026-01-05T09:30:00+00:00] Edited message 40"),
                      ("Birch", "[2026-01-05T10:00:00+00:00] Edited message 41")]
    state = scenario({O: "Meadow"}, {p: O for p in ("Amber", "Birch")})
    state, _, _ = play(state, got + [("Birch", "Vote for message 40"),
                                     ("Amber", "Vote for message 41")], at=MONDAY)
    state, _, _ = play(state, [("Amber", "Forage")], at=MONDAY + timedelta(days=7))
    assert state["proposals"]["status"].to_list() == ["void", "void"]


def test_exports_are_received_as_posts_once(tmp_path: Path):
    """The same actions can come through the CLI, the notebook or an export: an export's
    messages become the game's posts with their posting times, once."""
    from gmkit.game import Game
    from gmkit.rulesets.aeternus.discord import receive_exports

    game = Game.new(tmp_path / "g", "aeternus", [{"id": "Amber", "name": "Amber"},
                                                 {"id": "Birch", "name": "Birch"}])
    raw = _export("game-actions", "2026-01-05T12:00:00+00:00", [
        _message("10", "2026-01-05T10:00:00+00:00", "amber#1", "Forage"),
        _message("11", "2026-01-05T10:05:00+00:00", "birch", "Traverse North")])
    export = read_export(raw)
    assert receive_exports(game, [export], {"amber#1": "Amber", "birch": "Birch"}) == []
    receive_exports(game, [export], {"amber#1": "Amber", "birch": "Birch"})
    pending = game.store.pending_posts(game.next_turn)
    assert pending.select("player", "posted").rows() == [
        ("Amber", "2026-01-05T10:00:00+00:00"), ("Birch", "2026-01-05T10:05:00+00:00")]


def test_gmkit_import_receives_an_export_matching_authors_by_their_discord_name(tmp_path: Path):
    """6: the GM reads #game-actions with 'gmkit import GAME FILE': each author is the player
    whose 'discord' field names them (else whose id they bear); a stranger's message is named,
    and importing the same file again receives nothing twice."""
    from click.testing import CliRunner

    from gmkit.cli import main
    from gmkit.game import Game

    game = Game.new(tmp_path / "g", "aeternus", [{"id": "Amber", "discord": "amber#1"},
                                                 {"id": "Birch"}])
    path = tmp_path / "game-actions.json"
    path.write_text(json.dumps(_export("game-actions", "2026-01-05T12:00:00+00:00", [
        _message("10", "2026-01-05T10:00:00+00:00", "amber#1", "Forage"),
        _message("11", "2026-01-05T10:05:00+00:00", "birch", "Traverse North"),
        _message("12", "2026-01-05T10:06:00+00:00", "stranger", "Forage")])), "utf-8")
    first = CliRunner().invoke(main, ["import", str(game.root), str(path)])
    assert first.exit_code == 0, first.output
    assert "received 2 post(s)" in first.output and "stranger is not a player" in first.output
    again = CliRunner().invoke(main, ["import", str(game.root), str(path)])
    assert "received 0 post(s)" in again.output
    assert game.store.pending_posts(game.next_turn)["player"].to_list() == ["Amber", "Birch"]


def test_a_ruleset_without_exports_says_so_in_one_line(tmp_path: Path):
    """A game whose posts come one by one refuses an import, naming the way posts come in."""
    from click.testing import CliRunner

    from gmkit.cli import main
    from gmkit.game import Game

    game = Game.new(tmp_path / "g", "example", [{"id": "Amber"}, {"id": "Birch"}])
    path = tmp_path / "x.json"
    path.write_text("{}", "utf-8")
    res = CliRunner().invoke(main, ["import", str(game.root), str(path)])
    assert res.exit_code != 0 and "reads no chat exports" in res.output


def test_3_2_the_judges_channels_give_requests_rulings_and_candidacies():
    """3.2: a message in #request-for-justice is a request in its author's words, or a line
    written as an order (a ruling); a message in #judge-elections is a candidacy (with its
    message, whose reactions are its votes) unless it is a vote written out, each stamped with
    its message's time."""
    justice = _export("request-for-justice", "2026-01-06T12:00:00+00:00", [
        _message("20", "2026-01-05T09:00:00+00:00", "birch", "Can a flag stand on a lake?"),
        _message("21", "2026-01-05T11:00:00+00:00", "amber#1",
                 "Ruling on 1: no, a lake is impassable"),
    ])
    elections = _export("judge-elections", "2026-01-06T12:00:00+00:00", [
        _message("30", "2026-01-05T10:00:00+00:00", "cedar", "Stand for Judge"),
        _message("31", "2026-01-05T10:30:00+00:00", "dune", "Vote for candidacy 1"),
    ])
    got, problems = posts([read_export(justice), read_export(elections)], PLAYERS)
    assert problems == []
    assert got == [
        ("Birch", "[2026-01-05T09:00:00+00:00] Request: Can a flag stand on a lake?"),
        ("Cedar", "[2026-01-05T10:00:00+00:00] Stand for Judge (message 30)"),
        ("Dune", "[2026-01-05T10:30:00+00:00] Vote for candidacy 1"),
        ("Amber", "[2026-01-05T11:00:00+00:00] Ruling on 1: no, a lake is impassable"),
    ]
    from gmkit.rulesets.aeternus.orders import parse
    assert all(not parse(text).errors for _, text in got)


def test_3_2_a_judge_is_elected_by_the_reactions_on_the_candidacy_messages():
    """3.2: "Any reputable player may become a candidate for the Judge by sending a message in
    the channel #judge-elections ... the player whose message is both popular and has the most
    👍 reactions from players becomes the Judge once that week ends. A Judge Candidacy message
    is popular if it has more 👍 than 👎 reactions from players": the reactions are read from
    the first export made after the week ended; a player with both counts in each tally; a
    non-player's reaction does not count."""
    from gmkit.rulesets.aeternus.discord import election_votes
    from gmkit.rulesets.aeternus.judge import week_end

    def candidacies(reactions):
        return [_message("40", "2026-01-05T11:00:00+00:00", "birch", "I will judge fairly",
                         reactions=reactions.get("40")),
                _message("41", "2026-01-06T11:00:00+00:00", "cedar", "Me! Me!",
                         reactions=reactions.get("41"))]

    during = _export("judge-elections", "2026-01-07T09:00:00+00:00", candidacies({}))
    after = _export("judge-elections", "2026-01-12T09:00:00+00:00", candidacies({
        "40": {"👍": ["amber#1", "birch"], "👎": ["dune"]},
        "41": {"👍": ["cedar", "dune", "outsider"], "👎": ["amber#1", "cedar"]}}))
    exports = [read_export(during), read_export(after)]
    got, problems = posts(exports, PLAYERS)
    assert got == [("Birch", "[2026-01-05T11:00:00+00:00] Stand for Judge (message 40)"),
                   ("Cedar", "[2026-01-06T11:00:00+00:00] Stand for Judge (message 41)")]
    state = scenario({O: "Meadow"}, {p: O for p in PLAYERS.values()}, first_judge="Amber")
    state, _, _ = play(state, got, at=MONDAY, first_judge="Amber")
    ends = {r["discord_message"]: (week_end(r["week"]), r["id"])
            for r in state["candidacies"].iter_rows(named=True)}
    end = parse_time("2026-01-12T00:00:00+00:00")
    assert set(v[0] for v in ends.values()) == {end}
    # an export made before the week ended holds no votes yet
    early, problems = election_votes(exports[:1], ends, PLAYERS)
    assert early == [] and "no export of #judge-elections made after" in problems[0]
    tally, problems = election_votes(exports, ends, PLAYERS)
    stamp = "[2026-01-11T23:59:59+00:00]"
    assert tally == [("Amber", f"{stamp} Vote for candidacy 1"),
                     ("Birch", f"{stamp} Vote for candidacy 1"),
                     ("Dune", f"{stamp} Vote against candidacy 1"),
                     ("Amber", f"{stamp} Vote against candidacy 2"),
                     ("Cedar", f"{stamp} Vote both candidacy 2"),
                     ("Dune", f"{stamp} Vote for candidacy 2")]
    assert problems == ["candidacy message 41: 👍 by outsider, who is not a player, does not "
                        "count"]
    state, _, _ = play(state, tally, at=MONDAY, first_judge="Amber")
    state, _, _ = play(state, [("Dune", "Forage")], at=MONDAY + timedelta(days=7),
                       first_judge="Amber")
    # candidacy 1: 2 for, 1 against (popular); candidacy 2: 2 for, 2 against (Cedar in each)
    assert state["judge"]["judge"].to_list() == ["Birch"]
    assert state["candidacies"]["status"].to_list() == ["elected", "unpopular"]


def test_3_2_a_judges_line_in_judge_elections_is_kept_and_one_candidacy_a_week():
    """3.2: a line of the Judge's channels written in #judge-elections (a removal, a written
    vote) is kept as written, not read as a candidacy; a candidate's second message in the
    same week is no second candidacy (its reactions would split the votes)."""
    elections = _export("judge-elections", "2026-01-06T12:00:00+00:00", [
        _message("50", "2026-01-05T10:00:00+00:00", "cedar", "Remove the Judge"),
        _message("51", "2026-01-05T11:00:00+00:00", "birch", "I stand"),
        _message("52", "2026-01-05T12:00:00+00:00", "birch", "Please back me!"),
        _message("53", "2026-01-05T13:00:00+00:00", "dune", "Call me Judge: I will be fair"),
    ])
    got, _ = posts([read_export(elections)], PLAYERS)
    assert [t.split("] ", 1)[1] for _, t in got] == [
        "Remove the Judge", "Stand for Judge (message 51)", "Stand for Judge (message 52)",
        "Stand for Judge (message 53)"]
    state = scenario({O: "Meadow"}, {p: O for p in PLAYERS.values()}, first_judge="Amber")
    state, events, _ = play(state, got, at=MONDAY, first_judge="Amber")
    assert state["candidacies"].select("player", "discord_message").rows() == [
        ("Birch", "51"), ("Dune", "53")]
    assert any("a candidate this week already" in e.text for e in events)
