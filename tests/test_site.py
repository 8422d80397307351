"""``gmkit publish``: the static site opens offline, looks right in a real browser, and leaks
nothing secret."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gmkit.publish import dicecheck
from gmkit.game import Game
from gmkit.sweeps.playout import play, receive_bot_posts
from gmkit.publish.site import publish

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = "<script>alert(1)</script>"
CANARY_ORDER = "CANARYORDER"
CANARY_LINE = "CANARY-SECRET-93f1"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A game with a hostile player name and secret posts carrying canaries, published."""
    tmp = tmp_path_factory.mktemp("site")
    players = [{"id": "Red", "name": HOSTILE, "state": "Solsauvre", "government": "duchy",
                "lord": "Lord <b>Bold</b>", "arms": "javascript:alert(2)"},
               {"id": "Gold", "name": "Berengar", "state": "Coyons", "government": "city-state"},
               {"id": "Green", "name": "Clothilde", "state": "Guicardie"}]
    game = Game.new(tmp / "game", "cien", players, title=f"Site test {HOSTILE}")
    play(game, 2, master="site")
    game.store.write_seed(game.next_turn, "ab" * 32)
    game.receive_post("Gold", f"{CANARY_LINE} my secret plan\n"
                              "[b]5 Grain for Defense of Coyons[/b]\n"
                              f"[b]3 Grain for Conquest of {CANARY_ORDER}[/b]", secret=True)
    receive_bot_posts(game, "site", secret_every=0)
    game.commit(game.start())
    game.reveal()
    out = tmp / "public-site"
    pages = publish(Game.open(tmp / "game"), out)
    return game, out, pages


def test_site_has_index_turns_and_history(site):
    """An index of turns, each turn's public summary, and the history charts."""
    game, out, pages = site
    names = {p.name for p in pages}
    assert {"index.html", "history.html"} <= names
    assert {f"turn-{t:04d}.html" for t in game.store.turns() if t > 0} <= names
    index = (out / "index.html").read_text("utf-8")
    for t in game.store.turns()[1:]:
        assert f'href="turn-{t:04d}.html"' in index


def test_public_site_holds_no_secret(site):
    """Secret orders and GM-only data never appear in a public report: canaries planted in a
    secret post are found in no published byte, and no GM-only figure column is shown."""
    game, out, _ = site
    assert game.turn().orders.filter(game.turn().orders["secret"]).height == 1
    for path in out.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert CANARY_LINE.encode() not in data, path.name
            assert CANARY_ORDER.encode() not in data, path.name
            assert b">treasury<" not in data, path.name


def test_site_makes_no_request_and_escapes_player_text(site):
    """Offline: no external URL; no script but the dice checker's own (allowed by hash, see
    tests/test_dice_check.py); a hostile player name is escaped everywhere."""
    _, out, _ = site
    for path in out.glob("*.html"):
        html = path.read_text("utf-8")
        assert HOSTILE not in html, path.name
        scripts = html.lower().count("<script")
        assert scripts == (2 if path.name == dicecheck.PAGE else 0), path.name
        for bad in ('src="http', "src='http", "@import", "url(http", 'href="javascript'):
            assert bad not in html, (path.name, bad)


def _browser():
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not chromium or not driver_path:
        pytest.skip("Debian's chromium and chromium-driver are not installed "
                    "(bootstrap.py installs them when it can)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1280,1800"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=Service(driver_path), options=options)


def test_site_looks_right_in_a_real_browser(site):
    """Headless Chromium opens the published pages from the file system: maps and charts are
    drawn, the console shows no error, no request leaves the machine, the hostile name shows as
    text and runs nothing. A screenshot of each page is kept in out/screenshots/."""
    from selenium.common.exceptions import NoAlertPresentException

    _, out, _ = site
    shots = ROOT / "out" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    driver = _browser()
    try:
        turn_page = sorted(out.glob("turn-*.html"))[-1]
        for page in (out / "index.html", out / "history.html", turn_page):
            driver.get(page.as_uri())
            drawn = driver.execute_script(
                "return Array.from(document.querySelectorAll('svg')).map(s => {"
                " const r = s.getBoundingClientRect();"
                " return [r.width, r.height, s.querySelectorAll('path,rect').length]; })")
            visible = [d for d in drawn if d[0] > 100 and d[1] > 50 and d[2] > 3]
            assert visible, (page.name, drawn)
            body = driver.find_element("tag name", "body").text
            if page.name != "history.html":
                assert HOSTILE in body, page.name
            with pytest.raises(NoAlertPresentException):
                driver.switch_to.alert.text
            driver.save_screenshot(str(shots / f"site-{page.stem}.png"))
            errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
            assert not errors, (page.name, errors)
            urls = []
            for entry in driver.get_log("performance"):
                msg = json.loads(entry["message"])["message"]
                if msg["method"] == "Network.requestWillBeSent":
                    urls.append(msg["params"]["request"]["url"])
            assert urls and all(u.startswith(("file://", "data:")) for u in urls), urls
        history = (out / "history.html").read_text("utf-8")
        assert history.count('class="frame') >= 3
        driver.get((out / dicecheck.PAGE).as_uri())
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(driver, 30).until(lambda d: d.find_elements(
            "css selector", "#verify-result[data-state=done]"))
        driver.save_screenshot(str(shots / "site-check-dice.png"))
    finally:
        driver.quit()


def test_every_page_links_the_dice_checker(site):
    """Every page of the site links to its dice checker, which carries one turn per turn
    page."""
    game, out, _ = site
    for path in out.glob("*.html"):
        if path.name != dicecheck.PAGE:
            assert f'href="{dicecheck.PAGE}"' in path.read_text("utf-8"), path.name
    doc = dicecheck.read_document((out / dicecheck.PAGE).read_text("utf-8"))
    assert [e["turn"] for e in doc["turns"]] == [t for t in game.store.turns() if t > 0]
    assert doc["view"] == "public"
