"""Victory (designed, R16.18; SR.1's colours): army break at the end of every player turn, victory points after the
last round, and the objectives' control (the last side to have a unit in each)."""

from __future__ import annotations

from typing import Any

from .context import HMCtx
from .tables import Kind

COUNTED_LOST = ("eliminated", "captured", "dead")


def lost(ctx: HMCtx, side: str) -> int:
    """R16.18: the side's units routed, destroyed or eliminated (generals and wagons not counted)."""
    return sum(1 for uid in ctx.sc.side_units[side]
               if ctx.kind(uid) not in (Kind.GENERAL, Kind.WAGONS) and ctx.st.units[uid].status in COUNTED_LOST)


def update_control(ctx: HMCtx) -> None:
    """R16.18: each objective to the side that last had a unit in it."""
    for obj in ctx.sc.victory.objectives:
        u = ctx.unit_at(obj.hex)
        if u is None:
            continue
        side = ctx.side_of(u)
        if ctx.st.control.get(obj.hex) != side:
            ctx.st.control[obj.hex] = side
            ctx.emit("control", f"R16.18: {ctx.sc.sides[side].name} holds {obj.name}", hex=obj.hex, side=side,
                     rule="R16.18")


def points(ctx: HMCtx) -> dict[str, int]:
    """R16.18: 1 per enemy unit lost, +1 per enemy gun captured, 2 per enemy colour held, and the objectives held."""
    sc = ctx.sc
    out = {s: 0 for s in sc.side_order}
    for s in sc.side_order:
        out[sc.opponent(s)] += lost(ctx, s)
    for s, n in ctx.x.get("guns", {}).items():
        out[s] += int(n)
    for c in ctx.x.get("colours", []):
        if c["held"]:
            out[c["side"]] += 2
    for obj in sc.victory.objectives:
        holder = ctx.st.control.get(obj.hex)
        if holder is not None:
            out[holder] += obj.points
    return out


def broken(ctx: HMCtx) -> list[str]:
    """R16.18: the sides that have lost at least half their starting units, rounded up."""
    return [s for s in ctx.sc.side_order if lost(ctx, s) >= ctx.sc.break_at[s]]


def result_on_points(ctx: HMCtx, why: str) -> dict[str, Any]:
    pts = points(ctx)
    a, b = ctx.sc.side_order
    score = f"{ctx.sc.sides[a].name} {pts[a]}, {ctx.sc.sides[b].name} {pts[b]}"
    if pts[a] == pts[b]:
        return {"winner": None, "reason": f"{why}: a draw on points ({score})", "points": pts, "turn": ctx.st.turn}
    winner = a if pts[a] > pts[b] else b
    return {"winner": winner, "reason": f"{why}: victory to the {ctx.sc.sides[winner].name} on points ({score})",
            "points": pts, "turn": ctx.st.turn}


def army_break(ctx: HMCtx) -> dict[str, Any] | None:
    """R16.18 at the end of a player turn: one broken side loses; both broken, points decide."""
    gone = broken(ctx)
    if not gone:
        return None
    if len(gone) == 2:
        return result_on_points(ctx, "both armies break")
    loser = gone[0]
    winner = ctx.sc.opponent(loser)
    return {"winner": winner, "reason": f"R16.18: the {ctx.sc.sides[loser].name} army breaks "
                                        f"({lost(ctx, loser)} units lost)", "points": points(ctx),
            "turn": ctx.st.turn}

