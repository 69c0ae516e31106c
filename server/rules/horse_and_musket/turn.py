"""The round and the player turn (1-6, R16.6, R16.7): initiative, then each side's player turn of rally (2), command
(3), charges and other movement (4), firing (5) and hand-to-hand (6), then the army-break check (R16.18); after the
last round, victory points.

The kernel's phases hold the steps (R16.6): `recovery` rally and command, `movement` both movement steps, `combat`
firing and hand-to-hand; `extra.step` names the seed's step. A step in which the active side has nothing it could do
(no rally, no charge, no fire, whatever cards it holds) passes at once; every step in which a card could be played
waits for the side's own `end_step`, so no step boundary depends on a hand (R16.19).
"""

from __future__ import annotations

from typing import Any

from ..kernel.errors import IllegalCommand
from ..kernel.state import PHASE_COMBAT, PHASE_MOVEMENT, PHASE_OVER, PHASE_RECOVERY
from ..kernel.victory import game_over
from . import charges, command, deck, firing, rally
from .context import HMCtx
from .melee import melee_step
from .victory import army_break, result_on_points

INITIATIVE = "initiative"
RALLY, COMMAND, CHARGES, MOVES, FIRING, MELEE = "rally", "command", "charges", "moves", "firing", "melee"
STEPS = (RALLY, COMMAND, CHARGES, MOVES, FIRING, MELEE)
PHASE_OF = {RALLY: PHASE_RECOVERY, COMMAND: PHASE_RECOVERY, CHARGES: PHASE_MOVEMENT, MOVES: PHASE_MOVEMENT,
            FIRING: PHASE_COMBAT, MELEE: PHASE_COMBAT}
RULE_OF = {RALLY: "2", COMMAND: "3", CHARGES: "4.1", MOVES: "4.2", FIRING: "5", MELEE: "6"}
PER_TURN = ("acted", "forced", "charges", "contacts", "rallied", "generals_moved", "fired", "played", "step_moved")


def open_battle(ctx: HMCtx) -> None:
    """H22: a new game waits for its first roll for initiative, which the first side listed asks for with `end_step`
    (no die is rolled before both seats' contributions are in, R11, and a game is created before they are)."""
    ctx.st.active = ctx.sc.side_order[0]
    ctx.st.phase = PHASE_RECOVERY
    ctx.x["step"] = INITIATIVE
    ctx.emit("battle", f"R16.7: the battle opens with the first roll for initiative, asked for by "
                       f"{ctx.sc.sides[ctx.st.active].name}", rule="R16.7")


def begin_round(ctx: HMCtx) -> None:
    """1, R16.7: a d6 per side plus the army's modifier; the higher takes the first player turn; ties re-roll."""
    sc = ctx.sc
    a, b = sc.side_order
    while True:
        da, db = ctx.roll(2, f"initiative for round {ctx.st.turn}", [sc.sides[a].name, sc.sides[b].name], "1")
        ta, tb = da + sc.sides[a].initiative, db + sc.sides[b].initiative
        if ta != tb:
            break
        ctx.emit("initiative_tie", f"1: initiative tied at {ta}: both re-roll (R16.20(19))", rule="1")
    first = a if ta > tb else b
    ctx.x["order"] = [first, sc.opponent(first)]
    ctx.x["initiative"] = {a: {"die": da, "modifier": sc.sides[a].initiative, "total": ta},
                           b: {"die": db, "modifier": sc.sides[b].initiative, "total": tb}}
    ctx.emit("initiative", f"1: round {ctx.st.turn}: {sc.sides[a].name} {ta}, {sc.sides[b].name} {tb}; the first "
                           f"player turn: {sc.sides[first].name}", side=first, rule="1")
    begin_player_turn(ctx, first, 1)


def begin_player_turn(ctx: HMCtx, side: str, number: int) -> None:
    st = ctx.st
    st.active = side
    ctx.x["player_turn"] = number
    for key in PER_TURN:
        ctx.x[key] = []
    ctx.x["command"] = None
    ctx.x["steady_for"] = None
    for uid, s in st.units.items():
        s.charging = None
        if ctx.side_of(uid) == side:
            s.moved = False
    ctx.emit("player_turn", f"R16.6: round {st.turn}, player turn: {ctx.sc.sides[side].name}", side=side,
             rule="R16.6")
    enter(ctx, RALLY)


def enter(ctx: HMCtx, step: str) -> None:
    """Begin a step (R16.6), passing at once through a step the active side can do nothing in."""
    st = ctx.st
    side = st.active
    ctx.x["step"] = step
    ctx.x["played"] = []
    ctx.x["steady_for"] = None
    st.phase = PHASE_OF[step]
    if step == RALLY and not rally.rallies(ctx, side):
        enter(ctx, COMMAND)
    elif step == COMMAND:
        command.roll_groups(ctx, side)
        if not any(g["general"] for g in ctx.x["command"]["groups"]):
            end_command(ctx)
    elif step == CHARGES and not charges.possible(ctx, side):
        enter(ctx, MOVES)
    elif step == FIRING and not any(firing.targets(ctx, u) for u in ctx.units_of(side)):
        enter(ctx, MELEE)
    elif step == MELEE:
        melee_step(ctx)
        end_player_turn(ctx)


def end_command(ctx: HMCtx) -> None:
    """R16.9: the cards the step's rolls earned are drawn as it ends (an Aide-de-camp's re-roll counts)."""
    due = command.cards_due(ctx)
    if due:
        deck.draw(ctx, ctx.st.active, due, "3.t")
    enter(ctx, CHARGES)


def end_step(ctx: HMCtx, side: str) -> None:
    """The active side ends the current step (`end_step`, or the kernel's `end_phase`, which means the same here)."""
    if ctx.st.active != side or ctx.st.phase == PHASE_OVER:
        raise IllegalCommand("R16.6", "only the active side ends its steps")
    step = ctx.step
    if step == INITIATIVE:
        begin_round(ctx)
    elif step == RALLY:
        enter(ctx, COMMAND)
    elif step == COMMAND:
        end_command(ctx)
    elif step == CHARGES:
        ctx.x["steady_for"] = None
        ctx.st.tasks.append({"t": "hm_enter", "step": MOVES})
        ctx.st.tasks.append({"t": "hm_charge", "i": 0})
    elif step == MOVES:
        enter(ctx, FIRING)
    elif step == FIRING:
        enter(ctx, MELEE)
    else:
        raise IllegalCommand("R16.6", f"the {step} step ends by itself")


def task_enter(ctx: HMCtx, task: dict[str, Any]) -> None:
    enter(ctx, str(task["step"]))


def end_player_turn(ctx: HMCtx) -> None:
    """R16.18's army break, then the other side's player turn, the next round, or the end of the battle."""
    st = ctx.st
    result = army_break(ctx)
    if result is not None:
        finish(ctx, result)
        return
    if ctx.x.get("player_turn") == 1:
        begin_player_turn(ctx, ctx.sc.opponent(st.active), 2)
        return
    if st.turn >= ctx.sc.turns:
        finish(ctx, result_on_points(ctx, f"R16.18: the battle ends after round {st.turn}"))
        return
    st.turn += 1
    begin_round(ctx)


def finish(ctx: HMCtx, result: dict[str, Any]) -> None:
    """R16.18: the battle is over; the hands are now everybody's to read (R16.19, kernel/cards.py)."""
    game_over(ctx, result, result["reason"], winner=result.get("winner"), rule="R16.18")
