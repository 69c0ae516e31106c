"""19.7 line formation as a special rule a scenario switches on (seed 002, special.py, S64, S65).

`line {unit, facing?, on?}`, in the side's own movement phase (`special_rules.line` names the side):

* forming (19.7 A): at the beginning of the phase (before any unit of the side moves, as 19.10's marker and 12.1's
  flip) on one of its undisrupted infantry units alone in a hex the TEC lets a line stand in (`line`: clear and light
  woods), not in an enemy ZOC, facing the apex `facing` (a kernel `Vertex`: E, NNE, NNW, W, SSW, SSE).  The marker is
  the unit's kernel `facing` (`UnitState.facing`, saved, undone, viewed and drawn as a wedge on its counter);
* pivoting (19.7 C): `facing` another apex, out of an enemy ZOC, as the unit's whole move;
* leaving (19.7 A, S52's reading): `on: false`, out of an enemy ZOC; the unit's move is then over.

The marker goes automatically when the unit stacks with another unit (during a move too: a unit passing through its
hex, or the line passing through an occupied one), retreats or routs, is eliminated or disrupted (`sweep`, `drop`).

Its effects (19.7 B-D): the unit moves only into its front hexes with the marker's MA, never marches or disengages,
and out of an EZOC may instead step back into either rear hex (its whole move, `move_problem`); entering or crossing
terrain the TEC does not mark `line` disrupts it (`after_move`); its ZOC reaches only its front hexes (zoc.py); it
attacks only into a front hex and only skirmishes (with the marker's MA) or chooses no tactic (attacks.py,
tactics.py); +2 CF fighting a unit in a front hex, halved attacking, an attacker from its flank tripled and from its
rear doubled (strength.py); each time an enemy combat unit enters one of its flank or rear hexes it checks morale and
routs on a failure (`enemy_entered`, called by moves, entries, retreats and advances).  `line_fire {unit, target}`
(19.7 D): in its combat phase, out of an EZOC, a bombardment of a hex up to two away in its front arc, with the
marker's CF alone (line_fire.py; bombard.py resolves it).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

from ..kernel.errors import IllegalCommand
from ..kernel.facing import Arc, Vertex
from ..kernel.game import check_fields
from ..kernel.state import PHASE_MOVEMENT
from . import markers
from .context import StdCtx
from .special import LINE_KINDS, Line, line_arc, line_front

RULE = "19.7"
KEY = "line"


def rule_of(ctx: StdCtx) -> Line | None:
    return ctx.sc.special.line


def in_line(ctx: StdCtx, uid: str) -> bool:
    """19.7: the unit carries the line marker (its kernel facing; only the line gives a Standard unit one)."""
    return ctx.sc.special.line is not None and ctx.st.units[uid].facing is not None


def lines(ctx: StdCtx) -> dict[str, str]:
    """19.7: every unit in line on the map, with the apex it faces."""
    if ctx.sc.special.line is None:
        return {}
    return {u: s.facing for u, s in ctx.st.units.items() if s.facing is not None and ctx.on_map(u)}


def front(ctx: StdCtx, uid: str) -> tuple[str, ...]:
    """19.7 B: the unit's two front hexes (none when it is not in line)."""
    s = ctx.st.units[uid]
    return () if s.facing is None or s.hex is None else line_front(ctx.sc.grid, s.hex, s.facing)


def neighbours_in(ctx: StdCtx, uid: str, arc: Arc) -> tuple[str, ...]:
    """19.7 B: the unit's adjacent hexes in `arc` (its two flank or its two rear hexes)."""
    s = ctx.st.units[uid]
    if s.facing is None or s.hex is None:
        return ()
    return tuple(n for n in ctx.sc.grid.neighbors(s.hex) if line_arc(ctx.sc.grid, s.hex, s.facing, n) is arc)


def terrain_allows(ctx: StdCtx, hex_: str) -> bool:
    """19.7 A, C (S64): the TEC lets a line stand in and enter the hex: its terrain and every secondary terrain in
    it are marked `line` (clear, light woods)."""
    return ctx.sc.terrain_at(hex_).line and all(x.line for x in ctx.sc.secondary_at(hex_))


def crossing_allows(ctx: StdCtx, a: str, b: str) -> bool:
    """19.7 C (S64): the hexside a|b is clear, a ridge (19.2: clear) or a feature marked `line` (a treeline)."""
    return all(f.line for f in ctx.sc.hexside_effects(a, b))


def _vertex(facing: Any) -> Vertex:
    if not isinstance(facing, str) or facing not in Vertex.__members__:
        raise IllegalCommand("19.7 B", f"a line faces an apex of its hex: one of {', '.join(Vertex.__members__)}")
    return Vertex[facing]


def in_ezoc(ctx: StdCtx, side: str, uid: str) -> bool:
    h = ctx.st.units[uid].hex
    return h is not None and h in ctx.zoc_of(ctx.enemy(side))


# --- 19.7 A, C: forming, pivoting, leaving ----------------------------------------------------------------------
def form_problem(ctx: StdCtx, side: str, uid: str) -> str | None:
    """19.7 A: why `side` may not put `uid` into line now (None: it may)."""
    ln = rule_of(ctx)
    marked = uid in ctx.sc.units and ctx.st.units[uid].facing is not None
    problem = markers.place_problem(ctx, RULE, "line", ln.side if ln else None, LINE_KINDS, marked, side, uid)
    if problem is not None:
        return problem.replace(f"{RULE}:", f"{RULE} A:", 1)
    h = ctx.st.units[uid].hex
    assert h is not None
    if not terrain_allows(ctx, h):
        return f"19.7 A: a line is formed in clear or light woods, not in {ctx.sc.terrain_at(h).name} ({h})"
    if in_ezoc(ctx, side, uid):
        return f"19.7 A: {ctx.name(uid)} is in an enemy zone of control"
    return None


def pivot_problem(ctx: StdCtx, side: str, uid: str) -> str | None:
    """19.7 C: why `uid` may not pivot to another apex now (None: it may)."""
    st = ctx.st
    if uid not in ctx.sc.units or ctx.side_of(uid) != side or not in_line(ctx, uid):
        return "19.7 C: name one of your units in line"
    if st.phase != PHASE_MOVEMENT or st.active != side:
        return "19.7 C: a line pivots in its own movement phase"
    if st.units[uid].moved:
        return f"19.7 C: {ctx.name(uid)} has moved this phase: a pivot is its whole move"
    if ctx.x.get("declared"):
        return "4.4: first carry out the declared move (or stay)"
    if in_ezoc(ctx, side, uid):
        return f"19.7 C: {ctx.name(uid)} is in an enemy zone of control: it may not pivot"
    return None


def leave_problem(ctx: StdCtx, side: str, uid: str) -> str | None:
    """19.7 A (S52, S64): why `side` may not take `uid` out of line now (None: it may)."""
    problem = markers.remove_problem(ctx, RULE, "line", uid in ctx.sc.units and in_line(ctx, uid), side, uid)
    return None if problem is None else problem.replace(f"{RULE}:", f"{RULE} A:", 1)


def refusal(problem: str) -> IllegalCommand:
    rule, _, text = problem.partition(": ")
    return IllegalCommand(rule, text)


def cmd_line(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"unit": "id"}, {})
    on = cmd.get("on", True)
    if not isinstance(on, bool):
        raise IllegalCommand(RULE, "'on' is true or false")
    uid = cmd["unit"]
    s = ctx.st.units.get(uid)
    if not on:
        problem = leave_problem(ctx, side, uid)
        if problem is not None:
            raise refusal(problem)
        assert s is not None
        s.facing = None
        s.moved = True  # S52, S64: removed at the end of its movement
        ctx.dirty()
        ctx.emit(KEY, f"19.7 A: {ctx.name(uid)} leaves line; its move is over", unit=uid, on=False, rule=RULE)
        return
    if "facing" not in cmd:
        raise IllegalCommand("19.7 B", "name the apex the line faces ('facing')")
    vertex = _vertex(cmd["facing"])
    if s is not None and in_line(ctx, uid) and ctx.side_of(uid) == side:
        problem = pivot_problem(ctx, side, uid)
        if problem is None and s.facing == vertex.name:
            problem = f"19.7 C: {ctx.name(uid)} faces {vertex.name} already: a pivot turns it to another apex"
        if problem is not None:
            raise refusal(problem)
        s.facing = vertex.name
        s.moved = True  # 19.7 C: the pivot is the unit's entire move
        ctx.st.any_moved = True
        ctx.dirty()
        ctx.emit(KEY, f"19.7 C: {ctx.name(uid)} pivots to face {vertex.name} (its whole move)", unit=uid, on=True,
                 facing=vertex.name, rule="19.7 C")
        return
    problem = form_problem(ctx, side, uid)
    if problem is not None:
        raise refusal(problem)
    assert s is not None
    s.facing = vertex.name
    ctx.dirty()
    ctx.emit(KEY, f"19.7 A: {ctx.name(uid)} forms line facing {vertex.name}", unit=uid, on=True, facing=vertex.name,
             rule="19.7 A")


# --- 19.7 C: moving in line -------------------------------------------------------------------------------------
def line_ma(ctx: StdCtx, units: Sequence[str]) -> int | None:
    """19.7 C: the marker's MA, for a move of a unit in line (None: no unit of the move is in line)."""
    ln = rule_of(ctx)
    if ln is None or not any(ctx.st.units[u].facing is not None for u in units):
        return None
    return ln.ma


def is_back_step(ctx: StdCtx, uid: str, path: Sequence[str]) -> bool:
    """19.7 C: a one-hex move into one of the unit's rear hexes."""
    return len(path) == 2 and path[1] in neighbours_in(ctx, uid, Arc.REAR)


def step_allowed(ctx: StdCtx, uid: str, a: str, b: str, start: str) -> bool:
    """19.7 C: a unit in line steps from `a` into `b` only into a front hex of `a` (its facing is kept), or from its
    starting hex back into a rear hex (then its move ends there)."""
    facing = ctx.st.units[uid].facing
    assert facing is not None
    return b in line_front(ctx.sc.grid, a, facing) or (a == start and b in neighbours_in(ctx, uid, Arc.REAR))


def move_problem(ctx: StdCtx, units: Sequence[str], path: Sequence[str], halves: int, *, march: bool,
                 disengaging: bool, half: int) -> str | None:
    """19.7 C: why this move may not be made by a unit in line (None: it may, or no unit of it is in line)."""
    ln = rule_of(ctx)
    inline = [u for u in units if ln is not None and ctx.st.units[u].facing is not None]
    if not inline or len(path) < 2:
        return None
    uid = inline[0]
    name = ctx.name(uid)
    if march:
        return f"19.7 C: {name} is in line and may not use march movement"
    if disengaging:
        return f"19.7 C: {name} is in line and may not disengage"
    if is_back_step(ctx, uid, path):
        return None  # 19.7 C: out of an EZOC (not disengaging), one hex back is its whole move
    for a, b in itertools.pairwise(path):
        if b not in line_front(ctx.sc.grid, a, ctx.st.units[uid].facing or ""):
            return (f"19.7 B: {name} is in line and moves only into its front hexes ({b} is not), or one hex back "
                    f"into a rear hex as its whole move")
    assert ln is not None
    if halves > ln.ma * half:
        return f"19.7 C: {name} moves with the line marker's MA ({ln.ma})"
    return None


def after_move(ctx: StdCtx, side: str, units: Sequence[str], path: Sequence[str], *, entering: bool) -> None:
    """19.7 A, C, B after a move along `path` (`entering`: a reinforcement's, its first hex entered too): a unit in
    line that entered or crossed terrain other than clear, light woods or a treeline is disrupted; a unit in line
    stacked with another at any hex of the path loses its marker; enemy lines whose flank or rear the movers
    entered check morale."""
    if rule_of(ctx) is None:
        return
    entered = list(path) if entering else list(path[1:])
    for u in units:
        if ctx.st.units[u].facing is None or not entered:
            continue
        rough = any(not terrain_allows(ctx, b) or not crossing_allows(ctx, a, b)
                    for a, b in itertools.pairwise(path))
        if rough and ctx.disrupt(u, "19.7 C"):
            ctx.emit(KEY, f"19.7 C: {ctx.name(u)} entered or crossed ground a line crosses only in disorder",
                     unit=u, rule="19.7 C")
        if any(set(ctx.units_at(h)) - set(units) for h in entered[:-1]) or len(ctx.units_at(path[-1])) > 1:
            drop(ctx, [u], "stacks with another unit during its move")
    for uid in lines(ctx):  # friendly lines a mover passed through (19.7 A: "during movement")
        if ctx.side_of(uid) == side and uid not in units and ctx.st.units[uid].hex in entered:
            drop(ctx, [uid], "stacks with another unit during a move")
    if any(ctx.kind(u).is_combat for u in units):
        enemy_entered(ctx, side, entered)


def enemy_entered(ctx: StdCtx, side: str, hexes: Iterable[str]) -> None:
    """19.7 B (S65): each hex a moving, entering, retreating or advancing combat unit (or stack) of `side` enters that is
    a flank or rear hex of an enemy line: that line checks morale, and routs if it fails."""
    grid = ctx.sc.grid
    for h in hexes:
        for uid, facing in sorted(lines(ctx).items()):
            here = ctx.st.units[uid].hex
            if ctx.side_of(uid) == side or here is None or not grid.is_adjacent(here, h):
                continue
            arc = line_arc(grid, here, facing, h)
            if arc is Arc.FRONT:
                continue
            if not ctx.morale_check(uid, "19.7 B", f"an enemy unit enters its {arc.value} hex {h}"):
                ctx.emit("rout", f"19.7 B: {ctx.name(uid)} fails its check with the enemy on its {arc.value}: it "
                                 "routs", unit=uid, rule="19.7 B")
                drop(ctx, [uid], "routs")
                ctx.st.tasks.append({"t": "rout", "units": [uid], "rule": "19.7 B"})


def line_attack_problem(ctx: StdCtx, uid: str, target: str) -> str | None:
    """19.7 D (S65): a unit in line attacks only into its front hexes; a skirmish two hexes away only at a hex of its
    front arc, through one of its front hexes."""
    s = ctx.st.units[uid]
    if s.facing is None or s.hex is None or rule_of(ctx) is None:
        return None
    if target in front(ctx, uid):
        return None
    if (ctx.sc.grid.distance(s.hex, target) == 2 and line_arc(ctx.sc.grid, s.hex, s.facing, target) is Arc.FRONT
            and any(ctx.sc.grid.is_adjacent(f, target) for f in front(ctx, uid))):
        return None
    return f"19.7 D: {ctx.name(uid)} is in line and attacks only into its front hexes ({', '.join(front(ctx, uid))})"


def advance_allowed(ctx: StdCtx, uid: str, start: str, path: Sequence[str]) -> bool:
    """19.7 B (S65): a unit in line advances (7.12) only into its front hexes, step by step."""
    facing = ctx.st.units[uid].facing
    if facing is None:
        return True
    here = start
    for h in path:
        if h not in line_front(ctx.sc.grid, here, facing):
            return False
        here = h
    return True


# --- 19.7 A: the marker removed automatically --------------------------------------------------------------------
def drop(ctx: StdCtx, units: Iterable[str], why: str) -> None:
    """19.7 A: these units' line markers are removed automatically (`why`: they retreat, rout, stack...)."""
    for u in units:
        s = ctx.st.units[u]
        if s.facing is not None and rule_of(ctx) is not None:
            s.facing = None
            ctx.dirty()
            ctx.emit(KEY, f"19.7 A: {ctx.name(u)} {why}: its line marker is removed", unit=u, on=False, rule="19.7 A")


def sweep(ctx: StdCtx) -> None:
    """19.7 A: a unit in line eliminated (off the map), disrupted or stacked with another unit loses its marker."""
    marked = [u for u, s in ctx.st.units.items() if s.facing is not None]
    for u, why in markers.lost(ctx, marked):
        drop(ctx, [u], why)


# --- for the bots and the page -------------------------------------------------------------------------------------
def line_commands(ctx: StdCtx, side: str, uid: str) -> list[dict[str, Any]]:
    """The line commands of one unit now: form facing each apex, pivot to each other apex, leave line (its step back
    into a rear hex is a `move` the move search offers)."""
    ln = rule_of(ctx)
    if ln is None or ln.side != side or ctx.st.phase != PHASE_MOVEMENT:
        return []
    s = ctx.st.units[uid]
    if s.facing is None:
        if form_problem(ctx, side, uid) is not None:
            return []
        return [{"type": KEY, "unit": uid, "facing": v.name} for v in Vertex]
    out: list[dict[str, Any]] = []
    if pivot_problem(ctx, side, uid) is None:
        out += [{"type": KEY, "unit": uid, "facing": v.name} for v in Vertex if v.name != s.facing]
    if leave_problem(ctx, side, uid) is None:
        out.append({"type": KEY, "unit": uid, "on": False})
    return out
