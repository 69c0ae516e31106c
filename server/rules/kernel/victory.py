"""Objective control and victory (the scenario's victory conditions: 3.4 and what the Quick Play seed calls 14.0,
the Standard seed's 3.2 and 18.0).  Both editions score the kernel's `Victory` model the same way, so the
mechanism is the kernel's; `returning_lost` says whether a unit on its way back to the map (`returning`) counts as
lost (Quick Play V24: a unit returning through step recovery was eliminated) or not (the Standard rules: a
routed unit waits on the TRT, 7.10, and a replaced one has its step back, 11.2)."""

from __future__ import annotations

from typing import Any

from .core import Context
from .state import (
    PHASE_OVER,
    STATUS_CAPTURED,
    STATUS_DEAD,
    STATUS_ELIMINATED,
    STATUS_MAP,
    STATUS_RETURNING,
)


def update_control(ctx: Context, rule: str = "14.0") -> None:
    """The last side to occupy an objective with a combat unit controls it (`rule`: the edition's number for the
    scenario's victory conditions, which the event cites)."""
    for obj in ctx.sc.victory.objectives:
        units = ctx.combat_units_at(obj.hex)
        sides = {ctx.side_of(u) for u in units}
        if len(sides) == 1:
            (side,) = sides
            if ctx.st.control.get(obj.hex) != side:
                ctx.st.control[obj.hex] = side
                ctx.emit("control", f"{rule}: {ctx.sc.sides[side].name} takes {obj.name}", hex=obj.hex, side=side,
                         rule=rule)


_LOST = frozenset({STATUS_ELIMINATED, STATUS_DEAD})
_LOST_OR_RETURNING = _LOST | {STATUS_RETURNING}
_REDUCIBLE = (STATUS_MAP, STATUS_RETURNING)


def objective_points(ctx: Context) -> dict[str, int]:
    """Each side's points for the objectives it holds (and scores)."""
    out = {s: 0 for s in ctx.sc.side_order}
    for obj in ctx.sc.victory.objectives:
        holder = ctx.st.control.get(obj.hex)
        if holder is not None and (obj.scorer is None or obj.scorer == holder):
            out[holder] += obj.points
    return out


def points(ctx: Context, returning_lost: bool = True) -> dict[str, int]:
    v = ctx.sc.victory
    out = objective_points(ctx)
    lost = _LOST_OR_RETURNING if returning_lost else _LOST
    first, second = ctx.sc.side_order
    defs = ctx.sc.units
    for uid, s in ctx.st.units.items():
        status = s.status
        if status == STATUS_MAP and not s.reduced:
            continue  # most units, most of the game: nothing to score (runs for every view of every command)
        d = defs[uid]
        enemy = second if d.side == first else first
        if d.kind.is_combat:
            if status == STATUS_CAPTURED:
                out[enemy] += v.unit_captured
            elif status in lost:
                out[enemy] += v.step_eliminated * d.steps
            elif s.reduced and status in _REDUCIBLE:
                out[enemy] += v.step_eliminated
        elif d.kind.value == "leader":
            if status == STATUS_CAPTURED:
                out[enemy] += v.leader_captured
            elif status == STATUS_DEAD:
                out[enemy] += v.leader_eliminated
    return out


def sudden_death(ctx: Context, returning_lost: bool = True, scored: dict[str, int] | None = None) -> dict[str, Any] | None:
    """`scored`: each side's points as the edition counts them, when not by the scenario's schedule (`points`)."""
    for side, hexes in ctx.sc.victory.sudden_death:
        if all(ctx.st.control.get(h) == side for h in hexes):
            names = ", ".join(_objective_name(ctx, h) for h in hexes)
            return {"winner": side, "reason": f"{ctx.sc.sides[side].name} holds {names} at the end of turn {ctx.st.turn}: an immediate victory",
                    "points": scored if scored is not None else points(ctx, returning_lost), "turn": ctx.st.turn}
    return None


def _objective_name(ctx: Context, hex_: str) -> str:
    for obj in ctx.sc.victory.objectives:
        if obj.hex == hex_:
            return obj.name
    return hex_


def final_result(ctx: Context, returning_lost: bool = True, scored: dict[str, int] | None = None) -> dict[str, Any]:
    """`scored`: each side's points as the edition counts them, when not by the scenario's schedule (`points`)."""
    pts = scored if scored is not None else points(ctx, returning_lost)
    a, b = ctx.sc.side_order
    lead = pts[a] - pts[b]
    score = f"{ctx.sc.sides[a].name} {pts[a]}, {ctx.sc.sides[b].name} {pts[b]}"
    if abs(lead) < ctx.sc.victory.draw_margin:
        return {"winner": None, "reason": f"the battle ends in a draw on points ({score})", "points": pts, "turn": ctx.st.turn}
    winner = a if lead > 0 else b
    return {"winner": winner, "reason": f"{ctx.sc.sides[winner].name} wins on points ({score})", "points": pts, "turn": ctx.st.turn}


def game_over(ctx: Context, result: dict[str, Any], text: str, **data: Any) -> None:
    """End the game with `result` (winner, reason, points, turn): no decision or task is left, and one public
    `game_over` event tells it."""
    st = ctx.st
    st.result = result
    st.phase = PHASE_OVER
    st.decision = None
    st.tasks = []
    ctx.emit("game_over", text, **data)
