"""The attack command (seed 002 7.1, 7.4, 7.5, 7.13, 7.14, 8.8, 10.3, with 4.7, 5.3, 9.3(2), 9.5, 12.1-12.2, 12.4,
14.2(4)).

`attack {target, attackers, primary, tactic?, leaders?, coordinator?, support?}` declares one combat in the
attacker's own combat phase.  `attack_plan` validates it exactly as `submit` does (the page's preview and the
bots use it too): the units and their geometry (7.4, 7.5, 5.3; a skirmish's, 7.13(1); against an HQ or trains
alone in its hex), the tactic (7.13; a charge only as declared in the movement phase, 7.13(3), 9.3(2)), the leaders
joining units (10.3), the coordinating leader or the units left halved (7.14), supporting artillery (8.8), a
square's unit alone (9.5), units a fortune of war moved (12.4, S48); at night only infantry charges (14.2(4)).
`cmd_attack` opens the combat (close_combat.py) and records what the attack has used up; an attacked HQ or trains
turns inactive and owes the attacker two fortunes of war (12.1, 12.2).

`owed_forced`: the attacks a fortune of war's move obliges the phasing player to make (S48) that the rules let be
made now; the phase may not end while one is owed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..kernel.errors import IllegalCommand
from ..kernel.game import check_fields
from ..kernel.state import PHASE_COMBAT
from .bombard import support_problem
from .charges import is_cavalry_charge
from .close_combat import open_combat
from .combat import attack_problem
from .combat_results import owe_fow
from .context import StdCtx
from .fortune import forced_for, pending_forced, printed_strength
from .leaders import assisted
from .line import line_attack_problem
from .scenario import Kind
from .stacking import combat_stack_problem
from .tactics import (
    CHARGE,
    NO_TACTIC,
    SKIRMISH,
    TACTIC_LABEL,
    TACTIC_RULE,
    attack_tactic_problem,
    by_formation,
    coordinator_problem,
    joined_unit,
    leader_problem,
    skirmish_problem,
    uncoordinated_halved,
)
from .victory import note_trains

_ARMY_UNITS = (Kind.HQ, Kind.TRAINS)
_CAVALRY = (Kind.CAVALRY, Kind.SQUADRON)


def attack_check(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> tuple[str, list[str], str]:
    """Validate an attack exactly as `submit` does; (target, attackers, primary) or IllegalCommand."""
    plan = attack_plan(ctx, side, cmd)
    return plan["target"], plan["attackers"], plan["primary"]


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
    problem = attack_tactic_problem(ctx.sc, st.units, tactic, attackers, open_order=ctx.x.get("open_order", ()))
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
    for u in attackers:  # 19.7 D: a line attacks only into its front hexes (skirmishing two away: in its front arc)
        if (why := line_attack_problem(ctx, u, target)) is not None:
            _refuse(why)
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
        if not halved:  # one formation, or an 'A' primary that shares every formation (2.4, S23): nothing halved
            why = ("the attack is of one formation" if by_formation(ctx.sc, attackers) else
                   f"the primary unit {ctx.name(primary)} is of every formation (2.4), so no unit is halved")
            raise IllegalCommand("7.14", f"{why}: no leader is needed to coordinate it")
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
            note_trains(ctx, u)  # 18.2 (S68): a trains attacked
            for _ in range(2):
                owe_fow(ctx, side, rule, f"{ctx.name(u)} was attacked")


# --- 12.4 (S48) the forced attacks owed -----------------------------------------------------------------------------
def owed_forced(ctx: StdCtx, side: str) -> list[dict[str, Any]]:
    """The pending forced attacks (S48) the rules let be made now: the phase may not end while one is owed."""
    out = []
    for f in pending_forced(ctx, side):
        strongest = max(f["units"], key=lambda u: (printed_strength(ctx, u), u))
        cmd = {"type": "attack", "target": f["target"], "attackers": f["units"], "primary": strongest}
        try:
            attack_plan(ctx, side, cmd)
        except IllegalCommand:
            continue
        out.append({**f, "command": cmd})
    return out
