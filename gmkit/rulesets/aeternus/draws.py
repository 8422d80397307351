"""The turn's seeded draws, made fast for thousands of hexes: the same numbers as gmkit's dice.

:func:`gmkit.core.dice.seeded_int` and :func:`~gmkit.core.dice.seeded_uniform` rebuild an HMAC
key for every draw. Generating a world draws several times per hex, so :class:`SeedDraws` keys
the HMAC once per seed (the inner and outer SHA-256 states of RFC 2104, copied per draw) and
returns exactly what those functions return for the same seed, turn and draw id (a test checks
it); the derivation stays the one documented in :mod:`gmkit.core.dice`.
"""

from __future__ import annotations

import hashlib
from typing import Any

from gmkit.core.dice import DERIVATION, DiceError

_BLOCK = 64
_TWO64 = 2**64


class SeedDraws:
    """Draws of one turn's seed: ``below(draw_id, n)`` and ``uniform_k(draw_id)``."""

    __slots__ = ("seed", "turn", "_inner", "_outer", "_prefix")

    def __init__(self, seed: str, turn: int) -> None:
        key = bytes.fromhex(seed)
        if len(key) > _BLOCK:
            key = hashlib.sha256(key).digest()
        key = key.ljust(_BLOCK, b"\0")
        self.seed = seed
        self.turn = turn
        self._inner: Any = hashlib.sha256(bytes(b ^ 0x36 for b in key))
        self._outer: Any = hashlib.sha256(bytes(b ^ 0x5C for b in key))
        self._prefix = f"{DERIVATION}|{turn}|"

    def bits(self, draw_id: str, attempt: int = 0) -> int:
        """The first 8 bytes of the draw's HMAC, as a big-endian integer."""
        inner = self._inner.copy()
        inner.update(f"{self._prefix}{draw_id}|{attempt}".encode())
        outer = self._outer.copy()
        outer.update(inner.digest())
        return int.from_bytes(outer.digest()[:8], "big")

    def below(self, draw_id: str, n: int) -> int:
        """As :func:`~gmkit.core.dice.seeded_int`: an unbiased integer in ``[0, n)``."""
        if n < 1:
            raise DiceError(f"cannot draw from {n} outcomes")
        limit = _TWO64 - (_TWO64 % n)
        attempt = 0
        while True:
            x = self.bits(draw_id, attempt)
            if x < limit:
                return x % n
            attempt += 1

    def uniform_k(self, draw_id: str) -> int:
        """The integer ``k`` of :func:`~gmkit.core.dice.seeded_uniform`'s ``k / 2**53``."""
        return self.bits(draw_id) >> 11
