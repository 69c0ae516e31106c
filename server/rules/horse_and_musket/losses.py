"""Hits, staggered units, routs and removals (5.1.9, 5.2.5, 6.5, 7, R16.15), generals' casualties (5.6, 6.11) and a
lone general meeting the enemy (R16.3)."""

from __future__ import annotations

from ..kernel.state import STATUS_CAPTURED, STATUS_DEAD, STATUS_ELIMINATED, STATUS_REMOVED, Status
from .context import HMCtx
from .tables import GENERAL_MOVE, STAGGER_AT, Kind

ROUTED, STAGGERED = "routed", "staggered"


def apply_hits(ctx: HMCtx, uid: str, n: int, rule: str) -> str | None:
    """R16.15: hits add up; at 6 the unit is staggered for good and the count restarts with the excess; a staggered
    unit reaching 6 is routed (removed). What happened: STAGGERED, ROUTED or None."""
    if n <= 0 or not ctx.on_map(uid):
        return None
    info = ctx.info(uid)
    total = int(info["hits"]) + n
    outcome: str | None = None
    if total >= STAGGER_AT and not ctx.staggered(uid):
        ctx.st.units[uid].reduced = True
        total -= STAGGER_AT
        outcome = STAGGERED
        ctx.emit("staggered", f"{rule}, 5.1.9: {ctx.says(uid)} is staggered", unit=uid, rule="5.1.9")
    if total >= STAGGER_AT:
        info["hits"] = 0
        remove(ctx, uid, STATUS_ELIMINATED, "5.1.9", "routed: a staggered unit took 6 more hits")
        return ROUTED
    info["hits"] = total
    ctx.emit("hits", f"{rule}: {ctx.says(uid)} takes {n} hit{'s' if n != 1 else ''} ({total} on it)", unit=uid,
             hits=n, total=total, rule=rule)
    return outcome


def remove(ctx: HMCtx, uid: str, status: str, rule: str, why: str) -> None:
    """Take a unit off the map: routed or destroyed (eliminated), a gun captured, wagons removed (R16.18). Its
    attached generals stay in the hex, alone; colours it carried stay banked (R16.16)."""
    kind = ctx.kind(uid)
    if kind is Kind.WAGONS and status != STATUS_ELIMINATED:
        status = STATUS_REMOVED
    ctx.set_status(uid, Status(status))
    for c in ctx.x.get("colours", []):
        if c.get("carrier") == uid:
            c["carrier"] = None
    ctx.x["contacts"] = [c for c in ctx.x.get("contacts", []) if uid not in (c["charger"], c["target"])]
    ctx.emit("removed", f"{rule}: {ctx.says(uid)} is {why}", unit=uid, rule=rule, status=status)


def capture_gun(ctx: HMCtx, uid: str, by_side: str, rule: str) -> None:
    """4.1.7, 6.2: artillery contacted is removed with no dice; the gun counts as captured (R16.18). Wagons are
    removed the same way and count for nobody (R16.20(4))."""
    if ctx.kind(uid) is Kind.ARTILLERY:
        guns = ctx.x.setdefault("guns", {})
        guns[by_side] = int(guns.get(by_side, 0)) + 1
        remove(ctx, uid, STATUS_CAPTURED, rule, "overrun: the gun is captured")
    else:
        remove(ctx, uid, STATUS_REMOVED, rule, "overrun and removed")


def general_casualties(ctx: HMCtx, generals: list[str], hits: int, rule: str) -> None:
    """5.6, 6.11, R16.15: 3 or more hits (after saves) from one fire or combat on a unit with generals attached: a d6
    for each, and a 6 removes him."""
    if hits < 3:
        return
    for g in generals:
        if not ctx.on_map(g):
            continue
        (die,) = ctx.roll(1, f"casualty check for {ctx.says(g)}", ["d6"], rule, unit=g)
        if die == 6:
            ctx.set_status(g, Status(STATUS_DEAD))
            ctx.emit("general_lost", f"{rule}: {ctx.says(g)} becomes a casualty", unit=g, rule=rule)


def entered(ctx: HMCtx, uid: str, hex_: str) -> None:
    """R16.3: an enemy unit enters a lone general's hex: he moves at once to the nearest hex with a friendly unit
    (the lowest CCRR on a tie), or is removed when none is within 5 hexes."""
    side = ctx.side_of(uid)
    for g in list(ctx.generals_at(hex_)):
        gside = ctx.side_of(g)
        if gside == side:
            continue
        grid = ctx.sc.grid
        friends = sorted((grid.distance(hex_, ctx.hex_of(u)), ctx.hex_of(u)) for u in ctx.units_of(gside))
        if friends and friends[0][0] <= GENERAL_MOVE:
            ctx.move_unit(g, friends[0][1])
            ctx.emit("general_flees", f"R16.3: {ctx.says(g)} escapes to {friends[0][1]}", unit=g, hex=friends[0][1],
                     rule="R16.3")
        else:
            ctx.set_status(g, Status(STATUS_DEAD))
            ctx.emit("general_lost", f"R16.3: {ctx.says(g)} is caught with no friendly unit within 5 hexes",
                     unit=g, rule="R16.3")


def place(ctx: HMCtx, uid: str, hex_: str) -> None:
    """Move a unit into a hex with the generals attached to it (R16.3: they move, retreat and retire with it free);
    a lone enemy general there escapes (`entered`)."""
    start = ctx.st.units[uid].hex
    riders = ctx.attached(uid) if start is not None else []
    ctx.move_unit(uid, hex_)
    for g in riders:
        ctx.move_unit(g, hex_)
    entered(ctx, uid, hex_)
