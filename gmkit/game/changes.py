"""What a game records for its coming turns: rule changes (a GM's house rule, or a rule a turn
enacted) and player changes, each with the turn it takes effect from and why.

Every change is recorded in ``pending/changes.json`` first, then written to ``game.toml``: the
record is the intent, so a command stopped between the two writes is completed on the next
open. :class:`RecordedChanges` is the part of :class:`gmkit.game.Game` that keeps them.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from gmkit.core.params import Params, apply_rule_changes
from gmkit.core.parts import Context
from gmkit.core.ruleset import Ruleset
from gmkit.core.store import GameStore
from gmkit.core.files import StoreError, atomic_write, read_json_file
from gmkit.core.tables import State

if TYPE_CHECKING:
    from gmkit.core.players import PlayerInfo

#: Changes recorded for coming turns, under ``pending/``.
CHANGES_FILE = "changes.json"
from gmkit.game.part import GamePart


class GameError(ValueError):
    """A GM action that cannot be done; the message says why."""


class GameOverError(GameError):
    """Something asked of a game whose outcome is decided (a turn, orders, a commitment)."""


def enacted_record(ruleset: Ruleset[Any], start: State, end: State,
                   ctx: Context) -> list[dict[str, Any]]:
    """The rule changes a turn from ``start`` to ``end`` enacted, as its manifest records them
    (``at_once`` only for a change in force within the turn already)."""
    out = []
    enacted = ruleset.lifecycle.enacted
    for c in enacted(start, end, ctx) if enacted else []:
        row = dataclasses.asdict(c)
        if not row["at_once"]:
            del row["at_once"]
        out.append(row)
    return out


class RecordedChanges(GamePart):
    """The rule and player changes of a game folder (the part of :class:`gmkit.game.Game` that
    records them)."""

    def recorded_changes(self) -> list[dict[str, Any]]:
        """Changes to the rules or players recorded for coming turns (``pending/changes.json``),
        each with the turn it takes effect from and why."""
        path = self.root / "pending" / CHANGES_FILE
        if not path.exists():
            return []
        return [c for c in read_json_file(path, list) if isinstance(c, dict)]

    def _complete_change(self) -> None:
        """Finish a change of rules or players that was recorded but not yet written to
        ``game.toml`` (the command was interrupted between the two writes): the record is the
        intent."""
        changes = self.recorded_changes()
        if not changes:
            return
        last = changes[-1]
        for key in ("rules", "players"):
            if f"{key}_after" in last:
                self._finish_write(key, last[f"{key}_before"], last[f"{key}_after"])

    def _finish_write(self, key: str, before: Any, after: Any) -> None:
        """Write ``after`` as ``game.toml``'s ``key`` when it still holds ``before`` (a change
        recorded, its write to ``game.toml`` interrupted): the record is the intent."""
        now = self.config.get(key, {} if key == "rules" else [])
        if now == before and now != after:
            with self.store.lock():
                self.store.write_config({**self.config, key: after})
            self.config = GameStore.read_config(self.root)

    def _complete_enacted(self) -> None:
        """Record the rule changes the last turn enacted when the command that committed it
        stopped before recording them (its manifest is the intent)."""
        try:
            latest = self.store.latest()
            enacted = self.store.manifest(latest).get("enacted") if latest > 0 else None
        except (StoreError, OSError):
            return  # reported by whatever reads the turn next
        mine = [c for c in self.recorded_changes()
                if c.get("by") == "rules" and c.get("from_turn") == latest + 1]
        if enacted and not mine:
            with self.store.lock():
                self._record_enacted(latest, enacted)
        elif mine:
            self._finish_write("rules", mine[0].get("rules_before"), mine[-1].get("rules_after"))

    def _record_enacted(self, turn: int, enacted: Sequence[Mapping[str, Any]]) -> None:
        """Record the rule changes turn ``turn`` enacted for the turns after it (replacing
        those a former revision of the turn enacted), as ``gmkit rules --set`` records a GM's;
        the caller holds the lock."""
        if not enacted and not (self.root / "pending" / CHANGES_FILE).exists():
            return  # nothing enacted now or before: the common case costs one stat
        config = GameStore.read_config(self.root)
        rules = dict(config.get("rules", {}))
        kept: list[dict[str, Any]] = []
        undone = False
        for c in self.recorded_changes():
            if c.get("by") == "rules" and c.get("from_turn") == turn + 1:
                if not undone and isinstance(c.get("rules_before"), dict):
                    rules, undone = dict(c["rules_before"]), True  # as before the first
            elif c.get("from_turn", 0) > turn:
                kept.append(c)
                if undone:  # a GM's change made after it stays
                    rules = apply_rule_changes(rules, [c])
        changes = list(kept)
        at = datetime.now(timezone.utc).isoformat(timespec="seconds")
        for e in enacted:
            before = rules
            change = {"kind": "rules", "name": str(e["name"]), "value": e.get("value")}
            rules = apply_rule_changes(before, [change])
            changes.append({**change, "old": before.get(change["name"]), "from_turn": turn + 1,
                            "why": str(e.get("why", "")), "by": "rules", "at": at,
                            "rules_before": before, "rules_after": dict(rules)})
        if changes == self.recorded_changes() and rules == dict(config.get("rules", {})):
            return
        atomic_write(self.root / "pending" / CHANGES_FILE,
                     json.dumps(changes, indent=1, ensure_ascii=False).encode())
        self.store.write_config({**config, "rules": rules})
        self.config = GameStore.read_config(self.root)
        self.rules = self.ruleset.rules(self.config.get("rules", {}), lenient=True)

    def _record_change(self, change: dict[str, Any], config: Mapping[str, Any]) -> None:
        """Record a change for the coming turn, then write ``game.toml`` (under the lock)."""
        changes = [c for c in self.recorded_changes() if c.get("from_turn", 0) > self.latest_turn]
        atomic_write(self.root / "pending" / CHANGES_FILE,
                     json.dumps([*changes, change], indent=1, ensure_ascii=False).encode())
        self.store.write_config(config)
        self.config = GameStore.read_config(self.root)

    def change_player(self, action: str, player: str, fields: Mapping[str, Any],
                      why: str) -> dict[str, Any]:
        """Add, replace (a new person takes over, or a field changes) or remove a player of
        ``game.toml`` from the coming turn on, recorded with the reason and shown in the next
        turn's report. What the change does inside the game (a newcomer's first holdings, say)
        is the ruleset's: Cien's newcomers take a free colour with a Join order."""
        if not why.strip():
            raise GameError("say why the players change (--why): players see it in the report")
        if action not in ("add", "replace", "remove"):
            raise GameError(f"a player change is add, replace or remove, not {action!r}")
        with self.store.lock():
            config = GameStore.read_config(self.root)
            players = [dict(p) for p in config.get("players", [])]
            ids = [str(p.get("id")) for p in players]
            if action == "add":
                if player in ids:
                    raise GameError(f"player '{player}' is in the game already")
                players.append({"id": player, **fields})
                what = f"{player} joins" + (f" ({fields['name']})" if "name" in fields else "")
            elif player not in ids:
                raise GameError(f"no player '{player}' (players: {', '.join(ids)})")
            elif action == "replace":
                i = ids.index(player)
                old = players[i]
                players[i] = {**old, **fields, "id": player}
                what = f"{player}: " + ", ".join(f"{k} {old.get(k)!r} -> {v!r}"
                                                 for k, v in fields.items())
            else:
                players = [p for p in players if str(p.get("id")) != player]
                what = f"{player} leaves the game"
            self.players_from_config({"players": players})
            change = {"kind": "players", "action": action, "player": player, "what": what,
                      "from_turn": self.next_turn, "why": why.strip(),
                      "at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                      "players_before": config.get("players", []), "players_after": players}
            self._record_change(change, {**config, "players": players})
        return change

    def set_rule(self, name: str, value: Any, why: str) -> dict[str, Any]:
        """Change a rule (a house rule) from the coming turn on, recorded with the reason: the
        turn's manifest and its GM report show it, and ``verify`` replays earlier turns with
        their own rules. ``value`` None restores the ruleset's default."""
        if not why.strip():
            raise GameError("say why the rule changes (--why): players see it in the report")
        with self.store.lock():
            config = GameStore.read_config(self.root)
            old = dict(config.get("rules", {})).get(name)
            rules = apply_rule_changes(config.get("rules", {}),
                                       [{"kind": "rules", "name": name, "value": value}])
            try:
                found = self.ruleset.rules(rules, lenient=True).problems.get(name)
            except ValueError as e:
                raise GameError(str(e)) from None
            if found is not None:
                raise GameError(found)  # the rule changed; others already wrong stay listed
            change = {"kind": "rules", "name": name, "value": value, "old": old,
                      "from_turn": self.next_turn, "why": why.strip(),
                      "at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                      "rules_before": dict(config.get("rules", {})), "rules_after": rules}
            self._record_change(change, {**config, "rules": rules})
        self.rules = self.ruleset.rules(self.config.get("rules", {}), lenient=True)
        return change
