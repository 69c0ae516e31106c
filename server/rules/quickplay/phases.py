"""The turn (3.3): set-up (3.2), phase changes, over-stacking (5.0, R4), recovery (11.3-11.4, R10),
counterattacks (7.3, R8), objective control and victory (3.4, 14.0)."""

from __future__ import annotations

from functools import partial
from typing import Any

from ..kernel.core import Ctx
from ..kernel.procedures import (
    DECLINE_ALL,
    counterattack_choices,
    counterattack_movers,
    counterattack_moves,
    decline_option,
    declined_counterattack,
    finish_game,
    reset_combat_phase,
    reset_movement_phase,
)
from ..kernel.scenario import UnitKind
from ..kernel.setup import end_setup_side, parse_place, placement_hexes, setup_sides
from ..kernel.state import (
    STATUS_DEAD,
    STATUS_ELIMINATED,
    STATUS_MAP,
    STATUS_RETURNING,
    GameState,
    Phase,
)
from ..kernel.visibility import SECRET_REINFORCEMENTS, audience
from . import cavalry
from .combat import assign_leaders, eligible_leaders, participant_sets, preview
from .retreat import after_hex_loses_units
from .victory import final_result, sudden_death, update_control

_ELIMINATED = STATUS_ELIMINATED
__all__ = ["finish_game", "parse_place", "placement_hexes", "setup_sides"]  # the kernel's (setup.py, procedures.py)


def finish_setup_side(ctx: Ctx, side: str) -> None:
    """V23: a side's placements stay private while it places and are shown when it finishes (a reveal)."""
    end_setup_side(ctx, side, lambda: enter_phase(ctx, ctx.sc.first_player, Phase.MOVEMENT))


# --- phase changes (3.3) ---------------------------------------------------------------
def phase_order(ctx: Ctx) -> list[tuple[str, Phase]]:
    a, b = ctx.sc.first_player, ctx.sc.second_player
    return [(a, Phase.MOVEMENT), (a, Phase.RECOVERY), (a, Phase.COMBAT), (b, Phase.MOVEMENT), (b, Phase.RECOVERY), (b, Phase.COMBAT)]


def end_phase(ctx: Ctx) -> None:
    st = ctx.st
    phase = Phase(st.phase)
    if phase is Phase.MOVEMENT:
        overstacking_check(ctx, "5.0")
    elif phase is Phase.RECOVERY:
        automatic_recovery(ctx, st.active)
    elif phase is Phase.COMBAT:
        cavalry.end_of_combat_phase(ctx)
        overstacking_check(ctx, "5.0")
    order = phase_order(ctx)
    i = order.index((st.active, phase))
    if i == len(order) - 1:
        if end_of_turn(ctx):
            return
        enter_phase(ctx, *order[0])
    else:
        enter_phase(ctx, *order[i + 1])


def enter_phase(ctx: Ctx, side: str, phase: Phase) -> None:
    st = ctx.st
    st.phase = phase.value
    st.active = side
    label = f"{ctx.sc.sides[side].name} {phase.value} phase, turn {st.turn} ({ctx.sc.turn_label(st.turn)})"
    ctx.emit("phase", f"3.3: {label}", phase=phase.value, side=side, turn=st.turn)
    if phase is Phase.MOVEMENT:
        reset_movement_phase(ctx, side)
    elif phase is Phase.RECOVERY:
        st.recovery_tried = []
        if not recovery_possible(ctx, side):
            end_phase(ctx)
    elif phase is Phase.COMBAT:
        reset_combat_phase(ctx, counterattack_eligible(ctx, side))


def end_of_turn(ctx: Ctx) -> bool:
    """The turn marker phase: sudden death, the last turn, or the next turn. True when the game is over."""
    st = ctx.st
    # An advance or retreat made by the command that ends the turn has not been scored yet (3.4).
    update_control(ctx)
    sd = sudden_death(ctx)
    if sd is not None:
        finish_game(ctx, sd)
        return True
    if st.turn >= ctx.sc.turns:
        finish_game(ctx, final_result(ctx))
        return True
    st.turn += 1
    return False


# --- over-stacking (5.0, R4) ------------------------------------------------------------
def overstacking_check(ctx: Ctx, rule: str) -> None:
    # A hex of three units or fewer is never over-stacked (R4), so only the crowded ones are looked at.
    for hex_, uids in sorted((h, us) for h, us in ctx.occupancy().items() if len(us) > 3):
        for side in ctx.sc.side_order:
            mine = [u for u in uids if ctx.side_of(u) == side]
            if ctx.rs.stacking_ok([ctx.kind(u) for u in mine]):
                continue
            ctx.emit("overstacked", f"{rule}: {hex_} is over-stacked: its units are disrupted or made ineffective",
                     hex=hex_, rule=rule)
            for u in mine:
                if not ctx.is_leader(u):
                    ctx.disrupt_or_ineffective(u, rule)


# --- recovery (11.3, 11.4, R10) ------------------------------------------------------------
def recover_problem(ctx: Ctx, side: str, uid: str) -> tuple[str, str] | None:
    st = ctx.st
    if uid not in ctx.sc.units or ctx.side_of(uid) != side:
        return "11.4", f"{uid} is not one of your units"
    if st.replacements.get(side, 0) <= 0:
        return "11.4", "you have no replacement steps left"
    if uid in st.recovery_tried:
        return "11.4", f"{ctx.name(uid)} has already tried to recover this phase"
    s = st.units[uid]
    d = ctx.d(uid)
    if s.status == STATUS_ELIMINATED:
        return None
    if s.status != STATUS_MAP:
        return "11.4", f"{ctx.name(uid)} is neither on the map nor eliminated"
    if not (d.steps == 2 and s.reduced):
        return "11.4", f"{ctx.name(uid)} has no lost step to recover"
    if s.moved:
        return "11.4", f"{ctx.name(uid)} moved this turn and may not recover a step"
    assert s.hex is not None
    if ctx.nearest_enemy_distance(s.hex, side) < 2:
        return "11.4", f"{ctx.name(uid)} is next to the enemy; step recovery needs two hexes' distance"
    return None


def recovery_possible(ctx: Ctx, side: str) -> bool:
    if ctx.st.replacements.get(side, 0) <= 0:
        return False  # recover_problem's first refusal for every unit, found once
    units = ctx.st.units
    # Only an eliminated unit or a reduced one on the map can be without a problem (recover_problem);
    # the others are passed over before it is asked (issue 16: it runs at every recovery phase's start).
    return any(recover_problem(ctx, side, uid) is None for uid in ctx.sc.side_units[side]
               if not ctx.is_leader(uid) and (units[uid].status == _ELIMINATED
                                              or (units[uid].status == STATUS_MAP and units[uid].reduced)))


def supporting_leader(ctx: Ctx, uid: str, used: set[str], requested: str | None = None) -> str | None:
    """10.0(5): one leader of the unit's formation in its hex adds its morale to one recovering unit."""
    hex_ = ctx.u(uid).hex
    if hex_ is None:
        return None
    candidates = [
        l for l in ctx.units_at(hex_)
        if ctx.is_leader(l) and ctx.side_of(l) == ctx.side_of(uid) and not ctx.u(l).ineffective
        and ctx.helps(l, uid) and l not in used
    ]
    if requested is not None:
        return requested if requested in candidates else None
    return max(candidates, key=lambda l: (ctx.leader_factors(l).morale, l), default=None)


def recover_step(ctx: Ctx, side: str, uid: str, leader: str | None) -> None:
    st = ctx.st
    st.replacements[side] -= 1
    st.recovery_tried.append(uid)
    s = st.units[uid]
    d = ctx.d(uid)
    if s.status == STATUS_ELIMINATED:
        # 11.4 with hidden reinforcements: the die, the return and the loss are the side's secret; the
        # opponent learns only that an eliminated unit tried (the same whatever the die), and its view
        # shows the unit eliminated either way (views.unit_view).
        secret = audience(ctx.sc, side, SECRET_REINFORCEMENTS)
        if secret is not None:
            ctx.emit("recovery_attempt", f"11.4: {ctx.sc.sides[side].name} tries step recovery of an eliminated unit",
                     side=side, rule="11.4")
        with ctx.private_to(secret):
            _recover_eliminated(ctx, side, uid)
        return
    ldr = supporting_leader(ctx, uid, set(), leader)
    rating = ctx.mr(uid) + (ctx.leader_factors(ldr).morale if ldr else 0)
    (die,) = ctx.roll(1, f"step recovery of {d.name}", ["morale die"], "11.4", unit=uid)
    if ctx.rs.morale_passes(die, rating):
        s.reduced = False
        ctx.emit("recovered_step", f"11.4: {d.name} recovers its lost step", unit=uid, rule="11.4")
    else:
        ctx.emit("recovery_failed", f"11.4: {d.name} fails to recover its step", unit=uid, rule="11.4")


def _recover_eliminated(ctx: Ctx, side: str, uid: str) -> None:
    st = ctx.st
    s = st.units[uid]
    d = ctx.d(uid)
    side_factors = d.reduced if d.reduced is not None else d.full
    rating = side_factors.mr
    (die,) = ctx.roll(1, f"step recovery of {d.name}", ["morale die"], "11.4", unit=uid)
    arrive = st.turn + die
    if ctx.rs.morale_passes(die, rating) and arrive <= ctx.sc.turns:
        s.status = STATUS_RETURNING
        s.entry_turn = arrive
        s.entry_hex = ctx.sc.sides[side].return_hexes[0]
        s.reduced = d.steps == 2
        s.disrupted = s.ineffective = False
        ctx.emit("returns", f"11.4: {d.name} will return on turn {arrive} at {s.entry_hex}", unit=uid, turn=arrive,
                 rule="11.4")
    else:
        s.status = STATUS_DEAD
        why = "fails its check" if not ctx.rs.morale_passes(die, rating) else "would return after the last turn"
        ctx.emit("lost", f"11.4: {d.name} {why} and is out of the game", unit=uid, rule="11.4")


def automatic_recovery(ctx: Ctx, side: str) -> None:
    """R10 steps 2-4: disrupted units, then ineffective units, then ineffective leaders (11.3)."""
    st = ctx.st
    used: set[str] = set()
    for want in ("disrupted", "ineffective", "leader"):
        for uid in ctx.sc.side_units[side]:
            s = st.units[uid]
            if s.status != STATUS_MAP or s.hex is None:
                continue
            is_leader = ctx.is_leader(uid)
            if want == "leader":
                if not (is_leader and s.ineffective):
                    continue
            elif is_leader or not getattr(s, want):
                continue
            if ctx.nearest_enemy_distance(s.hex, side) < 2:
                continue
            name = ctx.name(uid)
            if not s.moved or is_leader:
                _clear(ctx, uid)
                ctx.emit("recovered", f"11.3: {name} recovers (did not move)" if not s.moved else f"11.3: {name} recovers",
                         unit=uid, rule="11.3")
                continue
            if s.start_ezoc or ctx.in_ezoc(s.hex, side):
                continue
            ldr = supporting_leader(ctx, uid, used)
            if ldr:
                used.add(ldr)
            rating = ctx.mr(uid) + (ctx.leader_factors(ldr).morale if ldr else 0)
            (die,) = ctx.roll(1, f"recovery of {name}", ["morale die"], "11.3", unit=uid)
            if ctx.rs.morale_passes(die, rating):
                _clear(ctx, uid)
                ctx.emit("recovered", f"11.3: {name} recovers (morale {die} against {rating})", unit=uid, rule="11.3")
            else:
                ctx.emit("recovery_failed", f"11.3: {name} does not recover (morale {die} against {rating})", unit=uid, rule="11.3")


def _clear(ctx: Ctx, uid: str) -> None:
    s = ctx.u(uid)
    s.disrupted = False
    s.ineffective = False
    ctx.dirty()


# --- counterattacks (7.3, R8) ----------------------------------------------------------------
def counterattack_eligible(ctx: Ctx, phasing: str) -> list[str]:
    """R8: non-phasing units exerting a ZOC on a phasing unit at the start of the combat phase."""
    other = ctx.enemy(phasing)
    phasing_hexes = {ctx.u(u).hex for u in ctx.side_units_on_map(phasing) if not ctx.is_leader(u)}
    # A unit that exerts a ZOC is eligible when a hex it projects that ZOC into (`zoc_targets`, its
    # neighbours the terrain lets it reach: the same table `zoc_sources` reads from the other side)
    # holds a phasing unit. Asked once per non-phasing unit, not once per phasing hex and neighbour
    # (issue 16: on a large map this was a few percent of a command's handling).
    targets = ctx.sc.zoc_targets
    out = []
    for uid in ctx.side_units_on_map(other):
        if not ctx.exerts_zoc(uid):
            continue
        hex_ = ctx.u(uid).hex
        assert hex_ is not None
        if not phasing_hexes.isdisjoint(targets[hex_]):
            out.append(uid)
    return sorted(out)


def counterattack_options(ctx: Ctx) -> list[dict[str, Any]]:
    st = ctx.st
    phasing = st.active
    side = ctx.enemy(phasing)
    by_hex: dict[str, list[str]] = {}
    for uid in st.ca_eligible:
        s = st.units[uid]
        # R8: a unit counterattacks at most once, even from a hex it moved or advanced into.
        if s.status != STATUS_MAP or s.hex is None or s.ineffective or s.attacked or s.hex in st.ca_done_hexes:
            continue
        if ctx.factors(uid).attack <= 0:
            continue
        by_hex.setdefault(s.hex, []).append(uid)
    options: list[dict[str, Any]] = []
    for hex_, uids in sorted(by_hex.items()):
        sets = participant_sets(ctx, hex_, uids)
        if not sets:
            continue
        group = max(sets, key=lambda g: sum(ctx.factors(u).attack for u in g))
        # R8: with no enemy left adjacent, the hex may first move one hex (EZOC to EZOC allowed).
        for move_to, target in counterattack_moves(ctx, hex_, group):
            origin = move_to or hex_
            attackers = [u for u in group if ctx.can_enter_terrain(ctx.d(u).tec_class, origin, target)]
            # 8.1(3)-(4): artillery attacks only enemy hexes exerting a ZOC on it, and never after moving.
            attackers = [u for u in attackers if ctx.kind(u) is not UnitKind.ARTILLERY
                         or (move_to is None and target in ctx.zoc_sources(hex_, side))]
            if not attackers:
                continue
            options += counterattack_choices(ctx, hex_, move_to, target, attackers,
                                             partial(counterattack_preview, ctx, hex_, move_to, target, attackers))
        options.append(decline_option(hex_))
    if options:
        options.append(DECLINE_ALL)
    return options


def counterattack_preview(ctx: Ctx, hex_: str, move_to: str | None, target: str, attackers: list[str],
                          primary: str) -> dict[str, Any]:
    """7.3: the odds of one counterattack choice, as apply_counterattack_choice would fight it (a trial copy of
    the state when the hex first moves one hex, R8)."""
    side = ctx.enemy(ctx.st.active)
    if move_to:
        trial = Ctx(ctx.sc, GameState.from_json(ctx.st.to_json()), ctx.rs, ctx.dice)
        for u in counterattack_movers(trial, hex_, side, attackers):
            trial.move_unit(u, move_to)
        ctx = trial
    origin = move_to or hex_
    c: dict[str, Any] = {
        "kind": "counterattack", "attacker": side, "defender": ctx.st.active, "target": target,
        "attackers": list(attackers), "primary": primary, "support": [], "leader_to": {}, "morale_from": {},
    }
    assign_leaders(ctx, c, side, eligible_leaders(ctx, origin, side, attackers)[:1], attackers, primary)
    p = preview(ctx, c)
    return {k: p[k] for k in ("attack", "defense", "differential", "column_label", "results", "odds")}


def run_counterattacks(ctx: Ctx, task: dict[str, Any]) -> None:
    st = ctx.st
    options = counterattack_options(ctx)
    if not options:
        st.tasks.append({"t": "combat_phase_end"})
        return
    st.decision = {
        "kind": "counterattack",
        "side": ctx.enemy(st.active),
        "rule": "7.3",
        "text": "Your units that were not attacked this turn may counterattack an adjacent enemy hex at double "
                "strength: choose a counterattack, or decline (rule 7.3)",
        "task": task,
        "options": options,
        "hexes": sorted({o["from"] for o in options if "from" in o}),
    }


def apply_counterattack_choice(ctx: Ctx, task: dict[str, Any], option: dict[str, Any]) -> None:
    st = ctx.st
    if declined_counterattack(ctx, option, "7.3"):
        return
    hex_ = option["from"]
    side = ctx.enemy(st.active)
    attackers = option["attackers"]
    if option.get("move_to"):
        movers = counterattack_movers(ctx, hex_, side, attackers)
        for u in movers:
            ctx.move_unit(u, option["move_to"])
        ctx.emit("move", f"7.3: {ctx.names(movers)} move to {option['move_to']} to counterattack",
                 units=movers, path=[hex_, option["move_to"]], rule="7.3")
        after_hex_loses_units(ctx, hex_, side)  # a square left without its infantry goes (R9)
    origin = option.get("move_to") or hex_
    c: dict[str, Any] = {
        "kind": "counterattack", "attacker": side, "defender": st.active, "target": option["target"],
        "attackers": list(attackers), "primary": option["primary"], "support": [],
        "leader_to": {}, "morale_from": {},
    }
    leaders = eligible_leaders(ctx, origin, side, attackers)[:1]
    assign_leaders(ctx, c, side, leaders, attackers, option["primary"])
    for u in attackers:
        st.units[u].attacked = True
    c.setdefault("log", [])
    st.combat = c
    ctx.emit("combat_declared", f"7.3: {ctx.names(attackers)} counterattack {option['target']} at double strength",
             attackers=attackers, target=option["target"], kind="counterattack", support=[])
    st.tasks.append({"t": "combat_resolve"})
    st.tasks.append({"t": "combat_defenders"})
