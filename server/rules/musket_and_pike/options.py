"""What the page reads (R17.95, R17.96: nothing is hidden but the seed): the edition's part of the view (each wing's
order and activation state, the turn's step and segment, the initiative, every unit's state, leaders' ratings, the
points) and, for one side, what its units may do now with every command as a button and each fire's odds
(`unit_options`), and one exact command judged without applying it (`preview`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..kernel.errors import IllegalCommand
from . import actions, combat, fire
from .command import points
from .context import MPCtx
from .legal import (
    END,
    action_commands,
    can_end,
    close_combat_commands,
    face_commands,
    leader_commands,
    move_commands,
)
from .movement import allowance, legal_moves, obliged_to_charge, walk
from .tables import Kind, cc_result

if TYPE_CHECKING:
    from ..kernel.game import Game


def view(ctx: MPCtx) -> dict[str, Any]:
    x = ctx.x
    wings = {}
    for wid, w in ctx.sc.wings.items():
        state = ctx.wing(wid)
        wings[wid] = {"name": w.name, "side": w.side, "commander": w.commander, "cavalry": w.cavalry,
                      "order": state["order"], "activated": state["activated"],
                      "no_continue": state.get("no_continue", False), "continuations": state.get("continuations", 0),
                      "collapsed": state.get("collapsed", False), "active": wid == ctx.active_wing}
    units = {}
    for uid, s in ctx.st.units.items():
        if s.status != "map" or ctx.is_leader(uid):
            continue
        i = ctx.info(uid)
        units[uid] = {"facing": s.facing, "cp": i["cp"], "sp": ctx.sp_now(uid), "morale": i["morale"],
                      "cond": None if ctx.broken(uid) else i["cond"], "mode": i["mode"], "salvo": i["salvo"],
                      "pistols": i["pistols"], "moved": s.moved, "acted": uid in ctx.act_list("acted"),
                      "reacted": uid in ctx.act_list("reacted"), "attacked": uid in ctx.act_list("attacked")}
    return {
        "step": x.get("step"), "segment": x.get("segment"), "wing": x.get("wing"), "chooser": x.get("chooser"),
        "initiative": x.get("initiative"), "wings": wings, "units": units,
        "leaders": {k: dict(v) for k, v in x["leaders"].items()}, "points": points(ctx),
        "close_combat": x.get("cc"),
    }


def _unit_entry(ctx: MPCtx, side: str, uid: str) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    seg = ctx.segment
    if ctx.is_leader(uid):
        if seg == "movement":
            entry["commands"] = [c for c in leader_commands(ctx, side) if c["unit"] == uid]
        return entry
    if ctx.unit_wing(uid) != ctx.active_wing:
        return entry
    if seg == "movement" and uid not in ctx.act_list("moved_units"):
        ends = legal_moves(ctx, uid)
        entry["allowance"] = allowance(ctx, uid)
        entry["reachable"] = {h: p for h, p in sorted(ends.items())}
        entry["must_move"] = obliged_to_charge(ctx, uid)
        entry["commands"] = move_commands(ctx, uid, every_facing=True) + face_commands(ctx, uid)
    elif seg == "action":
        cmds = action_commands(ctx, side, uid)
        entry["fire"] = []
        for c in cmds:
            if c["type"] == "fire":
                kind = actions.fire_kind_for(ctx, uid, bool(c.get("salvo")))
                entry["fire"].append(fire.odds(ctx, uid, c["target"], kind))
        entry["commands"] = cmds
    elif seg == "close_combat":
        entry["commands"] = [c for c in close_combat_commands(ctx, side) if uid in c["attackers"]]
    return entry


def unit_options(game: Game, side: str, units: list[str]) -> dict[str, Any]:
    ctx = MPCtx.of(game)
    out: dict[str, Any] = {}
    if game.awaiting != side or game.state.decision is not None:
        return {"units": out}
    for uid in units:
        if uid not in ctx.sc.units or ctx.side_of(uid) != side or not ctx.on_map(uid):
            continue
        out[uid] = _unit_entry(ctx, side, uid)
    acts: list[dict[str, Any]] = []
    if can_end(ctx, side):
        acts.append(dict(END))
    return {"units": out, "actions": acts, "segment": ctx.segment, "wing": ctx.active_wing}


def preview(game: Game, side: str, command: Any) -> dict[str, Any]:
    """Judge one exact command as `submit` would, without applying it: legal or the refusal with its rule; a fire's
    odds and a close combat's modifiers and results."""
    ctx = MPCtx.of(game)
    if not isinstance(command, dict):
        return {"legal": False, "rule": "commands", "message": "a command is a JSON object"}
    t = command.get("type")
    try:
        if t == "move" and isinstance(command.get("unit"), str) and command["unit"] in ctx.sc.units \
                and not ctx.is_leader(command["unit"]):
            w = walk(ctx, command["unit"], list(command.get("path") or []))
            return {"legal": True, "hex": w.hex, "spent": w.spent, "formation_hits": len(w.hits)}
        if t == "fire":
            uid, target = str(command.get("unit")), str(command.get("target"))
            kind = actions.fire_kind_for(ctx, uid, bool(command.get("salvo")))
            return {"legal": True, **fire.odds(ctx, uid, target, kind)}
        if t == "close_combat":
            dfn, lead = str(command.get("defender")), str(command.get("lead"))
            atts = [str(a) for a in command.get("attackers") or []]
            pistols = [str(a) for a in command.get("pistols") or []]
            combat.judge(ctx, side, dfn, atts, lead, pistols)
            if ctx.kind(dfn) is Kind.ARTILLERY or ctx.broken(dfn):
                return {"legal": True, "automatic": True}
            cc = {"defender": dfn, "attackers": atts, "lead": lead, "pistols": pistols, "def_pistol": False}
            mods, total, info = combat.modifiers(ctx, cc)
            results: dict[str, float] = {}
            for die in range(10):
                r, _ = cc_result(die + total)
                results[r.text] = results.get(r.text, 0) + 0.1
            return {"legal": True, "table": "Close Combat Table (11.0)", "modifiers": mods, "raw": info["raw"],
                    "total_modifier": total, "results": {k: round(v, 2) for k, v in results.items()}}
    except IllegalCommand as e:
        return {"legal": False, "rule": e.rule, "message": e.message}
    return {"legal": False, "rule": "commands", "message": f"no preview for a {t!r} command"}
