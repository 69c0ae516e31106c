"""What the page reads: the edition's part of the view (R16.19) and, for one side, what its units may do now and how
one exact command would be judged (`preview`), without applying anything. The cards' view is the kernel's
(kernel/cards.py through views.py); the commands offered read the asking side's own hand only (legal.py)."""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING, Any

from ..kernel.errors import IllegalCommand
from . import charges, firing, geometry, moves, rally
from .context import HMCtx
from .legal import (
    END,
    aide_commands,
    charge_commands,
    fire_commands,
    general_moves,
    move_candidates,
    unit_moves,
)
from .tables import FIRE_NEED, GUN, SMALL_ARMS_DICE, Kind, charge_need, is_long
from .victory import lost, points

if TYPE_CHECKING:
    from ..kernel.game import Game


def view(ctx: HMCtx) -> dict[str, Any]:
    """R16.19's view: the step, who plays first, the rolls, the groups and who may still act, charges and engaged pairs,
    colours, breaches, First Fire used, and each unit's facing, formation, hits, staggered, moved and fired flags."""
    x = ctx.x
    fired = set(x.get("fired", []))
    acted = set(x.get("acted", []))
    groups = []
    for g in (x.get("command") or {}).get("groups", []):
        used = sum(1 for u in g["units"] if u in acted and u not in x.get("forced", []))
        groups.append({**g, "used": used})
    units = {}
    for uid, s in ctx.st.units.items():
        if s.status != "map" or ctx.is_general(uid):
            continue
        units[uid] = {"facing": s.facing, "formation": ctx.formation(uid), "hits": ctx.hits(uid),
                      "staggered": s.reduced, "moved": s.moved, "fired": uid in fired}
    return {
        "step": ctx.step, "round": ctx.st.turn, "player_turn": x.get("player_turn"), "order": list(x.get("order", [])),
        "initiative": x.get("initiative"), "command": groups, "acted": sorted(acted),
        "forced": list(x.get("forced", [])),
        "charges": [{k: c[k] for k in ("unit", "target", "path", "face", "need", "passed")}
                    for c in x.get("charges", [])],
        "engaged": [[c["charger"], c["target"]] for c in x.get("contacts", [])],
        "steady_for": x.get("steady_for"), "rallied": list(x.get("rallied", [])),
        "generals_moved": list(x.get("generals_moved", [])), "colours": [dict(c) for c in x.get("colours", [])],
        "guns": dict(x.get("guns", {})), "breached": list(x.get("breached", [])),
        "first_fire": list(x.get("first_fire", [])), "units": units,
        "lost": {s: lost(ctx, s) for s in ctx.sc.side_order}, "break_at": dict(ctx.sc.break_at),
        "vp": points(ctx),
    }


def fire_odds(ctx: HMCtx, uid: str, target: str) -> dict[str, Any]:
    """5.1.4-5.1.8, 5.2.3, 5.5: the dice a fire would roll and what each needs (saves apart)."""
    d = ctx.d(uid)
    dist = ctx.sc.grid.distance(ctx.hex_of(uid), ctx.hex_of(target))
    long = is_long(d.weapon, dist)
    enfilade = firing.enfilade_of(ctx, uid, target)
    cover = ctx.kind(target) is Kind.ARTILLERY or firing.in_cover_from(ctx, target, ctx.hex_of(uid))
    if d.weapon == GUN:
        return {"target": target, "shots": "1d6 halved" if long else "2d6 halved", "need": 4, "long": long,
                "enfilade": enfilade, "saves": cover}
    need = FIRE_NEED[d.kind] + int(long) + int(ctx.st.units[uid].moved) + int(d.kind is Kind.CO and
                                                                               ctx.staggered(uid))
    return {"target": target, "dice": SMALL_ARMS_DICE * (2 if enfilade else 1), "need": need, "long": long,
            "enfilade": enfilade, "saves": cover, "first_fire": firing.first_fire_applies(ctx, uid)}


# every way, not a sample: the page offers each legal command of a selected unit (the seed only shuffles them)
EVERY = 10_000


def _in_order(cmds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(cmds, key=lambda c: json.dumps(c, sort_keys=True))


def _commands_of(ctx: HMCtx, side: str, uid: str) -> list[dict[str, Any]]:
    """R16.19: every command the selected unit or general may be given now, as the page's buttons (cards only from
    the side's own hand: legal.py reads no other)."""
    rng = random.Random(0)
    step = ctx.step
    if step == "rally":
        return _in_order([c for c in rally.rallies(ctx, side) if uid in (c.get("general"), c.get("unit"))])
    if step == "charges":
        return _in_order([c for c in charge_commands(ctx, side) if c.get("unit") == uid and c["type"] == "charge"])
    if step == "moves":
        if ctx.is_general(uid):
            return _in_order(general_moves(ctx, side, uid, rng, EVERY))
        return _in_order(unit_moves(ctx, side, uid, rng, EVERY))
    if step == "firing":
        return _in_order([c for c in fire_commands(ctx, side) if c["unit"] == uid])
    return []


def _where(ctx: HMCtx, side: str, c: dict[str, Any]) -> str | None:
    """The hex a click on the map means for a command (the page's click-to-command, R16.19): where a move ends (the
    referee's own walk, moves.plan; a turn in place: the hex it turns to face), the target's hex of a charge or a fire, a general's ride's last hex, the rallied
    unit's hex. None: the command has no hex of its own (it is given by its button alone)."""
    t = c.get("type")
    if t == "move":
        try:
            _, w = moves.plan(ctx, side, {k: v for k, v in c.items() if k != "card"})
        except IllegalCommand:
            return None
        here = ctx.hex_of(str(c["unit"]))
        legs = c.get("legs") or []
        if (w.hex == here and len(legs) == 1 and not legs[0].get("steps") and c.get("formation") is None
                and c.get("deploy_facing") is None):
            # a turn in place (4.2.2a, R16.11): the hex it turns to face, across its new front hexside (R16.4)
            face = ctx.sc.neighbour(here, geometry.index(w.facing))
            return face if face is not None else here
        return str(w.hex)
    if t in ("charge", "fire"):
        return ctx.hex_of(str(c["target"]))
    if t == "general":
        return str(c["path"][-1])
    if t == "rally":
        return ctx.hex_of(str(c["unit"]))
    return None


def _side_actions(ctx: HMCtx, side: str) -> list[dict[str, Any]]:
    """The step's commands that need no selection: Aide-de-camp (command step), Steady Lads (after a failed charge
    test), and ending the step (R16.10, R16.19, H2)."""
    out: list[dict[str, Any]] = []
    if ctx.step == "command":
        out += aide_commands(ctx, side)
    if ctx.step == "charges":
        out += [c for c in charge_commands(ctx, side) if c["type"] == "play_card"]
    return [*out, dict(END)]


def unit_options(game: Game, side: str, units: list[str]) -> dict[str, Any]:
    """For each named unit of `side`: its legal moves, charges, fire (with odds) and rallies now, every command it may
    be given (`commands`) and the hex each means on the map (`at`, the page's click on a hex); `actions`: the step's
    commands that need no unit."""
    ctx = HMCtx.of(game)
    out: dict[str, Any] = {}
    if game.awaiting != side or game.state.decision is not None:
        return {"units": out}
    for uid in units:
        if uid not in ctx.sc.units or ctx.side_of(uid) != side or not ctx.on_map(uid):
            continue
        if ctx.is_general(uid):
            cmds = _commands_of(ctx, side, uid)
            out[uid] = {"commands": cmds, "at": [_where(ctx, side, c) for c in cmds]}
            continue
        entry: dict[str, Any] = {}
        if ctx.step == "moves":
            legal = []
            for c in move_candidates(ctx, uid):
                try:
                    moves.plan(ctx, side, c)
                except IllegalCommand:
                    continue
                legal.append(c)
            entry["moves"] = legal
        if ctx.step == "charges":
            entry["charges"] = [c for c in charges.possible(ctx, side) if c["unit"] == uid]
        if ctx.step == "firing" and uid not in ctx.x.get("fired", []):
            entry["fire"] = [fire_odds(ctx, uid, t) for t in firing.targets(ctx, uid)]
        if ctx.step == "rally":
            entry["rally"] = [c for c in rally.rallies(ctx, side) if c["unit"] == uid]
        entry["commands"] = _commands_of(ctx, side, uid)
        entry["at"] = [_where(ctx, side, c) for c in entry["commands"]]  # each command's hex on the map, or None
        out[uid] = entry
    return {"units": out, "actions": _side_actions(ctx, side)}


def preview(game: Game, side: str, command: Any) -> dict[str, Any]:
    """Judge one exact command as `submit` would, without applying it: legal or the refusal with its rule."""
    ctx = HMCtx.of(game)
    if not isinstance(command, dict):
        return {"legal": False, "rule": "commands", "message": "a command is a JSON object"}
    try:
        t = command.get("type")
        if t == "move":
            _, w = moves.plan(ctx, side, command)
            return {"legal": True, "hex": w.hex, "facing": w.facing, "formation": w.formation}
        if t == "charge":
            face = charges.judge(ctx, side, str(command.get("unit")), str(command.get("target")),
                                 [str(h) for h in command.get("path") or []])
            d = ctx.d(str(command.get("unit")))
            return {"legal": True, "face": face, "need": charge_need(d.kind, d.grade,
                                                                      ctx.staggered(str(command["unit"])))}
        if t == "fire":
            firing.judge_fire(ctx, str(command.get("unit")), str(command.get("target")), bool(command.get("card")))
            return {"legal": True, **fire_odds(ctx, str(command["unit"]), str(command["target"]))}
    except IllegalCommand as e:
        return {"legal": False, "rule": e.rule, "message": e.message}
    return {"legal": False, "rule": "commands", "message": f"no preview for a {t!r} command"}
