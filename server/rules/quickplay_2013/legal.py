"""Legal command generation for the random player, the bots and tests.  Every command yielded here passes the
validation `Game.submit` uses; where the space is large (every subset of a stack times every reachable hex) it is
sampled with the given RNG."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ..kernel.core import Ctx
from ..kernel.errors import IllegalCommand
from ..kernel.procedures import movable_groups
from ..kernel.scenario import UnitKind
from ..kernel.setup import placement_hexes
from ..kernel.state import PHASE_COMBAT, STATUS_MAP, Phase
from . import artillery, cavalry, combat, movement, recovery, squares
from .stacking import participant_sets

if TYPE_CHECKING:
    from ..kernel.game import Game


def command_families(game: Game, side: str, rng: random.Random) -> list[Callable[[], list[dict[str, Any]]]]:
    """Legal commands grouped into lazily expanded families (one per moving group, per target...)."""
    st = game.state
    if game.is_over or game.awaiting != side:
        return []
    if st.decision is not None or Phase(st.phase) is not Phase.MOVEMENT:
        return [_const(c) for c in legal_commands(game, side, rng, 10**6) if c["type"] != "end_phase"]
    ctx = Ctx.of(game)
    families: list[Callable[[], list[dict[str, Any]]]] = []
    for g in movable_groups(ctx, side):
        def expand(g: list[str] = g) -> list[dict[str, Any]]:
            return list(_group_moves(Ctx.of(game), side, g))
        families.append(expand)
    extra = square_commands(ctx, side) + recover_commands(ctx, side) + cavalry.legal_charge_moves(ctx, side)
    families.extend(_const(c) for c in extra)
    return families


def _const(cmd: dict[str, Any]) -> Callable[[], list[dict[str, Any]]]:
    return lambda: [cmd]


def legal_commands(game: Game, side: str, rng: random.Random, limit: int) -> Iterator[dict[str, Any]]:
    st = game.state
    if game.is_over or game.awaiting != side:
        return
    if st.decision is not None:
        for o in st.decision["options"]:
            yield {"type": "choose", "option": o["id"]}
        return
    ctx = Ctx.of(game)
    phase = Phase(st.phase)
    if phase is Phase.SETUP:
        for p in ctx.sc.setup:
            if p.within > 0 and ctx.side_of(p.unit) == side:
                for h in placement_hexes(ctx, p.unit):
                    if h != ctx.u(p.unit).hex:
                        yield {"type": "place", "unit": p.unit, "hex": h}
    elif phase is Phase.MOVEMENT:
        yield from square_commands(ctx, side)
        yield from recover_commands(ctx, side)
        produced = 0
        for g in movable_groups(ctx, side):
            cmds = list(_group_moves(ctx, side, g))
            for cmd in rng.sample(cmds, min(len(cmds), 8)):
                yield cmd
                produced += 1
                if produced >= limit:
                    return
        yield from cavalry.legal_charge_moves(ctx, side)
    elif phase is Phase.COMBAT:
        yield from _combat(game, ctx, side, rng)
    if can_end_phase(game, side):
        yield {"type": "end_phase"}


def can_end_phase(game: Game, side: str) -> bool:
    """9.2: the combat phase may not end while cavalry that made charge moves can still charge."""
    st = game.state
    return not (st.phase == PHASE_COMBAT and cavalry.unresolved(Ctx.of(game), side))


def square_commands(ctx: Ctx, side: str) -> list[dict[str, Any]]:
    """9.3: the squares `side` may form or remove now (before any of its units has moved)."""
    st = ctx.st
    out: list[dict[str, Any]] = []
    if st.any_moved or st.phase != Phase.MOVEMENT.value:
        return out
    for hex_ in sorted({h for u in ctx.side_units_on_map(side) if (h := ctx.u(u).hex) is not None}):
        if hex_ in st.squares:
            out.append({"type": "remove_square", "hex": hex_})
        elif squares.formers(ctx, hex_, side):
            out.append({"type": "form_square", "hex": hex_})
    return out


def recover_commands(ctx: Ctx, side: str) -> list[dict[str, Any]]:
    return [{"type": "recover", "unit": u} for u in recovery.step_recovery_candidates(ctx, side)]


def _group_moves(ctx: Ctx, side: str, g: list[str]) -> Iterator[dict[str, Any]]:
    """A group's moves, or first its roll for movement allowance when it holds impaired units (11.1(2))."""
    unrolled = movement.needs_roll(ctx, g)
    if unrolled:
        if all(ctx.u(u).status == STATUS_MAP for u in unrolled):
            yield {"type": "roll_ma", "units": unrolled}
        return
    try:
        group = movement.build_group(ctx, side, g)
    except IllegalCommand:
        return
    reach = movement.reachable(ctx, group)
    for d in sorted(reach):
        yield {"type": "move", "units": g, "path": reach[d].path}


def _combat(game: Game, ctx: Ctx, side: str, rng: random.Random) -> Iterator[dict[str, Any]]:
    st = game.state
    if st.ca_stage:
        return
    enemy = ctx.enemy(side)
    targets: dict[str, dict[str, list[str]]] = {}
    for uid in ctx.side_units_on_map(side):
        s = ctx.u(uid)
        if ctx.is_leader(uid) or s.attacked or s.charging is not None or s.hex is None:
            continue
        for n in ctx.sc.grid.neighbors(s.hex):
            if ctx.combat_units_at(n, enemy) and artillery.target_problem(ctx, side, n) is None:
                targets.setdefault(n, {}).setdefault(s.hex, []).append(uid)
    for target, by_hex in sorted(targets.items()):
        chosen: list[str] = []
        for hex_, uids in sorted(by_hex.items()):
            if st.attack_from.get(hex_, target) != target:
                continue
            ok = []
            for u in uids:
                try:
                    combat.check_attacker(ctx, side, u, target)
                except IllegalCommand:
                    continue
                ok.append(u)
            sets = participant_sets(ctx, hex_, ok)
            if sets:
                chosen.extend(rng.choice(sets))
        if not chosen:
            continue
        leaders = []
        for hex_ in sorted({ctx.u(u).hex or "" for u in chosen}):
            ls = combat.eligible_leaders(ctx, hex_, side, chosen)
            if ls and rng.random() < 0.5:
                leaders.append(ls[0])
        cmd: dict[str, Any] = {"type": "attack", "target": target, "attackers": chosen, "primary": rng.choice(chosen),
                               "leaders": leaders}
        support = [g for g in ctx.side_units_on_map(side)
                   if g not in chosen and ctx.kind(g) is UnitKind.ARTILLERY
                   and artillery.bombard_problem(ctx, side, g, target) is None and rng.random() < 0.5]
        if support:
            cmd["support"] = sorted(support)
        try:
            combat.parse_attack(ctx, side, cmd)
        except IllegalCommand:
            continue
        yield cmd
    for uid in ctx.side_units_on_map(side):
        if ctx.kind(uid) is UnitKind.ARTILLERY:
            for t in artillery.bombard_targets(ctx, side, uid):
                yield {"type": "bombard", "target": t, "artillery": [uid]}
    yield from cavalry.legal_charges(ctx, side)
