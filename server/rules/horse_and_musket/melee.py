"""Hand-to-hand (6, R16.16): each contact of the player turn fought in declaration order, the charger first; the dice
of 6.6.1-6.6.11, saves (6.7), the result and the loser's retreat (6.8-6.10), colours (SR.1) and generals (6.11)."""

from __future__ import annotations

from typing import Any

from . import geometry as geo
from .context import HMCtx
from .losses import apply_hits, capture_gun, general_casualties
from .retreat import fall_back
from .scenario import TOWN, WOODS
from .tables import GRADES, HIT_ON, Kind, basic_dice

Dice = list[tuple[int, str, str]]  # (dice, rule, why)


def _difficult_between(ctx: HMCtx, a: str, b: str) -> bool:
    """6.4, R16.20(40): the charger's hex, the defender's hex or the hexside between is difficult going."""
    sc = ctx.sc
    return sc.difficult_hex(a) or sc.difficult_hex(b) or sc.hedge_between(a, b)


def _rank(ctx: HMCtx, uid: str, foe: str) -> int:
    """UG, 6.6.10: the grade, heavy cavalry and dragoons one higher against infantry."""
    d = ctx.d(uid)
    return GRADES.index(d.grade) + (1 if d.kind is Kind.HC and ctx.kind(foe).infantry else 0)


def dice_for(ctx: HMCtx, me: str, foe: str, contact: dict[str, Any], charging: bool) -> Dice:
    """R16.5's basic dice and 6.6's extra dice for `me` fighting `foe`; `charging`: it charged or countercharged."""
    sc = ctx.sc
    grid = sc.grid
    mine, theirs = ctx.hex_of(me), ctx.hex_of(foe)
    d, e = ctx.d(me), ctx.d(foe)
    defender = me == contact["target"]
    out: Dice = [(basic_dice(ctx.formation(me)), "6.1", "basic" + (", column: front element only (4.1.8.4)"
                                                                   if ctx.in_column(me) else ""))]
    if charging and not _difficult_between(ctx, mine, theirs):
        out.append((2, "6.6.1", "charging"))
    if ctx.staggered(foe):
        out.append((2, "6.6.2", "the enemy is staggered"))
    if charging and d.close_order and e.kind is Kind.LI and sc.terrain_at(theirs) not in (WOODS, TOWN):
        out.append((2, "6.6.3", "close order against light infantry"))
    if d.kind is Kind.HC and e.kind is Kind.LC:
        out.append((1, "6.6.4", "close order mounted against light cavalry"))
    if defender and mine in sc.fieldworks and mine not in ctx.x.get("breached", []):
        out.append((2, "6.6.5", "defending field works"))
    if charging:
        face = geo.face_toward(grid, theirs, ctx.facing(foe), mine, ctx.all_round(foe))
        if face != geo.FRONT or (ctx.in_column(foe) and e.kind in (Kind.CO, Kind.HC)):
            out.append((2, "6.6.6", "against a flank, rear or column"))
    if sc.elevation_at(mine) > sc.elevation_at(theirs):
        out.append((1, "6.6.7", "higher ground"))
    if defender and contact.get("river") and geo.face_toward(grid, mine, ctx.facing(me), theirs,
                                                               ctx.all_round(me)) == geo.FRONT:
        out.append((1, "6.6.8", "defending a river, ford or bridge"))
    if ctx.attached(me):
        out.append((1, "6.6.9", "general attached"))
    if e.kind.fights and _rank(ctx, me, foe) > _rank(ctx, foe, me):
        out.append((2, "6.6.10", "superior"))
    supports = 0 if sc.terrain_at(mine) == TOWN else min(3, _supports(ctx, me))
    if supports:
        out.append((supports, "6.6.11", f"{supports} supporting unit{'s' if supports > 1 else ''}"))
    if charging and me == contact["charger"] and contact.get("card"):
        out.append((2, "R16.10", "Cold Steel"))
    return out


def _supports(ctx: HMCtx, uid: str) -> int:
    """6.6.11: friendly infantry or cavalry units adjacent across the unit's flank or rear hexsides."""
    f = geo.index(ctx.facing(uid))
    side = ctx.side_of(uid)
    n = 0
    for k in (f + 2, f + 3, f + 4):
        h = ctx.sc.neighbour(ctx.hex_of(uid), k)
        u = ctx.unit_at(h) if h is not None else None
        if u is not None and ctx.side_of(u) == side and ctx.kind(u).fights:
            n += 1
    return n


def _saves(ctx: HMCtx, defender: str, charger: str) -> str | None:
    """6.7, R16.16: the defender alone saves: in cover (woods, a town, a fieldwork section, a hedge on the contact
    hexside), or CO infantry charged on a front face by cavalry. The rule, or None."""
    sc = ctx.sc
    a, b = ctx.hex_of(defender), ctx.hex_of(charger)
    if sc.cover_hex(a) or sc.hedge_between(a, b):
        return "6.7.1"
    front = geo.face_toward(sc.grid, a, ctx.facing(defender), b, ctx.all_round(defender)) == geo.FRONT
    if ctx.defends_as_co(defender) and ctx.kind(charger).cavalry and front:
        return "6.7.2"
    return None


def strike(ctx: HMCtx, me: str, foe: str, contact: dict[str, Any], charging: bool) -> int:
    """One side's blow (6.1, 6.5): its dice, 4-6 hits, the defender's saves, hits applied; the hits that stood."""
    dice = dice_for(ctx, me, foe, contact, charging)
    n = sum(k for k, _, _ in dice)
    why = ", ".join(f"{k} {w} ({r})" for k, r, w in dice)
    rolled = ctx.roll(n, f"{ctx.says(me)} strikes {ctx.says(foe)} ({why})", ["d6"] * n, "6.5", unit=me,
                      breakdown=[{"dice": k, "rule": r, "why": w} for k, r, w in dice])
    hits = sum(1 for v in rolled if v >= HIT_ON)
    saved = 0
    rule = _saves(ctx, foe, me) if foe == contact["target"] else None
    if hits and rule is not None:
        saves = ctx.roll(hits, "saving rolls", ["save"] * hits, rule, unit=foe)
        saved = sum(1 for v in saves if v >= HIT_ON)
    riders = ctx.attached(foe)
    ctx.emit("strike", f"6.5: {ctx.says(me)} scores {hits} hit{'s' if hits != 1 else ''}"
                       f"{f', {saved} saved ({rule})' if saved else ''}", unit=me, target=foe, hits=hits - saved,
             saved=saved, rule="6.5")
    apply_hits(ctx, foe, hits - saved, "6.5")
    general_casualties(ctx, riders, hits - saved, "6.11")
    return hits - saved


def fight(ctx: HMCtx, contact: dict[str, Any]) -> None:
    """R16.16: one contact's combat."""
    a, b = contact["charger"], contact["target"]
    grid = ctx.sc.grid
    if not (ctx.on_map(a) and ctx.on_map(b)) or not grid.is_adjacent(ctx.hex_of(a), ctx.hex_of(b)):
        ctx.emit("lapse", f"R16.16: the combat of {ctx.says(a)} and {ctx.says(b)} lapses", unit=a, target=b,
                 rule="R16.16")
        return
    if ctx.kind(b) in (Kind.ARTILLERY, Kind.WAGONS):
        capture_gun(ctx, b, ctx.side_of(a), "4.1.7")
        return
    carried = {u: [c for c in ctx.x.get("colours", []) if c.get("carrier") == u and c["held"]] for u in (a, b)}
    dealt = strike(ctx, a, b, contact, charging=True)
    taken = strike(ctx, b, a, contact, charging=bool(contact.get("counter"))) if ctx.on_map(b) else 0
    if not ctx.on_map(b):
        winner, loser = a, b
    elif not ctx.on_map(a):
        winner, loser = b, a
    elif dealt != taken:
        winner, loser = (a, b) if dealt > taken else (b, a)
    else:
        holds = ctx.sc.terrain_at(ctx.hex_of(b)) == TOWN or ctx.hex_of(b) in ctx.sc.fieldworks
        winner, loser = (b, a) if holds else (a, b)
    ctx.emit("melee", f"6.8: {ctx.says(winner)} wins against {ctx.says(loser)} ({dealt} hits to {taken})",
             unit=winner, target=loser, rule="6.10" if dealt == taken else "6.8")
    removed = not ctx.on_map(loser)
    if not removed:
        removed = fall_back(ctx, loser, ctx.hex_of(winner), "6.8") is None
    colours(ctx, winner, loser, removed, carried[loser])


def colours(ctx: HMCtx, winner: str, loser: str, removed: bool, carried: list[dict[str, Any]]) -> None:
    """SR.1, R16.16: a beaten CO infantry, HC or dragoon unit may lose its colours (a 6 if removed, 12 on 2d6 if it
    retreated); colours it carried into the combat may be recaptured by the same rolls, and then count for nobody."""
    if not ctx.on_map(winner):
        return
    wside = ctx.side_of(winner)
    own = ctx.d(loser).close_order
    for what, rec in [("colours", None)] * own + [("recapture", c) for c in carried]:
        rolled = ctx.roll(1 if removed else 2, f"{what} of {ctx.says(loser)}", ["d6"] * (1 if removed else 2),
                          "SR.1", unit=loser)
        if sum(rolled) != (6 if removed else 12):
            continue
        if rec is None:
            ctx.listed("colours").append({"of": loser, "side": wside, "carrier": winner, "held": True})
            ctx.emit("colours", f"SR.1: {ctx.says(winner)} captures the colours of {ctx.says(loser)}", unit=winner,
                     target=loser, rule="SR.1")
        else:
            rec["held"] = False
            rec["carrier"] = None
            ctx.emit("colours", f"SR.1: {ctx.says(winner)} recaptures the colours of {ctx.says(rec['of'])}",
                     unit=winner, target=rec["of"], rule="SR.1")


def melee_step(ctx: HMCtx) -> None:
    """R16.16: every contact of this player turn, in declaration order."""
    for contact in list(ctx.x.get("contacts", [])):
        if contact in ctx.x.get("contacts", []):
            fight(ctx, contact)
        else:  # a unit of it was removed since (losses.remove drops its contacts)
            ctx.emit("lapse", f"R16.16: the combat of {ctx.says(contact['charger'])} and "
                              f"{ctx.says(contact['target'])} lapses", unit=contact["charger"],
                     target=contact["target"], rule="R16.16")
    ctx.x["contacts"] = []
    for s in ctx.st.units.values():
        s.charging = None
