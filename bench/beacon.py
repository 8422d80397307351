#!/usr/bin/env python3
"""Time checking a drand quicknet beacon offline and deriving the turn seed from it.

    python bench/beacon.py           # a readable table
    python bench/beacon.py --json    # one JSON object per line: name, value, unit, target, ok

The beacon is a real quicknet round (``tests/data/drand/quicknet.json``). Each figure is the median
of many repetitions; the first call (cold caches) is given apart. Target: verify + derive < 100 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gmkit.core.beacon import derive_seed, verify_drand  # noqa: E402

VECTORS = ROOT / "tests" / "data" / "drand" / "quicknet.json"
SECRET = "0f" * 32
REPEAT = 50


def bench_beacon() -> list[dict]:
    """verify_drand of a real quicknet round, then derive_seed: median and first call."""
    vector = json.loads(VECTORS.read_text())["beacons"][-1]

    def once() -> float:
        t = time.perf_counter()
        beacon = verify_drand(vector["round"], vector["randomness"], vector["signature"])
        derive_seed(SECRET, beacon)
        return time.perf_counter() - t

    first = once()
    times = [once() for _ in range(REPEAT)]
    median = statistics.median(times)
    return [
        {"name": "beacon_verify_derive_ms", "value": round(median * 1000, 3), "unit": "ms",
         "target": "< 100", "ok": median < 0.1},
        {"name": "beacon_verify_derive_first_ms", "value": round(first * 1000, 3), "unit": "ms",
         "target": None, "ok": True},
        {"name": "beacon_verify_derive_max_ms", "value": round(max(times) * 1000, 3), "unit": "ms",
         "target": None, "ok": True},
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args()
    results = bench_beacon()
    for r in results:
        if args.json:
            print(json.dumps(r))
        else:
            target = r["target"] or "-"
            print(f"{r['name']:<36} {r['value']:>10} {r['unit']:<3} target {target:<6} "
                  f"{'ok' if r['ok'] else 'MISSED'}")
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
