"""The charge's declaration in the movement phase: infantry (seed 002 7.13(3), with 14.2(3)-(4)) and cavalry (9.3(1)).

Cavalry: at most one squadron, one leader and one other cavalry unit, effective and undisrupted, move one or two hexes,
entering and crossing clear terrain only and never a hex with another friendly unit, to a hex next to a clear target
hex (9.3(1)).  Which terrain is clear for a charge is the TEC's no-charge column (tec.py, S30, S33): the terrain and
secondary terrain of each hex entered and of the target, and each hexside crossed or attacked across (its features,
or 2.2's clear hexside beside a terrain), must not bar the class.  An infantry charge may not be made into terrain the
TEC bars it from (7.13(3)): the target hex's terrain and the hexside it attacks across.

`charge {units, path, target}`: at most one leader, one battalion and one other infantry unit, stacked at the start,
none disrupted or ineffective, move together one or two MP (never overstacking a hex on the way, 5.2) to a hex next to
the enemy-occupied `target`, and are recorded as charging it (`extra.charges`); in the combat phase they attack it
with `tactic: "charge"` (attacks.py).  At night only charging units may enter an EZOC (14.2(3)) and only infantry
charges fight (14.2(4)).  The charge's one or two MP need no MA roll (S30).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import Any

from ..kernel.errors import IllegalCommand
from ..kernel.game import check_fields
from ..kernel.state import PHASE_MOVEMENT
from .context import StdCtx
from .hidden import no_entry
from .movement import HALF, Move, check_move, movement_allowance
from .moving import STACK, Plan, capture_trains, mark_moved, plan, require_movement_phase
from .scenario import Kind
from .stacking import STACK_LIMIT, counting_units


def is_cavalry_charge(ctx: StdCtx, units: list[str]) -> bool:
    combat = [u for u in units if ctx.kind(u).is_combat]
    return bool(combat) and all(ctx.kind(u) in (Kind.CAVALRY, Kind.SQUADRON) for u in combat)


def is_clear_terrain(ctx: StdCtx, h: str) -> bool:
    """9.3(1): the hex is clear terrain for a cavalry charge (its terrain and secondary terrain open to it in the
    TEC's no-charge column, S30), as a cavalry charge needs (with 9.3(6) and 9.4, close_combat.py)."""
    return hex_bars_charge(ctx, "cavalry", h) is None


def hex_bars_charge(ctx: StdCtx, cls: str, h: str) -> str | None:
    """7.13(3), 9.3(1): the name of the terrain of `h` (primary or secondary) that the TEC bars this class's charge
    from (None: none does)."""
    t = ctx.sc.terrain_at(h)
    if cls in t.no_charge:
        return t.name
    return next((s.name for s in ctx.sc.secondary_at(h) if cls in s.no_charge), None)


def hexside_bars_charge(ctx: StdCtx, cls: str, a: str, b: str) -> str | None:
    """7.13(3), 9.3(1), 2.2: the name of what on the hexside between a and b (a feature, or a clear hexside beside a
    terrain) the TEC bars this class's charge across (None: nothing does)."""
    return next((f.name for f in ctx.sc.hexside_effects(a, b) if cls in f.no_charge), None)


def bars_charge(ctx: StdCtx, cls: str, a: str, b: str) -> str | None:
    """The hex b or the hexside from a into it, where the TEC bars this class's charge: a name, or None."""
    return hex_bars_charge(ctx, cls, b) or hexside_bars_charge(ctx, cls, a, b)


def cavalry_charge_problem(ctx: StdCtx, side: str, units: list[str], path: list[str], target: str) -> str | None:
    """9.3, 9.3(1): why these units may not charge `target` along `path` (None: they may)."""
    st = ctx.st
    if ctx.light() == "night":
        return "14.2(4): only infantry charges are made at night"
    leaders = [u for u in units if ctx.kind(u) is Kind.LEADER]
    squadrons = [u for u in units if ctx.kind(u) is Kind.SQUADRON]
    others = [u for u in units if ctx.kind(u) is Kind.CAVALRY]
    if len(leaders) + len(squadrons) + len(others) != len(units) or len(leaders) > 1 or len(squadrons) > 1 \
            or len(others) > 1:
        return "9.3: at most one squadron, one leader and one other cavalry unit charge together"
    for u in units:
        if st.units[u].disrupted or st.units[u].ineffective:
            return f"9.3: {ctx.name(u)} is disrupted or ineffective"
        if u in ctx.x.get("marched", []):
            return f"4.7: {ctx.name(u)} used march movement"
    if len(path) not in (2, 3):
        return "9.3(1): the charge moves one or two hexes"
    for a, b in pairwise(path):
        if barred := bars_charge(ctx, "cavalry", a, b):
            return f"9.3(1): the charge enters and crosses clear terrain only ({barred}, {b})"
        if any(ctx.side_of(u) == side for u in ctx.units_at(b)):
            return f"9.3(1): the charge may not enter a hex with another friendly unit ({b})"
    if not ctx.sc.grid.is_adjacent(path[-1], target):
        return f"9.3(1): the charge ends next to {target}"
    if barred := bars_charge(ctx, "cavalry", path[-1], target):
        return f"9.3(1): the charge attacks into clear terrain only ({barred}, {target})"
    return None


def charge_problem(ctx: StdCtx, side: str, units: list[str], path: list[str], target: str,
                   fortune: bool = False) -> str | None:
    """7.13(3), 9.3: why these units may not charge `target` along `path` (None: they may).  `fortune`: a charge
    made by a fortune of war (12.4, S47), which is no declaration and sits beside none."""
    st = ctx.st
    if target not in ctx.sc.grid or not ctx.combat_units_at(target, ctx.enemy(side)):
        return f"7.13(3): no enemy combat unit is in {target}"
    if blocked := [h for h in path[1:] if h in no_entry(ctx, side, True)]:
        return f"19.8 C: a charge never enters a hidden movement marker's hex ({blocked[0]})"
    declared = [c for c in ctx.x.get("charges", []) if c["target"] == target and c["side"] == side]
    cavalry = is_cavalry_charge(ctx, units)
    if declared and not fortune and not (cavalry and all(is_cavalry_charge(ctx, c["units"]) for c in declared)):
        # 9.3(2): a hex charged by cavalry may be charged by other cavalry, each charge resolved on its own
        return (f"{'9.3(2)' if cavalry else '7.13(3)'}: a charge against {target} has been declared "
                f"(no other unit attacks it{'' if cavalry else ', but other charging cavalry'})")
    if cavalry:
        return cavalry_charge_problem(ctx, side, units, path, target)
    leaders = [u for u in units if ctx.kind(u) is Kind.LEADER]
    battalions = [u for u in units if ctx.kind(u) is Kind.BATTALION]
    others = [u for u in units if ctx.kind(u) is Kind.INFANTRY]
    if len(leaders) + len(battalions) + len(others) != len(units) or not battalions + others:
        return "7.13(3): only infantry charge (with at most one leader)"
    if len(leaders) > 1 or len(battalions) > 1 or len(others) > 1:
        return "7.13(3): at most one leader, one battalion and one other infantry unit charge a hex"
    for u in units:
        s = st.units[u]
        if s.disrupted or s.ineffective:
            return f"7.13(3): {ctx.name(u)} is disrupted or ineffective"
        if u in ctx.x.get("marched", []):
            return f"4.7: {ctx.name(u)} used march movement"
    if not ctx.sc.grid.is_adjacent(path[-1], target):
        return f"7.13(3): the charge ends next to {target}"
    if barred := bars_charge(ctx, "infantry", path[-1], target):
        return f"7.13(3): the TEC bars an infantry charge into {barred} ({target})"
    for h in path[1:]:
        crowd = [u for u in counting_units(ctx.sc, st.units, h) if u not in units]
        mine = [u for u in units if ctx.kind(u).counts_for_stacking]
        if len(crowd) + len(mine) > STACK_LIMIT:
            return f"7.13(3): the charge may not be overstacked at any time ({h})"
    return None


def cmd_charge(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"units": "ids", "target": "hex"}, {})
    require_movement_phase(ctx, side)
    path = cmd.get("path")
    if not isinstance(path, list) or not path or not all(isinstance(h, str) for h in path):
        raise IllegalCommand("4.2", "the charge needs its path: a list of hex ids")
    if ctx.x.get("declared"):
        raise IllegalCommand("4.4", "first carry out the declared move (or stay)")
    units = list(cmd["units"])
    target = cmd["target"]
    halves = validate_charge(ctx, side, units, path, target)
    cavalry = is_cavalry_charge(ctx, units)
    ctx.passing(units, path)  # 18.1 (S68)
    for u in units:
        ctx.move_unit(u, path[-1])
    mark_moved(ctx, units)
    ctx.x.setdefault("charges", []).append({"side": side, "units": sorted(units), "target": target})
    rule = "9.3(1)" if cavalry else "7.13(3)"
    ctx.emit("charge", f"{rule}: {ctx.names(units)} charge {target}, moving to {path[-1]} ({halves / HALF:g} MP)",
             units=units, path=list(path), target=target, rule=rule)
    capture_trains(ctx, side, path, f"12.2, {rule}")


def validate_charge(ctx: StdCtx, side: str, units: list[str], path: list[str], target: str,
                    fortune: bool = False, ignore_ezoc: bool = False) -> int:
    """7.13(3), 9.3(1): the charge's group and move to the hex next to `target`; its cost in half MP, or
    IllegalCommand.  `ignore_ezoc`: 7.2's fortune of war (R13) charges as though no EZOC were on the map."""
    if fortune:  # 12.4: a charge out of the turn's movement, whatever the units did in the movement phase
        start = ctx.st.units[units[0]].hex if units and units[0] in ctx.sc.units else None
        if start is None or any(u not in ctx.sc.units or ctx.side_of(u) != side or not ctx.on_map(u)
                                or ctx.st.units[u].hex != start for u in units):
            raise IllegalCommand("12.4", "the charge is made by one of your units or stacks on the map")
        p = Plan(list(units), STACK, start)
    else:
        p = plan(ctx, side, units)
    if p.kind != STACK:
        raise IllegalCommand("7.13(3)", "only infantry or cavalry charge (with at most one leader)")
    problem = charge_problem(ctx, side, units, path, target, fortune)
    if problem:
        rule, _, text = problem.partition(": ")
        raise IllegalCommand(rule, text)
    cavalry = is_cavalry_charge(ctx, units)
    ma = min(movement_allowance(ctx.sc, ctx.st.units[u]) for u in units if ctx.kind(u).is_combat) if cavalry else 2
    halves = check_move(ctx.sc, ctx.st.units, Move(tuple(units), tuple(path), ma, disengaging=p.disengaging),
                        frozenset() if ignore_ezoc else None)
    if halves < HALF and not cavalry:
        raise IllegalCommand("7.13(3)", "the charge moves one or two MP to reach the hex next to the defender")
    if len(path) != len(set(path)) or any(not ctx.sc.grid.is_adjacent(a, b) for a, b in pairwise(path)):
        raise IllegalCommand("4.2", "the path is a line of adjacent hexes entered once")
    return halves


def charge_groups(ctx: StdCtx, side: str, eligible: Any) -> dict[str, list[list[str]]]:
    """Per hex of the side's stacks, the groups that could charge together (7.13(3): infantry, a battalion and a
    leader; 9.3: cavalry, a squadron and a leader), of the units `eligible(uid)` admits, none disrupted or
    ineffective."""
    st = ctx.st
    stacks: dict[str, list[str]] = {}
    for u in ctx.side_units_on_map(side):
        s = st.units[u]
        if s.hex is not None and eligible(u) and ctx.kind(u) in (Kind.INFANTRY, Kind.BATTALION, Kind.LEADER,
                                                                  Kind.CAVALRY, Kind.SQUADRON) \
                and not s.disrupted and not s.ineffective:
            stacks.setdefault(s.hex, []).append(u)
    out: dict[str, list[list[str]]] = {}
    for start, uids in sorted(stacks.items()):
        inf = [u for u in sorted(uids) if ctx.kind(u) is Kind.INFANTRY][:1]
        bns = [u for u in sorted(uids) if ctx.kind(u) is Kind.BATTALION][:1]
        ldrs = [u for u in sorted(uids) if ctx.kind(u) is Kind.LEADER][:1]
        cav = [u for u in sorted(uids) if ctx.kind(u) is Kind.CAVALRY][:1]
        sqn = [u for u in sorted(uids) if ctx.kind(u) is Kind.SQUADRON][:1]
        groups = [g for g in (inf + bns + ldrs, cav + sqn + ldrs) if len(g) > len(ldrs)]
        if groups:
            out[start] = groups
    return out


def fortune_charges(ctx: StdCtx, side: str, at: str | None = None, unit: str | None = None) -> list[dict[str, Any]]:
    """12.4 (S47): the charges a fortune of war lets the side make now (from the stack at `at`, or any): each
    group 7.13(3) or 9.3 would let charge, none of it in an EZOC or having taken part in a combat this phase,
    moving as the charge does to a hex next to an enemy combat unit.  `unit`: 7.2's fortune (R13): that one unit
    charges, EZOCs ignored."""
    st = ctx.st
    engaged = set(ctx.x.get("attacked_units", [])) | {u for u, s in st.units.items() if s.attacked}
    ezoc = ctx.zoc_of(ctx.enemy(side))
    enemy_hexes = {h for u in ctx.side_units_on_map(ctx.enemy(side)) if ctx.kind(u).is_combat
                   and (h := st.units[u].hex) is not None}
    out = []
    if unit is not None:
        h = st.units[unit].hex
        stacks = {h: [[unit]]} if h is not None and not st.units[unit].disrupted and not st.units[unit].ineffective \
            and ctx.kind(unit) in (Kind.INFANTRY, Kind.BATTALION, Kind.CAVALRY, Kind.SQUADRON) else {}
    else:
        stacks = charge_groups(ctx, side, lambda u: u not in engaged)
    for start, groups in stacks.items():
        if (start in ezoc and unit is None) or (at is not None and start != at):
            continue
        for group in groups:
            for path, t in _charge_paths(ctx, start, enemy_hexes):
                try:
                    validate_charge(ctx, side, group, path, t, fortune=True, ignore_ezoc=unit is not None)
                except IllegalCommand:
                    continue
                out.append({"units": group, "path": path, "target": t})
    return out


def charge_commands(ctx: StdCtx, side: str) -> list[dict[str, Any]]:
    """Every charge the side's infantry stacks could declare now: each stack's largest legal group to each target
    reachable with a path of one or two hexes (for the random player and the page)."""
    st = ctx.st
    out: list[dict[str, Any]] = []
    if st.phase != PHASE_MOVEMENT or st.active != side or ctx.x.get("declared"):
        return out  # 4.1, 4.4: charges are declared in the side's own movement phase, between moves
    enemy_hexes = {h for u in ctx.side_units_on_map(ctx.enemy(side)) if ctx.kind(u).is_combat
                   and (h := st.units[u].hex) is not None}
    for start, groups in charge_groups(ctx, side, lambda u: not st.units[u].moved).items():
        for group in groups:
            out.extend(_charges_of(ctx, side, start, group, enemy_hexes))
    return out


def _charge_paths(ctx: StdCtx, start: str, enemy_hexes: set[str]) -> Iterator[tuple[list[str], str]]:
    """7.13(3), 9.3(1): each path of one or two hexes from `start`, with each enemy hex next to its end."""
    grid = ctx.sc.grid
    for a in grid.neighbors(start):
        for path in ([start, a], *([start, a, b] for b in grid.neighbors(a) if b != start)):
            for t in sorted(h for h in grid.neighbors(path[-1]) if h in enemy_hexes):
                yield list(path), t


def _charges_of(ctx: StdCtx, side: str, start: str, group: list[str], enemy_hexes: set[str]) -> list[dict[str, Any]]:
    """The charges `group` could declare (validated as `cmd_charge` does; nothing is applied)."""
    out = []
    for path, t in _charge_paths(ctx, start, enemy_hexes):
        try:
            validate_charge(ctx, side, group, path, t)
        except IllegalCommand:
            continue
        out.append({"type": "charge", "units": group, "path": path, "target": t})
    return out
