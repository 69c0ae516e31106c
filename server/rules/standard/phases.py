"""The Standard rules' game turn as the engine plays it (seed 002 3.2): the first player's movement and combat
phases, the second player's, and the Game Turn Marker phase; what happens when each phase begins and ends.

* Movement begins (4.1, 5.2, 6.3, 11.2, 13.2): the turn's replacement steps (11.2, unexpended ones lost), the
  overstacked hexes whose units roll for their MA (5.2), the stacks in an EZOC that may disengage by leaving a
  unit behind (6.3), the units that cannot march this turn (4.7, R13; 11.1's "eligible for march movement
  throughout the turn").
* 19.5 (S51): a lethargic side's die flips its HQs active or leaves them inactive for the turn (`lethargy`).
* Movement ends (11.1, 11.3, 12.1, 12.2, 13.2): automatic recovery of the units eligible for it, the HQs and
  trains turn active again when none of 12.1/12.2's conditions applies, units not re-entered from the TRT move to
  the next box (13.2).
* Combat begins (7.2): the triggered defenders are fixed.  A triggered defender not attacked plays its fortune of
  war (12.4) as soon as its triggering units have completed their combat (close_combat.queue_triggered_fow, S20);
  combat ends (7.2): those whose triggering units did not all fight receive theirs, a decision of the owner, before
  the phase ends; the phase does not end while a fortune of war's move leaves an attack owed (12.4, S48).
* The Game Turn Marker phase (3.2): the scenario's sudden death and instant conditions are checked at the end of
  every turn, the winner is determined after the last (3.1, 18.0: victory.py), otherwise the next turn's weather is determined (19.4, S50: a scenario with a weather
  block only) and the marker advances.
"""

from __future__ import annotations

from typing import Any

from ..kernel import hidden as kh
from ..kernel import victory as _victory
from ..kernel.errors import IllegalCommand
from ..kernel.state import PHASE_MOVEMENT, PHASE_OVER, STATUS_RETURNING, Phase
from . import victory
from .army import hq_problems, trains_problems
from .arriving import roll_arrivals
from .attacks import owed_forced
from .close_combat import queue_triggered_fow
from .combat import triggered_defenders
from .context import StdCtx
from .movement import Move, march_problem
from .recovering import in_box, recover, recovery_mode_of
from .recovery import AUTOMATIC
from .replacements import grant
from .scenario import Kind
from .stacking import overstacked_hexes
from .weather import NAMES, effects


def start(ctx: StdCtx) -> None:
    """3.2: the game starts with the first player's movement phase of turn 1."""
    ctx.st.turn = 1
    enter_phase(ctx, ctx.sc.first_player, Phase.MOVEMENT)


def enter_phase(ctx: StdCtx, side: str, phase: Phase) -> None:
    st = ctx.st
    st.active = side
    st.phase = phase.value
    name = ctx.sc.sides[side].name
    what = "movement" if phase is Phase.MOVEMENT else "combat"
    ctx.emit("phase", f"3.2: turn {st.turn} ({ctx.sc.turn_label(st.turn)}, {ctx.light()}): {name} {what} phase",
             phase=phase.value, side=side, turn=st.turn)
    if phase is Phase.MOVEMENT:
        begin_movement(ctx, side)
    else:
        begin_combat(ctx, side)


def begin_movement(ctx: StdCtx, side: str) -> None:
    st = ctx.st
    x = ctx.x
    st.any_moved = False
    for s in st.units.values():
        s.moved = False
        s.attacked = False
    x["declared"] = None
    if kh.block(st) is not None:  # 19.8 C: every marker may move again
        kh.new_phase(st)
        x["hm_declared"] = None
    x["recovered"] = []
    x["mustered"] = []
    x["flipped"] = []
    x["anchored"] = []
    x["marched"] = []  # 4.7: reset at the marching side's next movement phase
    x["charges"] = []  # 7.13(3): a charge is declared in the movement phase before its combat phase
    x["squares_new"] = []  # 9.5: squares formed this phase (removed only in a later one)
    x.pop("arrived_by", None)  # 17.4 (S60): hex -> the reinforcements that entered by it this phase (arriving.py)
    grant(ctx, side)  # 11.2, 17.2 (S62)
    roll_arrivals(ctx, side)  # 17.4 (S61)
    over = overstacked_hexes(ctx.sc, st.units, side)  # 5.2
    x["overstacked"] = sorted(u for u in ctx.sc.side_units[side] if ctx.on_map(u) and st.units[u].hex in over)
    for h in sorted(over):
        ctx.emit("overstacked", f"5.2: {h} is overstacked: its units roll for their MA", hex=h, rule="5.2")
    ezoc = ctx.zoc_of(ctx.enemy(side))
    stacks: dict[str, list[str]] = {}
    no_march = []
    for u in ctx.sc.side_units[side]:
        s = st.units[u]
        if not ctx.on_map(u) or not (ctx.kind(u).is_combat or ctx.kind(u) is Kind.LEADER):
            continue
        assert s.hex is not None
        if march_problem(ctx.sc, st.units, Move((u,), (s.hex,), 0), ezoc) is not None:
            no_march.append(u)  # 11.1, 11.3: a leader too (S14; he exerts no ZOC, so only his own hex counts)
        if ctx.kind(u).is_combat and s.hex in ezoc:
            stacks.setdefault(s.hex, []).append(u)
    x["start_stacks"] = stacks  # 6.3
    x["no_march"] = sorted(no_march)  # 4.7, 11.1
    if ctx.sc.special.lethargy is not None:
        lethargy(ctx, side)


def lethargy(ctx: StdCtx, side: str) -> None:
    """19.5 (S51): the lethargic side rolls one die at the beginning of its movement phase: on an active number each
    of its HQs is flipped to its active side unless 12.1 forbids, otherwise each is inactive for that turn (on its
    inactive side, it may move, and 12.1's recovery at the phase's end does not apply).  Either way the die, not the
    owner, decides: `extra.lethargic` lists the HQs the owner may not flip this phase (moving.cmd_flip)."""
    rule = ctx.sc.special.lethargy
    assert rule is not None
    ctx.x["lethargic"] = []
    if side != rule.side:
        return
    hqs = [h for a, h in sorted(ctx.sc.hq.items()) if ctx.side_of(h) == side and ctx.on_map(h)]
    if not hqs:
        return
    (die,) = ctx.roll(1, "lethargy", ["lethargy die"], "19.5")
    for hq in hqs:
        ctx.x["lethargic"].append(hq)
        if die not in rule.active:
            ctx.x["flipped"].append(hq)  # inactive for the turn: as if flipped to move (12.1)
            ctx.set_inactive(hq, True, f"lethargy, die {die}: inactive this turn", "19.5")
            ctx.emit("lethargy", f"19.5: die {die}: {ctx.name(hq)} is inactive this turn", unit=hq, die=die,
                     rule="19.5")
            continue
        army = ctx.sc.army_of(hq)
        tr = ctx.sc.trains.get(army)
        trains_active = tr is not None and ctx.on_map(tr) and tr not in ctx.inactive()
        problems = hq_problems(ctx.sc, ctx.st.units, army, moved=False, attacked=False, trains_active=trains_active,
                               zoc=ctx.zoc_of, occupancy=ctx.occupancy())
        ctx.emit("lethargy", f"19.5: die {die}: {ctx.name(hq)} is flipped to its active side"
                             + (f" unless 12.1 forbids: {'; '.join(problems)}" if problems else ""),
                 unit=hq, die=die, rule="19.5")
        ctx.set_inactive(hq, bool(problems), "; ".join(problems), "12.1" if problems else "19.5")


def finish_movement(ctx: StdCtx) -> None:
    st = ctx.st
    side = st.active
    x = ctx.x
    if x.get("declared"):
        ctx.emit("stay", f"4.4: {ctx.names(x['declared']['units'])} stay where they are", units=x["declared"]["units"],
                 rule="4.4")
        for u in x["declared"]["units"]:
            st.units[u].moved = True
        x["declared"] = None
    # 11.1, 11.3, 14.2(1): automatic recovery (19.8 C: units in a hidden movement box too, as not moving)
    for u in ctx.sc.side_units[side]:
        s = st.units[u]
        if not (ctx.on_map(u) or in_box(ctx, u)) or not (s.disrupted or s.ineffective) or u in x.get("recovered", []):
            continue
        if ctx.kind(u) in (Kind.HQ, Kind.TRAINS):
            continue
        if recovery_mode_of(ctx, u) == AUTOMATIC:
            recover(ctx, u, "14.2(1)" if ctx.light() == "night" else ("11.3" if s.ineffective and not s.disrupted else "11.1"))
    # 12.1, 12.2: HQ and trains turn active again when none of the conditions applies
    flipped = set(x.get("flipped", []))
    for army in sorted({ctx.sc.army_of(h) for h in ctx.sc.hq.values() if ctx.side_of(h) == side}):
        tr = ctx.sc.trains.get(army)
        hq = ctx.sc.hq.get(army)
        trains_active = False
        if tr is not None and ctx.on_map(tr):
            problems = trains_problems(ctx.sc, st.units, army, moved=tr in flipped, attacked=False,
                                   zoc=ctx.zoc_of, occupancy=ctx.occupancy())
            trains_active = not problems
            ctx.set_inactive(tr, bool(problems), "; ".join(problems), "12.2")
        if hq is not None and ctx.on_map(hq):
            problems = hq_problems(ctx.sc, st.units, army, moved=hq in flipped, attacked=False, trains_active=trains_active,
                                   zoc=ctx.zoc_of, occupancy=ctx.occupancy())
            ctx.set_inactive(hq, bool(problems), "; ".join(problems), "12.1")
    # 13.2: units not placed move to the next box of the TRT
    for u in ctx.sc.side_units[side]:
        s = st.units[u]
        if s.status == STATUS_RETURNING and s.entry_turn is not None and s.entry_turn <= st.turn:
            s.entry_turn = st.turn + 1
            ctx.emit("trt", f"13.2: {ctx.name(u)} was not placed and moves to the turn {st.turn + 1} box", unit=u,
                     rule="13.2")


def begin_combat(ctx: StdCtx, side: str) -> None:
    st = ctx.st
    st.attacked_hexes = []
    st.attack_from = {}
    st.combat = None
    for s in st.units.values():
        s.attacked = False
    ctx.x["attacked_units"] = []
    ctx.x["cavalry_charged"] = []  # 9.3(2): the hexes attacked only by cavalry charges this phase
    ctx.x["bound"] = {}  # 12.4 (S48): units a fortune of war moved -> their hex
    ctx.x["forced"] = []  # 12.4 (S48): the attacks such a move obliges the phasing player to make
    ctx.x["bombarded"] = []  # 8.4: the hexes bombarded this phase
    ctx.x["fow_7_2_given"] = []  # 7.2 (S20): the triggered defenders whose fortune of war has come
    if ctx.light() == "night":
        ctx.x["triggered"] = {}  # 14.2(4): no combat at night except infantry charges (7.2 owes no FOW)
        return
    ctx.x["triggered"] = {k: list(v) for k, v in triggered_defenders(ctx.sc, st.units, side).items()}


def end_phase(ctx: StdCtx) -> None:
    """The active player ends the phase (3.2)."""
    st = ctx.st
    if st.phase == PHASE_MOVEMENT:
        finish_movement(ctx)
        st.tasks.append({"t": "next_phase"})
        return
    forced = owed_forced(ctx, st.active)
    if forced:
        f = forced[0]
        raise IllegalCommand("12.4", f"{ctx.names(f['units'])}, moved by a fortune of war, must first attack "
                                     f"{f['target']}")
    # 7.2 (S20): a triggered defender not attacked whose fortune of war has not come yet (a unit that triggered it
    # made no combat) receives it before the phase ends
    st.tasks.append({"t": "next_phase"})
    queue_triggered_fow(ctx, phase_end=True)


def next_phase(ctx: StdCtx) -> None:
    st = ctx.st
    first = ctx.sc.first_player
    second = ctx.sc.opponent(first)
    if st.phase == PHASE_MOVEMENT:
        enter_phase(ctx, st.active, Phase.COMBAT)
        return
    if st.active == first:
        enter_phase(ctx, second, Phase.MOVEMENT)
        return
    turn_marker(ctx)


def turn_marker(ctx: StdCtx) -> None:
    """3.2: the Game Turn Marker phase."""
    st = ctx.st
    _victory.update_control(ctx)
    sd = victory.instant_result(ctx)  # sudden death and the scenario's instant conditions (S68)
    if sd is not None:
        finish_game(ctx, sd)
        return
    if st.turn >= ctx.sc.turns:
        finish_game(ctx, victory.final_result(ctx))  # 3.1, 18.0
        return
    next_weather(ctx)
    st.turn += 1
    ctx.emit("turn", f"3.2: the Game Turn marker advances to turn {st.turn} ({ctx.sc.turn_label(st.turn)})",
             turn=st.turn, rule="3.2")
    enter_phase(ctx, ctx.sc.first_player, Phase.MOVEMENT)


def next_weather(ctx: StdCtx) -> None:
    """3.2, 19.4 (S50): the next turn's weather, determined in the Game Turn marker phase: fixed by the scenario for
    that turn (no die), else one die on the Rain Table's row for the current weather.  No weather block, no roll."""
    w = ctx.sc.weather
    if w is None:
        return
    now, turn = ctx.weather(), ctx.st.turn + 1
    fixed = w.fixed(turn)
    if fixed is not None:
        new = fixed
        text = f"19.4: turn {turn}'s weather is fixed by the scenario: {NAMES[new]}"
    else:
        (die,) = ctx.roll(1, "weather", ["weather die"], "19.4")
        new = w.next_weather(now, die)
        text = f"19.4: Rain Table, {NAMES[now]} row, die {die}: turn {turn} will be {NAMES[new]}"
    ctx.x["weather"] = new
    ctx.emit("weather", f"{text} ({effects(new)})", weather=new, turn=turn, forced=fixed is not None, rule="19.4")


def finish_game(ctx: StdCtx, result: dict[str, Any]) -> None:
    st = ctx.st
    st.result = result
    st.phase = PHASE_OVER
    st.decision = None
    st.tasks = []
    ctx.emit("game_over", f"3.2: {result['reason']}", result=result)


def army_conditions(ctx: StdCtx) -> None:
    """12.1, 12.2 at any moment: an HQ or trains in an EZOC, or without its safe line, turns inactive at once."""
    for army, uid in sorted(list(ctx.sc.hq.items()) + list(ctx.sc.trains.items())):
        if not ctx.on_map(uid) or uid in ctx.inactive():
            continue
        if ctx.kind(uid) is Kind.HQ:
            tr = ctx.sc.trains.get(army)
            trains_active = tr is not None and ctx.on_map(tr) and tr not in ctx.inactive()
            problems = hq_problems(ctx.sc, ctx.st.units, army, moved=False, attacked=False, trains_active=trains_active,
                                   zoc=ctx.zoc_of, occupancy=ctx.occupancy())
        else:
            problems = trains_problems(ctx.sc, ctx.st.units, army, moved=False, attacked=False, zoc=ctx.zoc_of, occupancy=ctx.occupancy())
        if problems:
            ctx.set_inactive(uid, True, "; ".join(problems), "12.1" if ctx.kind(uid) is Kind.HQ else "12.2")
