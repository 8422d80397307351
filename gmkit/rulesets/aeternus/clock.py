"""Aeternus's clock (rule 1): UTC days, the two phases of each week, the phase number, and the
action points a phase brings (6).

Phase I is Sunday to Wednesday, phase II Thursday to Saturday (1.2). A phase's index counts
phases from a fixed Sunday, two a week; the phase number is that index minus the index of the
phase the cycle began in, so the cycle's first phase is 0 whatever the weekday it began on.

A gmkit turn is a batch of actions the GM resolves when it likes; the phase is the clock for AP
and voting, read from each action's posting time (its envelope's time).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

#: A Sunday, 00:00 UTC: phases are counted from here.
_EPOCH = datetime(2023, 1, 1, tzinfo=timezone.utc)


def parse_time(text: str) -> datetime:
    """An ISO 8601 time, read as UTC when it names no zone."""
    t = datetime.fromisoformat(text)
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)


def time_text(t: datetime) -> str:
    """A time as stored: ISO 8601 in UTC, to the second."""
    return t.astimezone(timezone.utc).isoformat(timespec="seconds")


def phase_index(t: datetime) -> int:
    """The phase holding ``t`` counted from a fixed Sunday: two per week (1.2)."""
    days = (t.astimezone(timezone.utc) - _EPOCH).days
    week, day = divmod(days, 7)  # day 0 is a Sunday
    return 2 * week + (0 if day < 4 else 1)


def phase_start(index: int) -> datetime:
    """When the phase of index ``index`` begins."""
    week, half = divmod(index, 2)
    return _EPOCH + timedelta(days=7 * week + 4 * half)


def phase_number(t: datetime, cycle_start: datetime) -> int:
    """The phase number of ``t`` (1.2): phases since the one the cycle began in."""
    return phase_index(t) - phase_index(cycle_start)


def phase_bounds(number: int, cycle_start: datetime) -> tuple[datetime, datetime]:
    """When phase ``number`` of the cycle begins and ends."""
    index = number + phase_index(cycle_start)
    return phase_start(index), phase_start(index + 1)


def phase_name(t: datetime) -> str:
    """``"I"`` (Sunday to Wednesday) or ``"II"`` (Thursday to Saturday)."""
    return "I" if phase_index(t) % 2 == 0 else "II"


def icbrt(n: int) -> int:
    """The integer cube root, ⌊∛n⌋, exactly (no floating point)."""
    if n < 0:
        raise ValueError("no quality score is negative")
    r = round(n ** (1 / 3))
    while r ** 3 > n:
        r -= 1
    while (r + 1) ** 3 <= n:
        r += 1
    return r


def action_points(quality_score: int, base: int = 2) -> int:
    """AP replenished at the start of each phase: 2 + ⌊∛S⌋ (6)."""
    return base + icbrt(quality_score)
