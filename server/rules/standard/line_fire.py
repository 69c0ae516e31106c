"""19.7 D long-range fire: a unit in line not in an enemy ZOC fires at an enemy unit up to two hexes away in its front
arc (S65), resolved as an artillery bombardment with the line marker's CF alone (bombard.py's `bombard_fire` task:
the attacker names the unit fired at, doubled against cavalry, halved against open order, +2 against a square).
`line_fire {unit, target}` in the side's own combat phase; the fire is the unit's attack for the phase (7.5).
"""

from __future__ import annotations

from typing import Any

from ..kernel.facing import Arc
from ..kernel.game import check_fields
from ..kernel.state import PHASE_COMBAT
from .context import StdCtx
from .line import in_ezoc, in_line, lines, refusal, rule_of
from .sight import has_los
from .special import LINE_FIRE_RANGE, line_arc
from .weather import los_refusal

FIRE = "line_fire"


# --- 19.7 D: long-range fire ------------------------------------------------------------------------------------
def fire_problem(ctx: StdCtx, side: str, uid: str, target: str) -> str | None:
    """19.7 D (S65): why `uid` may not fire at `target` at long range now (None: it may)."""
    st = ctx.st
    if uid not in ctx.sc.units or ctx.side_of(uid) != side or not ctx.on_map(uid) or not in_line(ctx, uid):
        return "19.7 D: name one of your units in line"
    if st.phase != PHASE_COMBAT or st.active != side:
        return "19.7 D: a line fires in its own combat phase"
    s = st.units[uid]
    assert s.hex is not None and s.facing is not None
    name = ctx.name(uid)
    if s.attacked:
        return f"7.5: {name} has attacked this phase"
    if s.ineffective:
        return f"8.4(2): {name} is ineffective"
    if in_ezoc(ctx, side, uid):
        return f"19.7 D: {name} is in an enemy zone of control: no long-range fire"
    if target not in ctx.sc.grid:
        return f"19.7 D: {target} is not a hex of the map"
    if not ctx.combat_units_at(target, ctx.enemy(side)):
        return f"8.4: no enemy combat unit is in {target}"
    dist = ctx.sc.grid.distance(s.hex, target)
    if dist > LINE_FIRE_RANGE:
        return f"19.7 D: {target} is more than {LINE_FIRE_RANGE} hexes away"
    if line_arc(ctx.sc.grid, s.hex, s.facing, target) is not Arc.FRONT:
        return f"19.7 D: {target} is not in {name}'s front (a line fights only to its front)"
    limit = {"day": LINE_FIRE_RANGE, "twilight": 1, "night": 0}[ctx.light()]
    if dist > limit:
        rule = {"twilight": "14.3(3)", "night": "14.2(5)"}[ctx.light()]
        return f"{rule}: {target} is beyond the line of sight ({limit} hexes)"
    rain = los_refusal(ctx.weather(), dist)
    if rain:
        return rain
    if not has_los(ctx, s.hex, target):
        return f"8.6: {name} has no line of sight to {target}"
    return None


def cmd_line_fire(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"unit": "id", "target": "hex"}, {})
    uid, target = cmd["unit"], cmd["target"]
    problem = fire_problem(ctx, side, uid, target)
    if problem is not None:
        raise refusal(problem)
    ctx.st.units[uid].attacked = True
    ctx.emit(FIRE, f"19.7 D: {ctx.name(uid)} fires at long range at {target}", unit=uid, target=target, rule="19.7 D")
    ctx.st.tasks.extend([{"t": "combat_end"}, {"t": "bombard_done"},
                         {"t": "bombard_fire", "group": [uid], "coordinator": None, "target": target, "side": side}])


def fire_commands(ctx: StdCtx, side: str) -> list[dict[str, Any]]:
    """19.7 D: every long-range fire a side's lines may make now."""
    if rule_of(ctx) is None or ctx.st.phase != PHASE_COMBAT or ctx.st.active != side:
        return []
    out: list[dict[str, Any]] = []
    for uid, _ in sorted(lines(ctx).items()):
        if ctx.side_of(uid) != side:
            continue
        h = ctx.st.units[uid].hex
        assert h is not None
        for t in sorted(ctx.sc.grid.within(h, LINE_FIRE_RANGE)):
            if t != h and fire_problem(ctx, side, uid, t) is None:
                out.append({"type": FIRE, "unit": uid, "target": t})
    return out
