"""gmkit's dice: every random draw of every ruleset goes through here and into the roll log.

Draws are derived from a secret per-turn seed, so a turn can be verified once the seed is revealed:

* before resolving, the GM posts the *commitment* ``sha256(seed)`` (hex);
* each draw has a stable id, ``"<step>:<key>"``; its raw bits are
  ``HMAC-SHA256(key=bytes.fromhex(seed), msg="gmkit/1|<turn>|<draw id>|<attempt>")`` (the key is
  the seed's 32 bytes; the commitment hashes the seed's hex text);
* an integer in ``[0, n)`` takes the first 8 bytes as a big-endian number ``x`` and accepts it when
  ``x < 2**64 - (2**64 % n)`` (then the value is ``x % n``), else it tries ``attempt + 1``:
  rejection sampling, so every value is exactly equally likely;
* a uniform number in ``[0, 1)`` is ``(first 8 bytes >> 11) / 2**53``;
* a die ``NdK`` is N such integers, the i-th (0-based) from draw id ``"<id>#<i>"``, each plus one;
  a single die (``1dK``) is logged under the id it is derived from, ``"<id>#0"``, and a roll of
  several dice under ``"<id>"`` (its faces in order are ``#0``, ``#1``, ...);
* a shuffle of ``n`` items, logged as ``shuffle(<items in input order>)``, walks ``i`` from
  ``n - 1`` down to 1 and swaps item ``i`` with item ``j``, ``j`` an integer in ``[0, i + 1)`` from
  draw id ``"<id>#<i>"`` (Fisher-Yates).

Any draw can instead be *entered* by the GM (rolled elsewhere: physical dice, a forum roller):
the value is checked against the draw (an 11 on a d10 is an error) and the log says so.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

T = TypeVar("T")

DERIVATION = "gmkit/1"
SEEDED = "seeded"
ENTERED = "entered"


class DiceError(ValueError):
    """A draw that cannot be made: an entered value that does not fit, a bad expression."""


def new_seed() -> str:
    """A fresh secret seed for a turn (32 random bytes, hex)."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """The hash of a seed that the GM posts before resolving (sha256 of the hex text)."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


def check_reveal(seed: str, posted_commitment: str) -> bool:
    """True when a revealed seed matches the commitment posted before the turn."""
    return hmac.compare_digest(commitment(seed), posted_commitment.lower())


def _bits(seed: str, turn: int, draw_id: str, attempt: int) -> int:
    msg = f"{DERIVATION}|{turn}|{draw_id}|{attempt}".encode()
    digest = hmac.new(bytes.fromhex(seed), msg, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def seeded_int(seed: str, turn: int, draw_id: str, n: int) -> int:
    """An unbiased integer in ``[0, n)`` for one draw id (the documented derivation)."""
    if n < 1:
        raise DiceError(f"cannot draw from {n} outcomes")
    limit = 2**64 - (2**64 % n)
    attempt = 0
    while True:
        x = _bits(seed, turn, draw_id, attempt)
        if x < limit:
            return x % n
        attempt += 1


def seeded_uniform(seed: str, turn: int, draw_id: str) -> float:
    """A uniform number in ``[0, 1)`` for one draw id."""
    return (_bits(seed, turn, draw_id, 0) >> 11) / 2**53


@dataclass(frozen=True)
class DiceSpec:
    """What a roll of dice is: ``count`` dice of ``sides`` faces, written ``"2d10"`` in the
    log. The one place that text is made and read."""

    count: int
    sides: int

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"

    @classmethod
    def of(cls, expression: str | None) -> DiceSpec | None:
        """The dice a logged expression names; None for a draw that is no roll of dice (a
        choice, a shuffle, a uniform number)."""
        m = _DICE.match(expression or "")
        return cls(int(m.group(1)), int(m.group(2))) if m else None


@dataclass(frozen=True)
class Roll:
    """One logged draw; ``public`` False keeps it for the GM and the player it concerns
    (``player``), and the players it is shared with (``shared_with``)."""

    turn: int
    step: str
    draw_id: str
    purpose: str
    rule: str
    expression: str
    result: Any
    source: str
    public: bool = True
    player: str | None = None
    shared_with: tuple[str, ...] = ()

    @property
    def entry_ids(self) -> tuple[str, ...]:
        """The ids a GM may enter this draw under: a single die answers to its logged
        ``"<id>#0"`` and to the bare ``"<id>"`` (how dice files and logs named it before)."""
        bare = base_id(self.draw_id)
        return (self.draw_id, bare) if is_single_die(self.expression) and bare != self.draw_id \
            else (self.draw_id,)

    @property
    def spec(self) -> DiceSpec | None:
        """The dice rolled (None for a choice, a shuffle or a uniform number)."""
        return DiceSpec.of(self.expression)

    @property
    def total(self) -> Any:
        """The sum for dice, the value itself otherwise."""
        if isinstance(self.result, list) and all(isinstance(v, int) for v in self.result):
            return sum(self.result)
        return self.result


def is_single_die(expression: str) -> bool:
    """True for a ``1dK`` expression (one die, logged under ``"<id>#0"``)."""
    spec = DiceSpec.of(expression)
    return spec is not None and spec.count == 1


def base_id(draw_id: str) -> str:
    """A draw id without a trailing ``#0`` (the id a single die's roll was asked for)."""
    return draw_id[:-2] if draw_id.endswith("#0") else draw_id


_DICE = re.compile(r"^(\d+)d(\d+)$")
_COMMENT = re.compile(r"(^|\s)#.*$")


def dice_distribution(count: int, sides: int) -> dict[int, Fraction]:
    """The exact distribution of the sum of ``count`` dice with ``sides`` faces."""
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(count):
        nxt: dict[int, Fraction] = {}
        for total, p in dist.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, Fraction(0)) + p / sides
        dist = nxt
    return dist


@dataclass
class Dice:
    """The dice of one step of one turn.

    ``entered`` maps draw ids to values the GM rolled elsewhere. Every draw is appended to ``log``.
    Draw ids are ``"<step>:<key>"``; ``key`` defaults to the draw's number within the step.
    """

    seed: str
    turn: int
    step: str = ""
    entered: Mapping[str, Any] = field(default_factory=dict)
    log: list[Roll] = field(default_factory=list)
    _count: int = 0
    #: The actor a per-actor step's dice belong to: draw ids read ``"<step>:<scope>/<key>"``.
    scope: str = ""

    def for_step(self, step: str, *, scope: str = "") -> Dice:
        """Fresh dice for another step of the same turn (same seed, same entered values);
        ``scope`` names the actor of a per-actor step."""
        return Dice(self.seed, self.turn, step, self.entered, scope=scope)

    def _id(self, key: str | None) -> str:
        self._count += 1
        key = key if key is not None else str(self._count)
        return f"{self.step}:{self.scope}/{key}" if self.scope else f"{self.step}:{key}"

    def _log(self, draw_id: str, purpose: str, rule: str, expression: str, result: Any,
             source: str, public: bool, player: str | None) -> None:
        self.log.append(Roll(self.turn, self.step, draw_id, purpose, rule, expression, result,
                             source, public, player))

    def roll(self, count: int, sides: int, *, purpose: str, rule: str, key: str | None = None,
             public: bool = True, player: str | None = None) -> int:
        """Roll ``count`` dice of ``sides`` faces and return the sum (each face logged).

        ``player`` names whose roll it is (for the dice report); ``public`` False hides it from
        public reports."""
        if count < 1 or sides < 1:
            raise DiceError(f"cannot roll {count}d{sides}")
        draw_id = self._id(key)
        expression = str(DiceSpec(count, sides))
        # a single die is logged under the id it is derived from; it may be entered under either
        logged = f"{draw_id}#0" if count == 1 else draw_id
        keys = [k for k in dict.fromkeys((draw_id, logged)) if k in self.entered]
        if len(keys) > 1:
            raise DiceError(f"draw {logged} entered twice (as {draw_id} and as {logged})")
        if keys:
            faces = _entered_faces(logged, self.entered[keys[0]], count, sides)
            source = ENTERED
        else:
            faces = [seeded_int(self.seed, self.turn, f"{draw_id}#{i}", sides) + 1
                     for i in range(count)]
            source = SEEDED
        self._log(logged, purpose, rule, expression, faces, source, public, player)
        return sum(faces)

    def d(self, sides: int, **kw: Any) -> int:
        """One die: ``d(10, purpose=..., rule=...)``."""
        return self.roll(1, sides, **kw)

    def uniform(self, *, purpose: str, rule: str, key: str | None = None,
                public: bool = True, player: str | None = None) -> float:
        """A uniform number in [0, 1)."""
        draw_id = self._id(key)
        if draw_id in self.entered:
            value = self.entered[draw_id]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1:
                raise DiceError(f"entered value {value!r} for {draw_id} is not a number in [0, 1)")
            value, source = float(value), ENTERED
        else:
            value, source = seeded_uniform(self.seed, self.turn, draw_id), SEEDED
        self._log(draw_id, purpose, rule, "U[0,1)", value, source, public, player)
        return value

    def choice(self, options: Sequence[T], *, purpose: str, rule: str,
               weights: Sequence[int] | None = None, key: str | None = None,
               public: bool = True, player: str | None = None) -> T:
        """Pick one of ``options``, with integer ``weights`` if given (exact, unbiased)."""
        if not options:
            raise DiceError(f"{purpose}: nothing to choose from")
        w = list(weights) if weights is not None else [1] * len(options)
        if len(w) != len(options) or any(x < 0 for x in w) or sum(w) == 0:
            raise DiceError(f"{purpose}: bad weights {w!r}")
        draw_id = self._id(key)
        labels = [str(o) for o in options]
        expression = "choice(" + ", ".join(
            lab if weights is None else f"{lab}:{x}" for lab, x in zip(labels, w)) + ")"
        if draw_id in self.entered:
            value = self.entered[draw_id]
            matches = [i for i, o in enumerate(options)
                       if (o == value or labels[i] == str(value)) and w[i] > 0]
            if not matches:
                raise DiceError(f"entered value {value!r} for {draw_id} is not one of "
                                f"{', '.join(lab for lab, x in zip(labels, w) if x > 0)}")
            index, source = matches[0], ENTERED
        else:
            r = seeded_int(self.seed, self.turn, draw_id, sum(w))
            index = 0
            while r >= w[index]:
                r -= w[index]
                index += 1
            source = SEEDED
        self._log(draw_id, purpose, rule, expression, labels[index], source, public, player)
        return options[index]

    def shuffle(self, items: Sequence[T], *, purpose: str, rule: str, key: str | None = None,
                public: bool = True, player: str | None = None) -> list[T]:
        """A shuffled copy of ``items`` (Fisher-Yates over seeded integers, from the last item
        down); the log keeps the input order in the expression, ``shuffle(A, B, C)``."""
        draw_id = self._id(key)
        labels = [str(o) for o in items]
        if draw_id in self.entered:
            value = self.entered[draw_id]
            if not isinstance(value, (list, tuple)):
                raise DiceError(f"entered value {value!r} for {draw_id} is not an order of "
                                f"{', '.join(labels)}")
            order = [str(v) for v in value]
            if sorted(order) != sorted(labels):
                raise DiceError(f"entered order for {draw_id} is not a permutation of "
                                f"{', '.join(labels)}")
            remaining = list(items)
            out: list[T] = []
            for lab in order:
                i = [str(o) for o in remaining].index(lab)
                out.append(remaining.pop(i))
            source = ENTERED
        else:
            out = list(items)
            for i in range(len(out) - 1, 0, -1):
                j = seeded_int(self.seed, self.turn, f"{draw_id}#{i}", i + 1)
                out[i], out[j] = out[j], out[i]
            source = SEEDED
        self._log(draw_id, purpose, rule, "shuffle(" + ", ".join(labels) + ")",
                  [str(o) for o in out], source, public, player)
        return out


def _entered_faces(draw_id: str, value: Any, count: int, sides: int) -> list[int]:
    faces = value if isinstance(value, (list, tuple)) else [value]
    if len(faces) != count:
        raise DiceError(f"entered value {value!r} for {draw_id}: expected {count} "
                        f"{'die' if count == 1 else 'dice'} of d{sides}")
    for f in faces:
        if isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= sides:
            raise DiceError(f"entered value {f!r} for {draw_id} does not fit a d{sides} "
                            f"(1 to {sides})")
    return list(faces)


def parse_entered(text: str) -> dict[str, Any]:
    """Read GM-entered dice from a file's text: one ``draw-id = value`` per line.

    Values: an integer (``7``), several dice (``3 5``), a number in [0, 1) (``0.42``) or a choice
    label (``Red``). ``#`` at the start of a line or after a space starts a comment (inside an
    id, as in ``war:attack#0``, it is part of the id). Errors name the line.
    """
    out: dict[str, Any] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = _COMMENT.sub("", raw).strip()
        if not line:
            continue
        if "=" not in line:
            raise DiceError(f"line {number}: expected 'draw-id = value', got {raw.strip()!r}")
        key, value = (part.strip() for part in line.split("=", 1))
        if not key or not value:
            raise DiceError(f"line {number}: expected 'draw-id = value', got {raw.strip()!r}")
        if key in out:
            raise DiceError(f"line {number}: draw {key} entered twice")
        out[key] = _parse_value(value)
    return out


def format_value(value: Any) -> str:
    """An entered value as the GM writes it (several dice separated by spaces)."""
    if isinstance(value, (list, tuple)):
        return " ".join(map(str, value))
    return str(value)


def parse_die_value(value: Any) -> Any:
    """One die value the GM typed (a number, several dice separated by spaces, a number in
    [0, 1) or a label), read as a dice file reads it; a value given as Python is kept (a tuple
    of dice as a list)."""
    if isinstance(value, str):
        text = value.strip()
        if not text:
            raise DiceError("enter a value for the die")
        if "\n" in text or "#" in text:
            raise DiceError(f"{text!r} is not a die value (one number, several separated by "
                            "spaces, or a label)")
        return parse_entered(f"value = {text}")["value"]
    if isinstance(value, tuple):
        return list(value)
    return value


def check_entered(roll: Roll, value: Any) -> None:
    """Check a value entered for a known draw before using it: dice must show faces the dice
    have, a uniform number must lie in [0, 1); raise DiceError naming the draw and the die.
    (A choice's label is checked when the draw is made again with it.)"""
    what = f"draw {roll.draw_id} ({roll.purpose})"
    spec = roll.spec
    if spec is not None:
        count, sides = spec.count, spec.sides
        faces = value if isinstance(value, list) else [value]
        wanted = (f"a whole number from 1 to {sides}" if count == 1 else
                  f"{count} whole numbers from 1 to {sides}, separated by spaces")
        if len(faces) != count or any(isinstance(f, bool) or not isinstance(f, int)
                                      for f in faces):
            raise DiceError(f"{format_value(value)} does not fit {what}: it is a roll of "
                            f"{roll.expression}; enter {wanted}")
        bad = [f for f in faces if not 1 <= f <= sides]
        if bad:
            raise DiceError(f"{format_value(bad[0])} does not fit {what}: it is a "
                            f"d{sides} roll ({roll.expression}), so each die shows 1 to {sides}")
    elif roll.expression == "U[0,1)":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1:
            raise DiceError(f"{format_value(value)} does not fit {what}: it is a uniform number; "
                            "enter a number from 0 up to (not including) 1")


def _parse_value(value: str) -> Any:
    parts = value.split()
    try:
        ints = [int(p) for p in parts]
        return ints[0] if len(ints) == 1 else ints
    except ValueError:
        pass
    try:
        return float(value)
    except ValueError:
        return value
