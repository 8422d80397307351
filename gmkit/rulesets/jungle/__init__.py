"""The Law of the Jungle: houses of Aztec characters scheming inside a Civilization game.

Rules: the GM yahzuk's text. Players run houses of characters (peasants, soldiers, citizens,
specialists and Tlatoani); twice a council session each character acts, in an order set by Fame;
between sessions the GM plays ten gameturns of a Civilization game and enters what it shows. A
game's turn is one council session. See ``docs/rules-notes/law-of-the-jungle.md`` for how each
ambiguous passage is read and the named options that choose another reading.

The modules: ``constants`` (the rules table), ``state`` (schemas), ``world`` (the starting world
and the houses joining it), ``posts`` and ``orders`` (a house's post for both rounds, the GM's
civilization figures), ``session`` (the steps of a council session in its three phases),
``resolve`` (the two action rounds on the core's per-actor flow), ``effects``, ``gods``,
``attack``, ``fight`` and ``odds`` (what each action does), ``food``, ``cities``, ``units``,
``titles`` and ``gameturns`` (what happens at the session's opening and evening), ``views``
(who sees what, standings by house), ``drawing`` (the hex map) and ``bot`` (seeded posts).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from gmkit.core.boards.hexgrid import HexBoard
from gmkit.core.boards import Board
from gmkit.core.dice import Dice
from gmkit.core.drawing.scene import Scene
from gmkit.core.orders import OrderError, ParseResult
from gmkit.core.params import Params
from gmkit.core.legacy import LegacyRuleset
from gmkit.core.parts import Headline
from gmkit.core.ruleset import register
from gmkit.core.players import PlayerInfo
from gmkit.core.steps import Outcome, Step, Termination
from gmkit.core.tables import State
from gmkit.core.views import Viewer
import gmkit.rulesets.jungle.posts as posts
import gmkit.rulesets.jungle.views as views
import gmkit.rulesets.jungle.world as world
from gmkit.rulesets.jungle.bot import random_post
from gmkit.rulesets.jungle.rules import PARAMS
from gmkit.rulesets.jungle.drawing import colours, scene
from gmkit.rulesets.jungle.forecast import odds_table, void_now
from gmkit.rulesets.jungle.posts import JungleOrder
from gmkit.rulesets.jungle.session import steps
from gmkit.rulesets.jungle.state import SCHEMAS, house_of_player


@register
class LawOfTheJungle(LegacyRuleset[JungleOrder]):
    """The Law of the Jungle."""

    name = "jungle"
    version = "2"
    legacy = {"1": {"spend_limit": "each_spend", "new_units": "captain_only",
                         "void_report": "legacy_text", "store_report": "public"}}
    title = "The Law of the Jungle"
    aliases = ("law-of-the-jungle",)
    params = PARAMS
    schemas = SCHEMAS
    # captured settlers and workers, kept aside until rescued
    added = {"captive_units": None, "captives": None, "captive_rows": None}
    board_kind = "hex"
    gm_posts = True  # the GM posts the civilization game's figures each session
    standings_subject = "house"

    def setup(self, players: Sequence[PlayerInfo], board: Board[Any] | None,
              rules: Params) -> State:
        return world.setup(players, rules)

    def joined(self, state: State, before: Sequence[PlayerInfo], after: Sequence[PlayerInfo],
               rules: Params) -> State:
        """JOINING THE GAME mid-game: a new house's peasant; a leaver's house no longer posts
        (see :func:`gmkit.rulesets.jungle.world.joined`)."""
        return world.joined(state, before, after, rules)

    def check_players(self, players: Sequence[PlayerInfo], board: Board[Any] | None
                      ) -> list[str]:
        return world.check_players(players)

    def check_board(self, board: Board[Any] | None) -> list[str]:
        """LOCATIONS: every city and its six hexes on the board."""
        return world.check_board(board)

    def parse_post(self, post: str, player: str, state: State, rules: Params, *,
                   secret: bool = False) -> ParseResult[JungleOrder]:
        return posts.parse(post, player, state, rules)

    def validate(self, state: State, orders: Mapping[str, ParseResult[JungleOrder]],
                 rules: Params) -> dict[str, list[OrderError]]:
        return posts.validate(state, orders, rules)

    def steps(self, rules: Params) -> list[Step]:
        return steps()

    def outcome(self, state: State, rules: Params) -> Outcome | None:
        """The victory: when the GM ends the game (``last_session``, 0 for never), the player
        whose characters hold the most total Fame."""
        last = int(rules.last_session)
        if not last or int(state["session"]["session"][0]) < last:
            return None
        table = views.standings(state)
        if table.is_empty():
            return None
        top = table.filter(pl.col("fame") == pl.col("fame").max())["player"].to_list()
        return Outcome(Termination.GM_DECLARED, tuple(top),
                       f"The GM ends the game after council session {last}: "
                       f"{' and '.join(top)} {'holds' if len(top) == 1 else 'hold'} the most "
                       "total Fame.")

    def standings(self, state: State, rules: Params) -> pl.DataFrame:
        return views.standings(state)

    def gm_only_columns(self) -> tuple[str, ...]:
        return views.GM_ONLY

    def series_subjects(self) -> Mapping[str, str]:
        return {"character": "characters"}

    def subject_table(self, state: State, subject: str, rules: Params) -> pl.DataFrame | None:
        """Each living character's Fame (and, where the viewer may see them, XP, Wisdom and
        Craftsmanship) and titles held, in its house's player's colour."""
        if subject != "character":
            return None
        return views.character_series(state)

    def public_state(self, state: State) -> State:
        return views.public_state(state)

    def view(self, state: State, viewer: Viewer | str) -> State:
        """As the base view, but the hexes' yields stay on the public map."""
        out = super().view(state, viewer)
        return out if Viewer.parse(viewer).is_gm else out.replace(hexes=state["hexes"])

    def player_state(self, state: State, player: str) -> State:
        """The public chart, with the player's own house's sheets, stores and choices."""
        return views.house_state(state, self.view(state, Viewer.public()),
                                 house_of_player(state, player))


    def board(self) -> HexBoard:
        """An unbounded hex grid: the drawing frames the cities' hexes."""
        return HexBoard(source="the Aztec cities' hexes")

    def scene(self, state: State, rules: Params) -> Scene:
        return scene(state)

    def player_colours(self, state: State, rules: Params) -> dict[str, str]:
        return colours(state)

    def headline(self) -> Headline:
        return Headline("fame", "Total Fame of the house", ("characters",))

    def metric_labels(self) -> Mapping[str, str]:
        return {"fame": "total Fame", "xp": "total XP", "characters": "living characters",
                "titles": "titles held", "favour": "gods' favour (Priest N)"}

    def holdings(self, state: State) -> pl.DataFrame:
        chars = state["characters"].filter(pl.col("alive")).sort("fame", descending=True)
        out = [{"player": h, "holdings": ", ".join(f"{c['name']} ({c['class']}, Fame "
                                                     f"{c['fame']})" for c in
                                                     chars.filter(pl.col("house") == h)
                                                     .iter_rows(named=True))}
               for h in state["houses"]["house"].to_list()]
        return pl.DataFrame(out, schema={"player": pl.String, "holdings": pl.String})

    def odds(self, state: State, orders: Mapping[str, Sequence[JungleOrder]],
             rules: Params) -> pl.DataFrame:
        """Every attack's five bands with their exact probabilities, as the state stands before
        the session (a joint attack once, under its principal), or a ``void`` row saying why it
        would be void now (see :mod:`gmkit.rulesets.jungle.forecast`)."""
        return odds_table(state, orders, rules)

    def void_now(self, state: State, orders: Mapping[str, Sequence[JungleOrder]],
                 rules: Params) -> dict[str, list[OrderError]]:
        """The attacks that would be void if they resolved as the state stands (CHARACTER
        ACTIONS: "Actions that are not valid at the moment of resolution will be considered
        void"), each naming its line and why."""
        return void_now(state, orders, rules)

    def bot_post(self, state: State, player: str, rules: Params, dice: Dice) -> str:
        return random_post(state, player, rules, dice)

    def example_players(self, board: Board[Any] | None) -> list[dict[str, Any]]:
        return [{"id": h, "name": f"House {h}"} for h in
                ("Ocelotl", "Quetzal", "Tochtli", "Cuauhtli")]

    def players_to_move(self, state: State) -> list[str]:
        alive = set(state["characters"].filter(pl.col("alive"))["house"].to_list())
        posting = set(state["players"]["id"].to_list())  # a removed player's house posts no more
        return [h for h in state["houses"]["house"].to_list()
                if h in posting and house_of_player(state, h) in alive]

    def describe_order(self, order: JungleOrder) -> str:
        return posts.describe(order)
