"""What each viewer of a game of The Law of the Jungle may see, and the standings by house.

The character chart as the GM publishes it is public: each character's house, class, location,
Fame and titles, the slaves and tenants, the cities and units. A house's stores (food, gold) and
its characters' XP, Craftsmanship, Wisdom, beakers and hammers, and what they chose to research,
produce or support, are its own: the house sees its whole sheet, the others only the public
chart. The GM sees everything.
"""

from __future__ import annotations

import polars as pl

from gmkit.core.parts import Context, Headline
from gmkit.core.tables import State
from gmkit.core.views import STANDINGS, Private, PrivateRows
from gmkit.rulesets.jungle.state import house_of_player

#: Standings columns only the GM and the house itself see.
GM_ONLY = ("food", "gold", "xp")
#: Character columns blanked for anyone but the character's house (besides ``GM_ONLY``).
PRIVATE_CHARACTER = ("craftsmanship", "wisdom", "beakers", "hammers", "defending", "busy")
#: Tables of private choices, shown to a house for its own characters only.
CHOICES = {"projects": "character", "policy_support": "character", "join_offers": "offerer"}
#: What is kept of captives besides their sheets (their titles, bonds and choices): the GM's.
GM_TABLES = ("captive_rows",)


#: Tables of characters: those in the game, and those a captured unit took out of it.
CHARACTER_TABLES = ("characters", "captives")
#: What a summary charts per house.
HEADLINE = Headline("fame", "Total Fame of the house", ("characters",))
#: Words for the standings' columns.
LABELS = {"fame": "total Fame", "xp": "total XP", "characters": "living characters",
          "titles": "titles held", "favour": "gods' favour (Priest N)"}
#: The subjects the history follows besides the houses.
SERIES = {"character": "characters"}


def characters_of(state: State, player: str) -> list[str]:
    """The characters of the house a player orders now (his own, or the one it joined)."""
    house = house_of_player(state, player)
    return state["characters"].filter(pl.col("house") == house)["name"].to_list()


#: What only the GM and a house see of its own: its characters' sheets (those a captured unit
#: took out of the game too), its stores, its characters' choices, and its standings' figures;
#: the captives' other rows and a session's purse are the GM's alone. The hexes' yields are the
#: land's, shown to everyone.
HIDDEN: tuple[Private | PrivateRows, ...] = (
    *(Private(t, "house", (*PRIVATE_CHARACTER, "xp"), house_of_player)
      for t in CHARACTER_TABLES),
    Private("houses", "house", ("food", "gold"), house_of_player),
    *(PrivateRows(t, column, characters_of) for t, column in CHOICES.items()),
    *(PrivateRows(t, None) for t in GM_TABLES),
    Private.gm_only("session", "gold"),
    Private(STANDINGS, "house", GM_ONLY, house_of_player),
)


def standings(state: State) -> pl.DataFrame:
    """One row per house: its player, living characters, their total Fame and XP, the titles
    they hold, the gods' favour (the N of their Priest titles), its food and gold; by Fame,
    highest first. A hidden value (another house's XP or stores) stays null."""
    chars = state["characters"].filter(pl.col("alive"))
    titled = (state["titles"].join(chars.select(pl.col("name").alias("character"), "house"),
                                   on="character")
              .group_by("house").agg(pl.len().alias("titles"),
                                     pl.col("value").filter(pl.col("title") == "priest_of")
                                     .sum().alias("favour")))
    per = chars.group_by("house").agg(
        pl.len().alias("characters"), pl.col("fame").sum().alias("fame"),
        pl.when(pl.col("xp").null_count() == pl.len()).then(None)
        .otherwise(pl.col("xp").sum()).alias("xp"))
    out = (state["houses"].join(per, on="house", how="left").join(titled, on="house", how="left")
           .select(pl.col("player"), pl.col("house"),
                   pl.col("characters").fill_null(0).cast(pl.Int64),
                   pl.col("fame").fill_null(0).cast(pl.Int64),
                   pl.col("titles").fill_null(0).cast(pl.Int64),
                   pl.col("favour").fill_null(0).cast(pl.Int64), pl.col("xp").cast(pl.Int64),
                   pl.col("food"), pl.col("gold")))
    return out.sort(["fame", "house"], descending=[True, False])


def character_series(state: State) -> pl.DataFrame:
    """One row per living character of ``state`` (a state already viewed for its reader): its
    name, its house's player, Fame, the titles it holds, and XP, Wisdom and Craftsmanship where
    the viewer may see them (null elsewhere), for the history's per-character charts."""
    chars = state["characters"].filter(pl.col("alive"))
    titles = state["titles"].group_by("character").agg(pl.len().alias("titles"))
    return (chars.join(state["houses"].select("house", "player"), on="house", how="left")
            .join(titles, left_on="name", right_on="character", how="left")
            .select(pl.col("name").alias("entity"), pl.col("player"), pl.col("fame"),
                    pl.col("titles").fill_null(0).cast(pl.Int64), pl.col("xp"),
                    pl.col("wisdom"), pl.col("craftsmanship")))


def subject_table(state: State, subject: str, ctx: Context) -> pl.DataFrame | None:
    """Each living character's Fame (and, where the viewer may see them, XP, Wisdom and
    Craftsmanship) and titles held, in its house's player's colour (None for another
    subject)."""
    return character_series(state) if subject == "character" else None


def holdings(state: State, ctx: Context) -> pl.DataFrame:
    """Each house's living characters in words, by Fame."""
    chars = state["characters"].filter(pl.col("alive")).sort("fame", descending=True)
    out = [{"player": h, "holdings": ", ".join(f"{c['name']} ({c['class']}, Fame "
                                                 f"{c['fame']})" for c in
                                                 chars.filter(pl.col("house") == h)
                                                 .iter_rows(named=True))}
           for h in state["houses"]["house"].to_list()]
    return pl.DataFrame(out, schema={"player": pl.String, "holdings": pl.String})
