"""Tests for gmkit.core.beacon: real drand quicknet beacons verify offline, tampered ones are
refused with a reason, rounds fall strictly after a deadline, beacons entered by hand are recorded
as such, and the turn seed is a documented derivation of the secret and the beacon.

The quicknet beacons in ``tests/data/drand/quicknet.json`` are real rounds published in drand's
own repositories: round 42 in drand/drand-docs (docs/developer/06-HTTP-API.md), round 67 in
drand/tlock (cmd/age-plugin-tlock/main_test.go) and round 12040883 in drand/tlock (tlock_test.go);
the file names the commit of each. Their randomness is sha256 of the signature, drand's definition.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from py_arkworks_bls12381 import G1Point

from gmkit.core.beacon import (
    ENTERED,
    NETWORKS,
    QUICKNET,
    SCHEME_G1_RFC9380,
    Beacon,
    BeaconError,
    derive_seed,
    round_at,
    round_message,
    round_time,
    verify_beacon,
    verify_drand,
)
from gmkit.core.dice import Dice

DATA = json.loads((Path(__file__).parent.parent / "data" / "drand" / "quicknet.json").read_text())
VECTORS: list[dict[str, Any]] = DATA["beacons"]
SECRET = "0f" * 32
OTHER_SECRET = "a5" * 32
LOTTERY = Beacon(source="lottery:EuroMillions", round="2025-06-03", value="4 17 23 38 45 / 2 9")


def flip(hex_text: str, index: int) -> str:
    """The same hex text with one digit changed."""
    digit = "0" if hex_text[index] != "0" else "1"
    return hex_text[:index] + digit + hex_text[index + 1:]


def one_line(err: pytest.ExceptionInfo[BeaconError]) -> str:
    message = str(err.value)
    assert message and "\n" not in message
    return message


# -- the network's published parameters ---------------------------------------------------------

def test_quicknet_parameters_are_the_published_ones() -> None:
    """The module's quicknet constants are drand's published chain info."""
    info = DATA["info"]
    assert QUICKNET.public_key == info["public_key"]
    assert QUICKNET.period == info["period"] == 3
    assert QUICKNET.genesis_time == info["genesis_time"]
    assert QUICKNET.genesis_seed == info["genesis_seed"]
    assert QUICKNET.chain_hash == info["chain_hash"]
    assert QUICKNET.scheme == info["scheme"] == SCHEME_G1_RFC9380
    assert QUICKNET.name == info["beacon_id"]
    assert NETWORKS["quicknet"] is QUICKNET


def test_quicknet_chain_hash_is_the_hash_of_its_parameters() -> None:
    """drand's chain hash is sha256 of period, genesis time, public key, genesis seed and beacon
    id: recomputing it from the constants gives the published chain hash."""
    assert QUICKNET.info_hash() == QUICKNET.chain_hash


def test_hash_to_g1_follows_rfc9380() -> None:
    """The hash to G1 is RFC 9380's BLS12381G1_XMD:SHA-256_SSWU_RO_ suite (its test vectors of
    Appendix J.9.1, under the RFC's test DST)."""
    dst = b"QUUX-V01-CS02-with-BLS12381G1_XMD:SHA-256_SSWU_RO_"
    expected = {  # x then y, 48 bytes each, big-endian
        b"": "052926add2207b76ca4fa57a8734416c8dc95e24501772c814278700eed6d1e4e8cf62d9c09db0fac349"
             "612b759e79a108ba738453bfed09cb546dbb0783dbb3a5f1f566ed67bb6be0e8c67e2e81a4cc68ee2981"
             "3bb7994998f3eae0c9c6a265",
        b"abc": "03567bc5ef9c690c2ab2ecdf6a96ef1c139cc0b2f284dca0a9a7943388a49a3aee664ba5379a7655"
                "d3c68900be2f69030b9c15f3fe6e5cf4211f346271d7b01c8f3b28be689c8429c85b67af21553331"
                "1f0b8dfaaa154fa6b88176c229f2885d",
    }
    for msg, xy in expected.items():
        assert G1Point.hash_to_curve(msg, dst).to_xy_bytes_be().hex() == xy


def test_round_message_is_sha256_of_the_round_big_endian() -> None:
    """quicknet signs sha256 of the round number as 8 bytes, big-endian."""
    assert round_message(1) == hashlib.sha256(b"\x00" * 7 + b"\x01").digest()
    assert round_message(256) == hashlib.sha256(b"\x00" * 6 + b"\x01\x00").digest()


# -- real beacons verify --------------------------------------------------------------------------

@pytest.mark.parametrize("vector", VECTORS, ids=[str(v["round"]) for v in VECTORS])
def test_published_quicknet_beacon_verifies(vector: dict[str, Any]) -> None:
    """A real quicknet round, as drand published it, verifies offline and becomes a beacon."""
    beacon = verify_drand(vector["round"], vector["randomness"], vector["signature"])
    assert beacon == Beacon(source="drand:quicknet", value=vector["randomness"],
                            round=str(vector["round"]), signature=vector["signature"],
                            check=SCHEME_G1_RFC9380)


def test_randomness_may_be_left_out_and_is_then_computed() -> None:
    """drand's v2 API publishes only round and signature: the randomness is sha256(signature)."""
    v = VECTORS[0]
    assert verify_drand(v["round"], None, v["signature"]).value == v["randomness"]


def test_hex_case_and_surrounding_spaces_do_not_matter() -> None:
    """Hex pasted in capitals or with spaces around still verifies; the beacon keeps lowercase."""
    v = VECTORS[1]
    beacon = verify_drand(v["round"], f" {v['randomness'].upper()} ", v["signature"].upper())
    assert beacon.value == v["randomness"] and beacon.signature == v["signature"]


# -- tampered beacons are refused, each with a one-line reason ------------------------------------

def test_tampered_signature_is_refused() -> None:
    """A signature with one digit changed is not the network's signature."""
    v = VECTORS[2]
    for index in (5, 50, 95):
        with pytest.raises(BeaconError) as err:
            verify_drand(v["round"], v["randomness"], flip(v["signature"], index))
        assert one_line(err) == "signature is not a point of BLS12-381 G1"


def test_tampered_signature_that_is_still_a_point_is_refused() -> None:
    """The signature's negation (its sign bit flipped) is a point of G1, but not the signature."""
    v = VECTORS[2]
    raw = bytearray(bytes.fromhex(v["signature"]))
    raw[0] ^= 0x20
    with pytest.raises(BeaconError) as err:
        verify_drand(v["round"], None, raw.hex())
    assert one_line(err) == f"signature does not verify for round {v['round']} of drand quicknet"


def test_tampered_randomness_is_refused() -> None:
    """Randomness that is not sha256 of the signature is refused, though the signature is good."""
    v = VECTORS[2]
    with pytest.raises(BeaconError) as err:
        verify_drand(v["round"], flip(v["randomness"], 10), v["signature"])
    assert one_line(err) == f"randomness of round {v['round']} is not sha256 of its signature"


def test_signature_of_another_round_is_refused() -> None:
    """A genuine signature presented for another round does not verify."""
    v = VECTORS[0]
    for wrong in (v["round"] + 1, v["round"] - 1, VECTORS[1]["round"]):
        with pytest.raises(BeaconError) as err:
            verify_drand(wrong, v["randomness"], v["signature"])
        assert one_line(err) == f"signature does not verify for round {wrong} of drand quicknet"


@pytest.mark.parametrize("randomness, signature, reason", [
    (None, "zz" * 48, "signature is not hex"),
    (None, "ab" * 47, "signature must be 48 bytes (96 hex digits), got 47"),
    (None, "ab" * 96, "signature must be 48 bytes (96 hex digits), got 96"),
    ("xyz", None, "randomness is not hex"),
    ("ab" * 31, None, "randomness must be 32 bytes (64 hex digits), got 31"),
    (None, "c0" + "00" * 47, "signature is not a canonical non-zero point"),
    (None, "ff" * 48, "signature is not a canonical non-zero point"),
    (None, "00" * 48, "signature is not a point of BLS12-381 G1"),
])
def test_malformed_input_is_refused_with_its_reason(randomness: str | None, signature: str | None,
                                                    reason: str) -> None:
    """Bad hex, a wrong length, or bytes that are no signature point: each says what is wrong."""
    v = VECTORS[0]
    with pytest.raises(BeaconError) as err:
        verify_drand(v["round"], randomness if randomness is not None else v["randomness"],
                     signature if signature is not None else v["signature"])
    assert one_line(err).startswith(reason)


@pytest.mark.parametrize("bad_round", [0, -3, 2**64, True, "42"])
def test_round_must_be_a_drand_round_number(bad_round: Any) -> None:
    """Rounds are whole numbers from 1 that fit in 8 bytes."""
    v = VECTORS[0]
    with pytest.raises(BeaconError) as err:
        verify_drand(bad_round, v["randomness"], v["signature"])
    assert "round" in one_line(err)


# -- rounds and deadlines -------------------------------------------------------------------------

GENESIS = datetime.fromtimestamp(QUICKNET.genesis_time, timezone.utc)


def test_round_time_is_genesis_plus_whole_periods() -> None:
    """Round r is published at genesis + (r - 1) * period."""
    assert round_time(1) == GENESIS
    assert round_time(2) == GENESIS + timedelta(seconds=3)
    assert round_time(12040883) == GENESIS + timedelta(seconds=3 * 12040882)


def test_round_at_is_the_first_round_strictly_after_the_deadline() -> None:
    """The beacon of a turn is the first round published after the order deadline."""
    deadline = datetime(2025, 6, 3, 18, 0, 0, 500000, tzinfo=timezone.utc)
    r = round_at(deadline)
    assert round_time(r) > deadline >= round_time(r - 1)


def test_deadline_exactly_on_a_round_takes_the_next_round() -> None:
    """A round published at the very second orders close could be known: the next one is used."""
    for r in (1, 2, 42, 12040883):
        assert round_at(round_time(r)) == r + 1
        assert round_at(round_time(r) - timedelta(microseconds=1)) == r


def test_round_at_reads_any_time_zone() -> None:
    """The same instant in another time zone gives the same round."""
    deadline = datetime(2025, 6, 3, 20, 0, 1, tzinfo=timezone(timedelta(hours=2)))
    assert round_at(deadline) == round_at(deadline.astimezone(timezone.utc))
    assert round_time(round_at(deadline)) > deadline


def test_deadline_before_genesis_gives_round_one() -> None:
    """Before the network started, its first round is the first after the deadline."""
    assert round_at(GENESIS - timedelta(days=400)) == 1


def test_deadline_without_time_zone_is_refused() -> None:
    """A naive time is ambiguous: the GM's clock or UTC?"""
    with pytest.raises(BeaconError) as err:
        round_at(datetime(2025, 6, 3, 18, 0))
    assert "time zone" in one_line(err)


# -- beacons entered by hand, storage -------------------------------------------------------------

def test_entered_beacon_is_recorded_as_entered() -> None:
    """A value from another named public source is taken without a signature check, and the
    beacon says so."""
    assert LOTTERY.check == ENTERED and LOTTERY.signature == ""
    assert verify_beacon(LOTTERY) is LOTTERY


@pytest.mark.parametrize("fields, reason", [
    ({"source": "EuroMillions", "value": "4 17"}, "is not '<kind>:<name>'"),
    ({"source": "lottery:", "value": "4 17"}, "is not '<kind>:<name>'"),
    ({"source": "lottery:a|b", "value": "4 17"}, "is not '<kind>:<name>'"),
    ({"source": "lottery:EuroMillions", "round": "3|4", "value": "4 17"}, "may not contain '|'"),
    ({"source": "lottery:EuroMillions", "value": "  "}, "has no value"),
    ({"source": "drand:quicknet", "value": "ab" * 32}, "taken with its signature"),
])
def test_ill_formed_beacon_is_refused(fields: dict[str, str], reason: str) -> None:
    """A source names its kind and name; fields stay separable in the derivation."""
    with pytest.raises(BeaconError) as err:
        Beacon(**fields)
    assert reason in one_line(err)


def test_beacon_round_trips_through_json() -> None:
    """A beacon is stored with its turn as a JSON object and read back unchanged."""
    v = VECTORS[2]
    for beacon in (LOTTERY, verify_drand(v["round"], v["randomness"], v["signature"])):
        stored = json.loads(json.dumps(beacon.to_dict()))
        assert Beacon.from_dict(stored) == beacon


def test_stored_drand_beacon_is_checked_again() -> None:
    """A stored drand beacon is verified again from its record; an altered record is refused."""
    v = VECTORS[2]
    stored = verify_drand(v["round"], v["randomness"], v["signature"]).to_dict()
    assert verify_beacon(Beacon.from_dict(stored)) == Beacon.from_dict(stored)
    altered = Beacon.from_dict({**stored, "round": str(v["round"] + 1)})
    with pytest.raises(BeaconError):
        verify_beacon(altered)


def test_from_dict_refuses_unknown_or_missing_fields() -> None:
    """A stored beacon has exactly the beacon's fields, as text."""
    for data in ({"source": "lottery:x"}, {**LOTTERY.to_dict(), "extra": "1"},
                 {**LOTTERY.to_dict(), "round": 3}):
        with pytest.raises(BeaconError):
            Beacon.from_dict(data)


# -- the turn seed --------------------------------------------------------------------------------

def test_derive_seed_is_the_documented_hmac() -> None:
    """The turn seed is HMAC-SHA256 keyed with the secret seed's bytes over
    'gmkit/beacon/1|<source>|<round>|<value>', as 64 hex digits."""
    v = VECTORS[0]
    beacon = verify_drand(v["round"], v["randomness"], v["signature"])
    msg = f"gmkit/beacon/1|drand:quicknet|{v['round']}|{v['randomness']}".encode()
    expected = hmac.new(bytes.fromhex(SECRET), msg, hashlib.sha256).hexdigest()
    assert derive_seed(SECRET, beacon) == expected
    assert len(expected) == 64


def test_derive_seed_is_deterministic_and_changes_with_either_input() -> None:
    """The same secret and beacon always give the same seed; another secret or another beacon
    gives another."""
    beacons = [verify_drand(v["round"], v["randomness"], v["signature"]) for v in VECTORS]
    beacons.append(LOTTERY)
    seeds = {derive_seed(s, b) for s in (SECRET, OTHER_SECRET) for b in beacons}
    assert len(seeds) == 2 * len(beacons)
    assert derive_seed(SECRET, beacons[0]) == derive_seed(SECRET, beacons[0])


def test_derived_seed_drives_the_dice() -> None:
    """The derived seed is an ordinary dice seed: the same beacon gives the same rolls."""
    seed = derive_seed(SECRET, LOTTERY)
    rolls = [Dice(seed, 4, "combat").d(6, purpose="test", rule="test") for _ in range(2)]
    assert rolls[0] == rolls[1]


@pytest.mark.parametrize("secret", ["0f" * 31, "xy" * 32, ""])
def test_secret_seed_must_be_32_bytes_of_hex(secret: str) -> None:
    """The committed secret is a dice seed: 32 bytes written as 64 hex digits."""
    with pytest.raises(BeaconError) as err:
        derive_seed(secret, LOTTERY)
    assert "secret seed" in one_line(err)
