"""Leaders in combat as the engine plays them (seed 002 10.1, 10.3, with 7.8's Leader notation).

10.3: a leader assists one unit a game turn (`extra.assisted`: its move, its recovery, a combat he joins or
coordinates); a participating leader adds his morale rating to the checks of the unit he joins; a Leader result
makes every participating leader (a casualty on 5 or 6) and every leader coordinating the combat or stacked with
its units (on 6) roll for casualty.
10.1: a leader left alone in an EZOC outside the movement phase goes to the nearest friendly unit (turning
ineffective) with a safe line, checks for casualty first with an unsafe one, and is captured with none.
"""

from __future__ import annotations

from typing import Any

from ..kernel.state import Status
from .context import StdCtx
from .retreat import NONE as NO_LINE
from .retreat import SAFE
from .scenario import Kind


# --- 10.3 participating leaders -------------------------------------------------------------------------------------
def assisted(ctx: StdCtx) -> list[str]:
    """10.3: the leaders that have assisted a unit this game turn."""
    return sorted(u for u, t in ctx.x.get("assisted", {}).items() if t == ctx.st.turn)


def leader_morale(ctx: StdCtx, joined: dict[str, str], uid: str | None) -> int:
    """10.3: the morale ratings of the participating leaders joined to `uid`."""
    total = 0
    for ldr, u in joined.items():
        lf = ctx.d(ldr).leader
        if u == uid and lf is not None and ctx.on_map(ldr) and ctx.st.units[ldr].hex == ctx.st.units[u].hex:
            total += lf.morale
    return total


# --- 10.3 leader casualties, 10.1 lone leaders ----------------------------------------------------------------------
def leader_checks(ctx: StdCtx, c: dict[str, Any]) -> None:
    """7.8 Leader, 10.3 (leader casualties): every leader that participates (a casualty on 5 or 6), coordinates or is
    stacked with the combat's units (on 6) rolls a die."""
    participating = set(c.get("leaders", {})) | set(c.get("def_leaders", {}))
    involved = set(participating)
    if c.get("coordinator"):
        involved.add(c["coordinator"])
    for h in [c["target"], *c["hexes"]]:
        involved.update(u for u in ctx.units_at(h) if ctx.kind(u) is Kind.LEADER)
    for u in sorted(involved):
        if not ctx.on_map(u):
            continue
        (die,) = ctx.roll(1, "leader casualty", ["die"], "10.3", unit=u)
        if die == 6 or (die == 5 and u in participating):
            ctx.set_status(u, Status.DEAD)
            how = "participating" if u in participating else "coordinating" if u == c.get("coordinator") else "stacked"
            ctx.emit("leader_lost", f"10.3: {ctx.name(u)} ({how}) is a casualty (die {die})", unit=u, rule="10.3")


def lone_leaders(ctx: StdCtx) -> None:
    """10.1: a leader alone in an EZOC outside the movement phase goes to the nearest friendly unit (SLR), checks for
    casualty first on an unsafe line, or is captured with none."""
    for u in sorted(ctx.st.units):
        if ctx.kind(u) is not Kind.LEADER or not ctx.on_map(u):
            continue
        s = ctx.st.units[u]
        assert s.hex is not None
        side = ctx.side_of(u)
        if ctx.combat_units_at(s.hex, side) or not ctx.in_ezoc(s.hex, side):
            continue
        line = ctx.lines(side, ctx.army(u), "leader", (u,)).line(s.hex)
        if line == NO_LINE:
            ctx.set_status(u, Status.CAPTURED)
            ctx.emit("captured", f"10.1: {ctx.name(u)} is alone with no line of retreat and is captured", unit=u,
                     rule="10.1")
            continue
        if line != SAFE:
            (die,) = ctx.roll(1, "leader casualty", ["die"], "10.3", unit=u)
            if die == 6:
                ctx.set_status(u, Status.DEAD)
                ctx.emit("leader_lost", f"10.3: {ctx.name(u)} is a casualty retreating alone", unit=u, rule="10.3")
                continue
        dest = _nearest_friend(ctx, u)
        if dest is None:
            ctx.set_status(u, Status.CAPTURED)
            ctx.emit("captured", f"10.1: {ctx.name(u)} cannot reach a friendly unit and is captured", unit=u, rule="10.1")
            continue
        origin = s.hex
        ctx.move_unit(u, dest)
        ctx.make_ineffective(u, "10.1")
        ctx.emit("leader_moves", f"10.1: {ctx.name(u)} joins the nearest friendly unit at {dest}", unit=u, hex=dest,
                 path=[origin, dest], rule="10.1")  # path: where from, for the page's trail


def _nearest_friend(ctx: StdCtx, uid: str) -> str | None:
    side = ctx.side_of(uid)
    start = ctx.st.units[uid].hex
    assert start is not None
    seen = {start}
    frontier = [start]
    while frontier:
        nxt = []
        for h in sorted(frontier):
            if h != start and ctx.combat_units_at(h, side):
                return h
            for n in ctx.sc.grid.neighbors(h):
                if n not in seen and not ctx.enemy_occupied(n, side) and ctx.sc.could_move("leader", h, n):
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return None
