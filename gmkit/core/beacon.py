"""Public randomness beacons for gmkit's dice: nobody, not even the GM, can steer a roll.

gmkit's dice derive every draw from a secret per-turn seed whose ``sha256`` the GM posts before
resolving (see :mod:`gmkit.core.dice`). The GM could still try many seeds and keep a convenient one.
Mixing the committed secret with a *public beacon* (a random value published after the order
deadline, which the GM cannot know when committing) closes that door: the turn's seed is
:func:`derive_seed` of the secret and the beacon.

Two kinds of beacon:

* **drand** (the League of Entropy's *quicknet* network): a value every 3 seconds, each a BLS
  signature by the network on its round number. :func:`verify_drand` checks it offline against the
  network's public key (no network access); :func:`round_at` names the first round after a deadline.
* **entered by hand** from another named public source (a lottery draw, a stock index close):
  ``Beacon(source="lottery:EuroMillions", round="2025-06-03", value="4 17 23 38 45 / 2 9")``;
  nothing is checked, and the beacon records ``check="entered"``.

The drand scheme ``bls-unchained-g1-rfc9380``: the message is ``sha256(round as 8 bytes,
big-endian)``; it is hashed to the curve group G1 of BLS12-381 by RFC 9380's
``BLS12381G1_XMD:SHA-256_SSWU_RO_`` suite with the domain separation tag
``BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_``; the signature (48 bytes, compressed G1) is valid
when ``e(signature, g2) == e(H(message), public_key)``, with the public key (96 bytes, compressed
G2); the round's randomness is ``sha256(signature)``.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from py_arkworks_bls12381 import GT, G1Point, G2Point

ENTERED = "entered"
SCHEME_G1_RFC9380 = "bls-unchained-g1-rfc9380"
DERIVATION = "gmkit/beacon/1"


class BeaconError(ValueError):
    """A beacon that cannot be used: bad hex, a wrong length, a signature that does not verify,
    randomness that does not match its signature, a round that does not exist."""


@dataclass(frozen=True)
class Network:
    """The public parameters of one drand network (its ``/info``)."""

    name: str
    public_key: str  # hex, compressed G2 point (96 bytes)
    period: int  # seconds between rounds
    genesis_time: int  # unix time of round 1
    genesis_seed: str  # hex, the group hash of the network's first setup
    chain_hash: str  # hex, identifies the chain
    scheme: str
    dst: bytes  # domain separation tag of the hash to G1

    def info_hash(self) -> str:
        """The chain hash recomputed from the parameters, as drand does: ``sha256(period as
        4 bytes || genesis time as 8 bytes || public key || genesis seed || beacon id)``, all
        big-endian; equal to ``chain_hash`` when the parameters are the published ones."""
        h = hashlib.sha256()
        h.update(self.period.to_bytes(4, "big"))
        h.update(self.genesis_time.to_bytes(8, "big"))
        h.update(bytes.fromhex(self.public_key))
        h.update(bytes.fromhex(self.genesis_seed))
        h.update(self.name.encode())
        return h.hexdigest()


# drand's League of Entropy mainnet network "quicknet". Published by drand: its chain info in
# drand/drand-client lib/defaults.ts (QUICKNET_CHAIN_INFO) and drand/drand-docs
# blog/2023-10-16-quicknet-is-live.md (the output of api.drand.sh/<chain hash>/info); the scheme and
# its DST in drand/drand crypto/schemes.go (NewPedersenBLSUnchainedG1).
QUICKNET = Network(
    name="quicknet",
    public_key=(
        "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d"
        "1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8"
        "991ef5ece45a"),
    period=3,
    genesis_time=1692803367,
    genesis_seed="f477d5c89f21a17c863a7f937c6a6d15859414d2be09cd448d4279af331c5d3e",
    chain_hash="52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
    scheme=SCHEME_G1_RFC9380,
    dst=b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_",
)

NETWORKS: dict[str, Network] = {QUICKNET.name: QUICKNET}


@dataclass(frozen=True)
class Beacon:
    """A public random value, as stored with a turn.

    ``source`` is ``"<kind>:<name>"`` (``"drand:quicknet"``, ``"lottery:EuroMillions"``);
    ``round`` names the round or draw the value belongs to (the drand round number, a draw date);
    ``value`` is the value as published (drand: its randomness, 64 lowercase hex digits);
    ``signature`` is drand's signature (hex), empty for other sources; ``check`` says how the
    value was checked: the drand scheme when its signature was verified, ``"entered"`` when it was
    entered by hand and taken on the GM's word. Building a beacon checks only its form: a drand
    beacon comes from :func:`verify_drand`, and a stored one is checked again by
    :func:`verify_beacon`.
    """

    source: str
    value: str
    round: str = ""
    signature: str = ""
    check: str = ENTERED

    def __post_init__(self) -> None:
        if not all(isinstance(v, str) for v in asdict(self).values()):
            raise BeaconError(f"every beacon field is text: {asdict(self)!r}")
        kind, _, name = self.source.partition(":")
        if not kind or not name or "|" in self.source:
            raise BeaconError(f"beacon source {self.source!r} is not '<kind>:<name>' (no '|')")
        if "|" in self.round:
            raise BeaconError(f"beacon round {self.round!r} may not contain '|'")
        if not self.value.strip():
            raise BeaconError(f"beacon from {self.source} has no value")
        if kind == "drand" and self.check == ENTERED:
            raise BeaconError("a drand beacon is taken with its signature (verify_drand), "
                              "not entered by hand")

    def to_dict(self) -> dict[str, str]:
        """A JSON-able form (every field, as text)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Beacon:
        """Read back :meth:`to_dict`; a stored drand beacon can be checked again with
        :func:`verify_beacon`."""
        fields = ("source", "value", "round", "signature", "check")
        unknown = sorted(set(data) - set(fields))
        if unknown:
            raise BeaconError(f"unknown beacon field(s): {', '.join(unknown)}")
        if "source" not in data or "value" not in data:
            raise BeaconError("a beacon needs a source and a value")
        return cls(**{f: data[f] for f in fields if f in data})


def _check_round(round: int) -> None:
    if isinstance(round, bool) or not isinstance(round, int) or not 1 <= round < 2**64:
        raise BeaconError(f"round {round!r} is not a whole number from 1 to 2**64 - 1")


def round_time(round: int, network: Network = QUICKNET) -> datetime:
    """When a drand round is published (UTC): ``genesis + (round - 1) * period``."""
    _check_round(round)
    genesis = datetime.fromtimestamp(network.genesis_time, timezone.utc)
    try:
        return genesis + timedelta(seconds=(round - 1) * network.period)
    except OverflowError:
        raise BeaconError(f"round {round} falls after the year 9999") from None


def round_at(deadline: datetime, network: Network = QUICKNET) -> int:
    """The first drand round published strictly after ``deadline`` (a timezone-aware time).

    A deadline exactly on a round's time gives the next round: the value must be unknown when the
    orders close."""
    if deadline.tzinfo is None or deadline.utcoffset() is None:
        raise BeaconError("the deadline needs a time zone "
                          "(e.g. datetime(..., tzinfo=timezone.utc))")
    genesis = datetime.fromtimestamp(network.genesis_time, timezone.utc)
    elapsed = deadline - genesis
    return max(1, elapsed // timedelta(seconds=network.period) + 2)


def _hex(what: str, text: str, size: int) -> bytes:
    if not isinstance(text, str):
        raise BeaconError(f"{what} is not text: {text!r}")
    try:
        raw = bytes.fromhex(text.strip())
    except ValueError:
        raise BeaconError(f"{what} is not hex: {text[:20]!r}") from None
    if len(raw) != size:
        raise BeaconError(f"{what} must be {size} bytes ({2 * size} hex digits), got {len(raw)}")
    return raw


def round_message(round: int) -> bytes:
    """What drand signs for a round of an unchained network: ``sha256(round as 8 bytes,
    big-endian)``."""
    return hashlib.sha256(round.to_bytes(8, "big")).digest()


def verify_drand(round: int, randomness_hex: str | None, signature_hex: str,
                 network: Network = QUICKNET) -> Beacon:
    """A drand beacon checked offline: the signature is the network's BLS signature on
    ``round``, and the randomness is ``sha256(signature)``.

    ``randomness_hex`` may be None (drand's v2 API publishes only the signature); it is then
    computed. Raises :class:`BeaconError` with a one-line reason otherwise."""
    if network.scheme != SCHEME_G1_RFC9380:
        raise BeaconError(f"drand scheme {network.scheme} is not supported "
                          f"(only {SCHEME_G1_RFC9380})")
    _check_round(round)
    raw_sig = _hex("signature", signature_hex, 48)
    randomness = hashlib.sha256(raw_sig).hexdigest()
    claimed = None if randomness_hex is None else _hex("randomness", randomness_hex, 32).hex()
    try:
        signature = G1Point.from_compressed_bytes(raw_sig)
    except ValueError:
        raise BeaconError("signature is not a point of BLS12-381 G1") from None
    if signature == G1Point.identity() or signature.to_compressed_bytes() != raw_sig:
        raise BeaconError("signature is not a canonical non-zero point of BLS12-381 G1")
    hashed = G1Point.hash_to_curve(round_message(round), network.dst)
    public_key = G2Point.from_compressed_bytes(bytes.fromhex(network.public_key))
    # e(signature, g2) == e(H(m), public key), as one product checked against 1
    if not GT.pairing_check([signature, -hashed], [G2Point(), public_key]):
        raise BeaconError(f"signature does not verify for round {round} of drand {network.name}")
    if claimed is not None and claimed != randomness:
        raise BeaconError(f"randomness of round {round} is not sha256 of its signature")
    return Beacon(source=f"drand:{network.name}", value=randomness, round=str(round),
                  signature=raw_sig.hex(), check=network.scheme)


def verify_beacon(beacon: Beacon) -> Beacon:
    """Check a stored beacon again: a drand beacon's signature (offline); an entered beacon is
    returned as it is (there is nothing to check)."""
    kind, _, name = beacon.source.partition(":")
    if kind != "drand":
        return beacon
    if name not in NETWORKS:
        raise BeaconError(f"unknown drand network {name!r} (known: {', '.join(NETWORKS)})")
    if not beacon.round.isdigit():
        raise BeaconError(f"drand round {beacon.round!r} is not a number")
    return verify_drand(int(beacon.round), beacon.value, beacon.signature, NETWORKS[name])


def derive_seed(secret_seed_hex: str, beacon: Beacon) -> str:
    """The turn's dice seed (64 hex digits) from the GM's committed secret seed and a beacon.

    In words: take the HMAC-SHA256 whose key is the secret seed's 32 bytes (the hex decoded) and
    whose message is the UTF-8 text ``gmkit/beacon/1|<source>|<round>|<value>`` (for drand:
    ``gmkit/beacon/1|drand:quicknet|<round number>|<randomness hex, lowercase>``); the seed is
    the digest written as 64 lowercase hex digits. The value is the text exactly as recorded in
    the beacon (an entered value keeps its spaces and punctuation). Every draw of the turn is then
    derived from that seed as the dice describe. Anyone can redo it once the secret is revealed::

        hmac.new(bytes.fromhex(secret), f"gmkit/beacon/1|{source}|{round}|{value}".encode(),
                 hashlib.sha256).hexdigest()
    """
    key = _hex("secret seed", secret_seed_hex, 32)
    msg = f"{DERIVATION}|{beacon.source}|{beacon.round}|{beacon.value}".encode()
    return hmac.new(key, msg, hashlib.sha256).hexdigest()
