"""A turn report as BBCode forum posts, split into parts under a length limit; every string a
player wrote is escaped (:func:`bbcode_escape`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlsplit


from gmkit.core.cells import cell_text
from gmkit.core.report_model import (MIN_BBCODE_CHARS, VERIFY_SENTENCE, ZWSP, TurnReport,
                                     _seed_check, _source_label, safe_link, verify_message,
                                     view_report)


# --------------------------------------------------------------------------------------------
# BBCode
# --------------------------------------------------------------------------------------------

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_TAG = re.compile(r"\[(/?)(b|i|u|size|url|list|\*)(?:=[^\]\s]*)?\]")


def bbcode_escape(text: Any) -> str:
    """Neutralize untrusted text for BBCode: a zero-width space after every ``[`` and ``<``.

    ``[\\u200b/b]`` is not a tag to any BBCode parser, and ``<\\u200bscript>`` is not a tag to
    an HTML parser on forums that allow raw HTML, yet the text reads exactly the same. Unlike
    ``[noparse]`` this needs no forum support, and unlike entities (``&#91;``) it does not show
    up literally on forums that escape ``&``. Control characters are removed; line breaks are
    kept (see :func:`_bb_inline` for single-line fields).
    """
    s = str(text).replace("\r\n", "\n").replace("\r", "\n")
    s = _CONTROL.sub("", s)
    return s.replace("[", "[" + ZWSP).replace("<", "<" + ZWSP)


def _bb_inline(text: Any) -> str:
    """Escaped untrusted text on one line (line breaks become spaces)."""
    return " ".join(bbcode_escape(text).split("\n"))


def _bb_url(url: str) -> str | None:
    """``url`` percent-encoded so it cannot close a ``[url=...]`` tag, or None if unfit."""
    good = safe_link(url)
    if good is None or "[" in urlsplit(good).netloc:
        return None
    return quote(good, safe=":/?#@!$&'()*+,;=%-._~")


@dataclass
class _Block:
    """Groups of lines that belong together; ``opener``/``closer`` wrap them (a ``[list]``).

    A group (a paragraph, a list item with its continuation lines) is kept in one part when it
    fits in one; a block with ``keep_with_next`` (a heading) stays with what follows it.
    """

    groups: list[list[str]]
    opener: str = ""
    closer: str = ""
    keep_with_next: bool = False


@dataclass
class _Doc:
    blocks: list[_Block] = field(default_factory=list)

    def para(self, *lines: str, keep_with_next: bool = False) -> None:
        self.blocks.append(_Block([list(lines)], keep_with_next=keep_with_next))

    def heading(self, line: str) -> None:
        self.para(line, keep_with_next=True)

    def items(self, items: Iterable[list[str]]) -> None:
        groups = [item for item in items if item]
        if groups:
            self.blocks.append(_Block(groups, "[list]", "[/list]"))


def _item(first: str, more: Iterable[str] = ()) -> list[str]:
    """A ``[*]`` list item: its first line and continuation lines."""
    return ["[*]" + first, *more]


def _bbcode_doc(report: TurnReport, max_chars: int) -> _Doc:
    doc = _Doc()
    viewer = report.viewer
    public = viewer.is_public
    tag = "(private)" if viewer.is_player else "(GM only)"
    title = f"{_bb_inline(report.game_title)} \u2014 turn {report.turn}"
    meta = _bb_inline(report.ruleset_title)
    if report.revision:
        meta += f" \u00b7 revision {report.revision}"
    meta += " \u00b7 " + (
        "[b]Public[/b]" if public else
        f"[b]Private to {_bb_inline(viewer.player_id)} \u2014 send by private message, do not "
        "post[/b]" if viewer.is_player else "[b]GM only \u2014 do not post[/b]")
    doc.para(f"[size=150][b]{title}[/b][/size]", meta)
    if report.outcome:
        doc.para(f"[b]Outcome:[/b] {_bb_inline(report.outcome)}")
    if report.map_file:
        doc.para(f"[b]Map:[/b] attach {_bb_inline(report.map_file)}")

    for number, step in enumerate(report.steps, 1):
        head = f"[u][b]{number}. {_bb_inline(step.title)}[/b][/u]"
        if step.rule:
            head += f" [i]({_bb_inline(step.rule)})[/i]"
        doc.heading(head)
        events = []
        for ev in step.events:
            lines = bbcode_escape(ev.text).split("\n")
            first = ""
            if not ev.public:
                first += f"[b]{tag}[/b] "
            if ev.kind:
                first += f"[i]{_bb_inline(ev.kind)}:[/i] "
            first += lines[0]
            tail = []
            if ev.player:
                tail.append(f"\u2014 {_bb_inline(ev.player)}")
            if ev.rule:
                tail.append(f"[i]({_bb_inline(ev.rule)})[/i]")
            more = lines[1:]
            if tail:
                if more:
                    more[-1] += " " + " ".join(tail)
                else:
                    first += " " + " ".join(tail)
            events.append(_item(first, more))
        if not step.events and not step.rolls:
            doc.para("[i]Nothing to report.[/i]")
        doc.items(events)
        if step.rolls:
            doc.heading("[i]Dice[/i]")
            rolls = []
            for roll in step.rolls:
                line = f"[b]{tag}[/b] " if not roll.public else ""
                line += _bb_inline(roll.purpose)
                if roll.rule:
                    line += f" [i]({_bb_inline(roll.rule)})[/i]"
                line += f": {_bb_inline(roll.expression)} \u2192 [b]{_bb_inline(roll.result)}[/b]"
                src = _source_label(roll.source)
                line += " \u2014 " + (f"[b]{src}[/b]" if roll.source == "entered"
                                      else _bb_inline(src))
                line += f" \u00b7 {_bb_inline(roll.draw_id)}"
                rolls.append(_item(line))
            doc.items(rolls)

    if report.standings is not None:
        doc.heading("[u][b]Standings[/b][/u]")
        hidden = set(report.gm_only_columns)
        cols = [
            _bb_inline(c) + (f" {tag}" if c in hidden else "")
            for c in report.standings.columns
        ]
        doc.para("[i]" + " | ".join(cols) + "[/i]", keep_with_next=True)
        doc.items(
            _item(" | ".join(_bb_inline(cell_text(v)) for v in row))
            for row in report.standings.iter_rows()
        )

    if report.orders:
        doc.heading("[u][b]Orders received[/b][/u]")
        orders = []
        for order in report.orders:
            first = f"[b]{_bb_inline(order.player)}[/b]"
            if order.secret:
                first += " [i](secret)[/i]"
            more = [ln for ln in bbcode_escape(order.text).split("\n")]
            more += [f"[i]Problem:[/i] {_bb_inline(p)}" for p in order.problems]
            orders.append(_item(first + ":", more))
        doc.items(orders)

    doc.heading("[u][b]Dice verification[/b][/u]")
    lines = [
        "Seed commitment (sha256): "
        + (_bb_inline(report.seed_commitment) if report.seed_commitment else "[i]none posted[/i]"),
        "Revealed seed: " + (_bb_inline(report.seed) if report.seed else "[i]not yet revealed[/i]"),
    ]
    if report.record_hash:
        lines.append(f"Turn record: {_bb_inline(report.record_hash)} (previous: "
                     f"{_bb_inline(report.previous_hash or 'none')}); keep it to check later "
                     "that this history is still the game's")
    ok = _seed_check(report)
    if ok is True:
        lines.append("The revealed seed matches the commitment.")
    elif ok is False:
        lines.append("[b]The revealed seed does NOT match the commitment.[/b]")
    lines += _bb_fair_dice(report)
    lines.append(VERIFY_SENTENCE.format(cmd=f"[b]{_bb_inline(verify_message(report.turn))}[/b]"))
    doc.para(*lines)

    if report.links:
        doc.heading("[u][b]Links[/b][/u]")
        # The longest [url=...] tag that always fits on a wrapped line.
        limit = (max_chars - 60) // 2
        items = []
        for label, url in report.links:
            enc = _bb_url(url)
            if enc is not None and len(enc) + 6 <= limit:
                items.append(_item(f"[url={enc}]{_bb_inline(label)}[/url]"))
            else:
                items.append(_item(f"{_bb_inline(label)}: {_bb_inline(url)}"))
        doc.items(items)

    if report.changes:
        doc.heading("[u][b]Changes from this turn on[/b][/u]")
        doc.items(_item(_bb_inline(c)) for c in report.changes)
    if report.rules and not public:
        doc.heading("[u][b]Rules in force this turn[/b][/u]")
        doc.items(_item(_bb_inline(f"{n} = {v}" + (f" (default {d})" if v != d else "")
                                   + f" [{r}]")) for n, v, d, r in report.rules)
    if report.gm_notes and not public:
        doc.heading("[u][b]GM notes (not for publication)[/b][/u]")
        doc.items(_item(_bb_inline(n)) for n in report.gm_notes)
    return doc


def _bb_fair_dice(report: TurnReport) -> list[str]:
    """The dice guarantees of a turn and what it announces of the next, as BBCode lines."""
    out = [f"Guarantee: {_bb_inline(g)}" for g in report.guarantees]
    out += [f"[b]Warning:[/b] {_bb_inline(w)}" for w in report.dice_warnings]
    if report.seal:
        out.append(f"Seal (posts and entered dice, before the beacon): {_bb_inline(report.seal)}")
    if report.beacon:
        out.append(f"Beacon: {_bb_inline(report.beacon)}")
    if report.next_commitment:
        out.append(f"Turn {report.turn + 1} dice commitment (sha256): "
                   f"{_bb_inline(report.next_commitment)}")
        out += [f"[b]Replaced:[/b] {_bb_inline(r)}" for r in report.next_commitment_replaced]
    if report.next_deadline:
        out.append(f"Turn {report.turn + 1} order deadline: {_bb_inline(report.next_deadline)}")
    return out


def _closer(opener: str) -> str:
    name = opener[1:-1].split("=", 1)[0]
    return f"[/{name}]"


def _wrap(line: str, width: int) -> list[str]:
    """Hard-wrap one line to ``width`` characters, closing and reopening tags at each break."""
    if len(line) <= width:
        return [line]
    tokens: list[tuple[bool, str]] = []
    pos = 0
    for m in _TAG.finditer(line):
        if m.start() > pos:
            tokens.append((False, line[pos:m.start()]))
        tokens.append((True, m.group()))
        pos = m.end()
    if pos < len(line):
        tokens.append((False, line[pos:]))

    out: list[str] = []
    stack: list[str] = []
    chunk = ""
    has_text = False

    def closers(extra: Sequence[str] = ()) -> str:
        return "".join(_closer(t) for t in reversed([*stack, *extra]))

    def flush() -> None:
        nonlocal chunk, has_text
        out.append(chunk + closers())
        chunk = "".join(stack)
        has_text = False

    for is_tag, tok in tokens:
        if is_tag:
            if tok == "[*]":
                chunk += tok
            elif tok.startswith("[/"):
                if stack and not has_text and chunk.endswith(stack[-1]):
                    chunk = chunk[: -len(stack[-1])]  # an empty pair left by a break
                else:
                    chunk += tok
                if stack:
                    stack.pop()
            else:
                if has_text and len(chunk) + len(tok) + len(closers([tok])) + 1 > width:
                    flush()
                stack.append(tok)
                chunk += tok
            continue
        text = tok
        while text:
            room = width - len(chunk) - len(closers())
            if room <= 0:
                if not has_text:
                    raise ValueError(f"max_chars too small to wrap {line[:40]!r}")
                flush()
                continue
            if len(text) <= room:
                chunk += text
                has_text = True
                break
            cut = room
            space = text.rfind(" ", 0, cut)
            if space > cut // 2:
                cut = space + 1
            elif text[cut] == ZWSP and text[cut - 1] in "[<":
                cut -= 1  # never separate an escape from its bracket
            if cut <= 0:
                flush()
                continue
            chunk += text[:cut]
            has_text = True
            text = text[cut:]
            flush()
    if chunk.strip():
        out.append(chunk + closers())
    return [ln.rstrip() for ln in out]


def _size(lines: Sequence[str]) -> int:
    return sum(len(ln) for ln in lines) + max(len(lines) - 1, 0)


class _Part:
    """The lines of the part being filled, with their running size (:func:`_size` of them,
    kept as lines are added rather than summed again for every line)."""

    def __init__(self, lines: Sequence[str] = ()) -> None:
        self.lines: list[str] = []
        self.chars = 0
        self.add(lines)

    def add(self, lines: Sequence[str]) -> None:
        self.lines += lines
        self.chars += sum(len(ln) for ln in lines)

    def size_with(self, *more: Sequence[str]) -> int:
        """The part's size with ``more`` lines after it."""
        count = len(self.lines) + sum(len(m) for m in more)
        return self.chars + sum(len(ln) for m in more for ln in m) + max(count - 1, 0)


def _pack(blocks: Sequence[_Block], budget: int) -> list[list[str]]:
    """Lay blocks into parts of at most ``budget`` characters, breaking only between lines."""
    parts: list[list[str]] = []
    cur = _Part()

    def flush() -> None:
        nonlocal cur
        lines = cur.lines
        while lines and not lines[-1]:
            lines.pop()
        if lines:
            parts.append(lines)
        cur = _Part()

    wrapped: list[list[list[str]]] = []
    for block in blocks:
        overhead = (len(block.opener) + len(block.closer) + 2) if block.opener else 0
        width = budget - overhead
        if width < 40:
            raise ValueError("max_chars is too small for this report")
        wrapped.append([[w for ln in group for w in _wrap(ln, width)] for group in block.groups])

    def frame(block: _Block) -> tuple[list[str], list[str]]:
        return ([block.opener] if block.opener else []), ([block.closer] if block.closer else [])

    def head(index: int) -> list[str]:
        """The start of a block that must fit where it begins: its first group, or first line."""
        opener, closer = frame(blocks[index])
        first = wrapped[index][0]
        if _size(opener + first + closer) > budget:
            first = first[:1]
        return opener + first + closer

    for index, block in enumerate(blocks):
        opener, closer = frame(block)
        sep = [""] if cur.lines else []
        need = sep + head(index)
        if block.keep_with_next and index + 1 < len(blocks):
            need = sep + [ln for g in wrapped[index] for ln in g] + [""] + head(index + 1)
        if cur.lines and cur.size_with(need) > budget:
            flush()
        if cur.lines:
            cur.add([""])
        cur.add(opener)
        started = False
        for group in wrapped[index]:
            if started and cur.size_with(group, closer) > budget and (
                _size(opener + group + closer) <= budget  # keep the whole group together
                or (cur.size_with(group[:2], closer) > budget  # or at least its first two lines
                    and _size(opener + group[:2] + closer) <= budget)
            ):
                cur.add(closer)
                flush()
                cur = _Part(opener)
            for line in group:
                if cur.size_with([line], closer) > budget:
                    cur.add(closer)
                    flush()
                    cur = _Part(opener)
                cur.add([line])
                started = True
        cur.add(closer)
    flush()
    return parts


def render_bbcode(report: TurnReport, max_chars: int = 20000) -> list[str]:
    """The report as forum post(s) in BBCode, each at most ``max_chars`` characters.

    Tags used: ``[b]``, ``[i]``, ``[u]``, ``[list]``/``[*]``, ``[url=...]`` (only for
    ``http(s)`` links, percent-encoded so the url cannot close the tag) and ``[size=150]`` for the
    title only; no ``[table]`` (not universal) and no maps.

    Escaping: every untrusted string goes through :func:`bbcode_escape`, which inserts a
    zero-width space (U+200B) after every ``[`` and ``<``. The text reads the same but can never
    open or close a BBCode tag (``[/b]`` becomes ``[\\u200b/b]``), nor an HTML tag on forums
    that pass HTML through. Zero-width spaces count towards ``max_chars``.

    Splitting: parts break only between lines, never inside a tag pair; a ``[list]`` cut by a
    break is closed at the end of one part and reopened in the next, so every part's tags are
    balanced. A line longer than a part is hard-wrapped (at a space when one is near), its open
    tags closed and reopened around each break. With more than one part each starts with a line
    ``(part i/n)``.

    As in :func:`render_html`, a report in the public view is filtered by :func:`~gmkit.core.report_model.view_report`.
    """
    if report.view != "gm":
        report = view_report(report, report.view)  # idempotent; see render_html
    if max_chars < MIN_BBCODE_CHARS:
        raise ValueError(f"max_chars must be at least {MIN_BBCODE_CHARS}, not {max_chars}")
    blocks = _bbcode_doc(report, max_chars).blocks
    parts = _pack(blocks, max_chars)
    if len(parts) == 1:
        return ["\n".join(parts[0])]
    digits = 1
    while True:
        biggest = 10**digits - 1
        budget = max_chars - len(f"(part {biggest}/{biggest})") - 1
        parts = _pack(blocks, budget)
        if len(parts) <= biggest:
            break
        digits += 1
    n = len(parts)
    return ["\n".join([f"(part {i}/{n})", *lines]) for i, lines in enumerate(parts, 1)]


