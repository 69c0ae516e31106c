"""The close-combat sequence (seed 002 7.1, 7.2, 7.3-7.8, 7.13, with 9.3(3)-(6), 9.4, 9.5, 10.1, 10.3, 12.4, 14.2(4)).

`open_combat` makes a combat `GameState.combat` (an `attack`, attacks.py; a fortune of war's charge or forced attack,
fortune.py; a cavalry charge's follow-up, below) and queues its procedure, played as tasks and decisions:

1. 7.4 the defender names its participating units, its primary unit and the leaders joining them (decision
   `defenders`; 9.5: a square's unit alone; 12.4, S48: with the units a fortune of war moved into the hex);
2. 7.3(2) every participating defender without a safe line of retreat checks morale: failing, it is disrupted;
   already disrupted, it routs (the rout is the combat's result);
3. 7.13 the defender answers the attacker's tactic (decision `tactic`); 9.4 (S44): a countercharge against infantry
   or non-charging cavalry turns the combat into the defending cavalry's charge;
4. 9.3(3) a cavalry charge's morale checks, then the charged infantry may form square (decision `form_square`, 9.5);
5. 7.13(3) an infantry charge's primary checks morale (failing, the charge is not pressed home); 7.7 the
   differential, 7.3(6) the combat die and the morale die, 7.8 the CRT result (R12) read through the tactics (7.13)
   with the affected primary unit's morale check, or read per 9.4 against a countercharge; DF owes a fortune of war
   (12.4), Leader makes casualty checks (10.3), Ammo flips a firing artillery unit (8.5); the owner's choice when
   the result leaves one (decision `result`); combat_results.py carries the result out, then what follows it
   (7.13(2), 7.13(5), 9.3(7), 14.2(4));
6. the combat ends: leaders left alone are moved (10.1) and the fortunes of war it owed are played (12.4); cavalry
   that routed its defender may then charge again (decision `follow_up`, 9.3(6), S40); then each unattacked
   triggered defender whose triggering units have all completed their combat plays its fortune of war (7.2, S20).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from typing import Any

from ..kernel.state import STATUS_CAPTURED
from .bombard import result_marks
from .charges import bars_charge, is_clear_terrain
from .combat import defence_problem, pre_combat_result
from .combat_results import apply_outcome
from .context import StdCtx
from .crt import Result, crt_result, crt_row
from .leaders import assisted, leader_morale, lone_leaders
from .results import DISRUPT, DISRUPT_RETREAT, RETREAT, ROUT, STEP_LOSS, Outcome, outcomes
from .retreat import SAFE
from .retreating import queue_rout
from .scenario import Kind
from .squares import modified_square
from .strength import Mods, combat_differential
from .tactics import (
    CHARGE,
    COUNTERCHARGE,
    DISENGAGE,
    LAST_STAND,
    NO_TACTIC,
    SKIRMISH,
    TACTIC_LABEL,
    TACTIC_RULE,
    convert,
    defence_tactic_problem,
    joined_unit,
    leader_problem,
)

_ARMY_UNITS = (Kind.HQ, Kind.TRAINS)


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


# --- 7.4 the defenders ----------------------------------------------------------------------------------------------
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
                       "text": f"{ctx.names(c['attackers'])} attack{'s' if len(c['attackers']) == 1 else ''} your "
                               f"units at {c['target']}: choose the units that defend "
                               "and the primary unit, whose morale decides a lost combat (rule 7.4)",
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


# --- 7.3(2) the pre-combat check ------------------------------------------------------------------------------------
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


# --- 7.13 the defender's tactic; 9.4 the countercharge --------------------------------------------------------------
def tactic_options(ctx: StdCtx) -> list[dict[str, Any]]:
    c = ctx.st.combat
    assert c is not None
    out = []
    for t in (NO_TACTIC, COUNTERCHARGE) if c.get("cavalry") else (NO_TACTIC, DISENGAGE, LAST_STAND):  # S33, S36
        if defence_tactic_problem(ctx.sc, ctx.st.units, t, c.get("defenders", []), c.get("tactic", NO_TACTIC),
                                  open_order=ctx.x.get("open_order", ())) is None:  # 19.10 B
            out.append({"id": t, "tactic": t, "rule": TACTIC_RULE.get(t, "7.13"), "label": TACTIC_LABEL[t],
                        "attack_tactic": c.get("tactic", NO_TACTIC), "preview": tactic_preview(ctx, c, t)})
    if not c.get("cavalry") and countercharge_problem(ctx, c) is None:  # 9.4 against infantry or non-charging cavalry
        out.append({"id": COUNTERCHARGE, "tactic": COUNTERCHARGE, "rule": "9.4",
                    "attack_tactic": c.get("tactic", NO_TACTIC),
                    "label": f"countercharge {ctx.st.units[c['primary']].hex}: your cavalry charges the attackers "
                             "there (9.4, 9.3)"})
    return out


def countercharge_problem(ctx: StdCtx, c: dict[str, Any]) -> str | None:
    """9.4 (S44): why the defenders may not countercharge an attack by infantry or non-charging cavalry (None: they
    may).  They must meet 9.3's requirements without moving: at most one squadron and one other cavalry unit (their
    leaders join them), every one effective and undisrupted, not at night (14.2(4)), and the attacking primary unit
    adjacent in clear terrain across a clear hexside (9.3(1))."""
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
    if bars_charge(ctx, "cavalry", c["target"], at):  # the TEC's no-charge column (S30)
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
    one = len(c["attackers"]) == 1
    ctx.st.decision = {"kind": "tactic", "side": c["defender"], "rule": "7.13", "task": task,
                       "attack_tactic": att, "options": tactic_options(ctx), "hexes": [c["target"]],
                       "text": f"{ctx.names(c['attackers'])} attack{'s' if one else ''} {ctx.names(defenders)} at "
                               f"{c['target']}{' with no tactic' if att == NO_TACTIC else ''}"
                               f"{'' if att == NO_TACTIC else ' and announce' + ('s ' if one else ' ') + TACTIC_LABEL[att]}"
                               f"{' (' + TACTIC_RULE[att] + ')' if att in TACTIC_RULE else ''}: choose your "
                               "defending tactic; each shows its odds (rule 7.13)"}


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
                squares: dict[str, str] | None = None, hexes: dict[str, str | None] | None = None,
                open_order: frozenset[str] = frozenset()) -> Mods:
    squares = squares or {}
    hexes = hexes or {}
    return Mods(tactic=c.get("tactic", NO_TACTIC), defence=c.get("def_tactic", NO_TACTIC),
                fortune_doubled=bool(c.get("fortune_doubled")),
                halved=frozenset(c.get("halved", [])), leaders=dict(c.get("leaders", {})),
                def_leaders=dict(c.get("def_leaders", {})), charge_failed=charge_failed,
                support=tuple(c.get("support", [])), cavalry_doubled=impaired,
                in_square=tuple(u for u in c["attackers"] if squares.get(hexes.get(u) or "") == u),
                vs_square=c["target"] in squares, open_order=open_order)


def resolution_mods(ctx: StdCtx, c: dict[str, Any], attackers: list[str], prim_def: str | None, *,
                    pressed: bool) -> Mods:
    """7.7: the modifiers the combat is resolved with (`pressed`: an infantry charge passed its check, 7.13(3)); a
    cavalry charge's factor (9.3(4)), both sides' when countercharged (9.4), and 19.3's modified squares."""
    st = ctx.st
    impaired = prim_def is not None and (st.units[prim_def].disrupted or st.units[prim_def].ineffective)
    mods = combat_mods(c, charge_failed=not pressed, impaired=impaired, squares=st.squares,
                       hexes={u: st.units[u].hex for u in attackers},
                       open_order=frozenset(ctx.x.get("open_order", ())))  # 19.10 B
    if c.get("cavalry"):
        mods = replace(mods, cavalry_charge=True, countercharge=c.get("def_tactic") == COUNTERCHARGE,
                       vs_square=mods.vs_square or modified_square(ctx, True, prim_def))  # 19.3
    return mods


def tactic_preview(ctx: StdCtx, c: dict[str, Any], tactic: str) -> dict[str, Any] | None:
    """7.13: what the defender's answer `tactic` makes of the combat as it stands: the differential (7.7; last stand's
    +3, 7.13(5)), the CRT column and each die's result read through both tactics (7.8, 7.13; a cavalry charge's
    9.3(5); against it a countercharge's Am, Dm or both retreating, 9.4, S36), and the odds of each result.  An
    infantry charge is read as pressed home (its check comes later, 7.13(3)).  None for a countercharge against an
    attack that is no cavalry charge: it becomes another combat, the defender's charge (9.4, S44)."""
    if tactic == COUNTERCHARGE and not c.get("cavalry"):
        return None
    attackers, defenders = still_fighting(ctx, c)
    if not attackers or not defenders:
        return None
    _, prim_def = primaries(ctx, c, attackers, defenders)
    mods = resolution_mods(ctx, {**c, "def_tactic": tactic}, attackers, prim_def, pressed=True)
    bd = combat_differential(ctx.sc, ctx.st.units, attackers, defenders, c["target"], mods)
    diff = bd.differential
    row = crt_row(diff)
    if tactic == COUNTERCHARGE:
        results = ["Am" if r.affects == "attacker" else "Dm" if r.affects == "defender" else "both retreat"
                   for r in row]
    else:  # 7.13(4): when both disengage, both sides retreat
        read = [convert(r, c.get("tactic", NO_TACTIC), tactic, cavalry=bool(c.get("cavalry"))) for r in row]
        results = ["both retreat" if cv.both_retreat else str(cv.result) for cv in read]
    defence = sum(d.value for d in bd.defenders) + sum(int(str(m["value"])) for m in bd.modifiers
                                                        if m["side"] == "defender")  # last stand's +3, 7.13(5)
    return {"attack": diff + defence, "defense": defence, "differential": diff,
            "column_label": ctx.rs.crt_column_label(ctx.rs.crt_column(diff)), "results": results,
            "odds": {r: results.count(r) / len(results) for r in dict.fromkeys(results)},
            **({"note": "if the charge is pressed home (7.13(3))"} if c.get("tactic") == CHARGE and not c.get("cavalry")
               else {})}


# --- 7.7, 7.8 resolution --------------------------------------------------------------------------------------------
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
            st.tasks.append({"t": "advance", "units": attackers, "vacated": target,
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
    mods = resolution_mods(ctx, c, attackers, prim_def, pressed=pressed)
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
    result_marks(ctx, c, result)
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
        square = 2 if c.get("cavalry") and affected == "defender" and (
            st.squares.get(target) == primary or modified_square(ctx, True, primary)) else 0  # 9.5, 19.3
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


def _outcome_label(o: Outcome) -> str:
    return {DISRUPT: "the primary unit is disrupted", RETREAT: "all units retreat",
            DISRUPT_RETREAT: "all units are disrupted and retreat", STEP_LOSS: "the primary unit loses a step"}.get(
        o.effect, o.effect)


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


# --- 9.3(3) the cavalry charge's checks, 9.5 forming square ---------------------------------------------------------
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
        elif modified_square(ctx, True, prim_def):
            ctx.emit("square", f"19.3: {ctx.name(prim_def)} is treated as in square and makes no check when charged",
                     rule="19.3")
        elif not ctx.morale_check(prim_def, "9.3(3)", "charged by cavalry",
                                  leader_morale=leader_morale(ctx, c.get("def_leaders", {}), prim_def)):
            ctx.disrupt(prim_def, "9.3(3)")
    else:
        for u in attackers:
            ctx.disrupt(u, "9.3(3)")
    if (ctx.kind(prim_def) in (Kind.INFANTRY, Kind.BATTALION) and target not in st.squares
            and ctx.sc.special.modified_squares is None):  # 19.3: no square markers
        st.decision = {"kind": "form_square", "side": c["defender"], "rule": "9.3(3)", "task": task,
                       "hexes": [target],
                       "text": f"{ctx.name(prim_def)} is charged by cavalry: form square? It alone then defends, with 2 "
                               "more CF and MR (rules 9.3(3), 9.5)",
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


# --- 9.3(6) the cavalry charges again -------------------------------------------------------------------------------
def follow_up_targets(ctx: StdCtx, units: list[str], side: str) -> list[str]:
    """9.3(6) (V31's reading): enemy-occupied hexes next to the cavalry's hex, both open to a cavalry charge and
    nothing on the hexside between that bars one (the TEC's no-charge column, S30)."""
    h = ctx.st.units[units[0]].hex
    if h is None or any(ctx.st.units[u].hex != h for u in units) or not is_clear_terrain(ctx, h):
        return []
    return sorted(n for n in ctx.sc.grid.neighbors(h)
                  if ctx.combat_units_at(n, ctx.enemy(side)) and bars_charge(ctx, "cavalry", h, n) is None)


def task_follow_up(ctx: StdCtx, task: dict[str, Any]) -> None:
    units = [u for u in task["units"] if ctx.on_map(u) and not ctx.st.units[u].ineffective]
    targets = follow_up_targets(ctx, units, task["side"]) if units else []
    options = [{"id": "end", "hex": None, "label": "end the charge"}]
    options += [{"id": h, "hex": h, "label": f"charge {h} (9.3(6))"} for h in targets]
    ctx.st.decision = {"kind": "follow_up", "side": task["side"], "rule": "9.3(6)", "task": {**task, "units": units},
                       "options": options, "hexes": targets,
                       "text": f"{ctx.names(units)} routed the defender: charge an adjacent enemy again, or end the "
                               "charge (rule 9.3(6))"}


def decide_follow_up(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    units = list(task["units"])
    st = ctx.st
    target = option.get("hex")
    if target is None:
        for u in units:
            ctx.make_ineffective(u, "9.3(7)")
        queue_triggered_fow(ctx)  # 7.2: the charge's combat is complete
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


# --- the combat ends (10.1, 12.4, 7.2) ------------------------------------------------------------------------------
def task_combat_end(ctx: StdCtx, task: dict[str, Any]) -> None:
    ctx.st.combat = None
    lone_leaders(ctx)
    if not (ctx.st.tasks and ctx.st.tasks[-1]["t"] == "follow_up"):  # 9.3(6): the charge may go on first
        queue_triggered_fow(ctx)
    queue = ctx.x.pop("fow_queue", [])  # 12.4: the fortunes of war of this combat, played at once, in order
    for i in reversed(queue):
        ctx.st.tasks.append({"t": "fow_play", "index": i})


def queue_triggered_fow(ctx: StdCtx, *, phase_end: bool = False) -> None:
    """7.2 (S20): the fortune of war of each triggered defender not attacked, due as soon as every unit that
    triggered it has completed its combat (attacked and its combat ended; a unit gone from the map or that marched,
    4.7, has none to make), and at the end of the phase for the rest.  One fortune per hex, when every unattacked
    triggered defender of the hex is due (task `fow_7_2`, fortune.py); each is given once."""
    st = ctx.st
    x = ctx.x
    given = x.setdefault("fow_7_2_given", [])
    attacked = set(x.get("attacked_units", []))
    marched = set(x.get("marched", []))
    owed = {u: triggers for u, triggers in x.get("triggered", {}).items()
            if u not in given and u not in attacked and ctx.on_map(u)}
    by_hex: dict[str, list[str]] = {}
    for u in sorted(owed):
        by_hex.setdefault(st.units[u].hex or "", []).append(u)
    due = [(h, units) for h, units in sorted(by_hex.items())
           if phase_end or all(not ctx.on_map(a) or st.units[a].attacked or a in marched
                               for u in units for a in owed[u])]
    for h, units in reversed(due):
        given.extend(units)
        st.tasks.append({"t": "fow_7_2", "hex": h, "units": units})
