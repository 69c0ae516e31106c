"""The active wing's commands (R17.95): `move` (units and leaders, R17.40, R17.38), `face` (R17.16), `fire`
(R17.60-R17.64), `reform` and `formation` (R17.76), `rally` (R17.76, 13.3), `close_combat` (R17.80) and
`end_segment`, each judged against the segment and the Orders Restriction Chart (5.6, R17.30-R17.34) before it
changes anything."""

from __future__ import annotations

from typing import Any

from ..kernel.errors import IllegalCommand, MalformedCommand
from ..kernel.facing import Direction
from .combat import declare, must_attack
from .combat import judge as judge_cc
from .command import end_segment
from .context import MPCtx
from .fire import ADVANCING, SKIRMISH, fire
from .fire import judge as judge_fire
from .losses import formation_hit, morale_check
from .movement import (
    bound_by_note1,
    charge_ok,
    charge_targets,
    leader_path_ok,
    obliged_to_charge,
    walk,
)
from .tables import (
    NO,
    ORC_RALLY,
    ORC_REFORM,
    SALVO,
    W_LEADER,
    Condition,
    Kind,
    Mode,
    Morale,
    Order,
)


def _active(ctx: MPCtx, side: str, segment: str | None = None) -> str:
    wid = ctx.active_wing
    if ctx.x.get("step") != "activation" or wid is None or ctx.sc.wings[wid].side != side:
        raise IllegalCommand("R17.25", "your wings are not activated now")
    if segment is not None and ctx.segment != segment:
        names = {"movement": "Movement Segment", "action": "Action Segment", "close_combat": "Close Combat Segment"}
        raise IllegalCommand("R17.25", f"that is done in the {names[segment]}; this is the "
                                       f"{names.get(ctx.segment, ctx.segment)}")
    return wid


def _own_unit(ctx: MPCtx, wid: str, uid: Any) -> str:
    if not isinstance(uid, str) or uid not in ctx.sc.units:
        raise MalformedCommand("'unit' names a unit")
    if ctx.is_leader(uid) or ctx.unit_wing(uid) != wid or not ctx.on_map(uid):
        raise IllegalCommand("R17.30", f"{ctx.says(uid)} is not a unit of the active wing on the map")
    return uid


def _facing(value: Any) -> str | None:
    if value is None:
        return None
    if value not in Direction.__members__:
        raise MalformedCommand(f"'facing' is one of {', '.join(Direction.__members__)}")
    return str(value)


def cmd_move(ctx: MPCtx, side: str, cmd: dict[str, Any]) -> None:
    wid = _active(ctx, side, "movement")
    uid, path, facing = cmd.get("unit"), cmd.get("path"), _facing(cmd.get("facing"))
    if not isinstance(path, list) or not all(isinstance(h, str) for h in path):
        raise MalformedCommand("'path' is a list of hexes, the unit's own first")
    if isinstance(uid, str) and uid in ctx.sc.units and ctx.is_leader(uid):
        _move_leader(ctx, side, wid, uid, path)
        return
    uid = _own_unit(ctx, wid, uid)
    if uid in ctx.act_list("moved_units"):
        raise IllegalCommand("R17.40", f"{ctx.says(uid)} has already moved this activation")
    w = walk(ctx, uid, path)
    if bound_by_note1(ctx, uid) and not charge_ok(ctx, uid, charge_targets(ctx, uid), w.hex):
        raise IllegalCommand("5.6", f"under Charge {ctx.says(uid)} must end nearer to the nearest enemy unit not "
                                    "already engaged (note 1, R17.31)")
    start = ctx.hex_of(uid)
    ctx.act_list("moved_units").append(uid)
    ctx.st.units[uid].moved = True
    ctx.st.units[uid].hex = w.hex
    ctx.act.setdefault("entered", {})[uid] = w.hex
    ctx.act.setdefault("gentle", {})[uid] = w.gentle
    if facing is not None:
        ctx.set_facing(uid, facing)
    ctx.dirty()
    ctx.emit("move", f"R17.40: {ctx.says(uid)} moves {start} → {w.hex} ({w.spent} MP)"
                     + (f", facing {facing}" if facing else ""), unit=uid, path=path[1:], spent=w.spent,
             facing=ctx.facing(uid), rule="R17.40", hexes=path)
    for _h in w.hits:
        formation_hit(ctx, uid, "R17.42", terrain=True)
    ctx.st.tasks.append({"t": "mp_react", "mover": uid})
    ctx.st.tasks.append({"t": "mp_intercept", "mover": uid})


def _move_leader(ctx: MPCtx, side: str, wid: str, lid: str, path: list[str]) -> None:
    d = ctx.d(lid)
    if d.side != side or not ctx.on_map(lid):
        raise IllegalCommand("R17.38", "move one of your leaders on the map")
    if d.role == "wc" and d.wing != wid:
        raise IllegalCommand("R17.38", "a Wing Commander moves in his own wing's activations")
    if lid in ctx.act_list("moved_leaders"):
        raise IllegalCommand("R17.38", f"{ctx.says(lid)} has already moved this activation")
    leader_path_ok(ctx, lid, path)
    ctx.act_list("moved_leaders").append(lid)
    ctx.st.units[lid].hex = path[-1]
    ctx.dirty()
    ctx.emit("leader_move", f"R17.38: {ctx.says(lid)} rides to {path[-1]}", unit=lid, path=path[1:], rule="R17.38",
             hexes=path)


def cmd_face(ctx: MPCtx, side: str, cmd: dict[str, Any]) -> None:
    """R17.16: a unit that does not move sets its facing freely (this is not moving)."""
    wid = _active(ctx, side, "movement")
    uid = _own_unit(ctx, wid, cmd.get("unit"))
    facing = _facing(cmd.get("facing"))
    if facing is None:
        raise MalformedCommand("'facing' names a hexside")
    if uid in ctx.act_list("moved_units"):
        raise IllegalCommand("R17.16", f"{ctx.says(uid)} has moved: it faced at the end of its move")
    if facing == ctx.facing(uid):
        raise IllegalCommand("R17.16", f"{ctx.says(uid)} already faces {facing}")
    ctx.set_facing(uid, facing)
    ctx.emit("facing", f"R17.16: {ctx.says(uid)} faces {facing}", unit=uid, facing=facing, rule="R17.16")


def _action_unit(ctx: MPCtx, side: str, cmd: dict[str, Any]) -> tuple[str, str]:
    wid = _active(ctx, side, "action")
    uid = _own_unit(ctx, wid, cmd.get("unit"))
    if uid in ctx.act_list("acted"):
        raise IllegalCommand("R17.30", f"{ctx.says(uid)} has already taken its action this activation")
    return wid, uid


def with_leader(ctx: MPCtx, uid: str, wid: str) -> bool:
    """5.6's "w/Leader" (13.3, R17.30): stacked with or adjacent to its own WC or the AC."""
    here = ctx.hex_of(uid)
    for lid in (ctx.commander(wid), ctx.army_commander(ctx.side_of(uid))):
        if lid is not None and ctx.near(here, ctx.hex_of(lid)):
            return True
    return False


def fire_kind_for(ctx: MPCtx, uid: str, salvo: bool) -> str:
    """R17.34, R17.62, R17.64: Salvo, Advancing (after moving, Charge only) or Skirmishing."""
    moved = ctx.st.units[uid].moved
    order = ctx.order(ctx.unit_wing(uid))
    if moved and order is not Order.CHARGE:
        raise IllegalCommand("5.6", f"under {order.label} a unit that moved may not fire (note 4: no Advancing Fire, "
                                    "R17.34)")
    if salvo:
        return SALVO
    return ADVANCING if moved else SKIRMISH


def cmd_fire(ctx: MPCtx, side: str, cmd: dict[str, Any]) -> None:
    _, uid = _action_unit(ctx, side, cmd)
    target = cmd.get("target")
    if not isinstance(target, str):
        raise MalformedCommand("'target' names the enemy unit fired at")
    salvo = cmd.get("salvo", False)
    if not isinstance(salvo, bool):
        raise MalformedCommand("'salvo' is true or false")
    kind = fire_kind_for(ctx, uid, salvo)
    judge_fire(ctx, uid, target, kind)
    ctx.act_list("acted").append(uid)
    fire(ctx, uid, target, kind)


def reform_allowed(ctx: MPCtx, uid: str, wid: str) -> None:
    order = ctx.order(wid)
    rule = ORC_REFORM[order]
    if rule == NO:
        raise IllegalCommand("5.6", f"under {order.label} units may not Reform (Orders Restriction Chart)")
    if rule == W_LEADER and not with_leader(ctx, uid, wid):
        raise IllegalCommand("13.3", f"under {order.label} a unit Reforms only with its WC or the AC stacked or "
                                     "adjacent (w/Leader, 5.6)")
    if ctx.broken(uid):
        raise IllegalCommand("R17.74", f"{ctx.says(uid)} is Morale Broken: it may only Rally")


def _refresh(ctx: MPCtx, uid: str) -> None:
    """R17.76: a Reform also removes the Salvo marker and restores the printed pistol shots."""
    ctx.info(uid)["salvo"] = False
    ctx.info(uid)["pistols"] = ctx.d(uid).pistols


def cmd_reform(ctx: MPCtx, side: str, cmd: dict[str, Any]) -> None:
    wid, uid = _action_unit(ctx, side, cmd)
    reform_allowed(ctx, uid, wid)
    if ctx.adjacent_enemy(ctx.hex_of(uid), side):
        raise IllegalCommand("R17.76", f"{ctx.says(uid)} is next to an enemy unit: it may not Reform")
    cond = ctx.cond(uid)
    info = ctx.info(uid)
    if cond is Condition.NORMAL and not info.get("salvo") and int(info.get("pistols", 0)) >= ctx.d(uid).pistols:
        raise IllegalCommand("R17.76", f"{ctx.says(uid)} has nothing to reform")
    ctx.act_list("acted").append(uid)
    if cond is not Condition.NORMAL:
        info["cond"] = (Condition.NORMAL if cond is Condition.SHAKEN else Condition.SHAKEN).value
    _refresh(ctx, uid)
    ctx.emit("reform", f"R17.76: {ctx.says(uid)} reforms: Formation {Condition(info['cond']).value.title()}",
             unit=uid, cond=info["cond"], rule="R17.76")


MODES_OF = {Kind.HI: (Mode.LINE, Mode.COLUMN, Mode.OPEN_ORDER, Mode.HEDGEHOG),
            Kind.LI: (Mode.LINE, Mode.COLUMN, Mode.OPEN_ORDER), Kind.CAVALRY: (Mode.LINE, Mode.COLUMN),
            Kind.ARTILLERY: (Mode.LINE,)}


def modes_for(ctx: MPCtx, uid: str) -> tuple[Mode, ...]:
    modes = MODES_OF[ctx.kind(uid)]
    if ctx.kind(uid) is Kind.HI and not ctx.d(uid).pikes:
        modes = tuple(m for m in modes if m is not Mode.HEDGEHOG)
    return modes


def cmd_formation(ctx: MPCtx, side: str, cmd: dict[str, Any]) -> None:
    """R17.76: changing mode is a Reform action (Line, Column, Open Order, Hedgehog)."""
    wid, uid = _action_unit(ctx, side, cmd)
    mode = cmd.get("mode")
    if mode not in {m.value for m in Mode}:
        raise MalformedCommand(f"'mode' is one of {', '.join(m.value for m in Mode)}")
    new = Mode(mode)
    reform_allowed(ctx, uid, wid)
    if new not in modes_for(ctx, uid):
        raise IllegalCommand("R17.76", f"{ctx.says(uid)} cannot take {new.value.replace('_', ' ')}")
    if new is ctx.mode(uid):
        raise IllegalCommand("R17.76", f"{ctx.says(uid)} is already in {new.value.replace('_', ' ')}")
    if new is not Mode.HEDGEHOG and ctx.adjacent_enemy(ctx.hex_of(uid), side):
        raise IllegalCommand("R17.76", f"{ctx.says(uid)} is next to an enemy unit: only Hedgehog may be formed")
    ctx.act_list("acted").append(uid)
    ctx.info(uid)["mode"] = new.value
    _refresh(ctx, uid)
    ctx.emit("formation", f"R17.76: {ctx.says(uid)} forms {new.value.replace('_', ' ').title()}", unit=uid,
             mode=new.value, rule="R17.76")


def cmd_rally(ctx: MPCtx, side: str, cmd: dict[str, Any]) -> None:
    wid, uid = _action_unit(ctx, side, cmd)
    order = ctx.order(wid)
    rule = ORC_RALLY[order]
    if rule == NO:
        raise IllegalCommand("5.6", f"under {order.label} units may not Rally (Orders Restriction Chart)")
    if rule == W_LEADER and not with_leader(ctx, uid, wid):
        raise IllegalCommand("13.3", f"under {order.label} a unit Rallies only with its WC or the AC stacked or "
                                     "adjacent (w/Leader, 5.6)")
    if ctx.morale(uid) is Morale.NORMAL:
        raise IllegalCommand("R17.76", f"{ctx.says(uid)} is not Morale Shaken or Broken")
    if ctx.adjacent_enemy(ctx.hex_of(uid), side):
        raise IllegalCommand("R17.76", f"{ctx.says(uid)} is next to an enemy unit: it may not Rally")
    ctx.act_list("acted").append(uid)
    was = ctx.morale(uid)
    if morale_check(ctx, uid, "R17.76", adjacent_leader=True):
        info = ctx.info(uid)
        if was is Morale.BROKEN:
            info["morale"], info["cond"] = Morale.SHAKEN.value, Condition.BROKEN.value
        else:
            info["morale"] = Morale.NORMAL.value
        ctx.dirty()
        ctx.emit("rally", f"R17.76: {ctx.says(uid)} rallies: Morale {Morale(info['morale']).value.title()}", unit=uid,
                 morale=info["morale"], rule="R17.76")


def cmd_close_combat(ctx: MPCtx, side: str, cmd: dict[str, Any]) -> None:
    _active(ctx, side, "close_combat")
    dfn, atts, lead, pistols = cmd.get("defender"), cmd.get("attackers"), cmd.get("lead"), cmd.get("pistols", [])
    if not isinstance(dfn, str) or not isinstance(lead, str) or not isinstance(atts, list) or \
            not isinstance(pistols, list) or not all(isinstance(a, str) for a in [*atts, *pistols]):
        raise MalformedCommand("a close combat names its defender, attackers, lead attacker and pistols")
    judge_cc(ctx, side, dfn, atts, lead, pistols)
    declare(ctx, side, dfn, atts, lead, pistols)


def cmd_end_segment(ctx: MPCtx, side: str, cmd: dict[str, Any]) -> None:
    if ctx.x.get("step") == "start":  # M19: the first side opens the battle; turn 1's initiative is rolled now
        if side != ctx.sc.first_player:
            raise IllegalCommand("R17.21", f"{ctx.sc.sides[ctx.sc.first_player].name} opens the battle")
        ctx.st.tasks.append({"t": "mp_turn"})
        return
    _active(ctx, side)
    if ctx.segment == "movement":
        owed = [u for u in ctx.wing_units_on_map(ctx.active_wing or "") if obliged_to_charge(ctx, u)]
        if owed:
            raise IllegalCommand("5.6", f"under Charge {ctx.names(owed)} must still move nearer to the enemy "
                                        "(note 1, R17.31)")
    if ctx.segment == "close_combat":
        owed = must_attack(ctx, side)
        if owed:
            raise IllegalCommand("R17.80", f"{ctx.names(owed)} moved next to the enemy under Charge and must attack")
    end_segment(ctx)
