"""Tests for the ``gmkit`` command (gmkit.cli): every command's help, a whole turn through the
commands (new, orders, commit-seed, resolve with GM-entered dice, reveal, report, verify, history),
and failures that exit non-zero with a one-line reason."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner, Result
from shapely.geometry import mapping

from gmkit.cli import main
from tests.cien.helpers import grid_map

GRID = """
Coyons Tróys Sevoy Cien Arles
Guicardie Solsauvre Vauclerc Cien Brest
~1 ~1 ~2 ~2 ~3
"""

PLAYERS_TOML = """\
[[players]]
id = "Red"
name = "Alice"
state = "Coyons"
government = "duchy"

[[players]]
id = "Gold"
name = "Bob"
state = "Arles"
government = "city-state"
"""

COMMANDS = {"new", "status", "orders", "commit-seed", "reveal", "resolve", "odds", "report",
            "verify", "history", "rollback", "rules", "withdraw", "carry", "sql",
            "players", "deadline", "seal", "beacon", "map", "import", "sweep"}

ATTACK = "conquest:attack/Tróys/Red"
#: The id the attack die is printed and logged under (the id it is derived from); a dice file
#: may name it either way.
LOGGED = ATTACK + "#0"


def run(*args: object, input: str | None = None) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def one_line_failure(res: Result) -> str:
    """A failure: non-zero exit, one line on stderr starting 'gmkit: ', no traceback."""
    assert res.exit_code not in (0, None), res.output
    assert not isinstance(res.exception, Exception) or isinstance(res.exception, SystemExit), \
        repr(res.exception)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("gmkit: ")
    assert "Traceback" not in res.output
    return lines[0]


@pytest.fixture
def files(tmp_path: Path) -> Path:
    """A map and a player list in a folder."""
    features = [{"type": "Feature", "geometry": mapping(r.geometry),
                 "properties": {"name": r.name, "kind": r.kind, "capital": r.name == "Cien"}}
                for r in grid_map(GRID).regions.values()]
    (tmp_path / "map.geojson").write_text(
        json.dumps({"type": "FeatureCollection", "features": features}), "utf-8")
    (tmp_path / "players.toml").write_text(PLAYERS_TOML, "utf-8")
    return tmp_path


@pytest.fixture
def game(files: Path) -> Path:
    """A new game made with ``gmkit new``, its dice committed when the GM asks (the
    commit-ahead default has its own tests, with the beacon's)."""
    res = run("new", files / "g", "--ruleset", "cien", "--players", files / "players.toml",
              "--map", files / "map.geojson", "--title", "Test Crown", "--no-commit-ahead")
    assert res.exit_code == 0, res.output
    assert "turn 0 committed" in res.stdout
    return files / "g"


# ---------------------------------------------------------------------------
# help
# ---------------------------------------------------------------------------


class TestHelp:
    def test_main_help_lists_every_command(self) -> None:
        """``gmkit --help`` names every command."""
        res = run("--help")
        assert res.exit_code == 0
        assert set(main.commands) >= COMMANDS
        for name in COMMANDS:
            assert re.search(rf"^\s+{re.escape(name)}\s", res.stdout, re.M), name

    @pytest.mark.parametrize("name", sorted(COMMANDS))
    def test_every_command_help_says_what_it_does(self, name: str) -> None:
        """``gmkit CMD --help`` exits 0 and shows what the command does and its usage."""
        cmd = main.commands[name]
        assert cmd.help and len(cmd.help.split()) >= 4, f"{name} has no real help text"
        res = run(name, "--help")
        assert res.exit_code == 0, res.output
        assert f"Usage: main {name}" in res.stdout or f"{name} [OPTIONS]" in res.stdout
        first_sentence = " ".join(cmd.help.split(".")[0].split())
        assert first_sentence in " ".join(res.stdout.split())

    @pytest.mark.parametrize("name,words", [
        ("new", "Create a game"), ("orders", "player's post"), ("commit-seed", "commitment"),
        ("reveal", "seed"), ("resolve", "Resolve"), ("report", "HTML or BBCode"),
        ("verify", "hash"), ("history", "across every turn"), ("rollback", "attic"),
        ("odds", "odds"), ("status", "current turn")])
    def test_help_names_the_job(self, name: str, words: str) -> None:
        """Each command's help names its job in plain words."""
        res = run(name, "--help")
        assert words.lower() in " ".join(res.stdout.split()).lower()


# ---------------------------------------------------------------------------
# a whole turn
# ---------------------------------------------------------------------------


class TestWorkflow:
    def test_a_turn_from_new_to_history(self, files: Path, game: Path) -> None:
        """The turn workflow through the commands: orders (with a 'did you mean' for a misspelt
        province), the seed commitment, a dry run to see the draw ids, a rejected out-of-range
        die, a resolution with a GM-entered die, reveal, reports, verify and history."""
        post = files / "red.txt"
        post.write_text("Hail, GM!\n[b]12 Grain for Conquest of Troies[/b]\n"
                        "[b]12 Grain for Conquest of Tróys[/b]\nCheers", "utf-8")
        res = run("orders", game, "--player", "Red", post)
        assert res.exit_code == 0, res.output
        assert "line 2: no province 'Troies'; did you mean Tróys?" in res.stdout
        assert "1 order(s), 1 problem(s)" in res.stdout

        res = run("orders", game, "--player", "gold", "--secret", "-",
                  input="[b]7 Grain for Defense of Arles[/b]")
        assert res.exit_code == 0, res.output
        assert "stored secret post #2 for turn 1" in res.stdout

        res = run("commit-seed", game)
        assert res.exit_code == 0
        commitment = re.fullmatch(r"turn 1 dice commitment: ([0-9a-f]{64})\s*", res.stdout)
        assert commitment, res.stdout
        posted = commitment.group(1)
        assert run("commit-seed", game).stdout == res.stdout  # stable until resolved

        res = run("resolve", game, "--dry-run")
        assert res.exit_code == 0, res.output
        ids = re.findall(r"die (\S+): .*?: (\d+)d(\d+) -> \[(\d+)\] \(seeded\)", res.stdout)
        assert (LOGGED, "1", "10") in [i[:3] for i in ids], res.stdout
        seeded_attack = int(next(i[3] for i in ids if i[0] == LOGGED))
        assert "dry run: nothing committed" in res.stdout
        assert (game / "turns").exists() and not list((game / "turns").glob("0001.*"))

        bad = files / "bad.txt"
        bad.write_text(f"{ATTACK} = 11\n", "utf-8")
        failed = run("resolve", game, "--dice", bad)
        line = one_line_failure(failed)
        assert ATTACK in line and "d10" in line and str(bad) in line
        assert "nothing was committed" in line
        # the error alone: no half of a resolution printed before it
        assert "==" not in failed.stdout and "die " not in failed.stdout, failed.stdout
        assert not list((game / "turns").glob("0001.*"))

        entered = seeded_attack % 10 + 1
        dice = files / "dice.txt"
        dice.write_text(f"# rolled on the forum\n{ATTACK} = {entered}\n", "utf-8")
        res = run("resolve", game, "--dice", dice)
        assert res.exit_code == 0, res.output
        assert f"die {LOGGED}: Red attacks Tróys with 12: 1d10 -> [{entered}] (entered)" \
            in res.stdout
        assert f"turn 1 committed (commitment {posted})" in res.stdout

        res = run("reveal", game)
        assert res.exit_code == 0, res.output
        seed = re.fullmatch(r"turn 1 seed: ([0-9a-f]{64})\s*", res.stdout).group(1)
        assert hashlib.sha256(seed.encode()).hexdigest() == posted

        html = files / "public.html"
        res = run("report", game, "--view", "public", "--format", "html", "--out", html)
        assert res.exit_code == 0, res.output
        text = html.read_text("utf-8")
        assert text.lstrip().lower().startswith("<!doctype html")
        assert "Test Crown" in text and "Tróys" in text
        assert "Defense of Arles" not in text  # Gold's post was secret
        assert "treasury" not in text.lower()  # a GM-only column
        gm = files / "gm.html"
        assert run("report", game, "--view", "gm", "--format", "html", "--out", gm).exit_code == 0
        assert "Defense of Arles" in gm.read_text("utf-8")

        res = run("report", game, "--format", "bbcode")
        assert res.exit_code == 0, res.output
        assert "[b]" in res.stdout and "<html" not in res.stdout
        assert "entered by GM" in res.stdout and ATTACK in res.stdout
        assert seed in res.stdout

        res = run("verify", game)
        assert res.exit_code == 0, res.output
        assert "verified 2 turn(s)" in res.stdout

        out = files / "x.csv"
        res = run("history", game, "players", "--out", out)
        assert res.exit_code == 0, res.output
        df = pl.read_csv(out)
        assert df.columns[0] == "turn"
        assert sorted(set(df["turn"].to_list())) == [0, 1]
        assert df.filter((pl.col("turn") == 1) & (pl.col("id") == "Red")).height == 1

        pq = files / "rolls.parquet"
        assert run("history", game, "rolls", "--out", pq).exit_code == 0
        rolls = pl.read_parquet(pq)
        assert rolls.filter(pl.col("draw_id") == LOGGED)["source"].to_list() == ["entered"]

    def test_status_and_odds(self, game: Path) -> None:
        """status shows the turn and who has posted; odds shows the contested actions."""
        res = run("status", game)
        assert res.exit_code == 0, res.output
        assert "turn 0 committed, orders now for turn 1" in res.stdout
        assert "orders received from: nobody yet" in res.stdout
        run("orders", game, "--player", "Red", "-", input="[b]10 Grain for Conquest of Tróys[/b]")
        res = run("status", game)
        assert "orders received from: Red" in res.stdout
        assert "waiting for: Gold" in res.stdout
        res = run("odds", game)
        assert res.exit_code == 0 and "Tróys" in res.stdout and "9/20" in res.stdout

    def test_verify_fails_after_tampering(self, game: Path) -> None:
        """verify exits 1 and lists the problem when a file was changed."""
        assert run("resolve", game, "--allow-empty", "--unannounced").exit_code == 0
        target = game / "turns" / "0001.r0" / "events.parquet"
        data = bytearray(target.read_bytes())
        data[len(data) // 2] ^= 0xFF
        target.write_bytes(bytes(data))
        res = run("verify", game)
        assert res.exit_code == 1
        assert str(target) in res.stdout
        assert "verify found 1 problem(s)" in res.stderr

    def test_resolve_revise_makes_a_new_revision(self, files: Path, game: Path) -> None:
        """resolve --revise re-resolves the latest turn as a new revision, keeping the old."""
        run("orders", game, "--player", "Red", "-", input="[b]12 Grain for Conquest of Tróys[/b]")
        run("commit-seed", game)
        assert run("resolve", game).exit_code == 0
        dice = files / "dice.txt"
        dice.write_text(f"{ATTACK} = 10\n", "utf-8")
        res = run("resolve", game, "--revise", "--dice", dice)
        assert res.exit_code == 0, res.output
        assert "turn 1 re-resolved as revision 1" in res.stdout
        assert (game / "turns" / "0001.r0").is_dir() and (game / "turns" / "0001.r1").is_dir()
        assert run("verify", game).exit_code == 0

    def test_rollback(self, game: Path) -> None:
        """rollback --to sets later turns aside in the attic."""
        for _ in range(2):
            res = run("resolve", game, "--allow-empty", "--unannounced")
            assert res.exit_code == 0, res.output
        res = run("rollback", game, "--to", "1")
        assert res.exit_code == 0, res.output
        assert "set aside 1 turn folder(s)" in res.stdout
        assert sorted(p.name for p in (game / "attic").iterdir()) == \
            ["000-0002.r0", "000-rollback.json", "000-secret-0002.seed"]
        assert "turn 1 committed, orders now for turn 2" in run("status", game).stdout


# ---------------------------------------------------------------------------
# failures
# ---------------------------------------------------------------------------


class TestFailures:
    def test_missing_game_folder(self, tmp_path: Path) -> None:
        """A missing game folder: non-zero exit, one line naming it."""
        for cmd in (["status"], ["verify"], ["commit-seed"], ["resolve"], ["history", "players"]):
            line = one_line_failure(run(cmd[0], tmp_path / "nowhere", *cmd[1:]))
            assert "nowhere" in line and "no such game folder" in line

    def test_folder_that_is_not_a_game(self, tmp_path: Path) -> None:
        """A folder without game.toml is refused with the reason."""
        (tmp_path / "empty").mkdir()
        line = one_line_failure(run("status", tmp_path / "empty"))
        assert "no game.toml" in line

    def test_out_of_range_entered_die(self, files: Path, game: Path) -> None:
        """An 11 entered on a d10 is refused naming the draw; nothing is committed."""
        run("orders", game, "--player", "Red", "-", input="[b]12 Grain for Conquest of Tróys[/b]")
        run("commit-seed", game)
        bad = files / "bad.txt"
        bad.write_text(f"{ATTACK} = 11\n", "utf-8")
        line = one_line_failure(run("resolve", game, "--dice", bad))
        assert ATTACK in line and "11" in line
        assert sorted(p.name for p in (game / "turns").iterdir()
                      if not p.name.startswith(".")) == ["0000.r0"]

    def test_malformed_dice_file_names_file_and_line(self, files: Path, game: Path) -> None:
        """A dice file with a bad line is refused naming the file and the line."""
        bad = files / "bad.txt"
        bad.write_text(f"{ATTACK} = 3\nthis is not a die\n", "utf-8")
        line = one_line_failure(run("resolve", game, "--dice", bad))
        assert str(bad) in line and "line 2" in line

    def test_unknown_ruleset(self, files: Path) -> None:
        """An unknown ruleset is refused listing the known ones; no folder is made."""
        line = one_line_failure(run("new", files / "x", "--ruleset", "chess", "--players",
                                    files / "players.toml", "--map", files / "map.geojson"))
        assert "chess" in line and "cien" in line
        assert not (files / "x").exists()

    def test_new_into_an_existing_game(self, files: Path, game: Path) -> None:
        """A game folder is never overwritten by ``new``."""
        line = one_line_failure(run("new", game, "--ruleset", "cien", "--players",
                                    files / "players.toml", "--map", files / "map.geojson"))
        assert "not empty" in line
        assert run("verify", game).exit_code == 0

    def test_unknown_player(self, game: Path) -> None:
        """Orders from nobody in the game are refused, listing the players."""
        line = one_line_failure(run("orders", game, "--player", "Mauve", "-", input="x"))
        assert "Mauve" in line and "Red" in line

    def test_reveal_before_commit(self, game: Path) -> None:
        """A seed is revealed only after its turn is committed."""
        run("commit-seed", game)
        line = one_line_failure(run("reveal", game, "--turn", "1"))
        assert "not committed" in line

    def test_unknown_history_table(self, game: Path) -> None:
        """An unknown table is refused listing the known ones."""
        line = one_line_failure(run("history", game, "nosuch"))
        assert "nosuch" in line and "players" in line

    def test_history_needs_csv_or_parquet(self, files: Path, game: Path) -> None:
        """history --out writes .csv, .json or .parquet only."""
        line = one_line_failure(run("history", game, "players", "--out", files / "x.xlsx"))
        assert ".csv, .json or .parquet" in line

    def test_rollback_to_an_unknown_turn_changes_nothing(self, game: Path) -> None:
        """rollback to a turn that does not exist fails and leaves the game playable."""
        assert run("resolve", game, "--allow-empty", "--unannounced").exit_code == 0
        one_line_failure(run("rollback", game, "--to", "-1"))
        res = run("status", game)
        assert res.exit_code == 0, res.output
        assert "turn 1 committed" in res.stdout
