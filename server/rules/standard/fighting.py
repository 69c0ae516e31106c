"""The Standard rules' combat phase as a procedure (seed 002 7.1-7.12, with 2.8, 10.1, 10.3, 12.1-12.2, 14.2).

`attack {target, attackers, primary}` declares one combat (7.1, 7.4, 7.5); then, as tasks and decisions:

1. 7.4 the defender names its participating units and its primary unit (decision `defenders`);
2. 7.3(2) every participating defender without a safe line of retreat checks morale: failing, it is disrupted;
   already disrupted, it routs (the rout is the combat's result);
3. 7.7 the differential, 7.3(6) the combat die and the morale die, 7.8 the CRT result (R12) read with the
   affected primary unit's morale check; DF and Dm's fortune of war are owed (12.4, paid by part 2), Leader makes
   casualty checks (10.3);
4. 7.8 the owner's choice when the result leaves one (decision `result`: Xr disrupt or retreat, Xx step or
   disrupt-and-retreat);
5. 7.11 step losses (decision `absorb` when a stacked battalion or squadron may take it), 7.9 retreats (decision
   `retreat`: the path; unsafe paths check morale per EZOC hex and go on out of EZOC), 7.10 routs (SLR: three hexes
   and disrupted; unsafe: the TRT two turns ahead; none: captured);
6. 7.12 the advance (decision `advance` per eligible attacker, two hexes after a rout).

The phase's other duties: 7.2's fortune of war for each triggered defender left unattacked (decision `fow` of its
owner when the phase ends), 12.1/12.2 an attacked HQ or trains turns inactive and its attacker is owed two fortunes
of war, and an HQ or trains left alone is captured by an advance into its hex; 10.1 a leader left alone in an EZOC
goes to the nearest friendly unit, checks for casualty on an unsafe line, or is captured.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any

from ..kernel.errors import IllegalCommand
from ..kernel.game import check_fields
from ..kernel.hexes import hexside_key, line_of_sight
from ..kernel.state import PHASE_COMBAT, STATUS_CAPTURED, STATUS_RETURNING, Status
from .advance import absorbers, advance_hexes
from .charges import fortune_charges, is_cavalry_charge
from .combat import attack_problem, defence_problem, pre_combat_result
from .context import StdCtx
from .crt import Result, crt_result
from .movement import ma_dice, movement_allowance, printed_side
from .moving import capture_trains, leave_map
from .phases import recover
from .results import (
    DISRUPT,
    DISRUPT_RETREAT,
    EXCHANGE,
    NONE,
    RETREAT,
    ROUT,
    STEP_LOSS,
    Outcome,
    outcomes,
)
from .retreat import NONE as NO_LINE
from .retreat import SAFE, retreat_paths
from .scenario import Kind
from .stacking import combat_stack_problem
from .strength import Mods, combat_differential
from .tactics import (
    CHARGE,
    COUNTERCHARGE,
    DISENGAGE,
    LAST_STAND,
    NO_TACTIC,
    PRESS,
    SKIRMISH,
    TACTIC_LABEL,
    TACTIC_RULE,
    attack_tactic_problem,
    convert,
    coordinator_problem,
    defence_tactic_problem,
    joined_unit,
    leader_problem,
    skirmish_problem,
    uncoordinated_halved,
)

_ARMY_UNITS = (Kind.HQ, Kind.TRAINS)
_CAVALRY = (Kind.CAVALRY, Kind.SQUADRON)
LOS_DAY = 10  # 8.6: the longest line of sight in daylight
_FLIP_ON_RETREAT = (Kind.LEADER, Kind.CAVALRY, Kind.ARTILLERY, Kind.BATTALION, Kind.SQUADRON)  # 7.9


def owe_fow(ctx: StdCtx, side: str, rule: str, why: str) -> None:
    """12.4: a fortune of war owed: recorded (`extra.fow_owed`, with `index`) and played by its receiver as soon as
    the combat ends (`fow_play`)."""
    owed = ctx.x.setdefault("fow_owed", [])
    owed.append({"side": side, "rule": rule, "why": why, "turn": ctx.st.turn, "index": len(owed)})
    ctx.x.setdefault("fow_queue", []).append(len(owed) - 1)
    ctx.emit("fow", f"{rule}: {ctx.sc.sides[side].name} receives a fortune of war ({why}; 12.4)", side=side, rule=rule)


def fow_options(ctx: StdCtx, side: str) -> list[dict[str, Any]]:
    """12.4: the actions of a fortune of war the engine plays now: let it go, an enemy morale check (any undisrupted
    enemy combat unit), a friendly recovery check (any disrupted or ineffective friendly combat unit, whatever the
    enemy's proximity), an enemy unit's move (S39), a friendly stack's move or, in lieu of it, the placement of a unit
    of the TRT's next box (13.2, S45), and a charge (S47)."""
    out: list[dict[str, Any]] = [{"id": "pass", "action": "pass", "unit": None, "label": "let the fortune of war go"}]
    for u in sorted(ctx.side_units_on_map(ctx.enemy(side))):
        if ctx.kind(u).is_combat and not ctx.st.units[u].disrupted:
            out.append({"id": f"morale:{u}", "action": "enemy_morale", "unit": u,
                        "label": f"{ctx.name(u)} checks morale (12.4: fails, disrupted)"})
    for u in sorted(ctx.side_units_on_map(side)):
        s = ctx.st.units[u]
        if ctx.kind(u).is_combat and (s.disrupted or s.ineffective):
            out.append({"id": f"recover:{u}", "action": "recovery", "unit": u,
                        "label": f"{ctx.name(u)} tries to recover (12.4)"})
    for u in sorted(ctx.side_units_on_map(ctx.enemy(side))):
        if ctx.kind(u).is_combat:
            out.append({"id": f"enemy_move:{u}", "action": "enemy_move", "unit": u,
                        "label": f"try to move {ctx.name(u)} (12.4: on a 1 or 2)"})
    for h in sorted({ctx.st.units[u].hex or "" for u in ctx.side_units_on_map(side) if ctx.kind(u).is_combat}):
        out.append({"id": f"friendly_move:{h}", "action": "friendly_move", "unit": None, "hex": h,
                    "label": f"move the stack at {h} (12.4)"})
    for h in sorted({c["path"][0] for c in fortune_charges(ctx, side)}):
        out.append({"id": f"charge:{h}", "action": "charge", "unit": None, "hex": h,
                    "label": f"charge with the stack at {h} (12.4: doubled if its primary passes its check)"})
    for u in trt_next_box(ctx, side):  # 12.4: in lieu of a move, a unit of the TRT's next box is placed (13.2)
        out.append({"id": f"place:{u}", "action": "friendly_move", "unit": u, "place": True,
                    "label": f"place {ctx.name(u)} from the turn {ctx.st.turn + 1} box of the TRT (12.4, 13.2)"})
    return out


def fow_charge_choice(ctx: StdCtx, player: str, at: str, unit: str | None = None) -> None:
    """12.4 (S47): the player picks the charge of the stack at `at` (7.2, R13: of that one unit): its group, path
    and target (decision `fow_charge`)."""
    options = [{"id": f"{'+'.join(c['units'])}:{'-'.join(c['path'])}>{c['target']}", **c,
                "label": f"{ctx.names(c['units'])} by {', '.join(c['path'][1:])} into {c['target']}"}
               for c in fortune_charges(ctx, player, at, unit)]
    ctx.st.decision = {"kind": "fow_charge", "side": player, "rule": "12.4", "task": {"t": "fow_charge"},
                       "options": options, "hexes": sorted({o["target"] for o in options}),
                       "text": "12.4: choose the charge (its primary unit checks morale: passing, the chargers' "
                               "CF or charge factor is doubled)"}


def decide_fow_charge(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    """12.4 (S47): the group moves as a charge and attacks at once."""
    st = ctx.st
    side = ctx.side_of(option["units"][0])
    units, path, target = list(option["units"]), list(option["path"]), option["target"]
    for u in units:
        ctx.move_unit(u, path[-1])
    ctx.emit("charge", f"12.4: {ctx.names(units)} charge {target}, moving to {path[-1]}", units=units, path=path,
             target=target, rule="12.4")
    capture_trains(ctx, side, path, "12.2, 12.4")
    attackers = [u for u in units if ctx.kind(u).is_combat]
    primary = max(attackers, key=lambda u: (_charge_strength(ctx, u), u))  # S47: the strongest unit leads
    cavalry = all(ctx.kind(u) in _CAVALRY for u in attackers)
    enemy = ctx.enemy(side)
    unfought = target not in st.attacked_hexes and not any(u in ctx.x.get("attacked_units", [])
                                                           for u in ctx.units_at(target))
    open_combat(ctx, side, target, attackers, primary, [path[-1]], tactic=CHARGE, cavalry=cavalry, fortune=True)
    if unfought:
        # 12.4: the charge is the target's combat of the phase: the attack slated against it is void (NE)
        st.attacked_hexes.append(target)
        void = [c for c in ctx.x.get("charges", []) if c["target"] == target and c["side"] == enemy]
        if void:
            ctx.x["charges"] = [c for c in ctx.x["charges"] if c not in void]
            ctx.emit("result", f"12.4: the charge declared against {target} by {ctx.names(void[0]['units'])} "
                               "has an NE result", rule="12.4")
        if enemy == st.active:
            for u in ctx.units_at(target):  # the phasing player's target units have had their combat (S47)
                st.units[u].attacked = True
    ctx.emit("attack", f"12.4: {ctx.names(attackers)} attack {target} (a fortune of war's charge)",
             attackers=attackers, target=target, rule="12.4", tactic=CHARGE)


def _charge_strength(ctx: StdCtx, uid: str) -> int:
    side = printed_side(ctx.sc, ctx.st.units[uid])
    return (side.charge or side.cf or 0) if ctx.kind(uid) in _CAVALRY else (side.cf or 0)


def trt_next_box(ctx: StdCtx, side: str) -> list[str]:
    """12.4: the side's units in the next turn box of the TRT that 13.2 lets be placed somewhere now."""
    from .army import reentry_hexes

    return [u for u in ctx.sc.side_units[side]
            if ctx.st.units[u].status == STATUS_RETURNING and ctx.st.units[u].entry_turn == ctx.st.turn + 1
            and reentry_hexes(ctx.sc, ctx.st.units, u, ctx.inactive())]


def fow_place(ctx: StdCtx, player: str, uid: str) -> None:
    """12.4 with 13.2: the player picks where the unit from the TRT's next box is placed (decision `fow_place`)."""
    from .army import reentry_hexes

    hexes = reentry_hexes(ctx.sc, ctx.st.units, uid, ctx.inactive())
    ctx.st.decision = {"kind": "fow_place", "side": player, "rule": "12.4", "task": {"t": "fow_place", "unit": uid},
                       "options": [{"id": h, "hex": h, "label": f"at {h}"} for h in hexes], "hexes": hexes,
                       "text": f"12.4, 13.2: place {ctx.name(uid)} on or next to the active HQ or a functioning LOC "
                               "hex, or next to the active trains"}


def decide_fow_place(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    uid = task["unit"]
    ctx.set_status(uid, Status.MAP)
    ctx.move_unit(uid, option["hex"])
    ctx.st.units[uid].entry_turn = None
    ctx.emit("reenter", f"12.4, 13.2: {ctx.name(uid)} is placed at {option['hex']} from the TRT", unit=uid,
             hex=option["hex"], rule="12.4")


def fow_move(ctx: StdCtx, player: str, units: list[str]) -> None:
    """12.4: the units move by the normal movement rules (no march, not off the map) with a rolled MA — the slowest
    unit's for a stack; `player` picks the destination (decision `fow_move`)."""
    from .moving import STACK, Plan, reachable

    combat = [u for u in units if ctx.kind(u).is_combat]
    if not combat:
        return
    owner = ctx.side_of(combat[0])
    start = ctx.st.units[combat[0]].hex
    assert start is not None
    ma = None
    for u in combat:
        n = ma_dice(ctx.sc, ctx.st.units[u])
        dice = ctx.roll(n, "movement allowance", ["MA die"] * n, "12.4", unit=u)
        got = movement_allowance(ctx.sc, ctx.st.units[u], dice)
        ma = got if ma is None else min(ma, got)
    assert ma is not None
    p = Plan(list(units), STACK, start, disengaging=ctx.in_ezoc(start, owner))
    reach = reachable(ctx, owner, p, ma, False)
    options: list[dict[str, Any]] = [{"id": "stay", "hex": None, "path": [], "label": "do not move"}]
    options += [{"id": h, "hex": h, "path": path, "label": f"to {h}"} for h, path in sorted(reach.items())]
    task = {"t": "fow_move", "units": units, "friendly": owner == player}
    ctx.st.decision = {"kind": "fow_move", "side": player, "rule": "12.4", "task": task,
                       "options": options, "hexes": sorted(reach),
                       "text": f"12.4: move {ctx.names(units)} ({ma} MP rolled)"}


def decide_fow_move(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    if option.get("hex") is None:
        return
    for u in task["units"]:
        ctx.move_unit(u, option["hex"])
    ctx.emit("move", f"12.4: {ctx.names(task['units'])} move to {option['hex']}", units=task["units"],
             path=option["path"], rule="12.4")
    mover = next((ctx.side_of(u) for u in task["units"] if ctx.kind(u).is_combat), None)
    if mover:  # 12.2: normal rules
        capture_trains(ctx, mover, option["path"], "12.2, 12.4")
    if ctx.st.phase == PHASE_COMBAT:
        bind_moved(ctx, task["units"], option["hex"], friendly=task.get("friendly", True))


# --- 12.4: units a fortune of war moves during a combat phase (S48) ------------------------------------------------
def bind_moved(ctx: StdCtx, units: Sequence[str], hex_: str, *, friendly: bool) -> None:
    """12.4 (S48): units moved in a combat phase take part in every later combat of that phase in their final
    hex, even having fought already.  Moved by their own side's fortune, they must also attack every enemy next
    to them: the phasing player's as attacks he must make before the phase ends (others may join them), the other
    player's at once."""
    st = ctx.st
    moved = [u for u in units if ctx.kind(u).is_combat and ctx.on_map(u)]
    if not moved:
        return
    bound = ctx.x.setdefault("bound", {})
    for u in moved:
        bound[u] = hex_
        st.units[u].attacked = False  # "even if it has participated already"
    if not friendly:
        return
    side = ctx.side_of(moved[0])
    targets = forced_targets(ctx, moved, hex_)
    if not targets:
        return
    if side == st.active:
        ctx.x.setdefault("forced", []).extend({"units": moved, "target": t} for t in targets)
        ctx.emit("forced", f"12.4: {ctx.names(moved)} must attack {', '.join(targets)} this phase", units=moved,
                 targets=targets, rule="12.4")
        return
    for t in reversed(targets):
        st.tasks.append({"t": "forced_attack", "units": moved, "target": t})


def forced_targets(ctx: StdCtx, units: Sequence[str], hex_: str) -> list[str]:
    """12.4: the enemy-occupied hexes next to `hex_` these units could attack (7.5: could move into it, CF above 0)."""
    side = ctx.side_of(units[0])
    out = []
    for t in sorted(ctx.sc.grid.neighbors(hex_)):
        if not ctx.combat_units_at(t, ctx.enemy(side)):
            continue
        if all(ctx.sc.could_move(ctx.kind(u).tec_class, hex_, t) and _charge_strength(ctx, u) > 0 for u in units):
            out.append(t)
    return out


def pending_forced(ctx: StdCtx, side: str) -> list[dict[str, Any]]:
    """12.4 (S48): the attacks a fortune's move obliges the phasing player to make, while their units stand
    together next to the target (at night none: 14.2(4) allows no combat but infantry charges)."""
    out: list[dict[str, Any]] = []
    if ctx.light() == "night":
        return out
    for f in ctx.x.get("forced", []):
        units = [u for u in f["units"] if ctx.on_map(u) and ctx.side_of(u) == side]
        if not units:
            continue
        hex_ = ctx.st.units[units[0]].hex
        if hex_ is None or any(ctx.st.units[u].hex != hex_ for u in units) or f["target"] not in forced_targets(
                ctx, units, hex_):
            continue
        out.append({"units": units, "target": f["target"]})
    return out


def owed_forced(ctx: StdCtx, side: str) -> list[dict[str, Any]]:
    """The pending forced attacks (S48) the rules let be made now: the phase may not end while one is owed."""
    out = []
    for f in pending_forced(ctx, side):
        strongest = max(f["units"], key=lambda u: (_charge_strength(ctx, u), u))
        cmd = {"type": "attack", "target": f["target"], "attackers": f["units"], "primary": strongest}
        try:
            attack_plan(ctx, side, cmd)
        except IllegalCommand:
            continue
        out.append({**f, "command": cmd})
    return out


def forced_for(ctx: StdCtx, side: str, target: str, attackers: Sequence[str]) -> dict[str, Any] | None:
    """The pending forced attack (12.4, S48) on `target` these attackers make, if any."""
    return next((f for f in pending_forced(ctx, side) if f["target"] == target and set(f["units"]) <= set(attackers)),
                None)


def task_forced_attack(ctx: StdCtx, task: dict[str, Any]) -> None:
    """12.4 (S48): units the non-phasing player moved next to the enemy attack at once (no tactic, leader or
    support: the move gave no time to arrange them), the strongest as primary."""
    st = ctx.st
    units = [u for u in task["units"] if ctx.on_map(u)]
    target = task["target"]
    if not units:
        return
    hex_ = st.units[units[0]].hex
    units = [u for u in units if st.units[u].hex == hex_]
    if hex_ is None or target not in forced_targets(ctx, units, hex_) or ctx.light() == "night":
        return  # 14.2(4): at night no combat but infantry charges
    side = ctx.side_of(units[0])
    primary = max(units, key=lambda u: (_charge_strength(ctx, u), u))
    if target not in st.attacked_hexes:
        st.attacked_hexes.append(target)
    open_combat(ctx, side, target, units, primary, [hex_], moved_by_fortune=True)
    ctx.emit("attack", f"12.4: {ctx.names(units)}, moved by a fortune of war, attack {target}", attackers=units,
             target=target, rule="12.4", tactic=NO_TACTIC)


def open_combat(ctx: StdCtx, side: str, target: str, attackers: list[str], primary: str, hexes: list[str], *,
                tactic: str = NO_TACTIC, cavalry: bool = False, **more: Any) -> dict[str, Any]:
    """7.1: the combat now fought (`GameState.combat`): its attackers have attacked this phase and the target's
    units have been attacked; its procedure is queued (7.4 defenders, 7.3(2), the 7.13 answer, 9.3(3)'s checks for
    a cavalry charge, 7.7-7.8, what follows the result).  `more`: what the attack adds (leaders, coordination,
    support, the fortune it comes from)."""
    st = ctx.st
    st.combat = {"kind": "attack", "attacker": side, "defender": ctx.enemy(side), "target": target,
                 "attackers": attackers, "primary": primary, "hexes": hexes, "tactic": tactic,
                 "def_tactic": NO_TACTIC, "leaders": {}, "def_leaders": {}, "coordinator": None, "coordinated": True,
                 "halved": [], "support": [], "retreated": [], "night": ctx.light() == "night", "cavalry": cavalry,
                 **more}
    for u in attackers:
        st.units[u].attacked = True
    hit = ctx.x.setdefault("attacked_units", [])
    hit.extend(u for u in ctx.units_at(target) if u not in hit)
    checks = [{"t": "cavalry_checks"}] if cavalry else []  # 9.3(3), after the tactics (7.3)
    st.tasks.extend([{"t": "combat_end"}, {"t": "combat_after"}, {"t": "combat_resolve"}, *checks,
                     {"t": "combat_tactics"}, {"t": "combat_precheck"}, {"t": "combat_defenders"}])
    return st.combat


def task_fow_play(ctx: StdCtx, task: dict[str, Any]) -> None:
    owed = ctx.x.get("fow_owed", [])
    entry = owed[task["index"]]
    side = entry["side"]
    ctx.st.decision = {"kind": "fortune", "side": side, "rule": "12.4", "task": task, "options": fow_options(ctx, side),
                       "hexes": [], "fow": dict(entry),
                       "text": f"{entry['rule']}: a fortune of war ({entry['why']}): play it now or let it go"}


def decide_fortune(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    entry = ctx.x["fow_owed"][task["index"]]
    entry["played"] = option["id"]
    play_fow_action(ctx, entry["side"], option)


def play_fow_action(ctx: StdCtx, side: str, option: dict[str, Any]) -> None:
    """12.4: carry out a fortune of war's action at once."""
    uid = option.get("unit")
    if option.get("place"):
        fow_place(ctx, side, option["unit"])
        return
    if option.get("action") == "charge":
        fow_charge_choice(ctx, side, option["hex"])
        return
    if option.get("action") == "friendly_move":
        fow_move(ctx, side, [u for u in ctx.units_at(option["hex"]) if ctx.side_of(u) == side
                             and (ctx.kind(u).is_combat or ctx.kind(u) is Kind.LEADER)])
        return
    if option["id"] == "pass" or uid is None:
        ctx.emit("fow", f"12.4: {ctx.sc.sides[side].name} lets the fortune of war go", side=side, rule="12.4")
        return
    if option.get("action") == "enemy_morale":
        if not ctx.morale_check(uid, "12.4", "enemy morale check"):
            ctx.disrupt(uid, "12.4")
        return
    if option.get("action") == "enemy_move":
        (die,) = ctx.roll(1, "fortune of war", ["die"], "12.4", unit=uid)
        if die > 2:
            ctx.emit("fow", f"12.4: die {die}: {ctx.name(uid)} is not moved", unit=uid, rule="12.4")
            return
        fow_move(ctx, side, [uid])
        return
    if ctx.morale_check(uid, "12.4", "friendly recovery check", recovery=True):
        recover(ctx, uid, "12.4")


# --- the attack command (7.1, 7.4, 7.5, 7.13, 7.14, 8.8, 10.3) --------------------------------------------------------
def attack_check(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> tuple[str, list[str], str]:
    """Validate an attack exactly as `submit` does; (target, attackers, primary) or IllegalCommand."""
    plan = attack_plan(ctx, side, cmd)
    return plan["target"], plan["attackers"], plan["primary"]


def assisted(ctx: StdCtx) -> list[str]:
    """10.3: the leaders that have assisted a unit this game turn."""
    return sorted(u for u, t in ctx.x.get("assisted", {}).items() if t == ctx.st.turn)


def attack_plan(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> dict[str, Any]:
    """Validate an attack exactly as `submit` does and return what it will be: target, attackers, primary, the
    attacker's tactic (7.13), participating leaders with the unit each joins (10.3), the coordinating leader and
    whether the attack is coordinated with the units it halves (7.14), supporting artillery (8.8)."""
    check_fields(cmd, {"target": "hex", "attackers": "ids", "primary": "id"},
                 {"tactic": "id", "leaders": "ids", "coordinator": "id", "support": "ids"})
    st = ctx.st
    if st.phase != PHASE_COMBAT or st.active != side:
        raise IllegalCommand("7.1", "attacks are made in your own combat phase")
    tactic = cmd.get("tactic") or NO_TACTIC
    if ctx.light() == "night" and tactic != CHARGE:
        raise IllegalCommand("14.2(4)", "no combat is allowed at night except infantry charges")
    target = cmd["target"]
    attackers = list(cmd["attackers"])
    primary = cmd["primary"]
    if target not in ctx.sc.grid:
        raise IllegalCommand("7.4", f"{target} is not a hex of the map")
    if len(set(attackers)) != len(attackers) or any(u not in ctx.sc.units for u in attackers):
        raise IllegalCommand("7.5", "name each attacking unit once")
    if any(not ctx.kind(u).is_combat for u in attackers):
        raise IllegalCommand("7.5", "only combat units attack (leaders join under 10.3)")
    problem = attack_tactic_problem(ctx.sc, st.units, tactic, attackers)
    if problem:
        _refuse(problem)
    enemy = ctx.enemy(side)
    army_only = not ctx.combat_units_at(target, enemy) and any(
        ctx.kind(u) in _ARMY_UNITS and ctx.side_of(u) == enemy for u in ctx.units_at(target))
    if tactic == SKIRMISH:
        _skirmish_check(ctx, side, target, attackers, primary)
    elif not army_only:
        attacked_hexes = st.attacked_hexes
        forced = forced_for(ctx, side, target, attackers) if tactic != CHARGE else None
        if (tactic == CHARGE and all(ctx.kind(u) in _CAVALRY for u in attackers)
                and target in ctx.x.get("cavalry_charged", [])) or forced is not None:
            # 9.3(2): charged by cavalry only so far; 12.4: a forced attack on a hex attacked already (S48)
            attacked_hexes = [h for h in attacked_hexes if h != target]
        problem = attack_problem(ctx.sc, st.units, attackers, primary, target,
                                 attacked_units=[u for u in attackers if st.units[u].attacked
                                                 and not (forced and u in forced["units"])],
                                 attacked_hexes=attacked_hexes, marched=ctx.x.get("marched", []))
        if problem:
            _refuse(problem)
    else:
        if target in st.attacked_hexes:
            raise IllegalCommand("7.4", f"{target} has been the target of an attack this phase")
        for u in attackers:
            s = st.units[u]
            if ctx.side_of(u) != side or not ctx.on_map(u) or s.hex is None or s.attacked:
                raise IllegalCommand("7.5", f"{ctx.name(u)} may not attack now")
            if not ctx.sc.grid.is_adjacent(s.hex, target) or not ctx.sc.could_move(ctx.kind(u).tec_class, s.hex, target):
                raise IllegalCommand("7.5", f"{ctx.name(u)} could not move into {target}, so it may not attack it")
            if u in ctx.x.get("marched", []):
                raise IllegalCommand("4.7", f"{ctx.name(u)} used march movement and initiates no combat this turn")
        if primary not in attackers:
            raise IllegalCommand("7.5", "the primary unit must be one of the attackers")
    bound = ctx.x.get("bound", {})
    for h in {st.units[u].hex for u in attackers}:
        assert h is not None
        forced_here = [f for f in pending_forced(ctx, side) if st.units[f["units"][0]].hex == h]
        if st.attack_from.get(h, target) != target and not any(f["target"] == target for f in forced_here):
            raise IllegalCommand("5.3", f"the units in {h} attack together: they have attacked {st.attack_from[h]}")
        missing = [u for u, bh in bound.items() if bh == h and ctx.on_map(u) and st.units[u].hex == h
                   and ctx.side_of(u) == side and u not in attackers and not st.units[u].attacked]
        if missing:
            raise IllegalCommand("12.4", f"{ctx.names(missing)}, moved by a fortune of war, must take part in any "
                                         f"combat from {h}")
    if tactic == CHARGE:
        _charge_check(ctx, side, target, attackers)
    elif any(c["target"] == target and c["side"] == side for c in ctx.x.get("charges", [])):
        rule = "9.3(2)" if all(is_cavalry_charge(ctx, c["units"]) for c in ctx.x["charges"]
                               if c["target"] == target and c["side"] == side) else "7.13(3)"
        raise IllegalCommand(rule, f"a charge against {target} has been declared: no other unit attacks it")
    for u in attackers:  # 9.5: only the unit forming a square takes part in combat
        sq = st.squares.get(st.units[u].hex or "")
        if sq is not None and sq != u:
            raise IllegalCommand("9.5", f"{ctx.name(u)} is in {ctx.name(sq)}'s square: only that unit takes part")
    done = assisted(ctx)
    leaders: dict[str, str] = {}
    for ldr in cmd.get("leaders") or []:
        if ldr in leaders:
            raise IllegalCommand("10.3", "name each leader once")
        if tactic == SKIRMISH:
            raise IllegalCommand("10.3", "a leader adds nothing to a skirmish")
        if ldr in ctx.sc.units and ctx.side_of(ldr) != side:
            raise IllegalCommand("10.3", f"{ctx.name(ldr)} is not your leader")
        problem = leader_problem(ctx.sc, st.units, ldr, attackers, assisted=done)
        if problem:
            _refuse(problem)
        joined = joined_unit(ctx.sc, st.units, ldr, attackers, primary)
        assert joined is not None
        leaders[ldr] = joined
    if tactic == CHARGE and len(leaders) > 1:
        raise IllegalCommand("7.13(3)", "at most one leader charges with the units")
    coordinator = cmd.get("coordinator")
    halved = uncoordinated_halved(ctx.sc, attackers, primary)
    if coordinator is not None:
        if not halved:
            raise IllegalCommand("7.14", "the attack is of one formation and needs no leader to coordinate it")
        problem = coordinator_problem(ctx.sc, st.units, coordinator, attackers, light=ctx.light(),
                                      assisted=[u for u in done if u not in leaders])
        if problem:
            _refuse(problem)
        halved = []
    if tactic == CHARGE and halved:
        raise IllegalCommand("7.13(3)", "the charging units must be coordinated (7.14)")
    support = list(cmd.get("support") or [])
    if support and tactic == CHARGE:
        raise IllegalCommand("7.13(3)", "no artillery support is allowed for a charge")
    for u in support:
        problem = support_problem(ctx, side, u, target, attackers)
        if problem:
            _refuse(problem)
    if len(set(support)) != len(support):
        raise IllegalCommand("8.8", "name each supporting artillery unit once")
    return {"target": target, "attackers": attackers, "primary": primary, "tactic": tactic, "leaders": leaders,
            "coordinator": coordinator, "coordinated": not halved, "halved": halved, "support": support}


def _refuse(problem: str) -> None:
    rule, _, text = problem.partition(": ")
    raise IllegalCommand(rule, text)


def _skirmish_check(ctx: StdCtx, side: str, target: str, attackers: list[str], primary: str) -> None:
    """7.13(1) with 7.4, 7.5: a skirmish's units and geometry."""
    st = ctx.st
    if target in st.attacked_hexes:
        raise IllegalCommand("7.4", f"{target} has been the target of an attack this phase")
    if not ctx.combat_units_at(target, ctx.enemy(side)):
        raise IllegalCommand("7.1", f"no enemy combat unit is in {target}")
    ezoc = ctx.zoc_of(ctx.enemy(side))
    by_hex: dict[str, list[str]] = {}
    for u in attackers:
        s = st.units[u]
        if ctx.side_of(u) != side or not ctx.on_map(u) or s.hex is None:
            raise IllegalCommand("7.5", f"{ctx.name(u)} is not one of the attacker's units on the map")
        if s.attacked:
            raise IllegalCommand("7.5", f"{ctx.name(u)} has attacked this phase")
        if u in ctx.x.get("marched", []):
            raise IllegalCommand("4.7", f"{ctx.name(u)} used march movement and initiates no combat this turn")
        problem = skirmish_problem(ctx.sc, st.units, u, target, ezoc)
        if problem:
            _refuse(problem)
        by_hex.setdefault(s.hex, []).append(u)
    for hex_units in by_hex.values():
        problem = combat_stack_problem(ctx.sc, hex_units)
        if problem:
            _refuse(problem)
    if primary not in attackers:
        raise IllegalCommand("7.5", "the primary unit must be one of the attackers")
    if st.units[primary].ineffective and any(not st.units[u].ineffective for u in attackers):
        raise IllegalCommand("7.5", "the primary unit may not be an ineffective unit while another is available")


def _charge_check(ctx: StdCtx, side: str, target: str, attackers: list[str]) -> None:
    """7.13(3): the charge was declared in the movement phase by these units against this hex, and no other unit
    attacks the hex."""
    decls = [c for c in ctx.x.get("charges", []) if c["target"] == target and c["side"] == side]
    if not decls:
        raise IllegalCommand("7.13(3)", f"no charge against {target} was declared in the movement phase")
    if declared_charge(ctx, side, target, attackers) is None:
        raise IllegalCommand("7.13(3)", "the units that declared the charge, and only they, make it")


def declared_charge(ctx: StdCtx, side: str, target: str, attackers: Sequence[str]) -> dict[str, Any] | None:
    """7.13(3), 9.3(1): the declaration these attackers made against `target` (several cavalry charges may be
    declared against one hex, 9.3(2))."""
    return next((c for c in ctx.x.get("charges", []) if c["target"] == target and c["side"] == side
                 and sorted(attackers) == sorted(u for u in c["units"] if ctx.kind(u).is_combat and ctx.on_map(u))),
                None)


def support_problem(ctx: StdCtx, side: str, uid: str, target: str, attackers: Sequence[str]) -> str | None:
    """8.8: why this artillery may not support an attack on `target` by `attackers` (None: it may)."""
    if uid not in ctx.sc.units or ctx.side_of(uid) != side or ctx.kind(uid) is not Kind.ARTILLERY:
        return "8.8: only your own artillery gives supporting fire"
    if uid in attackers:
        return f"8.8: {ctx.name(uid)} attacks in this combat and cannot also support it"
    problem = bombard_problem(ctx, side, uid, target, support=True)
    if problem:
        return problem
    s = ctx.st.units[uid]
    assert s.hex is not None
    for n in ctx.sc.grid.neighbors(s.hex):
        if ctx.enemy_occupied(n, side) and not _prohibited_side(ctx, s.hex, n):
            return f"8.8(1): {ctx.name(uid)} is adjacent to an enemy unit"
    if not any(ctx.sc.grid.is_adjacent(s.hex, ctx.st.units[a].hex or "") for a in attackers):
        return f"8.8(3): {ctx.name(uid)} is not adjacent to a unit attacking {target}"
    return None


def _prohibited_side(ctx: StdCtx, a: str, b: str) -> bool:
    return any(ctx.sc.hexside_features[f].prohibited for f in ctx.sc.hexsides.get(hexside_key(a, b), ()))


def bombard_problem(ctx: StdCtx, side: str, uid: str, target: str, *, support: bool = False) -> str | None:
    """8.4, 8.6, 8.7, 14.2(5), 14.3(3): why this artillery may not bombard `target` now (None: it may)."""
    s = ctx.st.units[uid]
    name = ctx.name(uid)
    if not ctx.on_map(uid) or s.hex is None:
        return f"8.4: {name} is not on the map"
    if s.attacked:
        return f"7.5: {name} has attacked this phase"
    face = printed_side(ctx.sc, s)
    if face.attack <= 0 or face.range <= 0:
        return f"8.4(1): {name} has no attack or range factor"
    if s.disrupted or s.ineffective:
        return f"8.4(2): {name} is disrupted or ineffective"
    if ctx.sc.terrain_at(target).is_prohibited("artillery"):
        return f"8.2: artillery may not fire into {ctx.sc.terrain_at(target).name}"
    dist = ctx.sc.grid.distance(s.hex, target)
    if dist == 1 and not _prohibited_side(ctx, s.hex, target) and not support:
        return f"8.4: {target} is adjacent to {name} (artillery attacks it in close combat, 8.3)"
    light = ctx.light()
    limit = {"day": LOS_DAY, "twilight": 1, "night": 0}[light]
    rule = {"day": "8.6", "twilight": "14.3(3)", "night": "14.2(5)"}[light]
    if dist > limit:
        return f"{rule}: {target} is beyond the line of sight ({limit} hexes)"
    reach = face.range + (1 if ctx.sc.terrain_at(s.hex).hill else 0)
    if dist > reach:
        return f"8.7: {target} is beyond {name}'s range ({reach})"
    if not has_los(ctx, s.hex, target):
        return f"8.6: {name} has no line of sight to {target}"
    return None


def has_los(ctx: StdCtx, a: str, b: str) -> bool:
    """8.6 with the kernel's R2 geometry: blocking terrain and hexsides; units never block."""
    sc = ctx.sc
    return line_of_sight(
        sc.grid, a, b,
        lambda h: sc.terrain_at(h).blocks_los or any(x.blocks_los for x in sc.secondary_at(h)),
        lambda x, y: any(sc.hexside_features[f].blocks_los for f in sc.hexsides.get((x, y), ())),
    )


def cmd_attack(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    plan = attack_plan(ctx, side, cmd)
    target, attackers, primary = plan["target"], plan["attackers"], plan["primary"]
    st = ctx.st
    hexes = sorted({h for u in attackers if (h := st.units[u].hex) is not None})
    cavalry = plan["tactic"] == CHARGE and all(ctx.kind(u) in _CAVALRY for u in attackers)
    open_combat(ctx, side, target, attackers, primary, hexes, tactic=plan["tactic"], cavalry=cavalry,
                leaders=plan["leaders"], coordinator=plan["coordinator"], coordinated=plan["coordinated"],
                halved=plan["halved"], support=plan["support"])
    for u in plan["support"]:
        st.units[u].attacked = True
    for ldr in [*plan["leaders"], *([plan["coordinator"]] if plan["coordinator"] else [])]:
        ctx.x.setdefault("assisted", {})[ldr] = st.turn
    first = target not in st.attacked_hexes  # 9.3(2): a hex may be charged by several cavalry charges
    if first:
        st.attacked_hexes.append(target)
    for h in hexes:
        st.attack_from[h] = target
    if plan["tactic"] == CHARGE:
        made = declared_charge(ctx, side, target, attackers)
        ctx.x["charges"] = [c for c in ctx.x.get("charges", []) if c is not made]
    elif ctx.x.get("forced"):  # 12.4: a forced attack made (S48)
        ctx.x["forced"] = [f for f in ctx.x["forced"] if not (f["target"] == target and set(f["units"]) <= set(attackers))]
    charged = ctx.x.setdefault("cavalry_charged", [])  # 9.3(2): the hexes only cavalry has charged this phase
    if cavalry and first:
        charged.append(target)
    elif not cavalry and target in charged:
        charged.remove(target)
    how = []
    if plan["tactic"] != NO_TACTIC:
        how.append(f"{TACTIC_LABEL[plan['tactic']]}, {TACTIC_RULE[plan['tactic']]}")
    if plan["leaders"]:
        how.append(f"with {ctx.names(plan['leaders'])}, 10.3")
    if plan["coordinator"]:
        how.append(f"coordinated by {ctx.name(plan['coordinator'])}, 7.14")
    elif plan["halved"]:
        how.append(f"uncoordinated: {ctx.names(plan['halved'])} halved, 7.14")
    if plan["support"]:
        how.append(f"supported by {ctx.names(plan['support'])}, 8.8")
    ctx.emit("attack", f"7.1: {ctx.names(attackers)} attack {target}" + (f" ({'; '.join(how)})" if how else ""),
             attackers=attackers, target=target, rule="7.1", tactic=plan["tactic"], leaders=sorted(plan["leaders"]),
             coordinator=plan["coordinator"], support=plan["support"])
    for u in ctx.units_at(target):  # 12.1, 12.2: an attacked HQ or trains turns inactive; two FOW to the attacker
        if ctx.kind(u) in _ARMY_UNITS:
            rule = "12.1" if ctx.kind(u) is Kind.HQ else "12.2"
            ctx.set_inactive(u, True, "attacked", rule)
            for _ in range(2):
                owe_fow(ctx, side, rule, f"{ctx.name(u)} was attacked")


# --- 7.4 the defenders --------------------------------------------------------------------------------------
def defender_options(ctx: StdCtx) -> list[dict[str, Any]]:
    """7.4 with 10.3: each legal set of defenders with its primary unit, and (when an effective leader of the hex
    may join them and the attack is no skirmish) the same with the hex's eligible leaders taking part."""
    c = ctx.st.combat
    assert c is not None
    pool = sorted(ctx.combat_units_at(c["target"], c["defender"]))
    square = ctx.st.squares.get(c["target"])
    if square in pool:
        return [{"id": f"{square}:{square}", "units": [square], "primary": square, "leaders": {},
                 "label": f"{ctx.name(square)} in square (9.5: it alone takes part)"}]
    leaders = [] if c.get("tactic") == SKIRMISH else sorted(
        u for u in ctx.units_at(c["target"]) if ctx.kind(u) is Kind.LEADER and ctx.side_of(u) == c["defender"])
    done = assisted(ctx)
    out = []
    for n in range(min(3, len(pool)), 0, -1):
        for group in combinations(pool, n):
            for primary in group:
                if defence_problem(ctx.sc, ctx.st.units, list(group), primary) is None:
                    out.append({"id": f"{'+'.join(group)}:{primary}", "units": list(group), "primary": primary,
                                "leaders": {}, "label": f"{ctx.names(group)} (primary {ctx.name(primary)})"})
                    joined = {ldr: j for ldr in leaders
                              if leader_problem(ctx.sc, ctx.st.units, ldr, list(group), assisted=done) is None
                              and (j := joined_unit(ctx.sc, ctx.st.units, ldr, list(group), primary)) is not None}
                    if joined:
                        out.append({"id": f"{'+'.join(group)}:{primary}:{'+'.join(sorted(joined))}",
                                    "units": list(group), "primary": primary, "leaders": joined,
                                    "label": f"{ctx.names(group)} (primary {ctx.name(primary)}) with "
                                             f"{ctx.names(joined)} (10.3)"})
    return out


def task_defenders(ctx: StdCtx, task: dict[str, Any]) -> None:
    c = ctx.st.combat
    assert c is not None
    if not ctx.combat_units_at(c["target"], c["defender"]):
        c["defenders"] = []
        c["def_primary"] = None
        return
    options = defender_options(ctx)
    bound = [u for u, h in ctx.x.get("bound", {}).items() if h == c["target"] and ctx.on_map(u)
             and ctx.st.units[u].hex == h and ctx.side_of(u) == c["defender"]]
    if bound:  # 12.4 (S48): units moved by a fortune of war take part in any later combat in their hex
        best = max(len(set(bound) & set(o["units"])) for o in options)
        options = [o for o in options if len(set(bound) & set(o["units"])) == best]
    ctx.st.decision = {"kind": "defenders", "side": c["defender"], "rule": "7.4",
                       "text": f"{c['target']} is attacked: choose the defending units and the primary unit",
                       "task": task, "options": options, "hexes": [c["target"]]}


def decide_defenders(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    c = ctx.st.combat
    assert c is not None
    c["defenders"] = list(option["units"])
    c["def_primary"] = option["primary"]
    c["def_leaders"] = dict(option.get("leaders") or {})
    for ldr in c["def_leaders"]:
        ctx.x.setdefault("assisted", {})[ldr] = ctx.st.turn
    with_ = f" with {ctx.names(c['def_leaders'])} (10.3)" if c["def_leaders"] else ""
    ctx.emit("defenders", f"7.4: {ctx.names(c['defenders'])} defend {c['target']} (primary {ctx.name(c['def_primary'])})"
                          f"{with_}", defenders=c["defenders"], leaders=sorted(c["def_leaders"]), rule="7.4")


def leader_morale(ctx: StdCtx, joined: dict[str, str], uid: str | None) -> int:
    """10.3: the morale ratings of the participating leaders joined to `uid`."""
    total = 0
    for ldr, u in joined.items():
        lf = ctx.d(ldr).leader
        if u == uid and lf is not None and ctx.on_map(ldr) and ctx.st.units[ldr].hex == ctx.st.units[u].hex:
            total += lf.morale
    return total


# --- 7.3(2) the pre-combat check -----------------------------------------------------------------------------
def task_precheck(ctx: StdCtx, task: dict[str, Any]) -> None:
    c = ctx.st.combat
    assert c is not None
    routed = []
    for u in list(c.get("defenders", [])):
        if ctx.line_of(u) == SAFE:
            continue
        passed = ctx.morale_check(u, "7.3(2)", "no safe line of retreat",
                                  leader_morale=leader_morale(ctx, c.get("def_leaders", {}), u))
        what = pre_combat_result(passed, ctx.st.units[u].disrupted)
        if what == "disrupt":
            ctx.disrupt(u, "7.3(2)")
        elif what == "rout":
            routed.append(u)
    if not routed:
        return
    c["defenders"] = [u for u in c["defenders"] if u not in routed]
    if c.get("def_primary") in routed:
        c["def_primary"] = next((u for u in c["defenders"] if not ctx.st.units[u].ineffective),
                                c["defenders"][0] if c["defenders"] else None)
    c["prerouted"] = True
    c["routed_units"] = routed
    ctx.emit("rout", f"7.3(2): {ctx.names(routed)} rout before the combat", units=routed, rule="7.3(2)")
    queue_rout(ctx, routed, "7.3(2)")


# --- 7.13 the defender's tactic ------------------------------------------------------------------------------
def tactic_options(ctx: StdCtx) -> list[dict[str, Any]]:
    c = ctx.st.combat
    assert c is not None
    out = []
    for t in (NO_TACTIC, COUNTERCHARGE) if c.get("cavalry") else (NO_TACTIC, DISENGAGE, LAST_STAND):  # S33, S36
        if defence_tactic_problem(ctx.sc, ctx.st.units, t, c.get("defenders", []), c.get("tactic", NO_TACTIC)) is None:
            out.append({"id": t, "tactic": t, "rule": TACTIC_RULE.get(t, "7.13"), "label": TACTIC_LABEL[t]})
    if not c.get("cavalry") and countercharge_problem(ctx, c) is None:  # 9.4 against infantry or non-charging cavalry
        out.append({"id": COUNTERCHARGE, "tactic": COUNTERCHARGE, "rule": "9.4",
                    "label": f"countercharge {ctx.st.units[c['primary']].hex}: your cavalry charges the attackers "
                             "there (9.4, 9.3)"})
    return out


def countercharge_problem(ctx: StdCtx, c: dict[str, Any]) -> str | None:
    """9.4 (S44): why the defenders may not countercharge an attack by infantry or non-charging cavalry (None: they
    may).  They must meet 9.3's requirements without moving: at most one squadron and one other cavalry unit (their
    leaders join them), every one effective and undisrupted, not at night (14.2(4)), and the attacking primary unit
    adjacent in clear terrain across a clear hexside (9.3(1))."""
    from .charges import _open

    defenders = [u for u in c.get("defenders", []) if ctx.on_map(u)]
    if c.get("kind") != "attack" or c.get("cavalry") or not defenders:
        return "9.4: a countercharge answers an attack (against a cavalry charge see S36)"
    if ctx.light() == "night":
        return "14.2(4): no cavalry charges at night"
    squadrons = [u for u in defenders if ctx.kind(u) is Kind.SQUADRON]
    others = [u for u in defenders if ctx.kind(u) is Kind.CAVALRY]
    if len(squadrons) + len(others) != len(defenders) or len(squadrons) > 1 or len(others) > 1:
        return "9.4, 9.3: at most one squadron and one other cavalry unit countercharge, and only cavalry"
    for u in defenders:
        if ctx.st.units[u].disrupted or ctx.st.units[u].ineffective:
            return f"9.4, 9.3: {ctx.name(u)} is disrupted or ineffective"
    primary = c.get("primary")
    at = ctx.st.units[primary].hex if primary is not None and ctx.on_map(primary) else None
    if at is None or not ctx.sc.grid.is_adjacent(at, c["target"]):
        return "9.4: the countercharging cavalry does not move, so it meets only an adjacent attacking primary unit"
    if not _open(ctx, at) or ctx.sc.hexsides.get(hexside_key(c["target"], at)):
        return f"9.4, 9.3(1): the countercharge attacks into clear terrain only ({at})"
    return None


def reverse_for_countercharge(ctx: StdCtx, c: dict[str, Any]) -> None:
    """9.4 (S44): "as though the charging cavalry was the attacker": the combat becomes the defending cavalry's
    charge (9.3(3)-(5), (7)) against the attacking primary unit's hex, whose attacking units defend it.  The
    attack's own tactic and the attackers from other hexes drop out of it."""
    st = ctx.st
    struck = st.units[c["primary"]].hex
    engaged = [u for u in c["attackers"] if ctx.on_map(u) and st.units[u].hex == struck]
    ctx.emit("tactic", f"9.4: {ctx.names(c['defenders'])} countercharge {struck}: the combat is resolved as their "
                       f"charge against {ctx.names(engaged)} (9.3)", tactic=COUNTERCHARGE, rule="9.4", target=struck)
    c.update({
        "attacker": c["defender"], "defender": c["attacker"], "target": struck, "hexes": [c["target"]],
        "attackers": list(c["defenders"]), "primary": c["def_primary"], "leaders": dict(c.get("def_leaders", {})),
        "defenders": engaged, "def_primary": c["primary"],
        "def_leaders": {ldr: u for ldr, u in c.get("leaders", {}).items() if u in engaged},
        "tactic": CHARGE, "def_tactic": NO_TACTIC, "coordinator": None, "coordinated": True, "halved": [],
        "support": [], "cavalry": True, "countercharged": True, "pressed": True,
    })
    st.tasks.append({"t": "cavalry_checks"})  # 9.3(3), then the resolution already queued


def task_tactics(ctx: StdCtx, task: dict[str, Any]) -> None:
    """7.3(3), 7.13: the attacker has announced its tactic with the attack; the defender answers."""
    c = ctx.st.combat
    assert c is not None
    defenders = [u for u in c.get("defenders", []) if ctx.on_map(u) and ctx.st.units[u].hex == c["target"]]
    if not defenders or not any(ctx.on_map(u) for u in c["attackers"]):
        return
    att = c.get("tactic", NO_TACTIC)
    ctx.st.decision = {"kind": "tactic", "side": c["defender"], "rule": "7.13", "task": task,
                       "attack_tactic": att, "options": tactic_options(ctx), "hexes": [c["target"]],
                       "text": f"the attacker announces {TACTIC_LABEL[att]}"
                               f"{' (' + TACTIC_RULE[att] + ')' if att in TACTIC_RULE else ''}: choose your tactic"}


def decide_tactic(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    c = ctx.st.combat
    assert c is not None
    if option["tactic"] == COUNTERCHARGE and not c.get("cavalry"):
        reverse_for_countercharge(ctx, c)
        return
    c["def_tactic"] = option["tactic"]
    if option["tactic"] != NO_TACTIC:
        ctx.emit("tactic", f"{TACTIC_RULE[option['tactic']]}: the defender announces {TACTIC_LABEL[option['tactic']]}",
                 tactic=option["tactic"], rule=TACTIC_RULE[option["tactic"]])


def combat_mods(c: dict[str, Any], *, charge_failed: bool = False, impaired: bool = False,
                squares: dict[str, str] | None = None, hexes: dict[str, str | None] | None = None) -> Mods:
    squares = squares or {}
    hexes = hexes or {}
    return Mods(tactic=c.get("tactic", NO_TACTIC), defence=c.get("def_tactic", NO_TACTIC),
                fortune_doubled=bool(c.get("fortune_doubled")),
                halved=frozenset(c.get("halved", [])), leaders=dict(c.get("leaders", {})),
                def_leaders=dict(c.get("def_leaders", {})), charge_failed=charge_failed,
                support=tuple(c.get("support", [])), cavalry_doubled=impaired,
                in_square=tuple(u for u in c["attackers"] if squares.get(hexes.get(u) or "") == u),
                vs_square=c["target"] in squares)


# --- 7.7, 7.8 resolution ---------------------------------------------------------------------------------------
def still_fighting(ctx: StdCtx, c: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The combat's attackers still on the map, and its defenders still in the target hex."""
    units = ctx.st.units
    return ([u for u in c["attackers"] if ctx.on_map(u)],
            [u for u in c.get("defenders", []) if ctx.on_map(u) and units[u].hex == c["target"]])


def primaries(ctx: StdCtx, c: dict[str, Any], attackers: list[str], defenders: list[str]) -> tuple[str, str]:
    """7.5, 7.4: the primary units, or the first still fighting when a primary has gone."""
    prim_def = c.get("def_primary") if c.get("def_primary") in defenders else defenders[0]
    assert prim_def is not None
    return (c["primary"] if ctx.on_map(c["primary"]) else attackers[0]), prim_def


def task_resolve(ctx: StdCtx, task: dict[str, Any]) -> None:
    c = ctx.st.combat
    assert c is not None
    st = ctx.st
    target = c["target"]
    attackers, defenders = still_fighting(ctx, c)
    if not attackers:
        ctx.emit("combat_void", "7.1: no attacker is left; the combat lapses", rule="7.1")
        return
    if not defenders:
        if c.get("prerouted") or any(ctx.kind(u) in _ARMY_UNITS for u in ctx.units_at(target)) or not ctx.units_at(target):
            captured = any(st.units[u].status == STATUS_CAPTURED for u in c.get("routed_units", []))
            st.tasks.append({"t": "advance", "units": _advancers(ctx, c), "vacated": target,
                             "rout": bool(c.get("prerouted")) and not captured})
        return
    prim_att, prim_def = primaries(ctx, c, attackers, defenders)
    pressed = True
    if c.get("cavalry"):
        pass  # 9.3(3): the checks were made before the defender's square option (task_cavalry_checks)
    elif c.get("tactic") == CHARGE:  # 7.13(3): one charging unit checks morale before the combat
        pressed = ctx.morale_check(prim_att, "7.13(3)", "the charge",
                                   leader_morale=leader_morale(ctx, c.get("leaders", {}), prim_att))
        c["pressed"] = pressed
        if not pressed:
            ctx.emit("charge", "7.13(3): the charge is not pressed home: the chargers are halved", rule="7.13(3)")
        elif c.get("fortune"):
            c["fortune_doubled"] = True
            ctx.emit("charge", "12.4: the primary unit passes: the chargers' CF is doubled", rule="12.4")
    impaired = prim_def is not None and (st.units[prim_def].disrupted or st.units[prim_def].ineffective)
    mods = combat_mods(c, charge_failed=not pressed, impaired=impaired, squares=st.squares,
                       hexes={u: st.units[u].hex for u in attackers})
    if c.get("cavalry"):
        mods = replace(mods, cavalry_charge=True,  # 9.3(4): the charge factor; 9.4: both sides' when countercharged
                       countercharge=c.get("def_tactic") == COUNTERCHARGE)
    bd = combat_differential(ctx.sc, st.units, attackers, defenders, target, mods)
    diff = bd.differential
    dice = ctx.roll(2, "combat", ["combat die", "morale die"], "7.3(6)")
    crt = crt_result(diff, dice[0])
    conv = convert(crt, c.get("tactic", NO_TACTIC), c.get("def_tactic", NO_TACTIC), pressed=pressed,
                   cavalry=bool(c.get("cavalry")))
    result = conv.result
    c.update({"differential": diff, "dice": dice, "result": str(result), "crt": str(crt),
              "att_total": diff + sum(d.value for d in bd.defenders), "def_total": sum(d.value for d in bd.defenders),
              "forced": sorted(conv.forced)})
    text = f"7.7, 7.8: differential {diff:+d}, combat die {dice[0]}: {crt}"
    if conv.rules and str(result) != str(crt):
        text += f", read as {result} ({', '.join(conv.rules)})"
    ctx.emit("combat", text, result=str(result), crt=str(crt), differential=diff, rule="7.8")
    if result.df:
        owe_fow(ctx, c["defender"], "7.8", "DF")
    if result.leader:
        leader_checks(ctx, c)
    if result.ammo:
        ammo(ctx, c)
    c["att_primary_now"] = prim_att
    c["def_primary_now"] = prim_def
    if c.get("def_tactic") == COUNTERCHARGE:
        countercharge_result(ctx, c, crt, dice[1], prim_att, prim_def)
        return
    if conv.both_retreat:  # 7.13(4): both disengage: both sides retreat, the defender first
        ctx.emit("result", "7.13(4): both sides disengage and retreat, the defender first", rule="7.13(4)")
        apply_outcome(ctx, Outcome("attacker", RETREAT))
        apply_outcome(ctx, Outcome("defender", RETREAT, advance=False))
        return
    passed: bool | None = None
    affected = result.affects
    primary = prim_att if affected == "attacker" else prim_def
    joined = c.get("leaders", {}) if affected == "attacker" else c.get("def_leaders", {})
    if result.needs_check and primary is not None:
        square = 2 if c.get("cavalry") and affected == "defender" and st.squares.get(target) == primary else 0  # 9.5
        passed = ctx.morale_check(primary, "7.8", "combat result", die=dice[1],
                                  leader_morale=leader_morale(ctx, joined, primary) + square)
    if result.result == "Dm" and passed and result.on_pass and result.on_pass.startswith("A"):
        # 7.13(3): the defender held against the charge: the parenthesised Ax is the attacker's, read with the same
        # morale die (S28)
        att_passed = ctx.morale_check(prim_att, "9.3(5)" if c.get("cavalry") else "7.13(3)", "the charge is held",
                                      die=dice[1],
                                      leader_morale=leader_morale(ctx, c.get("leaders", {}), prim_att))
        held = Result("Am", "Ar") if result.on_pass == "Am" else Result(result.on_pass)  # 9.3(5): Am(Ar)
        outs = outcomes(held, att_passed, st.units[prim_att].disrupted)
        owner_side = "attacker"
    else:
        outs = outcomes(result, passed, bool(primary and st.units[primary].disrupted))
        owner_side = affected or "defender"
    outs = [o for o in outs if not (o.side in conv.forced and o.effect == DISRUPT)] or outs
    if len(outs) == 1:
        apply_outcome(ctx, outs[0])
        return
    owner = c["attacker"] if owner_side == "attacker" else c["defender"]
    options = [{"id": o.effect, "effect": o.effect, "side": o.side, "advance": o.advance,
                "fow_attacker": o.fow_attacker, "label": _outcome_label(o)} for o in outs]
    st.decision = {"kind": "result", "side": owner, "rule": "7.8", "task": {"t": "result"},
                   "text": f"{result}: choose how your units take the result", "options": options, "hexes": [target]}


def countercharge_result(ctx: StdCtx, c: dict[str, Any], crt: Result, morale_die: int, prim_att: str,
                         prim_def: str | None) -> None:
    """9.4 against charging cavalry: A results are Am, D results Dm; the affected primary routs on a failed check;
    when it does not rout, or on any other result, both sides retreat (the defender first, S36)."""
    side = crt.affects if crt.affects in ("attacker", "defender") else None
    ctx.emit("result", f"9.4: the countercharge reads {crt} as "
                       f"{'Am' if side == 'attacker' else 'Dm' if side == 'defender' else 'both retreat'}", rule="9.4")
    if side is not None:
        primary = prim_att if side == "attacker" else prim_def
        joined = c.get("leaders", {}) if side == "attacker" else c.get("def_leaders", {})
        if primary is not None and not ctx.morale_check(primary, "9.4", "countercharge", die=morale_die,
                                                        leader_morale=leader_morale(ctx, joined, primary)):
            apply_outcome(ctx, Outcome(side, ROUT, advance=side == "defender", fow_attacker=side == "defender"))
            return
    c["forced"] = ["attacker", "defender"]
    apply_outcome(ctx, Outcome("attacker", RETREAT))
    apply_outcome(ctx, Outcome("defender", RETREAT, advance=False))


def task_cavalry_checks(ctx: StdCtx, task: dict[str, Any]) -> None:
    """9.3(3): the chargers check (failing, disrupted); passing, the target's primary checks (failing, disrupted)
    unless it is in square; an infantry target may then form square (decision `form_square`, S38)."""
    c = ctx.st.combat
    assert c is not None
    st = ctx.st
    target = c["target"]
    attackers, defenders = still_fighting(ctx, c)
    if not attackers or not defenders:
        return
    prim_att, prim_def = primaries(ctx, c, attackers, defenders)
    assert prim_def is not None
    if ctx.morale_check(prim_att, "9.3(3)", "the cavalry charge",
                        leader_morale=leader_morale(ctx, c.get("leaders", {}), prim_att)):
        if c.get("fortune"):
            c["fortune_doubled"] = True
            ctx.emit("charge", "12.4: the primary unit passes: the chargers' charge factor is doubled", rule="12.4")
        if st.squares.get(target) == prim_def:
            ctx.emit("square", "9.3(3), 9.5: a unit in square makes no check when charged", rule="9.5")
        elif not ctx.morale_check(prim_def, "9.3(3)", "charged by cavalry",
                                  leader_morale=leader_morale(ctx, c.get("def_leaders", {}), prim_def)):
            ctx.disrupt(prim_def, "9.3(3)")
    else:
        for u in attackers:
            ctx.disrupt(u, "9.3(3)")
    if ctx.kind(prim_def) in (Kind.INFANTRY, Kind.BATTALION) and target not in st.squares:
        st.decision = {"kind": "form_square", "side": c["defender"], "rule": "9.3(3)", "task": task,
                       "hexes": [target], "text": f"{ctx.name(prim_def)} is charged by cavalry: form square (9.5)?",
                       "options": [{"id": "no", "square": False, "label": "do not form square"},
                                   {"id": "square", "square": True, "unit": prim_def,
                                    "label": f"{ctx.name(prim_def)} forms square: it alone defends, +2 CF and MR"}]}


def decide_form_square(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    c = ctx.st.combat
    if c is None or not option.get("square"):
        return
    uid = option["unit"]
    ctx.st.squares[c["target"]] = uid
    c["defenders"] = [uid]  # 9.5: only the unit forming square takes part
    c["def_primary"] = uid
    c["def_leaders"] = {}
    ctx.emit("square", f"9.3(3), 9.5: {ctx.name(uid)} forms square at {c['target']}", unit=uid, hex=c["target"],
             rule="9.5")


def follow_up_targets(ctx: StdCtx, units: list[str], side: str) -> list[str]:
    """9.3(6) (V31's reading): enemy-occupied hexes next to the cavalry's hex, both clear, no hexside feature between."""
    from .charges import _open

    h = ctx.st.units[units[0]].hex
    if h is None or any(ctx.st.units[u].hex != h for u in units) or not _open(ctx, h):
        return []
    return sorted(n for n in ctx.sc.grid.neighbors(h)
                  if ctx.combat_units_at(n, ctx.enemy(side)) and _open(ctx, n)
                  and not ctx.sc.hexsides.get(hexside_key(h, n)))


def task_follow_up(ctx: StdCtx, task: dict[str, Any]) -> None:
    units = [u for u in task["units"] if ctx.on_map(u) and not ctx.st.units[u].ineffective]
    targets = follow_up_targets(ctx, units, task["side"]) if units else []
    options = [{"id": "end", "hex": None, "label": "end the charge"}]
    options += [{"id": h, "hex": h, "label": f"charge {h} (9.3(6))"} for h in targets]
    ctx.st.decision = {"kind": "follow_up", "side": task["side"], "rule": "9.3(6)", "task": {**task, "units": units},
                       "options": options, "hexes": targets,
                       "text": f"{ctx.names(units)} routed the defender: charge again or end the charge"}


def decide_follow_up(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    units = list(task["units"])
    st = ctx.st
    target = option.get("hex")
    if target is None:
        for u in units:
            ctx.make_ineffective(u, "9.3(7)")
        return
    side = task["side"]
    h = st.units[units[0]].hex
    assert h is not None
    if target not in st.attacked_hexes:
        st.attacked_hexes.append(target)
        ctx.x.setdefault("cavalry_charged", []).append(target)  # 9.3(2): other cavalry may charge it too
    open_combat(ctx, side, target, units, units[0], [h], tactic=CHARGE, cavalry=True)
    ctx.emit("attack", f"9.3(6): {ctx.names(units)} charge again, into {target}", attackers=units, target=target,
             rule="9.3(6)", tactic=CHARGE)


def ammo(ctx: StdCtx, c: dict[str, Any]) -> None:
    """7.8 Ammo, 8.5: one bombarding artillery unit of the combat flips to its ineffective side (the attacker's
    choice when several fired)."""
    firing = [u for u in c.get("support", []) if ctx.on_map(u) and not ctx.st.units[u].ineffective]
    if not firing:
        ctx.emit("ammo", "7.8, 8.5: Ammo: no artillery bombarded in this combat", rule="8.5")
        return
    if len(firing) == 1:
        ctx.make_ineffective(firing[0], "8.5")
        return
    ctx.st.tasks.append({"t": "ammo", "units": firing, "side": c["attacker"]})


def task_ammo(ctx: StdCtx, task: dict[str, Any]) -> None:
    firing = [u for u in task["units"] if ctx.on_map(u) and not ctx.st.units[u].ineffective]
    if len(firing) <= 1:
        for u in firing:
            ctx.make_ineffective(u, "8.5")
        return
    ctx.st.decision = {"kind": "ammo", "side": task["side"], "rule": "8.5", "task": task,
                       "text": "Ammo: choose the bombarding artillery unit that runs out of ammunition",
                       "options": [{"id": u, "unit": u, "label": ctx.name(u)} for u in firing],
                       "hexes": sorted({h for u in firing if (h := ctx.st.units[u].hex)})}


def decide_ammo(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    ctx.make_ineffective(option["unit"], "8.5")


def _outcome_label(o: Outcome) -> str:
    return {DISRUPT: "the primary unit is disrupted", RETREAT: "all units retreat",
            DISRUPT_RETREAT: "all units are disrupted and retreat", STEP_LOSS: "the primary unit loses a step"}.get(
        o.effect, o.effect)


def decide_result(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    apply_outcome(ctx, Outcome(option["side"], option["effect"], option["advance"], option["fow_attacker"]))


def _side_units(ctx: StdCtx, c: dict[str, Any], which: str) -> list[list[str]]:
    """7.8: every unit of the affected side in the participating hexes (stacked non-participants included), one
    group per hex; an HQ or trains is unaffected by results (12.1, 12.2).  A bombardment affects its target unit
    alone (8.4, S31)."""
    if which == "defender" and c.get("only"):
        return [[u] for u in c["only"] if ctx.on_map(u)]
    if which == "defender":
        hexes = [c["target"]]
        side = c["defender"]
    else:
        hexes = c["hexes"]
        side = c["attacker"]
    out = []
    for h in hexes:
        g = sorted(u for u in ctx.units_at(h) if ctx.side_of(u) == side and ctx.kind(u) not in _ARMY_UNITS)
        if g:
            out.append(g)
    return out


def apply_outcome(ctx: StdCtx, o: Outcome) -> None:
    c = ctx.st.combat
    assert c is not None
    st = ctx.st
    effect = o.effect
    tasks: list[dict[str, Any]] = []
    if effect == NONE:
        ctx.emit("result", "7.8: no effect", rule="7.8")
    elif effect == EXCHANGE:
        ctx.emit("result", "7.8: exchange: each primary unit loses a step", rule="7.8")
        tasks.append({"t": "step_loss", "unit": c["att_primary_now"], "participants": c["attackers"]})
        if c.get("def_primary_now"):
            tasks.append({"t": "step_loss", "unit": c["def_primary_now"], "participants": c.get("defenders", [])})
    else:
        which = o.side or "defender"
        primary = c["att_primary_now"] if which == "attacker" else c["def_primary_now"]
        participants = c["attackers"] if which == "attacker" else c.get("defenders", [])
        groups = _side_units(ctx, c, which)
        disengaging = (c.get("tactic") if which == "attacker" else c.get("def_tactic")) == DISENGAGE
        if effect in (RETREAT, DISRUPT_RETREAT, ROUT):
            c.setdefault("retreated", []).append(which)
            if which == "defender" and (c.get("def_tactic") == LAST_STAND
                                        or (c.get("tactic") == CHARGE and c.get("pressed", True))):
                for u in c.get("defenders", []):  # 7.13(3), 7.13(5), 8.3: defending artillery is captured
                    if ctx.on_map(u) and ctx.kind(u) is Kind.ARTILLERY:
                        rule = "7.13(5)" if c.get("def_tactic") == LAST_STAND else "7.13(3)"
                        ctx.set_status(u, Status.CAPTURED)
                        ctx.emit("captured", f"{rule}, 8.3: {ctx.name(u)} is captured as the defenders give way",
                                 unit=u, rule=rule)
                groups = [[u for u in g if ctx.on_map(u)] for g in groups]
                groups = [g for g in groups if g]
        if effect == DISRUPT:
            ctx.disrupt(primary, "7.8")
        elif effect == STEP_LOSS:
            tasks.append({"t": "step_loss", "unit": primary, "participants": participants})
        elif effect in (RETREAT, DISRUPT_RETREAT):
            if effect == DISRUPT_RETREAT:
                for g in groups:
                    for u in g:
                        ctx.disrupt(u, "7.8")
            cavalry = which == "defender" and any(ctx.kind(u) in (Kind.CAVALRY, Kind.SQUADRON) and ctx.on_map(u)
                                                  for u in c["attackers"])
            for g in groups:
                tasks.append({**retreat_task(ctx, g), "disengage": disengaging, "cavalry": cavalry})
        elif effect == ROUT:
            ctx.emit("rout", f"7.8, 7.10: {ctx.names([u for g in groups for u in g])} rout", rule="7.10")
            if which == "defender":
                owe_fow(ctx, c["attacker"], "7.8", "Dm: the defenders routed")
                c["routed"] = True
                if c.get("cavalry") and c.get("def_tactic") != COUNTERCHARGE and primary is not None \
                        and ctx.on_map(primary):  # 9.3(5): and a step lost (not in a countercharge, S36)
                    if ctx.kind(primary) is Kind.ARTILLERY:
                        ctx.set_status(primary, Status.CAPTURED)
                        ctx.emit("captured", f"9.3(5): {ctx.name(primary)} is captured by the charge", unit=primary,
                                 rule="9.3(5)")
                    else:
                        lose_step(ctx, primary, "9.3(5)")
                    groups = [[u for u in g if ctx.on_map(u)] for g in groups]
                    groups = [g for g in groups if g]
        if o.advance:
            c["advance"] = True
        if effect == ROUT:
            for g in groups:
                tasks.append({"t": "rout", "units": g, "rule": "7.10"})
    if c.get("advance") or c.get("routed"):
        st.tasks.append({"t": "advance_check"})
    st.tasks.extend(reversed(tasks))


# --- 7.13(2), 7.13(5) the second step loss; 14.2(4) a night charge that fails -------------------------------------
def task_after(ctx: StdCtx, task: dict[str, Any]) -> None:
    """After the result: press forward costs the attacker a step unless the defender retreated (7.13(2)); a last
    stand costs the defender a step unless the attacker retreated (7.13(5)); each second step comes from any
    participating unit, the owner's choice, or gives the other player a fortune of war (7.11).  At night a charge
    that does not rout the defender retreats, disrupted (14.2(4))."""
    c = ctx.st.combat
    if c is None or "result" not in c:
        return
    retreated = c.get("retreated", [])
    routed = bool(c.get("routed"))
    if c.get("cavalry"):
        chargers = c["attackers"] + (c.get("defenders", []) if c.get("def_tactic") == COUNTERCHARGE else [])
        going_on = [u for u in c["attackers"] if ctx.on_map(u)]
        if routed and going_on and c.get("def_tactic") != COUNTERCHARGE and not c.get("countercharged") and all(
                not ctx.st.units[u].ineffective and not ctx.st.units[u].disrupted for u in going_on):
            # 9.3(6): the cavalry may charge again once this combat has ended (S40)
            chargers = [u for u in chargers if u not in going_on]
            i = max(i for i, t in enumerate(ctx.st.tasks) if t["t"] == "combat_end")
            ctx.st.tasks.insert(i, {"t": "follow_up", "units": going_on, "side": c["attacker"]})
        for u in chargers:
            if ctx.on_map(u):
                ctx.make_ineffective(u, "9.3(7)")  # 9.3(7), 9.4: ineffective at the end of the charge
    if c.get("night") and not routed:
        group = [u for u in c["attackers"] if ctx.on_map(u)]
        for u in group:
            ctx.disrupt(u, "14.2(4)")
        by_hex: dict[str, list[str]] = {}
        for u in group:
            by_hex.setdefault(ctx.st.units[u].hex or "", []).append(u)
        for g in by_hex.values():
            ctx.st.tasks.append({**retreat_task(ctx, g, "14.2(4)"), "disengage": False})
        ctx.emit("charge", "14.2(4): the night charge did not rout the defender: the chargers retreat, disrupted",
                 rule="14.2(4)")
    if c.get("def_tactic") == LAST_STAND and "attacker" not in retreated:
        ctx.st.tasks.append({"t": "second_step", "side": c["defender"], "units": c.get("defenders", []),
                             "rule": "7.13(5)", "other": c["attacker"]})
    if c.get("tactic") == PRESS and "defender" not in retreated and not c.get("prerouted"):
        ctx.st.tasks.append({"t": "second_step", "side": c["attacker"], "units": c["attackers"], "rule": "7.13(2)",
                             "other": c["defender"]})


def task_second_step(ctx: StdCtx, task: dict[str, Any]) -> None:
    units = [u for u in task["units"] if ctx.on_map(u) and ctx.kind(u).is_combat]
    if not units:
        owe_fow(ctx, task["other"], "7.11", f"{task['rule']}: no second step to lose")
        return
    ctx.emit("tactic", f"{task['rule']}: the {TACTIC_LABEL[PRESS if task['rule'] == '7.13(2)' else LAST_STAND]} costs "
                       "a step", rule=task["rule"])
    if len(units) == 1:
        lose_step(ctx, units[0], task["rule"])
        return
    ctx.st.decision = {"kind": "second_step", "side": task["side"], "rule": "7.11", "task": task,
                       "text": f"{task['rule']}, 7.11: choose the participating unit that loses the second step",
                       "options": [{"id": u, "unit": u, "label": ctx.name(u)} for u in units],
                       "hexes": sorted({h for u in units if (h := ctx.st.units[u].hex)})}


def decide_second_step(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    lose_step(ctx, option["unit"], task["rule"])


# --- 7.11 step losses -------------------------------------------------------------------------------------------
def task_step_loss(ctx: StdCtx, task: dict[str, Any]) -> None:
    uid = task["unit"]
    if uid is None or not ctx.on_map(uid):
        return
    others = absorbers(ctx.sc, ctx.st.units, uid, task.get("participants", []))
    if not others:
        lose_step(ctx, uid, "7.11")
        return
    options = [{"id": u, "unit": u, "label": ctx.name(u)} for u in [uid] + others]
    ctx.st.decision = {"kind": "absorb", "side": ctx.side_of(uid), "rule": "7.11", "task": task, "options": options,
                       "text": f"{ctx.name(uid)} loses a step: choose the unit that takes it"}


def decide_absorb(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    lose_step(ctx, option["unit"], "7.11")


def lose_step(ctx: StdCtx, uid: str, rule: str) -> None:
    """7.11: a two-step unit flips to its reduced side; a unit losing its last step is eliminated (set aside, 11.2)
    with a line of retreat, captured without one."""
    s = ctx.st.units[uid]
    if ctx.d(uid).steps == 2 and not s.reduced:
        s.reduced = True
        ctx.dirty()
        ctx.emit("step_loss", f"{rule}: {ctx.name(uid)} loses a step", unit=uid, rule=rule)
        return
    if ctx.line_of(uid) == NO_LINE:
        ctx.set_status(uid, Status.CAPTURED)
        ctx.emit("captured", f"{rule}: {ctx.name(uid)} loses its last step with no line of retreat and is captured",
                 unit=uid, rule=rule)
    else:
        ctx.set_status(uid, Status.ELIMINATED)
        ctx.emit("eliminated", f"{rule}: {ctx.name(uid)} is eliminated", unit=uid, rule=rule)
    s.disrupted = False
    s.ineffective = False
    s.reduced = False


# --- 7.9 retreat ---------------------------------------------------------------------------------------------------
def retreat_task(ctx: StdCtx, group: Sequence[str], rule: str = "7.9", length: int = 1) -> dict[str, Any]:
    minimum = max(length, 2 if any(ctx.st.units[u].disrupted for u in group) else 1)  # 2.8(6)
    return {"t": "retreat", "units": list(group), "min": minimum, "rule": rule}


def _group_army(ctx: StdCtx, group: Sequence[str]) -> str:
    combat = [u for u in group if ctx.kind(u).is_combat]
    return ctx.army(combat[0] if combat else group[0])


def task_retreat(ctx: StdCtx, task: dict[str, Any]) -> None:
    group = [u for u in task["units"] if ctx.on_map(u)]
    if not group:
        return
    start = ctx.st.units[group[0]].hex
    group = [u for u in group if ctx.st.units[u].hex == start]
    paths = retreat_paths(ctx.sc, ctx.st.units, group, _group_army(ctx, group), min_length=task["min"],
                          inactive=ctx.inactive())
    if task.get("rout"):
        paths = [p for p in paths if p.safe and len(p.path) == 3]
    if not paths:
        if task.get("rout"):
            for u in group:
                leave_map(ctx, u, "7.10")
            return
        edge = _edge_line(ctx, group)
        for u in group:
            if edge:
                ctx.emit("rout", f"7.9: {ctx.name(u)} has a line of retreat only to a map edge: it routs", unit=u,
                         rule="7.9")
                leave_map(ctx, u, "7.9")
            else:
                ctx.set_status(u, Status.CAPTURED)
                ctx.emit("captured", f"7.9: {ctx.name(u)} has no line of retreat and is captured", unit=u, rule="7.9")
        return
    options: list[dict[str, Any]] = []
    for p in paths:
        label = " ".join(p.path) + ("" if p.safe else f" (unsafe: {len(p.checks)} morale check(s))")
        options.append({"id": "-".join(p.path), "path": list(p.path), "safe": p.safe, "ezoc": list(p.checks),
                        "on": p.must_continue, "label": label})
    task = {**task, "units": group}
    ctx.st.decision = {"kind": "retreat", "side": ctx.side_of(group[0]), "rule": task.get("rule", "7.9"),
                       "task": task, "options": options, "hexes": sorted({o["path"][-1] for o in options}),
                       "text": f"{ctx.names(group)} retreat from {start}: choose the path"}


def _edge_line(ctx: StdCtx, group: Sequence[str]) -> bool:
    """7.9: whether a path of enterable hexes, free of enemy units, leads from the group to a map edge."""
    start = ctx.st.units[group[0]].hex
    assert start is not None
    side = ctx.side_of(group[0])
    classes = {ctx.kind(u).tec_class for u in group}
    seen = {start}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        if ctx.sc.grid.is_edge(h) and h != start:
            return True
        for n in ctx.sc.grid.neighbors(h):
            if n in seen or ctx.enemy_occupied(n, side):
                continue
            if all(ctx.sc.could_move(c, h, n) for c in classes):
                seen.add(n)
                queue.append(n)
    return ctx.sc.grid.is_edge(start)


def decide_retreat(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    group = list(task["units"])
    side = ctx.side_of(group[0])
    path = list(option["path"])
    rule = task.get("rule", "7.9")
    own_trains = {ctx.st.units[t].hex for t in ctx.sc.trains.values() if ctx.side_of(t) == side and ctx.on_map(t)}
    ezoc_hexes = set(option.get("ezoc", []))
    through_trains = any(h in own_trains for h in path)
    moving = list(group)
    for h in path:
        for u in list(moving):
            ctx.move_unit(u, h)
        if h in ezoc_hexes and not option["safe"]:
            for u in list(moving):
                if ctx.kind(u).is_combat and not ctx.morale_check(u, "7.9", f"retreat through an enemy zone of control at {h}"):
                    moving.remove(u)
                    st_rule = "7.9"
                    ctx.st.tasks.append({"t": "rout", "units": [u], "rule": st_rule})
    ctx.emit("retreat", f"{rule}: {ctx.names(group)} retreat to {path[-1]}", units=group, path=path, rule=rule)
    for u in group:
        if ctx.kind(u) in _FLIP_ON_RETREAT and not task.get("disengage"):  # 7.13(4): disengaging units do not flip
            ctx.make_ineffective(u, "7.9")
        if through_trains:
            ctx.disrupt(u, "12.2")
        if task.get("rout"):
            ctx.disrupt(u, "7.10")
        if task.get("cavalry"):
            ctx.disrupt(u, "9.2(3)")  # 9.2(3): retreating from attacking cavalry
    # 7.9: a retreat ending in an EZOC goes on to a hex free of EZOC within the printed MA, or routs (S13)
    if not option["safe"] and path[-1] in ctx.zoc_of(ctx.enemy(side)) and moving:
        go_on(ctx, moving, path)


def go_on(ctx: StdCtx, group: list[str], path: list[str]) -> None:
    side = ctx.side_of(group[0])
    ezoc = ctx.zoc_of(ctx.enemy(side))
    start = path[-1]
    combat = [u for u in group if ctx.kind(u).is_combat]
    mas = [ma for u in combat if (ma := _printed_ma(ctx, u)) is not None]
    limit = min(mas) if mas else 6
    classes = {ctx.kind(u).tec_class for u in group}
    prev = {start: ""}
    queue = deque([(start, 0)])
    goal = None
    while queue:
        h, n = queue.popleft()
        if h != start and h not in ezoc:
            goal = h
            break
        if n >= limit:
            continue
        for nb in sorted(ctx.sc.grid.neighbors(h)):
            if nb in prev or nb in path or ctx.enemy_occupied(nb, side):
                continue
            if all(ctx.sc.could_move(c, h, nb) for c in classes):
                prev[nb] = h
                queue.append((nb, n + 1))
    if goal is None:
        ctx.emit("rout", f"7.9: {ctx.names(group)} cannot get clear of the enemy zone of control: they rout", units=group,
                 rule="7.9")
        ctx.st.tasks.append({"t": "rout", "units": group, "rule": "7.9"})
        return
    steps = []
    h = goal
    while h != start:
        steps.append(h)
        h = prev[h]
    steps.reverse()
    for h in steps:
        for u in list(group):
            ctx.move_unit(u, h)
        if h in ezoc:
            for u in list(group):
                if ctx.kind(u).is_combat and not ctx.morale_check(u, "7.9", f"retreat through an enemy zone of control at {h}"):
                    group.remove(u)
                    ctx.st.tasks.append({"t": "rout", "units": [u], "rule": "7.9"})
    ctx.emit("retreat", f"7.9: {ctx.names(group)} go on retreating to {goal}", units=group, path=steps, rule="7.9")


def _printed_ma(ctx: StdCtx, uid: str) -> int | None:
    from .movement import printed_side

    ma = printed_side(ctx.sc, ctx.st.units[uid]).ma
    return 6 if ma is None else ma


# --- 7.10 rout --------------------------------------------------------------------------------------------------
def queue_rout(ctx: StdCtx, units: Sequence[str], rule: str) -> None:
    by_hex: dict[str, list[str]] = {}
    for u in units:
        h = ctx.st.units[u].hex
        if h is not None:
            by_hex.setdefault(h, []).append(u)
    for h in sorted(by_hex, reverse=True):
        ctx.st.tasks.append({"t": "rout", "units": by_hex[h], "rule": rule})


def task_rout(ctx: StdCtx, task: dict[str, Any]) -> None:
    """7.10: with an SLR the units retreat three hexes and are disrupted; with an unsafe line they go to the TRT two
    turns ahead; with none they are captured.  Leaders go with their units (alone, 10.1 moves them later)."""
    group = [u for u in task["units"] if ctx.on_map(u)]
    if not group:
        return
    rule = task.get("rule", "7.10")
    combat = [u for u in group if ctx.kind(u).is_combat]
    if not combat:
        return
    excluding = tuple(sorted(group))
    side = ctx.side_of(combat[0])
    start = ctx.st.units[combat[0]].hex
    assert start is not None
    lines = {ctx.lines(side, _group_army(ctx, group), ctx.kind(u).tec_class, excluding).line(start) for u in combat}
    if NO_LINE in lines:
        for u in group:
            ctx.set_status(u, Status.CAPTURED)
            ctx.emit("captured", f"7.10: {ctx.name(u)} routs with no line of retreat and is captured", unit=u, rule="7.10")
        return
    if lines == {SAFE}:
        ctx.st.tasks.append({**retreat_task(ctx, group, "7.10", 3), "rout": True})
        return
    for u in group:
        if ctx.kind(u).is_combat:
            leave_map(ctx, u, rule)


# --- 7.12 advance ------------------------------------------------------------------------------------------------
def _advancers(ctx: StdCtx, c: dict[str, Any]) -> list[str]:
    return [u for u in c["attackers"] if ctx.on_map(u)]


def task_advance_check(ctx: StdCtx, task: dict[str, Any]) -> None:
    c = ctx.st.combat
    assert c is not None
    target = c["target"]
    if c.get("kind") == "bombard":
        return  # 8.3, 8.5: artillery never advances, and a bombardment gives no advance
    if ctx.combat_units_at(target, c["defender"]):
        return  # 7.12: only a vacated hex gives an advance
    if any(ctx.side_of(u) == c["defender"] and ctx.kind(u) is Kind.LEADER for u in ctx.units_at(target)):
        lone_leaders(ctx)
    captured = any(ctx.st.units[u].status == STATUS_CAPTURED
                   for u in c.get("defenders", []) + c.get("routed_units", []))
    ctx.st.tasks.append({"t": "advance", "units": _advancers(ctx, c), "vacated": target,
                         "rout": bool(c.get("routed") or c.get("prerouted")) and not captured})


def advance_options(ctx: StdCtx, uid: str, vacated: str, rout: bool) -> list[str]:
    units = ctx.st.units
    side = ctx.side_of(uid)
    board = {u: s for u, s in units.items()
             if not (s.hex == vacated and ctx.side_of(u) != side and ctx.kind(u) in _ARMY_UNITS)}
    return advance_hexes(ctx.sc, board, uid, vacated, rout=rout)


def task_advance(ctx: StdCtx, task: dict[str, Any]) -> None:
    c = ctx.st.combat or {}
    if c.get("tactic") == SKIRMISH:
        return  # 7.13(1): skirmishers never advance
    must = c.get("tactic") == PRESS or (c.get("tactic") == CHARGE and c.get("pressed", True)
                                        and not c.get("cavalry"))  # 7.13(2), 7.13(3)
    units = [u for u in task["units"] if ctx.on_map(u)]
    while units:
        uid = units.pop(0)
        hexes = advance_options(ctx, uid, task["vacated"], task["rout"])
        if c.get("night"):
            hexes = [h for h in hexes if h == task["vacated"]]  # 14.2(4): into the vacated hex only
        if not hexes:
            continue
        rest = {**task, "units": units}
        ctx.st.tasks.append(rest)
        options = [] if must else [{"id": "stay", "hex": None, "label": "do not advance"}]
        options += [{"id": h, "hex": h, "label": f"advance to {h}"} for h in hexes]
        why = f"{TACTIC_RULE[c['tactic']]}: must advance" if must else "7.12"
        ctx.st.decision = {"kind": "advance", "side": ctx.side_of(uid), "rule": "7.12", "options": options,
                           "task": {**task, "unit": uid}, "hexes": hexes,
                           "text": f"{ctx.name(uid)} may advance ({why}"
                                   f"{', two hexes after a rout' if task['rout'] else ''})"}
        return


def decide_advance(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    uid = task["unit"]
    h = option.get("hex")
    if h is None:
        return
    side = ctx.side_of(uid)
    vacated = task["vacated"]
    start = ctx.st.units[uid].hex or ""
    path = [h] if ctx.sc.grid.is_adjacent(start, h) else [vacated, h]
    for step in path:
        for u in ctx.units_at(step):
            if ctx.side_of(u) != side and ctx.kind(u) in _ARMY_UNITS:
                ctx.set_status(u, Status.CAPTURED)
                rule = "12.1" if ctx.kind(u) is Kind.HQ else "12.2"
                ctx.emit("captured", f"{rule}: {ctx.name(u)} is captured", unit=u, rule=rule)
    ctx.move_unit(uid, h)
    ctx.emit("advance", f"7.12: {ctx.name(uid)} advances to {h}", unit=uid, hex=h, rule="7.12")
    c = ctx.st.combat or {}
    for ldr, joined in sorted(c.get("leaders", {}).items()):  # 10.3: the participating leader goes with his unit
        if joined == uid and ctx.on_map(ldr) and ctx.st.units[ldr].hex == start:
            ctx.move_unit(ldr, h)
            ctx.emit("advance", f"10.3: {ctx.name(ldr)} advances with {ctx.name(uid)}", unit=ldr, hex=h, rule="10.3")


# --- 10.3 leader casualties, 10.1 lone leaders -------------------------------------------------------------------
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
        ctx.move_unit(u, dest)
        ctx.make_ineffective(u, "10.1")
        ctx.emit("leader_moves", f"10.1: {ctx.name(u)} joins the nearest friendly unit at {dest}", unit=u, hex=dest,
                 rule="10.1")


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


def task_combat_end(ctx: StdCtx, task: dict[str, Any]) -> None:
    ctx.st.combat = None
    lone_leaders(ctx)
    queue = ctx.x.pop("fow_queue", [])  # 12.4: the fortunes of war of this combat, played at once, in order
    for i in reversed(queue):
        ctx.st.tasks.append({"t": "fow_play", "index": i})


# --- 7.2 the fortune of war of an unattacked triggered defender --------------------------------------------------
def task_fow(ctx: StdCtx, task: dict[str, Any]) -> None:
    units = [u for u in task["units"] if ctx.on_map(u)]
    if not units:
        return
    side = ctx.side_of(units[0])
    options: list[dict[str, Any]] = [{"id": "pass", "unit": None, "label": "let the fortune of war go"}]
    for u in sorted(ctx.combat_units_at(task["hex"], side)):
        s = ctx.st.units[u]
        if s.disrupted or s.ineffective:
            options.append({"id": f"recover:{u}", "unit": u, "label": f"{ctx.name(u)} tries to recover (12.4)"})
    options.append({"id": "move", "unit": None, "label": f"move the units at {task['hex']} (12.4, R13)"})
    for u in sorted(ctx.combat_units_at(task["hex"], side)):
        if fortune_charges(ctx, side, task["hex"], u):
            options.append({"id": f"charge:{u}", "unit": u, "label": f"{ctx.name(u)} charges (12.4, R13)"})
    ctx.st.decision = {"kind": "fow", "side": side, "rule": "7.2", "task": task, "options": options,
                       "hexes": [task["hex"]],
                       "text": f"7.2: {ctx.names(units)} at {task['hex']} triggered combat and were not attacked: "
                               "a fortune of war (move the hex's units, or one unit charges or recovers)"}
    if len(options) == 1:
        ctx.emit("fow", f"7.2: {ctx.sc.sides[side].name} has a fortune of war at {task['hex']} with no action to take now",
                 side=side, rule="7.2")
        ctx.st.decision = None


def decide_fow(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    if option["id"] == "pass":
        ctx.emit("fow", f"7.2: the fortune of war at {task['hex']} is not used", rule="7.2")
        return
    if option["id"].startswith("charge:"):  # R13: one unit of that hex charges, EZOCs ignored
        fow_charge_choice(ctx, ctx.side_of(option["unit"]), task["hex"], option["unit"])
        return
    if option["id"] == "move":  # R13: the units of that hex move (12.4's friendly move)
        side = ctx.side_of(task["units"][0])
        fow_move(ctx, side, [u for u in ctx.units_at(task["hex"]) if ctx.side_of(u) == side
                             and (ctx.kind(u).is_combat or ctx.kind(u) is Kind.LEADER)])
        return
    uid = option["unit"]
    if ctx.morale_check(uid, "12.4", "friendly recovery check", recovery=True):
        recover(ctx, uid, "12.4")
