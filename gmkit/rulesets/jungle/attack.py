"""Character attacks as pure functions: strengths, the result and its band, and what each of the
nine attack types takes and gives.

CHARACTER ATTACKS: a side's strength is the sum of the square roots of its characters' relevant
attributes (each attribute of each character rooted on its own, then added). The result is
``Random Number x (Attack + Defense + Location) / (Defense + Location)``, read against the bands
0.33, 0.67, 1 and 1.5 (:class:`Band`). The result is linear in the one Random Number, so the odds
of each band follow from the same two functions (:func:`attack_result`, :func:`band_of`); see
:mod:`gmkit.rulesets.jungle.odds`.

:func:`resolve_attack` works on :class:`Fighter` records the caller builds from the state (the
multipliers of Defend and desperate attacks, the bonus of Experienced/Skilled/Master titles) and
returns an :class:`AttackOutcome`: attribute changes per character, stolen stores, slaves taken,
an escape, a seized item and titles earned. It draws every Random Number through the dice.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from gmkit.core.dice import Dice
from gmkit.core.params import Params
from gmkit.rulesets.jungle.rules import RESULTS, TYPES


class AttackType(enum.Enum):
    """The nine types of attacks."""

    DUEL = "Duel"
    ASSASSINATE = "Assassinate"
    DEBATE = "Debate"
    DISCREDIT = "Discredit"
    CHALLENGE = "Challenge"
    OVERTHROW = "Overthrow"
    STEAL = "Steal"
    CAPTURE = "Capture"
    ESCAPE = "Escape"


@dataclass(frozen=True)
class AttackSpec:
    """What one attack type uses and changes.

    ``attack``/``defense``: the attributes whose roots make each side's strength. ``lost``: the
    attribute the losing side loses (Random x attribute x 1.5). ``gained``: the attribute the
    winners share (Random x enemy loss, rounded down); ``attacker_random``: the gain carries the
    extra '(Random Number if Attacker Wins)'. ``flat``: attributes each winner gains 1 point of.
    """

    kind: AttackType
    attack: tuple[str, ...]
    defense: tuple[str, ...]
    lost: str | None = None
    gained: str | None = None
    attacker_random: bool = False
    flat: tuple[str, ...] = ()
    seizes: bool = False
    steals: bool = False
    enslaves: bool = False
    escapes: bool = False

    @property
    def rule(self) -> str:
        """The rule section of this attack type."""
        return f"{TYPES}: {self.kind.value.upper()}"


ALL = ("xp", "wisdom", "fame")
SPECS: dict[AttackType, AttackSpec] = {s.kind: s for s in (
    AttackSpec(AttackType.DUEL, ("xp",), ("xp",), lost="xp", gained="xp"),
    AttackSpec(AttackType.ASSASSINATE, ("xp", "wisdom"), ("xp",), lost="xp", gained="wisdom",
               attacker_random=True),
    AttackSpec(AttackType.DEBATE, ("wisdom",), ("wisdom",), lost="wisdom", gained="wisdom"),
    AttackSpec(AttackType.DISCREDIT, ("wisdom", "fame"), ("wisdom",), lost="wisdom",
               gained="fame", attacker_random=True),
    AttackSpec(AttackType.CHALLENGE, ("fame",), ("fame",), lost="fame", gained="fame",
               seizes=True),
    AttackSpec(AttackType.OVERTHROW, ("fame", "xp"), ("fame",), lost="fame", gained="xp",
               attacker_random=True, seizes=True),
    AttackSpec(AttackType.STEAL, ("wisdom", "xp"), ("fame",), lost="xp", flat=("fame",),
               steals=True),
    AttackSpec(AttackType.CAPTURE, ALL, ALL, flat=ALL, enslaves=True),
    AttackSpec(AttackType.ESCAPE, ALL, ALL, escapes=True),
)}


class Band(enum.IntEnum):
    """The five bands of an attack's result, lowest first."""

    ALL_ATTACKERS_FAIL = 0
    PRINCIPAL_ATTACKER_FAILS = 1
    DRAW = 2
    PRINCIPAL_DEFENDER_SUFFERS = 3
    ALL_DEFENDERS_SUFFER = 4

    @property
    def attacker_wins(self) -> bool | None:
        """True for a successful attack, False for a failed one, None for a draw."""
        return None if self is Band.DRAW else self >= Band.PRINCIPAL_DEFENDER_SUFFERS


def thresholds(rules: Params) -> tuple[float, float, float, float]:
    """The lower bounds of bands 1 to 4 (0.33, 0.67, 1, 1.5 by the text)."""
    return (float(rules.band_all_attackers), float(rules.band_principal_attacker),
            float(rules.band_draw), float(rules.band_principal_defender))


def attack_result(u: float, attack: float, defense: float, location: float) -> float:
    """``u x (A + D + L) / (D + L)``. With nothing to defend (D + L = 0) any attack with some
    strength succeeds fully (the limit is infinite); with no strength at all the factor is 1."""
    if defense + location <= 0:
        return math.inf if attack > 0 else u
    return u * (attack + defense + location) / (defense + location)


def band_of(result: float, rules: Params) -> Band:
    """The band a result falls in; each band includes its lower bound ("between 0.33 and 0.67"
    is read as [0.33, 0.67))."""
    band = Band.ALL_ATTACKERS_FAIL
    for i, t in enumerate(thresholds(rules), start=1):
        if result >= t:
            band = Band(i)
    return band


@dataclass(frozen=True)
class Fighter:
    """A character in an attack: current attributes, the multiplier on them (desperate attack,
    Defend actions) and the bonus of a title of this attack type (0.25, 0.5, 1)."""

    name: str
    attrs: Mapping[str, int]
    factor: int = 1
    bonus: float = 0.0
    desperate: bool = False


def strength(f: Fighter, attributes: Sequence[str]) -> float:
    """One character's part of a side's strength: sqrt(N1) + sqrt(N2) + ... over the attributes
    (each multiplied by the fighter's factor), raised by the title bonus."""
    return (1.0 + f.bonus) * sum(math.sqrt(f.attrs[a] * f.factor) for a in attributes)


def side_strength(fighters: Sequence[Fighter], attributes: Sequence[str]) -> float:
    """A side's strength: the characters' parts added after the roots are taken."""
    return sum(strength(f, attributes) for f in fighters)


LEVELS = ("experienced", "skilled", "master")


def title_bonus(level: str | None, rules: Params) -> float:
    """The strength bonus of a title level (Experienced 25%, Skilled 50%, Master 100%)."""
    return 0.0 if level is None else float(rules[f"{level}_bonus"])


def round_loss(value: float, rules: Params) -> int:
    """An attribute loss turned into whole points (``loss_rounding``)."""
    mode = rules.loss_rounding
    if mode == "ceil":
        return math.ceil(value - 1e-12)
    if mode == "round":
        return math.floor(value + 0.5)
    return math.floor(value + 1e-12)


def divide(total: int, weights: Mapping[str, float], rules: Params) -> dict[str, int]:
    """``total`` points divided among winners in proportion to their combat strength
    (``share_rounding``: each share rounded down, or largest remainders get the leftover)."""
    names = list(weights)
    if not names or total <= 0:
        return {n: 0 for n in names}
    s = sum(weights.values())
    exact = ({n: total * weights[n] / s for n in names} if s > 0
             else {n: total / len(names) for n in names})
    shares = {n: math.floor(exact[n] + 1e-9) for n in names}
    if rules.share_rounding == "largest_remainder":
        left = total - sum(shares.values())
        for n in sorted(names, key=lambda n: (-(exact[n] - shares[n]), names.index(n)))[:left]:
            shares[n] += 1
    return shares


@dataclass(frozen=True)
class Attack:
    """One attack ready to resolve. The principal attacker and defender are the first of their
    sides. ``stores`` are the food and gold of the principal defender's house (Steal);
    ``skilled_defenders`` name the defenders titled Skilled (or Master) at this type."""

    key: str
    kind: AttackType
    attackers: tuple[Fighter, ...]
    defenders: tuple[Fighter, ...]
    location: float
    stores: tuple[int, int] = (0, 0)
    skilled_defenders: frozenset[str] = frozenset()
    master_defenders: frozenset[str] = frozenset()
    levels: Mapping[str, str] = field(default_factory=dict)

    @property
    def spec(self) -> AttackSpec:
        """The rules of this attack's type."""
        return SPECS[self.kind]

    def strengths(self) -> tuple[float, float]:
        """Attack and defense strength."""
        return (side_strength(self.attackers, self.spec.attack),
                side_strength(self.defenders, self.spec.defense))


@dataclass(frozen=True)
class AttackOutcome:
    """What an attack did. ``changes``: attribute deltas per character; ``stolen``: food and
    gold per winner; ``enslaved``: (slave, owner) pairs; ``titles``: (character, level)."""

    band: Band
    u: float
    result: float
    attack: float
    defense: float
    location: float
    losers: tuple[str, ...] = ()
    winners: tuple[str, ...] = ()
    changes: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    stolen: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    enslaved: tuple[tuple[str, str], ...] = ()
    escaped: bool = False
    seized: bool = False
    titles: tuple[tuple[str, str], ...] = ()

    @property
    def attacker_wins(self) -> bool | None:
        """True, False, or None for a draw."""
        return self.band.attacker_wins


def resolve_attack(attack: Attack, dice: Dice, rules: Params) -> AttackOutcome:
    """Resolve one attack: draw the result, find the band, apply the type's losses and gains."""
    spec = attack.spec
    rule = spec.rule
    a, d = attack.strengths()
    u = dice.uniform(purpose=f"attack result ({spec.kind.value}, {attack.key})", rule=RESULTS,
                     key=f"{attack.key}/result")
    result = attack_result(u, a, d, attack.location)
    band = band_of(result, rules)
    wins = band.attacker_wins
    changes: dict[str, dict[str, int]] = {}

    def change(name: str, attr: str, delta: int) -> None:
        if delta:
            mine = changes.setdefault(name, {})
            mine[attr] = mine.get(attr, 0) + delta

    base = dict(AttackOutcome(band, u, result, a, d, attack.location).__dict__)
    if wins is None:
        outcome = AttackOutcome(**base)
        return _desperate(attack, outcome, changes, rules)
    lose_side, win_side = ((attack.defenders, attack.attackers) if wins
                           else (attack.attackers, attack.defenders))
    whole = band in (Band.ALL_ATTACKERS_FAIL, Band.ALL_DEFENDERS_SUFFER)
    losers = tuple(lose_side) if whole else tuple(lose_side[:1])
    win_spec = spec.attack if wins else spec.defense
    weights = {f.name: strength(f, win_spec) for f in win_side}
    out: dict[str, object] = {"losers": tuple(f.name for f in losers),
                              "winners": tuple(weights)}

    if spec.escapes:
        escaper = attack.attackers[0].name
        for attr in ALL:
            change(escaper, attr, 1)
        if not wins:
            for f in attack.defenders[:1]:
                for attr in ALL:
                    change(f.name, attr, 1)
        out["escaped"] = bool(wins)
        return _desperate(attack, AttackOutcome(**{**base, **out, "changes": changes}),
                          changes, rules)

    lost_total = 0
    if spec.lost is not None:
        shared = None
        if rules.loss_draw == "shared":
            shared = dice.uniform(purpose=f"{spec.kind.value} loss of the losing side",
                                  rule=rule, key=f"{attack.key}/loss")
        for f in losers:
            r = shared if shared is not None else dice.uniform(
                purpose=f"{spec.kind.value} loss of {f.name}", rule=rule,
                key=f"{attack.key}/loss/{f.name}")
            have = int(f.attrs[spec.lost])
            loss = min(have, round_loss(r * have * float(rules.attack_loss_factor), rules))
            change(f.name, spec.lost, -loss)
            lost_total += loss
    if spec.gained is not None:
        g = dice.uniform(purpose=f"{spec.kind.value} gain of the winners", rule=rule,
                         key=f"{attack.key}/gain")
        extra = 1.0
        if spec.attacker_random and wins:
            extra = g if rules.attacker_wins_factor == "same" else dice.uniform(
                purpose=f"{spec.kind.value}: Random Number if Attacker Wins", rule=rule,
                key=f"{attack.key}/attacker-wins")
        total = math.floor(g * lost_total * extra + 1e-12)
        for name, share in divide(total, weights, rules).items():
            change(name, spec.gained, share)
    if spec.flat:
        takers = list(weights) if rules.flat_gain_each else list(weights)[:1]
        for name in takers:
            for attr in spec.flat:
                change(name, attr, 1)
    if spec.steals and wins:
        food, gold = attack.stores
        uf = dice.uniform(purpose="Steal: share of the food stores", rule=rule,
                          key=f"{attack.key}/food")
        ug = dice.uniform(purpose="Steal: share of the gold stores", rule=rule,
                          key=f"{attack.key}/gold")
        took_food, took_gold = math.floor(food * uf), math.floor(gold * ug)
        food_shares = divide(took_food, weights, rules)
        gold_shares = divide(took_gold, weights, rules)
        out["stolen"] = {n: (food_shares[n], gold_shares[n]) for n in weights}
    if spec.enslaves and (wins or rules.capture_fails_enslaves):
        owner = win_side[0].name
        out["enslaved"] = tuple((f.name, owner) for f in losers)
    if spec.seizes:
        out["seized"] = bool(wins)
    if wins:
        out["titles"] = _titles(attack, a, d, rules)
    outcome = AttackOutcome(**{**base, **out, "changes": changes})  # type: ignore[arg-type]
    return _desperate(attack, outcome, changes, rules)


def _titles(attack: Attack, a: float, d: float, rules: Params) -> tuple[tuple[str, str], ...]:
    """Experienced, Skilled or Master at this type for each attacker who wins."""
    against = set(attack.skilled_defenders)
    if rules.master_against == "skilled_or_master":
        against |= attack.master_defenders
    earned = "master" if against else ("skilled" if d > a else "experienced")
    out = []
    for f in attack.attackers:
        have = attack.levels.get(f.name)
        if have is None or LEVELS.index(earned) > LEVELS.index(have):
            out.append((f.name, earned))
    return tuple(out)


def _desperate(attack: Attack, outcome: AttackOutcome, changes: dict[str, dict[str, int]],
               rules: Params) -> AttackOutcome:
    """DESPARATE ATTACK: "the attacker's relevant character attributes are decreased by half
    after the attack (regardless of attack result)" (the half lost is rounded by
    ``loss_rounding``)."""
    for f in attack.attackers:
        if not f.desperate:
            continue
        for attr in attack.spec.attack:
            now = int(f.attrs[attr]) + changes.get(f.name, {}).get(attr, 0)
            cut = round_loss(now / 2, rules)
            if cut:
                changes.setdefault(f.name, {})[attr] = changes.get(f.name, {}).get(attr, 0) - cut
    return AttackOutcome(**{**outcome.__dict__, "changes": {n: dict(c) for n, c in
                                                            changes.items() if any(c.values())}})

