"""The GM's turn workflow as ipywidgets over a :class:`~gmkit.desk.Desk`, for Jupyter.

All the work is the desk's; this module only wires buttons and shows what the desk returns.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gmkit.desk.copies import DeskError
from gmkit.game import GameError
from gmkit.desk.desk import Desk
from gmkit.desk.views import Published, callout_html, frame_html, iframe_html, zoomable_map

__all__ = ["DeskPanel", "SECTIONS", "TABS"]


#: The sections whose buttons say what they did beside them, and each button's section.
SECTIONS = {"store": "orders", "withdraw": "withdraw", "next": "resolve", "back": "resolve",
            "run_all": "resolve", "restart": "resolve", "enter": "dice", "clear": "dice",
            "commit": "publish", "reveal": "publish", "publish": "publish",
            "set_deadline": "guard", "seal": "guard", "enter_beacon": "guard"}
#: The panel's tabs, as the turn notebook's: the turn's phases of work, in order.
TABS = ("The game", "Orders", "Odds and commitment", "Resolution", "Commit and publish")
#: Lets each tab's label take the width it needs (JupyterLab's tab bar cuts them at ~140 px).
TAB_STYLE = ("<style>.gmkit-panel > .lm-TabBar .lm-TabBar-tab, .gmkit-panel > .p-TabBar "
             ".p-TabBar-tab, .gmkit-panel .widget-tab-bar .lm-TabBar-tab {flex: 0 0 auto "
             "!important; min-width: max-content !important; max-width: none !important}"
             "</style>")


class DeskPanel:
    """The GM's turn workflow as ipywidgets over a :class:`Desk` (``panel.widget`` to show it).

    Every button calls the desk and says what it did beside the buttons of its section
    (``panel["said_resolve"]``...; :attr:`message` holds the last one): a :class:`DeskError`
    in red, the desk left as it was and what the GM typed left in its field.
    ``panel["next"].click()`` drives it from code."""

    def __init__(self, desk: Desk, out_dir: str | Path | None = None):
        import ipywidgets as W

        self.desk = desk
        self.out_dir = Path(out_dir) if out_dir is not None else None
        self.message: tuple[str, str] = ("neutral", "")
        #: What each section's last action said: section -> (kind, text).
        self.said: dict[str, tuple[str, str]] = {}
        self._w: dict[str, Any] = {}
        d, w = self.desk, self._w
        full = W.Layout(width="100%")
        w["overview"] = W.HTML()
        w["map"] = W.HTML()
        w["player"] = W.Dropdown(options=list(d.player_choices().items()), description="Player")
        w["secret"] = W.Checkbox(value=False, description="secret (PM or e-mail)")
        w["text"] = W.Textarea(placeholder="Paste the player's post here", rows=8, layout=full)
        w["preview"] = W.HTML()
        w["store"] = W.Button(description="Store post", button_style="primary")
        w["posts"] = W.HTML()
        w["orders_map"] = W.HTML()
        # "download the map": the public map after the latest turn, the PNG a forum shows
        w["map_download"] = W.HTML()
        self._download_for: int | None = None
        # the pending posts, chosen by number (``panel["seq"].value = 37``); refreshed after
        # every change, so a withdrawn post is no longer offered
        w["seq"] = W.Dropdown(options=[], value=None, description="Post")
        w["withdraw"] = W.Button(description="Withdraw post", button_style="warning")
        # why, recorded with the post set aside (as gmkit withdraw --why)
        w["why"] = W.Text(description="Reason", placeholder="why: e.g. posted under the "
                          "wrong player", layout=W.Layout(width="40%"))
        w["odds"] = W.HTML()
        # what guards the dice: the order deadline, the seal, the beacon (as gmkit deadline,
        # seal and beacon do)
        w["guard"] = W.HTML()
        w["deadline"] = W.Text(description="Deadline", placeholder="2026-12-01T18:00:00+00:00")
        w["set_deadline"] = W.Button(description="Set the deadline")
        w["seal"] = W.Button(description="Seal the posts")
        w["beacon_round"] = W.Text(description="Round", placeholder="drand round")
        w["beacon_randomness"] = W.Text(description="Randomness", placeholder="hex")
        w["beacon_signature"] = W.Text(description="Signature", placeholder="hex")
        w["beacon_source"] = W.Text(description="Source", placeholder="or a named source")
        w["beacon_value"] = W.Text(description="Value", placeholder="its value")
        w["enter_beacon"] = W.Button(description="Enter the beacon")
        w["commitment"] = W.HTML()
        w["next"] = W.Button(description="Next step", button_style="primary")
        w["back"] = W.Button(description="Step back")
        w["run_all"] = W.Button(description="Run all steps")
        w["restart"] = W.Button(description="Restart")
        w["step"] = W.HTML()
        w["draw"] = W.Text(description="Draw id", placeholder="conquest:attack/Tróys/Red")
        w["value"] = W.Text(description="Value", placeholder="7")
        w["enter"] = W.Button(description="Enter die")
        w["clear"] = W.Button(description="Clear die")
        w["draws"] = W.HTML()
        w["commit"] = W.Button(description="Commit the turn", button_style="danger")
        w["reveal"] = W.Button(description="Reveal the seed")
        w["publish"] = W.Button(description="Write the summaries", button_style="success")
        w["published"] = W.HTML()
        w["bb_public"] = W.Textarea(rows=8, layout=full, description="public")
        w["bb_gm"] = W.Textarea(rows=8, layout=full, description="GM")
        for name in sorted(set(SECTIONS.values())):
            w[f"said_{name}"] = W.HTML()
        for name in ("player", "secret", "text"):
            w[name].observe(lambda _change: self._show_preview(), names="value")
        actions: dict[str, Callable[[], str]] = {
            "store": self._store, "withdraw": self._withdraw, "next": self._next,
            "back": self._back, "run_all": self._run_all, "restart": self._restart,
            "enter": self._enter, "clear": self._clear, "commit": self._commit,
            "reveal": self._reveal, "publish": self._publish,
            "set_deadline": lambda: self.desk.set_deadline(w["deadline"].value),
            "seal": self.desk.seal, "enter_beacon": self._enter_beacon}
        for name, fn in actions.items():
            w[name].on_click(lambda _b, fn=fn, where=SECTIONS[name]: self.act(fn, where))

        def section(title: str, *children: Any) -> Any:
            return W.VBox([W.HTML(f"<h3>{html.escape(title)}</h3>"), *children])

        pages = [
            section("The turn", W.HTML(TAB_STYLE), w["overview"], w["map"],
                    w["map_download"]),
            section("Orders", W.HBox([w["player"], w["secret"]]), w["text"], w["preview"],
                    W.HBox([w["store"], w["said_orders"]]), w["posts"],
                    W.HBox([w["seq"], w["why"], w["withdraw"]]), w["said_withdraw"],
                    w["orders_map"]),
            W.VBox([section("Odds before rolling", w["odds"]),
                    section("What guards the dice", w["guard"],
                            W.HBox([w["deadline"], w["set_deadline"], w["seal"]]),
                            W.HBox([w["beacon_round"], w["beacon_randomness"],
                                    w["beacon_signature"]]),
                            W.HBox([w["beacon_source"], w["beacon_value"],
                                    w["enter_beacon"]]), w["said_guard"])]),
            section("Resolve step by step", w["commitment"],
                    W.HBox([w["next"], w["back"], w["run_all"], w["restart"],
                            w["said_resolve"]]), w["step"],
                    W.HBox([w["draw"], w["value"], w["enter"], w["clear"]]), w["said_dice"],
                    w["draws"]),
            section("Commit, reveal, publish", W.HBox([w["commit"], w["reveal"],
                                                      w["publish"]]), w["said_publish"],
                    w["published"], W.HTML("<b>BBCode, ready to copy</b>"), w["bb_public"],
                    w["bb_gm"]),
        ]
        #: The panel: one tab per phase of the GM's work (:data:`TABS`), as in the notebook.
        self.widget = W.Tab(children=pages, titles=TABS)
        self.widget.add_class("gmkit-panel")
        self.refresh()

    # the widgets, for code that drives the panel
    def __getitem__(self, name: str) -> Any:
        return self._w[name]

    def act(self, fn: Callable[[], str], section: str = "resolve") -> None:
        """Run an action, show its outcome beside the buttons of ``section`` (a DeskError in
        red) and refresh the panel."""
        try:
            self.message = ("success", fn())
        except DeskError as e:
            self.message = ("danger", str(e))
        self.said = {**self.said, section: self.message}
        self.refresh()

    def refresh(self) -> None:
        """Redraw every view from the desk."""
        d, w = self.desk, self._w
        for section in set(SECTIONS.values()):
            kind, text = self.said.get(section, ("", ""))
            w[f"said_{section}"].value = callout_html(text, kind) if text else ""
        ov = d.overview()
        w["overview"].value = ov.to_html()
        game_map = d.map_svg()
        w["map"].value = zoomable_map(game_map) if game_map else "<i>this game has no map</i>"
        self._show_download()
        self._show_preview()
        posts = d.posts()
        w["posts"].value = frame_html(posts, caption=f"Posts for turn {d.turn}",
                                      empty="no post yet")
        w["seq"].options = [(f"#{seq} {player}", seq)
                            for seq, player in posts.select("seq", "player").iter_rows()]
        w["seq"].value = None
        try:
            orders_map = d.orders_svg()
        except (DeskError, ValueError) as e:
            w["orders_map"].value = callout_html(f"the orders cannot be drawn: {e}", "danger")
        else:
            w["orders_map"].value = zoomable_map(orders_map) if orders_map else ""
        try:
            w["odds"].value = frame_html(d.odds(), empty="no contested action")
        except (DeskError, ValueError) as e:
            w["odds"].value = callout_html(str(e), "danger")
        w["guard"].value = "<ul>" + "".join(f"<li>{html.escape(line)}</li>"
                                            for line in d.dice_guard()) + "</ul>"
        session = d.session
        if session is None:
            w["commitment"].value = ("<p>The dice commitment is shown when the turn starts "
                                     "(first step).</p>")
            w["step"].value = f"<p>No step run yet. Next: {html.escape(d.next_title or '')}</p>"
            w["draws"].value = ""
            return
        w["commitment"].value = (f"<p>Dice commitment for turn {session.turn} (post it before "
                                 f"resolving): <code>{html.escape(d.commitment())}</code></p>")
        view = d.current()
        w["step"].value = view.to_html() if view else \
            f"<p>At the start of the turn. Next: {html.escape(d.next_title or '')}</p>"
        w["draws"].value = frame_html(d.draws(), caption="Every draw of the turn",
                                      empty="no draw")

    def _show_download(self) -> None:
        """The link that downloads the public map after the latest turn as the PNG a forum
        shows, made again once a turn is committed."""
        game = self.desk.game
        if game.board is None or game.latest_turn == self._download_for:
            return
        from gmkit.publish.mapfile import download_link

        self._download_for = game.latest_turn
        try:
            self._w["map_download"].value = download_link(game)
        except (GameError, ValueError) as e:
            self._w["map_download"].value = callout_html(f"the map cannot be drawn: {e}",
                                                         "danger")

    def _enter_beacon(self) -> str:
        w = self._w
        return self.desk.enter_beacon(
            round=w["beacon_round"].value, randomness=w["beacon_randomness"].value,
            signature=w["beacon_signature"].value, source=w["beacon_source"].value,
            value=w["beacon_value"].value)

    def _show_preview(self) -> None:
        w = self._w
        if not w["text"].value.strip():
            w["preview"].value = "<p><i>Paste a post to see how it reads.</i></p>"
            return
        try:
            w["preview"].value = self.desk.preview_post(w["player"].value, w["text"].value,
                                                        w["secret"].value).to_html()
        except DeskError as e:
            w["preview"].value = callout_html(str(e), "danger")

    def _store(self) -> str:
        w = self._w
        got = self.desk.receive(w["player"].value, w["text"].value, w["secret"].value)
        w["text"].value = ""
        return f"stored post #{got.seq} of {got.player}" + \
            (f"; quote back:\n{got.report()}" if got.report() else "")

    def _withdraw(self) -> str:
        seq = self._w["seq"].value
        if seq is None:
            raise DeskError("choose the post to withdraw")
        why = self._w["why"].value.strip()
        if not why:
            raise DeskError(f"say why post #{seq} is withdrawn (the reason is kept with it); "
                            "nothing was withdrawn")
        self.desk.withdraw(seq, why)
        self._w["why"].value = ""
        return f"post #{seq} withdrawn: {why}"

    def _next(self) -> str:
        return self.desk.step().heading()

    def _back(self) -> str:
        view = self.desk.back()
        return f"stepped back to {view.heading()}" if view else "back at the start of the turn"

    def _run_all(self) -> str:
        return f"{self.desk.run_all().heading()}: every step has run"

    def _restart(self) -> str:
        self.desk.restart()
        return "back at the start of the turn"

    def _enter(self) -> str:
        w = self._w
        value = w["value"].value
        self.desk.enter_die(w["draw"].value, value)  # a refused value stays in its field
        w["value"].value = ""
        return f"die {w['draw'].value.strip()} = {value.strip()} entered"

    def _clear(self) -> str:
        self.desk.clear_die(self._w["draw"].value.strip())
        return f"die {self._w['draw'].value.strip()} back to the seeded roll"

    def _commit(self) -> str:
        turn = self.desk.commit()
        for name in ("published", "bb_public", "bb_gm"):  # those of an earlier turn
            self._w[name].value = ""
        return f"turn {turn} committed; next: Reveal the seed, then Write the summaries"

    def _reveal(self) -> str:
        text = f"seed revealed: {self.desk.reveal()}"
        pub = self.desk.published
        if pub is not None and pub.turn == self.desk.game.latest_turn and pub.revealed:
            # the summaries written before the reveal were written again with the seed
            self._show_published(pub)
            text += f"\nthe summaries were written again with it into {pub.folder}"
        return text

    def _publish(self) -> str:
        pub = self.desk.publish_new(self.out_dir)  # the turn committed here, or nothing new
        self._show_published(pub)
        return pub.summary()

    def _show_published(self, pub: Published) -> None:
        w = self._w
        note = "" if pub.revealed else " (the seed is not revealed yet: they say so)"
        w["published"].value = (
            f"<p><b>Summaries of turn {pub.turn}</b>, in <code>{html.escape(str(pub.folder))}"
            f"</code>{html.escape(note)}</p><p><b>Public summary</b></p>"
            + iframe_html(pub.html["public"]) + "<p><b>GM summary</b></p>"
            + iframe_html(pub.html["gm"]))
        w["bb_public"].value = pub.bbcode["public"]
        w["bb_gm"].value = pub.bbcode["gm"]

