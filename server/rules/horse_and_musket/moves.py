"""Step two of movement (4.2, R16.11): the `move` of a unit (its whole movement for the step, one command) and the
`general` move of a general (each once, R16.11's generals' row), judged by movement.py and the command allowance
(R16.9), a Forced March card freeing a forbidden unit (R16.10)."""

from __future__ import annotations

from typing import Any

from ..kernel.errors import IllegalCommand, MalformedCommand
from . import command, deck
from .context import HMCtx
from .losses import entered, place
from .movement import BOTH, END, START, general_path_problem, parse_legs, walk
from .tables import FORCED_MARCH, GENERAL_MOVE


def _where(cmd: dict[str, Any], key: str, allowed: tuple[str, ...]) -> str:
    v = cmd.get(key, END)
    if v not in allowed:
        raise MalformedCommand(f"'{key}' is one of {', '.join(allowed)}")
    return str(v)


def plan(ctx: HMCtx, side: str, cmd: dict[str, Any]) -> tuple[str, Any]:
    """Judge a `move` without applying it: (the unit, its Walk). Refusals cite 4.2's numbers and R16.9."""
    uid = cmd.get("unit")
    if not isinstance(uid, str) or uid not in ctx.sc.units:
        raise MalformedCommand("a move names its unit")
    if ctx.step != "moves":
        raise IllegalCommand("4.2", "units move in step two of movement, after the charges")
    if ctx.side_of(uid) != side or not ctx.on_map(uid) or ctx.is_general(uid):
        raise IllegalCommand("4.2", "move one of your units on the map (a general moves by the 'general' command)")
    if uid in ctx.x.get("step_moved", []):
        raise IllegalCommand("R16.11", f"{ctx.says(uid)} has moved this step: a unit's step-two movement is one "
                                       "command")
    if any(c["unit"] == uid and c["passed"] for c in ctx.x.get("charges", [])):
        raise IllegalCommand("R16.13", f"{ctx.says(uid)} charged this turn: the charge was its move")
    formation = cmd.get("formation")
    if formation is not None and not isinstance(formation, str):
        raise MalformedCommand("'formation' names a formation")
    deploy = cmd.get("deploy_facing")
    if deploy is not None and not isinstance(deploy, str):
        raise MalformedCommand("'deploy_facing' names a hexside")
    legs = parse_legs(cmd.get("legs"))
    if not legs and formation is None and deploy is None:
        raise IllegalCommand("4.2", "a move has legs, a formation change or a deployment")
    w = walk(ctx, uid, legs, formation, _where(cmd, "formation_at", (START, END, BOTH)), deploy,
             _where(cmd, "deploy_at", (START, END)))
    return uid, w


def cmd_move(ctx: HMCtx, side: str, cmd: dict[str, Any]) -> None:
    uid, w = plan(ctx, side, cmd)
    card = cmd.get("card")
    if card is not None:
        card = deck.check(ctx, side, card, uid, (FORCED_MARCH,))
    command.act(ctx, side, uid, card)
    ctx.listed("step_moved").append(uid)
    for h in w.entered[:-1]:
        entered(ctx, uid, h)
    if w.hex != ctx.hex_of(uid):
        place(ctx, uid, w.hex)
    ctx.set_facing(uid, w.facing)
    ctx.info(uid)["formation"] = w.formation
    if w.moved:
        ctx.st.units[uid].moved = True
    ctx.emit("move", f"4.2: {ctx.says(uid)} moves to {w.hex}, facing {w.facing}, in {w.formation}", unit=uid,
             path=w.entered, hex=w.hex, facing=w.facing, formation=w.formation, rule="4.2")


def cmd_general(ctx: HMCtx, side: str, cmd: dict[str, Any]) -> None:
    gid, path = cmd.get("general"), cmd.get("path")
    if not isinstance(gid, str) or not isinstance(path, list) or not all(isinstance(h, str) for h in path):
        raise MalformedCommand("a general's move names the general and a path of hexes")
    if ctx.step != "moves":
        raise IllegalCommand("R16.11", "generals move in step two of movement (and to rally, 2.1)")
    if gid not in ctx.sc.units or ctx.side_of(gid) != side or not ctx.is_general(gid) or not ctx.on_map(gid):
        raise IllegalCommand("R16.11", "move one of your generals on the map")
    if gid in ctx.x.get("generals_moved", []):
        raise IllegalCommand("R16.11", f"{ctx.says(gid)} has moved this step")
    problem = general_path_problem(ctx, gid, path, GENERAL_MOVE)
    if problem is not None:
        raise IllegalCommand("R16.11", problem)
    ctx.listed("generals_moved").append(gid)
    ctx.move_unit(gid, path[-1])
    ctx.emit("general_move", f"R16.11: {ctx.says(gid)} rides to {path[-1]}", unit=gid, path=path[1:], hex=path[-1],
             rule="R16.11")
