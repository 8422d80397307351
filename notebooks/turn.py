import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="gmkit: the GM's turn")


@app.cell
def _():
    import html
    from pathlib import Path

    import marimo as mo

    from gmkit.desk import (Desk, DeskError, callout_html, frame_html, iframe_html,
                            sample_working_copy, zoomable_map)
    return (Desk, DeskError, Path, callout_html, frame_html, html, iframe_html, mo,
            sample_working_copy, zoomable_map)


@app.cell
def _(mo):
    _game, _sample = mo.cli_args().get("game"), mo.cli_args().get("sample")
    if _game not in (None, "", True):
        _opened = f"This opens the game folder `{_game}`."
    else:
        _name = str(_sample) if _sample not in (None, "", True) else "cien"
        _opened = (f"This opens a working copy of the bundled `{_name}` sample (the sample "
                   "itself is never changed).")
    mo.md(f"""
    # The GM's turn

    The turn in four phases, one tab each: take the players' **orders**, look at the **odds**
    and post the dice **commitment**, **resolve** the turn step by step, then **commit** it,
    reveal the seed and **publish** the summaries. The line above the tabs says where the turn
    stands.

    {_opened} Another game: `-- --sample NAME` for the samples `cien`, `aztlan`, `pyramid`,
    `jungle` and `aeternus`; `-- --game PATH` for a game folder of your own (in Jupyter:
    `python3 bootstrap.py jupyter NAME` or `... PATH`); `-- --work DIR` keeps the sample's
    working copy in DIR instead of `out/turn-notebook`. Browser tabs on one notebook share the
    game folder, not the resolution: each resolves the turn on its own, and once one commits,
    the others show the folder's new turn.
    """)
    return


@app.cell
def _(Desk, DeskError, Path, mo, sample_working_copy):
    # The game folder: --game PATH, else the working copy of a bundled sample (--sample NAME,
    # cien by default), made once, then reused: every browser tab (each a session of the one
    # notebook server) plays on the same copy, whose lock serializes the writes.
    _arg = mo.cli_args().get("game")
    _sample = mo.cli_args().get("sample")
    _work = mo.cli_args().get("work")
    desk, open_error = None, None
    try:
        if _arg not in (None, "", True):
            desk = Desk.open(Path(str(_arg)))
        else:
            _name = str(_sample) if _sample not in (None, "", True) else "cien"
            desk = Desk.open(sample_working_copy(
                Path(__file__).resolve().parent.parent, sample=_name,
                into=Path(str(_work)) / f"sample-{_name}" if _work not in (None, "", True)
                else None))
    except DeskError as _e:
        open_error = str(_e)
    except Exception as _e:  # noqa: BLE001 - shown in the page, never only in the terminal
        open_error = (f"{type(_e).__name__}: {_e}. Reload the page; if it says this again, "
                      "open the game folder with -- --game PATH, or delete the sample's "
                      "working copy (out/turn-notebook) to make it anew.")
    if desk is not None:
        desk.warm_up()  # the summaries' libraries load meanwhile
    return desk, open_error


@app.cell
def _(html, mo, open_error):
    mo.callout(mo.Html(f"<b>No game opened.</b> {html.escape(open_error)}"),
               kind="danger") if open_error else None
    return


@app.cell
def _(mo):
    # What changed, so that only the views showing it are drawn again.
    get_posts_tick, set_posts_tick = mo.state(0)  # a post stored or withdrawn
    get_steps_tick, set_steps_tick = mo.state(0)  # a step run or undone, a die entered
    get_dice_tick, set_dice_tick = mo.state(0)  # a die entered or cleared
    # a turn committed, a seed revealed; the commit buttons' own cell runs again on it, so
    # that Commit cannot be pressed again on a turn just committed
    get_turn_tick, set_turn_tick = mo.state(0, allow_self_loops=True)
    get_guard_tick, set_guard_tick = mo.state(0)  # a deadline set, a seal, a beacon
    # What each section's last action said, shown beside its buttons: section -> (kind, text)
    get_said, set_said = mo.state({})
    get_published, set_published = mo.state(None)
    return (get_dice_tick, get_guard_tick, get_posts_tick, get_published, get_said,
            get_steps_tick, get_turn_tick, set_dice_tick, set_guard_tick, set_posts_tick,
            set_published, set_said, set_steps_tick, set_turn_tick)


@app.cell
def _(DeskError, callout_html, mo, set_said):
    def act(section, fn, *ticks):
        """A button handler: run fn (it returns what to tell the GM), keep what it said (a
        DeskError in red) for the section's message, then bump the ticks of what changed.

        A refused action changed nothing (a DeskError leaves the game folder as it was), so
        its ticks stay: the GM's choices and typing stay in their fields to be corrected."""
        def handler(_value):
            try:
                said, changed = ("success", fn()), True
            except DeskError as e:
                said, changed = ("danger", str(e)), False
            set_said(lambda old: {**old, section: said})
            for tick in ticks if changed else ():
                tick(lambda t: t + 1)
        return handler

    def said_html(said, section):
        """The message of a section's last action, to show beside its buttons."""
        kind, text = said.get(section, ("", ""))
        return mo.Html(f"<div class='gmkit-said' data-section='{section}' "
                       "style='max-width:100%;overflow-wrap:anywhere'>"
                       f"{callout_html(text, kind) if text else ''}</div>")
    return act, said_html


@app.cell
def _(mo):
    # This tab looks every few seconds whether another tab or a gmkit command committed a turn
    folder_watch = mo.ui.refresh(options=["3s", "10s", "1m"], default_interval="3s",
                                 label="Look for turns committed elsewhere every")
    return (folder_watch,)


@app.cell
def _(desk, folder_watch, mo, set_steps_tick, set_turn_tick):
    mo.stop(desk is None)
    folder_watch.value  # noqa: B018 - run again at each look
    if desk.folder_moved_on():
        set_turn_tick(lambda t: t + 1)
        set_steps_tick(lambda t: t + 1)
    return


@app.cell
def _(DeskError, desk, folder_watch, get_posts_tick, get_steps_tick, get_turn_tick, html,
      mo):
    # Where the turn stands, above the tabs.
    mo.stop(desk is None)
    get_posts_tick(), get_steps_tick(), get_turn_tick()
    _ov = desk.overview()
    if _ov.outcome:
        _state = f"the game is over: {_ov.outcome}"
    else:
        _waiting = ", ".join(_ov.waiting) or "nobody"
        _ran = desk.position
        _steps = ("not started" if _ran == 0 and desk.session is None else
                  f"{_ran} of {desk.step_count} steps run")
        _state = (f"turn {_ov.latest_turn} committed; turn {_ov.turn}: {_ov.posts} post(s), "
                  f"waiting for {_waiting}; resolution {_steps}")
    try:
        _commitment = (f"Dice commitment for turn {_ov.turn} (post it before resolving): "
                       f"`{desk.commitment()}`") if not _ov.outcome else ""
    except DeskError as _e:
        _commitment = html.escape(str(_e))
    _moved = (f"\n\n_Turn {desk.superseded} was committed in another tab (or by a gmkit "
              "command): this tab now shows the folder's new turn._"
              if desk.superseded is not None else "")
    mo.vstack([mo.md(f"## {html.escape(_ov.title)}\n\n**Where the turn stands:** "
                     f"{html.escape(_state)}.{_moved}\n\n{_commitment}"), folder_watch])
    return


@app.cell
def _(mo):
    phase = mo.ui.tabs({"The game": "", "Orders": "", "Odds and commitment": "",
                        "Resolution": "", "Commit and publish": ""})
    phase
    return (phase,)


@app.cell
def _(mo):
    # how large the map is drawn; the frame around it scrolls, so the GM pans a large map
    map_zoom = mo.ui.slider(50, 400, step=25, value=100, label="Map zoom (%)")
    return (map_zoom,)


@app.cell
def _(mo):
    def map_download(game, turn):
        """A button giving the public map after ``turn`` as the forum's 1200-pixel PNG."""
        from gmkit.publish.mapfile import default_name, map_png

        return mo.download(data=lambda: map_png(game, turn), filename=default_name(turn),
                           mimetype="image/png", label="Download the map for the forum (PNG)")
    return (map_download,)


@app.cell
def _(map_download, desk, get_posts_tick, get_turn_tick, map_zoom, mo, phase,
      zoomable_map):
    mo.stop(desk is None or phase.value != "The game")
    get_turn_tick(), get_posts_tick()
    _ov = desk.overview()
    _map = desk.map_svg(title=f"After turn {_ov.latest_turn}")
    mo.vstack([
        mo.md(f"### Turn {_ov.turn}: the game after turn {_ov.latest_turn}"),
        mo.Html(f"<p>{_ov.summary()}</p>"),
        mo.Html(_ov.standings_html()),
        map_zoom,
        mo.Html(zoomable_map(_map, map_zoom.value) if _map else ""),
        map_download(desk.game, _ov.latest_turn) if _map else mo.md(""),
        # The orders received so far, drawn on the map (arrows and marks, as each game draws them)
        mo.Html(zoomable_map(_orders, map_zoom.value) if (_orders := desk.orders_svg()) else ""),
    ])
    return


@app.cell
def _(desk, get_cleared, mo):
    mo.stop(desk is None)
    get_cleared()
    _choices = desk.player_choices()  # "Red \u2014 Aldric", "Silver (free)", ...
    player = mo.ui.dropdown(_choices, value=next(iter(_choices)), label="Player")
    secret = mo.ui.checkbox(label="secret (a PM or an e-mail)")
    # sent a quarter second after the GM stops typing, so the preview follows the typing
    post_text = mo.ui.text_area(placeholder="Paste the player's post here, or type the orders",
                                rows=8, full_width=True, debounce=250)
    return player, post_text, secret


@app.cell
def _(mo):
    get_cleared, set_cleared = mo.state(0)
    return get_cleared, set_cleared


@app.cell
def _(act, desk, mo, player, post_text, secret, set_cleared, set_posts_tick, set_steps_tick):
    def _store():
        got = desk.receive(player.value, post_text.value, secret.value)
        set_cleared(lambda n: n + 1)
        quote = got.report()
        return (f"stored post #{got.seq} of {got.player}"
                + (f"; quote back to the player:\n{quote}" if quote else ""))

    store_button = mo.ui.button(label="Store the post", kind="success",
                                on_click=act("orders", _store, set_posts_tick, set_steps_tick))
    return (store_button,)


@app.cell
def _(DeskError, callout_html, desk, get_posts_tick, get_said, mo, phase, player, post_text,
      said_html, secret, store_button):
    mo.stop(desk is None or phase.value != "Orders")
    get_posts_tick()
    if post_text.value.strip():
        try:
            _preview = mo.Html(desk.preview_post(player.value, post_text.value,
                                                 secret.value).to_html())
        except DeskError as _e:
            _preview = mo.Html(callout_html(str(_e), "danger"))
    else:
        _preview = mo.md("_Paste a post: how it reads shows here as you type._")
    mo.vstack([mo.md(f"### 1. Orders for turn {desk.turn}"),
               mo.hstack([player, secret], justify="start"), post_text, _preview,
               mo.hstack([store_button, said_html(get_said(), "orders")], justify="start",
                         align="start")])
    return


@app.cell
def _(desk, get_posts_tick, mo):
    mo.stop(desk is None)
    get_posts_tick()
    posts = desk.posts()
    withdraw_choice = mo.ui.dropdown(
        {f"#{s} {p}": s for s, p in posts.select("seq", "player").iter_rows()},
        label="Post to withdraw")
    # recorded with the post set aside, as `gmkit withdraw --why` records it
    withdraw_reason = mo.ui.text(placeholder="why: e.g. posted under the wrong player",
                                 label="Reason", full_width=True)
    return posts, withdraw_choice, withdraw_reason


@app.cell
def _(DeskError, act, desk, mo, set_posts_tick, set_steps_tick, withdraw_choice,
      withdraw_reason):
    def _withdraw():
        if withdraw_choice.value is None:
            raise DeskError("choose the post to withdraw")
        _why = withdraw_reason.value.strip()
        if not _why:
            raise DeskError(f"say why post #{withdraw_choice.value} is withdrawn (the reason "
                            "is kept with it); nothing was withdrawn")
        desk.withdraw(withdraw_choice.value, _why)
        return f"post #{withdraw_choice.value} withdrawn: {_why}"

    withdraw_button = mo.ui.button(
        label="Withdraw", kind="warn",
        on_click=act("withdraw", _withdraw, set_posts_tick, set_steps_tick))
    return (withdraw_button,)


@app.cell
def _(desk, frame_html, get_said, map_zoom, mo, phase, posts, said_html, withdraw_button,
      withdraw_choice, withdraw_reason, zoomable_map):
    mo.stop(desk is None or phase.value != "Orders")
    mo.vstack([
        mo.md(f"### Posts for turn {desk.turn}"),
        mo.Html(frame_html(posts, empty="no post yet")),
        mo.hstack([withdraw_choice, withdraw_reason, withdraw_button], justify="start",
                  align="end"),
        said_html(get_said(), "withdraw"),
        mo.Html(frame_html(desk.problems(), caption="Rejected lines and problems of the posts "
                           "that count", empty="none")),
        # The orders drawn on the map before resolving (arrows and marks, as each game draws them)
        mo.Html(zoomable_map(_orders, map_zoom.value) if (_orders := desk.orders_svg()) else ""),
    ])
    return


@app.cell
def _(DeskError, callout_html, desk, frame_html, get_guard_tick, get_posts_tick,
      get_turn_tick, html, mo, phase):
    mo.stop(desk is None or phase.value != "Odds and commitment")
    get_posts_tick(), get_turn_tick(), get_guard_tick()
    try:
        _commitment = mo.md(f"**Dice commitment for turn {desk.turn}** (post it before "
                            f"resolving): `{html.escape(desk.commitment())}`")
    except DeskError as _e:
        _commitment = mo.Html(callout_html(str(_e), "danger"))
    _left_out = desk.odds_notes()  # rejected orders the odds leave out, by contest
    mo.vstack([mo.md(f"### 2. Odds before rolling, turn {desk.turn}"),
               mo.Html(frame_html(desk.odds(), empty="no contested action")),
               mo.md("**Rejected orders these odds leave out:**\n\n" + "\n".join(
                   f"- {html.escape(_l)}" for _l in _left_out)) if _left_out else mo.md(""),
               _commitment])
    return


@app.cell
def _(mo):
    # The fields of the dice guard: the order deadline, then the beacon as published
    deadline_text = mo.ui.text(placeholder="2026-11-30T20:00:00+00:00", label="Order deadline")
    beacon_round = mo.ui.text(placeholder="drand round, or the draw's date", label="Round")
    beacon_signature = mo.ui.text(placeholder="drand: the round's signature (hex)",
                                  label="Signature", full_width=True)
    beacon_source = mo.ui.text(placeholder="or a named source: lottery:EuroMillions",
                               label="Source")
    beacon_value = mo.ui.text(placeholder="the named source's value, as published",
                              label="Value")
    return beacon_round, beacon_signature, beacon_source, beacon_value, deadline_text


@app.cell
def _(act, beacon_round, beacon_signature, beacon_source, beacon_value, deadline_text, desk,
      mo, set_guard_tick, set_steps_tick):
    deadline_button = mo.ui.button(label="Set the deadline", on_click=act(
        "guard", lambda: desk.set_deadline(deadline_text.value), set_guard_tick))
    seal_button = mo.ui.button(label="Seal the posts", on_click=act(
        "guard", lambda: desk.seal(), set_guard_tick))
    beacon_button = mo.ui.button(label="Enter the beacon", kind="success", on_click=act(
        "guard", lambda: desk.enter_beacon(
            round=beacon_round.value, signature=beacon_signature.value,
            source=beacon_source.value, value=beacon_value.value),
        set_guard_tick, set_steps_tick))
    return beacon_button, deadline_button, seal_button


@app.cell
def _(beacon_button, beacon_round, beacon_signature, beacon_source, beacon_value,
      deadline_button, deadline_text, desk, get_guard_tick, get_posts_tick, get_said,
      get_turn_tick, html, mo, phase, said_html, seal_button):
    mo.stop(desk is None or phase.value != "Odds and commitment")
    get_guard_tick(), get_posts_tick(), get_turn_tick()
    _lines = desk.dice_guard()
    _rows = [mo.md("#### What guards this turn's dice"),
             mo.md("\n".join(f"- {html.escape(_l)}" for _l in _lines)),
             mo.hstack([deadline_text, deadline_button], justify="start")]
    if len(_lines) > 2:  # a game that mixes its dice with a public beacon
        _rows += [mo.md("After the deadline, seal the posts (post the seal), then enter the "
                        "beacon round published after it."),
                  mo.hstack([seal_button], justify="start"),
                  mo.hstack([beacon_round, beacon_source, beacon_value], justify="start"),
                  mo.hstack([beacon_signature, beacon_button], justify="start")]
    mo.vstack([*_rows, said_html(get_said(), "guard")])
    return


@app.cell
def _(act, desk, mo, set_steps_tick):
    mo.stop(desk is None)
    next_button = mo.ui.button(label="Next step", kind="success",
                               on_click=act("resolve", lambda: desk.step().heading(),
                                            set_steps_tick))

    def _back():
        view = desk.back()
        return f"back to {view.heading()}" if view else "back at the start of the turn"

    back_button = mo.ui.button(label="Step back", on_click=act("resolve", _back, set_steps_tick))
    all_button = mo.ui.button(label="Run all steps",
                              on_click=act("resolve", lambda: desk.run_all().heading(),
                                           set_steps_tick))

    def _restart():
        desk.restart()
        return "back at the start of the turn"

    restart_button = mo.ui.button(label="Restart",
                                  on_click=act("resolve", _restart, set_steps_tick))
    return all_button, back_button, next_button, restart_button


@app.cell
def _(all_button, back_button, desk, get_posts_tick, get_said, get_steps_tick, get_turn_tick,
      map_zoom, mo, next_button, phase, restart_button, said_html):
    mo.stop(desk is None or phase.value != "Resolution")
    get_steps_tick(), get_posts_tick(), get_turn_tick()
    _view = desk.current()
    if _view is None:
        _shown = mo.md(f"_No step run yet. Next: **{desk.next_title}**._")
    elif _view.done:  # the whole turn at a glance
        _shown = mo.Html(desk.turn_so_far().to_html(maps_as_images=True, zoom=map_zoom.value))
    else:
        _shown = mo.Html(_view.to_html(maps_as_images=True, zoom=map_zoom.value))
    mo.vstack([mo.md(f"### 3. Resolve turn {desk.turn} step by step "
                     f"({desk.position} of {desk.step_count} run)"),
               mo.hstack([next_button, back_button, all_button, restart_button,
                          said_html(get_said(), "resolve")], justify="start", align="start"),
               map_zoom, _shown])
    return


@app.cell
def _(mo):
    get_draw, set_draw = mo.state(None)
    get_die_cleared, set_die_cleared = mo.state(0)
    return get_die_cleared, get_draw, set_die_cleared, set_draw


@app.cell
def _(DeskError, desk, get_dice_tick, get_draw, get_posts_tick, get_turn_tick, mo, set_draw):
    mo.stop(desk is None)
    get_dice_tick(), get_posts_tick(), get_turn_tick()
    try:
        draws = desk.draws()
    except DeskError:
        draws = None
    _ids = draws["draw_id"].to_list() if draws is not None else []
    draw_choice = mo.ui.dropdown(_ids, value=get_draw() if get_draw() in _ids else None,
                                 label="Draw", on_change=set_draw)
    return draw_choice, draws


@app.cell
def _(get_die_cleared, mo):
    get_die_cleared()
    # made again only when a die was entered, so a refused value stays in its field
    die_value = mo.ui.text(placeholder="7  (two dice: 3 5)", label="Value")
    return (die_value,)


@app.cell
def _(act, desk, die_value, draw_choice, mo, set_dice_tick, set_die_cleared, set_steps_tick):
    def _enter():
        desk.enter_die(draw_choice.value or "", die_value.value)
        set_die_cleared(lambda n: n + 1)
        return f"die {draw_choice.value} = {die_value.value.strip()} entered"

    def _clear():
        desk.clear_die(draw_choice.value or "")
        return f"die {draw_choice.value} back to its seeded roll"

    enter_button = mo.ui.button(label="Enter die",
                                on_click=act("dice", _enter, set_steps_tick, set_dice_tick))
    clear_button = mo.ui.button(label="Use the seeded die",
                                on_click=act("dice", _clear, set_steps_tick, set_dice_tick))
    return clear_button, enter_button


@app.cell
def _(clear_button, desk, die_value, draw_choice, draws, enter_button, frame_html, get_said, mo,
      phase, said_html):
    mo.stop(desk is None or phase.value != "Resolution")
    mo.vstack([
        mo.md("### Dice rolled elsewhere"),
        mo.hstack([draw_choice, die_value, enter_button, clear_button], justify="start"),
        said_html(get_said(), "dice"),
        mo.accordion({"Every draw of the turn": mo.Html(
            frame_html(draws, empty="no draw") if draws is not None else "")}),
    ])
    return


@app.cell
def _(act, desk, get_steps_tick, get_turn_tick, mo, set_dice_tick, set_posts_tick,
      set_published, set_steps_tick, set_turn_tick):
    mo.stop(desk is None)

    def _commit():
        turn = desk.commit()
        set_published(None)  # the summaries shown were of an earlier turn
        return f"turn {turn} committed; next: Reveal the seed, then Write the summaries"

    def _reveal():
        seed = desk.reveal()
        text = f"seed revealed: {seed}"
        if desk.published is not None and desk.published.turn == desk.game.latest_turn:
            set_published(desk.published)
            text += f"\nthe summaries were written again with it into {desk.published.folder}"
        return text

    def _publish():
        published = desk.publish_new()  # the turn committed here, or nothing new to write
        set_published(published)
        return published.summary()

    _all = (set_turn_tick, set_posts_tick, set_steps_tick, set_dice_tick)
    get_steps_tick(), get_turn_tick()
    # a turn is committed once every step has run: until then the button cannot be pressed
    commit_button = mo.ui.button(label="Commit the turn", kind="danger",
                                 disabled=not desk.ready_to_commit,
                                 on_click=act("publish", _commit, *_all))
    reveal_button = mo.ui.button(label="Reveal the seed",
                                 on_click=act("publish", _reveal, set_turn_tick))
    publish_button = mo.ui.button(label="Write the summaries", kind="success",
                                  on_click=act("publish", _publish))
    return commit_button, publish_button, reveal_button


@app.cell
def _(commit_button, desk, get_said, get_steps_tick, get_turn_tick, map_zoom, mo, phase,
      publish_button, reveal_button, said_html):
    mo.stop(desk is None or phase.value != "Commit and publish")
    get_steps_tick(), get_turn_tick()
    _latest = desk.game.latest_turn
    _revealed = _latest > 0 and desk.game.store.seed_path(_latest, revealed=True).exists()
    _state = (f"Turn {_latest} is committed (its seed "
              f"{'revealed' if _revealed else 'not revealed yet'}); turn {desk.turn}: "
              f"{desk.position} of {desk.step_count} steps run.")
    if desk.position:
        _below = mo.Html(desk.turn_so_far().to_html(maps_as_images=True, zoom=map_zoom.value))
    elif desk.committed_turn == _latest:  # committed here: what is left to do for it
        _below = mo.md(f"_Turn {_latest} is committed. Next: "
                       + ("write its summaries" if _revealed else
                          "reveal its seed, then write its summaries")
                       + f"; turn {desk.turn}'s orders go in the Orders tab._")
    else:
        _below = mo.md("_Run the steps (the Resolution tab) to see the whole turn here; "
                       "Commit the turn opens once every step has run._")
    mo.vstack([mo.md(f"### 4. Commit, reveal, publish\n\n{_state}"),
               # the buttons keep their row; what the last one said shows below, full width
               mo.hstack([commit_button, reveal_button, publish_button], justify="start",
                         wrap=True),
               said_html(get_said(), "publish"), _below])
    return


@app.cell
def _(get_published, iframe_html, mo, phase):
    _pub = get_published()
    mo.stop(_pub is None or phase.value != "Commit and publish")
    mo.vstack([
        mo.md(f"### Summaries of turn {_pub.turn}, in `{_pub.folder}`"
              + ("" if _pub.revealed else " (the seed is not revealed yet: they say so)")),
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
    # The notebook's own tests (run by pytest in the test install; the GM's install has no
    # pytest, and defining them costs nothing there)
    def sample_desk(tmp_path):
        """A desk on a throw-away copy of the bundled sample game."""
        import shutil
        from pathlib import Path

        from gmkit.desk import Desk as _Desk

        root = Path(__file__).resolve().parent.parent / "data" / "sample-cien"
        shutil.copytree(root, tmp_path / "game")
        return _Desk.open(tmp_path / "game")

    return (sample_desk,)


@app.cell
def _(sample_desk):
    def test_a_misspelt_province_is_explained_and_nothing_is_stored(tmp_path):
        """Orders: a rejected line names its line and the nearest name; a preview stores nothing."""
        desk = sample_desk(tmp_path)
        before = desk.posts().height
        preview = desk.preview_post("Red", "[b]10 Grain for Conquest of Troies[/b]")
        assert preview.rejected.to_dicts() == [
            {"line": 1, "text": "10 Grain for Conquest of Troies",
             "reason": "no province 'Troies'; did you mean Tróys?"}]
        assert desk.posts().height == before

    def test_stepping_back_and_forward_rolls_the_same_dice(tmp_path):
        """The same seed and orders give the same dice, however the GM steps."""
        desk = sample_desk(tmp_path)
        first = desk.run_all()
        dice = [v.dice.height for v in desk.views()]
        while desk.back() is not None:
            pass
        again = desk.run_all()
        assert first.to_text() == again.to_text()
        assert [v.dice.height for v in desk.views()] == dice
    return


if __name__ == "__main__":
    app.run()
