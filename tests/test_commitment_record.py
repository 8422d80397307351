"""The time a turn's dice commitment was made is part of the turn's record: kept in its
manifest (hashed into the chain), so a dice record (``dice/NNNN.json``) back-dated or deleted
afterwards is reported by ``gmkit verify`` and ``verify --against``; games whose manifests never
kept it still verify. And the samples are built as ``gmkit new`` makes a game today: committed
ahead, every single die's printed id the id its value is hashed from."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest

from gmkit.game import fairdice
from gmkit.game import Game
from gmkit.sweeps.playout import sample_game
from tests.test_cli import files, game, one_line_failure, run  # noqa: F401  (fixtures)

ROOT = Path(__file__).resolve().parent.parent


def _play_one_turn(game: Path) -> str:  # noqa: F811
    """commit-seed, a post, resolve: the turn's record hash."""
    assert run("commit-seed", game).exit_code == 0
    res = run("orders", game, "--player", "Red", "-", input="[b]10 Grain for Defense of Coyons[/b]")
    assert res.exit_code == 0, res.output
    res = run("resolve", game)
    assert res.exit_code == 0, res.output
    return Game.open(game).store.manifest_hash(1, 0)


def test_the_commitment_time_is_in_the_manifest_of_a_game_that_commits_when_asked(
        game: Path) -> None:  # noqa: F811
    """A game that commits when asked keeps when the commitment was made in the turn's
    manifest, as a game that commits ahead does."""
    _play_one_turn(game)
    manifest = Game.open(game).store.manifest(1)
    entry = fairdice.read_record(game, 1)["commitments"][0]
    assert manifest["commitment_made"] == entry["made"]
    assert run("verify", game).exit_code == 0


def test_a_back_dated_commitment_record_is_reported_by_verify(game: Path) -> None:  # noqa: F811
    """Rewriting ``dice/0001.json`` to say the commitment was made a year earlier (so the
    report would read "committed before orders") is a problem naming the file and both times,
    also under ``verify --against`` with the turn's record hash."""
    record = _play_one_turn(game)
    path = fairdice.record_path(game, 1)
    rec = json.loads(path.read_text())
    made = rec["commitments"][0]["made"]
    rec["commitments"][0]["made"] = "2000-01-01T00:00:00+00:00"
    path.write_text(json.dumps(rec))
    res = run("verify", game)
    assert res.exit_code == 1
    assert f"{path}: turn 1's commitment is recorded as made at 2000-01-01T00:00:00+00:00, " \
           f"but the turn recorded {made}" in res.stdout
    res = run("verify", game, "--against", record)
    assert res.exit_code == 1
    assert "recorded as made at 2000-01-01" in res.stdout
    # the report reads the time the turn recorded, not the rewritten one
    assert Game.open(game).store.manifest(1)["commitment_made"] == made


def test_a_deleted_commitment_record_is_reported_by_verify(game: Path) -> None:  # noqa: F811
    """Deleting ``dice/0001.json`` after the turn is committed is reported, naming the file."""
    _play_one_turn(game)
    path = fairdice.record_path(game, 1)
    path.unlink()
    res = run("verify", game)
    assert res.exit_code == 1
    assert f"{path}: no record of turn 1's commitment" in res.stdout


def test_a_turn_whose_manifest_never_kept_the_commitment_time_still_verifies(
        tmp_path: Path) -> None:
    """The sample games built before manifests kept the commitment time (kept as fixtures)
    verify as they did."""
    old = shutil.copytree(ROOT / "tests" / "fixtures" / "old-games" / "pyramid", tmp_path / "old")
    assert "commitment_made" not in Game.open(old).store.manifest(1)
    assert run("verify", old).exit_code == 0


def test_verify_says_when_a_single_die_is_printed_without_its_hashed_id(tmp_path: Path) -> None:
    """A turn logged before single dice carried their ``#0`` still verifies, and verify says
    which printed id is not the id the README's recipe hashes."""
    g = sample_game(tmp_path / "g", "cien", _cien_players(), 1, "old ids")
    rolls_path = next((g.store.turn_path(1)).glob("rolls.parquet"))
    rolls = pl.read_parquet(rolls_path)
    single = rolls["expression"].str.contains(r"^1d\d+$") & rolls["draw_id"].str.ends_with("#0")
    assert single.any()
    res = run("verify", g.root)
    assert res.exit_code == 0 and "printed without the '#0'" not in res.stdout
    old = rolls.with_columns(pl.when(single).then(pl.col("draw_id").str.strip_suffix("#0"))
                             .otherwise(pl.col("draw_id")).alias("draw_id"))
    _rewrite_turn_file(g, 1, "rolls.parquet", old)
    res = run("verify", g.root)
    assert res.exit_code == 0, res.output
    bare = old.filter(single)["draw_id"][0]
    assert f"turn 1: {int(single.sum())} single-die draw(s) printed without the '#0'" in res.stdout
    assert repr(bare + "#0") in res.stdout


@pytest.mark.parametrize("ruleset", ["cien", "aztlan"])
def test_a_sample_commits_ahead_and_prints_the_hashed_ids(tmp_path: Path, ruleset: str) -> None:
    """A sample built as the build scripts build it commits ahead: no turn's report carries the
    warning that the commitment was made after the first order, each reads "committed before
    orders", and every single die is logged under its ``#0`` id."""
    players = _cien_players() if ruleset == "cien" else None
    from gmkit.rulesets import find_ruleset
    g = sample_game(tmp_path / "g", ruleset, players or find_ruleset(ruleset).example_players(None),
                    2, f"sample {ruleset}")
    assert g.config["dice"] == {"commit": "ahead"}
    for turn in (1, 2):
        manifest = g.store.manifest(turn)
        fields = fairdice.report_fields(g.store, turn, manifest, g.turn(turn).orders,
                                        g.turn(turn).rolls)
        assert fields["dice_warnings"] == ()
        assert fairdice.COMMITTED_BEFORE in fields["guarantees"]
        rolls = g.turn(turn).rolls
        single = rolls.filter(pl.col("expression").str.contains(r"^1d\d+$"))
        assert single.filter(~pl.col("draw_id").str.ends_with("#0")).is_empty()
    assert run("verify", g.root).exit_code == 0


def _cien_players() -> list[dict[str, str]]:
    return [{"id": "Red", "name": "A", "state": "Solsauvre", "government": "duchy"},
            {"id": "Gold", "name": "B", "state": "Coyons", "government": "city-state"}]


def _rewrite_turn_file(g: Game, turn: int, name: str, frame: pl.DataFrame) -> None:
    """Rewrite one file of a committed turn and re-link its manifest and the chain after it, as
    a game logged by an older gmkit would read (the hashes agree; only the content is old)."""
    import hashlib

    folder = g.store.turn_path(turn)
    frame.write_parquet(folder / name)
    manifest_path = folder / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["files"][name] = hashlib.sha256((folder / name).read_bytes()).hexdigest()
    manifest_path.write_text(json.dumps(manifest, indent=1, ensure_ascii=False))
    previous = hashlib.sha256(manifest_path.read_bytes()).hexdigest()
    for later in [t for t in g.store.turns() if t > turn]:
        path = g.store.turn_path(later) / "manifest.json"
        m = json.loads(path.read_text())
        m["previous"] = previous
        path.write_text(json.dumps(m, indent=1, ensure_ascii=False))
        previous = hashlib.sha256(path.read_bytes()).hexdigest()
