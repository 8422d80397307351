"""Every sample's maps (the gallery ``maps/gallery.py`` builds: before the latest turn with its
public orders, and after it) measured in headless Chromium as a reader sees them: no two texts
overlap, no text hides a piece, no text is cut by the picture's edge, and no text or piece lies
on an order's arrow.

Skipped, with the reason, where Debian's chromium and chromium-driver are not installed."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from bench.notebook_clicks import browser, missing_browser

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "maps"))

from gallery import build  # noqa: E402

pytestmark = pytest.mark.skipif(missing_browser() is not None,
                                reason=str(missing_browser()))

#: Text boxes as the browser lays them out, pieces' boxes, and the picture's box.
MEASURE = """
const svg = document.querySelector('svg');
const box = r => ({x0: r.left, y0: r.top, x1: r.right, y1: r.bottom});
const inPiece = e => e.closest('[data-count], [data-piece]') !== null;
const ofArrow = e => { const g = e.closest('[data-arrow]'); return g ? g.dataset.arrow : null; };
const texts = Array.from(svg.querySelectorAll('text'))
  .filter(t => !inPiece(t) && t.textContent.trim() !== '')
  .map(t => Object.assign(box(t.getBoundingClientRect()),
                          {text: t.textContent, arrow: ofArrow(t)}));
const placeOf = e => { const g = e.closest('[data-count], [data-piece]');
                       return g ? (g.dataset.place || g.dataset.region || '') : ''; };
const pieces = Array.from(svg.querySelectorAll('[data-count] rect, [data-piece] > *'))
  .filter(e => e.tagName !== 'title' && e.tagName !== 'text')
  .map(e => Object.assign(box(e.getBoundingClientRect()), {place: placeOf(e)}));
// each order's arrow as the points of its lines on the screen, a point every pixel or so
const onScreen = (el, x, y) => { const p = svg.createSVGPoint(); p.x = x; p.y = y;
                                 const q = p.matrixTransform(el.getScreenCTM());
                                 return [q.x, q.y]; };
const layer = Array.from(svg.querySelectorAll('[data-layer="arrows"] > [data-kind]'));
const arrows = layer.map((g, k) => {
  const points = [];
  g.querySelectorAll('polyline, polygon').forEach(el => {
    const pts = Array.from(el.points).map(p => onScreen(el, p.x, p.y));
    if (el.tagName === 'polygon' && pts.length) pts.push(pts[0]);
    for (let i = 0; i + 1 < pts.length; i++) {
      const [a, b] = [pts[i], pts[i + 1]];
      const n = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1])));
      for (let j = 0; j <= n; j++)
        points.push([a[0] + (b[0] - a[0]) * j / n, a[1] + (b[1] - a[1]) * j / n]);
    }
  });
  return {index: String(k), src: g.dataset.src, dst: g.dataset.dst, points: points};
});
return {texts: texts, pieces: pieces, arrows: arrows, frame: box(svg.getBoundingClientRect())};
"""


def _overlap(a: dict[str, Any], b: dict[str, Any], slack: float = 0.5) -> bool:
    return (min(a["x1"], b["x1"]) - max(a["x0"], b["x0"]) > slack
            and min(a["y1"], b["y1"]) - max(a["y0"], b["y0"]) > slack)


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """The gallery built afresh, each map opened in Chromium and its boxes measured."""
    out = tmp_path_factory.mktemp("gallery")
    maps = [p for p in build(out) if p.suffix == ".svg" and "valley" not in p.name]
    driver = browser()
    try:
        found = {}
        for path in maps:
            driver.get(path.as_uri())
            found[path.stem] = driver.execute_script(MEASURE)
        return found
    finally:
        driver.quit()


def test_every_sample_has_maps_before_and_after_its_latest_turn(measured):
    games = {stem.rsplit("-", 1)[0] for stem in measured}
    assert {"cien", "aztlan", "jungle", "aeternus", "pyramid"} <= games
    assert all(f"{g}-before" in measured and f"{g}-after" in measured for g in games)


def test_every_sample_draws_its_latest_turns_orders_before_it(measured):
    """Every game's map before its latest turn shows that turn's orders: arrows for those
    that go somewhere (the samples' latest turns all hold one)."""
    assert {stem for stem, found in measured.items() if found["arrows"]} == {
        stem for stem in measured if stem.endswith("-before")}


def _inside(point: list[float], box: dict[str, Any], slack: float = 0.5) -> bool:
    x, y = point
    return (box["x0"] + slack < x < box["x1"] - slack
            and box["y0"] + slack < y < box["y1"] - slack)


def test_no_label_or_piece_lies_on_an_arrow(measured):
    """Orders' arrows never hide a name or a piece: no text's box (but the arrow's own text)
    and no piece of another place than the two the arrow joins holds a point of an arrow's
    lines; the arrow starts and ends beside its own places' pieces."""
    crossed = {}
    for stem, found in measured.items():
        bad = []
        for arrow in found["arrows"]:
            ends = {arrow["src"], arrow["dst"]}
            for t in found["texts"]:
                if t["arrow"] != arrow["index"] and any(_inside(p, t) for p in arrow["points"]):
                    bad.append((arrow["src"], arrow["dst"], t["text"]))
            for piece in found["pieces"]:
                if piece["place"] not in ends and any(_inside(p, piece, 1.0)
                                                      for p in arrow["points"]):
                    bad.append((arrow["src"], arrow["dst"], f"a piece on {piece['place']}"))
        if bad:
            crossed[stem] = bad[:5]
    assert crossed == {}


def test_no_two_labels_overlap(measured):
    """Labels never collide: 0 overlapping pairs of texts on every map."""
    clashes = {}
    for stem, found in measured.items():
        texts = found["texts"]
        pairs = [(a["text"], b["text"]) for i, a in enumerate(texts) for b in texts[i + 1:]
                 if _overlap(a, b)]
        if pairs:
            clashes[stem] = pairs[:5]
    assert clashes == {}


def test_no_label_hides_a_piece(measured):
    """No text lies over a piece's token."""
    hidden = {}
    for stem, found in measured.items():
        over = [t["text"] for t in found["texts"] if any(_overlap(t, p) for p in found["pieces"])]
        if over:
            hidden[stem] = over[:5]
    assert hidden == {}


def test_no_text_is_cut_by_the_pictures_edge(measured):
    """Titles, labels and legends lie wholly inside the picture."""
    cut = {}
    for stem, found in measured.items():
        f = found["frame"]
        out = [t["text"] for t in found["texts"]
               if t["x0"] < f["x0"] - 0.5 or t["y0"] < f["y0"] - 0.5
               or t["x1"] > f["x1"] + 0.5 or t["y1"] > f["y1"] + 0.5]
        if out:
            cut[stem] = out[:5]
    assert cut == {}
