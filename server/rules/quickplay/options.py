"""Quick Play's page options: what a side's units may do now, as the page shows it (the options behind
every page action). The edition's `options` and `preview` hooks (quickplay/ruleset.py) call these.

`unit_options` answers the client's "what may these units do?" for a selection (units of one or several
hexes, or reinforcements waiting off the map); `preview_command` judges one exact attack or bombardment
without applying it and returns its odds. Both only read the state, and both use the same validation as
`Game.submit`, so the page never offers what the referee would refuse.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..kernel.core import Ctx
from ..kernel.errors import IllegalCommand
from ..kernel.procedures import attack_choices as kernel_attack_choices
from ..kernel.scenario import UnitKind
from ..kernel.state import (
    PHASE_COMBAT,
    PHASE_MOVEMENT,
    PHASE_RECOVERY,
    PHASE_SETUP,
    STATUS_ELIMINATED,
    STATUS_MAP,
)
from . import artillery, cavalry, combat, movement, phases
from .legal import square_commands

if TYPE_CHECKING:
    from ..kernel.game import Game


def unit_options(game: Game, side: str, units: list[str]) -> dict[str, Any]:
    """Legal options for the named units (reachable hexes with cost and path, placements, squares,
    attack targets with their exact command, choices and odds, bombardment targets, charges), and
    the phase-wide options that need no selection (recovery candidates, set-up placements)."""
    ctx = Ctx.of(game)
    st = game.state
    units = [u for u in units if u in game.scenario.units and game.scenario.units[u].side == side]
    out: dict[str, Any] = {"units": units, "phase": st.phase, "active": st.active}
    if game.awaiting != side or st.decision is not None:
        out["decision"] = st.decision is not None
        return out
    if st.phase == PHASE_SETUP and st.active == side:
        out["placements"] = setup_placements(ctx, side, units)
    if st.phase == PHASE_RECOVERY and st.active == side:
        out["recovery"] = recovery_candidates(ctx, side)
    if st.phase == PHASE_MOVEMENT and st.active == side and units:
        try:
            group = movement.build_group(ctx, side, units)
        except IllegalCommand as e:
            out["move_error"] = e.to_json()
        else:
            reach = movement.reachable(ctx, group)
            out["ma"] = group.ma_halves / movement.HALF
            out["reachable"] = {h: {"cost": r.cost / movement.HALF, "path": r.path, "ends_move": r.ends_move}
                                for h, r in sorted(reach.items())}
            out["charges"] = [c for c in cavalry.legal_charge_moves(ctx, side) if sorted(c["units"]) == sorted(units)]
        hexes = {h for u in units if (h := ctx.u(u).hex) is not None}
        out["squares"] = [c for c in square_commands(game, ctx, side) if c["hex"] in hexes]
    if st.phase == PHASE_COMBAT and st.active == side and not st.ca_stage:
        out["attacks"] = attack_previews(game, ctx, side, units)
        out["bombard"] = bombard_previews(game, ctx, side, units)
        out["charges"] = [c for c in cavalry.legal_charges(ctx, side)
                          if not units or set(c.get("chargers", [])) & set(units)]
        out["charge_previews"] = [cavalry.charge_preview(ctx, side, c) for c in out["charges"]]
    return out


def setup_placements(ctx: Ctx, side: str, units: list[str]) -> dict[str, Any]:
    """3.2: every own unit that may be placed within some hexes of its listed hex (all of them when
    no unit is named), with its listed hex, its allowance and the hexes it may take."""
    out: dict[str, Any] = {}
    for p in ctx.sc.setup:
        if p.within <= 0 or ctx.side_of(p.unit) != side or (units and p.unit not in units):
            continue
        here = ctx.u(p.unit).hex
        out[p.unit] = {"listed": p.hex, "within": p.within,
                       "hexes": [h for h in phases.placement_hexes(ctx, p.unit) if h != here]}
    return out


def recovery_candidates(ctx: Ctx, side: str) -> list[dict[str, Any]]:
    """11.4: each own unit that could try step recovery (a reduced two-step unit on the map, or an
    eliminated unit), whether it may now, the rule and reason when not, the morale it must roll
    under, and the leaders who may support it (10.0(5))."""
    out: list[dict[str, Any]] = []
    for uid in ctx.sc.side_units[side]:
        if ctx.is_leader(uid):
            continue
        s = ctx.u(uid)
        d = ctx.d(uid)
        eliminated = s.status == STATUS_ELIMINATED
        if not eliminated and not (s.status == STATUS_MAP and d.steps == 2 and s.reduced):
            continue
        problem = phases.recover_problem(ctx, side, uid)
        row: dict[str, Any] = {"unit": uid, "eliminated": eliminated, "hex": s.hex, "ok": problem is None}
        if problem is not None:
            row["rule"], row["message"] = problem
        if eliminated:
            side_factors = d.reduced if d.reduced is not None else d.full
            row["morale"] = side_factors.mr
            row["leaders"] = []
        else:
            row["morale"] = ctx.mr(uid)
            hex_ = s.hex or ""
            row["leaders"] = [
                {"id": ldr, "morale": ctx.leader_factors(ldr).morale}
                for ldr in sorted(ctx.units_at(hex_))
                if phases.supporting_leader(ctx, uid, set(), ldr) == ldr
            ]
        out.append(row)
    return out


def attack_previews(game: Game, ctx: Ctx, side: str, units: list[str]) -> list[dict[str, Any]]:
    """For each enemy hex next to a selected unit: the choices the selection offers against it (who may
    attack from which hex, which leaders may join, which artillery may support), the default command
    the page proposes (every unit that may take part, one leader per hex, every supporting gun) and
    its odds, or the rule that forbids it."""
    enemy = ctx.enemy(side)
    attackers_sel = [u for u in units if not ctx.is_leader(u) and ctx.u(u).hex is not None]
    targets: set[str] = set()
    for u in attackers_sel:
        h = ctx.u(u).hex
        assert h is not None
        targets.update(n for n in game.scenario.grid.neighbors(h) if ctx.combat_units_at(n, enemy))
    previews = []
    for t in sorted(targets):
        choices = attack_choices(ctx, side, units, t)
        cmd = default_attack(ctx, side, choices, t)
        try:
            c = combat.parse_attack(ctx, side, cmd)
        except IllegalCommand as e:
            previews.append({"target": t, "legal": False, "rule": e.rule, "message": e.message, "command": cmd,
                             "choices": choices})
            continue
        previews.append({"target": t, "legal": True, "command": cmd, "choices": choices, **combat.preview(ctx, c)})
    return previews


def attack_choices(ctx: Ctx, side: str, units: list[str], target: str) -> dict[str, Any]:
    """Which selected units may attack `target` (7.1), support it with artillery fire (8.4) or lend
    it a leader (10.0); the refusals of the others, with their rule."""
    return kernel_attack_choices(ctx, side, units, target, combat.check_attacker, artillery.bombard_problem)


def default_attack(ctx: Ctx, side: str, choices: dict[str, Any], target: str) -> dict[str, Any]:
    """The attack the page proposes first: from each hex its largest legal set of participants
    (R6), the primary a non-artillery unit where there is one, one leader per hex that can lend its
    factors, and every gun that may support but does not attack."""
    by_hex: dict[str, list[str]] = {}
    for u in choices["attackers"]:
        by_hex.setdefault(ctx.u(u).hex or "", []).append(u)
    chosen: list[str] = []
    for hex_, uids in sorted(by_hex.items()):
        if ctx.st.attack_from.get(hex_, target) != target:
            continue
        sets = combat.participant_sets(ctx, hex_, uids)
        if sets:
            chosen.extend(sets[0])
    primary = next((u for u in chosen if ctx.kind(u) is not UnitKind.ARTILLERY), chosen[0] if chosen else None)
    leaders: list[str] = []
    for hex_ in sorted({ctx.u(u).hex or "" for u in chosen}):
        for ldr in choices["leaders"]:
            if ctx.u(ldr).hex == hex_ and combat.leader_recipient(ctx, ldr, chosen, primary) is not None:
                leaders.append(ldr)
                break
    cmd: dict[str, Any] = {"type": "attack", "target": target, "attackers": chosen, "primary": primary}
    if leaders:
        cmd["leaders"] = leaders
    support = [g for g in choices["support"] if g not in chosen]
    if support:
        cmd["support"] = support
    return cmd


def bombard_previews(game: Game, ctx: Ctx, side: str, units: list[str]) -> list[dict[str, Any]]:
    """Bombardment targets every selected gun can reach (8.2–8.4), with each gun's range and each
    defending unit's differential, CRT row and odds."""
    guns = [u for u in units if ctx.kind(u) is UnitKind.ARTILLERY and ctx.u(u).hex is not None]
    if not guns:
        return []
    targets = sorted(set.intersection(*(set(artillery.bombard_targets(ctx, side, g)) for g in guns)))
    return [bombard_preview(game, ctx, side, {"type": "bombard", "target": t, "artillery": guns}) for t in targets]


def bombard_preview(game: Game, ctx: Ctx, side: str, cmd: dict[str, Any]) -> dict[str, Any]:
    b = artillery.parse_bombard(ctx, side, cmd)
    t = b["target"]
    per_unit = []
    for uid in sorted(ctx.combat_units_at(t, ctx.enemy(side))):
        diff, notes = artillery.bombard_differential(ctx, b, uid)
        row = game.ruleset.crt_row(diff)
        per_unit.append({"unit": uid, "differential": diff, "notes": notes, "results": row,
                         "odds": {r: round(row.count(r) / 6, 4) for r in dict.fromkeys(row)},
                         "column_label": game.ruleset.crt_column_label(game.ruleset.crt_column(diff)),
                         "morale": ctx.mr(uid)})
    ranges = {g: game.scenario.grid.distance(ctx.u(g).hex or "", t) for g in b["artillery"]}
    return {"target": t, "command": cmd, "range": ranges, "targets": per_unit}


def preview_command(game: Game, side: str, cmd: Any) -> dict[str, Any]:
    """Judge one exact attack or bombardment as `submit` would, without applying it: its odds, or
    the rule and sentence that refuse it."""
    ctx = Ctx.of(game)
    st = game.state
    if not isinstance(cmd, dict) or cmd.get("type") not in ("attack", "bombard"):
        raise IllegalCommand("7.0", "only an attack or a bombardment can be previewed")
    if game.awaiting != side or st.decision is not None or st.phase != PHASE_COMBAT or st.active != side:
        return {"legal": False, "rule": "7.0", "message": "attacks are made in your own combat phase, with no decision pending",
                "command": cmd}
    if st.ca_stage:
        return {"legal": False, "rule": "7.3", "message": "the counterattack stage has begun", "command": cmd}
    try:
        if cmd["type"] == "attack":
            c = combat.parse_attack(ctx, side, cmd)
            return {"legal": True, "command": cmd, **combat.preview(ctx, c)}
        return {"legal": True, **bombard_preview(game, ctx, side, cmd)}
    except IllegalCommand as e:
        return {"legal": False, "rule": e.rule, "message": e.message, "command": cmd}
