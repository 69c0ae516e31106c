"""Legal command generation, shared by the random player, bots, tests and the client's hints.

Every command yielded here has passed the same validation `Game.submit` uses,
so a bot never sends an illegal command.  Where the space is large (every
subset of a stack times every reachable hex) it is sampled with the given RNG.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ..kernel.core import Ctx
from ..kernel.errors import IllegalCommand
from ..kernel.procedures import movable_groups
from ..kernel.scenario import UnitKind
from ..kernel.state import PHASE_COMBAT, Phase
from . import artillery, cavalry, combat, movement, phases

if TYPE_CHECKING:
    from ..kernel.game import Game


def command_families(game: Game, side: str, rng: random.Random) -> list[Callable[[], list[dict[str, Any]]]]:
    """Legal commands grouped into lazily expanded families (one per moving group, per target...).

    A random player picks a family first and expands only that one, which keeps random play fast
    without changing which commands are legal.
    """
    st = game.state
    if game.is_over or game.awaiting != side:
        return []
    if st.decision is not None or Phase(st.phase) is not Phase.MOVEMENT:
        cmds = [c for c in legal_commands(game, side, rng, 10**6) if c["type"] != "end_phase"]
        return [_const(c) for c in cmds]
    ctx = Ctx.of(game)
    families: list[Callable[[], list[dict[str, Any]]]] = []
    for g in _movable_groups(game, ctx, side):
        def expand(g: list[str] = g) -> list[dict[str, Any]]:
            try:
                group = movement.build_group(Ctx.of(game), side, g)
            except IllegalCommand:
                return []
            reach = movement.reachable(Ctx.of(game), group)
            return [{"type": "move", "units": g, "path": reach[d].path} for d in sorted(reach)]
        families.append(expand)
    extra = [c for c in square_commands(game, ctx, side)] + list(cavalry.legal_charge_moves(ctx, side))
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
                for h in phases.placement_hexes(ctx, p.unit):
                    if h != ctx.u(p.unit).hex:
                        yield {"type": "place", "unit": p.unit, "hex": h}
    elif phase is Phase.MOVEMENT:
        yield from _moves(game, ctx, side, rng, limit)
    elif phase is Phase.RECOVERY:
        for uid in game.scenario.side_units[side]:
            if not ctx.is_leader(uid) and phases.recover_problem(ctx, side, uid) is None:
                yield {"type": "recover", "unit": uid}
    elif phase is Phase.COMBAT:
        yield from _combat(game, ctx, side, rng, limit)
    if can_end_phase(game, side):
        yield {"type": "end_phase"}


def can_end_phase(game: Game, side: str) -> bool:
    """9.2: the combat phase may not end while declared charges are still to be made."""
    st = game.state
    return not (st.phase == PHASE_COMBAT and cavalry.unresolved(Ctx.of(game), side))


def square_commands(game: Game, ctx: Any, side: str) -> list[dict[str, Any]]:
    """9.3: the squares `side` may form or remove now (before any of its units has moved): the legal
    commands, and the page's square options (options.unit_options)."""
    st = game.state
    out: list[dict[str, Any]] = []
    if st.any_moved:
        return out
    for hex_ in sorted({h for u in ctx.side_units_on_map(side) if (h := ctx.u(u).hex) is not None}):
        if hex_ in st.squares:
            out.append({"type": "remove_square", "hex": hex_})
        else:
            formers = sorted(u for u in ctx.combat_units_at(hex_, side)
                             if ctx.kind(u) in (UnitKind.INFANTRY, UnitKind.BATTALION)
                             and not ctx.u(u).disrupted and not ctx.u(u).ineffective)
            if formers:
                out.append({"type": "form_square", "hex": hex_})
            if len(formers) > 1:  # 9.3: the player may name the infantry that forms it
                out.extend({"type": "form_square", "hex": hex_, "unit": u} for u in formers)
    return out


def _movable_groups(game: Game, ctx: Any, side: str) -> list[list[str]]:
    """Whole stacks, each unit of a stack alone, and arrived reinforcements (the kernel's, kernel/procedures.py)."""
    return movable_groups(ctx, side)


def _moves(game: Game, ctx: Any, side: str, rng: random.Random, limit: int) -> Iterator[dict[str, Any]]:
    yield from square_commands(game, ctx, side)
    produced = 0
    for g in _movable_groups(game, ctx, side):
        try:
            group = movement.build_group(ctx, side, g)
        except IllegalCommand:
            continue
        reach = movement.reachable(ctx, group)
        dests = sorted(reach)
        if len(dests) > 8:
            dests = rng.sample(dests, 8)
        for d in dests:
            yield {"type": "move", "units": g, "path": reach[d].path}
            produced += 1
            if produced >= limit:
                return
    yield from cavalry.legal_charge_moves(ctx, side)


def _combat(game: Game, ctx: Any, side: str, rng: random.Random, limit: int) -> Iterator[dict[str, Any]]:
    st = game.state
    if st.ca_stage:
        return
    enemy = ctx.enemy(side)
    targets: dict[str, dict[str, list[str]]] = {}
    for uid in ctx.side_units_on_map(side):
        s = ctx.u(uid)
        if ctx.is_leader(uid) or s.attacked or s.ineffective or s.charging is not None:
            continue
        assert s.hex is not None
        for n in game.scenario.grid.neighbors(s.hex):
            if ctx.combat_units_at(n, enemy) and n not in st.attacked_hexes:
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
            sets = combat.participant_sets(ctx, hex_, ok)
            if sets:
                chosen.extend(rng.choice(sets))
        if not chosen:
            continue
        leaders = []
        for hex_ in sorted({ctx.u(u).hex for u in chosen}):
            ls = combat.eligible_leaders(ctx, hex_, side, chosen)
            if ls and rng.random() < 0.5:
                leaders.append(ls[0])
        cmd: dict[str, Any] = {"type": "attack", "target": target, "attackers": chosen, "primary": rng.choice(chosen),
                               "leaders": leaders}
        # 8.4: guns that may fire in support of this attack join it now and then
        support = [g for g in ctx.side_units_on_map(side)
                   if g not in chosen and ctx.kind(g) is UnitKind.ARTILLERY and not ctx.u(g).attacked
                   and artillery.bombard_problem(ctx, side, g, target) is None and rng.random() < 0.5]
        if support:
            cmd["support"] = sorted(support)
        try:
            combat.parse_attack(ctx, side, cmd)
        except IllegalCommand:
            continue
        yield cmd
    for uid in ctx.side_units_on_map(side):
        if ctx.kind(uid) is UnitKind.ARTILLERY and not ctx.u(uid).attacked:
            for t in artillery.bombard_targets(ctx, side, uid):
                yield {"type": "bombard", "target": t, "artillery": [uid]}
    yield from cavalry.legal_charges(ctx, side)
