"""The movement-phase commands of units rebuilt or off the map (seed 002 11.2, 13.2): `replace` (a replacement
step, 11.2 with 17.2/17.4's per formation, S62), `muster` (11.2's extra replacement check of an eliminated unit, a
leader's help, 10.3) and `reenter` (13.2: a unit on the TRT placed back on the map).  Moved out of moving.py, which
keeps the moves.
"""

from __future__ import annotations

from typing import Any

from ..kernel.errors import IllegalCommand
from ..kernel.game import check_fields
from ..kernel.state import STATUS_HIDDEN, STATUS_MAP, STATUS_RETURNING, Status
from .army import reentry_hexes
from .context import StdCtx
from .morale import morale_passes
from .moving import require_movement_phase
from .recovery import extra_replacement_allowed, step_replaceable
from .replacements import spend, step_source
from .retreat import functioning_loc
from .scenario import Kind
from .tactics import in_span


def cmd_replace(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"unit": "id"}, {})
    require_movement_phase(ctx, side)
    uid = cmd["unit"]
    if uid not in ctx.sc.units or ctx.side_of(uid) != side or not ctx.kind(uid).is_combat:
        raise IllegalCommand("11.2", "replacement steps restore your own combat units")
    source = step_source(ctx, side, uid)  # 11.2, 17.2 (S62)
    s = ctx.st.units[uid]
    why = step_replaceable(ctx.sc, s)
    if why:
        raise IllegalCommand("11.2", why.split(": ", 1)[1])
    if s.status == STATUS_MAP:
        assert s.hex is not None
        if ctx.in_ezoc(s.hex, side) and ctx.light() != "night":
            raise IllegalCommand("11.2", f"{ctx.name(uid)} is in an enemy zone of control: it cannot regain a step now "
                                         "(11.1's requirements)")
        s.reduced = False
        ctx.emit("replaced", f"11.2: {ctx.name(uid)} regains its full strength", unit=uid, rule="11.2")
    elif s.status == STATUS_HIDDEN:  # 19.8 C: in its box (the event is its owner's: visibility.tag_event)
        s.reduced = False
        ctx.emit("replaced", f"11.2, 19.8 C: {ctx.name(uid)} regains its full strength while hidden", unit=uid,
                 rule="11.2")
    else:
        _to_next_box(ctx, uid)
    spend(ctx, side, source)
    ctx.dirty()


def _to_next_box(ctx: StdCtx, uid: str) -> None:
    s = ctx.st.units[uid]
    ctx.set_status(uid, Status.RETURNING)
    s.entry_turn = ctx.st.turn + 1
    s.reduced = ctx.d(uid).steps == 2
    s.disrupted = False
    s.ineffective = False
    ctx.emit("replaced", f"11.2: {ctx.name(uid)} is replaced and waits in the turn {s.entry_turn} box", unit=uid,
             rule="11.2")


def leader_assist(ctx: StdCtx, side: str, unit: str) -> tuple[str, int] | None:
    """10.3: an effective leader whose span holds the eliminated `unit`, stacked with its army's active HQ or active
    trains (17.4, S63) or the side's functioning LOC hex: (leader, morale) for the unit's check, the best first."""
    goals = set(functioning_loc(ctx.sc, ctx.st.units, side))
    for table in (ctx.sc.hq, ctx.sc.trains):
        uid = table.get(ctx.army(unit))
        if uid is not None and ctx.on_map(uid) and uid not in ctx.inactive():
            h = ctx.st.units[uid].hex
            if h is not None:
                goals.add(h)
    best: tuple[str, int] | None = None
    for u in ctx.sc.side_units[side]:
        s = ctx.st.units[u]
        lf = ctx.d(u).leader
        if (ctx.kind(u) is Kind.LEADER and ctx.on_map(u) and not s.ineffective and s.hex in goals and lf is not None
                and in_span(ctx.sc, u, unit) and (best is None or lf.morale > best[1])):
            best = (u, lf.morale)
    return best


def cmd_muster(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"unit": "id"}, {})
    require_movement_phase(ctx, side)
    uid = cmd["unit"]
    if uid not in ctx.sc.units or ctx.side_of(uid) != side or not ctx.kind(uid).is_combat:
        raise IllegalCommand("11.2", "the extra replacement check is made for your own eliminated units")
    if uid in ctx.x.get("mustered", []):
        raise IllegalCommand("11.2", f"{ctx.name(uid)} has made its check this phase")
    assist = leader_assist(ctx, side, uid)
    why = extra_replacement_allowed(ctx.sc, ctx.st.units[uid], leader_assisted=assist is not None)
    if why:
        raise IllegalCommand("11.2", why.split(": ", 1)[1])
    ctx.x.setdefault("mustered", []).append(uid)
    d = ctx.d(uid)
    side_back = d.reduced if d.steps == 2 else d.full
    assert side_back is not None
    (die,) = ctx.roll(1, "extra replacement", ["morale die"], "11.2", unit=uid)
    leader_morale = assist[1] if assist else 0
    passed = morale_passes(die, side_back.mr, leader_morale=leader_morale, light=ctx.light())
    helped = f" with {ctx.name(assist[0])}'s help (10.3)" if assist else ""
    ctx.emit("morale", f"11.2: {ctx.name(uid)} {'passes' if passed else 'fails'} its check{helped} (die {die})",
             unit=uid, rule="11.2", passed=passed, die=die)
    if passed:
        _to_next_box(ctx, uid)
    else:
        ctx.set_status(uid, Status.DEAD)
        ctx.emit("destroyed", f"11.2: {ctx.name(uid)} is destroyed and will not return", unit=uid, rule="11.2")


def reenter_options(ctx: StdCtx, side: str, uid: str) -> list[str]:
    s = ctx.st.units[uid]
    if ctx.side_of(uid) != side or s.status != STATUS_RETURNING or s.entry_turn is None or s.entry_turn > ctx.st.turn:
        return []
    return reentry_hexes(ctx.sc, ctx.st.units, uid, ctx.inactive())


def cmd_reenter(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"unit": "id", "hex": "hex"}, {})
    require_movement_phase(ctx, side)
    uid = cmd["unit"]
    if ctx.x.get("declared"):
        raise IllegalCommand("4.4", "first carry out the declared move")
    if uid not in ctx.sc.units or ctx.side_of(uid) != side:
        raise IllegalCommand("13.2", "only your own units re-enter")
    s = ctx.st.units[uid]
    if s.status != STATUS_RETURNING or s.entry_turn is None or s.entry_turn > ctx.st.turn:
        raise IllegalCommand("13.2", f"{ctx.name(uid)} is not in the current box of the TRT")
    hexes = reenter_options(ctx, side, uid)
    if cmd["hex"] not in hexes:
        where = ", ".join(hexes) if hexes else "nowhere now (no active HQ, trains or functioning LOC hex in reach)"
        raise IllegalCommand("13.2", f"{ctx.name(uid)} may be placed at {where}, not {cmd['hex']}")
    ctx.set_status(uid, Status.MAP)
    ctx.move_unit(uid, cmd["hex"])
    s.entry_turn = None
    s.moved = True  # S15: the placement is the unit's move this phase
    ctx.st.any_moved = True
    ctx.emit("reenter", f"13.2: {ctx.name(uid)} returns to the map at {cmd['hex']}", unit=uid, hex=cmd["hex"], rule="13.2")


__all__ = ["cmd_muster", "cmd_reenter", "cmd_replace", "leader_assist", "reenter_options"]
