"""The Standard rules' page options: what a side's units may do now (every page action), and the preview of one
exact attack.  Both only read the state and use the validation `Game.submit` uses."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..kernel.errors import IllegalCommand
from ..kernel.hidden import is_marker
from ..kernel.state import PHASE_COMBAT, PHASE_MOVEMENT, PHASE_SETUP
from . import attacks, bombard, close_combat, hidden_setup, legal, moving, setup
from .charges import charge_commands
from .context import StdCtx
from .crt import bombardment_result, crt_row
from .hidden_moves import marker_options
from .line_fire import fire_commands
from .squares import modified_square
from .strength import Mods, Strength, combat_differential
from .tactics import NO_TACTIC, TACTIC_LABEL, TACTIC_RULE, by_formation, convert
from .weather import mp_cap

if TYPE_CHECKING:
    from ..kernel.game import Game


def unit_options(game: Game, side: str, units: list[str]) -> dict[str, Any]:
    """For a selection of units: the move (reachable hexes with their paths, whether it must be declared and rolled
    first (4.4), whether it may march (4.7)), recovery, replacement, re-entry and flips (2.6, 12.1, 12.2), and in the
    combat phase the attacks these units may make with their odds."""
    ctx = StdCtx.of(game)
    st = game.state
    markers = [u for u in units if is_marker(u)]
    units = [u for u in units if u in ctx.sc.units and ctx.side_of(u) == side]
    out: dict[str, Any] = {"units": units, "phase": st.phase, "active": st.active}
    if game.awaiting != side or st.decision is not None:
        out["decision"] = st.decision is not None
        return out
    if markers:
        out["markers"] = marker_options(ctx, side, markers)  # 19.8 C
    if st.phase == PHASE_MOVEMENT and st.active == side and ctx.x.get("hm_declared"):
        out["hm_declared"] = ctx.x["hm_declared"]  # 4.4, 19.8 C: the marker's declared move comes first
    elif st.phase == PHASE_MOVEMENT and st.active == side:
        declared = ctx.x.get("declared")
        out["declared"] = declared
        singles = [c for c in legal.unit_actions(ctx, side) if c.get("unit") in units or not units]
        out["actions"] = singles
        if units:
            for march in (False, True):
                key = "march" if march else "normal"
                try:
                    if declared and sorted(declared["units"]) == sorted(units):
                        p = moving.plan(ctx, side, units, declared["march"])
                        if march != declared["march"]:
                            continue
                        ma = int(declared["ma"])
                    else:
                        p = moving.plan(ctx, side, units, march)
                        if march and not moving.march_allowed(ctx, p):
                            continue
                        if p.rolls:
                            out[key] = {"declare": True, "rule": "4.4",
                                        "reasons": {u: r for u, r in p.reasons.items() if r}}
                            continue
                        ma = moving.printed_ma(ctx, p, march)
                except (IllegalCommand, ValueError) as e:
                    if isinstance(e, IllegalCommand):
                        out[key + "_error"] = e.to_json()
                    continue
                reach = moving.reachable(ctx, side, p, ma, march)
                out[key] = {"declare": False, "ma": ma, "disengaging": p.disengaging,
                            "reachable": {h: {"path": path} for h, path in sorted(reach.items())}}
                cap = mp_cap(ctx.weather())
                if cap is not None and ma > cap:  # 19.4: Heavy Rain
                    out[key].update(ma=cap, limit={"rule": "19.4", "ma": ma, "text": f"Heavy Rain: no unit moves "
                                                   f"more than {cap} MP (its MA is {ma})"})
    if st.phase == PHASE_SETUP and st.active == side:
        out["placements"] = setup_placements(ctx, side, units)
        problem = setup.end_problem(ctx, side) or hidden_setup.end_problem(ctx, side)  # 19.8 B too
        out["setup"] = {"printed": len(setup.printed_placements(ctx, side)),
                        "end": None if problem is None else {"rule": problem[0], "message": problem[1]},
                        "hidden": hidden_setup.setup_options(ctx, side)}  # 19.8 B: the boxes and their markers
    if st.phase == PHASE_MOVEMENT and st.active == side and not ctx.x.get("declared") and not ctx.x.get("hm_declared"):
        out["charges"] = [c for c in charge_commands(ctx, side) if not units or set(c["units"]) & set(units)]  # 7.13(3), 9.3
    if st.phase == PHASE_COMBAT and st.active == side:
        attacks = legal.attack_commands(ctx, side, random.Random(0))
        out["attacks"] = [preview_command(game, side, a) for a in attacks
                          if not units or set(a["attackers"]) & set(units)]
        out["bombardments"] = [preview_bombard(game, side, b) for b in bombard.bombard_commands(ctx, side)
                               if not units or set(b["artillery"]) & set(units)]  # 8.4
        out["line_fire"] = [f for f in fire_commands(ctx, side) if not units or f["unit"] in units]  # 19.7 D
    return out


def setup_placements(ctx: StdCtx, side: str, units: list[str]) -> dict[str, Any]:
    """17.2, 17.3: each own unit placed in an area (all of them when none is named): the area in words with its rule,
    the hexes it may take now, its printed hex and whether it is placed."""
    out: dict[str, Any] = {}
    for uid, area in setup.areas_in_play(ctx.sc, ctx.st.options).items():
        if ctx.side_of(uid) != side or (units and uid not in units):
            continue
        ap = ctx.sc.areas.get(uid)
        out[uid] = {"text": area.text, "rule": area.rule, "printed": ap.printed if ap else None,
                    "placed": ctx.u(uid).hex is not None, "hexes": setup.allowed_hexes(ctx, uid)}
    return out


def preview_command(game: Game, side: str, cmd: Any) -> dict[str, Any]:
    """One exact attack judged as `submit` would, without applying it: its tactic (7.13), coordination (7.14),
    participating leaders (10.3) and supporting artillery (8.8), the differential with every unit's part and every
    modifier with its rule number, the CRT column's six results (7.7, 7.8, R12), or the rule and sentence that
    refuse it."""
    ctx = StdCtx.of(game)
    st = game.state
    if isinstance(cmd, dict) and cmd.get("type") == "bombard":
        return preview_bombard(game, side, cmd)
    if not isinstance(cmd, dict) or cmd.get("type") != "attack":
        raise IllegalCommand("7.1", "only an attack or a bombardment can be previewed")
    if game.awaiting != side or st.decision is not None:
        return {"legal": False, "rule": "7.1", "message": "attacks are made in your own combat phase, with no decision "
                                                          "pending", "command": cmd}
    try:
        plan = attacks.attack_plan(ctx, side, cmd)
    except IllegalCommand as e:
        return {"legal": False, "rule": e.rule, "message": e.message, "command": cmd}
    target, attackers = plan["target"], plan["attackers"]
    pool = sorted(ctx.combat_units_at(target, ctx.enemy(side)))
    st.combat = {"target": target, "defender": ctx.enemy(side), "tactic": plan["tactic"]}
    try:
        opts = close_combat.defender_options(ctx)
    finally:
        st.combat = None
    best: dict[str, Any] = (max(opts, key=lambda o: (len(o["units"]), len(o["leaders"]))) if opts
                            else {"units": pool, "leaders": {}})
    defending = list(best["units"])
    prim = best.get("primary")
    impaired = prim is not None and (st.units[prim].disrupted or st.units[prim].ineffective)
    charge = plan["tactic"] == "charge" and all(ctx.kind(u).value in ("cavalry", "squadron") for u in attackers)
    mods = Mods(tactic=plan["tactic"], halved=frozenset(plan["halved"]), leaders=plan["leaders"],
                def_leaders=dict(best.get("leaders") or {}), support=tuple(plan["support"]), cavalry_doubled=impaired,
                in_square=tuple(u for u in attackers if st.squares.get(st.units[u].hex or "") == u),
                vs_square=target in st.squares or modified_square(ctx, charge, prim),  # 9.5, 19.3
                open_order=frozenset(ctx.x.get("open_order", ())),  # 19.10 B
                cavalry_charge=charge)
    bd = combat_differential(ctx.sc, st.units, attackers, defending, target, mods)
    diff = bd.differential
    modifiers = list(bd.modifiers)
    for ldr, u in sorted(plan["leaders"].items()):
        modifiers.append({"rule": "10.3", "label": f"{ctx.name(ldr)} joins {ctx.name(u)}", "side": "attacker",
                          "value": bd.attackers[attackers.index(u)].leader})
    if plan["halved"]:
        modifiers.append({"rule": "7.14", "label": f"uncoordinated: {ctx.names(plan['halved'])} halved",
                          "side": "attacker", "value": 0})
    elif not plan["coordinator"] and not by_formation(ctx.sc, attackers):  # an 'A' primary (2.4, S23)
        modifiers.append({"rule": "2.4", "label": f"{ctx.name(plan['primary'])} is of every formation: no unit halved "
                          "(7.14)", "side": "attacker", "value": 0})
    if ctx.light() == "twilight":
        modifiers.append({"rule": "14.3(2)", "label": "twilight: no leader coordinates", "side": "attacker", "value": 0})
    tactic = plan["tactic"]
    coordination = {"coordinated": plan["coordinated"], "coordinator": plan["coordinator"],
                    "halved": list(plan["halved"]), "rule": "7.14"}

    def part(a: Strength) -> dict[str, Any]:
        return {"unit": a.unit, "printed": a.printed, "leader": a.leader, "halvings": list(a.halvings),
                "doubled": a.doubled, "value": a.value}

    results = [str(r) for r in crt_row(diff)]
    if tactic != NO_TACTIC:
        results = [str(convert(r, tactic, "none").result) for r in crt_row(diff)]
    return {"legal": True, "command": cmd, "differential": diff,
            "column": ctx.rs.crt_column_label(ctx.rs.crt_column(diff)), "results": results,
            "tactic": {"tactic": tactic, "label": TACTIC_LABEL[tactic], "rule": TACTIC_RULE.get(tactic, "7.13")},
            "coordination": coordination, "leaders": dict(plan["leaders"]), "support": list(plan["support"]),
            "modifiers": modifiers,
            "attackers": [part(a) for a in bd.attackers if a.unit in attackers],
            "support_fire": [part(a) for a in bd.attackers if a.unit not in attackers],
            "defenders": [part(d) for d in bd.defenders],
            "note": "the defender may name fewer units (7.4), answer with a tactic (7.13) and add leaders (10.3); "
                    "results are read through the attacker's tactic"}


def preview_bombard(game: Game, side: str, cmd: dict[str, Any]) -> dict[str, Any]:
    """A bombardment judged as `submit` would: its fire groups (8.4, with any coordinating leader) and, for each enemy
    unit of the hex, each group's strength (doubled against cavalry, 9.2(4)) and the six results of its column read
    per 8.5 (R12)."""
    ctx = StdCtx.of(game)
    st = game.state
    if game.awaiting != side or st.decision is not None:
        return {"legal": False, "rule": "8.4", "message": "artillery bombards in its own combat phase, with no decision "
                                                          "pending", "command": cmd}
    try:
        target, fire = bombard.bombard_check(ctx, side, cmd)
    except IllegalCommand as e:
        return {"legal": False, "rule": e.rule, "message": e.message, "command": cmd}
    groups = []
    for g, leader in fire:
        per_unit = []
        for u in sorted(ctx.combat_units_at(target, ctx.enemy(side))):
            total, cavalry = bombard.strength(ctx, g, u)
            per_unit.append({"unit": u, "strength": total, "doubled": "9.2(4)" if cavalry else None,
                             "results": [str(bombardment_result(total, die)) for die in range(1, 7)]})
        groups.append({"artillery": g, "coordinator": leader, "rule": "8.4", "targets": per_unit})
    return {"legal": True, "command": cmd, "groups": groups,
            "note": "8.4: each fire group bombards separately, at one unit chosen when it fires; batteries fire "
                    "together only when stacked with or adjacent to one another or to a coordinating leader; "
                    "8.5: A and parenthesised results are ignored"}
