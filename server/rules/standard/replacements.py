"""Replacement steps (seed 002 11.2) given per side on the TRT, or per formation (17.2, 17.4; S62).

11.2: the steps a side receives in its movement phase are spent by `replace` then, and unexpended ones are lost.
17.2, 17.4: "one per formation (not sub-formation; see 19.1) per turn", neither accumulated nor transferred: a side
whose scenario says `replacements: {"per_formation": n}` receives n steps for each of its formations at the start of
its movement phase, in `extra.formation_steps` (formation -> steps left), and a step restores only a unit of that
formation (19.1: the main formation, whatever its sub-formation).  S62: an 'A' unit belongs to every formation of
its army (2.4, 10.3) and takes a step of one of them (the first, by formation id, with a step left); an independent
('0') unit belongs to no formation and receives no replacement step (11.2's morale check still restores it).
`GameState.replacements[side]` keeps the total left, which the page and the bots read.
"""

from __future__ import annotations

from ..kernel.errors import IllegalCommand
from .context import StdCtx

ALL = "A"  # 2.4
INDEPENDENT = "0"  # 2.4


def grant(ctx: StdCtx, side: str) -> None:
    """11.2, 17.2 (S62): the side's replacement steps for this movement phase (the other side's are gone)."""
    st = ctx.st
    st.replacements = {s: 0 for s in ctx.sc.side_order}
    per = ctx.sc.sides[side].per_formation
    if per is None:
        ctx.x.pop("formation_steps", None)
        st.replacements[side] = ctx.sc.trt[st.turn - 1].replacements.get(side, 0)  # 11.2
        if st.replacements[side]:
            ctx.emit("replacements", f"11.2: {ctx.sc.sides[side].name} receives {st.replacements[side]} replacement "
                                     "step(s)", side=side, rule="11.2")
        return
    pools = {f: per for f, d in sorted(ctx.sc.formations.items()) if d.side == side and per > 0}
    ctx.x["formation_steps"] = pools  # 17.2: last turn's unused steps are lost, never carried over
    st.replacements[side] = sum(pools.values())
    if pools:
        ctx.emit("replacements", f"17.2, 11.2: {ctx.sc.sides[side].name} receives {per} replacement step(s) for each "
                                 f"of its {len(pools)} formations", side=side, rule="17.2", per_formation=per)


def step_source(ctx: StdCtx, side: str, uid: str) -> str | None:
    """11.2, 17.2 (S62): the formation whose step would restore `uid` (None: the side's TRT steps), or IllegalCommand
    when none is left for it."""
    if ctx.st.replacements.get(side, 0) <= 0:
        raise IllegalCommand("11.2", "you have no replacement step left this turn")
    pools: dict[str, int] | None = ctx.x.get("formation_steps")
    if pools is None:
        return None
    d = ctx.d(uid)
    if d.formation == INDEPENDENT:
        raise IllegalCommand("17.2", f"{d.name} is independent: replacement steps are given per formation (S62)")
    if d.formation == ALL:
        army = ctx.sc.army_of(uid)
        for f, left in sorted(pools.items()):
            if left > 0 and ctx.sc.formations[f].army == army:
                return f
        raise IllegalCommand("17.2", f"no formation of {d.name}'s army has a replacement step left this turn")
    if pools.get(d.formation, 0) <= 0:
        raise IllegalCommand("17.2", f"formation {d.formation} has no replacement step left this turn; steps are not "
                                     "transferred between formations")
    return d.formation


def spend(ctx: StdCtx, side: str, source: str | None) -> None:
    """11.2: one replacement step is used (from `source`'s formation when given per formation, 17.2)."""
    ctx.st.replacements[side] -= 1
    if source is not None:
        ctx.x["formation_steps"][source] -= 1


__all__ = ["grant", "spend", "step_source"]
