"""What each viewer of a game of Cien may see, and what the reports show of a state.

A lord's grain is his own business: the treasury and what was set aside for defence and
investment (secret orders may spend it) are the GM's and the player's own; conquest spending
shows in the battles and stays public. The map, the holdings and the governments are public.
"""

from __future__ import annotations

import polars as pl

from gmkit.core.parts import Context
from gmkit.core.tables import State
from gmkit.core.views import STANDINGS, Private
from gmkit.rulesets.cien.state import FREE

#: The players' figures only the GM and the player themself see.
PRIVATE_FIGURES = ("treasury", "spent_defense", "spent_invest")
#: The same, declared on the players table (each row is its own player's, ``id``) and on the
#: standings (each row its ``player``'s): a player knows their own grain.
HIDDEN = (Private("players", "id", PRIVATE_FIGURES),
          Private(STANDINGS, "player", PRIVATE_FIGURES))


def standings(state: State) -> pl.DataFrame:
    """Every player who has played, by provinces held, then income."""
    held = state["provinces"].filter(pl.col("owner").is_not_null()).group_by("owner").agg(
        pl.len().cast(pl.Int64).alias("provinces"), pl.col("output").sum().alias("output"))
    missions = state["missions"].filter(pl.col("status") == "active").select(
        pl.col("player").alias("id"), pl.col("kind").alias("mission"))
    return (state["players"].filter(pl.col("status") != FREE)
            .join(held, left_on="id", right_on="owner", how="left")
            .join(missions, on="id", how="left")
            .with_columns(pl.col("provinces").fill_null(0), pl.col("output").fill_null(0))
            .select(pl.col("id").alias("player"), "name", "government", "status", "rebel",
                    "provinces", "income", "treasury", "mission", "spent_conquest",
                    "spent_defense", "spent_invest")
            .sort(["provinces", "income", "player"], descending=[True, True, False]))


#: Words for the standings columns.
LABELS = {"provinces": "provinces held", "spent_conquest": "spent on conquest",
          "spent_defense": "spent on defence", "spent_invest": "spent on investment"}


def holdings(state: State, ctx: Context) -> pl.DataFrame | None:
    """Each player's provinces, with their output, in words."""
    provinces = state["provinces"]
    label = pl.format("{} ({})", pl.col("name"), pl.col("output"))
    return (provinces.filter(pl.col("owner").is_not_null())
            .sort("name")
            .group_by("owner", maintain_order=True)
            .agg(label.str.join(", ").alias("holdings"))
            .rename({"owner": "player"}))


def links(state: State) -> list[tuple[str, str]]:
    """Each player's coat of arms, when they gave one."""
    return [(f"{r['id']}: coat of arms", r["arms"])
            for r in state["players"].iter_rows(named=True) if r.get("arms")]
