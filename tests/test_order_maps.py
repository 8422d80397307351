"""Every game's orders on its maps: for every sample, the public map of the last turn's orders
(``gmkit map --orders``, the report's map before the turn, the gallery) draws each public
order of the turn that has a place on the map and no secret one; the GM's draws them all; the
desk's step maps show the coming turn's orders; and each kind drawn has its legend entry."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from gmkit.cli import main
from gmkit.core.drawing.orders import order_ref
from gmkit.desk import Desk
from gmkit.game import Game
from gmkit.publish.mapfile import map_svg

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted(p.name.removeprefix("sample-") for p in (ROOT / "data").glob("sample-*"))
#: The orders of each game that have a place on its map (the rest: petitions, votes...).
ON_THE_MAP = {
    "cien": {"Conquer", "Defend", "Invest"},
    "aztlan": {"Attack", "Move", "Support", "CutSupport"},
    "pyramid": {"Lead", "Move"},
    "jungle": {"Move", "Travel", "Enlist", "Desert", "Retire", "Evict", "Attack", "Toil",
               "Defend", "Sacrifice", "Offering", "Procreate", "Recruit", "Research",
               "Produce", "Give", "Train", "Purchase", "Order", "Disband", "Spend", "Propose",
               "JoinHouses", "SplitHouses", "Annex", "Support"},
    "aeternus": {"Traverse", "Stag", "Scout", "Fish", "Forage", "Construct", "Burn", "Use"},
}
ORDERS = re.compile(r'data-orders="([^"]*)"')


def _drawn(svg: str) -> set[str]:
    return {ref for refs in ORDERS.findall(svg) for ref in refs.split()}


def _kind(order: object) -> str:
    inner = getattr(order, "order", None)  # an Aeternus action with its posting time
    return type(inner if inner is not None and not isinstance(inner, str) else order).__name__


def test_every_sample_is_checked():
    assert set(SAMPLES) == set(ON_THE_MAP)


@pytest.mark.parametrize("name", SAMPLES)
def test_the_public_map_of_the_last_turns_orders_draws_each_public_order_and_no_secret_one(
        name: str) -> None:
    """The last turn's orders on the map before it: the public's map (``gmkit map --orders``)
    names every public order that has a place on the map, and no secret one; the GM's names
    the secret ones too."""
    game = Game.open(ROOT / "data" / f"sample-{name}")
    turn = game.latest_turn
    orders = game.turn_orders(turn, "gm").orders
    placed = [e for e in orders.envelopes if _kind(e.order) in ON_THE_MAP[name]
              # a Pyramid move of forces without a path goes nowhere
              and getattr(e.order, "path", True)]
    public = {order_ref(e) for e in placed if not e.secret}
    secret = {order_ref(e) for e in placed if e.secret}
    assert public and secret, "the sample's last turn has public and secret orders to draw"
    shown = _drawn(map_svg(game, turn, "public", orders=True))
    assert public <= shown and not shown & {order_ref(e) for e in orders.envelopes if e.secret}
    assert public | secret <= _drawn(map_svg(game, turn, "gm", orders=True))


@pytest.mark.parametrize("name", SAMPLES)
def test_each_kind_of_order_drawn_has_its_legend_entry(name: str) -> None:
    """A legend entry per kind of mark: every arrow kind and order mark drawn on the map is
    named in its legend."""
    game = Game.open(ROOT / "data" / f"sample-{name}")
    shown = game.turn_orders(game.latest_turn, "gm")
    drawn = shown.drawn
    assert drawn
    legend = {e.label for e in drawn.legend()}
    kinds = {k.name: k.label or k.name for k in (*drawn.arrow_kinds, *drawn.mark_kinds)}
    used = {a.kind for a in drawn.arrows} | {m.piece for m in drawn.marks}
    assert {kinds[k] for k in used} == legend
    svg = game.map_svg(shown.before, orders=drawn) or ""
    assert all(f">{label}</text>" in svg for label in legend)


def test_gmkit_map_orders_writes_the_turns_orders_and_refuses_what_it_cannot_draw(
        tmp_path: Path) -> None:
    """``gmkit map --orders`` writes the orders of a turn on the map before it; it refuses
    GeoJSON and the set-up, which has no orders."""
    folder = ROOT / "data" / "sample-cien"
    out = tmp_path / "orders.svg"
    res = CliRunner().invoke(main, ["map", str(folder), "--orders", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "the orders of turn 6 on the map before it, public view" in res.output
    text = out.read_text("utf-8")
    assert "the orders of turn 6" in text and 'data-kind="conquest"' in text
    res = CliRunner().invoke(main, ["map", str(folder), "--orders", "--out",
                                    str(tmp_path / "x.geojson")])
    assert res.exit_code != 0 and "not written to GeoJSON" in res.output
    res = CliRunner().invoke(main, ["map", str(folder), "--orders", "--turn", "0", "--out",
                                    str(tmp_path / "x.svg")])
    assert res.exit_code != 0 and "the set-up, which has no orders" in res.output


@pytest.mark.parametrize("name", SAMPLES)
def test_the_desks_maps_show_the_coming_turns_orders(name: str, tmp_path: Path) -> None:
    """The turn notebooks (marimo and Jupyter, both through the desk) show the orders received
    for the coming turn on the map before it, and each step's view shows them as decided so
    far."""
    desk = Desk.open(Desk.working_copy(ROOT / "data" / f"sample-{name}", tmp_path / name))
    pending = desk.orders_svg()
    assert pending is not None and _drawn(pending)
    view = desk.step()
    assert view.orders_svg is not None and _drawn(view.orders_svg)
    assert view.to_html().count("<svg") == 2
