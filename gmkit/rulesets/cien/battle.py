"""The war rules of Cien as small pure functions: the defence split and a single battle."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gmkit.rulesets.cien.rules import COLOURS


def battle_wins(attack: int, attack_roll: int, defense: int, defense_roll: int) -> bool:
    """d10 + grain against d10 + defending grain: the attacker must roll *higher* (ties hold)."""
    return attack + attack_roll > defense + defense_roll


def _colour_order(pid: str) -> tuple[int, str]:
    return (COLOURS.index(pid) if pid in COLOURS else len(COLOURS), pid)


def leftover_candidates(fighters: Sequence[tuple[str, int]]) -> list[str]:
    """The attackers with the most grain, in colour order (who may face the leftover)."""
    top = max(force for _, force in fighters)
    return sorted((pid for pid, force in fighters if force == top), key=_colour_order)


def allot_defense(defense: int, fighters: Sequence[tuple[str, int]],
                  pick: Callable[[list[str]], str], mode: str = "roll") -> dict[str, int]:
    """Spread ``defense`` as equally as possible among the attackers; the leftover goes against
    the attacker with the most grain (``pick`` chooses among tied ones in mode "roll"; mode
    "spread" hands it out one grain each in colour order)."""
    if not fighters:
        return {}
    base, left = divmod(defense, len(fighters))
    shares = {pid: base for pid, _ in fighters}
    if left:
        tied = leftover_candidates(fighters)
        if len(tied) == 1:
            shares[tied[0]] += left
        elif mode == "roll":
            shares[pick(tied)] += left
        else:
            for i in range(left):
                shares[tied[i % len(tied)]] += 1
    return shares
