"""The Standard rules' movement phase as commands (seed 002 2.6, 4.x, 5.2, 6.2-6.3, 10.1, 11.x, 12.1-12.2, 13.x).

Commands (docs/engine-contract.md):

* `flip {unit}`: 2.6 an artillery or cavalry unit to its ineffective side, or 12.1/12.2 the HQ or trains to its
  inactive side so that it may move; only at the beginning of the phase, before any unit moves.
* `declare {units, march?}`: 4.4: a move whose MA must be rolled (a printed V, disrupted, ineffective (S2),
  overstacked (5.2), disengaging (6.3), its army's HQ inactive (12.1)) is declared first; the dice are rolled at
  once (undo stops there: a roll is a barrier) and the rolled MA waits for the `move` (or `stay`).
* `move {units, path, march?, off_map?}`: 4.2-4.7, 6.2-6.3 a stack, 10.1 leaders alone, 12.1 the HQ, 12.2 the
  trains, 13.1 a reinforcement entering (the first hex of the path is the hex entered); `off_map`: 4.1 the units
  leave the map from the last hex of the path, treated as routed with an unsafe line (7.10).  In Heavy Rain no
  mover spends more than 4 MP, whatever its MA (19.4, weather.py).
* `stay {}`: 4.4 the declared units do not move after all.
* `recover {unit}`: 11.1, 11.3 in lieu of a move or at its end: automatic when eligible, else a morale check.

`replace`, `muster` (11.2) and `reenter` (13.2) are mustering.py's.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from ..kernel.errors import IllegalCommand
from ..kernel.game import check_fields
from ..kernel.state import (
    PHASE_MOVEMENT,
    STATUS_OFFBOARD,
    Status,
)
from . import line
from .arriving import after_entry, entry_listed
from .context import StdCtx
from .hidden import halt_index, marker_block, no_entry
from .movement import (
    HALF,
    Move,
    check_entry,
    check_hq_move,
    check_move,
    check_trains_move,
    entry_choices,
    ma_dice,
    march_problem,
    may_disengage,
    movement_allowance,
    path_kind,
    printed_side,
    roll_reasons,
    step_cost,
    trains_captured,
)
from .recovering import (
    recover,
    recover_problem,
    recovery_assist_problem,
    recovery_check,
    recovery_mode_of,
)
from .recovery import AUTOMATIC
from .scenario import Kind
from .squares import after_move, square_move_problem
from .tactics import in_span
from .turn import may_flip_ineffective
from .weather import mp_cap, mp_refusal

LEADER_MP = 12  # 10.1

STACK = "stack"
ENTRY = "entry"
HQ = "hq"
TRAINS = "trains"
LEADERS = "leaders"
MARCHERS = (STACK, ENTRY)  # 4.7; 13.1 (S18): a reinforcement moves normally, march movement included


@dataclass
class Plan:
    """A move as declared: who, what kind of mover, from where, and why it must roll (4.4)."""

    units: list[str]
    kind: str
    start: str
    disengaging: bool = False
    reasons: dict[str, list[str]] = field(default_factory=dict)
    listed: tuple[str, ...] = ()  # 13.1, 17.4: a reinforcement's listed entry hexes (S60)

    @property
    def rolls(self) -> bool:
        return any(self.reasons.values())


def require_movement_phase(ctx: StdCtx, side: str) -> None:
    """4.1: the movement phase's commands are the active player's, in his own movement phase."""
    if ctx.st.phase != PHASE_MOVEMENT or ctx.st.active != side:
        raise IllegalCommand("4.1", "units move only in their own movement phase")


def plan(ctx: StdCtx, side: str, units: Sequence[str], march: bool = False) -> Plan:
    """Who may move together now, and whether the move rolls (4.2, 4.4, 6.3, 10.1, 12.1, 12.2, 13.1)."""
    st = ctx.st
    sc = ctx.sc
    if not units or len(set(units)) != len(units):
        raise IllegalCommand("4.2", "name each moving unit once")
    for u in units:
        if u not in sc.units:
            raise IllegalCommand("4.2", f"there is no unit '{u}'")
        if ctx.side_of(u) != side:
            raise IllegalCommand("4.1", f"{ctx.name(u)} is not yours: the inactive player's units may not be moved")
        if st.units[u].moved:
            raise IllegalCommand("4.2", f"{ctx.name(u)} has moved this phase; its move may not be changed")
        if u in ctx.x.get("anchored", []):
            raise IllegalCommand("6.3", f"{ctx.name(u)} stays so that a stack-mate could disengage")
    kinds = {ctx.kind(u) for u in units}
    offboard = [u for u in units if st.units[u].status == STATUS_OFFBOARD]
    if offboard:
        if len(offboard) != len(units):
            raise IllegalCommand("13.1", "reinforcements enter together only with other reinforcements")
        for u in units:
            s = st.units[u]
            if s.entry_turn is None or s.entry_turn > st.turn:
                raise IllegalCommand("13.1", f"{ctx.name(u)} arrives on turn {s.entry_turn}, not before")
        listed = entry_listed(ctx, units)  # 13.1, 17.4 (S60)
        p = Plan(list(units), ENTRY, listed[0], listed=listed)
        for u in units:
            p.reasons[u] = roll_reasons(sc, st.units[u], hq_inactive=ctx.hq_inactive(u)) if ctx.kind(u).is_combat else []
        return p
    if any(not ctx.on_map(u) for u in units):
        raise IllegalCommand("4.2", "only units on the map (or arriving reinforcements) move")
    start = st.units[units[0]].hex
    assert start is not None
    if any(st.units[u].hex != start for u in units):
        raise IllegalCommand("4.2", "a stack moves together: its units must start in the same hex")
    if Kind.HQ in kinds or Kind.TRAINS in kinds:
        if len(units) != 1:
            raise IllegalCommand("12.1", "an HQ or trains moves alone")
        k = HQ if Kind.HQ in kinds else TRAINS
        declared = ctx.x.get("declared") or {}
        resumed = declared.get("halted") and list(declared["units"]) == list(units)  # S54: entered, then halted
        if units[0] not in ctx.x.get("flipped", []) and not resumed:
            rule = "12.1" if k == HQ else "12.2"
            raise IllegalCommand(rule, f"{ctx.name(units[0])} must be flipped to its inactive side at the beginning "
                                       "of the phase to move")
        if march and k == HQ:
            raise IllegalCommand("4.7", "the HQ moves like a cavalry unit, with its full MA (12.1)")
        return Plan(list(units), k, start)
    if kinds == {Kind.LEADER}:
        if march:
            raise IllegalCommand("4.7", "march movement is made by combat units")
        return Plan(list(units), LEADERS, start)
    p = Plan(list(units), STACK, start)
    p.disengaging = ctx.in_ezoc(start, side)
    if (march or p.disengaging) and line.line_ma(ctx, units) is not None:
        raise IllegalCommand("19.7 C", f"a unit in line may not {'use march movement' if march else 'disengage'}")
    if p.disengaging and ctx.light() != "night":  # 14.2(3): at night all units disengage freely
        stack = ctx.x.get("start_stacks", {}).get(start, [])
        staying = [u for u in ctx.units_at(start) if u not in units and not st.units[u].moved]
        for u in units:
            if ctx.kind(u).is_combat:
                why = may_disengage(sc, st.units, u, stack, staying)
                if why:
                    raise IllegalCommand("6.3", why)
    for u in units:
        if ctx.kind(u).is_combat:
            p.reasons[u] = roll_reasons(sc, st.units[u], overstacked=u in ctx.x.get("overstacked", []),
                                        disengaging=p.disengaging, hq_inactive=ctx.hq_inactive(u))
    return p


def printed_ma(ctx: StdCtx, p: Plan, march: bool) -> int:
    """4.2: the MA of a move made without a roll (4.4): the stack's slowest unit's, printed or march (4.7); the HQ's
    or trains' inactive MA (12.1, 12.2); a leader's 12 MP (10.1)."""
    if p.kind in (HQ, TRAINS):
        return ctx.d(p.units[0]).inactive_ma
    if p.kind == LEADERS or not any(ctx.kind(u).is_combat for u in p.units):
        return LEADER_MP  # 10.1: a leader alone (arriving too, 13.1)
    if p.kind == STACK and (lma := line.line_ma(ctx, p.units)) is not None:
        return lma  # 19.7 C: the line marker's MA in lieu of the unit's
    return min(movement_allowance(ctx.sc, ctx.st.units[u], marching=march) for u in p.units if ctx.kind(u).is_combat)


def assisted_ma(ctx: StdCtx, side: str, p: Plan, leader: Any, march: bool) -> int:
    """4.2 with 10.3: the stack's MA (its slowest unit's), the assisted unit's raised by the leader's movement."""
    if leader is None:
        return printed_ma(ctx, p, march)
    unit, value = movement_assist(ctx, side, p, leader, march)
    return min(movement_allowance(ctx.sc, ctx.st.units[u], marching=march) + (value if u == unit else 0)
               for u in p.units if ctx.kind(u).is_combat)


def movement_assist(ctx: StdCtx, side: str, p: Plan, leader: Any, march: bool) -> tuple[str, int]:
    """10.3 (S35): the unit a leader moving with the stack assists (the slowest combat unit of the stack in his
    span) and his movement value, or IllegalCommand."""
    if not isinstance(leader, str) or leader not in p.units or ctx.kind(leader) is not Kind.LEADER:
        raise IllegalCommand("10.3", "the assisting leader moves with the stack he assists")
    if p.kind != STACK or march:
        raise IllegalCommand("10.3", "a leader assists a unit's normal movement")
    s = ctx.st.units[leader]
    lf = ctx.d(leader).leader
    if s.ineffective or lf is None:
        raise IllegalCommand("10.1", f"{ctx.name(leader)} is ineffective and has no game effects")
    if ctx.x.get("assisted", {}).get(leader) == ctx.st.turn:
        raise IllegalCommand("10.3", f"{ctx.name(leader)} has assisted a unit this turn")
    fits = [u for u in p.units if ctx.kind(u).is_combat and in_span(ctx.sc, leader, u)]
    if not fits:
        raise IllegalCommand("10.3", f"no unit of the stack is within {ctx.name(leader)}'s command span")
    unit = min(fits, key=lambda u: (printed_side(ctx.sc, ctx.st.units[u]).ma or 6, u))  # a V counts 6 (S3)
    return unit, lf.movement


def validate_path(ctx: StdCtx, side: str, p: Plan, path: Sequence[str], ma: int, march: bool,
                  off_map: bool = False) -> int:
    """The whole move along `path` under the rules for its kind of mover; its cost in half MP or IllegalCommand."""
    sc = ctx.sc
    units = ctx.st.units
    if not path or any(not isinstance(h, str) or h not in sc.grid for h in path):
        raise IllegalCommand("4.2", "the path must name hexes of the map")
    if off_map:
        if p.kind != STACK:
            raise IllegalCommand("4.1", "only combat units (with their leaders) move off the map")
        if not sc.grid.is_edge(path[-1]):
            raise IllegalCommand("4.1", f"units leave the map from an edge hex, not {path[-1]}")
        if len(path) == 1:
            if path[0] != p.start:
                raise IllegalCommand("4.2", f"the path must start at the stack's hex {p.start}")
            if p.disengaging and ma < 1:
                raise IllegalCommand("6.3", "the rolled MA is not enough to disengage")
            return 0
    night_ezoc = ctx.light() == "night"
    if p.kind == ENTRY and not any(ctx.kind(u).is_combat for u in p.units):  # leaders alone: 10.1 once on the map
        halves = check_entry(sc, units, p.units, p.listed, path[:1], ma)
        halves += check_leader_move(ctx, side, path) if len(path) > 1 else 0
    elif p.kind == ENTRY:
        halves = check_entry(sc, units, p.units, p.listed, path, ma, marching=march)
    elif p.kind == HQ:
        halves = check_hq_move(sc, units, p.units[0], path)
        night_ezoc = False
    elif p.kind == TRAINS:
        halves = check_trains_move(sc, units, p.units[0], path)
        night_ezoc = False
    elif p.kind == LEADERS:
        halves = check_leader_move(ctx, side, path)
        night_ezoc = False
    else:
        problem = square_move_problem(ctx, p.units, path)
        if problem:
            raise IllegalCommand("9.5", problem.split(": ", 1)[1])
        halves = check_move(sc, units, Move(tuple(p.units), tuple(path), ma, marching=march, disengaging=p.disengaging),
                           ctx.zoc_of(ctx.enemy(side)), ctx.occupancy())
        problem = line.move_problem(ctx, p.units, path, halves, march=march, disengaging=p.disengaging, half=HALF)
        if problem:
            raise line.refusal(problem)  # 19.7 B, C
    if p.kind in (HQ, TRAINS, LEADERS) and (ctx.x.get("declared") or {}).get("halted") and halves > ma * HALF:
        raise IllegalCommand("4.3", f"the move needs {halves / HALF:g} MP; {ma} are left after the halt (19.8 D)")
    spots = marker_block(ctx, side) if p.kind in MARCHERS else set()
    if spots and any(h in spots for h in (path if p.kind == ENTRY else path[1:])):
        raise IllegalCommand("19.8 C", "a hidden movement marker never stacks with combat units, even in passing")
    cap = mp_cap(ctx.weather())  # 19.4: Heavy Rain, every mover (rolled, marching, entering, HQ, trains, leaders)
    if cap is not None and halves > cap * HALF:
        raise IllegalCommand("19.4", mp_refusal(halves / HALF))
    if night_ezoc:
        ezoc = ctx.zoc_of(ctx.enemy(side))
        for h in path[1:] if p.kind != ENTRY else path:
            if h in ezoc:
                raise IllegalCommand("14.2(3)", f"at night only charging units enter an enemy zone of control ({h})")
    return halves


def check_leader_move(ctx: StdCtx, side: str, path: Sequence[str]) -> int:
    """10.1: a leader moving alone has 12 MP, pays 1 MP a hex (½ along a road), never enters prohibited terrain or
    an EZOC, and leaves an EZOC freely."""
    sc = ctx.sc
    if len(path) < 2:
        raise IllegalCommand("4.2", "the path must enter at least one hex")
    ezoc = ctx.zoc_of(ctx.enemy(side))
    halves = 0
    for a, b in pairwise(path):
        if not sc.grid.is_adjacent(a, b):
            raise IllegalCommand("4.2", f"{a} to {b} is not a step between adjacent hexes")
        if ctx.enemy_occupied(b, side):
            raise IllegalCommand("4.2", f"{b} is occupied by the enemy")
        if any(ctx.kind(u) is Kind.TRAINS and ctx.side_of(u) == side for u in ctx.units_at(b)):
            raise IllegalCommand("12.2", f"no friendly unit moves through its trains ({b})")
        if not sc.could_move("leader", a, b):
            raise IllegalCommand("10.1", f"{b}: prohibited terrain or hexside for a leader")
        if b in ezoc:
            raise IllegalCommand("10.1", f"a leader moving alone may not enter an enemy zone of control ({b})")
        halves += 1 if path_kind(sc, a, b) == "road" else HALF
        if halves > LEADER_MP * HALF:
            raise IllegalCommand("10.1", f"entering {b} needs {halves / HALF:g} MP; a leader has {LEADER_MP}")
    if len(set(path)) != len(path):
        raise IllegalCommand("4.2", "the path enters a hex twice")
    return halves


# --- commands -------------------------------------------------------------------------------------
def cmd_flip(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"unit": "id"}, {})
    require_movement_phase(ctx, side)
    uid = cmd["unit"]
    if uid not in ctx.sc.units or ctx.side_of(uid) != side:
        raise IllegalCommand("2.6", "flip one of your own units")
    if ctx.x.get("declared"):
        raise IllegalCommand("4.4", "first carry out the declared move")
    k = ctx.kind(uid)
    if k in (Kind.HQ, Kind.TRAINS):
        rule = "12.1" if k is Kind.HQ else "12.2"
        if ctx.st.any_moved:
            raise IllegalCommand(rule, f"{ctx.name(uid)} is flipped at the beginning of the phase, before any unit moves")
        if not ctx.on_map(uid):
            raise IllegalCommand(rule, f"{ctx.name(uid)} is not on the map")
        if uid in ctx.x.get("lethargic", []):
            raise IllegalCommand("19.5", f"{ctx.name(uid)} was flipped by the lethargy die this phase, not by choice")
        if uid in ctx.x.get("flipped", []):
            raise IllegalCommand(rule, f"{ctx.name(uid)} is already flipped to move this phase")
        ctx.x.setdefault("flipped", []).append(uid)
        if uid in ctx.inactive():
            ctx.emit("flip", f"{rule}: {ctx.name(uid)} is already inactive and may move", unit=uid, rule=rule)
        else:
            ctx.set_inactive(uid, True, "flipped to move", rule)
        return
    why = may_flip_ineffective(ctx.sc, ctx.st.units[uid], ctx.st.active, ctx.st.phase, ctx.st.any_moved)
    if why:
        raise IllegalCommand("2.6", why.split(": ", 1)[1])
    ctx.make_ineffective(uid, "2.6")


def cmd_declare(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"units": "ids"}, {"assist": "id"})
    require_movement_phase(ctx, side)
    march = cmd.get("march", False)
    if not isinstance(march, bool):
        raise IllegalCommand("4.7", "'march' is true or false")
    if ctx.x.get("declared"):
        raise IllegalCommand("4.4", "first carry out the declared move")
    p = plan(ctx, side, cmd["units"], march)
    if not p.rolls:
        raise IllegalCommand("4.4", "these units move with their printed MA: move them without declaring")
    problem = march_refusal(ctx, p) if march else None
    if problem:
        raise IllegalCommand("4.7", problem)
    helped = movement_assist(ctx, side, p, cmd["assist"], march) if cmd.get("assist") is not None else None
    ma = None
    for u in p.units:
        if not ctx.kind(u).is_combat:
            continue
        s = ctx.st.units[u]
        if p.reasons.get(u):
            n = ma_dice(ctx.sc, s, marching=march)
            why = ", ".join(p.reasons[u])
            dice = ctx.roll(n, "movement allowance", ["MA die"] * n, "4.4", unit=u)
            got = movement_allowance(ctx.sc, s, dice, marching=march)
            ctx.emit("ma", f"4.4: {ctx.name(u)} rolls for its MA ({why}): {got} MP", unit=u, ma=got, rule="4.4")
        else:
            got = movement_allowance(ctx.sc, s, marching=march)
        if helped and helped[0] == u:  # 10.3: the leader's movement value is added to the die result
            got += helped[1]
            ctx.emit("ma", f"10.3: {ctx.name(cmd['assist'])} adds {helped[1]} MP to {ctx.name(u)}: {got} MP", unit=u,
                     ma=got, rule="10.3")
        ma = got if ma is None else min(ma, got)
    assert ma is not None
    cap = mp_cap(ctx.weather())
    if cap is not None and ma > cap:
        ctx.emit("ma", f"19.4: in Heavy Rain {ctx.names(p.units)} move at most {cap} MP", units=list(p.units), ma=cap,
                 rule="19.4")
    if helped:
        ctx.x.setdefault("assisted", {})[cmd["assist"]] = ctx.st.turn
    ctx.x["declared"] = {"units": list(p.units), "ma": ma, "march": march,
                         **({"assist": cmd["assist"]} if helped else {})}
    if p.disengaging and ctx.light() != "night":
        anchored = [u for u in ctx.x.get("start_stacks", {}).get(p.start, []) if u not in p.units]
        ctx.x.setdefault("anchored", []).extend(a for a in anchored[:1] if a not in ctx.x["anchored"])
    if not any(path_ok(ctx, side, p, path, ma, march) for path in reachable(ctx, side, p, ma, march, check=False).values()):
        ctx.emit("stay", f"4.4, 6.3: {ctx.names(p.units)} cannot reach another hex with {ma} MP and stay",
                 units=p.units, rule="6.3" if p.disengaging else "4.4")
        mark_moved(ctx, p.units)
        ctx.x["declared"] = None


def mark_moved(ctx: StdCtx, units: Sequence[str]) -> None:
    """4.2: these units have made their move this phase (a stay, a charge, a recovery in lieu of a move: 4.1), and
    a unit has moved (`any_moved`: what 2.6, 9.5 and 12.1 allow only before any unit moves is over)."""
    for u in units:
        ctx.st.units[u].moved = True
    ctx.st.any_moved = True


def cmd_stay(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {}, {})
    require_movement_phase(ctx, side)
    d = ctx.x.get("declared")
    if not d:
        raise IllegalCommand("4.4", "no move has been declared")
    mark_moved(ctx, d["units"])
    ctx.x["declared"] = None
    ctx.emit("stay", f"4.4: {ctx.names(d['units'])} stay where they are", units=d["units"], rule="4.4")


def cmd_move(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"units": "ids"}, {"assist": "id"})
    require_movement_phase(ctx, side)
    path = cmd.get("path")
    if not isinstance(path, list) or not path or not all(isinstance(h, str) for h in path):
        raise IllegalCommand("4.2", "the move needs its path: a list of hex ids")
    march = cmd.get("march", False)
    off_map = cmd.get("off_map", False)
    if not isinstance(march, bool) or not isinstance(off_map, bool):
        raise IllegalCommand("4.2", "'march' and 'off_map' are true or false")
    declared = ctx.x.get("declared")
    units = list(cmd["units"])
    if declared:
        if sorted(units) != sorted(declared["units"]):
            raise IllegalCommand("4.4", f"first carry out the declared move of {ctx.names(declared['units'])} (or stay)")
        march = declared["march"]
        p = plan(ctx, side, units, march)
        ma = int(declared["ma"])
        if cmd.get("assist") is not None and cmd["assist"] != declared.get("assist"):
            raise IllegalCommand("10.3", "a leader's movement assist is named when the move is declared")
    else:
        p = plan(ctx, side, units, march)
        if p.rolls:
            why = "; ".join(f"{ctx.name(u)}: {', '.join(r)}" for u, r in p.reasons.items() if r)
            raise IllegalCommand("4.4", f"the MA must be rolled when the move begins ({why}): declare the move first")
        ma = assisted_ma(ctx, side, p, cmd.get("assist"), march)
    if march and p.kind in MARCHERS and any(ctx.kind(u).is_combat for u in units):
        pass
    elif march and p.kind not in (TRAINS,):
        raise IllegalCommand("4.7", "march movement is made by combat units")
    halves = validate_path(ctx, side, p, path, ma, march and p.kind in MARCHERS, off_map)
    halt = halt_index(ctx, side, path, 0 if p.kind == ENTRY else 1)  # every mover, leaders, HQ, trains too (S75)
    if halt is not None and halt < len(path) - 1:  # 19.8 D: a marker comes into sight: the move halts there
        path, off_map = path[:halt + 1], False
        halves = validate_path(ctx, side, p, path, ma, march and p.kind in MARCHERS, off_map)
    else:
        halt = None
    if cmd.get("assist") is not None and not declared:
        ctx.x.setdefault("assisted", {})[cmd["assist"]] = ctx.st.turn
        ctx.emit("assist", f"10.3: {ctx.name(cmd['assist'])} adds his movement to the stack's MA ({ma} MP)",
                 unit=cmd["assist"], rule="10.3")
    if p.kind == ENTRY:
        for u in units:
            ctx.set_status(u, Status.MAP)
            s = ctx.st.units[u]
            s.entry_turn = None
            s.entry_hex = None
        after_entry(ctx, units, path[0], p.listed)  # 17.4 (S60)
    ctx.passing(units, path)  # 18.1 (S68)
    for u in units:
        ctx.move_unit(u, path[-1])
    mark_moved(ctx, units)
    ctx.x["declared"] = None
    if halt is not None:  # 19.8 D (S54): revealed, deployed, then the move goes on with the MP left
        left = (ma * HALF - halves) // HALF
        cap = mp_cap(ctx.weather())
        for u in units:
            ctx.st.units[u].moved = False
        ctx.x["declared"] = {"units": list(units), "ma": left if cap is None else min(left, cap - halves // HALF),
                             "march": march, "halted": True}
    if p.kind == STACK and ctx.st.squares:
        after_move(ctx, units, path)  # 9.5
    line.after_move(ctx, side, units, path, entering=p.kind == ENTRY)  # 19.7 A-C
    how = " marching" if march and p.kind in MARCHERS else ""
    ctx.emit("move", f"4.2: {ctx.names(units)}{how} {'enter at ' + path[0] + ' and ' if p.kind == ENTRY else ''}"
                     f"move to {path[-1]} ({halves / HALF:g} MP)",
             units=units, path=list(path), rule="13.1" if p.kind == ENTRY else "4.2")
    if p.kind in MARCHERS and march:
        ctx.x.setdefault("marched", []).extend(u for u in units if ctx.kind(u).is_combat)
    if p.kind in (STACK, ENTRY):
        movers = [u for u in units if ctx.kind(u).is_combat]
        if march_problem(ctx.sc, ctx.st.units, Move(tuple(movers), tuple(path), 0)) is not None if movers else False:
            nm = ctx.x.setdefault("no_march", [])
            nm.extend(u for u in movers if u not in nm)
        capture_trains(ctx, side, path, "12.2")
    if off_map:
        for u in units:
            leave_map(ctx, u, "4.1")


def capture_trains(ctx: StdCtx, side: str, path: Sequence[str], rule: str) -> None:
    """12.2: a move of `side`'s combat units (a charge's or a fortune of war's too) captures the enemy trains in
    the hexes it enters; check_move lets it enter only a hex the trains hold alone."""
    for t in trains_captured(ctx.sc, ctx.st.units, side, path):
        ctx.set_status(t, Status.CAPTURED)
        ctx.emit("captured", f"{rule}: {ctx.name(t)} is captured", unit=t, rule="12.2")


def leave_map(ctx: StdCtx, uid: str, rule: str) -> None:
    """4.1, 7.10: a unit off the map is treated as routed with an unsafe line: it goes to the TRT two turns ahead
    (set aside in the last two turns); a leader is set aside with it."""
    st = ctx.st
    box = st.turn + 2
    if ctx.kind(uid).is_combat and box <= ctx.sc.turns:
        ctx.set_status(uid, Status.RETURNING)
        s = st.units[uid]
        s.entry_turn = box
        s.disrupted = False
        ctx.emit("trt", f"{rule}, 7.10: {ctx.name(uid)} leaves the map for the turn {box} box of the TRT", unit=uid,
                 rule="7.10")
    else:
        ctx.set_status(uid, Status.REMOVED)
        ctx.emit("removed", f"{rule}, 7.10: {ctx.name(uid)} leaves the map and is set aside", unit=uid, rule="7.10")


def cmd_recover(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"unit": "id"}, {"assist": "id"})
    require_movement_phase(ctx, side)
    uid = cmd["unit"]
    if ctx.x.get("declared"):
        raise IllegalCommand("4.4", "first carry out the declared move")
    problem = recover_problem(ctx, side, uid)
    if problem:
        raise IllegalCommand(*problem)
    leader = cmd.get("assist")
    if leader is not None:
        why = recovery_assist_problem(ctx, side, uid, leader)
        if why:
            rule, _, text = why.partition(": ")
            raise IllegalCommand(rule, text)
        if recovery_mode_of(ctx, uid) == AUTOMATIC:
            raise IllegalCommand("10.3", f"{ctx.name(uid)} recovers automatically: no check for a leader to help")
    ctx.x.setdefault("recovered", []).append(uid)
    mode = recovery_mode_of(ctx, uid)
    s = ctx.st.units[uid]
    rule = "11.3" if s.ineffective and not s.disrupted else "11.1"
    if not s.moved:
        mark_moved(ctx, [uid])  # 4.1: in lieu of movement
    if mode == AUTOMATIC:
        recover(ctx, uid, "14.2(1)" if ctx.light() == "night" else rule)
        return
    bonus = 0
    if leader is not None:
        lf = ctx.d(leader).leader
        bonus = lf.morale if lf is not None else 0
        ctx.x.setdefault("assisted", {})[leader] = ctx.st.turn
    if recovery_check(ctx, uid, rule, bonus):  # 11.1, 11.3 (S14: a leader too)
        recover(ctx, uid, rule)


# --- where a move may go (for the page and the bots; every path is checked by validate_path) ----------------
def reachable(ctx: StdCtx, side: str, p: Plan, ma: int, march: bool, check: bool = True) -> dict[str, list[str]]:
    """Destination -> a legal path for this move with `ma` MP (the cheapest the search finds).  `check=False`
    leaves out the final validation of each path (callers then validate the few they use)."""
    sc = ctx.sc
    units = ctx.st.units
    ezoc = ctx.zoc_of(ctx.enemy(side))
    night = ctx.light() == "night"
    enemy_held = {h for h, us in ctx.occupancy().items() if any(ctx.side_of(u) != side and ctx.kind(u) is not Kind.TRAINS for u in us)}
    enemy_trains = {h for h, us in ctx.occupancy().items() if any(ctx.side_of(u) != side for u in us)} - enemy_held
    own_trains = {units[u].hex for u in sc.trains.values() if ctx.side_of(u) == side and ctx.on_map(u)}
    own_trains |= no_entry(ctx, side, p.kind in MARCHERS)  # 19.8 C: nor through a marker's hex (S75)
    others = {h for h, us in ctx.occupancy().items() if any(ctx.kind(u).is_combat and u not in p.units for u in us)}
    classes = sorted({ctx.kind(u).tec_class for u in p.units if ctx.kind(u).is_combat}) or ["leader"]
    budget = ma * HALF
    if p.kind == LEADERS:
        budget = min(ma, LEADER_MP) * HALF  # a move halted by a reveal goes on with what is left (S54)
    elif p.kind in (HQ, TRAINS):
        budget = min(ma, ctx.d(p.units[0]).inactive_ma) * HALF
    cap = mp_cap(ctx.weather())
    if cap is not None:
        budget = min(budget, cap * HALF)  # 19.4: Heavy Rain
    in_line = [u for u in p.units if p.kind == STACK and units[u].facing is not None]

    def step(a: str, b: str, spent: int) -> tuple[int, bool] | None:
        """(new spent, the move ends there) or None."""
        if b in enemy_held or b in own_trains:
            return None
        if in_line and not line.step_allowed(ctx, in_line[0], a, b, p.start):
            return None  # 19.7 C: a line moves into its front hexes (or one hex back, its whole move)
        back = bool(in_line) and a == p.start and line.is_back_step(ctx, in_line[0], [a, b])
        into = b in ezoc
        if p.kind == STACK or (p.kind == ENTRY and classes != ["leader"]):
            if b in enemy_trains and p.kind != STACK:
                return None
            if into and (p.disengaging or night):
                return None
            costs = [step_cost(sc, c, a, b, marching=march, into_ezoc=into, crowded=a in others or b in others)
                     for c in classes]
            if any(c is None for c in costs):
                return None
            st_ = max((c for c in costs if c is not None), key=lambda c: c.halves)
            extra = 1 if st_.by != "road" and spent % HALF else 0
            return spent + extra + st_.halves, into or back
        if b in enemy_trains or into:
            return None
        if p.kind == HQ:
            c = step_cost(sc, "cavalry", a, b, marching=False, into_ezoc=False, crowded=False)
            return None if c is None else (spent + c.halves, False)
        if p.kind == TRAINS:
            if not sc.could_move("trains", a, b):
                return None
            kind = path_kind(sc, a, b)
            return spent + (1 if kind == "road" else HALF), kind is None
        if not sc.could_move("leader", a, b):
            return None
        return spent + (1 if path_kind(sc, a, b) == "road" else HALF), False

    if p.kind == ENTRY:
        starts = []
        for entry, shift in sorted(entry_choices(sc, units, side, p.listed).items()):  # 13.1: a listed hex or a shift
            t = sc.terrain_at(entry)
            if any(t.is_prohibited(c) for c in classes) or entry in own_trains:
                continue
            if march and (t.no_march or any(x.no_march for x in sc.secondary_at(entry))
                          or march_problem(sc, units, Move(tuple(p.units), (entry,), 0), ezoc) is not None):
                continue  # 4.7 (S18): a march enters by a hex open to marching, free of EZOC (R13)
            cost = max(t.move.get(c, 1) + sum(x.move_add.get(c, 0) for x in sc.secondary_at(entry)) for c in classes)
            if (shift + cost) * HALF <= budget:
                starts.append(((shift + cost) * HALF, entry, [entry], entry in ezoc))
    else:
        starts = [(0, p.start, [p.start], False)]
    best: dict[str, int] = {}
    found: dict[str, list[str]] = {}
    heap: list[tuple[int, str, list[str], bool]] = list(starts)
    heapq.heapify(heap)
    while heap:
        spent, here, path, stop = heapq.heappop(heap)
        if spent > budget or best.get(here, 10**9) <= spent:
            continue
        best[here] = spent
        if len(path) > 1 or p.kind == ENTRY:
            found.setdefault(here, path)
        if stop:
            continue
        for n in sc.grid.neighbors(here):
            if n in path:
                continue
            nxt = step(here, n, spent)
            if nxt is None or nxt[0] > budget:
                continue
            heapq.heappush(heap, (nxt[0], n, path + [n], nxt[1]))
    out: dict[str, list[str]] = {}
    if not check:
        return {d: path for d, path in sorted(found.items()) if len(path) > 1 or p.kind == ENTRY}
    for dest, path in sorted(found.items()):
        try:
            validate_path(ctx, side, p, path, ma, march and p.kind in MARCHERS)
        except IllegalCommand:
            continue
        out[dest] = path
    return out


def path_ok(ctx: StdCtx, side: str, p: Plan, path: Sequence[str], ma: int, march: bool) -> bool:
    try:
        validate_path(ctx, side, p, path, ma, march and p.kind in MARCHERS)
    except IllegalCommand:
        return False
    return True


def march_refusal(ctx: StdCtx, p: Plan) -> str | None:
    """4.7 (R13): why the move may not be marched from where it begins (None: it may): a stack from its hex; a
    reinforcement (13.1, S18) from one of the hexes it may enter by."""
    if p.kind not in MARCHERS or not any(ctx.kind(u).is_combat for u in p.units):
        return "march movement is made by combat units"
    starts = [p.start] if p.kind == STACK else sorted(entry_choices(ctx.sc, ctx.st.units, ctx.side_of(p.units[0]), p.listed))
    ezoc = ctx.zoc_of(ctx.enemy(ctx.side_of(p.units[0])))
    problems = [march_problem(ctx.sc, ctx.st.units, Move(tuple(p.units), (h,), 0), ezoc) for h in starts]
    return None if None in problems else (problems[0] if problems else "there is no hex to enter by")


def march_allowed(ctx: StdCtx, p: Plan) -> bool:
    """4.7 (R13): the stack (or the arriving reinforcement, S18) may march from where it begins."""
    return march_refusal(ctx, p) is None


__all__ = ["Plan", "cmd_declare", "cmd_flip", "cmd_move", "cmd_recover", "cmd_stay", "march_allowed", "march_refusal",
           "mark_moved", "plan", "printed_ma", "reachable", "recover_problem", "recovery_assist_problem",
           "require_movement_phase", "validate_path"]
