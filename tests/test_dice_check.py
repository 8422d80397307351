"""The site's dice checker: players check every roll themselves, offline, in the browser.

The golden vectors (``docs/dice-vectors.json``) are what gmkit's dice give, what the README's
code gives and what the page gives. The page is opened in headless Chromium with the network off
(skipped, with the reason, where Debian's chromium and chromium-driver are not installed) for
every sample, for a player's private pages, and for a game mixed with real drand beacons; then
the dice document it carries is forged (a roll, a seed, a turn record) and the page says so.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
import re
import runpy
import shutil
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from markupsafe import escape

from bench.dice_check_page import check_result, offline_browser
from bench.notebook_clicks import missing_browser
from gmkit.publish import dicecheck
from gmkit.core import dice as gdice
from gmkit.core.beacon import Beacon, derive_seed
from gmkit.core.views import Viewer
from gmkit.game import Game
from gmkit.publish.site import publish
from tests.test_beacon_game import VECTORS as DRAND, play_turn
from tests.test_cli import files, run  # noqa: F401  (fixture)

ROOT = Path(__file__).resolve().parent.parent
VECTORS_FILE = ROOT / "docs" / "dice-vectors.json"
VECTORS: dict[str, Any] = json.loads(VECTORS_FILE.read_text("utf-8"))
SAMPLES = sorted(p.name for p in (ROOT / "data").glob("sample-*") if (p / "game.toml").exists())
HOSTILE = "</script><script>alert(1)</script><img src=x onerror=alert(2)>"

needs_browser = pytest.mark.skipif(missing_browser() is not None,
                                   reason=str(missing_browser()))


def readme_code() -> dict[str, Any]:
    """The functions of the README's "Verifiable dice" code block, run as a player would."""
    text = (ROOT / "README.md").read_text("utf-8")
    section = text[text.index("## Verifiable dice"):]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block, "no code in the README's Verifiable dice section"
    scope: dict[str, Any] = {}
    exec(block.group(1), scope)  # noqa: S102  (the README's own code)
    return scope


def _choice_args(expression: str) -> tuple[list[str], list[int] | None]:
    parts = expression[len("choice("):-1].split(", ")
    if all(re.search(r":\d+$", p) for p in parts):
        return [p.rsplit(":", 1)[0] for p in parts], [int(p.rsplit(":", 1)[1]) for p in parts]
    return parts, None


def readme_result(code: dict[str, Any], seed: str, turn: int, draw_id: str,
                  expression: str) -> str:
    """A printed roll recomputed with the README's code, printed as a turn page prints it."""
    dice = re.fullmatch(r"(\d+)d(\d+)", expression)
    if dice:
        faces = code["dice"](seed, turn, draw_id, int(dice.group(1)), int(dice.group(2)))
        return str(faces[0]) if len(faces) == 1 else \
            f"{' + '.join(map(str, faces))} = {sum(faces)}"
    if expression.startswith("choice("):
        options, weights = _choice_args(expression)
        return str(code["choice"](seed, turn, draw_id, options, weights))
    if expression.startswith("shuffle("):
        return ", ".join(code["shuffle"](seed, turn, draw_id, expression[8:-1].split(", ")))
    assert expression == "U[0,1)", expression
    return f"{code['uniform'](seed, turn, draw_id):.6f}"


# -- the golden vectors -----------------------------------------------------------------------


def test_golden_vectors_are_what_gmkit_dice_give_today():
    """The vectors file is exactly what ``scripts/build_dice_vectors.py`` makes from gmkit's
    dice now: a change to the derivation shows as a diff of this file."""
    script = runpy.run_path(str(ROOT / "scripts" / "build_dice_vectors.py"))
    assert VECTORS_FILE.read_text("utf-8") == script["text"](), \
        "run scripts/build_dice_vectors.py and review the diff"


def test_golden_vectors_follow_the_readme_recipe():
    """README "Verifiable dice", steps 1-7: the README's own code gives every vector (dice,
    several dice, choices, weighted choices with rejected attempts, shuffles, uniform numbers,
    commitments, a beacon-derived seed), and so does gmkit's seeded_int."""
    code = readme_code()
    for v in VECTORS["dice"]:
        assert code["dice"](v["seed"], v["turn"], v["id"], 1, v["sides"]) == [v["value"]], v
        assert gdice.seeded_int(v["seed"], v["turn"], v["id"], v["sides"]) + 1 == v["value"]
    for v in VECTORS["draws"]:
        assert readme_result(code, v["seed"], v["turn"], v["id"], v["expression"]) == \
            v["result"], v
    for v in VECTORS["commitments"]:
        assert code["commitment_ok"](v["seed"], v["commitment"])
    for b in VECTORS["beacons"]:
        assert derive_seed(b["secret"], Beacon(**b["beacon"], check="entered")
                           if not b["beacon"]["source"].startswith("drand") else
                           Beacon(**b["beacon"], check="bls-unchained-g1-rfc9380")) == b["seed"]
        for d in b["draws"]:
            assert readme_result(code, b["seed"], b["turn"], d["id"], d["expression"]) == \
                d["result"]
    # one draw really exercises rejection sampling: its attempt 0 is refused
    reject = next(v for v in VECTORS["draws"] if v["id"].startswith("vector:reject/"))
    n = 2**63 + 1
    assert gdice._bits(reject["seed"], reject["turn"], reject["id"], 0) >= 2**64 - 2**64 % n


def test_readme_quotes_the_golden_vectors():
    """The README's section for players quotes vectors of the file, as the file has them."""
    text = (ROOT / "README.md").read_text("utf-8")
    section = text[text.index("## Check the dice yourself"):text.index("## Games")]
    seed = VECTORS["dice"][0]["seed"]
    assert f"`{seed}`" in section
    assert f"`{VECTORS['commitments'][0]['commitment']}`" in section
    rows = re.findall(r"^\| (\d+) \| `([^`]+)` \| d(\d+) \| (\d+) \|$", section, re.M)
    assert len(rows) >= 3
    known = {(v["turn"], v["id"], v["sides"], v["value"]) for v in VECTORS["dice"]
             if v["seed"] == seed}
    for turn, draw_id, sides, value in rows:
        assert (int(turn), draw_id, int(sides), int(value)) in known


# -- the document -----------------------------------------------------------------------------


def vectors_document(vectors: dict[str, Any] = VECTORS) -> dict[str, Any]:
    """The golden vectors as a dice document: one turn per seed and turn, seeds revealed."""
    turns: dict[tuple[str, int], dict[str, Any]] = {}

    def entry(seed: str, turn: int, beacon: dict[str, str] | None = None) -> dict[str, Any]:
        return turns.setdefault((seed, turn), {
            "turn": turn, "revision": 0, "commitment": gdice.commitment(seed), "seed": seed,
            "beacon": beacon, "deadline": None, "record": None, "previous": None, "rolls": []})

    for v in vectors["dice"]:
        entry(v["seed"], v["turn"])["rolls"].append(
            {"step": "vector", "id": v["id"], "purpose": "golden vector",
             "expression": f"1d{v['sides']}", "result": str(v["value"]), "source": "seeded"})
    for v in vectors["draws"]:
        entry(v["seed"], v["turn"])["rolls"].append(
            {"step": "vector", "id": v["id"], "purpose": "golden vector",
             "expression": v["expression"], "result": v["result"], "source": "seeded"})
    for b in vectors["beacons"]:
        e = entry(b["secret"], b["turn"], {**b["beacon"], "check": "bls-unchained-g1-rfc9380"})
        e["rolls"] += [{"step": "vector", "purpose": "golden vector", "source": "seeded", **d}
                       for d in b["draws"]]
    return dicecheck.document("Golden vectors", "gmkit dice", Viewer.public(),
                              list(turns.values()))


def test_checker_page_carries_its_document_and_only_its_own_script():
    """The page carries the document it checks (read back intact, hostile text included), and
    its Content-Security-Policy allows its one script by hash and nothing else: no source of any
    kind, no request."""
    doc = vectors_document()
    doc["turns"][0]["rolls"][0]["purpose"] = HOSTILE
    doc["game"] = HOSTILE
    html = dicecheck.checker_page(doc)
    assert dicecheck.read_document(html) == json.loads(json.dumps(doc))
    assert HOSTILE not in html
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
    assert [attrs for attrs, _ in scripts] == [' type="application/json" id="dice-data"', ""]
    digest = hashlib.sha256(scripts[1][1].encode()).digest()
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1)
    csp = csp.replace("&#39;", "'")
    assert f"script-src 'sha256-{base64.b64encode(digest).decode()}';" in csp
    assert "default-src 'none'" in csp
    for word in ("http:", "https:", "fetch(", "XMLHttpRequest", "innerHTML", "eval("):
        assert word not in scripts[1][1], word


def test_turn_page_prints_the_dice_of_its_document_entry(tmp_path):
    """A turn page prints its seed, commitment, record and rolls from its entry in the site's
    dice document: change the entry, and the page shows the change (one source for both)."""
    game = Game.open(ROOT / "data" / "sample-jungle")
    from gmkit.core.reports import render_html
    from gmkit.publish.summary import turn_report

    report = turn_report(game, 2, viewer="public")
    entry = dicecheck.turn_entry(report, game.store.manifest(2))
    assert entry["rolls"] and entry["seed"] and entry["commitment"]
    forged = copy.deepcopy(entry)
    forged["rolls"][0]["result"] = "FORGED-RESULT"
    forged["seed"] = "f" * 64
    html = render_html(dicecheck.apply_entry(report, forged))
    assert "FORGED-RESULT" in html and "f" * 64 in html
    for t in game.store.turns()[1:]:  # the entry as taken gives the page the report gives
        report = turn_report(game, t, viewer="public")
        entry = dicecheck.turn_entry(report, game.store.manifest(t))
        assert render_html(dicecheck.apply_entry(report, entry)) == render_html(report)
    with pytest.raises(ValueError, match="rolls"):
        dicecheck.apply_entry(report, {**entry, "rolls": entry["rolls"][1:]})


@pytest.fixture(scope="module")
def private_pages(tmp_path_factory) -> tuple[Game, Path]:
    """The Aeternus sample (some rolls are a player's alone) published with every player's
    private pages."""
    tmp = tmp_path_factory.mktemp("private-pages")
    game = Game.open(ROOT / "data" / "sample-aeternus")
    publish(game, tmp / "site", workers=1, players=tmp / "private")
    return game, tmp


def test_a_players_document_holds_their_hidden_rolls_and_the_public_one_none(private_pages):
    """Who sees what: the public site's document holds no hidden roll; a player's holds the
    public rolls and their own hidden ones, and no other player's."""
    game, tmp_path = private_pages
    public = dicecheck.read_document((tmp_path / "site" / dicecheck.PAGE).read_text("utf-8"))
    ids = {(e["turn"], r["id"]) for e in public["turns"] for r in e["rolls"]}
    hidden = {(t, r["draw_id"], r["player"]) for t in game.store.turns()[1:]
              for r in game.turn(t).rolls.iter_rows(named=True) if not r["public"]}
    assert hidden and not {(t, i) for t, i, _ in hidden} & ids
    player = sorted({p for _, _, p in hidden})[0]
    mine = dicecheck.read_document(
        (tmp_path / "private" / player / dicecheck.PAGE).read_text("utf-8"))
    assert mine["view"] == f"player:{player}"
    theirs = {(e["turn"], r["id"]) for e in mine["turns"] for r in e["rolls"]}
    assert ids <= theirs
    assert {(t, i) for t, i, p in hidden if p == player} <= theirs
    assert not {(t, i) for t, i, p in hidden if p != player} & theirs


# -- in the browser ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def driver():
    if missing_browser():
        pytest.skip(str(missing_browser()))
    d = offline_browser()
    try:
        yield d
    finally:
        d.quit()


def _rows(driver: Any) -> list[dict[str, str]]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('tr[data-status]')).map(t => ({"
        "id: t.dataset.drawId, status: t.dataset.status, turn: t.closest('section').dataset.turn,"
        "text: t.innerText}))")


def _no_console_error(driver: Any) -> None:
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors


def _requests(driver: Any) -> list[str]:
    urls = []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg["method"] == "Network.requestWillBeSent":
            urls.append(msg["params"]["request"]["url"])
    return urls


def _open(driver: Any, tmp: Path, doc: dict[str, Any], name: str = "check.html"
          ) -> dict[str, str]:
    page = tmp / name
    page.write_text(dicecheck.checker_page(doc), "utf-8")
    return check_result(driver, page)


@needs_browser
def test_page_recomputes_every_golden_vector(driver, tmp_path):
    """The page gives every golden vector: dice, several dice, choices, weighted choices with
    rejected attempts, shuffles, uniform numbers, the seed derived with a beacon; then a forged
    value is caught, in red, with its draw id."""
    doc = vectors_document()
    found = _open(driver, tmp_path, doc)
    count = sum(len(e["rolls"]) for e in doc["turns"])
    assert found["state"] == "done", found
    assert (found["draws"], found["seeds"], found["mismatches"]) == \
        (str(count), str(len(doc["turns"])), "0"), found
    _no_console_error(driver)
    forged = copy.deepcopy(doc)
    roll = next(r for e in forged["turns"] for r in e["rolls"] if r["expression"] == "3d6")
    roll["result"] = "6 + 6 + 6 = 18"
    found = _open(driver, tmp_path, forged, "forged.html")
    assert found["mismatches"] == "1", found
    bad = [r for r in _rows(driver) if r["status"] == "mismatch"]
    assert [r["id"] for r in bad] == [roll["id"]]
    colour = driver.execute_script(
        "return getComputedStyle(document.querySelector('tr.mismatch td.check-bad')).color")
    assert colour == "rgb(180, 35, 24)"


def _publish(sample: str, tmp: Path) -> tuple[Game, Path]:
    game = Game.open(ROOT / "data" / sample)
    publish(game, tmp / "site", workers=1)
    return game, tmp / "site"


def _seeded_printed(doc: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    return [(e["turn"], r) for e in doc["turns"] if e["seed"] for r in e["rolls"]
            if r["source"] == "seeded"]


@needs_browser
@pytest.mark.parametrize("sample", SAMPLES)
def test_every_sample_checks_in_the_browser(driver, tmp_path, sample):
    """Each sample's published checker, opened from the file system with the network off:
    every revealed seed is checked, every seeded roll printed is recomputed, nothing leaves the
    machine and the console shows no error. Every mismatch is a single die printed without the
    ``#0`` its id is derived from (samples published before ids kept it), reported as such;
    with the ``#0`` each of those would match."""
    game, site = _publish(sample, tmp_path)
    html = (site / dicecheck.PAGE).read_text("utf-8")
    doc = dicecheck.read_document(html)
    driver.get_log("performance")
    found = check_result(driver, site / dicecheck.PAGE)
    assert found["state"] == "done", found
    revealed = [t for t in game.store.turns()[1:] if game.store.seed_path(t, revealed=True).exists()]
    assert found["seeds"] == str(len(revealed)) and revealed
    seeded = _seeded_printed(doc)
    assert found["draws"] == str(len(seeded)) and found["unchecked"] == "0", found
    # every public seeded roll of the log, whatever step drew it, is what the page checked
    logged = game.history("rolls", view="public").filter(
        pl.col("turn").is_in(revealed) & (pl.col("source") == "seeded"))
    assert found["draws"] == str(logged.height), (found, logged.height)
    unsuffixed = {(t, r["id"]) for t, r in seeded
                  if gdice.is_single_die(r["expression"]) and not r["id"].endswith("#0")}
    assert found["missingSuffix"] == found["missingSuffixWouldMatch"] == str(len(unsuffixed))
    bad = {(int(r["turn"]), r["id"]) for r in _rows(driver) if r["status"] == "mismatch"}
    assert bad <= unsuffixed and found["mismatches"] == str(len(bad)), found
    if not unsuffixed:
        assert found["mismatches"] == "0"
    _no_console_error(driver)
    assert all(u.startswith("file://") for u in _requests(driver))


@pytest.mark.parametrize("sample", SAMPLES)
def test_the_checker_carries_every_public_roll_of_the_log(tmp_path, sample):
    """Every public roll of every published turn is on the dice page and its turn page, those
    drawn outside the ruleset's steps too (Aeternus's world generation): per turn, the
    document holds as many rolls, of each source, as the public log."""
    game, site = _publish(sample, tmp_path)
    doc = dicecheck.read_document((site / dicecheck.PAGE).read_text("utf-8"))
    log = game.history("rolls", view="public")
    for entry in doc["turns"]:
        logged = log.filter(pl.col("turn") == entry["turn"])
        assert sorted(r["id"] for r in entry["rolls"]) == sorted(logged["draw_id"].to_list())
        for source in ("seeded", "entered"):
            assert sum(r["source"] == source for r in entry["rolls"]) == \
                logged.filter(pl.col("source") == source).height
        page = (site / f"turn-{entry['turn']:04d}.html").read_text("utf-8")
        assert all(str(escape(r["id"])) in page for r in entry["rolls"])


@needs_browser
def test_forged_roll_seed_and_record_are_caught(driver, tmp_path):
    """The document of a published sample, forged: a roll's value (one mismatch, its draw id in
    red), a revealed seed (it no longer matches its commitment), a turn record (the chain
    breaks); a seed not yet revealed shows as such and its rolls wait for it."""
    _, site = _publish("sample-jungle", tmp_path)
    doc = dicecheck.read_document((site / dicecheck.PAGE).read_text("utf-8"))
    clean = check_result(driver, site / dicecheck.PAGE)
    assert clean["mismatches"] == "0"

    forged = copy.deepcopy(doc)
    roll = next(r for r in forged["turns"][1]["rolls"] if r["expression"].startswith("choice"))
    options = roll["expression"][len("choice("):-1].split(", ")
    roll["result"] = next(o.rsplit(":", 1)[0] for o in options
                          if o.rsplit(":", 1)[0] != roll["result"])
    found = _open(driver, tmp_path, forged, "roll.html")
    assert found["mismatches"] == "1" and found["draws"] == clean["draws"], found
    assert [(int(r["turn"]), r["id"]) for r in _rows(driver) if r["status"] == "mismatch"] == \
        [(forged["turns"][1]["turn"], roll["id"])]

    forged = copy.deepcopy(doc)
    turn = forged["turns"][2]
    turn["seed"] = hashlib.sha256(b"another seed").hexdigest()
    found = _open(driver, tmp_path, forged, "seed.html")
    assert int(found["mismatches"]) >= 1, found
    said = driver.find_element("id", f"turn-{turn['turn']}").text
    assert "does NOT match its commitment" in said

    forged = copy.deepcopy(doc)
    forged["turns"][3]["previous"] = "0" * 64
    found = _open(driver, tmp_path, forged, "record.html")
    assert found["mismatches"] == "1", found
    assert "is not turn" in driver.find_element("id", f"turn-{forged['turns'][3]['turn']}").text

    forged = copy.deepcopy(doc)
    forged["turns"][-1]["seed"] = None
    waiting = len(forged["turns"][-1]["rolls"])
    found = _open(driver, tmp_path, forged, "unrevealed.html")
    assert (found["mismatches"], found["pending"]) == ("0", str(waiting)), found
    assert found["seeds"] == str(len(doc["turns"]) - 1)
    assert "not yet revealed" in driver.find_element(
        "id", f"turn-{forged['turns'][-1]['turn']}").text

    forged = copy.deepcopy(doc)
    roll = forged["turns"][0]["rolls"][0]
    roll["source"], roll["result"] = "entered", "rolled at the table"
    found = _open(driver, tmp_path, forged, "entered.html")
    assert (found["mismatches"], found["entered"], found["draws"]) == \
        ("0", "1", str(int(clean["draws"]) - 1)), found
    assert [r["status"] for r in _rows(driver) if r["id"] == roll["id"]][0] == "entered"


@needs_browser
def test_hostile_text_in_the_document_runs_nothing(driver, tmp_path):
    """Player text in a draw id or purpose is shown as text: no markup, no script, no alert."""
    from selenium.common.exceptions import NoAlertPresentException

    doc = vectors_document()
    roll = doc["turns"][0]["rolls"][0]
    roll["purpose"] = HOSTILE
    found = _open(driver, tmp_path, doc)
    assert found["state"] == "done" and found["mismatches"] == "0", found
    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert.text
    assert HOSTILE in driver.execute_script("return document.getElementById('turns').textContent")
    assert driver.execute_script("return document.querySelectorAll('img').length") == 0


@needs_browser
def test_a_players_private_checker_checks_their_hidden_rolls(driver, private_pages):
    """On a player's private pages the checker recomputes that player's hidden rolls as well as
    the public ones."""
    game, tmp_path = private_pages
    hidden = [r for t in game.store.turns()[1:] for r in game.turn(t).rolls.iter_rows(named=True)
              if not r["public"] and r["source"] == "seeded"]
    player = hidden[0]["player"]
    page = tmp_path / "private" / player / dicecheck.PAGE
    doc = dicecheck.read_document(page.read_text("utf-8"))
    public = check_result(driver, tmp_path / "site" / dicecheck.PAGE)
    found = check_result(driver, page)
    assert found["state"] == "done" and found["mismatches"] == "0", found
    assert found["draws"] == str(len(_seeded_printed(doc)))
    assert int(found["draws"]) >= int(public["draws"]) + sum(
        1 for r in hidden if r["player"] == player)


@needs_browser
def test_a_beacon_mixed_game_checks_in_the_browser(driver, files, tmp_path):  # noqa: F811
    """Three turns mixed with real quicknet rounds: the page derives each turn's dice seed from
    the revealed secret and the beacon (saying the signature is checked by ``gmkit verify``),
    and every roll matches; a forged beacon value makes every seeded roll of its turn differ."""
    res = run("new", files / "g", "--ruleset", "cien", "--players", files / "players.toml",
              "--map", files / "map.geojson", "--beacon", "drand-quicknet")
    assert res.exit_code == 0, res.output
    for vector in DRAND:
        play_turn(files / "g", vector)
    game = Game.open(files / "g")
    for t in game.store.turns()[1:]:
        if not game.store.seed_path(t, revealed=True).exists():
            game.reveal(t)
    publish(Game.open(files / "g"), tmp_path / "site", workers=1)
    from gmkit.core.reports import render_html
    from gmkit.publish.summary import turn_report

    for t in game.store.turns()[1:]:  # the beacon as the document holds it, as pages print it
        report = turn_report(game, t, viewer="public")
        entry = dicecheck.turn_entry(report, game.store.manifest(t))
        assert report.beacon and render_html(dicecheck.apply_entry(report, entry)) == \
            render_html(report)
    page = tmp_path / "site" / dicecheck.PAGE
    doc = dicecheck.read_document(page.read_text("utf-8"))
    assert all(e["beacon"] and e["beacon"]["source"] == "drand:quicknet" for e in doc["turns"])
    found = check_result(driver, page)
    seeded = _seeded_printed(doc)
    assert seeded, "the beacon game printed no roll"
    assert (found["state"], found["seeds"], found["draws"], found["mismatches"]) == \
        ("done", str(len(DRAND)), str(len(seeded)), "0"), found
    text = driver.find_element("id", "turns").text
    assert "gmkit verify" in text
    for e in doc["turns"]:
        beacon = Beacon(**{k: e["beacon"][k] for k in ("source", "round", "value")},
                        signature=DRAND[0]["signature"], check="bls-unchained-g1-rfc9380")
        assert f"is {derive_seed(e['seed'], beacon)}" in text
    _no_console_error(driver)
    forged = copy.deepcopy(doc)
    turn = forged["turns"][0]
    turn["beacon"]["value"] = DRAND[1]["randomness"]
    _open(driver, tmp_path, forged)
    said = driver.find_element("id", f"turn-{turn['turn']}").text
    beacon = Beacon(source="drand:quicknet", round=turn["beacon"]["round"],
                    value=DRAND[1]["randomness"], signature=DRAND[0]["signature"],
                    check="bls-unchained-g1-rfc9380")
    assert f"is {derive_seed(turn['seed'], beacon)}" in said


def test_a_seed_not_yet_revealed_never_reaches_the_site(tmp_path):
    """A turn whose seed the GM has not revealed: its secret seed is in no published byte, the
    document holds its commitment and no seed, and its page says "not yet revealed"."""
    game_dir = tmp_path / "game"
    shutil.copytree(ROOT / "data" / "sample-jungle", game_dir)
    game = Game.open(game_dir)
    last = game.store.turns()[-1]
    secret = game.store.read_seed(last)
    hidden = game.store.seed_path(last)
    hidden.parent.mkdir(exist_ok=True)
    game.store.seed_path(last, revealed=True).rename(hidden)  # as before the GM revealed it
    assert secret and game.store.read_seed(last) == secret
    publish(Game.open(game_dir), tmp_path / "site", workers=1)
    for path in (tmp_path / "site").rglob("*"):
        if path.is_file():
            assert secret.encode() not in path.read_bytes(), path.name
    doc = dicecheck.read_document((tmp_path / "site" / dicecheck.PAGE).read_text("utf-8"))
    entry = doc["turns"][-1]
    assert (entry["turn"], entry["seed"]) == (last, None)
    assert entry["commitment"] == gdice.commitment(secret)
    assert "not yet revealed" in (tmp_path / "site" / f"turn-{last:04d}.html").read_text("utf-8")
