"""How far forces move (WAR: Movement), one function shared by validation, steps and the bot.

"TROOPS and/or PYRAMIDS led by a NOBLE can move 1 space each turn, or 2 spaces if both are
already controlled. Without a NOBLE they may still be moved but only through friendly
territory." A scout pyramid "may move an additional space per round with a single unit of
TROOPS, if led by a NOBLE". A path never passes through land the mover does not control: only
its last space may be uncontrolled (that is the space it attempts to take).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from gmkit.core.params import Params


def scout_move(troops: int, sizes: Sequence[str], rules: Params) -> bool:
    """True when a noble-led force earns the scout pyramid's additional space: at least one
    (functioning) scout pyramid, no larger pyramid, at most ``scout_troops`` troops."""
    return bool(sizes) and all(s == "scout" for s in sizes) and troops <= rules.scout_troops


def move_limit(path: Sequence[str], held: Collection[str], rules: Params, *, led: bool,
               scout: bool = False) -> int:
    """The most spaces this force may move along ``path``."""
    controlled = int(rules.controlled_range)
    if not led:
        return controlled
    base = controlled if all(p in held for p in path[:controlled]) else int(rules.led_range)
    return base + (int(rules.scout_extra) if scout else 0)


def path_problem(origin: str, path: Sequence[str], adjacency: Mapping[str, Collection[str]],
                 held: Collection[str], rules: Params, *, led: bool,
                 scout: bool = False) -> str | None:
    """Why a force cannot move from ``origin`` along ``path``, or None when it can.

    ``held`` are the spaces the moving player controls at the start of the round.
    """
    if not path:
        return "no destination given"
    here = origin
    seen = {origin}
    for step in path:
        if step not in adjacency.get(here, ()):
            return f"{step} is not next to {here}"
        if step in seen:
            return f"the move passes {step} twice"
        seen.add(step)
        here = step
    if not led:
        foreign = [p for p in path if p not in held]
        if foreign:
            return (f"without a noble, forces move only through friendly territory: "
                    f"{foreign[0]} is not yours")
    else:
        foreign = [p for p in path[:-1] if p not in held]
        if foreign:
            return (f"the move passes through {foreign[0]}, which you do not control: only the "
                    "last space of a move may be land you do not hold")
    limit = move_limit(path, held, rules, led=led, scout=scout)
    if len(path) > limit:
        if not led:
            return (f"forces without a noble move at most {limit} spaces of friendly "
                    f"territory, not {len(path)}")
        why = (f"a noble leads forces {rules.led_range} space a round, "
               f"{rules.controlled_range} if all are already controlled")
        if scout:
            why += f", plus {rules.scout_extra} with a scout pyramid"
        return f"moving {len(path)} spaces: {why}"
    return None
