"""Quick Play 2013's page options: what a side's units may do now, and the odds of one exact attack or bombardment
(the edition's `options` and `preview` hooks).  Both only read the state and use the validation `Game.submit`
uses, so the page never offers what the referee would refuse."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..kernel.core import Ctx
from ..kernel.errors import IllegalCommand
from ..kernel.procedures import attack_choices
from ..kernel.scenario import UnitKind
from ..kernel.setup import placement_hexes
from ..kernel.state import PHASE_COMBAT, PHASE_MOVEMENT, PHASE_SETUP
from . import artillery, cavalry, combat, movement
from .crt import column_label, crt_row
from .legal import recover_commands, square_commands
from .stacking import participant_sets

if TYPE_CHECKING:
    from ..kernel.game import Game


def unit_options(game: Game, side: str, units: list[str]) -> dict[str, Any]:
    ctx = Ctx.of(game)
    st = game.state
    units = [u for u in units if u in game.scenario.units and game.scenario.units[u].side == side]
    out: dict[str, Any] = {"units": units, "phase": st.phase, "active": st.active}
    if game.awaiting != side or st.decision is not None:
        out["decision"] = st.decision is not None
        return out
    if st.phase == PHASE_SETUP and st.active == side:
        out["placements"] = {p.unit: {"listed": p.hex, "within": p.within,
                                      "hexes": [h for h in placement_hexes(ctx, p.unit) if h != ctx.u(p.unit).hex]}
                             for p in ctx.sc.setup
                             if p.within > 0 and ctx.side_of(p.unit) == side and (not units or p.unit in units)}
    if st.phase == PHASE_MOVEMENT and st.active == side:
        out["recovery"] = [c["unit"] for c in recover_commands(ctx, side)]
        if units:
            movement_options(ctx, side, units, out)
    if st.phase == PHASE_COMBAT and st.active == side and not st.ca_stage:
        out["attacks"] = attack_previews(ctx, side, units)
        out["bombard"] = bombard_previews(ctx, side, units)
        out["charges"] = [c for c in cavalry.legal_charges(ctx, side) if not units or set(c["chargers"]) & set(units)]
        out["charge_previews"] = [cavalry.charge_preview(ctx, side, c) for c in out["charges"]]
    return out


def movement_options(ctx: Ctx, side: str, units: list[str], out: dict[str, Any]) -> None:
    """4.1-4.6: the hexes the selection may reach (march movement marked, 4.3), or first its roll (11.1(2))."""
    unrolled = movement.needs_roll(ctx, units)
    if unrolled:
        out["roll_ma"] = {"type": "roll_ma", "units": unrolled, "rule": "11.1(2)"}
    else:
        try:
            group = movement.build_group(ctx, side, units)
        except IllegalCommand as e:
            out["move_error"] = e.to_json()
        else:
            out["ma"] = group.ma_halves / movement.HALF
            out["march_ma"] = group.march_halves / movement.HALF
            out["reachable"] = {h: {"cost": r.cost / movement.HALF, "path": r.path, "ends_move": r.ends_move,
                                    "march": r.march}
                                for h, r in sorted(movement.reachable(ctx, group).items())}
            out["charges"] = [c for c in cavalry.legal_charge_moves(ctx, side) if sorted(c["units"]) == sorted(units)]
    hexes = {h for u in units if (h := ctx.u(u).hex) is not None}
    out["squares"] = [c for c in square_commands(ctx, side) if c["hex"] in hexes]


def attack_previews(ctx: Ctx, side: str, units: list[str]) -> list[dict[str, Any]]:
    """For each enemy hex next to a selected unit: the choices the selection offers against it (who may attack, 7.1,
    7.3; which guns may add their factor, 8.2; which leaders may lend theirs, 10.0), the attack the page proposes
    (the largest legal set from each hex, 5.0; one leader per hex; every gun that may bombard in support) with its
    odds, or its refusal."""
    enemy = ctx.enemy(side)
    targets = sorted({n for u in units if not ctx.is_leader(u) and (h := ctx.u(u).hex) is not None
                      for n in ctx.sc.grid.neighbors(h) if ctx.combat_units_at(n, enemy)})
    previews = []
    for t in targets:
        choices = attack_choices(ctx, side, units, t, combat.check_attacker, artillery.bombard_problem)
        cmd = default_attack(ctx, side, choices, t)
        try:
            c = combat.parse_attack(ctx, side, cmd)
        except IllegalCommand as e:
            previews.append({"target": t, "legal": False, "rule": e.rule, "message": e.message, "command": cmd,
                             "choices": choices})
            continue
        previews.append({"target": t, "legal": True, "command": cmd, "choices": choices, **combat.preview(ctx, c)})
    return previews


def default_attack(ctx: Ctx, side: str, choices: dict[str, Any], target: str) -> dict[str, Any]:
    """The attack the page proposes first: from each hex that may still attack `target` its largest legal set of
    participants (5.0), a non-artillery primary where there is one, one leader per hex (10.0), and every gun that
    may bombard in support but does not attack (8.2)."""
    by_hex: dict[str, list[str]] = {}
    for u in choices["attackers"]:
        by_hex.setdefault(ctx.u(u).hex or "", []).append(u)
    chosen: list[str] = []
    leaders: list[str] = []
    for hex_, uids in sorted(by_hex.items()):
        if ctx.st.attack_from.get(hex_, target) != target:
            continue
        sets = participant_sets(ctx, hex_, uids)
        if sets:
            chosen.extend(sets[0])
            leaders.extend(l for l in combat.eligible_leaders(ctx, hex_, side, sets[0])[:1] if l in choices["leaders"])
    primary = next((u for u in chosen if ctx.kind(u) is not UnitKind.ARTILLERY), chosen[0] if chosen else None)
    # with nobody able to take part, the units that cannot: the referee's refusal then says why
    cmd: dict[str, Any] = {"type": "attack", "target": target, "primary": primary,
                           "attackers": chosen or list(choices["attackers"]) or [r["unit"] for r in choices["refused"]]}
    if leaders:
        cmd["leaders"] = leaders
    support = [g for g in choices["support"] if g not in chosen]
    if support:
        cmd["support"] = support
    return cmd


def bombard_previews(ctx: Ctx, side: str, units: list[str]) -> list[dict[str, Any]]:
    guns = [u for u in units if ctx.kind(u) is UnitKind.ARTILLERY and ctx.u(u).hex is not None]
    if not guns:
        return []
    targets = sorted(set.intersection(*(set(artillery.bombard_targets(ctx, side, g)) for g in guns)))
    return [bombard_preview(ctx, side, {"type": "bombard", "target": t, "artillery": guns}) for t in targets]


def bombard_preview(ctx: Ctx, side: str, cmd: dict[str, Any]) -> dict[str, Any]:
    b = artillery.parse_bombard(ctx, side, cmd)
    per_unit = []
    for uid in sorted(ctx.combat_units_at(b["target"], ctx.enemy(side))):
        diff, notes = artillery.bombard_differential(ctx, b, uid)
        row = crt_row(diff)
        per_unit.append({"unit": uid, "differential": diff, "notes": notes, "results": row,
                         "odds": {r: round(row.count(r) / 6, 4) for r in dict.fromkeys(row)},
                         "column_label": column_label(diff), "morale": ctx.factors(uid).mr})
    return {"target": b["target"], "command": cmd, "targets": per_unit}


def preview_command(game: Game, side: str, cmd: Any) -> dict[str, Any]:
    ctx = Ctx.of(game)
    st = game.state
    if not isinstance(cmd, dict) or cmd.get("type") not in ("attack", "bombard"):
        raise IllegalCommand("7.1", "only an attack or a bombardment can be previewed")
    if game.awaiting != side or st.decision is not None or st.phase != PHASE_COMBAT or st.active != side:
        return {"legal": False, "rule": "7.1", "message": "attacks are made in your own combat phase, with no decision pending",
                "command": cmd}
    if st.ca_stage:
        return {"legal": False, "rule": "7.2", "message": "the counterattacks have begun", "command": cmd}
    try:
        if cmd["type"] == "attack":
            return {"legal": True, "command": cmd, **combat.preview(ctx, combat.parse_attack(ctx, side, cmd))}
        return {"legal": True, **bombard_preview(ctx, side, cmd)}
    except IllegalCommand as e:
        return {"legal": False, "rule": e.rule, "message": e.message, "command": cmd}
