"""A game's seeds and what guards them: the commitment a GM posts before the orders, the reveal
after the turn, and the deadline, seal and beacon of :mod:`gmkit.game.fairdice`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


import gmkit.game.fairdice as fairdice
import gmkit.core.dice as gdice
from gmkit.core.beacon import Beacon
from gmkit.game.changes import GameError
from gmkit.game.part import GamePart



class GuardedDice(GamePart):
    """A game's seeds and their guard (the part of :class:`gmkit.game.Game` that keeps
    them): the commitment posted before the orders, the reveal, the deadline, the seal and the
    beacon."""

    # -- seeds -----------------------------------------------------------------------------------
    def commitment(self, turn: int | None = None) -> str:
        """The commitment (sha256 of the secret seed) to post before resolving ``turn``."""
        turn = self.next_turn if turn is None else turn
        if turn != self.next_turn:
            seed = self.store.read_seed(turn)
            if seed is None:
                raise GameError(f"turn {turn} has no seed")
            return gdice.commitment(seed)
        self.refuse_if_over(f"no turn {turn} to commit dice for")
        return fairdice.announce(self.store, turn, lambda: self.seed_maker(turn),
                                 clock=self.clock)

    def reveal(self, turn: int | None = None) -> str:
        """Reveal a committed turn's seed (checked against its posted commitment)."""
        turn = self.latest_turn if turn is None else turn
        if turn not in self.store.turns() or turn == self.first_turn:
            raise GameError(f"turn {turn} is not committed: a seed is revealed only afterwards")
        seed = self.store.read_seed(turn)
        posted = self.store.manifest(turn).get("seed_commitment")
        if seed is None or posted is None:
            raise GameError(f"turn {turn} has no seed kept")
        if not gdice.check_reveal(seed, posted):
            raise GameError(f"turn {turn}: the kept seed does not match the posted commitment")
        self.store.write_seed(turn, seed, revealed=True)
        return seed

    # -- guarding the dice: deadline, seal, beacon (gmkit.game.fairdice) ----------------------------------
    def coming_dice(self) -> dict[str, Any]:
        """The coming turn's commitment (None before it is made), order deadline, seal and
        beacon (None until set), as ``status`` and the desk show them."""
        turn = self.next_turn
        rec = fairdice.read_record(self.root, turn)
        return {"turn": turn, "commitment": fairdice.announced(self.store, turn),
                "deadline": fairdice.current(rec, "deadlines"),
                "beacon_kind": self.dice_setting.beacon,
                "seal": fairdice.current(rec, "seals"),
                "beacon": fairdice.current(rec, "beacons")}

    def set_deadline(self, time: str) -> dict[str, Any]:
        """Set the coming turn's order deadline (ISO 8601 with its zone)."""
        return fairdice.set_deadline(self.store, self.next_turn,
                                     fairdice.parse_time(time, "deadline"))

    def seal(self, entered: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Seal the coming turn on the posts received so far and the GM-entered dice, before
        its beacon round: only these count."""
        turn = self.next_turn
        return fairdice.seal(self.store, turn, self.commitment(turn),
                             self.store.pending_posts(turn), dict(entered or {}))

    def enter_beacon(self, *, round: str | None = None, randomness: str | None = None,
                     signature: str | None = None, source: str | None = None,
                     value: str | None = None, turn: int | None = None) -> dict[str, Any]:
        """Enter the sealed turn's public beacon: a drand round (``round`` and ``signature``,
        checked offline, the first round after the deadline) or a named ``source`` with the
        ``value`` it published."""
        turn = self.next_turn if turn is None else turn
        if source is not None:
            if value is None:
                raise GameError("a named beacon needs its value, as published")
            beacon = Beacon(source=source, value=value, round=round or "")
        else:
            if not signature or round is None or not str(round).strip().isdigit():
                raise GameError("a drand beacon needs its round (a number) and its signature")
            beacon = fairdice.drand_beacon(self.dice_setting, int(str(round).strip()),
                                           randomness or None, signature.strip())
        return fairdice.take_beacon(self.store, turn, self.dice_setting, beacon)
