"""The actions other than moving and fishing: foraging (6.4), construction (5.3.4), crafting
(7.4), using items (7.1.2, 7.4.4, 7.4.5), trading (7.1.1), naming qualities (7.3.2.1),
declaring a player reputable, joining and leaving (2).

Only scouting, traversing, fishing and foraging cost AP (6.1 to 6.4); the rules give the others
no AP cost, so they cost none.
"""

from __future__ import annotations

from datetime import timedelta

from gmkit.rulesets.aeternus.doing import Doing, hex_name, is_reputable
from gmkit.rulesets.aeternus.orders import (
    Burn,
    Construct,
    Craft,
    Declare,
    Forage,
    Join,
    Leave,
    NameQuality,
    Trade,
    Use,
)
from gmkit.rulesets.aeternus.rules import (
    BARREN,
    BOARDWALK_F,
    CAP,
    CONSTRUCTIBLE,
    CONSTRUCTION,
    CRAFTING,
    EXPLOSIVES,
    EXPLOSIVES_I,
    FEATURE_RULES,
    FLAG_F,
    FORAGE,
    FORAGE_SECTIONS,
    FORAGE_TABLES,
    LAKE,
    MEADOW,
    PLAYERS,
    POUCH,
    PYLON_F,
    QUALITY,
    RECIPES,
    TORCH,
    TORCH_I,
    TRADING,
    USING,
)
from gmkit.rulesets.aeternus.clock import parse_time, time_text
from gmkit.rulesets.aeternus.factions import drop_if_empty
from gmkit.rulesets.aeternus.state import Axial, neighbours


def _cost_text(cost: dict[str, int]) -> str:
    return ", ".join(f"{n} {i}" for i, n in cost.items())


def forage_row(total: int, two_dice: bool, reading: str) -> int:
    """The table row (1 to 6) a forage roll reads (6.4, 7.4.1): a d6 as it is; a pouch's 2d6
    halved and rounded up (``half``) or capped at 6 (``cap``)."""
    if not two_dice:
        return total
    return min(6, total) if reading == CAP else (total + 1) // 2


def forage(d: Doing, order: Forage) -> None:
    """6.4: on a Barren hex with no features, a d6 (2d6 with a pouch) on the biome's table."""
    t = d.table
    here = d.here
    if t.landmark(here) != BARREN or t.features(here) or t.corrupted(here):
        raise d.fail(FORAGE, f"{hex_name(here)} is not Barren with no features")
    d.spend_ap(d.rules.cost_forage, FORAGE, "foraging")
    biome = t.biome(here)
    table_biome = biome if biome in FORAGE_TABLES else MEADOW
    pouch = t.count(d.player, POUCH) > 0
    total = d.dice.roll(2 if pouch else 1, 6, purpose=f"{d.player} forages "
                        f"{hex_name(here)} ({table_biome})", rule=FORAGE_SECTIONS[table_biome],
                        key="forage", public=not d.secret, player=d.player)
    row = forage_row(total, pouch, d.rules.pouch_rows)
    reward = FORAGE_TABLES[table_biome][row - 1]
    for n, item in reward:
        t.gain(d.player, item, n)
    got = ", ".join(f"{n} {i}" for n, i in reward) or "nothing"
    d.event("forage", FORAGE_SECTIONS[table_biome], f"{d.player} forages {hex_name(here)} "
            f"(row {row}) and finds {got}.", here, row=row)


def _near(d: Doing, target: Axial | None, rule: str) -> Axial:
    here = d.here
    h = target if target is not None else here
    if h != here and h not in neighbours(here):
        raise d.fail(rule, f"{hex_name(h)} is neither {d.player}'s hex nor next to it")
    if d.table.index(h) is None:
        raise d.fail(rule, f"{hex_name(h)} is indeterminate")
    return h


def construct(d: Doing, order: Construct) -> None:
    """5.3.4: a feature on or next to one's hex for its cost; not on a Lake (but a
    Boardwalk) nor a corrupted hex; one Flag a hex (5.3.3.2)."""
    t = d.table
    h = _near(d, order.target.resolve(d.here) if order.target else None, CONSTRUCTION)
    feature = order.feature
    rule = FEATURE_RULES[feature]
    if t.corrupted(h):
        raise d.fail(CONSTRUCTION, f"{hex_name(h)} is corrupted")
    if t.biome(h) == LAKE and feature != BOARDWALK_F:
        raise d.fail(CONSTRUCTION, f"{hex_name(h)} is a Lake (only a Boardwalk)")
    if feature in t.features(h):
        raise d.fail(rule, f"{hex_name(h)} has a {feature} already")
    cost = CONSTRUCTIBLE[feature]
    if not t.has(d.player, cost):
        raise d.fail(rule, f"a {feature} costs {_cost_text(cost)}")
    t.spend(d.player, cost)
    t.add_feature(h, feature)
    text = f"{d.player} constructs a {feature} on {hex_name(h)}"
    if feature == FLAG_F:
        t.flags[h] = d.me["faction"]
        text += f" for {d.me['faction']}"
    d.event("construct", rule, text + ".", h, feature=feature)
    if feature == PYLON_F:
        for n in neighbours(h):
            i = t.index(n)
            if i is not None and t.world.corrupted[i]:
                t.world.corrupted[i] = False
                d.event("cleansing", rule, f"The Pylon of Purity cleanses {hex_name(n)}.", n)


def craft(d: Doing, order: Craft) -> None:
    """7.4: an item from its recipe, at any time."""
    cost = RECIPES[order.item]
    if not d.table.has(d.player, cost):
        raise d.fail(CRAFTING, f"{order.item} needs {_cost_text(cost)}")
    d.table.spend(d.player, cost)
    d.table.gain(d.player, order.item)
    d.event("craft", CRAFTING, f"{d.player} crafts {order.item}.", None, item=order.item)


def use(d: Doing, order: Use) -> None:
    """7.1.2: an item with an ability takes effect, then is destroyed. Explosives (7.4.5)
    destroy every landmark and feature on or next to the player's hex."""
    t = d.table
    if order.item != EXPLOSIVES_I:
        raise d.fail(USING, f"{order.item} has no ability to use")
    if not t.count(d.player, EXPLOSIVES_I):
        raise d.fail(USING, f"{d.player} has no Explosives")
    t.spend(d.player, {EXPLOSIVES_I: 1})
    for h in (d.here, *neighbours(d.here)):
        i = t.index(h)
        if i is None:
            continue
        t.world.landmark[i] = 0  # Barren: the landmark when none is given (5.1)
        t.world.features[i] = ()
        t.flags.pop(h, None)
        if d.rules.explosives_clear_corruption:
            t.world.corrupted[i] = False
    d.event("explosives", EXPLOSIVES, f"{d.player}'s explosives destroy every landmark and "
            f"feature on and around {hex_name(d.here)}.", d.here)


def burn(d: Doing, order: Burn) -> None:
    """7.4.4: a player with a torch may destroy a Flag or a Boardwalk (on or next to their
    hex, as construction reaches); the torch stays."""
    t = d.table
    if not t.count(d.player, TORCH_I):
        raise d.fail(TORCH, f"{d.player} has no Torch")
    h = _near(d, order.target.resolve(d.here) if order.target else None, TORCH)
    if order.feature not in t.features(h):
        raise d.fail(TORCH, f"there is no {order.feature} on {hex_name(h)}")
    t.remove_feature(h, order.feature)
    d.event("burn", TORCH, f"{d.player} burns the {order.feature} on {hex_name(h)}.", h)


def trade(d: Doing, order: Trade) -> None:
    """7.1.1: a trade takes place when both players consent within 7 days of each other;
    reputable players only (7). This consent is matched with the partner's mirror consent,
    else kept open."""
    t = d.table
    partner = next((p for p in t.players if p.casefold() == order.partner.casefold()), None)
    if partner is None or partner == d.player:
        raise d.fail(TRADING, f"no other player {order.partner!r}")
    if not d.reputable():
        raise d.fail("7", f"{d.player} is not reputable: only reputable players trade")
    gives = ", ".join(f"{n} {i}" for n, i in order.gives)
    gets = ", ".join(f"{n} {i}" for n, i in order.gets)
    window = timedelta(days=d.rules.trade_days)
    match = next((x for x in t.trades if x["status"] == "open" and x["player"] == partner
                  and x["partner"] == d.player and x["gives"] == gets and x["gets"] == gives
                  and d.when - parse_time(x["posted_at"]) <= window), None)
    new_id = max((x["id"] for x in t.trades), default=0) + 1
    row = {"id": new_id, "player": d.player, "partner": partner, "gives": gives, "gets": gets,
           "posted_at": time_text(d.when), "status": "open"}
    t.trades.append(row)
    if match is None:
        d.event("trade", TRADING, f"{d.player} offers {partner} {gives or 'nothing'} for "
                f"{gets or 'nothing'} (trade {new_id}, open for {d.rules.trade_days} days).",
                None, trade=new_id)
        return
    mine = {i: n for n, i in order.gives}
    theirs = {i: n for n, i in order.gets}
    if not is_reputable(t, partner, d.when):
        row["status"] = match["status"] = "failed"
        raise d.fail("7", f"{partner} is not reputable: only reputable players trade")
    if not t.has(d.player, mine) or not t.has(partner, theirs):
        row["status"] = match["status"] = "failed"
        raise d.fail(TRADING, "one side does not hold what it gives")
    t.spend(d.player, mine)
    t.spend(partner, theirs)
    for i, n in mine.items():
        t.gain(partner, i, n)
    for i, n in theirs.items():
        t.gain(d.player, i, n)
    row["status"] = match["status"] = "done"
    d.event("trade", TRADING, f"{d.player} and {partner} trade: {gives or 'nothing'} for "
            f"{gets or 'nothing'}.", None, trade=new_id, partner=partner)


def name_quality(d: Doing, order: NameQuality) -> None:
    """7.3.2.1: who catches a higher quality than the ones named names the unnamed below it."""
    t = d.table
    q = order.quality
    if t.qualities.get(q, ("", ""))[0]:
        raise d.fail(QUALITY, f"quality {q} is named already ({t.qualities[q][0]})")
    best = max((f["quality"] for f in t.fish if f["player"] == d.player), default=0)
    if q < 1 or q >= best:
        raise d.fail(QUALITY, f"{d.player} holds no medallion fish of a quality above {q}")
    if any(n == order.name for n, _ in t.qualities.values()):
        raise d.fail(QUALITY, f"{order.name!r} names another quality")
    t.qualities[q] = (order.name, d.player)
    d.event("naming", QUALITY, f"{d.player} names quality {q} {order.name}.", None, quality=q)


def declare(d: Doing, order: Declare) -> None:
    """2: if two reputable players declare an unreputable player reputable, they become so."""
    t = d.table
    target = next((p for p in t.players if p.casefold() == order.player.casefold()), None)
    if target is None:
        raise d.fail(PLAYERS, f"no player {order.player!r}")
    if not d.reputable():
        raise d.fail(PLAYERS, f"{d.player} is not reputable")
    if is_reputable(t, target, d.when):
        raise d.fail(PLAYERS, f"{target} is reputable already")
    row = t.players[target]
    row["declared"] = sorted({*(row["declared"] or []), d.player})
    d.event("declare", PLAYERS, f"{d.player} declares {target} reputable"
            + (f": {target} is reputable." if len(row["declared"]) >= 2 else "."), None)


def join(d: Doing, order: Join) -> None:
    """2: anyone may become a player unless they were one in the past seven days."""
    t = d.table
    row = t.players.get(d.player)
    if row is not None and row["active"]:
        raise d.fail(PLAYERS, f"{d.player} is a player already")
    if row is not None and row["left_at"] and \
            d.when - parse_time(row["left_at"]) < timedelta(days=d.rules.rejoin_days):
        raise d.fail(PLAYERS, f"{d.player} was a player within the past "
                     f"{d.rules.rejoin_days} days")
    if row is None or d.rules.leaving == "destroy_items":
        # 5: "All players are initially on hex (0, 0, 0)"; a returning player starts anew,
        # their items were destroyed when they left (7)
        row = t.players.setdefault(d.player, {"id": d.player, "name": d.player})
        row.update(q=0, r=0, ap=0, ap_phase=-1, stag_phase=-1)
    # 2.1: a faction of their own name
    row.update(active=True, joined=time_text(d.when), left_at=None, declared=[],
               faction=d.player)
    t.see(d.player, (row["q"], row["r"]))
    d.event("join", PLAYERS, f"{d.player} becomes a player, on the origin.", None)


def leave(d: Doing, order: Leave) -> None:
    """2: a player may cease being one; 7: "if it would be owned by a non-player, it is
    instead destroyed": their items and fish are destroyed."""
    d.me.update(active=False, left_at=time_text(d.when))
    t = d.table
    if d.rules.leaving != "destroy_items":
        d.event("leave", PLAYERS, f"{d.player} ceases being a player.", None)
        drop_if_empty(d, str(d.me["faction"]))
        return
    lost = sorted(f"{n} {i}" for i, n in t.items.pop(d.player, {}).items() if n)
    fish = [f for f in t.fish if f["player"] == d.player]
    t.fish = [f for f in t.fish if f["player"] != d.player]
    held = ", ".join(lost + ([f"{len(fish)} fish"] if fish else [])) or "nothing"
    d.event("leave", PLAYERS, f"{d.player} ceases being a player; what they held is destroyed "
            f"({held}).", None)
    drop_if_empty(d, str(d.me["faction"]))
