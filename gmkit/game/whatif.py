"""What if: a committed turn resolved again with one thing changed, and what would have differed.

A GM weighing a ruling, or a player saying "that's not what I ordered", asks what the turn would
have been with a post replaced, added or withdrawn (or one of its lines), other dice entered, or a
rule set otherwise. gmkit keeps every input of every turn and resolves deterministically
(:mod:`gmkit.game.verify` re-resolves every turn from them), so the answer is the turn resolved again
from its recorded seed, posts, entered dice, rules, players and board with the change made::

    result = what_if(game, 4, Changes(withdraw=((23, 2),)))
    result.tables["armies"]       # the rows only the recorded turn has, and only the what-if's
    result.events_added, result.events_removed, result.outcome
    result.later                  # the first later turn whose result would differ, and how

Nothing is written in the game folder: no seed is made, no post stored, no lock taken. The turns
after the one changed are replayed with their own recorded posts, seeds, dice and rules (a rule
changed holds from the changed turn on) on the changed state, up to the first whose state,
events or outcome would differ from the recorded one.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from gmkit.core.beacon import Beacon
from gmkit.core.orders import _STATE_TOKEN, ParseResult  # _STATE_TOKEN: the tags that shape a post
from gmkit.core.names import visible
from gmkit.core.params import Params, apply_rule_changes
from gmkit.core.ruleset import recorded_version
from gmkit.core.files import atomic_write, parquet_bytes
from gmkit.core.store import GameStore, TurnData
from gmkit.core.files import StoreError
from gmkit.core.tables import State
from gmkit.core.dice import DiceError, parse_entered
from gmkit.core.views import Viewer
from gmkit.core.table_diff import changes
from gmkit.game.changes import GameError, enacted_record
from gmkit.game.game import Game
from gmkit.game.reading import reading

__all__ = ["Changes", "Difference", "WhatIf", "changed_rows", "describe", "field_changes", "maps",
           "open_game",
           "panel_changes", "parse_rule", "parse_withdraw", "summary", "what_if",
           "write_out"]

#: The column telling which side a changed row is from.
SIDE = "side"
RECORDED, WHAT_IF = "recorded", "what if"


@dataclass(frozen=True)
class Changes:
    """What the GM changes in a turn's recorded inputs: ``replace`` a post's text (by its
    sequence number), ``add`` posts (player, text), ``withdraw`` a post (``(seq, None)``) or one
    of its lines (``(seq, line)``, 1-based as order problems number them), enter ``dice``
    (draw id to value, over the recorded ones) and set ``rules`` (name to value; None restores
    the default) from this turn on."""

    replace: Mapping[int, str] = field(default_factory=dict)
    add: Sequence[tuple[str, str]] = ()
    withdraw: Sequence[tuple[int, int | None]] = ()
    dice: Mapping[str, Any] = field(default_factory=dict)
    rules: Mapping[str, Any] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        """True when nothing is changed (the turn resolves to what was recorded)."""
        return not (self.replace or self.add or self.withdraw or self.dice or self.rules)


@dataclass(frozen=True)
class Difference:
    """How one turn resolved with the changes differs from the recorded turn: per state table
    the rows only one side has (column ``side``: ``recorded`` or ``what if``), the events added
    and removed, and the outcome on each side."""

    turn: int
    tables: dict[str, pl.DataFrame]
    events_added: pl.DataFrame
    events_removed: pl.DataFrame
    outcome: tuple[str | None, str | None]
    #: Why the turn could not be resolved on the changed state (None: it was).
    failed: str | None = None

    @property
    def same(self) -> bool:
        """True when nothing differs."""
        return (self.failed is None and not self.tables and self.events_added.is_empty()
                and self.events_removed.is_empty() and self.outcome[0] == self.outcome[1])


@dataclass(frozen=True)
class WhatIf:
    """A turn resolved again with :class:`Changes`: the ``recorded`` turn, the ``resolved``
    one, the posts it read, each changed player's order problems, the ``difference``, and the
    first ``later`` turn that would differ (None: none would, or they were not replayed;
    ``replayed`` counts the later turns resolved to find it)."""

    turn: int
    changes: Changes
    recorded: TurnData
    resolved: TurnData
    before: State
    posts: pl.DataFrame
    problems: dict[str, list[str]]
    unused_dice: list[str]
    difference: Difference
    later: Difference | None
    replayed: int
    #: Whether the turns after were replayed at all (``what_if(..., later=False)``: not).
    looked_later: bool = True

    @property
    def tables(self) -> dict[str, pl.DataFrame]:
        """Each state table's changed rows (only the tables that changed)."""
        return self.difference.tables

    @property
    def events_added(self) -> pl.DataFrame:
        """Events the changed turn has and the recorded one does not."""
        return self.difference.events_added

    @property
    def events_removed(self) -> pl.DataFrame:
        """Events the recorded turn has and the changed one does not."""
        return self.difference.events_removed

    @property
    def outcome(self) -> tuple[str | None, str | None]:
        """The recorded outcome and the changed turn's (None: the game goes on)."""
        return self.difference.outcome


class _Reading(Game):
    """A game opened to be read only: a command interrupted between its two writes (a rule or
    player change recorded, ``game.toml`` not yet written) is left for the next command to
    complete, since a what-if resolves with what each turn recorded."""

    def _complete_change(self) -> None:
        pass

    def _complete_enacted(self) -> None:
        pass


def open_game(root: str | Path) -> Game:
    """Open a game folder for a what-if without writing in it (:class:`Game` completes an
    interrupted command when it opens a folder; this leaves it be)."""
    try:
        interrupted = GameStore(root).rollback_pending()
    except StoreError as e:
        raise GameError(str(e)) from None
    if interrupted:
        raise GameError(f"{root}: a rollback was interrupted; run any other gmkit command "
                        "(gmkit status) to complete it, then ask again")
    return _Reading(root)


# -- reading a GM's changes ----------------------------------------------------------------------

def parse_rule(item: str) -> tuple[str, Any]:
    """``NAME=VALUE`` as ``gmkit rules --set`` reads it: a TOML value (3, 0.5, true, "x"), else
    the text as written."""
    name, sep, raw = item.partition("=")
    if not sep or not name.strip():
        raise GameError(f"--rule {item!r}: write NAME=VALUE")
    try:
        value = tomllib.loads(f"v = {raw.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw.strip()
    return name.strip(), value


def parse_withdraw(item: str) -> tuple[int, int | None]:
    """``SEQ`` (a whole post) or ``SEQ:LINE`` (one line of it) as numbers."""
    match = re.fullmatch(r"\s*#?(\d+)\s*(?::\s*(\d+)\s*)?", item)
    if match is None:
        raise GameError(f"--withdraw {item!r}: write a post's number, or POST:LINE (e.g. 23:2)")
    return int(match[1]), int(match[2]) if match[2] else None


def _without_line(text: str, line: int, seq: int) -> str:
    """A post's text with one line's words taken out: its bold and quote tags stay, so every
    other line reads and is numbered as before."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not 1 <= line <= len(lines):
        raise GameError(f"post #{seq} has lines 1 to {len(lines)}, not {line}")
    lines[line - 1] = "".join(m.group(0) for m in _STATE_TOKEN.finditer(lines[line - 1]))
    return "\n".join(lines)


def changed_posts(game: Game, posts: pl.DataFrame, before: State,
                  changes: Changes) -> pl.DataFrame:
    """The posts a turn read, with the changes made (checked: each post named is one of the
    turn's, each player one who may post)."""
    seqs = [int(s) for s in posts["seq"].to_list()]
    listed = ", ".join(f"#{s}" for s in seqs) or "none"

    def known(seq: int) -> None:
        if seq not in seqs:
            raise GameError(f"post #{seq} is not one this turn read (its posts: {listed})")

    rows = {int(r["seq"]): dict(r) for r in posts.iter_rows(named=True)}
    for seq, text in changes.replace.items():
        known(seq)
        rows[seq]["text"] = text
    gone: set[int] = set()
    for seq, line in changes.withdraw:
        known(seq)
        if line is None:
            gone.add(seq)
        else:
            rows[seq]["text"] = _without_line(rows[seq]["text"], line, seq)
    ids = game.player_ids(before)
    top = max(seqs, default=0)
    last = max((r["received"] for r in rows.values() if r["received"]), default="")
    for player, text in changes.add:
        match = [p for p in ids if p.casefold() == player.strip().casefold()]
        newcomer = [r["player"] for r in rows.values()
                    if r["player"].casefold() == player.strip().casefold()]
        joins = game.ruleset.lifecycle.joins
        if not match and (newcomer or (joins is not None and joins(game.ruleset.parse_post(
                text, player.strip(), before, game.context())))):
            match = newcomer or [player.strip()]  # a post that makes its poster a player
        if not match:
            raise GameError(f"--add: no player '{player}' (players: {', '.join(ids)})")
        top += 1  # after every post of the turn, received with its last
        rows[top] = {"seq": top, "player": match[0], "secret": False, "received": last,
                     "text": text, "posted": None}
    kept = [r for s, r in sorted(rows.items()) if s not in gone]
    return pl.DataFrame(kept, schema=posts.schema, orient="row") if kept else posts.clear()


# -- comparing -----------------------------------------------------------------------------------

def _keyed(df: pl.DataFrame) -> pl.DataFrame:
    """Each row with two hashes of it (two seeds: no two rows of a game's tables collide) and
    its count among equal rows (so repeated rows match one to one)."""
    return df.with_columns(df.hash_rows(0).alias("_h"), df.hash_rows(1).alias("_g")) \
        .with_columns(pl.int_range(pl.len()).over("_h", "_g").alias("_n"))


def only_in(a: pl.DataFrame, b: pl.DataFrame) -> pl.DataFrame:
    """The rows of ``a`` that ``b`` does not have (as many times as ``a`` has them more)."""
    if a.schema != b.schema:
        try:
            b = b.select(a.columns).cast(a.schema)
        except (pl.exceptions.PolarsError, KeyError):
            return a  # no row can match across two shapes
    on = ["_h", "_g", "_n"]
    return _keyed(a).join(_keyed(b).select(on), on=on, how="anti").drop(on)


def changed_rows(recorded: pl.DataFrame, resolved: pl.DataFrame) -> pl.DataFrame | None:
    """The rows only one of two versions of a table has, with a ``side`` column first
    (``recorded`` or ``what if``); None when they are equal."""
    if recorded.schema == resolved.schema and recorded.equals(resolved):
        return None
    gone, new = only_in(recorded, resolved), only_in(resolved, recorded)
    if gone.is_empty() and new.is_empty():
        return None  # the same rows in another order
    side = pl.Enum([RECORDED, WHAT_IF])
    return pl.concat([gone.select(pl.lit(RECORDED, side).alias(SIDE), pl.all()),
                      new.select(pl.lit(WHAT_IF, side).alias(SIDE), pl.all())],
                     how="diagonal_relaxed")


def difference(turn: int, recorded: TurnData, resolved: TurnData) -> Difference:
    """How ``resolved`` differs from ``recorded`` (the same turn)."""
    tables = {}
    for name in dict.fromkeys([*recorded.state.tables, *resolved.state.tables]):
        rows = changed_rows(recorded.state.tables.get(name, pl.DataFrame()),
                            resolved.state.tables.get(name, pl.DataFrame()))
        if rows is not None:
            tables[name] = rows
    return Difference(turn, tables, only_in(resolved.events, recorded.events),
                      only_in(recorded.events, resolved.events),
                      (recorded.outcome or None, resolved.outcome or None))


# -- resolving -----------------------------------------------------------------------------------

def _recorded_rules(game: Game, manifest: Mapping[str, Any]) -> dict[str, Any]:
    """The rule overrides a turn was resolved with (today's for a turn that recorded none)."""
    rules = manifest.get("rules")
    return dict(rules) if isinstance(rules, dict) else dict(game.config.get("rules", {}))


def _params(game: Game, rules: Mapping[str, Any], turn: int,
            manifest: Mapping[str, Any]) -> Params:
    """The rules a turn is resolved again with: ``rules`` under the ruleset version the turn
    was resolved with where this gmkit keeps it (else today's)."""
    try:
        kept = game.ruleset.rules_of_version(recorded_version(manifest), dict(rules))
        return kept if kept is not None else game.ruleset.rules(dict(rules))
    except ValueError as e:
        raise GameError(f"turn {turn}: {e}") from None


def _inputs(game: Game, turn: int) -> tuple[TurnData, str, Beacon | None, dict[str, Any]]:
    """A committed turn, its seed, its beacon and its manifest."""
    try:
        data = game.turn(turn)
        manifest = game.store.manifest(turn)
    except StoreError as e:
        raise GameError(str(e)) from None
    seed = game.store.read_seed(turn)
    if seed is None:
        raise GameError(f"turn {turn} has no seed kept: it cannot be resolved again")
    beacon = Beacon.from_dict(manifest["beacon"]) if "beacon" in manifest else None
    return data, seed, beacon, manifest


def _enacted_delta(recorded: Sequence[Mapping[str, Any]], resolved: Sequence[Mapping[str, Any]],
                   rules_then: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The rule changes that turn the rules the recorded turn enacted into those the changed
    turn enacts (for the turns after it)."""
    if list(recorded) == list(resolved):
        return []
    out = [{"kind": "rules", "name": str(c["name"]), "value": rules_then.get(str(c["name"]))}
           for c in recorded]
    return out + [{"kind": "rules", "name": str(c["name"]), "value": c.get("value")}
                  for c in resolved]


def what_if(game: Game, turn: int, changes: Changes, *, later: bool = True) -> WhatIf:
    """Turn ``turn`` resolved again from its recorded inputs with ``changes`` made, compared
    with what was recorded; with ``later``, the turns after it replayed on the changed state up
    to the first whose result would differ. Reads the game folder only."""
    turns = game.store.turns()
    if turn not in turns:
        raise GameError(f"turn {turn} is not committed (turns {turns[0]} to {turns[-1]})"
                        if turns else "no turn is committed")
    if turn == 0:
        raise GameError("turn 0 is the set-up: there is no turn to resolve again")
    recorded, seed, beacon, manifest = _inputs(game, turn)
    before = game.state(turn - 1)
    rule_changes = [{"kind": "rules", "name": n, "value": v} for n, v in changes.rules.items()]
    rules = _params(game, apply_rule_changes(_recorded_rules(game, manifest), rule_changes), turn,
                    manifest)
    posts = changed_posts(game, recorded.orders, before, changes)
    entered = {**recorded.entered, **changes.dice}
    session = game._session(before, posts, seed, turn, entered, rules, beacon,
                            roster=game.roster(turn))
    resolved = game._turn_data(session)
    changed_players = ({str(r["player"]) for r in recorded.orders.iter_rows(named=True)
                        if int(r["seq"]) in {*changes.replace, *(s for s, _ in changes.withdraw)}}
                       | {str(p) for p in posts["player"].to_list()
                          if str(p).casefold() in {a.casefold() for a, _ in changes.add}})
    problems = {p: reading(session.parsed.get(p, ParseResult()),
                           session.problems.get(p, [])).rejections()
                for p in sorted(changed_players)}
    problems = {p: errs for p, errs in problems.items() if errs}
    diff = difference(turn, recorded, resolved)
    first, replayed = None, 0
    if later and not (diff.same and not rule_changes):
        delta = _enacted_delta(manifest.get("enacted", []),
                               enacted_record(game.ruleset, session.driver.start, resolved.state,
                                              game.context(rules)), _recorded_rules(game, manifest))
        first, replayed = _first_later(game, turn, recorded.state, resolved.state,
                                       [*rule_changes, *delta])
    return WhatIf(turn, changes, recorded, resolved, before, posts, problems,
                  session.unused_entered, diff, first, replayed, later)


def _first_later(game: Game, turn: int, prev: State, state: State,
                 rule_changes: list[dict[str, Any]]) -> tuple[Difference | None, int]:
    """The first turn after ``turn`` whose result, replayed with its recorded inputs on
    ``state`` (where the record has ``prev``), differs from the recorded one; and how many
    turns were replayed."""
    replayed = 0
    for t in [t for t in game.store.turns() if t > turn]:
        if not rule_changes and state.tables.keys() == prev.tables.keys() and all(
                state.tables[n].equals(prev.tables[n]) for n in prev.tables):
            return None, replayed  # back on the recorded course: nothing after differs
        recorded, seed, beacon, manifest = _inputs(game, t)
        rules = _params(game, apply_rule_changes(_recorded_rules(game, manifest), rule_changes),
                        t, manifest)
        replayed += 1
        try:
            again = game.resolve_again(state, recorded.orders, seed, t, recorded.entered, rules,
                                       beacon)
        except (ValueError, KeyError, StoreError) as e:
            empty = recorded.events.clear()
            return Difference(t, {}, empty, empty, (recorded.outcome, None), str(e)), replayed
        diff = difference(t, recorded, again)
        if not diff.same:
            return diff, replayed
        state, prev = again.state, recorded.state
    return None, replayed


# -- showing and writing -------------------------------------------------------------------------

def maps(game: Game, result: WhatIf, view: str | Viewer = "gm") -> tuple[str | None, str | None]:
    """The map after the recorded turn and after the changed one, as SVG (None without a
    map), as ``view`` may see them; the two share one extent."""
    viewer = Viewer.parse(view) if isinstance(view, str) else view
    states = {label: game.viewed(state, viewer)
              for state, label in ((result.recorded.state, "as recorded"),
                                   (result.resolved.state, "what if"))}
    out = []
    for label, state in states.items():
        out.append(game.map_svg(state, title=f"{game.title} \u2014 turn {result.turn}, {label}",
                                along=[s for other, s in states.items() if other != label]))
    return out[0], out[1]


def panel_changes(seq: int | None, recorded_text: str, text: str, withdrawn: bool, rule: str,
                  dice: str) -> Changes:
    """The changes a what-if panel's fields ask for: post ``seq`` withdrawn, or replaced when
    its ``text`` is not the ``recorded_text``; a rule (``NAME=VALUE``, blank: none); dice
    entered (one ``draw-id = value`` per line)."""
    try:
        entered = parse_entered(dice)
    except DiceError as e:
        raise GameError(f"dice entered: {e}") from None
    post: dict[str, Any] = {}
    if seq is not None and withdrawn:
        post["withdraw"] = ((seq, None),)
    elif seq is not None and text != recorded_text:
        post["replace"] = {seq: text}
    return Changes(dice=entered, rules=dict([parse_rule(rule)]) if rule.strip() else {}, **post)


def check_out(game: Game, out: str | Path) -> Path:
    """``out`` as a folder a what-if may be written into, checked before anything is resolved:
    never in the game folder, a folder or nothing yet (not a file), under a folder that can be
    written."""
    out = Path(out)
    if out.resolve().is_relative_to(game.root.resolve()):
        raise GameError(f"{out}: write a what-if outside the game folder")
    if out.exists() and not out.is_dir():
        raise GameError(f"{out}: exists and is not a folder; --out names the folder a what-if's "
                        "files go into")
    have = next(p for p in (out.absolute(), *out.absolute().parents) if p.exists())
    if not have.is_dir():
        raise GameError(f"{have}: is not a folder, so {out} cannot be made")
    if not os.access(have, os.W_OK | os.X_OK):
        raise GameError(f"{have}: cannot be written, so {out} cannot be made")
    return out


def write_out(game: Game, result: WhatIf, out: str | Path) -> list[Path]:
    """Write the changed turn (``state/<table>.parquet``, ``orders``, ``rolls``, ``events``),
    what differs (``changed/<table>.parquet``, ``events_added``, ``events_removed``; the same
    under ``later/`` for the first later turn that differs) as Parquet, and the map as recorded
    and as it would have been (``map-recorded.svg``, ``map-whatif.svg``, the GM's view) into
    ``out``, a folder outside the game folder."""
    out = check_out(game, out)
    files: dict[str, pl.DataFrame] = {
        **{f"state/{name}.parquet": df for name, df in result.resolved.state.tables.items()},
        "orders.parquet": result.resolved.orders, "rolls.parquet": result.resolved.rolls,
        "events.parquet": result.resolved.events}
    for where, diff in (("", result.difference), ("later/", result.later)):
        if diff is not None:
            files.update({f"{where}changed/{name}.parquet": df
                          for name, df in diff.tables.items()})
            files[f"{where}events_added.parquet"] = diff.events_added
            files[f"{where}events_removed.parquet"] = diff.events_removed
    written = []
    for rel, df in files.items():
        atomic_write(out / rel, parquet_bytes(df))
        written.append(out / rel)
    for name, svg in zip(("map-recorded.svg", "map-whatif.svg"), maps(game, result)):
        if svg is not None:
            atomic_write(out / name, svg.encode("utf-8"))
            written.append(out / name)
    return written


def field_changes(rows: pl.DataFrame) -> pl.DataFrame:
    """A table's changed rows (:func:`changed_rows`) as text rows ``[key,] field, recorded,
    what if`` (see :func:`gmkit.core.table_diff.changes`): the rows named by the table's
    leading key columns (a province, a hex's ``q, r``), each differing field on its own row;
    a row only one side has on one line, its fields by name."""
    cols = [c for c in rows.columns if c != SIDE]
    recorded = rows.filter(pl.col(SIDE) == RECORDED).select(cols)
    what_if = rows.filter(pl.col(SIDE) == WHAT_IF).select(cols)
    found = changes(recorded, what_if, sides=(RECORDED, WHAT_IF), whole=False) \
        if cols else None
    return found if found is not None else pl.DataFrame(
        schema={"field": pl.String, RECORDED: pl.String, WHAT_IF: pl.String})


def _events_lines(events: pl.DataFrame, sign: str) -> list[str]:
    return [f"  {sign} [{r['kind']}] " + (f"{r['player']}: " if r["player"] else "") + r["text"]
            for r in events.iter_rows(named=True)]


def _difference_lines(diff: Difference) -> list[str]:
    if diff.failed is not None:
        return [f"  it could not be resolved on the changed state: {diff.failed}"]
    lines = []
    for name, rows in diff.tables.items():
        lines.append(f"table {name}:")
        for *key, what, was, now in field_changes(rows).iter_rows():
            lines.append(f"  {key[0] + ' ' if key else ''}{what}: {was} -> {now}")
    if not diff.events_added.is_empty() or not diff.events_removed.is_empty():
        lines.append(f"events: {diff.events_added.height} added (+), "
                     f"{diff.events_removed.height} removed (-)")
        lines += _events_lines(diff.events_removed, "-") + _events_lines(diff.events_added, "+")
    was, now = diff.outcome
    lines.append(f"outcome: {was or 'the game goes on'}" if was == now else
                 f"outcome: {was or 'the game goes on'} -> {now or 'the game goes on'}")
    return lines


def describe(result: WhatIf) -> list[str]:
    """What the changed turn would have differed in, as lines for a terminal: order problems
    of the changed posts, entered dice no draw used, each table's changed fields, the events
    added and removed, the outcome, and the first later turn that would differ. Invisible
    characters (ESC, bidi marks) are written as their escapes."""
    lines = [f"turn {result.turn} resolved again with: {summary(result.changes)}"]
    for player, errs in result.problems.items():
        lines += [f"order problem ({player}): {e}" for e in errs]
    if result.unused_dice:
        lines.append(f"entered dice no draw used: {', '.join(result.unused_dice)}")
    if result.difference.same:
        lines.append("nothing would have differed: the same state, events and outcome")
    else:
        lines += _difference_lines(result.difference)
    if result.later is not None:
        lines.append(f"later: turn {result.later.turn} is the first whose result would differ "
                     f"({result.replayed} later turn(s) replayed with their recorded posts)")
        lines += ["  " + line for line in _difference_lines(result.later)]
    elif result.looked_later and (result.replayed or not result.difference.same):
        lines.append(f"later: no later turn would differ ({result.replayed} replayed with their "
                     "recorded posts)")
    return [visible(line) for line in lines]  # a player's text never drives the terminal


def summary(changes: Changes) -> str:
    """The changes in a few words (``post #23 withdrawn; rule x = 3``)."""
    parts = [f"post #{s} replaced" for s in changes.replace]
    parts += [f"a post of {p} added" for p, _ in changes.add]
    parts += [f"post #{s} withdrawn" if line is None else f"line {line} of post #{s} withdrawn"
              for s, line in changes.withdraw]
    parts += [f"die {k} = {v!r}" for k, v in changes.dice.items()]
    parts += [f"rule {k} = {v!r}" if v is not None else f"rule {k} at its default"
              for k, v in changes.rules.items()]
    return "; ".join(parts) or "nothing changed"
