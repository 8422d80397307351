"""AZTLAN's adjudicator on a crowded movement turn, beside the ``diplomacy`` package.

``bench_adjudicate`` builds, from a fixed seed, a movement turn with 240 armies
on the AZTLAN board and random *legal* orders for every force: the orders are
written as players post them, read with :func:`orders.parse` and judged with
:func:`orders.check`, and the lines it rejects are dropped.  It times
:func:`adjudicate` on that turn and, in the same run, the ``diplomacy``
package (PyPI) processing a standard 34-unit movement turn with random legal
orders, and compares the two per army (ours) and per unit (theirs).

``diplomacy`` is not a dependency of gmkit: it is installed, only for this
benchmark, into a virtualenv of its own under ``out/`` (made on first use,
reused afterwards), and ``bench/diplomacy_turn.py`` runs there in a
subprocess.  When it cannot be installed the comparison is reported as
skipped, with the reason.

    python bench/aztlan_adjudicate.py        # this benchmark alone, as JSON lines
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gmkit.core.boards.polygon import PolygonBoard
from gmkit.core.envelope import Orders
from gmkit.core.orders import ParseResult
from gmkit.rulesets.aztlan import orders as az
from gmkit.rulesets.aztlan.adjudicate import adjudicate
from gmkit.rulesets.aztlan.board.geography import DESERT, EMPIRES, load_map

#: The seed of the generated turn (benchmark scaffolding, not game dice).
SEED = 1519
#: Armies on the board in the generated turn, independent garrisons included.
ARMIES = 240
#: Independent garrisons (single armies) left in cities.
GARRISONS = 8
#: The Chichimec horde in the desert.
HORDE = 3
#: Units on the board in the ``diplomacy`` turn.
UNITS = 34
#: Where the ``diplomacy`` virtualenv lives (ignored by version control).
VENV = ROOT / "out" / "bench-diplomacy-venv"
SCRIPT = Path(__file__).resolve().parent / "diplomacy_turn.py"
CHICHIMECS = "Chichimecs"
#: Three pairs of allies: they permit each other through and support each other.
ALLIANCES = (("Aztecs", "Tlaxcalans"), ("Tarascans", "Yopis"), ("Totonacs", "Hot Country"))


def median_time(fn: Callable[[], object], repeat: int) -> float:
    """The median wall time of ``repeat`` calls of ``fn``, in seconds."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


# ---------------------------------------------------------------------------
# The position
# ---------------------------------------------------------------------------


def _is_city(game_map: PolygonBoard, sector: str) -> bool:
    return game_map.regions[sector].props.get("city") is True


def _territories(game_map: PolygonBoard, rng: random.Random) -> dict[str, str]:
    """Every land sector but the desert shared among the empires, each a contiguous
    area grown from its home centres (a random breadth-first fill)."""
    owner: dict[str, str] = {}
    frontier: list[tuple[str, str]] = []
    for empire, homes in EMPIRES.items():
        for city in homes:
            owner[city] = empire
            frontier.append((city, empire))
    while frontier:
        i = rng.randrange(len(frontier))
        sector, empire = frontier[i]
        frontier[i] = frontier[-1]
        frontier.pop()
        for n in sorted(game_map.land_neighbours(sector)):
            if n != DESERT and n not in owner:
                owner[n] = empire
                frontier.append((n, empire))
    return owner


def build_position(game_map: PolygonBoard, rng: random.Random) -> az.Position:
    """``ARMIES`` armies on the board: stacks of 1-3 of the nine settled empires in
    their areas, the Chichimec horde in the desert and a few independent garrisons;
    the rest of the sectors empty."""
    area = _territories(game_map, rng)
    homes = {c for cities in EMPIRES.values() for c in cities}
    sectors = sorted(area)
    free_cities = [s for s in sectors if _is_city(game_map, s) and s not in homes]
    garrisons = set(rng.sample(free_cities, GARRISONS))
    armies: dict[str, tuple[str, int]] = {DESERT: (CHICHIMECS, HORDE)}
    armies.update({c: (az.NEUTRAL, 1) for c in sorted(garrisons)})
    left = ARMIES - HORDE - GARRISONS
    order = [s for s in sectors if s not in garrisons]
    rng.shuffle(order)
    for sector in order:
        if left == 0:
            break
        n = min(left, rng.choices((1, 2, 3), weights=(3, 4, 3))[0])
        armies[sector] = (area[sector], n)
        left -= n
    if left:
        raise ValueError(f"no room for {left} more armies")
    cities = {s: (None if s in garrisons else area[s]) for s in sectors if _is_city(game_map, s)}
    return az.Position(armies, cities, {}, year=1460, season="Summer")


# ---------------------------------------------------------------------------
# The orders
# ---------------------------------------------------------------------------


@dataclass
class _Plan:
    """One force's order while it is drawn."""

    player: str
    sector: str
    count: int
    kind: str = ""
    target: str = ""
    path: tuple[str, ...] = ()
    contingencies: list[str] = field(default_factory=list)
    retreat: tuple[str, ...] = ()


class _Orders:
    """Random legal-looking orders for every force of a position, as text."""

    def __init__(self, position: az.Position, game_map: PolygonBoard, rng: random.Random) -> None:
        self.pos = position
        self.map = game_map
        self.rng = rng
        self.allies: dict[str, set[str]] = defaultdict(set)
        for a, b in ALLIANCES:
            self.allies[a].add(b)
            self.allies[b].add(a)
        self.plans = [_Plan(p, s, n) for s, (p, n) in sorted(position.armies.items())
                      if p != az.NEUTRAL]
        self.near = {s: sorted(game_map.land_neighbours(s)) for s in game_map.land()}

    def abbr(self, sector: str) -> str:
        abbr = self.map.regions[sector].props.get("abbr")
        return abbr if isinstance(abbr, str) and abbr else sector

    def owner(self, sector: str) -> str | None:
        held = self.pos.armies.get(sector)
        return held[0] if held else None

    def friendly(self, a: str, b: str | None) -> bool:
        return b is not None and (a == b or b in self.allies[a])

    def enemies_near(self, plan: _Plan) -> list[str]:
        return [n for n in self.near[plan.sector]
                if self.owner(n) is not None and not self.friendly(plan.player, self.owner(n))]

    def enterable(self, player: str, sector: str) -> bool:
        """A sector a Move of ``player`` may pass: own or empty, and no closed city."""
        if sector == DESERT:
            return player == CHICHIMECS
        owner = self.owner(sector)
        if owner not in (None, player):
            return False
        return not _is_city(self.map, sector) or self.pos.cities.get(sector) == player

    def retreats(self, plan: _Plan) -> tuple[str, ...]:
        if plan.player == CHICHIMECS or self.rng.random() < 0.6:
            return ()
        ok = [n for n in self.near[plan.sector]
              if n not in plan.path and self.enterable(plan.player, n)]
        return tuple(self.rng.sample(ok, min(len(ok), self.rng.randint(1, 2))))

    def draw(self) -> dict[str, str]:
        """Each player's post: one order line per force, and the allies' permits."""
        rng = self.rng
        attacked: set[tuple[str, str]] = set()
        arriving: dict[str, int] = defaultdict(int)
        # First the forces that act on their own: attack, hold, stand, move.
        pending: list[_Plan] = []
        for plan in self.plans:
            roll = rng.random()
            if roll < 0.25:
                plan.kind = "support"
                pending.append(plan)
            elif roll < 0.35:
                plan.kind = "cut"
                pending.append(plan)
            elif roll < 0.7:
                self.attack_or_stand(plan, attacked)
            elif roll < 0.8 and plan.player != CHICHIMECS:
                plan.kind = "hold"
            elif roll < 0.9:
                self.move_or_stand(plan, arriving)
            else:
                plan.kind = "stand"
        for plan in self.plans:
            if plan.kind == "move":
                plan.path = self.trim_path(plan, attacked)
                if not plan.path:
                    plan.kind = "stand"
        actors = [p for p in self.plans if p.kind in ("attack", "hold", "stand", "move")]
        acting = {p.sector: p for p in actors}
        # Then supports of neighbouring friendly actions, then cuts of enemy supports.
        for plan in pending:
            if plan.kind == "support":
                self.support(plan, acting)
        supporting = {p.sector for p in self.plans if p.kind == "support"}
        for plan in pending:
            if plan.kind == "cut":
                targets = [n for n in self.enemies_near(plan) if n in supporting]
                if targets:
                    plan.target = rng.choice(targets)
                else:
                    self.attack_or_stand(plan, attacked)
        for plan in self.plans:
            if plan.kind in ("attack", "stand", "support", "move", "cut"):
                plan.retreat = self.retreats(plan)
        posts: dict[str, list[str]] = defaultdict(list)
        for plan in self.plans:
            posts[plan.player].append(self.text(plan))
        for a, b in ALLIANCES:
            posts[a].append(f"permit {b}")
            posts[b].append(f"permit {a}")
        return {p: "\n".join(lines) for p, lines in sorted(posts.items())}

    def attack_or_stand(self, plan: _Plan, attacked: set[tuple[str, str]]) -> None:
        targets = [n for n in self.enemies_near(plan) if (plan.player, n) not in attacked]
        if targets:
            plan.kind, plan.target = "attack", self.rng.choice(targets)
            attacked.add((plan.player, plan.target))
        else:
            plan.kind = "stand"

    def move_or_stand(self, plan: _Plan, arriving: dict[str, int]) -> None:
        here, path = plan.sector, []
        for _ in range(self.rng.randint(1, 3)):
            steps = [n for n in self.near[here] if n != plan.sector and n not in path
                     and self.enterable(plan.player, n)]
            if not steps:
                break
            here = self.rng.choice(steps)
            path.append(here)
        # End where the armies fit even if nobody leaves (4.1).
        while path:
            end = path[-1]
            have = self.pos.armies.get(end, (plan.player, 0))[1]
            if end == DESERT or have + arriving[end] + plan.count <= 3:
                arriving[end] += plan.count
                break
            path.pop()
        plan.kind, plan.path = ("move", tuple(path)) if path else ("stand", ())

    def trim_path(self, plan: _Plan, attacked: set[tuple[str, str]]) -> tuple[str, ...]:
        """A Move may not pass the sectors its player attacks (5.9)."""
        if any((plan.player, step) in attacked for step in plan.path):
            return ()
        return plan.path

    def support(self, plan: _Plan, acting: dict[str, _Plan]) -> None:
        """Up to three contingencies, each a real action of a neighbouring friendly force."""
        near = set(self.near[plan.sector])
        cases: list[str] = []
        for n in self.near[plan.sector]:
            other = acting.get(n)
            if other is None or not self.friendly(plan.player, other.player):
                continue
            # "A 7 St", not "7 St": a bare number there is read as a count of armies.
            who = f"A {n}" if n.isdigit() else self.abbr(n)
            if other.kind == "attack" and other.target in near:
                cases.append(f"{who} A {self.abbr(other.target)}")
            elif other.kind == "hold":
                cases.append(f"{who} H")
            elif other.kind == "stand":
                cases.append(f"{who} St")
            elif other.kind == "move":
                into = [s for s in other.path if s in near]
                if into:
                    cases.append(f"{who} M {self.abbr(self.rng.choice(into))}")
            if other.kind != "move" and self.rng.random() < 0.15:
                cases.append(who)  # whatever it does
        if not cases:
            plan.kind = "stand" if plan.player == CHICHIMECS or self.rng.random() < 0.5 else "hold"
            return
        self.rng.shuffle(cases)
        plan.contingencies = cases[:self.rng.randint(1, 3)]

    def text(self, plan: _Plan) -> str:
        head = f"{'' if plan.count == 1 else plan.count}A {self.abbr(plan.sector)}"
        body = {
            "attack": lambda: f"A {self.abbr(plan.target)}",
            "cut": lambda: f"CS {self.abbr(plan.target)}",
            "support": lambda: "S " + ", ".join(plan.contingencies),
            "hold": lambda: "H",
            "stand": lambda: "St",
            "move": lambda: "M " + ", ".join(self.abbr(s) for s in plan.path),
        }[plan.kind]()
        # "retreat to Tol": in "retreat Tol" the "to" of Toluca is read as the word "to".
        retreat = (f" (retreat to {', '.join(self.abbr(s) for s in plan.retreat)})"
                   if plan.retreat else "")
        return f"{head} {body}{retreat}"


@dataclass
class Turn:
    """A generated movement turn: the position, the legal orders by player and what
    was dropped to get there."""

    position: az.Position
    orders: dict[str, list[az.Order]]
    posts: dict[str, str]
    rejected: list[str]


def build_turn(game_map: PolygonBoard, seed: int = SEED) -> Turn:
    """The position and random legal orders, from ``seed``; lines that
    :func:`orders.parse` or :func:`orders.check` reject are dropped until none is."""
    rng = random.Random(seed)
    position = build_position(game_map, rng)
    posts = _Orders(position, game_map, rng).draw()
    rejected: list[str] = []
    for _ in range(10):
        parsed: dict[str, ParseResult[az.Order]] = {
            p: az.parse(post, game_map, p) for p, post in posts.items()}
        bad: dict[str, set[int]] = defaultdict(set)
        for p, result in parsed.items():
            for err in result.errors:
                bad[p].add(err.line or 0)
                rejected.append(f"{p}: {err}")
        for p, errs in az.check(position, Orders.parsed(parsed), game_map).items():
            for err in errs:
                bad[p].add(err.line or 0)
                rejected.append(f"{p}: {err}")
        if not bad:
            orders = {p: [o for _, o in r.orders] for p, r in parsed.items()}
            return Turn(position, orders, posts, rejected)
        for p, lines in bad.items():
            kept = [t for i, t in enumerate(posts[p].splitlines(), 1) if i not in lines]
            posts[p] = "\n".join(kept)
    raise RuntimeError(f"orders still rejected after 10 rounds: {rejected[-5:]}")


# ---------------------------------------------------------------------------
# The diplomacy package
# ---------------------------------------------------------------------------


def _venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def diplomacy_python(venv: Path = VENV) -> tuple[Path | None, str]:
    """The Python of a virtualenv with ``diplomacy`` installed (made when missing), or
    ``None`` and why it could not be had."""
    python = _venv_python(venv)

    def works() -> bool:
        return python.exists() and subprocess.run(
            [str(python), "-c", "import diplomacy"], capture_output=True, check=False).returncode == 0

    if works():
        return python, ""
    steps = [[sys.executable, "-m", "venv", str(venv)],
             [str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q",
              "diplomacy"]]
    for step in steps:
        if step[0] == str(python) or not python.exists():
            try:
                done = subprocess.run(step, capture_output=True, text=True, timeout=600,
                                      check=False)
            except (OSError, subprocess.TimeoutExpired) as err:
                return None, f"{' '.join(step[1:4])} failed: {err}"
            if done.returncode != 0:
                lines = (done.stderr or done.stdout).strip().splitlines()
                return None, f"{' '.join(step[1:4])} failed: {lines[-1] if lines else '?'}"
    if not works():
        return None, "diplomacy installed but does not import"
    return python, ""


def diplomacy_timings(repeat: int = 15) -> tuple[dict | None, str]:
    """``bench/diplomacy_turn.py``'s timings, or ``None`` and why they are missing."""
    python, why = diplomacy_python()
    if python is None:
        return None, why
    done = subprocess.run([str(python), str(SCRIPT), "--repeat", str(repeat)],
                          capture_output=True, text=True, timeout=600, check=False)
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        return None, f"diplomacy_turn.py failed: {lines[-1] if lines else '?'}"
    return json.loads(done.stdout.strip().splitlines()[-1]), ""


# ---------------------------------------------------------------------------
# The benchmark
# ---------------------------------------------------------------------------


def bench_adjudicate(tmp: Path) -> list[dict]:
    """Adjudicate one AZTLAN movement turn of 240 armies; per army, no slower than
    ``diplomacy`` processing a 34-unit standard turn is per unit."""
    del tmp  # the diplomacy virtualenv is kept under out/ to be reused
    game_map = load_map()
    turn = build_turn(game_map)
    on_board = sum(n for _, n in turn.position.armies.values())
    if on_board != ARMIES:
        raise RuntimeError(f"{on_board} armies on the board, not {ARMIES}")
    orders = sum(1 for v in turn.orders.values() for o in v if not isinstance(o, az.Permit))
    forces = sum(1 for p, _ in turn.position.armies.values() if p != az.NEUTRAL)
    adjudicate(turn.position, turn.orders, game_map)  # warm the map's caches
    ours = median_time(lambda: adjudicate(turn.position, turn.orders, game_map), 9)
    theirs, why = diplomacy_timings()
    results = [
        {"name": f"aztlan_adjudicate_{on_board}_armies_ms", "value": round(ours * 1000, 2),
         "unit": "ms", "target": None, "ok": True},
        {"name": "aztlan_adjudicate_ms_per_army", "value": round(ours * 1000 / on_board, 4),
         "unit": "ms", "target": None, "ok": True},
        {"name": "aztlan_turn_legal_army_orders", "value": orders, "unit": "",
         "target": None, "ok": orders == forces},
    ]
    name = "aztlan_per_army_vs_diplomacy_per_unit_ratio"
    if theirs is None:
        results.append({"name": name, "value": "skipped", "unit": "x", "target": "<= 1",
                        "ok": True, "reason": why})
        return results
    full, opening = theirs["full"], theirs["opening"]
    units, process = full["units"], full["process_s"]
    ratio = (ours / on_board) / (process / units)
    results += [
        {"name": f"diplomacy_process_{opening['units']}_units_opening_ms",
         "value": round(opening["process_s"] * 1000, 2), "unit": "ms", "target": None,
         "ok": True},
        {"name": f"diplomacy_process_{units}_units_ms", "value": round(process * 1000, 2),
         "unit": "ms", "target": None, "ok": True},
        {"name": "diplomacy_process_ms_per_unit", "value": round(process * 1000 / units, 4),
         "unit": "ms", "target": None, "ok": True},
        {"name": name, "value": round(ratio, 2), "unit": "x", "target": "<= 1",
         "ok": ratio <= 1 and units == UNITS},
    ]
    return results


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        for r in bench_adjudicate(Path(d)):
            print(json.dumps(r, ensure_ascii=False))
