"""Dice nobody can bend, through the ``gmkit`` command: each turn's commitment is made when the
turn before is committed and announced in its summary with the next order deadline; the GM seals
the posts before the beacon round, enters the drand beacon (its signature checked offline, its
round the first after the deadline), and the turn's dice come from the seed derived from the
secret and the beacon; ``verify`` checks all of it. The beacons are real quicknet rounds
(``tests/data/drand/quicknet.json``)."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from gmkit.game import fairdice
from gmkit.core.beacon import derive_seed, round_time
from gmkit.game import Game
from tests.test_cli import files, one_line_failure, run  # noqa: F401  (fixture)

VECTORS: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "data" / "drand" / "quicknet.json").read_text())["beacons"]
POSTS = {"Red": "[b]10 Grain for Conquest of Tróys[/b]", "Gold": "[b]5 Grain for Defense of Arles[/b]"}


def deadline_for(vector: dict[str, Any]) -> str:
    """A deadline one second before the round, so the round is the first after it."""
    return (round_time(vector["round"]) - timedelta(seconds=1)).isoformat()


def commitment_in(text: str, turn: int) -> str:
    found = re.search(rf"turn {turn} dice commitment: ([0-9a-f]{{64}})", text)
    assert found, text
    return found.group(1)


def beacon_args(game: Path, vector: dict[str, Any], **change: str) -> list[object]:
    v = {**vector, **change}
    return ["beacon", game, "--round", v["round"], "--randomness", v["randomness"],
            "--signature", v["signature"]]


def play_turn(game: Path, vector: dict[str, Any]) -> str:
    """Deadline, posts, seal, beacon, resolve: one turn; returns what resolve printed."""
    assert run("deadline", game, deadline_for(vector)).exit_code == 0
    for player, text in POSTS.items():
        assert run("orders", game, "--player", player, "-", input=text).exit_code == 0
    res = run("seal", game)
    assert res.exit_code == 0, res.output
    res = run(*beacon_args(game, vector))
    assert res.exit_code == 0, res.output
    assert "signature checked" in res.stdout
    res = run("resolve", game)
    assert res.exit_code == 0, res.output
    return res.stdout


@pytest.fixture
def beacon_game(files: Path) -> Path:  # noqa: F811
    res = run("new", files / "g", "--ruleset", "cien", "--players", files / "players.toml",
              "--map", files / "map.geojson", "--beacon", "drand-quicknet")
    assert res.exit_code == 0, res.output
    return files / "g"


def test_a_game_mixed_with_real_beacons_verifies(beacon_game: Path) -> None:
    """Three turns, each sealed and mixed with a real quicknet round first after its deadline:
    verify checks the seals, the signatures, the rounds and replays the dice from the derived
    seed; each summary carries the next turn's commitment and deadline."""
    game = beacon_game
    announced = commitment_in(run("status", game).stdout, 1)
    for turn, vector in enumerate(VECTORS, 1):
        out = play_turn(game, vector)
        assert f"turn {turn} committed (commitment {announced})" in out
        g = Game.open(game)
        manifest = g.store.manifest(turn)
        assert manifest["beacon"]["round"] == str(vector["round"])
        assert manifest["seal"]["digest"] == fairdice.seal_digest(turn, g.turn(turn).orders, {})
        announced = commitment_in(run("status", game).stdout, turn + 1)
        if turn < len(VECTORS):
            run("deadline", game, deadline_for(VECTORS[turn]))
        for fmt in ("html", "bbcode"):
            report = run("report", game, "--turn", turn, "--format", fmt).stdout
            assert announced in report, fmt
            assert "committed before orders" in report and "beacon-mixed" in report
            if turn < len(VECTORS):
                assert deadline_for(VECTORS[turn]) in report
    res = run("verify", game)
    assert res.exit_code == 0, res.output
    g = Game.open(game)
    seed = g.reveal(1)
    rec = g.store.manifest(1)
    from gmkit.core.beacon import Beacon
    from gmkit.core.dice import seeded_int

    dice_seed = derive_seed(seed, Beacon.from_dict(rec["beacon"]))
    roll = g.turn(1).rolls.row(0, named=True)
    sides = int(roll["expression"].split("d")[1])
    assert json.loads(roll["result"])[0] == seeded_int(dice_seed, 1, roll["draw_id"],
                                                       sides) + 1


def test_a_tampered_signature_is_refused(beacon_game: Path) -> None:
    """A signature with one digit changed does not verify: refused, nothing recorded."""
    vector = VECTORS[0]
    run("deadline", beacon_game, deadline_for(vector))
    run("orders", beacon_game, "--player", "Red", "-", input=POSTS["Red"])
    run("seal", beacon_game)
    sig = vector["signature"]
    bad = sig[:10] + ("0" if sig[10] != "0" else "1") + sig[11:]
    line = one_line_failure(run(*beacon_args(beacon_game, vector, signature=bad)))
    assert "signature" in line
    assert fairdice.read_record(beacon_game, 1)["beacons"] == []


def test_a_round_not_first_after_the_deadline_is_refused(beacon_game: Path) -> None:
    """The beacon must be the first round after the published deadline."""
    run("deadline", beacon_game, deadline_for(VECTORS[1]))
    run("orders", beacon_game, "--player", "Red", "-", input=POSTS["Red"])
    run("seal", beacon_game)
    line = one_line_failure(run(*beacon_args(beacon_game, VECTORS[0])))
    assert "not the first round after the deadline" in line and "round 67" in line


def test_a_beacon_needs_a_seal_and_a_game_needs_its_beacon(beacon_game: Path) -> None:
    """No beacon before the seal; no resolution before the beacon."""
    run("deadline", beacon_game, deadline_for(VECTORS[0]))
    run("orders", beacon_game, "--player", "Red", "-", input=POSTS["Red"])
    assert "not sealed" in one_line_failure(run(*beacon_args(beacon_game, VECTORS[0])))
    assert "needs a beacon" in one_line_failure(run("resolve", beacon_game))


def test_a_beacon_entered_after_resolution_is_refused(beacon_game: Path) -> None:
    """A turn resolved already takes no beacon."""
    play_turn(beacon_game, VECTORS[0])
    line = one_line_failure(run(*beacon_args(beacon_game, VECTORS[0]), "--turn", 1))
    assert "resolved already" in line


def test_posts_after_the_seal_do_not_count(beacon_game: Path) -> None:
    """A post stored after the seal is left out of the turn (a late post); the turn can be
    resolved again only on its sealed posts."""
    vector = VECTORS[0]
    run("deadline", beacon_game, deadline_for(vector))
    run("orders", beacon_game, "--player", "Red", "-", input=POSTS["Red"])
    run("seal", beacon_game)
    run("orders", beacon_game, "--player", "Gold", "-", input=POSTS["Gold"])
    run(*beacon_args(beacon_game, vector))
    assert run("resolve", beacon_game).exit_code == 0
    g = Game.open(beacon_game)
    assert g.turn(1).orders["player"].to_list() == ["Red"]
    assert g.late_posts()["player"].to_list() == ["Gold"]
    line = one_line_failure(run("resolve", beacon_game, "--revise", "--include-late"))
    assert "sealed" in line
    res = run("resolve", beacon_game, "--revise", "--why", "again on the sealed posts")
    assert res.exit_code == 0, res.output
    assert Game.open(beacon_game).store.manifest(1, 1)["beacon"]["round"] == "42"
    assert run("verify", beacon_game).exit_code == 0


def test_a_commitment_made_after_an_order_is_flagged(files: Path) -> None:  # noqa: F811
    """A commitment first made after an order of its turn arrived is flagged in the report."""
    res = run("new", files / "g", "--ruleset", "cien", "--players", files / "players.toml",
              "--map", files / "map.geojson")
    game = files / "g"
    assert commitment_in(res.stdout, 1)
    run("orders", game, "--player", "Red", "-", input=POSTS["Red"])
    assert run("resolve", game).exit_code == 0
    report = run("report", game, "--format", "bbcode").stdout
    assert "committed before orders" in report and "Warning" not in report
    Game.open(game).receive_post("Red", POSTS["Red"], received="2020-01-01T00:00:00+00:00")
    assert run("commit-seed", game).exit_code == 0
    assert run("resolve", game).exit_code == 0
    for fmt in ("bbcode", "html"):
        report = run("report", game, "--format", fmt).stdout
        assert "after the first order of the turn arrived" in report
        assert "committed before orders" not in report


def test_a_rollback_prints_a_fresh_commitment_recording_what_it_replaced(
        beacon_game: Path) -> None:
    """A rollback announces a fresh commitment; the record says which one it replaced."""
    play_turn(beacon_game, VECTORS[0])
    old = commitment_in(run("status", beacon_game).stdout, 2)
    res = run("rollback", beacon_game, "--to", 0)
    assert res.exit_code == 0, res.output
    fresh = commitment_in(res.stdout, 1)
    rec = fairdice.read_record(beacon_game, 1)
    assert rec["commitments"][-1]["commitment"] == fresh
    assert rec["commitments"][-1]["replaces"] != fresh
    assert fresh != old


def test_gm_entered_dice_are_sealed_and_reported(beacon_game: Path, files: Path) -> None:  # noqa: F811
    """Dice the GM entered are sealed with the posts: resolve uses them, other dice are
    refused, and the report says the turn has dice entered by the GM."""
    vector = VECTORS[0]
    run("deadline", beacon_game, deadline_for(vector))
    run("orders", beacon_game, "--player", "Red", "-", input=POSTS["Red"])
    dice = files / "dice.txt"
    dice.write_text("conquest:attack/Tróys/Red = 10\n", "utf-8")
    assert run("seal", beacon_game, "--dice", dice).exit_code == 0
    assert run(*beacon_args(beacon_game, vector)).exit_code == 0
    other = files / "other.txt"
    other.write_text("conquest:attack/Tróys/Red = 1\n", "utf-8")
    assert "other entered dice" in one_line_failure(run("resolve", beacon_game, "--dice", other))
    assert run("resolve", beacon_game).exit_code == 0
    assert Game.open(beacon_game).turn(1).entered == {"conquest:attack/Tróys/Red": 10}
    assert "dice entered by the GM (1 draw)" in run("report", beacon_game, "--format",
                                                    "bbcode").stdout
    assert run("verify", beacon_game).exit_code == 0


def test_a_named_beacon_is_taken_as_entered(files: Path) -> None:  # noqa: F811
    """A game mixed with a named public source (a lottery draw) takes it as entered; a drand
    beacon is refused there."""
    run("new", files / "g", "--ruleset", "cien", "--players", files / "players.toml",
        "--map", files / "map.geojson", "--beacon", "named")
    game = files / "g"
    run("deadline", game, "2026-11-24T20:00:00+00:00")
    run("orders", game, "--player", "Red", "-", input=POSTS["Red"])
    run("seal", game)
    assert "is named, not drand" in one_line_failure(run(*beacon_args(game, VECTORS[0])))
    res = run("beacon", game, "--source", "lottery:EuroMillions", "--round", "2026-11-24",
              "--value", "4 17 23 38 45 / 2 9")
    assert res.exit_code == 0, res.output
    assert run("resolve", game).exit_code == 0
    assert "beacon-mixed (lottery:EuroMillions round 2026-11-24, entered by the GM)" in \
        run("report", game, "--format", "bbcode").stdout
    assert run("verify", game).exit_code == 0


def test_a_hand_edited_dice_setting_is_reported_by_verify(beacon_game: Path) -> None:
    """[dice] is set when the game is created; verify reports a game.toml changed by hand."""
    toml = beacon_game / "game.toml"
    toml.write_text(toml.read_text("utf-8").replace('beacon = "drand-quicknet"\n', ""), "utf-8")
    res = run("verify", beacon_game)
    assert res.exit_code == 1 and "[dice] differs" in res.stdout


def test_odds_and_a_dry_run_preview_a_turn_before_its_beacon(beacon_game: Path) -> None:
    """Before the beacon the GM sees the odds and the draw ids (a preview that says its dice are
    not the turn's); a preview is never committed."""
    run("orders", beacon_game, "--player", "Red", "-", input=POSTS["Red"])
    assert run("odds", beacon_game).exit_code == 0
    res = run("resolve", beacon_game, "--dry-run")
    assert res.exit_code == 0, res.output
    assert "preview" in res.stdout and "conquest:attack/Tróys/Red" in res.stdout
    g = Game.open(beacon_game)
    with pytest.raises(ValueError, match="needs a beacon"):
        g.commit(g.start(preview=True))
