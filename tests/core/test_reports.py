"""Turn reports: the public view hides what it must, every output escapes player text."""

from __future__ import annotations

import json

import re
from dataclasses import fields, replace
from html.parser import HTMLParser

import altair as alt
import polars as pl
import pytest

from gmkit.core import reports
from gmkit.core.dice import commitment
from gmkit.core.reports import (
    EventLine,
    OrderPost,
    RollLine,
    StepSection,
    TurnReport,
    bbcode_escape,
    chart_svg,
    render,
    render_bbcode,
    render_html,
    view_report,
    write_report,
)

CANARY = "CANARY-7f3a"
NOTE_CANARY = "NOTE-CANARY-91c2"
HIDDEN_EVENT = "HIDDEN-EVENT-5d0e"
HIDDEN_ROLL = "HIDDEN-ROLL-a11b"
TREASURY = "987654"
XSS = "<script>alert(1)</script>"
BB_ATTACK = "[/b][url=http://evil]x[/url]"
GOOD_LINK = "https://example.org/arms/red.png"
SEED = "ab" * 32

MAP_BEFORE = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
              '<rect width="10" height="10" fill="#cde"/></svg>')
MAP_AFTER = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
             '<circle cx="5" cy="5" r="4" fill="#c33"/></svg>')

BB_TAG = re.compile(r"\[(/?)(b|i|u|size|url|list|\*)(=[^\]]*)?\]")


def make_report(**changes: object) -> TurnReport:
    standings = pl.DataFrame({
        "player": ["Red", XSS, "Blue"],
        "provinces": [7, 3, 5],
        "secret_treasury": [987654, 12, 40],
    })
    chart = alt.Chart(standings).mark_bar().encode(x="player:N", y="provinces:Q")
    steps = (
        StepSection(
            name="movement",
            title="Movement",
            rule="Rules 4.1",
            events=(
                EventLine("move", "4.1", "Red marches from Arden to Bree.", player="Red"),
                EventLine("move", "4.2", f"{XSS} sails to Cair.", player=XSS),
                EventLine("spy", "9.3", f"{HIDDEN_EVENT}: Blue's spy watches Red.",
                          public=False, player="Blue"),
            ),
            rolls=(
                RollLine("movement:storm", "storm at sea", "4.5", "1d6", "4", "seeded"),
                RollLine("movement:spy", f"{HIDDEN_ROLL} spy detection", "9.3", "1d10", "2",
                         "seeded", public=False),
            ),
        ),
        StepSection(
            name="battle",
            title="Battles",
            rule="Rules 5",
            events=(EventLine("battle", "5.2", "Red defeats Lord [b]Ashwood[/b] at Bree.",
                              player="Red"),),
            rolls=(
                RollLine("battle:bree#0", "battle at Bree", "5.2", "2d6", "9", "entered"),
            ),
        ),
    )
    base = TurnReport(
        game_title="Crowns of Ash",
        ruleset_title="Cien 1.0",
        turn=3,
        revision=1,
        view="gm",
        map_before_svg=MAP_BEFORE,
        map_after_svg=MAP_AFTER,
        steps=steps,
        standings=standings,
        gm_only_columns=("secret_treasury",),
        chart=chart,
        orders=(
            OrderPost("Blue", True, f"Assassinate the Red lord. {CANARY}"),
            OrderPost(XSS, False, BB_ATTACK, problems=("Unknown province 'Zed'",)),
            OrderPost("Red", False, "Hold Bree.\nRecruit at Arden."),
        ),
        seed_commitment=commitment(SEED),
        seed=SEED,
        outcome="Red leads after turn 3",
        gm_notes=(f"Blue's assassin succeeds next turn {NOTE_CANARY}",),
        links=(
            ("Red coat of arms", GOOD_LINK),
            ("Evil arms", "javascript:alert(1)"),
            (XSS, "http://example.org/a b\"onmouseover=alert(1)"),
        ),
    )
    return replace(base, **changes) if changes else base


@pytest.fixture(scope="module")
def report() -> TurnReport:
    return make_report()


@pytest.fixture(scope="module")
def gm_html(report: TurnReport) -> str:
    return render_html(report)


@pytest.fixture(scope="module")
def public_html(report: TurnReport) -> str:
    return render_html(view_report(report, "public"))


@pytest.fixture(scope="module")
def outputs(report: TurnReport, gm_html: str, public_html: str) -> dict[str, str]:
    return {
        "gm_html": gm_html,
        "public_html": public_html,
        "gm_bbcode": "\n".join(render_bbcode(report)),
        "public_bbcode": "\n".join(render_bbcode(view_report(report, "public"))),
        "public_bbcode_small": "\n".join(render_bbcode(view_report(report, "public"),
                                                      max_chars=400)),
        "gm_bbcode_small": "\n".join(render_bbcode(report, max_chars=400)),
    }


SECRETS = (CANARY, TREASURY, NOTE_CANARY, HIDDEN_EVENT, HIDDEN_ROLL, "secret_treasury")


# ---------------------------------------------------------------------------- hidden information


@pytest.mark.parametrize("name", ["public_html", "public_bbcode", "public_bbcode_small"])
def test_public_outputs_hold_no_secret(outputs: dict[str, str], name: str) -> None:
    text = outputs[name]
    for secret in SECRETS:
        assert secret not in text, f"{secret} leaked into {name}"
    assert "GM notes" not in text


@pytest.mark.parametrize("name", ["gm_html", "gm_bbcode"])
def test_gm_outputs_hold_everything(outputs: dict[str, str], name: str) -> None:
    text = outputs[name]
    for secret in SECRETS:
        assert secret in text, f"{secret} missing from {name}"


def test_public_view_filters(report: TurnReport) -> None:
    pub = view_report(report, "public")
    assert pub.view == "public"
    assert [o.player for o in pub.orders] == [XSS, "Red"]
    assert all(e.public for s in pub.steps for e in s.events)
    assert all(r.public for s in pub.steps for r in s.rolls)
    assert pub.standings is not None and "secret_treasury" not in pub.standings.columns
    assert pub.gm_notes == ()
    assert report.view == "gm" and len(report.orders) == 3  # the original is untouched


def test_public_view_is_idempotent(report: TurnReport) -> None:
    once = view_report(report, "public")
    twice = view_report(once, "public")
    for f in fields(TurnReport):
        a, b = getattr(once, f.name), getattr(twice, f.name)
        if isinstance(a, pl.DataFrame):
            assert a.equals(b)
        else:
            assert a == b, f.name
    assert render_html(once) == render_html(twice)
    assert render_bbcode(once) == render_bbcode(twice)


def test_view_report(report: TurnReport) -> None:
    assert view_report(report, "gm") is report
    assert view_report(report, "public").view == "public"
    with pytest.raises(ValueError):
        view_report(report, "bogus")
    with pytest.raises(ValueError):
        view_report(view_report(report, "public"), "gm")
    with pytest.raises(ValueError):
        TurnReport("g", "r", 1, view="everyone")


def test_chart_using_gm_only_column_is_dropped_in_public_view() -> None:
    df = pl.DataFrame({"player": ["Red", "Blue"], "secret_treasury": [987654, 3]})
    chart = alt.Chart(df).mark_bar().encode(x="player:N", y="secret_treasury:Q")
    rep = make_report(chart=chart)
    assert view_report(rep, "public").chart is None
    assert TREASURY in chart_svg(chart)  # the GM still sees it
    html = render_html(view_report(rep, "public"))
    assert TREASURY not in html and "<svg" in html  # the maps remain


def test_chart_tooltip_on_gm_only_column_is_dropped() -> None:
    df = pl.DataFrame({"player": ["Red"], "score": [1], "secret_treasury": [987654]})
    chart = alt.Chart(df).mark_bar().encode(x="player:N", y="score:Q",
                                            tooltip=["secret_treasury:Q"])
    assert view_report(make_report(chart=chart), "public").chart is None


def test_chart_inline_data_is_scrubbed(report: TurnReport) -> None:
    pub = view_report(report, "public")
    assert pub.chart is not None
    spec = pub.chart if isinstance(pub.chart, dict) else pub.chart.to_dict(validate=False)
    assert TREASURY not in json.dumps(spec)
    assert TREASURY in report.chart.to_json()


def test_render_convenience(report: TurnReport) -> None:
    assert render(report) == render_html(view_report(report, "public"))
    assert render(report, view="gm", fmt="bbcode") == render_bbcode(report)
    with pytest.raises(ValueError):
        render(report, fmt="pdf")


# ---------------------------------------------------------------------------- escaping


def test_raw_script_never_appears(outputs: dict[str, str]) -> None:
    for name, text in outputs.items():
        assert XSS not in text, name
        assert "<script" not in text.lower(), name


@pytest.mark.parametrize("name", ["gm_html", "public_html"])
def test_html_escapes_player_text(outputs: dict[str, str], name: str) -> None:
    text = outputs[name]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "[/b][url=http://evil]x[/url]" in text  # harmless in HTML, shown as typed
    assert "http://example.org/a b&#34;onmouseover=alert(1)" in text  # an unfit url, as text


def test_chart_svg_escapes_hostile_names() -> None:
    df = pl.DataFrame({"player": [XSS, 'Blue & "co"'], "score": [3, 5]})
    svg = chart_svg(alt.Chart(df).mark_bar().encode(x="player:N", y="score:Q",
                                                    tooltip=["player:N"]))
    assert XSS not in svg and "<script" not in svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg


def test_chart_svg_drops_external_images() -> None:
    data = alt.Data(values=[{"u": "http://example.com/x.png"}])
    chart = alt.Chart(data).mark_image().encode(url="u:N", x=alt.value(1), y=alt.value(1))
    svg = chart_svg(chart)
    assert 'href="http' not in svg


def test_sanitize_svg() -> None:
    dirty = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
             '<script>alert(1)</script><rect onclick="alert(1)" fill="url(#g)" '
             'style="background:url(http://x/y.png)"/><image xlink:href="http://x/i.png"/>'
             '<foreignObject><div/></foreignObject><use href="#g"/></svg>')
    clean = reports.sanitize_svg(dirty)
    assert "script" not in clean and "onclick" not in clean and "foreignObject" not in clean
    assert "http://x" not in clean
    assert 'fill="url(#g)"' in clean and 'href="#g"' in clean


@pytest.mark.parametrize("name", ["gm_bbcode", "public_bbcode", "gm_bbcode_small"])
def test_bbcode_player_text_cannot_form_tags(outputs: dict[str, str], name: str) -> None:
    text = outputs[name]
    assert "[url=http://evil" not in text
    assert "[/b][url=" not in text
    assert "[url=" not in text.replace(f"[url={GOOD_LINK}]", "")
    assert "[b]Ashwood" not in text
    # The escaped text still reads the same once the zero-width spaces are removed.
    assert BB_ATTACK in text.replace("\u200b", "")


def test_bbcode_escape() -> None:
    assert bbcode_escape("[b]x[/b]") == "[\u200bb]x[\u200b/b]"
    assert bbcode_escape("<i>") == "<\u200bi>"
    assert bbcode_escape("a\x00b\r\nc") == "a" + "b\nc"
    assert not BB_TAG.search(bbcode_escape(BB_ATTACK + XSS + "[*][list][size=200]"))


def test_bbcode_links(outputs: dict[str, str]) -> None:
    text = outputs["gm_bbcode"]
    assert f"[url={GOOD_LINK}]Red coat of arms[/url]" in text
    assert "[url=javascript" not in text
    assert "Evil arms: javascript:alert(1)" in text


def test_javascript_link_is_not_a_link(gm_html: str, public_html: str) -> None:
    for html in (gm_html, public_html):
        assert 'href="javascript' not in html.lower()
        assert "javascript:alert(1)" in html  # shown as text
        assert f'<a href="{GOOD_LINK}"' in html
        assert "onmouseover=alert(1)\"" not in html


# ---------------------------------------------------------------------------- offline HTML


@pytest.mark.parametrize("name", ["gm_html", "public_html"])
def test_html_makes_no_request(outputs: dict[str, str], name: str) -> None:
    html = outputs[name]
    low = html.lower()
    assert 'src="http' not in low and "src='http" not in low
    assert "<script" not in low
    assert "@import" not in low
    assert "url(http" not in low and "url('http" not in low and 'url("http' not in low
    assert "<link" not in low and "<iframe" not in low and "<object" not in low
    hrefs = re.findall(r'href="(http[^"]*)"', html)
    assert hrefs == [GOOD_LINK]
    assert f'content="{reports.CSP}"' in html
    assert '<meta http-equiv="Content-Security-Policy"' in html


class _Checker(HTMLParser):
    """Collects parse problems: unbalanced or misnested tags."""

    VOID = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "wbr", "source"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"unexpected </{tag}> with open {self.stack[-3:]}")
        else:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.mark.parametrize("name", ["gm_html", "public_html"])
def test_html_parses_cleanly(outputs: dict[str, str], name: str) -> None:
    checker = _Checker()
    checker.feed(outputs[name])
    checker.close()
    assert checker.errors == []
    assert checker.stack == []
    text = "".join(checker.text)
    assert XSS in text  # shown to the reader as typed


def test_html_sections(gm_html: str, public_html: str) -> None:
    for html in (gm_html, public_html):
        assert "Crowns of Ash" in html and "Cien 1.0" in html and "Turn 3" in html
        assert "Red leads after turn 3" in html
        assert html.count("<svg") == 3  # two maps and the chart
        assert "Movement" in html and "Rules 4.1" in html and "Battles" in html
        assert "entered by GM" in html
        assert "gmkit/1|3|&lt;draw id&gt;|&lt;attempt&gt;" in html  # how a player recomputes
        assert SEED in html and commitment(SEED) in html
        assert "matches the commitment" in html
    # the problems found in a post are the GM's to quote back privately (they may carry
    # GM-only figures), so only the GM view lists them
    assert "Unknown province" in gm_html and "Unknown province" not in public_html
    assert ">GM only</span>" in gm_html and "secret</span>" in gm_html
    assert ">Public</span>" in public_html
    assert "GM only" not in public_html and "secret</span>" not in public_html


def test_seed_not_yet_revealed() -> None:
    rep = make_report(seed=None)
    html = render_html(view_report(rep, "public"))
    assert "not yet revealed" in html
    assert "not yet revealed" in "\n".join(render_bbcode(rep))


def test_minimal_report_renders() -> None:
    rep = TurnReport("Game", "Rules", 1)
    html = render_html(rep)
    assert "none posted" in html and "not yet revealed" in html
    assert render_bbcode(view_report(rep, "public"))[0].startswith("[size=150][b]Game")


# ---------------------------------------------------------------------------- BBCode parts


def _balanced(part: str) -> bool:
    stack: list[str] = []
    for m in BB_TAG.finditer(part):
        closing, name = m.group(1), m.group(2)
        if name == "*":
            if not stack or stack[-1] != "list":
                return False
            continue
        if closing:
            if not stack or stack.pop() != name:
                return False
        else:
            stack.append(name)
    return not stack


def _many_events_report() -> TurnReport:
    events = tuple(
        EventLine("move", f"4.{i}", f"Army {i} of {XSS} moves [b]east[/b] {BB_ATTACK}",
                  player=f"Player {i}")
        for i in range(60)
    )
    rolls = tuple(RollLine(f"s:{i}", f"roll {i}", "4.5", "1d6", str(i % 6 + 1), "seeded")
                  for i in range(30))
    long_text = "word " * 300 + "[" * 50 + "x" * 500
    return make_report(
        steps=(StepSection("s", "Long step " * 3, "Rules 4", events=events, rolls=rolls),),
        orders=(OrderPost("Green", False, long_text),
                OrderPost("Grey", True, "x" * 900 + CANARY)),
        outcome="O" * 700,
    )


@pytest.mark.parametrize("max_chars", [200, 400, 1000, 3000])
@pytest.mark.parametrize("view", ["gm", "public"])
def test_bbcode_parts_fit_and_balance(max_chars: int, view: str) -> None:
    parts = render(_many_events_report(), view=view, fmt="bbcode", max_chars=max_chars)
    assert isinstance(parts, list) and len(parts) > 1
    n = len(parts)
    for i, part in enumerate(parts, 1):
        assert len(part) <= max_chars
        assert part.startswith(f"(part {i}/{n})\n")
        assert _balanced(part), part
    joined = "".join(p.replace("\u200b", "") for p in parts)
    for i in range(60):
        assert f"Army {i} of" in joined
    if view == "public":
        assert CANARY not in "".join(parts).replace("\n", "")


def test_bbcode_hard_wraps_long_lines() -> None:
    parts = render_bbcode(_many_events_report(), max_chars=400)
    lines = [ln for p in parts for ln in p.split("\n")]
    assert max(len(ln) for ln in lines) <= 400
    # An escape is never separated from its bracket.
    for ln in lines:
        assert not ln.startswith("\u200b")
        assert not ln.endswith("[") and not ln.endswith("<")


def test_bbcode_single_part_has_no_header(report: TurnReport) -> None:
    parts = render_bbcode(view_report(report, "public"))
    assert len(parts) == 1
    assert not parts[0].startswith("(part")
    assert _balanced(parts[0])
    assert parts[0].startswith("[size=150][b]Crowns of Ash")
    assert "[table" not in parts[0]


def test_bbcode_rejects_tiny_limit(report: TurnReport) -> None:
    with pytest.raises(ValueError):
        render_bbcode(report, max_chars=50)


# ---------------------------------------------------------------------------- files


def test_write_report_html(tmp_path, report: TurnReport) -> None:
    paths = write_report(report, tmp_path / "turn3", view="public", fmt="html")
    assert paths == [tmp_path / "turn3.html"]
    assert paths[0].read_text(encoding="utf-8") == render(report, view="public")
    paths = write_report(report, tmp_path / "t.html", view="gm", fmt="html")
    assert paths == [tmp_path / "t.html"] and CANARY in paths[0].read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.html", "turn3.html"]


def test_write_report_bbcode_parts(tmp_path) -> None:
    rep = _many_events_report()
    paths = write_report(rep, tmp_path / "turn3.bbcode", view="public", fmt="bbcode",
                         max_chars=400)
    assert len(paths) > 2
    assert [p.name for p in paths] == [f"turn3.part{i}.bbcode" for i in range(1, len(paths) + 1)]
    parts = render(rep, view="public", fmt="bbcode", max_chars=400)
    assert [p.read_text(encoding="utf-8").rstrip("\n") for p in paths] == parts
    # A shorter rendering replaces the parts: no stale file is left behind.
    single = write_report(make_report(), tmp_path / "turn3", view="public", fmt="bbcode")
    assert single == [tmp_path / "turn3.bbcode"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["turn3.bbcode"]


def test_write_report_writes_text_already_rendered(tmp_path, report: TurnReport,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A report rendered once is written as it is: the summaries are not drawn twice."""
    page = render(report, view="public")
    parts = render(_many_events_report(), view="public", fmt="bbcode", max_chars=400)

    def no_render(*args: object, **kw: object) -> None:
        raise AssertionError("rendered again")

    monkeypatch.setattr(reports, "render", no_render)
    html_path, = write_report(report, tmp_path / "turn3", view="public", fmt="html",
                              rendered=page)
    assert html_path.read_text(encoding="utf-8") == page
    paths = write_report(report, tmp_path / "turn3", view="public", fmt="bbcode",
                         rendered=parts)
    assert [p.read_text(encoding="utf-8").rstrip("\n") for p in paths] == parts
    with pytest.raises(TypeError):
        write_report(report, tmp_path / "x", view="public", fmt="bbcode", rendered=page)
    with pytest.raises(TypeError):
        write_report(report, tmp_path / "x", view="public", fmt="html", rendered=parts)


def test_trusted_markup_and_equal_plain_text_are_told_apart() -> None:
    """Control characters are stripped from what a page shows, trusted markup stays markup and
    player text equal to it stays text to escape, whichever came first."""
    import markupsafe

    from gmkit.core.reports import _no_controls

    assert type(_no_controls(markupsafe.Markup("<b>x</b>"))) is markupsafe.Markup
    assert type(_no_controls("<b>x</b>")) is str
    assert type(_no_controls(markupsafe.Markup("<b>x</b>"))) is markupsafe.Markup
    assert _no_controls("a\x00b\x1bc") == "abc"
    assert _no_controls(["a list"]) == ["a list"]


# ---------------------------------------------------------------------------- more hidden data


def test_public_view_equals_itself(report: TurnReport) -> None:
    once = view_report(report, "public")
    assert view_report(once, "public") == once


def test_hand_built_public_report_is_still_filtered(report: TurnReport) -> None:
    mislabeled = replace(report, view="public")
    html = render_html(mislabeled)
    bbcode = "\n".join(render_bbcode(mislabeled, max_chars=400))
    for secret in SECRETS:
        assert secret not in html and secret not in bbcode


def test_chart_filtering_on_gm_only_column_is_dropped() -> None:
    df = pl.DataFrame({"player": ["Red", "Blue"], "score": [1, 2], "secret_treasury": [9, 0]})
    chart = (alt.Chart(df).mark_bar().encode(x="player:N", y="score:Q")
             .transform_filter("datum.secret_treasury > 5"))
    assert view_report(make_report(chart=chart), "public").chart is None


def test_chart_with_text_data_naming_gm_only_column_is_dropped() -> None:
    data = alt.Data(values="player,score,secret_treasury\nRed,1,987654\n",
                    format=alt.DataFormat(type="csv"))
    chart = alt.Chart(data).mark_bar().encode(x="player:N", y="score:Q")
    assert view_report(make_report(chart=chart), "public").chart is None


def test_chart_without_gm_only_column_is_kept_as_is() -> None:
    df = pl.DataFrame({"player": ["Red", "Blue"], "score": [1, 2]})
    chart = alt.Chart(df).mark_bar().encode(x="player:N", y="score:Q")
    assert view_report(make_report(chart=chart), "public").chart is chart
