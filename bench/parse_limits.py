#!/usr/bin/env python3
"""Every ruleset's order parser on hostile lines at the line limit (``MAX_LINE_CHARS``).

    python bench/parse_limits.py           # a readable table
    python bench/parse_limits.py --json    # one JSON object per line: name, value, unit, target, ok

For each registered ruleset (and the GM's own inputs where the ruleset takes them, such as the
Law of the Jungle's civilization figures), a few hundred lines of exactly ``MAX_LINE_CHARS``
characters are read: the words of the ruleset's own expressions repeated in seeded random
combinations (what drives a backtracking expression to its worst), long runs of spaces,
brackets and digits, each plain and in bold. The figure is the slowest line's median of three
reads. Target: under 0.1 s a line. The post at the size limit (``MAX_POST_CHARS``, made of the
slowest line) is shown beside it.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gmkit.core.orders import MAX_LINE_CHARS, MAX_POST_CHARS  # noqa: E402
from gmkit.core.parts import GM_POSTER  # noqa: E402
from gmkit.core.ruleset import find_ruleset, registered  # noqa: E402
from gmkit.game import Game, starting_board  # noqa: E402

TARGET_S = 0.1
FIXED = ["noble 1 with from 1 ", " ", "( ", "1", "a", "[b]", ": ", "1, ", "x by ", "to "]
#: Heads and units that drove a parser to its worst before (a Pyramid lead of "with" and "from"
#: with no destination after its noble: cubic backtracking, 0.4 s a line), tried on every
#: ruleset.
SHAPES = [("noble to ", "with from "), ("noble into ", "leads from "), ("x to ", "leads from "),
          ("a to ", "leads with from "), ("move ", "from to ")]


def words_of(ruleset: str) -> list[str]:
    """The words of every regular expression of a ruleset's modules, and separators."""
    words: set[str] = set()
    package = importlib.import_module(f"gmkit.rulesets.{ruleset}")
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        try:
            module = importlib.import_module(info.name)
        except ImportError:
            continue
        for value in vars(module).values():
            if isinstance(value, re.Pattern):
                words |= set(re.findall(r"[a-z]{2,}", value.pattern))
    return sorted(words) + ["1", "-1", ",", ":", "=", "#", "(", ")", "+", "&", "->", ";", "/"]


def hostile_lines(ruleset: str, seed: int = 1, combos: int = 120) -> list[str]:
    """Lines of exactly MAX_LINE_CHARS characters made to be hard to read."""
    rnd = random.Random(f"{ruleset}/{seed}")
    words = words_of(ruleset)
    units = FIXED + [w + " " for w in words]
    units += [" ".join(rnd.choice(words) for _ in range(rnd.randint(2, 3))) + " "
              for _ in range(combos)]
    pairs = [(head, unit) for unit in units for head in ("", rnd.choice(words) + " ", "1 ")]
    out = []
    for head, unit in [*pairs, *SHAPES]:
        line = (head + unit * (MAX_LINE_CHARS // len(unit) + 1))[:MAX_LINE_CHARS]
        out.append(line)
        out.append("[b]" + line[:MAX_LINE_CHARS - 7] + "[/b]")
    return out


def _time(fn: Any) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def bench_parse_limits(tmp: Path) -> list[dict[str, Any]]:
    """The slowest hostile line at the limit, per ruleset and poster kind."""
    results = []
    for name in registered():
        rs = find_ruleset(name)
        game = Game.new(tmp / name, name, rs.example_players(starting_board(rs)[0]))
        state, ctx = game.coming_state(), game.context()
        posters = [("orders", game.player_ids(state)[0])]
        if rs.lifecycle.gm_posts:
            posters.append(("gm_inputs", GM_POSTER))
        lines = hostile_lines(name)
        for kind, poster in posters:
            def read(text: str, poster: str = poster) -> None:
                rs.parse_post(text, poster, state, ctx)

            first = sorted(((_time(lambda line=line: read(line)), line) for line in lines),
                           reverse=True)[:5]
            worst = max(first, key=lambda tl: statistics.median(
                _time(lambda: read(tl[1])) for _ in range(3)))[1]
            value = statistics.median(_time(lambda: read(worst)) for _ in range(3))
            post = "\n".join([worst] * (MAX_POST_CHARS // (MAX_LINE_CHARS + 1)))
            whole = statistics.median(_time(lambda: read(post)) for _ in range(3))
            results.append({"name": f"parse_line_at_limit_{name}_{kind}_s",
                            "value": round(value, 4), "unit": "s", "target": f"< {TARGET_S}",
                            "ok": value < TARGET_S, "line": worst[:40]})
            results.append({"name": f"parse_post_at_limit_{name}_{kind}_s",
                            "value": round(whole, 4), "unit": "s", "target": None, "ok": True})
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as d:
        results = bench_parse_limits(Path(d))
    for r in results:
        if args.json:
            print(json.dumps(r, ensure_ascii=False))
        else:
            print(f"{r['name']:<44} {r['value']:>8} s  target {r['target'] or '-':<6} "
                  f"{'ok' if r['ok'] else 'MISSED'}")
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
