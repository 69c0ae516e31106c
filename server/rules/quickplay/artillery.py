"""Artillery (8.0): line of sight, range, bombardment alone and supporting fire (8.2-8.4), R6 bombardment results."""

from __future__ import annotations

from typing import Any

from ..kernel.core import Ctx
from ..kernel.errors import IllegalCommand
from ..kernel.los import R2_LOS, line_of_sight
from ..kernel.scenario import UnitKind
from ..kernel.state import STATUS_MAP
from .counterattack import lose_counterattack
from .retreat import queue_group_retreats, step_loss


def has_los(ctx: Ctx, a: str, b: str) -> bool:
    """8.2 read by R2 (`R2_LOS`): a blocking hexside blocks a line even along it; where the walks split, it runs along."""
    sc = ctx.sc
    return line_of_sight(
        sc.grid, a, b,
        lambda h: sc.terrain_at(h).blocks_los,
        lambda x, y: any(sc.hexside_features[f].blocks_los for f in sc.features_between(x, y)),
        R2_LOS,
    )


def bombard_problem(ctx: Ctx, side: str, uid: str, target: str) -> tuple[str, str] | None:
    """(rule, reason) why this artillery may not fire at the target now, or None (8.4, 9.3(e))."""
    if uid not in ctx.sc.units or ctx.side_of(uid) != side:
        return "8.4", f"{uid} is not one of your units"
    name = ctx.name(uid)
    s = ctx.u(uid)
    if ctx.kind(uid) is not UnitKind.ARTILLERY:
        return "8.4", f"{name} is not artillery"
    if s.status != STATUS_MAP or s.hex is None:
        return "8.4", f"{name} is not on the map"
    if s.attacked:
        return "7.1(3)", f"{name} has already fired or attacked this combat phase"
    if s.ineffective:
        return "8.4(5)", f"{name} is ineffective"
    if ctx.factors(uid).attack <= 0:
        return "8.4(2)", f"{name} has no attack factor"
    if ctx.in_ezoc(s.hex, side):
        return "8.4(1)", f"{name} is in an enemy zone of control and may not bombard"
    if s.hex in ctx.st.squares:
        return "9.3(e)", f"{name} is in a square and may not fire"
    if ctx.sc.terrain_at(target).no_bombard:
        return "8.2", f"bombardment into {ctx.sc.terrain_at(target).name} is not permitted"
    rng = ctx.sc.grid.distance(s.hex, target)
    if rng > ctx.d(uid).range:
        return "8.3", f"{target} is {rng} hexes away, beyond {name}'s range of {ctx.d(uid).range}"
    if not has_los(ctx, s.hex, target):
        return "8.2", f"{name} has no line of sight to {target}"
    return None


def check_support(ctx: Ctx, side: str, uid: str, target: str) -> None:
    problem = bombard_problem(ctx, side, uid, target)
    if problem is not None:
        ctx.require(False, *problem)


def parse_bombard(ctx: Ctx, side: str, cmd: dict[str, Any]) -> dict[str, Any]:
    st = ctx.st
    target = cmd.get("target")
    ctx.require(isinstance(target, str) and target in ctx.sc.grid, "8.4", f"target '{target}' is not a hex on the map")
    assert isinstance(target, str)
    raw_guns = cmd.get("artillery")
    if not (isinstance(raw_guns, list) and raw_guns and all(isinstance(g, str) for g in raw_guns)):
        raise IllegalCommand("8.4", "name the bombarding artillery in 'artillery'")
    guns: list[str] = list(raw_guns)
    ctx.require(len(set(guns)) == len(guns), "8.4", "an artillery unit is named twice")
    ctx.require(bool(ctx.combat_units_at(target, ctx.enemy(side))), "8.4",
                f"there are no enemy combat units in {target} to bombard")
    ctx.require(target not in st.bombarded_hexes, "8.4",
                f"{target} has already been bombarded this phase; artillery combines its fire in one bombardment")
    for g in guns:
        check_support(ctx, side, g, target)
    return {"kind": "bombard", "attacker": side, "defender": ctx.enemy(side), "target": target, "artillery": list(guns)}


def start_bombardment(ctx: Ctx, b: dict[str, Any]) -> None:
    st = ctx.st
    for g in b["artillery"]:
        st.units[g].attacked = True
    st.bombarded_hexes.append(b["target"])
    lose_counterattack(ctx, b["target"])
    targets = sorted(ctx.combat_units_at(b["target"], b["defender"]))
    b["targets"] = targets
    b["log"] = []
    st.combat = b
    ctx.emit("bombard_declared", f"8.4: {ctx.names(b['artillery'])} bombard{'s' if len(b['artillery']) == 1 else ''} {b['target']}",
             artillery=b["artillery"], target=b["target"])
    st.tasks.append({"t": "combat_end"})
    for uid in reversed(targets):
        st.tasks.append({"t": "bombard_unit", "unit": uid})


def bombard_differential(ctx: Ctx, b: dict[str, Any], uid: str) -> tuple[int, list[str]]:
    """R6: artillery attack total less the TEC modifier, doubled against cavalry, +2 against a square."""
    total = sum(ctx.factors(g).attack for g in b["artillery"])
    notes = [f"artillery attack CF {total} (8.4)"]
    mod = ctx.sc.terrain_at(b["target"]).bombard_modifier
    if mod:
        total -= mod
        notes.append(f"-{mod} bombarding into {ctx.sc.terrain_at(b['target']).name} (8.4, TEC)")
    if ctx.kind(uid) is UnitKind.CAVALRY:
        total *= 2
        notes.append("doubled against cavalry (8.4)")
    if b["target"] in ctx.st.squares:
        total += 2
        notes.append("+2 against a square (9.3(b))")
    return total, notes


def run_bombard_unit(ctx: Ctx, task: dict[str, Any]) -> None:
    b = ctx.st.combat
    assert b is not None
    uid = task["unit"]
    s = ctx.u(uid)
    if s.status != STATUS_MAP or s.hex != b["target"]:
        return
    diff, notes = bombard_differential(ctx, b, uid)
    combat_die, morale_die = ctx.roll(2, f"bombardment of {ctx.name(uid)}", ["combat die", "morale die"], "8.4", unit=uid)
    result = ctx.rs.crt_result(diff, combat_die)
    column = ctx.rs.crt_column(diff)
    ctx.emit("bombard_result", f"8.4: bombardment of {ctx.name(uid)} at {diff:+d} ({ctx.rs.crt_column_label(column)}); "
             f"combat die {combat_die}: {result}", unit=uid, differential=diff, column=column,
             column_label=ctx.rs.crt_column_label(column), dice=[combat_die, morale_die], result=result, notes=notes)
    if not result.startswith("D"):
        ctx.emit("no_effect", "8.4: no effect on the target", unit=uid, rule="8.4")
        return
    rating = ctx.mr(uid)
    passed = ctx.rs.morale_passes(morale_die, rating)
    ctx.emit("morale", f"7.5: {ctx.name(uid)} checks morale: die {morale_die} against {rating}: "
             f"{'passes' if passed else 'fails'}", unit=uid, die=morale_die, rating=rating, passed=passed)
    letter = result[1]
    already = ctx.already_impaired(uid)
    hex_ = b["target"]
    side = ctx.side_of(uid)

    def retreat(minimum: int, rout: bool) -> None:
        queue_group_retreats(ctx, None, side, {hex_: [uid]}, only=None, minimum=minimum, rout=rout, rule="8.4")

    if letter == "c":
        if not passed:
            ctx.disrupt_or_ineffective(uid, "8.4")
    elif letter == "r":
        if not passed:
            if already:
                retreat(2, False)
            else:
                ctx.disrupt_or_ineffective(uid, "8.4")
    elif letter == "x":
        if passed:
            if already:
                retreat(2, False)  # V12: an impaired unit always retreats at least two (11.1(4), R7)
            else:
                ctx.disrupt_or_ineffective(uid, "8.4")
        else:
            step_loss(ctx, None, uid, "8.4")
    elif letter == "m":
        step_loss(ctx, None, uid, "8.4")
        if not passed and ctx.u(uid).status == STATUS_MAP:
            ctx.disrupt_or_ineffective(uid, "7.8")
            retreat(3, True)


def bombard_targets(ctx: Ctx, side: str, uid: str) -> list[str]:
    """Hexes this artillery unit could bombard now (for the client and bots)."""
    s = ctx.u(uid)
    if s.hex is None:
        return []
    out = []
    for h in ctx.sc.grid.within(s.hex, max(ctx.d(uid).range, 0)):
        if h in ctx.st.bombarded_hexes or not ctx.combat_units_at(h, ctx.enemy(side)):
            continue
        if bombard_problem(ctx, side, uid, h) is None:
            out.append(h)
    return out
