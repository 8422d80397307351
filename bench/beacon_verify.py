#!/usr/bin/env python3
"""Time ``gmkit verify`` of a 280-turn AZTLAN game whose every turn is mixed with a drand beacon.

    python bench/beacon_verify.py           # a readable table
    python bench/beacon_verify.py --json    # one JSON object per line: name, value, unit, target, ok

Only a few real quicknet rounds are published where tests can hold them, so the game runs on a
test network: a drand-like network with its own BLS key pair (made with py-arkworks), whose
rounds this script signs itself (``sig = H(sha256(round)) * secret key`` in G1, the public key
``g2 * secret key``). Every turn has a deadline an hour after the last, is sealed on its posts,
and takes the first round after its deadline, its signature checked as for quicknet. verify
checks every seal, signature and round and replays every turn's dice from the derived seed.
Target: under 15 s.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from py_arkworks_bls12381 import G1Point, G2Point, Scalar  # noqa: E402

from gmkit.core.beacon import NETWORKS, QUICKNET, SCHEME_G1_RFC9380, Beacon, Network, \
    round_at, round_message, verify_drand  # noqa: E402
from gmkit.game import fairdice  # noqa: E402
from gmkit.game.fairdice import DiceSetting  # noqa: E402
from gmkit.game import Game  # noqa: E402
from gmkit.sweeps.playout import play  # noqa: E402
from gmkit.rulesets import find_ruleset  # noqa: E402

TURNS = 280
TARGET_S = 15.0


class TestNetwork:
    """A drand-like network for benchmarks and tests: a BLS key pair and a signer."""

    def __init__(self, name: str = "benchnet", secret: int = 0x5EC2E7) -> None:
        self.secret = Scalar(secret)
        public = (G2Point() * self.secret).to_compressed_bytes().hex()
        genesis_seed = hashlib.sha256(name.encode()).hexdigest()
        partial = Network(name, public, 3, 1_700_000_000, genesis_seed, "", SCHEME_G1_RFC9380,
                          QUICKNET.dst)
        self.network = Network(name, public, 3, 1_700_000_000, genesis_seed,
                               partial.info_hash(), SCHEME_G1_RFC9380, QUICKNET.dst)
        NETWORKS[name] = self.network

    def sign(self, round: int) -> str:
        """The network's signature of a round (hex, compressed G1)."""
        hashed = G1Point.hash_to_curve(round_message(round), self.network.dst)
        return (hashed * self.secret).to_compressed_bytes().hex()

    def beacon_after(self, deadline: datetime) -> Beacon:
        """The first round after ``deadline``, signed and checked as a published one."""
        round = round_at(deadline, self.network)
        return verify_drand(round, None, self.sign(round), self.network)


def bench_beacon_verify(tmp: Path) -> list[dict]:
    net = TestNetwork()
    start = datetime(2026, 1, 1, tzinfo=timezone.utc)

    def beacon(turn: int) -> tuple[datetime, Beacon]:
        deadline = start + timedelta(hours=turn)
        return deadline, net.beacon_after(deadline)

    players = find_ruleset("aztlan").example_players(None)
    t = time.perf_counter()
    game = Game.new(tmp / "aztlan", "aztlan", players,
                    rules={"victory_centres": 80, "spanish_season": "Fall"},
                    dice=DiceSetting(True, f"drand-{net.network.name}"))
    play(game, TURNS + 20, master="aztlan-1450-1519", beacon=beacon)
    built = time.perf_counter() - t
    turns = len(game.store.turns()) - 1
    mixed = sum(1 for n in game.store.turns()[1:] if "beacon" in game.store.manifest(n))
    spent = [0.0]
    checks = fairdice.verify_problems

    def timed(*a: object, **kw: object) -> object:
        t0 = time.perf_counter()
        try:
            return checks(*a, **kw)  # type: ignore[arg-type]
        finally:
            spent[0] += time.perf_counter() - t0

    fairdice.verify_problems = timed  # type: ignore[assignment]
    try:
        t = time.perf_counter()
        problems = Game.open(tmp / "aztlan").verify()
        v = time.perf_counter() - t
    finally:
        fairdice.verify_problems = checks
    return [
        {"name": f"aztlan_beacon_verify_{turns}_turns_s", "value": round(v, 3), "unit": "s",
         "target": f"< {TARGET_S:g}",
         "ok": v < TARGET_S and not problems and turns == TURNS and mixed == turns},
        {"name": "aztlan_beacon_checks_s", "value": round(spent[0], 3), "unit": "s",
         "target": None, "ok": True},
        {"name": "aztlan_beacon_turns_mixed", "value": mixed, "unit": "turns",
         "target": f"== {TURNS}", "ok": mixed == TURNS},
        {"name": "aztlan_beacon_verify_problems", "value": len(problems), "unit": "problems",
         "target": "== 0", "ok": not problems},
        {"name": "aztlan_beacon_play_s", "value": round(built, 3), "unit": "s", "target": None,
         "ok": True},
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        results = bench_beacon_verify(Path(tmp))
    for r in results:
        if args.json:
            print(json.dumps(r))
        else:
            print(f"{r['name']:<40} {r['value']!s:>10} {r['unit']:<9} target "
                  f"{r['target'] or '-':<8} {'ok' if r['ok'] else 'MISSED'}")
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
