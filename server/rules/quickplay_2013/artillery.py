"""Artillery (8.0): line of sight (8.3), range (8.4) and bombardment (8.2), alone or adding its attack factor to
an attack by other units.

8.3 reads a line congruent to a hexside as blocked only if both hexes beside it block (R14.1), so hexside terrain
along the line does not block it, nor do the hexsides meeting at the corners at its ends.  Bombardment alone uses
the total artillery attack factor as the differential, doubled against cavalry, with no terrain modifiers, and is
resolved separately against each unit in the target hex (8.2); the guns are never affected by the result.
"""

from __future__ import annotations

from typing import Any, Final

from ..kernel.core import Ctx
from ..kernel.errors import IllegalCommand
from ..kernel.los import LosRules, line_of_sight
from ..kernel.scenario import UnitKind
from ..kernel.state import STATUS_MAP
from .crt import column_label, crt_result
from .results import apply_result
from .status import morale
from .triggers import lose_counterattack

# 8.3: along a hexside only the two hexes beside it count; the line runs along a hexside only where it is congruent
# to one (a line crossing a hexside at its midpoint crosses it).
LOS_2013: Final = LosRules(splits_along=False, side_along_blocks=False, corner_sides_block=False)


def has_los(ctx: Ctx, a: str, b: str) -> bool:
    sc = ctx.sc
    return line_of_sight(
        sc.grid, a, b,
        lambda h: sc.terrain_at(h).blocks_los,
        lambda x, y: any(sc.hexside_features[f].blocks_los for f in sc.features_between(x, y)),
        LOS_2013,
    )


def in_range(ctx: Ctx, uid: str, target: str) -> bool:
    """8.4: the distance (the target hex counted, the gun's not) is less than the range factor."""
    hex_ = ctx.u(uid).hex
    return hex_ is not None and ctx.sc.grid.distance(hex_, target) < ctx.d(uid).range


def bombard_problem(ctx: Ctx, side: str, uid: str, target: str) -> tuple[str, str] | None:
    """(rule, reason) why this artillery may not bombard the target now, or None (8.2, 8.3, 8.4)."""
    if uid not in ctx.sc.units or ctx.side_of(uid) != side:
        return "8.2", f"{uid} is not one of your units"
    name = ctx.name(uid)
    s = ctx.u(uid)
    if ctx.kind(uid) is not UnitKind.ARTILLERY:
        return "8.2", f"{name} is not artillery"
    if s.status != STATUS_MAP or s.hex is None:
        return "8.2", f"{name} is not on the map"
    if s.attacked:
        return "7.3", f"{name} has already attacked this combat phase"
    if ctx.in_ezoc(s.hex, side):
        return "8.2(1)", f"{name} is in an enemy zone of control and may not bombard"
    if ctx.factors(uid).attack <= 0:
        return "8.2(2)", f"{name} has no attack factor"
    if s.disrupted or s.ineffective:
        return "8.2(3)", f"{name} is {'disrupted' if s.disrupted else 'ineffective'} and may not bombard"
    if s.hex in ctx.st.squares:
        return "9.3", f"{name} is in square: only the infantry forming it takes part in combat"
    if ctx.sc.terrain_at(target).no_bombard:
        return "8.3", f"bombardment into {ctx.sc.terrain_at(target).name} is not permitted"
    if not in_range(ctx, uid, target):
        distance = ctx.sc.grid.distance(s.hex, target)
        return "8.4", (f"{target} is {distance} hexes away: {name}'s range factor {ctx.d(uid).range} reaches only "
                       "targets less than that many hexes away")
    if not has_los(ctx, s.hex, target):
        return "8.2(4)", f"{name} has no line of sight to {target}"
    return None


def check_bombard(ctx: Ctx, side: str, uid: str, target: str) -> None:
    problem = bombard_problem(ctx, side, uid, target)
    if problem is not None:
        raise IllegalCommand(*problem)


def target_problem(ctx: Ctx, side: str, target: str) -> tuple[str, str] | None:
    """7.3: a defending hex is attacked once per phase (a bombardment is its attack, T13); 9.2: a hex charged, or
    awaiting a declared charge, is attacked by no other means."""
    st = ctx.st
    if target in st.attacked_hexes or target in st.bombarded_hexes:
        return "7.3", f"{target} has already been attacked this combat phase"
    if target in st.extra.get("charged_hexes", []) or any(
            ctx.u(u).charging == target and not ctx.u(u).attacked for u in ctx.sc.side_units[side]):
        return "9.2", f"{target} is charged this phase: no attack other than a cavalry charge may be made against it"
    return None


def parse_bombard(ctx: Ctx, side: str, cmd: dict[str, Any]) -> dict[str, Any]:
    target = cmd.get("target")
    ctx.require(isinstance(target, str) and target in ctx.sc.grid, "8.2", f"target '{target}' is not a hex on the map")
    assert isinstance(target, str)
    guns = cmd.get("artillery")
    if not (isinstance(guns, list) and guns and all(isinstance(g, str) for g in guns)):
        raise IllegalCommand("8.2", "name the bombarding artillery in 'artillery'")
    ctx.require(len(set(guns)) == len(guns), "8.2", "an artillery unit is named twice")
    ctx.require(bool(ctx.combat_units_at(target, ctx.enemy(side))), "8.2",
                f"there are no enemy combat units in {target} to bombard")
    problem = target_problem(ctx, side, target)
    if problem is not None:
        raise IllegalCommand(*problem)
    for g in guns:
        check_bombard(ctx, side, g, target)
    return {"kind": "bombard", "attacker": side, "defender": ctx.enemy(side), "target": target,
            "attackers": [], "primary": None, "support": list(guns), "leader_to": {}, "morale_from": {}}


def start_bombardment(ctx: Ctx, b: dict[str, Any]) -> None:
    st = ctx.st
    for g in b["support"]:
        st.units[g].attacked = True
    st.bombarded_hexes.append(b["target"])
    lose_counterattack(ctx, b["target"])
    b["targets"] = sorted(ctx.combat_units_at(b["target"], b["defender"]))
    st.combat = b
    ctx.emit("bombard_declared", f"8.2: {ctx.names(b['support'])} bombard {b['target']}", artillery=b["support"],
             target=b["target"], rule="8.2")
    st.tasks.append({"t": "combat_end"})
    for uid in reversed(b["targets"]):
        st.tasks.append({"t": "bombard_unit", "unit": uid})


def bombard_differential(ctx: Ctx, b: dict[str, Any], uid: str) -> tuple[int, list[str]]:
    """8.2: the artillery's total attack factor, doubled against cavalry, +2 against a square (9.3)."""
    total = sum(ctx.factors(g).attack for g in b["support"])
    notes = [f"artillery attack factor {total}: the differential (8.2)"]
    if ctx.kind(uid) is UnitKind.CAVALRY:
        total *= 2
        notes.append("doubled against cavalry (8.2)")
    if b["target"] in ctx.st.squares:
        total += 2
        notes.append("+2 against a square (9.3)")
    return total, notes


def run_bombard_unit(ctx: Ctx, task: dict[str, Any]) -> None:
    b = ctx.st.combat
    assert b is not None
    uid = task["unit"]
    if ctx.u(uid).status != STATUS_MAP or ctx.u(uid).hex != b["target"]:
        return
    diff, notes = bombard_differential(ctx, b, uid)
    combat_die, morale_die = ctx.roll(2, f"bombardment of {ctx.name(uid)}", ["combat die", "morale die"], "8.2", unit=uid)
    res = crt_result(diff, combat_die)
    b["defenders"] = [uid]
    b["def_primary"] = uid
    ctx.emit("bombard_result", f"8.2: bombardment of {ctx.name(uid)} at {diff:+d} ({column_label(diff)}); combat die "
             f"{combat_die}: {res.text}", unit=uid, differential=diff, column_label=column_label(diff),
             dice=[combat_die, morale_die], result=res.text, notes=notes, rule="8.2")
    # T9: the Leader notation endangers nobody here: no leader lends a factor to a bombardment alone (10.0(3)).
    apply_result(ctx, b, res, morale_die, lambda u: morale(ctx, u))


def bombard_targets(ctx: Ctx, side: str, uid: str) -> list[str]:
    """Hexes this artillery unit could bombard now (for the page and the bots)."""
    s = ctx.u(uid)
    if s.hex is None:
        return []
    return [h for h in ctx.sc.grid.within(s.hex, max(ctx.d(uid).range - 1, 0))
            if ctx.combat_units_at(h, ctx.enemy(side)) and target_problem(ctx, side, h) is None
            and bombard_problem(ctx, side, uid, h) is None]
