"""A ruleset's version per turn: an upgrade of gmkit under a running game.

Every turn's manifest records the ruleset version that resolved it. ``verify`` replays a turn of
an older version this gmkit keeps (``Ruleset.legacy``) with that version's rule values, so the
game stays clean; a turn of a version it no longer has that replays differently is reported as a
notice with the first difference (exit status 3), never as tampering; a turn of the current
version that replays differently is tampering (exit status 1).

The upgrade is simulated on Three Hills: the die a dig rolls changes from six faces to twenty
(a "rule fix"), and the version goes from "1" to "2".
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gmkit.cli import main
from gmkit.core.ruleset import find_ruleset, registered
from gmkit.game import Game
from gmkit.sweeps.playout import play
from gmkit.rulesets.example import ThreeHills
from gmkit.rulesets.example.rules import PARAMS
from gmkit.game.verify import verify_game

FIXED = tuple(dataclasses.replace(p, default=20) if p.name == "dig_die" else p for p in PARAMS)


def _game(root: Path, turns: int = 3) -> Game:
    rs = find_ruleset("example")
    return play(Game.new(root, "example", rs.example_players(None)), turns)


def _upgrade(monkeypatch: pytest.MonkeyPatch, *, legacy: bool, bump: bool = True) -> None:
    """This gmkit resolves a dig with a twenty-sided die; with ``legacy``, version "1" (six
    faces) is kept as data, else it is retired (known, no longer replayed)."""
    monkeypatch.setattr(ThreeHills, "params", FIXED)
    if bump:
        monkeypatch.setattr(ThreeHills, "version", "2")
    monkeypatch.setattr(ThreeHills, "legacy", {"1": {"dig_die": 6}} if legacy else {})
    monkeypatch.setattr(ThreeHills, "retired", () if legacy or not bump else ("1",))


def _forge(root: Path, turn: int, version: str) -> None:
    """An altered turn: one of its tables rewritten (a digger given gold), its manifest made to
    record ``version`` and its hashes and the chain after it re-linked, so that only the
    replay can tell."""
    import hashlib

    import polars as pl

    game = Game.open(root)
    folder = game.store.turn_path(turn)
    table = folder / "tables" / "diggers.parquet"
    diggers = pl.read_parquet(table)
    diggers.with_columns(pl.col("gold") + 5).write_parquet(table)
    path = folder / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["files"]["tables/diggers.parquet"] = hashlib.sha256(table.read_bytes()).hexdigest()
    manifest["ruleset_version"] = version
    path.write_text(json.dumps(manifest, indent=1, sort_keys=True))
    previous = hashlib.sha256(path.read_bytes()).hexdigest()
    for later in [t for t in game.store.turns() if t > turn]:
        path = game.store.turn_path(later) / "manifest.json"
        m = json.loads(path.read_text())
        m["previous"] = previous
        path.write_text(json.dumps(m, indent=1, sort_keys=True))
        previous = hashlib.sha256(path.read_bytes()).hexdigest()


def _verify_cli(root: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["verify", str(root)])
    return result.exit_code, result.output


def test_every_manifest_records_the_ruleset_version(tmp_path: Path) -> None:
    game = _game(tmp_path / "g", 2)
    for t in game.store.turns():
        assert game.store.manifest(t)["ruleset_version"] == "1"


def test_an_upgrade_with_the_old_version_kept_verifies_clean_and_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Turns resolved under version 1 replay with version 1's rule values; the next turn is
    resolved, and recorded, under version 2."""
    root = tmp_path / "g"
    _game(root)
    _upgrade(monkeypatch, legacy=True)
    found = verify_game(Game.open(root))
    assert found.problems == [] and found.notices == []
    game = play(Game.open(root), 1)
    latest = game.store.manifest(game.latest_turn)
    assert latest["ruleset_version"] == "2"
    assert all(e != "1d6" for e in game.turn().rolls["expression"].to_list())
    assert _verify_cli(root)[0] == 0


def test_a_turn_re_resolved_after_the_upgrade_keeps_its_version(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn resolved again (a fixed order) is resolved as it was: under its own version."""
    root = tmp_path / "g"
    _game(root)
    _upgrade(monkeypatch, legacy=True)
    game = Game.open(root)
    data = game.re_resolve(reason="an order fixed")
    assert game.store.manifest(data.turn)["ruleset_version"] == "1"
    assert "1d6" in data.rolls["expression"].to_list()
    assert verify_game(Game.open(root)).ok


def test_an_upgrade_without_the_old_version_is_a_notice_not_tampering(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn of a version this gmkit no longer has, replayed differently: one notice per turn
    naming the version and the first difference, exit status 3."""
    root = tmp_path / "g"
    _game(root)
    _upgrade(monkeypatch, legacy=False)
    found = verify_game(Game.open(root))
    assert found.problems == []
    assert found.notices, "the dice of a dig differ: the turns replay differently"
    assert all("resolved under example 1; this gmkit resolves it differently" in n
               for n in found.notices)
    assert len({n.split(":")[0] for n in found.notices}) == len(found.notices)
    code, out = _verify_cli(root)
    assert code == 3 and "notice: turn" in out


def test_a_changed_resolution_without_a_new_version_is_tampering(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn of the current version that replays differently is reported as a problem (exit
    status 1): a ruleset must bump its version when it resolves a recorded turn differently."""
    root = tmp_path / "g"
    _game(root)
    _upgrade(monkeypatch, legacy=False, bump=False)
    found = verify_game(Game.open(root))
    assert found.notices == [] and any("rolls differ" in p for p in found.problems)
    assert _verify_cli(root)[0] == 1


def test_a_hand_edit_of_an_old_version_turn_is_still_tampering(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The notice never hides a file that is not what was committed."""
    root = tmp_path / "g"
    _game(root)
    _upgrade(monkeypatch, legacy=False)
    path = root / "turns" / "0002.r0" / "entered.json"
    path.write_text(json.dumps({"x": 1}))
    found = verify_game(Game.open(root))
    assert any("entered.json" in p for p in found.problems)


@pytest.mark.parametrize("version", ["0", "abc", "", "01", "1.0"])
def test_a_version_the_ruleset_never_had_is_a_problem(tmp_path: Path, version: str) -> None:
    """An altered turn whose manifest records a version the ruleset never had is not hidden as
    an upgrade's notice: it is a problem naming the turn, the version and the versions the
    ruleset knows (exit status 1), and the replay's difference is a problem too."""
    root = tmp_path / "g"
    _game(root)
    _forge(root, 2, version)
    found = verify_game(Game.open(root))
    assert found.notices == []
    assert f"turn 2: records example version {version!r}, which the ruleset never had (its " \
           "versions: 1 (current))" in found.problems[0]
    assert any("table 'diggers' differs" in p for p in found.problems)
    code, out = _verify_cli(root)
    assert code == 1 and "no problem found" not in out


@pytest.mark.parametrize("version", ["2", "99"])
def test_a_version_above_the_current_one_needs_a_newer_gmkit(tmp_path: Path,
                                                             version: str) -> None:
    """A turn recording a version above the ruleset's current one was resolved by a newer
    gmkit: ``verify`` cannot judge it and exits 2, saying so in one line."""
    root = tmp_path / "g"
    _game(root)
    _forge(root, 2, version)
    code, out = _verify_cli(root)
    assert code == 2
    assert out.strip().splitlines()[-1] == (
        f"gmkit: turn 2 was resolved under example {version}, above this gmkit's example 1: "
        "it needs a newer gmkit")


def test_a_retired_version_that_replays_differently_is_a_notice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the versions a ruleset declares retired are notices: the same altered turn under a
    retired version is a notice (exit 3), under a version never declared a problem (exit 1)."""
    root = tmp_path / "g"
    _game(root)
    _forge(root, 2, "1")
    _upgrade(monkeypatch, legacy=False)
    assert _verify_cli(root)[0] == 3
    monkeypatch.setattr(ThreeHills, "retired", ())
    code, out = _verify_cli(root)
    assert code == 1 and "which the ruleset never had" in out


def test_the_changelog_lists_every_ruleset_version() -> None:
    """``docs/changelog.md`` has a section per registered ruleset listing its current version,
    every older version it keeps and every one it retired; each kept version names every rule
    option it replays with, as ``option = value``."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "changelog.md").read_text()
    sections = {}
    for part in text.split("\n## ")[1:]:
        heading, _, body = part.partition("\n")
        if "(`" in heading:
            sections[heading.split("(`", 1)[1].split("`", 1)[0]] = body
    for name in registered():
        rs = find_ruleset(name)
        assert name in sections, f"docs/changelog.md has no section for {name}"
        section = sections[name]
        for version in (rs.version, *rs.legacy, *rs.retired):
            assert f"- **{version}**" in section, f"{name} {version} is not in the changelog"
        for version, values in rs.legacy.items():
            # the newer entries say what it keeps, across line breaks
            kept = " ".join(section.split(f"- **{version}**")[0].split())
            for option, value in values.items():
                assert f"`{option} = {value}`" in kept, \
                    f"{name}: the changelog never names {option} = {value}, which {version} " \
                    "replays with"


@pytest.mark.parametrize("name", registered())
def test_every_older_version_a_ruleset_keeps_gives_valid_rules(name: str) -> None:
    """A kept version names rule values the ruleset has, of the right kind, and is not the
    current one."""
    rs = find_ruleset(name)
    assert rs.version and rs.version not in rs.legacy
    assert rs.rules_of_version(rs.version) is not None
    for version in rs.legacy:
        assert rs.rules_of_version(version) is not None
    assert rs.rules_of_version("no such version") is None
