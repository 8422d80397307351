"""CHARACTER ACTIONS: "Actions that are not valid at the moment of resolution will be considered
void": what the preview accepted is carried out or shown void, every attack appears in the
odds, and a void action is told to its house, with its line, the reason and the rule."""

from __future__ import annotations

from pathlib import Path

import pytest

import gmkit.rulesets  # noqa: F401  (registers every ruleset)
from gmkit.core.ruleset import find_ruleset
from gmkit.desk import Desk
from gmkit.game import Game
from gmkit.publish.summary import turn_report
from gmkit.rulesets.jungle import actions as A
from gmkit.rulesets.jungle.orders import parse
from gmkit.rulesets.jungle.resolve import resolve_part
from tests.jungle.helpers import RULES, char, city_row, drawn, rules, world

RS = find_ruleset("jungle")
PLAYERS = [{"id": h, "name": f"House {h}"} for h in ("Ocelotl", "Quetzal", "Tochtli")]


@pytest.fixture
def game(tmp_path: Path) -> Game:
    return Game.new(tmp_path / "g", "jungle", PLAYERS)


def test_an_attack_not_in_the_same_location_is_shown_void_in_the_odds_and_told_to_its_house(
        game: Game) -> None:
    """CHARACTER ACTIONS: "Actions that are not valid at the moment of resolution will be
    considered void": Gualpa and Itzel start in different places, so Gualpa's attack is in the
    odds as void, with the reason, and the house's own report says which line, why and under
    which rule."""
    game.receive_post("Ocelotl", "[b]Gualpa: Attack (Duel) Itzel[/b]")
    session = game.start()
    odds = game.odds(session)
    assert odds.select("attacker", "target", "band").rows() == [("Gualpa", "Itzel", "void")]
    assert "not in the same location" in odds["void"][0]
    game.commit(session)
    report = turn_report(game, viewer="player:Ocelotl")
    void = [e for s in report.steps for e in s.events if e.kind == "void"]
    assert len(void) == 1 and void[0].player == "Ocelotl"
    assert "(line 1)" in void[0].text and "not in the same location" in void[0].text
    assert void[0].rule == "CHARACTER ACTIONS"


def test_every_attack_appears_in_the_odds_joint_attacks_once_under_their_principal() -> None:
    """CHARACTER ATTACKS and JOINT ATTACKS: the odds list every attack; a coordinated joint
    attack once, under its principal (the slowest participant: in the Morning the least
    Fame), a miscoordinated one as void."""
    s = world([char("Gualpa", "Red", fame=5, xp=16), char("Itzel", "Red", fame=1, xp=9),
               char("Xoco", "Blue", fame=3, xp=4), char("Mixtli", "Blue", fame=0)])
    post = ("[b]Gualpa: Joint Attack (Duel) Xoco with Itzel[/b]\n"
            "[b]Itzel: Joint Attack (Duel) Xoco with Gualpa[/b]")
    orders = {"Red": [a for _, a in parse(post, s, "Red", 1, RULES).orders]}
    odds = RS.odds(s, orders, RULES)
    assert set(odds["attacker"].to_list()) == {"Itzel"} and odds.height == 5
    assert abs(odds["probability"].sum() - 1) < 1e-9
    single = {"Red": orders["Red"][:1]}
    bad = RS.odds(s, single, RULES)
    assert bad["band"].to_list() == ["void"] and "miscoordination" in bad["void"][0]


def test_a_void_action_names_its_line_and_the_old_wording_is_an_option() -> None:
    """CHARACTER ACTIONS: the void event names the line of the post; ``void_report =
    legacy_text`` keeps gmkit's first wording (without the line) for recorded games."""
    s = world([char("Gualpa", "Red", fame=5), char("Xoco", "Blue", fame=3, city="Texcoco")],
              cities=[city_row("Tenochtitlan"), city_row("Texcoco", q=5)])
    post = "Morning:\n[b]Gualpa: Attack (Duel) Xoco[/b]"
    acts = [a for _, a in parse(post, s, "Red", 1, RULES).orders]
    assert isinstance(acts[0], A.Attack) and acts[0].line == 2
    _, events = resolve_part(s, acts, drawn(), RULES, 1)
    (void,) = [e for e in events if e.kind == "void"]
    assert void.text == ("Gualpa's Attack (line 2) is void: Gualpa is not in the same location "
                         "as Xoco.")
    _, events = resolve_part(s, acts, drawn(), rules(void_report="legacy_text"), 1)
    (void,) = [e for e in events if e.kind == "void"]
    assert "(line" not in void.text


def test_the_post_preview_shows_an_attack_void_as_things_stand(game: Game) -> None:
    """CHARACTER ACTIONS: what the preview accepts is carried out or shown void: the desk's
    preview of Gualpa's attack on Itzel (in another place) accepts the line and says it would
    be void if it resolved now, naming the line and the reason."""
    preview = Desk(game).preview_post("Ocelotl", "[b]Gualpa: Attack (Duel) Itzel[/b]")
    assert preview.problems == ()
    assert len(preview.void_now) == 1 and preview.void_now[0].startswith("line 1: ")
    assert "not in the same location" in preview.void_now[0]
    assert "void if resolved now" in preview.to_text()


def test_void_now_names_any_action_void_as_things_stand() -> None:
    """CHARACTER ACTIONS: any action, not only an attack, is shown void before the session when
    the state as it stands voids it: training with no gold (TRAIN: "(Current Level +1)^2"
    gold), by its line; an action the state allows is not listed."""
    s = world([char("Gualpa", "Red", fame=5), char("Itzel", "Red", fame=1)],
              houses={"Red": (0, 0)})
    post = "[b]Gualpa: Train Wisdom[/b]\n[b]Itzel: Defend[/b]"
    orders = {"Red": [a for _, a in parse(post, s, "Red", 1, RULES).orders]}
    (err,) = RS.void_now(s, orders, RULES)["Red"]
    assert err.line == 1 and "Gualpa's Train would be void if it resolved now" in str(err)
    assert "house Red has 0" in str(err)
