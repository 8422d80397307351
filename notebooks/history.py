"""The history of a gmkit game, as a marimo notebook.

Open it with ``marimo edit notebooks/history.py`` (or ``marimo run``); pick another game with
``-- --game PATH`` or the text field at the top (``-- --view gm`` starts in the GM view). It also
runs headless as a script (``python notebooks/history.py --game PATH``) and exports to HTML
(``marimo export html notebooks/history.py -o history.html -- --game PATH``).

Every cell calls gmkit (:mod:`gmkit.publish.history` for the data, :mod:`gmkit.publish.charts` for the charts);
none holds rule logic.
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="Game history")


@app.cell
def _():
    from pathlib import Path

    import marimo as mo

    from gmkit.publish import history
    from gmkit.game import GameError

    return GameError, Path, history, mo


@app.cell
def _(Path, mo):
    # The game folder: ``--game PATH`` on the command line, else the repository's sample game.
    _given = mo.cli_args().get("game")
    default_game = str(_given) if _given not in (None, "") else \
        str(Path(__file__).resolve().parent.parent / "data" / "sample-cien")
    game_path = mo.ui.text(value=default_game, label="Game folder", full_width=True)
    game_path
    return (game_path,)


@app.cell
def _(GameError, game_path, history, mo):
    game, problem = None, None
    try:
        game = history.open_game(game_path.value)
    except GameError as _e:
        problem = str(_e)
    mo.stop(game is None, mo.callout(
        mo.vstack([mo.md("**Cannot open this game folder.** Type the path of a gmkit game "
                         "folder (one holding `game.toml` and `turns/`)."),
                   mo.plain_text(problem or "")]),
        kind="danger"))
    return (game,)


@app.cell
def _(game, mo):
    from html import escape

    from gmkit import charts  # once a game is open (altair takes a while to import)

    _views = {"Public (what the players see)": "public", "GM (everything)": "gm"}
    view = mo.ui.radio(options=_views, inline=True, label="View",
                       value=list(_views)[1 if mo.cli_args().get("view") == "gm" else 0])
    _turns = game.store.turns()
    mo.vstack([
        mo.md(f"# {escape(game.title)}\n\n*{game.ruleset.title}* \u00b7 turns {_turns[0]} to "
              f"{_turns[-1]} committed"),
        view,
    ])
    return charts, view


@app.cell
def _(game, history, view):
    series = history.player_series(game, view=view.value)
    colours = history.player_colours(game)
    return colours, series


@app.cell
def _(charts, game, history, mo, series):
    metric = mo.ui.dropdown(
        options={charts.metric_label(_m, game.ruleset.presentation.labels): _m
                 for _m in history.metrics(series)},
        value=charts.metric_label(history.metrics(series)[0], game.ruleset.presentation.labels),
        label="Metric")
    return (metric,)


@app.cell
def _(charts, colours, game, metric, mo, series):
    mo.vstack([
        mo.md("## The players over the turns"),
        metric,
        charts.series_chart(series, metric.value, colours=colours,
                            labels=game.ruleset.presentation.labels),
        mo.accordion({"Every metric at once": charts.metrics_chart(
            series, colours=colours, labels=game.ruleset.presentation.labels)}),
    ])
    return


@app.cell
def _(game, history, mo, view):
    # Other subjects the ruleset follows (the Law of the Jungle's characters), if any
    _subjects = game.ruleset.presentation.series
    mo.stop(not _subjects)
    subject_choice = mo.ui.dropdown(options={_w: _s for _s, _w in _subjects.items()},
                                    value=next(iter(_subjects.values())), label="Follow")
    subject_series = history.subject_series(game, next(iter(_subjects)), view=view.value)
    return subject_choice, subject_series


@app.cell
def _(game, history, mo, subject_choice, subject_series, view):
    _data = (subject_series if subject_choice.value == next(iter(game.ruleset.presentation.series))
             else history.subject_series(game, subject_choice.value, view=view.value))
    subject_metric = mo.ui.dropdown(options=history.metrics(_data) or ["-"],
                                    value=(history.metrics(_data) or ["-"])[0], label="Metric")
    return (subject_metric,)


@app.cell
def _(charts, colours, game, history, mo, subject_choice, subject_metric, view):
    _data = history.subject_series(game, subject_choice.value, view=view.value)
    mo.vstack([
        mo.md(f"## Each of the {game.ruleset.presentation.series[subject_choice.value]} over "
              "the turns"),
        mo.hstack([subject_choice, subject_metric], justify="start"),
        charts.subject_chart(_data, subject_metric.value, colours=colours,
                             subject=subject_choice.value,
                             labels=game.ruleset.presentation.labels)
        if not _data.is_empty() else mo.md("_Nothing to show in this view._"),
    ])
    return


@app.cell
def _(game, mo):
    _turns = game.store.turns()
    map_turn = mo.ui.slider(steps=_turns, value=_turns[-1], label="Turn", show_value=True,
                            full_width=True)
    return (map_turn,)


@app.cell
def _(game, history, map_turn, mo):
    from gmkit.publish.mapfile import default_name, map_png

    mo.vstack([
        mo.md("## The map"),
        map_turn,
        mo.Html(history.map_at(game, map_turn.value)),
        # the public map of that turn as the 1200-pixel PNG a forum shows
        mo.download(data=lambda: map_png(game, map_turn.value),
                    filename=default_name(map_turn.value), mimetype="image/png",
                    label="Download the map for the forum (PNG)"),
    ])
    return


@app.cell
def _(game, mo, view):
    # What if: a committed turn resolved again with one thing changed (nothing is written). The
    # GM's tool: it shows every post, secret ones too, so only in the GM view.
    _turns = game.store.turns()[1:]
    mo.stop(not _turns or view.value != "gm",
            mo.md("## What if\n\n_Resolving a past turn again with one thing changed is the "
                  "GM's: choose the GM view._") if _turns else None)
    whatif_turn = mo.ui.dropdown(options={f"turn {_t}": _t for _t in _turns},
                                 value=f"turn {_turns[-1]}", label="Turn")
    return (whatif_turn,)


@app.cell
def _(game, mo, whatif_turn):
    whatif_posts = {f"#{_r['seq']} ({_r['player']})": _r
                    for _r in game.turn(whatif_turn.value).orders.iter_rows(named=True)}
    whatif_post = mo.ui.dropdown(options=list(whatif_posts) or ["(no post)"],
                                 value=(list(whatif_posts) or ["(no post)"])[0], label="Post")
    return whatif_post, whatif_posts


@app.cell
def _(mo, whatif_post, whatif_posts):
    _post = whatif_posts.get(whatif_post.value)
    whatif_text = mo.ui.text_area(value=_post["text"] if _post else "", rows=6, full_width=True,
                                  label="The post as it would have read (edit it)")
    whatif_withdrawn = mo.ui.checkbox(label="Withdraw the post")
    whatif_rule = mo.ui.text(placeholder="NAME=VALUE", label="A rule set otherwise")
    whatif_dice = mo.ui.text_area(placeholder="draw-id = value", rows=2,
                                  label="Dice entered")
    return whatif_dice, whatif_rule, whatif_text, whatif_withdrawn


@app.cell
def _(GameError, game, whatif_dice, whatif_post, whatif_posts, whatif_rule, whatif_text,
      whatif_turn, whatif_withdrawn):
    from gmkit.game import whatif

    _post = whatif_posts.get(whatif_post.value)
    whatif_result, whatif_problem = None, None
    try:
        whatif_result = whatif.what_if(game, whatif_turn.value, whatif.panel_changes(
            _post["seq"] if _post else None, _post["text"] if _post else "", whatif_text.value,
            whatif_withdrawn.value, whatif_rule.value, whatif_dice.value))
    except (GameError, ValueError) as _e:
        whatif_problem = str(_e)
    return whatif, whatif_problem, whatif_result


@app.cell
def _(game, history, mo, whatif, whatif_dice, whatif_post, whatif_problem, whatif_result,
      whatif_rule, whatif_text, whatif_turn, whatif_withdrawn):
    from html import escape as _escape

    def _differences(diff):
        if diff.failed is not None:
            return mo.plain_text(f"It could not be resolved on the changed state: {diff.failed}")
        _parts = {f"table {_name}": mo.ui.table(history.readable(whatif.field_changes(_rows)),
                                                selection=None, page_size=8)
                  for _name, _rows in diff.tables.items()}
        for _label, _events in (("events added", diff.events_added),
                                ("events removed", diff.events_removed)):
            if not _events.is_empty():
                _parts[_label] = mo.ui.table(history.readable(
                    _events.select("kind", "player", "text")), selection=None, page_size=8)
        _was, _now = diff.outcome
        _outcome = mo.md(f"**Outcome**: {_escape(_was or 'the game goes on')}" +
                         ("" if _was == _now else f" \u2192 {_escape(_now or 'the game goes on')}"))
        return mo.vstack([mo.ui.tabs(_parts) if _parts else mo.md("_No table or event differs._"),
                          _outcome])

    _controls = mo.vstack([mo.hstack([whatif_turn, whatif_post, whatif_withdrawn],
                                     justify="start"),
                           whatif_text, mo.hstack([whatif_rule, whatif_dice], justify="start")])
    if whatif_result is None:
        _body = mo.callout(mo.plain_text(whatif_problem or ""), kind="danger")
    else:
        _before, _after = whatif.maps(game, whatif_result)
        _later = whatif_result.later
        _parts = [mo.md(f"Turn {whatif_result.turn} resolved again with: "
                        f"**{_escape(whatif.summary(whatif_result.changes))}**")]
        if whatif_result.problems:
            _parts.append(mo.callout(mo.plain_text("\n".join(
                f"{_p}: {_e}" for _p, _errs in whatif_result.problems.items() for _e in _errs)),
                kind="warn"))
        if _before is not None and _after is not None:
            _parts.append(mo.hstack([mo.Html(_before), mo.Html(_after)], widths="equal"))
        if whatif_result.difference.same:
            _parts.append(mo.md("_Nothing would have differed: the same state, events and "
                                "outcome._"))
        else:
            _parts.append(_differences(whatif_result.difference))
            _parts.append(mo.md(
                f"### Later\n\nTurn {_later.turn} is the first whose result would differ, "
                "replayed with its recorded posts on the changed state:" if _later is not None
                else f"### Later\n\nNo later turn would differ ({whatif_result.replayed} "
                "replayed with their recorded posts)."))
            if _later is not None:
                _parts.append(_differences(_later))
        _body = mo.vstack(_parts)
    mo.vstack([
        mo.md("## What if\n\nA committed turn resolved again from its recorded seed, posts, "
              "dice and rules with one thing changed: a post edited or withdrawn, a rule, a "
              "die. Nothing is written in the game folder."),
        _controls,
        _body,
    ])
    return


@app.cell
def _(game, history, mo, view):
    who = mo.ui.multiselect(options=history.players(game, view=view.value),
                            label="Players (none: all)")
    kinds = mo.ui.multiselect(options=history.event_kinds(game, view=view.value),
                              label="Kinds of event (none: all)")
    return kinds, who


@app.cell
def _(charts, colours, game, history, kinds, mo, view, who):
    events = history.timeline(game, players=who.value or None, kinds=kinds.value or None,
                              view=view.value)
    mo.vstack([
        mo.md("## What happened"),
        mo.hstack([who, kinds], justify="start"),
        charts.timeline_chart(events, colours=colours),
        mo.ui.table(history.readable(events), selection=None, page_size=10),  # yes/no, \u2014
    ])
    return


@app.cell
def _(charts, colours, game, history, mo, view):
    dice = history.dice_report(game, view=view.value)
    mo.vstack([
        mo.md("## The dice\n\nEvery die rolled for each player (\u2014: no player, e.g. an "
              "independent state). *Luck* is where the player's total of faces falls among all "
              "the totals their dice could have made: 0 the unluckiest possible, 50 as "
              "expected, 100 the luckiest."),
        charts.dice_chart(dice, colours=colours),
        mo.ui.table(dice, selection=None, format_mapping={
            "expected_total": "{:.1f}", "total_minus_expected": "{:+.1f}",
            "mean_face": "{:.2f}", "expected_face": "{:.2f}", "luck": "{:.1f}"}),
    ])
    return


@app.cell
def _():
    # The notebook's own tests (run by pytest in the test install; the GM's install has no
    # pytest, and defining them costs nothing there)
    def sample_history():
        """The history API and the bundled sample game, opened read-only."""
        from pathlib import Path

        from gmkit.publish import history as _history

        root = Path(__file__).resolve().parent.parent / "data" / "sample-cien"
        return _history, _history.open_game(root)

    return (sample_history,)


@app.cell
def _(sample_history):
    def test_public_series_hides_the_gm_only_columns():
        """The public history shows no GM-only figure (for Cien: the treasury)."""
        history, game = sample_history()
        metrics = set(history.player_series(game, view="public")["metric"].to_list())
        assert metrics and not metrics & set(game.ruleset.views.gm_only)

    def test_public_timeline_holds_only_public_events():
        """Events from secret orders stay out of the public timeline."""
        history, game = sample_history()
        public = history.timeline(game, view="public")
        assert public["public"].all()
        assert public.height < history.timeline(game, view="gm").height

    def test_luck_is_a_percentile():
        """Each player's luck is a percentile of the exact distribution of their dice."""
        history, game = sample_history()
        luck = history.dice_report(game, view="gm")["luck"]
        assert luck.min() >= 0 and luck.max() <= 100
    return


if __name__ == "__main__":
    app.run()
