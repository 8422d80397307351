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
    faces) is kept as data."""
    monkeypatch.setattr(ThreeHills, "params", FIXED)
    if bump:
        monkeypatch.setattr(ThreeHills, "version", "2")
    monkeypatch.setattr(ThreeHills, "legacy", {"1": {"dig_die": 6}} if legacy else {})


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


def test_the_changelog_lists_every_ruleset_version() -> None:
    """``docs/changelog.md`` has a section per registered ruleset listing its current version
    and every older version it keeps."""
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
        for version in (rs.version, *rs.legacy):
            assert f"- **{version}**" in section, f"{name} {version} is not in the changelog"


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
