import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="gmkit: the GM's turn")


@app.cell
def _():
    import html
    from pathlib import Path

    import marimo as mo

    from gmkit.desk import Desk, DeskError, frame_html, iframe_html, sample_working_copy
    return Desk, DeskError, Path, frame_html, html, iframe_html, mo, sample_working_copy


@app.cell
def _(mo):
    mo.md("""
    # The GM's turn

    Open a game (by default a working copy of the bundled sample; `-- --sample aztlan` opens the
    AZTLAN sample, `-- --game PATH` another folder), take the players' posts, look at the odds, resolve the turn step by
    step, then commit it, reveal the seed and write the summaries.
    """)
    return


@app.cell
def _(Desk, DeskError, Path, mo, sample_working_copy):
    # The game folder: --game PATH, else the working copy of a bundled sample (--sample NAME,
    # cien by default), made once, then reused.
    _arg = mo.cli_args().get("game")
    _sample = mo.cli_args().get("sample")
    desk, open_error = None, None
    try:
        if _arg not in (None, "", True):
            desk = Desk.open(Path(str(_arg)))
        else:
            desk = Desk.open(sample_working_copy(
                Path(__file__).resolve().parent.parent,
                sample=str(_sample) if _sample not in (None, "", True) else "cien"))
    except DeskError as _e:
        open_error = str(_e)
    return desk, open_error


@app.cell
def _(html, mo, open_error):
    mo.callout(mo.Html(f"<b>No game opened.</b> {html.escape(open_error)}"),
               kind="danger") if open_error else None
    return


@app.cell
def _(mo):
    # tick: bumped after every action, so every view below is redrawn from the desk
    get_tick, set_tick = mo.state(0)
    get_flash, set_flash = mo.state(None)
    get_published, set_published = mo.state(None)
    get_cleared, set_cleared = mo.state(0)
    return (
        get_cleared,
        get_flash,
        get_published,
        get_tick,
        set_cleared,
        set_flash,
        set_published,
        set_tick,
    )


@app.cell
def _(DeskError, set_flash, set_tick):
    def act(fn):
        """A button handler: run fn (it returns what to tell the GM), show a DeskError in red."""
        def handler(_value):
            try:
                set_flash(("success", fn()))
            except DeskError as e:
                set_flash(("danger", str(e)))
            set_tick(lambda t: t + 1)
        return handler
    return (act,)


@app.cell
def _(get_flash, html, mo):
    _flash = get_flash()
    mo.callout(mo.Html(f"<span style='white-space:pre-wrap'>{html.escape(_flash[1])}</span>"),
               kind=_flash[0]) if _flash else None
    return


@app.cell
def _(desk, get_tick, html, mo):
    mo.stop(desk is None)
    get_tick()
    overview = desk.overview()
    mo.vstack([
        mo.Html(f"<h2>1. {html.escape(overview.title)}: turn {overview.turn}</h2>"),
        mo.Html(f"<p>{html.escape(overview.summary())}</p>"),
        mo.ui.table(overview.standings, selection=None, pagination=False,
                    show_column_summaries=False, label="Standings (GM view)"),
        mo.Html(desk.map_svg(title=f"After turn {overview.latest_turn}") or ""),
    ])
    return


@app.cell
def _(desk, get_cleared, mo):
    mo.stop(desk is None)
    get_cleared()
    player = mo.ui.dropdown(desk.players(), value=desk.players()[0], label="Player")
    secret = mo.ui.checkbox(label="secret (a PM or an e-mail)")
    post_text = mo.ui.text_area(placeholder="Paste the player's post here, or type the orders",
                                rows=8, full_width=True)
    return player, post_text, secret


@app.cell
def _(act, desk, mo, player, post_text, secret, set_cleared):
    def _store():
        got = desk.receive(player.value, post_text.value, secret.value)
        set_cleared(lambda n: n + 1)
        quote = got.report()
        return (f"stored post #{got.seq} of {got.player}"
                + (f"; quote back to the player:\n{quote}" if quote else ""))

    store_button = mo.ui.button(label="Store the post", kind="success", on_click=act(_store))
    return (store_button,)


@app.cell
def _(DeskError, desk, get_tick, html, mo, player, post_text, secret, store_button):
    get_tick()
    if post_text.value.strip():
        try:
            _preview = mo.Html(desk.preview_post(player.value, post_text.value,
                                                 secret.value).to_html())
        except DeskError as _e:
            _preview = mo.callout(mo.Html(html.escape(str(_e))), kind="danger")
    else:
        _preview = mo.md("_Paste a post to see at once how it reads._")
    mo.vstack([mo.md("## 2. Orders"), mo.hstack([player, secret], justify="start"), post_text,
               _preview, store_button])
    return


@app.cell
def _(act, desk, get_tick, mo):
    mo.stop(desk is None)
    get_tick()
    posts = desk.posts()
    withdraw_choice = mo.ui.dropdown(
        {f"#{s} {p}": s for s, p in posts.select("seq", "player").iter_rows()},
        label="Post to withdraw")

    def _withdraw():
        desk.withdraw(withdraw_choice.value)
        return f"post #{withdraw_choice.value} withdrawn"

    withdraw_button = mo.ui.button(label="Withdraw", kind="warn", on_click=act(_withdraw))
    return posts, withdraw_button, withdraw_choice


@app.cell
def _(desk, frame_html, mo, posts, withdraw_button, withdraw_choice):
    mo.vstack([
        mo.md(f"### Posts for turn {desk.turn}"),
        mo.ui.table(posts, selection=None, pagination=False, show_column_summaries=False)
        if posts.height else mo.Html(frame_html(posts, empty="no post yet")),
        mo.hstack([withdraw_choice, withdraw_button], justify="start"),
        mo.Html(frame_html(desk.problems(), caption="Rejected lines and problems of the posts "
                           "that count", empty="none")),
        # Rulesets that draw orders (AZTLAN's arrows) show them on the map before resolving.
        mo.Html(desk.orders_svg() or ""),
    ])
    return


@app.cell
def _(desk, frame_html, get_tick, mo):
    mo.stop(desk is None)
    get_tick()
    mo.vstack([mo.md("## 3. Odds before rolling"),
               mo.Html(frame_html(desk.odds(), empty="no contested action"))])
    return


@app.cell
def _(act, desk, mo):
    mo.stop(desk is None)
    next_button = mo.ui.button(label="Next step", kind="success",
                               on_click=act(lambda: desk.step().heading()))

    def _back():
        view = desk.back()
        return f"back to {view.heading()}" if view else "back at the start of the turn"

    back_button = mo.ui.button(label="Step back", on_click=act(_back))
    all_button = mo.ui.button(label="Run all steps",
                              on_click=act(lambda: desk.run_all().heading()))

    def _restart():
        desk.restart()
        return "back at the start of the turn"

    restart_button = mo.ui.button(label="Restart", on_click=act(_restart))
    return all_button, back_button, next_button, restart_button


@app.cell
def _(DeskError, all_button, back_button, desk, get_tick, html, mo, next_button,
      restart_button):
    mo.stop(desk is None)
    get_tick()
    try:
        _commitment = mo.md(f"Dice commitment for turn {desk.turn} (post it before resolving): "
                            f"`{desk.commitment()}`")
    except DeskError as _e:
        _commitment = mo.callout(mo.Html(html.escape(str(_e))), kind="danger")
    _view = desk.current()
    if _view is None:
        _shown = mo.md(f"_No step run yet. Next: **{desk.next_title}**._")
    else:
        _shown = mo.Html(_view.to_html())
    mo.vstack([mo.md("## 4. Resolve step by step"), _commitment,
               mo.hstack([next_button, back_button, all_button, restart_button],
                         justify="start"), _shown])
    return


@app.cell
def _(mo):
    get_draw, set_draw = mo.state(None)
    return get_draw, set_draw


@app.cell
def _(DeskError, desk, get_draw, get_tick, mo, set_draw):
    mo.stop(desk is None)
    get_tick()
    try:
        draws = desk.draws()
    except DeskError:
        draws = None
    _ids = draws["draw_id"].to_list() if draws is not None else []
    draw_choice = mo.ui.dropdown(_ids, value=get_draw() if get_draw() in _ids else None,
                                 searchable=True, label="Draw", on_change=set_draw)
    die_value = mo.ui.text(placeholder="7  (two dice: 3 5)", label="Value")
    return die_value, draw_choice, draws


@app.cell
def _(act, desk, die_value, draw_choice, frame_html, mo, draws):
    def _enter():
        desk.enter_die(draw_choice.value or "", die_value.value)
        return f"die {draw_choice.value} = {die_value.value.strip()} entered"

    def _clear():
        desk.clear_die(draw_choice.value or "")
        return f"die {draw_choice.value} back to its seeded roll"

    enter_button = mo.ui.button(label="Enter die", on_click=act(_enter))
    clear_button = mo.ui.button(label="Use the seeded die", on_click=act(_clear))
    mo.vstack([
        mo.md("### Dice rolled elsewhere"),
        mo.hstack([draw_choice, die_value, enter_button, clear_button], justify="start"),
        mo.accordion({"Every draw of the turn": mo.Html(
            frame_html(draws, empty="no draw") if draws is not None else "")}),
    ])
    return


@app.cell
def _(act, desk, mo, set_published):
    mo.stop(desk is None)

    def _publish():
        published = desk.publish_reports()
        set_published(published)
        return "wrote " + ", ".join(p.name for p in published.paths)

    commit_button = mo.ui.button(label="Commit the turn", kind="danger",
                                 on_click=act(lambda: f"turn {desk.commit()} committed"))
    reveal_button = mo.ui.button(label="Reveal the seed",
                                 on_click=act(lambda: f"seed revealed: {desk.reveal()}"))
    publish_button = mo.ui.button(label="Write the summaries", kind="success",
                                  on_click=act(_publish))
    mo.vstack([mo.md("## 5. Commit, reveal, publish"),
               mo.hstack([commit_button, reveal_button, publish_button], justify="start")])
    return


@app.cell
def _(get_published, iframe_html, mo):
    _pub = get_published()
    mo.stop(_pub is None)
    mo.vstack([
        mo.md(f"### Summaries of turn {_pub.turn}"
              + ("" if _pub.revealed else " (the seed is not revealed yet)")),
        mo.ui.tabs({
            "public": mo.Html(iframe_html(_pub.html["public"], height=600)),
            "GM": mo.Html(iframe_html(_pub.html["gm"], height=600)),
        }),
        mo.ui.text_area(value=_pub.bbcode["public"], rows=10, full_width=True,
                        label="Public BBCode, ready to copy"),
        mo.ui.text_area(value=_pub.bbcode["gm"], rows=10, full_width=True,
                        label="GM BBCode"),
    ])
    return


@app.cell
def _():
    import pytest
    return (pytest,)


@app.cell
def _(pytest):
    @pytest.fixture
    def sample_desk(tmp_path):
        """A desk on a throw-away copy of the bundled sample game."""
        import shutil
        from pathlib import Path

        from gmkit.desk import Desk as _Desk

        root = Path(__file__).resolve().parent.parent / "data" / "sample-cien"
        shutil.copytree(root, tmp_path / "game")
        return _Desk.open(tmp_path / "game")

    def test_a_misspelt_province_is_explained_and_nothing_is_stored(sample_desk):
        """Orders: a rejected line names its line and the nearest name; a preview stores nothing."""
        before = sample_desk.posts().height
        preview = sample_desk.preview_post("Red", "[b]10 Grain for Conquest of Troies[/b]")
        assert preview.rejected.to_dicts() == [
            {"line": 1, "text": "10 Grain for Conquest of Troies",
             "reason": "no province 'Troies'; did you mean Tróys?"}]
        assert sample_desk.posts().height == before

    def test_stepping_back_and_forward_rolls_the_same_dice(sample_desk):
        """The same seed and orders give the same dice, however the GM steps."""
        first = sample_desk.run_all()
        dice = [v.dice.height for v in sample_desk.views()]
        while sample_desk.back() is not None:
            pass
        again = sample_desk.run_all()
        assert first.to_text() == again.to_text()
        assert [v.dice.height for v in sample_desk.views()] == dice
    return


if __name__ == "__main__":
    app.run()
