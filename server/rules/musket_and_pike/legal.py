"""Musket & Pike's legal commands, for the random player, the bots, tests and the page's options.

Every command listed here passes the judges `Game.submit` uses (movement.walk with note 1, fire.judge through
actions.fire_kind_for, the Reform/Rally checks, combat.judge); a move is offered to each hex it may reach, facing the
way it went or toward the nearest enemy (the page offers every facing)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ..kernel.errors import IllegalCommand
from ..kernel.facing import Direction, direction_between_ids
from . import actions, combat, fire
from .context import MPCtx
from .movement import leader_moves, legal_moves, obliged_to_charge
from .tables import NO, ORC_RALLY, W_LEADER, Kind, Mode, matrix

if TYPE_CHECKING:
    from ..kernel.game import Game

Family = Callable[[], list[dict[str, Any]]]
END = {"type": "end_segment"}


def _toward(ctx: MPCtx, uid: str, hex_: str) -> str:
    """The hexside toward the nearest enemy unit (not broken) from `hex_` (a heuristic facing for the lists)."""
    enemies = [ctx.hex_of(e) for e in ctx.live_enemies(ctx.side_of(uid))] or \
              [ctx.hex_of(e) for e in ctx.units_of(ctx.enemy(ctx.side_of(uid)))]
    if not enemies:
        return ctx.facing(uid)
    target = min(enemies, key=lambda h: (ctx.dist(hex_, h), h))
    if target == hex_:
        return ctx.facing(uid)
    grid = ctx.sc.grid
    best = min(grid.neighbors(hex_), key=lambda n: (grid.distance(n, target), n))
    return direction_between_ids(grid, hex_, best).name


def move_commands(ctx: MPCtx, uid: str, every_facing: bool = False) -> list[dict[str, Any]]:
    out = []
    for h, path in sorted(legal_moves(ctx, uid).items()):
        went = direction_between_ids(ctx.sc.grid, path[-2], path[-1]).name
        facings = [d.name for d in Direction] if every_facing else sorted({went, _toward(ctx, uid, h)})
        for f in facings:
            out.append({"type": "move", "unit": uid, "path": path, "facing": f})
    return out


def face_commands(ctx: MPCtx, uid: str) -> list[dict[str, Any]]:
    if uid in ctx.act_list("moved_units"):
        return []
    return [{"type": "face", "unit": uid, "facing": d.name} for d in Direction if d.name != ctx.facing(uid)]


def leader_commands(ctx: MPCtx, side: str) -> list[dict[str, Any]]:
    wid = ctx.active_wing
    out = []
    for lid in ctx.leaders_of(side):
        d = ctx.d(lid)
        if lid in ctx.act_list("moved_leaders") or (d.role == "wc" and d.wing != wid):
            continue
        for h, path in sorted(leader_moves(ctx, lid).items()):
            if any(ctx.side_of(u) == side for u in ctx.units_in(h)):
                out.append({"type": "move", "unit": lid, "path": path})
    return out


def action_commands(ctx: MPCtx, side: str, uid: str) -> list[dict[str, Any]]:
    """Fire (every target), Reform, every mode, Rally: those the judges accept."""
    if uid in ctx.act_list("acted"):
        return []
    out: list[dict[str, Any]] = []
    for salvo in (False, True):
        try:
            kind = actions.fire_kind_for(ctx, uid, salvo)
        except IllegalCommand:
            continue
        for t in fire.targets(ctx, uid, kind):
            out.append({"type": "fire", "unit": uid, "target": t, **({"salvo": True} if salvo else {})})
    cands: list[dict[str, Any]] = [{"type": "reform", "unit": uid}, {"type": "rally", "unit": uid}]
    cands += [{"type": "formation", "unit": uid, "mode": m.value} for m in Mode]
    for c in cands:
        if _passes(ctx, side, c):
            out.append(c)
    return out


def _passes(ctx: MPCtx, side: str, cmd: dict[str, Any]) -> bool:
    """Whether a Reform/Rally/formation command would be accepted: judged on a throwaway copy of the bookkeeping
    (these commands check everything before they change anything, so only their refusal is read here)."""
    uid = cmd["unit"]
    wid = ctx.active_wing or ""
    if cmd["type"] == "rally" and ctx.morale(uid).value == "normal":
        return False
    if cmd["type"] != "rally":
        try:
            actions.reform_allowed(ctx, uid, wid)
        except IllegalCommand:
            return False
    adjacent = ctx.adjacent_enemy(ctx.hex_of(uid), side)
    if cmd["type"] == "reform":
        info = ctx.info(uid)
        return not adjacent and (ctx.cond(uid).value != "normal" or bool(info.get("salvo"))
                                 or int(info.get("pistols", 0)) < ctx.d(uid).pistols)
    if cmd["type"] == "formation":
        m = Mode(cmd["mode"])
        return m in actions.modes_for(ctx, uid) and m is not ctx.mode(uid) and (m is Mode.HEDGEHOG or not adjacent)
    rule = ORC_RALLY[ctx.order(wid)]
    if rule == NO or (rule == W_LEADER and not actions.with_leader(ctx, uid, wid)):
        return False
    return not adjacent


def close_combat_commands(ctx: MPCtx, side: str) -> list[dict[str, Any]]:
    out = []
    for dfn, atts in sorted(combat.defenders_for(ctx, side).items()):
        for lead in atts:
            if ctx.kind(dfn) is not Kind.ARTILLERY and not ctx.broken(dfn) and \
                    matrix(ctx.d(lead).cc_class, combat.defender_class(ctx, dfn)) is None:
                continue
            usable = [a for a in atts if ctx.kind(dfn) is Kind.ARTILLERY or ctx.broken(dfn)
                      or ctx.kind(a) is not Kind.LI or ctx.kind(dfn) is Kind.LI]
            if lead not in usable:
                continue
            pist = [a for a in usable if ctx.kind(a) is Kind.CAVALRY and int(ctx.info(a).get("pistols", 0)) > 0]
            out.append({"type": "close_combat", "defender": dfn, "attackers": usable, "lead": lead, "pistols": []})
            if pist:
                out.append({"type": "close_combat", "defender": dfn, "attackers": usable, "lead": lead,
                            "pistols": pist})
            if len(usable) > 1:
                out.append({"type": "close_combat", "defender": dfn, "attackers": [lead], "lead": lead,
                            "pistols": []})
    return out


def can_end(ctx: MPCtx, side: str) -> bool:
    if ctx.x.get("step") == "start":
        return side == ctx.sc.first_player  # M19
    if ctx.st.decision is not None or ctx.x.get("step") != "activation":
        return False
    wid = ctx.active_wing
    if wid is None or ctx.sc.wings[wid].side != side:
        return False
    if ctx.segment == "movement":
        return not any(obliged_to_charge(ctx, u) for u in ctx.wing_units_on_map(wid))
    if ctx.segment == "close_combat":
        return not combat.must_attack(ctx, side)
    return True


def _none() -> list[dict[str, Any]]:
    return []


def _family(fn: Callable[..., list[dict[str, Any]]], *args: Any) -> Family:
    return lambda: fn(*args)


def command_families(game: Game, side: str, rng: random.Random) -> list[Family]:
    ctx = MPCtx.of(game)
    st = game.state
    if st.decision is not None:
        if st.decision["side"] != side:
            return []
        opts = [{"type": "choose", "option": o["id"]} for o in st.decision["options"]]
        return [lambda: opts]
    wid = ctx.active_wing
    if ctx.x.get("step") == "start" and side == ctx.sc.first_player:
        return [lambda: [dict(END)]]
    if wid is None or ctx.sc.wings[wid].side != side or ctx.x.get("step") != "activation":
        return []
    fams: list[Family] = []
    units = ctx.wing_units_on_map(wid)
    if ctx.segment == "movement":
        owed = [u for u in units if obliged_to_charge(ctx, u)]
        for u in (owed or [u for u in units if u not in ctx.act_list("moved_units")]):
            fams.append(_family(move_commands, ctx, u))
        if not owed:
            for u in units:
                fams.append(_family(face_commands, ctx, u) if rng.random() < 0.3 else _family(_none))
            fams.append(lambda: leader_commands(ctx, side))
    elif ctx.segment == "action":
        for u in units:
            fams.append(_family(action_commands, ctx, side, u))
    elif ctx.segment == "close_combat":
        fams.append(lambda: close_combat_commands(ctx, side))
    return fams


def legal_commands(game: Game, side: str, rng: random.Random, limit: int) -> Iterator[dict[str, Any]]:
    ctx = MPCtx.of(game)
    st = game.state
    if st.decision is not None:
        if st.decision["side"] == side:
            for o in st.decision["options"]:
                yield {"type": "choose", "option": o["id"]}
        return
    wid = ctx.active_wing
    if ctx.x.get("step") == "start" and side == ctx.sc.first_player:
        yield dict(END)
        return
    if wid is None or ctx.sc.wings[wid].side != side or ctx.x.get("step") != "activation":
        return
    units = ctx.wing_units_on_map(wid)
    out: list[dict[str, Any]] = []
    if ctx.segment == "movement":
        owed = [u for u in units if obliged_to_charge(ctx, u)]
        for u in owed or units:
            if u not in ctx.act_list("moved_units"):
                out += move_commands(ctx, u)
        if not owed:
            out += leader_commands(ctx, side)
    elif ctx.segment == "action":
        for u in units:
            out += action_commands(ctx, side, u)
    else:
        out += close_combat_commands(ctx, side)
    if len(out) > limit:
        out = rng.sample(out, limit)
    yield from out
    if can_end(ctx, side):
        yield dict(END)
