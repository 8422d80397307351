"""What if: a committed turn resolved again with one thing changed (:mod:`gmkit.game.whatif`), on every
sample game, never writing in the game folder."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from gmkit.cli import main
from gmkit.game import Game, GameError
from gmkit.game.whatif import Changes, changed_posts, describe, field_changes, what_if
from tests.test_cli import files  # noqa: F401  (fixture: a map and a player list)

SAMPLES = sorted(p.name for p in (Path(__file__).resolve().parent.parent / "data").glob("sample-*"))


def _copy(tmp_path: Path, sample: str) -> Path:
    root = tmp_path / sample
    shutil.copytree(Path(__file__).resolve().parent.parent / "data" / sample, root)
    return root


def _hashes(root: Path) -> dict[str, str]:
    """Every entry of a folder (hidden ones too: a ``.lock``) with its content's hash."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            if p.is_file() else "dir" for p in sorted(root.rglob("*"))}


@pytest.fixture(params=SAMPLES)
def sample(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    return _copy(tmp_path, request.param)


def test_samples_are_the_five_games() -> None:
    assert {"sample-aeternus", "sample-aztlan", "sample-cien", "sample-jungle",
            "sample-pyramid"} <= set(SAMPLES)


def test_nothing_changed_gives_every_recorded_turn_back(sample: Path) -> None:
    """A turn resolved again from its recorded seed, posts, dice and rules with nothing changed
    is the turn that was recorded: no table, event or outcome differs, and no later turn needs
    replaying."""
    game = Game.open(sample)
    for turn in game.store.turns()[1:]:
        result = what_if(game, turn, Changes())
        assert result.difference.same, (turn, result.difference)
        assert result.later is None and result.replayed == 0
        assert "nothing would have differed" in "\n".join(describe(result))


def test_whatif_never_writes_in_the_game_folder(sample: Path, tmp_path: Path) -> None:
    """Every turn of the game asked with its first post withdrawn, or emptied with a post added
    and a die entered, later turns replayed and the result written out: every file of the game
    folder keeps its hash, nothing is added (no seed, no post, not even the folder's lock
    file)."""
    before = _hashes(sample)
    game = Game.open(sample)
    for turn in game.store.turns()[1:]:
        posts = game.turn(turn).orders
        if posts.is_empty():
            continue
        first = posts.row(0, named=True)
        result = what_if(game, turn, Changes(withdraw=((first["seq"], None),)))
        describe(result)
        describe(what_if(game, turn, Changes(replace={first["seq"]: ""}, dice={"no-draw": 1},
                                             add=((first["player"], first["text"]),))))
    from gmkit.game.whatif import write_out

    write_out(game, result, tmp_path / "out")
    assert _hashes(sample) == before
    assert not (sample / ".lock").exists()


def test_whatif_is_what_rolling_back_and_resolving_again_would_give(sample: Path,
                                                                     tmp_path: Path) -> None:
    """The what-if of a turn is the turn the GM would get by rolling the game back to it and
    resolving it again (a new revision) with the changed posts: the same state and events."""
    game = Game.open(sample)
    turn = max(1, game.latest_turn // 2)
    posts = game.turn(turn).orders
    changes = Changes(withdraw=((int(posts["seq"][-1]), None),))
    result = what_if(game, turn, changes)
    assert result.posts.height == posts.height - 1

    other = tmp_path / "rolled-back"
    shutil.copytree(sample, other)
    g = Game.open(other)
    g.rollback(turn, "checking a what-if")
    again = g.re_resolve(posts=changed_posts(g, posts, g.state(turn - 1), changes),
                         reason="checking a what-if")
    for name, frame in again.state.tables.items():
        assert frame.equals(result.resolved.state[name]), name
    assert again.events.equals(result.resolved.events)
    assert (again.outcome or None) == result.outcome[1]


def test_later_turns_replay_up_to_the_first_that_differs(sample: Path) -> None:
    """With the state changed, the turns after are replayed with their recorded posts, and the
    first whose result differs is reported; every turn between was replayed to the same
    result."""
    game = Game.open(sample)
    for turn in game.store.turns()[1:-1]:
        posts = game.turn(turn).orders
        if posts.is_empty():
            continue
        result = what_if(game, turn, Changes(withdraw=((int(posts["seq"][0]), None),)))
        if result.later is not None:
            assert result.later.turn == turn + result.replayed
            assert not result.later.same
        elif any(not game.turn(turn).state[n].equals(result.resolved.state[n])
                 for n in game.turn(turn).state.tables):
            assert result.replayed == game.latest_turn - turn  # all replayed, none differs
        else:
            assert result.replayed == 0  # the state is the recorded one: nothing after differs


# -- scenarios named after the rules ---------------------------------------------------------------

def _line(text: str, pattern: str) -> int | None:
    for number, line in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
        if re.search(pattern, line):
            return number
    return None


def test_aztlan_5_7_an_army_whose_attack_line_is_withdrawn_stands(tmp_path: Path) -> None:
    """AZTLAN 5.7: "Stand is the normal defensive order... An army which comes under attack will
    be considered as Standing" -- an army left without an order stands: with its Attack line
    withdrawn, the army stands and the attack it made is gone."""
    game = Game.open(_copy(tmp_path, "sample-aztlan"))
    for turn in game.store.turns()[1:]:
        for row in game.turn(turn).orders.iter_rows(named=True):
            line = _line(row["text"], r"^\s*\d*A \w+ A \w+")
            if line is not None:
                break
        else:
            continue
        break
    else:
        pytest.fail("no Attack order in the AZTLAN sample")
    result = what_if(game, turn, Changes(withdraw=((row["seq"], line),)))
    added = " ".join(result.events_added["text"].to_list())
    removed = " ".join(result.events_removed["text"].to_list())
    assert "attacks" in removed
    assert "with no order (stands)" in added
    assert result.problems == {}


def test_cien_war_dice_entered_decide_the_conquest(tmp_path: Path) -> None:
    """Cien, LES DEMANDES, LA DÉFENSE ET LES DÉS DE GUERRE: "d10 + Grain = your number. If you
    roll higher than the opponents' defending force, you win"; and "The Grain output of the State
    is thus HALVED". A failed conquest with the attacker's d10 entered as 10 and the defender's
    as 1 succeeds when the attacker's grain + 10 beats the defence + 1."""
    game = Game.open(_copy(tmp_path, "sample-cien"))
    for turn in game.store.turns()[1:]:
        data = game.turn(turn)
        for roll in data.rolls.iter_rows(named=True):
            m = re.fullmatch(r"conquest:attack/(.+)/(\w+)(?:#0)?", roll["draw_id"])
            grain = re.search(r"with (\d+)", roll["purpose"])
            if not m or not grain:
                continue
            province, attacker = m[1], m[2]
            defend = data.rolls.filter(pl.col("draw_id").is_in(
                [f"conquest:defend/{province}/{attacker}{s}" for s in ("", "#0")]))
            force = re.search(r"defends with (\d+)", defend["purpose"][0]) if defend.height \
                else None
            owner = data.state["provinces"].filter(pl.col("name") == province)
            if force and owner["owner"][0] != attacker and \
                    int(grain[1]) + 10 > int(force[1]) + 1:
                break
        else:
            continue
        break
    else:
        pytest.fail("no failed conquest in the Cien sample")
    output = game.state(turn - 1)["provinces"].filter(pl.col("name") == province)["output"][0]
    dice = {f"conquest:attack/{province}/{attacker}": 10,
            f"conquest:defend/{province}/{attacker}": 1}
    result = what_if(game, turn, Changes(dice=dice))
    after = result.resolved.state["provinces"].filter(pl.col("name") == province)
    assert after["owner"][0] == attacker
    assert after["output"][0] == output // 2
    assert "provinces" in result.tables and result.unused_dice == []
    changes = field_changes(result.tables["provinces"])
    assert changes.columns[0] == "name" and province in changes["name"].to_list()


def test_cien_divisions_a_rule_set_otherwise_holds_from_the_turn_on(tmp_path: Path) -> None:
    """Cien, divisions: "Non-Player States will always dedicate themselves to defense of their
    borders, meaning that 10 Grain will always be spent on Defense" (``npc_defense``). Set to 2
    from a turn on, every independent defence of that turn is made with 2, and so is the next
    turn's when it is replayed."""
    game = Game.open(_copy(tmp_path, "sample-cien"))

    def independent(t: int) -> bool:
        return bool(game.turn(t).rolls["purpose"].str.contains("(independent) defends",
                                                                literal=True).any())

    turn = next(t for t in game.store.turns()[1:-1] if independent(t) and independent(t + 1))
    result = what_if(game, turn, Changes(rules={"npc_defense": 2}))
    purposes = result.resolved.rolls["purpose"]
    defences = purposes.filter(purposes.str.contains("(independent) defends", literal=True))
    assert defences.len() and defences.str.contains("defends with 2 ").all()
    assert result.later is not None and result.later.turn == turn + 1
    later = " ".join(result.later.events_added["text"].to_list())
    assert "(independent) 2+" in later and "(independent) 10+" not in later


def test_a_post_withdrawn_and_added_again_reads_as_before(sample: Path) -> None:
    """A post added for a player is read as that player's post: withdrawing a post and adding
    the same text for the same player resolves to the recorded state."""
    game = Game.open(sample)
    turn = game.latest_turn
    row = game.turn(turn).orders.row(-1, named=True)
    result = what_if(game, turn, Changes(withdraw=((row["seq"], None),),
                                         add=((row["player"].upper(), row["text"]),)))
    assert result.posts.height == game.turn(turn).orders.height
    assert result.tables == {}
    assert result.outcome[0] == result.outcome[1]


def test_aeternus_2_a_join_post_added_makes_a_newcomer_a_player(tmp_path: Path) -> None:
    """Aeternus 2: "Any person may become a player by posting a message setting forth their
    intent to do so": a join post added for someone who is no player yet makes them one in the
    turn asked again."""
    game = Game.open(_copy(tmp_path, "sample-aeternus"))
    turn = game.latest_turn
    result = what_if(game, turn, Changes(add=(("newbie", "Join"),)))
    assert "players" in result.tables
    assert "newbie" in "\n".join(describe(result))


# -- bad input: a clear error, nothing written ---------------------------------------------------

@pytest.mark.parametrize("changes,turn,message", [
    (Changes(withdraw=((9999, None),)), 1, "post #9999 is not one this turn read"),
    (Changes(replace={9999: "x"}), 1, "post #9999 is not one this turn read"),
    (Changes(add=(("Nobody", "x"),)), 1, "no player 'Nobody'"),
    (Changes(rules={"no_such_rule": 3}), 1, "no_such_rule"),
    (Changes(), 0, "turn 0 is the set-up"),
    (Changes(), 999, "turn 999 is not committed"),
])
def test_bad_whatif_names_the_value_and_writes_nothing(tmp_path: Path, changes: Changes,
                                                      turn: int, message: str) -> None:
    root = _copy(tmp_path, "sample-cien")
    before = _hashes(root)
    with pytest.raises(GameError, match=re.escape(message)):
        what_if(Game.open(root), turn, changes)
    assert _hashes(root) == before


def test_bad_whatif_line_out_of_the_post_is_named(tmp_path: Path) -> None:
    game = Game.open(_copy(tmp_path, "sample-cien"))
    row = game.turn(1).orders.row(0, named=True)
    lines = len(row["text"].replace("\r\n", "\n").split("\n"))
    with pytest.raises(GameError, match=f"post #{row['seq']} has lines 1 to {lines}, not 99"):
        what_if(game, 1, Changes(withdraw=((row["seq"], 99),)))


def test_bad_whatif_dice_no_draw_used_are_named(tmp_path: Path) -> None:
    """A typo in an entered draw id is reported, not silently ignored."""
    game = Game.open(_copy(tmp_path, "sample-cien"))
    result = what_if(game, 2, Changes(dice={"conquest:atack/Nowhere/Red": 7}))
    assert result.unused_dice == ["conquest:atack/Nowhere/Red"]
    assert "entered dice no draw used: conquest:atack/Nowhere/Red" in describe(result)


def test_bad_whatif_rule_of_the_wrong_kind_is_named(tmp_path: Path) -> None:
    game = Game.open(_copy(tmp_path, "sample-cien"))
    with pytest.raises(GameError, match="npc_defense"):
        what_if(game, 1, Changes(rules={"npc_defense": "many"}))


# -- the command -----------------------------------------------------------------------------------

def test_cli_whatif_prints_the_difference_and_writes_parquet(tmp_path: Path) -> None:
    root = _copy(tmp_path, "sample-pyramid")
    game = Game.open(root)
    row = game.turn(2).orders.row(0, named=True)
    post = tmp_path / "post.txt"
    post.write_text("Orders of nobody in particular.\n", encoding="utf-8")
    before = _hashes(root)
    out = tmp_path / "whatif"
    run = CliRunner().invoke(main, ["whatif", str(root), "--turn", "2", "--replace",
                                    str(row["seq"]), str(post), "--out", str(out)])
    assert run.exit_code == 0, run.output
    assert f"turn 2 resolved again with: post #{row['seq']} replaced" in run.output
    assert "later: " in run.output
    assert _hashes(root) == before
    changed = sorted(p.name for p in (out / "changed").glob("*.parquet"))
    assert changed and all("side" in pl.read_parquet(out / "changed" / n).columns
                           for n in changed)
    assert pl.read_parquet(out / "orders.parquet").filter(
        pl.col("seq") == row["seq"])["text"][0] == post.read_text(encoding="utf-8")
    assert set(pl.read_parquet(out / "state" / "players.parquet").columns) == \
        set(game.turn(2).state["players"].columns)
    assert (out / "map-recorded.svg").read_text("utf-8").startswith("<svg")
    assert "turn 2, what if" in (out / "map-whatif.svg").read_text("utf-8")


def test_cli_whatif_refuses_to_write_in_the_game_folder(tmp_path: Path) -> None:
    root = _copy(tmp_path, "sample-aztlan")
    before = _hashes(root)
    run = CliRunner().invoke(main, ["whatif", str(root), "--turn", "1", "--out",
                                    str(root / "whatif")])
    assert run.exit_code == 2 and "outside the game folder" in run.output
    assert _hashes(root) == before


@pytest.mark.parametrize("target", ["file", "under-a-file"])
def test_cli_whatif_refuses_an_out_that_cannot_be_a_folder_before_resolving(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str) -> None:
    """``--out`` names a folder: an existing file there (or a file on its way) is refused in
    one line before the turn is resolved, never after."""
    import gmkit.game.whatif as whatif

    root = _copy(tmp_path, "sample-aztlan")
    (tmp_path / "taken").write_text("a file of the GM's", "utf-8")
    out = tmp_path / "taken" if target == "file" else tmp_path / "taken" / "wi"

    def never(*args: object, **kw: object) -> None:
        raise AssertionError("resolved before --out was checked")

    monkeypatch.setattr(whatif, "what_if", never)
    run = CliRunner().invoke(main, ["whatif", str(root), "--turn", "1", "--out", str(out)])
    assert run.exit_code == 2, run.output
    assert "is not a folder" in run.stderr.strip().splitlines()[-1]
    assert (tmp_path / "taken").read_text("utf-8") == "a file of the GM's"


def test_cli_whatif_bad_withdraw_is_named(tmp_path: Path) -> None:
    root = _copy(tmp_path, "sample-aztlan")
    run = CliRunner().invoke(main, ["whatif", str(root), "--turn", "1", "--withdraw", "3:x"])
    assert run.exit_code == 2 and "'3:x'" in run.output


# -- the history notebook's panel ----------------------------------------------------------------

def _history_notebook(game: Path, monkeypatch: pytest.MonkeyPatch, *args: str,
                      defs: dict | None = None) -> tuple[list, dict]:
    import importlib.util
    import sys

    notebook = Path(__file__).resolve().parent.parent / "notebooks" / "history.py"
    monkeypatch.setattr(sys, "argv", [str(notebook), "--game", str(game), *args])
    spec = importlib.util.spec_from_file_location("history_notebook_whatif", notebook)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    outputs, found = module.app.run(defs=defs)
    return list(outputs), dict(found)


def test_history_notebook_whatif_panel_shows_the_difference_and_both_maps(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The panel on the latest turn with its first post withdrawn: the same difference as the
    library gives, the map as recorded and as it would have been; the folder untouched."""
    import marimo as mo

    root = _copy(tmp_path, "sample-aztlan")
    before = _hashes(root)
    _, plain = _history_notebook(root, monkeypatch, "--view", "gm")
    assert plain["whatif_result"].difference.same  # nothing changed until the GM asks
    outputs, found = _history_notebook(root, monkeypatch, "--view", "gm", defs={
        "whatif_text": mo.ui.text_area(value=""), "whatif_withdrawn": mo.ui.checkbox(value=True),
        "whatif_rule": mo.ui.text(value=""), "whatif_dice": mo.ui.text_area(value="")})
    result = found["whatif_result"]
    game = Game.open(root)
    seq = int(game.turn(game.latest_turn).orders["seq"][0])
    assert result.changes == Changes(withdraw=((seq, None),))
    expected = what_if(game, game.latest_turn, result.changes)
    assert result.tables.keys() == expected.tables.keys()
    assert result.events_removed.equals(expected.events_removed)
    page = "".join(getattr(o, "text", "") for o in outputs if o is not None)
    assert f"post #{seq} withdrawn" in page
    assert f"turn {game.latest_turn}, as recorded" in page and \
        f"turn {game.latest_turn}, what if" in page
    assert _hashes(root) == before


def test_history_notebook_whatif_panel_is_the_gms(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """In the public view the panel (which shows every post, secret ones too) is not run."""
    _, found = _history_notebook(_copy(tmp_path, "sample-cien"), monkeypatch)
    assert "whatif_result" not in found and "whatif_turn" not in found


def test_whatif_leaves_an_interrupted_rule_change_for_the_next_command(tmp_path: Path) -> None:
    """A rule change recorded in pending/changes.json whose write to game.toml was interrupted
    is completed by the next command that opens the folder, never by a what-if (which resolves
    with what each turn recorded)."""
    import json

    from gmkit.game.whatif import open_game

    root = _copy(tmp_path, "sample-cien")
    pending = root / "pending" / "changes.json"
    latest = Game.open(root).latest_turn
    pending.write_text(json.dumps([{
        "kind": "rules", "name": "base_output", "value": 12, "old": None,
        "from_turn": latest + 1, "why": "house rule", "by": "gm", "at": "2026-01-01T00:00:00+00:00",
        "rules_before": {}, "rules_after": {"base_output": 12}}]), encoding="utf-8")
    before = _hashes(root)
    result = what_if(open_game(root), latest, Changes())
    assert result.difference.same
    assert _hashes(root) == before
    Game.open(root)  # an ordinary command completes it
    assert _hashes(root)["game.toml"] != before["game.toml"]


def test_whatif_refuses_a_folder_with_an_interrupted_rollback(tmp_path: Path) -> None:
    from gmkit.core.rollback import ROLLBACK_JOURNAL
    from gmkit.game.whatif import open_game

    root = _copy(tmp_path, "sample-cien")
    (root / ROLLBACK_JOURNAL).write_text("{}", encoding="utf-8")
    before = _hashes(root)
    with pytest.raises(GameError, match="a rollback was interrupted"):
        open_game(root)
    assert _hashes(root) == before


def test_cli_whatif_options_combine(tmp_path: Path) -> None:
    """A line withdrawn, a post added, dice entered and a rule set in one question."""
    root = _copy(tmp_path, "sample-cien")
    game = Game.open(root)
    turn = 3
    rows = game.turn(turn).orders.rows(named=True)
    first, last = rows[0], rows[-1]
    added = tmp_path / "added.txt"
    added.write_text(last["text"], encoding="utf-8")
    dice = tmp_path / "dice.txt"
    dice.write_text("no-such-draw = 3\n", encoding="utf-8")
    before = _hashes(root)
    run = CliRunner().invoke(main, [
        "whatif", str(root), "--turn", str(turn), "--withdraw", f"{first['seq']}:2",
        "--withdraw", str(last["seq"]), "--add", last["player"], str(added),
        "--dice", str(dice), "--rule", "npc_defense=12", "--no-later"])
    assert run.exit_code == 0, run.output
    assert (f"a post of {last['player']} added; line 2 of post #{first['seq']} withdrawn; "
            f"post #{last['seq']} withdrawn; die no-such-draw = 3; rule npc_defense = 12"
            ) in run.output.replace("\n", " ")
    assert "entered dice no draw used: no-such-draw" in run.output
    assert "later:" not in run.output
    assert _hashes(root) == before


def test_a_beacon_mixed_turn_is_asked_with_the_seed_its_dice_were_rolled_with(
        files: Path) -> None:  # noqa: F811
    """In a game whose dice are mixed with a public beacon, a what-if rolls with the seed derived
    from the secret and the turn's beacon: nothing changed gives the recorded turn, and with
    another player's post withdrawn the same draw gives the same die."""
    from tests.test_beacon_game import VECTORS, play_turn
    from tests.test_cli import run

    res = run("new", files / "g", "--ruleset", "cien", "--players", files / "players.toml",
              "--map", files / "map.geojson", "--beacon", "drand-quicknet")
    assert res.exit_code == 0, res.output
    play_turn(files / "g", VECTORS[0])
    before = _hashes(files / "g")
    game = Game.open(files / "g")
    assert "beacon" in game.store.manifest(1)
    assert what_if(game, 1, Changes()).difference.same
    gold = game.turn(1).orders.filter(pl.col("player") == "Gold")["seq"][0]
    result = what_if(game, 1, Changes(withdraw=((int(gold), None),)))
    assert not result.difference.same
    recorded = dict(game.turn(1).rolls.select("draw_id", "result").iter_rows())
    again = dict(result.resolved.rolls.select("draw_id", "result").iter_rows())
    common = recorded.keys() & again.keys()
    assert common and all(recorded[k] == again[k] for k in common)
    assert _hashes(files / "g") == before


def test_control_characters_in_a_replaced_post_never_reach_the_terminal(tmp_path: Path) -> None:
    """A post carrying terminal escapes is read and its problem named with the escape written
    out (``\\u001b``), never sent to the GM's terminal as is."""
    game = Game.open(_copy(tmp_path, "sample-cien"))
    row = game.turn(2).orders.row(0, named=True)
    text = "[b]5 Grain for Conquest of \x1b[2J\x1b[31mNowhere[/b]"
    result = what_if(game, 2, Changes(replace={row["seq"]: text}))
    assert result.problems.get(row["player"]), result.problems
    lines = describe(result)
    assert not any("\x1b" in line for line in lines)
    assert any("\\u001b" in line for line in lines if line.startswith("order problem"))
