#!/usr/bin/env python3
"""Rebuild ``docs/dice-vectors.json``: golden test vectors of gmkit's dice.

Every vector is made by gmkit's own dice (:mod:`gmkit.core.dice`, the code every ruleset draws
through) and printed as a turn page prints it. The same file is read by the Python tests, quoted
in the README ("Check the dice yourself") and checked by the site's dice checker page in a real
browser, so the three cannot drift apart.

    python scripts/build_dice_vectors.py           # write the file
    python scripts/build_dice_vectors.py --check   # exit 1 when the file is not what gmkit gives
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gmkit.core import dice as gdice  # noqa: E402
from gmkit.core.beacon import Beacon, derive_seed  # noqa: E402
from gmkit.publish.summary import _result_text  # noqa: E402  (how a turn page prints a result)

TARGET = ROOT / "docs" / "dice-vectors.json"
#: A quicknet round published by drand (tests/data/drand/quicknet.json: round 42).
QUICKNET_42 = Beacon(
    source="drand:quicknet", round="42",
    value="8ada64bae5c6c0f5540a6a13af56e663240edfbd2c76ac6a8f27671eb7259ce3",
    signature="95a9f9f5b231b7714de1553105d8ffdf3dcda24cfdb1e689319bccf79a9c8ce430a91b811fbfaf7639"
              "00bc998b5d686a", check="bls-unchained-g1-rfc9380")


def _seed(name: str) -> str:
    return hashlib.sha256(f"gmkit dice vector {name}".encode()).hexdigest()


def _printed(roll: gdice.Roll) -> dict[str, Any]:
    return {"id": roll.draw_id, "expression": roll.expression,
            "result": _result_text(json.dumps(roll.result), roll.expression)}


def _rejected_first(seed: str, turn: int, n: int) -> str:
    """The first key ``reject/<k>`` whose draw (id ``vector:reject/<k>``) rejects attempt 0
    for ``n`` outcomes."""
    limit = 2**64 - (2**64 % n)
    k = 0
    while gdice._bits(seed, turn, f"vector:reject/{k}", 0) < limit:
        k += 1
    return f"reject/{k}"


def vectors() -> dict[str, Any]:
    """The golden vectors, as the file holds them."""
    a, b = _seed("A"), _seed("B")
    dice_rows = []
    for seed, turn, draw_id, sides in [
            (a, 3, "conquest:attack/Tróys/Red#0", 10), (a, 3, "conquest:defend/Tróys/Red#0", 10),
            (a, 1, "chichimecs:hordes#0", 6), (b, 12, "generate:(2,0,0)/corrupt#0", 100),
            (b, 7, "actions:Amber.2/forage#0", 6), (b, 7, "vote:tie#0", 2)]:
        dice_rows.append({"seed": seed, "turn": turn, "id": draw_id, "sides": sides,
                          "value": gdice.seeded_int(seed, turn, draw_id, sides) + 1})
    draws = []
    for seed, turn in ((a, 3), (b, 7)):
        d = gdice.Dice(seed, turn, "vector")
        d.roll(3, 6, purpose="three dice", rule="-", key="melee")
        d.d(10, purpose="one die", rule="-", key="attack/Tróys/Red")
        d.choice(["Red", "Gold", "Green"], purpose="a choice", rule="-", key="first")
        d.choice(["Citlali: Bronze Working", "Tochtli: Bronze Working", "Ome"], weights=[2, 1, 0],
                 purpose="a weighted choice", rule="-", key="research")
        d.shuffle(["Citlali", "Coatl", "Gualpa", "Itzel", "Ome's heir"], purpose="a shuffle",
                  rule="-", key="ties")
        d.uniform(purpose="a uniform number", rule="-", key="weather")
        # weights summing to 2**63 + 1: about half the attempts are rejected
        key = _rejected_first(seed, turn, 2**63 + 1)
        d.choice(["heads", "tails"], weights=[2**62, 2**62 + 1], purpose="rejection sampling",
                 rule="-", key=key)
        draws += [{"seed": seed, "turn": turn, **_printed(r)} for r in d.log]
    beacon_dice = gdice.Dice(derive_seed(b, QUICKNET_42), 5, "conquest")
    beacon_dice.d(10, purpose="attack", rule="-", key="attack/Arles/Gold")
    return {
        "format": "gmkit-dice-vectors/1",
        "about": "Golden vectors of gmkit's dice (README, 'Verifiable dice'), made by "
                 "scripts/build_dice_vectors.py from gmkit.core.dice. dice: a die of 'sides' "
                 "faces drawn under 'id' (the id exactly as the HMAC message holds it) shows "
                 "'value'. draws: rolls as a turn page prints them (id, expression, result). "
                 "commitments: sha256 of the seed's 64 hex characters. beacons: the dice seed "
                 "derived from a revealed secret and a beacon, and a draw from it.",
        "dice": dice_rows,
        "draws": draws,
        "commitments": [{"seed": s, "commitment": gdice.commitment(s)} for s in (a, b)],
        "beacons": [{"secret": b, "beacon": {k: getattr(QUICKNET_42, k)
                                             for k in ("source", "round", "value")},
                     "seed": derive_seed(b, QUICKNET_42), "turn": 5,
                     "draws": [_printed(r) for r in beacon_dice.log]}],
    }


def text() -> str:
    """The file's text."""
    return json.dumps(vectors(), indent=1, ensure_ascii=False) + "\n"


def main() -> int:
    if "--check" in sys.argv[1:]:
        same = TARGET.exists() and TARGET.read_text("utf-8") == text()
        print(f"{TARGET.relative_to(ROOT)}: {'up to date' if same else 'OUT OF DATE'}")
        return 0 if same else 1
    TARGET.write_text(text(), "utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
