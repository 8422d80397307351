"""NEW UNITS and CAPTAIN OF UNIT X: a unit the GM enters as completed is a unit of the game, its
Captain a new soldier with a name of his own whose orders to it are accepted."""

from __future__ import annotations

from typing import Any

from gmkit.core.envelope import Orders
from gmkit.core.orders import IllegalOrderError
from gmkit.core.params import Params
from gmkit.core.tables import State
from gmkit.rulesets.jungle.figures import check_figures, parse_figures
from gmkit.rulesets.jungle.action_lines import parse
from gmkit.rulesets.jungle.orders import parse_civ
from gmkit.rulesets.jungle.resolve import new_session, resolve_part
from gmkit.rulesets.jungle.session import opening
from gmkit.rulesets.jungle.edit import update
from gmkit.rulesets.jungle.world import CIV
from tests.jungle.helpers import RULES, char, char_of, city_row, dice, drawn, rules, world


def _workshop() -> State:
    """Itzel (house Red) was picked for Tenochtitlan's production on gameturn 9."""
    return world([char("Itzel", "Red", craftsmanship=3)],
                 cities=[city_row("Tenochtitlan", q=2, r=-1)],
                 picks=[{"gameturn": 9, "kind": "produce", "character": "Itzel",
                         "item": "Jaguar Warriors", "city": "Tenochtitlan"}])


def _open(state: State, post: str, params: Params = RULES) -> tuple[State, list[Any]]:
    orders = Orders.plain({CIV: [o for _, o in parse_civ(post).orders]})
    return opening(state, orders, dice("opening"), params)


def _unit(state: State, name: str) -> dict[str, Any]:
    return next(u for u in state["units"].to_dicts() if u["unit"] == name)


def test_new_units_a_completed_unit_is_a_unit_of_the_game_with_defaults():
    """NEW UNITS: "When a new unit is created, the player credited with finishing the unit
    receives a new character who starts as a soldier and has the title 'Captain of Unit X'":
    the unit is in the units table, in its city, of the type its name gives, at full health,
    with no level; its Captain is a new soldier of Itzel's house with a name of his own."""
    after, events = _open(_workshop(), "unit Jaguar Warriors 2 in Tenochtitlan gameturn 9")
    u = _unit(after, "Jaguar Warriors 2")
    assert (u["unit_type"], u["city"], u["q"], u["r"], u["health"], u["level"], u["military"],
            u["enlisted"]) == ("Jaguar Warriors", "Tenochtitlan", 2, -1, 10, None, True, 1)
    captain = char_of(after, u["captain"])
    assert u["captain"] == "Acatl"
    assert (captain["house"], captain["class"], captain["unit"]) == ("Red", "soldier",
                                                                    "Jaguar Warriors 2")
    titles = after["titles"].filter(after["titles"]["character"] == "Acatl").to_dicts()
    assert [(t["title"], t["subject"]) for t in titles] == [("captain_of", "Jaguar Warriors 2")]
    assert any("gains Acatl, a new soldier, Captain of Jaguar Warriors 2" in e.text
               for e in events)


def test_new_units_type_captain_and_figures_as_the_gm_enters_them():
    """NEW UNITS: the GM enters the unit's type, its Captain's name and its figures on its line,
    or on a unit line of the same post like any unit's."""
    post = ("unit Jaguar Warriors 2 in Tenochtitlan gameturn 9: type Archer, captain Tlaca, "
            "level 2\nunit Jaguar Warriors 2: health 7, strength 5")
    after, _ = _open(_workshop(), post)
    u = _unit(after, "Jaguar Warriors 2")
    assert (u["unit_type"], u["captain"], u["level"], u["health"], u["melee_strength"]) == (
        "Archer", "Tlaca", 2, 7, 5.0)
    assert char_of(after, "Tlaca")["unit"] == "Jaguar Warriors 2"
    worker, _ = _open(_workshop(), "unit Jaguar Warriors 2 in Tenochtitlan gameturn 9: type Worker")
    assert _unit(worker, "Jaguar Warriors 2")["military"] is False


def test_captain_of_unit_x_orders_to_the_new_unit_are_accepted():
    """CAPTAIN OF UNIT X: "Only the Captain of a unit may issue orders to that unit (requires
    an action)": from the next session the new Captain orders his unit."""
    after, _ = _open(_workshop(), "unit Jaguar Warriors 2 in Tenochtitlan gameturn 9")
    later = new_session(after, RULES)
    result = parse("[b]Acatl: Order Jaguar Warriors 2: hold the hill[/b]", later, "Red", 1, RULES)
    assert result.errors == []
    state, events = resolve_part(later, [a for _, a in result.orders], drawn(), RULES, 1)
    assert _unit(state, "Jaguar Warriors 2")["standing_orders"] == "hold the hill"
    assert [e.kind for e in events if e.kind == "void"] == []


def test_new_units_a_name_already_in_the_game_is_refused_by_line():
    """NEW UNITS: a completed unit named like a unit of the game, or a Captain named like a
    character, is refused with its line (nothing in the game has two rows)."""
    s = world([char("Itzel", "Red")], cities=[city_row("Tenochtitlan")])
    s = update(s, "session", "session", 1)
    checked = check_figures(s, parse_figures(
        "unit Jaguar in Tenochtitlan gameturn 9: captain Itzel"), RULES)
    assert [(e.line, type(e)) for e in checked.errors] == [(1, IllegalOrderError)]
    assert "name of his own" in checked.errors[0].reason


def test_new_units_completed_by_the_npcs_have_no_captain():
    """DETERMINING PRODUCTION: without a production action "the production is considered to
    have been done by NPCs": the unit is in the game, with no Captain until the GM gives one."""
    s = world([char("Itzel", "Red")], cities=[city_row("Tenochtitlan")])
    after, _ = _open(s, "unit Eagle 1 in Tenochtitlan gameturn 3")
    assert _unit(after, "Eagle 1")["captain"] is None
    assert after["characters"].height == 1


def test_option_new_units_captain_only_reproduces_the_first_reading():
    """``new_units = captain_only``: only a character named 'Captain of X' is added (gmkit's
    first reading, kept for games recorded with it)."""
    after, _ = _open(_workshop(), "unit Jaguar Warriors 2 in Tenochtitlan gameturn 9",
                     rules(new_units="captain_only"))
    assert after["units"].height == 0
    assert char_of(after, "Captain of Jaguar Warriors 2")["house"] == "Red"


def test_new_units_the_captain_never_takes_the_name_of_a_captive_kept_aside() -> None:
    """NEW UNITS: "a new character": a character kept aside as a captive comes back as he was,
    so the new Captain takes the next name of his own."""
    s = world([char("Itzel", "Red", craftsmanship=3)],
              cities=[city_row("Tenochtitlan", q=2, r=-1)],
              picks=[{"gameturn": 9, "kind": "produce", "character": "Itzel",
                      "item": "Jaguar Warriors", "city": "Tenochtitlan"}],
              captives=[char("Acatl", "Blue", unit="Inca Worker")])
    after, _ = _open(s, "unit Jaguar Warriors 2 in Tenochtitlan gameturn 9")
    assert _unit(after, "Jaguar Warriors 2")["captain"] == "Chimalli"
