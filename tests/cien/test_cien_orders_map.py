"""The Crown of Cien's orders drawn on its map: conquests as arrows from where they come, with
their grain; defences and investments as marks on their province with their grain."""

from __future__ import annotations

from gmkit.core.dice import Dice
from gmkit.core.drawing.board_svg import scene_svg
from gmkit.core.drawing.orders import on_scene
from gmkit.core.envelope import Orders
from gmkit.core.parts import Context
from gmkit.core.steps import Driver
from gmkit.rulesets.cien.drawing import board_scene
from gmkit.rulesets.cien.orders_map import drawn_orders
from tests.cien.helpers import RULESET, grid_map, orders_of, scenario

NO_MISSIONS = {"mission_chance": 0}
# T's label point lies nearer N's than F's: a conquest of T by the holder of both comes from N
NEAR = """
F T N Cien
F T P Cien
F Q P Cien
"""
SEAS = """
Coyons Guicardie Sevoy    Cien
~1     ~1        ~1       ~2
Tróys  Solsauvre Vauclerc Ardes
"""


def _drawn(grid: str, state, params, posts, dice=None, run: bool = False):
    orders, problems = orders_of(state, params, posts)
    assert not problems, problems
    sent = Orders.plain(orders)
    events = []
    if run:
        driver = Driver(RULESET.steps(Context(params)), state, sent,
                        Dice("00" * 32, state.turn + 1, entered=dict(dice or {})), params)
        driver.run_all()
        events = [e for r in driver.records for e in r.events]
    return drawn_orders(state, sent, events, Context(params, grid_map(grid)))


def test_war_a_conquest_comes_from_the_lords_nearest_state_bordering_it():
    """LES DEMANDES, LA DÉFENSE ET LES DÉS DE GUERRE: "You can only Conquer States adjacent to
    the ones you control": the arrow runs to the target from the attacker's state bordering it
    that lies nearest (N, not F, though F comes first by name), in the attacker's colour, the
    grain dedicated written on it."""
    state, params = scenario(NEAR, {"Red": ("F", "duchy")}, owners={"N": "Red"},
                             treasury={"Red": 20}, rules=NO_MISSIONS)
    drawn = _drawn(NEAR, state, params, {"Red": "12 Grain for Conquest of T"})
    (arrow,) = drawn.arrows
    assert (arrow.src, arrow.dst, arrow.via, arrow.kind) == ("N", "T", (), "conquest")
    assert arrow.text == "12" and arrow.colour == "#880000" and arrow.ok is None
    assert arrow.orders == ("Red/0/1/0",) and "12 grain for the conquest of T" in arrow.title


def test_seas_a_conquest_across_a_great_sea_passes_over_the_shared_sea():
    """LES MER EFFRAYANTES DE LA CIEN: "Coastal States can ferry their troops across a Sea to
    strike at more distant States, sharing the same Sea": with no state bordering Tróys, the
    arrow comes from Guicardie across Great Sea 1, drawn as a sea conquest."""
    state, params = scenario(SEAS, {"Red": ("Guicardie", "duchy")}, treasury={"Red": 15},
                             rules=NO_MISSIONS)
    (arrow,) = _drawn(SEAS, state, params, {"Red": "15 Grain for Conquest of Tróys"}).arrows
    assert (arrow.src, arrow.dst, arrow.via) == ("Guicardie", "Tróys", ("Great Sea 1",))
    assert arrow.kind == "sea conquest" and "across Great Sea 1" in arrow.title


def test_grain_defences_and_investments_are_marks_with_their_grain():
    """GRAIN ET INVESTISSEMENTS: grain set aside to defend a state and grain invested in it
    are marks on the province, a square and a diamond in the lord's colour with the lord's
    initial, the grain beside them; a petition and a gift have no place on the map."""
    state, params = scenario(SEAS, {"Red": ("Guicardie", "duchy"), "Gold": ("Sevoy", "duchy")},
                             treasury={"Red": 30, "Gold": 30}, rules=NO_MISSIONS)
    drawn = _drawn(SEAS, state, params, {
        "Red": "5 Grain for Defense of Guicardie\n3 Grain for Investing of Guicardie",
        "Gold": "Gift 4 Grain to the Emperor"})
    assert drawn.arrows == ()
    marks = {m.piece: m for m in drawn.marks}
    assert set(marks) == {"defence", "investment"}
    assert all(m.place == "Guicardie" and m.text == "R" and m.colour == "#880000"
               for m in marks.values())
    assert (marks["defence"].note, marks["investment"].note) == ("5", "3")
    scene = on_scene(board_scene(state), drawn)
    assert [e.label for e in scene.legend][-2:] == ["defence (grain beside it)",
                                                    "investment (grain beside it)"]
    svg = scene_svg(grid_map(SEAS), scene)
    assert svg.count('data-piece="defence"') == 1 and 'data-orders="Red/0/1/0"' in svg


def test_war_once_fought_a_conquest_says_whether_it_took_the_state():
    """LES DEMANDES, LA DÉFENSE ET LES DÉS DE GUERRE: "If you roll higher than the opponents'
    defending force, you win": after the war step the arrow of a conquest that took the state
    is drawn done, one repelled drawn failed."""
    state, params = scenario(SEAS, {"Red": ("Guicardie", "duchy"), "Gold": ("Vauclerc", "duchy")},
                             treasury={"Red": 20, "Gold": 20}, rules=NO_MISSIONS)
    posts = {"Red": "12 Grain for Conquest of Sevoy", "Gold": "11 Grain for Conquest of Solsauvre"}
    dice = {"conquest:attack/Sevoy/Red": 9, "conquest:defend/Sevoy/Red": 1,
            "conquest:attack/Solsauvre/Gold": 1, "conquest:defend/Solsauvre/Gold": 10}
    drawn = _drawn(SEAS, state, params, posts, dice, run=True)
    outcome = {a.dst: a.ok for a in drawn.arrows}
    assert outcome == {"Sevoy": True, "Solsauvre": False}
    assert all(a.ok is None for a in _drawn(SEAS, state, params, posts).arrows)
