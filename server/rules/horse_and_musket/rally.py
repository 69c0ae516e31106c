"""Rally (2, 2.1, R16.8): each general, once in his side's rally step, moves up to 5 hexes into a unit's hex and takes
a d3 of hits off it, never below 1 hit and never its staggered flag; only a unit with 2 or more hits, out of range of
enemy fire, may be rallied."""

from __future__ import annotations

from ..kernel.errors import IllegalCommand
from .context import HMCtx
from .firing import under_fire
from .movement import general_path, general_path_problem
from .tables import GENERAL_MOVE


def unit_problem(ctx: HMCtx, side: str, uid: str) -> str | None:
    """2.1, R16.8: the unit may be rallied: its side's, on the map, at least 2 hits, out of range of enemy fire."""
    if uid not in ctx.sc.units or ctx.side_of(uid) != side or ctx.is_general(uid) or not ctx.on_map(uid):
        return "rally one of your units on the map"
    if ctx.hits(uid) < 2:
        return f"{ctx.says(uid)} has fewer than 2 hits: a rally never takes a unit below 1 hit"
    if under_fire(ctx, uid):
        return f"{ctx.says(uid)} is within range of enemy fire (R16.20(20))"
    return None


def general_problem(ctx: HMCtx, side: str, gid: str) -> str | None:
    if gid not in ctx.sc.units or ctx.side_of(gid) != side or not ctx.is_general(gid) or not ctx.on_map(gid):
        return "a rally is made by one of your generals on the map"
    if gid in ctx.x.get("rallied", []):
        return f"{ctx.says(gid)} has rallied this turn"
    return None


def cmd_rally(ctx: HMCtx, side: str, gid: str, uid: str, path: list[str]) -> None:
    if ctx.step != "rally":
        raise IllegalCommand("2", "units are rallied in the rally step")
    for problem in (general_problem(ctx, side, gid), unit_problem(ctx, side, uid)):
        if problem is not None:
            raise IllegalCommand("2.1", problem)
    bad = general_path_problem(ctx, gid, path, GENERAL_MOVE)
    if bad is None and path[-1] != ctx.hex_of(uid):
        bad = f"the path ends at {path[-1]}, not at {ctx.says(uid)}'s hex"
    if bad is not None:
        raise IllegalCommand("2.1", bad)
    if path[-1] != ctx.hex_of(gid):
        ctx.move_unit(gid, path[-1])
    ctx.listed("rallied").append(gid)
    (die,) = ctx.roll(1, f"{ctx.says(gid)} rallies {ctx.says(uid)} (d3: a d6 halved, rounded up)", ["d6"], "2.1",
                      unit=uid, general=gid)
    d3 = (die + 1) // 2
    info = ctx.info(uid)
    before = int(info["hits"])
    info["hits"] = max(1, before - d3)
    ctx.emit("rally", f"2.1: {ctx.says(gid)} rallies {ctx.says(uid)}: {before} -> {info['hits']} hits", unit=uid,
             general=gid, hits=info["hits"], rule="2.1")


def rallies(ctx: HMCtx, side: str) -> list[dict[str, object]]:
    """Every rally the side may make now (one per general and unit)."""
    out: list[dict[str, object]] = []
    units = [u for u in ctx.units_of(side) if unit_problem(ctx, side, u) is None]
    if not units:
        return out
    for g in ctx.generals_of(side):
        if general_problem(ctx, side, g) is not None:
            continue
        for u in units:
            path = general_path(ctx, g, ctx.hex_of(u), GENERAL_MOVE)
            if path is not None:
                out.append({"type": "rally", "general": g, "unit": u, "path": path})
    return out

