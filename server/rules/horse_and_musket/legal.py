"""Horse and Musket's legal commands, for the random player, the bots, tests and the page's hints.

Every command listed here passes the judges `Game.submit` uses (movement.walk through moves.plan, charges.judge,
firing.targets, rally's checks); large spaces (a unit's every move) are sampled with the given RNG. Cards are offered
only from the asking side's own hand (kernel/cards.py), so nothing here reads the other hand.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ..kernel import cards as kcards
from ..kernel.errors import IllegalCommand
from . import charges, command, firing, geometry, moves, rally
from .context import HMCtx
from .movement import general_path, general_reach
from .tables import (
    AIDE,
    COLD_STEEL,
    FORCED_MARCH,
    FORMATIONS,
    GENERAL_MOVE,
    STEADY_LADS,
    VOLLEY,
    Kind,
)

if TYPE_CHECKING:
    from ..kernel.game import Game

Family = Callable[[], list[dict[str, Any]]]
END = {"type": "end_step"}


def _const(cmd: dict[str, Any]) -> Family:
    return lambda: [cmd]


def _holds(ctx: HMCtx, side: str, card: str) -> bool:
    return kcards.holds(ctx.x, side, card)


def _played(ctx: HMCtx, holder: str) -> bool:
    return any(h == holder for h, _ in ctx.x.get("played", []))


def move_candidates(ctx: HMCtx, uid: str) -> list[dict[str, Any]]:
    """The moves worth trying for a unit: one leg with or without a pivot at either end, forward or back; a turn; a
    formation change alone or with a leg; a 4.2.9 deployment; a column's two legs straight on."""
    f = ctx.facing(uid)
    fi = geometry.index(f)
    left, right = geometry.name(fi + 1), geometry.name(fi - 1)
    legs: list[list[dict[str, Any]]] = []
    for steps in range(1, 6):
        legs.append([{"steps": steps}])
        for p in (left, right):
            legs.append([{"pivot": p, "steps": steps}])
            legs.append([{"steps": steps, "end_pivot": p}])
    for steps in range(1, 4):
        legs.append([{"steps": steps, "back": True}])
    for k in (1, 2, 3, 4, 5):
        legs.append([{"pivot": geometry.name(fi + k)}])
    out: list[dict[str, Any]] = [{"type": "move", "unit": uid, "legs": lg} for lg in legs]
    kind = ctx.kind(uid)
    here = ctx.formation(uid)
    for other in FORMATIONS[kind]:
        if other == here:
            continue
        out.append({"type": "move", "unit": uid, "formation": other})
        for steps in (1, 2, 3):
            out.append({"type": "move", "unit": uid, "formation": other, "formation_at": "start",
                        "legs": [{"steps": steps}]})
            out.append({"type": "move", "unit": uid, "formation": other, "legs": [{"steps": steps}]})
    if here == "column" and kind is not Kind.LI:
        for k in (1, 2, 4, 5):
            out.append({"type": "move", "unit": uid, "deploy_facing": geometry.name(fi + k)})
        for steps in (1, 2, 3, 4, 5):
            out.append({"type": "move", "unit": uid, "legs": [{"steps": steps}, {"steps": steps}]})
            for p in (left, right):
                out.append({"type": "move", "unit": uid, "legs": [{"steps": steps}, {"pivot": p, "steps": steps}]})
                out.append({"type": "move", "unit": uid, "legs": [{"pivot": p, "steps": steps}, {"steps": steps}]})
            out.append({"type": "move", "unit": uid, "legs": [{"pivot": geometry.name(fi + 3)},
                                                               {"steps": steps}]})
    return out


def unit_moves(ctx: HMCtx, side: str, uid: str, rng: random.Random, cap: int) -> list[dict[str, Any]]:
    """A sample of the unit's legal step-two moves (with a Forced March when its command forbids it): every way of
    moving at its full length, then shorter ones, `cap` in all."""
    if uid in ctx.x.get("step_moved", []):
        return []
    card: str | None = None
    if command.allowance_problem(ctx, uid) is not None:
        if not (_holds(ctx, side, FORCED_MARCH) and not _played(ctx, uid)):
            return []
        card = FORCED_MARCH
    longest: dict[str, tuple[int, dict[str, Any]]] = {}
    rest: list[dict[str, Any]] = []
    for c in move_candidates(ctx, uid):
        try:
            moves.plan(ctx, side, c)
        except IllegalCommand:
            continue
        cmd = {**c, "card": card} if card else c
        shape = json.dumps([{k: v for k, v in leg.items() if k != "steps"} for leg in c.get("legs", [])]
                           + [{k: v for k, v in c.items() if k != "legs"}], sort_keys=True)
        steps = sum(leg.get("steps", 0) for leg in c.get("legs", []))
        if shape not in longest or steps > longest[shape][0]:
            if shape in longest:
                rest.append(longest[shape][1])
            longest[shape] = (steps, cmd)
        else:
            rest.append(cmd)
    # each way of moving at its full length first (the moves worth weighing), then a sample of the shorter ones
    best = [cmd for _, cmd in longest.values()]
    rng.shuffle(best)
    rng.shuffle(rest)
    return (best + rest)[:cap]


def general_moves(ctx: HMCtx, side: str, gid: str, rng: random.Random, cap: int) -> list[dict[str, Any]]:
    if gid in ctx.x.get("generals_moved", []):
        return []
    dests = [h for h, d in general_reach(ctx, gid, GENERAL_MOVE).items() if d > 0]
    rng.shuffle(dests)
    out = []
    for h in dests[:cap]:
        path = general_path(ctx, gid, h, GENERAL_MOVE)
        if path is not None:
            out.append({"type": "general", "general": gid, "path": path})
    return out


def charge_commands(ctx: HMCtx, side: str) -> list[dict[str, Any]]:
    """Every charge the side may declare now, with the cards it may add (Cold Steel, or Forced March for a unit its
    command forbids)."""
    out = []
    for c in charges.possible(ctx, side):
        uid = c["unit"]
        if command.allowance_problem(ctx, uid) is None:
            out.append(c)
            if _holds(ctx, side, COLD_STEEL) and not _played(ctx, uid):
                out.append({**c, "card": COLD_STEEL})
        elif _holds(ctx, side, FORCED_MARCH) and not _played(ctx, uid):
            out.append({**c, "card": FORCED_MARCH})
    if ctx.x.get("steady_for") and _holds(ctx, side, STEADY_LADS) and not _played(ctx, ctx.x["steady_for"]):
        out.append({"type": "play_card", "card": STEADY_LADS, "unit": ctx.x["steady_for"]})
    return out


def fire_commands(ctx: HMCtx, side: str) -> list[dict[str, Any]]:
    out = []
    fired = set(ctx.x.get("fired", []))
    for uid in ctx.units_of(side):
        if uid in fired:
            continue
        for t in firing.targets(ctx, uid):
            out.append({"type": "fire", "unit": uid, "target": t})
            if (_holds(ctx, side, VOLLEY) and not firing.first_fire_applies(ctx, uid) and not _played(ctx, uid)):
                out.append({"type": "fire", "unit": uid, "target": t, "card": VOLLEY})
    return out


def aide_commands(ctx: HMCtx, side: str) -> list[dict[str, Any]]:
    if not _holds(ctx, side, AIDE):
        return []
    return [{"type": "play_card", "card": AIDE, "general": g["general"]}
            for g in (ctx.x.get("command") or {}).get("groups", []) if g["general"] and not _played(ctx, g["general"])]


def command_families(game: Game, side: str, rng: random.Random) -> list[Family]:
    st = game.state
    if game.is_over or game.awaiting != side:
        return []
    if st.decision is not None:
        return [_const({"type": "choose", "option": o["id"]}) for o in st.decision["options"]]
    ctx = HMCtx.of(game)
    step = ctx.step
    if step == "rally":
        return [_const(c) for c in rally.rallies(ctx, side)]
    if step == "command":
        return [_const(c) for c in aide_commands(ctx, side)]
    if step == "charges":
        return [_const(c) for c in charge_commands(ctx, side)]
    if step == "moves":
        fams: list[Family] = []
        for uid in ctx.units_of(side):
            fams.append(lambda uid=uid: unit_moves(HMCtx.of(game), side, uid, rng, 10))  # type: ignore[misc]
        for gid in ctx.generals_of(side):
            if gid not in ctx.x.get("generals_moved", []) and rng.random() < 0.3:
                fams.append(lambda gid=gid: general_moves(HMCtx.of(game), side, gid, rng, 4))  # type: ignore[misc]
        return fams
    if step == "firing":
        return [_const(c) for c in fire_commands(ctx, side)]
    return []


def legal_commands(game: Game, side: str, rng: random.Random, limit: int) -> Iterator[dict[str, Any]]:
    produced = 0
    for fam in command_families(game, side, rng):
        for cmd in fam():
            yield cmd
            produced += 1
            if produced >= limit:
                return
    if not game.is_over and game.state.decision is None and game.awaiting == side:
        yield dict(END)
