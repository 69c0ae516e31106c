"""What happens to a unit and its leaders: Casualty Points and elimination (R17.15), Formation Hits (R17.42, R17.65,
10.6.6, R17.89), morale states and morale checks (R17.72, 12.5, R17.66), leader casualties and replacements (5.3,
5.3.3, R17.36-R17.38)."""

from __future__ import annotations

from typing import Any

from ..kernel.state import STATUS_ELIMINATED, STATUS_MAP, STATUS_REMOVED
from .context import MPCtx
from .tables import (
    LEADER_REMOVED_ON,
    REPLACEMENT_RATING,
    RETURN_LATER,
    RETURN_NOW,
    Condition,
    Kind,
    Mode,
    Morale,
    replacement_result,
)

LEADER_REACH = 8  # R17.38


def gone(ctx: MPCtx, uid: str) -> bool:
    return not ctx.on_map(uid)


def eliminate(ctx: MPCtx, uid: str, rule: str, off_map: bool = False) -> None:
    """R17.15: the unit leaves play (pursued off the map: `removed`, R17.88); every leader stacked with it checks
    5.3 (R17.36), or leaves with it off the map (R17.88)."""
    if not ctx.on_map(uid):
        return
    hex_ = ctx.hex_of(uid)
    s = ctx.st.units[uid]
    s.status, s.hex = (STATUS_REMOVED if off_map else STATUS_ELIMINATED), None
    ctx.dirty()
    ctx.emit("eliminated", f"{rule}: {ctx.says(uid)} is {'pursued off the map' if off_map else 'eliminated'}",
             unit=uid, hex=hex_, rule=rule, off_map=off_map)
    for lid in ctx.leaders_in(hex_):
        if ctx.side_of(lid) != ctx.side_of(uid):
            continue
        if off_map:
            remove_leader(ctx, lid, "R17.88")
        elif not ctx.units_in(hex_) or not any(ctx.side_of(u) == ctx.side_of(lid) for u in ctx.units_in(hex_)):
            leader_casualty(ctx, lid, "R17.36")


def add_cp(ctx: MPCtx, uid: str, n: int, rule: str) -> bool:
    """Casualty Points; True when the unit is eliminated by them (CP >= SP, R17.15)."""
    if n <= 0 or not ctx.on_map(uid):
        return False
    info = ctx.info(uid)
    info["cp"] = int(info["cp"]) + n
    ctx.emit("casualties", f"{rule}: {ctx.says(uid)} takes {n} Casualty Point{'s' if n > 1 else ''} "
                           f"({info['cp']} of {ctx.d(uid).sp})", unit=uid, cp=info["cp"], added=n, rule=rule)
    if info["cp"] >= ctx.d(uid).sp:
        eliminate(ctx, uid, "R17.15")
        return True
    return False


def formation_hit(ctx: MPCtx, uid: str, rule: str, *, fire: bool = False, terrain: bool = False) -> int:
    """One Formation Hit: Normal -> Formation Shaken -> Formation Broken (R17.42). From fire on a Formation Broken
    unit (or one Morale Broken, which has no formation) it is one Casualty Point instead (10.6.6, R17.65): returns the
    hits it became. Hedgehog ignores every Formation Hit (R17.65); Open Order and Column ignore terrain's (6.3);
    artillery has no formation (designed) and takes none."""
    if not ctx.on_map(uid) or ctx.kind(uid) is Kind.ARTILLERY:
        return 0
    mode = ctx.mode(uid)
    if mode is Mode.HEDGEHOG or (terrain and mode in (Mode.OPEN_ORDER, Mode.COLUMN)):
        return 0
    info = ctx.info(uid)
    if ctx.broken(uid) or ctx.cond(uid) is Condition.BROKEN:
        if fire:
            ctx.emit("formation_hit", f"10.6.6: {ctx.says(uid)} is already Formation Broken: the Formation Hit is a "
                                      "Casualty Point", unit=uid, rule="10.6.6")
            add_cp(ctx, uid, 1, "10.6.6")
            return 1
        return 0
    new = Condition.SHAKEN if ctx.cond(uid) is Condition.NORMAL else Condition.BROKEN
    info["cond"] = new.value
    ctx.emit("formation_hit", f"{rule}: {ctx.says(uid)} takes a Formation Hit: Formation {new.value.title()}",
             unit=uid, cond=new.value, rule=rule)
    return 0


def worsen_morale(ctx: MPCtx, uid: str, rule: str, to: Morale | None = None) -> None:
    """Normal -> Morale Shaken -> Morale Broken -> eliminated (R17.72, R17.85); Morale Broken has no formation and no
    mode (R17.74)."""
    if not ctx.on_map(uid):
        return
    now = ctx.morale(uid)
    if to is None:
        to = Morale.SHAKEN if now is Morale.NORMAL else Morale.BROKEN
    elif to is Morale.SHAKEN and now is not Morale.NORMAL:
        to = Morale.BROKEN  # R17.85: Morale Shaken on a Morale Shaken unit makes it Morale Broken
    if now is Morale.BROKEN and to is Morale.BROKEN:
        eliminate(ctx, uid, rule)  # R17.72 / R17.85: Broken worsens to eliminated
        return
    info = ctx.info(uid)
    info["morale"] = to.value
    ctx.dirty()  # a Morale Broken unit no longer counts as an enemy unit (R17.74)
    if to is Morale.BROKEN:
        info["mode"] = Mode.LINE.value
    ctx.emit("morale", f"{rule}: {ctx.says(uid)} is Morale {to.value.title()}", unit=uid, morale=to.value, rule=rule)


def best_leader(ctx: MPCtx, uid: str, adjacent: bool = False) -> str | None:
    """The owner's best leader stacked with the unit (or adjacent, for Rally: R17.76): the lowest rating (R17.5)."""
    here = ctx.hex_of(uid)
    side = ctx.side_of(uid)
    cands = [lid for lid in ctx.leaders_of(side) if ctx.hex_of(lid) == here
             or (adjacent and ctx.sc.grid.is_adjacent(here, ctx.hex_of(lid)))]
    return min(cands, key=lambda lid: (ctx.rating(lid), lid)) if cands else None


def morale_check(ctx: MPCtx, uid: str, rule: str, extra: int = 0, causes: list[str] | None = None,
                 adjacent_leader: bool = False) -> bool:
    """R17.72: die + one stacked leader's rating (the owner's best) + extra; pass when <= Original Morale (-1 if
    Morale Shaken). A failure worsens the unit one level."""
    d = ctx.d(uid)
    lid = best_leader(ctx, uid, adjacent_leader)
    lmod = ctx.rating(lid) if lid else 0
    need = d.morale - (1 if ctx.morale(uid) is Morale.SHAKEN else 0)
    (die,) = ctx.roll(1, "morale check", ["morale die"], rule, unit=uid)
    total = die + lmod + extra
    passed = total <= need
    mods = ([{"label": f"leader {ctx.says(lid)}", "value": lmod, "rule": "R17.72"}] if lid else []) + (
        [{"label": "more than one cause", "value": extra, "rule": "10.6.5"}] if extra else [])
    ctx.emit("morale_check", f"{rule}: {ctx.says(uid)} checks morale: die {die}"
                             + "".join(f" {m['value']:+d} ({m['label']})" for m in mods)
                             + f" = {total} against {need}: {'passed' if passed else 'failed'}",
             unit=uid, die=die, modifiers=mods, total=total, need=need, passed=passed, causes=causes or [], rule=rule)
    if not passed:
        worsen_morale(ctx, uid, rule)
    return passed


# --- leaders (5.3, 5.3.3, R17.36-R17.38) ---------------------------------------------------------------------
def leader_casualty(ctx: MPCtx, lid: str, rule: str) -> None:
    """5.3: 0-8 no effect, 9 the leader is removed and 5.3.3 is rolled at once."""
    if not ctx.on_map(lid):
        return
    (die,) = ctx.roll(1, "leader casualty", ["casualty die"], "5.3", unit=lid)
    removed = die >= LEADER_REMOVED_ON
    ctx.emit("leader_casualty", f"5.3 ({rule}): {ctx.says(lid)}'s casualty roll {die}: "
                                f"{'removed from play' if removed else 'no effect'}",
             unit=lid, die=die, removed=removed, table="Leader Casualty Table (5.3)", rule="5.3")
    if removed:
        remove_leader(ctx, lid, "5.3")


def remove_leader(ctx: MPCtx, lid: str, rule: str) -> None:
    """The leader leaves the map and 5.3.3 decides who commands (R17.37)."""
    s = ctx.st.units[lid]
    if s.status == STATUS_MAP:
        s.status, s.hex = STATUS_ELIMINATED, None
        ctx.dirty()
    (die,) = ctx.roll(1, "leader replacement", ["replacement die"], "5.3.3", unit=lid)
    result = replacement_result(die)
    info = ctx.x["leaders"][lid]
    text = {RETURN_NOW: "the original leader returns at once",
            RETURN_LATER: "a Replacement now; the original returns at the end of next turn"}.get(
        result, "a Replacement leader for good")
    ctx.emit("leader_replacement", f"5.3.3 ({rule}): {ctx.says(lid)}: replacement roll {die}: {text}", unit=lid,
             die=die, result=result, table="Leader Replacement Table (5.3.3)", rule="5.3.3")
    if result == RETURN_NOW:
        info["replacement"] = False
        info["rating"] = ctx.d(lid).rating
    else:
        info["replacement"] = True
        info["rating"] = REPLACEMENT_RATING
        info["returns"] = ctx.st.turn + 1 if result == RETURN_LATER else None
    ctx.st.tasks.append({"t": "mp_place_leader", "leader": lid})


def placement_hexes(ctx: MPCtx, lid: str) -> list[str]:
    """R17.37: a returning or Replacement leader is placed with any unit of its wing (an AC: any friendly unit)."""
    d = ctx.d(lid)
    units = ctx.units_of(d.side) if d.role == "ac" else ctx.wing_units_on_map(d.wing)
    return sorted({ctx.hex_of(u) for u in units})


def task_place_leader(ctx: MPCtx, task: dict[str, Any]) -> None:
    lid = task["leader"]
    hexes = placement_hexes(ctx, lid)
    if not hexes:
        ctx.emit("leader_absent", f"R17.37: {ctx.says(lid)} has no unit to join and stays off the map", unit=lid,
                 rule="R17.37")
        return
    ctx.st.decision = {
        "kind": "place_leader", "side": ctx.side_of(lid), "rule": "R17.37",
        "text": f"Place {ctx.says(lid)}{' (a Replacement)' if ctx.x['leaders'][lid].get('replacement') else ''} "
                "with one of its units (rules 5.3.3, R17.37)",
        "options": [{"id": h, "label": f"With {', '.join(ctx.says(u) for u in ctx.units_in(h))} at {h}", "hex": h}
                    for h in hexes],
        "task": {"leader": lid}, "hexes": hexes, "units": [lid],
    }


def decide_place_leader(ctx: MPCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    place_leader(ctx, task["leader"], option["id"])


def place_leader(ctx: MPCtx, lid: str, hex_: str) -> None:
    s = ctx.st.units[lid]
    s.status, s.hex = STATUS_MAP, hex_
    ctx.dirty()
    ctx.emit("leader_placed", f"R17.37: {ctx.says(lid)} joins the units at {hex_}", unit=lid, hex=hex_,
             rule="R17.37")


def lone_leader(ctx: MPCtx) -> str | None:
    """R17.38: a leader left alone adjacent to an enemy unit (it moves at once: `Edition.interrupt` asks this before
    every step of the task driver)."""
    for side in ctx.sc.side_order:
        for lid in ctx.leaders_of(side):
            here = ctx.hex_of(lid)
            if any(ctx.side_of(u) == side for u in ctx.units_in(here)):
                continue
            if ctx.adjacent_enemy(here, side, live=False) or ctx.enemy_units_in(here, side):
                return lid
    return None


def task_lone_leader(ctx: MPCtx, task: dict[str, Any]) -> None:
    lid = task["leader"]
    if not ctx.on_map(lid):
        return
    side = ctx.side_of(lid)
    here = ctx.hex_of(lid)
    hexes = sorted({ctx.hex_of(u) for u in ctx.units_of(side) if ctx.dist(here, ctx.hex_of(u)) <= LEADER_REACH})
    if not hexes:
        ctx.emit("leader_alone", f"R17.38: {ctx.says(lid)} is alone beside the enemy with no friendly unit within "
                                 f"{LEADER_REACH} hexes: removed", unit=lid, rule="R17.38")
        remove_leader(ctx, lid, "R17.38")
        return
    ctx.st.decision = {
        "kind": "lone_leader", "side": side, "rule": "R17.38",
        "text": f"{ctx.says(lid)} is alone beside the enemy: move him to a friendly unit (rule R17.38)",
        "options": [{"id": h, "label": f"To {', '.join(ctx.says(u) for u in ctx.units_in(h))} at {h}", "hex": h}
                    for h in hexes],
        "task": {"leader": lid}, "hexes": hexes, "units": [lid],
    }


def decide_lone_leader(ctx: MPCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    lid = task["leader"]
    ctx.st.units[lid].hex = option["id"]
    ctx.dirty()
    ctx.emit("leader_moved", f"R17.38: {ctx.says(lid)} rides to {option['id']}", unit=lid, hex=option["id"],
             rule="R17.38")

