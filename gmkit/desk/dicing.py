"""The desk's dice: the seed's commitment and its guard (deadline, seal, beacon), the draws of
the turn being resolved, and the dice the GM enters for them (checked against each draw, kept
in the store so that they survive a restart)."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

import polars as pl

from gmkit.core.dice import Dice, DiceError, Roll, check_entered, parse_die_value
from gmkit.core.steps import Driver
from gmkit.core.files import StoreError
from gmkit.game import GameError
from gmkit.game.turnreading import bearing_on
from gmkit.desk.copies import DeskError
from gmkit.desk.views import _DICE_SCHEMA, StepView, _dice_frame

def _parse_value(value: Any) -> Any:
    try:
        return parse_die_value(value)
    except DiceError as e:
        raise DeskError(str(e)) from None
from gmkit.desk.part import DeskPart


def _check_value(roll: Roll, value: Any) -> None:
    """Check an entered value against a known draw; raise DeskError naming the draw and die."""
    try:
        check_entered(roll, value)
    except DiceError as e:
        raise DeskError(str(e)) from None



class DeskDice(DeskPart):
    """The dice of a :class:`~gmkit.desk.Desk` (the part of the desk that handles them)."""

    def _saved_dice(self) -> dict[str, Any]:
        try:
            return self.game.store.pending_dice(self.turn)
        except StoreError as e:
            raise DeskError(str(e)) from None

    def _save_dice(self, entered: Mapping[str, Any]) -> None:
        self.game.store.save_pending_dice(self.turn, entered)

    # -- seeds -----------------------------------------------------------------------------------
    def commitment(self) -> str:
        """The dice commitment to post before resolving this turn (makes the seed if needed)."""
        try:
            return self.game.commitment()
        except (GameError, StoreError, OSError) as e:
            raise DeskError(f"no commitment: {e}") from None

    # -- guarding the dice: deadline, seal, beacon ------------------------------------------------
    def dice_guard(self) -> list[str]:
        """What guards this turn's dice, a line each: its commitment, order deadline and, in a
        game mixing its dice with a beacon, its seal and beacon (or what is still to do)."""
        got = self.game.coming_dice()
        lines = [f"Commitment: {got['commitment'] or 'not made yet'}",
                 "Order deadline: " + (got["deadline"]["deadline"] if got["deadline"] else
                                       "not set")]
        if got["beacon_kind"] is not None:
            lines.append("Seal: " + (f"{got['seal']['digest']} ({len(got['seal']['posts'])} "
                                     "post(s))" if got["seal"] else
                                     "not sealed yet (seal after the deadline, before the "
                                     "beacon round)"))
            lines.append(f"Beacon ({got['beacon_kind']}): " + (
                f"{got['beacon']['beacon']['source']} round {got['beacon']['beacon']['round']}"
                if got["beacon"] else "not entered yet"))
        return lines

    def set_deadline(self, time: str) -> str:
        """Set this turn's order deadline (ISO 8601 with its zone); what was set, in words."""
        try:
            entry = self.game.set_deadline(str(time or "").strip())
        except (GameError, StoreError, OSError, ValueError) as e:
            raise DeskError(f"deadline not set: {e}") from None
        return f"Turn {self.turn}'s order deadline is {entry['deadline']}."

    def seal(self) -> str:
        """Seal this turn on the posts in and the dice entered so far (before the beacon
        round); the seal's digest, to post."""
        try:
            entry = self.game.seal(self._saved_dice())
        except (GameError, StoreError, OSError, ValueError) as e:
            raise DeskError(f"not sealed: {e}") from None
        return (f"Turn {self.turn} sealed on {len(entry['posts'])} post(s) and "
                f"{len(entry['entered'])} entered dice: post the seal {entry['digest']}.")

    def enter_beacon(self, *, round: str = "", randomness: str = "", signature: str = "",
                     source: str = "", value: str = "") -> str:
        """Enter this turn's beacon: a drand round and its signature (checked offline), or a
        named source and its value."""
        try:
            entry = self.game.enter_beacon(
                round=round.strip() or None, randomness=randomness.strip() or None,
                signature=signature.strip() or None, source=source.strip() or None,
                value=value if source.strip() else None)
        except (GameError, StoreError, OSError, ValueError) as e:
            raise DeskError(f"beacon refused: {e}") from None
        self.session = None  # the turn now resolves with the beacon-mixed seed
        self._forget()
        got = entry["beacon"]
        return (f"Turn {self.turn}'s beacon: {got['source']} round {got['round']} "
                f"({'signature checked' if got['check'] != 'entered' else 'entered'}).")

    # -- dice ------------------------------------------------------------------------------------
    def entered(self) -> dict[str, Any]:
        """The dice entered for this turn so far."""
        session = self._live_session()
        return dict(session.entered) if session else self._saved_dice()

    def _all_rolls(self) -> list[Roll]:
        """Every draw of the whole turn with the current orders and entered dice (resolved on
        the side; the turn's own position does not move)."""
        session = self._ensure()
        driver = session.driver
        key = tuple(sorted((k, repr(v)) for k, v in driver.dice.entered.items()))
        if self._shadow is not None and self._shadow[0] is driver.orders \
                and self._shadow[1] == key:
            return self._shadow[2]
        self._shadow_run()
        assert self._shadow is not None
        return self._shadow[2]

    def _shadow_run(self) -> None:
        """Resolve the whole turn on the side with the current orders and entered dice; keep
        its draws and how many units it ran."""
        driver = self._ensure().driver
        key = tuple(sorted((k, repr(v)) for k, v in driver.dice.entered.items()))
        if driver.done:  # the turn itself has run whole: the same draws, no second run
            self._shadow = (driver.orders, key, driver.rolls, len(driver.records))
            return
        shadow = Driver(driver.steps, driver.start, driver.orders,
                        Dice(driver.dice.seed, driver.dice.turn, entered=dict(driver.dice.entered)),
                        driver.rules, driver.rules_at)
        try:
            shadow.run_all()
        except DiceError:
            pass
        self._shadow = (driver.orders, key, shadow.rolls, len(shadow.records))

    def unit_count(self) -> int:
        """How many units the GM steps through this turn as the orders and dice stand now:
        each step, and for a step taken in turns the fixing of its order and each actor's
        action (what :meth:`step` runs one at a time). Before the first step it starts the
        turn; a game that is over counts its steps."""
        session = self._live_session()
        if session is None:
            try:
                session = self._ensure()
            except DeskError:
                return len(self.game.ruleset.steps(self.game.context()))
        self._all_rolls()
        assert self._shadow is not None
        return max(self._shadow[3], len(session.driver.records))

    def draws(self) -> pl.DataFrame:
        """Every draw the turn makes (as resolved now): step, draw id, purpose, die, result,
        source; the ids to use with :meth:`enter_die`."""
        rolls = self._all_rolls()
        frame = _dice_frame(rolls)
        return frame.with_columns(pl.Series("step", [r.step for r in rolls], pl.String)).select(
            "step", *_DICE_SCHEMA)

    def enter_die(self, draw_id: str, value: Any) -> StepView | None:
        """Use a die rolled elsewhere for ``draw_id``; the steps run so far are replayed with it.

        The value is checked against the draw (an 11 on a d10 is refused, naming the draw and
        the die); on any error nothing changes."""
        session = self._ensure()
        draw_id = str(draw_id or "").strip()
        if not draw_id:
            raise DeskError("enter the draw id of the die (e.g. conquest:attack/Tróys/Red)")
        value = _parse_value(value)
        rolls = {r.draw_id: r for r in self._all_rolls()}
        rolls.update({r.draw_id: r for r in session.driver.rolls})
        # a single die answers to its logged "<id>#0" and to the bare "<id>" of older dice files
        known = {k: r for r in rolls.values() for k in r.entry_ids}
        roll = known.get(draw_id)
        if roll is None:
            close = difflib.get_close_matches(draw_id, list(rolls), n=3, cutoff=0.6)
            hint = f"; did you mean {' or '.join(close)}?" if close else \
                f" (draws: {', '.join(list(rolls)[:8])}{', ...' if len(rolls) > 8 else ''})"
            raise DeskError(f"no draw '{draw_id}' in turn {self.turn}{hint}")
        _check_value(roll, value)
        entered = {k: v for k, v in session.entered.items() if k not in roll.entry_ids}
        entered[draw_id] = value
        self._apply_entered(entered)
        return self.current()

    def clear_die(self, draw_id: str) -> StepView | None:
        """Go back to the seeded die for ``draw_id``."""
        session = self._ensure()
        entered = dict(session.entered)
        roll = next((r for r in self._all_rolls() if draw_id in r.entry_ids), None)
        ids = [k for k in (roll.entry_ids if roll is not None else (draw_id,)) if k in entered]
        if not ids:
            raise DeskError(f"no die entered for '{draw_id}'")
        for k in ids:
            del entered[k]
        self._apply_entered(entered)
        return self.current()

    def _apply_entered(self, entered: dict[str, Any]) -> None:
        driver = self._ensure().driver
        old = dict(driver.dice.entered)
        steps_run = len(driver.records)
        driver.restart(entered=entered)
        self._forget()
        try:
            self._replay(steps_run)
            self._save_dice(entered)
        except (DiceError, OSError) as e:
            driver.restart(entered=old)
            self._forget()
            self._replay(steps_run)
            raise DeskError(f"{e}; the die was not entered") from None

    def odds(self) -> pl.DataFrame:
        """Exact odds of every contested action of the orders received so far."""
        session = self._live_session()
        if session is not None:
            return self.game.odds(session)
        coming = self.game.coming_reading()
        return self.game.ruleset.odds(coming.state, coming.orders, self.game.context())

    def odds_notes(self) -> list[str]:
        """The rejected orders the odds leave out, each named with the contest it bears on
        ("Coyons: Gold's line 2 rejected: over-spending ...")."""
        session = self._live_session()
        coming = session.reading if session is not None and session.reading is not None \
            else self.game.coming_reading()
        return bearing_on(self.odds(), coming)

    def problems(self) -> pl.DataFrame:
        """Every rejected line and validation problem of the posts that count: player, problem."""
        coming = self.game.coming_reading()
        rows = [(p, text) for p in sorted({*coming.parsed, *coming.problems})
                for text in coming.rejections(p)]
        return pl.DataFrame(rows, schema={"player": pl.String, "problem": pl.String},
                            orient="row")
