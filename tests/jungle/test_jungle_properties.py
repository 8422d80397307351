"""Properties of The Law of the Jungle over hypothesis-drawn houses, posts and dice: no attribute
or store ever falls below zero, a dead character never acts, the state keeps its schemas, and
the same seed resolves the same way."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmkit.core.dice import Dice
from gmkit.rulesets.jungle.attack import AttackType
from gmkit.rulesets.jungle.food import eat
from gmkit.rulesets.jungle.orders import parse
from gmkit.rulesets.jungle.resolve import resolve_part
from gmkit.rulesets.jungle.state import checked
from tests.cases import Cases
from tests.jungle.helpers import RULES, char, unit_row, world

NAMES = ["Gualpa", "Itzel", "Xoco", "Mixtli", "Tochtli", "Ome"]
HOUSES = ["Red", "Blue", "Green"]
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def towns(draw: st.DrawFn, weak: str | None = None):
    """A town of six characters in three houses; ``weak`` names one with 1 XP and no Fame
    (the last to act in the Morning, dead after any lost fight)."""
    chars = []
    for i, name in enumerate(NAMES):
        house = HOUSES[i % 3]
        in_unit = draw(st.booleans()) and i > 2
        xp, fame = (1, 0) if name == weak else (draw(st.integers(1, 60)),
                                                 draw(st.integers(0, 40)))
        chars.append(char(name, house, unit="Warrior" if in_unit else None,
                          xp=xp, fame=fame, wisdom=draw(st.integers(0, 30))))
    houses = {h: (draw(st.integers(0, 12)), draw(st.integers(0, 40))) for h in HOUSES}
    captain = next((c["name"] for c in chars if c["unit"]), None)
    units = [unit_row("Warrior", captain=captain, city="Tenochtitlan")]
    slaves = ([{"slave": "Mixtli", "owner": "Gualpa"}] if draw(st.booleans()) else [])
    return world(chars, houses=houses, units=units, slaves=slaves)


def lines(draw: st.DrawFn, house: str, target: str | None = None) -> str:
    """A post of ``house`` with a line for every character (the house's own are read); with
    a ``target``, about half the others' lines would kill that character: a Duel, or a
    sacrifice (which only his own house may make)."""
    out = []
    for name in NAMES:
        if target not in (None, name) and draw(st.booleans()):
            out.append(draw(st.sampled_from([f"[b]{name}: Attack (Duel) {target}[/b]",
                                             f"[b]{name}: Sacrifice {target} to Tlaloc[/b]"])))
            continue
        other = draw(st.sampled_from(NAMES))
        kind = draw(st.sampled_from([t.value for t in AttackType]))
        out.append(draw(st.sampled_from([
            f"[b]{name}: Attack ({kind}) {other}[/b]",
            f"[b]{name}: Desperate Attack ({kind}) {other}[/b]",
            f"[b]{name}: Challenge {other} for Tenochtitlan[/b]",
            f"[b]{name}: Defend[/b]", f"[b]{name}: Toil[/b]", f"[b]{name}: Train XP[/b]",
            f"[b]{name}: Give 3 food to {other}[/b]", f"[b]{name}: Sacrifice {other} to Tlaloc[/b]",
            f"[b]{name}: Offering 2 to Huitzilopochtli[/b]", f"[b]{name}: Procreate[/b]",
            f"[b]{name}: Enlist Warrior[/b]", f"[b]{name}: Move 1,0[/b]",
            f"[b]{name}: Joint Attack (Duel) {other} with {draw(st.sampled_from(NAMES))}[/b]",
        ])))
    return "\n".join(out)


def no_negatives(state) -> bool:
    ch = state["characters"]
    return (all(ch[c].min() is None or ch[c].min() >= 0
                for c in ("xp", "fame", "wisdom", "craftsmanship", "beakers", "hammers"))
            and state["houses"]["food"].min() >= 0 and state["houses"]["gold"].min() >= 0)


def test_a_session_keeps_every_attribute_at_zero_or_more():
    """ATTRIBUTES: "A character with 0 XP immediately dies"; nothing falls below zero. The run
    meets a character's XP brought to nothing (he dies) and a house's food eaten to nothing."""
    cases = Cases("a character dying of wounds", "a house's food eaten to nothing")

    @SETTINGS
    @given(towns(), st.data(), st.integers(0, 2**32))
    def check(town, data, seed):
        cases.example()
        _session(town, data, seed, cases)

    check()
    cases.check()


def _session(town, data, seed, cases: Cases) -> None:
    state = town
    dice = Dice(f"{seed:064x}", 1, "m")
    for slot in (1, 2):
        actions = []
        for house in HOUSES:
            actions += [a for _, a in parse(lines(data.draw, house), state, house, slot,
                                            RULES).orders]
        state, events = resolve_part(state, actions, dice, RULES, slot)
        assert no_negatives(state)
        assert all(c["xp"] > 0 for c in state["characters"].to_dicts() if c["alive"])
        checked(state)
        cases.met("a character dying of wounds",
                  any(e.kind == "death" and "wounds" in e.text for e in events))
    state, _ = eat(state, dice.for_step("e"), RULES)
    assert no_negatives(state)
    assert all(c["xp"] > 0 for c in state["characters"].to_dicts() if c["alive"])
    cases.met("a house's food eaten to nothing", (state["houses"]["food"] == 0).any())


def test_a_dead_character_never_acts():
    """CHARACTER ACTIONS: once dead, a character's later actions are void, never resolved.
    The run meets the case it is about: a character killed while their own action is still to
    come (each town holds a weak character whom about half the others would kill)."""
    cases = Cases("a character killed with his own action still to come")

    @SETTINGS
    @given(st.data(), st.integers(0, 2**32))
    def check(data, seed):
        cases.example()
        victim = data.draw(st.sampled_from(NAMES))
        town = data.draw(towns(weak=victim))
        dice = Dice(f"{seed:064x}", 1, "m")
        actions = []
        for house in HOUSES:
            actions += [a for _, a in parse(lines(data.draw, house, victim), town, house, 1,
                                            RULES).orders]
        _, events = resolve_part(town, actions, dice, RULES, 1)
        dead: set[str] = set()
        pending = False  # a dead character's action came up after his death
        for e in events:
            actor = e.data.get("character") if e.kind not in ("death", "freed", "captain",
                                                              "tlatoani") else None
            if e.kind == "attack":
                assert not dead & set(e.data["attackers"])
            elif actor is not None and e.kind not in ("void", "joint"):
                assert actor not in dead, e.text
            pending |= e.kind == "void" and actor in dead
            if e.kind == "death":
                dead.add(e.data["character"])
        cases.met("a character killed with his own action still to come", pending)

    check()
    cases.check()


def test_the_same_seed_resolves_the_same_way():
    """Randomness is an input: the same seed and posts give the same state and events. The
    run meets attacks, whose outcome is drawn."""
    cases = Cases("an attack resolved")

    @SETTINGS
    @given(towns(), st.data(), st.integers(0, 2**32))
    def check(town, data, seed):
        cases.example()
        actions = []
        for house in HOUSES:
            actions += [a for _, a in parse(lines(data.draw, house), town, house, 1,
                                            RULES).orders]
        one = resolve_part(town, actions, Dice(f"{seed:064x}", 1, "m"), RULES, 1)
        two = resolve_part(town, actions, Dice(f"{seed:064x}", 1, "m"), RULES, 1)
        assert one[0].equals(two[0]) and [e.text for e in one[1]] == [e.text for e in two[1]]
        cases.met("an attack resolved", any(e.kind == "attack" for e in one[1]))

    check()
    cases.check()


@given(st.lists(st.tuples(st.sampled_from(["A", "B", "C", "nobody"]),
                          st.sampled_from(["xp", "fame", "alive", "city", "unit", "busy"]),
                          st.integers(0, 50)), min_size=1, max_size=8))
@settings(max_examples=60, deadline=None)
def test_an_edit_changes_the_new_state_only_and_as_the_row_by_row_edit_does(edits):
    """A state is never changed in place (the GM steps back to it): each column-wise edit of a
    character's row gives the new state exactly what editing the rows one by one gives, and the
    state edited from is as it was."""
    from gmkit.rulesets.jungle.edit import update
    from gmkit.rulesets.jungle.state import frame, rows

    state = world([char("A", "Red", xp=5), char("B", "Red", fame=2), char("C", "Blue")])
    for name, column, n in edits:
        value = {"alive": n % 2 == 0, "busy": n % 3 == 0, "city": None if n % 2 else f"City {n}",
                 "unit": None if n % 2 else f"Warrior {n}"}.get(column, n)
        before = state["characters"].clone()
        edited = update(state, "characters", "name", name, **{column: value})
        by_rows = rows(state, "characters")
        for r in by_rows:
            if r["name"] == name:
                r[column] = value
        assert edited["characters"].equals(frame(by_rows, "characters"))
        assert state["characters"].equals(before)
        state = edited
