"""The dice checker of a published site: one page a player opens offline that recomputes, in
the browser alone, every die the site prints.

The site's turn pages and its checker are made from one JSON document per viewer
(:func:`document`): for each turn, what its page prints of its dice (the commitment, the revealed
seed, the beacon mixed in, the turn record and the previous one, and every roll the viewer may
see: draw id, expression and result as printed). :func:`turn_entry` takes a turn's entry from its
report, :func:`apply_entry` puts an entry back into the report the turn page is drawn from, and
:func:`checker_page` writes the page that carries the document and the checker's script
(``templates/dicecheck.js``, WebCrypto HMAC-SHA256, the procedure of the README's "Verifiable
dice"). Opened from a file, a page cannot read its siblings, so the checker carries its own copy
of the document; it fetches nothing, and its Content-Security-Policy allows only its own script,
by hash.

The page's result, for programs: the element ``#verify-result`` with ``data-state`` ("done" or
"failed"), ``data-draws`` (draws recomputed), ``data-seeds`` (seeds checked against their
commitments) and ``data-mismatches`` (seeds, draws and turn records that do not match).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

import polars as pl

from gmkit.core.reports import TurnReport, html_environment
from gmkit.game.fairdice import beacon_words
from gmkit.core.views import Viewer

if TYPE_CHECKING:
    from gmkit.game import Game

FORMAT = "gmkit-dice-check/1"
#: The checker's file name in a published site.
PAGE = "check-dice.html"


@lru_cache(maxsize=1)
def script() -> str:
    """The checker's script (package data), exactly as the page carries it."""
    return resources.files("gmkit").joinpath("templates/dicecheck.js").read_text("utf-8")


def script_hash() -> str:
    """The CSP source that allows the checker's script and nothing else: ``'sha256-...'``."""
    digest = hashlib.sha256(script().encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def csp() -> str:
    """The checker page's Content-Security-Policy: its own script (by hash), inline styles,
    nothing else (no request of any kind)."""
    return (f"default-src 'none'; script-src {script_hash()}; style-src 'unsafe-inline'; "
            "base-uri 'none'; form-action 'none'")


# -- the document ---------------------------------------------------------------------------------

def turn_entry(report: TurnReport, manifest: Mapping[str, Any]) -> dict[str, Any]:
    """What a turn's page prints of its dice, as the document holds it: ``report`` is the turn
    report drawn for the site's viewer, ``manifest`` the turn's manifest (its beacon)."""
    beacon = manifest.get("beacon")
    return {
        "turn": report.turn,
        "revision": report.revision,
        "commitment": report.seed_commitment,
        "seed": report.seed,
        "beacon": ({k: str(beacon.get(k, "")) for k in ("source", "round", "value", "check")}
                   if isinstance(beacon, dict) else None),
        "deadline": manifest.get("deadline") if isinstance(beacon, dict) else None,
        "record": report.record_hash,
        "previous": report.previous_hash,
        "rolls": [{"step": step.name, "id": r.draw_id, "purpose": r.purpose,
                   "expression": r.expression, "result": r.result, "source": r.source}
                  for step in report.steps for r in step.rolls],
    }


def recorded_entry(game: Game, turn: int, viewer: Viewer) -> dict[str, Any]:
    """``turn``'s entry as its record holds it for ``viewer``, without drawing its report: its
    manifest (commitment, beacon, record and previous hashes), its revealed seed and its roll
    log, checked against the manifest, the rolls ``viewer`` may see step by step in the
    ruleset's order, as the turn page prints them. An entry a site kept from an earlier publish
    is taken only when it is this one: a roll relabelled "entered", given another value or
    removed from the kept entry is never carried into the checker."""
    from gmkit.core.views import visible_events, visible_rolls
    from gmkit.publish.summary import _result_text, step_titles

    store = game.store
    revision = store.revisions(turn)[-1]
    manifest = store.manifest(turn, revision)
    rolls = visible_rolls(store.read_log("rolls", turn, revision), viewer)
    events = visible_events(store.read_log("events", turn, revision), viewer)
    rows = []
    for name, _, _ in step_titles(game, events, rolls):
        rows += [{"step": name, "id": r["draw_id"], "purpose": r["purpose"],
                  "expression": r["expression"],
                  "result": _result_text(r["result"], r["expression"]), "source": r["source"]}
                 for r in rolls.filter(pl.col("step") == name).iter_rows(named=True)]
    beacon = manifest.get("beacon")
    seed = store.read_seed(turn) if store.seed_path(turn, revealed=True).exists() else None
    return {
        "turn": turn, "revision": revision, "commitment": manifest.get("seed_commitment"),
        "seed": seed,
        "beacon": ({k: str(beacon.get(k, "")) for k in ("source", "round", "value", "check")}
                   if isinstance(beacon, dict) else None),
        "deadline": manifest.get("deadline") if isinstance(beacon, dict) else None,
        "record": store.manifest_hash(turn, revision), "previous": manifest.get("previous"),
        "rolls": rows,
    }


def same_entry(kept: Mapping[str, Any], recorded: Mapping[str, Any]) -> bool:
    """Whether an entry a site kept is the one the turn's record gives (compared as the site
    keeps it, in JSON)."""
    return bool(json.loads(json.dumps(recorded, ensure_ascii=False)) == kept)


def apply_entry(report: TurnReport, entry: Mapping[str, Any]) -> TurnReport:
    """``report`` with what it prints of its dice taken from ``entry``: the page a player reads
    and the checker then show the same document. The entry's rolls replace the report's, in the
    same order, step by step."""
    rolls = list(entry["rolls"])
    steps = []
    for step in report.steps:
        mine, rolls = rolls[:len(step.rolls)], rolls[len(step.rolls):]
        if any(r["step"] != step.name for r in mine):
            raise ValueError(f"turn {report.turn}: the document's rolls are not the report's "
                             f"(step {step.name})")
        steps.append(replace(step, rolls=tuple(
            replace(line, draw_id=r["id"], purpose=r["purpose"], expression=r["expression"],
                    result=r["result"], source=r["source"])
            for line, r in zip(step.rolls, mine))))
    if rolls:
        raise ValueError(f"turn {report.turn}: the document has rolls the report has not")
    return replace(report, seed_commitment=entry["commitment"], seed=entry["seed"],
                   record_hash=entry["record"], previous_hash=entry["previous"],
                   beacon=None if entry["beacon"] is None else
                   beacon_words(entry["beacon"], entry["deadline"]),
                   steps=tuple(steps))


def document(title: str, ruleset_title: str, viewer: Viewer,
             entries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The site's dice document for ``viewer``: every published turn's entry, by turn."""
    return {"format": FORMAT, "game": title, "ruleset": ruleset_title, "view": str(viewer),
            "turns": sorted((dict(e) for e in entries), key=lambda e: int(e["turn"]))}


# -- the page -------------------------------------------------------------------------------------

def _json_in_html(doc: Mapping[str, Any]) -> str:
    """The document as JSON that cannot end the element holding it (``<``, ``>`` and ``&``
    written as escapes, and DEL, which pages drop; JSON.parse reads them back)."""
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\x7f", "\\u007f")):
        text = text.replace(char, escape)
    return text


_DATA = re.compile(r'<script type="application/json" id="dice-data">(.*?)</script>', re.S)


def read_document(html: str) -> dict[str, Any]:
    """The dice document a checker page carries."""
    found = _DATA.search(html)
    if not found:
        raise ValueError("this page carries no gmkit dice document")
    doc: dict[str, Any] = json.loads(found.group(1))
    return doc


_PAGE = html_environment().from_string("""\
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{ csp }}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ doc.game }}: check the dice</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:1100px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}
h1{margin-bottom:.2em} .sub{color:#666;margin-top:0} nav a{margin-right:1em}
#verify-result{font-size:1.15em;padding:.7em 1em;border:2px solid #888;border-radius:6px}
#verify-result.check-ok{border-color:#1a7f37;background:#e6f4ea}
#verify-result.check-bad{border-color:#b42318;background:#fdecea}
.check-ok{color:#1a7f37} .check-bad{color:#b42318;font-weight:700} .pending{color:#666}
section.turn{border:1px solid #ddd;border-radius:6px;padding:.2em 1em;margin:1em 0}
section.turn.bad{border:2px solid #b42318}
table{border-collapse:collapse;margin:.5em 0;font-size:.92em} td,th{border-bottom:1px solid #ddd;
padding:.25em .6em;text-align:left;vertical-align:top} tr.mismatch{background:#fdecea}
.mono{font-family:ui-monospace,Menlo,Consolas,monospace;overflow-wrap:anywhere} td.mono{min-width:16em}
</style></head><body>
<nav><a href="index.html">Index</a><a href="history.html">History</a></nav>
<h1>{{ doc.game }}: check the dice</h1>
<p class="sub">{{ doc.ruleset }}{% if private_to %} · private to {{ private_to }}{% endif %}</p>
<p id="verify-result" data-state="running">Checking… (this page needs JavaScript; it runs in
your browser alone and fetches nothing)</p>
<noscript><p class="check-bad">JavaScript is off: this page cannot check anything. The README
of gmkit ("Verifiable dice") shows how to check the dice by hand.</p></noscript>
<p>This page checks, in your browser, what {{ 'your private pages' if private_to else 'the
published pages' }} print of the dice: each revealed seed against the commitment posted before
its turn; where a turn mixed in a public beacon, the dice seed derived from the seed and the
beacon (the beacon's own signature is checked by <code>gmkit verify</code>, not here); every
seeded roll{{ ' you may see' if private_to else '' }}, recomputed from its draw id as printed
with the procedure of gmkit's README ("Verifiable dice"); and each turn's record hash against
the previous hash printed on the next turn. Rolls entered by the GM were rolled elsewhere and
cannot be recomputed. The data checked is carried by this page
({{ doc.turns|length }} turn(s)), the same data the turn pages were made from.</p>
<div id="turns"></div>
<script type="application/json" id="dice-data">{{ data|safe }}</script>
<script>{{ script|safe }}</script>
</body></html>
""")


def checker_page(doc: Mapping[str, Any]) -> str:
    """The checker page carrying ``doc`` (see :func:`document`)."""
    viewer = Viewer.parse(str(doc.get("view", "public")))
    if "</script" in script().lower():
        raise ValueError("the checker's script may not contain '</script'")
    return _PAGE.render(doc=doc, csp=csp(), data=_json_in_html(doc), script=script(),
                        private_to=viewer.player_id)
