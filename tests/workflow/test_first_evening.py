"""What a GM met in a first evening with gmkit: a player list with a mistake is refused in one
line naming the file, the player and the field; a defused order line copied from a summary reads
as the order it is; the site's luck table and the turn maps are readable; the map is written as a
file to attach to a forum post."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from gmkit.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(*args: object, input: str | None = None) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def one_line_failure(res: Result) -> str:
    """Exit code 2, one line on standard error starting 'gmkit: ', no traceback."""
    assert res.exit_code == 2, (res.output, res.exception)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("gmkit: ") and "Traceback" not in res.output
    return lines[0]


CIEN_PLAYER = """\
[[players]]
id = "Red"
name = "Alice"
state = "Coyons"
government = "duchy"

[[{table}]]
id = "{colour}"
name = "Bob"
state = "{state}"
{government}
"""


def cien_players(tmp_path: Path, *, table: str = "players", colour: str = "Gold",
                 state: str = "Sevoy", government: str = 'government = "city-state"') -> Path:
    path = tmp_path / "players.toml"
    path.write_text(CIEN_PLAYER.format(table=table, colour=colour, state=state,
                                       government=government), "utf-8")
    return path


@pytest.mark.parametrize(("mistake", "field", "word"), [
    ({"colour": "Golden"}, "id", "Golden"),
    ({"state": "Sevoie"}, "state", "Sevoie"),
    ({"government": 'government = "kingdom"'}, "government", "kingdom"),
    ({"government": ""}, "government", "no government"),
])
def test_a_cien_player_list_mistake_is_one_line_naming_file_player_and_field(
        tmp_path: Path, mistake: dict[str, str], field: str, word: str) -> None:
    """An unknown colour, a misspelt state, a government that is neither a duchy nor a
    city-state, or none at all: one line naming the file, the player (Bob) and the field."""
    players = cien_players(tmp_path, **mistake)
    line = one_line_failure(run("new", tmp_path / "g", "--ruleset", "cien", "--players",
                                players))
    assert str(players) in line and "Bob" in line and field in line and word in line, line
    assert not (tmp_path / "g").exists()


def test_a_misspelt_players_table_is_refused_rather_than_a_game_without_players(
        tmp_path: Path) -> None:
    """``[[player]]`` instead of ``[[players]]``: no game of zero players, the file is named
    with what to write."""
    path = tmp_path / "players.toml"
    path.write_text(CIEN_PLAYER.format(table="player", colour="Gold", state="Sevoy",
                                       government="").replace("[[players]]", "[[player]]"),
                    "utf-8")
    line = one_line_failure(run("new", tmp_path / "g", "--ruleset", "cien", "--players", path))
    assert str(path) in line and "[[players]]" in line


def test_an_aztlan_player_with_no_empire_is_named_with_the_empires(tmp_path: Path) -> None:
    """AZTLAN: a player whose id is no empire (rule 2.1) is named with the valid empires."""
    path = tmp_path / "players.toml"
    path.write_text('[[players]]\nid = "Aztecs"\nname = "A"\n\n[[players]]\nid = "Tlaxcala"\n'
                    'name = "B"\n\n[[players]]\nid = "Chalcans"\nname = "C"\n', "utf-8")
    line = one_line_failure(run("new", tmp_path / "g", "--ruleset", "aztlan", "--players",
                                path))
    assert str(path) in line and "'B'" in line and "Tlaxcala" in line and "Tlaxcalans" in line


def test_the_readme_lists_the_valid_colours_governments_and_empires() -> None:
    """The README's players.toml paragraph names every valid value a GM must type."""
    from gmkit.rulesets.aztlan.board.geography import EMPIRES
    from gmkit.rulesets.cien.rules import COLOURS

    readme = (ROOT / "README.md").read_text("utf-8")
    para = readme[readme.index("`players.toml` lists the players"):][:1500]
    for word in (*COLOURS, "duchy", "city-state", *EMPIRES):
        assert f"`{word}`" in para, word


def test_a_defused_order_line_copied_from_a_summary_reads_as_its_order(tmp_path: Path) -> None:
    """Cien: ``[\\u200bb]Gift 5 Grain to the Emperor[\\u200b/b]``, copied from a BBCode
    summary (where gmkit puts a zero-width space after ``[`` so no tag opens), is the bold
    order it shows, not a refusal."""
    from gmkit.game import Game

    game = Path(shutil.copytree(ROOT / "data" / "sample-cien", tmp_path / "g"))
    g = Game.open(game)
    pending = g.store.pending_posts(g.next_turn)
    player, seq = pending["player"][0], pending["seq"][0]
    assert run("withdraw", game, seq, "--why", "copied again").exit_code == 0
    res = run("orders", game, "--player", player, "-",
              input="Here you go:\n[\u200bb]Gift 5 Grain to the Emperor[\u200b/b]\n")
    assert res.exit_code == 0, res.output
    assert "1 order(s), 0 problem(s)" in res.output, res.output
    assert "gift 5 grain" in res.output.split("stored")[0]


def test_the_sites_luck_table_reads_as_figures_and_scrolls_in_its_box(tmp_path: Path) -> None:
    """The history page's dice table: no raw float (two decimals at most, luck a percentage),
    every table inside a box that scrolls sideways instead of overflowing the page."""
    import re

    game = Path(shutil.copytree(ROOT / "data" / "sample-cien", tmp_path / "g"))
    assert run("publish", game, "--out", tmp_path / "site").exit_code == 0
    page = (tmp_path / "site" / "history.html").read_text("utf-8")
    dice = page[page.index("<h2>The dice</h2>"):]
    dice = dice[dice.index("<table>"):dice.index("</table>")]
    cells = re.findall(r"<td>([^<]*)</td>", dice)
    assert cells and not [c for c in cells if re.fullmatch(r"-?[\d,]*\.\d{3,}%?", c)], cells
    assert any(c.endswith("%") for c in cells), cells
    assert '<div class="scroll"><table>' in page and ".scroll{overflow-x:auto" in page


def test_the_turn_pages_draw_the_maps_at_full_width_with_their_own_scroll(tmp_path: Path
                                                                          ) -> None:
    """A turn's summary draws each map on its own row, no narrower than a readable width,
    scrolling sideways inside its frame on a narrow screen."""
    game = Path(shutil.copytree(ROOT / "data" / "sample-cien", tmp_path / "g"))
    res = run("report", game)
    assert res.exit_code == 0
    css = res.stdout[res.stdout.index("<style>"):res.stdout.index("</style>")]
    assert ".maps { display: grid; grid-template-columns: 1fr;" in css
    assert ".maps figure { overflow-x: auto; }" in css
    assert "min-width: 56rem; max-width: none;" in css


@pytest.mark.parametrize("view", ["public", "gm", "player:Red"])
def test_the_map_is_written_as_a_png_or_svg_to_attach_to_a_forum_post(tmp_path: Path,
                                                                       view: str) -> None:
    """``gmkit map GAME --turn N --view V --out FILE``: an SVG of the viewed state's map, or a
    PNG drawn from it; the BBCode summary written with ``--map-file`` says which file to
    attach."""
    game = Path(shutil.copytree(ROOT / "data" / "sample-cien", tmp_path / "g"))
    svg, png = tmp_path / "map.svg", tmp_path / "map-turn-0003.png"
    res = run("map", game, "--turn", 3, "--view", view, "--out", svg)
    assert res.exit_code == 0, res.output
    assert svg.read_text("utf-8").lstrip().startswith("<svg") and "After turn 3" in \
        svg.read_text("utf-8")
    assert run("map", game, "--turn", 3, "--view", view, "--out", png).exit_code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    res = run("report", game, "--turn", 3, "--format", "bbcode", "--map-file", png.name)
    assert res.exit_code == 0 and "[b]Map:[/b] attach map-turn-0003.png" in res.stdout


def test_a_map_file_of_another_kind_or_an_uncommitted_turn_is_one_line(tmp_path: Path) -> None:
    """A map asked as .jpg, or after a turn not committed yet: one line, nothing written."""
    game = Path(shutil.copytree(ROOT / "data" / "sample-cien", tmp_path / "g"))
    assert ".svg, .png or .geojson" in one_line_failure(run("map", game, "--out", tmp_path / "m.jpg"))
    assert "not committed" in one_line_failure(run("map", game, "--turn", 99, "--out",
                                                   tmp_path / "m.png"))
    assert not list(tmp_path.glob("m.*"))
