"""The map files a GM posts or loads elsewhere: ``gmkit map --out x.png --width N`` gives a PNG
N pixels wide (1200 by default, what forums show), and ``--out x.geojson`` works for every kind
of board, each feature carrying what the state says now through the public view."""

from __future__ import annotations

import json
import shutil
import struct
from pathlib import Path

import pytest
from click.testing import CliRunner

from gmkit.cli import main

ROOT = Path(__file__).resolve().parent.parent


def _png_width(path: Path) -> int:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">I", head[16:20])[0]


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("samples")
    for name in ("cien", "pyramid", "jungle", "aeternus"):
        shutil.copytree(ROOT / "data" / f"sample-{name}", out / name)
    return out


@pytest.mark.parametrize("width", [None, 800])
def test_the_forum_png_is_1200_pixels_wide_unless_asked(samples: Path, tmp_path: Path,
                                                        width: int | None) -> None:
    out = tmp_path / "map.png"
    args = ["map", str(samples / "pyramid"), "--out", str(out)]
    result = CliRunner().invoke(main, args + (["--width", str(width)] if width else []))
    assert result.exit_code == 0, result.output
    assert _png_width(out) == (width or 1200)


def test_a_width_no_forum_shows_is_refused(samples: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["map", str(samples / "pyramid"), "--out",
                                       str(tmp_path / "m.png"), "--width", "5"])
    assert result.exit_code != 0 and "--width 5" in result.output
    assert not (tmp_path / "m.png").exists()


def _geojson(samples: Path, tmp_path: Path, name: str) -> dict:
    out = tmp_path / f"{name}.geojson"
    result = CliRunner().invoke(main, ["map", str(samples / name), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text(encoding="utf-8"))


def test_a_graph_board_is_places_as_points_and_links_as_lines(samples: Path,
                                                              tmp_path: Path) -> None:
    """Pyramid: every land space a Point with its holder and pieces now; every border a line."""
    data = _geojson(samples, tmp_path, "pyramid")
    assert data["gmkit_frame"]["plane"]["kind"] == "graph"
    points = [f for f in data["features"] if f["geometry"]["type"] == "Point"]
    lines = [f for f in data["features"] if f["geometry"]["type"] == "LineString"]
    from gmkit.game import Game

    state = Game.open(samples / "pyramid").state()
    assert len(points) == state["spaces"].height and lines
    held = dict(state["spaces"].select("name", "holder").iter_rows())
    for f in points:
        p = f["properties"]
        assert p.get("owner") == held[p["place"]], p["place"]
    assert any(f["properties"].get("pieces") for f in points)


@pytest.mark.parametrize("name", ["jungle", "aeternus"])
def test_a_hex_board_is_hexes_as_polygons_with_their_coordinates(samples: Path, tmp_path: Path,
                                                                 name: str) -> None:
    data = _geojson(samples, tmp_path, name)
    assert data["gmkit_frame"]["plane"]["kind"] == "hex"
    hexes = data["features"]
    assert hexes and all(f["geometry"]["type"] == "Polygon" for f in hexes)
    assert all(f["properties"]["q"] + f["properties"]["r"] + f["properties"]["s"] == 0
               for f in hexes)
    assert any(f["properties"].get("pieces") for f in hexes)


def test_cien_exports_the_owner_and_output_the_state_has_now(samples: Path,
                                                             tmp_path: Path) -> None:
    """Not the board file's output: the provinces table of the latest turn."""
    from gmkit.game import Game

    data = _geojson(samples, tmp_path, "cien")
    state = Game.open(samples / "cien").state()
    now = {n: (o, out) for n, o, out in state["provinces"].select("name", "owner", "output")
           .iter_rows()}
    props = {f["properties"]["name"]: f["properties"] for f in data["features"]}
    for name, (owner, output) in now.items():
        assert props[name]["output"] == output and props[name]["owner"] == owner


@pytest.mark.parametrize("name", ["jungle", "aeternus"])
def test_a_hex_map_prints_coordinates_on_request(samples: Path, tmp_path: Path,
                                                 name: str) -> None:
    """Hex boards: coordinates on hover always, and printed on request (``--coords``), so a
    GM finds "Amber at (-3, 0, 3)" on the picture; only the named hexes get them."""
    import re

    plain, printed = tmp_path / "plain.svg", tmp_path / "coords.svg"
    for out, extra in ((plain, []), (printed, ["--coords"])):
        result = CliRunner().invoke(main, ["map", str(samples / name), "--out", str(out),
                                           *extra])
        assert result.exit_code == 0, result.output
    assert 'data-layer="coordinate-text"' not in plain.read_text("utf-8")
    svg = printed.read_text("utf-8")
    tips = re.findall(r"<title>\((-?\d+), (-?\d+), (-?\d+)\)</title>", svg)
    layer = svg[svg.index('data-layer="coordinate-text"'):]
    texts = re.findall(r">(-?\d+),(-?\d+),(-?\d+)</text>", layer[:layer.index("</g>")])
    assert tips and sorted(texts) == sorted(tips)
    assert all(int(q) + int(r) + int(s) == 0 for q, r, s in texts)
