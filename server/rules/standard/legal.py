"""The Standard rules' legal commands, for the random player, bots, tests and the page's hints.

Every command yielded here passes the same validation `Game.submit` uses (the movement search checks each path
with `moving.validate_path`, attacks with `attacks.attack_check`); large spaces are sampled with the given RNG.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from itertools import combinations
from typing import TYPE_CHECKING, Any

from ..kernel.errors import IllegalCommand
from ..kernel.state import (
    PHASE_COMBAT,
    PHASE_MOVEMENT,
    PHASE_SETUP,
    STATUS_ELIMINATED,
    STATUS_HIDDEN,
    STATUS_MAP,
    STATUS_OFFBOARD,
    STATUS_RETURNING,
)
from . import attacks, hidden_setup, moving, mustering, setup
from .bombard import bombard_commands, support_problem
from .charges import charge_commands
from .context import StdCtx
from .hidden_moves import marker_commands
from .line import line_commands
from .line_fire import fire_commands
from .open_order import open_order_commands
from .recovering import recovery_mode_of
from .recovery import AUTOMATIC, extra_replacement_allowed, step_replaceable
from .scenario import Kind
from .squares import square_commands
from .tactics import in_span
from .turn import may_flip_ineffective

if TYPE_CHECKING:
    from ..kernel.game import Game

Family = Callable[[], list[dict[str, Any]]]


def _const(cmd: dict[str, Any]) -> Family:
    return lambda: [cmd]


def movable_groups(ctx: StdCtx, side: str) -> list[list[str]]:
    """Whole stacks and each unit of a stack alone, arriving reinforcements one at a time, the HQ and trains once
    flipped (12.1, 12.2), leaders alone."""
    st = ctx.st
    groups: list[list[str]] = []
    by_hex: dict[str, list[str]] = {}
    anchored = set(ctx.x.get("anchored", []))
    for uid in ctx.sc.side_units[side]:
        s = st.units[uid]
        if s.moved or uid in anchored:
            continue
        if s.status == STATUS_MAP and s.hex is not None:
            if ctx.kind(uid) in (Kind.HQ, Kind.TRAINS):
                if uid in ctx.x.get("flipped", []):
                    groups.append([uid])
                continue
            by_hex.setdefault(s.hex, []).append(uid)
        elif s.status == STATUS_OFFBOARD and s.entry_turn is not None and s.entry_turn <= st.turn:
            groups.append([uid])
    for _, uids in sorted(by_hex.items()):
        uids = sorted(uids)
        if any(ctx.kind(u).is_combat for u in uids):
            groups.append(uids)
        if len(uids) > 1:
            groups.extend([u] for u in uids)
    return groups + span_arrivals(ctx, [g[0] for g in groups if st.units[g[0]].status == STATUS_OFFBOARD])


def span_arrivals(ctx: StdCtx, due: list[str]) -> list[list[str]]:
    """17.4 (S60): each waiting leader who arrives with a unit of his span, with the first such unit due now."""
    arr = ctx.sc.arrivals
    out = []
    for ldr in (u for u in due if u in arr and arr[u].with_span):
        escort = next((u for u in due if not arr[u].with_span and in_span(ctx.sc, ldr, u)), None)
        if escort is not None:
            out.append([ldr, escort])
    return out


def _move_commands(ctx: StdCtx, side: str, g: list[str], rng: random.Random, cap: int = 8) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for march in (False, True):
        try:
            p = moving.plan(ctx, side, g, march)
        except IllegalCommand:
            continue
        if march and not moving.march_allowed(ctx, p):
            continue
        helper = _assisting_leader(ctx, side, p, march)
        if p.rolls:
            out.append({"type": "declare", "units": g, **({"march": True} if march else {})})
            if helper:
                out.append({"type": "declare", "units": g, "assist": helper})  # 10.3
            continue
        if helper:  # 10.3: a few moves only the leader's movement assist reaches
            ma2 = moving.assisted_ma(ctx, side, p, helper, march)
            reach2 = moving.reachable(ctx, side, p, ma2, march, check=False)
            far = [h for h in sorted(reach2) if moving.path_ok(ctx, side, p, reach2[h], ma2, march)]
            rng.shuffle(far)
            out.extend({"type": "move", "units": g, "path": reach2[h], "assist": helper} for h in sorted(far[:2]))
        try:
            ma = moving.printed_ma(ctx, p, march)
        except ValueError:
            continue
        reach = moving.reachable(ctx, side, p, ma, march, check=False)
        dests = sorted(reach)
        rng.shuffle(dests)
        chosen = []
        for d in dests:
            if moving.path_ok(ctx, side, p, reach[d], ma, march):
                chosen.append(d)
                if len(chosen) >= cap:
                    break
        for d in sorted(chosen):
            cmd: dict[str, Any] = {"type": "move", "units": g, "path": reach[d]}
            if march:
                cmd["march"] = True
            out.append(cmd)
        if p.kind == moving.STACK and not march and p.start and ctx.sc.grid.is_edge(p.start) and not p.disengaging \
                and rng.random() < 0.05:
            out.append({"type": "move", "units": g, "path": [p.start], "off_map": True})
    return out


def _assisting_leader(ctx: StdCtx, side: str, p: moving.Plan, march: bool) -> str | None:
    for u in p.units:
        if ctx.kind(u) is Kind.LEADER:
            try:
                moving.movement_assist(ctx, side, p, u, march)
            except IllegalCommand:
                continue
            return u
    return None


def _declared_moves(ctx: StdCtx, side: str, rng: random.Random, cap: int = 8) -> list[dict[str, Any]]:
    d = ctx.x["declared"]
    p = moving.plan(ctx, side, d["units"], d["march"])
    reach = moving.reachable(ctx, side, p, int(d["ma"]), d["march"], check=False)
    dests = sorted(reach)
    rng.shuffle(dests)
    ok: list[str] = []
    for h in dests:
        if len(ok) >= cap:
            break
        if moving.path_ok(ctx, side, p, reach[h], int(d["ma"]), d["march"]):
            ok.append(h)
    out: list[dict[str, Any]] = [{"type": "move", "units": d["units"], "path": reach[h]} for h in sorted(ok)]
    out.append({"type": "stay"})
    return out


def unit_actions(ctx: StdCtx, side: str) -> list[dict[str, Any]]:
    """Every movement-phase command of the side's units other than moves (the page's actions): flips (2.6, 12.1,
    12.2), recovery (11.1, 11.3), replacements (11.2) and re-entry (13.2)."""
    out: list[dict[str, Any]] = []
    for uid in ctx.sc.side_units[side]:
        out.extend(_unit_singles(ctx, side, uid))
    return out


def _unit_singles(ctx: StdCtx, side: str, uid: str) -> list[dict[str, Any]]:
    """One unit's movement-phase commands other than moves: flips (2.6, 12.1, 12.2), recovery (11.1, 11.3),
    replacement (11.2) and re-entry (13.2)."""
    st = ctx.st
    out: list[dict[str, Any]] = []
    s = st.units[uid]
    k = ctx.kind(uid)
    army_flip = k in (Kind.HQ, Kind.TRAINS) and uid not in ctx.x.get("flipped", []) \
        and uid not in ctx.x.get("lethargic", [])  # 12.1, 12.2, 19.5
    unit_flip = may_flip_ineffective(ctx.sc, s, st.active, st.phase, st.any_moved) is None  # 2.6
    if not st.any_moved and s.status == STATUS_MAP and (army_flip or unit_flip):
        out.append({"type": "flip", "unit": uid})
    if s.status == STATUS_MAP and moving.recover_problem(ctx, side, uid) is None:
        out.append({"type": "recover", "unit": uid})
        if recovery_mode_of(ctx, uid) != AUTOMATIC:
            for ldr in ctx.units_at(s.hex or ""):
                if ctx.kind(ldr) is Kind.LEADER and moving.recovery_assist_problem(ctx, side, uid, ldr) is None:
                    out.append({"type": "recover", "unit": uid, "assist": ldr})  # 10.3
                    break
    # (the probe copies the whole state: tried only for a unit 11.2 could restore at all)
    if k.is_combat and st.replacements.get(side, 0) > 0 and step_replaceable(ctx.sc, s) is None:
        try:
            probe = ctx.st.copy()
            trial = StdCtx(ctx.sc, probe, ctx.rs, ctx.dice)
            mustering.cmd_replace(trial, side, {"type": "replace", "unit": uid})
            out.append({"type": "replace", "unit": uid})
        except IllegalCommand:
            pass
    if k.is_combat and s.status == STATUS_ELIMINATED and uid not in ctx.x.get("mustered", []) \
            and extra_replacement_allowed(ctx.sc, s, leader_assisted=mustering.leader_assist(ctx, side, uid) is not None) is None:
        out.append({"type": "muster", "unit": uid})
    for h in mustering.reenter_options(ctx, side, uid):
        out.append({"type": "reenter", "unit": uid, "hex": h})
    out.extend(open_order_commands(ctx, side, uid))  # 19.10
    if s.status == STATUS_MAP:
        out.extend(line_commands(ctx, side, uid))  # 19.7: form, pivot, step back, leave
    return out


def _may_have_singles(ctx: StdCtx, uid: str) -> bool:
    """A cheap filter: units that could have a flip, recovery, replacement, re-entry or open-order (19.10) command at
    all."""
    s = ctx.st.units[uid]
    if s.status == STATUS_MAP:
        return (not ctx.st.any_moved) or uid in ctx.x.get("open_order", ()) or s.facing is not None or s.disrupted or s.ineffective or (s.reduced and ctx.st.replacements.get(ctx.side_of(uid), 0) > 0)
    return s.status in (STATUS_ELIMINATED, STATUS_RETURNING)


def attack_commands(ctx: StdCtx, side: str, rng: random.Random) -> list[dict[str, Any]]:
    """One legal attack per target hex with its units, and its variants: with the leaders that may join it (10.3),
    the leader that may coordinate it (7.14), the artillery that may support it (8.8), and each tactic its units
    may announce (7.13); skirmishes two hexes away (7.13(1)); declared charges (7.13(3))."""
    st = ctx.st
    out: list[dict[str, Any]] = [c for c in _charge_commands(ctx, side)]
    if ctx.light() == "night":
        return out
    enemy = ctx.enemy(side)
    targets: dict[str, dict[str, list[str]]] = {}
    for uid in ctx.side_units_on_map(side):
        s = st.units[uid]
        if not ctx.kind(uid).is_combat or s.attacked:
            continue
        assert s.hex is not None
        for n in ctx.sc.grid.neighbors(s.hex):
            if n in st.attacked_hexes or not any(ctx.side_of(u) == enemy for u in ctx.units_at(n)):
                continue
            if st.attack_from.get(s.hex, n) != n:
                continue
            targets.setdefault(n, {}).setdefault(s.hex, []).append(uid)
    for target, by_hex in sorted(targets.items()):
        chosen: list[str] = []
        for _, uids in sorted(by_hex.items()):
            sets: list[list[str]] = []
            for size in range(min(3, len(uids)), 0, -1):
                sets.extend(list(c) for c in combinations(sorted(uids), size))
            rng.shuffle(sets)
            for g in sets:
                try:
                    attacks.attack_check(ctx, side, {"type": "attack", "target": target, "attackers": chosen + g,
                                                      "primary": g[0]})
                except IllegalCommand:
                    continue
                chosen.extend(g)
                break
        if not chosen:
            continue
        for primary in rng.sample(chosen, len(chosen)):
            cmd = {"type": "attack", "target": target, "attackers": chosen, "primary": primary}
            try:
                attacks.attack_check(ctx, side, cmd)
            except IllegalCommand:
                continue
            out.append(cmd)
            out.extend(_variants(ctx, side, cmd))
            break
    out.extend(_skirmishes(ctx, side, rng))
    out.extend(f["command"] for f in attacks.owed_forced(ctx, side))  # 12.4 (S48): the attacks a fortune obliges
    return out


def _legal(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> bool:
    try:
        attacks.attack_plan(ctx, side, cmd)
    except IllegalCommand:
        return False
    return True


def _variants(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> list[dict[str, Any]]:
    st = ctx.st
    attackers = cmd["attackers"]
    hexes = {st.units[u].hex for u in attackers}
    extra: dict[str, Any] = {}
    leaders = [u for u in ctx.side_units_on_map(side) if ctx.kind(u) is Kind.LEADER]
    joining = [ldr for ldr in leaders if st.units[ldr].hex in hexes and _legal(ctx, side, {**cmd, "leaders": [ldr]})]
    if joining:
        extra["leaders"] = joining[:1]
    for ldr in leaders:
        if _legal(ctx, side, {**cmd, **extra, "coordinator": ldr}):
            extra["coordinator"] = ldr
            break
    arts = [u for u in ctx.side_units_on_map(side) if ctx.kind(u) is Kind.ARTILLERY and u not in attackers
            and not st.units[u].attacked]
    support = [a for a in arts if support_problem(ctx, side, a, cmd["target"], attackers) is None]
    if support:
        extra["support"] = support
    out = []
    if extra and _legal(ctx, side, {**cmd, **extra}):
        out.append({**cmd, **extra})
    else:
        extra = {}
    for tactic in ("press", "disengage"):
        v = {**cmd, **extra, "tactic": tactic}
        if _legal(ctx, side, v):
            out.append(v)
    return out


def _skirmishes(ctx: StdCtx, side: str, rng: random.Random) -> list[dict[str, Any]]:
    """7.13(1): one skirmish per infantry unit able to make one, at a random target (adjacent or two hexes away)."""
    st = ctx.st
    out = []
    enemy = ctx.enemy(side)
    enemy_hexes = sorted({h for u in ctx.side_units_on_map(enemy) if ctx.kind(u).is_combat
                          and (h := st.units[u].hex) is not None and h not in st.attacked_hexes})
    for uid in ctx.side_units_on_map(side):
        s = st.units[uid]
        if ctx.kind(uid) not in (Kind.INFANTRY, Kind.BATTALION) or s.attacked or s.hex is None:
            continue
        near = [h for h in enemy_hexes if 1 <= ctx.sc.grid.distance(s.hex, h) <= 2]
        rng.shuffle(near)
        for h in near:
            cmd = {"type": "attack", "target": h, "attackers": [uid], "primary": uid, "tactic": "skirmish"}
            if _legal(ctx, side, cmd):
                out.append(cmd)
                break
    return out


def _charge_commands(ctx: StdCtx, side: str) -> list[dict[str, Any]]:
    """7.13(3): the charges declared in the movement phase."""
    out = []
    for c in ctx.x.get("charges", []):
        if c["side"] != side:
            continue
        units = [u for u in c["units"] if ctx.kind(u).is_combat and ctx.on_map(u)]
        if not units:
            continue
        ldrs = [u for u in c["units"] if ctx.kind(u) is Kind.LEADER and ctx.on_map(u)]
        cmd: dict[str, Any] = {"type": "attack", "target": c["target"], "attackers": units, "primary": units[0],
                               "tactic": "charge"}
        if ldrs and _legal(ctx, side, {**cmd, "leaders": ldrs}):
            cmd["leaders"] = ldrs
        if _legal(ctx, side, cmd):
            out.append(cmd)
    return out


def command_families(game: Game, side: str, rng: random.Random) -> list[Family]:
    st = game.state
    if game.is_over or game.awaiting != side:
        return []
    if st.decision is not None:
        return [_const({"type": "choose", "option": o["id"]}) for o in st.decision["options"]]
    ctx = StdCtx.of(game)
    if st.phase == PHASE_MOVEMENT:
        if ctx.x.get("declared"):
            return [lambda: _declared_moves(StdCtx.of(game), side, rng)]
        if ctx.x.get("hm_declared"):  # 19.8 C: a marker's rolled move first
            return [lambda: marker_commands(StdCtx.of(game), side, rng)]
        fams: list[Family] = []
        if ctx.sc.hidden_movement is not None:
            fams.append(lambda: marker_commands(StdCtx.of(game), side, rng))  # 19.8 C
        for g in movable_groups(ctx, side):
            fams.append(lambda g=g: _move_commands(StdCtx.of(game), side, g, rng))  # type: ignore[misc]
        fams.append(lambda: charge_commands(StdCtx.of(game), side))  # 7.13(3)
        if not st.any_moved and rng.random() < 0.2:
            fams.append(lambda: square_commands(StdCtx.of(game), side))  # 9.5
        for uid in ctx.sc.side_units[side]:
            if _may_have_singles(ctx, uid):
                fams.append(lambda uid=uid: _unit_singles(StdCtx.of(game), side, uid))  # type: ignore[misc]
        return fams
    if st.phase == PHASE_COMBAT:
        return [_const(c) for c in attack_commands(ctx, side, rng) + bombard_commands(ctx, side)
                + fire_commands(ctx, side)]  # 19.7 D
    if st.phase == PHASE_SETUP:
        return setup_families(game, side, rng)
    return []


def setup_families(game: Game, side: str, rng: random.Random, sample: int = 6) -> list[Family]:
    """17.2, 17.3: the shortcut 'place the rest as printed' and a sample of each unit's allowed hexes: the units still
    to place or standing where the set-up may not end (overstacked, a leader away from his span), else any."""
    ctx = StdCtx.of(game)
    fams: list[Family] = []
    if setup.printed_placements(ctx, side):
        fams.append(_const({"type": "place_printed"}))
    if hidden_setup.setting_up(ctx, side):
        fams.append(lambda: hidden_setup.setup_commands(StdCtx.of(game), side, rng))  # 19.8 B
    todo = setup.problem_units(ctx, side) or [u for u in setup.areas_in_play(ctx.sc, ctx.st.options)
                                              if ctx.side_of(u) == side and ctx.u(u).status != STATUS_HIDDEN]
    for uid in todo:
        def fam(uid: str = uid) -> list[dict[str, Any]]:
            c = StdCtx.of(game)
            area = setup.areas_in_play(c.sc, c.st.options)[uid]
            hexes = sorted(area.hexes)
            picks = rng.sample(hexes, min(len(hexes), sample * 4))
            out = [{"type": "place", "unit": uid, "hex": h} for h in picks if setup.place_problem(c, uid, h) is None]
            if not out:  # a narrow choice in a wide area (a leader's span units' hexes): look at every hex
                allowed = setup.allowed_hexes(c, uid)
                out = [{"type": "place", "unit": uid, "hex": h} for h in rng.sample(allowed, min(len(allowed), sample))]
            return out[:sample]
        fams.append(fam)
    return fams


LARGE_ARMY = 60  # units: Königgrätz's sides have 144 and 152, the Swiepwald battle's 14 and 17, the tutorial's 9


def legal_commands(game: Game, side: str, rng: random.Random, limit: int) -> Iterator[dict[str, Any]]:
    produced = 0
    fams = command_families(game, side, rng)
    if len(game.scenario.side_units[side]) > LARGE_ARMY:
        # A large army (Königgrätz's) lists more than `limit` commands: in the families' fixed order the same first
        # groups filled the list at every call and the army's later groups, its arrivals among them, were never
        # offered to a bot. Shuffled, every group is offered in turn; a small battle's order is as it always was.
        rng.shuffle(fams)
    for fam in fams:
        for cmd in fam():
            yield cmd
            produced += 1
            if produced >= limit:
                return
    if not game.is_over and game.ruleset.can_end_phase(game, side):  # not while a forced attack is owed (S48)
        yield {"type": "end_phase"}
