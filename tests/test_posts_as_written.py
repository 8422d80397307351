"""Posts as players write them: a plain line that starts neither with an order word nor with a
known name ("Good luck all!") is not read as an order and is no rejection; a mistyped order
still is one; rejections are listed in line order, each quoting its line, and never also among
the orders read; a rule's rejection quotes its line as the parser's do, and names a line of the
player's other post by that post."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from gmkit.cli import main
from gmkit.core.names import NameIndex
from gmkit.core.words import starts_like_an_order
from gmkit.core.orders import (IllegalOrderError, NotAnOrderError, OrderSyntaxError, PostLine,
                               merge_posts, parse_post)
from gmkit.core.steps import Event, condensed
from gmkit.game import Game
from gmkit.game.reading import reading

ROOT = Path(__file__).resolve().parent.parent


def _copy(tmp_path: Path, game: str) -> Path:
    dest = tmp_path / f"sample-{game}"
    shutil.copytree(ROOT / "data" / f"sample-{game}", dest, ignore=shutil.ignore_patterns(".lock"))
    return dest


def _line_parser(line: PostLine) -> str:
    if line.text.lower().startswith("march "):
        return line.text[6:]
    if starts_like_an_order(line.text, ["march"], [NameIndex(["Paris", "Lyon"])]):
        raise OrderSyntaxError(f"cannot read {line.text!r}")
    raise NotAnOrderError(f"not an order: {line.text!r}")


def test_a_plain_line_no_order_word_starts_is_not_read_and_is_no_rejection():
    result = parse_post("Hi all!\nmarch Paris\nMarhc Lyon\nParis holds on\nGood luck all!",
                        _line_parser)
    assert [o for _, o in result.orders] == ["Paris"]
    assert [e.line for e in result.errors] == [3, 4], "mistyped orders stay rejections"
    assert [(x.number, x.text) for x in result.unread] == [(1, "Hi all!"), (5, "Good luck all!")]


def test_a_bold_line_is_meant_as_an_order_so_it_is_rejected_whatever_it_says():
    result = parse_post("[b]Good luck all![/b]\n[b]march Paris[/b]\nCheers", _line_parser)
    assert [e.line for e in result.errors] == [1] and not result.unread


def test_several_posts_merged_keep_their_unread_lines_numbered_across_them():
    first = parse_post("Hello\nmarch Paris", _line_parser)
    second = parse_post("Bye\nmarch Lyon", _line_parser)
    merged = merge_posts([(3, first), (7, second)])
    assert [x.number for x in merged.unread] == [1, 3]
    assert merged.source(3) == (7, 1)


def test_rejections_are_listed_in_line_order_each_quoting_its_line():
    parsed = parse_post("march Paris\nMarhc Lyon\nmarch Lyon", _line_parser)
    by_rules = IllegalOrderError("Paris is not yours", line=1)  # a validator's, no text
    read = reading(parsed, [by_rules])
    assert [e.line for e in read.rejected] == [1, 2]
    assert read.rejections()[0] == "line 1: Paris is not yours  >  march Paris"
    assert [line.number for line, _ in read.read] == [3], "a rejected line is not also read"


def test_a_rule_citing_a_line_of_another_post_names_that_post():
    first = parse_post("march Paris", _line_parser)
    second = parse_post("Hello\nmarch Paris", _line_parser)
    merged = merge_posts([(3, first), (7, second)])
    err = merged.placed(IllegalOrderError("repeats line 1", line=3, text="march Paris"))
    assert str(err) == "post #7, line 2: repeats post #3, line 1"
    own = reading(second, [err], post=7)
    assert own.rejections() == ["line 2: repeats post #3, line 1  >  march Paris"]
    assert not own.elsewhere and not own.read


@pytest.mark.parametrize("game,player,post,unread,rejected", [
    ("aztlan", "Aztecs", "Good luck all!\nA lovely day\n2A Tne A Tla\nStand fast, friends",
     [1, 2, 4], [3]),
    ("pyramid", "Red", "Orders of Red:\nexcess food: 2 serfs\nstarve: troops, priets\n"
     "Glory to the Two Lands!", [1, 4], [3]),
    ("jungle", "Ocelotl", "Morning\nGood luck all!\nGualpa: Trian XP\nNote: away next week",
     [2, 4], [3]),
    ("aeternus", "Amber", "Hello\nScout Ashe and Nroth\nForage\nGood luck all!", [1, 4], [2]),
])
def test_every_game_reads_chatter_apart_from_mistyped_orders(tmp_path, game, player, post,
                                                             unread, rejected):
    """AZTLAN 5.2 (orders name an army's sector), Pyramid's orders, the Jungle's
    '<Character>: <Action>' lines, Aeternus 6 (one action a line)."""
    g = Game.open(_copy(tmp_path, game))
    parsed = g.ruleset.parse_post(post, player, g.coming_state(), g.context())
    assert [x.number for x in parsed.unread] == unread, parsed.unread
    assert [e.line for e in parsed.errors] == rejected, parsed.errors


def test_three_hills_a_line_starting_with_a_place_is_an_order_attempt():
    """Three Hills: 'Move to North Hill' or 'Dig'; a line naming a place is meant as an order."""
    from tests.example.helpers import RULESET, scenario
    from gmkit.core.parts import Context

    state, params = scenario({"Ann": ("Camp", 1, 0), "Bob": ("Camp", 1, 0)})
    parsed = RULESET.parse_post("Good luck!\nNorth Hil to dig\nDig", "Ann", state,
                                Context(params))
    assert [x.number for x in parsed.unread] == [1] and [e.line for e in parsed.errors] == [2]


def test_aeternus_5_2_a_mistyped_direction_says_which_it_may_be():
    from gmkit.rulesets.aeternus.coords import UnknownDirectionError, parse_hex

    with pytest.raises(Exception, match="'Nroth': did you mean North"):
        parse_hex("2 Nroth, Mouth")
    with pytest.raises(UnknownDirectionError, match="did you mean Weast"):
        from gmkit.rulesets.aeternus.coords import direction
        direction("Waest")


def test_jungle_an_unknown_action_says_which_it_may_be(tmp_path):
    g = Game.open(_copy(tmp_path, "jungle"))
    parsed = g.ruleset.parse_post("Gualpa: Trian XP", "Ocelotl", g.coming_state(), g.context())
    assert "did you mean Train" in parsed.errors[0].reason


def test_cli_orders_shows_lines_not_read_apart_and_rejections_in_line_order(tmp_path):
    game = _copy(tmp_path, "pyramid")
    post = tmp_path / "post.txt"
    post.write_text("Orders of Red:\nexcess food: 2 serfs, 1 troops\nstarve: troops, priets\n"
                    "Glory to the Two Lands!\n")
    res = CliRunner().invoke(main, ["orders", str(game), "--player", "Red", str(post)])
    assert res.exit_code == 0, res.output
    out = res.output
    rejected = out[out.index("rejected:"):out.index("not read as orders:")]
    assert rejected.index("line 2:") < rejected.index("line 3:")
    assert "repeats post #37, line 2: one such order a round  >  excess food: 2 serfs" in out
    assert "  >  starve: troops, priets" in rejected
    unread = out[out.index("not read as orders:"):]
    assert "line 1: Orders of Red:" in unread and "line 4: Glory to the Two Lands!" in unread
    assert "excess food becomes" not in out, "a rejected line is not listed as read"


def test_aztlan_5_7_a_listing_counts_unattacked_stands_in_one_line(tmp_path):
    g = Game.open(_copy(tmp_path, "aztlan"))
    routine = g.ruleset.presentation.routine
    stand = Event("order", "5.7", "Aztecs: army in Amecameca stands — was not attacked (5.7).",
                  "Aztecs", data={"code": "succeeds"})
    idle = Event("order", "5.7", "neutral: single army in Tula with no order (stands) — was "
                 "not attacked (5.7).", "neutral", data={"code": "succeeds"})
    bounced = Event("order", "5.7", "Aztecs: army in Ame attacks Tla — bounced (5.7).",
                    "Aztecs", data={"code": "bounced"})
    assert [x.text for x in condensed([stand, bounced, idle, stand], routine)] == [
        "3 × armies stand, not attacked (5.7): Aztecs 2, neutral 1", bounced.text]
    res = CliRunner().invoke(main, ["resolve", str(g.root), "--dry-run"])
    assert res.exit_code == 0, res.output
    assert "was not attacked (5.7)" not in res.output.replace("holds — was not attacked", "")
    assert "× armies stand, not attacked (5.7)" in res.output


def test_cien_plain_orders_read_chatter_apart_when_the_rules_allow_plain_lines(tmp_path):
    """Cien's orders must be bold unless orders_format = 'bold_or_plain': then a plain line no
    grain figure, order word or province starts is not read as an order."""
    g = Game.open(_copy(tmp_path, "cien"))
    ctx = g.context(g.ruleset.rules({**dict(g.rules), "orders_format": "bold_or_plain"}))
    parsed = g.ruleset.parse_post("Hi all, orders below.\n10 Grain for Conquest of Vauclerc\n"
                                  "Long live the Emperor!\nPetiton for Advancement", "Red",
                                  g.coming_state(), ctx)
    assert [x.number for x in parsed.unread] == [1, 3]
    assert [e.line for e in parsed.errors] == [4] and len(parsed.orders) == 1


def test_every_name_read_says_what_it_may_be_pyramid_kinds_and_cien_colours():
    """Pyramid's population kinds (serfs, priests, troops) and Cien's colours of a joining
    player (rule 'New players') are names: a mistyped one says which it may be."""
    from gmkit.rulesets.cien.orders import parse_line
    from gmkit.rulesets.pyramid.orders import _kinds_list

    with pytest.raises(OrderSyntaxError, match="did you mean priests"):
        _kinds_list("troops, priets")
    with pytest.raises(Exception, match="no colour 'Rde'; did you mean Red"):
        parse_line(PostLine(1, "Join as Rde with Tróys as duchy", True), NameIndex(["Tróys"]))


def test_aztlan_5_7_the_notebook_step_counts_unattacked_stands_in_one_row(tmp_path):
    from gmkit.desk import Desk

    desk = Desk.open(Desk.working_copy(ROOT / "data" / "sample-aztlan", tmp_path / "desk"))
    desk.begin()
    view = desk.step()
    texts = view.events["text"].to_list()
    assert sum("× armies stand, not attacked (5.7)" in t for t in texts) == 1
    assert not any(t.endswith("stands — was not attacked (5.7).") for t in texts)


# -- did you mean, on every word of every game's orders ------------------------------------------

@pytest.mark.parametrize("game,player,line,meant", [
    ("cien", "Red", "2 Grian for Investing of Solsauvre", "'Grian': did you mean 'Grain'?"),
    ("cien", "Red", "5 Grain fro Defense of Solsauvre", "'fro': did you mean 'for'?"),
    ("cien", "Red", "Petiton for Advancement", "'Petiton': did you mean 'Petition'?"),
    ("pyramid", "Red", "strave: troops, serfs", "'strave': did you mean 'starve'?"),
    ("pyramid", "Red", "4 serfs ot Oasis Gate", "'ot': did you mean 'to'?"),
    ("pyramid", "Red", "noble 1 wiht 3 troops to Oasis Gate", "'wiht': did you mean 'with'?"),
    ("aeternus", "Amber", "Vote aginst 4", "'aginst': did you mean 'against'?"),
    ("aeternus", "Amber", "Traverce North", "'Traverce': did you mean 'Traverse'?"),
    ("aeternus", "Amber", "Fish North wiht Advanced Rod", "'wiht': did you mean 'with'?"),
    ("jungle", "Ocelotl", "Gualpa: Sacrifice Mixtli ot Tlaloc", "'ot': did you mean 'to'?"),
    ("jungle", "Ocelotl", "Gualpa: Purchase 4 beakrs", "'beakrs': did you mean 'beakers'?"),
    ("jungle", "Ocelotl", "Gualpa: Joint Atack (Duel) Xoco with Itzel",
     "'Atack': did you mean 'Attack'?"),
    ("aztlan", "Tlaxcalans", "A Tla atack Ten", "'atack': did you mean 'attack'?"),
    ("aztlan", "Tlaxcalans", "A Tla S Cho atack Ten", "'atack': did you mean 'attack'?"),
    ("aztlan", "Tlaxcalans", "sacrifce 2 in Tla", "'sacrifce': did you mean 'sacrifice'?"),
    ("aztlan", "Tlaxcalans", "Tla sac tow", "'tow': did you mean 'two'"),
    ("cien", "Red", "Declare Kingdon", "'Kingdon': did you mean 'Kingdom'?"),
    ("pyramid", "Red", "excess fod: 2 priests", "'fod': did you mean 'food'?"),
    ("aeternus", "Amber", "Vote affirm on confidense 3",
     "'confidense': did you mean 'confidence'?"),
    ("aeternus", "Amber", "Craft Binoculrs", "no item 'Binoculrs'; did you mean Binoculars?"),
    ("jungle", "Ocelotl", "Gualpa: Atack (Duel) Xoco", "no action 'Atack'; did you mean Attack?"),
])
def test_every_games_misspelt_order_word_says_which_it_may_be(tmp_path, game, player, line,
                                                              meant):
    """Each game's orders as its rules write them (Cien's '5 Grain for Investing of ...',
    Pyramid's 'starve: ...', Aeternus 3.1 'Vote against 3', the Jungle's '<Character>:
    <Action>', AZTLAN 5.2's 'A Ten A Tla'): a misspelt order word, keyword or sub-word, wherever
    it stands in the line, is rejected with the word it may be."""
    g = Game.open(_copy(tmp_path, game))
    bold = f"[b]{line}[/b]" if game == "cien" else line
    parsed = g.ruleset.parse_post(bold, player, g.coming_state(), g.context())
    assert [e.line for e in parsed.errors] == [1], (parsed.errors, parsed.orders)
    assert meant in parsed.errors[0].reason, parsed.errors[0].reason


def test_three_hills_a_misspelt_order_word_says_which_it_may_be():
    """Three Hills: 'Move to North Hill' or 'Dig'."""
    from tests.example.helpers import RULESET, scenario
    from gmkit.core.parts import Context

    state, params = scenario({"Ann": ("Camp", 1, 0), "Bob": ("Camp", 1, 0)})
    parsed = RULESET.parse_post("[b]Mvoe to Ford[/b]\n[b]Move ot Ford[/b]\n[b]Dgi[/b]", "Ann",
                                state, Context(params))
    reasons = [e.reason for e in parsed.errors]
    assert "'Mvoe': did you mean 'Move'?" in reasons[0]
    assert reasons[1].endswith("'ot': did you mean 'to'?")
    assert "'Dgi': did you mean 'Dig'?" in reasons[2]


# -- examples name only the player's own places -------------------------------------------------

def _examples(reason: str) -> str:
    return reason[reason.index("e.g.") if "e.g." in reason else reason.index("(try"):]


def _rejection(g: Game, player: str, post: str) -> str:
    parsed = g.ruleset.parse_post(post, player, g.coming_state(), g.context())
    [err] = parsed.errors
    return _examples(err.reason)


def test_cien_a_rejections_examples_name_only_the_players_own_states(tmp_path):
    """Cien's orders defend and invest in a state the player holds: the examples a rejection
    offers name only the player's own states (the Conquest's target a placeholder), never
    another player's."""
    from gmkit.rulesets.cien.orders import province_index

    g = Game.open(_copy(tmp_path, "cien"))
    state = g.coming_state()
    owners = dict(state["provinces"].select("name", "owner").iter_rows())
    for player in state["players"].filter(pl.col("status") == "active")["id"].to_list():
        tries = _rejection(g, player, "[b]Hello there[/b]")
        named = {name for _, _, name in province_index(state).find_in(tries)}
        assert named and {owners[n] for n in named} == {player}, (player, tries)
        assert "<a state next to yours>" in tries


def test_cien_a_player_holding_no_state_is_offered_a_placeholder():
    from gmkit.rulesets.cien.orders import examples

    assert "Defense of <your state>" in examples(None, None)


def test_pyramid_a_rejections_examples_name_only_the_players_own_land(tmp_path):
    """'you do not hold Redsand' is never followed by 'try 4 serfs to Redsand': the examples of
    a rejection name only a land the player holds, and a DEAD (each player's secret) by a
    placeholder."""
    from gmkit.rulesets.pyramid.orders import names_of
    from gmkit.rulesets.pyramid.state import lands_of

    g = Game.open(_copy(tmp_path, "pyramid"))
    state = g.coming_state()
    dead = set(state["dead"]["name"].to_list())
    for player in state["players"]["id"].to_list():
        tries = _rejection(g, player, "[b]Hello to all[/b]")
        named = {name for _, _, name in names_of(state).spaces.find_in(tries)}
        assert named and named <= set(lands_of(state, player)), (player, tries)
        assert not any(d in tries for d in dead) and "<a DEAD of yours>" in tries


def test_aztlan_a_rejections_examples_name_only_the_empires_own_sectors(tmp_path):
    """AZTLAN 2.6 designations in the examples are the empire's own armies' sectors and
    cities; any other sector is a placeholder."""
    from gmkit.rulesets.aztlan.names import sector_index
    from gmkit.rulesets.aztlan.state import active_players, board, position

    g = Game.open(_copy(tmp_path, "aztlan"))
    state = g.coming_state()
    at = position(state)
    for player in active_players(state):
        own = {s for s, (o, _) in at.armies.items() if o == player} | {
            c for c, o in at.cities.items() if o == player}
        tries = _rejection(g, player, "[b]hello world[/b]")
        counts = tries.replace(" sac 1'", " sac'")  # a number of captives, not sector 1
        named = {name for _, _, name in sector_index(board(state)).find_in(counts)}
        assert named <= own, (player, named - own)
        assert "<sector>" in tries and "<empire>" in tries


def test_jungle_a_rejections_example_names_one_of_the_houses_own_characters(tmp_path):
    """'<Character>: <Action>': the example names a living character of the player's own
    house, or a placeholder when the house has none left."""
    g = Game.open(_copy(tmp_path, "jungle"))
    state = g.coming_state()
    people = NameIndex(state["characters"]["name"].to_list())
    houses = dict(state["characters"].filter(pl.col("alive")).select("name", "house")
                  .iter_rows())
    for player in state["houses"]["house"].to_list():
        tries = _rejection(g, player, "[b]Hello there[/b]")
        named = {name for _, _, name in people.find_in(tries)}
        if player in houses.values():
            assert len(named) == 1 and {houses[n] for n in named} == {player}, (player, tries)
        else:
            assert not named and "'<Character>: Toil'" in tries, (player, tries)
