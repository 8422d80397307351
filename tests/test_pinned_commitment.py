"""The next turn's dice commitment is pinned in the chain: committing ahead, turn N's manifest
records turn N+1's commitment and the time it was made, so a seed swapped after the orders are
in (the seed and its record deleted, made again, the record back-dated, the turn resolved)
fails ``gmkit verify``, and turn N's report, drawn again, still prints what the players read.
Only a rollback replaces a pinned commitment, through its own record, and the pages say so.
Without committing ahead a swap cannot be proven, and the report's guarantee says only what can
be."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import gmkit.game.pins as pins
from gmkit.core.dice import commitment as commitment_of
from gmkit.game import Game, fairdice
from tests.test_cli import files, game, run  # noqa: F401  (fixtures)

POST = "[b]10 Grain for Defense of Coyons[/b]"


@pytest.fixture
def ahead(files: Path) -> Path:  # noqa: F811
    """A game committing ahead (``gmkit new``'s default), one turn played and a post of the
    coming turn 2 in."""
    g = files / "ahead"
    assert run("new", g, "--ruleset", "cien", "--players", files / "players.toml",
               "--map", files / "map.geojson").exit_code == 0
    assert run("orders", g, "--player", "Red", "-", input=POST).exit_code == 0
    assert run("resolve", g).exit_code == 0
    assert run("orders", g, "--player", "Red", "-", input=POST).exit_code == 0
    return g


@contextmanager
def without_pins(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """gmkit as it was before the chain pinned the next commitment: what a GM forging by hand
    (or with an older gmkit) can still do to the folder."""
    with monkeypatch.context() as m:
        m.setattr(pins, "pinned", lambda store, turn: None)
        yield


def _swap_the_seed(g: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """The forgery: turn 2's seed and dice record deleted after the orders are in, a new
    commitment made, its record back-dated, the turn resolved. Returns the commitment the
    players read and the one the turn is resolved with."""
    announced = commitment_of(Game.open(g).store.read_seed(2) or "")
    (g / "secret" / "0002.seed").unlink()
    fairdice.record_path(g, 2).unlink()
    with without_pins(monkeypatch):
        assert run("commit-seed", g).exit_code == 0
        path = fairdice.record_path(g, 2)
        rec = json.loads(path.read_text())
        rec["commitments"][0]["made"] = "2000-01-01T00:00:00+00:00"
        path.write_text(json.dumps(rec))
        res = run("resolve", g)
        assert res.exit_code == 0, res.output
    swapped = Game.open(g).store.manifest(2)["seed_commitment"]
    assert swapped != announced
    return announced, swapped


def test_committing_ahead_the_turn_record_pins_the_next_commitment_and_its_time(
        ahead: Path) -> None:
    """Dice nobody can bend: "when turn N is committed, turn N+1's secret seed is made at once
    and its commitment recorded with the time": in turn N's manifest, so the record hash printed
    in turn N's report covers it. The set-up pins turn 1's."""
    g = Game.open(ahead)
    for turn in (0, 1):
        pinned = g.store.manifest(turn)[pins.PIN]
        entry = fairdice.read_record(ahead, turn + 1)["commitments"][0]
        assert pinned == {"turn": turn + 1, "commitment": entry["commitment"],
                          "made": entry["made"]}
        assert pinned["commitment"] == commitment_of(g.store.read_seed(turn + 1) or "")
    assert g.store.manifest(1)["commitment_made"] == g.store.manifest(0)[pins.PIN]["made"]
    assert run("verify", ahead).exit_code == 0


def test_a_seed_swapped_after_the_orders_are_in_fails_verify(
        ahead: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seed swapped after the orders are in, its record back-dated so the report would say
    "committed before orders": ``verify`` (and ``--against`` the previous turn's record) exits
    1 naming the turn and both commitments, turn 1's report drawn again still prints the
    commitment the players read, and turn 2's report carries no guarantee but a warning."""
    record = Game.open(ahead).store.manifest_hash(1)
    announced, swapped = _swap_the_seed(ahead, monkeypatch)
    res = run("verify", ahead)
    assert res.exit_code == 1, res.output
    assert (f"turn 2: resolved with the dice commitment {swapped[:16]}…, not the commitment "
            f"{announced[:16]}… that turn 1 pinned when it was committed") in res.stdout
    res = run("verify", ahead, "--against", record)
    assert res.exit_code == 1 and "that turn 1 pinned" in res.stdout
    for fmt in ("bbcode", "html"):
        one = run("report", ahead, "--turn", 1, "--format", fmt).stdout
        assert announced in one and swapped not in one
        two = run("report", ahead, "--turn", 2, "--format", fmt).stdout
        assert fairdice.COMMITTED_BEFORE not in two
        assert f"is not the one announced for this turn ({announced})" in two


def test_a_back_dated_commitment_of_a_pinned_turn_fails_verify(
        ahead: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same seed, only its record back-dated before resolving: the turn records the time
    the chain pinned, and the rewritten record is reported, before and after the turn is
    resolved."""
    path = fairdice.record_path(ahead, 2)
    rec = json.loads(path.read_text())
    pinned = rec["commitments"][0]["made"]
    rec["commitments"][0]["made"] = "2000-01-01T00:00:00+00:00"
    path.write_text(json.dumps(rec))
    res = run("verify", ahead)
    assert res.exit_code == 1
    assert f"turn 2's commitment is recorded as made at 2000-01-01T00:00:00+00:00, but turn 1 " \
           f"pinned {pinned}" in res.stdout
    assert run("resolve", ahead).exit_code == 0
    assert Game.open(ahead).store.manifest(2)["commitment_made"] == pinned
    assert run("verify", ahead).exit_code == 1


def test_gmkit_makes_no_new_seed_for_a_pinned_turn(ahead: Path) -> None:
    """A pinned turn whose seed is gone gets no new one from ``commit-seed`` or ``resolve``
    (``--unannounced``):
    the message names the file, the pinned commitment and the rollback that can replace it;
    a seed written by hand is refused too, and reported by ``verify`` before the turn is
    resolved."""
    pinned = Game.open(ahead).store.manifest(1)[pins.PIN]["commitment"]
    (ahead / "secret" / "0002.seed").unlink()
    for command in (["commit-seed"], ["resolve", "--unannounced"]):
        res = run(*command, ahead)
        assert res.exit_code == 2
        assert f"0002.seed: missing, and turn 1 pinned turn 2's commitment {pinned}" in res.stderr
        assert "gmkit rollback GAME --to 1" in res.stderr
    assert run("verify", ahead).exit_code == 1
    (ahead / "secret" / "0002.seed").write_text(secrets.token_hex(32) + "\n")
    assert run("resolve", ahead).exit_code == 2
    res = run("verify", ahead)
    assert res.exit_code == 1
    assert "turn 2's seed does not match the commitment" in res.stdout


def test_a_rollback_replaces_a_pinned_commitment_through_its_record(ahead: Path) -> None:
    """A rollback may replace a pinned commitment, only through its own record in the attic;
    the pages that announced the old one then say "announced X, replaced by Y at the rollback
    of ... (why)", the new turn is "committed before orders", and ``verify`` passes, saying so
    too."""
    old = Game.open(ahead).store.manifest(1)[pins.PIN]["commitment"]
    res = run("rollback", ahead, "--to", 1, "--why", "the seed file was lost")
    assert res.exit_code == 0, res.output
    fresh = Game.open(ahead).commitment(2)
    assert fresh != old and fresh in res.stdout
    record = json.loads(next((ahead / "attic").glob("*-rollback.json")).read_text())
    assert record["commitment"]["replaces"] == old
    assert record["commitment"]["commitment"] == fresh
    res = run("verify", ahead)
    assert res.exit_code == 0, res.output
    assert f"announced {old}, replaced by {fresh} at the rollback of" in res.stdout
    for fmt in ("bbcode", "html"):
        page = run("report", ahead, "--turn", 1, "--format", fmt).stdout
        assert f"announced {old}, replaced by {fresh}" in page
        assert "(the seed file was lost)" in page
    assert run("orders", ahead, "--player", "Red", "-", input=POST).exit_code == 0
    assert run("resolve", ahead).exit_code == 0
    assert run("verify", ahead).exit_code == 0
    assert fairdice.COMMITTED_BEFORE in run("report", ahead, "--format", "bbcode").stdout


def test_a_rolled_back_turn_keeps_its_pin_only_through_the_rollback(
        ahead: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A swap after a rollback is reported against the rollback's commitment, not the first
    one: the chain follows the rollback's record and nothing else."""
    assert run("rollback", ahead, "--to", 1, "--why", "a forgotten post").exit_code == 0
    fresh = Game.open(ahead).commitment(2)
    assert run("orders", ahead, "--player", "Red", "-", input=POST).exit_code == 0
    announced, swapped = _swap_the_seed(ahead, monkeypatch)
    assert announced == fresh
    res = run("verify", ahead)
    assert res.exit_code == 1
    assert f"not the commitment {fresh[:16]}… that turn 1 pinned when it was committed, as its " \
           "rollback replaced it" in res.stdout


def test_without_commit_ahead_the_guarantee_says_only_what_can_be_proven(
        game: Path) -> None:  # noqa: F811
    """``--no-commit-ahead``: the commitment is made when asked and nothing pins it before the
    orders, so the report does not say "committed before orders"; it says the commitment is
    dated before the first order by the GM's own record, and that it proves nothing more."""
    assert run("commit-seed", game).exit_code == 0
    assert run("orders", game, "--player", "Red", "-", input=POST).exit_code == 0
    assert run("resolve", game).exit_code == 0
    assert pins.PIN not in Game.open(game).store.manifest(1)
    report = run("report", game, "--format", "bbcode").stdout
    assert fairdice.COMMITTED_BEFORE not in report
    assert "by the GM's own record" in report


def test_a_sample_game_pins_every_commitment(tmp_path: Path) -> None:
    """A game played by the bots as the samples are built pins every turn's commitment in the
    turn before, and its reports read "committed before orders"."""
    from gmkit.rulesets import find_ruleset
    from gmkit.sweeps.playout import sample_game

    g = sample_game(tmp_path / "g", "example", find_ruleset("example").example_players(None),
                    3, "pins")
    for turn in (1, 2, 3, 4):
        found = pins.pinned(g.store, turn)
        assert found is not None and found.commitment == commitment_of(
            g.store.read_seed(turn) or "")
    for turn in (1, 2, 3):
        data = g.turn(turn)
        fields = fairdice.report_fields(g.store, turn, g.store.manifest(turn), data.orders,
                                        data.rolls)
        assert fairdice.COMMITTED_BEFORE in fields["guarantees"]
    assert run("verify", g.root).exit_code == 0
