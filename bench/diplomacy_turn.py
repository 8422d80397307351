"""Time the ``diplomacy`` package (PyPI) processing one standard movement turn.

Run by ``bench/aztlan_adjudicate.py`` with the Python of a separate virtualenv
that has ``diplomacy`` installed; it imports nothing of gmkit.  It prints one
JSON object: the units and orders of each timed turn and the median times.

Two turns are timed, each with random legal orders (one per orderable unit,
drawn from ``game.get_all_possible_orders()`` with a fixed seed):

* the full board: the standard map with all 34 supply centres occupied, set up
  directly (``set_units``/``set_centers``) in Spring 1901: the 22 starting
  units on the home centres, and one unit on each of the 12 neutral centres
  given to a neighbouring power;
* the opening: the standard Spring 1901 position (22 units), for context.

Each repeat builds the same game afresh and sets the same orders, so every
repeat processes the same turn and only ``game.process()`` is inside the
timer; the time of ``set_orders`` (the package's order reading and checking)
is given apart.  (A ``deepcopy`` of a game keeps a cache of unit owners that
points at the original's powers, so the copy refuses the orders.)
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from diplomacy import Game  # type: ignore[import-not-found]

#: The 12 neutral supply centres of the standard map, each with the unit a
#: neighbouring power keeps on it once all 34 centres are taken.
NEUTRAL_CENTRES: dict[str, list[str]] = {
    "ENGLAND": ["F BEL"],
    "FRANCE": ["A SPA", "F POR"],
    "GERMANY": ["F DEN", "A HOL"],
    "ITALY": ["F TUN"],
    "AUSTRIA": ["A SER", "F GRE"],
    "RUSSIA": ["F NWY", "A SWE", "A RUM"],
    "TURKEY": ["A BUL"],
}


def full_board() -> Game:
    """Spring 1901 with a unit on every one of the 34 supply centres."""
    game = Game()
    for power, units in NEUTRAL_CENTRES.items():
        game.set_units(power, units)
        game.set_centers(power, [u.split()[1] for u in units])
    return game


def unit_count(game: Game) -> int:
    """The units on the board."""
    return sum(len(p.units) for p in game.powers.values())


def random_orders(game: Game, rng: random.Random) -> dict[str, list[str]]:
    """One random legal order for every orderable unit of every power."""
    possible = game.get_all_possible_orders()
    orders: dict[str, list[str]] = {}
    for power in sorted(game.powers):
        locs = sorted(game.get_orderable_locations(power))
        orders[power] = [rng.choice(sorted(possible[loc])) for loc in locs if possible[loc]]
    return orders


def time_turn(make: Callable[[], Game], seed: int, repeat: int) -> dict[str, Any]:
    """Median time of ``process()`` and of ``set_orders`` for the movement turn of the
    games ``make`` builds."""
    game = make()
    if not game.get_current_phase().endswith("M"):
        raise SystemExit(f"not a movement phase: {game.get_current_phase()}")
    orders = random_orders(game, random.Random(seed))
    processes, settings = [], []
    phase_after = ""
    for _ in range(repeat):
        work = make()
        t = time.perf_counter()
        for power, lines in orders.items():
            work.set_orders(power, lines)
        settings.append(time.perf_counter() - t)
        if work.error:
            raise SystemExit(f"rejected orders: {work.error}")
        t = time.perf_counter()
        work.process()
        processes.append(time.perf_counter() - t)
        phase_after = work.get_current_phase()
    return {
        "phase": game.get_current_phase(),
        "phase_after": phase_after,
        "units": unit_count(game),
        "orders": sum(len(v) for v in orders.values()),
        "process_s": statistics.median(processes),
        "set_orders_s": statistics.median(settings),
        "repeat": repeat,
    }


def main() -> int:
    """Print the timings as one JSON object."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    from importlib.metadata import version

    board = full_board()
    if board.error or unit_count(board) != 34:
        raise SystemExit(f"bad set-up: {unit_count(board)} units, {board.error}")
    out = {
        "package_version": version("diplomacy"),
        "python": sys.version.split()[0],
        "full": time_turn(full_board, args.seed, args.repeat),
        "opening": time_turn(Game, args.seed, args.repeat),
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
